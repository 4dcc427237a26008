/* views.c — redraw cost of the wait states, profile and calls views on one
 * archive: the first draw (which computes the analysis) and then key + draw
 * for a sequence of keys, median and worst, at one screen size.
 *
 *   views ARCHIVE [WxH]
 * The calls view builds its call summary on the first draw (about a pass over
 * the calls); a key that changes the window (h l + - 0) rebuilds its columns
 * from the summary in O(columns × (regions + buckets)), or, when a column
 * spans fewer than 2 base bins or the window holds few calls, by the exact
 * pass over the calls overlapping the window (the "calls deep" sequence zooms
 * in to 1/1024 of the trace to time that); other keys redraw from its cache.
 *
 *   views ARCHIVE WxH all
 * every main view and the detail pane instead (issue 14's budget: no redraw
 * after a key above 16 ms): the first draw computes the view's analysis in
 * place, then moves, pages, ends, zooms and a metric change, each key + draw
 * timed in wall and in this thread's CPU time (the redraw without the waits
 * of a shared machine); the worst key of every view is printed and compared
 * with the budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "read.h"
#include "ui.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void run(struct tc_app *a, struct tc_grid *g, const char *view, const char *label, const char *keys, bool window)
{
	double t0 = tc_now();
	app_set_view(a, view);
	app_draw(a, g);
	double first = tc_now() - t0;
	size_t n = strlen(keys);
	double *d = xmalloc(n * sizeof *d);
	double cached = 0;
	int ncached = 0;
	for (size_t i = 0; i < n; i++) {
		t0 = tc_now();
		app_key(a, keys[i] == '\n' ? TK_ENTER : keys[i]);
		app_draw(a, g);
		d[i] = tc_now() - t0;
		if (strchr("hl+-0", keys[i]) == NULL) { cached += d[i]; ncached++; }
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++) sum += d[i];
	qsort(d, n, sizeof *d, cmp_d);
	printf("  %-10s first draw %8.1f ms   key+draw over %zu keys: median %.2f ms, worst %.1f ms, mean %.2f ms",
	       label, first * 1e3, n, d[n / 2] * 1e3, d[n - 1] * 1e3, sum / (double)n * 1e3);
	if (window && ncached && ncached < (int)n)
		printf("\n  %-10s keys that keep the window: mean %.2f ms; that change it (h l + - 0): mean %.1f ms", "",
		       cached / ncached * 1e3, (sum - cached) / (double)((int)n - ncached) * 1e3);
	putchar('\n');
	free(d);
}

/* As in the terminal: slow analyses run in the worker; wait for it (untimed)
 * and draw the result, so the next key starts from a drawn view. */
static void settle(struct tc_app *a, struct tc_grid *g)
{
	if (!app_busy(a)) return;
	while (app_busy(a)) {
		app_job_poll(a);
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	app_draw(a, g);
}

/* Every main view: first draw (with its analysis, computed in the worker as in
 * the terminal), then key + draw over a fixed sequence, timed on this (the UI)
 * thread; returns the number of views whose worst key passed 16 ms of CPU time. */
static int run_all(struct tc_app *a, struct tc_grid *g)
{
	a->interactive = true;
	static const int keys[] = { 'j', 'j', 'j', 'j', 'k', 'k', 'l', 'l', 'l', 'h', 'h', TK_PGDN, TK_PGUP, 'G', 'g',
				    'j', 'l', '+', '+', '-', '0', 'm', 'j', 'l', TK_END, TK_HOME, 'j', 'k', 'l', 'h' };
	enum { NK = sizeof keys / sizeof keys[0] };
	int over = 0;
	for (size_t v = 0; v <= tc_nmain_views; v++) {
		const char *name = v < tc_nmain_views ? tc_main_views[v]->name : "detail";
		double t0 = tc_now();
		if (!app_set_view(a, name)) continue;
		app_draw(a, g);
		settle(a, g);
		double first = tc_now() - t0;
		double wall[NK], cpu[NK], worst_cpu = 0;
		char slow[256] = "";
		for (int i = 0; i < NK; i++) {
			double w0 = tc_now(), c0 = cpu_now();
			app_key(a, keys[i]);
			app_draw(a, g);
			wall[i] = tc_now() - w0;
			cpu[i] = cpu_now() - c0;
			worst_cpu = TC_MAX(worst_cpu, cpu[i]);
			settle(a, g);
			if (cpu[i] > 0.016) {   /* name the slow keys */
				size_t u = strlen(slow);
				snprintf(slow + u, sizeof slow - u, " key %d (%s) %.1f ms;", i,
					 keys[i] < 128 ? (char[2]){ (char)keys[i], 0 } : "special", cpu[i] * 1e3);
			}
		}
		qsort(wall, NK, sizeof *wall, cmp_d);
		qsort(cpu, NK, sizeof *cpu, cmp_d);
		bool ok = worst_cpu <= 0.016;
		over += !ok;
		printf("  %-10s first draw %9.1f ms | key+draw over %d keys: median %6.2f ms, worst %6.2f ms (cpu: median %6.2f, worst %6.2f) %s\n",
		       name, first * 1e3, NK, wall[NK / 2] * 1e3, wall[NK - 1] * 1e3, cpu[NK / 2] * 1e3, worst_cpu * 1e3,
		       ok ? "ok" : "OVER 16 ms");
		if (*slow) printf("  %-10s over 16 ms:%s\n", "", slow);
		/* back to the trace's start for the next view */
		app_key(a, TK_HOME);
		settle(a, g);
	}
	return over;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: views ARCHIVE [WxH [all]]\n");
		return 2;
	}
	int w = 120, h = 40;
	if (argc > 2 && sscanf(argv[2], "%dx%d", &w, &h) != 2) return 2;
	struct tc_read_opts ro = { .threads = 2 };
	char *err = NULL;
	double t0 = tc_now();
	struct tc_trace *t = tc_read_otf2(argv[1], &ro, &err);
	if (!t) {
		fprintf(stderr, "views: %s\n", err);
		return 2;
	}
	struct tc_session *s = session_new(t);
	struct tc_app a;
	app_init(&a, s, "bench", true, false);
	printf("views benchmark: %s, %u ranks, loaded with steps in %.2f s, %dx%d\n", argv[1], t->nranks, tc_now() - t0, w, h);
	struct tc_grid g;
	grid_init(&g, w, h, false);
	if (argc > 3 && !strcmp(argv[3], "all")) {
		int over = run_all(&a, &g);
		printf("views over the 16 ms budget (cpu, worst key): %d\n", over);
		grid_free(&g);
		app_free(&a);
		session_free(s);
		return 0;
	}
	run(&a, &g, "waitstates", "waitstates", "jjjjjjjjjjkkkkkllhhhGggjjjjjjjjjjjjjjjjjjjjjjjjj", false);
	run(&a, &g, "profile", "profile", "jjjjjjjjjjkkkkksjjjsjjjsjjjsGgjjjjjjjjjjjjjjjjjjj", false);
	run(&a, &g, "calls", "calls", "oooooooo+llllhhhh-+++l0oooooooooooooooooooooooooo", true);
	/* zoomed in down to 1/1024 of the trace and back (the first draw is then cached) */
	run(&a, &g, "calls", "calls deep", "+++++llhh++llhh+++lhoo-------l0", true);
	grid_free(&g);
	app_free(&a);
	session_free(s);
	return 0;
}
