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
			"         [--no-agg] [--filter REGEX] [--search REGEX] [--keys KEYS] [--threads N]\n"
			"         [--no-cache | --cache FILE]\n", b.s);
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

struct render_args {
	struct tc_read_opts opts;
	struct cli_cache cache;
	const char *path, *view, *metric, *theme, *filter, *search, *keys;
	int w, h;
	long long step;   /* -2: not given */
	long rank;        /* -1: not given */
	bool color, ascii, noagg;
};

/* The command line.  0 or the exit code. */
static int parse_args(int argc, char **argv, struct render_args *A)
{
	*A = (struct render_args){ .view = "logical", .w = 80, .h = 24, .step = -2, .rank = -1 };
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(o, "--view") && more) A->view = argv[++i];
		else if (!strcmp(o, "--size") && more) {
			if (sscanf(argv[++i], "%dx%d", &A->w, &A->h) != 2 || A->w < 1 || A->h < 1 || A->w > 4096 ||
			    A->h > 4096) {
				fprintf(stderr, "tracecomb render: --size takes WxH, e.g. 80x24\n");
				return 1;
			}
		} else if (!strcmp(o, "--step") && more) A->step = strtoll(argv[++i], NULL, 10);
		else if (!strcmp(o, "--rank") && more) A->rank = strtol(argv[++i], NULL, 10);
		else if (!strcmp(o, "--metric") && more) A->metric = argv[++i];
		else if (!strcmp(o, "--theme") && more) A->theme = argv[++i];
		else if (!strcmp(o, "--filter") && more) A->filter = argv[++i];
		else if (!strcmp(o, "--search") && more) A->search = argv[++i];
		else if (!strcmp(o, "--keys") && more) A->keys = argv[++i];
		else if (!strcmp(o, "--color") || !strcmp(o, "--color=always")) A->color = true;
		else if (!strcmp(o, "--color=never")) A->color = false;
		else if (!strcmp(o, "--ascii")) A->ascii = true;
		else if (!strcmp(o, "--no-agg")) A->noagg = true;
		else if (cli_opt_threads(argc, argv, &i, &A->opts)) continue;
		else if (cli_opt_cache(argc, argv, &i, &A->cache)) continue;
		else if (o[0] == '-' && o[1]) {
			fprintf(stderr, "tracecomb render: unknown option '%s'\n", o);
			return usage();
		} else if (!A->path) A->path = o;
		else return usage();
	}
	return A->path ? 0 : usage();
}

/* The app set up as the arguments say (metric, view, filter, rank, step,
 * search).  0 or 1 after a message. */
static int set_up(struct tc_app *a, const struct render_args *A, bool detail)
{
	if (A->noagg) a->show_agg = false;
	if (A->metric && !app_set_metric(a, A->metric)) {
		fprintf(stderr, "tracecomb render: unknown metric '%s' (lateness, global_lateness, diff_lateness, duration)\n",
			A->metric);
		return 1;
	}
	if (!detail && !view_find(A->view)) {
		struct strbuf b = { 0 };
		view_names(&b, ", ");
		fprintf(stderr, "tracecomb render: unknown view '%s' (%s, detail)\n", A->view, b.s);
		sb_free(&b);
		return 1;
	}
	if (A->filter && !app_set_filter(a, A->filter)) {
		fprintf(stderr, "tracecomb render: %s\n%s\n", a->msg, a->err_caret ? a->err_caret : "");
		return 1;
	}
	if (A->rank >= 0) {
		if (A->rank >= (long)a->t->nranks) {
			fprintf(stderr, "tracecomb render: --rank must be below %u\n", a->t->nranks);
			return 1;
		}
		app_set_rank(a, (uint32_t)A->rank);
	}
	app_set_step(a, A->step > -2 ? A->step : a->step);
	if (A->search && !app_set_search(a, A->search) && a->err_caret) {
		fprintf(stderr, "tracecomb render: %s\n%s\n", a->msg, a->err_caret);
		return 1;
	}
	if (!detail) app_set_view(a, A->view);   /* after the cursor: physical shows the cursor step */
	else app_push(a, &view_detail);
	return 0;
}

/* The frame, after the --keys typed in the view, each after a frame as in the
 * UI (the views lay out on drawing), e.g. "E#" opens every rank and picks a
 * counter; the two characters \r are Enter. */
static void draw_frame(struct tc_app *a, const struct render_args *A)
{
	struct tc_grid g;
	grid_init(&g, A->w, A->h, A->ascii);
	for (const char *k = A->keys; k && *k; k++) {
		app_draw(a, &g);
		if (k[0] == '\\' && k[1] == 'r') {
			app_key(a, TK_ENTER);
			k++;
		} else app_key(a, (unsigned char)*k);
	}
	a->msg[0] = 0;
	app_draw(a, &g);
	if (A->color) grid_write_ansi(&g, &a->theme, stdout);
	else grid_write_text(&g, stdout);
	grid_free(&g);
}

int cmd_render(int argc, char **argv)
{
	struct render_args A;
	int rc = parse_args(argc, argv, &A);
	if (rc) return rc;
	struct tc_theme th;
	theme_builtin(&th);
	if (A.theme) {
		char *err = NULL;
		if (!theme_load(&th, A.theme, &err)) {
			fprintf(stderr, "tracecomb: %s; using the built-in theme\n", err);
			free(err);
		}
	}
	struct tc_session *s = cli_open(A.path, &A.opts, &A.cache, NULL, 0);
	if (!s) return 2;
	char *name = cli_trace_name(s->t->anchor);
	struct tc_app a;
	app_init(&a, s, name, !A.ascii, A.color);
	if (!a.sums[TC_M_LATENESS][1]) a.sums[TC_M_LATENESS][1] = cli_cached_lsum(s);
	a.theme = th;
	rc = set_up(&a, &A, !strcmp(A.view, "detail"));
	if (!rc) draw_frame(&a, &A);
	app_free(&a);
	free(name);
	session_free(s);
	return rc;
}
