/* matrix.c — the rank × rank communication matrix (issue 15): rows are
 * senders, columns receivers, a cell's shade the log of its bytes (b:
 * messages).  When the ranks exceed the rows or columns, neighbouring ranks
 * share a cell (struct tc_band) and the cell holds their sum.  Node
 * boundaries are marked on both axes when the trace spans several nodes, so
 * a bad mapping shows as heavy blocks off the node diagonal.  The data are
 * tc_comm_matrix's, the same that `info --json` prints as comm_matrix_bytes
 * (docs/tui.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

#define NLEVELS 8

void matrix_blocks(const uint64_t *m, uint32_t n, const struct tc_band *rows, const struct tc_band *cols,
		   uint64_t *out)
{
	for (int i = 0; i < rows->cells; i++)
		for (int j = 0; j < cols->cells; j++) {
			uint64_t s = 0;
			for (uint32_t r = band_lo(rows, i); r < band_hi(rows, i) && r < n; r++)
				for (uint32_t c = band_lo(cols, j); c < band_hi(cols, j) && c < n; c++) s += m[(size_t)r * n + c];
			out[(size_t)i * (size_t)cols->cells + (size_t)j] = s;
		}
}

static void free_state(struct tc_app *a)
{
	free(a->mx.bytes);
	free(a->mx.count);
	a->mx.bytes = a->mx.count = NULL;
	a->mx.ready = false;
}

/* The dense n × n matrices cost 16 n² bytes: 256 MiB at 4096 ranks, 64 GiB at 65536
 * (which ended the UI with "out of memory"); above MAX_RANKS the view says so instead. */
#define MAX_RANKS 4096

/* Builds the matrices once; the cursor starts on the heaviest pair (by bytes). */
static void prepare(struct tc_app *a)
{
	if (a->mx.ready || a->t->nranks > MAX_RANKS) return;
	size_t n = a->t->nranks, cells = n * n;
	a->mx.bytes = xcalloc(cells + 1, sizeof *a->mx.bytes);
	a->mx.count = xcalloc(cells + 1, sizeof *a->mx.count);
	tc_comm_matrix(a->t, a->mx.bytes, a->mx.count);
	size_t best = 0;
	for (size_t k = 1; k < cells; k++)
		if (a->mx.bytes[k] > a->mx.bytes[best]) best = k;
	if (n) {
		a->mx.src = (uint32_t)(best / n);
		a->mx.dst = (uint32_t)(best % n);
	}
	a->mx.ready = true;
}

/* Shade level of v: 0 for none, else 1..NLEVELS on a log scale from vmin to vmax. */
static int level(uint64_t v, uint64_t vmin, uint64_t vmax)
{
	if (!v) return 0;
	if (vmax <= vmin) return NLEVELS;
	double f = (log((double)v) - log((double)vmin)) / (log((double)vmax) - log((double)vmin));
	int k = 1 + (int)floor(f * (NLEVELS - 1) + 1e-9);
	return TC_MAX(1, TC_MIN(NLEVELS, k));
}

/* The smallest value that reaches level k (1..NLEVELS). */
static uint64_t level_floor(int k, uint64_t vmin, uint64_t vmax)
{
	if (vmax <= vmin || k <= 1) return vmin;
	double l = log((double)vmin) + (double)(k - 1) / (NLEVELS - 1) * (log((double)vmax) - log((double)vmin));
	return (uint64_t)ceil(exp(l) - 1e-6);
}

static uint32_t glyph(const struct tc_grid *g, int k)
{
	static const char ramp[NLEVELS + 1] = " .:-=+*#@";
	if (g->ascii) return (uint32_t)ramp[k];
	return grid_lower_eighth(g, k);
}

static void fmt_value(const struct tc_app *a, char *buf, size_t n, uint64_t v)
{
	if (a->mx.msgs) snprintf(buf, n, "%llu", (unsigned long long)v);
	else fmt_bytes(buf, n, v);
}

/* Node changes between consecutive ranks (0: one node, or nodes not contiguous). */
static uint32_t node_changes(const struct tc_trace *t)
{
	uint32_t c = 0;
	for (uint32_t r = 1; r < t->nranks; r++) c += t->ranks[r].node != t->ranks[r - 1].node;
	return c;
}

/* Does cell i of b hold a node boundary?  Marked only when the boundaries are fewer
 * than half the cells (else every cell would be one: say, nodes interleaved). */
static bool node_edge(const struct tc_trace *t, const struct tc_band *b, int i)
{
	uint32_t ch = node_changes(t);
	if (!ch || 2 * (uint64_t)ch > (uint64_t)b->cells) return false;
	for (uint32_t r = band_lo(b, i); r < band_hi(b, i) && r < t->nranks; r++)
		if (r > 0 && t->ranks[r].node != t->ranks[r - 1].node) return true;
	return false;
}

static void range_text(char *buf, size_t n, const struct tc_band *b, int i)
{
	uint32_t lo = band_lo(b, i), hi = band_hi(b, i);
	if (hi - lo == 1) snprintf(buf, n, "%u", lo);
	else snprintf(buf, n, "%u-%u", lo, hi - 1);
}

struct layout {
	struct tc_band rows, cols;
	int x0, y0, cw;   /* top-left cell, cell width */
};

static bool layout(const struct tc_app *a, struct tc_rect r, struct layout *L)
{
	uint32_t n = a->t->nranks;
	int lw = snprintf(NULL, 0, "%u", n ? n - 1 : 0) + 2;   /* rank label, node mark */
	int w = r.w - lw, h = r.h - 4;        /* heading, axis; legend, status */
	if (w < 1 || h < 1 || !n) return false;
	L->cw = w >= 2 * (int)n ? 2 : 1;
	L->cols = (struct tc_band){ 0, n, TC_MIN((int)n, w / L->cw) };
	L->rows = (struct tc_band){ 0, n, TC_MIN((int)n, h) };
	L->x0 = r.x + lw;
	L->y0 = r.y + 2;
	return true;
}

static void draw_axes(const struct tc_app *a, struct tc_grid *g, const struct layout *L, struct tc_rect r)
{
	const struct tc_trace *t = a->t;
	int next = 0;   /* first column free for a label */
	for (int j = 0; j < L->cols.cells; j++) {
		int x = L->x0 + j * L->cw;
		bool edge = node_edge(t, &L->cols, j);
		if (edge) grid_putr(g, x, L->y0 - 1, grid_glyph(g, TC_G_VLINE), TC_R_HEADING);
		if (x >= next && (j % 4 == 0 || edge)) {
			int used = grid_printf(g, x + edge, L->y0 - 1, r.x + r.w - x - edge, TC_R_AXIS, "%u", band_lo(&L->cols, j));
			next = x + edge + used + 1;
		}
	}
	int lw = L->x0 - r.x;
	for (int i = 0; i < L->rows.cells; i++) {
		int y = L->y0 + i;
		if (i % 2 == 0 || L->rows.cells <= 16) grid_printf(g, r.x, y, lw - 2, TC_R_AXIS, "%*u", lw - 2, band_lo(&L->rows, i));
		grid_putr(g, L->x0 - 1, y, grid_glyph(g, node_edge(t, &L->rows, i) ? TC_G_HLINE : TC_G_VLINE),
			  node_edge(t, &L->rows, i) ? TC_R_HEADING : TC_R_AXIS);
	}
}

/* The legend: the total, then the scale's levels with their lower bounds while they fit. */
static void draw_legend(const struct tc_app *a, struct tc_grid *g, int x, int y, int w, uint64_t vmin, uint64_t vmax,
			uint64_t bytes, uint64_t msgs)
{
	char v[32];
	int used = grid_printf(g, x, y, w, TC_R_LABEL, "total %llu bytes in %llu messages; log scale ",
			       (unsigned long long)bytes, (unsigned long long)msgs);
	for (int k = 1; k <= NLEVELS && vmax; k++) {
		if (vmax <= vmin && k < NLEVELS) continue;
		fmt_value(a, v, sizeof v, level_floor(k, vmin, vmax));
		if (used + (int)strlen(v) + 2 > w) break;
		grid_putr(g, x + used, y, glyph(g, k), (enum tc_role)(TC_R_MAP0 + k - 1));
		used += 1 + grid_printf(g, x + used + 1, y, w - used - 1, TC_R_LABEL, "%s ", v);
	}
}

static void draw_status(const struct tc_app *a, struct tc_grid *g, int y, const struct layout *L, int ci, int cj,
			const uint64_t *cnt, const uint64_t *byt)
{
	char s[24], d[24], line[160];
	range_text(s, sizeof s, &L->rows, ci);
	range_text(d, sizeof d, &L->cols, cj);
	size_t k = (size_t)ci * (size_t)L->cols.cells + (size_t)cj;
	snprintf(line, sizeof line, "%s %s %s: %llu messages, %llu bytes", s, g->ascii ? "->" : "~", d,
		 (unsigned long long)cnt[k], (unsigned long long)byt[k]);
	app_status_line(g, y, line);
	if (!g->ascii) {   /* the arrow as a glyph: text goes through the locale's widths */
		struct tc_cell *c = grid_at(g, (int)strlen(s) + 1, y);
		if (c) c->ch = 0x2192;
	}
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	if (a->t->nranks > MAX_RANKS) {
		grid_printf(g, r.x, r.y, r.w, TC_R_LABEL, "%u ranks: the matrix view draws up to %d ranks (a dense matrix of",
			    a->t->nranks, MAX_RANKS);
		grid_text(g, r.x, r.y + 1, r.w, TC_R_LABEL, "16 bytes per rank pair); the regions view (4) groups the traffic");
		return;
	}
	prepare(a);
	struct layout L;
	if (!layout(a, r, &L)) {
		grid_text(g, r.x, r.y, r.w, TC_R_LABEL, "no ranks or no room for the matrix");
		return;
	}
	a->mx.rows = L.rows.cells;
	a->mx.cols = L.cols.cells;
	size_t nc = (size_t)L.rows.cells * (size_t)L.cols.cells;
	uint64_t *cnt = xmalloc(nc * sizeof *cnt), *byt = xmalloc(nc * sizeof *byt);
	matrix_blocks(a->mx.count, a->t->nranks, &L.rows, &L.cols, cnt);
	matrix_blocks(a->mx.bytes, a->t->nranks, &L.rows, &L.cols, byt);
	const uint64_t *v = a->mx.msgs ? cnt : byt;
	uint64_t vmin = 0, vmax = 0, tb = 0, tm = 0;
	for (size_t k = 0; k < nc; k++) {
		tb += byt[k];
		tm += cnt[k];
		if (v[k] && (!vmin || v[k] < vmin)) vmin = v[k];
		if (v[k] > vmax) vmax = v[k];
	}
	uint32_t per_r = (a->t->nranks + (uint32_t)L.rows.cells - 1) / (uint32_t)L.rows.cells;
	uint32_t per_c = (a->t->nranks + (uint32_t)L.cols.cells - 1) / (uint32_t)L.cols.cells;
	char head[240], tail[64] = "", nodes[64] = "";
	if (per_r > 1 || per_c > 1) snprintf(tail, sizeof tail, ", up to %u x %u ranks per cell", per_r, per_c);
	uint32_t changes = node_changes(a->t);
	if (a->t->nnodes > 1)
		snprintf(nodes, sizeof nodes, ", %u nodes%s", a->t->nnodes,
			 2 * (uint64_t)changes > (uint64_t)TC_MIN(L.rows.cells, L.cols.cells) ? " interleaved (not marked)" : "");
	snprintf(head, sizeof head, "%s from sender (rows) to receiver (columns), %u ranks%s%s; b: %s",
		 a->mx.msgs ? "messages" : "bytes", a->t->nranks, nodes, tail, a->mx.msgs ? "bytes" : "messages");
	grid_text_elide(g, r.x, r.y, r.w, TC_R_LABEL, head);
	draw_axes(a, g, &L, r);
	int ci = band_find(&L.rows, a->mx.src), cj = band_find(&L.cols, a->mx.dst);
	for (int i = 0; i < L.rows.cells; i++)
		for (int j = 0; j < L.cols.cells; j++) {
			int k = level(v[(size_t)i * (size_t)L.cols.cells + (size_t)j], vmin, vmax);
			enum tc_role role = k ? (enum tc_role)(TC_R_MAP0 + k - 1) : TC_R_NORMAL;
			uint32_t ch = glyph(g, k);
			if (i == ci && j == cj) {
				role = TC_R_CURSOR;
				if (!k) ch = grid_glyph(g, TC_G_MARK);
			}
			grid_fill(g, L.x0 + j * L.cw, L.y0 + i, L.cw, 1, ch, role);
		}
	draw_legend(a, g, r.x, r.y + r.h - 2, r.w, vmin, vmax, tb, tm);
	if (ci >= 0 && cj >= 0) draw_status(a, g, r.y + r.h - 1, &L, ci, cj, cnt, byt);
	free(cnt);
	free(byt);
}

/* One step of the cursor rank along a band of cells (the next cell's first rank). */
static uint32_t step_rank(uint32_t rank, int cells, uint32_t n, int delta)
{
	struct tc_band b = { 0, n, cells > 0 ? cells : (int)n };
	int i = band_find(&b, rank) + delta;
	return band_lo(&b, TC_MAX(0, TC_MIN(b.cells - 1, i)));
}

/* Enter: the other views show the cell's senders and receivers. */
static void show_pair(struct tc_app *a)
{
	uint32_t n = a->t->nranks;
	struct tc_band rb = { 0, n, a->mx.rows > 0 ? a->mx.rows : (int)n }, cb = { 0, n, a->mx.cols > 0 ? a->mx.cols : (int)n };
	int i = band_find(&rb, a->mx.src), j = band_find(&cb, a->mx.dst);
	if (i < 0 || j < 0) return;
	uint8_t *in = xcalloc(n + 1, 1);
	for (uint32_t k = band_lo(&rb, i); k < band_hi(&rb, i) && k < n; k++) in[k] = 1;
	for (uint32_t k = band_lo(&cb, j); k < band_hi(&cb, j) && k < n; k++) in[k] = 1;
	uint32_t *ranks = xmalloc((n + 1) * sizeof *ranks), m = 0;
	for (uint32_t k = 0; k < n; k++)
		if (in[k]) ranks[m++] = k;
	char s[24], d[24], label[64];
	range_text(s, sizeof s, &rb, i);
	range_text(d, sizeof d, &cb, j);
	snprintf(label, sizeof label, "pair %s>%s", s, d);
	if (app_set_rank_set(a, ranks, m, label))
		app_message(a, false, "%s: the other views show its %u rank%s (Esc: all ranks)", label, m, m == 1 ? "" : "s");
	free(in);
	free(ranks);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	(void)k;
	prepare(a);
	uint32_t n = a->t->nranks;
	if (!n || !a->mx.ready) return false;   /* too many ranks (MAX_RANKS) */
	int page = TC_MAX(1, a->mx.rows - 1);
	switch (act) {
	case ACT_DOWN: a->mx.src = step_rank(a->mx.src, a->mx.rows, n, 1); return true;
	case ACT_UP: a->mx.src = step_rank(a->mx.src, a->mx.rows, n, -1); return true;
	case ACT_PGDN: a->mx.src = step_rank(a->mx.src, a->mx.rows, n, page); return true;
	case ACT_PGUP: a->mx.src = step_rank(a->mx.src, a->mx.rows, n, -page); return true;
	case ACT_TOP: a->mx.src = 0; return true;
	case ACT_BOTTOM: a->mx.src = n - 1; return true;
	case ACT_RIGHT: a->mx.dst = step_rank(a->mx.dst, a->mx.cols, n, 1); return true;
	case ACT_LEFT: a->mx.dst = step_rank(a->mx.dst, a->mx.cols, n, -1); return true;
	case ACT_FIRST: a->mx.dst = 0; return true;
	case ACT_LAST: a->mx.dst = n - 1; return true;
	case ACT_METRIC:
		a->mx.msgs = !a->mx.msgs;
		app_message(a, false, "matrix: shading by %s", a->mx.msgs ? "messages" : "bytes");
		return true;
	case ACT_ENTER: show_pair(a); return true;
	default: return false;
	}
}

/* One line per pair with messages: sender, receiver, messages, bytes. */
static void csv(struct tc_app *a, FILE *f)
{
	prepare(a);
	uint32_t n = a->t->nranks;
	fprintf(f, "src,dst,messages,bytes\n");
	if (!a->mx.ready) return;   /* too many ranks (MAX_RANKS) */
	for (size_t k = 0; k < (size_t)n * n; k++)
		if (a->mx.count[k])
			fprintf(f, "%zu,%zu,%llu,%llu\n", k / n, k % n, (unsigned long long)a->mx.count[k],
				(unsigned long long)a->mx.bytes[k]);
}

static const char *const help[] = {
	"Communication matrix: rows are sending ranks, columns receiving ranks; a",
	"cell's shade is the log of the bytes sent (b: of the messages), from the",
	"smallest non-empty cell (lowest glyph, map0) to the largest (full, map7);",
	"the legend gives each shade's lower bound and the total.  When ranks",
	"exceed the rows or columns, neighbouring ranks share a cell and it holds",
	"their sum.  With several nodes, node boundaries are marked on the axes:",
	"heavy cells off the node diagonal mean traffic between nodes.",
	"Arrows / hjkl move the cell cursor; the status line gives the pair's (or",
	"block's) messages and bytes.  Enter shows only the pair's ranks in the",
	"other views; Esc shows all again.  Same numbers as info --json",
	"comm_matrix_bytes; messages to self are on the diagonal.",
	NULL,
};

const struct view view_matrix = {
	.name = "matrix", .id = TC_V_MATRIX, .min_w = 20, .min_h = 6, .draw = draw, .key = key, .help = help,
	.free_state = free_state, .csv = csv,
};
