/* calls.c — the MPI call view (mpi-call-view-opacity-scaling): on top the
 * activity stack, each column a time bin with the share of ranks in each of
 * the top MPI functions stacked in eighth blocks (a letter per function, so
 * it reads without colour; a legend names them); below, the duration-vs-
 * start-time density of MPI calls (x = start time, y = log duration), each
 * cell a shade ░▒▓█ (ASCII . : = #) whose level is the paper's opacity map
 * tc_opacity(count, max, o_min, log); `o` switches log / linear.  The time
 * window is the physical view's (pv.t0/t1): +/-/0 zoom it for both, h/l pan.
 *
 * Both halves come from tc_call_bins: the first draw builds the trace's
 * call summary (tc_call_summary_new: base time bins with per-region rank-time
 * and per-duration-bucket call counts, as prefix sums; about a pass over the
 * calls), then a window wide enough to span at least 2 base bins per column
 * and more than TC_CALL_EXACT calls costs O(columns × (regions + buckets)),
 * and a narrower one the exact pass over the calls overlapping it (cheap, as
 * it holds few calls).  The bins are kept per (window, columns, rows), so a
 * frame that keeps those costs O(screen).  Under a rank filter both halves
 * count only its ranks (tc_call_summary_new_ranks, built again when the
 * visible ranks change: one pass over their calls).  The cache is file-static (views
 * have no per-app free hook) and keyed by the trace. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_profile.h"
#include "ui.h"

#define NSLOTS 8          /* 7 MPI functions + every other */
#define OMIN 0.2          /* the opacity of a single call */
#define LW 9              /* y-axis labels */

struct cv_cache {
	const struct tc_trace *t;    /* key, with the visible ranks' generation */
	uint32_t nranks, vis_gen;
	bool all;                    /* summed over every rank (no filter) */
	uint64_t tmin, tmax;
	struct tc_call_summary *sum;
	/* bins, for (t0, t1, cols, drows) */
	uint64_t t0, t1;
	int cols, drows;
	uint32_t nslots, slots[NSLOTS];
	char letter[NSLOTS];
	double *share;               /* cols × NSLOTS */
	uint32_t *count;             /* drows × cols */
	uint32_t cmax;
	double mean[NSLOTS];         /* share of rank-time over the window per slot */
};
static struct cv_cache cache;

/* A letter per function: the first of its name (after "MPI_") not taken yet. */
static void letters(const struct tc_trace *t)
{
	bool used[128] = { false };
	used['+'] = true;
	for (uint32_t s = 0; s < cache.nslots; s++) {
		if (cache.slots[s] == TC_NONE) { cache.letter[s] = '+'; continue; }
		const char *n = tc_region_name(t, cache.slots[s]);
		if (!strncmp(n, "MPI_", 4)) n += 4;
		char pick = 0;
		for (int pass = 0; pass < 2 && !pick; pass++)
			for (const char *p = n; *p && !pick; p++) {
				char c = *p;
				if (pass == 0 && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
				if (((c >= 'A' && c <= 'Z') || (pass && c >= 'a' && c <= 'z')) && !used[(int)c]) pick = c;
			}
		for (char c = '1'; !pick && c <= '9'; c++)
			if (!used[(int)c]) pick = c;
		used[(int)pick] = true;
		cache.letter[s] = pick;
	}
}

/* The summary over the visible ranks (the filter's, else all): built again when they change. */
static const struct cv_cache *bins(struct tc_app *a, int cols, int drows)
{
	const struct tc_trace *t = a->t;
	bool all = a->nvis >= t->nranks;
	if (cache.t != t || cache.nranks != t->nranks || cache.tmin != t->tmin || cache.tmax != t->tmax ||
	    cache.all != all || (!all && cache.vis_gen != a->vis_gen)) {
		free(cache.share);
		free(cache.count);
		tc_call_summary_free(cache.sum);
		memset(&cache, 0, sizeof cache);
		cache.t = t;
		cache.nranks = t->nranks;
		cache.vis_gen = a->vis_gen;
		cache.all = all;
		cache.tmin = t->tmin;
		cache.tmax = t->tmax;
		cache.sum = all ? tc_call_summary_new(t, 0) : tc_call_summary_new_ranks(t, 0, a->vis, a->nvis);
	}
	if (cache.share && cache.t0 == a->pv.t0 && cache.t1 == a->pv.t1 && cache.cols == cols && cache.drows == drows)
		return &cache;
	cache.t0 = a->pv.t0;
	cache.t1 = a->pv.t1;
	cache.cols = cols;
	cache.drows = drows;
	cache.share = xrealloc(cache.share, (size_t)cols * NSLOTS * sizeof *cache.share);
	cache.count = xrealloc(cache.count, (size_t)cols * (size_t)drows * sizeof *cache.count);
	struct tc_call_bins b = tc_call_bins(t, cache.sum, cache.t0, cache.t1, (uint32_t)cols, (uint32_t)drows, NSLOTS,
					     cache.slots, cache.share, cache.count);
	cache.nslots = b.nslots;
	cache.cmax = b.cmax;
	for (uint32_t s = 0; s < NSLOTS; s++) {
		double m = 0;
		for (int c = 0; c < cols && s < cache.nslots; c++) m += cache.share[(size_t)c * NSLOTS + s];
		cache.mean[s] = m / cols;
	}
	letters(t);
	return &cache;
}

static const enum tc_role slot_roles[NSLOTS] = {
	TC_R_RECV, TC_R_SEND, TC_R_COLL, TC_R_MAP4, TC_R_MAP1, TC_R_MAP6, TC_R_MAP2, TC_R_MPI,
};
static enum tc_role slot_role(const struct cv_cache *c, uint32_t s)
{
	return c->slots[s] == TC_NONE ? TC_R_MPI : slot_roles[s];
}

/* The legend in w columns from x: each function's letter, name and mean
 * share, whole; when not all fit, as many as leave room for "+N more",
 * which says how many are left out. */
static void legend(struct tc_grid *g, int x, int y, int w, const struct cv_cache *c, const struct tc_trace *t)
{
	char txt[NSLOTS][128], more[32];
	int need[NSLOTS], all = 0, end = x + w;
	for (uint32_t s = 0; s < c->nslots; s++) {
		snprintf(txt[s], sizeof txt[s], "%s %.0f%%", c->slots[s] == TC_NONE ? "other" : tc_region_name(t, c->slots[s]),
			 100.0 * c->mean[s]);
		need[s] = 2 + (int)grid_text_len(txt[s]);   /* the letter, a space, the text */
		all += need[s] + (s ? 2 : 0);
	}
	uint32_t s = 0;
	for (; s < c->nslots; s++) {
		snprintf(more, sizeof more, "+%u more", c->nslots - s - 1);
		if (all > w && x + need[s] + 2 + (int)strlen(more) > end) break;
		enum tc_role role = slot_role(c, s);
		grid_put(g, x, y, (uint32_t)(unsigned char)c->letter[s], role, role, 0);
		grid_text(g, x + 2, y, end - x - 2, TC_R_LABEL, txt[s]);
		x += need[s] + 2;
	}
	if (s < c->nslots) {
		snprintf(more, sizeof more, "+%u more", c->nslots - s);
		grid_text(g, x, y, end - x, TC_R_LABEL, more);
	}
}

/* Column c of the activity stack, rows [y0, y0 + h) with the bottom at y0 + h - 1. */
static void draw_stack(struct tc_grid *g, const struct cv_cache *c, int x, int y0, int h, int col)
{
	const double *sh = &c->share[(size_t)col * NSLOTS];
	int cum[NSLOTS + 1];
	double acc = 0;
	cum[0] = 0;
	for (uint32_t s = 0; s < c->nslots; s++) {
		acc += sh[s];
		cum[s + 1] = (int)(TC_MIN(acc, 1.0) * h * 8 + 0.5);
		if (sh[s] > 0 && cum[s + 1] == cum[s] && cum[s] < h * 8) cum[s + 1] = cum[s] + 1;   /* never vanish */
	}
	int top = cum[c->nslots];
	for (int k = 0; k < h && k * 8 < top; k++) {
		int y = y0 + h - 1 - k, fill = top - k * 8;
		/* the function owning the cell's middle eighth (the top cell: its highest eighth) */
		int pos = fill < 8 ? top - 1 : k * 8 + 4;
		uint32_t s = 0;
		while (s + 1 < c->nslots && cum[s + 1] <= pos) s++;
		enum tc_role r = slot_role(c, s);
		if (fill < 8) {   /* the top of the stack: an eighth block */
			uint32_t ch = grid_lower_eighth(g, fill);
			if (ch == ' ') ch = '_';
			grid_put(g, x, y, ch, r, TC_R_NORMAL, TC_A_SOLID);
		} else {
			grid_put(g, x, y, (uint32_t)(unsigned char)c->letter[s], r, r, 0);
		}
	}
}

static uint32_t shade(const struct tc_grid *g, double o)
{
	if (!(o > 0)) return ' ';
	return grid_glyph(g, o < 0.4 ? TC_G_SHADE1 : o < 0.6 ? TC_G_SHADE2 : o < 0.8 ? TC_G_SHADE3 : TC_G_FULL);
}

/* The column under the cursor time: the functions' shares and the calls starting there. */
static void status_line(struct tc_app *a, struct tc_grid *g, struct tc_rect r, const struct cv_cache *c, double dt,
			double l0, double l1)
{
	const struct tc_trace *t = a->t;
	int y = r.y + r.h - 1, col = (int)((double)(a->time - TC_MIN(a->time, a->pv.t0)) / dt);
	if (col >= c->cols) col = c->cols - 1;
	struct strbuf b;
	sb_init(&b);
	char s1[32];
	fmt_seconds(s1, sizeof s1, tc_sec(t, a->pv.t0 + (uint64_t)(col * dt)));
	sb_printf(&b, "column at %s:", s1);
	bool any = false;
	for (uint32_t s = 0; s < c->nslots; s++) {
		double v = c->share[(size_t)col * NSLOTS + s];
		if (v < 0.005) continue;
		sb_printf(&b, " %c %.0f%%", c->letter[s], 100.0 * v);
		any = true;
	}
	if (!any) sb_add(&b, " no rank in MPI");
	uint32_t n = 0;
	int top = -1;
	for (int i = 0; i < c->drows; i++) {
		uint32_t k = c->count[(size_t)i * c->cols + col];
		n += k;
		if (k && top < 0) top = i;
	}
	sb_printf(&b, " | %u call%s start%s", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
	if (top >= 0) {
		fmt_seconds(s1, sizeof s1, pow(10, l1 - (c->drows > 1 ? (double)top / (c->drows - 1) : 0) * (l1 - l0)));
		sb_printf(&b, ", longest ~%s", s1);
	}
	grid_fill(g, r.x, y, r.w, 1, ' ', TC_R_STATUS);
	grid_text(g, r.x, y, r.w, TC_R_STATUS, b.s);
	sb_free(&b);
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_trace *t = a->t;
	int cols = r.w - LW;
	bool status = r.h >= 12;
	int arows = (r.h - 4 - status) / 2, drows = r.h - 4 - status - arows;
	app_follow_time(a);
	const struct cv_cache *c = bins(a, cols, drows);
	double dt = (double)(a->pv.t1 - a->pv.t0) / cols;
	int x0 = r.x + LW;
	char b1[32], b2[32];

	/* activity */
	fmt_seconds(b1, sizeof b1, tc_dur(t, a->pv.t1 - a->pv.t0));
	fmt_seconds(b2, sizeof b2, tc_dur(t, (uint64_t)dt));
	if (c->all) grid_printf(g, r.x, r.y, r.w, TC_R_HEADING, "Share of ranks in MPI functions over %s (%s per column)", b1, b2);
	else grid_printf(g, r.x, r.y, r.w, TC_R_HEADING, "Share of the %u rank%s of f: in MPI functions over %s (%s per column)",
			 c->sum->nranks, c->sum->nranks == 1 ? "" : "s", b1, b2);
	int ay = r.y + 1;
	for (int i = 0; i < arows; i++) {
		const char *lab = i == 0 ? "100%" : i == arows - 1 ? "0%" : i == arows / 2 && arows >= 5 ? "50%" : "";
		grid_printf(g, r.x, ay + i, LW - 1, TC_R_AXIS, "%*s", LW - 2, lab);
		grid_put(g, x0 - 1, ay + i, grid_glyph(g, TC_G_VLINE), TC_R_AXIS, TC_R_NORMAL, 0);
	}
	for (int col = 0; col < cols; col++) draw_stack(g, c, x0 + col, ay, arows, col);
	/* legend */
	int ly = ay + arows;
	legend(g, r.x, ly, r.w, c, t);
	double busy = 0;
	for (uint32_t s = 0; s < c->nslots; s++) busy += c->mean[s];
	if (!(busy > 0)) {
		grid_fill(g, r.x, ly, r.w, 1, ' ', TC_R_NORMAL);
		grid_text(g, r.x, ly, r.w, TC_R_LABEL, "no rank in MPI in this window");
	}

	/* density */
	int dy = ly + 1;
	grid_printf(g, r.x, dy, r.w, TC_R_HEADING, "MPI calls%s: duration (log) by start time, %s opacity (o), max %u calls/cell",
		    c->all ? "" : " (ranks of f:)", a->cv.linear ? "linear" : "log", c->cmax);
	double l0 = log10(c->sum->dmin), l1 = log10(c->sum->dmax);
	for (int i = 0; i < drows; i++) {
		int y = dy + 1 + i;
		if (i == 0 || i == drows - 1 || (i == drows / 2 && drows >= 5)) {
			fmt_seconds(b1, sizeof b1, pow(10, l1 - (drows > 1 ? (double)i / (drows - 1) : 0) * (l1 - l0)));
			grid_printf(g, r.x, y, LW - 1, TC_R_AXIS, "%*s", LW - 1, b1);
		}
		grid_put(g, x0 - 1, y, grid_glyph(g, TC_G_VLINE), TC_R_AXIS, TC_R_NORMAL, 0);
		for (int col = 0; col < cols; col++) {
			uint32_t n = c->count[(size_t)i * cols + col];
			double o = tc_opacity(n, c->cmax, OMIN, !a->cv.linear);
			uint32_t ch = shade(g, o);
			if (ch != ' ') grid_put(g, x0 + col, y, ch, app_map_role(o, 1.0), TC_R_NORMAL, TC_A_SOLID);
		}
	}
	/* time axis and the cursor time */
	int xy = dy + 1 + drows;
	double lab_s = dt * 14 / (double)t->res;
	int dec = lab_s >= 1 ? 1 : (int)ceil(-log10(lab_s)) + 1;
	if (dec > 9) dec = 9;
	grid_text(g, r.x, xy, LW - 1, TC_R_AXIS, "start");
	for (int col = 0; col < cols; col += 14)
		if (col + 13 <= cols)
			grid_printf(g, x0 + col, xy, 13, TC_R_AXIS, "%.*fs", dec, tc_sec(t, a->pv.t0 + (uint64_t)(col * dt)));
	if (a->time >= a->pv.t0 && a->time < a->pv.t1) {
		app_axis_cursor(g, x0 + (int)((double)(a->time - a->pv.t0) / dt), xy);
	}
	if (status) status_line(a, g, r, c, dt, l0, l1);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_trace *t = a->t;
	uint64_t w = a->pv.t1 - a->pv.t0, step = TC_MAX(w / 8, 1);
	switch (act) {
	case ACT_LEFT:
		step = TC_MIN(step, a->pv.t0 - TC_MIN(a->pv.t0, t->tmin));
		a->pv.t0 -= step;
		a->pv.t1 -= step;
		app_set_time(a, a->time > t->tmin + step ? a->time - step : t->tmin);
		break;
	case ACT_RIGHT:
		step = TC_MIN(step, t->tmax > a->pv.t1 ? t->tmax - a->pv.t1 : 0);
		a->pv.t0 += step;
		a->pv.t1 += step;
		app_set_time(a, a->time + step);
		break;
	case ACT_FIRST:
		a->pv.t0 = t->tmin;
		a->pv.t1 = t->tmin + w;
		app_set_time(a, t->tmin);
		break;
	case ACT_LAST:
		a->pv.t1 = t->tmax;
		a->pv.t0 = t->tmax > w ? t->tmax - w : 0;
		app_set_time(a, a->pv.t0 + w / 2);
		break;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT:
		app_zoom_time(a, act == ACT_ZOOM_IN);
		return true;
	case ACT_ZOOM_FIT:
		app_fit_time(a);
		return true;
	case ACT_OPACITY:
		a->cv.linear = !a->cv.linear;
		app_message(a, false, "opacity: %s", a->cv.linear ? "linear" : "log");
		return true;
	case ACT_ENTER:
		app_history_push(a);
		app_show(a, &view_physical);
		return true;
	case ACT_DOWN: case ACT_UP: case ACT_PGDN: case ACT_PGUP: case ACT_TOP: case ACT_BOTTOM: {
		/* the shared rank cursor (the title shows it; the other views follow) */
		uint32_t vi = app_vis_index(a, a->rank), last = a->nvis ? a->nvis - 1 : 0;
		app_list_move(&vi, a->nvis, 11, act);
		if (a->nvis) a->rank = a->vis[TC_MIN(vi, last)];
		app_set_time(a, a->time);
		return true;
	}
	default: return false;
	}
	app_clamp_time_window(a);
	return true;
}

static const char *const help[] = {
	"Top: the share of ranks in each of the busiest MPI functions per time column,",
	"stacked from the bottom (a letter per function, named in the legend with its",
	"share over the window; + is every other MPI function). Bottom: every MPI call",
	"as a point at its start time (x) and log duration (y), counted per cell; the",
	"shade is the opacity o_min + (1 - o_min) log(count) / log(max) (o: linear",
	"count / max), so rare outliers stay visible next to dense bands.",
	"The window is the physical view's: + - 0 zoom it, h/l pan, Enter opens it.",
	NULL,
};

const struct view view_calls = {
	.name = "calls", .id = TC_V_CALLS, .min_w = 30, .min_h = 8, .draw = draw, .key = key, .help = help, .filtered = true,
};
