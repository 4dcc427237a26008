/* physical.c — the physical timeline: ranks × wall time (Ravel §4.3).
 * Non-MPI calls are shaded by call depth; MPI calls that communicate are
 * coloured by the metric of their event and carry the send/receive/
 * collective glyph; other MPI calls use the "mpi" role.  An MPI call wins a
 * cell it overlaps, so short calls never vanish; where a call starts or ends
 * inside a cell the boundary is drawn with eighth blocks (UTF-8 + colour).
 * Each cell looks at a bounded number of calls, found by binary search.
 *
 * A rank row is its master thread.  `e` opens a rank into its other
 * locations (OpenMP/pthreads CPU threads, then accelerator streams) as
 * sub-rows under it, Vampir-style; `E` opens or closes every rank.  On every
 * row OpenMP regions use the "openmp" role, calls on a stream (kernels) the
 * "gpu_kernel" role.  `#` picks a counter, drawn as a strip under the rows
 * (src/ui/counters.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_rootcause.h"
#include "ui.h"

#define SCAN_MAX 64

struct seg { enum tc_role role; uint32_t ch; uint32_t call; };

/* One row of the timeline: a rank (loc TC_NONE: its master thread) or one of its other locations. */
struct prow { uint32_t rank, loc; };
struct tc_physv {
	uint8_t *open;         /* per rank: its sub-rows shown */
	uint32_t nopen;
	uint32_t *sub_first;   /* nranks + 1 offsets into sub */
	uint32_t *sub;         /* per rank: its other CPU threads by thread number, then its streams */
	uint32_t loc;          /* the cursor's sub-row location, TC_NONE: the rank row */
	struct prow *rows;     /* the rows of the visible ranks, rebuilt each frame */
	uint32_t nrows;
	uint8_t *rclass;       /* per region: RC_* */
};
/* Regions drawn in their own role: OpenMP constructs (on CPU rows) and data
 * transfers (on stream rows; every other call on a stream is a kernel). */
enum { RC_PLAIN, RC_OMP, RC_XFER };

/* The calls a row draws: the master's are its rank's (which carry the MPI ops). */
struct src { struct tc_rank R; uint32_t rank; bool master; uint8_t type; const struct tc_loc *L; };

/* OpenMP: the OpenMP paradigm, or Score-P's "!$omp" names (old traces give them other
 * paradigms); transfers: the data-transfer role, "targetupdate" (MIC offload) or "memcpy". */
static uint8_t region_class(const struct tc_region *r)
{
	const char *n = r->name ? r->name : "";
	if (r->role == 30 /* OTF2_REGION_ROLE_DATA_TRANSFER */ || strstr(n, "targetupdate") || strstr(n, "emcpy"))
		return RC_XFER;
	if (r->paradigm == 3 /* OTF2_PARADIGM_OPENMP */ || !strncmp(n, "!$omp", 5)) return RC_OMP;
	return RC_PLAIN;
}

static bool sub_kind(const struct tc_loc *L) { return L->type == TC_LOC_CPU || L->type == TC_LOC_GPU; }

/* Location x before y: CPU threads first, by thread number, then by index. */
static bool loc_before(const struct tc_trace *t, uint32_t x, uint32_t y)
{
	const struct tc_loc *a = &t->locs[x], *b = &t->locs[y];
	if (a->type != b->type) return a->type < b->type;
	if (a->thread != b->thread) return a->thread < b->thread;
	return x < y;
}

/* Insertion sort: a rank has few locations. */
static void sort_locs(const struct tc_trace *t, uint32_t *l, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = l[i], j = i;
		for (; j > 0 && loc_before(t, x, l[j - 1]); j--) l[j] = l[j - 1];
		l[j] = x;
	}
}

static struct tc_physv *physv(struct tc_app *a)
{
	if (a->phv) return a->phv;
	const struct tc_trace *t = a->t;
	struct tc_physv *v = a->phv = xcalloc(1, sizeof *v);
	v->open = xcalloc((size_t)t->nranks + 1, 1);
	v->sub_first = xcalloc((size_t)t->nranks + 2, sizeof *v->sub_first);
	v->loc = TC_NONE;
	v->rclass = xmalloc((size_t)t->nregions + 1);
	for (uint32_t r = 0; r < t->nregions; r++) v->rclass[r] = region_class(&t->regions[r]);
	for (uint32_t l = 0; l < t->nlocs; l++) {
		uint32_t r = t->locs[l].rank;
		if (r < t->nranks && l != t->ranks[r].loc && sub_kind(&t->locs[l])) v->sub_first[r + 2]++;
	}
	for (uint32_t r = 0; r < t->nranks; r++) v->sub_first[r + 2] += v->sub_first[r + 1];
	v->sub = xmalloc(((size_t)v->sub_first[t->nranks + 1] + 1) * sizeof *v->sub);
	for (uint32_t l = 0; l < t->nlocs; l++) {
		uint32_t r = t->locs[l].rank;
		if (r < t->nranks && l != t->ranks[r].loc && sub_kind(&t->locs[l])) v->sub[v->sub_first[r + 1]++] = l;
	}
	for (uint32_t r = 0; r < t->nranks; r++) sort_locs(t, v->sub + v->sub_first[r], v->sub_first[r + 1] - v->sub_first[r]);
	return v;
}

static uint32_t nsubs(const struct tc_physv *v, uint32_t r) { return v->sub_first[r + 1] - v->sub_first[r]; }

/* The rows of the visible ranks, each open rank followed by its locations. */
static void build_rows(struct tc_app *a, struct tc_physv *v)
{
	uint32_t n = a->nvis;
	if (v->nopen)
		for (uint32_t i = 0; i < a->nvis; i++)
			if (v->open[a->vis[i]]) n += nsubs(v, a->vis[i]);
	free(v->rows);
	v->rows = xmalloc(((size_t)n + 1) * sizeof *v->rows);
	v->nrows = 0;
	for (uint32_t i = 0; i < a->nvis; i++) {
		uint32_t r = a->vis[i];
		v->rows[v->nrows++] = (struct prow){ r, TC_NONE };
		if (!v->open[r]) continue;
		for (uint32_t k = v->sub_first[r]; k < v->sub_first[r + 1]; k++) v->rows[v->nrows++] = (struct prow){ r, v->sub[k] };
	}
	if (v->loc != TC_NONE && (v->loc >= a->t->nlocs || a->t->locs[v->loc].rank != a->rank || !v->open[a->rank]))
		v->loc = TC_NONE;
}

/* The row of the cursor (its rank row when its sub-row is not shown). */
static uint32_t cursor_row(const struct tc_app *a, const struct tc_physv *v)
{
	if (!v->nopen) return app_vis_index(a, a->rank);
	uint32_t best = 0;
	for (uint32_t i = 0; i < v->nrows; i++) {
		if (v->rows[i].rank != a->rank) continue;
		if (v->rows[i].loc == v->loc) return i;
		if (v->rows[i].loc == TC_NONE) best = i;
	}
	return best;
}

static struct src row_src(const struct tc_trace *t, struct prow p)
{
	struct src s = { .rank = p.rank, .master = p.loc == TC_NONE };
	if (s.master) {
		s.R = t->ranks[p.rank];
		s.type = TC_LOC_CPU;
	} else {
		s.L = &t->locs[p.loc];
		s.R.calls = s.L->calls;
		s.R.ncalls = s.L->ncalls;
		s.type = s.L->type;
	}
	return s;
}

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
	if (e != TC_NONE) s.role = app_map_role(tc_cev_metric(a->st, e, a->metric, false), app_sum(a)->vmax);
	return s;
}

/* Glyphs of the thread and stream roles without colour: K kernel, M memcpy, o OpenMP. */
static struct seg role_seg(struct tc_app *a, enum tc_role role, uint32_t ci)
{
	uint32_t ch = ' ';
	if (!a->color) ch = role == TC_R_GPU_KERNEL ? 'K' : role == TC_R_GPU_MEMCPY ? 'M' : 'o';
	return (struct seg){ role, ch, ci };
}

/* What fills a stream's cell outside its kernels: a memcpy running at time, else nothing. */
static struct seg gap_seg(struct tc_app *a, const struct src *s, uint64_t time)
{
	if (s->type == TC_LOC_GPU && s->L && s->L->nxfers && tc_xfer_at(s->L, time) != TC_NONE)
		return role_seg(a, TC_R_GPU_MEMCPY, TC_NONE);
	return (struct seg){ TC_R_NORMAL, ' ', TC_NONE };
}

static struct seg call_seg(struct tc_app *a, const struct tc_grid *g, const struct src *s, uint32_t ci, uint64_t time)
{
	if (ci == TC_NONE) return gap_seg(a, s, time);
	const struct tc_trace *t = a->t;
	const struct tc_call *c = &s->R.calls[ci];
	const struct tc_region *reg = c->region < t->nregions ? &t->regions[c->region] : NULL;
	if (s->master && reg && TC_RK_IS_MPI(reg->kind)) return mpi_seg(a, g, s->rank, ci);
	uint8_t rc = reg ? a->phv->rclass[c->region] : RC_PLAIN;
	if (s->type == TC_LOC_GPU) return role_seg(a, rc == RC_XFER ? TC_R_GPU_MEMCPY : TC_R_GPU_KERNEL, ci);
	if (rc == RC_OMP) return role_seg(a, TC_R_OPENMP, ci);
	return (struct seg){ depth_role(c->depth), depth_glyph(a, g, c->depth), ci };
}

static bool same(struct seg a, struct seg b) { return a.role == b.role && a.ch == b.ch; }

/* A cell covers [lo, hi): eight samples of the innermost call give what
 * fills it; an MPI call that communicates and starts inside the cell wins
 * it even when no sample hits it (short calls never vanish).  Two runs of
 * samples (one boundary) draw as an eighth block in UTF-8 with colour. */
/* A call matching the search is drawn in the match role (its glyph stays). */
static void put_seg(struct tc_app *a, struct tc_grid *g, int x, int y, struct seg sg, const struct src *s)
{
	const struct tc_trace *t = a->t;
	if (a->region_match && sg.call != TC_NONE) {
		uint32_t reg = s->R.calls[sg.call].region;
		if (reg < t->nregions && a->region_match[reg]) sg.role = TC_R_MATCH;
	}
	grid_putr(g, x, y, sg.ch, sg.role);
}

/* A communicating call of the master thread starting in [lo, hi), TC_NONE if none. */
static uint32_t comm_starting(const struct tc_rank *R, uint64_t lo, uint64_t hi)
{
	uint32_t l = 0, h = R->ncalls;
	while (l < h) {
		uint32_t m = l + (h - l) / 2;
		if (R->calls[m].enter < lo) l = m + 1;
		else h = m;
	}
	for (uint32_t k = l, n = 0; k < R->ncalls && R->calls[k].enter < hi && n < SCAN_MAX; k++, n++)
		if (R->calls[k].op != TC_NONE) return k;
	return TC_NONE;
}

/* One cell from its eight samples (and a communicating call in it, comm). */
static void draw_cell(struct tc_app *a, struct tc_grid *g, int x, int y, const struct src *s, struct seg *smp,
		      uint32_t comm)
{
	int run = 1;
	while (run < 8 && same(smp[run], smp[0])) run++;
	int run2 = run;
	while (run2 < 8 && same(smp[run2], smp[run])) run2++;
	if (run == 8) {
		struct seg m = comm != TC_NONE ? mpi_seg(a, g, s->rank, comm) : smp[0];
		put_seg(a, g, x, y, comm != TC_NONE && !same(smp[0], m) ? m : smp[0], s);
		return;
	}
	if (run2 == 8 && a->color && !g->ascii && smp[0].ch == ' ' && smp[run].ch == ' ') {
		grid_put(g, x, y, grid_left_eighth(g, run), smp[0].role, smp[run].role, TC_A_SOLID);
		return;
	}
	if (comm != TC_NONE) {
		put_seg(a, g, x, y, mpi_seg(a, g, s->rank, comm), s);
		return;
	}
	/* the most frequent sample */
	int best = 0, bestn = 0;
	for (int k = 0; k < 8; k++) {
		int n = 0;
		for (int j = 0; j < 8; j++) n += same(smp[j], smp[k]);
		if (n > bestn) { bestn = n; best = k; }
	}
	put_seg(a, g, x, y, smp[best], s);
}

static void draw_row(struct tc_app *a, struct tc_grid *g, const struct src *s, int x0, int y, int cols, double dt)
{
	uint32_t hint = UINT32_MAX;
	for (int c = 0; c < cols; c++) {
		uint64_t lo = a->pv.t0 + (uint64_t)(c * dt), hi = a->pv.t0 + (uint64_t)((c + 1) * dt);
		if (hi <= lo) hi = lo + 1;
		struct seg smp[8];
		uint32_t comm = TC_NONE;
		for (int k = 0; k < 8; k++) {
			uint64_t at = lo + (uint64_t)((k + 0.5) * (double)(hi - lo) / 8);
			uint32_t ci = tc_call_at_hint(&s->R, &hint, at);
			smp[k] = call_seg(a, g, s, ci, at);
			if (s->master && ci != TC_NONE && s->R.calls[ci].op != TC_NONE && comm == TC_NONE) comm = ci;
		}
		/* a communicating call starting inside the cell */
		if (s->master && comm == TC_NONE) comm = comm_starting(&s->R, lo, hi);
		draw_cell(a, g, x0 + c, y, s, smp, comm);
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
 * binary search: O(log path + pieces on screen × rows).  rank_at[i]: the rank
 * of screen row i when it is a rank row, else TC_NONE. */
static void draw_path(struct tc_app *a, struct tc_grid *g, int x0, int y0, const uint32_t *rank_at, int rows, int cols,
		      double dt)
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
		int row = 0;
		while (row < rows && rank_at[row] != p->rank) row++;
		if (row == rows) continue;
		int c0 = p->start > a->pv.t0 ? (int)((double)(p->start - a->pv.t0) / dt) : 0;
		int c1 = (int)((double)(p->end - a->pv.t0) / dt);
		for (int c = c0; c <= c1 && c < cols; c++) {
			struct tc_cell *cell = grid_at(g, x0 + c, y0 + row);
			if (!cell || cell->fg == TC_R_CURSOR) continue;
			cell->fg = cell->bg = TC_R_PATH;
			cell->attr = 0;
		}
	}
}

/* Columns of the rank labels (and the gap after them); one more for the +/-
 * of ranks that have threads or streams. */
static int label_width(const struct tc_trace *t, const struct tc_physv *v)
{
	int lw = 1;
	for (uint32_t n = t->nranks ? t->nranks - 1 : 0; n >= 10; n /= 10) lw++;
	lw = TC_MAX(lw + 1, 3);
	return v->sub_first[t->nranks] ? TC_MAX(lw + 1, 4) : lw;
}

/* "t3" for CPU thread 3, "g1" for the rank's second stream. */
static void sub_label(const struct tc_trace *t, const struct tc_physv *v, uint32_t loc, char *buf, size_t n)
{
	const struct tc_loc *L = &t->locs[loc];
	if (L->type != TC_LOC_GPU) {
		snprintf(buf, n, "t%u", L->thread);
		return;
	}
	uint32_t k = 0;
	for (uint32_t i = v->sub_first[L->rank]; i < v->sub_first[L->rank + 1] && v->sub[i] != loc; i++)
		k += t->locs[v->sub[i]].type == TC_LOC_GPU;
	snprintf(buf, n, "g%u", k);
}

static void draw_label(struct tc_app *a, struct tc_grid *g, const struct tc_physv *v, struct prow p, int x, int y, int lw)
{
	const struct tc_trace *t = a->t;
	bool cur = p.rank == a->rank && p.loc == v->loc;
	if (p.loc == TC_NONE) {
		enum tc_role lr = cur ? TC_R_CURSOR : app_rank_selected(a, p.rank) ? TC_R_SELECTION : TC_R_LABEL;
		grid_printf(g, x, y, lw - 1, lr, "%*u", lw - 1, p.rank);
		if (nsubs(v, p.rank)) grid_put(g, x, y, v->open[p.rank] ? '-' : '+', lr, lr, 0);
		return;
	}
	char lab[16];
	sub_label(t, v, p.loc, lab, sizeof lab);
	grid_printf(g, x, y, lw - 1, cur ? TC_R_CURSOR : TC_R_AXIS, "%*s", lw - 1, lab);
}

/* The axis line: times every 14 columns; the cursor step's physical span underlined. */
static void draw_axis(struct tc_app *a, struct tc_grid *g, int x, int y, int lw, int cols, double dt)
{
	const struct tc_trace *t = a->t;
	int x0 = x + lw;
	grid_text(g, x, y, lw, TC_R_AXIS, "t");
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
			grid_text(g, x0 + c, y, 13, TC_R_AXIS, lab);
		}
		struct tc_cell *p = grid_at(g, x0 + c, y);
		/* a tick between two labels only, where the first one ends */
		if (p && p->ch == ' ' && c % 14 == 11 && c + 3 + 13 <= cols) p->ch = grid_glyph(g, TC_G_TICK);
		if (p && hi > sb && lo <= se) { p->fg = p->bg = TC_R_SELECTION; if (p->ch == ' ') p->ch = grid_glyph(g, TC_G_HLINE); }
	}
}

/* The event line of a thread or stream row: its name and the call under the cursor. */
static void sub_event_line(struct tc_app *a, struct tc_grid *g, const struct tc_physv *v, int y)
{
	const struct tc_trace *t = a->t;
	const struct tc_loc *L = &t->locs[v->loc];
	char lab[16], d[32], line[512];
	sub_label(t, v, v->loc, lab, sizeof lab);
	uint32_t c = tc_loc_call_at(L, a->time), x = L->type == TC_LOC_GPU ? tc_xfer_at(L, a->time) : TC_NONE;
	if (c == TC_NONE && x != TC_NONE) {
		char b[32];
		fmt_bytes(b, sizeof b, L->xfers[x].bytes);
		fmt_seconds(d, sizeof d, tc_dur(t, L->xfers[x].end - L->xfers[x].begin));
		snprintf(line, sizeof line, "rank %u %s (%s): memcpy %s in %s (RMA %s%s)", a->rank, L->name, lab, b, d,
			 L->xfers[x].flags & TC_XFER_GET ? "get" : "put", L->xfers[x].flags & TC_XFER_OPEN ? ", never completed" : "");
	} else if (c == TC_NONE) {
		snprintf(line, sizeof line, "rank %u %s (%s): no call here", a->rank, L->name, lab);
	} else {
		fmt_seconds(d, sizeof d, tc_dur(t, L->calls[c].leave - L->calls[c].enter));
		snprintf(line, sizeof line, "rank %u %s (%s): %s %s (depth %u)", a->rank, L->name, lab,
			 tc_region_name(t, L->calls[c].region), d, L->calls[c].depth);
	}
	app_status_line(g, y, line);
}

/* Rows left for the counter strip in h rows of timeline (heading + one per rank). */
static int strip_rows(struct tc_app *a, int h, int nranks)
{
	if (a->counter == TC_NONE || h < 4) return 0;
	return TC_MIN(nranks, TC_MAX(1, h / 2 - 1));
}

/* Whether the trace has threads or streams, and kernels / OpenMP regions: the legend's extra keys. */
static void draw_legend_extra(struct tc_app *a, struct tc_grid *g, int x0, int y, int w, int used)
{
	const struct tc_trace *t = a->t;
	bool gpu = false, mem = false, omp = false;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		gpu |= t->locs[l].type == TC_LOC_GPU && t->locs[l].ncalls;
		mem |= t->locs[l].type == TC_LOC_GPU && t->locs[l].nxfers;
	}
	for (uint32_t r = 0; r < t->nregions; r++) {
		omp |= a->phv->rclass[r] == RC_OMP;
		mem |= gpu && a->phv->rclass[r] == RC_XFER;   /* transfer regions on streams (MIC offload) */
	}
	struct { bool on; enum tc_role role; const char *name; } k[3] = {
		{ gpu, TC_R_GPU_KERNEL, " kernel" }, { mem, TC_R_GPU_MEMCPY, " memcpy" }, { omp, TC_R_OPENMP, " OpenMP" } };
	int need = 0;
	for (int i = 0; i < 3; i++) need += k[i].on ? 2 + (int)strlen(k[i].name) : 0;
	if (!need) return;
	int x = x0 + used + 2;
	if (used + 2 + need > w + 1) {
		/* no room after the legend: over its end, when threads or streams are shown */
		if (!a->phv->nopen || need > w) return;
		x = x0 + w - need + 1;
		while (x > x0 && grid_at(g, x - 1, y)->ch != ' ') x--;   /* never half a word ("234" of "234.8 ms") */
		grid_fill(g, x, y, x0 + w - x, 1, ' ', TC_R_NORMAL);
	}
	for (int i = 0; i < 3; i++) {
		if (!k[i].on) continue;
		struct seg sg = role_seg(a, k[i].role, TC_NONE);
		grid_putr(g, x++, y, sg.ch, sg.role);
		x += grid_text(g, x, y, x0 + w - x, TC_R_LABEL, k[i].name) + 1;
	}
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_trace *t = a->t;
	struct tc_physv *v = physv(a);
	build_rows(a, v);
	int lw = label_width(t, v);
	bool evline = r.h >= 12, legend = r.h >= 8;
	int body = r.h - 1 - evline - legend, cols = r.w - lw;
	int srows = strip_rows(a, body, (int)TC_MIN(a->nvis, 64u));
	int rows = body - (srows ? srows + 1 : 0);
	a->pv.cols = cols;
	a->pv.rows = rows;
	app_follow_time(a);   /* keep the cursor time and rank on screen */
	uint32_t vi = cursor_row(a, v);
	if (vi < a->pv.top) a->pv.top = vi;
	if (vi >= a->pv.top + (uint32_t)rows) a->pv.top = vi - (uint32_t)rows + 1;
	if (a->pv.top + (uint32_t)rows > v->nrows) a->pv.top = v->nrows > (uint32_t)rows ? v->nrows - (uint32_t)rows : 0;
	double dt = (double)(a->pv.t1 - a->pv.t0) / cols;
	int x0 = r.x + lw;
	draw_axis(a, g, r.x, r.y, lw, cols, dt);
	uint32_t *rank_at = xmalloc(((size_t)rows + 1) * sizeof *rank_at), *shown = xmalloc(((size_t)rows + 1) * sizeof *shown);
	int nshown = 0;
	for (int i = 0; i < rows; i++) {
		uint32_t k = a->pv.top + (uint32_t)i;
		rank_at[i] = TC_NONE;
		if (k >= v->nrows) continue;
		struct prow p = v->rows[k];
		struct src s = row_src(t, p);
		draw_label(a, g, v, p, r.x, r.y + 1 + i, lw);
		draw_row(a, g, &s, x0, r.y + 1 + i, cols, dt);
		if (p.loc == TC_NONE) rank_at[i] = shown[nshown++] = p.rank;
		if (p.rank == a->rank && p.loc == v->loc && a->time >= a->pv.t0 && a->time < a->pv.t1) {
			struct tc_cell *c = grid_at(g, x0 + (int)((double)(a->time - a->pv.t0) / dt), r.y + 1 + i);
			if (c) {
				c->fg = c->bg = TC_R_CURSOR;
				c->attr = 0;
				if (c->ch == ' ' || c->ch < 0x20) c->ch = grid_glyph(g, TC_G_MARK);
			}
		}
	}
	if (a->pv.path && view_ready_rootcause(a->sess)) draw_path(a, g, x0, r.y + 1, rank_at, rows, cols, dt);
	int drawn = (int)TC_MIN((uint32_t)rows, v->nrows - TC_MIN(v->nrows, a->pv.top));   /* the strip right under them */
	if (srows) counter_strip(a, g, x0, lw, r.y + 1 + drawn, shown, TC_MIN(nshown, srows), cols, a->pv.t0, a->pv.t1);
	free(rank_at);
	free(shown);
	if (evline) {
		if (v->loc != TC_NONE) sub_event_line(a, g, v, r.y + r.h - 1 - legend);
		else app_event_line(a, g, r.y + r.h - 1 - legend);
	}
	if (legend) {
		draw_legend(a, g, r.x, r.y + r.h - 1, r.w);
		int used = r.w;   /* the extra keys after the legend's last glyph */
		while (used > 0 && grid_at(g, r.x + used - 1, r.y + r.h - 1)->ch == ' ') used--;
		draw_legend_extra(a, g, r.x, r.y + r.h - 1, r.w, used);
	}
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

/* Threads and streams of rank r as words: "3 threads, 1 stream". */
static void sub_words(const struct tc_trace *t, const struct tc_physv *v, uint32_t r0, uint32_t r1, char *buf, size_t n)
{
	uint32_t th = 0, st = 0;
	for (uint32_t i = v->sub_first[r0]; i < v->sub_first[r1]; i++) {
		if (t->locs[v->sub[i]].type == TC_LOC_GPU) st++;
		else th++;
	}
	snprintf(buf, n, "%u thread%s, %u stream%s", th, th == 1 ? "" : "s", st, st == 1 ? "" : "s");
}

static void set_open(struct tc_physv *v, uint32_t r, bool open)
{
	if (v->open[r] == open) return;
	v->open[r] = open;
	if (open) v->nopen++;
	else v->nopen--;
}

static void expand(struct tc_app *a, bool all)
{
	const struct tc_trace *t = a->t;
	struct tc_physv *v = physv(a);
	char w[64];
	if (!v->sub_first[t->nranks]) {
		app_message(a, false, "no threads or streams beyond the ranks' master threads in this trace");
		return;
	}
	if (!all) {
		if (!nsubs(v, a->rank)) {
			app_message(a, false, "rank %u has no threads or streams beyond its master thread", a->rank);
			return;
		}
		set_open(v, a->rank, !v->open[a->rank]);
		if (!v->open[a->rank]) v->loc = TC_NONE;
		sub_words(t, v, a->rank, a->rank + 1, w, sizeof w);
		app_message(a, false, "rank %u %s: %s (e: %s)", a->rank, v->open[a->rank] ? "opened" : "closed", w,
			    v->open[a->rank] ? "close" : "open");
		return;
	}
	bool open = false;   /* open all when one with sub-rows is closed */
	for (uint32_t r = 0; r < t->nranks && !open; r++) open = nsubs(v, r) && !v->open[r];
	for (uint32_t r = 0; r < t->nranks; r++)
		if (nsubs(v, r)) set_open(v, r, open);
	if (!open) v->loc = TC_NONE;
	sub_words(t, v, 0, t->nranks, w, sizeof w);
	app_message(a, false, open ? "every rank opened: %s as rows (E: close all)" : "every rank closed (%s folded; E: open all)", w);
}

static void pick_counter(struct tc_app *a)
{
	const struct tc_trace *t = a->t;
	if (!counter_next(a)) {
		bool any = false;
		for (uint32_t m = 0; m < t->nmetrics; m++) any |= t->metrics[m].nsamples > 0;
		app_message(a, false, any ? "counter off (#: the first again)" : "no counter samples in this trace");
		return;
	}
	const struct tc_metric_def *m = &t->metrics[a->counter];
	app_message(a, false, "counter %s [%s], %s, %llu samples (#: next)", m->name, m->unit,
		    m->mode == TC_MM_ACCUMULATED ? "accumulated: drawn as rate" : "drawn as value",
		    (unsigned long long)m->nsamples);
}

/* The cursor to row k. */
static void go_row(struct tc_app *a, struct tc_physv *v, uint32_t k)
{
	if (k >= v->nrows) return;
	a->rank = v->rows[k].rank;
	v->loc = v->rows[k].loc;
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	const struct tc_trace *t = a->t;
	struct tc_physv *v = physv(a);
	build_rows(a, v);
	uint32_t vi = cursor_row(a, v), n = v->nrows;
	uint32_t page = (uint32_t)(a->pv.rows > 1 ? a->pv.rows - 1 : 1);
	uint64_t w = a->pv.t1 - a->pv.t0;
	uint64_t col = a->pv.cols > 0 ? w / (uint64_t)a->pv.cols : 1;
	if (!col) col = 1;
	switch (act) {
	case ACT_DOWN: if (vi + 1 < n) vi++; break;
	case ACT_UP: if (vi) vi--; break;
	case ACT_PGDN: vi = vi + page < n ? vi + page : (n ? n - 1 : 0); break;
	case ACT_PGUP: vi = vi >= page ? vi - page : 0; break;
	case ACT_TOP: vi = 0; break;
	case ACT_BOTTOM: vi = n ? n - 1 : 0; break;
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
	case ACT_EXPAND:
	case ACT_EXPAND_ALL:
		expand(a, act == ACT_EXPAND_ALL);
		return true;
	case ACT_COUNTER:
		pick_counter(a);
		return true;
	default: return false;
	}
	go_row(a, v, vi);
	app_set_time(a, a->time);
	return true;
}

/* A click on a row picks its rank (and thread or stream), on a cell also the time at the middle of the column. */
static bool click(struct tc_app *a, struct tc_rect r, int x, int y)
{
	struct tc_physv *v = physv(a);
	build_rows(a, v);
	int row = y - (r.y + 1), col = x - (r.x + label_width(a->t, v));
	if (!v->nrows || a->pv.cols < 1 || row >= a->pv.rows) return false;
	if (row >= 0) go_row(a, v, a->pv.top + (uint32_t)row);
	double dt = (double)(a->pv.t1 - a->pv.t0) / a->pv.cols;
	if (col >= 0 && col < a->pv.cols) app_set_time(a, a->pv.t0 + (uint64_t)((col + 0.5) * dt));
	else app_set_time(a, a->time);   /* the step follows the new rank */
	return true;
}

uint32_t physical_cursor_loc(const struct tc_app *a)
{
	const struct tc_physv *v = a->phv;
	if (!v || v->loc == TC_NONE || v->loc >= a->t->nlocs || a->t->locs[v->loc].rank != a->rank || !v->open[a->rank])
		return TC_NONE;
	return v->loc;
}

static void free_state(struct tc_app *a)
{
	struct tc_physv *v = a->phv;
	counter_free(a);
	if (!v) return;
	free(v->open);
	free(v->sub_first);
	free(v->sub);
	free(v->rows);
	free(v->rclass);
	free(v);
	a->phv = NULL;
}

static const char *const help[] = {
	"Rows are ranks, columns wall-clock time. Grey shades: non-MPI calls by",
	"depth (deeper is lighter). MPI calls that communicate are coloured by the",
	"metric of their event and show the send/receive/collective glyph; other",
	"MPI calls use the mpi colour. The top line marks the physical span of the",
	"step under the cursor; moving in time moves the step and back.",
	"c shows the critical path (underlined, in the path colour): the chain of",
	"computation and MPI time that set the run's length (docs/rootcause.md).",
	"A rank row is its master thread; + before its number: it has more threads",
	"or accelerator streams. e opens the cursor rank into them (t1 t2 ..: CPU",
	"threads, g0 g1 ..: streams; - closes), E opens / closes every rank. Kernels",
	"on streams use the gpu_kernel colour (K without colour), their memcpys",
	"(RMA put/get records) gpu_memcpy (M), OpenMP regions the openmp colour (o)",
	"on every thread. # draws the next counter (hardware or",
	"software METRIC) per rank under the rows: sparkline of its rate",
	"(accumulated counters) or value; the event line gives it at the cursor.",
	NULL,
};

const struct view view_physical = {
	.name = "physical", .id = TC_V_PHYSICAL, .min_w = 16, .min_h = 3, .draw = draw, .key = key, .help = help,
	.filtered = true, .click = click, .free_state = free_state,
};
