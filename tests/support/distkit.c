/* distkit.c — the hand-built trace and the threads of distkit.h. */
#include <stdlib.h>
#include <string.h>

#include "distkit.h"

#define NR DK_NR
struct regs { uint32_t main_, work, send, recv, isend, irecv, wait, barrier, allreduce; };

static struct tc_trace *define(struct regs *g)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	static const uint32_t node_of[NR] = { 0, 0, 0, 1, 1, 1 };   /* two nodes: intra- and inter-node messages */
	tc_def_simple(t, NR, node_of, 2);
	uint32_t sub[3] = { 1, 3, 5 };
	tc_def_comm(t, "sub", 3, sub, false, false);
	tc_def_comm(t, "self", 0, NULL, true, false);
	tc_def_loc(t, 100, "metric", TC_LOC_METRIC, TC_NONE, 0, 0, 0);
	g->main_ = tc_def_region(t, "main", 0, 0, false);
	g->work = tc_def_region(t, "work", 0, 0, false);
	g->send = tc_def_region(t, "MPI_Send", 0, 0, true);
	g->recv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	g->isend = tc_def_region(t, "MPI_Isend", 0, 0, true);
	g->irecv = tc_def_region(t, "MPI_Irecv", 0, 0, true);
	g->wait = tc_def_region(t, "MPI_Wait", 0, 0, true);
	g->barrier = tc_def_region(t, "MPI_Barrier", 0, 0, true);
	g->allreduce = tc_def_region(t, "MPI_Allreduce", 0, 0, true);
	return t;
}

static void call(struct tc_trace *t, uint32_t r, uint64_t at, uint32_t region)
{
	tcb_enter(t, r, at, region);
}

static void coll_root(struct tc_trace *t, uint32_t r, uint64_t at, uint32_t region, uint8_t op, uint32_t comm,
		      uint32_t root)
{
	tcb_enter(t, r, at, region);
	tcb_coll_begin(t, r, at + 1);
	tcb_coll_end(t, r, at + 2 + r, op, comm, root, 8, 8);
	tcb_leave(t, r, at + 10, region);
}

static void coll(struct tc_trace *t, uint32_t r, uint64_t at, uint32_t region, uint8_t op, uint32_t comm)
{
	coll_root(t, r, at, region, op, comm, TC_NONE);
}

/* Rooted, scan and all-to-all collectives entered at different times (ranks
 * late by 7 r mod 5 ticks), from 1000 on: waits of every collective kind. */
static void late_colls(struct tc_trace *t, const struct regs *g, uint32_t r)
{
	static const uint8_t ops[] = { 1 /* bcast */, 12 /* reduce */, 14 /* scan */, 8 /* alltoall */, 0 /* barrier */ };
	for (uint32_t k = 0; k < TC_NELEM(ops); k++) {
		uint64_t at = 1000 + k * 100 + (7 * r + 3 * k) % 5 * 7;
		coll_root(t, r, at, k == 4 ? g->barrier : g->allreduce, ops[k], 0, ops[k] == 1 || ops[k] == 12 ? k : TC_NONE);
	}
}

/* A receive from rank r-1 (tag 1) in an MPI_Recv call at `at`. */
static void recv_call(struct tc_trace *t, const struct regs *g, uint32_t r, uint64_t at, uint64_t bytes)
{
	call(t, r, at, g->recv);
	tcb_recv(t, r, at + 5, (r + NR - 1) % NR, 0, 1, bytes);
	tcb_leave(t, r, at + 10, g->recv);
}

/* Two Isends in a row (the steps coalesce them: their calls are neighbours)
 * and two more, each after a user call (not coalesced), to rank r + 3, all
 * completed in one Wait; then the 4 receives from rank r - 3. */
static void isend_pairs(struct tc_trace *t, const struct regs *g, uint32_t r)
{
	for (uint64_t k = 0; k < 4; k++) {
		uint64_t at = 540 + 4 * k + (k >= 2 ? 4 : 0);
		if (k >= 2) {   /* a user call before each of the last two */
			call(t, r, at - 3, g->work);
			tcb_leave(t, r, at - 1, g->work);
		}
		call(t, r, at, g->isend);
		tcb_isend(t, r, at + 1, (r + 3) % NR, 0, 4, 32, 20 + k);
		tcb_leave(t, r, at + 2, g->isend);
	}
	call(t, r, 560, g->wait);
	for (uint64_t k = 0; k < 4; k++) tcb_isend_complete(t, r, 561 + k, 20 + k);
	tcb_leave(t, r, 566, g->wait);
	for (uint64_t k = 0; k < 4; k++) {
		call(t, r, 570 + 5 * k, g->recv);
		tcb_recv(t, r, 572 + 5 * k, (r + NR - 3) % NR, 0, 4, 32);
		tcb_leave(t, r, 573 + 5 * k, g->recv);
	}
}

/* Blocking sends held by their receivers (the root causes' late-receiver
 * rules, docs/rootcause.md §2), from 1600 on: rank 0's send lasts until
 * rank 1 posts its receive (the post rule); rank 2's returns before rank 3
 * posts its receive, rank 3 having entered another MPI call during it (by
 * progress); rank 4's likewise, but rank 5 was inside an MPI call when the
 * send began (no candidate). */
static void held_sends(struct tc_trace *t, const struct regs *g, uint32_t r)
{
	if (r % 2 == 0) {
		uint64_t end = r == 0 ? 1640 : 1720;
		call(t, r, 1600, g->send);
		tcb_send(t, r, 1601, r + 1, 0, 5, 8);
		tcb_leave(t, r, end, g->send);
		return;
	}
	if (r == 3 || r == 5) {   /* an MPI call without messages: in the send, or around its start */
		call(t, r, r == 3 ? 1610 : 1590, g->wait);
		tcb_leave(t, r, r == 3 ? 1612 : 1605, g->wait);
	}
	uint64_t at = r == 1 ? 1620 : 1730;
	call(t, r, at, g->recv);
	tcb_recv(t, r, at + 5, r - 1, 0, 5, 8);
	tcb_leave(t, r, at + 10, g->recv);
}

/* Rank r's events. */
static void rank_events(struct tc_trace *t, const struct regs *g, uint32_t r)
{
	call(t, r, 10, g->main_);
	for (uint64_t k = 0; k < 3; k++) {   /* 3 sends to r+1, 2 of them received */
		bool early = r == 2 && k == 0;   /* rank 2 receives its first before rank 1 sends it */
		if (early) recv_call(t, g, r, 50, 64);
		call(t, r, 100 + k * 100, g->send);
		tcb_send(t, r, 101 + k * 100, (r + 1) % NR, 0, 1, 64);
		tcb_leave(t, r, 102 + k * 100, g->send);
		if (k < 2 && !early) recv_call(t, g, r, 150 + k * 100, r == 1 && k == 1 ? 32 : 64);
	}
	if (r == 0) {   /* a receive nobody sent */
		call(t, r, 420, g->recv);
		tcb_recv(t, r, 421, 3, 0, 9, 8);
		tcb_leave(t, r, 422, g->recv);
	}
	call(t, r, 500, g->isend);
	tcb_isend(t, r, 501, (r + 2) % NR, 0, 2, 128, 7);
	tcb_leave(t, r, 502, g->isend);
	call(t, r, 510, g->irecv);
	tcb_irecv_request(t, r, 511, 8);
	tcb_leave(t, r, 512, g->irecv);
	call(t, r, 520, g->wait);
	tcb_isend_complete(t, r, 521, 7);
	tcb_irecv(t, r, 522, (r + NR - 2) % NR, 0, 2, 128, 8);
	tcb_leave(t, r, 530, g->wait);
	isend_pairs(t, g, r);
	for (uint64_t b = 0; b < (r == 4 ? 1u : 2u); b++) coll(t, r, 600 + b * 50, g->barrier, 0, 0);
	if (r % 2) {   /* sub-communicator: 1 sends to local rank 2 (world 5); rank 3's op differs */
		coll(t, r, 700, g->allreduce, r == 3 ? 12 : 11, 1);
		if (r == 1) { call(t, r, 720, g->send); tcb_send(t, r, 721, 2, 1, 3, 16); tcb_leave(t, r, 722, g->send); }
		if (r == 5) { call(t, r, 720, g->recv); tcb_recv(t, r, 730, 0, 1, 3, 16); tcb_leave(t, r, 731, g->recv); }
	}
	if (r == 0 || r == 2) coll(t, r, 800, g->barrier, 0, 2);
	late_colls(t, g, r);
	held_sends(t, g, r);
	tcb_leave(t, r, 2000, g->main_);
}

static void other_events(struct tc_trace *t)
{
	tcb_other(t, NR, 50);
	tcb_other(t, NR, 60);
}

struct tc_trace *dk_trace(uint32_t lo, uint32_t hi, bool others)
{
	struct regs g;
	struct tc_trace *t = define(&g);
	for (uint32_t r = lo; r < hi; r++) rank_events(t, &g, r);
	if (others) other_events(t);
	return t;
}

/* A process's mailbox for send1 / recv1: a queue of records. */
#define DK_BOX 16
#define DK_REC 256
struct dk_box {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned head, n;
	char rec[DK_BOX][DK_REC];
};

struct dk_world {
	int P;
	pthread_barrier_t bar;
	struct dk_box box[DK_MAXP];
	const void *ptr[DK_MAXP];
	const uint64_t *cnt[DK_MAXP];
	uint64_t word[DK_MAXP];
	size_t recsize;
};

static uint64_t combine(uint64_t a, uint64_t b, enum tc_dist_op op)
{
	return op == TC_DIST_SUM ? a + b : op == TC_DIST_MIN ? (a < b ? a : b) : (a > b ? a : b);
}

static void f_scan(struct dk_proc *x, uint64_t *v, size_t n, enum tc_dist_op op, bool ex)
{
	struct dk_world *w = x->w;
	uint64_t *mine = malloc((n + 1) * sizeof *mine);
	memcpy(mine, v, n * sizeof *v);
	w->ptr[x->p] = mine;
	pthread_barrier_wait(&w->bar);
	int upto = ex ? x->p : w->P;
	for (size_t i = 0; i < n; i++) {
		uint64_t acc = op == TC_DIST_MIN ? UINT64_MAX : 0;
		for (int q = 0; q < upto; q++) acc = combine(acc, ((const uint64_t *)w->ptr[q])[i], op);
		v[i] = ex && x->p == 0 ? 0 : acc;
	}
	pthread_barrier_wait(&w->bar);
	free(mine);
}

static void f_reduce(void *ctx, uint64_t *v, size_t n, enum tc_dist_op op) { f_scan(ctx, v, n, op, false); }
static void f_exscan(void *ctx, uint64_t *v, size_t n, enum tc_dist_op op) { f_scan(ctx, v, n, op, true); }

static void f_allgather(void *ctx, uint64_t v, uint64_t *out)
{
	struct dk_proc *x = ctx;
	x->w->word[x->p] = v;
	pthread_barrier_wait(&x->w->bar);
	memcpy(out, x->w->word, (size_t)x->w->P * sizeof *out);
	pthread_barrier_wait(&x->w->bar);
}

static void *f_exchange(void *ctx, const void *send, const uint64_t *scount, size_t rs, uint64_t *rcount)
{
	struct dk_proc *x = ctx;
	struct dk_world *w = x->w;
	w->ptr[x->p] = send;
	w->cnt[x->p] = scount;
	pthread_barrier_wait(&w->bar);
	uint64_t n = 0;
	for (int q = 0; q < w->P; q++) n += rcount[q] = w->cnt[q][x->p];
	char *out = malloc(n * rs + 1), *at = out;
	for (int q = 0; q < w->P; q++) {
		uint64_t off = 0;
		for (int d = 0; d < x->p; d++) off += w->cnt[q][d];
		memcpy(at, (const char *)w->ptr[q] + off * rs, rcount[q] * rs);
		at += rcount[q] * rs;
	}
	pthread_barrier_wait(&w->bar);
	return out;
}

static void f_chain(void *ctx, void *state, size_t bytes, void (*step)(void *arg, void *state), void *arg)
{
	struct dk_proc *x = ctx;
	struct dk_world *w = x->w;
	for (int q = 0; q < w->P; q++) {
		if (q == x->p) {
			if (q > 0) memcpy(state, w->ptr[q - 1], bytes);
			step(arg, state);
			w->ptr[q] = state;
		}
		pthread_barrier_wait(&w->bar);
	}
	if (x->p != w->P - 1) memcpy(state, w->ptr[w->P - 1], bytes);
	pthread_barrier_wait(&w->bar);
}

static void f_send1(void *ctx, int to, const void *rec, size_t bytes)
{
	struct dk_proc *x = ctx;
	struct dk_box *b = &x->w->box[to];
	if (bytes > DK_REC) abort();
	pthread_mutex_lock(&b->mu);
	if (b->n == DK_BOX) abort();   /* a token at a time, and one end per process */
	memcpy(b->rec[(b->head + b->n++) % DK_BOX], rec, bytes);
	pthread_cond_signal(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

static void f_recv1(void *ctx, void *rec, size_t bytes)
{
	struct dk_proc *x = ctx;
	struct dk_box *b = &x->w->box[x->p];
	pthread_mutex_lock(&b->mu);
	while (!b->n) pthread_cond_wait(&b->cv, &b->mu);
	memcpy(rec, b->rec[b->head], bytes);
	b->head = (b->head + 1) % DK_BOX;
	b->n--;
	pthread_mutex_unlock(&b->mu);
}

struct dk_thread {
	struct dk_proc x;
	void (*fn)(struct dk_proc *x);
};

static void *dk_main(void *arg)
{
	struct dk_thread *th = arg;
	th->fn(&th->x);
	return NULL;
}

void dk_run(int P, void (*fn)(struct dk_proc *x), void **arg)
{
	struct dk_world w = { .P = P };
	pthread_barrier_init(&w.bar, NULL, (unsigned)P);
	for (int p = 0; p < P; p++) {
		pthread_mutex_init(&w.box[p].mu, NULL);
		pthread_cond_init(&w.box[p].cv, NULL);
	}
	struct dk_thread th[DK_MAXP];
	pthread_t id[DK_MAXP];
	for (int p = 0; p < P; p++) {
		th[p] = (struct dk_thread){ .x = { .w = &w, .p = p, .P = P, .arg = arg[p] }, .fn = fn };
		struct dk_proc *x = &th[p].x;
		x->d = (struct tc_dist){ .ctx = x, .index = p, .count = P, .reduce = f_reduce, .exscan = f_exscan,
					 .allgather = f_allgather, .exchange = f_exchange, .chain = f_chain, .send1 = f_send1,
					 .recv1 = f_recv1, .out = &x->part };
		if (pthread_create(&id[p], NULL, dk_main, &th[p]) != 0) abort();
	}
	for (int p = 0; p < P; p++) pthread_join(id[p], NULL);
	pthread_barrier_destroy(&w.bar);
	for (int p = 0; p < P; p++) {
		pthread_mutex_destroy(&w.box[p].mu);
		pthread_cond_destroy(&w.box[p].cv);
	}
}

void dk_finish(struct dk_proc *x)
{
	uint64_t ev[DK_NR] = { 0 };
	uint32_t lo, hi;
	tc_share_ranks(ev, DK_NR, x->p, x->P, &lo, &hi);
	x->t = dk_trace(lo, hi, x->p == 0);
	tcb_set_dist(x->t, &x->d, lo, hi);
	tc_trace_finish(x->t);
}
