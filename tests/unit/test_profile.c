/* test_profile.c — flat profile, activity and call density on a hand-made
 * trace; the call summary against hand-computed columns and against the
 * exact pass (hand-made and shared traces). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis_counters.h"
#include "analysis_profile.h"
#include "testkit.h"

#define MS(x) ((double)(x) / 1000.0)

/* res 1000 ticks/s (1 tick = 1 ms).
 * rank 0: main[0,100] > work[10,40] > MPI_Send[20,30];  main > MPI_Recv[50,60]
 * rank 1: main[0,80] > MPI_Recv[5,45] */
static struct tc_trace *make(uint32_t *rg)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, 2, NULL, 1);
	rg[0] = tc_def_region(t, "main", 0, 0, false);
	rg[1] = tc_def_region(t, "work", 0, 0, false);
	rg[2] = tc_def_region(t, "MPI_Send", 0, 0, true);
	rg[3] = tc_def_region(t, "MPI_Recv", 0, 0, true);
	tcb_enter(t, 0, 0, rg[0]);
	tcb_enter(t, 0, 10, rg[1]);
	tcb_enter(t, 0, 20, rg[2]); tcb_send(t, 0, 25, 1, 0, 0, 100); tcb_leave(t, 0, 30, rg[2]);
	tcb_leave(t, 0, 40, rg[1]);
	tcb_enter(t, 0, 50, rg[3]); tcb_recv(t, 0, 55, 1, 0, 1, 3000); tcb_leave(t, 0, 60, rg[3]);
	tcb_leave(t, 0, 100, rg[0]);
	tcb_enter(t, 1, 0, rg[0]);
	tcb_enter(t, 1, 5, rg[3]); tcb_recv(t, 1, 40, 0, 0, 0, 100); tcb_send(t, 1, 44, 0, 0, 1, 3000); tcb_leave(t, 1, 45, rg[3]);
	tcb_leave(t, 1, 80, rg[0]);
	tc_trace_finish(t);
	return t;
}

static const struct tc_prof_region *find(const struct tc_profile *p, uint32_t region)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->regions[i].region == region) return &p->regions[i];
	return NULL;
}

static void test_flat(void **st)
{
	(void)st;
	uint32_t rg[4];
	struct tc_trace *t = make(rg);
	struct tc_profile *p = tc_profile_compute(t);
	assert_int_equal(p->n, 4);
	assert_float_equal(p->total, MS(180), 1e-12);
	assert_float_equal(p->mpi, MS(60), 1e-12);
	const struct tc_prof_region *m = find(p, rg[0]), *w = find(p, rg[1]), *s = find(p, rg[2]), *r = find(p, rg[3]);
	/* main: exclusive 100-30-10 = 60 on rank 0, 80-40 = 40 on rank 1 */
	assert_float_equal(m->excl, MS(100), 1e-12);
	assert_float_equal(m->incl, MS(180), 1e-12);
	assert_float_equal(m->excl_min, MS(40), 1e-12);
	assert_int_equal(m->rank_max, 0);
	assert_float_equal(w->excl, MS(20), 1e-12);
	assert_float_equal(w->incl, MS(30), 1e-12);
	assert_int_equal(s->calls, 1);
	/* MPI_Recv: 10 on rank 0, 40 on rank 1: imbalance (40 − 25) / 40 */
	assert_float_equal(r->excl, MS(50), 1e-12);
	assert_int_equal(r->rank_max, 1);
	assert_float_equal(r->imbalance, 0.375, 1e-12);
	/* sorted by exclusive time: main 100, MPI_Recv 50, work 20, MPI_Send 10 */
	assert_int_equal(p->regions[0].region, rg[0]);
	assert_int_equal(p->regions[1].region, rg[3]);
	assert_int_equal(p->regions[3].region, rg[2]);
	/* 100 B → bucket 7 ([64,128)), 3000 B → bucket 12 ([2048,4096)) */
	assert_int_equal(p->hist_count[7], 1);
	assert_int_equal(p->hist_count[12], 1);
	assert_int_equal(p->hist_bytes[12], 3000);
	tc_profile_free(p);
	tc_trace_free(t);
}

static void test_activity_and_density(void **st)
{
	(void)st;
	uint32_t rg[4];
	struct tc_trace *t = make(rg);
	uint32_t slots[3];
	double share[10 * 3];
	uint32_t ns = tc_activity(t, 0, 100, 10, 3, slots, share);
	assert_int_equal(ns, 3);
	assert_int_equal(slots[0], rg[3]);  /* MPI_Recv: 50 ms in the window */
	assert_int_equal(slots[1], rg[2]);
	assert_int_equal(slots[2], TC_NONE);
	assert_float_equal(share[0 * 3 + 0], 0.25, 1e-12);  /* rank 1 in Recv for half of bin 0, of 2 ranks */
	assert_float_equal(share[2 * 3 + 0], 0.5, 1e-12);
	assert_float_equal(share[2 * 3 + 1], 0.5, 1e-12);   /* rank 0 in Send during [20,30) */
	assert_float_equal(share[4 * 3 + 0], 0.25, 1e-12);
	assert_float_equal(share[5 * 3 + 0], 0.5, 1e-12);
	assert_float_equal(share[7 * 3 + 0], 0.0, 1e-12);
	/* a window [25, 55): calls that began before it and still run count too */
	double w3[3 * 3];
	ns = tc_activity(t, 25, 55, 3, 3, slots, w3);
	assert_int_equal(ns, 3);
	assert_int_equal(slots[0], rg[3]);              /* Recv: 20 ms of rank 1 + 5 ms of rank 0 */
	assert_int_equal(slots[1], rg[2]);              /* Send: 5 ms */
	assert_float_equal(w3[0 * 3 + 0], 0.5, 1e-12);  /* [25,35): rank 1 in Recv all of it */
	assert_float_equal(w3[0 * 3 + 1], 0.25, 1e-12); /* rank 0 in Send for [25,30) */
	assert_float_equal(w3[1 * 3 + 0], 0.5, 1e-12);
	assert_float_equal(w3[2 * 3 + 0], 0.25, 1e-12); /* [45,55): rank 0 in Recv from 50 */
	uint32_t c2[2 * 4];
	/* only calls starting in [20, 60): the Send at 20 and the Recv at 50 */
	assert_int_equal(tc_call_density(t, 20, 60, 4, 2, 0.001, 0.1, c2), 1);
	uint32_t sum2 = 0;
	for (int i = 0; i < 8; i++) sum2 += c2[i];
	assert_int_equal(sum2, 2);
	uint32_t counts[3 * 10];
	uint32_t mx = tc_call_density(t, 0, 100, 10, 3, 0.001, 0.1, counts);
	assert_int_equal(mx, 1);
	/* 10 ms calls at 20 and 50 → row 1; the 40 ms call at 5 → row 0 */
	assert_int_equal(counts[1 * 10 + 2], 1);
	assert_int_equal(counts[1 * 10 + 5], 1);
	assert_int_equal(counts[0 * 10 + 0], 1);
	uint32_t sum = 0;
	for (int i = 0; i < 30; i++) sum += counts[i];
	assert_int_equal(sum, 3);
	assert_float_equal(tc_opacity(10, 100, 0.1, true), 0.55, 1e-12);
	assert_float_equal(tc_opacity(10, 100, 0.1, false), 0.19, 1e-12);
	assert_float_equal(tc_opacity(0, 100, 0.1, true), 0.0, 1e-12);
	assert_float_equal(tc_opacity(1, 1, 0.1, true), 1.0, 1e-12);
	tc_trace_free(t);
}

/* The summary of make()'s trace in 10-tick bins: bin k = [10k, 10k + 10).
 * Recv (rank 1) [5,45) and (rank 0) [50,60); Send (rank 0) [20,30).
 * Durations 10, 10, 40 ms over [10 ms, 100 ms] (dmax raised to 10 × dmin):
 * buckets (log10 d + 2) · 128 → 0, 0, 77 (77.06); with 3 rows bucket j goes
 * to row round((1 − (j + ½)/128) · 2): the 40 ms call to row 1, the others to
 * row 2. */
static void test_summary_hand(void **st)
{
	(void)st;
	uint32_t rg[4];
	struct tc_trace *t = make(rg);
	struct tc_call_summary *s = tc_call_summary_new(t, 10);
	assert_int_equal(s->width, 10);
	assert_int_equal(s->nbins, 11);       /* [0, 110): tmax = 100 included */
	assert_int_equal(s->nregions, 2);
	assert_int_equal(s->ncalls, 3);
	assert_float_equal(s->dmin, 0.010, 1e-15);
	assert_float_equal(s->dmax, 0.100, 1e-15);
	assert_int_equal(tc_call_summary_calls(s, 0, 100), 3);
	assert_int_equal(tc_call_summary_calls(s, 20, 60), 2);

	/* two bins per column: [0,20) Recv 15 ticks of 2 × 20; [20,40) Recv 20, Send 10; [40,60) Recv 5 + 10 */
	uint32_t slots[3], xslots[3];
	double share[5 * 3], xshare[5 * 3];
	assert_int_equal(tc_call_summary_activity(s, 0, 100, 5, 3, slots, share), 3);
	assert_int_equal(slots[0], rg[3]);
	assert_int_equal(slots[1], rg[2]);
	assert_int_equal(slots[2], TC_NONE);
	const double want[5 * 3] = { 0.375, 0, 0, 0.5, 0.25, 0, 0.375, 0, 0, 0, 0, 0, 0, 0, 0 };
	for (int i = 0; i < 15; i++) assert_float_equal(share[i], want[i], 1e-15);
	assert_int_equal(tc_activity(t, 0, 100, 5, 3, xslots, xshare), 3);
	assert_memory_equal(slots, xslots, sizeof slots);
	assert_memory_equal(share, xshare, sizeof share);
	/* one bin per column: the exact test's values */
	double s10[10 * 3], x10[10 * 3];
	tc_call_summary_activity(s, 0, 100, 10, 3, slots, s10);
	tc_activity(t, 0, 100, 10, 3, xslots, x10);
	assert_memory_equal(s10, x10, sizeof s10);
	assert_float_equal(s10[0 * 3 + 0], 0.25, 1e-15);
	assert_float_equal(s10[2 * 3 + 1], 0.5, 1e-15);
	/* an edge inside a bin takes the bin's time pro rata: [0,5) gets half of
	 * bin 0's 5 ticks of Recv (the exact pass: none, it starts at 5) */
	double one[3];
	tc_call_summary_activity(s, 0, 5, 1, 3, slots, one);
	assert_int_equal(slots[0], rg[3]);
	assert_float_equal(one[0], 2.5 / 5 / 2, 1e-15);

	uint32_t c[3 * 10], xc[3 * 10];
	assert_int_equal(tc_call_summary_density(s, 0, 100, 10, 3, c), 1);
	assert_int_equal(tc_call_density(t, 0, 100, 10, 3, s->dmin, s->dmax, xc), 1);
	assert_memory_equal(c, xc, sizeof c);
	const uint32_t wantc[3 * 10] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					 0, 0, 1, 0, 0, 1, 0, 0, 0, 0 };
	assert_memory_equal(c, wantc, sizeof c);
	uint32_t c5[3 * 5];
	tc_call_summary_density(s, 0, 100, 5, 3, c5);
	const uint32_t want5[3 * 5] = { 0, 0, 0, 0, 0,  1, 0, 0, 0, 0,  0, 1, 1, 0, 0 };
	assert_memory_equal(c5, want5, sizeof c5);
	/* calls are counted by the bin they start in, an edge bin whole where its
	 * middle is: [22,100) holds the middle of bin 2 (25), so the Send at 20 is
	 * counted in it (the exact pass: not) */
	uint32_t c1[3];
	tc_call_summary_density(s, 22, 100, 1, 3, c1);
	assert_int_equal(c1[2], 2);
	tc_call_density(t, 22, 100, 1, 3, s->dmin, s->dmax, c1);
	assert_int_equal(c1[2], 1);
	/* ... and [28,100) does not */
	tc_call_summary_density(s, 28, 100, 1, 3, c1);
	assert_int_equal(c1[2], 1);
	assert_int_equal(tc_call_summary_calls(s, 22, 100), 2);
	assert_int_equal(tc_call_summary_calls(s, 28, 100), 1);
	/* rows take whole buckets by their centre: in 25 rows the 40 ms call
	 * (77.06) would be in row round(0.39797 · 24) = 10, its bucket's centre
	 * (77.5) is in row round(0.39453 · 24) = 9 */
	uint32_t c25[25];
	tc_call_density(t, 0, 100, 1, 25, s->dmin, s->dmax, c25);
	assert_int_equal(c25[9], 1);
	assert_int_equal(c25[10], 0);
	tc_call_summary_free(s);
	tc_trace_free(t);
}

/* tc_call_bins takes the summary only for windows of ≥ min_bins base bins per
 * column with more than exact_calls calls, else the exact pass. */
static void test_call_bins_choice(void **st)
{
	(void)st;
	uint32_t rg[4];
	struct tc_trace *t = make(rg);
	struct tc_call_summary *s = tc_call_summary_new(t, 10);
	uint32_t slots[3], xslots[3], c[3 * 10], xc[3 * 10];
	double share[10 * 3], xshare[10 * 3];
	/* 3 calls: exact by default */
	struct tc_call_bins b = tc_call_bins(t, s, 22, 100, 1, 3, 3, slots, share, c);
	assert_true(b.exact);
	assert_int_equal(c[2], 1);
	s->exact_calls = 0;
	b = tc_call_bins(t, s, 22, 100, 1, 3, 3, slots, share, c);
	assert_false(b.exact);
	assert_int_equal(c[2], 2);
	b = tc_call_bins(t, s, 0, 100, 5, 3, 3, slots, share, c);
	assert_false(b.exact);
	assert_int_equal(b.nslots, 3);
	assert_int_equal(b.cmax, 1);
	assert_float_equal(share[1 * 3 + 1], 0.25, 1e-15);
	/* one bin per column, and 1.5: exact, equal to tc_activity / tc_call_density */
	const uint32_t nxs[2] = { 10, 4 };
	const uint64_t ends[2] = { 100, 60 };
	for (int k = 0; k < 2; k++) {
		uint32_t nx = nxs[k];
		b = tc_call_bins(t, s, 0, ends[k], nx, 3, 3, slots, share, c);
		assert_true(b.exact);
		assert_int_equal(b.nslots, tc_activity(t, 0, ends[k], nx, 3, xslots, xshare));
		assert_memory_equal(slots, xslots, b.nslots * sizeof *slots);
		assert_memory_equal(share, xshare, nx * 3 * sizeof *share);
		assert_int_equal(b.cmax, tc_call_density(t, 0, ends[k], nx, 3, s->dmin, s->dmax, xc));
		assert_memory_equal(c, xc, nx * 3 * sizeof *c);
	}
	tc_call_summary_free(s);
	tc_trace_free(t);
}

/* Summary and exact pass on windows whose column edges are base-bin edges:
 * the same slots, the same shares to the bit, the same counts. */
static void agree(const struct tc_trace *t, const struct tc_call_summary *s, uint32_t a, uint32_t m, uint32_t nx,
		  uint32_t ny)
{
	enum { MS = 4 };   /* 3 regions + other: the other slot gets used */
	uint64_t t0 = s->tmin + (uint64_t)a * s->width, t1 = t0 + (uint64_t)m * nx * s->width;
	uint32_t sl[MS], xsl[MS];
	double *sh = xmalloc(nx * MS * sizeof *sh), *xsh = xmalloc(nx * MS * sizeof *xsh);
	uint32_t *c = xmalloc(nx * ny * sizeof *c), *xc = xmalloc(nx * ny * sizeof *xc);
	uint32_t ns = tc_call_summary_activity(s, t0, t1, nx, MS, sl, sh);
	assert_int_equal(ns, tc_activity(t, t0, t1, nx, MS, xsl, xsh));
	assert_memory_equal(sl, xsl, ns * sizeof *sl);
	for (uint32_t i = 0; i < nx * MS; i++) assert_true(sh[i] == xsh[i]);
	uint32_t mx = tc_call_summary_density(s, t0, t1, nx, ny, c);
	assert_int_equal(mx, tc_call_density(t, t0, t1, nx, ny, s->dmin, s->dmax, xc));
	assert_memory_equal(c, xc, nx * ny * sizeof *c);
	uint64_t n = 0;
	for (uint32_t i = 0; i < nx * ny; i++) n += c[i];
	assert_int_equal(n, tc_call_summary_calls(s, t0, t1));
	free(sh);
	free(xsh);
	free(c);
	free(xc);
}

static void test_summary_traces(void **st)
{
	(void)st;
	const char *names[] = { "sstmacro-mpi-coverage-10p", "tracer-stencil4d-64p", "casita-jacobi-mpi-omp-cuda-cpu050-2p" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		struct tc_trace *t = tk_load(names[i], 0);
		if (!t) skip();
		struct tc_call_summary *s = tc_call_summary_new(t, 600);
		assert_true(s->ncalls > 1000);
		assert_true((uint64_t)s->nbins * s->width > t->tmax - t->tmin);
		assert_int_equal(tc_call_summary_calls(s, t->tmin, t->tmin + (uint64_t)s->nbins * s->width), s->ncalls);
		agree(t, s, 0, s->nbins, 1, 7);                 /* the whole grid in one column */
		agree(t, s, 0, s->nbins / 60, 60, 19);          /* 10 bins per column */
		agree(t, s, 37, 3, 50, 31);
		agree(t, s, 101, 1, 300, 40);                   /* one bin per column */
		agree(t, s, s->nbins - 20, 4, 5, 3);
		tc_call_summary_free(s);
		tc_trace_free(t);
	}
}

/* Per location and per rank, in ticks.  Rank 0's master: main[0,100] >
 * f[10,70] > f[20,50] > g[30,40] (f recursive); its thread (location 2):
 * f[5,25] > g[10,15], then f[30,60] left open (closed at the thread's last
 * record, 90); rank 1: main[0,50]. */
static void test_per_location_rank(void **st)
{
	(void)st;
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, 2, NULL, 1);
	uint32_t th = tc_def_loc(t, 77, "thread 1", TC_LOC_CPU, 0, 1, 0, 0);
	uint32_t main_ = tc_def_region(t, "main", 0, 0, false), f = tc_def_region(t, "f", 0, 0, false);
	uint32_t g = tc_def_region(t, "g", 0, 0, false);
	tcb_enter(t, 0, 0, main_);
	tcb_enter(t, 0, 10, f); tcb_enter(t, 0, 20, f); tcb_enter(t, 0, 30, g); tcb_leave(t, 0, 40, g);
	tcb_leave(t, 0, 50, f); tcb_leave(t, 0, 70, f);
	tcb_leave(t, 0, 100, main_);
	tcb_enter(t, th, 5, f); tcb_enter(t, th, 10, g); tcb_leave(t, th, 15, g); tcb_leave(t, th, 25, f);
	tcb_enter(t, th, 30, f);
	tcb_seen(t, th, 90);
	tcb_enter(t, 1, 0, main_); tcb_leave(t, 1, 50, main_);
	tc_trace_finish(t);
	struct tc_prof_table *pl = tc_profile_locations(t), *pr = tc_profile_ranks(t, pl);
	/* by location, then exclusive time descending */
	const struct { uint32_t who, region; uint64_t calls, excl, incl; } wl[] = {
		{ 0, f, 2, 50, 60 }, { 0, main_, 1, 40, 100 }, { 0, g, 1, 10, 10 },
		{ 1, main_, 1, 50, 50 },
		{ th, f, 2, 75, 80 }, { th, g, 1, 5, 5 },
	}, wr[] = {
		{ 0, f, 4, 125, 140 }, { 0, main_, 1, 40, 100 }, { 0, g, 2, 15, 15 },
		{ 1, main_, 1, 50, 50 },
	};
	assert_int_equal(pl->n, TC_NELEM(wl));
	for (size_t i = 0; i < TC_NELEM(wl); i++) {
		assert_int_equal(pl->cells[i].who, wl[i].who);
		assert_int_equal(pl->cells[i].region, wl[i].region);
		assert_int_equal(pl->cells[i].calls, wl[i].calls);
		assert_int_equal(pl->cells[i].excl, wl[i].excl);
		assert_int_equal(pl->cells[i].incl, wl[i].incl);
	}
	assert_int_equal(pr->n, TC_NELEM(wr));
	for (size_t i = 0; i < TC_NELEM(wr); i++) {
		assert_int_equal(pr->cells[i].who, wr[i].who);
		assert_int_equal(pr->cells[i].region, wr[i].region);
		assert_int_equal(pr->cells[i].calls, wr[i].calls);
		assert_int_equal(pr->cells[i].excl, wr[i].excl);
		assert_int_equal(pr->cells[i].incl, wr[i].incl);
	}
	tc_prof_table_free(pr);
	tc_prof_table_free(pl);
	tc_trace_free(t);
}

/* Counters per function: an accumulated metric sampled before each Enter and
 * Leave (as Score-P writes it): main[0,100] > f[10,50] > f[20,30] (recursive);
 * values 0, 5, 7, 20, 30, 70 at those six records; one call before the
 * first sample on location 1 is left out. */
static void test_counters(void **st)
{
	(void)st;
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, 2, NULL, 1);
	uint32_t main_ = tc_def_region(t, "main", 0, 0, false), f = tc_def_region(t, "f", 0, 0, false);
	uint32_t cyc = tc_def_metric(t, "cyc", "#", TC_MM_ACCUMULATED, 0, TC_MV_UINT64);
	const uint64_t when[] = { 0, 10, 20, 30, 50, 100 }, val[] = { 0, 5, 7, 20, 30, 70 };
	for (int k = 0; k < 6; k++) {
		tcb_metric(t, 0, when[k], cyc, TC_MV_UINT64, (union tc_mvalue){ .u = val[k] });
		if (k < 3) tcb_enter(t, 0, when[k], k ? f : main_);
		else tcb_leave(t, 0, when[k], k < 5 ? f : main_);
	}
	tcb_enter(t, 1, 0, main_); tcb_leave(t, 1, 10, main_);
	tcb_metric(t, 1, 20, cyc, TC_MV_UINT64, (union tc_mvalue){ .u = 9 });
	tc_trace_finish(t);
	struct tc_counters *C = tc_counters_compute(t);
	/* f: incl 30-5 = 25 (outer only), the inner 20-7 = 13; excl 25-13 + 13 = 25; main: incl 70, excl 70-25 = 45 */
	assert_int_equal(C->ncells, 2);
	assert_int_equal(C->cells[0].region, main_);
	assert_int_equal(C->cells[0].iexcl, 45);
	assert_int_equal(C->cells[0].iincl, 70);
	assert_int_equal(C->cells[1].region, f);
	assert_int_equal(C->cells[1].calls, 2);
	assert_int_equal(C->cells[1].iexcl, 25);
	assert_int_equal(C->cells[1].iincl, 25);
	assert_int_equal(C->nranks, 2);
	assert_int_equal(C->ranks[0].samples, 6);
	assert_true(C->ranks[0].increase == 70 && C->ranks[0].max == 70);
	assert_int_equal(C->ranks[1].samples, 1);
	tc_counters_free(C);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_activity_and_density),
		cmocka_unit_test(test_summary_hand),
		cmocka_unit_test(test_call_bins_choice),
		cmocka_unit_test(test_summary_traces),
		cmocka_unit_test(test_per_location_rank),
		cmocka_unit_test(test_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
