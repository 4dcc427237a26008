/* model.c — definitions, the per-location event builder, and model accessors. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model_internal.h"

const char *const tc_ev_kind_names[TC_EV_COUNT] = {
	"enter", "leave", "mpi_send", "mpi_isend", "mpi_isend_complete", "mpi_irecv_request",
	"mpi_irecv", "mpi_recv", "collective_begin", "collective_end", "other",
};

struct tc_trace *tc_trace_new(uint64_t res, uint64_t t0, uint64_t length)
{
	struct tc_trace *t = xcalloc(1, sizeof *t);
	t->res = res ? res : 1;
	t->t0 = t0;
	t->length = length;
	t->world = TC_NONE;
	t->arena = arena_new(1 << 20);
	t->b = xcalloc(1, sizeof *t->b);
	pthread_mutex_init(&t->b->mu, NULL);
	t->anchor = xstrdup("");
	return t;
}

void tc_warn(struct tc_trace *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *raw = xvasprintf(fmt, ap);
	va_end(ap);
	char *s = tc_clean_text(raw);  /* warnings quote names and paths */
	free(raw);
	VEC_PUSH(t->warnings, s);
}

/* --- region classification ------------------------------------------------ */
static const struct { const char *name; enum tc_region_kind kind; } mpi_names[] = {
	{ "MPI_Send", TC_RK_MPI_SEND }, { "MPI_Ssend", TC_RK_MPI_SEND }, { "MPI_Bsend", TC_RK_MPI_SEND },
	{ "MPI_Rsend", TC_RK_MPI_SEND },
	{ "MPI_Isend", TC_RK_MPI_ISEND }, { "MPI_Issend", TC_RK_MPI_ISEND }, { "MPI_Ibsend", TC_RK_MPI_ISEND },
	{ "MPI_Irsend", TC_RK_MPI_ISEND },
	{ "MPI_Recv", TC_RK_MPI_RECV }, { "MPI_Irecv", TC_RK_MPI_IRECV },
	{ "MPI_Sendrecv", TC_RK_MPI_SENDRECV }, { "MPI_Sendrecv_replace", TC_RK_MPI_SENDRECV },
	{ "MPI_Wait", TC_RK_MPI_WAIT }, { "MPI_Waitall", TC_RK_MPI_WAIT }, { "MPI_Waitany", TC_RK_MPI_WAIT },
	{ "MPI_Waitsome", TC_RK_MPI_WAIT },
	{ "MPI_Test", TC_RK_MPI_TEST }, { "MPI_Testall", TC_RK_MPI_TEST }, { "MPI_Testany", TC_RK_MPI_TEST },
	{ "MPI_Testsome", TC_RK_MPI_TEST },
	{ "MPI_Barrier", TC_RK_MPI_COLL }, { "MPI_Bcast", TC_RK_MPI_COLL }, { "MPI_Reduce", TC_RK_MPI_COLL },
	{ "MPI_Allreduce", TC_RK_MPI_COLL }, { "MPI_Gather", TC_RK_MPI_COLL }, { "MPI_Gatherv", TC_RK_MPI_COLL },
	{ "MPI_Scatter", TC_RK_MPI_COLL }, { "MPI_Scatterv", TC_RK_MPI_COLL },
	{ "MPI_Allgather", TC_RK_MPI_COLL }, { "MPI_Allgatherv", TC_RK_MPI_COLL },
	{ "MPI_Alltoall", TC_RK_MPI_COLL }, { "MPI_Alltoallv", TC_RK_MPI_COLL }, { "MPI_Alltoallw", TC_RK_MPI_COLL },
	{ "MPI_Reduce_scatter", TC_RK_MPI_COLL }, { "MPI_Reduce_scatter_block", TC_RK_MPI_COLL },
	{ "MPI_Scan", TC_RK_MPI_COLL }, { "MPI_Exscan", TC_RK_MPI_COLL },
};

enum tc_region_kind tc_classify_region(const char *name, bool mpi_paradigm)
{
	if (!name || strncasecmp(name, "MPI_", 4) != 0) return mpi_paradigm ? TC_RK_MPI_OTHER : TC_RK_USER;
	for (size_t i = 0; i < TC_NELEM(mpi_names); i++)
		if (!strcasecmp(name, mpi_names[i].name)) return mpi_names[i].kind;
	/* Non-blocking collectives: MPI_I + a collective name. */
	if ((name[4] == 'I' || name[4] == 'i') && name[5]) {
		char buf[64];
		snprintf(buf, sizeof buf, "MPI_%s", name + 5);
		for (size_t i = 0; i < TC_NELEM(mpi_names); i++)
			if (mpi_names[i].kind == TC_RK_MPI_COLL && !strcasecmp(buf, mpi_names[i].name))
				return TC_RK_MPI_ICOLL;
	}
	return TC_RK_MPI_OTHER;
}

/* --- definitions ------------------------------------------------------------ */
uint32_t tc_def_region(struct tc_trace *t, const char *name, uint8_t paradigm, uint8_t role, bool mpi)
{
	struct tc_region r = {
		.name = arena_clean(t->arena, name),
		.kind = (uint8_t)tc_classify_region(name, mpi),
		.paradigm = paradigm,
		.role = role,
	};
	VEC_PUSH(t->b->regions, r);
	return (uint32_t)t->b->regions.n - 1;
}

uint32_t tc_def_node(struct tc_trace *t, const char *name)
{
	struct tc_node n = { arena_clean(t->arena, name) };
	VEC_PUSH(t->b->nodes, n);
	return (uint32_t)t->b->nodes.n - 1;
}

uint32_t tc_def_loc(struct tc_trace *t, uint64_t id, const char *name, enum tc_loc_type type,
		    uint32_t rank, uint32_t thread, uint32_t node, uint64_t nevents)
{
	struct tc_loc l = {
		.id = id, .name = arena_clean(t->arena, name), .rank = rank,
		.thread = thread, .type = (uint8_t)type, .nevents_def = nevents,
	};
	VEC_PUSH(t->b->locs, l);
	struct locb lb = { .top = TC_NONE };
	/* Reserve from the event count the definitions promise: every call has an
	 * Enter, so at most nevents/2 calls.  The reservation is virtual (pages are
	 * touched only when filled), and arrays are trimmed when the location is
	 * done: this avoids re-faulting every page on each doubling.  Exactly that
	 * much, not the next power of two: the address space stays near the
	 * working set (ulimit -v).  The reader bounds nevents by the event file's
	 * size, so a count in a corrupt definition cannot reserve more. */
	if (nevents > 64 && nevents < ((uint64_t)1 << 40)) {
		VEC_RESERVE_EXACT(lb.calls, (size_t)(nevents / 2));
		VEC_RESERVE_EXACT(lb.recv, (size_t)(nevents / 8));
	}
	VEC_PUSH(t->b->lb, lb);
	VEC_PUSH(t->b->loc_node, node);
	return (uint32_t)t->b->locs.n - 1;
}

uint32_t tc_def_comm(struct tc_trace *t, const char *name, uint32_t n, const uint32_t *members,
		     bool self, bool global)
{
	struct tc_comm c = { .name = arena_clean(t->arena, name), .size = n,
			     .self = self, .global = global };
	c.members = arena_alloc(t->arena, (n ? n : 1) * sizeof(uint32_t));
	if (n) memcpy(c.members, members, n * sizeof(uint32_t));
	VEC_PUSH(t->b->comms, c);
	return (uint32_t)t->b->comms.n - 1;
}

void tc_def_simple(struct tc_trace *t, uint32_t nranks, const uint32_t *node_of, uint32_t nnodes)
{
	if (nnodes == 0) nnodes = 1;
	for (uint32_t i = 0; i < nnodes; i++) {
		char name[32];
		snprintf(name, sizeof name, "node%u", i);
		tc_def_node(t, name);
	}
	uint32_t *members = xmalloc((nranks ? nranks : 1) * sizeof *members);
	for (uint32_t r = 0; r < nranks; r++) {
		char name[32];
		snprintf(name, sizeof name, "MPI Rank %u", r);
		tc_def_loc(t, r, name, TC_LOC_CPU, r, 0, node_of ? node_of[r] : 0, 0);
		members[r] = r;
	}
	tc_def_comm(t, "MPI_COMM_WORLD", nranks, members, false, false);
	free(members);
}

/* --- ranks -------------------------------------------------------------------- */
/* nranks = largest rank + 1; a rank's master is its CPU location with the
 * lowest thread number (the first defined among equals).  Computed once, at
 * the first event that needs it (definitions are complete by then), under a
 * lock since locations may be read in several threads. */
void tcb_ranks_init(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	pthread_mutex_lock(&B->mu);
	if (!atomic_load_explicit(&B->ranks_ready, memory_order_relaxed)) {
		uint32_t nranks = 0;
		for (size_t l = 0; l < B->locs.n; l++)
			if (B->locs.a[l].rank != TC_NONE && B->locs.a[l].rank + 1 > nranks) nranks = B->locs.a[l].rank + 1;
		B->nranks = nranks;
		B->master = xmalloc((nranks ? nranks : 1) * sizeof *B->master);
		for (uint32_t r = 0; r < nranks; r++) B->master[r] = TC_NONE;
		B->is_master = xcalloc(B->locs.n ? B->locs.n : 1, 1);
		for (size_t l = 0; l < B->locs.n; l++) {
			const struct tc_loc *L = &B->locs.a[l];
			if (L->rank == TC_NONE || L->type != TC_LOC_CPU) continue;
			uint32_t *m = &B->master[L->rank];
			if (*m == TC_NONE || L->thread < B->locs.a[*m].thread) *m = (uint32_t)l;
		}
		for (uint32_t r = 0; r < nranks; r++)
			if (B->master[r] != TC_NONE) B->is_master[B->master[r]] = 1;
		atomic_store_explicit(&B->ranks_ready, true, memory_order_release);
	}
	pthread_mutex_unlock(&B->mu);
}

bool tcb_loc_is_master(struct tc_trace *t, uint32_t loc)
{
	tcb_ranks(t);
	return loc < t->b->locs.n && t->b->is_master[loc];
}

/* --- events ---------------------------------------------------------------- */
#define PREFAULT_BATCH 8192  /* records faulted in at a time (256-576 KiB) */

static struct locb *lb_at(struct tc_trace *t, uint32_t loc, uint64_t time)
{
	struct locb *b = &t->b->lb.a[loc];
	if (time < b->last_time) b->time_reversals++;
	else b->last_time = time;
	return b;
}

/* Items to fault in ahead: PREFAULT_BATCH, but no more than the location's
 * remaining events can fill (`per` events at least per item: an Enter and a
 * Leave per call, one record per receive), and, once some of its events were
 * seen, about what they will fill at the rate seen so far (`have` items of
 * this array in `seen` events) plus a margin, so that little memory is
 * faulted in past the end.  The hard bound alone overshot by up to a batch
 * per location (receives are a ninth of the events on the bench archives, not
 * all of them): ~20 MB of pages zeroed and never written on 18.6 M events. */
#define PREFAULT_MIN 512
static size_t batch_left(const struct tc_trace *t, uint32_t loc, const struct locb *b, size_t have, unsigned per)
{
	uint64_t def = t->b->locs.a[loc].nevents_def, seen = 0;
	for (int k = 0; k < TC_EV_COUNT; k++) seen += b->count[k];
	if (def <= seen) return PREFAULT_BATCH;  /* count unknown or exceeded */
	uint64_t left = (def - seen) / per + 1;
	if (seen >= PREFAULT_BATCH) {
		double rate = (double)have / (double)seen;
		left = TC_MIN(left, (uint64_t)((double)(def - seen) * rate * 1.0625) + PREFAULT_MIN);
	}
	return (size_t)TC_MIN((uint64_t)PREFAULT_BATCH, left);
}

static uint32_t top_call(const struct locb *b)
{
	return b->top;
}

void tcb_enter(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t region)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_ENTER]++;
	VEC_ROOM(b->calls, b->calls_ready, batch_left(t, loc, b, b->calls.n, 2));
	uint32_t top = b->top, id = (uint32_t)b->calls.n++;
	struct tc_call *c = &b->calls.a[id];
	c->enter = c->leave = time;
	c->region = region;
	b->odd_regions += region >= t->b->regions.n;
	c->parent = top;
	c->op = TC_NONE;
	c->depth = top == TC_NONE ? 0 : (uint16_t)TC_MIN(b->calls.a[top].depth + 1u, UINT16_MAX);
	c->flags = 0;
	b->top = id;
}

void tcb_leave(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t region)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_LEAVE]++;
	uint32_t c = b->top;
	if (c == TC_NONE) {
		b->bad_leaves++;
		return;
	}
	b->top = b->calls.a[c].parent;
	if (b->calls.a[c].region != region) b->mismatched_leaves++;
	b->calls.a[c].leave = time;
}

/* Is this send/receive record kept?  Only on a rank's master thread, inside a call. */
static bool p2p_kept(struct tc_trace *t, uint32_t loc, struct locb *b, uint32_t call)
{
	tcb_ranks(t);
	if (!t->b->is_master[loc]) { b->other_p2p++; return false; }
	if (call == TC_NONE) { b->outside++; return false; }
	return true;
}

/* Call `call` of master location b communicates: number its op (see locb). */
static void mark_op(struct locb *b, uint32_t call)
{
	struct tc_call *c = &b->calls.a[call];
	if (c->op != TC_NONE) return;
	if (b->nops_read && call < b->last_op_call) b->ops_unordered = true;
	c->op = b->nops_read++;
	b->last_op_call = call;
}

void tcb_loc_begin(struct tc_trace *t, uint32_t loc, int slot)
{
	struct tc_build *B = t->b;
	struct locb *b = &B->lb.a[loc];
	if (slot < 0 || slot >= TC_MAX_THREADS || b->blk) return;
	if (!B->slot[slot]) B->slot[slot] = xcalloc(1, sizeof *B->slot[slot]);
	b->blk = B->slot[slot];
	b->blk_first = (uint32_t)b->blk->nm;
}

void tc_sendblk_link(struct sendblk *k, uint32_t id, const struct qkey *key)
{
	if (k->nnext >= k->next_ready) tc_pages_room(&k->next, k->nnext, sizeof(uint32_t), PREFAULT_BATCH, &k->next_ready);
	uint32_t *next = blk_next(k);
	next[k->nnext++] = TC_NONE;
	struct qent *e = qtab_find_or_add(&k->q, key);
	if (e->tail == TC_NONE) e->head = id;
	else next[e->tail] = id;
	e->tail = id;
}

/* A send record: a message with the sender's side filled in, linked into its
 * key's queue.  Returns its block-local id, TC_NONE when not kept. */
static uint32_t send_rec(struct tc_trace *t, uint32_t loc, uint64_t time, bool isend, uint32_t peer,
			 uint32_t comm, uint32_t tag, uint64_t bytes)
{
	struct tc_build *B = t->b;
	struct locb *b = lb_at(t, loc, time);
	b->count[isend ? TC_EV_MPI_ISEND : TC_EV_MPI_SEND]++;
	uint32_t call = top_call(b);
	if (!p2p_kept(t, loc, b, call)) return TC_NONE;
	uint32_t src = B->locs.a[loc].rank;
	uint32_t dst = tcb_world_of(B->comms.a, (uint32_t)B->comms.n, B->nranks, comm, peer, src);
	if (dst == TC_NONE || dst >= B->nranks) { b->badrank++; return TC_NONE; }
	if (!b->blk) {
		b->own = b->blk = xcalloc(1, sizeof *b->own);
		b->blk_first = 0;
	}
	struct sendblk *k = b->blk;
	uint32_t region = b->calls.a[call].region;
	bool nb = isend || (region < B->regions.n && B->regions.a[region].kind == TC_RK_MPI_ISEND);
	if (k->nm >= k->m_ready) tc_pages_room(&k->m, k->nm, sizeof(struct tc_msg), PREFAULT_BATCH, &k->m_ready);
	uint32_t id = (uint32_t)k->nm++;
	struct tc_msg *m = &blk_msgs(k)[id];
	*m = (struct tc_msg){
		.send_time = time, .bytes = bytes, .src = src, .dst = dst, .send_call = call,
		.send_done = UINT64_MAX, .recv_call = TC_NONE, .post_call = TC_NONE, .tag = tag, .comm = comm,
		.flags = nb ? TC_MSG_NB_SEND : 0,
	};
	struct qkey key = { comm, src, dst, QTAG_ALL };   /* the tag is checked when receiving */
	tc_sendblk_link(k, id, &key);
	b->nsends++;
	mark_op(b, call);
	return id;
}

/* A receive-completion record; returns it when kept, else NULL. */
static struct raw_recv *recv_rec(struct tc_trace *t, uint32_t loc, uint64_t time, bool irecv, uint32_t peer,
				 uint32_t comm, uint32_t tag, uint64_t bytes)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[irecv ? TC_EV_MPI_IRECV : TC_EV_MPI_RECV]++;
	uint32_t call = top_call(b);
	if (!p2p_kept(t, loc, b, call)) return NULL;
	const struct tc_call *c = &b->calls.a[call];
	const struct tc_build *B = t->b;
	uint8_t rk = c->region < B->regions.n ? B->regions.a[c->region].kind : TC_RK_USER;
	struct raw_recv r = {
		.time = time, .post_time = c->enter, .peer = peer, .tag = tag, .call = call, .post_call = TC_NONE,
		.comm = comm < RECV_COMM_NONE ? comm : RECV_COMM_NONE,
		.nb = irecv || rk == TC_RK_MPI_WAIT || rk == TC_RK_MPI_TEST,
		.bytes = bytes < UINT32_MAX ? (uint32_t)bytes : UINT32_MAX,
	};
	mark_op(b, call);
	VEC_ROOM(b->recv, b->recv_ready, batch_left(t, loc, b, b->recv.n, 1));
	b->recv.a[b->recv.n] = r;
	return &b->recv.a[b->recv.n++];
}

#define ISEND_NOT_KEPT (TC_NONE - 1)  /* request map value of an Isend kept as no message */

static struct u64map *reqmap(struct u64map **m)
{
	if (!*m) {
		*m = xmalloc(sizeof **m);
		u64map_init(*m);
	}
	return *m;
}

void tcb_send(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	      uint32_t tag, uint64_t bytes)
{
	send_rec(t, loc, time, false, peer, comm, tag, bytes);
}

void tcb_isend(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes, uint64_t req)
{
	uint32_t id = send_rec(t, loc, time, true, peer, comm, tag, bytes);
	struct locb *b = &t->b->lb.a[loc];
	/* a request whose Isend is not kept still takes its IsendComplete */
	u64map_put(reqmap(&b->isends), req, id == TC_NONE ? ISEND_NOT_KEPT : id);
}

void tcb_isend_complete(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t req)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_MPI_ISEND_COMPLETE]++;
	uint32_t i = b->isends ? u64map_take(b->isends, req) : TC_NONE;
	if (i == TC_NONE) {
		b->unpaired_completes++;
		return;
	}
	if (i != ISEND_NOT_KEPT) blk_msgs(b->blk)[i].send_done = time;
	if (b->isends->live == 0) u64map_clear(b->isends);
}

void tcb_irecv_request(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t req)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_MPI_IRECV_REQUEST]++;
	struct pending_recv pr = { time, top_call(b) };
	VEC_PUSH(b->pend, pr);
	u64map_put(reqmap(&b->irecvs), req, (uint32_t)b->pend.n - 1);
}

void tcb_irecv(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes, uint64_t req)
{
	struct raw_recv *r = recv_rec(t, loc, time, true, peer, comm, tag, bytes);
	struct locb *b = &t->b->lb.a[loc];
	uint32_t i = b->irecvs ? u64map_take(b->irecvs, req) : TC_NONE;
	if (i == TC_NONE) return;
	if (r && b->pend.a[i].call != TC_NONE) {
		r->post_time = b->pend.a[i].time;
		r->post_call = b->pend.a[i].call;
	}
	if (b->irecvs->live == 0) { /* no receive pending: reuse the slots */
		u64map_clear(b->irecvs);
		b->pend.n = 0;
	}
}

void tcb_recv(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	      uint32_t tag, uint64_t bytes)
{
	recv_rec(t, loc, time, false, peer, comm, tag, bytes);
}

void tcb_request_cancelled(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t req)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_OTHER]++;
	if (b->isends) u64map_take(b->isends, req);
	if (b->irecvs) u64map_take(b->irecvs, req);
}

void tcb_coll_begin(struct tc_trace *t, uint32_t loc, uint64_t time)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_COLL_BEGIN]++;
	b->coll_begin = time;
}

void tcb_coll_end(struct tc_trace *t, uint32_t loc, uint64_t time, uint8_t op, uint32_t comm,
		  uint32_t root, uint64_t sent, uint64_t recvd)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_COLL_END]++;
	struct raw_coll c = { .begin = b->coll_begin ? b->coll_begin : time, .end = time, .sent = sent,
			      .recvd = recvd, .call = top_call(b), .comm = comm, .root = root, .op = op };
	b->coll_begin = 0;
	VEC_PUSH(b->coll, c);
	if (c.call != TC_NONE && tcb_loc_is_master(t, loc)) mark_op(b, c.call);
}

void tcb_other(struct tc_trace *t, uint32_t loc, uint64_t time)
{
	struct locb *b = lb_at(t, loc, time);
	b->count[TC_EV_OTHER]++;
}

void tcb_set_threads(struct tc_trace *t, int threads)
{
	t->b->threads = threads;
}

void tcb_set_dist(struct tc_trace *t, const struct tc_dist *d, uint32_t lo, uint32_t hi)
{
	t->b->dist = d;
	t->b->dist_lo = lo;
	t->b->dist_hi = hi;
}

void tcb_read_total(struct tc_trace *t, uint32_t loc, uint64_t n)
{
	struct locb *b = &t->b->lb.a[loc];
	uint64_t known = 0;
	for (int k = 0; k < TC_EV_COUNT; k++) known += b->count[k];
	if (n > known) b->count[TC_EV_OTHER] += n - known;
}

static void free_reqmaps(struct locb *b)
{
	if (b->isends) { u64map_free(b->isends); free(b->isends); b->isends = NULL; }
	if (b->irecvs) { u64map_free(b->irecvs); free(b->irecvs); b->irecvs = NULL; }
	VEC_FREE(b->pend);
}

void tc_sendblk_free(struct sendblk *s)
{
	if (!s) return;
	tc_pages_free(&s->m);
	tc_pages_free(&s->next);
	qtab_free(&s->q);
	free(s);
}

void tc_locb_free(struct locb *b)
{
	VEC_FREE(b->calls); VEC_FREE(b->recv); VEC_FREE(b->coll); VEC_FREE(b->samples); VEC_FREE(b->xfers); VEC_FREE(b->xmatch);
	tc_sendblk_free(b->own);
	b->own = b->blk = NULL;
	free_reqmaps(b);
}

#define VEC_SHRINK(v) do { if ((v).n < (v).cap) { (v).a = xreallocarray((v).a, (v).n ? (v).n : 1, sizeof(*(v).a)); (v).cap = (v).n ? (v).n : 1; } } while (0)

void tcb_loc_done(struct tc_trace *t, uint32_t loc)
{
	struct locb *b = &t->b->lb.a[loc];
	free_reqmaps(b);
	VEC_SHRINK(b->calls);
	VEC_SHRINK(b->recv);
	VEC_SHRINK(b->coll);
}

/* --- accessors --------------------------------------------------------------- */
#define RECV_AHEAD 32  /* receives fetched ahead (tc_rank_receives) */

void tc_rank_receives(const struct tc_trace *t, const struct tc_rank *R, struct tc_recv *out)
{
	uint32_t n = R->nrecv_msgs;
	for (uint32_t i = 0; i < n; i++) {
		if (i + RECV_AHEAD < n) {  /* the fields read (bytes .. tag) may span two lines */
			const struct tc_msg *f = &t->msgs[R->recv_msgs[i + RECV_AHEAD]];
			__builtin_prefetch(&f->bytes);
			__builtin_prefetch(&f->tag);
		}
		const struct tc_msg *m = &t->msgs[R->recv_msgs[i]];
		bool known = m->src < t->nranks && m->send_call < t->ranks[m->src].ncalls;
		out[i] = (struct tc_recv){ 0, m->bytes, m->src, m->tag, known ? m->send_call : TC_NONE, m->post_call };
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct tc_recv *f = &out[i + RECV_AHEAD];
		if (i + RECV_AHEAD < n && f->send_call != TC_NONE) __builtin_prefetch(&t->ranks[f->src].calls[f->send_call]);
		if (out[i].send_call != TC_NONE) out[i].send_enter = t->ranks[out[i].src].calls[out[i].send_call].enter;
	}
}

bool tc_same_node(const struct tc_trace *t, uint32_t a, uint32_t b)
{
	return t->ranks[a].node == t->ranks[b].node;
}

uint64_t tc_trace_events(const struct tc_trace *t)
{
	uint64_t n = 0;
	for (int k = 0; k < TC_EV_COUNT; k++) n += t->ev_count[k];
	return n;
}

uint64_t tc_inter_node_msgs(const struct tc_trace *t)
{
	uint64_t n = 0;
	for (size_t i = 0; i < t->nmsgs; i++) n += !tc_same_node(t, t->msgs[i].src, t->msgs[i].dst);
	return n;
}

enum tc_coll_class tc_coll_class(uint8_t op)
{
	switch (op) {
	case 0: return TC_CC_BARRIER;                      /* BARRIER */
	case 1: case 4: case 5: return TC_CC_ONE2ALL;      /* BCAST, SCATTER, SCATTERV */
	case 2: case 3: case 12: return TC_CC_ALL2ONE;     /* GATHER, GATHERV, REDUCE */
	case 6: case 7: case 8: case 9: case 10: case 11: case 13: case 16:
		return TC_CC_ALL2ALL;                      /* ALLGATHER(V), ALLTOALL(V/W), ALLREDUCE, REDUCE_SCATTER(_BLOCK) */
	case 14: case 15: return TC_CC_SCAN;               /* SCAN, EXSCAN */
	default: return TC_CC_OTHER;
	}
}

const char *tc_coll_op_name(uint8_t op)
{
	static const char *names[] = {
		"Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather", "Allgatherv",
		"Alltoall", "Alltoallv", "Alltoallw", "Allreduce", "Reduce", "Reduce_scatter", "Scan",
		"Exscan", "Reduce_scatter_block", "Create_handle", "Destroy_handle", "Allocate",
		"Deallocate", "Create_handle_and_allocate", "Destroy_handle_and_deallocate",
	};
	return op < TC_NELEM(names) ? names[op] : "collective";
}

/* tc_call_at searched forward from *hint, the previous answer's position, by
 * doubling steps (callers asking in time order make most searches short);
 * *hint = the position found. */
uint32_t tc_call_first_after(const struct tc_rank *R, uint32_t *hint, uint64_t time)
{
	/* calls before lo enter at or before time; calls[hi] (when hi < ncalls) after it */
	uint32_t lo = 0, hi = R->ncalls, h = *hint;
	if (h < R->ncalls && R->calls[h].enter <= time) {
		lo = h + 1;
		hi = lo;
		for (uint32_t step = 1; hi < R->ncalls && R->calls[hi].enter <= time; step *= 2) {
			lo = hi + 1;
			hi = R->ncalls - hi > step ? hi + step : R->ncalls;
		}
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (R->calls[mid].enter <= time) lo = mid + 1;
		else hi = mid;
	}
	if (lo) *hint = lo - 1;
	return lo;
}

uint32_t tc_call_at_hint(const struct tc_rank *R, uint32_t *hint, uint64_t time)
{
	uint32_t lo = tc_call_first_after(R, hint, time);
	if (lo == 0) return TC_NONE;
	uint32_t c = lo - 1;
	while (c != TC_NONE && R->calls[c].leave < time) c = R->calls[c].parent;
	return c;
}

uint32_t tc_call_at(const struct tc_trace *t, uint32_t rank, uint64_t time)
{
	uint32_t hint = UINT32_MAX;   /* no hint: a plain binary search */
	return tc_call_at_hint(&t->ranks[rank], &hint, time);
}

uint32_t tc_loc_call_at(const struct tc_loc *L, uint64_t time)
{
	struct tc_rank R = { .ncalls = L->ncalls, .calls = L->calls };
	uint32_t hint = UINT32_MAX;
	return tc_call_at_hint(&R, &hint, time);
}

void tc_build_free(struct tc_build *B)
{
	if (!B) return;
	for (size_t i = 0; i < B->lb.n; i++) tc_locb_free(&B->lb.a[i]);
	for (int k = 0; k < TC_MAX_THREADS; k++) tc_sendblk_free(B->slot[k]);
	VEC_FREE(B->lb); VEC_FREE(B->locs); VEC_FREE(B->regions); VEC_FREE(B->metrics);
	VEC_FREE(B->nodes); VEC_FREE(B->comms); VEC_FREE(B->loc_node);
	free(B->master);
	free(B->is_master);
	pthread_mutex_destroy(&B->mu);
	free(B);
}

void tc_trace_drop_events(struct tc_trace *t)
{
	if (t->mapped.p) return;   /* the cache file's mapping: nothing of its own */
	for (uint32_t i = 0; i < t->nlocs; i++) {
		free(t->locs[i].calls);
		free(t->locs[i].samples);
		free(t->locs[i].xfers);
		t->locs[i].calls = NULL, t->locs[i].samples = NULL, t->locs[i].xfers = NULL;
	}
	for (uint32_t r = 0; r < t->nranks; r++) {
		struct tc_rank *R = &t->ranks[r];
		free(R->ops);
		free(R->send_msgs);
		free(R->recv_msgs);
		R->calls = NULL, R->ops = NULL, R->send_msgs = NULL, R->recv_msgs = NULL;
	}
	tc_pages_free(&t->msgs_map);
	t->msgs = NULL;
}

void tc_trace_free(struct tc_trace *t)
{
	if (!t) return;
	if (t->mapped.p) {   /* every array lives in the cache file's mapping */
		tc_pages_free(&t->mapped);
		t->nlocs = t->nranks = 0;
		t->locs = NULL, t->ranks = NULL, t->nodes = NULL, t->regions = NULL, t->comms = NULL;
		t->metrics = NULL, t->colls = NULL, t->coll_members = NULL;
	}
	for (uint32_t i = 0; i < t->nlocs; i++) {
		free(t->locs[i].calls);
		free(t->locs[i].samples);
		free(t->locs[i].xfers);
	}
	free(t->metrics);
	for (uint32_t r = 0; r < t->nranks; r++) {
		free(t->ranks[r].ops);
		free(t->ranks[r].send_msgs);
		free(t->ranks[r].recv_msgs);
	}
	free(t->ranks);
	free(t->locs);
	free(t->nodes);
	free(t->regions);
	free(t->comms);
	tc_pages_free(&t->msgs_map);
	free(t->colls);
	free(t->coll_members);
	for (size_t i = 0; i < t->warnings.n; i++) free(t->warnings.a[i]);
	VEC_FREE(t->warnings);
	tc_build_free(t->b);
	arena_free(t->arena);
	free(t->anchor);
	free(t);
}
