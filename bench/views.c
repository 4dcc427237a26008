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
 * in to 1/1024 of the trace to time that); other keys redraw from its cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"
#include "ui.h"

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

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: views ARCHIVE [WxH]\n");
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
