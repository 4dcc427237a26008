/* test_part.c — the distributed finish (src/model/finish_dist.c) without MPI:
 * P threads, each a "process" with its own trace holding only its share's
 * events, joined by a struct tc_dist made of barriers; every part's dump
 * must equal the same ranks of the serially built model.  The hand-built
 * trace has what the shared traces lack: sends nobody receives (the drop and
 * renumbering), a receive without a send, a clock violation, a size
 * mismatch, a sub-communicator with comm-local peers, an operation mismatch,
 * an incomplete instance, COMM_SELF collectives, a location of no rank.
 * Also the shares themselves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "part.h"

/* --- the trace ---------------------------------------------------------------- */
#define NR 6
struct regs { uint32_t main_, send, recv, isend, irecv, wait, barrier, allreduce; };

static struct tc_trace *define(struct regs *g)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, NR, NULL, 1);
	uint32_t sub[3] = { 1, 3, 5 };
	tc_def_comm(t, "sub", 3, sub, false, false);
	tc_def_comm(t, "self", 0, NULL, true, false);
	tc_def_loc(t, 100, "metric", TC_LOC_METRIC, TC_NONE, 0, 0, 0);
	g->main_ = tc_def_region(t, "main", 0, 0, false);
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

static void coll(struct tc_trace *t, uint32_t r, uint64_t at, uint32_t region, uint8_t op, uint32_t comm)
{
	tcb_enter(t, r, at, region);
	tcb_coll_begin(t, r, at + 1);
	tcb_coll_end(t, r, at + 2 + r, op, comm, TC_NONE, 8, 8);
	tcb_leave(t, r, at + 10, region);
}

/* A receive from rank r-1 (tag 1) in an MPI_Recv call at `at`. */
static void recv_call(struct tc_trace *t, const struct regs *g, uint32_t r, uint64_t at, uint64_t bytes)
{
	call(t, r, at, g->recv);
	tcb_recv(t, r, at + 5, (r + NR - 1) % NR, 0, 1, bytes);
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
	for (uint64_t b = 0; b < (r == 4 ? 1u : 2u); b++) coll(t, r, 600 + b * 50, g->barrier, 0, 0);
	if (r % 2) {   /* sub-communicator: 1 sends to local rank 2 (world 5); rank 3's op differs */
		coll(t, r, 700, g->allreduce, r == 3 ? 12 : 11, 1);
		if (r == 1) { call(t, r, 720, g->send); tcb_send(t, r, 721, 2, 1, 3, 16); tcb_leave(t, r, 722, g->send); }
		if (r == 5) { call(t, r, 720, g->recv); tcb_recv(t, r, 730, 0, 1, 3, 16); tcb_leave(t, r, 731, g->recv); }
	}
	if (r == 0 || r == 2) coll(t, r, 800, g->barrier, 0, 2);
	tcb_leave(t, r, 900, g->main_);
}

static void other_events(struct tc_trace *t)
{
	tcb_other(t, NR, 50);
	tcb_other(t, NR, 60);
}

static char *dump(const struct tc_part *p)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	assert_true(tc_part_dump(f, p));
	fclose(f);
	return s;
}

/* --- a struct tc_dist of threads ------------------------------------------------ */
#define MAXP 4
struct world {
	int P;
	pthread_barrier_t bar;
	const void *ptr[MAXP];
	const uint64_t *cnt[MAXP];
	uint64_t word[MAXP];
	size_t recsize;
};
struct proc { struct world *w; int p; struct tc_dist d; struct tc_part part; char *dump; };

static uint64_t combine(uint64_t a, uint64_t b, enum tc_dist_op op)
{
	return op == TC_DIST_SUM ? a + b : op == TC_DIST_MIN ? (a < b ? a : b) : (a > b ? a : b);
}

static void f_scan(struct proc *x, uint64_t *v, size_t n, enum tc_dist_op op, bool ex)
{
	struct world *w = x->w;
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
	struct proc *x = ctx;
	x->w->word[x->p] = v;
	pthread_barrier_wait(&x->w->bar);
	memcpy(out, x->w->word, (size_t)x->w->P * sizeof *out);
	pthread_barrier_wait(&x->w->bar);
}

static void *f_exchange(void *ctx, const void *send, const uint64_t *scount, size_t rs, uint64_t *rcount)
{
	struct proc *x = ctx;
	struct world *w = x->w;
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

static void *run_proc(void *arg)
{
	struct proc *x = arg;
	struct regs g;
	struct tc_trace *t = define(&g);
	uint64_t ev[NR] = { 0 };
	uint32_t lo, hi;
	tc_share_ranks(ev, NR, x->p, x->w->P, &lo, &hi);
	for (uint32_t r = lo; r < hi; r++) rank_events(t, &g, r);
	if (x->p == 0) other_events(t);
	x->d = (struct tc_dist){ .ctx = x, .index = x->p, .count = x->w->P, .reduce = f_reduce, .exscan = f_exscan,
				 .allgather = f_allgather, .exchange = f_exchange, .out = &x->part };
	tcb_set_dist(t, &x->d, lo, hi);
	tc_trace_finish(t);
	x->dump = dump(&x->part);
	tc_part_release(&x->part);
	tc_trace_free(t);
	return NULL;
}

static void test_dist_equals_serial(void **st)
{
	(void)st;
	struct regs g;
	struct tc_trace *s = define(&g);
	for (uint32_t r = 0; r < NR; r++) rank_events(s, &g, r);
	other_events(s);
	tc_trace_finish(s);
	assert_true(s->unmatched_sends > 0 && s->unmatched_recvs > 0 && s->clock_violations > 0);
	assert_true(s->incomplete_colls > 0);
	for (int P = 1; P <= MAXP; P++) {
		struct world w = { .P = P };
		pthread_barrier_init(&w.bar, NULL, (unsigned)P);
		struct proc x[MAXP];
		pthread_t th[MAXP];
		for (int p = 0; p < P; p++) {
			x[p] = (struct proc){ .w = &w, .p = p };
			assert_int_equal(pthread_create(&th[p], NULL, run_proc, &x[p]), 0);
		}
		for (int p = 0; p < P; p++) pthread_join(th[p], NULL);
		pthread_barrier_destroy(&w.bar);
		uint64_t ev[NR] = { 0 };
		for (int p = 0; p < P; p++) {
			uint32_t lo, hi;
			tc_share_ranks(ev, NR, p, P, &lo, &hi);
			struct tc_part sp;
			tc_part_of_serial(s, lo, hi, p, &sp);
			char *want = dump(&sp);
			if (strcmp(want, x[p].dump)) fprintf(stderr, "P=%d part %d:\n--- serial\n%s\n--- distributed\n%s\n", P, p, want,
							    x[p].dump);
			assert_string_equal(want, x[p].dump);
			free(want);
			free(x[p].dump);
			tc_part_release(&sp);
		}
	}
	tc_trace_free(s);
}

/* Shares: contiguous, covering, each within one rank's weight of the ideal. */
static void test_shares(void **st)
{
	(void)st;
	uint64_t ev[10] = { 5, 100, 0, 0, 7, 300, 1, 1, 50, 2 };
	for (int P = 1; P <= 12; P++) {
		uint32_t prev = 0;
		for (int p = 0; p < P; p++) {
			uint32_t lo, hi;
			tc_share_ranks(ev, 10, p, P, &lo, &hi);
			assert_int_equal(lo, prev);
			assert_true(hi >= lo);
			prev = hi;
		}
		assert_int_equal(prev, 10);
	}
	uint64_t flat[8] = { 0 };
	uint32_t lo, hi;
	tc_share_ranks(flat, 8, 1, 4, &lo, &hi);
	assert_int_equal(lo, 2);
	assert_int_equal(hi, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dist_equals_serial),
		cmocka_unit_test(test_shares),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
