/* logical.c — the logical timeline: ranks × logical steps (Ravel §4.1).
 * Each cell is coloured by the metric (colour-map roles map0..map7) and
 * carries a glyph for what happens there (send, receive, both, collective,
 * aggregate), so nothing depends on colour alone.  When a cell covers
 * several ranks or steps it shows the maximum and the union of the
 * activity, answered from the precomputed summary (lsum.c): drawing costs
 * O(cells on screen), never O(events).  The partners of the event under
 * the cursor (message peers, collective members) are marked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static uint32_t glyph_of(const struct tc_grid *g, uint8_t f)
{
	if (f & TC_F_COLL) return grid_glyph(g, TC_G_COLL);
	if ((f & TC_F_SEND) && (f & TC_F_RECV)) return grid_glyph(g, TC_G_SENDRECV);
	if (f & TC_F_SEND) return grid_glyph(g, TC_G_SEND);
	if (f & TC_F_RECV) return grid_glyph(g, TC_G_RECV);
	if (f & TC_F_AGG) return grid_glyph(g, TC_G_AGG);
	return ' ';
}

static int digits(uint32_t v)
{
	int d = 1;
	while (v >= 10) { v /= 10; d++; }
	return d;
}

/* Zoomed (by hand): rows are aligned blocks of rpr visible ranks, columns aligned
 * blocks of xpc x units, scrolled so the cursor stays on screen. */
static void scroll_into_view(struct tc_app *a, const struct tc_lsum *s, int cols, int rows)
{
	uint32_t rpr = a->lv.rpr, xpc = a->lv.xpc;
	if (a->lv.rzoomed) {
		uint32_t nblocks = (a->nvis + rpr - 1) / rpr;
		uint32_t b = app_vis_index(a, a->rank) / rpr, topb = a->lv.top / rpr;
		if (b < topb) topb = b;
		if (b >= topb + (uint32_t)rows) topb = b - (uint32_t)rows + 1;
		if (topb + (uint32_t)rows > nblocks) topb = nblocks > (uint32_t)rows ? nblocks - (uint32_t)rows : 0;
		a->lv.top = topb * rpr;
	} else a->lv.top = 0;
	if (a->lv.zoomed) {
		uint32_t ncb = (s->nx + xpc - 1) / xpc;
		uint32_t cb = lsum_x_of_step(a->show_agg, a->step) / xpc, leftb = a->lv.left / xpc;
		if (cb < leftb) leftb = cb;
		if (cb >= leftb + (uint32_t)cols) leftb = cb - (uint32_t)cols + 1;
		if (leftb + (uint32_t)cols > ncb) leftb = ncb > (uint32_t)cols ? ncb - (uint32_t)cols : 0;
		a->lv.left = leftb * xpc;
	} else a->lv.left = 0;
}

static struct tc_cellsum cell(struct tc_app *a, const struct tc_lsum *s, uint32_t v0, uint32_t v1, uint32_t x0, uint32_t x1)
{
	if (!a->filter) return lsum_query(s, a->vis[v0], a->vis[v1 - 1] + 1, x0, x1);
	struct tc_cellsum out = { 0, 0 };
	for (uint32_t v = v0; v < v1; v++) {
		struct tc_cellsum c = lsum_query(s, a->vis[v], a->vis[v] + 1, x0, x1);
		if (c.f) {
			if (!out.f || c.v > out.v) out.v = c.v;
			out.f |= c.f;
		}
	}
	return out;
}

/* What one frame draws on: the bands of columns and rows and the grid origin. */
struct frame {
	struct tc_band xb, rb;
	int x0, y0;
};

/* Every screen column showing x unit x, in [*c0, *c1); false when not visible. */
static bool cols_of(const struct frame *f, uint32_t x, int *c0, int *c1)
{
	int c = band_find(&f->xb, x);
	if (c < 0) return false;
	*c0 = c;
	while (c < f->xb.cells && band_lo(&f->xb, c) <= x && x < band_hi(&f->xb, c)) c++;
	*c1 = c;
	return true;
}

static void mark_partner(struct tc_app *a, struct tc_grid *g, const struct frame *f, uint32_t cev)
{
	const struct tc_cev *e = &a->st->cevs[cev];
	uint32_t vi = app_vis_index(a, e->rank);
	int c0, c1, row = vi < a->nvis && a->vis[vi] == e->rank ? band_find(&f->rb, vi) : -1;
	if (row < 0 || !cols_of(f, lsum_x_of_step(a->show_agg, e->step), &c0, &c1)) return;
	for (int c = c0; c < c1; c++) {
		struct tc_cell *p = grid_at(g, f->x0 + c, f->y0 + row);
		if (p && p->fg != TC_R_CURSOR) { p->fg = p->bg = TC_R_PARTNER; p->attr = 0; }
	}
}

#define MAX_PARTNERS 4096

static void draw_partners(struct tc_app *a, struct tc_grid *g, const struct frame *f)
{
	uint32_t *pe = xmalloc(MAX_PARTNERS * sizeof *pe);
	uint32_t n = view_partners(a, pe, MAX_PARTNERS);
	for (uint32_t i = 0; i < n; i++) mark_partner(a, g, f, pe[i]);
	free(pe);
}

/* Events whose region matches the search are drawn in the match role; at
 * most a few events per visible cell are looked at. */
static void draw_matches(struct tc_app *a, struct tc_grid *g, const struct frame *f)
{
	const struct tc_steps *st = a->st;
	const struct tc_trace *t = a->t;
	uint32_t budget = (uint32_t)(f->xb.cells * f->rb.cells) * 4u;
	uint32_t xend = band_hi(&f->xb, f->xb.cells - 1);
	for (int i = 0; i < f->rb.cells && budget; i++) {
		for (uint32_t v = band_lo(&f->rb, i); v < a->nvis && v < band_hi(&f->rb, i) && budget; v++) {
			uint32_t r = a->vis[v], lo = st->rank_first[r], hi = st->rank_first[r + 1];
			while (lo < hi) {   /* first event at or after the left edge */
				uint32_t mid = lo + (hi - lo) / 2;
				if (lsum_x_of_step(a->show_agg, st->cevs[mid].step) < f->xb.first) lo = mid + 1;
				else hi = mid;
			}
			for (uint32_t e = lo; e < st->rank_first[r + 1] && budget; e++, budget--) {
				const struct tc_cev *ev = &st->cevs[e];
				uint32_t x = lsum_x_of_step(a->show_agg, ev->step);
				if (x >= xend) break;
				if (ev->op >= t->ranks[r].nops) continue;
				uint32_t reg = t->ranks[r].calls[t->ranks[r].ops[ev->op].call].region;
				int c0, c1;
				if (reg >= t->nregions || !a->region_match[reg] || !cols_of(f, x, &c0, &c1)) continue;
				for (int c = c0; c < c1; c++) {
					struct tc_cell *p = grid_at(g, f->x0 + c, f->y0 + i);
					if (p && p->fg != TC_R_CURSOR) p->fg = p->bg = TC_R_MATCH;
				}
			}
		}
	}
}

/* Steps between two axis labels: 1, 2, 5, 10, 20, 50 ... so that labels of
 * width lw sit at least lw + 2 columns apart. */
static int64_t label_every(const struct frame *f, bool agg, int lw)
{
	double steps_per_col = (double)f->xb.span / (f->xb.cells > 0 ? f->xb.cells : 1) * (agg ? 1 : 2);
	static const int mult[] = { 1, 2, 5 };
	for (int64_t p = 1;; p *= 10)
		for (int i = 0; i < 3; i++)
			if ((double)(p * mult[i]) / steps_per_col >= lw + 2 || p > 1000000000) return p * mult[i];
}

/* The axis: step numbers (from 0; the block before step 0 is "init") at round
 * steps where they fit, ticks halfway, the cursor column and the selection.
 * The cursor recolours a label's digits but never replaces them. */
static void draw_axis(struct tc_app *a, struct tc_grid *g, const struct frame *f, const struct tc_lsum *s, int y)
{
	int cols = f->xb.cells;
	int64_t every = label_every(f, a->show_agg, (int)snprintf(NULL, 0, "%u", a->st->max_step));
	int free_from = 0;
	for (int c = 0; c < cols; c++) {
		uint32_t x = band_lo(&f->xb, c);
		if (x >= s->nx) break;
		int64_t first = lsum_step_of_x(a->show_agg, x), last = lsum_step_of_x(a->show_agg, band_hi(&f->xb, c) - 1);
		bool new_x = c == 0 || band_lo(&f->xb, c - 1) != x;
		int64_t f0 = first < 0 ? 0 : first;
		int64_t lab = new_x && (f0 + every - 1) / every * every <= last ? (f0 + every - 1) / every * every : -1;
		char buf[24];
		int n = lab >= 0 ? snprintf(buf, sizeof buf, "%lld", (long long)lab) : 0;
		if (n && c >= free_from && c + n <= cols) {
			grid_text(g, f->x0 + c, y, n, TC_R_AXIS, buf);
			free_from = c + n + 1;
		} else if (c >= free_from && new_x && every >= 2) {   /* a tick at the first step ≡ every/2 */
			int64_t h = every / 2, k = f0 <= h ? h : h + (f0 - h + every - 1) / every * every;
			if (k <= last) grid_putr(g, f->x0 + c, y, grid_glyph(g, TC_G_TICK), TC_R_AXIS);
		}
	}
	uint32_t cx = lsum_x_of_step(a->show_agg, a->step);
	bool marked = false;   /* one mark, in the first free column of the cursor's */
	for (int c = 0; c < cols; c++) {
		uint32_t x0 = band_lo(&f->xb, c), x1 = band_hi(&f->xb, c);
		if (x0 >= s->nx) break;
		struct tc_cell *p = grid_at(g, f->x0 + c, y);
		if (!p) continue;
		int64_t first = lsum_step_of_x(a->show_agg, x0), last = lsum_step_of_x(a->show_agg, x1 - 1);
		if (a->sel && last >= a->sel_s0 && first <= a->sel_s1) p->fg = p->bg = TC_R_SELECTION;
		if (cx >= x0 && cx < x1) {
			bool digit = p->ch >= '0' && p->ch <= '9';
			if (digit || !marked) p->fg = p->bg = TC_R_CURSOR;
			if (!digit && !marked) { p->ch = grid_glyph(g, TC_G_MARK); marked = true; }
		}
	}
}

static void draw_rows(struct tc_app *a, struct tc_grid *g, const struct frame *f, const struct tc_lsum *s, int lw)
{
	uint32_t cx = lsum_x_of_step(a->show_agg, a->step);
	uint32_t cvi = app_vis_index(a, a->rank);
	for (int i = 0; i < f->rb.cells; i++) {
		uint32_t v0 = band_lo(&f->rb, i);
		if (v0 >= a->nvis) break;
		uint32_t v1 = TC_MIN(band_hi(&f->rb, i), a->nvis);
		bool cur_row = cvi >= v0 && cvi < v1, sel_row = false;
		for (uint32_t v = v0; a->nrank_sel && v < v1 && !sel_row; v++) sel_row = app_rank_selected(a, a->vis[v]);
		/* the cursor row is labelled with the cursor's rank, the others with their first */
		grid_printf(g, f->x0 - lw, f->y0 + i, lw - 1, cur_row ? TC_R_CURSOR : sel_row ? TC_R_SELECTION : TC_R_LABEL,
			    "%*u", lw - 1, cur_row ? a->rank : a->vis[v0]);
		for (int c = 0; c < f->xb.cells; c++) {
			uint32_t x = band_lo(&f->xb, c), xe = TC_MIN(band_hi(&f->xb, c), s->nx);
			if (x >= s->nx) break;
			struct tc_cellsum q = cell(a, s, v0, v1, x, xe);
			if (cur_row && cx >= x && cx < xe) {
				grid_put(g, f->x0 + c, f->y0 + i, q.f ? glyph_of(g, q.f) : grid_glyph(g, TC_G_MARK), TC_R_CURSOR,
					 TC_R_CURSOR, 0);
				continue;
			}
			if (!q.f) continue;
			enum tc_role role = app_map_role(q.v, s->vmax);
			grid_put(g, f->x0 + c, f->y0 + i, glyph_of(g, q.f), role, role, 0);
		}
	}
}

/* Columns of the rank labels (and the gap after them). */
static int label_width(const struct tc_app *a)
{
	int lw = digits(a->t->nranks ? a->t->nranks - 1 : 0) + 1;
	return lw < 3 ? 3 : lw;
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_lsum *s = app_sum(a);
	int lw = label_width(a);
	bool legend = r.h >= 8, evline = r.h >= 12;
	int rows = r.h - 1 - legend - evline, cols = r.w - lw;
	if (!a->lv.fitted) app_fit_logical(a, cols, rows);
	a->lv.cols = cols;
	a->lv.rows = rows;
	if (!a->nvis || !s->nx) {
		grid_text(g, r.x, r.y + 1, r.w, TC_R_LABEL, "no communication events in this trace");
		return;
	}
	scroll_into_view(a, s, cols, rows);
	struct frame f = { app_logical_xband(a, cols), app_logical_rband(a, rows), r.x + lw, r.y + 1 };
	draw_axis(a, g, &f, s, r.y);
	draw_rows(a, g, &f, s, lw);
	if (a->region_match) draw_matches(a, g, &f);
	draw_partners(a, g, &f);
	if (legend) view_legend(a, g, r.x, r.y + r.h - 1, r.w, s->vmax);
	if (evline) app_event_line(a, g, r.y + r.h - 1 - legend);
}

/* Moving by one row or column of a band: to the first item of the next / previous cell. */
static uint32_t band_move(const struct tc_band *b, uint32_t cur, uint32_t n, bool fwd)
{
	int c = band_find(b, cur);
	if (c < 0) return cur;
	if (fwd) return band_hi(b, c) < n ? band_hi(b, c) : (n ? n - 1 : 0);
	uint32_t lo = band_lo(b, c);
	if (lo <= b->first) return b->first;
	return band_lo(b, band_find(b, lo - 1));
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_lsum *s = app_sum(a);
	uint32_t vi = app_vis_index(a, a->rank), rpr = a->lv.rpr, xpc = a->lv.xpc;
	uint32_t page = (uint32_t)(a->lv.rows > 1 ? a->lv.rows - 1 : 1) * rpr;
	int64_t x = lsum_x_of_step(a->show_agg, a->step);
	struct tc_band rb = app_logical_rband(a, a->lv.rows > 0 ? a->lv.rows : 1);
	struct tc_band xb = app_logical_xband(a, a->lv.cols > 0 ? a->lv.cols : 1);
	switch (act) {
	case ACT_DOWN:
		if (!a->lv.rzoomed) vi = band_move(&rb, vi, a->nvis, true);
		else vi = vi + rpr < a->nvis ? vi + rpr : (a->nvis ? a->nvis - 1 : 0);
		break;
	case ACT_UP:
		if (!a->lv.rzoomed) vi = band_move(&rb, vi, a->nvis, false);
		else vi = vi >= rpr ? vi - rpr : 0;
		break;
	case ACT_PGDN: vi = vi + page < a->nvis ? vi + page : (a->nvis ? a->nvis - 1 : 0); break;
	case ACT_PGUP: vi = vi >= page ? vi - page : 0; break;
	case ACT_TOP: vi = 0; break;
	case ACT_BOTTOM: vi = a->nvis ? a->nvis - 1 : 0; break;
	case ACT_LEFT:
		if (!a->lv.zoomed) x = band_move(&xb, (uint32_t)x, s->nx, false);
		else x = x >= (int64_t)xpc ? x - xpc : 0;
		break;
	case ACT_RIGHT:
		if (!a->lv.zoomed) x = band_move(&xb, (uint32_t)x, s->nx, true);
		else x = x + xpc < s->nx ? x + xpc : (int64_t)s->nx - 1;
		break;
	case ACT_FIRST: x = lsum_x_of_step(a->show_agg, 0); break;   /* step 0: h reaches init */
	case ACT_LAST: x = (int64_t)s->nx - 1; break;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT: {
		if (!a->lv.zoomed) {   /* from the fitted view: the whole number of x units per column that fits */
			xpc = (s->nx + (uint32_t)TC_MAX(a->lv.cols, 1) - 1) / (uint32_t)TC_MAX(a->lv.cols, 1);
			a->lv.left = 0;
		}
		uint32_t col = ((uint32_t)x >= a->lv.left ? (uint32_t)x - a->lv.left : 0) / xpc;
		if (act == ACT_ZOOM_IN && xpc > 1) xpc /= 2;
		else if (act == ACT_ZOOM_OUT && xpc < s->nx) xpc *= 2;
		else { app_message(a, false, "zoom limit"); return true; }
		a->lv.xpc = xpc;
		a->lv.left = (uint32_t)x >= col * xpc ? (uint32_t)x - col * xpc : 0;
		a->lv.fitted = a->lv.zoomed = true;
		app_message(a, false, "%u step%s per column", xpc, xpc > 1 ? "s" : "");
		return true;
	}
	case ACT_RANKS_IN:
	case ACT_RANKS_OUT:
		if (!a->lv.rzoomed) rpr = (a->nvis + (uint32_t)TC_MAX(a->lv.rows, 1) - 1) / (uint32_t)TC_MAX(a->lv.rows, 1);
		if (!rpr) rpr = 1;
		if (act == ACT_RANKS_IN && rpr > 1) rpr /= 2;
		else if (act == ACT_RANKS_OUT && rpr < a->nvis) rpr *= 2;
		a->lv.rpr = rpr;
		a->lv.rzoomed = true;
		app_message(a, false, "%u rank%s per row", rpr, rpr > 1 ? "s" : "");
		return true;
	case ACT_ZOOM_FIT: a->lv.fitted = a->lv.zoomed = a->lv.rzoomed = false; return true;
	default: return false;
	}
	if (a->nvis) a->rank = a->vis[vi];
	app_set_step(a, lsum_step_of_x(a->show_agg, (uint32_t)(x < 0 ? 0 : x)));
	return true;
}

/* A click on a row picks its (first) rank, on a cell also its step; on the
 * axis or a label only what the position names. */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	const struct tc_lsum *s = app_sum(a);
	int row = y - (r.y + 1), col = x - (r.x + label_width(a));
	if (!a->nvis || !s->nx || a->lv.rows < 1 || a->lv.cols < 1 || row >= a->lv.rows) return false;
	if (row >= 0) {
		struct tc_band rb = app_logical_rband(a, a->lv.rows);
		uint32_t v = band_lo(&rb, row);
		if (v >= a->nvis) return false;
		if (app_vis_index(a, a->rank) < v || app_vis_index(a, a->rank) >= TC_MIN(band_hi(&rb, row), a->nvis))
			a->rank = a->vis[v];
	}
	if (col >= 0 && col < a->lv.cols) {
		struct tc_band xb = app_logical_xband(a, a->lv.cols);
		uint32_t xu = band_lo(&xb, col);
		if (xu < s->nx) app_set_step(a, lsum_step_of_x(a->show_agg, xu));
	}
	return true;
}

static const char *const help[] = {
	"Rows are ranks, columns logical steps; odd steps are the aggregate",
	"(non-communication) blocks before each event. Colour: the metric, from",
	"map0 (low) to map7 (high). Glyphs: send, receive, both, collective, agg.",
	"A cell covering several ranks or steps shows their maximum.",
	"Marked cells are the message partners of the event under the cursor.",
	NULL,
};

const struct view view_logical = {
	.name = "logical", .id = TC_V_LOGICAL, .min_w = 16, .min_h = 3, .draw = draw, .key = key, .help = help,
	.filtered = true, .click = click,
};
