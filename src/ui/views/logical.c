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

/* Rows are aligned blocks of rpr visible ranks, columns aligned blocks of xpc x units. */
static void scroll_into_view(struct tc_app *a, const struct tc_lsum *s, int cols, int rows)
{
	uint32_t rpr = a->lv.rpr, xpc = a->lv.xpc;
	uint32_t nblocks = (a->nvis + rpr - 1) / rpr, ncb = (s->nx + xpc - 1) / xpc;
	uint32_t b = app_vis_index(a, a->rank) / rpr, topb = a->lv.top / rpr;
	if (b < topb) topb = b;
	if (b >= topb + (uint32_t)rows) topb = b - (uint32_t)rows + 1;
	if (topb + (uint32_t)rows > nblocks) topb = nblocks > (uint32_t)rows ? nblocks - (uint32_t)rows : 0;
	a->lv.top = topb * rpr;
	uint32_t cb = lsum_x_of_step(a->show_agg, a->step) / xpc, leftb = a->lv.left / xpc;
	if (cb < leftb) leftb = cb;
	if (cb >= leftb + (uint32_t)cols) leftb = cb - (uint32_t)cols + 1;
	if (leftb + (uint32_t)cols > ncb) leftb = ncb > (uint32_t)cols ? ncb - (uint32_t)cols : 0;
	a->lv.left = leftb * xpc;
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

/* Screen position of (rank, x) or false when not visible. */
static bool pos_of(const struct tc_app *a, uint32_t rank, uint32_t x, int cols, int rows, int *col, int *row)
{
	uint32_t vi = app_vis_index(a, rank);
	if (vi >= a->nvis || a->vis[vi] != rank || vi < a->lv.top || x < a->lv.left) return false;
	uint32_t rr = (vi - a->lv.top) / a->lv.rpr, cc = (x - a->lv.left) / a->lv.xpc;
	if (rr >= (uint32_t)rows || cc >= (uint32_t)cols) return false;
	*row = (int)rr;
	*col = (int)cc;
	return true;
}

static void mark_partner(struct tc_app *a, struct tc_grid *g, uint32_t cev, int x0, int y0, int cols, int rows)
{
	const struct tc_cev *e = &a->st->cevs[cev];
	int c, r;
	if (pos_of(a, e->rank, lsum_x_of_step(a->show_agg, e->step), cols, rows, &c, &r)) {
		struct tc_cell *p = grid_at(g, x0 + c, y0 + r);
		if (p && p->fg != TC_R_CURSOR) { p->fg = p->bg = TC_R_PARTNER; p->attr = 0; }
	}
}

#define MAX_PARTNERS 4096

static void draw_partners(struct tc_app *a, struct tc_grid *g, int x0, int y0, int cols, int rows)
{
	uint32_t *pe = xmalloc(MAX_PARTNERS * sizeof *pe);
	uint32_t n = view_partners(a, pe, MAX_PARTNERS);
	for (uint32_t i = 0; i < n; i++) mark_partner(a, g, pe[i], x0, y0, cols, rows);
	free(pe);
}

/* Events whose region matches the search are drawn in the match role; at
 * most a few events per visible cell are looked at. */
static void draw_matches(struct tc_app *a, struct tc_grid *g, int x0, int y0, int cols, int rows)
{
	const struct tc_steps *st = a->st;
	const struct tc_trace *t = a->t;
	uint32_t budget = (uint32_t)(cols * rows) * 4u;
	uint32_t xend = a->lv.left + (uint32_t)cols * a->lv.xpc;
	for (int i = 0; i < rows && budget; i++) {
		for (uint32_t v = a->lv.top + (uint32_t)i * a->lv.rpr; v < a->nvis && v < a->lv.top + (uint32_t)(i + 1) * a->lv.rpr && budget; v++) {
			uint32_t r = a->vis[v], lo = st->rank_first[r], hi = st->rank_first[r + 1];
			while (lo < hi) {   /* first event at or after the left edge */
				uint32_t mid = lo + (hi - lo) / 2;
				if (lsum_x_of_step(a->show_agg, st->cevs[mid].step) < a->lv.left) lo = mid + 1;
				else hi = mid;
			}
			for (uint32_t e = lo; e < st->rank_first[r + 1] && budget; e++, budget--) {
				const struct tc_cev *ev = &st->cevs[e];
				uint32_t x = lsum_x_of_step(a->show_agg, ev->step);
				if (x >= xend) break;
				if (ev->op >= t->ranks[r].nops) continue;
				uint32_t reg = t->ranks[r].calls[t->ranks[r].ops[ev->op].call].region;
				if (reg >= t->nregions || !a->region_match[reg]) continue;
				struct tc_cell *p = grid_at(g, x0 + (int)((x - a->lv.left) / a->lv.xpc), y0 + i);
				if (p && p->fg != TC_R_CURSOR) p->fg = p->bg = TC_R_MATCH;
			}
		}
	}
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_lsum *s = app_sum(a);
	int lw = digits(a->t->nranks ? a->t->nranks - 1 : 0) + 1;
	if (lw < 3) lw = 3;
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
	int x0 = r.x + lw, y0 = r.y + 1;
	uint32_t xpc = a->lv.xpc, rpr = a->lv.rpr;
	uint32_t cx = lsum_x_of_step(a->show_agg, a->step);
	uint32_t cvi = app_vis_index(a, a->rank);

	/* axis: step numbers every 10 columns, the cursor column, the selection */
	for (int c = 0; c < cols; c++) {
		uint32_t x = a->lv.left + (uint32_t)c * xpc;
		if (x >= s->nx) break;
		int64_t step = lsum_step_of_x(a->show_agg, x);
		if (c % 10 == 0) {
			char lab[24];
			snprintf(lab, sizeof lab, "%lld", (long long)step);
			if (c + (int)strlen(lab) <= cols) grid_text(g, x0 + c, r.y, cols - c, TC_R_AXIS, lab);
		} else if (!grid_at(g, x0 + c, r.y) || grid_at(g, x0 + c, r.y)->ch == ' ') {
			grid_putr(g, x0 + c, r.y, c % 5 == 0 ? grid_glyph(g, TC_G_TICK) : ' ', TC_R_AXIS);
		}
		int64_t last = lsum_step_of_x(a->show_agg, x + xpc - 1);
		struct tc_cell *p = grid_at(g, x0 + c, r.y);
		if (a->sel && last >= a->sel_s0 && step <= a->sel_s1 && p) p->fg = p->bg = TC_R_SELECTION;
		if (cx >= x && cx < x + xpc && p) { p->fg = p->bg = TC_R_CURSOR; if (p->ch == ' ') p->ch = grid_glyph(g, TC_G_MARK); }
	}

	/* rows */
	for (int i = 0; i < rows; i++) {
		uint32_t v0 = a->lv.top + (uint32_t)i * rpr;
		if (v0 >= a->nvis) break;
		uint32_t v1 = TC_MIN(v0 + rpr, a->nvis);
		bool cur_row = cvi >= v0 && cvi < v1, sel_row = false;
		for (uint32_t v = v0; a->nrank_sel && v < v1 && !sel_row; v++) sel_row = app_rank_selected(a, a->vis[v]);
		grid_printf(g, r.x, y0 + i, lw - 1, cur_row ? TC_R_CURSOR : sel_row ? TC_R_SELECTION : TC_R_LABEL, "%*u", lw - 1,
			    a->vis[v0]);
		for (int c = 0; c < cols; c++) {
			uint32_t x = a->lv.left + (uint32_t)c * xpc;
			if (x >= s->nx) break;
			struct tc_cellsum q = cell(a, s, v0, v1, x, x + xpc);
			if (cur_row && cx >= x && cx < x + xpc) {
				grid_put(g, x0 + c, y0 + i, q.f ? glyph_of(g, q.f) : grid_glyph(g, TC_G_MARK), TC_R_CURSOR,
					 TC_R_CURSOR, 0);
				continue;
			}
			if (!q.f) continue;
			enum tc_role role = app_map_role(q.v, s->vmax);
			grid_put(g, x0 + c, y0 + i, glyph_of(g, q.f), role, role, 0);
		}
	}
	if (a->region_match) draw_matches(a, g, x0, y0, cols, rows);
	draw_partners(a, g, x0, y0, cols, rows);
	if (legend) view_legend(a, g, r.x, r.y + r.h - 1, r.w, s->vmax);
	if (evline) app_event_line(a, g, r.y + r.h - 1 - legend);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_lsum *s = app_sum(a);
	uint32_t vi = app_vis_index(a, a->rank), rpr = a->lv.rpr, xpc = a->lv.xpc;
	uint32_t page = (uint32_t)(a->lv.rows > 1 ? a->lv.rows - 1 : 1) * rpr;
	int64_t x = lsum_x_of_step(a->show_agg, a->step);
	switch (act) {
	case ACT_DOWN: vi = vi + rpr < a->nvis ? vi + rpr : (a->nvis ? a->nvis - 1 : 0); break;
	case ACT_UP: vi = vi >= rpr ? vi - rpr : 0; break;
	case ACT_PGDN: vi = vi + page < a->nvis ? vi + page : (a->nvis ? a->nvis - 1 : 0); break;
	case ACT_PGUP: vi = vi >= page ? vi - page : 0; break;
	case ACT_TOP: vi = 0; break;
	case ACT_BOTTOM: vi = a->nvis ? a->nvis - 1 : 0; break;
	case ACT_LEFT: x = x >= (int64_t)xpc ? x - xpc : 0; break;
	case ACT_RIGHT: x = x + xpc < s->nx ? x + xpc : (int64_t)s->nx - 1; break;
	case ACT_FIRST: x = 0; break;
	case ACT_LAST: x = (int64_t)s->nx - 1; break;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT: {
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
	case ACT_RANKS_IN: if (rpr > 1) a->lv.rpr = rpr / 2; a->lv.zoomed = true; return true;
	case ACT_RANKS_OUT: if (rpr < a->nvis) a->lv.rpr = rpr * 2; a->lv.zoomed = true; return true;
	case ACT_ZOOM_FIT: a->lv.fitted = a->lv.zoomed = false; return true;
	default: return false;
	}
	if (a->nvis) a->rank = a->vis[vi];
	app_set_step(a, lsum_step_of_x(a->show_agg, (uint32_t)(x < 0 ? 0 : x)));
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
};
