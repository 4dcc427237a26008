/* regions.c — PCLVis communication regions (paper §4.2.2, Fig. 4) as a
 * table sorted by region latency RL (highest first): id, member ranks,
 * nodes, messages inside and crossing, RL and high-latency messages (L at or
 * above high_l, 2 by default; L > 1 holds for about half of all messages by
 * construction, L being relative to the median).  Above it a
 * strip with a cell per rank (or group of ranks) marks the selected region's
 * members; latency mode (L) colours rows and strip by RL, as the paper's
 * latency mode of the region graph.  On the right, messages between the
 * regions that exchange the most with others.  Enter shows only the
 * selected region's ranks in the other views (app_set_rank_set); Esc shows
 * all again.  Everything comes from session_latency() (docs/latency.md) and
 * a small cache (struct tc_latview, src/ui/latview.c, also used by the
 * evolution view). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "ui.h"

/* --- drawing -------------------------------------------------------------------- */
static int digits(uint64_t v)
{
	int d = 1;
	while (v >= 10) { v /= 10; d++; }
	return d;
}

/* Position of the selected region among the rows (the first when none is selected). */
static uint32_t sel_index(const struct tc_app *a, const uint32_t *ids, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == a->lat_region) return i;
	return 0;
}

/* Member ranks as ranges, cut to w columns; true when cut (the caller
 * draws an ellipsis glyph in the last column: text stays ASCII). */
static bool members(const struct tc_lat_region *R, char *buf, size_t n, int w)
{
	struct strbuf b = { 0 };
	fmt_ranges(&b, R->ranks, R->nranks);
	bool cut = (int)b.len > w && w > 1;
	snprintf(buf, n, "%.*s", cut ? w - 1 : w, b.s ? b.s : "");
	sb_free(&b);
	return cut;
}

/* Latency mode colours RL from the lowest (map0) to the highest region (map7),
 * as the paper's latency mode of the region graph. */
static enum tc_role rl_role(const struct tc_latview *v, double rl)
{
	if (!isfinite(rl) || !(v->rl_max > v->rl_min)) return TC_R_MAP0;
	return app_map_role(rl - v->rl_min, v->rl_max - v->rl_min);
}

/* A cell per rank (or group of ranks): the selected region's members are
 * marked; in latency mode the colour is the highest RL of the ranks' regions. */
static void draw_strip(struct tc_app *a, const struct tc_latview *v, struct tc_grid *g, int x, int y, int w,
		       uint32_t sel)
{
	const struct tc_latency *lat = v->lat;
	uint32_t nr = a->t->nranks;
	int lw = grid_text(g, x, y, w, TC_R_LABEL, "ranks ");
	w -= lw;
	x += lw;
	if (w < 1 || !nr) return;
	uint32_t rpc = (nr + (uint32_t)w - 1) / (uint32_t)w;
	for (uint32_t c = 0; c * rpc < nr; c++) {
		bool mem = false;
		double rl = NAN;
		for (uint32_t r = c * rpc; r < nr && r < (c + 1) * rpc; r++) {
			const struct tc_lat_region *R = &lat->regions[lat->rank_region[r]];
			mem |= lat->rank_region[r] == sel;
			if (isfinite(R->rl) && !(rl >= R->rl)) rl = R->rl;
		}
		int cx = x + (int)c;
		if (a->rg.latency) {
			enum tc_role role = rl_role(v, rl);
			int k = role - TC_R_MAP0;
			uint32_t ch = mem ? grid_glyph(g, TC_G_MARK)
				 : a->color ? ' ' : grid_glyph(g, k < 3 ? TC_G_SHADE1 : k < 6 ? TC_G_SHADE2 : TC_G_SHADE3);
			grid_putr(g, cx, y, ch, role);
		} else if (mem) {
			grid_putr(g, cx, y, grid_glyph(g, TC_G_MARK), TC_R_SELECTION);
		} else {
			grid_putr(g, cx, y, grid_glyph(g, TC_G_AGG), TC_R_AXIS);
		}
	}
	int used = (int)((nr + rpc - 1) / rpc);
	if (rpc > 1 && used + 12 <= w) grid_printf(g, x + used + 1, y, w - used - 1, TC_R_AXIS, "%u per cell", rpc);
}

/* Messages from each table row's region (on that row: rows[top + i] at
 * y0 + i) to the regions with the most crossing traffic (columns, ids
 * ascending, their ids on the heading row y0 - 1). */
static void draw_matrix(const struct tc_latview *v, struct tc_grid *g, int x, int y0, int w, int rows,
			const uint32_t *ids, uint32_t nids, uint32_t top, uint32_t sel)
{
	int cw = TC_MAX(digits(v->matrix_max) + 1, 3);
	if (cw > 6) cw = 6;
	uint32_t n = v->ntop;
	if (w < (int)n * cw) n = (uint32_t)TC_MAX(0, w / cw);
	if (n < 2) return;
	uint32_t idx[TC_LATV_TOP];   /* slots of the n busiest, by region id */
	for (uint32_t i = 0; i < n; i++) idx[i] = i;
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && v->top[idx[j - 1]] > v->top[idx[j]]; j--) {
			uint32_t tmp = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = tmp;
		}
	grid_printf(g, x, y0 - 2, w, TC_R_HEADING, "row's messages to");
	for (uint32_t j = 0; j < n; j++)
		grid_printf(g, x + (int)j * cw, y0 - 1, cw, v->top[idx[j]] == sel ? TC_R_CURSOR : TC_R_AXIS, "%*u", cw - 1,
			    v->top[idx[j]]);
	for (int i = 0; i < rows && top + (uint32_t)i < nids; i++) {
		int yy = y0 + i;
		uint32_t from = ids[top + (uint32_t)i];
		for (uint32_t j = 0; j < n; j++) {
			int cx = x + (int)j * cw;
			uint64_t c = v->matrix[(size_t)from * TC_LATV_TOP + idx[j]];
			if (from == v->top[idx[j]]) {
				grid_putr(g, cx + cw - 2, yy, grid_glyph(g, TC_G_AGG), TC_R_AXIS);
				continue;
			}
			if (!c) continue;
			enum tc_role role = app_map_role((double)c, (double)v->matrix_max);
			if (digits(c) <= cw - 1) {
				grid_printf(g, cx, yy, cw - 1, role, "%*llu", cw - 1, (unsigned long long)c);
			} else {
				int k = role - TC_R_MAP0;
				grid_fill(g, cx, yy, cw - 1, 1, grid_glyph(g, k < 3 ? TC_G_SHADE1 : k < 6 ? TC_G_SHADE2 : TC_G_SHADE3), role);
			}
		}
	}
}

#define TABLE_W 55

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_latview *v = app_latview(a);
	const struct tc_latency *lat = v->lat;
	if (!lat || !lat->nregions) {
		grid_text(g, r.x, r.y, r.w, TC_R_LABEL, "no ranks: no communication regions");
		return;
	}
	uint32_t n, nwith;
	const uint32_t *ids = app_lat_rows(a, &n, &nwith);
	if (!n) {
		grid_text(g, r.x, r.y, r.w, TC_R_LABEL, "no region holds a rank of the filter");
		return;
	}
	uint32_t si = sel_index(a, ids, n), sel = ids[si];
	char of[48] = "";
	if (n < lat->nregions) snprintf(of, sizeof of, " (of %u; with ranks of f:)", lat->nregions);
	if (a->rg.latency)
		grid_printf(g, r.x, r.y, r.w, TC_R_LABEL, "%u region%s%s by RL (mean L inside); colour: RL %.2f to %.2f", n,
			    n == 1 ? "" : "s", of, v->rl_min, v->rl_max);
	else {
		char line[200];
		snprintf(line, sizeof line,
			 "%u region%s%s by RL = mean L inside, L = transfer / median of its size class; L>=%g: high; threshold %.2f",
			 n, n == 1 ? "" : "s", of, lat->opts.high_l, lat->threshold_used);
		grid_text_elide(g, r.x, r.y, r.w, TC_R_LABEL, line);
	}
	int tw = TC_MIN(r.w, TABLE_W);
	draw_strip(a, v, g, r.x, r.y + 1, tw, sel);
	int rows = r.h - 4;
	a->rg.rows = rows;
	app_list_top(&a->rg.top, si, n, rows);
	char head[96];
	snprintf(head, sizeof head, "   id members      nodes  inside  cross     RL  L>=%g", lat->opts.high_l);
	grid_text(g, r.x, r.y + 2, tw, TC_R_HEADING, head);
	for (int i = 0; i < rows; i++) {
		uint32_t k = a->rg.top + (uint32_t)i;
		if (k >= n) break;
		const struct tc_lat_region *R = &lat->regions[ids[k]];
		char mem[64], rl[16];
		bool cut = members(R, mem, sizeof mem, 12);
		if (isfinite(R->rl)) snprintf(rl, sizeof rl, "%6.2f", R->rl);
		else snprintf(rl, sizeof rl, "%6s", "-");
		enum tc_role role = k == si ? TC_R_CURSOR : a->rg.latency ? rl_role(v, R->rl) : TC_R_NORMAL;
		int y = r.y + 3 + i;
		if (role != TC_R_NORMAL) grid_fill(g, r.x, y, tw, 1, ' ', role);
		grid_printf(g, r.x, y, tw, role, "%c%4u %-12s %5u %7llu %6llu %s %7llu", k == si ? '>' : ' ', ids[k], mem,
			    R->nnodes, (unsigned long long)R->messages_inside, (unsigned long long)R->messages_crossing, rl,
			    (unsigned long long)R->high);
		if (cut) grid_put(g, r.x + 6 + 11, y, grid_glyph(g, TC_G_ELLIPSIS), role, role, 0);
	}
	if (r.w - tw >= 12) draw_matrix(v, g, r.x + tw + 2, r.y + 3, r.w - tw - 2, rows, ids, n, a->rg.top, sel);

	/* the selected region in full */
	const struct tc_lat_region *R = &lat->regions[sel];
	struct strbuf b = { 0 };
	sb_printf(&b, "region %u: ", sel);
	fmt_ranges(&b, R->ranks, R->nranks);
	sb_printf(&b, " (%u rank%s, %u node%s)", R->nranks, R->nranks == 1 ? "" : "s", R->nnodes, R->nnodes == 1 ? "" : "s");
	if (isfinite(R->rl)) sb_printf(&b, ", RL %.2f", R->rl);
	if (isfinite(R->rl_touching)) sb_printf(&b, ", with crossing %.2f", R->rl_touching);
	sb_printf(&b, ", %llu inside (%llu inter-node), %llu delayed, %llu high", (unsigned long long)R->messages_inside,
		  (unsigned long long)R->inter_inside, (unsigned long long)R->delayed, (unsigned long long)R->high);
	app_status_line(g, r.y + r.h - 1, b.s);
	sb_free(&b);
}

/* A click on a table row (or its matrix row) selects that region. */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	(void)x;
	const struct tc_latview *v = app_latview(a);
	if (!v->lat || !v->lat->nregions) return false;
	uint32_t n, nwith, k;
	const uint32_t *ids = app_lat_rows(a, &n, &nwith);
	if (!app_list_click(&k, a->rg.top, n, a->rg.rows, r.y + 3, y)) return false;
	a->lat_region = ids[k];
	return true;
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_latview *v = app_latview(a);
	const struct tc_latency *lat = v->lat;
	if (!lat || !lat->nregions) return false;
	uint32_t n, nwith;
	const uint32_t *ids = app_lat_rows(a, &n, &nwith);
	uint32_t i = sel_index(a, ids, n);
	if (app_list_move(&i, n, a->rg.rows, act)) {
		if (n) a->lat_region = ids[i];
		return true;
	}
	switch (act) {
	case ACT_LATENCY:
		a->rg.latency = !a->rg.latency;
		app_message(a, false, "latency mode %s", a->rg.latency ? "on: colour = region latency (RL)" : "off");
		return true;
	case ACT_ENTER: {
		if (!n) return true;
		uint32_t id = ids[i];
		const struct tc_lat_region *R = &lat->regions[id];
		char label[32];
		snprintf(label, sizeof label, "region %u", id);
		a->lat_region = id;
		if (app_set_rank_set(a, R->ranks, R->nranks, label))
			app_message(a, false, "region %u: the other views show its %u rank%s (Esc: all ranks)", id, R->nranks,
				    R->nranks == 1 ? "" : "s");
		return true;
	}
	default: return false;
	}
}

/* One line per region in table order (by RL). */
static void csv(struct tc_app *a, FILE *f)
{
	const struct tc_latview *v = app_latview(a);
	const struct tc_latency *lat = v->lat;
	uint32_t n, nwith;
	const uint32_t *ids = app_lat_rows(a, &n, &nwith);
	fprintf(f, "region,ranks,nodes,inside,crossing,rl,delayed,high\n");
	for (uint32_t k = 0; lat && k < n; k++) {
		const struct tc_lat_region *R = &lat->regions[ids[k]];
		struct strbuf b = { 0 };
		fmt_ranges(&b, R->ranks, R->nranks);
		fprintf(f, "%u,", ids[k]);
		export_csv_str(f, b.s ? b.s : "");
		sb_free(&b);
		fprintf(f, ",%u,%llu,%llu,", R->nnodes, (unsigned long long)R->messages_inside, (unsigned long long)R->messages_crossing);
		if (isfinite(R->rl)) fprintf(f, "%.6g", R->rl);
		fprintf(f, ",%llu,%llu\n", (unsigned long long)R->delayed, (unsigned long long)R->high);
	}
}

static const char *const help[] = {
	"Communication regions (PCLVis §4.2): groups of ranks that talk mostly to",
	"each other, sorted by region latency RL = mean L of the messages inside",
	"(L = transfer time / the median for its size and intra/inter-node class;",
	"about half of all messages have L > 1 by construction). Columns: id,",
	"member ranks, nodes spanned, messages inside and crossing the border, RL,",
	"high-latency messages inside (L >= 2, option high_l).",
	"The strip marks the selected region's ranks. L colours rows and strip by",
	"RL, from the lowest region (map0) to the highest (map7). Right, on each",
	"region's row: its messages to the regions with the most crossing traffic",
	"(columns). With a filter (f) only regions holding one of its ranks show.",
	"Enter shows only the selected region's ranks in the other views; Esc",
	"shows all ranks again.",
	NULL,
};

const struct view view_regions = {
	.name = "regions", .id = TC_V_REGIONS, .min_w = 40, .min_h = 5, .draw = draw, .key = key, .help = help, .click = click,
	.csv = csv, .filtered = true,
	.ready = view_ready_latency, .prepare = view_prepare_latency,
};
