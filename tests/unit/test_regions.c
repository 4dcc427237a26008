/* test_regions.c — process correlation, free-energy distance and single
 * linkage on hand-made graphs (against hand values and a dense reference
 * Z = (I − αP)⁻¹), and planted groups in generated traces. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis_latency.h"
#include "latency_gen.h"

static void graph(uint32_t n, size_t ne, const uint32_t (*e)[2], const double *w, struct tc_sparse *g)
{
	uint32_t a[64], b[64];
	for (size_t i = 0; i < ne; i++) { a[i] = e[i][0]; b[i] = e[i][1]; }
	tc_graph_from_edges(n, ne, a, b, w, g);
}

/* 0-1, 1-2, 2-3, 1-3 (binary): R by hand from the correlation trees. */
static void test_correlation_by_hand(void **state)
{
	(void)state;
	static const uint32_t e[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 1, 3 } };
	struct tc_sparse g, r;
	graph(4, 4, e, NULL, &g);
	tc_process_correlation(&g, 3, false, 0, &r);
	/* tree of 0: 1 at depth 1; 2, 3 at depth 2 (via 1); 3, 2 at depth 3 (0-1-2-3, 0-1-3-2) */
	assert_float_equal(tc_sparse_get(&r, 0, 1), 1.0, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 0, 2), 1.0 / 4 + 1.0 / 9, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 0, 3), 1.0 / 4 + 1.0 / 9, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 0, 0), 0.0, 0);
	/* tree of 1: 0, 2, 3 at depth 1; 3 (1-2-3) and 2 (1-3-2) at depth 2; nothing deeper */
	assert_float_equal(tc_sparse_get(&r, 1, 0), 1.0, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 1, 2), 1.25, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 1, 3), 1.25, 1e-15);
	/* tree of 2: 1, 3; then 0, 3 (via 1) and 1 (via 3); then 0 (2-3-1-0) */
	assert_float_equal(tc_sparse_get(&r, 2, 0), 1.0 / 4 + 1.0 / 9, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 2, 1), 1.25, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 2, 3), 1.25, 1e-15);
	tc_sparse_free(&r);
	/* depth bound 1: the adjacency */
	tc_process_correlation(&g, 1, false, 0, &r);
	assert_float_equal(tc_sparse_get(&r, 0, 2), 0.0, 0);
	assert_float_equal(tc_sparse_get(&r, 2, 3), 1.0, 0);
	tc_sparse_free(&r);
	/* balanced: row 0 has layer masses 1, 2, 2 → layers scaled by 1/8 and 1/18 */
	tc_process_correlation(&g, 3, true, 0, &r);
	assert_float_equal(tc_sparse_get(&r, 0, 2), 1.0 / 8 + 1.0 / 18, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 0, 1), 1.0, 1e-15);
	/* row 1: masses 3, 2, 0 → depth 2 scaled by 3/2 */
	assert_float_equal(tc_sparse_get(&r, 1, 2), 1.0 + 0.25 * 1.5, 1e-15);
	tc_sparse_free(&r);
	tc_sparse_free(&g);
	/* weights multiply along the path: w(0,1) = 2 */
	double w[] = { 2, 1, 1, 1 };
	graph(4, 4, e, w, &g);
	tc_process_correlation(&g, 3, false, 0, &r);
	assert_float_equal(tc_sparse_get(&r, 0, 2), 2.0 / 4 + 2.0 / 9, 1e-15);
	assert_float_equal(tc_sparse_get(&r, 0, 1), 2.0, 1e-15);
	tc_sparse_free(&r);
	tc_sparse_free(&g);
}

static double pair_d(const struct tc_fe_pair *p, size_t n, uint32_t a, uint32_t b)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].p == a && p[i].q == b) return p[i].d;
	return NAN;
}

/* Two ranks: the only path 0→1 is one step, Zh = α both ways, D = −log α. */
static void test_fe_two_ranks(void **state)
{
	(void)state;
	static const uint32_t e[][2] = { { 0, 1 } };
	struct tc_sparse g, r;
	graph(2, 1, e, NULL, &g);
	tc_process_correlation(&g, 3, true, 0, &r);
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	struct tc_fe_pair *p;
	size_t n = tc_free_energy(&r, &o, &p);
	assert_int_equal(n, 1);
	assert_float_equal(p[0].d, -log(0.8), 1e-12);
	free(p);
	tc_sparse_free(&r);
	tc_sparse_free(&g);
}

/* Path 0-1-2 with depth 1: the neighbourhood of 2 is {2, 1}, so walks from 1
 * through 0 are dropped: Zh(1,2) = α/2, Zh(2,1) = α (2's only step). */
static void test_fe_neighbourhood_by_hand(void **state)
{
	(void)state;
	static const uint32_t e[][2] = { { 0, 1 }, { 1, 2 } };
	struct tc_sparse g, r;
	graph(3, 2, e, NULL, &g);
	tc_process_correlation(&g, 1, true, 0, &r);
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	o.damping = 0.5;
	struct tc_fe_pair *p;
	size_t n = tc_free_energy(&r, &o, &p);
	assert_int_equal(n, 2);
	assert_float_equal(pair_d(p, n, 1, 2), -0.5 * (log(0.25) + log(0.5)), 1e-12);
	assert_float_equal(pair_d(p, n, 0, 1), -0.5 * (log(0.25) + log(0.5)), 1e-12);
	assert_true(isnan(pair_d(p, n, 0, 2)));
	free(p);
	tc_sparse_free(&r);
	tc_sparse_free(&g);
}

/* Dense reference: P = R row-normalised, Z = (I − αP)⁻¹ by Gauss–Jordan,
 * Zh(p,q) = Z(p,q)/Z(q,q), D = −½ (log Zh(p,q) + log Zh(q,p)). */
static void dense_fe(const struct tc_sparse *r, double alpha, double *D)
{
	uint32_t n = r->n;
	double *A = calloc((size_t)n * 2 * n, sizeof *A);
	for (uint32_t p = 0; p < n; p++) {
		double s = 0;
		for (uint32_t q = 0; q < n; q++) s += tc_sparse_get(r, p, q);
		for (uint32_t q = 0; q < n; q++) A[p * 2 * n + q] = (p == q) - alpha * tc_sparse_get(r, p, q) / s;
		A[p * 2 * n + n + p] = 1;
	}
	for (uint32_t c = 0; c < n; c++) {
		uint32_t piv = c;
		for (uint32_t i = c + 1; i < n; i++)
			if (fabs(A[i * 2 * n + c]) > fabs(A[piv * 2 * n + c])) piv = i;
		for (uint32_t k = 0; k < 2 * n; k++) {
			double x = A[c * 2 * n + k];
			A[c * 2 * n + k] = A[piv * 2 * n + k];
			A[piv * 2 * n + k] = x;
		}
		double d = A[c * 2 * n + c];
		for (uint32_t k = 0; k < 2 * n; k++) A[c * 2 * n + k] /= d;
		for (uint32_t i = 0; i < n; i++) {
			if (i == c) continue;
			double f = A[i * 2 * n + c];
			for (uint32_t k = 0; k < 2 * n; k++) A[i * 2 * n + k] -= f * A[c * 2 * n + k];
		}
	}
#define Z(i, j) A[(i) * 2 * n + n + (j)]
	for (uint32_t p = 0; p < n; p++)
		for (uint32_t q = 0; q < n; q++)
			D[p * n + q] = p == q ? 0 : -0.5 * (log(Z(p, q) / Z(q, q)) + log(Z(q, p) / Z(p, p)));
#undef Z
	free(A);
}

static void check_against_dense(uint32_t n, size_t ne, const uint32_t (*e)[2], const double *w, double alpha,
				bool balanced)
{
	struct tc_sparse g, r;
	graph(n, ne, e, w, &g);
	tc_process_correlation(&g, 3, balanced, 0, &r);
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	o.damping = alpha;
	o.tol = 1e-15;
	struct tc_fe_pair *p;
	size_t np = tc_free_energy(&r, &o, &p);
	assert_int_equal(np, (size_t)n * (n - 1) / 2);   /* diameter ≤ 3: every pair is a candidate */
	double *D = malloc((size_t)n * n * sizeof *D);
	dense_fe(&r, alpha, D);
	for (size_t i = 0; i < np; i++) assert_float_equal(p[i].d, D[p[i].p * n + p[i].q], 1e-9);
	/* a metric: symmetric by construction; triangle inequality on the dense values */
	for (uint32_t a = 0; a < n; a++)
		for (uint32_t b = 0; b < n; b++)
			for (uint32_t c = 0; c < n; c++) assert_true(D[a * n + c] <= D[a * n + b] + D[b * n + c] + 1e-12);
	free(D);
	free(p);
	tc_sparse_free(&r);
	tc_sparse_free(&g);
}

static void test_fe_dense_reference(void **state)
{
	(void)state;
	static const uint32_t e4[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 1, 3 } };
	check_against_dense(4, 4, e4, NULL, 0.8, true);
	check_against_dense(4, 4, e4, NULL, 0.5, false);
	/* a weighted 6-cycle with one chord (diameter 3) */
	static const uint32_t e6[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 5 }, { 5, 0 }, { 0, 3 } };
	static const double w6[] = { 1, 0.5, 2, 1, 0.25, 1, 0.1 };
	check_against_dense(6, 7, e6, w6, 0.8, true);
	check_against_dense(6, 7, e6, w6, 0.95, false);
	/* a star of 7 with two leaves joined */
	static const uint32_t e7[][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 0, 5 }, { 0, 6 }, { 5, 6 } };
	check_against_dense(7, 7, e7, NULL, 0.7, true);
}

static void test_single_linkage_by_hand(void **state)
{
	(void)state;
	struct tc_fe_pair p[] = { { 3, 4, 1.0 }, { 0, 1, 0.5 }, { 2, 3, 2.5 }, { 1, 2, 1.9 }, { 5, 6, 2.01 } };
	uint32_t reg[8];
	double *mm;
	uint32_t n = tc_single_linkage(8, p, 5, 2.0, reg, &mm);
	assert_int_equal(n, 5);   /* {0,1,2} {3,4} {5} {6} {7} */
	uint32_t want[8] = { 0, 0, 0, 1, 1, 2, 3, 4 };
	for (int i = 0; i < 8; i++) assert_int_equal(reg[i], want[i]);
	assert_float_equal(mm[0], 1.9, 0);
	assert_float_equal(mm[1], 1.0, 0);
	assert_float_equal(mm[2], 0.0, 0);
	free(mm);
	n = tc_single_linkage(8, p, 5, 3.0, reg, NULL);
	assert_int_equal(n, 3);   /* {0..4} {5,6} {7} */
	assert_int_equal(reg[4], 0);
	assert_int_equal(reg[6], 1);
	assert_int_equal(reg[7], 2);
}

static void planted(uint32_t n, uint32_t G)
{
	uint32_t *grp = malloc(n * sizeof *grp);
	struct tc_trace *t = gen_groups(n, G, 2, 4, 16, grp);
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	struct tc_latency *lat = tc_latency_compute(t, &o);
	double ari = gen_ari(grp, lat->rank_region, n);
	print_message("planted n=%u G=%u: %u regions, ARI %.4f\n", n, G, lat->nregions, ari);
	assert_true(ari >= 0.95);
	assert_int_equal(lat->nregions, G);
	/* the light messages are the crossing ones: one per rank and round */
	uint64_t crossing = 0;
	for (uint32_t i = 0; i < lat->nregions; i++) crossing += lat->regions[i].messages_crossing;
	assert_int_equal(crossing, 2ULL * 2 * n);
	tc_latency_free(lat);
	tc_trace_free(t);
	free(grp);
}

static void test_planted_groups(void **state)
{
	(void)state;
	static const uint32_t ns[] = { 64, 256, 1024 };
	static const uint32_t gs[] = { 2, 4, 8, 16 };
	for (size_t i = 0; i < TC_NELEM(ns); i++)
		for (size_t j = 0; j < TC_NELEM(gs); j++) planted(ns[i], gs[j]);
}

/* Random partners inside the groups (many partners per rank): the threshold
 * follows the nearest-partner distances; with it fixed at 2 the ranks stay apart. */
static void test_planted_random_partners(void **state)
{
	(void)state;
	static const struct { uint32_t n, G, deg; } c[] = {
		{ 256, 4, 2 }, { 256, 2, 8 }, { 1024, 4, 8 }, { 1024, 16, 4 }, { 1024, 8, 16 },
	};
	for (size_t i = 0; i < TC_NELEM(c); i++) {
		uint32_t *grp = malloc(c[i].n * sizeof *grp);
		struct tc_trace *t = gen_groups_random(c[i].n, c[i].G, c[i].deg, 3, 16, 7 + i, grp);
		struct tc_latency *lat = tc_latency_compute(t, NULL);
		double ari = gen_ari(grp, lat->rank_region, c[i].n);
		print_message("random n=%u G=%u deg=%u: %u regions, ARI %.4f, threshold %.2f (nearest median %.2f)\n",
			      c[i].n, c[i].G, c[i].deg, lat->nregions, ari, lat->threshold_used, lat->nearest_median);
		assert_true(ari >= 0.95);
		assert_true(lat->threshold_used >= 2.0);
		assert_float_equal(lat->threshold_used, TC_MAX(2.0, lat->nearest_median + 0.5), 1e-12);
		tc_latency_free(lat);
		if (c[i].deg >= 8) {
			struct tc_latency_opts o;
			tc_latency_default_opts(&o);
			o.margin = -1;
			lat = tc_latency_compute(t, &o);
			assert_float_equal(lat->threshold_used, 2.0, 0);
			assert_true(lat->nregions > c[i].n / 2);
			tc_latency_free(lat);
		}
		tc_trace_free(t);
		free(grp);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_correlation_by_hand),
		cmocka_unit_test(test_fe_two_ranks),
		cmocka_unit_test(test_fe_neighbourhood_by_hand),
		cmocka_unit_test(test_fe_dense_reference),
		cmocka_unit_test(test_single_linkage_by_hand),
		cmocka_unit_test(test_planted_groups),
		cmocka_unit_test(test_planted_random_partners),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
