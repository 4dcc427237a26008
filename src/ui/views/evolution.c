/* evolution.c — latency over time (PCLVis §5.1, Fig. 6): for all messages and
 * for the regions with the highest RL, a strip of time windows whose bar
 * height (eighth blocks) and colour give the window's mean L (log scale),
 * with the abstraction's periods marked underneath: growth, steady high,
 * and the "other" periods compressed to their start / mid / end windows
 * (the windows dropped by the compression are drawn dim).  h/l move over
 * the windows, j/k over the rows (the selected region is shared with the
 * regions view); Enter sets the other views to the window: the physical
 * view shows its span and the cursor moves to its start. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis_latency.h"
#include "ui.h"

#define LABEL_W 17

/* Rows: 0 = all messages (of every rank, also under a filter), i > 0 =
 * ids[i - 1]: the regions with inside messages holding a visible rank
 * (app_lat_rows), nwith of them. */
struct rows { const uint32_t *ids; uint32_t nwith; };

static struct rows rows_of(struct tc_app *a)
{
	uint32_t n;
	struct rows e;
	e.ids = app_lat_rows(a, &n, &e.nwith);
	return e;
}

static uint32_t nrows_of(const struct rows *e) { return 1 + e->nwith; }

static uint32_t row_of(const struct tc_app *a, const struct rows *e)
{
	for (uint32_t i = 0; i < e->nwith; i++)
		if (e->ids[i] == a->lat_region) return i + 1;
	return 0;
}

static void series(const struct tc_latency *lat, const struct rows *e, uint32_t row, const struct tc_lat_win **w,
		   const struct tc_period **p, uint32_t *np)
{
	if (!row) {
		*w = lat->win_all;
		*p = lat->periods_all;
		*np = lat->nperiods_all;
	} else {
		const struct tc_lat_region *R = &lat->regions[e->ids[row - 1]];
		*w = R->win;
		*p = R->periods;
		*np = R->nperiods;
	}
}

/* The period holding window w (NULL if none). */
static const struct tc_period *period_at(const struct tc_period *p, uint32_t np, uint32_t w)
{
	for (uint32_t i = 0; i < np; i++)
		if (w >= p[i].first && w <= p[i].last) return &p[i];
	return NULL;
}

/* Bar glyph for level 1..8: eighth blocks, or an ASCII ladder. */
static uint32_t bar_glyph(const struct tc_grid *g, int level)
{
	static const char ladder[] = " .,:;=+*#";
	if (level < 0) level = 0;
	if (level > 8) level = 8;
	return g->ascii ? (uint32_t)ladder[level] : grid_lower_eighth(g, level);
}

static double scaled(double l) { return log1p(l > 0 ? l : 0); }

/* Columns per window and the first window shown, keeping the cursor window visible. */
static void layout(struct tc_app *a, const struct tc_latency *lat, int avail, int *cw, uint32_t *nshow)
{
	uint32_t nw = lat->nwindows;
	int c = avail / (int)(nw ? nw : 1);
	if (c < 1) c = 1;
	if (c > 8) c = 8;
	uint32_t show = (uint32_t)(avail / c);
	if (show > nw) show = nw;
	if (a->ev.win >= nw) a->ev.win = nw ? nw - 1 : 0;
	if (a->ev.win < a->ev.left) a->ev.left = a->ev.win;
	if (show && a->ev.win >= a->ev.left + show) a->ev.left = a->ev.win - show + 1;
	if (a->ev.left + show > nw) a->ev.left = nw - show;
	*cw = c;
	*nshow = show;
}

/* The bar height (1..8 eighths) of a window's mean L on the log scale up to vmax. */
static int bar_level(double l, double vmax)
{
	int level = vmax > 0 ? (int)(scaled(l) / vmax * 8 + 0.5) : 0;
	return level < 1 ? 1 : level;
}

/* A growth period whose windows' mean L does not rise (a flat series) gets no arrow:
 * the last window with messages must be above the first by 5 % and 0.05, and the
 * bars must show it (a rise from 1.03 to 1.25 under a top of 103 draws flat bars). */
static bool rises(const struct tc_lat_win *w, const struct tc_period *pe, double vmax)
{
	if (!w) return false;
	double lo = NAN, hi = NAN;
	for (uint32_t i = pe->first; i <= pe->last; i++)
		if (w[i].n && isfinite(w[i].mean_l)) {
			if (isnan(lo)) lo = w[i].mean_l;
			hi = w[i].mean_l;
		}
	return isfinite(lo) && isfinite(hi) && hi - lo > 0.05 && hi > lo * 1.05 && bar_level(hi, vmax) > bar_level(lo, vmax);
}

static void draw_row(struct tc_app *a, const struct tc_latview *v, const struct rows *e, struct tc_grid *g, struct tc_rect r, int y,
		     uint32_t row, bool cur, int cw, uint32_t nshow)
{
	const struct tc_latency *lat = v->lat;
	const struct tc_lat_win *w;
	const struct tc_period *p;
	uint32_t np;
	series(lat, e, row, &w, &p, &np);
	char name[48], lab[64];
	double rl = lat->mean_l;
	if (row) {
		const struct tc_lat_region *R = &lat->regions[e->ids[row - 1]];
		struct strbuf b = { 0 };
		fmt_ranges(&b, R->ranks, R->nranks);
		snprintf(name, sizeof name, "r%u %s", e->ids[row - 1], b.s ? b.s : "");
		sb_free(&b);
		rl = R->rl;
	} else {
		snprintf(name, sizeof name, a->nvis < a->t->nranks ? "all ranks" : "all msgs");   /* global under a filter too */
	}
	bool cut = strlen(name) > 10;
	if (cut) name[9] = 0;   /* an ellipsis glyph goes in the tenth column */
	if (isfinite(rl)) snprintf(lab, sizeof lab, "%c%-10s %4.2f", cur ? '>' : ' ', name, rl);
	else snprintf(lab, sizeof lab, "%c%-10s    -", cur ? '>' : ' ', name);
	enum tc_role lr = cur ? TC_R_CURSOR : TC_R_LABEL;
	grid_text(g, r.x, y, LABEL_W, lr, lab);
	if (cut) grid_put(g, r.x + 10, y, grid_glyph(g, TC_G_ELLIPSIS), lr, lr, 0);
	int x0 = r.x + LABEL_W;
	double vmax = scaled(v->l_max);
	for (uint32_t k = 0; k < nshow; k++) {
		uint32_t wi = a->ev.left + k;
		int x = x0 + (int)k * cw;
		const struct tc_period *pe = period_at(p, np, wi);
		bool kept = !pe || pe->kind != TC_PERIOD_OTHER || wi == pe->keep[0] || wi == pe->keep[1] || wi == pe->keep[2];
		bool curw = cur && wi == a->ev.win;
		if (w && w[wi].n && isfinite(w[wi].mean_l)) {
			double s = scaled(w[wi].mean_l);
			uint32_t ch = bar_glyph(g, bar_level(w[wi].mean_l, vmax));
			for (int c = 0; c < cw; c++) {
				if (curw) grid_put(g, x + c, y, ch, TC_R_CURSOR, TC_R_CURSOR, 0);
				else if (!kept) grid_put(g, x + c, y, ch, TC_R_INACTIVE, TC_R_NORMAL, TC_A_DIM);
				else grid_put(g, x + c, y, ch, app_map_role(s, vmax), TC_R_NORMAL, TC_A_SOLID);
			}
		} else if (curw) {
			grid_fill(g, x, y, cw, 1, grid_glyph(g, TC_G_MARK), TC_R_CURSOR);
		}
		/* marks under the strip */
		if (!pe) continue;
		if (pe->kind == TC_PERIOD_GROWTH && rises(w, pe, vmax)) {
			for (int c = 0; c < cw; c++) grid_put(g, x + c, y + 1, g->ascii ? '/' : 0x2197, TC_R_MESSAGE, TC_R_NORMAL, 0);
		} else if (pe->kind == TC_PERIOD_STEADY_HIGH) {
			for (int c = 0; c < cw; c++) grid_put(g, x + c, y + 1, g->ascii ? '^' : 0x2580, TC_R_HELP_KEY, TC_R_NORMAL, 0);
		} else {   /* other periods, and a flat growth period: start, mid, end */
			char m = wi == pe->keep[2] ? 'e' : wi == pe->keep[1] ? 'm' : wi == pe->keep[0] ? 's' : 0;
			if (m) grid_put(g, x, y + 1, (uint32_t)m, TC_R_AXIS, TC_R_NORMAL, 0);
		}
	}
}

/* The period marks' legend on the top line from column x, each entry whole
 * or not at all. */
static void marks_legend(struct tc_grid *g, struct tc_rect r, int x)
{
	static const struct { const char *sep; uint32_t ch, ascii; enum tc_role role; const char *text; } keys[] = {
		{ "", 0x2197, '/', TC_R_MESSAGE, "growth" },
		{ " ", 0x2580, '^', TC_R_HELP_KEY, "steady high" },
		{ "; ", 0, 0, TC_R_LABEL, "s m e: kept windows of the rest" },
	};
	for (size_t k = 0; k < TC_NELEM(keys); k++) {
		int sep = (int)strlen(keys[k].sep), need = sep + (keys[k].ch != 0) + (int)grid_text_len(keys[k].text);
		if (need > r.w - x) break;
		x += grid_text(g, r.x + x, r.y, r.w - x, TC_R_LABEL, keys[k].sep);
		if (keys[k].ch) grid_put(g, r.x + x++, r.y, g->ascii ? keys[k].ascii : keys[k].ch, keys[k].role, TC_R_NORMAL, 0);
		x += grid_text(g, r.x + x, r.y, r.w - x, TC_R_LABEL, keys[k].text);
	}
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_latview *v = app_latview(a);
	const struct tc_latency *lat = v->lat;
	if (!lat || !lat->nwindows || !a->t->nmsgs) {
		grid_text(g, r.x, r.y, r.w, TC_R_LABEL, "no messages: no latency over time");
		return;
	}
	const struct tc_trace *t = a->t;
	int cw;
	uint32_t nshow;
	layout(a, lat, r.w - LABEL_W, &cw, &nshow);
	char dt[32];
	fmt_seconds(dt, sizeof dt, tc_dur(t, lat->win_dt));
	int x = grid_printf(g, r.x, r.y, r.w, TC_R_LABEL, "%u windows of %s, bars: mean L (log, top %.2f)  ", lat->nwindows,
			    dt, v->l_max);
	marks_legend(g, r, x);

	/* axis: window start times, the cursor window */
	int x0 = r.x + LABEL_W;
	grid_text(g, r.x, r.y + 1, LABEL_W, TC_R_HEADING, " region       RL ");
	for (uint32_t k = 0; k < nshow; k++) {
		uint32_t wi = a->ev.left + k;
		int c = (int)k * cw;
		if ((c % 12 == 0 || k == 0) && c + 8 <= (int)nshow * cw) {
			char lab[32];
			fmt_seconds(lab, sizeof lab, tc_sec(t, tc_lat_win_start(lat, wi)));
			grid_text(g, x0 + c, r.y + 1, 10, TC_R_AXIS, lab);
		}
		if (wi == a->ev.win) {
			for (int j = 0; j < cw; j++) {
				struct tc_cell *p = grid_at(g, x0 + c + j, r.y + 1);
				if (p) {
					p->fg = p->bg = TC_R_CURSOR;
					if (p->ch == ' ') p->ch = grid_glyph(g, TC_G_MARK);
				}
			}
		}
	}

	struct rows e = rows_of(a);
	uint32_t nrows = nrows_of(&e), cur = row_of(a, &e);
	int fit = (r.h - 3) / 2;
	a->ev.rows = fit;
	app_list_top(&a->ev.top, cur, nrows, fit);
	for (int i = 0; i < fit; i++) {
		uint32_t row = a->ev.top + (uint32_t)i;
		if (row >= nrows) break;
		draw_row(a, v, &e, g, r, r.y + 2 + 2 * i, row, row == cur, cw, nshow);
	}

	/* the window under the cursor */
	const struct tc_lat_win *w;
	const struct tc_period *p;
	uint32_t np;
	series(lat, &e, cur, &w, &p, &np);
	uint32_t wi = a->ev.win;
	char b0[32], b1[32];
	fmt_seconds(b0, sizeof b0, tc_sec(t, tc_lat_win_start(lat, wi)));
	fmt_seconds(b1, sizeof b1, tc_sec(t, TC_MIN(tc_lat_win_end(lat, wi), t->tmax)));
	struct strbuf b = { 0 };
	if (cur) sb_printf(&b, "region %u", e.ids[cur - 1]);
	else sb_add(&b, "all messages");
	sb_printf(&b, ", window %u: %s - %s", wi, b0, b1);
	if (w && w[wi].n)
		sb_printf(&b, ", %u msgs (%u inter-node), mean L %.2f, max %.2f, %u delayed", w[wi].n, w[wi].n_inter,
			  w[wi].mean_l, w[wi].max_l, w[wi].delayed);
	else
		sb_add(&b, ", no messages");
	const struct tc_period *pe = period_at(p, np, wi);
	if (pe) sb_printf(&b, "; %s %u-%u", tc_period_kind_names[pe->kind], pe->first, pe->last);
	app_status_line(g, r.y + r.h - 1, b.s);
	sb_free(&b);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_latview *v = app_latview(a);
	const struct tc_latency *lat = v->lat;
	if (!lat || !lat->nwindows || !a->t->nmsgs) return false;
	struct rows rs = rows_of(a);
	uint32_t row = row_of(a, &rs), nw = lat->nwindows;
	if (app_list_move(&row, nrows_of(&rs), a->ev.rows, act)) {
		a->lat_region = row ? rs.ids[row - 1] : TC_NONE;
		return true;
	}
	switch (act) {
	case ACT_LEFT: if (a->ev.win) a->ev.win--; return true;
	case ACT_RIGHT: if (a->ev.win + 1 < nw) a->ev.win++; return true;
	case ACT_FIRST: a->ev.win = 0; return true;
	case ACT_LAST: a->ev.win = nw - 1; return true;
	case ACT_ENTER: {
		const struct tc_trace *t = a->t;
		uint64_t s = tc_lat_win_start(lat, a->ev.win), e = tc_lat_win_end(lat, a->ev.win);
		if (e > t->tmax) e = t->tmax;
		if (e <= s) e = s + 1;
		a->pv.t0 = s;
		a->pv.t1 = e;
		app_set_time(a, s);
		char b0[32], b1[32];
		fmt_seconds(b0, sizeof b0, tc_sec(t, s));
		fmt_seconds(b1, sizeof b1, tc_sec(t, e));
		app_message(a, false, "window %u: %s - %s; the physical view shows it, the cursor is at step %lld", a->ev.win, b0,
			    b1, (long long)a->step);
		return true;
	}
	default: return false;
	}
}

static const char *const help[] = {
	"Latency over time (PCLVis §5.1): the run cut into equal windows; for all",
	"messages and the regions with the highest RL, each window's mean L",
	"(transfer time / the median for its size and class) as bar height and",
	"colour, on a log scale up to the largest window. Under each strip the",
	"periods of the abstraction: growth (rising L), steady high (L >= 1.2",
	"for 3+ windows); other periods keep only their start, mid and end",
	"windows (s m e), the rest is dim. h/l pick a window, j/k a region;",
	"Enter sets the physical view to the window and moves the cursor there.",
	NULL,
};

const struct view view_evolution = {
	.name = "evolution", .id = TC_V_EVOLUTION, .min_w = 30, .min_h = 5, .draw = draw, .key = key, .help = help,
	.filtered = true, .ready = view_ready_latency, .prepare = view_prepare_latency,
};
