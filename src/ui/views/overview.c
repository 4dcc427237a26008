/* overview.c — the metric overview (Ravel §4.4): the metric per logical step
 * as a mean over the visible ranks (seconds per rank), as bars scaled by the
 * largest column, spread over the whole width at any ratio (struct tc_band).  `v` marks
 * the start of a range, moving extends it, Enter jumps the other views
 * there (the logical view zooms to the range).  Sums come from the
 * summary's prefix sums: O(1) per column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

/* Metric summed over x units [x0, x1) over the visible ranks. */
static double xsum(struct tc_app *a, const struct tc_lsum *s, uint32_t x0, uint32_t x1)
{
	if (!a->filter) return lsum_xsum(s, x0, x1);
	if (!a->ov.xs || a->ov.xs_sum != s || a->ov.xs_gen != a->vis_gen) {
		free(a->ov.xs);
		a->ov.xs = lsum_xsum_ranks(s, a->vis, a->nvis);
		a->ov.xs_sum = s;
		a->ov.xs_gen = a->vis_gen;
	}
	if (x1 > s->nx) x1 = s->nx;
	return x0 < x1 ? a->ov.xs[x1] - a->ov.xs[x0] : 0;
}

static struct tc_band xband(const struct tc_app *a, const struct tc_lsum *s, int cols)
{
	if (!a->ov.zoomed) return (struct tc_band){ 0, s->nx, cols };
	return (struct tc_band){ a->ov.left, a->ov.xpc * (uint32_t)cols, cols };
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_lsum *s = app_sum(a);
	int cols = r.w, rows = r.h - 2;
	a->ov.fitted = true;
	a->ov.cols = cols;
	if (a->ov.zoomed) {   /* keep the cursor column on screen */
		uint32_t xpc = a->ov.xpc ? a->ov.xpc : 1, ncb = (s->nx + xpc - 1) / xpc;
		uint32_t cb = lsum_x_of_step(a->show_agg, a->step) / xpc, leftb = a->ov.left / xpc;
		if (cb < leftb) leftb = cb;
		if (cb >= leftb + (uint32_t)cols) leftb = cb - (uint32_t)cols + 1;
		if (leftb + (uint32_t)cols > ncb) leftb = ncb > (uint32_t)cols ? ncb - (uint32_t)cols : 0;
		a->ov.left = leftb * xpc;
	}
	struct tc_band xb = xband(a, s, cols);
	/* bars: the metric per step averaged over the visible ranks (seconds per rank),
	 * scaled by the largest column of the whole trace at this zoom */
	double per = a->nvis ? 1.0 / a->nvis : 1, vmax = 0;
	if (a->ov.zoomed)
		for (uint32_t x = 0; x < s->nx; x += a->ov.xpc) vmax = TC_MAX(vmax, xsum(a, s, x, x + a->ov.xpc) * per);
	else
		for (int c = 0; c < cols; c++) vmax = TC_MAX(vmax, xsum(a, s, band_lo(&xb, c), band_hi(&xb, c)) * per);
	char vbuf[32];
	fmt_seconds(vbuf, sizeof vbuf, vmax);
	uint32_t spc = (s->nx + (uint32_t)cols - 1) / (uint32_t)cols;
	grid_printf(g, r.x, r.y, r.w, TC_R_LABEL, "%s per step, mean over %s%u ranks (s per rank)%s; top %s",
		    app_metric_label(a->metric), a->filter ? "the " : "", a->nvis,
		    a->ov.zoomed && a->ov.xpc > 1 ? ", columns sum steps" : !a->ov.zoomed && spc > 1 ? ", columns sum steps" : "",
		    vbuf);
	int64_t m0 = a->ov.mark, m1 = a->step;
	if (m0 > m1) { int64_t t = m0; m0 = m1; m1 = t; }
	uint32_t cx = lsum_x_of_step(a->show_agg, a->step);
	int ay = r.y + 1 + rows, free_from = 0;
	bool marked = false;
	for (int c = 0; c < cols; c++) {
		uint32_t x = band_lo(&xb, c), xe = band_hi(&xb, c);
		if (x >= s->nx) break;
		double v = xsum(a, s, x, xe) * per;
		int eighths = vmax > 0 ? (int)(v / vmax * rows * 8 + 0.5) : 0;
		if (v > 0 && eighths == 0) eighths = 1;
		int64_t st0 = lsum_step_of_x(a->show_agg, x), st1 = lsum_step_of_x(a->show_agg, xe - 1);
		bool in_mark = a->ov.marking && st1 >= m0 && st0 <= m1;
		bool in_sel = a->sel && st1 >= a->sel_s0 && st0 <= a->sel_s1;
		enum tc_role bg = in_mark || in_sel ? TC_R_SELECTION : TC_R_NORMAL;
		enum tc_role fg = app_map_role(v, vmax);
		for (int y = 0; y < rows; y++) {
			int level = eighths - (rows - 1 - y) * 8;   /* eighths above this row's bottom */
			uint32_t ch = level >= 8 ? grid_lower_eighth(g, 8) : level > 0 ? grid_lower_eighth(g, level) : ' ';
			if (ch == ' ') grid_putr(g, r.x + c, r.y + 1 + y, ' ', bg);
			else grid_put(g, r.x + c, r.y + 1 + y, ch, fg, bg, TC_A_SOLID);
		}
		/* axis: step numbers (from 0) every ten columns or so, where they fit */
		bool new_x = c == 0 || band_lo(&xb, c - 1) != x;
		if (new_x && st1 >= 0 && (free_from == 0 || c - free_from >= 7)) {
			char lab[24];
			int n = snprintf(lab, sizeof lab, "%lld", (long long)(st0 < 0 ? 0 : st0));
			if (c + n <= cols) { grid_text(g, r.x + c, ay, n, TC_R_AXIS, lab); free_from = c + n + 1; }
		}
		struct tc_cell *p = grid_at(g, r.x + c, ay);
		if (cx >= x && cx < xe && p) {
			bool digit = p->ch >= '0' && p->ch <= '9';
			if (digit || !marked) app_axis_cursor(g, r.x + c, ay);
			marked = marked || !digit;
		} else if (p && p->ch == ' ' && (in_mark || in_sel)) {
			p->ch = grid_glyph(g, TC_G_HLINE);
			p->fg = p->bg = TC_R_SELECTION;
		}
	}
}

static void jump(struct tc_app *a, int64_t s0, int64_t s1)
{
	app_history_push(a);
	a->sel = true;
	a->sel_s0 = s0;
	a->sel_s1 = s1;
	const struct tc_lsum *s = app_sum(a);
	uint32_t x0 = lsum_x_of_step(a->show_agg, s0), x1 = lsum_x_of_step(a->show_agg, s1) + 1;
	int cols = a->lv.cols > 0 ? a->lv.cols : 60;
	uint32_t xpc = 1;
	while (xpc * (uint32_t)cols < x1 - x0 && xpc < s->nx) xpc *= 2;
	if (!a->lv.fitted) app_fit_logical(a, cols, a->lv.rows > 0 ? a->lv.rows : 20);
	a->lv.xpc = xpc;
	a->lv.left = x0 - x0 % xpc;
	a->lv.fitted = a->lv.zoomed = true;
	app_set_step(a, s0);
	app_show(a, &view_logical);
	app_message(a, false, "steps %lld-%lld selected", (long long)s0, (long long)s1);
}

/* A click on a column (bars or axis) moves the cursor to its first step. */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	(void)y;
	const struct tc_lsum *s = app_sum(a);
	int c = x - r.x;
	if (c < 0 || c >= a->ov.cols || !s->nx) return false;
	struct tc_band xb = xband(a, s, a->ov.cols);
	uint32_t xu = band_lo(&xb, c);
	if (xu >= s->nx) return false;
	app_set_step(a, lsum_step_of_x(a->show_agg, xu));
	return true;
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_lsum *s = app_sum(a);
	int64_t x = lsum_x_of_step(a->show_agg, a->step);
	uint32_t xpc = a->ov.zoomed && a->ov.xpc ? a->ov.xpc : (s->nx + (uint32_t)TC_MAX(a->ov.cols, 1) - 1) / (uint32_t)TC_MAX(a->ov.cols, 1);
	if (!xpc) xpc = 1;
	switch (act) {
	case ACT_LEFT: x = x >= (int64_t)xpc ? x - xpc : 0; break;
	case ACT_RIGHT: x = x + xpc < s->nx ? x + xpc : (int64_t)s->nx - 1; break;
	case ACT_FIRST: x = lsum_x_of_step(a->show_agg, 0); break;
	case ACT_LAST: x = (int64_t)s->nx - 1; break;
	case ACT_ZOOM_IN: if (xpc > 1) a->ov.xpc = xpc / 2; a->ov.fitted = a->ov.zoomed = true; return true;
	case ACT_ZOOM_OUT: if (xpc < s->nx) a->ov.xpc = xpc * 2; a->ov.fitted = a->ov.zoomed = true; return true;
	case ACT_ZOOM_FIT: a->ov.fitted = a->ov.zoomed = false; return true;
	case ACT_MARK:
		a->ov.marking = true;
		a->ov.mark = a->step;
		app_message(a, false, "range from step %lld: move, then Enter", (long long)a->step);
		return true;
	case ACT_ENTER: {
		int64_t s0, s1;
		if (a->ov.marking) {
			s0 = TC_MIN(a->ov.mark, a->step);
			s1 = TC_MAX(a->ov.mark, a->step);
			a->ov.marking = false;
		} else {   /* the steps of the cursor's column */
			uint32_t c0 = (uint32_t)x / xpc * xpc;
			s0 = lsum_step_of_x(a->show_agg, c0);
			s1 = lsum_step_of_x(a->show_agg, TC_MIN(c0 + xpc, s->nx) - 1);
		}
		jump(a, s0, s1);
		return true;
	}
	case ACT_DOWN: case ACT_UP: case ACT_PGDN: case ACT_PGUP: case ACT_TOP: case ACT_BOTTOM:
		return true;   /* one row: nothing to move */
	default: return false;
	}
	app_set_step(a, lsum_step_of_x(a->show_agg, (uint32_t)x));
	return true;
}

static const char *const help[] = {
	"Bars: the metric per step (or group of steps) as a mean over the visible",
	"ranks (seconds per rank; with a filter, over its ranks only),",
	"scaled by the largest bar. v marks a range, h/l extends it, Enter jumps the",
	"logical view to it (Enter alone: the steps under the cursor). Esc cancels.",
	NULL,
};

const struct view view_overview = {
	.name = "overview", .id = TC_V_OVERVIEW, .min_w = 16, .min_h = 3, .draw = draw, .key = key, .help = help, .click = click,
	.filtered = true,
};
