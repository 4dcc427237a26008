/* test_part.c — the distributed finish (src/model/finish_dist.c) without MPI:
 * P threads, each a "process" with its own trace holding only its share's
 * events, joined by a struct tc_dist made of barriers (tests/support/
 * distkit.h, with the hand-built trace); every part's dump must equal the
 * same ranks of the serially built model.  Also the shares themselves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "distkit.h"

static char *dump(const struct tc_part *p)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	assert_true(tc_part_dump(f, p));
	fclose(f);
	return s;
}

static void run_proc(struct dk_proc *x)
{
	dk_finish(x);
	*(char **)x->arg = dump(&x->part);
	tc_part_release(&x->part);
	tc_trace_free(x->t);
}

static void test_dist_equals_serial(void **st)
{
	(void)st;
	struct tc_trace *s = dk_trace(0, DK_NR, true);
	tc_trace_finish(s);
	assert_true(s->unmatched_sends > 0 && s->unmatched_recvs > 0 && s->clock_violations > 0);
	assert_true(s->incomplete_colls > 0);
	for (int P = 1; P <= DK_MAXP; P++) {
		char *dumps[DK_MAXP];
		void *arg[DK_MAXP];
		for (int p = 0; p < P; p++) arg[p] = &dumps[p];
		dk_run(P, run_proc, arg);
		uint64_t ev[DK_NR] = { 0 };
		for (int p = 0; p < P; p++) {
			uint32_t lo, hi;
			tc_share_ranks(ev, DK_NR, p, P, &lo, &hi);
			struct tc_part sp;
			tc_part_of_serial(s, lo, hi, p, &sp);
			char *want = dump(&sp);
			if (strcmp(want, dumps[p])) fprintf(stderr, "P=%d part %d:\n--- serial\n%s\n--- distributed\n%s\n", P, p, want,
							    dumps[p]);
			assert_string_equal(want, dumps[p]);
			free(want);
			free(dumps[p]);
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
