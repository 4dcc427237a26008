/* test_profile.c — flat profile, activity and call density on a hand-made trace. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis_profile.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_activity_and_density),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
