/* The UI state machine without a terminal: a hand-built 4-rank trace, keys
 * sent to the app, screens drawn into grids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "steps_halo.h"
#include "ui.h"
#include "uikit.h"

/* ring: every rank computes, sends to r+1, receives from r-1, then a barrier */
static struct tc_session *ring(uint32_t n)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 1000);
	tc_def_simple(t, n, NULL, 1);
	uint32_t rmain = tc_def_region(t, "main", 0, 0, false), rcomp = tc_def_region(t, "compute", 0, 0, false);
	uint32_t rsend = tc_def_region(t, "MPI_Send", 0, 0, true), rrecv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	uint32_t rbar = tc_def_region(t, "MPI_Barrier", 0, 0, true);
	for (uint32_t r = 0; r < n; r++) {
		tcb_enter(t, r, 0, rmain);
		tcb_enter(t, r, 10, rcomp);
		tcb_leave(t, r, 100 + r * 10, rcomp);
		tcb_enter(t, r, 200, rsend);
		tcb_send(t, r, 201, (r + 1) % n, 0, 1, 64);
		tcb_leave(t, r, 210, rsend);
		tcb_enter(t, r, 220, rrecv);
		tcb_recv(t, r, 300 + r, (r + n - 1) % n, 0, 1, 64);
		tcb_leave(t, r, 300 + r, rrecv);
		tcb_enter(t, r, 400, rbar);
		tcb_coll_begin(t, r, 400);
		tcb_coll_end(t, r, 450 + r, 0, 0, UINT32_MAX, 0, 0);
		tcb_leave(t, r, 460, rbar);
		tcb_leave(t, r, 500, rmain);
	}
	tc_trace_finish(t);
	return session_new(t);
}

static void test_moves_and_views(void **state)
{
	struct tc_session *s = ring(4);
	struct tc_app a;
	app_init(&a, s, "ring", true, false);
	assert_int_equal(a.rank, 0);
	assert_true(uk_screen_has(&a, 80, 24, "logical | rank 0/3"));
	uk_keys(&a, "jj");
	assert_int_equal(a.rank, 2);
	int64_t st = a.step;
	uk_keys(&a, "l");
	assert_int_equal(a.step, st + 1);
	uk_keys(&a, "G");
	assert_int_equal(a.rank, 3);
	uk_keys(&a, "g");
	assert_int_equal(a.rank, 0);
	app_key(&a, TK_END);
	assert_int_equal(a.step, a.st->max_step);
	app_key(&a, TK_HOME);
	assert_int_equal(a.step, 0);   /* step 0; the block before it ("init") is one h further */
	uk_keys(&a, "h");
	assert_int_equal(a.step, -1);
	assert_true(uk_screen_has(&a, 80, 24, "step init/"));
	uk_keys(&a, ":step 2\n");
	assert_int_equal(a.step, 2);
	uk_keys(&a, ":rank 3\n");
	assert_int_equal(a.rank, 3);
	uk_keys(&a, ":rank 9\n");
	assert_int_equal(a.rank, 3);
	assert_true(a.msg_err);
	uk_keys(&a, "m");
	assert_int_equal(a.metric, TC_M_GLATENESS);
	uk_keys(&a, ":metric duration\n");
	assert_int_equal(a.metric, TC_M_DURATION);
	app_key(&a, TK_TAB);
	assert_ptr_equal(a.view, &view_physical);
	assert_true(uk_screen_has(&a, 80, 24, "physical | rank 3/3"));
	uk_keys(&a, "3");
	assert_ptr_equal(a.view, &view_overview);
	assert_true(uk_screen_has(&a, 80, 24, "duration per step, mean over 4 ranks (s per rank)"));
	uk_keys(&a, "v");
	app_key(&a, TK_RIGHT);
	app_key(&a, TK_RIGHT);
	app_key(&a, TK_ENTER);
	assert_ptr_equal(a.view, &view_logical);
	assert_true(a.sel);
	uk_keys(&a, "?");
	assert_ptr_equal(a.view, &view_help);
	assert_true(uk_screen_has(&a, 80, 24, "Keys in the logical view"));
	uk_keys(&a, "q");   /* q leaves help, it does not quit */
	assert_ptr_equal(a.view, &view_logical);
	assert_false(a.quit);
	app_key(&a, TK_ENTER);
	assert_ptr_equal(a.view, &view_detail);
	app_key(&a, TK_ESC);
	assert_ptr_equal(a.view, &view_logical);
	uk_keys(&a, "q");   /* after a jump (the overview's Enter) q asks first */
	assert_false(a.quit);
	assert_true(a.confirm_quit);
	uk_keys(&a, "y");
	assert_true(a.quit);
	app_free(&a);
	session_free(s);
}

static void test_search_filter(void **state)
{
	struct tc_session *s = ring(4);
	struct tc_app a;
	app_init(&a, s, "ring", true, false);
	uk_keys(&a, "/barrier\n");
	uint32_t c = tc_call_at(a.t, a.rank, a.time);
	assert_int_not_equal(c, TC_NONE);
	assert_string_equal(tc_region_name(a.t, a.t->ranks[a.rank].calls[c].region), "MPI_Barrier");
	uint32_t r0 = a.rank;
	uk_keys(&a, "/Send\n");
	for (int v = 0; v < 2; v++) {   /* matches are marked in both timelines */
		a.view = v ? &view_physical : &view_logical;
		struct tc_grid g;
		grid_init(&g, 80, 24, false);
		app_draw(&a, &g);
		int m = 0;
		for (int i = 0; i < g.w * g.h; i++) m += g.c[i].fg == TC_R_MATCH;
		if (m < 3) fail_msg("view %d: %d match cells", v, m);
		grid_free(&g);
	}
	a.view = &view_logical;
	/* no Send after the barrier: the cursor stayed; searching again goes on from there */
	assert_true(a.msg_err);
	/* one barrier is one hit (one per logical step): n never walks its ranks */
	uk_keys(&a, "/barrier\n");
	assert_true(a.msg_err);
	assert_non_null(strstr(a.msg, "no later match (1 in all)"));
	assert_int_equal(a.rank, r0);
	uk_keys(&a, "N");
	assert_true(a.msg_err);
	assert_int_equal(a.rank, r0);
	uk_keys(&a, "/MPI_(Send\n");
	assert_true(a.msg_err);
	assert_non_null(strstr(a.msg, "missing closing parenthesis"));
	assert_non_null(strstr(a.err_caret, "/MPI_(Send\n          ^"));
	uk_keys(&a, "f^3$\n");
	assert_int_equal(a.nvis, 1);
	assert_int_equal(a.rank, 3);
	assert_true(uk_screen_has(&a, 80, 24, "f:^3$"));
	uk_keys(&a, "fnomatch\n");
	assert_int_equal(a.nvis, 1);   /* unchanged */
	app_key(&a, TK_ESC);
	assert_int_equal(a.nvis, 4);
	uk_keys(&a, "fcompute\n");   /* ranks that call a matching region */
	assert_int_equal(a.nvis, 4);
	app_free(&a);
	session_free(s);
}

static void test_partners_and_sizes(void **state)
{
	struct tc_session *s = ring(4);
	struct tc_app a;
	app_init(&a, s, "ring", true, false);
	/* the send of rank 0: its receive on rank 1 is marked */
	uint32_t e = a.st->rank_first[0];
	while (!(a.st->cevs[e].flags & TC_CEV_SEND)) e++;
	app_set_step(&a, a.st->cevs[e].step);
	struct tc_grid g;
	grid_init(&g, 80, 24, false);
	app_draw(&a, &g);
	/* one partner event: one run of cells (a step is stretched over several columns) */
	int partners = 0, runs = 0;
	for (int i = 0; i < g.w * g.h; i++) {
		bool p = g.c[i].fg == TC_R_PARTNER;
		partners += p;
		runs += p && (i == 0 || g.c[i - 1].fg != TC_R_PARTNER);
	}
	assert_int_equal(runs, 1);
	assert_true(partners >= 1);
	/* every view at every size draws without trouble; tiny screens say so */
	const struct view *vs[] = { &view_logical, &view_physical, &view_overview, &view_detail, &view_help };
	int sizes[][2] = { { 80, 24 }, { 20, 6 }, { 200, 60 }, { 10, 3 }, { 1, 1 } };
	for (size_t v = 0; v < 5; v++)
		for (size_t z = 0; z < 5; z++) {
			a.view = vs[v];
			grid_resize(&g, sizes[z][0], sizes[z][1]);
			app_draw(&a, &g);
		}
	a.view = &view_logical;
	assert_true(uk_screen_has(&a, 20, 3, "area too small"));
	grid_free(&g);
	app_free(&a);
	session_free(s);
}

static void test_empty_trace(void **state)
{
	for (uint32_t n = 0; n < 2; n++) {
		struct tc_session *s = uk_empty_session(n);
		struct tc_app a;
		app_init(&a, s, "empty", false, false);
		const char *k = "jkhlG0+-\t\t\tm:step 3\n/x\nn";
		uk_keys(&a, k);
		app_key(&a, TK_ENTER);
		app_key(&a, TK_ESC);
		assert_true(uk_screen_has(&a, 80, 24, "|"));
		app_free(&a);
		session_free(s);
	}
}

/* `o` goes to the root cause: the delayed rank's computation block of the
 * delayed iteration (rank 3, iteration 2 of an 8-rank ring halo, 100 ms on
 * top of 100 ms: the block before step 8), with what it cost the others. */
static void test_origin_key(void **state)
{
	(void)state;
	struct halo_spec h = { .nranks = 8, .iters = 5, .res = 1000, .work = 100, .delay_rank = 3,
			       .delay_iter = 2, .delay = 100 };
	struct tc_session *s = session_new(halo_trace(&h));
	struct tc_app a;
	app_init(&a, s, "halo", true, false);
	app_key(&a, 'o');
	assert_int_equal(a.rank, 3);
	assert_int_equal(a.step, 7);
	assert_non_null(strstr(a.msg, "origin 1/"));
	assert_non_null(strstr(a.msg, "rank 3 step 7, computation 100.0 ms longer than typical"));
	app_free(&a);
	session_free(s);
}

/* c in the physical view shows the critical path: on an 8-rank ring halo where
 * rank 3 computes 100 ms longer in iteration 2 (ticks 211-411 ms), the cells of
 * rank 3's row over that segment are in the path role; c again hides it. */
static void test_critical_path_key(void **state)
{
	(void)state;
	struct halo_spec h = { .nranks = 8, .iters = 5, .res = 1000, .work = 100, .delay_rank = 3,
			       .delay_iter = 2, .delay = 100 };
	struct tc_session *s = session_new(halo_trace(&h));
	struct tc_app a;
	app_init(&a, s, "halo", true, true);
	assert_true(app_set_view(&a, "physical"));
	app_key(&a, '0');
	app_key(&a, 'c');
	assert_non_null(strstr(a.msg, "critical path"));
	assert_true(a.pv.path);
	struct tc_grid g;
	grid_init(&g, 120, 30, false);
	app_draw(&a, &g);
	/* rank 3's row: find it by its label, then its cells in the delayed segment */
	int row = -1, lw = 0;
	for (int y = 0; y < g.h && row < 0; y++)
		for (int x = 0; x < 4; x++)
			if (grid_at(&g, x, y)->ch == '3' && (x == 0 || grid_at(&g, x - 1, y)->ch == ' ')) { row = y; lw = x + 2; break; }
	assert_true(row > 0);
	double dt = (double)(a.pv.t1 - a.pv.t0) / a.pv.cols;
	int c = (int)((double)(300 - a.pv.t0) / dt);   /* 300 ms: inside the delay */
	assert_int_equal(grid_at(&g, lw + c, row)->fg, TC_R_PATH);
	/* rank 0's row at that time: waiting, not on the path */
	assert_int_not_equal(grid_at(&g, lw + c, row - 3)->fg, TC_R_PATH);
	grid_free(&g);
	app_key(&a, 'c');
	assert_false(a.pv.path);
	app_free(&a);
	session_free(s);
}

/* Mouse events (src/ui/mouse.c): a click on the logical view's cell picks its
 * rank and step, the wheel moves rows, nothing happens while a prompt is open. */
static void test_mouse(void **state)
{
	(void)state;
	struct tc_session *s = ring(4);
	struct tc_app a;
	app_init(&a, s, "ring", true, false);
	struct tc_grid g;
	grid_init(&g, 80, 24, false);
	app_draw(&a, &g);
	int row = -1, row0 = -1;   /* the first rows labelled " 2" and " 0" */
	for (int y = 0; y < g.h; y++) {
		bool lab = grid_at(&g, 0, y)->ch == ' ' && grid_at(&g, 2, y)->ch == ' ';
		if (lab && grid_at(&g, 1, y)->ch == '2' && row < 0) row = y;
		if (lab && grid_at(&g, 1, y)->ch == '0' && row0 < 0 && y > 2) row0 = y;
	}
	assert_true(row > 0 && row0 > 0);
	struct tc_mouse m = { g.w - 1, row, TC_MOUSE_CLICK, false };
	app_mouse(&a, &m);
	assert_int_equal(a.rank, 2);
	assert_int_equal(a.step, (int64_t)a.st->max_step);   /* the last column: the last step */
	m.kind = TC_MOUSE_WHEEL_UP;   /* 3 rows up from rank 2: rank 0 */
	app_mouse(&a, &m);
	assert_int_equal(a.rank, 0);
	m.kind = TC_MOUSE_WHEEL_DOWN;
	app_mouse(&a, &m);
	assert_int_equal(a.rank, 3);
	m.kind = TC_MOUSE_CLICK;
	m.x = 0;      /* on the label: the rank only */
	m.y = row0;
	app_mouse(&a, &m);
	assert_int_equal(a.rank, 0);
	assert_int_equal(a.step, (int64_t)a.st->max_step);
	uk_keys(&a, "/");   /* a prompt is open: clicks are ignored */
	m.y = row;
	app_mouse(&a, &m);
	assert_int_equal(a.rank, 0);
	app_key(&a, TK_ESC);
	m.y = 0;      /* the title: outside the view */
	app_mouse(&a, &m);
	assert_int_equal(a.rank, 0);
	/* app_list_click: rows 5..7 show lines 10..12 of 12 */
	uint32_t sel = 99;
	assert_false(app_list_click(&sel, 10, 12, 3, 5, 4));
	assert_true(app_list_click(&sel, 10, 12, 3, 5, 6));
	assert_int_equal(sel, 11);
	assert_false(app_list_click(&sel, 10, 12, 3, 5, 7));   /* line 12 does not exist */
	assert_int_equal(sel, 11);
	grid_free(&g);
	app_free(&a);
	session_free(s);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moves_and_views), cmocka_unit_test(test_search_filter),
		cmocka_unit_test(test_partners_and_sizes), cmocka_unit_test(test_empty_trace),
		cmocka_unit_test(test_origin_key), cmocka_unit_test(test_critical_path_key),
		cmocka_unit_test(test_mouse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
