/* test_replay.c — the profile, wait states and the root causes' wait/own
 * split replayed over parts
 * (analysis_replay.h) without MPI: for P = 1..4 threads (tests/support/
 * distkit.h), the results reduced on process 0 equal the serial ones bit for
 * bit (every double compared as bits: sums in the serial order), on the
 * hand-built trace with non-blocking messages, unreceived sends, a receive
 * without a send, late senders and receivers, sub-communicator, COMM_SELF,
 * rooted, scan and all-to-all collectives; and the report's JSON of both
 * sections is the same text.  Also the helpers: owners and the fold. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/analysis/oselect.h"
#include "../../src/analysis/replay_internal.h"
#include "distkit.h"
#include "testkit.h"
#include "report.h"

#define assert_same_double(a, b) assert_memory_equal(&(a), &(b), sizeof(double))

static void same_profile(const struct tc_profile *s, const struct tc_profile *d)
{
	assert_same_double(s->total, d->total);
	assert_same_double(s->mpi, d->mpi);
	assert_int_equal(s->n, d->n);
	for (uint32_t i = 0; i < s->n; i++) {
		const struct tc_prof_region *a = &s->regions[i], *b = &d->regions[i];
		assert_int_equal(a->region, b->region);
		assert_int_equal(a->calls, b->calls);
		assert_same_double(a->incl, b->incl);
		assert_same_double(a->excl, b->excl);
		assert_same_double(a->excl_min, b->excl_min);
		assert_same_double(a->excl_max, b->excl_max);
		assert_same_double(a->imbalance, b->imbalance);
		assert_int_equal(a->rank_max, b->rank_max);
		assert_int_equal(a->nranks, b->nranks);
	}
	assert_memory_equal(s->hist_count, d->hist_count, sizeof s->hist_count);
	assert_memory_equal(s->hist_bytes, d->hist_bytes, sizeof s->hist_bytes);
}

static void same_table(const struct tc_prof_table *s, const struct tc_prof_table *d)
{
	assert_int_equal(s->n, d->n);
	assert_memory_equal(s->cells, d->cells, s->n * sizeof *s->cells);
}

static bool same_wait(const struct tc_wait *a, const struct tc_wait *b)
{
	return !memcmp(&a->seconds, &b->seconds, sizeof a->seconds) && a->rank == b->rank && a->call == b->call &&
	       a->cause == b->cause && a->cause_call == b->cause_call && a->kind == b->kind;
}

/* The longest waits of d (a reduced result) are the serial list's longest. */
static void same_waits(const struct tc_trace *t, const struct tc_waitstates *s, const struct tc_waitstates *d)
{
	assert_memory_equal(s->total, d->total, sizeof s->total);
	assert_memory_equal(s->waited, d->waited, t->nranks * sizeof(double));
	assert_memory_equal(s->caused, d->caused, t->nranks * sizeof(double));
	assert_same_double(s->mpi_time, d->mpi_time);
	assert_same_double(s->run_time, d->run_time);
	assert_int_equal(s->clamped, d->clamped);
	assert_int_equal(s->n, d->n_all);
	assert_non_null(d->at);
	size_t k = 0;   /* d->w is a subsequence of s->w holding its 20 longest */
	for (size_t i = 0; i < d->n; i++) {
		while (k < s->n && !same_wait(&s->w[k], &d->w[i])) k++;
		assert_true(k < s->n);
		const struct tc_call *c = &t->ranks[s->w[k].rank].calls[s->w[k].call];
		assert_int_equal(d->at[i].enter, c->enter);
		assert_int_equal(d->at[i].region, c->region);
	}
}

/* The wait/own rows: every field, every double as bits. */
static void same_rcwait(const struct tc_rcwait *s, const struct tc_rcwait *d)
{
	assert_non_null(d);
	assert_int_equal(s->nranks, d->nranks);
	assert_same_double(s->total_wait, d->total_wait);
	assert_memory_equal(s->rank, d->rank, s->nranks * sizeof *s->rank);
}

/* The critical path: every piece with its excess, the length, shares and
 * per-rank excess on the path as bits. */
static void same_cpath(const struct tc_cpath *s, const struct tc_cpath *d)
{
	assert_non_null(d);
	assert_int_equal(s->end_rank, d->end_rank);
	assert_same_double(s->length, d->length);
	assert_memory_equal(s->share, d->share, sizeof s->share);
	assert_int_equal(s->n, d->n);
	for (size_t i = 0; i < s->n; i++) {
		const struct tc_cp_piece *a = &s->piece[i], *b = &d->piece[i];
		assert_int_equal(a->start, b->start);
		assert_int_equal(a->end, b->end);
		assert_int_equal(a->rank, b->rank);
		assert_int_equal(a->act, b->act);
		assert_int_equal(a->kind, b->kind);
		assert_same_double(a->excess, b->excess);
	}
	assert_int_equal(s->nranks, d->nranks);
	assert_memory_equal(s->compute_excess, d->compute_excess, s->nranks * sizeof *s->compute_excess);
	assert_memory_equal(s->mpi_excess, d->mpi_excess, s->nranks * sizeof *s->mpi_excess);
}

/* The contexts: every field of the table (the activity pass's; the typed
 * ones are 0 on both sides; the structs' padding is not compared), every
 * rank's activities and digest, the scale's bins as bits. */
static void same_rcctx(const struct tc_rcctx *s, const struct tc_rcctx *d)
{
	assert_non_null(d);
	assert_int_equal(s->nctx, d->nctx);
	assert_int_equal(s->nranks, d->nranks);
	for (uint32_t i = 0; i < s->nctx; i++) assert_true(tk_same_rc_ctx(&s->ctx[i], &d->ctx[i]));
	assert_memory_equal(s->rank, d->rank, s->nranks * sizeof *s->rank);
	assert_memory_equal(s->scale_bin, d->scale_bin, sizeof s->scale_bin);
}

/* The typical values and excess: every context field, figure and rank row as bits. */
static void same_rcexcess(const struct tc_rcexcess *s, const struct tc_rcexcess *d)
{
	assert_non_null(d);
	assert_int_equal(s->nctx, d->nctx);
	assert_int_equal(s->nranks, d->nranks);
	for (uint32_t i = 0; i < s->nctx; i++) assert_true(tk_same_rc_ctx(&s->ctx[i], &d->ctx[i]));
	assert_memory_equal(&s->fig, &d->fig, sizeof s->fig);   /* 8-byte fields: no padding */
	assert_memory_equal(s->rank, d->rank, s->nranks * sizeof *s->rank);
}

/* The delay costs: every rank row and the unattributed waiting as bits. */
static void same_rcdelay(const struct tc_rcdelay *s, const struct tc_rcdelay *d)
{
	assert_non_null(d);
	assert_int_equal(s->nranks, d->nranks);
	assert_same_double(s->unattributed, d->unattributed);
	assert_memory_equal(s->rank, d->rank, s->nranks * sizeof *s->rank);
}

static char *json_of(struct tc_session *s)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	const struct report_section *secs[2] = { report_find("profile"), report_find("waitstates") };
	report_json(s, secs, 2, f);
	fclose(f);
	return out;
}

struct got { struct tc_replay r; char *json; struct tc_trace *t; };

static void replay_proc(struct dk_proc *x)
{
	struct got *g = x->arg;
	dk_finish(x);
	tc_replay_run(&x->part, &x->d, 20, &g->r);
	if (x->p == 0) assert_true(!g->r.rc || !g->r.rc->nexcess || !g->r.rc->ex_act);   /* each process holds its own */
	tc_replay_ex_whole(&g->r, &x->d);
	if (x->p == 0) {
		struct tc_session *s = session_new(x->t);
		s->profile = g->r.profile;
		s->waitstates = g->r.waitstates;
		s->prof_per_loc = g->r.per_loc;
		s->prof_per_rank = g->r.per_rank;
		g->json = json_of(s);
		s->profile = NULL, s->waitstates = NULL, s->prof_per_loc = s->prof_per_rank = NULL, s->t = NULL;
		session_free(s);
	} else {
		assert_null(g->r.profile);
		assert_null(g->r.waitstates);
		assert_null(g->r.per_loc);
		assert_null(g->r.rcwait);
		assert_null(g->r.rcctx);
		assert_null(g->r.rcexcess);
		assert_null(g->r.rcdelay);
		assert_null(g->r.rc);
		assert_null(g->r.cpath);
	}
	tc_part_release(&x->part);
	g->t = x->t;
}

static void test_replay_equals_serial(void **st)
{
	(void)st;
	struct tc_trace *t = dk_trace(0, DK_NR, true);
	tc_trace_finish(t);
	struct tc_session *s = session_new(t);
	const struct tc_waitstates *sw = session_waitstates(s);
	int kinds = 0;
	for (int k = 0; k < TC_WS_COUNT; k++) kinds += sw->total[k] > 0;
	assert_true(kinds >= 6);   /* the trace has waits of most kinds */
	assert_true(sw->clamped > 0);
	struct tc_prof_table *pl = tc_profile_locations(t), *pr = tc_profile_ranks(t, pl);
	char *want = json_of(s);
	struct tc_span *sp = tc_span_compute(t, false);
	struct tc_rootcause *rc = tc_rootcause_compute(t, sp, NULL);
	struct tc_rcwait *rw = tc_rcwait_of(t, rc);
	uint64_t edges[TC_WE_COUNT] = { 0 };   /* the trace has waits of every edge */
	for (uint32_t r = 0; r < t->nranks; r++)
		for (int k = 0; k < TC_WE_COUNT; k++) edges[k] += rw->rank[r].edge[k];
	for (int k = 0; k < TC_WE_COUNT; k++) assert_true(edges[k] > 0);
	assert_true(rw->total_wait > 0);
	struct tc_cpath *cp = tc_cpath_of(rc);
	int pkinds = 0, ranks = 0;   /* the path crosses ranks, with compute, intra- and inter-node pieces */
	for (int k = 0; k < TC_CP_NKINDS; k++) pkinds += cp->share[k] > 0;
	for (size_t i = 1; i < cp->n; i++) ranks += cp->piece[i].rank != cp->piece[i - 1].rank;
	assert_true(pkinds >= 3);
	assert_true(ranks >= 2);
	double onpath = 0;   /* some of the excess is on the path */
	for (size_t i = 0; i < cp->n; i++) onpath += cp->piece[i].excess;
	assert_true(onpath > 0);
	struct tc_rcctx *cx = tc_rcctx_serial(t, sp);
	uint32_t kinds_cx[2] = { 0 }, joined = 0;   /* compute and MPI contexts, the MPI ones of several sizes */
	for (uint32_t i = 0; i < cx->nctx; i++) kinds_cx[cx->ctx[i].kind]++;
	for (uint32_t i = 0; i < cx->nctx; i++) joined += cx->ctx[i].nranks >= 2;
	assert_true(kinds_cx[0] >= 3 && kinds_cx[1] >= 3);
	assert_true(joined >= 2);
	struct tc_rcexcess *xs = tc_rcexcess_serial(t, sp);
	uint64_t nex = 0;   /* the trace has activities with excess */
	for (uint32_t r = 0; r < xs->nranks; r++) nex += xs->rank[r].nexcess;
	assert_true(nex > 0);
	struct tc_rcdelay *dl = tc_rcdelay_of(rc);
	struct tc_rc_results *rx = tc_rc_results_of(rc);
	double cost = 0;   /* the excess caused waiting elsewhere */
	for (uint32_t r = 0; r < dl->nranks; r++) cost += dl->rank[r].delay_cost;
	assert_true(cost > 0);
	for (int P = 1; P <= DK_MAXP; P++) {
		struct got g[DK_MAXP] = { 0 };
		void *arg[DK_MAXP];
		for (int p = 0; p < P; p++) arg[p] = &g[p];
		dk_run(P, replay_proc, arg);
		same_profile(session_profile(s), g[0].r.profile);
		same_table(pl, g[0].r.per_loc);
		same_table(pr, g[0].r.per_rank);
		same_waits(t, sw, g[0].r.waitstates);
		same_rcwait(rw, g[0].r.rcwait);
		same_cpath(cp, g[0].r.cpath);
		same_rcctx(cx, g[0].r.rcctx);
		same_rcexcess(xs, g[0].r.rcexcess);
		same_rcdelay(dl, g[0].r.rcdelay);
		assert_non_null(g[0].r.rc);   /* what a cache stores, assembled from the replayed figures */
		assert_true(tk_same_rc_results(rx, g[0].r.rc));
		assert_string_equal(want, g[0].json);
		free(g[0].json);
		tc_replay_free(&g[0].r);
		for (int p = 0; p < P; p++) tc_trace_free(g[p].t);
	}
	free(want);
	tc_rcwait_free(rw);
	tc_cpath_free(cp);
	tc_rcctx_free(cx);
	tc_rcexcess_free(xs);
	tc_rcdelay_free(dl);
	tc_rc_results_free(rx);
	tc_rootcause_free(rc);
	tc_span_free(sp);
	tc_prof_table_free(pl);
	tc_prof_table_free(pr);
	session_free(s);
}

/* The MPI activity of rank r that starts at `start`. */
static struct tc_act act_at(const struct tc_rootcause *rc, uint32_t r, uint64_t start)
{
	for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
		struct tc_act a = tc_rc_act(rc, r, i);
		if (a.kind == TC_ACT_MPI && a.start == start) return a;
	}
	fail_msg("rank %u has no MPI activity at %llu", r, (unsigned long long)start);
	return (struct tc_act){ 0 };
}

/* The held sends of the trace (distkit.c, held_sends) by hand: rank 0's
 * send [1600, 1640] was ready when rank 1 posted at 1620; rank 2's [1600,
 * 1720] when rank 3 entered its MPI_Wait at 1610 (its receive was posted at
 * 1730, after the send); rank 4's has no partner (rank 5 was in an MPI call
 * from 1590 to 1605, progressing); rank 1's receive at 1620 had its send
 * since 1600 (no wait). */
static void test_rc_held_sends(void **st)
{
	(void)st;
	struct tc_trace *t = dk_trace(0, DK_NR, true);
	tc_trace_finish(t);
	struct tc_span *sp = tc_span_compute(t, false);
	struct tc_rootcause *rc = tc_rootcause_compute(t, sp, NULL);
	struct tc_act a = act_at(rc, 0, 1600);
	assert_int_equal(a.ready, 1620);
	assert_int_equal(a.partner, 1);
	assert_int_equal(a.edge, TC_WE_LATE_RECEIVER);
	a = act_at(rc, 2, 1600);
	assert_int_equal(a.ready, 1610);
	assert_int_equal(a.partner, 3);
	assert_int_equal(a.edge, TC_WE_LATE_RECEIVER);
	a = act_at(rc, 4, 1600);
	assert_int_equal(a.partner, TC_NONE);
	assert_int_equal(a.ready, 1600);
	a = act_at(rc, 1, 1620);
	assert_int_equal(a.partner, TC_NONE);
	tc_rootcause_free(rc);
	tc_span_free(sp);
	tc_trace_free(t);
}

/* Owners of keys by the first key of each process, empty processes between. */
static void test_owner(void **st)
{
	(void)st;
	uint64_t first[5] = { 0, 3, 3, 7, 9 };
	int want[9] = { 0, 0, 0, 2, 2, 2, 2, 3, 3 };
	for (uint64_t k = 0; k < 9; k++) assert_int_equal(replay_owner(first, 4, k), want[k]);
}

/* The fold goes through the processes in order: (((0 + 0.1) + 0.2) + 0.3) ... */
static void fold_step(void *arg, void *state)
{
	struct dk_proc *x = arg;
	*(double *)state += 0.1 * (x->p + 1);
	((uint64_t *)state)[1] = ((uint64_t *)state)[1] * 10 + (uint64_t)x->p + 1;
}

static void fold_proc(struct dk_proc *x)
{
	uint64_t st[2] = { 0 };
	x->d.chain(x->d.ctx, st, sizeof st, fold_step, x);
	memcpy(x->arg, st, sizeof st);
}

static void test_fold(void **st)
{
	(void)st;
	uint64_t got[DK_MAXP][2];
	void *arg[DK_MAXP] = { got[0], got[1], got[2], got[3] };
	dk_run(DK_MAXP, fold_proc, arg);
	double want = 0;
	for (int p = 0; p < DK_MAXP; p++) want += 0.1 * (p + 1);
	for (int p = 0; p < DK_MAXP; p++) {
		assert_memory_equal(&got[p][0], &want, sizeof want);
		assert_int_equal(got[p][1], 1234);
	}
}

/* Order statistics over the processes' parts (oselect.h) are the very
 * doubles tc_median and tc_kth give over every value: 5,000 sets (so more
 * than one round of 4096 targets) of random sizes (empty, one value, even
 * and odd counts), values with ties, zeros, tiny and huge ones, split over
 * the processes unevenly (a process may have none of a set). */
#define OS_SETS 5000
struct os_run { double *v; uint32_t *first; uint8_t *who; uint64_t *kth; double out[OS_SETS]; uint64_t n[OS_SETS]; };

struct os_fill { const struct os_run *a; int p; };

static size_t os_fill(void *arg, size_t q, double *buf)
{
	const struct os_fill *f = arg;
	size_t m = 0;
	for (uint32_t i = f->a->first[q]; i < f->a->first[q + 1]; i++)
		if (f->a->who[i] == f->p) buf[m++] = f->a->v[i];
	return m;
}

struct os_proc { struct os_run *a; double out[OS_SETS]; uint64_t n[OS_SETS]; };

static void os_procfn(struct dk_proc *x)
{
	struct os_proc *o = x->arg;
	struct os_fill f = { o->a, x->p };
	double *buf = xmalloc(64 * sizeof *buf);
	osel_batch(&x->d, OS_SETS, os_fill, &f, buf, o->a->kth, o->out, o->n);
	free(buf);
}

static void test_oselect(void **st)
{
	(void)st;
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	struct os_run a = { 0 };
	a.first = xcalloc(OS_SETS + 1, sizeof *a.first);
	a.kth = xmalloc(OS_SETS * sizeof *a.kth);
	a.v = xmalloc(OS_SETS * 64 * sizeof *a.v);
	a.who = xmalloc(OS_SETS * 64);
	uint8_t *who = xmalloc(OS_SETS * 64);
	static const double odd[] = { 0, 5e-324, 1e-9, 1, 1.5, 2.5e-6, 1e300 };
	for (uint32_t q = 0, n = 0; q < OS_SETS; q++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		uint32_t m = (uint32_t)(seed >> 33) % 41;
		for (uint32_t k = 0; k < m; k++, n++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			uint64_t r = seed >> 20;
			a.v[n] = r % 5 == 0 ? odd[r % 7] : (double)(r % 1000) / 64;   /* ties */
			who[n] = (uint8_t)((r >> 8) % 7);                              /* uneven shares */
		}
		a.first[q + 1] = n;
		a.kth[q] = q % 3 ? OSEL_MEDIAN : (seed >> 40) % 45;                 /* past the end too */
	}
	/* the serial answers: every value here */
	double want[OS_SETS], *buf = xmalloc(64 * sizeof *buf);
	for (uint32_t q = 0; q < OS_SETS; q++) {
		uint32_t m = a.first[q + 1] - a.first[q];
		memcpy(buf, a.v + a.first[q], m * sizeof *buf);
		want[q] = a.kth[q] == OSEL_MEDIAN ? tc_median(buf, m) : tc_kth(buf, m, a.kth[q]);
	}
	free(buf);
	for (int P = 1; P <= DK_MAXP; P++) {
		static struct os_proc o[DK_MAXP];
		void *arg[DK_MAXP];
		for (uint32_t i = 0; i < a.first[OS_SETS]; i++) a.who[i] = (uint8_t)(who[i] % P);
		for (int p = 0; p < P; p++) o[p].a = &a, arg[p] = &o[p];
		dk_run(P, os_procfn, arg);
		for (int p = 0; p < P; p++)
			for (uint32_t q = 0; q < OS_SETS; q++) {
				assert_int_equal(o[p].n[q], a.first[q + 1] - a.first[q]);
				if (isnan(want[q])) assert_true(isnan(o[p].out[q]));
				else assert_memory_equal(&o[p].out[q], &want[q], sizeof want[q]);
			}
	}
	free(a.first), free(a.kth), free(a.v), free(a.who), free(who);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_equals_serial),
		cmocka_unit_test(test_rc_held_sends),
		cmocka_unit_test(test_owner),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_oselect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
