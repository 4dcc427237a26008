/* profile.c — the flat profile (TAU's profile view): one row per region with
 * calls, exclusive time, its share of all rank time, inclusive time, the
 * load imbalance over the ranks that called it (bar and percent) and the
 * slowest rank; `s` cycles the sort key (exclusive, inclusive, calls,
 * imbalance).  Below, the message-size histogram.  Enter searches the
 * selected region by its exact name, so the timelines highlight it.
 *
 * The order for each sort key is computed once and kept (file-static, keyed
 * by the profile: views have no per-app free hook); a frame costs O(rows).
 *
 * The flat profile is the master threads' (the ranks' MPI timelines); `t`
 * shows the per-rank × function table instead (src/ui/views/proftable.c:
 * every thread and stream, per rank or, with `w`, per location), `t` again
 * its rank statistics, then the flat profile again. */
#include <stdlib.h>
#include <string.h>

#include "analysis_profile.h"
#include "analysis_span.h"
#include "proftable.h"
#include "ui.h"

enum { SORT_EXCL, SORT_INCL, SORT_CALLS, SORT_IMBAL, SORT_COUNT };
static const char *const sort_names[SORT_COUNT] = { "exclusive", "inclusive", "calls", "imbalance" };

struct pf_cache {
	const struct tc_profile *p;   /* key */
	uint32_t n;
	uint32_t *order[SORT_COUNT];  /* row order per sort key, built on first use */
};
static struct pf_cache cache;

/* The profile the view shows: over the application span (docs/span.md) and the
 * visible ranks, computed when the span or the ranks change; kept (with the
 * message histogram of the whole trace from the session's profile). */
static struct { struct tc_profile *p; const struct tc_trace *t; uint32_t gen; } shown;

static const struct tc_profile *profile_of(struct tc_app *a)
{
	if (shown.p && shown.t == a->t && shown.gen == a->vis_gen) return shown.p;
	const struct tc_span *sp = session_span(a->sess);
	const struct tc_profile *whole = session_profile(a->sess);
	if (shown.p) tc_profile_free(shown.p);
	shown.p = tc_profile_compute_window(a->t, sp->rank_t0, sp->rank_t1, a->vis, a->nvis);
	memcpy(shown.p->hist_count, whole->hist_count, sizeof whole->hist_count);
	memcpy(shown.p->hist_bytes, whole->hist_bytes, sizeof whole->hist_bytes);
	shown.t = a->t;
	shown.gen = a->vis_gen;
	return shown.p;
}

static void free_state(struct tc_app *a)
{
	pt_free(a);
	if (shown.p) tc_profile_free(shown.p);
	memset(&shown, 0, sizeof shown);
	for (int i = 0; i < SORT_COUNT; i++) free(cache.order[i]);
	memset(&cache, 0, sizeof cache);
}

static const struct tc_prof_region *cmp_regs;
static int cmp_sort;
static int by_sort(const void *x, const void *y)
{
	const struct tc_prof_region *a = &cmp_regs[*(const uint32_t *)x], *b = &cmp_regs[*(const uint32_t *)y];
	double va, vb;
	switch (cmp_sort) {
	case SORT_INCL: va = a->incl; vb = b->incl; break;
	case SORT_CALLS: va = (double)a->calls; vb = (double)b->calls; break;
	case SORT_IMBAL: va = a->imbalance; vb = b->imbalance; break;
	default: va = a->excl; vb = b->excl; break;
	}
	if (va != vb) return va > vb ? -1 : 1;
	if (a->excl != b->excl) return a->excl > b->excl ? -1 : 1;
	return a->region < b->region ? -1 : a->region > b->region;
}

static const uint32_t *order(struct tc_app *a, const struct tc_profile *p, int sort)
{
	if (cache.p != p || cache.n != p->n) {
		for (int i = 0; i < SORT_COUNT; i++) free(cache.order[i]);
		memset(&cache, 0, sizeof cache);
		cache.p = p;
		cache.n = p->n;
	}
	if (!cache.order[sort]) {
		uint32_t *o = xmalloc(((size_t)p->n + 1) * sizeof *o);
		for (uint32_t i = 0; i < p->n; i++) o[i] = i;
		cmp_regs = p->regions;
		cmp_sort = sort;
		qsort(o, p->n, sizeof *o, by_sort);
		cache.order[sort] = o;
	}
	return cache.order[sort];
}

/* Columns: name, calls, exclusive, %, inclusive, imbalance bar + %, slowest rank. */
struct cols { int name, bar, slow; };
static struct cols layout(int w)
{
	struct cols c;
	int fixed = 46;   /* separators, calls 9, exclusive 10, % 6, inclusive 10, imbalance % 4 */
	c.name = TC_MAX(12, TC_MIN(40, w - fixed - 6 - 13));   /* room for the bar and "rank (time)" */
	c.bar = 6 + TC_MAX(0, TC_MIN(14, (w - fixed - c.name - 6 - 13) / 3));
	c.slow = TC_MAX(0, w - fixed - c.name - c.bar);
	return c;
}

static void draw_header(struct tc_app *a, struct tc_grid *g, int x, int y, int w, struct cols c)
{
	static const char *const col[SORT_COUNT] = { "exclusive", "inclusive", "calls", "imbal" };
	grid_fill(g, x, y, w, 1, ' ', TC_R_HEADING);
	grid_printf(g, x, y, w, TC_R_HEADING, "%-*s %9s %10s %6s %10s %*s slowest rank", c.name, "region", col[SORT_CALLS],
		    col[SORT_EXCL], "%", col[SORT_INCL], c.bar + 5, col[SORT_IMBAL]);
	/* the sort key: a mark before its right-aligned column name */
	int end[SORT_COUNT];
	end[SORT_CALLS] = c.name + 10;
	end[SORT_EXCL] = end[SORT_CALLS] + 11;
	end[SORT_INCL] = end[SORT_EXCL] + 7 + 11;
	end[SORT_IMBAL] = end[SORT_INCL] + 1 + c.bar + 5;
	int mx = x + end[a->pf.sort] - (int)strlen(col[a->pf.sort]) - 1;
	if (mx < x + w) grid_put(g, mx, y, g->ascii ? '*' : 0x25BC, TC_R_HEADING, TC_R_HEADING, 0);
}

static void draw_row(struct tc_app *a, struct tc_grid *g, int x, int y, int w, struct cols c,
		     const struct tc_prof_region *pr, double total, bool sel)
{
	const struct tc_trace *t = a->t;
	enum tc_role role = sel ? TC_R_CURSOR : TC_R_NORMAL;
	if (sel) grid_fill(g, x, y, w, 1, ' ', TC_R_CURSOR);
	bool match = a->region_match && pr->region < t->nregions && a->region_match[pr->region];
	char e[32], i[32], m[32];
	fmt_seconds(e, sizeof e, pr->excl);
	fmt_seconds(i, sizeof i, pr->incl);
	fmt_seconds(m, sizeof m, pr->excl_max);
	grid_text(g, x, y, c.name, match && !sel ? TC_R_MATCH : role, tc_region_name(t, pr->region));
	int cx = x + c.name;
	cx += grid_printf(g, cx, y, x + w - cx, role, " %9llu %10s %5.1f%% %10s ", (unsigned long long)pr->calls, e,
			  total > 0 ? 100.0 * pr->excl / total : 0.0, i);
	if (cx >= x + w) return;
	view_hbar(g, cx, y, TC_MIN(c.bar, x + w - cx), pr->imbalance, sel ? TC_R_CURSOR : TC_R_BAR);
	cx += c.bar;
	if (cx < x + w)
		cx += grid_printf(g, cx, y, x + w - cx, role, " %3.0f%%", 100.0 * pr->imbalance);
	if (cx < x + w && pr->rank_max != TC_NONE)
		grid_printf(g, cx, y, x + w - cx, role, " %u (%s)", pr->rank_max, m);
}

/* Histogram rows: the nonempty buckets, or the `room` most frequent in size order. */
static int hist_rows(const struct tc_profile *p, int room, int *rows)
{
	int nb = 0;
	for (int k = 0; k < TC_PROF_HIST; k++)
		if (p->hist_count[k]) rows[nb++] = k;
	if (nb <= room) return nb;
	/* keep the most frequent, ties by smaller size; rows stay in size order */
	bool keep[TC_PROF_HIST] = { false };
	for (int n = 0; n < room; n++) {
		int best = -1;
		for (int j = 0; j < nb; j++)
			if (!keep[rows[j]] && (best < 0 || p->hist_count[rows[j]] > p->hist_count[rows[best]])) best = j;
		keep[rows[best]] = true;
	}
	int m = 0;
	for (int j = 0; j < nb; j++)
		if (keep[rows[j]]) rows[m++] = rows[j];
	return m;
}

/* Whether the trace has threads or streams the flat profile leaves out. */
static bool has_more_locations(const struct tc_trace *t)
{
	for (uint32_t l = 0; l < t->nlocs; l++) {
		const struct tc_loc *L = &t->locs[l];
		if (L->rank < t->nranks && l != t->ranks[L->rank].loc && L->ncalls) return true;
	}
	return false;
}

/* The selected region's exclusive time over its ranks on the bottom line:
 * the numbers whole, a long name giving way; narrow, the maximum alone. */
static void status_line(struct tc_app *a, struct tc_grid *g, int x, int y, int w, const struct tc_prof_region *pr)
{
	char mn[32], mean[32], mx[32];
	fmt_seconds(mn, sizeof mn, pr->excl_min);
	fmt_seconds(mean, sizeof mean, pr->nranks ? pr->excl / pr->nranks : 0);
	fmt_seconds(mx, sizeof mx, pr->excl_max);
	char full[160], brief[80];
	snprintf(full, sizeof full, ": %u ranks, exclusive min %s mean %s max %s (rank %u)", pr->nranks, mn, mean, mx,
		 pr->rank_max);
	snprintf(brief, sizeof brief, ": exclusive max %s (rank %u)", mx, pr->rank_max);
	grid_text_tail(g, x, y, w, TC_R_STATUS, tc_region_name(a->t, pr->region), (const char *[]){ full, brief }, 2, 12);
}

static void draw_flat(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_profile *p = profile_of(a);
	const uint32_t *o = order(a, p, a->pf.sort);
	char s1[32], s2[32];
	fmt_seconds(s1, sizeof s1, p->total);
	fmt_seconds(s2, sizeof s2, p->mpi);
	const struct tc_span *sp = session_span(a->sess);
	char s3[32], line[256];
	fmt_seconds(s3, sizeof s3, sp->init_s);
	snprintf(line, sizeof line, "%sRank time %s, MPI %s (%.1f%%), %u regions, by %s; after MPI_Init%s%s%s",
		 has_more_locations(a->t) ? "Master threads only (t: every thread and stream). " : "", s1, s2,
		 p->total > 0 ? 100.0 * p->mpi / p->total : 0.0, p->n, sort_names[a->pf.sort],
		 sp->have_init ? " (took " : "", sp->have_init ? s3 : "", sp->have_init ? ")" : "");
	grid_text_elide(g, r.x, r.y, r.w, TC_R_LABEL, line);
	bool status = r.h >= 10;
	int nb = 0;
	for (int k = 0; k < TC_PROF_HIST; k++) nb += p->hist_count[k] != 0;
	int hroom = TC_MAX(1, TC_MIN(nb, (r.h - 4) / 3));
	int rows = r.h - 2 - 1 - hroom - status;   /* summary, header, histogram heading */
	if (rows < 1) { hroom = TC_MAX(1, hroom + rows - 1); rows = 1; }
	a->pf.rows = rows;
	struct cols c = layout(r.w);
	draw_header(a, g, r.x, r.y + 1, r.w, c);
	if (a->pf.sel >= p->n) a->pf.sel = p->n ? p->n - 1 : 0;
	if (a->pf.sel < a->pf.top) a->pf.top = a->pf.sel;
	if (a->pf.sel >= a->pf.top + (uint32_t)rows) a->pf.top = a->pf.sel - (uint32_t)rows + 1;
	if (a->pf.top + (uint32_t)rows > p->n) a->pf.top = p->n > (uint32_t)rows ? p->n - (uint32_t)rows : 0;
	for (int i = 0; i < rows; i++) {
		uint32_t k = a->pf.top + (uint32_t)i;
		if (k >= p->n) break;
		draw_row(a, g, r.x, r.y + 2 + i, r.w, c, &p->regions[o[k]], p->total, k == a->pf.sel);
	}
	if (!p->n) grid_text(g, r.x, r.y + 2, r.w, TC_R_LABEL, "  no calls in this trace");

	/* message sizes */
	int y = r.y + 2 + rows;
	int hr[TC_PROF_HIST];
	int nh = hist_rows(p, hroom, hr);
	uint64_t nmsg = 0, bytes = 0, top = 0;
	for (int k = 0; k < TC_PROF_HIST; k++) {
		nmsg += p->hist_count[k];
		bytes += p->hist_bytes[k];
		top = TC_MAX(top, p->hist_count[k]);
	}
	fmt_bytes(s1, sizeof s1, bytes);
	char more[64] = "";
	if (nh < nb) snprintf(more, sizeof more, ", the %d most frequent of %d sizes", nh, nb);
	grid_printf(g, r.x, y, r.w, TC_R_HEADING, "Message sizes: %llu messages, %s%s%s", (unsigned long long)nmsg, s1, more,
		    nmsg ? "" : " (none)");
	int bw = TC_MAX(8, TC_MIN(40, r.w - 52));
	for (int i = 0; i < nh && i < hroom; i++) {
		int k = hr[i];
		char lo[24], hi[24], b[24];
		fmt_bytes(lo, sizeof lo, k ? 1ULL << (k - 1) : 0);
		fmt_bytes(hi, sizeof hi, k ? (1ULL << k) - 1 : 0);
		fmt_bytes(b, sizeof b, p->hist_bytes[k]);
		int yy = y + 1 + i, x = r.x;
		x += grid_printf(g, x, yy, r.w, TC_R_LABEL, "  %9s-%-9s ", lo, hi);
		if (x >= r.x + r.w) continue;
		view_hbar(g, x, yy, TC_MIN(bw, r.x + r.w - x), top ? (double)p->hist_count[k] / (double)top : 0, TC_R_BAR);
		x += bw;
		if (x < r.x + r.w)
			grid_printf(g, x, yy, r.x + r.w - x, TC_R_NORMAL, " %9llu  %s", (unsigned long long)p->hist_count[k], b);
	}
	if (!status) return;
	int sy = r.y + r.h - 1;
	grid_fill(g, r.x, sy, r.w, 1, ' ', TC_R_STATUS);
	if (p->n) status_line(a, g, r.x, sy, r.w, &p->regions[o[a->pf.sel]]);
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	if (a->pfv && a->pfv->mode != PT_FLAT) pt_draw(a, g, r);
	else draw_flat(a, g, r);
}

/* An exact, case-sensitive pattern for a name: ^name$ with every ASCII
 * punctuation character escaped. */
static char *exact_pattern(const char *name)
{
	struct strbuf b;
	sb_init(&b);
	bool upper = false;
	for (const char *s = name; *s; s++) upper |= *s >= 'A' && *s <= 'Z';
	if (!upper) sb_add(&b, "(?-i)");   /* the search is caseless without capitals */
	sb_add(&b, "^");
	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		char c[3] = { '\\', (char)*s, 0 };
		bool punct = *s < 0x80 && !(*s >= '0' && *s <= '9') && !(*s >= 'a' && *s <= 'z') &&
			     !(*s >= 'A' && *s <= 'Z') && *s != '_' && *s > ' ';
		sb_add(&b, punct ? c : c + 1);
	}
	sb_add(&b, "$");
	return b.s;
}

/* A click on a table row selects it. */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	(void)x;
	if (a->pfv && a->pfv->mode != PT_FLAT)
		return app_list_click(&a->pfv->sel, a->pfv->top, a->pfv->nreg, a->pfv->rows, r.y + 2, y);
	return app_list_click(&a->pf.sel, a->pf.top, profile_of(a)->n, a->pf.rows, r.y + 2, y);
}

/* Enter: the region searched by its exact name (the timelines highlight it). */
static void highlight(struct tc_app *a, const char *name)
{
	char *pat = exact_pattern(name);
	/* the next call after the cursor, else the one before it */
	if (!app_set_search(a, pat) && a->search && !strcmp(a->search, pat) && !app_search_next(a, true))
		app_message(a, false, "/%s: highlighted in the timelines (no call on the visible ranks)", pat);
	free(pat);
}

/* t: flat → per-rank table → rank statistics → flat; w: per rank / per location (opens the table). */
static bool table_key(struct tc_app *a, enum tc_action act)
{
	struct tc_pfview *v = pt_state(a);
	if (act == ACT_TABLE) v->mode = (v->mode + 1) % PT_MODES;
	else {
		v->per_loc = !v->per_loc;
		if (v->mode == PT_FLAT) v->mode = PT_WHO;
	}
	static const char *const names[PT_MODES] = { "flat profile (master threads)", "a column per %s",
						     "statistics over the %ss" };
	char m[96];
	snprintf(m, sizeof m, names[v->mode], v->per_loc ? "location" : "rank");
	app_message(a, false, "profile: %s%s", m, v->mode == PT_FLAT ? "" : v->per_loc ? ", each thread and stream" : ", threads and streams summed");
	return true;
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	if (act == ACT_TABLE || act == ACT_WHO) return table_key(a, act);
	if (act == ACT_METRIC && (!a->pfv || a->pfv->mode == PT_FLAT)) {
		app_message(a, false, "m: the table's value (exclusive, inclusive, calls); t opens the table");
		return true;
	}
	if (a->pfv && a->pfv->mode != PT_FLAT) {
		if (act != ACT_ENTER) return pt_key(a, act);
		uint32_t reg = pt_selected_region(a);
		if (reg != TC_NONE) highlight(a, tc_region_name(a->t, reg));
		return true;
	}
	const struct tc_profile *p = profile_of(a);
	uint32_t n = p->n, *s = &a->pf.sel;
	if (app_list_move(s, n, a->pf.rows, act)) return true;
	switch (act) {
	case ACT_SORT: {
		/* keep the selected region selected */
		uint32_t reg = n ? order(a, p, a->pf.sort)[*s] : 0;
		a->pf.sort = (a->pf.sort + 1) % SORT_COUNT;
		const uint32_t *o = order(a, p, a->pf.sort);
		for (uint32_t i = 0; i < n; i++)
			if (o[i] == reg) *s = i;
		app_message(a, false, "sorted by %s", sort_names[a->pf.sort]);
		return true;
	}
	case ACT_ENTER: {
		if (!n) return true;
		highlight(a, tc_region_name(a->t, p->regions[order(a, p, a->pf.sort)[*s]].region));
		return true;
	}
	default: return false;
	}
}

/* One line per region in the view's sort order; share is of all rank time. */
static void csv(struct tc_app *a, FILE *f)
{
	if (a->pfv && a->pfv->mode != PT_FLAT) {
		pt_csv(a, f);
		return;
	}
	const struct tc_profile *p = profile_of(a);
	const uint32_t *o = order(a, p, a->pf.sort);
	fprintf(f, "region,calls,exclusive_s,percent,inclusive_s,imbalance,slowest_rank,slowest_exclusive_s\n");
	for (uint32_t i = 0; i < p->n; i++) {
		const struct tc_prof_region *pr = &p->regions[o[i]];
		export_csv_str(f, tc_region_name(a->t, pr->region));
		fprintf(f, ",%llu,%.9g,%.3f,%.9g,%.4f,", (unsigned long long)pr->calls,
			pr->excl, p->total > 0 ? 100.0 * pr->excl / p->total : 0.0, pr->incl, pr->imbalance);
		if (pr->rank_max != TC_NONE) fprintf(f, "%u,%.9g\n", pr->rank_max, pr->excl_max);
		else fprintf(f, ",\n");
	}
}

static const char *const help[] = {
	"The flat profile: per region the calls, exclusive time (summed over ranks),",
	"its share of all rank time, inclusive time, the load imbalance over the",
	"ranks that called it ((max - mean) / max of their exclusive times) and the",
	"slowest rank with its exclusive time. s cycles the sort key. Below: message",
	"sizes in power-of-two buckets (count and bytes). Enter searches the selected",
	"region by its exact name: the timelines highlight its calls, the cursor goes",
	"to its next call (or the one before), n/N step through them.",
	"The flat profile is the master threads'. t shows the per-rank x function",
	"table: exclusive time of every region (rows) per rank, each rank the sum",
	"of its threads and streams (w: per location, each thread and stream its",
	"own column), over the whole trace; t again: statistics over the ranks",
	"that called it (min, median, max, imbalance); t again: the flat profile.",
	"h/l move the column cursor, s sorts by it (again: reverse); m shows",
	"inclusive time, then calls, then exclusive time again.",
	NULL,
};

const struct view view_profile = {
	.name = "profile", .id = TC_V_PROFILE, .min_w = 50, .min_h = 5, .draw = draw, .key = key, .help = help, .csv = csv,
	.click = click,
	.free_state = free_state, .filtered = true,
	.ready = view_ready_profile, .prepare = view_prepare_profile,
};
