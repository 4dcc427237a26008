/* Issue 15 in the views: threads and streams as rows of the physical
 * timeline (e, E), a counter per rank (#, src/ui/counters.c) and the
 * profile's per-rank × function table (t, w; src/ui/views/proftable.c) on a
 * hand-built hybrid trace, with exact values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "uikit.h"

/* Three ranks (res 1000 ticks/s).  Exclusive ticks per rank:
 *   rank 0: master main[0,100] > f[10,40]; thread 1 "!$omp parallel"[20,50];
 *           a stream: kern[30,70], then a memcpy (RMA get, 4096 bytes) [72,80] and a
 *           put at 85 never completed; counter cyc on the master 0, 100, 400, 1600
 *           at 0, 10, 40, 100
 *   rank 1: master main[0,80] > f[10,30]
 *   rank 2: master main[0,60] > f[10,50]; thread 1 "!$omp parallel"[10,20]
 * f: 30, 20, 40 (min 20, median 30, max 40, imbalance (40 − 30) / 40);
 * the parallel region: 30 on rank 0, 10 on rank 2 (imbalance (30 − 20) / 30). */
static struct tc_session *hybrid(void)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 100);
	tc_def_simple(t, 3, NULL, 1);
	uint32_t th0 = tc_def_loc(t, 100, "OMP thread 1", TC_LOC_CPU, 0, 1, 0, 0);
	uint32_t gpu = tc_def_loc(t, 101, "CUDA[0:7]", TC_LOC_GPU, 0, 0, 0, 0);
	uint32_t th2 = tc_def_loc(t, 102, "OMP thread 1", TC_LOC_CPU, 2, 1, 0, 0);
	uint32_t m = tc_def_region(t, "main", 1, 0, false), f = tc_def_region(t, "f", 1, 0, false);
	uint32_t omp = tc_def_region(t, "!$omp parallel", 3, 0, false), k = tc_def_region(t, "kern", 5, 0, false);
	uint32_t cyc = tc_def_metric(t, "cyc", "#", TC_MM_ACCUMULATED, 0, TC_MV_UINT64);
	const uint64_t end[3] = { 100, 80, 60 }, fe[3] = { 40, 30, 50 };
	const uint64_t when[4] = { 0, 10, 40, 100 }, val[4] = { 0, 100, 400, 1600 };
	for (uint32_t r = 0; r < 3; r++) {
		if (!r) tcb_metric(t, 0, when[0], cyc, TC_MV_UINT64, (union tc_mvalue){ .u = val[0] });
		tcb_enter(t, r, 0, m);
		if (!r) tcb_metric(t, 0, when[1], cyc, TC_MV_UINT64, (union tc_mvalue){ .u = val[1] });
		tcb_enter(t, r, 10, f);
		if (!r) tcb_metric(t, 0, when[2], cyc, TC_MV_UINT64, (union tc_mvalue){ .u = val[2] });
		tcb_leave(t, r, fe[r], f);
		if (!r) tcb_metric(t, 0, when[3], cyc, TC_MV_UINT64, (union tc_mvalue){ .u = val[3] });
		tcb_leave(t, r, end[r], m);
	}
	tcb_enter(t, th0, 20, omp); tcb_leave(t, th0, 50, omp);
	tcb_enter(t, gpu, 30, k); tcb_leave(t, gpu, 70, k);
	tcb_xfer_begin(t, gpu, 72, 4096, 42, true);
	tcb_xfer_end(t, gpu, 80, 42);
	tcb_xfer_begin(t, gpu, 85, 16, 42, false);
	tcb_enter(t, th2, 10, omp); tcb_leave(t, th2, 20, omp);
	tc_trace_finish(t);
	return session_new(t);
}

/* Line y (0-based) of the screen text. */
static char *line_of(const char *text, int y, char *buf, size_t n)
{
	const char *p = text;
	for (int i = 0; i < y && p; i++) {
		p = strchr(p, '\n');
		if (p) p++;
	}
	buf[0] = 0;
	if (!p) return buf;
	size_t len = strcspn(p, "\n");
	if (len >= n) len = n - 1;
	memcpy(buf, p, len);
	buf[len] = 0;
	return buf;
}

/* An app on the hybrid trace showing view (no colour: glyphs). */
static struct tc_session *open_view(struct tc_app *a, const char *view)
{
	struct tc_session *s = hybrid();
	app_init(a, s, "hybrid", false, false);
	assert_true(app_set_view(a, view));
	return s;
}

static void test_rows(void **state)
{
	(void)state;
	struct tc_app a;
	struct tc_session *s = open_view(&a, "physical");
	char *txt = uk_draw(&a, 60, 16, true), l[128];
	/* one row per rank, a + on the ranks that have threads or streams */
	/* (title, axis, then the rows: no view strip at 60 columns) */
	assert_int_equal(strncmp(line_of(txt, 2, l, sizeof l), "+ 0", 3), 0);
	assert_int_equal(strncmp(line_of(txt, 3, l, sizeof l), "  1", 3), 0);
	assert_int_equal(strncmp(line_of(txt, 4, l, sizeof l), "+ 2", 3), 0);
	free(txt);
	uk_keys(&a, "je");   /* rank 1 has none */
	assert_non_null(strstr(a.msg, "rank 1 has no threads or streams"));
	uk_keys(&a, "E");
	assert_non_null(strstr(a.msg, "2 threads, 1 stream"));
	txt = uk_draw(&a, 60, 16, true);
	static const char *const want[] = { "- 0", " t1", " g0", "  1", "- 2", " t1" };
	for (int i = 0; i < 6; i++) assert_int_equal(strncmp(line_of(txt, 2 + i, l, sizeof l), want[i], 3), 0);
	/* the stream's kernel is K, the thread's OpenMP region o (no colour) */
	assert_non_null(strchr(line_of(txt, 4, l, sizeof l) + 3, 'K'));
	assert_non_null(strchr(line_of(txt, 3, l, sizeof l) + 3, 'o'));
	assert_non_null(strchr(line_of(txt, 7, l, sizeof l) + 3, 'o'));
	free(txt);
	/* the cursor walks the rows: g (rank 0), j j: its stream; the event line names it */
	uk_keys(&a, "gjj");
	assert_int_equal(a.rank, 0);
	app_set_time(&a, 35);
	assert_true(uk_screen_has(&a, 60, 16, "rank 0 CUDA[0:7] (g0): kern 40.0 ms (depth 0)"));
	/* Enter: the detail pane gives the stream's call stack, not the master's */
	uk_keys(&a, "\n");
	assert_true(uk_screen_has(&a, 60, 16, "Location CUDA[0:7] of rank 0 (accelerator stream"));
	assert_true(uk_screen_has(&a, 60, 16, "  kern  40.0 ms"));
	uk_keys(&a, "q");
	assert_true(uk_screen_has(&a, 60, 16, "physical | rank 0/2"));
	/* its memcpy: M on the row, named on the event line; the one never completed lasts no time */
	app_set_time(&a, 75);
	assert_true(uk_screen_has(&a, 60, 16, "rank 0 CUDA[0:7] (g0): memcpy 4.0 KiB in 8.0 ms (RMA get)"));
	txt = uk_draw(&a, 60, 16, true);
	assert_non_null(strchr(line_of(txt, 4, l, sizeof l) + 3, 'M'));
	free(txt);
	const struct tc_loc *L = NULL;   /* the stream */
	for (uint32_t i = 0; i < s->t->nlocs; i++)
		if (s->t->locs[i].type == TC_LOC_GPU) L = &s->t->locs[i];
	assert_int_equal(L->nxfers, 2);
	assert_true(L->xfers[0].begin == 72 && L->xfers[0].end == 80 && L->xfers[0].bytes == 4096);
	assert_int_equal(L->xfers[0].flags, TC_XFER_GET);
	assert_true(L->xfers[1].begin == 85 && L->xfers[1].end == 85);
	assert_int_equal(L->xfers[1].flags, TC_XFER_OPEN);
	assert_int_equal(tc_xfer_at(L, 71), TC_NONE);
	assert_int_equal(tc_xfer_at(L, 80), 0);
	assert_int_equal(tc_xfer_at(L, 81), TC_NONE);
	assert_int_equal(tc_xfer_at(L, 85), 1);
	uk_keys(&a, "jj");
	assert_int_equal(a.rank, 2);
	uk_keys(&a, "E");   /* all closed: the cursor back on its rank's row */
	assert_true(uk_screen_has(&a, 60, 16, "+ 2"));
	app_free(&a);
	session_free(s);
}

static void test_counter(void **state)
{
	(void)state;
	struct tc_app a;
	struct tc_session *s = open_view(&a, "physical");
	double v, r;
	assert_false(counter_at(&a, 0, 20, &v, &r));   /* none picked */
	uk_keys(&a, "#");
	assert_int_equal(a.counter, 0);
	assert_non_null(strstr(a.msg, "counter cyc [#], accumulated: drawn as rate, 4 samples"));
	/* the last sample at or before the time; the rate between the samples around it */
	assert_true(counter_at(&a, 0, 20, &v, &r));
	assert_true(v == 100 && r == 10000);   /* (400 − 100) / 0.030 s */
	assert_true(counter_at(&a, 0, 100, &v, &r));
	assert_true(v == 1600 && r == 20000);  /* the last two: (1600 − 400) / 0.060 s */
	assert_true(counter_at(&a, 0, 0, &v, &r));
	assert_true(v == 0 && r == 10000);     /* (100 − 0) / 0.010 s */
	assert_false(counter_at(&a, 1, 20, &v, &r));
	/* the strip: rank 0's rate from 0 to the largest column's 20000/s, rank 1 without samples */
	assert_true(uk_screen_has(&a, 60, 16, "cyc rate [#/s] 0 .. 20.0k"));
	char line[256];
	app_set_time(&a, 20);
	counter_line(&a, line, sizeof line);
	assert_string_equal(line, "cyc = 100 # (100), rate 10.0k #/s on rank 0");
	uk_keys(&a, "#");   /* the only metric: off */
	assert_int_equal(a.counter, TC_NONE);
	app_free(&a);
	session_free(s);
}

/* The view's CSV (`:csv`) as text. */
static char *csv_of(struct tc_app *a)
{
	FILE *f = tmpfile();
	a->view->csv(a, f);
	long n = ftell(f);
	char *buf = malloc((size_t)n + 1);
	rewind(f);
	size_t got = fread(buf, 1, (size_t)n, f);
	buf[got] = 0;
	fclose(f);
	return buf;
}

/* After keys, the CSV (its header skipped when body) starts with want. */
static void csv_starts(struct tc_app *a, const char *keys, bool body, const char *want)
{
	uk_keys(a, keys);
	char *c = csv_of(a);
	const char *from = body ? strchr(c, '\n') + 1 : c;
	if (strncmp(from, want, strlen(want))) fail_msg("CSV after '%s' starts\n%s\nnot\n%s", keys, from, want);
	free(c);
}

static void test_table(void **state)
{
	(void)state;
	struct tc_app a;
	struct tc_session *s = open_view(&a, "profile");
	uk_keys(&a, "t");
	char *c = csv_of(&a);
	/* per rank, threads and streams summed; by total, descending */
	assert_string_equal(c, "region,total_s,0_s,1_s,2_s\n"
			       "\"main\",0.14999999999999999,0.070000000000000007,0.059999999999999998,0.02\n"
			       "\"f\",0.089999999999999997,0.029999999999999999,0.02,0.040000000000000001\n"
			       "\"!$omp parallel\",0.040000000000000001,0.029999999999999999,,0.01\n"
			       "\"kern\",0.040000000000000001,0.040000000000000001,,\n");
	free(c);
	/* m: inclusive time (main holds f), then calls, then exclusive again */
	csv_starts(&a, "m", true, "\"main\",0.23999999999999999,0.10000000000000001,0.080000000000000002,0.059999999999999998\n");
	csv_starts(&a, "m", false, "region,total,0,1,2\n\"main\",3,1,1,1\n");
	uk_keys(&a, "m");
	uk_keys(&a, "t");   /* statistics over the ranks that called the region */
	c = csv_of(&a);
	assert_string_equal(c, "region,total_s,min_s,median_s,max_s,imbal\n"
			       "\"main\",0.14999999999999999,0.02,0.059999999999999998,0.070000000000000007,0.2857\n"
			       "\"f\",0.089999999999999997,0.02,0.029999999999999999,0.040000000000000001,0.2500\n"
			       "\"!$omp parallel\",0.040000000000000001,0.01,0.02,0.029999999999999999,0.3333\n"
			       "\"kern\",0.040000000000000001,0.040000000000000001,0.040000000000000001,0.040000000000000001,0.0000\n");
	free(c);
	/* sorted by the imbalance column, descending: l l l l l s (region total min median max imbal) */
	csv_starts(&a, "llllls", true, "\"!$omp parallel\"");
	csv_starts(&a, "s", true, "\"kern\"");   /* reversed: kern (0) first */
	/* per location: each thread and stream its own column */
	csv_starts(&a, "tw", false, "region,total_s,0:t0_s,0:t1_s,0:g0_s,1:t0_s,2:t0_s,2:t1_s\n");
	assert_true(uk_screen_has(&a, 120, 20, "Per location (each thread and stream)"));
	/* back to the flat profile (statistics, then flat): the master threads only, said in the header */
	uk_keys(&a, "tt");
	assert_true(uk_screen_has(&a, 160, 20, "Master threads only (t: every thread and stream). Rank time"));
	app_free(&a);
	session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
