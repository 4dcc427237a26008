/* tui.c — `tracecomb TRACE` / `tracecomb tui TRACE`: open the terminal,
 * load the trace with a progress line (q / Ctrl-C cancel), compute the
 * logical steps in a worker thread while keys stay live, then run the key
 * loop.  Every way out goes through term_close(). */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "ui.h"

static int usage(void)
{
	fprintf(stderr, "usage: tracecomb TRACE [--theme NAME|PATH] [--ascii] [--color=auto|always|never] [--threads N] [--no-mouse]\n"
			"                 [--no-cache | --cache FILE]\n");
	return 1;
}

struct progress {
	struct tc_grid *g;
	const char *name;
	double last;
	bool cancelled;
};

static void draw_progress(struct tc_grid *g, const char *what, const char *name, uint64_t done, uint64_t total)
{
	int w, h;
	term_size(&w, &h);
	if (w != g->w || h != g->h) grid_resize(g, w, h);
	grid_clear(g, TC_R_NORMAL);
	grid_fill(g, 0, 0, g->w, 1, ' ', TC_R_TITLE);
	grid_printf(g, 0, 0, g->w, TC_R_TITLE, " tracecomb | %s", name);
	if (total) grid_printf(g, 1, 2, g->w - 1, TC_R_NORMAL, "%s: %llu of %llu events (%d%%)", what,
			       (unsigned long long)done, (unsigned long long)total, (int)(100.0 * (double)done / (double)total));
	else grid_printf(g, 1, 2, g->w - 1, TC_R_NORMAL, "%s...", what);
	if (total && g->w > 4) {
		int bw = g->w - 4, fill = (int)((double)bw * (double)done / (double)total);
		for (int x = 0; x < bw; x++)
			grid_putr(g, 2 + x, 3, x < fill ? grid_glyph(g, TC_G_FULL) : grid_glyph(g, TC_G_SHADE1), TC_R_BAR);
	}
	grid_text(g, 1, 5, g->w - 1, TC_R_LABEL, "q or Ctrl-C cancels");
	term_blit(g);
}

static bool on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	double now = tc_now();
	if (now - p->last < 0.05 && done < total) return !p->cancelled;
	p->last = now;
	int k = term_key(0);
	if (k == 'q' || k == 'Q' || k == TK_INTERRUPT || k == TK_ESC) p->cancelled = true;
	/* at 100 % the reader still builds the model: say so instead of a frozen "100 %" */
	if (!p->cancelled && total && done >= total) draw_progress(p->g, "Read every event; building the model (matching messages, call trees)", p->name, 0, 0);
	else if (!p->cancelled) draw_progress(p->g, "Loading", p->name, done, total);
	return !p->cancelled;
}

struct worker {
	struct tc_session *s;
	struct tc_lsum *sum;
	volatile int done;
};

static void *compute(void *arg)
{
	struct worker *w = arg;
	const struct tc_steps *st = session_steps(w->s);
	w->sum = cli_cached_lsum(w->s);
	if (!w->sum) w->sum = lsum_build(st, TC_M_LATENESS, true);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct tui_args {
	struct tc_read_opts ropts;
	struct tc_term_opts topts;
	struct cli_cache cache;
	const char *path, *theme_spec;
};

/* The command line; false after printing the usage. */
static bool parse_args(int argc, char **argv, struct tui_args *A)
{
	*A = (struct tui_args){ .topts = { TC_CM_AUTO, false, true } };
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--theme") && i + 1 < argc) A->theme_spec = argv[++i];
		else if (!strncmp(o, "--theme=", 8)) A->theme_spec = o + 8;
		else if (!strcmp(o, "--ascii")) A->topts.ascii = true;
		else if (!strcmp(o, "--no-mouse")) A->topts.mouse = false;
		else if (!strcmp(o, "--color") || !strcmp(o, "--color=always")) A->topts.color = TC_CM_ALWAYS;
		else if (!strcmp(o, "--color=never") || !strcmp(o, "--no-color")) A->topts.color = TC_CM_NEVER;
		else if (!strcmp(o, "--color=auto")) A->topts.color = TC_CM_AUTO;
		else if (cli_opt_threads(argc, argv, &i, &A->ropts)) continue;
		else if (cli_opt_cache(argc, argv, &i, &A->cache)) continue;
		else if (o[0] == '-' && o[1]) {
			fprintf(stderr, "tracecomb: unknown option '%s'\n", o);
			return usage(), false;
		} else if (!A->path) A->path = o;
		else return usage(), false;
	}
	if (!A->path) return usage(), false;
	return true;
}

/* The built-in theme, or the one asked for; a theme that cannot be loaded
 * leaves the built-in one and a message for the status line in *msg. */
static void initial_theme(const char *spec, struct tc_theme *th, char **msg)
{
	theme_builtin(th);
	*msg = NULL;
	char *e = NULL;
	if (spec && !theme_load(th, spec, &e)) {
		*msg = xasprintf("%s; using the built-in theme", e);
		free(e);
	}
}

/* Loads the archive on the open terminal with a progress line; NULL (the
 * terminal closed, the message printed, *rc set) when it cannot or the user
 * cancelled. */
static struct tc_trace *load_on_terminal(const char *anchor, struct tc_read_opts *ropts, struct tc_grid *g,
					 const char *name, int *rc)
{
	struct progress pr = { .g = g, .name = name };
	ropts->progress = on_progress;
	ropts->progress_ctx = &pr;
	draw_progress(g, "Loading", name, 0, 0);
	char *err = NULL;
	struct tc_trace *t = tc_read_otf2(anchor, ropts, &err);
	if (!t) {
		term_close();
		if (pr.cancelled) fprintf(stderr, "tracecomb: loading cancelled\n");
		else fprintf(stderr, "tracecomb: %s\n", err ? err : "cannot load trace");
		*rc = pr.cancelled ? 1 : 2;
	}
	free(err);
	return t;
}

/* The session from the archive's cache when it is valid (docs/cache.md): the
 * small sections checked before the first frame, the large ones (what the
 * first frame does not read) right after, before any key is taken.  NULL
 * otherwise; *note says which (for the status line). */
static struct tc_session *cache_on_terminal(const char *anchor, const struct cli_cache *c, struct tc_grid *g,
					    const char *name, char **note)
{
	*note = NULL;
	if (c->off) return NULL;
	draw_progress(g, "Opening the cache", name, 0, 0);
	struct tc_session *s = cli_cache_session(anchor, c, NULL, 0, false, note);
	char *why = NULL;
	if (s && !tc_cache_verify_rest(s->t, &why)) {
		session_free(s);
		s = NULL;
		free(*note);
		*note = xasprintf("cache: corrupt (%s), reading the trace", why);
		free(why);
	}
	return s;
}

/* The logical steps and the lateness summary of the first view, computed in a
 * worker while the progress line keeps answering q (which ends the process). */
static struct tc_lsum *steps_on_terminal(struct tc_session *s, struct tc_grid *g, const char *name)
{
	struct worker w = { .s = s };
	pthread_t tid;
	bool threaded = pthread_create(&tid, NULL, compute, &w) == 0;
	if (!threaded) compute(&w);
	double t0 = tc_now();
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE)) {
		char what[64];
		snprintf(what, sizeof what, "Computing logical steps (%.1f s)", tc_now() - t0);
		draw_progress(g, what, name, 0, 0);
		int k = term_key(100);
		if (k == 'q' || k == 'Q' || k == TK_INTERRUPT || k == TK_ESC) {
			term_close();
			fprintf(stderr, "tracecomb: analysis cancelled\n");
			_exit(1);
		}
	}
	if (threaded) pthread_join(tid, NULL);
	return w.sum;
}

/* The theme the user asked for with :theme, applied (or why not, said). */
static void apply_theme_request(struct tc_app *a)
{
	struct tc_theme nt;
	char *e = NULL;
	if (theme_load(&nt, a->theme_request, &e)) {
		a->theme = nt;
		term_set_theme(&nt);
		a->color = strcmp(term_color_desc(), "mono") && !nt.monochrome;
		app_message(a, false, "theme %s", nt.name);
	} else {
		app_message(a, true, "%s", e);
		free(e);
	}
	free(a->theme_request);
	a->theme_request = NULL;
}

/* Draw, read a key, act, until the app quits. */
static void key_loop(struct tc_app *a, struct tc_grid *g)
{
	for (;;) {
		int W, H;
		term_size(&W, &H);
		if (W != g->w || H != g->h) grid_resize(g, W, H);
		app_draw(a, g);
		term_blit(g);
		int k = term_key(app_busy(a) ? 200 : -1);   /* a view computing: redraw as it goes */
		if (k == TK_NONE || k == TK_RESIZE) continue;
		if (k == TK_MOUSE) {
			struct tc_mouse m;
			if (term_mouse(&m)) app_mouse(a, &m);
			continue;
		}
		if (k == TK_CTRL_L && !a->prompt) { term_redraw_all(); continue; }
		app_key(a, k);
		if (a->theme_request) apply_theme_request(a);
		if (a->quit) break;
	}
}

int cmd_tui(int argc, char **argv)
{
	struct tui_args A;
	if (!parse_args(argc, argv, &A)) return 1;
	setlocale(LC_ALL, "");
	/* check the archive before taking over the terminal */
	char *err = NULL, *anchor = tc_find_anchor(A.path, &err);
	if (!anchor) {
		fprintf(stderr, "tracecomb: %s\n", err ? err : A.path);
		free(err);
		return 2;
	}
	struct tc_theme th;
	char *theme_err;
	initial_theme(A.theme_spec, &th, &theme_err);
	if (!term_open(&A.topts, &err)) {
		fprintf(stderr, "tracecomb: %s\n", err);
		free(err);
		free(anchor);
		free(theme_err);
		return 2;
	}
	term_set_theme(&th);
	char *name = cli_trace_name(anchor);
	struct tc_grid g;
	grid_init(&g, 1, 1, !term_utf8());
	int rc = 0;
	char *cache_note = NULL;
	struct tc_session *s = cache_on_terminal(anchor, &A.cache, &g, name, &cache_note);
	struct tc_trace *t = s ? s->t : load_on_terminal(anchor, &A.ropts, &g, name, &rc);
	free(anchor);
	if (!t) {
		free(name);
		free(theme_err);
		free(cache_note);
		grid_free(&g);
		return rc;
	}
	if (!s) s = session_new(t);
	struct tc_lsum *sum = steps_on_terminal(s, &g, name);
	struct tc_app a;
	app_init(&a, s, name, term_utf8(), strcmp(term_color_desc(), "mono") && !th.monochrome);
	a.sums[TC_M_LATENESS][1] = sum;
	a.interactive = true;
	a.theme = th;
	if (cache_note) app_message(&a, !s->t->mapped.p, "%s", cache_note);
	free(cache_note);
	if (theme_err) app_message(&a, true, "%s", theme_err);
	key_loop(&a, &g);
	term_close();
	if (app_busy(&a)) _exit(0);   /* a worker still fills the session: nothing to free safely */
	app_free(&a);
	grid_free(&g);
	free(name);
	free(theme_err);
	session_free(s);
	return 0;
}
