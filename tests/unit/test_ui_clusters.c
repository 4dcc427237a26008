/* The cluster view without a terminal: a hand-built 8-rank trace whose ranks
 * 0-3 are early and 4-7 late, keys sent to the app, the rank selection
 * checked in the app and in the logical and physical views' rank labels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_cluster.h"
#include "ui.h"
#include "uikit.h"

/* Every rank computes (ranks 4-7 ten times longer), sends to r+1, receives
 * from r-1, then a barrier; then a second round where everyone is on time. */
static struct tc_session *two_groups(uint32_t n)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 100000);
	tc_def_simple(t, n, NULL, 1);
	uint32_t rmain = tc_def_region(t, "main", 0, 0, false), rcomp = tc_def_region(t, "compute", 0, 0, false);
	uint32_t rsend = tc_def_region(t, "MPI_Send", 0, 0, true), rrecv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	uint32_t rbar = tc_def_region(t, "MPI_Barrier", 0, 0, true);
	for (uint32_t r = 0; r < n; r++) {
		uint64_t t0 = 0;
		tcb_enter(t, r, t0, rmain);
		for (int round = 0; round < 2; round++) {
			uint64_t b = t0 + 10 + (uint64_t)round * 20000;
			uint64_t work = round == 0 && r >= n / 2 ? 9000 + r : 100 + r;
			tcb_enter(t, r, b, rcomp);
			tcb_leave(t, r, b + work, rcomp);
			uint64_t s = b + work + 5;
			tcb_enter(t, r, s, rsend);
			tcb_send(t, r, s + 1, (r + 1) % n, 0, 1, 64);
			tcb_leave(t, r, s + 10, rsend);
			tcb_enter(t, r, b + 9500, rrecv);
			tcb_recv(t, r, b + 9600 + r, (r + n - 1) % n, 0, 1, 64);
			tcb_leave(t, r, b + 9600 + r, rrecv);
			tcb_enter(t, r, b + 12000, rbar);
			tcb_coll_begin(t, r, b + 12000);
			tcb_coll_end(t, r, b + 12100 + r, 0, 0, UINT32_MAX, 0, 0);
			tcb_leave(t, r, b + 12200, rbar);
		}
		tcb_leave(t, r, 50000, rmain);
	}
	tc_trace_finish(t);
	return session_new(t);
}

static char *screen(struct tc_app *a, int w, int h, struct tc_grid *g)
{
	grid_init(g, w, h, false);
	app_draw(a, g);
	return uk_text(g);
}

/* The view's number key: its place in the registry (Tab order). */
static void open_clusters(struct tc_app *a)
{
	for (size_t i = 0; i < tc_nmain_views; i++)
		if (tc_main_views[i] == &view_clusters) app_key(a, (int)('1' + i));
	assert_ptr_equal(a->view, &view_clusters);
}

/* The role of the rank label of the row showing rank r (logical and physical
 * views: right-aligned numbers in the first columns), or -1 if not shown. */
static int label_role(struct tc_app *a, uint32_t r)
{
	struct tc_grid g;
	char *buf = screen(a, 80, 24, &g);
	char want[16];
	snprintf(want, sizeof want, "%u", r);
	int role = -1;
	for (int y = 2; y < g.h - 1 && role < 0; y++) {
		char lab[8];
		int n = 0;
		for (int x = 0; x < 3; x++)
			if (grid_at(&g, x, y)->ch != ' ') lab[n++] = (char)grid_at(&g, x, y)->ch;
		lab[n] = 0;
		if (!strcmp(lab, want)) role = grid_at(&g, 1, y)->fg;
	}
	free(buf);
	grid_free(&g);
	return role;
}

static void test_select_and_highlight(void **state)
{
	struct tc_session *s = two_groups(8);
	struct tc_app a;
	app_init(&a, s, "groups", true, false);
	open_clusters(&a);
	assert_true(uk_screen_has(&a, 80, 24, "clusters | rank 0/7"));
	assert_true(uk_screen_has(&a, 80, 24, "phase 0/"));
	struct tc_clusters *c = session_clusters(s);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, a.cl.part);
	assert_int_equal(ph->nvisible, 2);   /* the early and the late ranks */
	assert_int_equal(a.nrank_sel, 0);    /* nothing selected before a key */

	uk_keys(&a, "g");   /* the root: every rank of the phase */
	assert_int_equal(a.nrank_sel, 8);
	uk_keys(&a, "j");   /* its first child: the early ranks */
	assert_int_equal(a.nrank_sel, 4);
	for (uint32_t r = 0; r < 8; r++) assert_int_equal(app_rank_selected(&a, r), r < 4);
	assert_true(uk_screen_has(&a, 80, 24, "#1 4 ranks: 0-3"));
	assert_true(uk_screen_has(&a, 80, 24, "| sel 4 |"));
	uk_keys(&a, "j");   /* the late ranks; the cursor rank follows */
	for (uint32_t r = 0; r < 8; r++) assert_int_equal(app_rank_selected(&a, r), r >= 4);
	assert_int_equal(a.rank, 4);
	uk_keys(&a, "k");

	/* Enter opens the node (and keeps it selected); - closes it again */
	uint32_t before = ph->nvisible;
	app_key(&a, TK_ENTER);
	assert_true(ph->nvisible > before);
	assert_int_equal(a.nrank_sel, 4);
	assert_true(app_rank_selected(&a, 0) && !app_rank_selected(&a, 4));
	uk_keys(&a, "-");
	assert_int_equal(ph->nvisible, before);
	uk_keys(&a, "+");
	assert_true(ph->nvisible > before);
	uk_keys(&a, "0");
	assert_int_equal(ph->nvisible, before);

	/* the logical and physical views draw the selected ranks' labels in the selection role */
	uk_keys(&a, "1");
	assert_ptr_equal(a.view, &view_logical);
	assert_int_equal(label_role(&a, 2), TC_R_SELECTION);
	assert_int_equal(label_role(&a, 6), TC_R_LABEL);
	uk_keys(&a, "2");
	assert_int_equal(label_role(&a, 3), TC_R_SELECTION);
	assert_int_equal(label_role(&a, 5), TC_R_LABEL);
	uk_keys(&a, "1");
	app_key(&a, TK_ESC);
	assert_int_equal(a.nrank_sel, 0);
	assert_string_equal(a.msg, "rank selection cleared");
	assert_int_equal(label_role(&a, 2), TC_R_LABEL);

	/* back in the cluster view: Esc clears there too */
	open_clusters(&a);
	uk_keys(&a, "j");
	assert_true(a.nrank_sel > 0);
	app_key(&a, TK_ESC);
	assert_int_equal(a.nrank_sel, 0);
	app_free(&a);
	session_free(s);
}

static void test_phases_metric_focus(void **state)
{
	struct tc_session *s = two_groups(8);
	struct tc_app a;
	app_init(&a, s, "groups", true, false);
	open_clusters(&a);
	assert_true(uk_screen_has(&a, 80, 24, "phase 0/"));
	uint32_t p0 = a.cl.part;
	/* l walks the steps; leaving the phase switches it */
	for (int i = 0; i < 40 && a.cl.part == p0; i++) uk_keys(&a, "l");
	assert_int_not_equal(a.cl.part, p0);
	assert_true(uk_screen_has(&a, 80, 24, "steps"));
	/* m: the app's metric, and the clusters follow it */
	uk_keys(&a, "m");
	assert_int_equal(a.metric, TC_M_GLATENESS);
	assert_true(uk_screen_has(&a, 80, 24, "global_lateness"));
	assert_int_equal(tc_clusters_opts(session_clusters(s))->metric, TC_M_GLATENESS);
	uk_keys(&a, ":metric lateness\n");
	assert_true(uk_screen_has(&a, 80, 24, "| lateness |"));
	assert_int_equal(tc_clusters_opts(session_clusters(s))->metric, TC_M_LATENESS);
	/* c / C refocus */
	uk_keys(&a, "gc");
	assert_non_null(strstr(a.msg, "focus:"));
	uk_keys(&a, "C");
	assert_non_null(strstr(a.msg, "the centroid"));
	/* a hides the aggregate columns, o jumps to a lateness origin (the phase follows) */
	uk_keys(&a, "a");
	assert_false(a.show_agg);
	assert_true(uk_screen_has(&a, 80, 24, "dendrogram"));
	uk_keys(&a, "ao");
	assert_true(a.show_agg);
	assert_true(uk_screen_has(&a, 80, 24, "phase "));
	assert_int_equal(a.cl.part, a.st->cevs[tc_steps_find(a.st, a.rank, (uint32_t)(a.step + (a.step & 1)))].partition);
	/* help lists the view's keys */
	uk_keys(&a, "?");
	assert_true(uk_screen_has(&a, 80, 24, "Keys in the clusters view"));
	assert_true(uk_screen_has(&a, 80, 40, "open / close one more level"));
	uk_keys(&a, "q");
	assert_ptr_equal(a.view, &view_clusters);
	/* every size draws; small ones say so */
	int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 40, 8 }, { 41, 9 }, { 200, 60 }, { 39, 8 }, { 20, 6 }, { 1, 1 } };
	for (size_t z = 0; z < TC_NELEM(sizes); z++) {
		struct tc_grid g;
		grid_init(&g, sizes[z][0], sizes[z][1], z & 1);
		app_draw(&a, &g);
		grid_free(&g);
	}
	assert_true(uk_screen_has(&a, 39, 8, "area too small"));
	/* render's path: a fresh app straight into the view at a step */
	struct tc_app b;
	app_init(&b, s, "groups", false, false);
	app_set_step(&b, 4);
	assert_true(app_set_view(&b, "clusters"));
	assert_true(uk_screen_has(&b, 80, 24, "dendrogram"));
	app_free(&b);
	app_free(&a);
	session_free(s);
}

static void test_empty(void **state)
{
	for (uint32_t n = 0; n < 2; n++) {
		struct tc_session *s = uk_empty_session(n);
		struct tc_app a;
		app_init(&a, s, "empty", false, false);
		open_clusters(&a);
		uk_keys(&a, "jkhl\n+-0cCmg");
		app_key(&a, TK_ESC);
		assert_ptr_equal(a.view, &view_clusters);
		assert_true(uk_screen_has(&a, 80, 24, "no communication events"));
		app_free(&a);
		session_free(s);
	}
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_select_and_highlight),
		cmocka_unit_test(test_phases_metric_focus),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
