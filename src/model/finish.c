/* finish.c — turn the builder's raw records into the read-only model:
 * ranks and their master locations, closed calls, paired requests, matched
 * messages, collective instances, and per-call communication ops.
 *
 * Matching rules (see docs/model.md):
 *  - a message is keyed by (communicator, world sender, world receiver, tag);
 *    sends and receives of one key pair in FIFO order (MPI non-overtaking);
 *  - comm-local ranks go through the communicator's group to world ranks;
 *  - Isend/IsendComplete and IrecvRequest/Irecv pair per location by request
 *    id, in record order (ids are reused after completion);
 *  - the k-th collective record of a rank on communicator C belongs to the
 *    k-th instance on C.
 * Everything is linear (hash tables, counting sorts). */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* --- message queues keyed by (comm, src, dst, tag) --------------------------- */
struct qkey { uint32_t comm, src, dst, tag; };
struct qent { struct qkey k; uint32_t head, tail; bool used; };
struct qtab { struct qent *e; size_t cap, n; };

static uint64_t qhash(const struct qkey *k)
{
	uint64_t h = ((uint64_t)k->comm << 32 | k->tag) * 0x9e3779b97f4a7c15ULL;
	h ^= ((uint64_t)k->src << 32 | k->dst) + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

static bool qeq(const struct qkey *a, const struct qkey *b)
{
	return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

static struct qent *qfind(struct qtab *q, const struct qkey *k, bool create)
{
	if (create && (q->n + 1) * 2 > q->cap) {
		struct qent *old = q->e;
		size_t oc = q->cap;
		q->cap = oc ? oc * 2 : 1024;
		q->e = xcalloc(q->cap, sizeof *q->e);
		for (size_t i = 0; i < oc; i++) {
			if (!old[i].used) continue;
			size_t j = qhash(&old[i].k) & (q->cap - 1);
			while (q->e[j].used) j = (j + 1) & (q->cap - 1);
			q->e[j] = old[i];
		}
		free(old);
	}
	if (!q->cap) return NULL;
	size_t j = qhash(k) & (q->cap - 1);
	for (; q->e[j].used; j = (j + 1) & (q->cap - 1))
		if (qeq(&q->e[j].k, k)) return &q->e[j];
	if (!create) return NULL;
	q->e[j] = (struct qent){ .k = *k, .head = TC_NONE, .tail = TC_NONE, .used = true };
	q->n++;
	return &q->e[j];
}

/* --- helpers ------------------------------------------------------------------ */
static uint32_t world_of(const struct tc_trace *t, uint32_t comm, uint32_t local, uint32_t self_rank)
{
	if (comm >= t->ncomms || local == TC_NONE) return TC_NONE;
	const struct tc_comm *c = &t->comms[comm];
	if (c->self) return local == 0 ? self_rank : TC_NONE;
	if (c->global) return local < t->nranks ? local : TC_NONE;
	return local < c->size ? c->members[local] : TC_NONE;
}

#define DETACH(dst, ndst, vec) do { (dst) = (vec).a; (ndst) = (uint32_t)(vec).n; (vec).a = NULL; (vec).n = (vec).cap = 0; } while (0)

static void setup_ranks(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	uint32_t nranks = 0;
	for (uint32_t l = 0; l < t->nlocs; l++)
		if (t->locs[l].rank != TC_NONE && t->locs[l].rank + 1 > nranks) nranks = t->locs[l].rank + 1;
	t->nranks = nranks;
	t->ranks = xcalloc(nranks ? nranks : 1, sizeof *t->ranks);
	for (uint32_t r = 0; r < nranks; r++) t->ranks[r].loc = TC_NONE;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		const struct tc_loc *L = &t->locs[l];
		if (L->type == TC_LOC_CPU) t->nthreads++;
		if (L->rank == TC_NONE || L->type != TC_LOC_CPU) continue;
		struct tc_rank *R = &t->ranks[L->rank];
		if (R->loc == TC_NONE || L->thread < t->locs[R->loc].thread) R->loc = l;
	}
	uint32_t missing = 0;
	for (uint32_t r = 0; r < nranks; r++) {
		struct tc_rank *R = &t->ranks[r];
		if (R->loc == TC_NONE) { missing++; continue; }
		uint32_t node = B->loc_node.a[R->loc];
		R->node = node < t->nnodes ? node : 0;
		R->calls = t->locs[R->loc].calls;
		R->ncalls = t->locs[R->loc].ncalls;
	}
	if (missing) tc_warn(t, "%u of %u ranks have no CPU location: they appear empty", missing, nranks);
}

static void close_calls(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	uint64_t unclosed_locs = 0, unclosed = 0, bad = 0, mism = 0, rev = 0, unpaired = 0;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		struct locb *b = &B->lb.a[l];
		for (size_t i = 0; i < b->stack.n; i++) {
			struct tc_call *c = &b->calls.a[b->stack.a[i]];
			c->leave = b->last_time;
			c->flags |= TC_CALL_UNCLOSED;
		}
		if (b->stack.n) { unclosed_locs++; unclosed += b->stack.n; }
		bad += b->bad_leaves;
		mism += b->mismatched_leaves;
		rev += b->time_reversals;
		unpaired += b->unpaired_completes;
		VEC_FREE(b->stack);
		struct tc_loc *L = &t->locs[l];
		DETACH(L->calls, L->ncalls, b->calls);
		for (int k = 0; k < TC_EV_COUNT; k++) {
			t->ev_count[k] += b->count[k];
			L->nevents_read += b->count[k];
		}
		if (L->type == TC_LOC_CPU) t->ncalls += L->ncalls;
	}
	if (unclosed)
		tc_warn(t, "%llu regions on %llu locations still open at the end: closed at the last timestamp",
			(unsigned long long)unclosed, (unsigned long long)unclosed_locs);
	if (bad) tc_warn(t, "%llu Leave records without a matching Enter ignored", (unsigned long long)bad);
	if (mism) tc_warn(t, "%llu Leave records name another region than the open one", (unsigned long long)mism);
	if (rev) tc_warn(t, "%llu records go back in time on their location", (unsigned long long)rev);
	if (unpaired) tc_warn(t, "%llu IsendComplete records without their Isend", (unsigned long long)unpaired);
}

static void pick_world(struct tc_trace *t)
{
	uint32_t best = TC_NONE;
	for (uint32_t c = 0; c < t->ncomms; c++) {
		if (!strcmp(t->comms[c].name, "MPI_COMM_WORLD")) { t->world = c; return; }
		if (!t->comms[c].self && (best == TC_NONE || t->comms[c].size > t->comms[best].size)) best = c;
	}
	t->world = best;
}


/* Scratch of one thread: per call of the rank, its sends, receives, collective. */
struct ops_scratch { uint32_t *ns, *nr, *co; };
struct ops_pass {
	struct tc_trace *t;
	uint32_t **coll_of_rec;
	uint32_t maxcalls;
	struct ops_scratch *sc;   /* per thread, allocated on first use */
};

static void ops_rank(void *ctx, uint32_t r, int tid)
{
	struct ops_pass *op_ = ctx;
	struct tc_trace *t = op_->t;
	struct tc_rank *R = &t->ranks[r];
	if (R->loc == TC_NONE) return;
	struct ops_scratch *sc = &op_->sc[tid];
	if (!sc->ns) {
		uint32_t n = op_->maxcalls ? op_->maxcalls : 1;
		sc->ns = xcalloc(n, sizeof *sc->ns);
		sc->nr = xcalloc(n, sizeof *sc->nr);
		sc->co = xmalloc(n * sizeof *sc->co);
		for (uint32_t i = 0; i < n; i++) sc->co[i] = TC_NONE;
	}
	uint32_t *ns = sc->ns, *nr = sc->nr, *co = sc->co;
	const uint32_t *coll_of_rec = op_->coll_of_rec[r];
	struct locb *b = &t->b->lb.a[R->loc];
	uint32_t nsend = 0, nrecv = 0;
	for (size_t i = 0; i < b->p2p.n; i++) {
		const struct raw_p2p *p = &b->p2p.a[i];
		if (p->msg == TC_NONE) continue;
		if (p->kind == RAW_SEND || p->kind == RAW_ISEND) { ns[p->call]++; nsend++; }
		else { nr[p->call]++; nrecv++; }
	}
	for (size_t i = 0; i < b->coll.n; i++)
		if (coll_of_rec[i] != TC_NONE) co[b->coll.a[i].call] = coll_of_rec[i];
	uint32_t nops = 0;
	for (uint32_t c = 0; c < R->ncalls; c++)
		if (ns[c] || nr[c] || co[c] != TC_NONE) nops++;
	R->nops = nops;
	R->ops = xmalloc((nops ? nops : 1) * sizeof *R->ops);
	R->send_msgs = xmalloc((nsend ? nsend : 1) * sizeof(uint32_t));
	R->recv_msgs = xmalloc((nrecv ? nrecv : 1) * sizeof(uint32_t));
	tc_prefault(R->ops, nops * sizeof *R->ops);
	R->nsend_msgs = nsend;
	R->nrecv_msgs = nrecv;
	uint32_t o = 0, fs = 0, fr = 0;
	for (uint32_t c = 0; c < R->ncalls; c++) {
		if (!(ns[c] || nr[c] || co[c] != TC_NONE)) continue;
		R->ops[o] = (struct tc_op){ .call = c, .first_send = fs, .nsend = 0, .first_recv = fr,
					    .nrecv = 0, .coll = co[c] };
		R->calls[c].op = o;
		fs += ns[c];
		fr += nr[c];
		o++;
	}
	for (size_t i = 0; i < b->p2p.n; i++) {
		const struct raw_p2p *p = &b->p2p.a[i];
		uint32_t m = p->msg;
		if (m == TC_NONE) continue;
		struct tc_op *op = &R->ops[R->calls[p->call].op];
		if (p->kind == RAW_SEND || p->kind == RAW_ISEND) R->send_msgs[op->first_send + op->nsend++] = m;
		else R->recv_msgs[op->first_recv + op->nrecv++] = m;
	}
	/* reset the scratch arrays for the next rank: only the calls that have an op */
	for (uint32_t k = 0; k < nops; k++) {
		uint32_t c = R->ops[k].call;
		ns[c] = nr[c] = 0;
		co[c] = TC_NONE;
	}
	R->first_time = R->ncalls ? R->calls[0].enter : 0;
	R->last_time = b->last_time;
}

/* Threads for the ops pass: scratch of 12 bytes per call of the largest rank
 * each, at most 256 MiB of it in all. */
static int ops_threads(struct ops_pass *op, int threads)
{
	for (uint32_t r = 0; r < op->t->nranks; r++) op->maxcalls = TC_MAX(op->maxcalls, op->t->ranks[r].ncalls);
	threads = TC_MAX(threads, 1);
	while (threads > 1 && (uint64_t)op->maxcalls * 12 * (uint64_t)threads > ((uint64_t)256 << 20)) threads--;
	op->sc = xcalloc((size_t)threads, sizeof *op->sc);
	return threads;
}

static void ops_free(struct ops_pass *op, int threads)
{
	for (int k = 0; k < threads; k++) {
		free(op->sc[k].ns);
		free(op->sc[k].nr);
		free(op->sc[k].co);
	}
	free(op->sc);
}

/* Per rank: ops (calls that communicate) with their messages grouped; in
 * parallel over ranks.  Replaces ops built before (the receive pass builds them
 * on the fly; they are rebuilt when unreceived sends had to be dropped). */
static void build_ops(struct tc_trace *t, uint32_t **coll_of_rec)
{
	for (uint32_t r = 0; r < t->nranks; r++) {
		struct tc_rank *R = &t->ranks[r];
		for (uint32_t k = 0; k < R->nops; k++) R->calls[R->ops[k].call].op = TC_NONE;
		free(R->ops);
		free(R->send_msgs);
		free(R->recv_msgs);
		R->ops = NULL;
		R->send_msgs = R->recv_msgs = NULL;
		R->nops = R->nsend_msgs = R->nrecv_msgs = 0;
	}
	struct ops_pass op = { .t = t, .coll_of_rec = coll_of_rec };
	int threads = ops_threads(&op, t->b->threads);
	tc_parallel_for(t->nranks, threads, ops_rank, &op);
	ops_free(&op, threads);
}

/* Per-thread counters of the receive pass (padded apart). */
struct recv_acc { uint64_t unmatched, size_mismatch, matched, outside, clock_bad, bytes; char pad[16]; };
struct recv_pass {
	struct tc_trace *t;
	struct qtab *q;          /* the send pass's shards: key.src % nshards */
	uint32_t nshards;
	struct tc_msg *msgs;
	const uint32_t *next;    /* FIFO link of each key's queue, by message id */
	struct recv_acc *acc;
	struct ops_pass *ops;    /* each rank's ops, built while its records are in cache */
};

static void recv_rank(void *ctx, uint32_t r, int tid)
{
	struct recv_pass *rp = ctx;
	struct tc_trace *t = rp->t;
	struct recv_acc *acc = &rp->acc[tid];
	if (t->ranks[r].loc == TC_NONE) return;
	struct locb *b = &t->b->lb.a[t->ranks[r].loc];
	const struct tc_rank *R = &t->ranks[r];
	for (size_t i = 0; i < b->p2p.n; i++) {
		struct raw_p2p *p = &b->p2p.a[i];
		if (p->kind != RAW_RECV && p->kind != RAW_IRECV) continue;
		uint32_t post_call = p->aux_call;
		p->msg = TC_NONE;
		if (p->call == TC_NONE) { acc->outside++; continue; }
		struct qkey k = { p->comm, world_of(t, p->comm, p->peer, r), r, p->tag };
		struct qent *e = k.src == TC_NONE ? NULL : qfind(&rp->q[k.src % rp->nshards], &k, false);
		if (!e || e->head == TC_NONE) { acc->unmatched++; continue; }
		uint32_t id = e->head;
		struct tc_msg *m = &rp->msgs[id];
		e->head = rp->next[id];
		if (e->head == TC_NONE) e->tail = TC_NONE;
		else { /* the key's next receive comes a few records later: fetch its message now */
			__builtin_prefetch(&rp->msgs[e->head], 1);
			__builtin_prefetch((const char *)&rp->msgs[e->head + 1] - 1, 1);
		}
		const struct tc_call *rc = &R->calls[p->call];
		uint8_t rk = t->regions[rc->region].kind;
		m->recv_time = p->time;
		m->recv_call = p->call;
		if (p->kind == RAW_IRECV || rk == TC_RK_MPI_WAIT || rk == TC_RK_MPI_TEST) m->flags |= TC_MSG_NB_RECV;
		if (p->paired && post_call != TC_NONE) {
			m->post_time = p->aux_time;
			m->post_call = post_call;
		} else {
			m->post_time = rc->enter;
			m->post_call = (m->flags & TC_MSG_NB_RECV) ? TC_NONE : p->call;
		}
		if (m->recv_time < m->send_time) {
			m->flags |= TC_MSG_CLOCK_BAD;
			acc->clock_bad++;
		}
		if (p->bytes != m->bytes) acc->size_mismatch++;
		acc->bytes += m->bytes;
		p->msg = id;
		acc->matched++;
	}
}

static void recv_and_ops(void *ctx, uint32_t r, int tid)
{
	struct recv_pass *rp = ctx;
	recv_rank(ctx, r, tid);
	ops_rank(rp->ops, r, tid);
}

/* Send pass, sharded by sender: shard s owns the ranks r ≡ s (mod nshards) and
 * its own queue table (a key holds one sender, so one shard).  Every send
 * record inside a call has a message slot, ids base[r] + k counted while
 * reading, so the same whatever the number of threads; a send to a rank
 * outside its communicator keeps an empty slot (never received, dropped with
 * the unmatched sends). */
struct send_pass {
	struct tc_trace *t;
	struct qtab *q;          /* nshards tables */
	uint32_t nshards;
	const uint32_t *base;    /* first message id of each rank */
	struct tc_msg *msgs;
	uint32_t *next;          /* FIFO link of each key's queue, by message id */
	uint64_t *outside, *badrank; /* per shard */
};

static void send_shard(void *ctx, uint32_t sh, int tid)
{
	(void)tid;
	struct send_pass *sp = ctx;
	struct tc_trace *t = sp->t;
	for (uint32_t r = sh; r < t->nranks; r += sp->nshards) {
		if (t->ranks[r].loc == TC_NONE) continue;
		struct locb *b = &t->b->lb.a[t->ranks[r].loc];
		const struct tc_rank *S = &t->ranks[r];
		uint32_t id = sp->base[r];
		tc_prefault(&sp->msgs[id], (size_t)b->send_slots * sizeof *sp->msgs);
		for (size_t i = 0; i < b->p2p.n; i++) {
			struct raw_p2p *p = &b->p2p.a[i];
			if (p->kind != RAW_SEND && p->kind != RAW_ISEND) continue;
			p->msg = TC_NONE;
			if (p->call == TC_NONE) { sp->outside[sh]++; continue; }
			struct tc_msg *m = &sp->msgs[id];
			p->msg = id;
			sp->next[id] = TC_NONE;
			uint32_t dst = world_of(t, p->comm, p->peer, r);
			if (dst == TC_NONE || dst >= t->nranks) {
				sp->badrank[sh]++;
				*m = (struct tc_msg){ .src = r, .dst = TC_NONE, .send_call = p->call,
						      .recv_call = TC_NONE, .post_call = TC_NONE };
				id++;
				continue;
			}
			const struct tc_call *sc = &S->calls[p->call];
			*m = (struct tc_msg){
				.send_time = p->time, .bytes = p->bytes, .src = r, .dst = dst,
				.send_call = p->call, .recv_call = TC_NONE, .post_call = TC_NONE,
				.tag = p->tag, .comm = p->comm,
				.send_done = p->paired ? p->aux_time : sc->leave,
			};
			if (p->kind == RAW_ISEND || t->regions[sc->region].kind == TC_RK_MPI_ISEND) m->flags |= TC_MSG_NB_SEND;
			struct qkey k = { p->comm, r, dst, p->tag };
			struct qent *e = qfind(&sp->q[sh], &k, true);
			if (e->tail == TC_NONE) e->head = id;
			else sp->next[e->tail] = id;
			e->tail = id++;
		}
	}
}

/* Drop the message slots nobody received; renumber the records' message ids. */
static size_t drop_unreceived(struct tc_trace *t, struct tc_msg *msgs, size_t n)
{
	uint32_t *remap = xmalloc((n ? n : 1) * sizeof *remap), k = 0;
	for (size_t i = 0; i < n; i++) {
		remap[i] = msgs[i].recv_call == TC_NONE ? TC_NONE : k;
		if (remap[i] != TC_NONE) msgs[k++] = msgs[i];
	}
	for (uint32_t r = 0; r < t->nranks; r++) {
		if (t->ranks[r].loc == TC_NONE) continue;
		struct locb *b = &t->b->lb.a[t->ranks[r].loc];
		for (size_t i = 0; i < b->p2p.n; i++)
			if (b->p2p.a[i].msg != TC_NONE) b->p2p.a[i].msg = remap[b->p2p.a[i].msg];
	}
	free(remap);
	return k;
}

/* Messages are created in the send pass, one per send record, with the sender's
 * side filled in; a separate link array chains each key's FIFO queue until a
 * receive pops it.  The receive pass then touches one message record per
 * receive, fetched ahead while the previous one of its key is matched.  Both
 * passes run in parallel (senders sharded, receivers independent).  Afterwards
 * every matched p2p record carries its message id (raw_p2p.msg). */
static void match_messages(struct tc_trace *t, uint32_t **coll_of_rec)
{
	struct tc_build *B = t->b;
	int threads = TC_MAX(B->threads, 1);
	uint64_t outside = 0, badrank = 0;
	uint32_t *base = xmalloc(((size_t)t->nranks + 1) * sizeof *base);
	size_t nslots = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		base[r] = (uint32_t)nslots;
		if (t->ranks[r].loc != TC_NONE) nslots += B->lb.a[t->ranks[r].loc].send_slots;
	}
	struct tc_msg *msgs = xmalloc((nslots + 1) * sizeof *msgs);
	uint32_t *next = xmalloc((nslots + 1) * sizeof *next);
	struct send_pass sp = { .t = t, .nshards = (uint32_t)threads, .base = base, .msgs = msgs, .next = next };
	sp.q = xcalloc((size_t)threads, sizeof *sp.q);
	sp.outside = xcalloc((size_t)threads, sizeof *sp.outside);
	sp.badrank = xcalloc((size_t)threads, sizeof *sp.badrank);
	tc_parallel_for(sp.nshards, threads, send_shard, &sp);
	for (int k = 0; k < threads; k++) {
		outside += sp.outside[k];
		badrank += sp.badrank[k];
	}
	free(sp.outside);
	free(sp.badrank);
	free(base);
	struct qtab *shards = sp.q;
	/* receive pass, in parallel over receiving ranks: a key's queue is popped
	 * only by its receiver, and a message is written only by its receiver */
	struct ops_pass op = { .t = t, .coll_of_rec = coll_of_rec };
	int rthreads = ops_threads(&op, threads);
	struct recv_pass rp = { .t = t, .q = shards, .nshards = sp.nshards, .msgs = msgs, .next = next, .ops = &op };
	rp.acc = xcalloc((size_t)rthreads, sizeof *rp.acc);
	tc_parallel_for(t->nranks, rthreads, recv_and_ops, &rp);
	ops_free(&op, rthreads);
	uint64_t unmatched_recvs = 0, size_mismatch = 0, matched = 0;
	for (int k = 0; k < rthreads; k++) {
		unmatched_recvs += rp.acc[k].unmatched;
		size_mismatch += rp.acc[k].size_mismatch;
		matched += rp.acc[k].matched;
		outside += rp.acc[k].outside;
		t->clock_violations += rp.acc[k].clock_bad;
		t->msg_bytes += rp.acc[k].bytes;
	}
	free(rp.acc);
	free(next);
	for (int k = 0; k < threads; k++) free(shards[k].e);
	free(shards);
	uint64_t unmatched_sends = nslots - matched - badrank;
	size_t nmsgs = nslots;
	if (nslots > matched) { /* rare: the ops counted sends nobody received */
		nmsgs = drop_unreceived(t, msgs, nslots);
		build_ops(t, coll_of_rec);
	}
	t->msgs = msgs;
	t->nmsgs = nmsgs;
	t->unmatched_sends = unmatched_sends;
	t->unmatched_recvs = unmatched_recvs;
	if (unmatched_sends || unmatched_recvs)
		tc_warn(t, "%llu sends and %llu receives have no partner (left out of the analysis)",
			(unsigned long long)unmatched_sends, (unsigned long long)unmatched_recvs);
	if (outside) tc_warn(t, "%llu message records outside any region ignored", (unsigned long long)outside);
	if (badrank) tc_warn(t, "%llu sends name a rank outside their communicator", (unsigned long long)badrank);
	if (size_mismatch)
		tc_warn(t, "%llu messages have different sizes at sender and receiver (sender's size used)",
			(unsigned long long)size_mismatch);
	if (t->clock_violations)
		tc_warn(t, "%llu messages received before they were sent (clock condition violated)",
			(unsigned long long)t->clock_violations);
	/* point-to-point records on non-master threads are counted but not matched */
	uint64_t other_thread = 0;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		const struct tc_loc *L = &t->locs[l];
		if (L->rank != TC_NONE && L->rank < t->nranks && t->ranks[L->rank].loc == l) continue;
		other_thread += B->lb.a[l].p2p.n;
	}
	if (other_thread)
		tc_warn(t, "%llu message records on non-master threads counted but not matched",
			(unsigned long long)other_thread);
}

/* Collective instances: the k-th record of a rank on comm C is instance k on C. */
static void match_collectives(struct tc_trace *t, uint32_t **coll_of_rec)
{
	struct tc_build *B = t->b;
	uint32_t nc = t->ncomms;
	VEC(uint32_t) *inst = xcalloc(nc ? nc : 1, sizeof *inst);      /* per comm: instance ids by seq */
	uint32_t *seq = xcalloc(nc ? nc : 1, sizeof *seq);
	VEC(uint32_t) touched = { 0 };
	VEC(struct tc_coll) colls = { 0 };
	struct memref { uint32_t inst; struct tc_coll_member m; };
	VEC(struct memref) mem = { 0 };
	uint64_t bad = 0, opmismatch = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		if (t->ranks[r].loc == TC_NONE) continue;
		struct locb *b = &B->lb.a[t->ranks[r].loc];
		coll_of_rec[r] = xmalloc((b->coll.n ? b->coll.n : 1) * sizeof(uint32_t));
		for (size_t i = 0; i < b->coll.n; i++) {
			struct raw_coll *c = &b->coll.a[i];
			coll_of_rec[r][i] = TC_NONE;
			if (c->call == TC_NONE || c->comm >= nc) { bad++; continue; }
			/* a COMM_SELF-like communicator is a different one on every rank:
			 * each of its collectives is an instance of one member */
			bool self = t->comms[c->comm].self;
			uint32_t k = 0;
			if (!self) {
				if (seq[c->comm] == 0) VEC_PUSH(touched, c->comm);
				k = seq[c->comm]++;
			}
			if (self || k == inst[c->comm].n) {
				struct tc_coll nco = { .begin = UINT64_MAX, .end = 0, .comm = c->comm, .op = c->op,
						       .root = world_of(t, c->comm, c->root, r) };
				VEC_PUSH(colls, nco);
				if (!self) VEC_PUSH(inst[c->comm], (uint32_t)colls.n - 1);
			}
			uint32_t id = self ? (uint32_t)colls.n - 1 : inst[c->comm].a[k];
			struct tc_coll *co = &colls.a[id];
			if (co->op != c->op) opmismatch++;
			const struct tc_call *call = &t->ranks[r].calls[c->call];
			if (call->enter < co->begin) co->begin = call->enter;
			if (call->leave > co->end) co->end = call->leave;
			co->n++;
			VEC_RESERVE(mem, mem.n + 1);
			mem.a[mem.n].inst = id;
			mem.a[mem.n].m = (struct tc_coll_member){ r, c->call, c->sent, c->recvd };
			mem.n++;
			coll_of_rec[r][i] = id;
		}
		for (size_t i = 0; i < touched.n; i++) seq[touched.a[i]] = 0;
		touched.n = 0;
	}
	/* counting sort of members by instance */
	t->ncolls = colls.n;
	t->colls = colls.a;
	t->coll_members = xmalloc((mem.n ? mem.n : 1) * sizeof *t->coll_members);
	uint32_t pos = 0;
	for (size_t i = 0; i < t->ncolls; i++) {
		t->colls[i].first = pos;
		pos += t->colls[i].n;
		t->colls[i].n = 0;
	}
	for (size_t i = 0; i < mem.n; i++) {
		struct tc_coll *co = &t->colls[mem.a[i].inst];
		t->coll_members[co->first + co->n++] = mem.a[i].m;
	}
	for (size_t i = 0; i < t->ncolls; i++) {
		const struct tc_comm *cm = &t->comms[t->colls[i].comm];
		if (!cm->self && t->colls[i].n < (cm->global ? t->nranks : cm->size)) t->incomplete_colls++;
	}
	if (t->incomplete_colls)
		tc_warn(t, "%llu collective instances miss some members of their communicator",
			(unsigned long long)t->incomplete_colls);
	if (opmismatch) tc_warn(t, "%llu collective records disagree on the operation", (unsigned long long)opmismatch);
	if (bad) tc_warn(t, "%llu collective records outside a region or on an unknown communicator",
			 (unsigned long long)bad);
	for (uint32_t c = 0; c < nc; c++) VEC_FREE(inst[c]);
	free(inst);
	free(seq);
	VEC_FREE(touched);
	VEC_FREE(mem);
}

void tc_trace_finish(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	if (!B) return;
	if (B->nodes.n == 0) tc_def_node(t, "unknown");
	DETACH(t->regions, t->nregions, B->regions);
	DETACH(t->nodes, t->nnodes, B->nodes);
	DETACH(t->comms, t->ncomms, B->comms);
	DETACH(t->locs, t->nlocs, B->locs);
	close_calls(t);
	setup_ranks(t);
	pick_world(t);

	uint32_t **coll_of_rec = xcalloc(t->nranks ? t->nranks : 1, sizeof *coll_of_rec);
	match_collectives(t, coll_of_rec);
	match_messages(t, coll_of_rec);
	for (uint32_t r = 0; r < t->nranks; r++) free(coll_of_rec[r]);
	free(coll_of_rec);

	t->tmin = UINT64_MAX;
	t->tmax = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		if (!R->ncalls) continue;
		t->tmin = TC_MIN(t->tmin, R->first_time);
		t->tmax = TC_MAX(t->tmax, R->last_time);
	}
	if (t->tmin == UINT64_MAX) t->tmin = t->tmax = t->t0;

	for (size_t i = 0; i < B->lb.n; i++) tc_locb_free(&B->lb.a[i]);
	VEC_FREE(B->lb);
	VEC_FREE(B->loc_node);
	free(B);
	t->b = NULL;
}
