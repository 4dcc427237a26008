/* The regions and evolution views without a terminal: a hand-built trace of
 * two groups of four ranks (rings inside, one message across), keys sent
 * to the app: Enter on a region restricts the other views to its ranks,
 * Esc shows all again; Enter on a window sets the physical view's span. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "ui.h"
#include "uikit.h"

#define NR 8
#define ITERS 12

static struct tc_session *groups(void)
{
	struct tc_trace *t = tc_trace_new(1000000, 0, 0);
	tc_def_simple(t, NR, NULL, 1);
	uint32_t rmain = tc_def_region(t, "main", 0, 0, false), rcomp = tc_def_region(t, "compute", 0, 0, false);
	uint32_t rsend = tc_def_region(t, "MPI_Send", 0, 0, true), rrecv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	for (uint32_t r = 0; r < NR; r++) {
		uint32_t g0 = r / 4 * 4;
		uint32_t next = g0 + (r - g0 + 1) % 4, prev = g0 + (r - g0 + 3) % 4;
		tcb_enter(t, r, 0, rmain);
		for (uint64_t i = 0; i < ITERS; i++) {
			uint64_t b = 1000 + i * 1000;
			tcb_enter(t, r, b, rcomp);
			tcb_leave(t, r, b + 100 + r * 10, rcomp);
			tcb_enter(t, r, b + 200, rsend);
			tcb_send(t, r, b + 201, next, 0, 0, 64);
			if (i == 0 && r == 3) tcb_send(t, r, b + 202, 4, 0, 1, 64);   /* the one message across */
			tcb_leave(t, r, b + 210, rsend);
			tcb_enter(t, r, b + 300, rrecv);
			tcb_recv(t, r, b + 300 + r * 3 + i * (i % 3), prev, 0, 0, 64);
			if (i == 0 && r == 4) tcb_recv(t, r, b + 390, 3, 0, 1, 64);
			tcb_leave(t, r, b + 400, rrecv);
		}
		tcb_leave(t, r, 20000, rmain);
	}
	tc_trace_finish(t);
	return session_new(t);
}

static void keys(struct tc_app *a, const char *s)
{
	for (; *s; s++) app_key(a, *s == '\n' ? TK_ENTER : *s == 27 ? TK_ESC : *s);
}

static void test_rank_set(void **state)
{
	struct tc_session *s = groups();
	const struct tc_latency *lat = session_latency(s);
	assert_int_equal(lat->nregions, 2);
	uint32_t r1 = lat->rank_region[4];
	assert_int_not_equal(lat->rank_region[0], r1);
	assert_int_equal(lat->regions[r1].messages_crossing, 1);
	struct tc_app a;
	app_init(&a, s, "groups", true, false);
	assert_true(app_set_view(&a, "regions"));
	assert_true(uk_screen_has(&a, 80, 24, "regions | rank 0/7"));
	assert_true(uk_screen_has(&a, 80, 24, "2 regions by RL"));
	assert_true(uk_screen_has(&a, 80, 24, "row's messages to"));
	/* select the region of rank 4 with j/k, whatever its place in the RL order */
	keys(&a, "j");
	if (a.lat_region != r1) keys(&a, "k");
	assert_int_equal(a.lat_region, r1);
	keys(&a, "\n");
	assert_ptr_equal(a.view, &view_regions);   /* Enter stays; the other views are restricted */
	assert_int_equal(a.nvis, 4);
	for (uint32_t i = 0; i < 4; i++) assert_int_equal(a.vis[i], 4 + i);
	assert_int_equal(a.rank, 4);   /* the cursor moved into the set */
	char label[32];
	snprintf(label, sizeof label, "f:region %u", r1);
	assert_string_equal(a.filter, label + 2);
	/* the logical view shows only those ranks */
	app_key(&a, TK_TAB);
	app_key(&a, TK_BTAB);
	assert_true(app_set_view(&a, "logical"));
	assert_true(uk_screen_has(&a, 80, 24, label));
	keys(&a, "G");
	assert_int_equal(a.rank, 7);
	keys(&a, "g");
	assert_int_equal(a.rank, 4);
	keys(&a, "k");
	assert_int_equal(a.rank, 4);
	/* Esc restores every rank, as it clears the filter */
	keys(&a, "\x1b");
	assert_int_equal(a.nvis, NR);
	assert_null(a.filter);
	/* a rank set replaces a filter and the other way round: one mechanism */
	keys(&a, "f^1$\n");
	assert_int_equal(a.nvis, 1);
	assert_true(app_set_view(&a, "regions"));   /* under the filter it lists the region of rank 1 only */
	assert_true(uk_screen_has(&a, 80, 24, "1 region (of 2; with ranks of f:)"));
	keys(&a, "\n");
	assert_int_equal(a.nvis, 4);
	assert_int_equal(a.vis[0], 0);
	keys(&a, "f^[0-2]$\n");
	assert_int_equal(a.nvis, 3);
	assert_string_equal(a.filter, "^[0-2]$");
	/* bad sets change nothing */
	uint32_t bad[] = { 3, 2 }, out[] = { 1, NR };
	assert_false(app_set_rank_set(&a, bad, 2, "x"));
	assert_false(app_set_rank_set(&a, out, 2, "x"));
	assert_false(app_set_rank_set(&a, bad, 0, "x"));
	assert_int_equal(a.nvis, 3);
	assert_true(app_set_rank_set(&a, NULL, 0, NULL));
	assert_int_equal(a.nvis, NR);
	app_free(&a);
	session_free(s);
}

static void test_latency_mode_and_sizes(void **state)
{
	struct tc_session *s = groups();
	struct tc_app a;
	app_init(&a, s, "groups", true, false);
	assert_true(app_set_view(&a, "regions"));
	keys(&a, "L");
	assert_true(a.rg.latency);
	struct tc_grid g;
	grid_init(&g, 100, 30, false);
	a.color = true;
	app_draw(&a, &g);
	int map = 0;
	for (int i = 0; i < g.w * g.h; i++) map += g.c[i].bg >= TC_R_MAP0 && g.c[i].bg <= TC_R_MAP7;
	assert_true(map > 8);   /* the rows that are not selected and the strip */
	keys(&a, "L");
	assert_false(a.rg.latency);
	/* every size draws; too small says so */
	const struct view *vs[] = { &view_regions, &view_evolution };
	int sizes[][2] = { { 80, 24 }, { 40, 7 }, { 200, 60 }, { 30, 6 }, { 10, 3 }, { 1, 1 } };
	for (size_t v = 0; v < 2; v++)
		for (size_t z = 0; z < TC_NELEM(sizes); z++) {
			a.view = vs[v];
			grid_resize(&g, sizes[z][0], sizes[z][1]);
			app_draw(&a, &g);
		}
	grid_free(&g);
	a.view = &view_regions;
	assert_true(uk_screen_has(&a, 30, 6, "area too small"));
	a.view = &view_evolution;
	assert_true(uk_screen_has(&a, 20, 6, "area too small"));
	assert_true(uk_screen_has(&a, 40, 7, "all msgs"));
	app_free(&a);
	session_free(s);
}

static void test_evolution_window(void **state)
{
	struct tc_session *s = groups();
	const struct tc_latency *lat = session_latency(s);
	const struct tc_trace *t = s->t;
	struct tc_app a;
	app_init(&a, s, "groups", true, false);
	assert_true(app_set_view(&a, "evolution"));
	assert_true(uk_screen_has(&a, 80, 24, "evolution | rank 0/7"));
	assert_int_equal(a.lat_region, TC_NONE);   /* the "all messages" row */
	keys(&a, "j");
	assert_int_not_equal(a.lat_region, TC_NONE);
	keys(&a, "k");
	assert_int_equal(a.lat_region, TC_NONE);
	keys(&a, "lll");
	assert_int_equal(a.ev.win, 3);
	keys(&a, "h");
	assert_int_equal(a.ev.win, 2);
	app_key(&a, TK_END);
	assert_int_equal(a.ev.win, lat->nwindows - 1);
	app_key(&a, TK_HOME);
	keys(&a, "ll\n");
	uint64_t s0 = tc_lat_win_start(lat, 2), s1 = TC_MIN(tc_lat_win_end(lat, 2), t->tmax);
	assert_int_equal(a.pv.t0, s0);
	assert_int_equal(a.pv.t1, s1);
	assert_int_equal(a.time, s0);
	/* the logical cursor is the step at that time (app_set_time) */
	struct tc_app b;
	app_init(&b, s, "groups", true, false);
	app_set_time(&b, s0);
	assert_int_equal(a.step, b.step);
	app_free(&b);
	/* the physical view keeps that window */
	assert_true(app_set_view(&a, "physical"));
	assert_true(uk_screen_has(&a, 80, 24, "physical |"));
	assert_int_equal(a.pv.t0, s0);
	assert_int_equal(a.pv.t1, s1);
	app_free(&a);
	session_free(s);
}

/* More windows than columns: the strip scrolls with the cursor window. */
static void test_evolution_scroll(void **state)
{
	struct tc_session *s = groups();
	session_set_opt(s, "windows=200");
	const struct tc_latency *lat = session_latency(s);
	assert_int_equal(lat->nwindows, 200);
	struct tc_app a;
	app_init(&a, s, "groups", false, false);
	assert_true(app_set_view(&a, "evolution"));
	assert_true(uk_screen_has(&a, 80, 24, "200 windows"));
	assert_int_equal(a.ev.left, 0);
	app_key(&a, TK_END);
	assert_true(uk_screen_has(&a, 80, 24, "window 199:"));
	assert_true(a.ev.left > 0);
	assert_true(a.ev.left + 80 - 17 >= 200);
	app_key(&a, TK_HOME);
	assert_true(uk_screen_has(&a, 80, 24, "window 0:"));
	assert_int_equal(a.ev.left, 0);
	app_free(&a);
	session_free(s);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_set),
		cmocka_unit_test(test_latency_mode_and_sizes),
		cmocka_unit_test(test_evolution_window),
		cmocka_unit_test(test_evolution_scroll),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
