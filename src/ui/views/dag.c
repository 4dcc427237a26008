/* dag.c — the dependency DAG of one latency region and time window
 * (PCLVis §5.2–5.3, analysis in src/analysis/dag.c) in character cells.
 * One row per rank of the region; left, its communication state (the
 * CS-glyph as a row: compute node, load balance LB, messages in and out as
 * count, mean size and mean transfer time, mean latency L); right, the DAG
 * laid out left to right by level, one 3-cell column per level: the rank's
 * node at that level (◀ receives, ▶ sends, ◆ both, then its edge count,
 * coloured by the largest L coming in), `─` joining the rank's nodes in
 * program order.  The senders and receivers of the node under the cursor are
 * marked; Enter unfolds a rank into one line per node listing its edges.
 * The DAG is built once per (region, window) and cached here; a frame reads
 * only the visible rows and levels (binary search per cell). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "analysis_verdict.h"
#include "ui.h"

#define DAG_MAX_MSGS 2000   /* messages per DAG: the first ones by receive completion */
#define L_SCALE 4.0         /* colour map spans L 0..4 (2 = high latency sits in the middle) */
#define LEVEL_W 3           /* cells per level column: glyph, count, connector */

struct tc_dagview {
	uint32_t region, window;         /* wanted (TC_NONE: all ranks / the whole run) */
	bool built;
	uint32_t built_region, built_window;
	struct tc_dag *dag;
	uint32_t *rfirst;                /* per DAG rank index: offsets into rnodes (nranks + 1) */
	uint32_t *rnodes;                /* node ids grouped by DAG rank index, in level order */
	uint32_t cur, level, top, left;  /* cursor rank index and level; first rank row, first level shown */
	int page;                        /* rank rows shown in the last frame */
	uint8_t *unfolded;               /* per trace rank */
	double lbmax, tmax, bmax;        /* scales of the state-row bars */
};

static void free_state(struct tc_app *a)
{
	struct tc_dagview *s = a->dagv;
	if (!s) return;
	tc_dag_free(s->dag);
	free(s->rfirst);
	free(s->rnodes);
	free(s->unfolded);
	free(s);
	a->dagv = NULL;
}

/* Index of rank in the DAG's sorted rank list, or where it would go. */
static uint32_t rank_index(const struct tc_dag *d, uint32_t rank)
{
	uint32_t lo = 0, hi = d->nranks;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->ranks[mid].rank < rank) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/* The node of DAG rank index ri at level lv, TC_NONE if none. */
static uint32_t node_at(const struct tc_dagview *s, uint32_t ri, uint32_t lv)
{
	const struct tc_dag *d = s->dag;
	uint32_t lo = s->rfirst[ri], hi = s->rfirst[ri + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->nodes[s->rnodes[mid]].level < lv) lo = mid + 1;
		else hi = mid;
	}
	return lo < s->rfirst[ri + 1] && d->nodes[s->rnodes[lo]].level == lv ? s->rnodes[lo] : TC_NONE;
}

static struct tc_dagview *state(struct tc_app *a)
{
	if (a->dagv) return a->dagv;
	struct tc_dagview *s = xcalloc(1, sizeof *s);
	const struct tc_verdicts *V = session_verdicts(a->sess);
	const struct tc_latency *lat = session_latency(a->sess);
	s->region = V->hot_region;
	s->window = V->hot_window;
	if (s->region == TC_NONE || s->window == TC_NONE) {   /* no hot spot: all ranks, the first busy window */
		s->region = TC_NONE;
		s->window = 0;
		for (uint32_t w = 0; w < lat->nwindows; w++)
			if (lat->win_all[w].n) { s->window = w; break; }
	}
	if (!lat->nwindows) s->window = TC_NONE;
	s->unfolded = xcalloc((size_t)a->t->nranks + 1, 1);
	s->cur = TC_NONE;
	a->dagv = s;
	return s;
}

/* (Re)build the DAG when the region or window changed; the cursor stays on its rank. */
static void ensure(struct tc_app *a, struct tc_dagview *s)
{
	if (s->built && s->built_region == s->region && s->built_window == s->window) return;
	uint32_t keep = s->dag && s->cur < s->dag->nranks ? s->dag->ranks[s->cur].rank : a->rank;
	tc_dag_free(s->dag);
	free(s->rfirst);
	free(s->rnodes);
	const struct tc_latency *lat = session_latency(a->sess);
	struct tc_dag *d = s->dag = tc_dag_region(a->t, lat, s->region, s->window, DAG_MAX_MSGS);
	s->built = true;
	s->built_region = s->region;
	s->built_window = s->window;
	/* nodes grouped by rank index; creation order within a rank is program order, so levels rise */
	s->rfirst = xcalloc((size_t)d->nranks + 1, sizeof *s->rfirst);
	s->rnodes = xmalloc(((size_t)d->nnodes + 1) * sizeof *s->rnodes);
	uint32_t *ri = xmalloc(((size_t)d->nnodes + 1) * sizeof *ri);
	for (uint32_t v = 0; v < d->nnodes; v++) {
		ri[v] = rank_index(d, d->nodes[v].rank);
		if (ri[v] < d->nranks) s->rfirst[ri[v] + 1]++;
	}
	for (uint32_t i = 0; i < d->nranks; i++) s->rfirst[i + 1] += s->rfirst[i];
	uint32_t *fill = xmalloc(((size_t)d->nranks + 1) * sizeof *fill);
	memcpy(fill, s->rfirst, ((size_t)d->nranks + 1) * sizeof *fill);
	for (uint32_t v = 0; v < d->nnodes; v++)
		if (ri[v] < d->nranks) s->rnodes[fill[ri[v]]++] = v;
	free(fill);
	free(ri);
	s->lbmax = 1;
	s->tmax = s->bmax = 0;
	for (uint32_t i = 0; i < d->nranks; i++) {
		const struct tc_dag_rank *x = &d->ranks[i];
		if (x->lb > s->lbmax) s->lbmax = x->lb;
		if (x->msgs_in && x->transfer_in > s->tmax) s->tmax = x->transfer_in;
		if (x->msgs_out && x->transfer_out > s->tmax) s->tmax = x->transfer_out;
		if (x->msgs_in && (double)x->bytes_in / x->msgs_in > s->bmax) s->bmax = (double)x->bytes_in / x->msgs_in;
		if (x->msgs_out && (double)x->bytes_out / x->msgs_out > s->bmax) s->bmax = (double)x->bytes_out / x->msgs_out;
	}
	s->cur = d->nranks ? rank_index(d, keep) : 0;
	if (s->cur >= d->nranks) s->cur = d->nranks ? d->nranks - 1 : 0;
	if (d->nlevels && s->level >= d->nlevels) s->level = d->nlevels - 1;
	if (!d->nlevels) s->level = 0;
	s->top = s->left = 0;
}

/* --- drawing helpers ------------------------------------------------------------ */
static void bar(struct tc_grid *g, int x, int y, int cells, double frac, enum tc_role fg)
{
	if (!(frac > 0)) frac = 0;
	if (frac > 1) frac = 1;
	int e = (int)(frac * cells * 8 + 0.5);
	if (frac > 0 && e == 0) e = 1;
	for (int i = 0; i < cells; i++, e -= 8) {
		uint32_t ch = grid_left_eighth(g, e);
		if (ch == ' ') grid_putr(g, x + i, y, ' ', TC_R_NORMAL);
		else grid_put(g, x + i, y, ch, fg, TC_R_NORMAL, TC_A_SOLID);
	}
}

static void count3(char *b, size_t n, uint32_t v)
{
	if (v < 1000) snprintf(b, n, "%3u", v);
	else if (v < 100000) snprintf(b, n, "%2uk", v / 1000);
	else snprintf(b, n, "%s", "1M+");
}

static void lval(char *b, size_t n, double l)
{
	if (isnan(l)) snprintf(b, n, "%4s", "-");
	else if (l < 99.5) snprintf(b, n, "%4.1f", l);
	else snprintf(b, n, "%4.0f", l);
}

static int digits(uint32_t v)
{
	int d = 1;
	while (v >= 10) { v /= 10; d++; }
	return d;
}

/* One line about node v: level, receives from, sends to (rank, * inter-node, L), max L, time. */
static void node_text(struct tc_app *a, const struct tc_dag *d, uint32_t v, struct strbuf *b,
		      size_t maxlen)
{
	const struct tc_dag_node *n = &d->nodes[v];
	sb_printf(b, "L%u", n->level);
	for (int dir = 0; dir < 2; dir++) {
		uint32_t cnt = dir ? n->nout : n->nin;
		if (!cnt) continue;
		sb_printf(b, "  %s %u %s", dir ? "send" : "recv", cnt, dir ? "to" : "from");
		for (uint32_t k = 0; k < cnt; k++) {
			if (b->len > maxlen) { sb_add(b, " ..."); break; }
			const struct tc_dag_edge *e = &d->edges[dir ? d->out_edges[n->first_out + k] : d->in_edges[n->first_in + k]];
			char l[16];
			lval(l, sizeof l, e->l);
			sb_printf(b, " %u%s(%s)", d->nodes[dir ? e->to : e->from].rank, e->inter ? "*" : "", l + strspn(l, " "));
		}
	}
	if (!n->nin && !n->nout) sb_printf(b, "  %u recv %u send outside the DAG", n->nrecv, n->nsend);
	char t0[32];
	fmt_seconds(t0, sizeof t0, tc_sec(a->t, n->first));
	sb_printf(b, "  at %s", t0);
}

/* Layout of the state columns: full (node name, numbers) or compact. */
struct cols { int rw, node, lb, lbv, cnt, tb, lw, dagx; bool full; };

static struct cols layout(const struct tc_dag *d, int w)
{
	struct cols c = { 0 };
	uint32_t maxr = d->nranks ? d->ranks[d->nranks - 1].rank : 0;
	c.rw = digits(maxr) < 4 ? 4 : digits(maxr);
	c.full = w >= 1 + c.rw + 45 + 4 * LEVEL_W;
	c.node = c.full ? 8 : 0;
	c.lb = c.full ? 4 : 3;
	c.lbv = c.full ? 4 : 0;
	c.cnt = c.full ? 3 : 0;
	c.tb = c.full ? 3 : 2;
	c.lw = 4;
	/* mark rank _ [node _] lb [lbv] _ in(glyph cnt _ size tb) _ out(...) _ L │ */
	c.dagx = 1 + c.rw + 1 + (c.node ? c.node + 1 : 0) + c.lb + c.lbv + 1 + 2 * (1 + c.cnt + 2 + c.tb + 1) + c.lw + 1;
	return c;
}

static void draw_state(struct tc_app *a, struct tc_dagview *s, struct tc_grid *g, const struct cols *c, int x, int y,
		       uint32_t ri)
{
	const struct tc_dag *d = s->dag;
	const struct tc_dag_rank *R = &d->ranks[ri];
	const struct tc_trace *t = a->t;
	bool cur = ri == s->cur;
	grid_put(g, x, y, s->unfolded[R->rank] ? '-' : '+', TC_R_AXIS, TC_R_NORMAL, 0);
	x++;
	grid_printf(g, x, y, c->rw, cur ? TC_R_CURSOR : TC_R_LABEL, "%*u", c->rw, R->rank);
	x += c->rw + 1;
	if (c->node) {
		grid_text(g, x, y, c->node, TC_R_LABEL, R->node < t->nnodes ? t->nodes[R->node].name : "?");
		x += c->node + 1;
	}
	bar(g, x, y, c->lb, R->lb / s->lbmax, TC_R_BAR);
	x += c->lb;
	if (c->lbv) {
		grid_printf(g, x, y, c->lbv, TC_R_NORMAL, "%4.1f", R->lb);
		x += c->lbv;
	}
	x++;
	enum tc_role lr = isnan(R->mean_l) ? TC_R_MAP0 : app_map_role(R->mean_l, L_SCALE);
	for (int dir = 0; dir < 2; dir++) {
		uint32_t n = dir ? R->msgs_out : R->msgs_in;
		uint64_t bytes = dir ? R->bytes_out : R->bytes_in;
		double tr = dir ? R->transfer_out : R->transfer_in;
		grid_put(g, x, y, grid_glyph(g, dir ? TC_G_SEND : TC_G_RECV), n ? TC_R_LABEL : TC_R_INACTIVE, TC_R_NORMAL, 0);
		x++;
		/* mean size: the height of one cell; mean transfer time: bar length, coloured by the rank's L */
		int he = n && s->bmax > 0 ? (int)((double)bytes / n / s->bmax * 8 + 0.5) : 0;
		if (n && he == 0) he = 1;
		uint32_t hc = grid_lower_eighth(g, he);
		if (hc == ' ') grid_putr(g, x, y, ' ', TC_R_NORMAL);
		else grid_put(g, x, y, hc, TC_R_BAR, TC_R_NORMAL, TC_A_SOLID);
		x++;
		if (c->cnt) {
			char cb[8];
			count3(cb, sizeof cb, n);
			grid_text(g, x, y, c->cnt, n ? TC_R_NORMAL : TC_R_INACTIVE, cb);
			x += c->cnt;
		}
		x++;
		bar(g, x, y, c->tb, n && s->tmax > 0 ? tr / s->tmax : 0, lr);
		x += c->tb + 1;
	}
	char lb[16];
	lval(lb, sizeof lb, R->mean_l);
	grid_text(g, x, y, c->lw, isnan(R->mean_l) ? TC_R_INACTIVE : lr, lb);
	x += c->lw;
	grid_put(g, x, y, grid_glyph(g, TC_G_VLINE), TC_R_AXIS, TC_R_NORMAL, 0);
}

/* The rank's level cells from level s->left on, ncols columns. */
static void draw_levels(struct tc_app *a, struct tc_dagview *s, struct tc_grid *g, int x0, int y, int ncols, uint32_t ri)
{
	const struct tc_dag *d = s->dag;
	uint32_t f = s->rfirst[ri], l = s->rfirst[ri + 1];
	if (f == l) return;
	uint32_t first_lv = d->nodes[s->rnodes[f]].level, last_lv = d->nodes[s->rnodes[l - 1]].level;
	for (int c = 0; c < ncols; c++) {
		uint32_t lv = s->left + (uint32_t)c;
		if (lv > last_lv) break;
		int x = x0 + c * LEVEL_W;
		uint32_t v = node_at(s, ri, lv);
		uint32_t hl = grid_glyph(g, TC_G_HLINE);
		if (v == TC_NONE) {   /* between two nodes of the rank: the program-order line */
			if (lv > first_lv)
				for (int k = 0; k < LEVEL_W; k++) grid_put(g, x + k, y, hl, TC_R_AXIS, TC_R_NORMAL, 0);
			continue;
		}
		const struct tc_dag_node *n = &d->nodes[v];
		enum tc_glyph gl = n->nrecv && n->nsend ? TC_G_SENDRECV : n->nsend ? TC_G_SEND : TC_G_RECV;
		uint32_t e = n->nin + n->nout;
		bool inter = false;
		for (uint32_t k = 0; k < n->nin && !inter; k++) inter = d->edges[d->in_edges[n->first_in + k]].inter;
		for (uint32_t k = 0; k < n->nout && !inter; k++) inter = d->edges[d->out_edges[n->first_out + k]].inter;
		enum tc_role role = isnan(n->max_l) ? TC_R_MAP0 : app_map_role(n->max_l, L_SCALE);
		grid_put(g, x, y, grid_glyph(g, gl), role, role, 0);
		grid_put(g, x + 1, y, e > 9 ? '+' : '0' + e, role, role, inter ? TC_A_UNDERLINE : 0);
		if (lv < last_lv) grid_put(g, x + 2, y, hl, TC_R_AXIS, TC_R_NORMAL, 0);
	}
}

/* Mark a node's cell (if visible) with role r. */
static void mark(struct tc_dagview *s, struct tc_grid *g, const uint32_t *rowy, int nrows, int x0, int ncols,
		 uint32_t v, enum tc_role r)
{
	const struct tc_dag *d = s->dag;
	const struct tc_dag_node *n = &d->nodes[v];
	if (n->level < s->left || n->level >= s->left + (uint32_t)ncols) return;
	uint32_t ri = rank_index(d, n->rank);
	if (ri < s->top || ri - s->top >= (uint32_t)nrows || rowy[ri - s->top] == UINT32_MAX) return;
	int x = x0 + (int)(n->level - s->left) * LEVEL_W;
	for (int k = 0; k < 2; k++) {
		struct tc_cell *p = grid_at(g, x + k, (int)rowy[ri - s->top]);
		if (p) { p->fg = p->bg = r; p->attr |= TC_A_UNDERLINE; }
	}
}

/* Rows a rank takes: its state row and, unfolded, one per node. */
/* Screen rows of DAG rank ri: none when the filter hides it. */
static uint32_t rows_of(const struct tc_app *a, const struct tc_dagview *s, uint32_t ri)
{
	uint32_t rank = s->dag->ranks[ri].rank;
	if (!app_rank_visible(a, rank)) return 0;
	return 1 + (s->unfolded[rank] ? s->rfirst[ri + 1] - s->rfirst[ri] : 0);
}

/* The cursor onto a visible rank: the next one in direction dir (+1 / -1),
 * else the nearest the other way; false when the filter hides every rank. */
static bool cursor_visible(const struct tc_app *a, struct tc_dagview *s, int dir)
{
	const struct tc_dag *d = s->dag;
	for (int pass = 0; pass < 2; pass++, dir = -dir)
		for (int64_t i = s->cur; i >= 0 && i < (int64_t)d->nranks; i += dir)
			if (app_rank_visible(a, d->ranks[i].rank)) {
				s->cur = (uint32_t)i;
				return true;
			}
	return false;
}

/* The header: what the DAG covers, the start with as many decimals as the
 * window's length needs (a 100 us window at 1.55 s is "1.5523 s", not
 * "1.55 s-1.55 s"), then the length, messages, nodes and levels. */
static void draw_header(struct tc_app *a, const struct tc_dagview *s, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_dag *d = s->dag;
	const struct tc_trace *t = a->t;
	struct strbuf b;
	sb_init(&b);
	if (d->region == TC_NONE) sb_printf(&b, "all %u ranks", t->nranks);
	else sb_printf(&b, "region %u (%u ranks)", d->region, d->nranks);
	if (a->nvis < t->nranks) sb_add(&b, ", rows: ranks of f:");
	if (s->window != TC_NONE) sb_printf(&b, " win %u/%u", s->window, session_latency(a->sess)->nwindows);
	char t0[32], t1[32];
	double len = tc_dur(t, d->t1 > d->t0 ? d->t1 - d->t0 : 0);
	int dec = len > 0 ? (int)ceil(-log10(len)) + 1 : 3;
	snprintf(t0, sizeof t0, "%.*f s", TC_MIN(TC_MAX(dec, 2), 9), tc_sec(t, d->t0));
	t1[0] = '+';
	fmt_seconds(t1 + 1, sizeof t1 - 1, len);
	sb_printf(&b, " %s %s: %u msg%s%s %u nodes %u levels", t0, t1, d->nmsgs, d->nmsgs == 1 ? "" : "s",
		  d->truncated ? " (first)" : "", d->nnodes, d->nlevels);
	if (!isnan(d->mean_l)) sb_printf(&b, " L %.2f", d->mean_l);
	grid_text_elide(g, r.x, r.y, r.w, TC_R_HEADING, b.s);
	sb_free(&b);
}

/* The column heads: the state columns, then the level numbers from s->left
 * (the cursor level kept in view). */
static void draw_heads(struct tc_dagview *s, struct tc_grid *g, const struct cols *c, struct tc_rect r, int dx, int ncols)
{
	const struct tc_dag *d = s->dag;
	int hx = r.x + 1 + c->rw - 4;
	grid_text(g, hx, r.y + 1, 4, TC_R_AXIS, "rank");
	hx = r.x + 1 + c->rw + 1;
	if (c->node) { grid_text(g, hx, r.y + 1, c->node, TC_R_AXIS, "node"); hx += c->node + 1; }
	grid_text(g, hx, r.y + 1, c->lb + c->lbv, TC_R_AXIS, "LB");
	hx += c->lb + c->lbv + 1;
	grid_text(g, hx, r.y + 1, 3 + c->cnt + c->tb, TC_R_AXIS, c->full ? "in    n t" : "in");
	hx += 4 + c->cnt + c->tb;
	grid_text(g, hx, r.y + 1, 3 + c->cnt + c->tb, TC_R_AXIS, c->full ? "out   n t" : "out");
	hx += 4 + c->cnt + c->tb;
	grid_text(g, hx, r.y + 1, c->lw, TC_R_AXIS, "   L");
	if (d->nlevels && s->level >= d->nlevels) s->level = d->nlevels - 1;
	if (ncols > 0) {
		if (s->level < s->left) s->left = s->level;
		if (s->level >= s->left + (uint32_t)ncols) s->left = s->level - (uint32_t)ncols + 1;
	}
	int lastend = -1;
	for (int k = 0; k < ncols; k++) {
		uint32_t lv = s->left + (uint32_t)k;
		if (lv >= d->nlevels) break;
		int x = dx + k * LEVEL_W;
		if (x <= lastend) continue;
		char lab[16];
		snprintf(lab, sizeof lab, "%u", lv);
		if (x + (int)strlen(lab) > r.x + r.w) break;
		grid_text(g, x, r.y + 1, r.w, lv == s->level ? TC_R_HELP_KEY : TC_R_AXIS, lab);
		lastend = x + (int)strlen(lab);
	}
}

/* Scroll so that the cursor rank and (if they fit) its unfolded lines stay
 * in the rows; false (and said) when no rank of the DAG is to be drawn. */
static bool scroll_rows(struct tc_app *a, struct tc_dagview *s, struct tc_grid *g, struct tc_rect r, int y0, int rows)
{
	const struct tc_dag *d = s->dag;
	if (!d->nranks || !d->nmsgs) {
		char m[160], in[48] = "";
		if (d->region != TC_NONE) snprintf(in, sizeof in, "inside region %u ", d->region);
		snprintf(m, sizeof m, "no messages %sin this window ([ ] other windows, r other regions)", in);
		grid_text(g, r.x, y0, r.w, TC_R_LABEL, m);
	}
	bool any = d->nranks && cursor_visible(a, s, 1);
	if (d->nranks && !any) grid_text(g, r.x, y0, r.w, TC_R_LABEL, "no rank of the filter in this DAG (r: other regions)");
	if (!any) return false;
	if (s->cur < s->top) s->top = s->cur;
	if (s->cur - s->top > (uint32_t)rows) s->top = s->cur - (uint32_t)rows;
	for (;;) {
		uint32_t used = 0;
		for (uint32_t i = s->top; i < s->cur; i++) used += rows_of(a, s, i);
		uint32_t need = TC_MIN(rows_of(a, s, s->cur), (uint32_t)rows);
		if (used + need <= (uint32_t)rows || s->top >= s->cur) break;
		s->top++;
	}
	return true;
}

/* A rank's unfolded lines: its nodes in the window, one per line. */
static int draw_unfolded(struct tc_app *a, struct tc_dagview *s, struct tc_grid *g, const struct cols *c, struct tc_rect r,
			 uint32_t ri, int y0, int y, int rows)
{
	const struct tc_dag *d = s->dag;
	struct strbuf b;
	sb_init(&b);
	for (uint32_t k = s->rfirst[ri]; k < s->rfirst[ri + 1] && y < rows; k++, y++) {
		b.len = 0;
		if (b.s) b.s[0] = 0;
		node_text(a, d, s->rnodes[k], &b, (size_t)r.w * 4);
		bool on = ri == s->cur && d->nodes[s->rnodes[k]].level == s->level;
		grid_text(g, r.x + 2 + c->rw, y0 + y, r.w - 2 - c->rw, on ? TC_R_SELECTION : TC_R_NORMAL, b.s ? b.s : "");
	}
	if (s->rfirst[ri] == s->rfirst[ri + 1] && y < rows) {
		grid_text(g, r.x + 2 + c->rw, y0 + y, r.w - 2 - c->rw, TC_R_LABEL, "no node in this window");
		y++;
	}
	sb_free(&b);
	return y;
}

/* The cursor node's senders and receivers marked, then the cursor cell. */
static void draw_cursor(struct tc_dagview *s, struct tc_grid *g, const uint32_t *rowy, int rows, int dx, int ncols,
			uint32_t cv)
{
	const struct tc_dag *d = s->dag;
	if (cv != TC_NONE) {
		const struct tc_dag_node *n = &d->nodes[cv];
		for (uint32_t k = 0; k < n->nin && k < 4096; k++)
			mark(s, g, rowy, rows, dx, ncols, d->edges[d->in_edges[n->first_in + k]].from, TC_R_SEND);
		for (uint32_t k = 0; k < n->nout && k < 4096; k++)
			mark(s, g, rowy, rows, dx, ncols, d->edges[d->out_edges[n->first_out + k]].to, TC_R_RECV);
	}
	if (!(d->nranks && d->nmsgs && s->cur >= s->top && s->cur - s->top < (uint32_t)rows &&
	      rowy[s->cur - s->top] != UINT32_MAX && s->level >= s->left && s->level < s->left + (uint32_t)ncols))
		return;
	int x = dx + (int)(s->level - s->left) * LEVEL_W;
	int yy = (int)rowy[s->cur - s->top];
	for (int k = 0; k < 2; k++) {
		struct tc_cell *p = grid_at(g, x + k, yy);
		if (!p) continue;
		if (cv == TC_NONE) p->ch = k ? ' ' : grid_glyph(g, TC_G_MARK);
		p->fg = p->bg = TC_R_CURSOR;
	}
}

/* The detail line: the node under the cursor. */
static void draw_detail(struct tc_app *a, const struct tc_dagview *s, struct tc_grid *g, struct tc_rect r, uint32_t cv)
{
	const struct tc_dag *d = s->dag;
	const struct tc_trace *t = a->t;
	struct strbuf b;
	sb_init(&b);
	if (d->nranks && d->nmsgs) {
		const struct tc_dag_rank *R = &d->ranks[s->cur];
		sb_printf(&b, "rank %u on %s: ", R->rank, R->node < t->nnodes ? t->nodes[R->node].name : "?");
		if (cv != TC_NONE) node_text(a, d, cv, &b, (size_t)r.w * 2);
		else sb_printf(&b, "no node at level %u (h/l: its nodes)", s->level);
	}
	int ly = r.y + r.h - 1;
	grid_fill(g, r.x, ly, r.w, 1, ' ', TC_R_STATUS);
	grid_text(g, r.x, ly, r.w, TC_R_STATUS, b.s ? b.s : "");
	sb_free(&b);
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	struct tc_dagview *s = state(a);
	ensure(a, s);
	const struct tc_dag *d = s->dag;
	draw_header(a, s, g, r);
	struct cols c = layout(d, r.w);
	int ncols = (r.w - c.dagx) / LEVEL_W;
	if (ncols < 1) ncols = 0;
	int dx = r.x + c.dagx;
	draw_heads(s, g, &c, r, dx, ncols);
	int rows = r.h - 3;   /* header, heads, detail line */
	int y0 = r.y + 2;
	bool any = scroll_rows(a, s, g, r, y0, rows);
	s->page = 0;
	uint32_t *rowy = xmalloc(((size_t)rows + 1) * sizeof *rowy);   /* screen row of rank top+i */
	for (int i = 0; i <= rows; i++) rowy[i] = UINT32_MAX;
	int y = 0;
	for (uint32_t ri = s->top; any && ri < d->nranks && d->nmsgs && y < rows; ri++) {
		if (!rows_of(a, s, ri)) continue;   /* filtered out */
		rowy[ri - s->top] = (uint32_t)(y0 + y);
		draw_state(a, s, g, &c, r.x, y0 + y, ri);
		draw_levels(a, s, g, dx, y0 + y, ncols, ri);
		y++;
		s->page++;
		if (s->unfolded[d->ranks[ri].rank]) y = draw_unfolded(a, s, g, &c, r, ri, y0, y, rows);
	}
	uint32_t cv = d->nranks && d->nmsgs ? node_at(s, s->cur, s->level) : TC_NONE;
	draw_cursor(s, g, rowy, rows, dx, ncols, cv);
	free(rowy);
	draw_detail(a, s, g, r, cv);
}

/* The shared cursor follows: rank, and the time of the node (or of the rank's nearest node). */
static void sync_cursor(struct tc_app *a, struct tc_dagview *s)
{
	const struct tc_dag *d = s->dag;
	if (!d->nranks) return;
	app_set_rank(a, d->ranks[s->cur].rank);
	uint32_t f = s->rfirst[s->cur], l = s->rfirst[s->cur + 1];
	if (f == l) return;
	uint32_t v = node_at(s, s->cur, s->level), best = s->rnodes[f];
	if (v == TC_NONE)
		for (uint32_t k = f; k < l; k++)
			if (d->nodes[s->rnodes[k]].level <= s->level) best = s->rnodes[k];
	app_set_time(a, d->nodes[v != TC_NONE ? v : best].first);
}

uint32_t view_next_region(const struct tc_latency *lat, uint32_t g)
{
	for (uint32_t i = g == TC_NONE ? 0 : g + 1; i < lat->nregions; i++)
		if (lat->regions[i].nranks >= 2) return i;
	return TC_NONE;
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	struct tc_dagview *s = state(a);
	ensure(a, s);
	const struct tc_dag *d = s->dag;
	const struct tc_latency *lat = session_latency(a->sess);
	uint32_t n = d->nranks, page = s->page > 1 ? (uint32_t)s->page - 1 : 1;
	if (app_move_index(&s->cur, n, page, act)) {
		bool up = act == ACT_UP || act == ACT_PGUP || act == ACT_TOP;
		cursor_visible(a, s, up ? -1 : 1);
		sync_cursor(a, s);
		return true;
	}
	switch (act) {
	case ACT_LEFT:
	case ACT_RIGHT: {
		if (!n || !d->nlevels) return true;
		uint32_t f = s->rfirst[s->cur], l = s->rfirst[s->cur + 1], to = s->level;
		bool found = false;
		for (uint32_t i = f; i < l; i++) {   /* the rank's previous / next node */
			uint32_t lv = d->nodes[s->rnodes[i]].level;
			if (act == ACT_LEFT && lv < s->level) { to = lv; found = true; }
			if (act == ACT_RIGHT && lv > s->level) { to = lv; found = true; break; }
		}
		if (!found) {   /* no node that way: one level */
			if (act == ACT_LEFT && s->level) to = s->level - 1;
			if (act == ACT_RIGHT && s->level + 1 < d->nlevels) to = s->level + 1;
		}
		s->level = to;
		break;
	}
	case ACT_FIRST: s->level = 0; break;
	case ACT_LAST: s->level = d->nlevels ? d->nlevels - 1 : 0; break;
	case ACT_ENTER:
		if (!n) return true;
		s->unfolded[d->ranks[s->cur].rank] ^= 1;
		app_message(a, false, "rank %u %s", d->ranks[s->cur].rank,
			    s->unfolded[d->ranks[s->cur].rank] ? "unfolded: one line per node" : "folded");
		return true;
	case ACT_WIN_PREV:
	case ACT_WIN_NEXT:
		if (s->window == TC_NONE) { app_message(a, true, "no time windows in this trace"); return true; }
		if (act == ACT_WIN_PREV && s->window > 0) s->window--;
		else if (act == ACT_WIN_NEXT && s->window + 1 < lat->nwindows) s->window++;
		else { app_message(a, false, "no %s window", act == ACT_WIN_PREV ? "earlier" : "later"); return true; }
		ensure(a, s);
		app_message(a, false, "window %u/%u: %u messages", s->window, lat->nwindows, s->dag->nmsgs);
		break;
	case ACT_SCOPE:
		s->region = view_next_region(lat, s->region);
		ensure(a, s);
		if (s->region == TC_NONE) app_message(a, false, "all ranks: %u messages", s->dag->nmsgs);
		else app_message(a, false, "region %u: %u ranks, %u messages", s->region, s->dag->nranks, s->dag->nmsgs);
		break;
	default:
		return false;
	}
	sync_cursor(a, s);
	return true;
}

static const char *const help[] = {
	"The dependency DAG of one region and time window (PCLVis 5.2-5.3): one row per",
	"rank, the DAG's levels (longest path from a source) from left to right.",
	"A cell is a node of the rank: receives (< or the left triangle), sends (> or the",
	"right triangle), both (x or a diamond), then its edge count (+ above 9), coloured",
	"by the largest latency L coming in (underlined: an edge crosses nodes); a line",
	"joins the rank's nodes in program order. The cursor node's senders (send colour)",
	"and receivers (receive colour) are marked; the bottom line lists its edges:",
	"rank, * when inter-node, (L).",
	"Left of the DAG the rank's state (the CS-glyph): compute node, load balance",
	"LB = |C - mean| / AD (Eq. 10) as bar and number, messages in and out: count,",
	"mean size (bar height), mean transfer time (bar length, coloured by L), and",
	"the mean L of its messages. Colours span L 0..4; numbers read without colour.",
	"Enter unfolds a rank into one line per node with its edges; Enter again folds.",
	"Starts at the most latent region and window; [ ] other windows, r other regions.",
	NULL,
};

const struct view view_dag = {
	.name = "dag", .id = TC_V_DAG, .min_w = 40, .min_h = 5, .draw = draw, .key = key, .help = help,
	.free_state = free_state, .filtered = true,
	.ready = view_ready_verdicts, .prepare = view_prepare_verdicts,
};
