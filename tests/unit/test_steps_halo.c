/* test_steps_halo.c — lateness in a ring halo exchange with one injected delay
 * (tests/support/steps_halo.c builds the trace: 8 ranks, 10 iterations,
 * compute 100 ticks, +50 on rank 3 in iteration 2; 1 tick = 1 s). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "analysis_steps.h"
#include "steps_halo.h"

#define NR 8
#define DELAY 50

static double lat(const struct tc_steps *s, uint32_t r, uint32_t step)
{
	uint32_t i = tc_steps_find(s, r, step);
	assert_int_not_equal(i, TC_NONE);
	assert_int_equal(s->cevs[i].step, step);
	return tc_cev_metric(s, i, TC_M_LATENESS, false);
}

/* Structure: per rank and iteration the two Isends coalesce into one send
 * event and the Waitall is one receive event (2 messages); the ring joins every
 * rank, so each iteration is one partition: sends on step 4i, Waitalls on 4i+2.
 *
 * Delay (compute ends at c; a Waitall ends 1 after the latest of its own entry
 * c+4 and its neighbours' sends to it, c(r-1)+3 and c(r+1)+2):
 *  - step 8 (sends of iteration 2): rank 3 enters and leaves 50 late; everyone
 *    else 0.  Its aggregate block (the compute) has lateness 50 and inherits
 *    nothing (its predecessor, the Waitall at step 6, has lateness 0), so the
 *    one origin is rank 3's block before step 8 with differential lateness 50;
 *    the send itself inherits its lateness from that block (D = 0).
 *  - step 10 (Waitalls): rank 3 ends at c+55 (50 late), rank 2 at
 *    c(3)+2+1 = c+53 (48), rank 4 at c(3)+3+1 = c+54 (49); the others c+5.
 *    Their lateness is inherited from rank 3's send (50 ≥ each), so D = 0.
 *  - the late set then widens by one rank on each side per iteration (on the
 *    Waitall step), until at step 22 every rank is late and lateness resets to
 *    the few ticks by which the delays differ. */
static void test_halo_delay(void **st)
{
	(void)st;
	struct halo_spec h = { .nranks = NR, .iters = 10, .res = 1, .work = 100, .delay_rank = 3, .delay_iter = 2,
			       .delay = DELAY };
	struct tc_trace *t = halo_trace(&h);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	assert_int_equal(s->ncevs, NR * 10 * 2);
	assert_int_equal(s->npartitions, 10);
	assert_int_equal(s->max_step, 38);
	for (uint32_t p = 0; p < 10; p++) {
		assert_int_equal(s->parts[p].first_step, 4 * p);
		assert_int_equal(s->parts[p].last_step, 4 * p + 2);
		assert_int_equal(s->parts[p].nranks, NR);
		assert_int_equal(s->parts[p].ncevs, 2 * NR);
	}
	for (uint32_t r = 0; r < NR; r++)
		for (uint32_t k = 0; k < 20; k++) {
			const struct tc_cev *e = &s->cevs[s->rank_first[r] + k];
			assert_int_equal(e->step, 2 * k);
			assert_int_equal(e->flags, k % 2 ? TC_CEV_RECV : TC_CEV_SEND);
			assert_int_equal(e->nops, k % 2 ? 1 : 2);
		}
	/* the origin */
	struct tc_block top[3];
	assert_int_equal(tc_steps_top(s, TC_M_DLATENESS, true, 3, top), 1);
	const struct tc_cev *o = &s->cevs[top[0].cev];
	assert_int_equal(o->rank, 3);
	assert_int_equal(o->step, 8);
	assert_true(top[0].agg);
	assert_true(o->dlateness_agg == DELAY);
	assert_true(tc_cev_metric(s, top[0].cev, TC_M_LATENESS, true) == DELAY);
	assert_true(tc_cev_metric(s, top[0].cev, TC_M_LATENESS, false) == DELAY);
	assert_true(tc_cev_metric(s, top[0].cev, TC_M_DLATENESS, false) == 0);
	/* before the delay: nothing is late */
	for (uint32_t g = 0; g <= 6; g += 2) assert_true(s->steps[g].lateness_max == 0);
	/* step 8 and 10 exactly */
	for (uint32_t r = 0; r < NR; r++) assert_true(lat(s, r, 8) == (r == 3 ? DELAY : 0));
	static const double w10[NR] = { 0, 0, 48, 50, 49, 0, 0, 0 };
	for (uint32_t r = 0; r < NR; r++) assert_true(lat(s, r, 10) == w10[r]);
	/* the spread: on steps 10..20 exactly the ranks within distance d of rank 3
	 * are late by more than half the delay, d growing by one per iteration */
	for (uint32_t g = 10; g <= 20; g += 2) {
		uint32_t d = (g - 6) / 4;   /* 10,12 → 1; 14,16 → 2; 18,20 → 3 */
		for (uint32_t r = 0; r < NR; r++) {
			uint32_t dist = r > 3 ? r - 3 : 3 - r;
			assert_true((lat(s, r, g) > DELAY / 2) == (dist <= d));
		}
	}
	/* reset: from step 22 on every rank is late, so lateness falls to a few ticks */
	for (uint32_t g = 22; g <= s->max_step; g += 2) assert_true(s->steps[g].lateness_max <= 6);
	assert_true(s->steps[20].lateness_max == DELAY);
	/* global lateness equals lateness here (one partition per step) */
	for (uint32_t i = 0; i < s->ncevs; i++)
		assert_true(tc_cev_metric(s, i, TC_M_GLATENESS, false) == tc_cev_metric(s, i, TC_M_LATENESS, false));
	tc_steps_free(s);
	tc_trace_free(t);
}

/* The same halo without a delay: every metric is 0 everywhere. */
static void test_halo_flat(void **st)
{
	(void)st;
	struct halo_spec h = { .nranks = 5, .iters = 4, .res = 1000, .work = 10 };
	h.delay_rank = UINT32_MAX;
	struct tc_trace *t = halo_trace(&h);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	assert_int_equal(s->npartitions, 4);
	for (size_t i = 0; i < s->ncevs; i++)
		for (int m = 0; m < TC_M_COUNT; m++) {
			assert_true(tc_cev_metric(s, (uint32_t)i, (enum tc_metric)m, false) == 0);
			assert_true(tc_cev_metric(s, (uint32_t)i, (enum tc_metric)m, true) == 0);
		}
	tc_steps_free(s);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_halo_delay),
		cmocka_unit_test(test_halo_flat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
