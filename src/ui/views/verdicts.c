/* verdicts.c — why communication is slow (PCLVis §6, analysis in
 * src/analysis/verdict.c): the verdict lines first (cause, confidence bar,
 * scope, summary, advice, wrapped to the width), then one panel per cause
 * with its evidence over the latency time windows:
 *   mapping     intra- and inter-node messages per window (a two-part bar
 *               strip), the overall share and the remap before/after (O1);
 *   pattern     the largest load balance LB and the busiest rank's load per
 *               window, the busiest rank of the window under the cursor (O2);
 *   background  the inter-node latency level and its score against the quiet
 *               windows per window, disturbed windows marked `!` (O3);
 *   imbalance   the blamed ranks and their worst steps.
 * Scope (r): the run, then each region of ≥ 2 ranks (tc_verdict_windows).
 * j/k select a line, h/l (or [ ]) the window of the strips; Enter jumps to
 * what is behind the line: a window → the physical view over it, a rank and
 * step → the logical view there.  Lines are built once per (scope, width). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "analysis_verdict.h"
#include "ui.h"

#define L_SCALE 4.0   /* latency colours span L 0..4, as in the DAG view */
#define LABEL_W 11    /* strip label column */

enum vkind { K_TEXT, K_VERDICT, K_INTRA, K_INTER, K_LB, K_MAXMEAN, K_BGLEVEL, K_BGSCORE, K_AXIS, K_BUSIEST };
enum jkind { J_NONE, J_WINDOWS, J_STRIP, J_RANK, J_BUSIEST };

struct vline {
	uint8_t kind, jump;
	enum tc_role role;
	char *s;                 /* text (K_TEXT, K_VERDICT: the part after the bar) */
	uint32_t verdict;        /* K_VERDICT: index into V->v */
	uint32_t w0, w1;         /* J_WINDOWS: windows, inclusive */
	uint32_t rank;           /* J_RANK */
	int64_t step;            /* J_RANK: -2 = keep the cursor's step */
};

struct tc_verdview {
	uint32_t scope;          /* TC_NONE: the run, else a region id */
	bool built;
	uint32_t built_scope;
	int built_w;
	uint32_t built_gen;      /* the app's vis_gen: evidence rows are the visible ranks' */
	struct tc_verdict_win *win;   /* the scope's panels, one per window */
	uint32_t nwin, group, ncols;  /* windows; windows per strip column; strip columns */
	VEC(struct vline) L;
	uint32_t sel, top, wcur;
	bool wcur_set;
	int page;
};

static void clear_lines(struct tc_verdview *s)
{
	for (size_t i = 0; i < s->L.n; i++) free(s->L.a[i].s);
	VEC_FREE(s->L);
}

static void free_state(struct tc_app *a)
{
	struct tc_verdview *s = a->verdv;
	if (!s) return;
	clear_lines(s);
	free(s->win);
	free(s);
	a->verdv = NULL;
}

static struct vline *add(struct tc_verdview *s, uint8_t kind, enum tc_role role, const char *fmt, ...) TC_PRINTF(4, 5);
static struct vline *add(struct tc_verdview *s, uint8_t kind, enum tc_role role, const char *fmt, ...)
{
	struct vline l = { .kind = kind, .role = role, .step = -2 };
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		l.s = xvasprintf(fmt, ap);
		va_end(ap);
	}
	VEC_PUSH(s->L, l);
	return &s->L.a[s->L.n - 1];
}

/* Text wrapped at spaces to width w (tc_wrap), each line indented; lines copy the jump of tmpl. */
static void wrap(struct tc_verdview *s, const char *text, int indent, int w, enum tc_role role, const struct vline *tmpl)
{
	int room = w - indent > 10 ? w - indent : 10;
	while (*text == ' ') text++;
	int n = tc_wrap(text, room, 0, NULL, NULL);
	for (int k = 0; k < n; k++) {
		const char *p;
		int bytes;
		tc_wrap(text, room, k, &p, &bytes);
		struct vline *l = add(s, K_TEXT, role, "%*s%.*s", indent, "", bytes, p);
		if (tmpl) { l->jump = tmpl->jump; l->w0 = tmpl->w0; l->w1 = tmpl->w1; l->rank = tmpl->rank; l->step = tmpl->step; }
	}
}

static void scope_text(char *b, size_t n, const struct tc_verdict *v)
{
	char w[64] = "";
	if (v->windowed) snprintf(w, sizeof w, ", %.4f-%.4f s", v->start, v->end);
	if (v->scope == TC_NONE) snprintf(b, n, "run%s", w);
	else snprintf(b, n, "region %u%s", v->scope, w);
}

/* Where Enter on a verdict leads: its windows, its worst step, its first rank. */
static void verdict_jump(struct vline *l, const struct tc_verdict *v)
{
	if (v->windowed) { l->jump = J_WINDOWS; l->w0 = v->win_first; l->w1 = v->win_last; }
	else if (v->nsteps) { l->jump = J_RANK; l->rank = v->steps[0].rank; l->step = v->steps[0].step; }
	else if (v->nranks) { l->jump = J_RANK; l->rank = v->ranks[0]; }
}

static void ranks_text(struct strbuf *b, const uint32_t *r, uint32_t n, size_t max)
{
	struct strbuf t;
	sb_init(&t);
	fmt_ranges(&t, r, n);
	if (t.len > max) {
		t.s[max] = 0;
		char *c = strrchr(t.s, ',');
		if (c) *c = 0;
		sb_printf(b, "%s,... (%u ranks)", t.s, n);
	} else {
		sb_add(b, t.s ? t.s : "");
	}
	sb_free(&t);
}

static void strip_lines(struct tc_verdview *s, uint8_t k1, const char *l1, uint8_t k2, const char *l2)
{
	struct vline *l = add(s, k1, TC_R_LABEL, "  %-*s ", LABEL_W - 3, l1);
	l->jump = J_STRIP;
	if (l2) {
		l = add(s, k2, TC_R_LABEL, "  %-*s ", LABEL_W - 3, l2);
		l->jump = J_STRIP;
	}
	l = add(s, K_AXIS, TC_R_AXIS, "  %-*s ", LABEL_W - 3, "window");
	l->jump = J_STRIP;
}

/* The scope's windows (the run's, or recomputed for a region) and the
 * strips' columns; the window cursor on the most latent window, else the
 * busiest, the first time. */
static void build_windows(struct tc_app *a, struct tc_verdview *s, int w)
{
	const struct tc_verdicts *V = session_verdicts(a->sess);
	const struct tc_latency *lat = session_latency(a->sess);
	free(s->win);
	s->nwin = lat->nwindows;
	s->win = xcalloc((size_t)s->nwin + 1, sizeof *s->win);
	if (s->scope == TC_NONE) memcpy(s->win, V->win, (size_t)TC_MIN(s->nwin, V->nwindows) * sizeof *s->win);
	else tc_verdict_windows(a->t, lat, s->scope, &V->opts, s->win);
	s->ncols = w > LABEL_W + 1 ? (uint32_t)(w - LABEL_W - 1) : 1;
	s->group = s->nwin > s->ncols ? (s->nwin + s->ncols - 1) / s->ncols : 1;
	if (!s->wcur_set) {
		s->wcur_set = true;
		s->wcur = V->hot_window;
		if (s->wcur == TC_NONE) {
			s->wcur = 0;
			for (uint32_t k = 0; k < s->nwin; k++)
				if (s->win[k].msgs > s->win[s->wcur].msgs) s->wcur = k;
		}
	}
	if (s->wcur >= s->nwin) s->wcur = s->nwin ? s->nwin - 1 : 0;
}

/* The heading and the verdicts of the scope (under a filter they stay
 * global: the analysis is of the whole run; the rank rows below are the
 * filter's). */
static void build_verdicts(struct tc_app *a, struct tc_verdview *s, int w)
{
	const struct tc_verdicts *V = session_verdicts(a->sess);
	const struct tc_latency *lat = session_latency(a->sess);
	struct strbuf b;
	sb_init(&b);
	if (a->nvis < a->t->nranks)
		add(s, K_TEXT, TC_R_LABEL, "(verdict over all ranks; strips: all ranks; rank rows: the %u of f:)", a->nvis);
	if (s->scope == TC_NONE) {
		add(s, K_TEXT, TC_R_HEADING, "Verdicts for the run (r: next scope)");
	} else {
		const struct tc_lat_region *R = &lat->regions[s->scope];
		sb_printf(&b, "Verdicts for region %u: ranks ", s->scope);
		ranks_text(&b, R->ranks, R->nranks, 40);
		sb_printf(&b, ", %u node%s", R->nnodes, R->nnodes == 1 ? "" : "s");
		if (!isnan(R->rl)) sb_printf(&b, ", RL %.2f", R->rl);
		add(s, K_TEXT, TC_R_HEADING, "%s", b.s);
	}
	uint32_t shown = 0;
	for (uint32_t i = 0; i < V->n; i++) {
		const struct tc_verdict *v = &V->v[i];
		if (v->scope != s->scope && v->cause != TC_CAUSE_NONE) continue;
		if (v->cause == TC_CAUSE_NONE && s->scope != TC_NONE) continue;
		char sc[96];
		scope_text(sc, sizeof sc, v);
		b.len = 0;
		b.s[0] = 0;
		sb_printf(&b, " %.2f  %s", v->confidence, sc);
		if (v->nranks) {
			sb_add(&b, "  ranks ");
			ranks_text(&b, v->ranks, v->nranks, 30);
		}
		struct vline *l = add(s, K_VERDICT, v->cause == TC_CAUSE_NONE ? TC_R_LABEL : TC_R_HELP_KEY, "%s", b.s);
		l->verdict = i;
		verdict_jump(l, v);
		struct vline tmpl = *l;
		wrap(s, v->summary, 2, w, TC_R_NORMAL, &tmpl);
		b.len = 0;
		b.s[0] = 0;
		sb_printf(&b, "-> %s", v->advice);
		wrap(s, b.s, 2, w, TC_R_LABEL, &tmpl);
		shown++;
	}
	if (!shown) add(s, K_TEXT, TC_R_LABEL, "  no verdict for this scope: nothing stands out");
	sb_free(&b);
}

/* A1: the share of messages and bytes crossing nodes, the remap, the strips. */
static void build_mapping(struct tc_app *a, struct tc_verdview *s, int w)
{
	const struct tc_verdicts *V = session_verdicts(a->sess);
	uint64_t msgs = 0, inter = 0, bytes = 0, binter = 0;
	for (uint32_t k = 0; k < s->nwin; k++) {
		msgs += s->win[k].msgs;
		inter += s->win[k].inter;
		bytes += s->win[k].bytes;
		binter += s->win[k].bytes_inter;
	}
	add(s, K_TEXT, TC_R_NORMAL, "%s", "");
	struct strbuf b;
	sb_init(&b);
	sb_printf(&b, "Mapping (A1): %.1f%% of %llu messages cross nodes", msgs ? 100.0 * (double)inter / (double)msgs : 0.0,
		  (unsigned long long)msgs);
	if (bytes) sb_printf(&b, " (%.1f%% of the bytes)", 100.0 * (double)binter / (double)bytes);
	if (!isnan(V->inter_cost)) sb_printf(&b, "; inter/intra cost %.2fx", V->inter_cost);
	wrap(s, b.s, 0, w, TC_R_HEADING, NULL);
	char b1[32], b2[32];
	fmt_bytes(b1, sizeof b1, V->remap_bytes_before);
	fmt_bytes(b2, sizeof b2, V->remap_bytes_after);
	b.len = 0;
	b.s[0] = 0;
	if (s->scope == TC_NONE)
		sb_printf(&b, "remap (O1): inter-node messages %llu -> %llu, bytes %s -> %s, %u ranks move%s",
			  (unsigned long long)V->remap_msgs_before, (unsigned long long)V->remap_msgs_after, b1, b2,
			  V->remap_moved, V->remap_improved ? "" : " (the placement is already as good)");
	else
		sb_add(&b, "the remap (O1) is computed for the run: r to the run scope");
	wrap(s, b.s, 2, w, TC_R_NORMAL, NULL);
	strip_lines(s, K_INTRA, "intra", K_INTER, "inter");
	sb_free(&b);
}

/* A2: load balance and the busiest rank per window. */
static void build_pattern(struct tc_app *a, struct tc_verdview *s, int w)
{
	const struct tc_verdicts *V = session_verdicts(a->sess);
	add(s, K_TEXT, TC_R_NORMAL, "%s", "");
	double lbm = 0, mmm = 0;
	for (uint32_t k = 0; k < s->nwin; k++) {
		if (s->win[k].lb_max > lbm) lbm = s->win[k].lb_max;
		if (s->win[k].max_mean > mmm) mmm = s->win[k].max_mean;
	}
	char *h = xasprintf("Pattern (A2): per window LB max (up to %.1f) and busiest rank / mean (up to %.1f); "
			    "a hot spot has LB >= %g", lbm, mmm, V->opts.pat_lb);
	wrap(s, h, 0, w, TC_R_HEADING, NULL);
	free(h);
	strip_lines(s, K_LB, "LB max", K_MAXMEAN, "max/mean");
	struct vline *l = add(s, K_BUSIEST, TC_R_NORMAL, NULL);
	l->jump = J_BUSIEST;
}

/* A3: the inter-node level and score per window, the disturbed runs. */
static void build_background(struct tc_app *a, struct tc_verdview *s, int w)
{
	const struct tc_verdicts *V = session_verdicts(a->sess);
	const struct tc_latency *lat = session_latency(a->sess);
	add(s, K_TEXT, TC_R_NORMAL, "%s", "");
	uint32_t ndist = 0;
	for (uint32_t k = 0; k < s->nwin; k++) ndist += s->win[k].disturbed;
	struct strbuf b;
	sb_init(&b);
	sb_add(&b, "Background (A3): inter-node level (mean L) and score per window");
	if (s->scope == TC_NONE && !isnan(V->bg_quiet)) sb_printf(&b, "; quiet %.2f, spread %.2f", V->bg_quiet, V->bg_spread);
	sb_printf(&b, "; %u disturbed (!)", ndist);
	wrap(s, b.s, 0, w, TC_R_HEADING, NULL);
	sb_free(&b);
	strip_lines(s, K_BGLEVEL, "level", K_BGSCORE, "score");
	for (uint32_t k = 0; k < s->nwin; k++) {   /* runs of disturbed windows */
		if (!s->win[k].disturbed) continue;
		uint32_t e = k;
		while (e + 1 < s->nwin && s->win[e + 1].disturbed) e++;
		double lv = 0;
		for (uint32_t j = k; j <= e; j++) lv = fmax(lv, s->win[j].bg_level);
		struct vline *l = add(s, K_TEXT, TC_R_NORMAL, "  disturbed: windows %u-%u, %.4f-%.4f s, level up to %.2f", k, e,
				      tc_sec(a->t, tc_lat_win_start(lat, k)), tc_sec(a->t, tc_lat_win_end(lat, e)), lv);
		l->jump = J_WINDOWS;
		l->w0 = k;
		l->w1 = e;
		k = e;
	}
}

/* One blamed rank's line and its worst steps (Enter: the logical view there). */
static void imbalance_rank(struct tc_app *a, struct tc_verdview *s, const struct tc_verdict *v,
			   const struct tc_verdict_rank *x, uint32_t r)
{
	const struct tc_trace *t = a->t;
	char b1[32], b2[32], b3[32];
	fmt_seconds(b1, sizeof b1, x->own_late);
	fmt_seconds(b2, sizeof b2, x->caused);
	fmt_seconds(b3, sizeof b3, x->waited);
	struct vline *l = add(s, K_TEXT, TC_R_NORMAL, "  rank %u on %s: own lateness %s, caused %s of waiting, waited %s", r,
			      t->ranks[r].node < t->nnodes ? t->nodes[t->ranks[r].node].name : "?", b1, b2, b3);
	l->jump = J_RANK;
	l->rank = r;
	for (uint32_t j = 0; j < v->nsteps; j++)
		if (v->steps[j].rank == r) { l->step = v->steps[j].step; break; }
	for (uint32_t j = 0; j < v->nsteps; j++) {
		if (v->steps[j].rank != r) continue;
		fmt_seconds(b1, sizeof b1, v->steps[j].seconds);
		l = add(s, K_TEXT, TC_R_NORMAL, "    step %u at %.4f s: own lateness +%s", v->steps[j].step, v->steps[j].at, b1);
		l->jump = J_RANK;
		l->rank = r;
		l->step = v->steps[j].step;
	}
}

/* Imbalance: the blamed ranks (of the scope, inside the filter) and their steps. */
static void build_imbalance(struct tc_app *a, struct tc_verdview *s)
{
	const struct tc_verdicts *V = session_verdicts(a->sess);
	const struct tc_latency *lat = session_latency(a->sess);
	for (uint32_t i = 0; i < V->n; i++) {
		const struct tc_verdict *v = &V->v[i];
		if (v->cause != TC_CAUSE_IMBALANCE) continue;
		bool any = s->scope == TC_NONE;
		if (!any) {
			const struct tc_lat_region *R = &lat->regions[s->scope];
			for (uint32_t k = 0; k < v->nranks && !any; k++)
				for (uint32_t j = 0; j < R->nranks && !any; j++) any = R->ranks[j] == v->ranks[k];
		}
		if (!any) continue;
		add(s, K_TEXT, TC_R_NORMAL, "%s", "");
		add(s, K_TEXT, TC_R_HEADING, "Imbalance: blamed ranks and their worst steps (Enter: logical view there)");
		uint32_t hidden = 0;
		for (uint32_t k = 0; k < v->nranks && k < 64; k++) {
			uint32_t r = v->ranks[k];
			const struct tc_verdict_rank *x = r < V->nranks ? &V->rank[r] : NULL;
			if (!x) continue;
			if (!app_rank_visible(a, r)) { hidden++; continue; }
			imbalance_rank(a, s, v, x, r);
		}
		if (hidden) add(s, K_TEXT, TC_R_LABEL, "  %u blamed rank%s outside the filter (Esc clears it)", hidden,
				hidden == 1 ? "" : "s");
	}
}

static void build(struct tc_app *a, struct tc_verdview *s, int w)
{
	clear_lines(s);
	build_windows(a, s, w);
	s->built = true;
	s->built_scope = s->scope;
	s->built_w = w;
	s->built_gen = a->vis_gen;
	build_verdicts(a, s, w);
	if (!s->nwin) {
		add(s, K_TEXT, TC_R_LABEL, "no time windows (no messages): no panels");
		return;
	}
	build_mapping(a, s, w);
	build_pattern(a, s, w);
	build_background(a, s, w);
	build_imbalance(a, s);
}

static struct tc_verdview *state(struct tc_app *a)
{
	if (!a->verdv) {
		a->verdv = xcalloc(1, sizeof *a->verdv);
		a->verdv->scope = TC_NONE;
	}
	return a->verdv;
}

static void ensure(struct tc_app *a, struct tc_verdview *s, int w)
{
	if (s->built && s->built_scope == s->scope && s->built_w == w && s->built_gen == a->vis_gen) return;
	bool first = !s->built;
	build(a, s, w);
	if (first)   /* start on the first verdict: Enter leads to what it blames */
		for (uint32_t i = 0; i < s->L.n; i++)
			if (s->L.a[i].kind == K_VERDICT) { s->sel = i; break; }
	if (s->sel >= s->L.n) s->sel = s->L.n ? (uint32_t)s->L.n - 1 : 0;
}

/* --- strips ------------------------------------------------------------------------- */
/* The panels of strip column c: windows [c*group, ...) summed (counts), maximum (LB,
 * max/mean, score), level weighted by messages, disturbed if any. */
static struct tc_verdict_win column(const struct tc_verdview *s, uint32_t c)
{
	struct tc_verdict_win o = { .busiest = TC_NONE, .bg_level = NAN, .bg_score = NAN };
	double lsum = 0;
	uint32_t ln = 0;
	for (uint32_t k = c * s->group; k < (c + 1) * s->group && k < s->nwin; k++) {
		const struct tc_verdict_win *x = &s->win[k];
		o.msgs += x->msgs;
		o.inter += x->inter;
		if (x->lb_max > o.lb_max) o.lb_max = x->lb_max;
		if (x->max_mean > o.max_mean) { o.max_mean = x->max_mean; o.busiest = x->busiest; }
		if (o.busiest == TC_NONE) o.busiest = x->busiest;
		if (x->n_bg && !isnan(x->bg_level)) { lsum += x->bg_level * x->n_bg; ln += x->n_bg; }
		if (!isnan(x->bg_score) && (isnan(o.bg_score) || x->bg_score > o.bg_score)) o.bg_score = x->bg_score;
		o.disturbed |= x->disturbed;
	}
	o.n_bg = ln;
	if (ln) o.bg_level = lsum / ln;
	return o;
}

static void cell_bar(struct tc_grid *g, int x, int y, double frac, enum tc_role fg)
{
	int e = frac > 0 ? (int)(frac * 8 + 0.5) : 0;
	if (frac > 0 && e == 0) e = 1;
	uint32_t ch = grid_lower_eighth(g, e);
	if (ch == ' ') grid_putr(g, x, y, ' ', TC_R_NORMAL);
	else grid_put(g, x, y, ch, fg, TC_R_NORMAL, TC_A_SOLID);
}

static void draw_strip(struct tc_app *a, struct tc_verdview *s, struct tc_grid *g, int x0, int y, int w, uint8_t kind)
{
	uint32_t ncols = (s->nwin + s->group - 1) / s->group;
	if (ncols > (uint32_t)w) ncols = (uint32_t)w;
	double vmax = 0;
	for (uint32_t c = 0; c < ncols; c++) {   /* one scale for the strip (intra and inter share one) */
		struct tc_verdict_win o = column(s, c);
		double v = kind == K_INTRA || kind == K_INTER ? (double)TC_MAX(o.msgs - o.inter, o.inter)
			 : kind == K_LB ? o.lb_max : kind == K_MAXMEAN ? o.max_mean : kind == K_BGLEVEL ? o.bg_level : 0;
		if (v > vmax) vmax = v;
	}
	if (kind == K_BGLEVEL && vmax < 2) vmax = 2;   /* a normal level (about 1) stays half high */
	uint32_t cc = s->wcur / s->group;
	for (uint32_t c = 0; c < ncols; c++) {
		struct tc_verdict_win o = column(s, c);
		int x = x0 + (int)c;
		switch (kind) {
		case K_INTRA: cell_bar(g, x, y, vmax > 0 ? (double)(o.msgs - o.inter) / vmax : 0, TC_R_BAR); break;
		case K_INTER: cell_bar(g, x, y, vmax > 0 ? (double)o.inter / vmax : 0, TC_R_MPI); break;
		case K_LB: cell_bar(g, x, y, vmax > 0 ? o.lb_max / vmax : 0, app_map_role(o.lb_max, vmax)); break;
		case K_MAXMEAN: cell_bar(g, x, y, vmax > 0 ? o.max_mean / vmax : 0, app_map_role(o.max_mean, vmax)); break;
		case K_BGLEVEL:
			if (!isnan(o.bg_level)) cell_bar(g, x, y, vmax > 0 ? o.bg_level / vmax : 0, app_map_role(o.bg_level, L_SCALE));
			break;
		case K_BGSCORE:
			if (o.disturbed) grid_put(g, x, y, '!', TC_R_ERROR, TC_R_ERROR, 0);
			else if (isnan(o.bg_score)) grid_put(g, x, y, grid_glyph(g, TC_G_AGG), TC_R_AGG, TC_R_NORMAL, 0);
			else grid_put(g, x, y, '0' + (o.bg_score < 0 ? 0 : o.bg_score > 9 ? 9 : (int)o.bg_score), TC_R_LABEL,
				      TC_R_NORMAL, 0);
			break;
		case K_AXIS:
			if (c % 10 == 0 && c + 4 <= ncols) grid_printf(g, x, y, 5, TC_R_AXIS, "%u", c * s->group);
			break;
		}
	}
	if (cc < ncols) {   /* the window cursor */
		struct tc_cell *p = grid_at(g, x0 + (int)cc, y);
		if (p && kind == K_AXIS) app_axis_cursor(g, x0 + (int)cc, y);
		else if (p) p->bg = TC_R_SELECTION;
	}
}

static void busiest_text(struct tc_app *a, struct tc_verdview *s, struct strbuf *b)
{
	const struct tc_latency *lat = session_latency(a->sess);
	uint32_t c = s->wcur / s->group;
	struct tc_verdict_win o = column(s, c);
	uint32_t w0 = c * s->group, w1 = TC_MIN(w0 + s->group, s->nwin) - 1;
	if (w0 == w1) sb_printf(b, "  window %u (%.4f-%.4f s): ", w0, tc_sec(a->t, tc_lat_win_start(lat, w0)),
				 tc_sec(a->t, tc_lat_win_end(lat, w1)));
	else sb_printf(b, "  windows %u-%u (%.4f-%.4f s): ", w0, w1, tc_sec(a->t, tc_lat_win_start(lat, w0)),
		       tc_sec(a->t, tc_lat_win_end(lat, w1)));
	if (o.busiest == TC_NONE) sb_add(b, "no messages");
	else sb_printf(b, "busiest rank %u (%.1fx mean), LB %.1f, %u msgs", o.busiest, o.max_mean, o.lb_max,
		       o.msgs);
}

static void conf_bar(struct tc_grid *g, int x, int y, double c)
{
	int e = (int)(c * 40 + 0.5);
	for (int i = 0; i < 5; i++, e -= 8) {
		uint32_t ch = grid_left_eighth(g, e);
		if (ch == ' ') grid_put(g, x + i, y, g->ascii ? '.' : 0x2591, TC_R_INACTIVE, TC_R_NORMAL, 0);
		else grid_put(g, x + i, y, ch, TC_R_BAR, TC_R_NORMAL, TC_A_SOLID);
	}
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	struct tc_verdview *s = state(a);
	ensure(a, s, r.w);
	const struct tc_verdicts *V = session_verdicts(a->sess);
	int rows = r.h;
	if (s->sel < s->top) s->top = s->sel;
	if (s->sel >= s->top + (uint32_t)rows) s->top = s->sel - (uint32_t)rows + 1;
	if (s->top + (uint32_t)rows > s->L.n) s->top = s->L.n > (size_t)rows ? (uint32_t)(s->L.n - (size_t)rows) : 0;
	s->page = rows;
	struct strbuf b;
	sb_init(&b);
	for (int y = 0; y < rows && s->top + (size_t)y < s->L.n; y++) {
		uint32_t i = s->top + (uint32_t)y;
		const struct vline *l = &s->L.a[i];
		int yy = r.y + y;
		bool sel = i == s->sel;
		switch (l->kind) {
		case K_VERDICT: {
			const struct tc_verdict *v = &V->v[l->verdict];
			int x = r.x + grid_printf(g, r.x, yy, r.w, l->role, "%-10s ", tc_cause_names[v->cause]);
			if (x + 5 <= r.x + r.w) conf_bar(g, x, yy, v->confidence);
			grid_text(g, x + 5, yy, r.w - (x + 5 - r.x), TC_R_NORMAL, l->s);
			break;
		}
		case K_BUSIEST:
			b.len = 0;
			if (b.s) b.s[0] = 0;
			busiest_text(a, s, &b);
			grid_text(g, r.x, yy, r.w, l->role, b.s);
			break;
		case K_TEXT:
			grid_text(g, r.x, yy, r.w, l->role, l->s);
			break;
		default:
			grid_text(g, r.x, yy, LABEL_W, l->role, l->s);
			draw_strip(a, s, g, r.x + LABEL_W, yy, r.w - LABEL_W, l->kind);
			break;
		}
		if (sel) {   /* the selected line: a marker in the first column and the selection role on its text */
			for (int x = r.x; x < r.x + r.w; x++) {
				struct tc_cell *p = grid_at(g, x, yy);
				if (!p) continue;
				if (x >= r.x + LABEL_W && l->kind != K_TEXT && l->kind != K_VERDICT && l->kind != K_BUSIEST) break;
				if (p->bg == TC_R_NORMAL) p->bg = TC_R_SELECTION;
				if (p->fg == TC_R_NORMAL || p->fg == TC_R_LABEL || p->fg == TC_R_AXIS) p->fg = TC_R_SELECTION;
			}
			struct tc_cell *p = grid_at(g, r.x, yy);
			if (p && p->ch == ' ') p->ch = '>';
		}
	}
	sb_free(&b);
}

/* --- jumps ---------------------------------------------------------------------------- */
static void jump_windows(struct tc_app *a, uint32_t w0, uint32_t w1)
{
	const struct tc_latency *lat = session_latency(a->sess);
	app_history_push(a);
	uint64_t t0 = tc_lat_win_start(lat, w0), t1 = tc_lat_win_end(lat, w1);
	if (t1 <= t0) t1 = t0 + 1;
	a->pv.t0 = t0;
	a->pv.t1 = t1;
	app_set_time(a, t0);
	app_show(a, &view_physical);
	if (w1 > w0) app_message(a, false, "windows %u-%u: %.4f-%.4f s", w0, w1, tc_sec(a->t, t0), tc_sec(a->t, t1));
	else app_message(a, false, "window %u: %.4f-%.4f s", w0, tc_sec(a->t, t0), tc_sec(a->t, t1));
}

static void jump_rank(struct tc_app *a, uint32_t rank, int64_t step, uint64_t time, bool use_time)
{
	app_history_push(a);
	app_set_rank(a, rank);
	if (step >= -1) app_set_step(a, step);
	else if (use_time) app_set_time(a, time);
	else app_set_step(a, a->step);
	app_show(a, &view_logical);
	if (a->rank != rank) app_message(a, true, "rank %u is filtered out; at rank %u", rank, a->rank);
	else app_message(a, false, "rank %u step %lld", rank, (long long)a->step);
}

static void enter(struct tc_app *a, struct tc_verdview *s)
{
	if (s->sel >= s->L.n) return;
	const struct vline *l = &s->L.a[s->sel];
	const struct tc_latency *lat = session_latency(a->sess);
	switch (l->jump) {
	case J_WINDOWS: jump_windows(a, l->w0, l->w1); break;
	case J_STRIP: {
		uint32_t w0 = s->wcur / s->group * s->group;
		jump_windows(a, w0, TC_MIN(w0 + s->group, s->nwin) - 1);
		break;
	}
	case J_RANK: jump_rank(a, l->rank, l->step, 0, false); break;
	case J_BUSIEST: {
		struct tc_verdict_win o = column(s, s->wcur / s->group);
		if (o.busiest == TC_NONE) { app_message(a, true, "no messages in this window"); break; }
		jump_rank(a, o.busiest, -2, tc_lat_win_start(lat, s->wcur / s->group * s->group), true);
		break;
	}
	default: app_message(a, false, "no window or rank behind this line"); break;
	}
}

static bool region_visible(const struct tc_app *a, const struct tc_lat_region *R)
{
	for (uint32_t k = 0; k < R->nranks; k++)
		if (app_rank_visible(a, R->ranks[k])) return true;
	return false;
}

/* A click on a line selects it (as j/k would reach it). */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	(void)x;
	struct tc_verdview *s = state(a);
	return s->built && app_list_click(&s->sel, s->top, (uint32_t)s->L.n, s->page, r.y, y);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	struct tc_verdview *s = state(a);
	ensure(a, s, s->built ? s->built_w : (a->last_w > 0 ? a->last_w : 80));
	uint32_t n = (uint32_t)s->L.n, page = s->page > 1 ? (uint32_t)s->page - 1 : 1, gr = s->group ? s->group : 1;
	if (app_move_index(&s->sel, n, page, act)) return true;
	switch (act) {
	case ACT_LEFT:
	case ACT_WIN_PREV: s->wcur = s->wcur >= gr ? s->wcur / gr * gr - gr : 0; return true;
	case ACT_RIGHT:
	case ACT_WIN_NEXT:
		if (s->wcur / gr * gr + gr < s->nwin) s->wcur = s->wcur / gr * gr + gr;
		return true;
	case ACT_FIRST: s->wcur = 0; return true;
	case ACT_LAST: s->wcur = s->nwin ? s->nwin - 1 : 0; return true;
	case ACT_ENTER: enter(a, s); return true;
	case ACT_SCOPE: {
		const struct tc_latency *lat = session_latency(a->sess);
		do s->scope = view_next_region(lat, s->scope);   /* the run, then each region of >= 2 ranks */
		while (s->scope != TC_NONE && !region_visible(a, &lat->regions[s->scope]));   /* ... holding a visible rank */
		s->sel = s->top = 0;
		s->built = false;
		if (s->scope == TC_NONE) app_message(a, false, "scope: the run");
		else app_message(a, false, "scope: region %u (%u ranks)", s->scope, lat->regions[s->scope].nranks);
		return true;
	}
	default: return false;
	}
}

static const char *const help[] = {
	"Why communication is slow (PCLVis 6): the verdicts of the scope first -- cause,",
	"confidence bar and value, scope and blamed ranks, summary, -> advice (O1-O3) --",
	"then the evidence per time window, one strip column per window (or group):",
	"Mapping: intra- and inter-node messages, the share crossing nodes, the remap.",
	"Pattern: the largest load balance LB (Eq. 10) and busiest rank / mean; the",
	"line below names the busiest rank of the window under the cursor.",
	"Background: the inter-node latency level (mean L) and its score against the",
	"quiet windows (0-9; . not counted; ! disturbed), then the disturbed periods.",
	"Imbalance: the blamed ranks and their worst steps.",
	"j/k select a line, h/l or [ ] the window (the mark under each strip). Enter",
	"jumps: a window or period to the physical view over it, a rank or step to the",
	"logical view there. r: the run, then each region of two or more ranks.",
	NULL,
};

const struct view view_verdicts = {
	.name = "verdicts", .id = TC_V_VERDICTS, .min_w = 40, .min_h = 5, .draw = draw, .key = key, .help = help, .click = click,
	.free_state = free_state, .filtered = true,
	.ready = view_ready_verdicts, .prepare = view_prepare_verdicts,
};
