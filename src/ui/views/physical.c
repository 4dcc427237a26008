/* physical.c — the physical timeline: ranks × wall time (Ravel §4.3).
 * Non-MPI calls are shaded by call depth; MPI calls that communicate are
 * coloured by the metric of their event and carry the send/receive/
 * collective glyph; other MPI calls use the "mpi" role.  An MPI call wins a
 * cell it overlaps, so short calls never vanish; where a call starts or ends
 * inside a cell the boundary is drawn with eighth blocks (UTF-8 + colour).
 * Each cell looks at a bounded number of calls, found by binary search. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis_rootcause.h"
#include "ui.h"

#define SCAN_MAX 64

struct seg { enum tc_role role; uint32_t ch; uint32_t call; };

static enum tc_role depth_role(uint32_t depth)
{
	return (enum tc_role)(TC_R_DEPTH0 + (depth > 3 ? 3 : depth));
}

static uint32_t depth_glyph(const struct tc_app *a, const struct tc_grid *g, uint32_t depth)
{
	if (a->color) return ' ';
	return grid_glyph(g, depth == 0 ? TC_G_SHADE1 : depth == 1 ? TC_G_SHADE2 : TC_G_SHADE3);
}

static uint32_t mpi_glyph(const struct tc_grid *g, const struct tc_trace *t, const struct tc_call *c, uint32_t rank)
{
	uint8_t k = t->regions[c->region].kind;
	if (c->op != TC_NONE) {
		const struct tc_op *op = &t->ranks[rank].ops[c->op];
		if (op->coll != TC_NONE) return grid_glyph(g, TC_G_COLL);
		if (op->nsend && op->nrecv) return grid_glyph(g, TC_G_SENDRECV);
		if (op->nsend) return grid_glyph(g, TC_G_SEND);
		if (op->nrecv) return grid_glyph(g, TC_G_RECV);
	}
	if (k == TC_RK_MPI_COLL || k == TC_RK_MPI_ICOLL) return grid_glyph(g, TC_G_COLL);
	return grid_glyph(g, TC_G_OTHER_MPI);
}

static struct seg mpi_seg(struct tc_app *a, const struct tc_grid *g, uint32_t rank, uint32_t ci)
{
	const struct tc_trace *t = a->t;
	const struct tc_call *c = &t->ranks[rank].calls[ci];
	struct seg s = { TC_R_MPI, mpi_glyph(g, t, c, rank), ci };
	uint32_t e = c->op != TC_NONE ? tc_steps_cev_of_call(a->st, rank, ci) : TC_NONE;
	if (e != TC_NONE) s.role = app_map_role(tc_cev_metric(&a->st->cevs[e], a->metric, false), app_sum(a)->vmax);
	return s;
}

static struct seg call_seg(struct tc_app *a, const struct tc_grid *g, uint32_t rank, uint32_t ci)
{
	if (ci == TC_NONE) return (struct seg){ TC_R_NORMAL, ' ', TC_NONE };
	const struct tc_trace *t = a->t;
	const struct tc_call *c = &t->ranks[rank].calls[ci];
	if (c->region < t->nregions && TC_RK_IS_MPI(t->regions[c->region].kind)) return mpi_seg(a, g, rank, ci);
	return (struct seg){ depth_role(c->depth), depth_glyph(a, g, c->depth), ci };
}

static bool same(struct seg a, struct seg b) { return a.role == b.role && a.ch == b.ch; }

/* A cell covers [lo, hi): eight samples of the innermost call give what
 * fills it; an MPI call that communicates and starts inside the cell wins
 * it even when no sample hits it (short calls never vanish).  Two runs of
 * samples (one boundary) draw as an eighth block in UTF-8 with colour. */
/* A call matching the search is drawn in the match role (its glyph stays). */
static void put_seg(struct tc_app *a, struct tc_grid *g, int x, int y, struct seg sg, uint32_t rank)
{
	const struct tc_trace *t = a->t;
	if (a->region_match && sg.call != TC_NONE) {
		uint32_t reg = t->ranks[rank].calls[sg.call].region;
		if (reg < t->nregions && a->region_match[reg]) sg.role = TC_R_MATCH;
	}
	grid_putr(g, x, y, sg.ch, sg.role);
}

static void draw_row(struct tc_app *a, struct tc_grid *g, uint32_t rank, int x0, int y, int cols, double dt)
{
	const struct tc_trace *t = a->t;
	const struct tc_rank *R = &t->ranks[rank];
	for (int c = 0; c < cols; c++) {
		uint64_t lo = a->pv.t0 + (uint64_t)(c * dt), hi = a->pv.t0 + (uint64_t)((c + 1) * dt);
		if (hi <= lo) hi = lo + 1;
		struct seg smp[8];
		uint32_t comm = TC_NONE;
		for (int k = 0; k < 8; k++) {
			uint32_t ci = tc_call_at(t, rank, lo + (uint64_t)((k + 0.5) * (double)(hi - lo) / 8));
			smp[k] = call_seg(a, g, rank, ci);
			if (ci != TC_NONE && R->calls[ci].op != TC_NONE && comm == TC_NONE) comm = ci;
		}
		if (comm == TC_NONE) {   /* a communicating call starting inside the cell */
			uint32_t l = 0, h = R->ncalls;
			while (l < h) {
				uint32_t m = l + (h - l) / 2;
				if (R->calls[m].enter < lo) l = m + 1;
				else h = m;
			}
			for (uint32_t k = l, n = 0; k < R->ncalls && R->calls[k].enter < hi && n < SCAN_MAX; k++, n++)
				if (R->calls[k].op != TC_NONE) { comm = k; break; }
		}
		int run = 1;
		while (run < 8 && same(smp[run], smp[0])) run++;
		int run2 = run;
		while (run2 < 8 && same(smp[run2], smp[run])) run2++;
		if (run == 8) {
			if (comm != TC_NONE && !same(smp[0], mpi_seg(a, g, rank, comm))) {
				struct seg m = mpi_seg(a, g, rank, comm);
				put_seg(a, g, x0 + c, y, m, rank);
			} else {
				put_seg(a, g, x0 + c, y, smp[0], rank);
			}
			continue;
		}
		if (run2 == 8 && a->color && !g->ascii && smp[0].ch == ' ' && smp[run].ch == ' ') {
			grid_put(g, x0 + c, y, grid_left_eighth(g, run), smp[0].role, smp[run].role, TC_A_SOLID);
			continue;
		}
		if (comm != TC_NONE) {
			struct seg m = mpi_seg(a, g, rank, comm);
			put_seg(a, g, x0 + c, y, m, rank);
			continue;
		}
		/* the most frequent sample */
		int best = 0, bestn = 0;
		for (int k = 0; k < 8; k++) {
			int n = 0;
			for (int j = 0; j < 8; j++) n += same(smp[j], smp[k]);
			if (n > bestn) { bestn = n; best = k; }
		}
		put_seg(a, g, x0 + c, y, smp[best], rank);
	}
}

/* "compute ▒▒▒▒ by depth  MPI ■  lateness 0 ... max ▶send ..." */
static void draw_legend(struct tc_app *a, struct tc_grid *g, int x, int y, int w)
{
	int u = grid_text(g, x, y, w, TC_R_LABEL, "compute ");
	for (uint32_t d = 0; d < 4 && u < w; d++, u++) grid_putr(g, x + u, y, depth_glyph(a, g, d), depth_role(d));
	u += grid_text(g, x + u, y, w - u, TC_R_LABEL, " by depth  ");
	if (u + 6 <= w) {
		grid_putr(g, x + u++, y, a->color ? ' ' : grid_glyph(g, TC_G_OTHER_MPI), TC_R_MPI);
		u += grid_text(g, x + u, y, w - u, TC_R_LABEL, " MPI  ");
	}
	if (u < w) view_legend(a, g, x + u, y, w - u, app_sum(a)->vmax);
}

/* The critical path (docs/rootcause.md) over the rows on screen: each piece's
 * cells on the row of its rank in the path role (underlined, glyph kept).  The
 * pieces are in time order and do not overlap, so the window's are found by a
 * binary search: O(log path + pieces on screen). */
static void draw_path(struct tc_app *a, struct tc_grid *g, int x0, int y0, int rows, int cols, double dt)
{
	const struct tc_rootcause *rc = session_rootcause(a->sess);
	size_t lo = 0, hi = rc->npath;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rc->path[mid].end <= a->pv.t0) lo = mid + 1;
		else hi = mid;
	}
	for (size_t i = lo; i < rc->npath && rc->path[i].start < a->pv.t1; i++) {
		const struct tc_cp_piece *p = &rc->path[i];
		uint32_t v = app_vis_index(a, p->rank);
		if (v >= a->nvis || a->vis[v] != p->rank || v < a->pv.top || v >= a->pv.top + (uint32_t)rows) continue;
		int c0 = p->start > a->pv.t0 ? (int)((double)(p->start - a->pv.t0) / dt) : 0;
		int c1 = (int)((double)(p->end - a->pv.t0) / dt);
		for (int c = c0; c <= c1 && c < cols; c++) {
			struct tc_cell *cell = grid_at(g, x0 + c, y0 + (int)(v - a->pv.top));
			if (!cell || cell->fg == TC_R_CURSOR) continue;
			cell->fg = cell->bg = TC_R_PATH;
			cell->attr = 0;
		}
	}
}

/* Columns of the rank labels (and the gap after them). */
static int label_width(const struct tc_trace *t)
{
	int lw = 1;
	for (uint32_t v = t->nranks ? t->nranks - 1 : 0; v >= 10; v /= 10) lw++;
	return TC_MAX(lw + 1, 3);
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_trace *t = a->t;
	int lw = label_width(t);
	bool evline = r.h >= 12, legend = r.h >= 8;
	int rows = r.h - 1 - evline - legend, cols = r.w - lw;
	a->pv.cols = cols;
	a->pv.rows = rows;
	app_follow_time(a);   /* keep the cursor time and rank on screen */
	uint32_t vi = app_vis_index(a, a->rank);
	if (vi < a->pv.top) a->pv.top = vi;
	if (vi >= a->pv.top + (uint32_t)rows) a->pv.top = vi - (uint32_t)rows + 1;
	if (a->pv.top + (uint32_t)rows > a->nvis) a->pv.top = a->nvis > (uint32_t)rows ? a->nvis - (uint32_t)rows : 0;
	double dt = (double)(a->pv.t1 - a->pv.t0) / cols;
	int x0 = r.x + lw;

	/* axis: times every 14 columns; the cursor step's physical span underlined */
	grid_text(g, r.x, r.y, lw, TC_R_AXIS, "t");
	uint64_t sb, se;
	app_step_span(a, a->step, &sb, &se);
	/* enough decimals that neighbouring labels differ */
	double lab_s = dt * 14 / (double)t->res;
	int dec = lab_s >= 1 ? 1 : (int)ceil(-log10(lab_s)) + 1;
	if (dec > 9) dec = 9;
	for (int c = 0; c < cols; c++) {
		uint64_t lo = a->pv.t0 + (uint64_t)(c * dt), hi = a->pv.t0 + (uint64_t)((c + 1) * dt);
		if (c % 14 == 0 && c + 13 <= cols) {
			char lab[32];
			snprintf(lab, sizeof lab, "%.*fs", dec, tc_sec(t, lo));
			grid_text(g, x0 + c, r.y, 13, TC_R_AXIS, lab);
		}
		struct tc_cell *p = grid_at(g, x0 + c, r.y);
		/* a tick between two labels only, where the first one ends */
		if (p && p->ch == ' ' && c % 14 == 11 && c + 3 + 13 <= cols) p->ch = grid_glyph(g, TC_G_TICK);
		if (p && hi > sb && lo <= se) { p->fg = p->bg = TC_R_SELECTION; if (p->ch == ' ') p->ch = grid_glyph(g, TC_G_HLINE); }
	}
	for (int i = 0; i < rows; i++) {
		uint32_t v = a->pv.top + (uint32_t)i;
		if (v >= a->nvis) break;
		uint32_t rank = a->vis[v];
		enum tc_role lr = rank == a->rank ? TC_R_CURSOR : app_rank_selected(a, rank) ? TC_R_SELECTION : TC_R_LABEL;
		grid_printf(g, r.x, r.y + 1 + i, lw - 1, lr, "%*u", lw - 1, rank);
		draw_row(a, g, rank, x0, r.y + 1 + i, cols, dt);
		if (rank == a->rank && a->time >= a->pv.t0 && a->time < a->pv.t1) {
			struct tc_cell *p = grid_at(g, x0 + (int)((double)(a->time - a->pv.t0) / dt), r.y + 1 + i);
			if (p) {
				p->fg = p->bg = TC_R_CURSOR;
				p->attr = 0;
				if (p->ch == ' ' || p->ch < 0x20) p->ch = grid_glyph(g, TC_G_MARK);
			}
		}
	}
	if (a->pv.path && view_ready_rootcause(a->sess)) draw_path(a, g, x0, r.y + 1, rows, cols, dt);
	if (evline) app_event_line(a, g, r.y + r.h - 1 - legend);
	if (legend) draw_legend(a, g, r.x, r.y + r.h - 1, r.w);
}

static void toggle_path(struct tc_app *a)
{
	a->pv.path = !a->pv.path;
	if (!a->pv.path) {
		app_message(a, false, "critical path off");
		return;
	}
	if (!app_data_ready(a, view_ready_rootcause, view_prepare_rootcause, "root causes")) {
		/* computed off the UI thread; drawn once it is there */
		app_message(a, false, "computing the critical path \u2026 drawn when ready (c: off)");
		return;
	}
	const struct tc_rootcause *rc = session_rootcause(a->sess);
	char len[32];
	fmt_seconds(len, sizeof len, rc->path_len);
	app_message(a, false, "critical path %s, %zu pieces: compute %.0f%%, MPI own %.0f%% intra / %.0f%% inter, wait %.0f%% (c: off)",
		    len, rc->npath, 100 * rc->share[TC_CP_COMPUTE], 100 * rc->share[TC_CP_MPI_INTRA],
		    100 * rc->share[TC_CP_MPI_INTER], 100 * rc->share[TC_CP_WAIT]);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_trace *t = a->t;
	uint32_t vi = app_vis_index(a, a->rank);
	uint32_t page = (uint32_t)(a->pv.rows > 1 ? a->pv.rows - 1 : 1);
	uint64_t w = a->pv.t1 - a->pv.t0;
	uint64_t col = a->pv.cols > 0 ? w / (uint64_t)a->pv.cols : 1;
	if (!col) col = 1;
	switch (act) {
	case ACT_DOWN: if (vi + 1 < a->nvis) vi++; break;
	case ACT_UP: if (vi) vi--; break;
	case ACT_PGDN: vi = vi + page < a->nvis ? vi + page : (a->nvis ? a->nvis - 1 : 0); break;
	case ACT_PGUP: vi = vi >= page ? vi - page : 0; break;
	case ACT_TOP: vi = 0; break;
	case ACT_BOTTOM: vi = a->nvis ? a->nvis - 1 : 0; break;
	case ACT_LEFT:
		app_set_time(a, a->time > t->tmin + col ? a->time - col : t->tmin);
		if (a->time < a->pv.t0) { a->pv.t0 = a->pv.t0 > col ? a->pv.t0 - col : 0; a->pv.t1 = a->pv.t0 + w; }
		return true;
	case ACT_RIGHT:
		app_set_time(a, a->time + col);
		if (a->time >= a->pv.t1) { a->pv.t0 += col; a->pv.t1 = a->pv.t0 + w; }
		return true;
	case ACT_FIRST: app_set_time(a, t->tmin); return true;
	case ACT_LAST: app_set_time(a, t->tmax); return true;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT:
		app_zoom_time(a, act == ACT_ZOOM_IN);
		return true;
	case ACT_ZOOM_FIT:
		app_fit_time(a);
		return true;
	case ACT_PATH:
		toggle_path(a);
		return true;
	default: return false;
	}
	if (a->nvis) a->rank = a->vis[vi];
	app_set_time(a, a->time);
	return true;
}

/* A click on a row picks its rank, on a cell also the time at the middle of the column. */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	int row = y - (r.y + 1), col = x - (r.x + label_width(a->t));
	if (!a->nvis || a->pv.cols < 1 || row >= a->pv.rows) return false;
	if (row >= 0 && a->pv.top + (uint32_t)row < a->nvis) a->rank = a->vis[a->pv.top + (uint32_t)row];
	double dt = (double)(a->pv.t1 - a->pv.t0) / a->pv.cols;
	if (col >= 0 && col < a->pv.cols) app_set_time(a, a->pv.t0 + (uint64_t)((col + 0.5) * dt));
	else app_set_time(a, a->time);   /* the step follows the new rank */
	return true;
}

static const char *const help[] = {
	"Rows are ranks, columns wall-clock time. Grey shades: non-MPI calls by",
	"depth (deeper is lighter). MPI calls that communicate are coloured by the",
	"metric of their event and show the send/receive/collective glyph; other",
	"MPI calls use the mpi colour. The top line marks the physical span of the",
	"step under the cursor; moving in time moves the step and back.",
	"c shows the critical path (underlined, in the path colour): the chain of",
	"computation and MPI time that set the run's length (docs/rootcause.md).",
	NULL,
};

const struct view view_physical = {
	.name = "physical", .id = TC_V_PHYSICAL, .min_w = 16, .min_h = 3, .draw = draw, .key = key, .help = help,
	.filtered = true, .click = click,
};
