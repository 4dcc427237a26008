/* render.c — `tracecomb render TRACE --view NAME --size WxH ...`: one view
 * drawn by the TUI's own code into a grid and printed as plain text (or
 * ANSI with --color), for tests, tickets and mail. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ui.h"

static int usage(void)
{
	struct strbuf b = { 0 };
	view_names(&b, "|");
	fprintf(stderr, "usage: tracecomb render TRACE --view %s|detail --size WxH\n"
			"         [--step N] [--rank R] [--metric M] [--color] [--ascii] [--theme NAME|PATH]\n"
			"         [--no-agg] [--filter REGEX] [--search REGEX] [--keys KEYS] [--threads N]\n", b.s);
	sb_free(&b);
	return 1;
}

/* The directory name holding the anchor: "pipit-ping-pong-2p". */
char *cli_trace_name(const char *anchor)
{
	char *p = xstrdup(anchor && *anchor ? anchor : "trace");
	char *slash = strrchr(p, '/');
	if (slash && slash != p) {
		*slash = 0;
		char *d = strrchr(p, '/');
		char *n = xstrdup(d ? d + 1 : p);
		free(p);
		return n;
	}
	char *n = xstrdup(slash ? slash + 1 : p);
	free(p);
	return n;
}

int cmd_render(int argc, char **argv)
{
	struct tc_read_opts opts = { 0 };
	const char *path = NULL, *view = "logical", *metric = NULL, *theme = NULL, *filter = NULL, *search = NULL, *keys = NULL;
	int w = 80, h = 24;
	long long step = -2;
	long rank = -1;
	bool color = false, ascii = false, noagg = false;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(o, "--view") && more) view = argv[++i];
		else if (!strcmp(o, "--size") && more) {
			if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 4096 || h > 4096) {
				fprintf(stderr, "tracecomb render: --size takes WxH, e.g. 80x24\n");
				return 1;
			}
		} else if (!strcmp(o, "--step") && more) step = strtoll(argv[++i], NULL, 10);
		else if (!strcmp(o, "--rank") && more) rank = strtol(argv[++i], NULL, 10);
		else if (!strcmp(o, "--metric") && more) metric = argv[++i];
		else if (!strcmp(o, "--theme") && more) theme = argv[++i];
		else if (!strcmp(o, "--filter") && more) filter = argv[++i];
		else if (!strcmp(o, "--search") && more) search = argv[++i];
		else if (!strcmp(o, "--keys") && more) keys = argv[++i];
		else if (!strcmp(o, "--color") || !strcmp(o, "--color=always")) color = true;
		else if (!strcmp(o, "--color=never")) color = false;
		else if (!strcmp(o, "--ascii")) ascii = true;
		else if (!strcmp(o, "--no-agg")) noagg = true;
		else if (cli_opt_threads(argc, argv, &i, &opts)) continue;
		else if (o[0] == '-' && o[1]) {
			fprintf(stderr, "tracecomb render: unknown option '%s'\n", o);
			return usage();
		} else if (!path) path = o;
		else return usage();
	}
	if (!path) return usage();
	struct tc_theme th;
	theme_builtin(&th);
	if (theme) {
		char *err = NULL;
		if (!theme_load(&th, theme, &err)) {
			fprintf(stderr, "tracecomb: %s; using the built-in theme\n", err);
			free(err);
		}
	}
	struct tc_trace *t = cli_load(path, &opts);
	if (!t) return 2;
	struct tc_session *s = session_new(t);
	char *name = cli_trace_name(t->anchor);
	struct tc_app a;
	app_init(&a, s, name, !ascii, color);
	a.theme = th;
	int rc = 0;
	if (noagg) a.show_agg = false;
	if (metric && !app_set_metric(&a, metric)) {
		fprintf(stderr, "tracecomb render: unknown metric '%s' (lateness, global_lateness, diff_lateness, duration)\n", metric);
		rc = 1;
		goto out;
	}
	bool detail = !strcmp(view, "detail");
	if (!detail && !view_find(view)) {
		struct strbuf b = { 0 };
		view_names(&b, ", ");
		fprintf(stderr, "tracecomb render: unknown view '%s' (%s, detail)\n", view, b.s);
		sb_free(&b);
		rc = 1;
		goto out;
	}
	if (filter && !app_set_filter(&a, filter)) {
		fprintf(stderr, "tracecomb render: %s\n%s\n", a.msg, a.err_caret ? a.err_caret : "");
		rc = 1;
		goto out;
	}
	if (rank >= 0) {
		if (rank >= (long)t->nranks) {
			fprintf(stderr, "tracecomb render: --rank must be below %u\n", t->nranks);
			rc = 1;
			goto out;
		}
		app_set_rank(&a, (uint32_t)rank);
	}
	app_set_step(&a, step > -2 ? step : a.step);
	if (search && !app_set_search(&a, search) && a.err_caret) {
		fprintf(stderr, "tracecomb render: %s\n%s\n", a.msg, a.err_caret);
		rc = 1;
		goto out;
	}
	if (!detail) app_set_view(&a, view);   /* after the cursor: physical shows the cursor step */
	if (detail) app_push(&a, &view_detail);
	struct tc_grid g;
	grid_init(&g, w, h, ascii);
	/* --keys: typed in the view, each after a frame as in the UI (the views lay out on drawing),
	 * e.g. "E#" opens every rank and picks a counter; the two characters \r are Enter */
	for (const char *k = keys; k && *k; k++) {
		app_draw(&a, &g);
		if (k[0] == '\\' && k[1] == 'r') {
			app_key(&a, TK_ENTER);
			k++;
		} else app_key(&a, (unsigned char)*k);
	}
	a.msg[0] = 0;
	app_draw(&a, &g);
	if (color) grid_write_ansi(&g, &a.theme, stdout);
	else grid_write_text(&g, stdout);
	grid_free(&g);
out:
	app_free(&a);
	free(name);
	session_free(s);
	return rc;
}
