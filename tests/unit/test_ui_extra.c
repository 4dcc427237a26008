/* The wait states, profile and calls views without a terminal: a hand-built
 * trace with a late sender and an imbalanced barrier, keys sent to the app,
 * screens drawn into grids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_waitstate.h"
#include "ui.h"
#include "uikit.h"

/* rank 0 computes long, then sends to rank 1, which entered its receive
 * early (late sender); then a barrier that rank 2 enters last. */
static struct tc_session *late(void)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 1000);
	tc_def_simple(t, 3, NULL, 1);
	uint32_t rmain = tc_def_region(t, "main", 0, 0, false), rwork = tc_def_region(t, "work", 0, 0, false);
	uint32_t rsend = tc_def_region(t, "MPI_Send", 0, 0, true), rrecv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	uint32_t rbar = tc_def_region(t, "MPI_Barrier", 0, 0, true);
	static const uint64_t work_end[3] = { 300, 50, 380 };
	for (uint32_t r = 0; r < 3; r++) {
		tcb_enter(t, r, 0, rmain);
		tcb_enter(t, r, 10, rwork);
		tcb_leave(t, r, work_end[r], rwork);
		if (r == 0) {
			tcb_enter(t, r, 300, rsend);
			tcb_send(t, r, 305, 1, 0, 7, 4096);
			tcb_leave(t, r, 310, rsend);
		} else if (r == 1) {
			tcb_enter(t, r, 60, rrecv);
			tcb_recv(t, r, 320, 0, 0, 7, 4096);
			tcb_leave(t, r, 320, rrecv);
		}
		uint64_t in = r == 2 ? 390 : 330 + r;
		tcb_enter(t, r, in, rbar);
		tcb_coll_begin(t, r, in);
		tcb_coll_end(t, r, 395, 0, 0, UINT32_MAX, 0, 0);
		tcb_leave(t, r, 400, rbar);
		tcb_leave(t, r, 500, rmain);
	}
	tc_trace_finish(t);
	return session_new(t);
}

/* The status line (the row above the key bar) at 80x24. */
static char *status_line(struct tc_app *a)
{
	char *s = uk_draw(a, 80, 24, false), *p = s;
	for (int i = 0; i < 22 && p; i++) {
		p = strchr(p, '\n');
		if (p) p++;
	}
	assert_non_null(p);
	char *nl = strchr(p, '\n');
	if (nl) *nl = 0;
	char *r = strdup(p);
	free(s);
	return r;
}

static void keys(struct tc_app *a, const char *s)
{
	for (; *s; s++) app_key(a, *s == '\n' ? TK_ENTER : *s);
}

static void test_waitstates(void **state)
{
	struct tc_session *s = late();
	struct tc_app a;
	app_init(&a, s, "late", true, false);
	assert_true(app_set_view(&a, "waitstates"));
	assert_true(uk_screen_has(&a, 80, 24, "waitstates | rank 0/2"));
	assert_true(uk_screen_has(&a, 80, 24, "late_sender"));
	assert_true(uk_screen_has(&a, 80, 24, "Ranks that waited most"));
	/* the rank that waited most, and its largest wait, straight from the analysis */
	const struct tc_waitstates *w = session_waitstates(s);
	uint32_t top = 0;
	for (uint32_t r = 1; r < 3; r++)
		if (w->waited[r] > w->waited[top]) top = r;
	const struct tc_wait *big = NULL;
	for (size_t i = 0; i < w->n; i++)
		if (w->w[i].rank == top && (!big || w->w[i].seconds > big->seconds)) big = &w->w[i];
	assert_non_null(big);
	uint32_t cev = tc_steps_cev_of_call(a.st, top, big->call);
	assert_int_not_equal(cev, TC_NONE);
	keys(&a, "ll");   /* patterns -> causing ranks -> waiting ranks */
	keys(&a, "\n");
	assert_ptr_equal(a.view, &view_logical);
	assert_int_equal(a.rank, top);
	assert_int_equal(a.step, a.st->cevs[cev].step);
	/* a causing rank lands on that rank */
	assert_true(app_set_view(&a, "waitstates"));
	keys(&a, "h\n");
	assert_ptr_equal(a.view, &view_logical);
	assert_true(w->caused[a.rank] > 0);
	/* j/k stay inside the list */
	assert_true(app_set_view(&a, "waitstates"));
	keys(&a, "kkkkGjjj");
	assert_true(a.ws.sel < 16);
	assert_true(uk_screen_has(&a, 20, 6, "area too small"));
	app_free(&a);
	session_free(s);
}

static void test_profile(void **state)
{
	struct tc_session *s = late();
	struct tc_app a;
	app_init(&a, s, "late", true, false);
	assert_true(app_set_view(&a, "profile"));
	assert_true(uk_screen_has(&a, 80, 24, ", by exclusive"));
	assert_true(uk_screen_has(&a, 80, 24, "Message sizes: 1 messages, 4.0 KiB"));
	/* the first row by exclusive time is "work"; Enter searches it exactly */
	keys(&a, "\n");
	assert_non_null(a.search);
	assert_string_equal(a.search, "(?-i)^work$");
	for (uint32_t i = 0; i < a.t->nregions; i++)
		assert_int_equal(a.region_match[i], !strcmp(tc_region_name(a.t, i), "work"));
	assert_ptr_equal(a.view, &view_profile);
	/* s keeps the selected region selected (the status line names it) */
	keys(&a, "j");
	char *before = status_line(&a);
	keys(&a, "s");
	assert_true(uk_screen_has(&a, 80, 24, ", by inclusive"));
	char *mid = status_line(&a);
	assert_string_equal(before, mid);
	keys(&a, "sss");
	assert_true(uk_screen_has(&a, 80, 24, ", by exclusive"));
	char *after = status_line(&a);
	assert_string_equal(before, after);
	free(before);
	free(mid);
	free(after);
	/* a name with capitals is matched case-sensitively, punctuation escaped */
	keys(&a, "g");
	while (a.pf.sel < 8) {
		char *txt = uk_draw(&a, 80, 24, false);
		bool barrier = strstr(txt, "\nMPI_Barrier: ") != NULL;
		free(txt);
		if (barrier) break;
		keys(&a, "j");
	}
	keys(&a, "\n");
	assert_string_equal(a.search, "^MPI_Barrier$");
	assert_true(uk_screen_has(&a, 49, 24, "area too small"));
	app_free(&a);
	session_free(s);
}

static void test_calls(void **state)
{
	struct tc_session *s = late();
	struct tc_app a;
	app_init(&a, s, "late", true, false);
	assert_true(app_set_view(&a, "calls"));
	assert_true(uk_screen_has(&a, 80, 24, "log opacity (o)"));
	assert_true(uk_screen_has(&a, 80, 24, "MPI_Recv"));
	keys(&a, "o");
	assert_true(a.cv.linear);
	assert_true(uk_screen_has(&a, 80, 24, "linear opacity (o)"));
	keys(&a, "o");
	assert_false(a.cv.linear);
	uint64_t w = a.pv.t1 - a.pv.t0;
	keys(&a, "+");
	assert_int_equal(a.pv.t1 - a.pv.t0, w / 2);
	uint64_t t0 = a.pv.t0;
	keys(&a, "l");
	assert_true(a.pv.t0 >= t0);
	keys(&a, "h");
	assert_true(a.pv.t0 <= t0 + 1);
	keys(&a, "0");
	assert_int_equal(a.pv.t1 - a.pv.t0, w);
	/* j/k move the shared rank cursor */
	keys(&a, "jj");
	assert_int_equal(a.rank, 2);
	keys(&a, "k");
	assert_int_equal(a.rank, 1);
	assert_true(uk_screen_has(&a, 80, 24, "calls | rank 1/2"));
	/* ASCII: shades . : = # and letters only */
	char *txt = uk_draw(&a, 80, 24, true);
	for (const char *p = txt; *p; p++) assert_true((unsigned char)*p < 0x80);
	free(txt);
	keys(&a, "\n");
	assert_ptr_equal(a.view, &view_physical);
	assert_true(app_set_view(&a, "calls"));
	assert_true(uk_screen_has(&a, 29, 24, "area too small"));
	app_free(&a);
	session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waitstates),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
