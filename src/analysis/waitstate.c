/* waitstate.c — Scalasca's wait-state patterns over the model.
 *
 * Times are the Enter/Leave of the MPI calls; every waiting time is clipped to
 * the time the rank spent in the operation (a partner's begin after our end is
 * a clock-condition case, counted).  Definitions: ecosystem.md §2.2.
 *  - Late Sender: receive (MPI_Recv, Sendrecv) or wait (MPI_Wait*, not Test*)
 *    completing messages: min(latest send enter, recv leave) − recv enter.
 *  - Late Receiver: blocking send (MPI_Send/Ssend/Bsend/Rsend) that ended after
 *    the receive was posted: post call enter − send enter.
 *  - Barrier / N×N: min(latest enter, my leave) − my enter; completion
 *    my leave − max(earliest leave, clipped latest enter).
 *  - Late Broadcast (Bcast, Scatter[v]): non-root, min(root enter, my leave) − my enter.
 *  - Early Reduce (Reduce, Gather[v]): root, min(latest non-root enter, root leave) − root enter.
 *  - Early Scan: member i, min(latest enter of members 0..i, my leave) − my enter.
 * Non-blocking collectives are not analysed (as in Scalasca). */
#include <stdlib.h>
#include <string.h>

#include "analysis_waitstate.h"

const char *const tc_ws_names[TC_WS_COUNT] = {
	"late_sender", "late_receiver", "wait_at_barrier", "barrier_completion", "wait_at_nxn",
	"nxn_completion", "late_broadcast", "early_reduce", "early_scan",
};

const char *const tc_ws_advice[TC_WS_COUNT] = {
	"receiver waited for a sender that started late: balance the sender's work before this message",
	"sender blocked until the receive was posted (synchronous/rendezvous protocol): post receives earlier or use non-blocking sends",
	"ranks waited in a barrier for the last one: balance the work before it, or drop the barrier",
	"ranks stayed in the barrier after the first could leave: barrier implementation or network cost",
	"ranks waited in an all-to-all collective for the last one: balance the work before it",
	"time in the all-to-all collective after the first rank finished: collective cost, message sizes",
	"receivers entered the broadcast/scatter before the root: the root's work delays everyone",
	"the root of a reduce/gather waited for the latest sender: balance the senders' work",
	"a scan waited for lower ranks that entered late",
};

struct acc { VEC(struct tc_wait) w; struct tc_waitstates *r; };

static void add(struct acc *a, uint8_t kind, uint32_t rank, uint32_t call, uint32_t cause, uint32_t cause_call,
		uint64_t ticks, double res)
{
	if (!ticks) return;
	struct tc_wait w = { (double)ticks / res, rank, call, cause, cause_call, kind };
	VEC_PUSH(a->w, w);
	a->r->total[kind] += w.seconds;
	a->r->waited[rank] += w.seconds;
	if (cause != TC_NONE) a->r->caused[cause] += w.seconds;
}

/* waiting from `begin` until `until`, clipped to [begin, end] */
static uint64_t clip_wait(uint64_t begin, uint64_t end, uint64_t until, uint64_t *clamped)
{
	if (until > end) {
		(*clamped)++;
		until = end;
	}
	return until > begin ? until - begin : 0;
}

static void p2p(const struct tc_trace *t, struct acc *a)
{
	double res = (double)t->res;
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		for (uint32_t o = 0; o < R->nops; o++) {
			const struct tc_op *op = &R->ops[o];
			const struct tc_call *c = &R->calls[op->call];
			uint8_t kind = t->regions[c->region].kind;
			/* Late Sender: the latest sender among the messages this call completes */
			if (op->nrecv && (kind == TC_RK_MPI_RECV || kind == TC_RK_MPI_WAIT || kind == TC_RK_MPI_SENDRECV)) {
				const uint32_t *m = tc_op_recvs(t, r, op);
				uint64_t latest = 0;
				uint32_t who = TC_NONE, who_call = TC_NONE;
				for (uint32_t i = 0; i < op->nrecv; i++) {
					const struct tc_msg *msg = &t->msgs[m[i]];
					uint64_t se = t->ranks[msg->src].calls[msg->send_call].enter;
					if (who == TC_NONE || se > latest) { latest = se; who = msg->src; who_call = msg->send_call; }
				}
				add(a, TC_WS_LATE_SENDER, r, op->call, who, who_call,
				    clip_wait(c->enter, c->leave, latest, &a->r->clamped), res);
			}
			/* Late Receiver: blocking sends that ended after the receive was posted */
			if (op->nsend && kind == TC_RK_MPI_SEND) {
				const uint32_t *m = tc_op_sends(t, r, op);
				for (uint32_t i = 0; i < op->nsend; i++) {
					const struct tc_msg *msg = &t->msgs[m[i]];
					if (msg->post_call == TC_NONE) continue;
					uint64_t post = t->ranks[msg->dst].calls[msg->post_call].enter;
					if (c->leave <= post) continue;
					add(a, TC_WS_LATE_RECEIVER, r, op->call, msg->dst, msg->post_call,
					    clip_wait(c->enter, c->leave, post, &a->r->clamped), res);
				}
			}
		}
	}
}

static void collectives(const struct tc_trace *t, struct acc *a)
{
	double res = (double)t->res;
	uint32_t maxn = 0;
	for (size_t i = 0; i < t->ncolls; i++) maxn = TC_MAX(maxn, t->colls[i].n);
	const struct tc_call **call = xmalloc((maxn ? maxn : 1) * sizeof *call);
	uint32_t *member_of = xmalloc((t->nranks ? t->nranks : 1) * sizeof *member_of); /* scans only */
	for (uint32_t k = 0; k < t->nranks; k++) member_of[k] = TC_NONE;
	for (size_t i = 0; i < t->ncolls; i++) {
		const struct tc_coll *co = &t->colls[i];
		if (co->n < 2) continue;
		const struct tc_coll_member *m = &t->coll_members[co->first];
		uint64_t latest = 0, earliest_end = UINT64_MAX;
		uint32_t last = 0;
		for (uint32_t k = 0; k < co->n; k++) {
			call[k] = &t->ranks[m[k].rank].calls[m[k].call];
			if (call[k]->enter > latest || k == 0) { latest = call[k]->enter; last = k; }
			earliest_end = TC_MIN(earliest_end, call[k]->leave);
		}
		enum tc_coll_class cc = tc_coll_class(co->op);
		if (cc == TC_CC_BARRIER || cc == TC_CC_ALL2ALL) {
			uint8_t wk = cc == TC_CC_BARRIER ? TC_WS_WAIT_BARRIER : TC_WS_WAIT_NXN;
			uint8_t ck = cc == TC_CC_BARRIER ? TC_WS_BARRIER_COMPLETION : TC_WS_NXN_COMPLETION;
			for (uint32_t k = 0; k < co->n; k++) {
				/* latest ≥ every enter, so the clipped latest begin is enter + wait */
				uint64_t w = clip_wait(call[k]->enter, call[k]->leave, latest, &a->r->clamped);
				add(a, wk, m[k].rank, m[k].call, m[last].rank, m[last].call, w, res);
				uint64_t from = TC_MAX(earliest_end, call[k]->enter + w);
				add(a, ck, m[k].rank, m[k].call, TC_NONE, TC_NONE,
				    call[k]->leave > from ? call[k]->leave - from : 0, res);
			}
		} else if (cc == TC_CC_ONE2ALL && co->root != TC_NONE) {
			uint32_t root = TC_NONE;
			for (uint32_t k = 0; k < co->n; k++) if (m[k].rank == co->root) root = k;
			if (root == TC_NONE) continue;
			for (uint32_t k = 0; k < co->n; k++)
				if (k != root)
					add(a, TC_WS_LATE_BROADCAST, m[k].rank, m[k].call, co->root, m[root].call,
					    clip_wait(call[k]->enter, call[k]->leave, call[root]->enter, &a->r->clamped), res);
		} else if (cc == TC_CC_ALL2ONE && co->root != TC_NONE) {
			uint32_t root = TC_NONE, ls = TC_NONE;
			uint64_t lse = 0;
			for (uint32_t k = 0; k < co->n; k++) {
				if (m[k].rank == co->root) { root = k; continue; }
				if (ls == TC_NONE || call[k]->enter > lse) { lse = call[k]->enter; ls = k; }
			}
			if (root == TC_NONE || ls == TC_NONE) continue;
			add(a, TC_WS_EARLY_REDUCE, co->root, m[root].call, m[ls].rank, m[ls].call,
			    clip_wait(call[root]->enter, call[root]->leave, lse, &a->r->clamped), res);
		} else if (cc == TC_CC_SCAN) {
			/* walk the members in communicator rank order */
			const struct tc_comm *cm = &t->comms[co->comm];
			uint64_t run = 0;
			uint32_t who = TC_NONE, who_call = TC_NONE;
			for (uint32_t q = 0; q < co->n; q++) member_of[m[q].rank] = q;
			for (uint32_t pos = 0; pos < cm->size; pos++) {
				uint32_t k = cm->members[pos] < t->nranks ? member_of[cm->members[pos]] : TC_NONE;
				if (k == TC_NONE) continue;
				if (who == TC_NONE || call[k]->enter > run) { run = call[k]->enter; who = m[k].rank; who_call = m[k].call; }
				if (who != m[k].rank)
					add(a, TC_WS_EARLY_SCAN, m[k].rank, m[k].call, who, who_call,
					    clip_wait(call[k]->enter, call[k]->leave, run, &a->r->clamped), res);
			}
			for (uint32_t q = 0; q < co->n; q++) member_of[m[q].rank] = TC_NONE;
		}
	}
	free(call);
	free(member_of);
}

static int wait_cmp(const void *x, const void *y)
{
	const struct tc_wait *a = x, *b = y;
	if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
	if (a->call != b->call) return a->call < b->call ? -1 : 1;
	return a->kind - b->kind;
}

struct tc_waitstates *tc_waitstates_compute(const struct tc_trace *t)
{
	struct tc_waitstates *r = xcalloc(1, sizeof *r);
	r->waited = xcalloc(t->nranks ? t->nranks : 1, sizeof(double));
	r->caused = xcalloc(t->nranks ? t->nranks : 1, sizeof(double));
	struct acc a = { .r = r };
	p2p(t, &a);
	collectives(t, &a);
	if (a.w.n) qsort(a.w.a, a.w.n, sizeof *a.w.a, wait_cmp);
	r->w = a.w.a;
	r->n = a.w.n;
	for (uint32_t k = 0; k < t->nranks; k++) {
		const struct tc_rank *R = &t->ranks[k];
		if (R->ncalls) r->run_time += tc_dur(t, R->last_time - R->first_time);
		for (uint32_t c = 0; c < R->ncalls; c++) {
			const struct tc_call *call = &R->calls[c];
			/* outermost MPI calls only: MPI inside MPI is not counted twice */
			if (!TC_RK_IS_MPI(t->regions[call->region].kind)) continue;
			if (call->parent != TC_NONE && TC_RK_IS_MPI(t->regions[R->calls[call->parent].region].kind)) continue;
			r->mpi_time += tc_dur(t, call->leave - call->enter);
		}
	}
	return r;
}

void tc_waitstates_free(struct tc_waitstates *w)
{
	if (!w) return;
	free(w->w);
	free(w->waited);
	free(w->caused);
	free(w);
}
