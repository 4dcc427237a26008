/* test_latency.c — transfer times, latency criteria and L on hand-made
 * message sets, window statistics, period detection, and a run whose
 * inter-node transfers slow down in the second half. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis_latency.h"
#include "latency_gen.h"

#define NS 1e-9

static struct tc_latency *compute(const struct tc_trace *t, uint32_t windows)
{
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	o.windows = windows;
	return tc_latency_compute(t, &o);
}

/* Transfer = completion − max(send start, posted); raw = completion − send. */
static void test_transfer_definition(void **state)
{
	(void)state;
	struct tc_trace *t = tc_trace_new(1000000000ULL, 0, 0);
	tc_def_simple(t, 2, NULL, 1);
	uint32_t rs = tc_def_region(t, "MPI_Send", 5, 0, true);
	uint32_t rr = tc_def_region(t, "MPI_Recv", 5, 0, true);
	uint32_t ri = tc_def_region(t, "MPI_Irecv", 5, 0, true);
	uint32_t rw = tc_def_region(t, "MPI_Wait", 5, 0, true);
	/* A: sent at 100, receive posted late at 500, completes at 520 */
	tcb_enter(t, 0, 100, rs); tcb_send(t, 0, 100, 1, 0, 0, 8); tcb_leave(t, 0, 101, rs);
	tcb_enter(t, 1, 500, rr); tcb_recv(t, 1, 520, 0, 0, 0, 8); tcb_leave(t, 1, 521, rr);
	/* B: Irecv posted at 600, sent at 700, completed in MPI_Wait at 900 */
	tcb_enter(t, 1, 600, ri); tcb_irecv_request(t, 1, 600, 7); tcb_leave(t, 1, 601, ri);
	tcb_enter(t, 0, 700, rs); tcb_send(t, 0, 700, 1, 0, 0, 8); tcb_leave(t, 0, 701, rs);
	tcb_enter(t, 1, 800, rw); tcb_irecv(t, 1, 900, 0, 0, 0, 8, 7); tcb_leave(t, 1, 901, rw);
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 2);
	struct tc_latency *lat = compute(t, 0);
	for (size_t i = 0; i < 2; i++) {
		if (t->msgs[i].send_time == 100) {
			assert_float_equal(lat->transfer[i], 20 * NS, 1e-15);
			assert_float_equal(tc_lat_raw(lat, i), 420 * NS, 1e-15);
		} else {
			assert_int_equal(t->msgs[i].post_time, 600);
			assert_float_equal(lat->transfer[i], 200 * NS, 1e-15);
			assert_float_equal(tc_lat_raw(lat, i), 200 * NS, 1e-15);
		}
		assert_int_equal(lat->cls[i], TC_LAT_INTRA);
	}
	/* one bucket [8, 15] of 2 messages: thin and alone, so its own class median */
	assert_int_equal(lat->nbuckets[TC_LAT_INTRA], 1);
	assert_int_equal(lat->nbuckets[TC_LAT_INTER], 0);
	assert_int_equal(lat->criteria[0][0].lo, 8);
	assert_int_equal(lat->criteria[0][0].hi, 15);
	assert_true(lat->criteria[0][0].interpolated);
	assert_float_equal(lat->criteria[0][0].criterion, 110 * NS, 1e-15);
	tc_latency_free(lat);
	tc_trace_free(t);
}

static struct tc_trace *criteria_trace(void)
{
	static const uint32_t node[4] = { 0, 0, 1, 1 };
	struct gen_msg m[32];
	size_t n = 0;
	uint64_t at = 1000;
#define MSG(s, d, b, tr) do { m[n++] = (struct gen_msg){ s, d, b, at, tr }; at += 10000; } while (0)
	for (int i = 1; i <= 5; i++) MSG(0, 1, 100, 10 * i);          /* intra 100 B: median 30 */
	for (int i = 1; i <= 6; i++) MSG(0, 2, 100, 100 * i);         /* inter 100 B: median 350 */
	MSG(1, 0, 1000, 70);                                          /* intra 1000 B: 2, thin */
	MSG(1, 0, 1000, 90);
	for (int i = 0; i < 5; i++) MSG(2, 3, 10000, 200 + 10 * i);   /* intra 10000 B: median 220 */
	MSG(3, 1, 0, 5);                                              /* inter 0 B: thin */
#undef MSG
	return gen_trace(4, node, 2, m, n);
}

static double x_of(double lo, double hi) { return log2((lo + hi) / 2 + 1); }

static void test_criteria_log2(void **state)
{
	(void)state;
	struct tc_trace *t = criteria_trace();
	struct tc_latency *lat = compute(t, 0);
	assert_int_equal(t->nmsgs, 19);
	const struct tc_lat_bucket *a = lat->criteria[TC_LAT_INTRA], *e = lat->criteria[TC_LAT_INTER];
	assert_int_equal(lat->nbuckets[TC_LAT_INTRA], 3);
	assert_int_equal(a[0].lo, 64); assert_int_equal(a[0].hi, 127); assert_int_equal(a[0].count, 5);
	assert_float_equal(a[0].median, 30 * NS, 1e-15);
	assert_float_equal(a[0].criterion, 30 * NS, 1e-15);
	assert_false(a[0].interpolated);
	assert_int_equal(a[1].lo, 512); assert_int_equal(a[1].hi, 1023); assert_int_equal(a[1].count, 2);
	assert_float_equal(a[1].median, 80 * NS, 1e-15);
	assert_true(a[1].interpolated);
	double x0 = x_of(64, 127), x1 = x_of(512, 1023), x2 = x_of(8192, 16383);
	double want = (30 + (x1 - x0) / (x2 - x0) * (220 - 30)) * NS;
	assert_float_equal(a[1].criterion, want, 1e-15);
	assert_float_equal(a[2].criterion, 220 * NS, 1e-15);
	assert_int_equal(lat->nbuckets[TC_LAT_INTER], 2);
	assert_int_equal(e[0].lo, 0); assert_int_equal(e[0].hi, 0); assert_int_equal(e[0].count, 1);
	assert_true(e[0].interpolated);
	assert_float_equal(e[0].criterion, 350 * NS, 1e-15);   /* only a right neighbour */
	assert_float_equal(e[1].median, 350 * NS, 1e-15);
	/* criteria for sizes without a bucket */
	assert_float_equal(tc_lat_criterion(lat, TC_LAT_INTER, 5000), 350 * NS, 1e-15);
	double x3 = x_of(2048, 4095);
	assert_float_equal(tc_lat_criterion(lat, TC_LAT_INTRA, 3000), (30 + (x3 - x0) / (x2 - x0) * 190) * NS, 1e-15);
	assert_float_equal(tc_lat_criterion(lat, TC_LAT_INTRA, 100), 30 * NS, 1e-15);
	/* L per message */
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tc_msg *g = &t->msgs[i];
		double tr = (double)(g->recv_time - g->send_time) * NS;
		assert_float_equal(lat->transfer[i], tr, 1e-15);
		double c = g->bytes == 100 ? (g->dst == 2 ? 350 : 30) * NS : g->bytes == 1000 ? want
			 : g->bytes == 10000 ? 220 * NS : 350 * NS;
		assert_float_equal(lat->l[i], tr / c, 1e-12);
	}
	/* delayed: intra 100 B 40, 50; inter 100 B 400, 500, 600; 1000 B: 70/want? ; 10000 B: 230, 240 */
	uint64_t delayed = 2 + 3 + 2 + (70 * NS > want) + (90 * NS > want);
	assert_int_equal(lat->delayed, delayed);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* Medians of unsorted transfers with repeats, odd and even counts, and the
 * class-wide median of a class whose buckets are all thin. */
static void test_medians_unsorted(void **state)
{
	(void)state;
	static const uint32_t node[4] = { 0, 0, 1, 1 };
	static const uint32_t even[8] = { 50, 10, 40, 10, 30, 20, 40, 10 }; /* 10 10 10 20 | 30 40 40 50 */
	static const uint32_t odd[7] = { 9, 3, 7, 3, 8, 1, 3 };             /* 1 3 3 [3] 7 8 9 */
	struct gen_msg m[32];
	size_t n = 0;
	uint64_t at = 1000;
	for (int i = 0; i < 8; i++, at += 10000) m[n++] = (struct gen_msg){ 0, 1, 100, at, even[i] };
	for (int i = 0; i < 7; i++, at += 10000) m[n++] = (struct gen_msg){ 1, 0, 3000, at, odd[i] };
	/* inter: three thin buckets of 1, 1 and 2 messages: 6 | 2 | 5, 4 */
	m[n++] = (struct gen_msg){ 0, 2, 1, at, 6 }, at += 10000;
	m[n++] = (struct gen_msg){ 0, 2, 100, at, 2 }, at += 10000;
	m[n++] = (struct gen_msg){ 2, 0, 5000, at, 5 }, at += 10000;
	m[n++] = (struct gen_msg){ 2, 0, 5000, at, 4 }, at += 10000;
	struct tc_trace *t = gen_trace(4, node, 2, m, n);
	struct tc_latency *lat = compute(t, 0);
	const struct tc_lat_bucket *a = lat->criteria[TC_LAT_INTRA], *e = lat->criteria[TC_LAT_INTER];
	assert_int_equal(lat->nbuckets[TC_LAT_INTRA], 2);
	assert_int_equal(a[0].count, 8);
	assert_float_equal(a[0].median, 25 * NS, 1e-15);
	assert_int_equal(a[1].count, 7);
	assert_float_equal(a[1].median, 3 * NS, 1e-15);
	assert_int_equal(lat->nbuckets[TC_LAT_INTER], 3);
	assert_float_equal(e[0].median, 6 * NS, 1e-15);
	assert_float_equal(e[1].median, 2 * NS, 1e-15);
	assert_float_equal(e[2].median, 4.5 * NS, 1e-15);
	for (int k = 0; k < 3; k++) assert_true(e[k].interpolated);
	for (size_t i = 0; i < t->nmsgs; i++) /* each message points at the bucket of its size */
		assert_true(t->msgs[i].bytes >= lat->criteria[lat->cls[i]][lat->bucket[i]].lo &&
			    t->msgs[i].bytes <= lat->criteria[lat->cls[i]][lat->bucket[i]].hi);
	tc_latency_free(lat);
	tc_trace_free(t);
}

static void test_criteria_linear(void **state)
{
	(void)state;
	struct tc_trace *t = criteria_trace();
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	o.buckets = TC_LAT_BUCKETS_LINEAR;
	o.bucket_bytes = 50;
	struct tc_latency *lat = tc_latency_compute(t, &o);
	const struct tc_lat_bucket *a = lat->criteria[TC_LAT_INTRA];
	assert_int_equal(lat->nbuckets[TC_LAT_INTRA], 3);
	assert_int_equal(a[0].lo, 100); assert_int_equal(a[0].hi, 149);
	assert_int_equal(a[1].lo, 1000); assert_int_equal(a[1].hi, 1049);
	assert_int_equal(a[2].lo, 10000); assert_int_equal(a[2].hi, 10049);
	double x0 = x_of(100, 149), x1 = x_of(1000, 1049), x2 = x_of(10000, 10049);
	assert_float_equal(a[1].criterion, (30 + (x1 - x0) / (x2 - x0) * 190) * NS, 1e-15);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* 8 intra messages a second apart... in ns: windows of 1761 ticks. */
static void test_window_statistics(void **state)
{
	(void)state;
	static const uint64_t tr[8] = { 10, 10, 10, 10, 10, 30, 30, 40 };
	struct gen_msg m[8];
	for (int i = 0; i < 8; i++) m[i] = (struct gen_msg){ 0, 1, 64, 1000 + 1000 * (uint64_t)i, tr[i] };
	struct tc_trace *t = gen_trace(2, NULL, 1, m, 8);
	assert_int_equal(t->tmin, 1000);
	assert_int_equal(t->tmax, 8041);
	struct tc_latency *lat = compute(t, 4);
	assert_int_equal(lat->nwindows, 4);
	assert_int_equal(lat->win_dt, 1761);
	assert_int_equal(tc_lat_win_start(lat, 2), 1000 + 2 * 1761);
	/* criterion: median of 10,10,10,10,10,30,30,40 = 10 → L = 1,1,1,1,1,3,3,4 */
	const struct tc_lat_win *w = lat->win_all;
	static const uint32_t n[4] = { 2, 2, 2, 2 }, delayed[4] = { 0, 0, 1, 2 }, high[4] = { 0, 0, 1, 2 };
	static const double mean[4] = { 1, 1, 2, 3.5 }, mx[4] = { 1, 1, 3, 4 };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(w[i].n, n[i]);
		assert_int_equal(w[i].delayed, delayed[i]);
		assert_int_equal(w[i].high, high[i]);
		assert_float_equal(w[i].mean_l, mean[i], 1e-12);
		assert_float_equal(w[i].max_l, mx[i], 1e-12);
		assert_int_equal(w[i].n_inter, 0);
	}
	assert_float_equal(w[3].mean_transfer, 35 * NS, 1e-15);
	/* the two ranks are one region; its windows are the same */
	assert_int_equal(lat->nregions, 1);
	const struct tc_lat_region *R = &lat->regions[0];
	assert_int_equal(R->messages_inside, 8);
	assert_int_equal(R->messages_crossing, 0);
	assert_int_equal(R->delayed, 3);
	assert_float_equal(R->rl, 15.0 / 8, 1e-12);
	for (int i = 0; i < 4; i++) assert_float_equal(R->win[i].mean_l, mean[i], 1e-12);
	/* class windows: everything intra */
	assert_int_equal(lat->win_class[3 * 2 + TC_LAT_INTRA].n, 2);
	assert_int_equal(lat->win_class[3 * 2 + TC_LAT_INTER].n, 0);
	assert_true(isnan(lat->win_class[3 * 2 + TC_LAT_INTER].mean_l));
	tc_latency_free(lat);
	tc_trace_free(t);
}

static void series(struct tc_lat_win *w, const double *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		w[i] = (struct tc_lat_win){ .n = isnan(v[i]) ? 0 : 1, .mean_l = v[i] };
	}
}

static void test_periods(void **state)
{
	(void)state;
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	struct tc_lat_win w[16];
	struct tc_period *p;
	/* steady high in 5..10 (one empty window inside), nothing else rises enough */
	static const double a[14] = { 1, 1, 1, 1, 1.1, 1.3, 1.6, NAN, 1.9, 1.9, 1.9, 1, 1, 1 };
	series(w, a, 14);
	uint32_t n = tc_lat_periods(w, 14, &o, &p);
	assert_int_equal(n, 3);
	assert_int_equal(p[0].kind, TC_PERIOD_OTHER);
	assert_int_equal(p[0].first, 0); assert_int_equal(p[0].last, 4);
	assert_int_equal(p[0].keep[0], 0); assert_int_equal(p[0].keep[1], 2); assert_int_equal(p[0].keep[2], 4);
	assert_int_equal(p[1].kind, TC_PERIOD_STEADY_HIGH);
	assert_int_equal(p[1].first, 5); assert_int_equal(p[1].last, 10);
	assert_float_equal(p[1].mean_l, (1.3 + 1.6 + 1.9 * 3) / 5, 1e-12);
	assert_int_equal(p[2].kind, TC_PERIOD_OTHER);
	assert_int_equal(p[2].first, 11); assert_int_equal(p[2].last, 13);
	free(p);
	/* "other" keeps the first, middle-most and last windows with messages */
	static const double e[9] = { NAN, 1, NAN, NAN, NAN, NAN, 1, 1, NAN };
	series(w, e, 9);
	n = tc_lat_periods(w, 9, &o, &p);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].first, 0); assert_int_equal(p[0].last, 8);
	assert_int_equal(p[0].keep[0], 1); assert_int_equal(p[0].keep[1], 6); assert_int_equal(p[0].keep[2], 7);
	free(p);
	static const double f[3] = { NAN, NAN, NAN };
	series(w, f, 3);
	n = tc_lat_periods(w, 3, &o, &p);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].keep[0], 0); assert_int_equal(p[0].keep[1], 1); assert_int_equal(p[0].keep[2], 2);
	assert_true(isnan(p[0].mean_l));
	free(p);
	/* a growth 1..5 after a fall, then a fall */
	static const double b[8] = { 1, 0.5, 0.6, 0.8, 1.0, 1.1, 0.9, 0.9 };
	series(w, b, 8);
	n = tc_lat_periods(w, 8, &o, &p);
	assert_int_equal(n, 3);
	assert_int_equal(p[0].kind, TC_PERIOD_OTHER); assert_int_equal(p[0].last, 0);
	assert_int_equal(p[1].kind, TC_PERIOD_GROWTH);
	assert_int_equal(p[1].first, 1); assert_int_equal(p[1].last, 5);
	assert_int_equal(p[2].kind, TC_PERIOD_OTHER);
	assert_int_equal(p[2].first, 6); assert_int_equal(p[2].last, 7);
	assert_int_equal(p[2].keep[0], 6); assert_int_equal(p[2].keep[1], 6); assert_int_equal(p[2].keep[2], 7);
	free(p);
	/* a rise too small, and a high run too short: all "other" */
	static const double c[8] = { 1.0, 1.05, 1.1, 1.15, 1.08, 1.25, 1.25, 1.0 };
	series(w, c, 8);
	n = tc_lat_periods(w, 8, &o, &p);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].kind, TC_PERIOD_OTHER);
	free(p);
}

/* 8 ranks on 2 nodes; every round each rank sends to r+1 and r+4 (inter-node);
 * inter-node transfers take 4× longer in the second half of the run. */
static void test_slowdown_second_half(void **state)
{
	(void)state;
	static const uint32_t node[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	const uint32_t rounds = 40;
	struct gen_msg *m = malloc(rounds * 16 * sizeof *m);
	size_t n = 0;
	for (uint32_t r = 0; r < rounds; r++)
		for (uint32_t s = 0; s < 8; s++)
			for (uint32_t k = 0; k < 2; k++) {
				uint32_t d = (s + (k ? 4 : 1)) % 8;
				bool inter = node[s] != node[d];
				uint64_t tr = inter ? (r < rounds / 2 ? 3000 : 12000) : 1000;
				tr += (r * 8 + s) % 7;
				m[n++] = (struct gen_msg){ s, d, 4096, 100000ULL * r + 1000 + 10 * k, tr };
			}
	struct tc_trace *t = gen_trace(8, node, 2, m, n);
	free(m);
	struct tc_latency *lat = compute(t, 20);
	/* the inter-node criterion sits between the two regimes */
	assert_int_equal(lat->nbuckets[TC_LAT_INTER], 1);
	double ci = lat->criteria[TC_LAT_INTER][0].criterion;
	assert_true(ci > 3006 * NS * 1.5 && ci < 12000 * NS);
	double ca = lat->criteria[TC_LAT_INTRA][0].criterion;
	assert_true(ca >= 1000 * NS && ca <= 1006 * NS);
	/* per-class windows: inter-node transfers 4× in the second half */
	double first = lat->win_class[2 * 2 + TC_LAT_INTER].mean_transfer;
	double second = lat->win_class[17 * 2 + TC_LAT_INTER].mean_transfer;
	assert_true(second / first > 3.9 && second / first < 4.1);
	/* the window where the half falls */
	uint64_t half = 100000ULL * (rounds / 2) + 1000;
	uint32_t hw = (uint32_t)((half - lat->win_t0) / lat->win_dt);
	/* the abstraction over all messages and over every region with messages:
	 * a growth or steady-high period starts there, none before */
	uint32_t checked = 0;
	for (int32_t ri = -1; ri < (int32_t)lat->nregions; ri++) {
		const struct tc_period *p = ri < 0 ? lat->periods_all : lat->regions[ri].periods;
		uint32_t np = ri < 0 ? lat->nperiods_all : lat->regions[ri].nperiods;
		if (ri >= 0 && lat->regions[ri].inter_inside == 0) continue;
		bool found = false;
		for (uint32_t i = 0; i < np; i++) {
			if (p[i].kind == TC_PERIOD_OTHER) continue;
			assert_true(p[i].first + 1 >= hw);
			if (p[i].first <= hw + 1) found = true;
			assert_int_equal(p[i].last, lat->nwindows - 1);
		}
		assert_true(found);
		checked++;
	}
	assert_true(checked >= 2);
	tc_latency_free(lat);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transfer_definition),
		cmocka_unit_test(test_criteria_log2),
		cmocka_unit_test(test_medians_unsorted),
		cmocka_unit_test(test_criteria_linear),
		cmocka_unit_test(test_window_statistics),
		cmocka_unit_test(test_periods),
		cmocka_unit_test(test_slowdown_second_half),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
