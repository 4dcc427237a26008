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

#include "waitstate_internal.h"

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

static void add(struct ws_acc *a, uint8_t kind, uint32_t rank, uint32_t call, uint32_t cause, uint32_t cause_call,
		uint64_t ticks, double res)
{
	if (!ticks) return;
	struct tc_wait w = { (double)ticks / res, rank, call, cause, cause_call, kind };
	VEC_PUSH(a->w, w);
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

static void serial_msg(const void *ctx, uint32_t id, struct ws_msg *m);

/* The other side of every message rank r receives, in its receive order,
 * before the op loop: the messages come from other ranks and each needs its
 * sender's call, and fetched one by one inside the op loop their misses came
 * one at a time.  The serial model's senders' enters come from
 * tc_rank_receives, whose misses overlap (a part's messages are another
 * process's: msg_of). */
static const struct ws_msg *rank_receives(const struct tc_trace *t, uint32_t r, ws_msg_fn msg_of, const void *ctx,
					  struct ws_acc *a)
{
	const struct tc_rank *R = &t->ranks[r];
	uint32_t n = R->nrecv_msgs;
	VEC_RESERVE(a->rx, n);
	if (msg_of != serial_msg) {
		for (uint32_t i = 0; i < n; i++) msg_of(ctx, R->recv_msgs[i], &a->rx.a[i]);
		return a->rx.a;
	}
	VEC_RESERVE(a->recv, n);
	tc_rank_receives(t, R, a->recv.a);
	for (uint32_t i = 0; i < n; i++) {
		const struct tc_recv *m = &a->recv.a[i];
		a->rx.a[i] = (struct ws_msg){ m->send_enter, 0, m->src, m->send_call, r, m->post_call };
		if (m->post_call != TC_NONE) a->rx.a[i].post_enter = R->calls[m->post_call].enter;
	}
	return a->rx.a;
}

void ws_p2p_rank(const struct tc_trace *t, uint32_t r, ws_msg_fn msg_of, const void *ctx, struct ws_acc *a)
{
	double res = (double)t->res;
	const struct tc_rank *R = &t->ranks[r];
	const struct ws_msg *rx = rank_receives(t, r, msg_of, ctx, a);
	for (uint32_t o = 0; o < R->nops; o++) {
		const struct tc_op *op = &R->ops[o];
		const struct tc_call *c = &R->calls[op->call];
		uint8_t kind = t->regions[c->region].kind;
		struct ws_msg msg;
		/* Late Sender: the latest sender among the messages this call completes */
		if (op->nrecv && (kind == TC_RK_MPI_RECV || kind == TC_RK_MPI_WAIT || kind == TC_RK_MPI_SENDRECV)) {
			const struct ws_msg *m = rx + op->first_recv;
			uint64_t latest = 0;
			uint32_t who = TC_NONE, who_call = TC_NONE;
			for (uint32_t i = 0; i < op->nrecv; i++) {
				if (who == TC_NONE || m[i].send_enter > latest) {
					latest = m[i].send_enter;
					who = m[i].src;
					who_call = m[i].send_call;
				}
			}
			add(a, TC_WS_LATE_SENDER, r, op->call, who, who_call, clip_wait(c->enter, c->leave, latest, &a->clamped),
			    res);
		}
		/* Late Receiver: blocking sends that ended after the receive was posted */
		if (op->nsend && kind == TC_RK_MPI_SEND) {
			const uint32_t *m = tc_op_sends(t, r, op);
			for (uint32_t i = 0; i < op->nsend; i++) {
				msg_of(ctx, m[i], &msg);
				if (msg.post_call == TC_NONE || c->leave <= msg.post_enter) continue;
				add(a, TC_WS_LATE_RECEIVER, r, op->call, msg.dst, msg.post_call,
				    clip_wait(c->enter, c->leave, msg.post_enter, &a->clamped), res);
			}
		}
	}
}

/* Barrier and N×N: waiting for the last, then the completion. */
static void coll_nxn(const struct tc_coll *co, const struct ws_member *m, uint8_t wk, uint8_t ck, double res,
		     struct ws_acc *a)
{
	uint64_t latest = 0, earliest_end = UINT64_MAX;
	uint32_t last = 0;
	for (uint32_t k = 0; k < co->n; k++) {
		if (m[k].enter > latest || k == 0) { latest = m[k].enter; last = k; }
		earliest_end = TC_MIN(earliest_end, m[k].leave);
	}
	for (uint32_t k = 0; k < co->n; k++) {
		/* latest ≥ every enter, so the clipped latest begin is enter + wait */
		uint64_t w = clip_wait(m[k].enter, m[k].leave, latest, &a->clamped);
		add(a, wk, m[k].rank, m[k].call, m[last].rank, m[last].call, w, res);
		uint64_t from = TC_MAX(earliest_end, m[k].enter + w);
		add(a, ck, m[k].rank, m[k].call, TC_NONE, TC_NONE, m[k].leave > from ? m[k].leave - from : 0, res);
	}
}

/* Scan: members in communicator rank order, each waiting for the latest lower one. */
static void coll_scan(const struct tc_trace *t, const struct tc_coll *co, const struct ws_member *m,
		      uint32_t *member_of, double res, struct ws_acc *a)
{
	const struct tc_comm *cm = &t->comms[co->comm];
	uint64_t run = 0;
	uint32_t who = TC_NONE, who_call = TC_NONE;
	for (uint32_t q = 0; q < co->n; q++) member_of[m[q].rank] = q;
	for (uint32_t pos = 0; pos < cm->size; pos++) {
		uint32_t k = cm->members[pos] < t->nranks ? member_of[cm->members[pos]] : TC_NONE;
		if (k == TC_NONE) continue;
		if (who == TC_NONE || m[k].enter > run) { run = m[k].enter; who = m[k].rank; who_call = m[k].call; }
		if (who != m[k].rank)
			add(a, TC_WS_EARLY_SCAN, m[k].rank, m[k].call, who, who_call,
			    clip_wait(m[k].enter, m[k].leave, run, &a->clamped), res);
	}
	for (uint32_t q = 0; q < co->n; q++) member_of[m[q].rank] = TC_NONE;
}

void ws_coll(const struct tc_trace *t, const struct tc_coll *co, const struct ws_member *m, uint32_t *member_of,
	     struct ws_acc *a)
{
	double res = (double)t->res;
	if (co->n < 2) return;
	enum tc_coll_class cc = tc_coll_class(co->op);
	if (cc == TC_CC_BARRIER) coll_nxn(co, m, TC_WS_WAIT_BARRIER, TC_WS_BARRIER_COMPLETION, res, a);
	else if (cc == TC_CC_ALL2ALL) coll_nxn(co, m, TC_WS_WAIT_NXN, TC_WS_NXN_COMPLETION, res, a);
	else if (cc == TC_CC_ONE2ALL && co->root != TC_NONE) {
		uint32_t root = TC_NONE;
		for (uint32_t k = 0; k < co->n; k++) if (m[k].rank == co->root) root = k;
		if (root == TC_NONE) return;
		for (uint32_t k = 0; k < co->n; k++)
			if (k != root)
				add(a, TC_WS_LATE_BROADCAST, m[k].rank, m[k].call, co->root, m[root].call,
				    clip_wait(m[k].enter, m[k].leave, m[root].enter, &a->clamped), res);
	} else if (cc == TC_CC_ALL2ONE && co->root != TC_NONE) {
		uint32_t root = TC_NONE, ls = TC_NONE;
		uint64_t lse = 0;
		for (uint32_t k = 0; k < co->n; k++) {
			if (m[k].rank == co->root) { root = k; continue; }
			if (ls == TC_NONE || m[k].enter > lse) { lse = m[k].enter; ls = k; }
		}
		if (root == TC_NONE || ls == TC_NONE) return;
		add(a, TC_WS_EARLY_REDUCE, co->root, m[root].call, m[ls].rank, m[ls].call,
		    clip_wait(m[root].enter, m[root].leave, lse, &a->clamped), res);
	} else if (cc == TC_CC_SCAN) coll_scan(t, co, m, member_of, res, a);
}

static int longer(const void *a, const void *b, void *ctx)
{
	const struct tc_wait *w = ctx;
	uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
	if (w[i].seconds != w[k].seconds) return w[i].seconds > w[k].seconds ? -1 : 1;
	return i < k ? -1 : i > k;
}

static int by_index(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
	return i < k ? -1 : i > k;
}

size_t ws_longest(const struct tc_wait *w, size_t n, size_t longest, uint32_t **idx)
{
	*idx = xmalloc((n ? n : 1) * sizeof **idx);
	for (size_t i = 0; i < n; i++) (*idx)[i] = (uint32_t)i;
	qsort_r(*idx, n, sizeof **idx, longer, (void *)w);
	size_t k = longest && longest < n ? longest : n;
	qsort(*idx, k, sizeof **idx, by_index);
	return k;
}

int ws_wait_cmp(const void *x, const void *y)
{
	const struct tc_wait *a = x, *b = y;
	if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
	if (a->call != b->call) return a->call < b->call ? -1 : 1;
	return a->kind - b->kind;
}

struct tc_waitstates *ws_new(uint32_t nranks)
{
	struct tc_waitstates *r = xcalloc(1, sizeof *r);
	r->waited = xcalloc(nranks ? nranks : 1, sizeof(double));
	r->caused = xcalloc(nranks ? nranks : 1, sizeof(double));
	return r;
}

void ws_times(const struct tc_trace *t, uint32_t lo, uint32_t hi, double *run, double *mpi)
{
	for (uint32_t k = lo; k < hi; k++) {
		const struct tc_rank *R = &t->ranks[k];
		if (R->ncalls) *run += tc_dur(t, R->last_time - R->first_time);
		for (uint32_t c = 0; c < R->ncalls; c++) {
			const struct tc_call *call = &R->calls[c];
			/* outermost MPI calls only: MPI inside MPI is not counted twice */
			if (tc_call_outermost_mpi(t, R, call)) *mpi += tc_dur(t, call->leave - call->enter);
		}
	}
}

/* The serial model's side of message id. */
static void serial_msg(const void *ctx, uint32_t id, struct ws_msg *m)
{
	const struct tc_trace *t = ctx;
	const struct tc_msg *msg = &t->msgs[id];
	*m = (struct ws_msg){ tc_msg_send_enter(t, msg), 0, msg->src, msg->send_call, msg->dst,
			      msg->post_call };
	if (msg->post_call != TC_NONE) m->post_enter = t->ranks[msg->dst].calls[msg->post_call].enter;
}

static void serial_colls(const struct tc_trace *t, struct ws_acc *a)
{
	uint32_t maxn = 0;
	for (size_t i = 0; i < t->ncolls; i++) maxn = TC_MAX(maxn, t->colls[i].n);
	struct ws_member *m = xmalloc((maxn ? maxn : 1) * sizeof *m);
	uint32_t *member_of = xmalloc((t->nranks ? t->nranks : 1) * sizeof *member_of); /* scans only */
	for (uint32_t k = 0; k < t->nranks; k++) member_of[k] = TC_NONE;
	for (size_t i = 0; i < t->ncolls; i++) {
		const struct tc_coll *co = &t->colls[i];
		const struct tc_coll_member *cm = &t->coll_members[co->first];
		for (uint32_t k = 0; k < co->n; k++) {
			const struct tc_call *c = &t->ranks[cm[k].rank].calls[cm[k].call];
			m[k] = (struct ws_member){ c->enter, c->leave, cm[k].rank, cm[k].call };
		}
		ws_coll(t, co, m, member_of, a);
	}
	free(m);
	free(member_of);
}

struct tc_waitstates *tc_waitstates_compute(const struct tc_trace *t)
{
	struct tc_waitstates *r = ws_new(t->nranks);
	struct ws_acc a = { 0 };
	for (uint32_t k = 0; k < t->nranks; k++) ws_p2p_rank(t, k, serial_msg, t, &a);
	serial_colls(t, &a);
	for (size_t i = 0; i < a.w.n; i++) {   /* the sums in the order found: p2p by rank, then instances */
		const struct tc_wait *w = &a.w.a[i];
		r->total[w->kind] += w->seconds;
		r->waited[w->rank] += w->seconds;
		if (w->cause != TC_NONE) r->caused[w->cause] += w->seconds;
	}
	VEC_FREE(a.rx);
	VEC_FREE(a.recv);
	if (a.w.n) qsort(a.w.a, a.w.n, sizeof *a.w.a, ws_wait_cmp);
	r->w = a.w.a;
	r->n = a.w.n;
	r->clamped = a.clamped;
	ws_times(t, 0, t->nranks, &r->run_time, &r->mpi_time);
	return r;
}

void tc_waitstates_free(struct tc_waitstates *w)
{
	if (!w) return;
	free(w->w);
	free(w->at);
	free(w->waited);
	free(w->caused);
	free(w);
}
