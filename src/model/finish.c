/* finish.c — turn the builder's raw records into the read-only model:
 * ranks and their master locations, closed calls, paired requests, matched
 * messages, collective instances, and per-call communication ops.
 *
 * Matching rules (see docs/model.md):
 *  - sends and receives of one (communicator, world sender, world receiver,
 *    tag) pair in FIFO order (MPI non-overtaking): the queues are per
 *    (communicator, sender, receiver) and a receive takes the first message
 *    of its tag (docs/model.md, "Matching");
 *  - comm-local ranks go through the communicator's group to world ranks;
 *  - Isend/IsendComplete and IrecvRequest/Irecv pair per location by request
 *    id, in record order (ids are reused after completion);
 *  - the k-th collective record of a rank on communicator C belongs to the
 *    k-th instance on C.
 * Everything is linear (hash tables, counting sorts).
 *
 * The sender's side of every message was written while reading (model.c),
 * into blocks that the reader fills rank after rank; here the blocks become the
 * message array (in place when one block already holds the ranks in order),
 * each receive pops its key's queue, and each rank's ops are built right after
 * its receives, while its records are still in cache. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* --- helpers ------------------------------------------------------------------ */
static uint32_t world_of(const struct tc_trace *t, uint32_t comm, uint32_t local, uint32_t self_rank)
{
	return tcb_world_of(t->comms, t->ncomms, t->nranks, comm, local, self_rank);
}

#define DETACH(dst, ndst, vec) do { (dst) = (vec).a; (ndst) = (uint32_t)(vec).n; (vec).a = NULL; (vec).n = (vec).cap = 0; } while (0)

static void setup_ranks(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	uint32_t nranks = B->nranks;
	t->nranks = nranks;
	t->ranks = xcalloc(nranks ? nranks : 1, sizeof *t->ranks);
	for (uint32_t l = 0; l < t->nlocs; l++)
		if (t->locs[l].type == TC_LOC_CPU) t->nthreads++;
	uint32_t missing = 0;
	for (uint32_t r = 0; r < nranks; r++) {
		struct tc_rank *R = &t->ranks[r];
		R->loc = B->master[r];
		if (R->loc == TC_NONE) { missing++; continue; }
		uint32_t node = B->loc_node.a[R->loc];
		R->node = node < t->nnodes ? node : 0;
		R->calls = t->locs[R->loc].calls;
		R->ncalls = t->locs[R->loc].ncalls;
	}
	if (missing) tc_warn(t, "%u of %u ranks have no CPU location: they appear empty", missing, nranks);
}

/* Calls naming a region the definitions do not have (an unknown OTF2 ref, a
 * corrupt record) get one placeholder region, so that every later
 * t->regions[call->region] is in bounds; one warning says how many.  The
 * calls are only looked at when some Enter named a region not defined at
 * that time (the reader defines them all first): a pass over every call, a
 * half per cent of the load, for nothing otherwise. */
static void placeholder_regions(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	uint32_t nreg = (uint32_t)B->regions.n;
	uint64_t bad = 0;
	for (uint32_t l = 0; l < B->lb.n; l++) {
		if (!B->lb.a[l].odd_regions) continue;
		for (size_t i = 0; i < B->lb.a[l].calls.n; i++) bad += B->lb.a[l].calls.a[i].region >= nreg;
	}
	tc_finish_sum(t, &bad, 1);   /* every part defines the placeholder when one needs it */
	if (!bad) return;
	uint32_t ph = tc_def_region(t, TC_UNDEFINED_REGION, 0, 0, false);
	for (uint32_t l = 0; l < B->lb.n; l++) {
		struct locb *b = &B->lb.a[l];
		for (size_t i = 0; i < b->calls.n; i++)
			if (b->calls.a[i].region >= nreg) b->calls.a[i].region = ph;
	}
	tc_warn(t, "%llu calls name a region that is not defined: shown as %s", (unsigned long long)bad,
		TC_UNDEFINED_REGION);
}

static void close_calls(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	uint64_t v[6] = { 0 };   /* unclosed_locs, unclosed, bad, mism, rev, unpaired */
	uint64_t unclosed_locs = 0, unclosed = 0, bad = 0, mism = 0, rev = 0, unpaired = 0;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		struct locb *b = &B->lb.a[l];
		uint64_t open = 0;
		for (uint32_t i = b->top; i != TC_NONE; i = b->calls.a[i].parent, open++) {
			struct tc_call *c = &b->calls.a[i];
			c->leave = TC_MAX(b->last_time, b->seen_time);
			c->flags |= TC_CALL_UNCLOSED;
		}
		if (open) { unclosed_locs++; unclosed += open; }
		bad += b->bad_leaves;
		mism += b->mismatched_leaves;
		rev += b->time_reversals;
		unpaired += b->unpaired_completes;
		struct tc_loc *L = &t->locs[l];
		DETACH(L->calls, L->ncalls, b->calls);
		for (int k = 0; k < TC_EV_COUNT; k++) {
			t->ev_count[k] += b->count[k];
			L->nevents_read += b->count[k];
		}
		if (L->type == TC_LOC_CPU) t->ncalls += L->ncalls;
	}
	v[0] = unclosed_locs, v[1] = unclosed, v[2] = bad, v[3] = mism, v[4] = rev, v[5] = unpaired;
	tc_finish_sum(t, v, 6);
	tc_finish_sum(t, t->ev_count, TC_EV_COUNT);
	tc_finish_sum(t, &t->ncalls, 1);
	unclosed_locs = v[0], unclosed = v[1], bad = v[2], mism = v[3], rev = v[4], unpaired = v[5];
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


/* --- messages ----------------------------------------------------------------- */
static struct locb *rank_lb(const struct tc_trace *t, uint32_t r)
{
	return t->ranks[r].loc == TC_NONE ? NULL : &t->b->lb.a[t->ranks[r].loc];
}

struct copy_pass { struct tc_trace *t; const struct msgmap *mm; const bool *placed; };

static void copy_rank(void *ctx, uint32_t r, int tid)
{
	(void)tid;
	struct copy_pass *cp = ctx;
	const struct msgmap *mm = cp->mm;
	if (!mm->n[r] || cp->placed[r]) return;
	struct tc_msg *dst = &cp->t->msgs[mm->first[r]];
	tc_prefault(dst, (size_t)mm->n[r] * sizeof *dst);
	memcpy(dst, &blk_msgs(mm->blk[r])[rank_lb(cp->t, r)->blk_first], (size_t)mm->n[r] * sizeof *dst);
}

/* Ranks r.. whose messages fill block k from its start, in rank order (what
 * a reader thread's block holds when nobody stole from its run, or its run
 * minus what was stolen from the back): their number, 0 if k holds others. */
static uint32_t block_ranks(const struct tc_trace *t, const struct msgmap *mm, uint32_t r)
{
	const struct sendblk *k = mm->blk[r];
	size_t at = 0;
	uint32_t q = r;
	for (; q < t->nranks && (mm->n[q] == 0 || mm->blk[q] == k); q++) {
		if (!mm->n[q]) continue;
		if (rank_lb(t, q)->blk_first != at) return 0;
		at += mm->n[q];
	}
	return at == k->nm ? q - r : 0;
}

/* The message array, in rank order, in one mapping.  A block that holds
 * ranks r, r+1, ... in order from its start (a reader thread's) is moved into
 * place by whole pages: the first such block becomes the array (grown), the
 * others are remapped into it, so nothing is faulted in or copied twice;
 * other ranks' messages (locations read apart) are copied. */
size_t fin_layout_messages(struct tc_trace *t, struct msgmap *mm, int threads)
{
	uint32_t n = t->nranks ? t->nranks : 1;
	mm->first = xmalloc(n * sizeof *mm->first);
	mm->n = xcalloc(n, sizeof *mm->n);
	mm->blk = xcalloc(n, sizeof *mm->blk);
	mm->delta = xcalloc(n, sizeof *mm->delta);
	size_t total = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		struct locb *b = rank_lb(t, r);
		mm->first[r] = (uint32_t)total;
		if (!b || !b->nsends) continue;
		mm->n[r] = b->nsends;
		mm->blk[r] = b->blk;
		mm->delta[r] = mm->first[r] - b->blk_first;
		total += b->nsends;
	}
	bool *placed = xcalloc(n, sizeof *placed);
	size_t bytes = (total + 1) * sizeof *t->msgs;
	struct tc_pages *dst = &t->msgs_map;
	for (uint32_t r = 0; r < t->nranks;) {
		uint32_t q = mm->n[r] ? block_ranks(t, mm, r) : 0;
		if (!q) { r++; continue; }
		struct sendblk *k = mm->blk[r];
		if (!dst->p && mm->first[r] == 0) {  /* the first block becomes the array */
			*dst = k->m;
			k->m = (struct tc_pages){ 0 };
			tc_pages_reserve(dst, bytes);
		} else {
			if (!dst->p) tc_pages_reserve(dst, bytes);
			if (!tc_pages_move(dst, (size_t)mm->first[r] * sizeof *t->msgs, &k->m, k->nm * sizeof *t->msgs,
					   threads)) {
				r += q;  /* not moved: copied below like the others */
				continue;
			}
		}
		for (uint32_t i = r; i < r + q; i++) placed[i] = true;
		r += q;
	}
	if (!dst->p) tc_pages_reserve(dst, bytes);
	t->msgs = (struct tc_msg *)(void *)dst->p;
	struct copy_pass cp = { t, mm, placed };
	tc_parallel_for(t->nranks, threads, copy_rank, &cp);
	for (uint32_t r = 0; r < t->nranks; r++) /* the copies are made: free the blocks' arrays */
		if (mm->blk[r]) tc_pages_free(&mm->blk[r]->m);
	free(placed);
	return total;
}

void fin_msgmap_free(struct msgmap *mm)
{
	free(mm->first);
	free(mm->n);
	free(mm->blk);
	free(mm->delta);
}

/* Rank r's ops (calls that communicate) with its messages grouped by op in
 * record order; also the send completion of blocking sends (the send call's
 * leave).  Its receive records are spent: their memory becomes the ops array. */
void fin_ops_rank(void *ctx, uint32_t r, int tid)
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
		sc->oc = xmalloc(n * sizeof *sc->oc);
		for (uint32_t i = 0; i < n; i++) sc->co[i] = TC_NONE;
	}
	uint32_t *ns = sc->ns, *nr = sc->nr, *co = sc->co, *oc = sc->oc;
	const uint32_t *coll_of_rec = op_->coll_of_rec[r];
	struct locb *b = &t->b->lb.a[R->loc];
	struct tc_msg *sm = t->msgs + op_->mm->first[r];
	uint32_t nsend = op_->mm->n[r], nrecv = 0;
	for (uint32_t j = 0; j < nsend; j++) {
		struct tc_msg *m = &sm[j];
		ns[m->send_call]++;
		if (m->send_done == UINT64_MAX) m->send_done = R->calls[m->send_call].leave;
	}
	for (size_t i = 0; i < b->recv.n; i++) {
		const struct raw_recv *p = &b->recv.a[i];
		if (p->msg == TC_NONE) continue;
		nr[p->call]++;
		nrecv++;
	}
	for (size_t i = 0; i < b->coll.n; i++)
		if (coll_of_rec[i] != TC_NONE) co[b->coll.a[i].call] = coll_of_rec[i];
	/* calls with an op, in call order; counts become each op's first slot */
	uint32_t nops = 0, fs = 0, fr = 0;
	for (uint32_t c = 0; c < R->ncalls; c++) {
		if (!(ns[c] || nr[c] || co[c] != TC_NONE)) continue;
		oc[nops++] = c;
		uint32_t k = ns[c];
		ns[c] = fs;
		fs += k;
		k = nr[c];
		nr[c] = fr;
		fr += k;
	}
	/* the calls already hold these indices when the reading numbered the same
	 * ops in the same order (the final ops are among those it numbered) */
	if (nops != b->nops_read || b->ops_unordered) {
		for (uint32_t c = 0; c < R->ncalls; c++) R->calls[c].op = TC_NONE;
		for (uint32_t k = 0; k < nops; k++) R->calls[oc[k]].op = k;
	}
	R->send_msgs = xmalloc((nsend ? nsend : 1) * sizeof(uint32_t));
	R->recv_msgs = xmalloc((nrecv ? nrecv : 1) * sizeof(uint32_t));
	R->nsend_msgs = nsend;
	R->nrecv_msgs = nrecv;
	for (uint32_t j = 0; j < nsend; j++) R->send_msgs[ns[sm[j].send_call]++] = op_->mm->first[r] + j;
	for (size_t i = 0; i < b->recv.n; i++)
		if (b->recv.a[i].msg != TC_NONE) R->recv_msgs[nr[b->recv.a[i].call]++] = b->recv.a[i].msg;
	/* now ns[c], nr[c] are where op c's messages end: the ops, in the receive records' memory */
	R->nops = nops;
	R->ops = xreallocarray(b->recv.a, nops ? nops : 1, sizeof *R->ops);
	b->recv.a = NULL;
	b->recv.n = b->recv.cap = 0;
	for (uint32_t k = 0, ps = 0, pr = 0; k < nops; k++) {
		uint32_t c = oc[k];
		R->ops[k] = (struct tc_op){ .call = c, .first_send = ps, .nsend = ns[c] - ps, .first_recv = pr,
					    .nrecv = nr[c] - pr, .coll = co[c] };
		ps = ns[c];
		pr = nr[c];
		ns[c] = nr[c] = 0; /* reset the scratch for the next rank: only the calls that had an op */
		co[c] = TC_NONE;
	}
	R->first_time = R->ncalls ? R->calls[0].enter : 0;
	R->last_time = b->last_time;
}

/* Threads for the ops pass: scratch of 16 bytes per call of the largest rank
 * each, at most 256 MiB of it in all. */
int fin_ops_threads(struct ops_pass *op, int threads)
{
	for (uint32_t r = 0; r < op->t->nranks; r++) op->maxcalls = TC_MAX(op->maxcalls, op->t->ranks[r].ncalls);
	threads = TC_MAX(threads, 1);
	while (threads > 1 && (uint64_t)op->maxcalls * 16 * (uint64_t)threads > ((uint64_t)256 << 20)) threads--;
	op->sc = xcalloc((size_t)threads, sizeof *op->sc);
	return threads;
}

void fin_ops_free(struct ops_pass *op, int threads)
{
	for (int k = 0; k < threads; k++) {
		free(op->sc[k].ns);
		free(op->sc[k].nr);
		free(op->sc[k].co);
		free(op->sc[k].oc);
	}
	free(op->sc);
}

/* Rank r's ops after unreceived messages were dropped (remap: old id → new
 * id, TC_NONE when dropped; recv_remap the same for the receives, NULL to keep
 * them): message ids renumbered, dropped sends taken out,
 * ops left with nothing removed and the calls' op indices renumbered. */
void fin_ops_drop(struct tc_rank *R, const uint32_t *remap, const uint32_t *recv_remap)
{
	uint32_t ns = 0, no = 0;
	for (uint32_t k = 0; k < R->nops; k++) {
		struct tc_op op = R->ops[k];
		uint32_t first = ns;
		for (uint32_t j = 0; j < op.nsend; j++) {
			uint32_t id = remap[R->send_msgs[op.first_send + j]];
			if (id != TC_NONE) R->send_msgs[ns++] = id;
		}
		for (uint32_t j = 0; recv_remap && j < op.nrecv; j++)
			R->recv_msgs[op.first_recv + j] = recv_remap[R->recv_msgs[op.first_recv + j]];
		op.first_send = first;
		op.nsend = ns - first;
		if (!op.nsend && !op.nrecv && op.coll == TC_NONE) {
			R->calls[op.call].op = TC_NONE;
			continue;
		}
		R->calls[op.call].op = no;
		R->ops[no++] = op;
	}
	R->nops = no;
	R->nsend_msgs = ns;
}

/* Take the head off queue e and ask the memory for the message PREFETCH_POPS
 * pops ahead (model id = block-local id + delta, mod 2^32): the key's next
 * receives come a few records later each, and one pop ahead was measured too
 * late (the matching of the bench trace spends a third less with 4). */
#define PREFETCH_POPS 4
static inline void pop_and_fetch(struct qent *e, const uint32_t *next, const struct tc_msg *msgs, uint32_t delta)
{
	uint32_t popped = e->head;
	e->head = next[popped];
	if (e->head == TC_NONE) {
		e->tail = e->pf = TC_NONE;
		return;
	}
	uint32_t pf = e->pf;
	if (pf == TC_NONE || pf == popped) { /* (re)start the cursor ahead of the new head */
		pf = e->head;
		for (int s = 1; s < PREFETCH_POPS && next[pf] != TC_NONE; s++) pf = next[pf];
	} else if (next[pf] != TC_NONE) {
		pf = next[pf];
	}
	e->pf = pf;
	const struct tc_msg *m = &msgs[(uint32_t)(pf + delta)];
	__builtin_prefetch(m, 1);
	__builtin_prefetch((const char *)(m + 1) - 1, 1);
}

/* A receive that looks past more than SPLIT_SCAN messages of other tags in
 * its (comm, src, dst) queue splits that queue by tag (per-tag queues in the
 * receiving thread's table), so that no receive scans further than this:
 * many tags open at once between two ranks (or sends never received ahead of
 * others) cost one split, not a scan per receive. */
#define SPLIT_SCAN 16

/* Move every message of queue e (key k) to the per-tag queues in bytag, in
 * queue order; e stays empty and marked split. */
static void split_queue(struct qent *e, const struct qkey *k, uint32_t *next, const struct tc_msg *msgs,
			uint32_t delta, struct qtab *bytag)
{
	struct qkey tk = *k;
	for (uint32_t id = e->head, nx; id != TC_NONE; id = nx) {
		nx = next[id];
		next[id] = TC_NONE;
		tk.tag = msgs[(uint32_t)(id + delta)].tag;
		struct qent *q = qtab_find_or_add(bytag, &tk);
		if (q->tail == TC_NONE) q->head = id;
		else next[q->tail] = id;
		q->tail = id;
	}
	e->head = e->tail = e->pf = TC_NONE;
	e->split = true;
}

/* The first message of tag `tag` in queue e (key k), unlinked: its
 * block-local id, TC_NONE if none.  The first of its tag in send order is
 * the one MPI's non-overtaking rule gives this receive. */
static uint32_t take_msg(struct qent *e, const struct qkey *k, uint32_t tag, uint32_t *next,
			 const struct tc_msg *msgs, uint32_t delta, struct qtab *bytag)
{
	if (!e->split) {
		uint32_t prev = TC_NONE, id = e->head, skipped = 0;
		for (; id != TC_NONE && msgs[(uint32_t)(id + delta)].tag != tag && skipped <= SPLIT_SCAN; skipped++) {
			prev = id;
			id = next[id];
		}
		if (id == TC_NONE) return TC_NONE;
		if (skipped <= SPLIT_SCAN) {
			if (prev == TC_NONE) {
				pop_and_fetch(e, next, msgs, delta);
			} else {  /* unlink from the middle */
				next[prev] = next[id];
				if (e->tail == id) e->tail = prev;
				if (e->pf == id) e->pf = TC_NONE;
			}
			return id;
		}
		split_queue(e, k, next, msgs, delta, bytag);
	}
	struct qkey tk = *k;
	tk.tag = tag;
	struct qent *q = qtab_get(bytag, &tk);
	if (!q || q->head == TC_NONE) return TC_NONE;
	uint32_t id = q->head;
	pop_and_fetch(q, next, msgs, delta);
	return id;
}

/* Match rank r's receives: take the first message of its tag from its
 * (comm, src, r) queue (a queue has one receiver, so no two threads touch a
 * queue, its messages' links or a message's receiver side). */
void fin_recv_rank(void *ctx, uint32_t r, int tid)
{
	struct recv_pass *rp = ctx;
	struct tc_trace *t = rp->t;
	const struct msgmap *mm = rp->mm;
	struct recv_acc *acc = &rp->acc[tid];
	if (t->ranks[r].loc == TC_NONE) return;
	struct locb *b = &t->b->lb.a[t->ranks[r].loc];
	for (size_t i = 0; i < b->recv.n; i++) {
		struct raw_recv *p = &b->recv.a[i];
		uint32_t post_call = p->post_call;
		p->msg = TC_NONE;
		uint32_t comm = p->comm == RECV_COMM_NONE ? TC_NONE : p->comm;
		uint32_t src = world_of(t, comm, p->peer, r);
		struct sendblk *k = src < t->nranks ? mm->blk[src] : NULL;
		struct qkey key = { comm, src, r, QTAG_ALL };
		struct qent *e = k ? qtab_get(&k->q, &key) : NULL;
		uint32_t got = e ? take_msg(e, &key, p->tag, blk_next(k), rp->msgs, mm->delta[src], &rp->bytag[tid])
				 : TC_NONE;
		if (got == TC_NONE) { acc->unmatched++; continue; }
		uint32_t id = got + mm->delta[src];
		struct tc_msg *m = &rp->msgs[id];
		m->recv_time = p->time;
		m->recv_call = p->call;
		m->post_time = p->post_time;
		if (p->nb) m->flags |= TC_MSG_NB_RECV;
		m->post_call = post_call != TC_NONE ? post_call : p->nb ? TC_NONE : p->call;
		if (m->recv_time < m->send_time) {
			m->flags |= TC_MSG_CLOCK_BAD;
			acc->clock_bad++;
		}
		if ((m->bytes < UINT32_MAX ? m->bytes : UINT32_MAX) != p->bytes) acc->size_mismatch++;
		acc->bytes += m->bytes;
		p->msg = id;
		acc->matched++;
	}
}

static void recv_and_ops(void *ctx, uint32_t r, int tid)
{
	struct recv_pass *rp = ctx;
	fin_recv_rank(ctx, r, tid);
	fin_ops_rank(rp->ops, r, tid);
}

/* Drop the messages nobody received and renumber the ids in the ops. */
static size_t drop_unreceived(struct tc_trace *t, size_t n)
{
	uint32_t *remap = xmalloc((n ? n : 1) * sizeof *remap), k = 0;
	for (size_t i = 0; i < n; i++) {
		remap[i] = t->msgs[i].recv_call == TC_NONE ? TC_NONE : k;
		if (remap[i] != TC_NONE) t->msgs[k++] = t->msgs[i];
	}
	for (uint32_t r = 0; r < t->nranks; r++) fin_ops_drop(&t->ranks[r], remap, remap);
	free(remap);
	return k;
}

/* Match every receive, build the ops, drop what nobody received, warn. */
static void match_messages(struct tc_trace *t, uint32_t **coll_of_rec)
{
	struct tc_build *B = t->b;
	int threads = TC_MAX(B->threads, 1);
	struct msgmap mm = { 0 };
	size_t nslots = fin_layout_messages(t, &mm, threads);
	struct ops_pass op = { .t = t, .mm = &mm, .coll_of_rec = coll_of_rec };
	int rthreads = fin_ops_threads(&op, threads);
	struct recv_pass rp = { .t = t, .mm = &mm, .msgs = t->msgs, .ops = &op };
	rp.acc = xcalloc((size_t)rthreads, sizeof *rp.acc);
	rp.bytag = xcalloc((size_t)rthreads, sizeof *rp.bytag);
	tc_parallel_for(t->nranks, rthreads, recv_and_ops, &rp);
	fin_ops_free(&op, rthreads);
	for (int k = 0; k < rthreads; k++) qtab_free(&rp.bytag[k]);
	free(rp.bytag);
	uint64_t matched = 0;
	struct recv_acc sum = { 0 };
	for (int k = 0; k < rthreads; k++) fin_recv_acc_add(&sum, &rp.acc[k]);
	matched = sum.matched;
	free(rp.acc);
	size_t nmsgs = nslots;
	if (nslots > matched) nmsgs = drop_unreceived(t, nslots); /* rare: sends nobody received */
	tc_pages_shrink(&t->msgs_map, (nmsgs + 1) * sizeof *t->msgs);
	fin_msgmap_free(&mm);
	t->nmsgs = nmsgs;
	fin_messages_done(t, nslots, &sum);
}

void fin_recv_acc_add(struct recv_acc *sum, const struct recv_acc *a)
{
	sum->unmatched += a->unmatched;
	sum->size_mismatch += a->size_mismatch;
	sum->matched += a->matched;
	sum->clock_bad += a->clock_bad;
	sum->bytes += a->bytes;
}

/* The message counters (summed over the processes of a distributed finish)
 * and their warnings: nslots sends were kept, acc sums the receive pass. */
void fin_messages_done(struct tc_trace *t, uint64_t nslots, const struct recv_acc *acc)
{
	struct tc_build *B = t->b;
	/* kept sends, matched, unmatched receives, size mismatches, clock violations, bytes,
	 * records outside a region, sends to a rank outside the comm, records on other threads */
	uint64_t v[9] = { nslots, acc->matched, acc->unmatched, acc->size_mismatch, acc->clock_bad, acc->bytes };
	for (uint32_t l = 0; l < t->nlocs; l++) {
		v[6] += B->lb.a[l].outside;
		v[7] += B->lb.a[l].badrank;
		v[8] += B->lb.a[l].other_p2p;
	}
	tc_finish_sum(t, v, 9);
	uint64_t unmatched_recvs = v[2], size_mismatch = v[3], outside = v[6], badrank = v[7], other_thread = v[8];
	t->unmatched_sends = v[0] - v[1];
	t->unmatched_recvs = unmatched_recvs;
	t->clock_violations += v[4];
	t->msg_bytes += v[5];
	if (t->unmatched_sends || unmatched_recvs)
		tc_warn(t, "%llu sends and %llu receives have no partner (left out of the analysis)",
			(unsigned long long)t->unmatched_sends, (unsigned long long)unmatched_recvs);
	if (outside) tc_warn(t, "%llu message records outside any region ignored", (unsigned long long)outside);
	if (badrank) tc_warn(t, "%llu sends name a rank outside their communicator", (unsigned long long)badrank);
	if (size_mismatch)
		tc_warn(t, "%llu messages have different sizes at sender and receiver (sender's size used)",
			(unsigned long long)size_mismatch);
	if (t->clock_violations)
		tc_warn(t, "%llu messages received before they were sent (clock condition violated)",
			(unsigned long long)t->clock_violations);
	if (other_thread)
		tc_warn(t, "%llu message records on non-master threads counted but not matched",
			(unsigned long long)other_thread);
}

/* Collective instances: the k-th record of a rank on comm C is instance k on C. */
void fin_coll_scan_init(struct tc_trace *t, struct coll_scan *cs)
{
	uint32_t nc = t->ncomms;
	*cs = (struct coll_scan){ 0 };
	cs->inst = xcalloc(nc ? nc : 1, sizeof *cs->inst);
	cs->seq = xcalloc(nc ? nc : 1, sizeof *cs->seq);
}

/* Rank r's collective records, in order: each joins its instance, created
 * when the rank is the first to get there; coll_of_rec[r][i] = instance of
 * record i (an index into cs->colls), TC_NONE for a record outside a call or
 * on an unknown communicator. */
void fin_coll_scan_rank(struct tc_trace *t, struct coll_scan *cs, uint32_t r, uint32_t **coll_of_rec)
{
	uint32_t nc = t->ncomms;
	if (t->ranks[r].loc == TC_NONE) return;
	struct locb *b = &t->b->lb.a[t->ranks[r].loc];
	coll_of_rec[r] = xmalloc((b->coll.n ? b->coll.n : 1) * sizeof(uint32_t));
	for (size_t i = 0; i < b->coll.n; i++) {
		struct raw_coll *c = &b->coll.a[i];
		coll_of_rec[r][i] = TC_NONE;
		if (c->call == TC_NONE || c->comm >= nc) { cs->bad++; continue; }
		/* a COMM_SELF-like communicator is a different one on every rank:
		 * each of its collectives is an instance of one member */
		bool self = t->comms[c->comm].self;
		uint32_t k = 0;
		if (!self) {
			if (cs->seq[c->comm] == 0) VEC_PUSH(cs->touched, c->comm);
			k = cs->seq[c->comm]++;
		}
		if (self || k == cs->inst[c->comm].n) {
			struct tc_coll nco = { .begin = UINT64_MAX, .end = 0, .comm = c->comm, .op = c->op,
					       .root = world_of(t, c->comm, c->root, r) };
			VEC_PUSH(cs->colls, nco);
			if (!self) VEC_PUSH(cs->inst[c->comm], (uint32_t)cs->colls.n - 1);
		}
		uint32_t id = self ? (uint32_t)cs->colls.n - 1 : cs->inst[c->comm].a[k];
		struct tc_coll *co = &cs->colls.a[id];
		if (co->op != c->op) cs->opmismatch++;
		const struct tc_call *call = &t->ranks[r].calls[c->call];
		if (call->enter < co->begin) co->begin = call->enter;
		if (call->leave > co->end) co->end = call->leave;
		co->n++;
		VEC_RESERVE(cs->mem, cs->mem.n + 1);
		cs->mem.a[cs->mem.n].inst = id;
		cs->mem.a[cs->mem.n].m = (struct tc_coll_member){ r, c->call, c->sent, c->recvd };
		cs->mem.n++;
		coll_of_rec[r][i] = id;
	}
	for (size_t i = 0; i < cs->touched.n; i++) cs->seq[cs->touched.a[i]] = 0;
	cs->touched.n = 0;
}

/* The instances become t->colls, their members (counting sort by instance)
 * t->coll_members. */
void fin_coll_members(struct tc_trace *t, struct coll_scan *cs)
{
	t->ncolls = cs->colls.n;
	t->colls = cs->colls.a;
	cs->colls.a = NULL;
	cs->colls.n = cs->colls.cap = 0;
	t->coll_members = xmalloc((cs->mem.n ? cs->mem.n : 1) * sizeof *t->coll_members);
	uint32_t pos = 0;
	for (size_t i = 0; i < t->ncolls; i++) {
		t->colls[i].first = pos;
		pos += t->colls[i].n;
		t->colls[i].n = 0;
	}
	for (size_t i = 0; i < cs->mem.n; i++) {
		struct tc_coll *co = &t->colls[cs->mem.a[i].inst];
		t->coll_members[co->first + co->n++] = cs->mem.a[i].m;
	}
}

void fin_coll_scan_free(struct tc_trace *t, struct coll_scan *cs)
{
	for (uint32_t c = 0; c < t->ncomms; c++) VEC_FREE(cs->inst[c]);
	free(cs->inst);
	free(cs->seq);
	VEC_FREE(cs->touched);
	VEC_FREE(cs->colls);
	VEC_FREE(cs->mem);
}

/* Instances of colls[0..n) that miss members of their communicator. */
uint64_t fin_colls_incomplete(const struct tc_trace *t, const struct tc_coll *colls, size_t n)
{
	uint64_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tc_comm *cm = &t->comms[colls[i].comm];
		if (!cm->self && colls[i].n < (cm->global ? t->nranks : cm->size)) k++;
	}
	return k;
}

/* v: incomplete instances, records disagreeing on the op, bad records (summed
 * over the processes of a distributed finish). */
void fin_colls_done(struct tc_trace *t, uint64_t v[3])
{
	tc_finish_sum(t, v, 3);
	t->incomplete_colls = v[0];
	if (t->incomplete_colls)
		tc_warn(t, "%llu collective instances miss some members of their communicator",
			(unsigned long long)t->incomplete_colls);
	if (v[1]) tc_warn(t, "%llu collective records disagree on the operation", (unsigned long long)v[1]);
	if (v[2]) tc_warn(t, "%llu collective records outside a region or on an unknown communicator",
			  (unsigned long long)v[2]);
}

static void match_collectives(struct tc_trace *t, uint32_t **coll_of_rec)
{
	struct coll_scan cs;
	fin_coll_scan_init(t, &cs);
	for (uint32_t r = 0; r < t->nranks; r++) fin_coll_scan_rank(t, &cs, r, coll_of_rec);
	fin_coll_members(t, &cs);
	uint64_t v[3] = { fin_colls_incomplete(t, t->colls, t->ncolls), cs.opmismatch, cs.bad };
	fin_colls_done(t, v);
	fin_coll_scan_free(t, &cs);
}

/* Everything before collectives and messages: definitions, metrics, calls, ranks. */
static void finish_begin(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	tcb_ranks(t);
	if (B->nodes.n == 0) tc_def_node(t, "unknown");
	placeholder_regions(t);
	DETACH(t->regions, t->nregions, B->regions);
	DETACH(t->nodes, t->nnodes, B->nodes);
	DETACH(t->comms, t->ncomms, B->comms);
	DETACH(t->locs, t->nlocs, B->locs);
	tc_finish_metrics(t);
	tc_finish_xfers(t);
	close_calls(t);
	setup_ranks(t);
	pick_world(t);
}

static void finish_end(struct tc_trace *t)
{
	t->tmin = UINT64_MAX;
	t->tmax = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		if (!R->ncalls) continue;
		t->tmin = TC_MIN(t->tmin, R->first_time);
		t->tmax = TC_MAX(t->tmax, R->last_time);
	}
	if (t->b->dist) {
		t->b->dist->reduce(t->b->dist->ctx, &t->tmin, 1, TC_DIST_MIN);
		t->b->dist->reduce(t->b->dist->ctx, &t->tmax, 1, TC_DIST_MAX);
	}
	if (t->tmin == UINT64_MAX) t->tmin = t->tmax = t->t0;
	tc_build_free(t->b);
	t->b = NULL;
}

void tc_finish_sum(struct tc_trace *t, uint64_t *v, size_t n)
{
	const struct tc_dist *d = t->b->dist;
	if (d) d->reduce(d->ctx, v, n, TC_DIST_SUM);
}

void tc_trace_finish(struct tc_trace *t)
{
	if (!t->b) return;
	finish_begin(t);
	if (t->b->dist) {
		tc_finish_dist(t);
	} else {
		uint32_t **coll_of_rec = xcalloc(t->nranks ? t->nranks : 1, sizeof *coll_of_rec);
		match_collectives(t, coll_of_rec);
		match_messages(t, coll_of_rec);
		for (uint32_t r = 0; r < t->nranks; r++) free(coll_of_rec[r]);
		free(coll_of_rec);
	}
	finish_end(t);
}
