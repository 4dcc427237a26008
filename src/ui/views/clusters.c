/* clusters.c — the cluster view (Ravel §4.2, Fig. 6–8) of the phase under the
 * shared cursor step.  Left: the phase's dendrogram as a text tree (Enter
 * opens / closes the node under the cursor, + / - one more level below it).
 * Right: the focus ranks as full timelines (like the logical view's cells,
 * message partners of the cursor event marked), then the visible clusters as
 * bands whose height follows their member count, one column per logical step:
 * sends on top, collectives, receives at the bottom, each part as tall as the
 * share of members doing it and coloured by their mean metric; blank is
 * inactive.  Waitall exchanges show the average receives completed per Wait
 * as a digit.  Band cells come from tc_clusters_glyphs() (per cluster, never
 * per rank) and only for the steps on screen.  The node under the tree cursor
 * is the selected cluster: moving onto it (or Enter) highlights its ranks in
 * the other views; Esc clears that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_cluster.h"
#include "ui.h"

#define MAX_PARTNERS 256
#define LOOK_BACK 256

/* One line of the tree: a node shown (all its ancestors open), its depth,
 * and its band (index in phase->visible) when it is a visible cluster. */
struct tline { uint32_t node, depth, band; };

static struct tc_clusters *clusters_of(struct tc_app *a)
{
	struct tc_clusters *c = session_clusters(a->sess);
	if (c && tc_clusters_opts(c)->metric != a->metric) tc_clusters_set_metric(c, a->metric);
	return c;
}

static int digits(uint32_t v)
{
	int d = 1;
	while (v >= 10) { v /= 10; d++; }
	return d;
}

/* --- which phase ----------------------------------------------------------------- */
static bool covers(const struct tc_partition *P, int64_t s)
{
	return s >= (int64_t)P->first_step - 1 && s <= (int64_t)P->last_step;
}

/* The partition of the cursor rank's event at step (odd: the event after the aggregate block). */
static uint32_t rank_part(const struct tc_app *a, int64_t step)
{
	if (a->rank >= a->t->nranks) return TC_NONE;
	int64_t s = step < 0 ? 0 : step + (step & 1);
	if (s > (int64_t)a->st->max_step) return TC_NONE;
	uint32_t e = tc_steps_find(a->st, a->rank, (uint32_t)s);
	return e == TC_NONE ? TC_NONE : a->st->cevs[e].partition;
}

/* A partition covering step (the latest starting one, looking back a bounded
 * number of partitions), else the latest one starting before it. */
static uint32_t step_part(const struct tc_app *a, int64_t step)
{
	const struct tc_steps *st = a->st;
	uint32_t lo = 0, hi = st->npartitions;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if ((int64_t)st->parts[mid].first_step - 1 <= step) lo = mid + 1;
		else hi = mid;
	}
	if (!lo) return st->npartitions ? 0 : TC_NONE;
	for (uint32_t i = lo, n = 0; i-- > 0 && n < LOOK_BACK; n++)
		if (covers(&st->parts[i], step)) return i;
	return lo - 1;
}

/* Clustering a phase in the worker (src/ui/job.c). */
struct phase_job { struct tc_clusters *c; uint32_t p; };
static void phase_job_run(void *ctx)
{
	struct phase_job *j = ctx;
	tc_clusters_phase(j->c, j->p);
	free(j);
}

/* Is phase p clustered?  In the terminal, a phase not yet clustered is clustered in
 * the worker (CLARA over 64k ranks takes 50 ms to a second: keys must not wait for
 * it) and the view says "computing" meanwhile: false, a->cl.pending set.  render
 * clusters it in place when used. */
static bool phase_ready(struct tc_app *a, struct tc_clusters *c, uint32_t p)
{
	a->cl.pending = false;
	if (!a->interactive || tc_clusters_phase_ready(c, p)) return true;
	a->cl.pending = true;
	if (app_busy(a)) return false;   /* another computation first; asked again at the next draw */
	struct phase_job *j = xmalloc(sizeof *j);
	*j = (struct phase_job){ c, p };
	char what[64];
	snprintf(what, sizeof what, "clusters of phase %u", p);
	if (app_job_start(a, &view_clusters, what, phase_job_run, j, NULL)) return false;
	free(j);   /* no worker: here */
	a->cl.pending = false;
	return true;
}

static void set_phase(struct tc_app *a, struct tc_clusters *c, uint32_t p)
{
	if (p == a->cl.part && a->cl.metric == a->metric && a->cl.node != TC_NONE) return;
	a->cl.part = p;
	a->cl.metric = a->metric;
	a->cl.top = a->cl.btop = 0;
	a->cl.left = -1;   /* centre on the cursor at the next draw */
	a->cl.node = TC_NONE;
	a->cl.text[0] = 0;
	if (!phase_ready(a, c, p)) return;   /* the node is chosen once it is clustered */
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, p);
	if (ph && ph->nnodes) {
		uint32_t n = tc_clusters_visible_of(c, p, a->rank);
		a->cl.node = n != TC_NONE ? n : ph->root;
	}
}

/* keep: stay in the current phase while it covers the step (moving inside the view). */
static void pick_phase(struct tc_app *a, struct tc_clusters *c, bool keep)
{
	const struct tc_steps *st = a->st;
	uint32_t p = TC_NONE, cur = a->cl.part;
	bool cur_ok = a->cl.ready && cur < st->npartitions && covers(&st->parts[cur], a->step);
	if (keep && cur_ok) p = cur;
	if (p == TC_NONE) p = rank_part(a, a->step);
	if (p == TC_NONE && cur_ok) p = cur;
	if (p == TC_NONE) p = step_part(a, a->step);
	a->cl.ready = true;
	a->cl.seen_rank = a->rank;
	a->cl.seen_step = a->step;
	if (p == TC_NONE) a->cl.part = TC_NONE;
	else set_phase(a, c, p);
}

/* The phase to draw (computed on first use), NULL when the trace has none. */
static const struct tc_phase_clusters *phase(struct tc_app *a, struct tc_clusters **cp)
{
	struct tc_clusters *c = clusters_of(a);
	*cp = c;
	if (!c || !a->st->npartitions) return NULL;
	if (!a->cl.ready || a->rank != a->cl.seen_rank || a->step != a->cl.seen_step || a->cl.part >= a->st->npartitions)
		pick_phase(a, c, false);
	if (a->cl.part == TC_NONE) return NULL;
	if (a->cl.metric != a->metric || a->cl.pending) set_phase(a, c, a->cl.part);   /* clustered again: new nodes */
	if (a->cl.pending) return NULL;
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, a->cl.part);
	if (ph && ph->nnodes && (a->cl.node == TC_NONE || a->cl.node >= ph->nnodes)) a->cl.node = ph->root;
	return ph;
}

/* --- the tree ----------------------------------------------------------------------- */
static bool is_open(const struct tc_phase_clusters *ph, uint32_t n)
{
	return ph->nodes[n].child[0] != TC_NONE && ph->nodes[n].open;
}

/* The node shown for n: n itself, or its topmost closed ancestor. */
static uint32_t shown_node(const struct tc_phase_clusters *ph, uint32_t n)
{
	uint32_t ans = n;
	for (uint32_t x = ph->nodes[n].parent; x != TC_NONE; x = ph->nodes[x].parent)
		if (!ph->nodes[x].open) ans = x;
	return ans;
}

/* Pre-order over the open nodes, child[0] first: the same order as phase->visible. */
static size_t tree_lines(const struct tc_phase_clusters *ph, struct tline *out)
{
	size_t n = 0;
	uint32_t band = 0, sp = 0;
	uint32_t *stack = xmalloc(((size_t)ph->nnodes + 1) * 2 * sizeof *stack);
	stack[sp++] = ph->root;
	stack[sp++] = 0;
	while (sp) {
		uint32_t depth = stack[--sp], node = stack[--sp];
		bool open = is_open(ph, node);
		out[n++] = (struct tline){ node, depth, open ? TC_NONE : band++ };
		if (open) {
			stack[sp++] = ph->nodes[node].child[1];
			stack[sp++] = depth + 1;
			stack[sp++] = ph->nodes[node].child[0];
			stack[sp++] = depth + 1;
		}
	}
	free(stack);
	return n;
}

static size_t line_of(const struct tline *L, size_t n, uint32_t node)
{
	for (size_t i = 0; i < n; i++)
		if (L[i].node == node) return i;
	return 0;
}

/* Bands [*b0, *b1] of the subtree at line i. */
static void bands_of(const struct tline *L, size_t n, size_t i, uint32_t *b0, uint32_t *b1)
{
	*b0 = TC_NONE;
	*b1 = 0;
	for (size_t j = i; j < n && (j == i || L[j].depth > L[i].depth); j++)
		if (L[j].band != TC_NONE) {
			if (*b0 == TC_NONE) *b0 = L[j].band;
			*b1 = L[j].band;
		}
}

/* --- the selection -------------------------------------------------------------------- */
/* "0-15,17,19-31", cut to fit n bytes with " +K" for the ranks left out. */
static void ranges_text(const uint32_t *r, uint32_t size, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < size;) {
		uint32_t j = i;
		while (j + 1 < size && r[j + 1] == r[j] + 1) j++;
		char item[32];
		if (j == i) snprintf(item, sizeof item, "%s%u", len ? "," : "", r[i]);
		else snprintf(item, sizeof item, "%s%u-%u", len ? "," : "", r[i], r[j]);
		size_t k = strlen(item);
		if (len + k + 14 >= n && j + 1 < size) {
			snprintf(buf + len, n - len, " +%u", size - i);
			return;
		}
		if (len + k >= n) return;
		memcpy(buf + len, item, k + 1);
		len += k;
		i = j + 1;
	}
}

/* The cursor node becomes the selection: its ranks are highlighted in the
 * other views and the cursor rank moves to its first (visible) member. */
static void select_node(struct tc_app *a, const struct tc_phase_clusters *ph)
{
	if (!ph || a->cl.node >= ph->nnodes) return;
	const struct tc_cnode *N = &ph->nodes[a->cl.node];
	uint32_t *r = tc_clusters_node_ranks(ph, a->cl.node);
	app_select_ranks(a, r, N->size);
	a->cl.sel_part = a->cl.part;
	a->cl.sel_node = a->cl.node;
	for (uint32_t i = 0; i < N->size; i++) {
		uint32_t vi = app_vis_index(a, r[i]);
		if (vi < a->nvis && a->vis[vi] == r[i]) {
			a->rank = r[i];
			app_set_step(a, a->step);
			break;
		}
	}
	free(r);
	a->cl.seen_rank = a->rank;
	a->cl.seen_step = a->step;
}

static const char *node_ranks(struct tc_app *a, const struct tc_phase_clusters *ph)
{
	if (a->cl.text_part != a->cl.part || a->cl.text_node != a->cl.node || !a->cl.text[0]) {
		uint32_t *r = tc_clusters_node_ranks(ph, a->cl.node);
		ranges_text(r, ph->nodes[a->cl.node].size, a->cl.text, sizeof a->cl.text);
		free(r);
		a->cl.text_part = a->cl.part;
		a->cl.text_node = a->cl.node;
	}
	return a->cl.text;
}

/* --- drawing -------------------------------------------------------------------------- */
struct frame {
	struct tc_app *a;
	const struct tc_phase_clusters *ph;
	struct tc_grid *g;
	double vmax;
	int64_t s0, s1;     /* steps of the phase's columns */
	int64_t v1;         /* last step drawn: s1, or later when neighbouring phases fill the pane */
	int dx;             /* steps per column: 1 with aggregate blocks, else 2 */
	int64_t left;       /* first column shown (negative: neighbouring steps before s0) */
	int64_t n;          /* step columns shown; n < cols: each takes cols/n screen columns */
	int x0, cols;       /* cells of the right pane */
	int64_t e0;         /* even step of glyph 0 */
	uint32_t ng;        /* glyphs per band */
};

/* The step of screen column c (stretched when fewer step columns than screen columns). */
static int64_t col_step(const struct frame *f, int c)
{
	int64_t i = f->n && f->n < f->cols ? (int64_t)c * f->n / f->cols : c;
	return f->s0 + (f->left + i) * f->dx;
}

/* Column c is the first screen column of its step (where marks and labels go). */
static bool first_col(const struct frame *f, int c) { return c == 0 || col_step(f, c - 1) != col_step(f, c); }

static bool in_phase(const struct frame *f, int64_t s) { return s >= f->s0 && s <= f->s1; }

/* Screen column of step s, -1 when not shown. */
static int step_col(const struct frame *f, int64_t s)
{
	if (s < col_step(f, 0) || s > f->v1) return -1;
	if (f->dx == 2 && (s - f->s0) & 1) s++;
	int64_t c = (s - f->s0) / f->dx - f->left;
	if (f->n && f->n < f->cols) c = (c * f->cols + f->n - 1) / f->n;   /* the step's first column */
	return c >= 0 && c < f->cols ? (int)c : -1;
}

static uint32_t kind_glyph(const struct tc_grid *g, const struct tc_cluster_glyph *G, double *v)
{
	if (G->colls && G->colls >= G->sends && G->colls >= G->recvs) { *v = G->coll_mean; return grid_glyph(g, TC_G_COLL); }
	if (G->sends && G->recvs) { *v = G->mean; return grid_glyph(g, TC_G_SENDRECV); }
	if (G->sends) { *v = G->send_mean; return grid_glyph(g, TC_G_SEND); }
	if (G->recvs) { *v = G->recv_mean; return grid_glyph(g, TC_G_RECV); }
	*v = G->mean;
	return grid_glyph(g, TC_G_OTHER_MPI);
}

static uint32_t flags_glyph(const struct tc_grid *g, uint32_t fl)
{
	if (fl & TC_CEV_COLL) return grid_glyph(g, TC_G_COLL);
	if ((fl & TC_CEV_SEND) && (fl & TC_CEV_RECV)) return grid_glyph(g, TC_G_SENDRECV);
	if (fl & TC_CEV_SEND) return grid_glyph(g, TC_G_SEND);
	if (fl & TC_CEV_RECV) return grid_glyph(g, TC_G_RECV);
	return grid_glyph(g, TC_G_OTHER_MPI);
}

/* Rows of h for k of size members: at least one when k > 0. */
static int part_rows(uint32_t k, uint32_t size, int h)
{
	if (!k || !size) return 0;
	int n = (int)((double)k * h / size + 0.5);
	return n < 1 ? 1 : n > h ? h : n;
}

static void put_cell(struct tc_grid *g, int x, int y, uint32_t ch, double v, double vmax)
{
	enum tc_role role = app_map_role(v, vmax);
	grid_put(g, x, y, ch, role, role, 0);
}

/* One band column: glyph G of the event step (odd steps: its aggregate block). */
static void band_cell(const struct frame *f, const struct tc_cluster_glyph *G, bool agg, int x, int y, int h, enum tc_role bg)
{
	struct tc_grid *g = f->g;
	if (!G->active) return;
	if (agg) {
		int n = part_rows(G->active, G->size, h);
		for (int i = 0; i < n; i++) put_cell(g, x, y + i, grid_glyph(g, TC_G_AGG), G->agg_mean, f->vmax);
		return;
	}
	if (h == 1) {
		double v;
		uint32_t ch = kind_glyph(g, G, &v);
		put_cell(g, x, y, ch, v, f->vmax);
		return;
	}
	int ns = part_rows(G->sends, G->size, h), nr = part_rows(G->recvs, G->size, h);
	int nc = part_rows(G->colls, G->size, h);
	while (ns + nr + nc > h) {   /* a Sendrecv counts twice: shrink the largest part */
		int *big = ns >= nr && ns >= nc ? &ns : nr >= nc ? &nr : &nc;
		if (*big > 1) (*big)--;
		else if (nc) nc = 0;
		else break;
	}
	if (!ns && !nr && !nc) {
		double v;
		uint32_t ch = kind_glyph(g, G, &v);
		put_cell(g, x, y, ch, v, f->vmax);
		return;
	}
	for (int i = 0; i < ns; i++) put_cell(g, x, y + i, grid_glyph(g, TC_G_SEND), G->send_mean, f->vmax);
	for (int i = 0; i < nc; i++) put_cell(g, x, y + ns + i, grid_glyph(g, TC_G_COLL), G->coll_mean, f->vmax);
	for (int i = 0; i < nr; i++) put_cell(g, x, y + h - nr + i, grid_glyph(g, TC_G_RECV), G->recv_mean, f->vmax);
	if (f->ph->pattern == TC_EX_WAITALL && G->recvs) {   /* receives completed per Wait, on average */
		double avg = (double)G->recv_msgs / G->recvs;
		int d = (int)(avg + 0.5);
		uint32_t ch = d > 9 ? '+' : (uint32_t)('0' + (d < 1 ? 1 : d));
		if (nr >= 2) {
			struct tc_cell *p = grid_at(g, x, y + h - nr);
			if (p) p->ch = ch;
		} else if (h - ns - nc - nr >= 1) {
			grid_put(g, x, y + h - nr - 1, ch, TC_R_LABEL, bg, 0);
		}
	}
}

static void mark(struct tc_grid *g, int x, int y, enum tc_role r)
{
	struct tc_cell *p = grid_at(g, x, y);
	if (!p || (p->fg == TC_R_CURSOR && r != TC_R_CURSOR)) return;
	p->fg = p->bg = r;
	p->attr = 0;
	if (p->ch == ' ') p->ch = grid_glyph(g, TC_G_MARK);
}

static void focus_row(const struct frame *f, uint32_t rank, int y, int lw)
{
	struct tc_app *a = f->a;
	struct tc_grid *g = f->g;
	enum tc_role lr = rank == a->rank ? TC_R_CURSOR : app_rank_selected(a, rank) ? TC_R_SELECTION : TC_R_LABEL;
	grid_printf(g, f->x0 - lw, y, lw - 1, lr, "%*u", lw - 1, rank);
	for (int c = 0; c < f->cols; c++) {
		int64_t s = col_step(f, c);
		if (s > f->v1) break;
		bool agg = s < 0 || (s & 1);
		int64_t es = s < 0 ? 0 : s + (s & 1);
		uint32_t e = es <= (int64_t)a->st->max_step ? tc_steps_find(a->st, rank, (uint32_t)es) : TC_NONE;
		bool cur = rank == a->rank && s == a->step && first_col(f, c);
		if (e == TC_NONE || (agg && s < 0 && a->st->cevs[e].step != 0)) {
			if (cur) grid_put(g, f->x0 + c, y, grid_glyph(g, TC_G_MARK), TC_R_CURSOR, TC_R_CURSOR, 0);
			continue;
		}
		const struct tc_cev *ev = &a->st->cevs[e];
		uint32_t ch = agg ? grid_glyph(g, TC_G_AGG) : flags_glyph(g, ev->flags);
		if (cur) grid_put(g, f->x0 + c, y, ch, TC_R_CURSOR, TC_R_CURSOR, 0);
		else put_cell(g, f->x0 + c, y, ch, tc_cev_metric(a->st, e, a->metric, agg), f->vmax);
	}
}

/* A band's column at step s outside its phase (a neighbouring phase, where
 * these clusters do not exist): the event of the band's medoid rank there, in
 * the axis colour, so the pane shows what comes before and after the phase. */
static void neighbour_cell(const struct frame *f, const struct tc_cnode *N, int64_t s, int x, int y)
{
	const struct tc_steps *st = f->a->st;
	bool agg = s < 0 || (s & 1);
	int64_t es = s < 0 ? 0 : s + (s & 1);
	uint32_t e = es <= (int64_t)st->max_step ? tc_steps_find(st, N->medoid, (uint32_t)es) : TC_NONE;
	if (e == TC_NONE || (agg && s < 0 && st->cevs[e].step != 0)) return;
	uint32_t ch = agg ? grid_glyph(f->g, TC_G_AGG) : flags_glyph(f->g, st->cevs[e].flags);
	struct tc_cell *p = grid_at(f->g, x, y);
	if (p) grid_put(f->g, x, y, ch, TC_R_AXIS, p->bg, TC_A_DIM);   /* dim without colour too */
}

/* When the phase has fewer columns than the pane, the columns around it show
 * the neighbouring steps (half before, the rest after, as far as the trace
 * goes): f->left becomes negative and f->v1 passes f->s1. */
static void fill_neighbours(struct frame *f, int64_t ncols, int64_t max_step)
{
	if (ncols >= f->cols) return;
	int64_t smin = f->dx == 1 ? -1 : 0;
	int64_t before = (f->s0 - smin) / f->dx, after = (max_step - f->s1) / f->dx;
	int64_t extra = f->cols - ncols;
	int64_t pre = TC_MIN(extra / 2, before), post = TC_MIN(extra - pre, after);
	pre = TC_MIN(extra - post, before);
	f->left = -pre;
	f->v1 = f->s1 + post * f->dx;
	f->n = pre + ncols + post;   /* fewer than cols only when the whole trace is narrower */
}

/* Heights of nb bands from b0 in rows (rows >= nb): one each, the rest in
 * proportion to the member counts (largest remainders, ties to the first). */
static void band_heights(const struct tc_phase_clusters *ph, uint32_t b0, uint32_t nb, int rows, int *h)
{
	double total = 0;
	for (uint32_t i = 0; i < nb; i++) total += ph->nodes[ph->visible[b0 + i]].size;
	int extra = rows - (int)nb, used = 0;
	double *rem = xmalloc(((size_t)nb + 1) * sizeof *rem);
	for (uint32_t i = 0; i < nb; i++) {
		double q = total > 0 ? extra * ph->nodes[ph->visible[b0 + i]].size / total : 0;
		h[i] = 1 + (int)q;
		used += (int)q;
		rem[i] = q - (int)q;
	}
	for (int k = used; k < extra; k++) {
		uint32_t best = 0;
		for (uint32_t i = 1; i < nb; i++)
			if (rem[i] > rem[best]) best = i;
		h[best]++;
		rem[best] = -1;
	}
	free(rem);
}

/* The step axis: a label every 10 columns (at least two apart when stretched),
 * ticks between, the cursor's step marked on its first column. */
static void draw_axis(const struct frame *f, int y)
{
	struct tc_grid *g = f->g;
	int next = 0;
	for (int col = 0; col < f->cols; col++) {
		int64_t s = col_step(f, col);
		if (s > f->v1) break;
		bool first = first_col(f, col);
		char lab[24];
		tc_step_label(s, lab, sizeof lab);   /* "init" before step 0, never "-1" */
		int len = (int)strlen(lab);
		if (first && col >= next && (col % 10 == 0 || (f->n < f->cols && col >= next)) && col + len <= f->cols) {
			grid_text(g, f->x0 + col, y, f->cols - col, TC_R_AXIS, lab);
			next = col + TC_MAX(10, len + 2);
		} else if (grid_at(g, f->x0 + col, y)->ch == ' ') {
			grid_putr(g, f->x0 + col, y, first && col % 5 == 0 ? grid_glyph(g, TC_G_TICK) : ' ', TC_R_AXIS);
		}
		if (s == f->a->step && first) mark(g, f->x0 + col, y, TC_R_CURSOR);
	}
}

static void draw_legend(const struct frame *f, int x, int y, int w)
{
	int u = view_legend(f->a, f->g, x, y, w, f->vmax);
	if (f->ph->pattern == TC_EX_WAITALL && u + 20 <= w) grid_text(f->g, x + u, y, w - u, TC_R_LABEL, "  digit: recvs/Wait");
}

static void draw_tree(struct tc_app *a, struct tc_grid *g, const struct tc_phase_clusters *ph, const struct tline *L,
		      size_t nl, size_t cur, int x, int y, int w, int rows)
{
	if (cur < a->cl.top) a->cl.top = (uint32_t)cur;
	if (cur >= a->cl.top + (size_t)rows) a->cl.top = (uint32_t)(cur - (size_t)rows + 1);
	if (a->cl.top + (size_t)rows > nl) a->cl.top = nl > (size_t)rows ? (uint32_t)(nl - (size_t)rows) : 0;
	bool sel_here = a->nrank_sel && a->cl.sel_part == a->cl.part && a->cl.sel_node < ph->nnodes;
	for (int i = 0; i < rows; i++) {
		size_t li = a->cl.top + (size_t)i;
		if (li >= nl) break;
		const struct tline *l = &L[li];
		const struct tc_cnode *N = &ph->nodes[l->node];
		enum tc_role role = li == cur ? TC_R_CURSOR : sel_here && l->node == a->cl.sel_node ? TC_R_SELECTION : TC_R_NORMAL;
		if (role != TC_R_NORMAL) grid_fill(g, x, y + i, w, 1, ' ', role);
		int ind = (int)TC_MIN(l->depth, (uint32_t)(w / 3));
		uint32_t m = N->child[0] == TC_NONE ? (g->ascii ? '.' : 0x2022)
			   : N->open ? (g->ascii ? '-' : 0x25BE) : (g->ascii ? '+' : 0x25B8);
		grid_put(g, x + ind, y + i, m, role == TC_R_NORMAL ? TC_R_AXIS : role, role, 0);
		char buf[64];
		if (l->band != TC_NONE) snprintf(buf, sizeof buf, "%u #%u", N->size, l->band + 1);
		else snprintf(buf, sizeof buf, "%u", N->size);
		int u = ind + 2;
		u += grid_text(g, x + u, y + i, w - u, role == TC_R_NORMAL ? TC_R_LABEL : role, buf);
		char mean[32];
		fmt_seconds(mean, sizeof mean, N->mean);
		if (u + 1 + (int)strlen(mean) <= w) grid_text(g, x + u + 1, y + i, w - u - 1, role == TC_R_NORMAL ? TC_R_AXIS : role, mean);
	}
}

/* The focus rows: the phase's focus ranks that are visible (the filter's),
 * else, when the filter hides them all, its first ranks in the phase. */
static int focus_ranks(const struct tc_app *a, const struct tc_phase_clusters *ph, uint32_t *out, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < ph->nfocus && n < max; i++)
		if (app_rank_visible(a, ph->focus[i])) out[n++] = ph->focus[i];
	if (n || a->nvis == a->t->nranks || ph->root == TC_NONE) return (int)n;
	uint32_t *m = tc_clusters_node_ranks(ph, ph->root);  /* the phase's ranks, ascending */
	for (uint32_t i = 0; i < ph->nranks && n < max; i++)
		if (app_rank_visible(a, m[i])) out[n++] = m[i];
	free(m);
	return (int)n;
}

/* The right pane's columns: the phase's steps (with the aggregate block before
 * its first event), scrolled to keep the cursor step in view, neighbouring
 * phases' steps where the phase leaves room; the glyph range. */
static void frame_columns(struct tc_app *a, const struct tc_partition *P, struct frame *f)
{
	f->dx = a->show_agg ? 1 : 2;
	f->s0 = (int64_t)P->first_step - (a->show_agg ? 1 : 0);
	f->s1 = P->last_step;
	int64_t ncols = (f->s1 - f->s0) / f->dx + 1;
	int64_t cc = a->step >= f->s0 && a->step <= f->s1 ? (a->step - f->s0 + f->dx - 1) / f->dx : -1;
	if (a->cl.left < 0) a->cl.left = cc >= 0 ? cc - f->cols / 2 : 0;
	if (cc >= 0 && cc < a->cl.left) a->cl.left = cc;
	if (cc >= 0 && cc >= a->cl.left + f->cols) a->cl.left = cc - f->cols + 1;
	if (a->cl.left + f->cols > ncols) a->cl.left = ncols - f->cols;
	if (a->cl.left < 0) a->cl.left = 0;
	f->left = a->cl.left;
	f->v1 = f->s1;
	f->n = 0;
	fill_neighbours(f, ncols, a->st->max_step);
	int64_t v0 = TC_MAX(col_step(f, 0), f->s0), v1 = TC_MIN(col_step(f, f->cols - 1), f->s1);
	f->e0 = v0 < 0 ? 0 : v0 + (v0 & 1);
	int64_t e1 = v1 + (v1 & 1);
	f->ng = e1 >= f->e0 ? (uint32_t)((e1 - f->e0) / 2 + 1) : 0;
}

static void draw_header(struct tc_app *a, struct tc_grid *g, const struct tc_phase_clusters *ph,
			const struct tc_partition *P, const struct tline *line, struct tc_rect r)
{
	const struct tc_cnode *N = &ph->nodes[a->cl.node];
	char who[24];
	if (line->band != TC_NONE) snprintf(who, sizeof who, "#%u", line->band + 1);
	else snprintf(who, sizeof who, "node");
	int x = grid_printf(g, r.x, r.y, r.w, TC_R_HEADING, "phase %u/%u steps %u-%u | %s | %s | %u cluster%s | %s %u rank%s: ",
			    a->cl.part, a->st->npartitions, P->first_step, P->last_step,
			    ph->pattern == TC_EX_NONE ? "no exchange" : tc_exchange_names[ph->pattern],
			    app_metric_label(a->metric), ph->nvisible, ph->nvisible == 1 ? "" : "s", who, N->size,
			    N->size == 1 ? "" : "s");
	/* a long list ends in "…"; with no room for it, the line does */
	if (r.w - x >= 2) grid_text_elide(g, r.x + x, r.y, r.w - x, TC_R_HEADING, node_ranks(a, ph));
	else if (r.w > 0) grid_putr(g, r.x + r.w - 1, r.y, grid_glyph(g, TC_G_ELLIPSIS), TC_R_HEADING);
}

/* The focus rows and the message partners on them. */
static void draw_focus(struct frame *f, const uint32_t *fr, int nf, int y, int lw, const uint32_t *pcev, uint32_t np)
{
	for (int i = 0; i < nf; i++) focus_row(f, fr[i], y + i, lw);
	for (uint32_t k = 0; k < np; k++) {
		const struct tc_cev *pe = &f->a->st->cevs[pcev[k]];
		int col = step_col(f, pe->step);
		if (col < 0) continue;
		for (int i = 0; i < nf; i++)
			if (fr[i] == pe->rank) mark(f->g, f->x0 + col, y + i, TC_R_PARTNER);
	}
}

/* The bands' heights h[]: all of them by size when they fit in brows rows,
 * else a window of one row each around the cursor's band; the first shown. */
static uint32_t band_window(struct tc_app *a, const struct tc_phase_clusters *ph, int brows, uint32_t cb0, int *h)
{
	uint32_t nb = ph->nvisible;
	if ((int)nb <= brows) {
		band_heights(ph, 0, nb, brows, h);
		a->cl.btop = 0;
		return 0;
	}
	uint32_t want = cb0 != TC_NONE ? cb0 : 0;
	if (want < a->cl.btop) a->cl.btop = want;
	if (want >= a->cl.btop + (uint32_t)brows) a->cl.btop = want - (uint32_t)brows + 1;
	if (a->cl.btop + (uint32_t)brows > nb) a->cl.btop = nb - (uint32_t)brows;
	for (uint32_t i = 0; i < nb; i++) h[i] = 1;
	return a->cl.btop;
}

/* The line between the focus rows and the bands, with what is shown. */
static void draw_separator(struct tc_app *a, struct tc_grid *g, const struct tc_phase_clusters *ph, int rx, int rw,
			   int y, int nf, int brows, uint32_t bfirst)
{
	uint32_t nb = ph->nvisible;
	grid_fill(g, rx, y, rw, 1, grid_glyph(g, TC_G_HLINE), TC_R_AXIS);
	char lab[96];
	const char *all = a->nvis < a->t->nranks ? "(clusters over all ranks; focus: ranks of f:) " : "";
	if ((int)nb <= brows) snprintf(lab, sizeof lab, " %u cluster%s, focus %u of %u %s", nb, nb == 1 ? "" : "s",
				       (uint32_t)nf, ph->nfocus, all);
	else snprintf(lab, sizeof lab, " clusters %u-%u of %u %s", bfirst + 1, bfirst + (uint32_t)brows, nb, all);
	grid_text(g, rx + 1, y, rw - 1, TC_R_AXIS, lab);
}

/* One band's label column, its glyphs along the steps and the cursor. */
static void draw_band(struct frame *f, struct tc_clusters *c, uint32_t b, int rx, int rw, int lw, int y, int bh,
		      bool in_cur, bool in_sel, bool cursor_here, struct tc_cluster_glyph *G)
{
	struct tc_app *a = f->a;
	struct tc_grid *g = f->g;
	const struct tc_phase_clusters *ph = f->ph;
	const struct tc_cnode *N = &ph->nodes[ph->visible[b]];
	enum tc_role bg = (b & 1) ? TC_R_HINT : TC_R_NORMAL;
	grid_fill(g, rx, y, rw, bh, ' ', bg);
	enum tc_role lr = in_cur ? TC_R_CURSOR : in_sel ? TC_R_SELECTION : TC_R_LABEL;
	grid_fill(g, rx, y, lw - 1, bh, ' ', in_cur || in_sel ? lr : bg);
	grid_printf(g, rx, y, lw - 1, lr, "#%u", b + 1);
	for (int i = 1; i < bh; i++) grid_put(g, rx, y + i, grid_glyph(g, TC_G_VLINE), lr, in_cur || in_sel ? lr : bg, 0);
	if (f->ng) tc_clusters_glyphs(c, a->cl.part, ph->visible[b], (uint32_t)f->e0, f->ng, G);
	for (int col = 0; col < f->cols; col++) {
		int64_t s = col_step(f, col);
		if (s > f->v1) break;
		if (!in_phase(f, s)) {
			neighbour_cell(f, N, s, f->x0 + col, y);
			continue;
		}
		bool agg = s < 0 || (s & 1);
		int64_t es = s < 0 ? 0 : s + (s & 1);
		if (es < f->e0 || (es - f->e0) / 2 >= f->ng) continue;
		band_cell(f, &G[(es - f->e0) / 2], agg, f->x0 + col, y, bh, bg);
		if (cursor_here && s == a->step && first_col(f, col)) mark(g, f->x0 + col, y, TC_R_CURSOR);
	}
}

/* The bands from bfirst down to y_end; each one's row in band_y (-1: not shown). */
static void draw_bands(struct frame *f, struct tc_clusters *c, const int *h, uint32_t bfirst, uint32_t cb0, uint32_t cb1,
		       int rx, int rw, int lw, int y, int y_end, int *band_y)
{
	struct tc_app *a = f->a;
	const struct tc_phase_clusters *ph = f->ph;
	uint32_t nb = ph->nvisible;
	struct tc_cluster_glyph *G = xmalloc(((size_t)f->ng + 1) * sizeof *G);
	uint32_t cursor_band = TC_NONE;
	uint32_t vn = tc_clusters_visible_of(c, a->cl.part, a->rank);
	for (uint32_t b = 0; vn != TC_NONE && b < nb; b++)
		if (ph->visible[b] == vn) cursor_band = b;
	bool sel_here = a->nrank_sel && a->cl.sel_part == a->cl.part && a->cl.sel_node < ph->nnodes;
	const struct tc_cnode *S = sel_here ? &ph->nodes[a->cl.sel_node] : NULL;
	for (uint32_t b = 0; b < nb; b++) band_y[b] = -1;
	for (uint32_t b = bfirst; b < nb && y < y_end; b++) {
		const struct tc_cnode *N = &ph->nodes[ph->visible[b]];
		int bh = TC_MIN(h[b], y_end - y);
		band_y[b] = y;
		bool in_cur = cb0 != TC_NONE && b >= cb0 && b <= cb1;
		bool in_sel = S && N->first >= S->first && N->first + N->size <= S->first + S->size;
		draw_band(f, c, b, rx, rw, lw, y, bh, in_cur, in_sel, b == cursor_band, G);
		y += bh;
	}
	free(G);
}

/* Message partners outside the focus rows: marked on the band holding them. */
static void mark_band_partners(struct frame *f, struct tc_clusters *c, const uint32_t *fr, int nf,
			       const uint32_t *pcev, uint32_t np, const int *band_y)
{
	struct tc_app *a = f->a;
	const struct tc_phase_clusters *ph = f->ph;
	for (uint32_t k = 0; k < np; k++) {
		const struct tc_cev *pe = &a->st->cevs[pcev[k]];
		if (pe->partition != a->cl.part) continue;
		bool focus = false;
		for (int i = 0; i < nf; i++) focus |= fr[i] == pe->rank;
		int col = step_col(f, pe->step);
		if (focus || col < 0) continue;
		uint32_t vn = tc_clusters_visible_of(c, a->cl.part, pe->rank);
		for (uint32_t b = 0; b < ph->nvisible; b++)
			if (ph->visible[b] == vn && band_y[b] >= 0) mark(f->g, f->x0 + col, band_y[b], TC_R_PARTNER);
	}
}

/* Nothing to cluster (no events, none in the phase, still computing): said. */
static bool draw_nothing(struct tc_app *a, struct tc_grid *g, const struct tc_phase_clusters *ph, struct tc_rect r)
{
	if (!ph && a->cl.pending) {   /* the worker clusters it; app_draw_computing from the next frame */
		grid_printf(g, r.x + 1, r.y + 1, r.w - 1, TC_R_MESSAGE, "computing clusters of phase %u ...", a->cl.part);
		return true;
	}
	if (!ph) {
		grid_text(g, r.x, r.y + 1, r.w, TC_R_LABEL, "no communication events in this trace");
		return true;
	}
	if (!ph->nnodes) {
		grid_printf(g, r.x, r.y + 1, r.w, TC_R_LABEL, "phase %u has no events", a->cl.part);
		return true;
	}
	return false;
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	struct tc_clusters *c;
	const struct tc_phase_clusters *ph = phase(a, &c);
	if (draw_nothing(a, g, ph, r)) return;
	const struct tc_partition *P = &a->st->parts[a->cl.part];
	bool legend = r.h >= 10, evline = r.h >= 16;
	int body = r.h - 2 - legend - evline;   /* rows under the header and the axis */
	int dw = TC_MAX(12, TC_MIN(30, r.w / 4));
	int lw = TC_MAX(4, digits(a->t->nranks ? a->t->nranks - 1 : 0) + 1);
	int rx = r.x + dw + 1, rw = r.w - dw - 1;
	int nf_max = body >= 6 ? body / 3 : 1;
	uint32_t *fr = xmalloc(((size_t)nf_max + 1) * sizeof *fr);
	int nf = focus_ranks(a, ph, fr, (uint32_t)nf_max);
	bool sep = body - nf >= 4;
	int brows = body - nf - sep;
	if (rw - lw < 8 || brows < 1) {
		grid_text(g, r.x, r.y + 1, r.w, TC_R_ERROR, "the cluster view does not fit: make the terminal larger");
		free(fr);
		return;
	}
	a->cl.rows = body;

	struct tline *L = xmalloc(((size_t)ph->nnodes + 1) * sizeof *L);
	size_t nl = tree_lines(ph, L);
	a->cl.node = shown_node(ph, a->cl.node);
	size_t cur = line_of(L, nl, a->cl.node);
	uint32_t cb0, cb1;
	bands_of(L, nl, cur, &cb0, &cb1);
	struct frame f = { .a = a, .ph = ph, .g = g, .vmax = app_sum(a)->vmax, .x0 = rx + lw, .cols = rw - lw };
	frame_columns(a, P, &f);

	draw_header(a, g, ph, P, &L[cur], r);
	grid_text(g, r.x, r.y + 1, dw, TC_R_AXIS, "dendrogram");
	grid_fill(g, r.x + dw, r.y + 1, 1, body + 1, grid_glyph(g, TC_G_VLINE), TC_R_AXIS);
	draw_axis(&f, r.y + 1);
	int y = r.y + 2;
	draw_tree(a, g, ph, L, nl, cur, r.x, y, dw, body);
	uint32_t pcev[MAX_PARTNERS];
	uint32_t np = view_partners(a, pcev, MAX_PARTNERS);
	draw_focus(&f, fr, nf, y, lw, pcev, np);
	y += nf;

	uint32_t nb = ph->nvisible;
	int *h = xmalloc(((size_t)nb + 1) * sizeof *h);
	uint32_t bfirst = band_window(a, ph, brows, cb0, h);
	if (sep) draw_separator(a, g, ph, rx, rw, y++, nf, brows, bfirst);
	int *band_y = xmalloc(((size_t)nb + 1) * sizeof *band_y);
	draw_bands(&f, c, h, bfirst, cb0, cb1, rx, rw, lw, y, r.y + 2 + body, band_y);
	mark_band_partners(&f, c, fr, nf, pcev, np, band_y);
	free(band_y);
	free(h);
	free(L);
	free(fr);
	if (legend) draw_legend(&f, r.x, r.y + r.h - 1, r.w);
	if (evline) app_event_line(a, g, r.y + r.h - 1 - legend);
}

/* --- keys ------------------------------------------------------------------------------ */
/* Open the closed nodes shown in the subtree of n (open), or close its open
 * nodes whose children are both closed (!open); returns how many changed. */
static uint32_t level(struct tc_clusters *c, uint32_t p, const struct tc_phase_clusters *ph, uint32_t n, bool open)
{
	VEC(uint32_t) todo = { 0 }, hit = { 0 };
	VEC_PUSH(todo, n);
	while (todo.n) {
		uint32_t x = todo.a[--todo.n];
		const struct tc_cnode *N = &ph->nodes[x];
		if (N->child[0] == TC_NONE) continue;
		if (!N->open) {
			if (open) VEC_PUSH(hit, x);
			continue;
		}
		if (!open && !is_open(ph, N->child[0]) && !is_open(ph, N->child[1])) VEC_PUSH(hit, x);
		VEC_PUSH(todo, N->child[0]);
		VEC_PUSH(todo, N->child[1]);
	}
	for (size_t i = 0; i < hit.n; i++) tc_clusters_open(c, p, hit.a[i], open);
	uint32_t k = (uint32_t)hit.n;
	free(todo.a);
	free(hit.a);
	return k;
}

/* Keys that work without a dendrogram: steps, the metric.  Returns false
 * when act is not one of them. */
static bool step_key(struct tc_app *a, struct tc_clusters *c, enum tc_action act)
{
	switch (act) {
	case ACT_LEFT:
	case ACT_RIGHT: {
		int d = a->show_agg ? 1 : 2;
		app_set_step(a, a->step + (act == ACT_LEFT ? -d : d));
		if (c && a->st->npartitions) pick_phase(a, c, true);
		return true;
	}
	case ACT_FIRST:
	case ACT_LAST:
		app_set_step(a, act == ACT_FIRST ? 0 : (int64_t)a->st->max_step);
		return true;
	case ACT_METRIC:
		/* the clusters follow the app's metric when drawn (clusters_of) */
		if (app_switch_summary(a, (enum tc_metric)((a->metric + 1) % TC_M_COUNT), a->show_agg))
			app_message(a, false, "metric: %s (the phase is clustered again)", app_metric_label(a->metric));
		return true;
	default:
		return false;
	}
}

/* The dendrogram keys that change what is open or focused at the cursor
 * node (Enter, + / -, =, the focus keys).  Returns false for other keys. */
static bool tree_key(struct tc_app *a, struct tc_clusters *c, const struct tc_phase_clusters *ph, enum tc_action act)
{
	uint32_t p = a->cl.part;
	switch (act) {
	case ACT_ENTER: {
		const struct tc_cnode *N = &ph->nodes[a->cl.node];
		if (N->child[0] != TC_NONE) {
			uint32_t n = tc_clusters_open(c, p, a->cl.node, !N->open);
			app_message(a, false, "%s: %u cluster%s", N->open ? "opened" : "closed", n, n == 1 ? "" : "s");
		}
		select_node(a, ph);
		return true;
	}
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT: {
		bool open = act == ACT_ZOOM_IN;
		uint32_t n = level(c, p, ph, a->cl.node, open);
		if (!n && !open && ph->nodes[a->cl.node].parent != TC_NONE) {   /* nothing open below: close the parent */
			a->cl.node = ph->nodes[a->cl.node].parent;
			tc_clusters_open(c, p, a->cl.node, false);
			n = 1;
		}
		if (n) app_message(a, false, "%u cluster%s", ph->nvisible, ph->nvisible == 1 ? "" : "s");
		else app_message(a, false, open ? "nothing left to open here" : "nothing to close");
		return true;
	}
	case ACT_ZOOM_FIT:
		tc_clusters_cut(c, p, 0);
		a->cl.node = shown_node(ph, a->cl.node);
		app_message(a, false, "default cut: %u cluster%s", ph->nvisible, ph->nvisible == 1 ? "" : "s");
		return true;
	case ACT_FOCUS_MAX:
	case ACT_FOCUS_CENTROID: {
		uint32_t seed = act == ACT_FOCUS_MAX ? ph->nodes[a->cl.node].max_rank : tc_clusters_centroid(c, p, a->cl.node);
		if (seed == TC_NONE) return true;
		uint32_t n = tc_clusters_refocus(c, p, seed, ph->radius);
		app_message(a, false, "focus: %u rank%s around %s rank %u", n, n == 1 ? "" : "s",
			    act == ACT_FOCUS_MAX ? "the max-metric" : "the centroid", seed);
		return true;
	}
	default:
		return false;
	}
}

/* Cursor moves over the dendrogram's lines (a node per line). */
static bool move_key(struct tc_app *a, const struct tc_phase_clusters *ph, enum tc_action act)
{
	struct tline *L = xmalloc(((size_t)ph->nnodes + 1) * sizeof *L);
	size_t nl = tree_lines(ph, L);
	size_t cur = line_of(L, nl, a->cl.node);
	size_t page = a->cl.rows > 1 ? (size_t)a->cl.rows - 1 : 1;
	bool moved = true;
	switch (act) {
	case ACT_DOWN: if (cur + 1 < nl) cur++; break;
	case ACT_UP: if (cur) cur--; break;
	case ACT_PGDN: cur = cur + page < nl ? cur + page : nl - 1; break;
	case ACT_PGUP: cur = cur > page ? cur - page : 0; break;
	case ACT_TOP: cur = 0; break;
	case ACT_BOTTOM: cur = nl - 1; break;
	default: moved = false; break;
	}
	if (moved) {
		a->cl.node = L[cur].node;
		select_node(a, ph);
	}
	free(L);
	return moved;
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	struct tc_clusters *c;
	const struct tc_phase_clusters *ph = phase(a, &c);
	if (step_key(a, c, act)) return true;
	if (!ph || !ph->nnodes) {
		switch (act) {
		case ACT_DOWN: case ACT_UP: case ACT_PGDN: case ACT_PGUP: case ACT_TOP: case ACT_BOTTOM:
		case ACT_ENTER: case ACT_ZOOM_IN: case ACT_ZOOM_OUT: case ACT_ZOOM_FIT: case ACT_FOCUS_MAX:
		case ACT_FOCUS_CENTROID:
			return true;
		default:
			return false;
		}
	}
	a->cl.node = shown_node(ph, a->cl.node);
	return move_key(a, ph, act) || tree_key(a, c, ph, act);
}

static const char *const help[] = {
	"The phase (partition) under the cursor step. Left: its dendrogram; Enter",
	"opens or closes a node, + / - open or close one more level below the cursor.",
	"Right, on top: the focus ranks (the largest metric value and its message",
	"neighbours) as timelines; marked cells are the cursor event's partners.",
	"Below: one band per visible cluster, as tall as its share of the ranks.",
	"Per step: sends on top, collectives, receives at the bottom, each as tall",
	"as the members doing it; blank is inactive; colour: their mean metric.",
	"Waitall exchanges: a digit gives the receives completed per Wait.",
	"The node under the cursor is selected: its ranks are highlighted in the",
	"logical and physical views (Esc clears). c / C: focus on its max / centroid.",
	NULL,
};

const struct view view_clusters = {
	.name = "clusters", .id = TC_V_CLUSTERS, .min_w = 40, .min_h = 6, .draw = draw, .key = key, .help = help, .filtered = true,
	.ready = view_ready_clusters, .prepare = view_prepare_clusters,
};
