/* waitstates.c — Scalasca's wait states (ecosystem.md §2.2): the seconds
 * lost per pattern as bars, with their share of the MPI time and the advice;
 * below, the ranks that made others wait (long-term delay cost) and the
 * ranks that waited most, as two bar lists.  j/k select a line; Enter moves
 * the shared cursor to the rank and the step of its largest wait (of a
 * causing rank: its late call in the largest wait it caused; of a pattern:
 * that pattern's largest wait) and opens the logical view there.
 *
 * The rank orders and the largest wait per rank and per pattern are built
 * in one pass over the waits when the wait states are first drawn and kept
 * (src/ui/views/ holds no per-app free hook, so the cache is file-static and
 * keyed by the analysis result); a frame then costs O(visible lines). */
#include <stdlib.h>
#include <string.h>

#include "analysis_profile.h"
#include "analysis_span.h"
#include "analysis_waitstate.h"
#include "analysis_rootcause.h"
#include "ui.h"

struct ws_cache {
	const struct tc_waitstates *w;   /* key */
	const struct tc_trace *t;
	size_t nwaits;
	uint32_t nranks;
	uint32_t gen;                    /* key: the app's vis_gen (the lists hold visible ranks only) */
	uint32_t nvis;                   /* visible ranks */
	size_t nshown;                   /* waits of the visible ranks */
	double total[TC_WS_COUNT];       /* per pattern: seconds waited by the visible ranks */
	uint32_t *caused, ncaused;       /* ranks with caused > 0, most first */
	uint32_t *waited, nwaited;       /* ranks with waited > 0, most first */
	uint32_t *best_wait;             /* per rank: index of its largest wait, TC_NONE */
	uint32_t *best_caused;           /* per rank: index of the largest wait it caused, TC_NONE */
	uint32_t best_kind[TC_WS_COUNT]; /* per pattern: its largest wait */
	int kinds[TC_WS_COUNT], nkinds;  /* patterns with time > 0, in enum order */
	double sum;                      /* all waiting */
	double mpi;                      /* s in MPI over the application span (shares are of it) */
};
static struct ws_cache cache;

static const double *sort_key;
static int by_key_desc(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	if (sort_key[a] != sort_key[b]) return sort_key[a] > sort_key[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The visible ranks with v > 0, largest first. */
static uint32_t *ranks_by(const struct tc_app *a, const double *v, uint32_t *count)
{
	uint32_t *r = xmalloc(((size_t)a->nvis + 1) * sizeof *r), k = 0;
	for (uint32_t j = 0; j < a->nvis; j++)
		if (v[a->vis[j]] > 0) r[k++] = a->vis[j];
	sort_key = v;
	qsort(r, k, sizeof *r, by_key_desc);
	*count = k;
	return r;
}

/* Which ranks are causes: the long-term delay cost of the root-cause analysis
 * (docs/rootcause.md), so a rank that only passed a delay on (it waited, then
 * made others wait) is not listed; the wait states themselves stay Scalasca's.
 * The list and its CSV both read this. */
static const double *cause_cost(struct tc_app *a)
{
	return session_rootcause(a->sess)->delay_cost;
}

static const double *ws_sorted;
static int by_total_desc(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	if (ws_sorted[a] != ws_sorted[b]) return ws_sorted[a] > ws_sorted[b] ? -1 : 1;
	return a - b;
}

static const struct ws_cache *get_cache(struct tc_app *a)
{
	const struct tc_waitstates *w = session_waitstates(a->sess);
	const struct tc_trace *t = a->t;
	if (cache.w == w && cache.t == t && cache.nwaits == w->n && cache.nranks == t->nranks && cache.gen == a->vis_gen)
		return &cache;
	free(cache.caused);
	free(cache.waited);
	free(cache.best_wait);
	free(cache.best_caused);
	memset(&cache, 0, sizeof cache);
	cache.w = w;
	cache.t = t;
	cache.nwaits = w->n;
	cache.nranks = t->nranks;
	cache.gen = a->vis_gen;
	cache.nvis = a->nvis;
	cache.caused = ranks_by(a, cause_cost(a), &cache.ncaused);
	cache.waited = ranks_by(a, w->waited, &cache.nwaited);
	bool all = a->nvis == t->nranks;
	for (int k = 0; k < TC_WS_COUNT; k++) cache.total[k] = all ? w->total[k] : 0;
	cache.best_wait = xmalloc(((size_t)t->nranks + 1) * sizeof *cache.best_wait);
	cache.best_caused = xmalloc(((size_t)t->nranks + 1) * sizeof *cache.best_caused);
	for (uint32_t r = 0; r < t->nranks; r++) cache.best_wait[r] = cache.best_caused[r] = TC_NONE;
	for (int k = 0; k < TC_WS_COUNT; k++) cache.best_kind[k] = TC_NONE;
	for (size_t i = 0; i < w->n; i++) {
		const struct tc_wait *x = &w->w[i];
		if (!all && !app_rank_visible(a, x->rank)) continue;   /* a pattern's waits are the visible ranks' */
		if (!all && x->kind < TC_WS_COUNT) cache.total[x->kind] += x->seconds;
		cache.nshown++;
		uint32_t *b = &cache.best_wait[x->rank];
		if (*b == TC_NONE || x->seconds > w->w[*b].seconds) *b = (uint32_t)i;
		if (x->cause != TC_NONE && x->cause < t->nranks) {
			b = &cache.best_caused[x->cause];
			if (*b == TC_NONE || x->seconds > w->w[*b].seconds) *b = (uint32_t)i;
		}
		if (x->kind < TC_WS_COUNT) {
			b = &cache.best_kind[x->kind];
			if (*b == TC_NONE || x->seconds > w->w[*b].seconds) *b = (uint32_t)i;
		}
	}
	for (int k = 0; k < TC_WS_COUNT; k++) {
		cache.sum += cache.total[k];
		if (cache.total[k] > 0) cache.kinds[cache.nkinds++] = k;
	}
	/* MPI time after MPI_Init and before MPI_Finalize (docs/span.md): Init would dilute every share */
	const struct tc_span *sp = session_span(a->sess);
	struct tc_profile *pf = tc_profile_compute_window(t, sp->rank_t0, sp->rank_t1, all ? NULL : a->vis, a->nvis);
	cache.mpi = pf->mpi;
	tc_profile_free(pf);
	ws_sorted = cache.total;   /* patterns by size, largest first */
	qsort(cache.kinds, (size_t)cache.nkinds, sizeof cache.kinds[0], by_total_desc);
	return &cache;
}

/* The k-th line of s wrapped at spaces to width w (at least 8) into out;
 * returns the number of lines. */
static int wrap(const char *s, int w, int k, char *out, size_t n)
{
	const char *line = "";
	int bytes = 0, lines = tc_wrap(s, TC_MAX(w, 8), k, &line, &bytes);
	if (out) snprintf(out, n, "%.*s", bytes, line);
	return lines;
}

/* The list: each pattern's line followed by its advice (wrapped to the
 * width), a heading and the causing ranks (or "none"), a heading and the
 * waiting ranks (or "none").  Selectable items are numbered patterns,
 * causing ranks, waiting ranks. */
enum kind { LN_PATTERN, LN_ADVICE, LN_HEAD_CAUSED, LN_CAUSED, LN_HEAD_WAITED, LN_WAITED, LN_NONE };
struct line { enum kind k; uint32_t i; int piece; };
struct layout { int aw; uint32_t first[TC_WS_COUNT + 1]; };   /* advice width; first line of each pattern */

static struct layout layout(const struct ws_cache *c, int w)
{
	struct layout L = { .aw = w - 4 };
	L.first[0] = 0;
	for (int i = 0; i < c->nkinds; i++)
		L.first[i + 1] = L.first[i] + 1 + (uint32_t)wrap(tc_ws_advice[c->kinds[i]], L.aw, -1, NULL, 0);
	return L;
}

static uint32_t n_caused_lines(const struct ws_cache *c) { return c->ncaused ? c->ncaused : 1; }
static uint32_t n_lines(const struct ws_cache *c, const struct layout *L)
{
	return L->first[c->nkinds] + 1 + n_caused_lines(c) + 1 + (c->nwaited ? c->nwaited : 1);
}
static uint32_t n_items(const struct ws_cache *c) { return (uint32_t)c->nkinds + c->ncaused + c->nwaited; }

static struct line line_at(const struct ws_cache *c, const struct layout *L, uint32_t l)
{
	uint32_t p = L->first[c->nkinds];
	if (l < p) {
		uint32_t i = 0;
		while (L->first[i + 1] <= l) i++;
		if (l == L->first[i]) return (struct line){ LN_PATTERN, i, 0 };
		return (struct line){ LN_ADVICE, i, (int)(l - L->first[i] - 1) };
	}
	l -= p;
	if (l == 0) return (struct line){ LN_HEAD_CAUSED, 0, 0 };
	l--;
	if (l < n_caused_lines(c)) return (struct line){ c->ncaused ? LN_CAUSED : LN_NONE, l, 0 };
	l -= n_caused_lines(c);
	if (l == 0) return (struct line){ LN_HEAD_WAITED, 0, 0 };
	l--;
	return (struct line){ c->nwaited ? LN_WAITED : LN_NONE, l, 0 };
}

static uint32_t line_of_item(const struct ws_cache *c, const struct layout *L, uint32_t it)
{
	uint32_t nk = (uint32_t)c->nkinds, p = L->first[nk];
	if (it < nk) return L->first[it];
	it -= nk;
	if (it < c->ncaused) return p + 1 + it;
	it -= c->ncaused;
	return p + 1 + n_caused_lines(c) + 1 + it;
}

/* The wait an item leads to, TC_NONE if none. */
static uint32_t wait_of_item(const struct ws_cache *c, uint32_t it, enum kind *k, uint32_t *rank)
{
	uint32_t nk = (uint32_t)c->nkinds;
	if (it < nk) {
		*k = LN_PATTERN;
		*rank = TC_NONE;
		return c->best_kind[c->kinds[it]];
	}
	it -= nk;
	if (it < c->ncaused) {
		*k = LN_CAUSED;
		*rank = c->caused[it];
		return c->best_caused[*rank];
	}
	it -= c->ncaused;
	if (it < c->nwaited) {
		*k = LN_WAITED;
		*rank = c->waited[it];
		return c->best_wait[*rank];
	}
	*k = LN_NONE;
	return TC_NONE;
}

static const char *region_of(const struct tc_trace *t, uint32_t rank, uint32_t call)
{
	if (rank >= t->nranks || call >= t->ranks[rank].ncalls) return "?";
	return tc_region_name(t, t->ranks[rank].calls[call].region);
}

/* "late_sender 1.2 ms in MPI_Recv on rank 0 (rank 3 late)" */
static void describe_wait(const struct tc_trace *t, const struct tc_wait *x, char *buf, size_t n)
{
	char s[32];
	fmt_seconds(s, sizeof s, x->seconds);
	int k = snprintf(buf, n, "%s %s in %s on rank %u", tc_ws_names[x->kind], s, region_of(t, x->rank, x->call), x->rank);
	if (k >= 0 && (size_t)k < n && x->cause != TC_NONE) snprintf(buf + k, n - (size_t)k, " (rank %u late)", x->cause);
}

/* A rank row's largest wait, in w columns: "most: late_sender of rank 3 in
 * MPI_Recv 1.2 ms" (of rank ...: the rank that waited, on a row of a rank
 * that made others wait); the region left out before anything is cut. */
static void most_text(struct tc_grid *g, int x, int y, int w, enum tc_role role, const struct tc_trace *t,
		      const struct tc_wait *b, bool caused)
{
	char s[32], who[32] = "", full[200], brief[120];
	fmt_seconds(s, sizeof s, b->seconds);
	if (caused) snprintf(who, sizeof who, " of rank %u", b->rank);
	snprintf(full, sizeof full, "most: %s%s in %s %s", tc_ws_names[b->kind], who, region_of(t, b->rank, b->call), s);
	snprintf(brief, sizeof brief, "most: %s%s, %s", tc_ws_names[b->kind], who, s);
	grid_text_elide(g, x, y, w, role, grid_text_len(full) <= (size_t)w ? full : brief);
}

static void draw_row(struct tc_app *a, struct tc_grid *g, struct tc_rect r, int y, const struct ws_cache *c,
		     struct line ln, bool sel)
{
	const struct tc_waitstates *w = c->w;
	const struct tc_trace *t = a->t;
	enum tc_role role = sel ? TC_R_CURSOR : TC_R_NORMAL, bar = sel ? TC_R_CURSOR : TC_R_BAR;
	if (sel) grid_fill(g, r.x, y, r.w, 1, ' ', TC_R_CURSOR);
	int bw = TC_MAX(8, TC_MIN(30, r.w - 84));   /* the rows' largest wait first: ~50 columns */
	char s[32], d[160];
	switch (ln.k) {
	case LN_PATTERN: {
		int k = c->kinds[ln.i];
		double top = 0;
		for (int i = 0; i < c->nkinds; i++) top = TC_MAX(top, c->total[c->kinds[i]]);
		int x = r.x + grid_printf(g, r.x, y, r.w, role, "  %-19s ", tc_ws_names[k]);
		view_hbar(g, x, y, TC_MIN(bw, r.x + r.w - x), top > 0 ? c->total[k] / top : 0, bar);
		x += bw;
		fmt_seconds(s, sizeof s, c->total[k]);
		if (x < r.x + r.w)
			grid_printf(g, x, y, r.x + r.w - x, role, " %10s %5.1f%% of MPI", s,
				    c->mpi > 0 ? 100.0 * c->total[k] / c->mpi : 0.0);
		break;
	}
	case LN_ADVICE:
		wrap(tc_ws_advice[c->kinds[ln.i]], r.w - 4, ln.piece, d, sizeof d);
		grid_printf(g, r.x, y, r.w, TC_R_LABEL, "    %s", d);
		break;
	case LN_HEAD_CAUSED:
		grid_text_elide(g, r.x, y, r.w, TC_R_HEADING, "Ranks that made others wait (long-term delay cost; most: largest wait caused)");
		break;
	case LN_HEAD_WAITED:
		grid_text(g, r.x, y, r.w, TC_R_HEADING, "Ranks that waited most");
		break;
	case LN_NONE:
		grid_text(g, r.x, y, r.w, TC_R_LABEL, "  none");
		break;
	case LN_CAUSED:
	case LN_WAITED: {
		bool caused = ln.k == LN_CAUSED;
		uint32_t rank = caused ? c->caused[ln.i] : c->waited[ln.i];
		const double *v = caused ? cause_cost(a) : w->waited;
		double top = v[caused ? c->caused[0] : c->waited[0]];
		int x = r.x + grid_printf(g, r.x, y, r.w, role, "  rank %-6u ", rank);
		view_hbar(g, x, y, TC_MIN(bw, r.x + r.w - x), top > 0 ? v[rank] / top : 0, bar);
		x += bw;
		fmt_seconds(s, sizeof s, v[rank]);
		if (x >= r.x + r.w) break;
		x += grid_printf(g, x, y, r.x + r.w - x, role, " %10s %5.1f%%  ", s, c->sum > 0 ? 100.0 * v[rank] / c->sum : 0.0);
		uint32_t bi = caused ? c->best_caused[rank] : c->best_wait[rank];
		if (bi != TC_NONE && x < r.x + r.w) most_text(g, x, y, r.x + r.w - x, role, t, &w->w[bi], caused);
		break;
	}
	}
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct ws_cache *c = get_cache(a);
	const struct tc_waitstates *w = c->w;
	char s1[32], s2[32];
	fmt_seconds(s1, sizeof s1, c->sum);
	fmt_seconds(s2, sizeof s2, c->mpi);
	char who[48] = "";
	if (c->nvis < a->t->nranks) snprintf(who, sizeof who, " (ranks of f: %u of %u)", c->nvis, a->t->nranks);
	grid_printf(g, r.x, r.y, r.w, TC_R_LABEL, "Waiting %s of %s in MPI after MPI_Init (%.1f%%), %zu waits%s%s", s1, s2,
		    c->mpi > 0 ? 100.0 * c->sum / c->mpi : 0.0, c->nshown, who, c->nkinds ? "" : ": no wait states");
	bool status = r.h >= 8;
	int rows = r.h - 1 - status;
	a->ws.rows = rows;
	struct layout L = layout(c, r.w);
	uint32_t ni = n_items(c), nl = n_lines(c, &L);
	if (a->ws.sel >= ni) a->ws.sel = ni ? ni - 1 : 0;
	uint32_t sl = ni ? line_of_item(c, &L, a->ws.sel) : 0;
	/* keep the selection on screen, and its advice (or heading) when there is room */
	if (sl < a->ws.top) a->ws.top = sl ? sl - (rows > 2) : 0;
	if (sl >= a->ws.top + (uint32_t)rows) a->ws.top = sl - (uint32_t)rows + 1;
	if (a->ws.top + (uint32_t)rows > nl) a->ws.top = nl > (uint32_t)rows ? nl - (uint32_t)rows : 0;
	for (int i = 0; i < rows; i++) {
		uint32_t l = a->ws.top + (uint32_t)i;
		if (l >= nl) break;
		draw_row(a, g, r, r.y + 1 + i, c, line_at(c, &L, l), ni && l == sl);
	}
	if (!status) return;
	int y = r.y + r.h - 1;
	grid_fill(g, r.x, y, r.w, 1, ' ', TC_R_STATUS);
	enum kind k;
	uint32_t rank;
	uint32_t wi = ni ? wait_of_item(c, a->ws.sel, &k, &rank) : TC_NONE;
	char d[200];
	if (wi == TC_NONE) {
		grid_text(g, r.x, y, r.w, TC_R_STATUS, ni ? "no single wait to show" : "no rank waited");
		return;
	}
	describe_wait(a->t, &w->w[wi], d, sizeof d);
	char line[320], tot[32];
	if (k == LN_PATTERN) {
		fmt_seconds(tot, sizeof tot, c->total[c->kinds[a->ws.sel]]);
		snprintf(line, sizeof line, "selected: %s, %s in all; its largest wait: %s", tc_ws_names[c->kinds[a->ws.sel]], tot, d);
	} else if (k == LN_CAUSED) snprintf(line, sizeof line, "selected: rank %u; the largest wait it caused: %s", rank, d);
	else snprintf(line, sizeof line, "selected: rank %u; its largest wait: %s", rank, d);
	grid_fill(g, r.x, y, r.w, 1, ' ', TC_R_STATUS);
	grid_text_elide(g, r.x, y, r.w, TC_R_STATUS, line);
}

/* The cursor to (rank, call): the step of the call's event, or its time. */
static void go(struct tc_app *a, uint32_t rank, uint32_t call, int64_t step_if_none, const char *what)
{
	const struct tc_trace *t = a->t;
	app_history_push(a);
	app_set_rank(a, rank);
	if (a->rank != rank) {
		app_message(a, true, "rank %u is filtered out (Esc clears the filter)", rank);
		a->nhist--;   /* no jump after all */
		return;
	}
	uint32_t e = call != TC_NONE ? tc_steps_cev_of_call(a->st, rank, call) : TC_NONE;
	if (e != TC_NONE) app_set_step(a, a->st->cevs[e].step);
	else if (step_if_none >= 0) app_set_step(a, step_if_none);
	else if (call != TC_NONE && call < t->ranks[rank].ncalls) app_set_time(a, t->ranks[rank].calls[call].enter);
	app_show(a, &view_logical);
	app_message(a, false, "rank %u step %lld: %s", rank, (long long)a->step, what);
}

static void enter(struct tc_app *a, const struct ws_cache *c)
{
	enum kind k;
	uint32_t rank;
	uint32_t wi = wait_of_item(c, a->ws.sel, &k, &rank);
	if (wi == TC_NONE) {
		app_message(a, true, "nothing to go to");
		return;
	}
	const struct tc_wait *x = &c->w->w[wi];
	char d[200];
	describe_wait(a->t, x, d, sizeof d);
	if (k != LN_CAUSED) {
		go(a, x->rank, x->call, -1, d);
		return;
	}
	/* a causing rank: its late call; without one, the step where the other rank waited */
	uint32_t e = tc_steps_cev_of_call(a->st, x->rank, x->call);
	go(a, rank, x->cause_call, e != TC_NONE ? (int64_t)a->st->cevs[e].step : -1, d);
}

/* A click on a pattern (or its advice), a causing or a waiting rank selects it;
 * headings and empty lines are ignored. */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	(void)x;
	const struct ws_cache *c = get_cache(a);
	struct layout L = layout(c, r.w);
	uint32_t l, nk = (uint32_t)c->nkinds;
	if (!app_list_click(&l, a->ws.top, n_lines(c, &L), a->ws.rows, r.y + 1, y)) return false;
	struct line ln = line_at(c, &L, l);
	switch (ln.k) {
	case LN_PATTERN: case LN_ADVICE: a->ws.sel = ln.i; return true;
	case LN_CAUSED: a->ws.sel = nk + ln.i; return true;
	case LN_WAITED: a->ws.sel = nk + c->ncaused + ln.i; return true;
	default: return false;
	}
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct ws_cache *c = get_cache(a);
	uint32_t ni = n_items(c), nk = (uint32_t)c->nkinds;
	uint32_t *s = &a->ws.sel;
	/* first item of each section (patterns, causing ranks, waiting ranks) */
	uint32_t sec[3] = { 0, nk, nk + c->ncaused };
	if (app_list_move(s, ni, a->ws.rows, act)) return true;
	switch (act) {
	case ACT_RIGHT:
		for (int i = 0; i < 3; i++)
			if (sec[i] > *s && sec[i] < ni) { *s = sec[i]; break; }
		return true;
	case ACT_LEFT: {   /* the start of this section, or of the one before */
		uint32_t to = 0;
		for (int i = 0; i < 3; i++)
			if (sec[i] < *s) to = sec[i];
		*s = to;
		return true;
	}
	case ACT_ENTER:
		if (ni) enter(a, c);
		return true;
	default: return false;
	}
}

/* section,item,seconds,percent: the patterns (percent of MPI time), then the
 * causing and the waiting ranks (percent of all waiting). */
static void csv(struct tc_app *a, FILE *f)
{
	const struct ws_cache *c = get_cache(a);
	const struct tc_waitstates *w = c->w;
	fprintf(f, "section,item,seconds,percent\n");
	for (int i = 0; i < c->nkinds; i++)
		fprintf(f, "pattern,%s,%.9g,%.3f\n", tc_ws_names[c->kinds[i]], c->total[c->kinds[i]],
			c->mpi > 0 ? 100.0 * c->total[c->kinds[i]] / c->mpi : 0.0);
	for (uint32_t i = 0; i < c->ncaused; i++)
		fprintf(f, "caused,%u,%.9g,%.3f\n", c->caused[i], cause_cost(a)[c->caused[i]],
			c->sum > 0 ? 100.0 * cause_cost(a)[c->caused[i]] / c->sum : 0.0);
	for (uint32_t i = 0; i < c->nwaited; i++)
		fprintf(f, "waited,%u,%.9g,%.3f\n", c->waited[i], w->waited[c->waited[i]],
			c->sum > 0 ? 100.0 * w->waited[c->waited[i]] / c->sum : 0.0);
}

static const char *const help[] = {
	"Scalasca's wait states: time ranks lost waiting in MPI, per pattern (largest",
	"first), as bars scaled by the largest, with seconds, the share of all MPI",
	"time and advice.",
	"Below: the ranks whose lateness made others wait (long-term delay cost),",
	"each with the largest wait it caused directly (\"most:\" -- it can exceed the",
	"rank's cost when an earlier rank's delay passed through it), and the ranks",
	"that waited most, with their largest single wait.",
	"j/k select a line, h/l jump between sections, Enter puts the cursor on the",
	"rank and step of the largest wait (a causing rank: its late call) and opens",
	"the logical view there. The bottom line describes the selected wait.",
	NULL,
};

const struct view view_waitstates = {
	.name = "waitstates", .id = TC_V_WAITSTATES, .min_w = 40, .min_h = 4, .draw = draw, .key = key, .help = help, .csv = csv,
	.click = click,
	.ready = view_ready_waitstates, .prepare = view_prepare_waitstates, .filtered = true,
};
