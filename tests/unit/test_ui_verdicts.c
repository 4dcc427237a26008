/* The DAG and verdict views without a terminal: shared traces loaded, keys
 * sent to the app, screens drawn into grids; the views' caches are released
 * by app_free (free_state). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "ui.h"

/* from tests/support/testkit.h, which cannot be included beside ui.h: its
 * analysis_cluster.h has a struct tc_glyph, ui.h an enum tc_glyph */
struct tc_trace *tk_load(const char *name, int threads);

struct fix { struct tc_session *s; struct tc_app a; };

static void open_trace(struct fix *f, const char *name)
{
	struct tc_trace *t = tk_load(name, 1);
	if (!t) fail_msg("%s: cannot load", name);
	f->s = session_new(t);
	app_init(&f->a, f->s, name, true, false);
}

static void close_trace(struct fix *f)
{
	app_free(&f->a);
	session_free(f->s);
}

static char *screen(struct tc_app *a, int w, int h)
{
	struct tc_grid g;
	grid_init(&g, w, h, false);
	app_draw(a, &g);
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	grid_write_text(&g, fp);
	fclose(fp);
	grid_free(&g);
	return buf;
}

static bool screen_has(struct tc_app *a, int w, int h, const char *what)
{
	char *buf = screen(a, w, h);
	bool ok = strstr(buf, what) != NULL;
	if (!ok) fprintf(stderr, "screen without '%s':\n%s", what, buf);
	free(buf);
	return ok;
}

/* Enter on the imbalance step line lands the logical cursor on the blamed rank and step. */
static void test_verdicts_jump_step(void **state)
{
	struct fix f;
	open_trace(&f, "casita-late-sender-barrier-4p");
	assert_true(app_set_view(&f.a, "verdicts"));
	assert_true(screen_has(&f.a, 80, 40, "imbalance"));
	assert_true(screen_has(&f.a, 80, 40, "step 11 at 10.2361"));
	app_key(&f.a, 'G');
	app_key(&f.a, TK_ENTER);
	assert_ptr_equal(f.a.view, &view_logical);
	assert_int_equal(f.a.rank, 0);
	assert_int_equal(f.a.step, 11);
	close_trace(&f);
}

/* Enter on a window strip opens the physical view over that window. */
static void test_verdicts_jump_window(void **state)
{
	struct fix f;
	open_trace(&f, "tracer-stencil4d-32p");
	const struct tc_latency *lat = session_latency(f.s);
	assert_true(app_set_view(&f.a, "verdicts"));
	bool found = false;
	for (int i = 0; i < 40 && !found; i++) {
		char *buf = screen(&f.a, 80, 40);
		found = strstr(buf, "\n> intra    ") != NULL;
		free(buf);
		if (!found) app_key(&f.a, 'j');
	}
	assert_true(found);
	app_key(&f.a, TK_ENTER);
	assert_ptr_equal(f.a.view, &view_physical);
	/* the cursor starts on the most latent window (17 of 23: the windows cover the
	 * application span since issue 14) */
	assert_int_equal(f.a.pv.t0, tc_lat_win_start(lat, 17));
	assert_int_equal(f.a.pv.t1, tc_lat_win_end(lat, 17));
	assert_int_equal(f.a.time, tc_lat_win_start(lat, 17));
	/* scopes: the run, then the regions */
	assert_true(app_set_view(&f.a, "verdicts"));
	app_key(&f.a, 'r');
	assert_true(screen_has(&f.a, 80, 24, "Verdicts for region 0"));
	close_trace(&f);
}

/* The DAG: the most latent region first, j moves the shared cursor, Enter folds. */
static void test_dag(void **state)
{
	struct fix f;
	open_trace(&f, "tracer-stencil4d-32p");
	assert_true(app_set_view(&f.a, "dag"));
	/* windows over the application span (issue 14): region 0's window 17 first */
	assert_true(screen_has(&f.a, 80, 24, "region 0 (8 ranks) win 17/23"));
	assert_true(screen_has(&f.a, 80, 24, "rank 0 on quartz1: L0  send 2 to 2"));
	app_key(&f.a, 'j');
	app_key(&f.a, 'j');
	assert_int_equal(f.a.rank, 2);
	app_key(&f.a, 'l');
	assert_true(screen_has(&f.a, 80, 24, "rank 2 on quartz1: L1  recv 6 from"));
	app_key(&f.a, TK_ENTER);
	assert_true(screen_has(&f.a, 80, 24, "-   2 quartz1"));
	assert_true(screen_has(&f.a, 80, 24, "L1  recv 6 from"));
	app_key(&f.a, TK_ENTER);
	assert_true(screen_has(&f.a, 80, 24, "+   2 quartz1"));
	app_key(&f.a, '[');
	assert_true(screen_has(&f.a, 80, 24, "win 16/23"));
	app_key(&f.a, 'r');
	assert_true(screen_has(&f.a, 80, 24, "region 1 (8 ranks)"));
	/* too small */
	assert_true(screen_has(&f.a, 39, 24, "area too small"));
	close_trace(&f);
}

/* Each key, then a frame; back to view v when a key left it. */
static void press_all(struct tc_app *a, const char *ks, const char *v)
{
	for (const char *k = ks; *k; k++) {
		app_key(a, *k);
		free(screen(a, 80, 24));
		if (strcmp(a->view->name, v)) assert_true(app_set_view(a, v));
	}
}

/* A trace without messages in its windows: the views say so, keys do nothing harmful. */
static void test_no_messages(void **state)
{
	struct fix f;
	open_trace(&f, "sstelements-ember-bcast-4p");
	assert_true(app_set_view(&f.a, "dag"));
	assert_true(screen_has(&f.a, 80, 24, "no messages in this window"));
	const char *ks = "jkhlG\r[]r";
	press_all(&f.a, ks, "dag");
	assert_true(screen_has(&f.a, 80, 24, "dag |"));
	assert_true(app_set_view(&f.a, "verdicts"));
	press_all(&f.a, ks, "verdicts");
	assert_true(screen_has(&f.a, 80, 24, "Verdicts for"));
	close_trace(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts_jump_step),
		cmocka_unit_test(test_verdicts_jump_window),
		cmocka_unit_test(test_dag),
		cmocka_unit_test(test_no_messages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
