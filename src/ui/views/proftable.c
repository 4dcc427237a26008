/* proftable.c — the profile view's per-rank × function table (issue 15):
 * rows are regions, columns the exclusive time (m: inclusive, calls) of each rank (the sum of its
 * threads and streams, Score-P's per-process view) or of each location, or
 * the rank statistics min / median / max / imbalance over the ranks (or
 * locations) that called the region; a total column first.  Any column sorts
 * (h/l picks it, s sorts, s again reverses).  The numbers are the ones
 * `report --section profile --json` gives as per_rank / per_location:
 * tc_profile_locations and tc_profile_ranks (src/analysis/profile.c), over
 * the whole trace, in integer ticks; the table is built from them once per
 * (mode, visible ranks) in O(cells + regions × columns). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_profile.h"
#include "proftable.h"

#define CELL_W 10   /* a column: 9 characters and a blank */

static const char *const stat_names[PT_S_COUNT] = { "min", "median", "max", "imbal" };
static const char *const value_names[PT_V_COUNT] = { "exclusive time", "inclusive time", "calls" };

struct tc_pfview *pt_state(struct tc_app *a)
{
	if (!a->pfv) {
		a->pfv = xcalloc(1, sizeof *a->pfv);
		a->pfv->sort = 0;
	}
	return a->pfv;
}

static void free_matrix(struct tc_pfview *v)
{
	free(v->reg);
	free(v->who);
	for (int k = 0; k < PT_V_COUNT; k++) free(v->m[k]);
	free(v->called);
	free(v->total);
	free(v->stat);
	free(v->order);
	v->reg = v->who = v->order = NULL;
	for (int k = 0; k < PT_V_COUNT; k++) v->m[k] = NULL;
	v->val = v->total = NULL;
	v->called = NULL;
	v->stat = NULL;
	v->built = false;
}

void pt_free(struct tc_app *a)
{
	struct tc_pfview *v = a->pfv;
	if (!v) return;
	free_matrix(v);
	tc_prof_table_free(v->loc);
	tc_prof_table_free(v->rank);
	free(v);
	a->pfv = NULL;
}

int pt_ncols(const struct tc_pfview *v)
{
	return 1 + (v->mode == PT_STATS ? PT_S_COUNT : (int)v->nwho);
}

/* Columns of locations: by rank, CPU threads by number, then streams. */
static const struct tc_trace *cmp_t;
static int by_rank_loc(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct tc_loc *a = &cmp_t->locs[i], *b = &cmp_t->locs[j];
	if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
	if (a->type != b->type) return a->type < b->type ? -1 : 1;
	if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int by_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* The columns: the visible ranks (or their locations) that have calls. */
static void pick_columns(struct tc_app *a, struct tc_pfview *v, const struct tc_prof_table *pt, uint32_t *colof)
{
	const struct tc_trace *t = a->t;
	uint32_t nwho = v->per_loc ? t->nlocs : t->nranks;
	uint8_t *has = xcalloc((size_t)nwho + 1, 1);
	for (size_t i = 0; i < pt->n; i++) {
		uint32_t w = pt->cells[i].who, r = v->per_loc ? t->locs[w].rank : w;
		if (r < t->nranks && app_rank_visible(a, r)) has[w] = 1;
	}
	v->who = xmalloc(((size_t)nwho + 1) * sizeof *v->who);
	v->nwho = 0;
	for (uint32_t w = 0; w < nwho; w++)
		if (has[w]) v->who[v->nwho++] = w;
	if (v->per_loc) {
		cmp_t = t;
		qsort(v->who, v->nwho, sizeof *v->who, by_rank_loc);
	}
	for (uint32_t w = 0; w < nwho; w++) colof[w] = TC_NONE;
	for (uint32_t k = 0; k < v->nwho; k++) colof[v->who[k]] = k;
	free(has);
}

/* Total and statistics of row i over its called cells. */
static void row_stats(struct tc_pfview *v, uint32_t i, uint64_t *tmp)
{
	uint32_t n = 0;
	uint64_t sum = 0;
	for (uint32_t k = 0; k < v->nwho; k++) {
		size_t c = (size_t)i * v->nwho + k;
		sum += v->val[c];
		if (v->called[c]) tmp[n++] = v->val[c];
	}
	v->total[i] = sum;
	double *s = &v->stat[(size_t)i * PT_S_COUNT];
	memset(s, 0, PT_S_COUNT * sizeof *s);
	if (!n) return;
	qsort(tmp, n, sizeof *tmp, by_u64);
	s[PT_S_MIN] = (double)tmp[0];
	s[PT_S_MAX] = (double)tmp[n - 1];
	s[PT_S_MEDIAN] = n % 2 ? (double)tmp[n / 2] : ((double)tmp[n / 2 - 1] + (double)tmp[n / 2]) / 2;
	double mean = (double)sum / n;
	s[PT_S_IMBAL] = tmp[n - 1] ? ((double)tmp[n - 1] - mean) / (double)tmp[n - 1] : 0;
}

/* Every row's total and statistics of the value shown. */
static void all_stats(struct tc_pfview *v)
{
	v->val = v->m[v->value];
	uint64_t *tmp = xmalloc(((size_t)v->nwho + 1) * sizeof *tmp);
	for (uint32_t i = 0; i < v->nreg; i++) row_stats(v, i, tmp);
	free(tmp);
}

/* The value a row is sorted by in column c (0 total, then who or statistics). */
static double sort_value(const struct tc_pfview *v, uint32_t i, int c)
{
	if (c <= 0) return (double)v->total[i];
	if (v->mode == PT_STATS) return v->stat[(size_t)i * PT_S_COUNT + (c - 1)];
	size_t k = (size_t)i * v->nwho + (size_t)(c - 1);
	return v->called[k] ? (double)v->val[k] : -1;   /* not called: after a zero */
}

static const struct tc_pfview *cmp_v;
static int by_column(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct tc_pfview *v = cmp_v;
	int d = 0;
	if (v->sort < 0) d = strcmp(tc_region_name(cmp_t, v->reg[i]), tc_region_name(cmp_t, v->reg[j]));
	else {
		double a = sort_value(v, i, v->sort), b = sort_value(v, j, v->sort);
		d = a < b ? 1 : a > b ? -1 : 0;   /* descending */
	}
	if (v->rev) d = -d;
	if (d) return d;
	if (v->total[i] != v->total[j]) return v->total[i] > v->total[j] ? -1 : 1;
	return v->reg[i] < v->reg[j] ? -1 : v->reg[i] > v->reg[j];
}

static void sort_rows(struct tc_app *a, struct tc_pfview *v)
{
	uint32_t keep = v->sel < v->nreg ? v->order[v->sel] : TC_NONE;
	cmp_t = a->t;
	cmp_v = v;
	qsort(v->order, v->nreg, sizeof *v->order, by_column);
	for (uint32_t i = 0; i < v->nreg && keep != TC_NONE; i++)
		if (v->order[i] == keep) v->sel = i;
}

static void build(struct tc_app *a, struct tc_pfview *v)
{
	const struct tc_trace *t = a->t;
	const struct tc_prof_table *pt = v->per_loc ? v->loc : v->rank;
	free_matrix(v);
	uint32_t *colof = xmalloc(((size_t)TC_MAX(t->nlocs, t->nranks) + 1) * sizeof *colof);
	pick_columns(a, v, pt, colof);
	uint32_t *rowof = xmalloc(((size_t)t->nregions + 1) * sizeof *rowof);
	for (uint32_t r = 0; r < t->nregions; r++) rowof[r] = TC_NONE;
	v->reg = xmalloc(((size_t)t->nregions + 1) * sizeof *v->reg);
	v->nreg = 0;
	for (size_t i = 0; i < pt->n; i++) {
		const struct tc_prof_cell *c = &pt->cells[i];
		if (colof[c->who] == TC_NONE || c->region >= t->nregions || rowof[c->region] != TC_NONE) continue;
		rowof[c->region] = v->nreg;
		v->reg[v->nreg++] = c->region;
	}
	size_t cells = (size_t)v->nreg * v->nwho + 1;
	for (int k = 0; k < PT_V_COUNT; k++) v->m[k] = xcalloc(cells, sizeof *v->m[k]);
	v->called = xcalloc(cells, 1);
	for (size_t i = 0; i < pt->n; i++) {
		const struct tc_prof_cell *c = &pt->cells[i];
		if (colof[c->who] == TC_NONE || c->region >= t->nregions) continue;
		size_t k = (size_t)rowof[c->region] * v->nwho + colof[c->who];
		v->m[PT_V_EXCL][k] = c->excl;
		v->m[PT_V_INCL][k] = c->incl;
		v->m[PT_V_CALLS][k] = c->calls;
		v->called[k] = c->calls > 0;
	}
	v->total = xcalloc((size_t)v->nreg + 1, sizeof *v->total);
	v->stat = xcalloc((size_t)v->nreg * PT_S_COUNT + 1, sizeof *v->stat);
	all_stats(v);
	v->order = xmalloc(((size_t)v->nreg + 1) * sizeof *v->order);
	for (uint32_t i = 0; i < v->nreg; i++) v->order[i] = i;
	v->sel = TC_NONE;   /* sort_rows keeps no selection */
	sort_rows(a, v);
	v->sel = v->top = v->left = 0;
	free(colof);
	free(rowof);
	v->built = true;
	v->built_per_loc = v->per_loc;
	v->built_gen = a->vis_gen;
}

void pt_prepare(struct tc_app *a)
{
	struct tc_pfview *v = pt_state(a);
	if (!v->loc) {
		v->loc = tc_profile_locations(a->t);
		v->rank = tc_profile_ranks(a->t, v->loc);
	}
	if (!v->built || v->built_per_loc != v->per_loc || v->built_gen != a->vis_gen) build(a, v);
	if (v->col >= pt_ncols(v)) v->col = pt_ncols(v) - 1;
	if (v->sort >= pt_ncols(v)) { v->sort = 0; sort_rows(a, v); }
}

uint32_t pt_selected_region(struct tc_app *a)
{
	struct tc_pfview *v = pt_state(a);
	pt_prepare(a);
	return v->sel < v->nreg ? v->reg[v->order[v->sel]] : TC_NONE;
}

/* "3" for rank 3; locations "3:t0" (CPU thread 0 of rank 3) or "3:g1" (its second stream). */
static void who_label(const struct tc_trace *t, const struct tc_pfview *v, uint32_t k, char *buf, size_t n)
{
	uint32_t w = v->who[k];
	if (!v->per_loc) {
		snprintf(buf, n, "%u", w);
		return;
	}
	const struct tc_loc *L = &t->locs[w];
	if (L->type != TC_LOC_GPU) {
		snprintf(buf, n, "%u:t%u", L->rank, L->thread);
		return;
	}
	uint32_t g = 0;   /* streams of the same rank before it (columns are by rank, streams last) */
	for (uint32_t j = k; j-- > 0 && t->locs[v->who[j]].rank == L->rank;) g += t->locs[v->who[j]].type == TC_LOC_GPU;
	snprintf(buf, n, "%u:g%u", L->rank, g);
}

/* Header text of column c (-1 region, 0 total, then who or statistics). */
static void col_label(const struct tc_trace *t, const struct tc_pfview *v, int c, char *buf, size_t n)
{
	if (c < 0) snprintf(buf, n, "region");
	else if (c == 0) snprintf(buf, n, "total");
	else if (v->mode == PT_STATS) snprintf(buf, n, "%s", stat_names[c - 1]);
	else who_label(t, v, (uint32_t)(c - 1), buf, n);
}

/* A value shown: ticks as seconds, or calls (a median may be a half). */
static void fmt_value(const struct tc_trace *t, const struct tc_pfview *v, double x, char *buf, size_t n)
{
	if (v->value != PT_V_CALLS) fmt_seconds(buf, n, x / (double)t->res);
	else if (x == (double)(uint64_t)x) snprintf(buf, n, "%llu", (unsigned long long)x);
	else snprintf(buf, n, "%.1f", x);
}

/* Text of row i in column c (≥ 0); dim: not called there. */
static void cell_text(const struct tc_trace *t, const struct tc_pfview *v, uint32_t i, int c, char *buf, size_t n,
		      bool *dim)
{
	*dim = false;
	if (c == 0) {
		fmt_value(t, v, (double)v->total[i], buf, n);
		return;
	}
	if (v->mode == PT_STATS) {
		double s = v->stat[(size_t)i * PT_S_COUNT + (c - 1)];
		if (c - 1 == PT_S_IMBAL) snprintf(buf, n, "%.1f%%", 100 * s);
		else fmt_value(t, v, s, buf, n);
		return;
	}
	size_t k = (size_t)i * v->nwho + (size_t)(c - 1);
	if (!v->called[k]) {
		snprintf(buf, n, "-");
		*dim = true;
		return;
	}
	fmt_value(t, v, (double)v->val[k], buf, n);
}

/* The columns shown: total, then from v->left as many as fit (statistics: all). */
static int shown_cols(struct tc_pfview *v, int avail)
{
	int fit = TC_MAX(1, avail / CELL_W);
	int ncols = pt_ncols(v);
	if (v->col > 0 && v->mode != PT_STATS) {
		uint32_t c = (uint32_t)(v->col - 1);
		if (c < v->left) v->left = c;
		if (fit > 1 && c >= v->left + (uint32_t)(fit - 1)) v->left = c - (uint32_t)(fit - 1) + 1;
	}
	if (v->mode == PT_STATS) v->left = 0;
	return TC_MIN(fit, ncols);
}

/* Column j on screen (0: total) to its table column. */
static int screen_col(const struct tc_pfview *v, int j)
{
	return j == 0 ? 0 : 1 + (int)v->left + (j - 1);
}

static void draw_heading(struct tc_app *a, struct tc_grid *g, int x, int y, int w, int name_w, int ncols)
{
	struct tc_pfview *v = a->pfv;
	grid_fill(g, x, y, w, 1, ' ', TC_R_HEADING);
	char lab[32];
	for (int j = -1; j < ncols; j++) {
		int c = j < 0 ? -1 : screen_col(v, j);
		if (c >= pt_ncols(v)) break;
		col_label(a->t, v, c, lab, sizeof lab);
		int cx = j < 0 ? x : x + name_w + j * CELL_W, cw = j < 0 ? name_w - 1 : CELL_W - 1;
		enum tc_role role = c == v->col ? TC_R_CURSOR : TC_R_HEADING;
		if (j < 0) grid_printf(g, cx, y, cw, role, "%-*s", cw, lab);
		else grid_printf(g, cx, y, cw, role, "%*s", cw, lab);
		if (c == v->sort) {
			bool up = (v->sort < 0) != v->rev;   /* ascending */
			uint32_t mark = g->ascii ? (up ? '^' : '*') : (up ? 0x25B2 : 0x25BC);
			int mx = j < 0 ? cx + (int)strlen(lab) : cx + cw - (int)strlen(lab) - 1;
			if (mx >= x && mx < x + w) grid_put(g, mx, y, mark, role, role, 0);
		}
	}
}

static void draw_rows(struct tc_app *a, struct tc_grid *g, int x, int y, int w, int name_w, int ncols)
{
	const struct tc_trace *t = a->t;
	struct tc_pfview *v = a->pfv;
	for (int r = 0; r < v->rows; r++) {
		uint32_t k = v->top + (uint32_t)r;
		if (k >= v->nreg) break;
		uint32_t i = v->order[k];
		bool sel = k == v->sel;
		bool match = a->region_match && a->region_match[v->reg[i]];
		enum tc_role role = sel ? TC_R_CURSOR : TC_R_NORMAL;
		if (sel) grid_fill(g, x, y + r, w, 1, ' ', TC_R_CURSOR);
		grid_text(g, x, y + r, name_w - 1, match && !sel ? TC_R_MATCH : role, tc_region_name(t, v->reg[i]));
		for (int j = 0; j < ncols; j++) {
			int c = screen_col(v, j);
			if (c >= pt_ncols(v)) break;
			char s[32];
			bool dim;
			cell_text(t, v, i, c, s, sizeof s, &dim);
			grid_printf(g, x + name_w + j * CELL_W, y + r, CELL_W - 1, dim && !sel ? TC_R_AXIS : role, "%*s",
				    CELL_W - 1, s);
		}
	}
}

/* The bottom line: the selected cell's numbers (exclusive, inclusive, calls) or the row's statistics. */
static void status(struct tc_app *a, struct tc_grid *g, int x, int y, int w)
{
	const struct tc_trace *t = a->t;
	struct tc_pfview *v = a->pfv;
	grid_fill(g, x, y, w, 1, ' ', TC_R_STATUS);
	if (v->sel >= v->nreg) return;
	uint32_t i = v->order[v->sel], reg = v->reg[i];
	char e[32], in[32], lab[32];
	if (v->mode == PT_WHO && v->col > 0) {
		const struct tc_prof_table *pt = v->per_loc ? v->loc : v->rank;
		uint32_t who = v->who[v->col - 1];
		col_label(t, v, v->col, lab, sizeof lab);
		for (size_t k = 0; k < pt->n; k++) {
			const struct tc_prof_cell *c = &pt->cells[k];
			if (c->who != who || c->region != reg) continue;
			fmt_seconds(e, sizeof e, tc_dur(t, c->excl));
			fmt_seconds(in, sizeof in, tc_dur(t, c->incl));
			char tail[160];
			snprintf(tail, sizeof tail, " on %s %s: exclusive %s, inclusive %s, %llu calls",
				 v->per_loc ? "location" : "rank", lab, e, in, (unsigned long long)c->calls);
			grid_text_tail(g, x, y, w, TC_R_STATUS, tc_region_name(t, reg), (const char *[]){ tail }, 1, 12);
			return;
		}
		grid_printf(g, x, y, w, TC_R_STATUS, "%s: not called on %s %s", tc_region_name(t, reg),
			    v->per_loc ? "location" : "rank", lab);
		return;
	}
	uint32_t n = 0;
	for (uint32_t k = 0; k < v->nwho; k++) n += v->called[(size_t)i * v->nwho + k];
	const double *s = &v->stat[(size_t)i * PT_S_COUNT];
	char mn[32], md[32], mx[32];
	fmt_value(t, v, (double)v->total[i], e, sizeof e);
	fmt_value(t, v, s[PT_S_MIN], mn, sizeof mn);
	fmt_value(t, v, s[PT_S_MEDIAN], md, sizeof md);
	fmt_value(t, v, s[PT_S_MAX], mx, sizeof mx);
	/* the numbers whole, a long name giving way; narrower, without the
	 * value's name (the header has it) and the median; then the maximum
	 * and the imbalance alone */
	const char *who = v->per_loc ? (n == 1 ? "location" : "locations") : (n == 1 ? "rank" : "ranks");
	double imb = 100 * s[PT_S_IMBAL];
	char full[200], mid[160], brief[80];
	snprintf(full, sizeof full, ": %s %s over %u %s; min %s median %s max %s, imbalance %.1f%%", e,
		 v->value == PT_V_CALLS ? "calls" : value_names[v->value], n, who, mn, md, mx, imb);
	snprintf(mid, sizeof mid, ": %s over %u %s; min %s max %s, imbalance %.1f%%", e, n, who, mn, mx, imb);
	snprintf(brief, sizeof brief, ": max %s, imbalance %.1f%%", mx, imb);
	grid_text_tail(g, x, y, w, TC_R_STATUS, tc_region_name(t, reg), (const char *[]){ full, mid, brief }, 3, 12);
}

void pt_draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	pt_prepare(a);
	struct tc_pfview *v = a->pfv;
	char sortlab[32], line[320];
	col_label(a->t, v, v->sort, sortlab, sizeof sortlab);
	snprintf(line, sizeof line, "%s: %s over the whole trace, %u regions x %u %s; by %s%s (t: %s, w: per %s, m: %s)",
		 v->per_loc ? "Per location (each thread and stream)" : "Per rank (its threads and streams summed)",
		 value_names[v->value], v->nreg,
		 v->nwho, v->per_loc ? "locations" : "ranks", sortlab, v->rev ? " reversed" : "",
		 v->mode == PT_WHO ? "statistics" : "flat profile", v->per_loc ? "rank" : "location",
		 value_names[(v->value + 1) % PT_V_COUNT]);
	grid_text_elide(g, r.x, r.y, r.w, TC_R_LABEL, line);
	bool st = r.h >= 6;
	v->rows = TC_MAX(1, r.h - 2 - st);
	/* names as wide as the columns leave (24 to 48), but total and one more column always fit */
	int name_w = TC_MIN(TC_MAX(24, r.w - CELL_W * pt_ncols(v)), 48);
	name_w = TC_MAX(12, TC_MIN(name_w, r.w - CELL_W * TC_MIN(2, pt_ncols(v))));
	int ncols = shown_cols(v, r.w - name_w);
	v->cols_shown = ncols;
	app_list_top(&v->top, v->sel, v->nreg, v->rows);
	draw_heading(a, g, r.x, r.y + 1, r.w, name_w, ncols);
	draw_rows(a, g, r.x, r.y + 2, r.w, name_w, ncols);
	if (!v->nreg) grid_text(g, r.x, r.y + 2, r.w, TC_R_LABEL, "  no calls on the visible ranks");
	if (st) status(a, g, r.x, r.y + r.h - 1, r.w);
}

bool pt_key(struct tc_app *a, enum tc_action act)
{
	struct tc_pfview *v = pt_state(a);
	pt_prepare(a);
	if (app_list_move(&v->sel, v->nreg, v->rows, act)) return true;
	switch (act) {
	case ACT_LEFT:
		if (v->col > -1) v->col--;
		return true;
	case ACT_RIGHT:
		if (v->col + 1 < pt_ncols(v)) v->col++;
		return true;
	case ACT_METRIC:
		v->value = (v->value + 1) % PT_V_COUNT;
		all_stats(v);
		sort_rows(a, v);
		app_message(a, false, "table: %s", value_names[v->value]);
		return true;
	case ACT_SORT: {
		char lab[32];
		if (v->sort == v->col) v->rev = !v->rev;
		else { v->sort = v->col; v->rev = false; }
		sort_rows(a, v);
		col_label(a->t, v, v->sort, lab, sizeof lab);
		app_message(a, false, "sorted by %s, %s (s again: reverse)", lab,
			    (v->sort < 0) != v->rev ? "ascending" : "descending");
		return true;
	}
	default: return false;
	}
}

void pt_csv(struct tc_app *a, FILE *f)
{
	pt_prepare(a);
	const struct tc_pfview *v = a->pfv;
	char lab[32];
	fprintf(f, "region");
	for (int c = 0; c < pt_ncols(v); c++) {
		col_label(a->t, v, c, lab, sizeof lab);
		bool imbal = v->mode == PT_STATS && c > 0 && c - 1 == PT_S_IMBAL;
		fprintf(f, ",%s%s", lab, imbal || v->value == PT_V_CALLS ? "" : "_s");
	}
	fprintf(f, "\n");
	for (uint32_t k = 0; k < v->nreg; k++) {
		uint32_t i = v->order[k];
		export_csv_str(f, tc_region_name(a->t, v->reg[i]));
		for (int c = 0; c < pt_ncols(v); c++) {
			double x = c == 0 ? (double)v->total[i] : v->mode == PT_STATS ? v->stat[(size_t)i * PT_S_COUNT + (c - 1)]
											: (double)v->val[(size_t)i * v->nwho + (c - 1)];
			if (v->mode == PT_STATS && c - 1 == PT_S_IMBAL) fprintf(f, ",%.4f", x);
			else if (v->mode == PT_WHO && c > 0 && !v->called[(size_t)i * v->nwho + (c - 1)]) fprintf(f, ",");
			else if (v->value == PT_V_CALLS) fprintf(f, ",%.17g", x);
			else fprintf(f, ",%.17g", x / (double)a->t->res);
		}
		fprintf(f, "\n");
	}
}
