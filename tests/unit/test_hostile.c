/* test_hostile.c — issue 17 at the unit level: the model boundary turns an
 * undefined region into one placeholder (and the wait-state pass, which
 * indexed the region table unchecked, runs on it); names are cleaned of
 * invalid UTF-8 and control bytes (JSON's own escaping: test_util.c);
 * --opt values are checked against their bounds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis_waitstate.h"
#include "model.h"
#include "report.h"

static void test_undefined_region_placeholder(void **state)
{
	(void)state;
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, 2, NULL, 1);
	uint32_t recv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	tcb_enter(t, 0, 10, 7);           /* region 7: never defined */
	tcb_send(t, 0, 11, 1, 0, 0, 8);
	tcb_leave(t, 0, 12, 7);
	tcb_enter(t, 1, 5, recv);
	tcb_recv(t, 1, 15, 0, 0, 0, 8);
	tcb_leave(t, 1, 16, recv);
	tcb_enter(t, 1, 20, TC_NONE);      /* what the reader gives for an unknown OTF2 ref */
	tcb_leave(t, 1, 21, TC_NONE);
	tc_trace_finish(t);
	assert_int_equal(t->nregions, 2);
	assert_string_equal(t->regions[1].name, "<undefined region>");
	assert_int_equal(t->ranks[0].calls[0].region, 1);
	assert_int_equal(t->ranks[1].calls[0].region, recv);
	assert_int_equal(t->ranks[1].calls[1].region, 1);
	int n = 0;
	for (size_t i = 0; i < t->warnings.n; i++)
		if (strstr(t->warnings.a[i], "name a region that is not defined")) {
			n++;
			assert_string_equal(t->warnings.a[i], "2 calls name a region that is not defined: shown as <undefined region>");
		}
	assert_int_equal(n, 1);
	struct tc_waitstates *ws = tc_waitstates_compute(t);
	assert_non_null(ws);
	tc_waitstates_free(ws);
	tc_trace_free(t);
}

static void expect_clean(const char *in, const char *want)
{
	char *got = tc_clean_text(in);
	assert_string_equal(got, want);
	free(got);
}

static void test_clean_text(void **state)
{
	(void)state;
	expect_clean("MPI_Send", "MPI_Send");
	expect_clean("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x9d", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x9d");
	expect_clean("\xff\x1b[2Jx", "\\xff\\x1b[2Jx");
	expect_clean("a\xc2\x85" "b\x7f", "a\\xc2\\x85b\\x7f");            /* C1 NEL, DEL */
	expect_clean("\xc0\xaf", "\\xc0\\xaf");                             /* overlong '/' */
	expect_clean("\xed\xa0\x80", "\\xed\\xa0\\x80");                   /* a surrogate */
	expect_clean("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");          /* above U+10FFFF */
	expect_clean("x\xe2\x86", "x\\xe2\\x86");                          /* cut short */
	expect_clean(NULL, "");
	/* the model stores names cleaned */
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	uint32_t r = tc_def_region(t, "evil\x1b]0;title\x07", 0, 0, false);
	tc_def_simple(t, 1, NULL, 1);
	tc_trace_finish(t);
	assert_string_equal(t->regions[r].name, "evil\\x1b]0;title\\x07");
	tc_trace_free(t);
}

static void expect_opt(const char *kv, const char *want_err)
{
	char *err = NULL;
	bool ok = report_opt_check(kv, &err);
	if (!want_err) {
		assert_true(ok);
		assert_null(err);
	} else {
		assert_false(ok);
		assert_non_null(err);
		assert_string_equal(err, want_err);
		free(err);
	}
}

static void test_opt_check(void **state)
{
	(void)state;
	expect_opt("region_depth=2", NULL);
	expect_opt("caller_merge=ON", NULL);
	expect_opt("cluster_seed=0xdeadbeef", NULL);
	expect_opt("region_damping=0.5", NULL);
	expect_opt("cluster_metric=duration", NULL);
	expect_opt("region_depth=4", "--opt region_depth=4: region_depth takes an integer from 1 to 3");
	expect_opt("region_depth=2.5", "--opt region_depth=2.5: region_depth takes an integer from 1 to 3");
	expect_opt("region_damping=1", "--opt region_damping=1: region_damping takes a number from 1e-06 to 0.999999");
	expect_opt("latency_high=nan", "--opt latency_high=nan: latency_high takes a number from 1e-09 to 1e+09");
	expect_opt("windows=", "--opt windows=: windows takes an integer from 0 to 10000");
	expect_opt("windows", "--opt windows: no value (KEY=VALUE)");
	expect_opt("caller_merge=maybe", "--opt caller_merge=maybe: caller_merge takes on or off");
	expect_opt("region_weight=heavy", "--opt region_weight=heavy: region_weight takes one of messages|bytes|binary");
	expect_opt("cluster_seed=-1", "--opt cluster_seed=-1: cluster_seed takes a non-negative integer below 2^64");
	char *err = NULL;
	assert_false(report_opt_check("region=1", &err));
	assert_non_null(strstr(err, "--opt region: unknown option; valid: coalesce_isends, waitall_merge, "));
	assert_non_null(strstr(err, ", dag_window"));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_undefined_region_placeholder),
		cmocka_unit_test(test_clean_text),
		cmocka_unit_test(test_opt_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
