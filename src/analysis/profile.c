/* profile.c — flat profile, message-size histogram, activity over time and
 * the duration-vs-time density of MPI calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

/* Calls of rank R with enter in [t0, t1): the index range [*lo, *hi) (calls are in
 * enter order), by binary search. */
static void calls_starting_in(const struct tc_rank *R, uint64_t t0, uint64_t t1, uint32_t *lo, uint32_t *hi)
{
	uint32_t a = 0, b = R->ncalls;
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (R->calls[m].enter < t0) a = m + 1;
		else b = m;
	}
	*lo = a;
	b = R->ncalls;
	while (a < b) {
		uint32_t m = a + (b - a) / 2;
		if (R->calls[m].enter < t1) a = m + 1;
		else b = m;
	}
	*hi = a;
}

/* The outermost MPI call of rank r that started before t0 and is still running
 * at t0 (at most one: outermost MPI calls do not nest), TC_NONE if none. */
static uint32_t outer_mpi_spanning(const struct tc_trace *t, uint32_t r, uint64_t t0)
{
	const struct tc_rank *R = &t->ranks[r];
	uint32_t found = TC_NONE;
	for (uint32_t c = tc_call_at(t, r, t0); c != TC_NONE; c = R->calls[c].parent)
		if (R->calls[c].enter < t0 && tc_call_outermost_mpi(t, R, &R->calls[c])) found = c;
	return found;
}

static int by_excl(const void *a, const void *b)
{
	const struct tc_prof_region *x = a, *y = b;
	if (x->excl != y->excl) return x->excl > y->excl ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

struct tc_profile *tc_profile_compute(const struct tc_trace *t)
{
	return tc_profile_compute_window(t, NULL, NULL, NULL, t->nranks);
}

/* Seconds of [b, e] inside [t0, t1]. */
static double clip(const struct tc_trace *t, uint64_t b, uint64_t e, uint64_t t0, uint64_t t1)
{
	uint64_t lo = b > t0 ? b : t0, hi = e < t1 ? e : t1;
	return hi > lo ? tc_dur(t, hi - lo) : 0;
}

void prof_regions_init(struct tc_prof_region *g, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		g[i] = (struct tc_prof_region){ .region = i, .excl_min = INFINITY, .rank_max = TC_NONE };
	}
}

void prof_scratch_init(struct prof_scratch *sc, uint32_t nr)
{
	sc->excl_rank = xcalloc(nr ? nr : 1, sizeof *sc->excl_rank);
	sc->seen = xcalloc(nr ? nr : 1, sizeof *sc->seen);
	sc->touched.a = NULL;
	sc->touched.n = sc->touched.cap = 0;
}

void prof_scratch_free(struct prof_scratch *sc)
{
	VEC_FREE(sc->touched);
	free(sc->excl_rank);
	free(sc->seen);
}

/* Rank r's exclusive time per region into g, once its calls are summed. */
static void rank_excl(uint32_t r, struct tc_prof_region *g, struct prof_scratch *sc)
{
	for (size_t k = 0; k < sc->touched.n; k++) {
		uint32_t reg = sc->touched.a[k];
		struct tc_prof_region *x = &g[reg];
		double e = sc->excl_rank[reg];
		x->excl += e;
		x->nranks++;
		if (e < x->excl_min) x->excl_min = e;
		if (x->rank_max == TC_NONE || e > x->excl_max) { x->excl_max = e; x->rank_max = r; }
		sc->excl_rank[reg] = 0;
		sc->seen[reg] = false;
	}
	sc->touched.n = 0;
}

void prof_add_rank(const struct tc_trace *t, uint32_t r, const uint64_t *rank_t0, const uint64_t *rank_t1,
		   struct tc_profile *p, struct tc_prof_region *g, struct prof_scratch *sc)
{
	bool all = !rank_t0 || !rank_t1;
	uint32_t nr = t->nregions;
	const struct tc_rank *R = &t->ranks[r];
	uint64_t t0 = all ? t->tmin : rank_t0[r], t1 = all ? t->tmax : rank_t1[r];
	if (R->ncalls) p->total += all ? tc_dur(t, R->last_time - R->first_time) : clip(t, R->first_time, R->last_time, t0, t1);
	for (uint32_t c = 0; c < R->ncalls; c++) {
		const struct tc_call *call = &R->calls[c];
		if (call->region >= nr) continue;
		if (!all && (call->leave <= t0 || call->enter >= t1)) continue;   /* outside the window */
		double d = all ? tc_dur(t, call->leave - call->enter) : clip(t, call->enter, call->leave, t0, t1);
		struct tc_prof_region *x = &g[call->region];
		x->calls++;
		/* inclusive time counts only the outermost instance of a recursive region */
		bool nested = false;
		for (uint32_t a = call->parent; a != TC_NONE && !nested; a = R->calls[a].parent)
			nested = R->calls[a].region == call->region;
		if (!nested) x->incl += d;
		if (!sc->seen[call->region]) { sc->seen[call->region] = true; VEC_PUSH(sc->touched, call->region); }
		sc->excl_rank[call->region] += d;
		if (call->parent != TC_NONE && R->calls[call->parent].region < nr)
			sc->excl_rank[R->calls[call->parent].region] -= d;
		if (tc_call_outermost_mpi(t, R, call)) p->mpi += d;
	}
	rank_excl(r, g, sc);
}

void prof_finish(struct tc_profile *p, struct tc_prof_region *g, uint32_t nr)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < nr; i++) {
		if (!g[i].calls) continue;
		double mean = g[i].excl / g[i].nranks;
		g[i].imbalance = g[i].excl_max > 0 ? (g[i].excl_max - mean) / g[i].excl_max : 0;
		g[n++] = g[i];
	}
	qsort(g, n, sizeof *g, by_excl);
	p->regions = g;
	p->n = n;
}

void prof_hist(struct tc_profile *p, const struct tc_msg *msgs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t b = msgs[i].bytes;
		int k = (int)tc_bit_width(b);
		if (k >= TC_PROF_HIST) k = TC_PROF_HIST - 1;
		p->hist_count[k]++;
		p->hist_bytes[k] += msgs[i].bytes;
	}
}

struct tc_profile *tc_profile_compute_window(const struct tc_trace *t, const uint64_t *rank_t0, const uint64_t *rank_t1,
					     const uint32_t *ranks, uint32_t nranks)
{
	struct tc_profile *p = xcalloc(1, sizeof *p);
	uint32_t nr = t->nregions;
	struct tc_prof_region *g = xcalloc(nr ? nr : 1, sizeof *g);
	prof_regions_init(g, nr);
	struct prof_scratch sc;
	prof_scratch_init(&sc, nr);
	for (uint32_t i = 0; i < nranks; i++) {
		uint32_t r = ranks ? ranks[i] : i;
		if (r < t->nranks) prof_add_rank(t, r, rank_t0, rank_t1, p, g, &sc);
	}
	prof_scratch_free(&sc);
	prof_finish(p, g, nr);
	prof_hist(p, t->msgs, t->nmsgs);
	return p;
}

/* --- per location and per rank ------------------------------------------ */
static int cell_order(const void *a, const void *b)
{
	const struct tc_prof_cell *x = a, *y = b;
	if (x->who != y->who) return x->who < y->who ? -1 : 1;
	if (x->excl != y->excl) return x->excl > y->excl ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

/* Per-region sums of one location's calls into acc (indexed by region), the
 * regions touched listed.  excl: the calls' durations minus their children's,
 * summed modulo 2^64 (unsigned: defined whatever the timestamps of a corrupt
 * trace; read as signed at the end, where a negative sum counts as 0). */
struct region_acc {
	uint64_t *excl;
	uint64_t *incl, *calls;
	VEC(uint32_t) touched;
};

static void acc_location(const struct tc_trace *t, const struct tc_loc *L, struct region_acc *a)
{
	uint32_t nr = t->nregions;
	for (uint32_t c = 0; c < L->ncalls; c++) {
		const struct tc_call *call = &L->calls[c];
		if (call->region >= nr) continue;
		uint64_t d = call->leave - call->enter;
		if (!a->calls[call->region]++) VEC_PUSH(a->touched, call->region);
		a->excl[call->region] += d;
		if (call->parent != TC_NONE && L->calls[call->parent].region < nr)
			a->excl[L->calls[call->parent].region] -= d;
		bool nested = false;
		for (uint32_t p = call->parent; p != TC_NONE && !nested; p = L->calls[p].parent)
			nested = L->calls[p].region == call->region;
		if (!nested) a->incl[call->region] += d;
	}
}

struct tc_prof_table *tc_profile_locations(const struct tc_trace *t)
{
	struct tc_prof_table *pt = xcalloc(1, sizeof *pt);
	uint32_t nr = t->nregions ? t->nregions : 1;
	struct region_acc a = { xcalloc(nr, sizeof *a.excl), xcalloc(nr, sizeof *a.incl), xcalloc(nr, sizeof *a.calls),
				{ 0 } };
	VEC(struct tc_prof_cell) out = { 0 };
	for (uint32_t l = 0; l < t->nlocs; l++) {
		acc_location(t, &t->locs[l], &a);
		for (size_t k = 0; k < a.touched.n; k++) {
			uint32_t r = a.touched.a[k];
			struct tc_prof_cell c = { r, l, a.calls[r], (int64_t)a.excl[r] > 0 ? a.excl[r] : 0, a.incl[r] };
			VEC_PUSH(out, c);
			a.excl[r] = 0;
			a.incl[r] = a.calls[r] = 0;
		}
		a.touched.n = 0;
	}
	VEC_FREE(a.touched);
	free(a.excl);
	free(a.incl);
	free(a.calls);
	pt->cells = out.a;
	pt->n = out.n;
	prof_table_sort(pt);
	return pt;
}

void prof_table_sort(struct tc_prof_table *pt)
{
	if (pt->n) qsort(pt->cells, pt->n, sizeof *pt->cells, cell_order);
}

static int by_region_who(const void *a, const void *b)
{
	const struct tc_prof_cell *x = a, *y = b;
	if (x->region != y->region) return x->region < y->region ? -1 : 1;
	return x->who < y->who ? -1 : x->who > y->who;
}

struct tc_prof_table *tc_profile_ranks(const struct tc_trace *t, const struct tc_prof_table *per_loc)
{
	struct tc_prof_table *pt = xcalloc(1, sizeof *pt);
	struct tc_prof_cell *c = xmalloc((per_loc->n ? per_loc->n : 1) * sizeof *c);
	size_t n = 0;
	for (size_t i = 0; i < per_loc->n; i++) {
		uint32_t rank = t->locs[per_loc->cells[i].who].rank;
		if (rank >= t->nranks) continue;
		c[n] = per_loc->cells[i];
		c[n++].who = rank;
	}
	if (n) qsort(c, n, sizeof *c, by_region_who);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && c[k - 1].region == c[i].region && c[k - 1].who == c[i].who) {
			c[k - 1].calls += c[i].calls;
			c[k - 1].excl += c[i].excl;
			c[k - 1].incl += c[i].incl;
		} else c[k++] = c[i];
	}
	if (k) qsort(c, k, sizeof *c, cell_order);
	pt->cells = c;
	pt->n = k;
	return pt;
}

void tc_prof_table_free(struct tc_prof_table *pt)
{
	if (!pt) return;
	free(pt->cells);
	free(pt);
}

void tc_profile_free(struct tc_profile *p)
{
	if (!p) return;
	free(p->regions);
	free(p);
}

/* --- the MPI call view ---------------------------------------------------
 * Both ways (the exact pass, the summary) produce the same intermediate
 * arrays, rank-ticks per (column, MPI region) and calls per (column, duration
 * bucket), and share the steps after them (fold_slots, bucket_rows): where
 * the intermediates agree (column edges on base-bin edges) so do the results.
 * Where a column edge cuts a base bin, the summary gives the bin's rank-time
 * to both columns pro rata (time in a bin taken as uniform) but its calls
 * whole to the column holding the bin's middle: a burst of calls stays in one
 * column, and counts stay counts. */

/* Compact indices of the MPI regions: cid[region] = index or TC_NONE,
 * ids[index] = region, ascending.  Returns how many. */
static uint32_t mpi_regions(const struct tc_trace *t, uint32_t *cid, uint32_t *ids)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nregions; i++) {
		cid[i] = TC_NONE;
		if (!TC_RK_IS_MPI(t->regions[i].kind)) continue;
		ids[n] = i;
		cid[i] = n++;
	}
	return n;
}

/* TC_CALL_BUCKETS equal buckets of log10 duration over [dmin, dmax] seconds;
 * shorter calls go in the first, longer ones in the last. */
struct dur_axis {
	double dmin, l0, scale, res;
};

static struct dur_axis dur_axis(double dmin, double dmax, uint64_t res)
{
	double l0 = log10(dmin);
	return (struct dur_axis){ dmin, l0, TC_CALL_BUCKETS / (log10(dmax) - l0), (double)res };
}

static uint32_t dur_bucket(const struct dur_axis *ax, uint64_t ticks)
{
	double d = (double)ticks / ax->res;
	if (!(d > ax->dmin)) return 0;
	double j = (log10(d) - ax->l0) * ax->scale;
	return j <= 0 ? 0 : j < TC_CALL_BUCKETS - 1 ? (uint32_t)j : TC_CALL_BUCKETS - 1;
}

/* Rows of every column from its buckets fine[x * TC_CALL_BUCKETS + j] (j = 0
 * the shortest) into counts[y * nx + x] (y = 0 the longest): a bucket goes
 * whole to the row of its centre, as a call would (a spike of one duration
 * stays in one row).  Returns the largest count. */
static uint32_t bucket_rows(const uint32_t *fine, uint32_t nx, uint32_t ny, uint32_t *counts)
{
	enum { NB = TC_CALL_BUCKETS };
	uint32_t row[NB];
	for (uint32_t j = 0; j < NB; j++) row[j] = (uint32_t)((1 - (j + 0.5) / NB) * (ny - 1) + 0.5);
	memset(counts, 0, (size_t)nx * ny * sizeof *counts);
	uint32_t mx = 0;
	for (uint32_t x = 0; x < nx; x++)
		for (uint32_t j = 0; j < NB; j++) {
			uint32_t *v = &counts[(size_t)row[j] * nx + x];
			*v += fine[(size_t)x * NB + j];
			if (*v > mx) mx = *v;
		}
	return mx;
}

/* The slots from rank-ticks per (column, region) tk[x * nreg + r]: the
 * max_slots − 1 regions with most ticks in the window (ties: the lower
 * index; ids[r] is the trace region), then TC_NONE for every other; each
 * column's shares are its ticks / column width w / ranks.  Returns nslots. */
static uint32_t fold_slots(const double *tk, uint32_t nreg, const uint32_t *ids, uint32_t nx, double w,
			   uint32_t nranks, uint32_t max_slots, uint32_t *slots, double *share)
{
	double *tot = xcalloc(nreg ? nreg : 1, sizeof *tot);
	uint32_t *slot_of = xmalloc((nreg ? nreg : 1) * sizeof *slot_of);
	for (uint32_t x = 0; x < nx; x++)
		for (uint32_t r = 0; r < nreg; r++) tot[r] += tk[(size_t)x * nreg + r];
	uint32_t ns = 0;
	for (uint32_t r = 0; r < nreg; r++) slot_of[r] = TC_NONE;
	while (ns < max_slots - 1) {
		uint32_t best = TC_NONE;
		for (uint32_t r = 0; r < nreg; r++)
			if (tot[r] > 0 && (best == TC_NONE || tot[r] > tot[best])) best = r;
		if (best == TC_NONE) break;
		slot_of[best] = ns;
		slots[ns++] = ids[best];
		tot[best] = -1;
	}
	uint32_t other = ns;
	slots[ns++] = TC_NONE;
	memset(share, 0, (size_t)nx * max_slots * sizeof *share);
	for (uint32_t x = 0; x < nx; x++)
		for (uint32_t r = 0; r < nreg; r++) {
			double v = tk[(size_t)x * nreg + r];
			if (v != 0) share[(size_t)x * max_slots + (slot_of[r] == TC_NONE ? other : slot_of[r])] += v;
		}
	double nr = nranks ? (double)nranks : 1, cw = w > 0 ? w : 1;
	for (size_t i = 0; i < (size_t)nx * max_slots; i++) share[i] = share[i] / cw / nr;
	free(tot);
	free(slot_of);
	return ns;
}

/* Column edge x of nx equal columns over [t0, t1), in ticks from t0. */
static double edge_off(uint64_t t0, uint64_t t1, uint32_t nx, uint32_t x)
{
	return x == nx ? (double)(t1 - t0) : x * ((double)(t1 - t0) / nx);
}

/* The exact pass over the outermost MPI calls overlapping [t0, t1). */
struct exact {
	const struct tc_trace *t;
	const uint32_t *ranks;    /* the ranks counted (NULL: all) and how many */
	uint32_t nranks;
	uint64_t t0, t1;
	uint32_t nx;
	double w;                 /* column width in ticks */
	uint32_t nreg, *cid, *ids;
	double *tk;               /* nx × nreg rank-ticks, NULL: no activity */
	uint32_t *fine;           /* nx × TC_CALL_BUCKETS calls starting, NULL: no density */
	struct dur_axis ax;
};

/* Add the overlap of [enter, leave) with each column, in ticks. */
static void exact_time(struct exact *e, const struct tc_call *c)
{
	if (c->leave <= e->t0 || c->enter >= e->t1) return;
	double a = (double)(TC_MAX(c->enter, e->t0) - e->t0), b = (double)(TC_MIN(c->leave, e->t1) - e->t0);
	uint32_t x0 = (uint32_t)(a / e->w), x1 = (uint32_t)(b / e->w);
	if (x0 >= e->nx) x0 = e->nx - 1;
	if (x1 >= e->nx) x1 = e->nx - 1;
	double *col = e->tk + e->cid[c->region];
	for (uint32_t x = x0; x <= x1; x++) {
		double lo = edge_off(e->t0, e->t1, e->nx, x), hi = edge_off(e->t0, e->t1, e->nx, x + 1);
		double s = TC_MAX(lo, a), f = TC_MIN(hi, b);
		if (f > s) col[(size_t)x * e->nreg] += f - s;
	}
}

static void exact_pass(struct exact *e)
{
	const struct tc_trace *t = e->t;
	for (uint32_t i = 0; i < e->nranks; i++) {
		uint32_t r = e->ranks ? e->ranks[i] : i;
		const struct tc_rank *R = &t->ranks[r];
		if (e->tk) {
			uint32_t span = outer_mpi_spanning(t, r, e->t0);
			if (span != TC_NONE) exact_time(e, &R->calls[span]);
		}
		uint32_t lo, hi;
		calls_starting_in(R, e->t0, e->t1, &lo, &hi);
		for (uint32_t c = lo; c < hi; c++) {
			const struct tc_call *call = &R->calls[c];
			if (!tc_call_outermost_mpi(t, R, call)) continue;
			if (e->tk) exact_time(e, call);
			if (e->fine) {
				uint32_t x = (uint32_t)((double)(call->enter - e->t0) / e->w);
				if (x >= e->nx) x = e->nx - 1;
				e->fine[(size_t)x * TC_CALL_BUCKETS + dur_bucket(&e->ax, call->leave - call->enter)]++;
			}
		}
	}
}

/* The exact pass and the steps after it: activity when share is given (nx ≥ 1, max_slots ≥ 2), density when
 * counts is (ny ≥ 1, ax the duration axis).  Over the ranks listed (ranks NULL: all nranks of t). */
static struct tc_call_bins exact_bins(const struct tc_trace *t, const uint32_t *ranks, uint32_t nranks, uint64_t t0,
				      uint64_t t1, uint32_t nx, uint32_t ny, const struct dur_axis *ax, uint32_t max_slots,
				      uint32_t *slots, double *share, uint32_t *counts)
{
	struct tc_call_bins res = { .exact = true };
	uint32_t nr = t->nregions ? t->nregions : 1;
	struct exact e = { .t = t, .ranks = ranks, .nranks = nranks, .t0 = t0, .t1 = t1, .nx = nx,
			   .w = t1 > t0 ? (double)(t1 - t0) / nx : 0 };
	e.cid = xmalloc(nr * sizeof *e.cid);
	e.ids = xmalloc(nr * sizeof *e.ids);
	e.nreg = mpi_regions(t, e.cid, e.ids);
	if (share) e.tk = xcalloc((size_t)nx * (e.nreg ? e.nreg : 1), sizeof *e.tk);
	if (counts) {
		e.fine = xcalloc((size_t)nx * TC_CALL_BUCKETS, sizeof *e.fine);
		e.ax = *ax;
	}
	if (t1 > t0) exact_pass(&e);
	if (share) res.nslots = fold_slots(e.tk, e.nreg, e.ids, nx, e.w, nranks, max_slots, slots, share);
	if (counts) res.cmax = bucket_rows(e.fine, nx, ny, counts);
	free(e.cid);
	free(e.ids);
	free(e.tk);
	free(e.fine);
	return res;
}

uint32_t tc_activity(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t max_slots,
		     uint32_t *slots, double *share)
{
	if (!nx || max_slots < 2) return 0;
	return exact_bins(t, NULL, t->nranks, t0, t1, nx, 0, NULL, max_slots, slots, share, NULL).nslots;
}

uint32_t tc_call_density(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t ny,
			 double dmin, double dmax, uint32_t *counts)
{
	memset(counts, 0, (size_t)nx * ny * sizeof *counts);
	if (!nx || !ny || t1 <= t0 || dmin <= 0 || dmax <= dmin) return 0;
	struct dur_axis ax = dur_axis(dmin, dmax, t->res);
	return exact_bins(t, NULL, t->nranks, t0, t1, nx, ny, &ax, 0, NULL, NULL, counts).cmax;
}

/* Each outermost MPI call of the summary's ranks (all when s->ranks is NULL). */
static void each_outer_mpi_call(const struct tc_trace *t, const struct tc_call_summary *s,
				void (*fn)(void *ctx, const struct tc_call *c), void *ctx)
{
	for (uint32_t i = 0; i < s->nranks; i++) {
		const struct tc_rank *R = &t->ranks[s->ranks ? s->ranks[i] : i];
		for (uint32_t c = 0; c < R->ncalls; c++)
			if (tc_call_outermost_mpi(t, R, &R->calls[c])) fn(ctx, &R->calls[c]);
	}
}

struct sum_ctx {
	struct tc_call_summary *s;
	uint64_t lo, hi;          /* first pass: shortest non-zero and longest duration in ticks */
	const uint32_t *cid;
	struct dur_axis ax;
};

static void sum_range(void *ctx, const struct tc_call *c)
{
	struct sum_ctx *x = ctx;
	uint64_t d = c->leave - c->enter;
	if (d && d < x->lo) x->lo = d;
	if (d > x->hi) x->hi = d;
	x->s->ncalls++;
}

/* Count the call in the bin of its start, and add its time to the bins it overlaps
 * (at index k + 1: the prefix sums are made afterwards). */
static void sum_add(void *ctx, const struct tc_call *c)
{
	struct sum_ctx *x = ctx;
	struct tc_call_summary *s = x->s;
	uint64_t end = (uint64_t)s->nbins * s->width;
	uint64_t a = c->enter > s->tmin ? c->enter - s->tmin : 0, b = c->leave > s->tmin ? c->leave - s->tmin : 0;
	if (b > end) b = end;
	uint64_t k = a / s->width;
	uint64_t *cnt = s->count + (size_t)(TC_MIN(k, s->nbins - 1) + 1) * TC_CALL_BUCKETS;
	cnt[dur_bucket(&x->ax, c->leave - c->enter)]++;
	uint64_t *tm = s->time + x->cid[c->region];
	for (; k * s->width < b; k++) {
		uint64_t lo = TC_MAX(a, k * s->width), hi = TC_MIN(b, (k + 1) * s->width);
		tm[(size_t)(k + 1) * s->nregions] += hi - lo;
	}
}

static void prefix_sums(uint64_t *p, uint32_t nrows, uint32_t stride)
{
	for (size_t k = 1; k < nrows; k++)
		for (uint32_t j = 0; j < stride; j++) p[k * stride + j] += p[(k - 1) * stride + j];
}

struct tc_call_summary *tc_call_summary_new(const struct tc_trace *t, uint32_t nbins)
{
	return tc_call_summary_new_ranks(t, nbins, NULL, t->nranks);
}

struct tc_call_summary *tc_call_summary_new_ranks(const struct tc_trace *t, uint32_t nbins, const uint32_t *ranks,
						  uint32_t nranks)
{
	struct tc_call_summary *s = xcalloc(1, sizeof *s);
	uint32_t nr = t->nregions ? t->nregions : 1;
	uint32_t *cid = xmalloc(nr * sizeof *cid);
	s->region = xmalloc(nr * sizeof *s->region);
	s->nregions = mpi_regions(t, cid, s->region);
	s->nranks = ranks ? nranks : t->nranks;
	if (ranks) {
		s->ranks = xmalloc(((size_t)nranks + 1) * sizeof *s->ranks);
		memcpy(s->ranks, ranks, (size_t)nranks * sizeof *s->ranks);
	}
	s->res = t->res;
	s->tmin = t->tmin;
	s->exact_calls = TC_CALL_EXACT;
	s->min_bins = 2;
	struct sum_ctx x = { .s = s, .lo = UINT64_MAX, .cid = cid };
	each_outer_mpi_call(t, s, sum_range, &x);
	s->dmin = x.lo != UINT64_MAX ? tc_dur(t, x.lo) : 1.0 / (double)t->res;
	s->dmax = tc_dur(t, x.hi);
	if (s->dmax < s->dmin * 10) s->dmax = s->dmin * 10;
	uint64_t span = t->tmax > t->tmin ? t->tmax - t->tmin : 1;
	if (!nbins) nbins = TC_CALL_BINS;
	if (nbins > span) nbins = (uint32_t)span;
	s->width = span / nbins + (span % nbins != 0);
	s->nbins = (uint32_t)(span / s->width + 1);   /* tmax included */
	s->time = xcalloc((size_t)(s->nbins + 1) * (s->nregions ? s->nregions : 1), sizeof *s->time);
	s->count = xcalloc((size_t)(s->nbins + 1) * TC_CALL_BUCKETS, sizeof *s->count);
	x.ax = dur_axis(s->dmin, s->dmax, t->res);
	each_outer_mpi_call(t, s, sum_add, &x);
	prefix_sums(s->time, s->nbins + 1, s->nregions);
	prefix_sums(s->count, s->nbins + 1, TC_CALL_BUCKETS);
	free(cid);
	return s;
}

void tc_call_summary_free(struct tc_call_summary *s)
{
	if (!s) return;
	free(s->ranks);
	free(s->region);
	free(s->time);
	free(s->count);
	free(s);
}

/* A place in the base grid: bin k and the fraction f of it before the place. */
struct gpos {
	uint32_t k;
	double f;
};

/* Tick t0 + off in base bins from tmin. */
static double grid_u(const struct tc_call_summary *s, uint64_t t0, double off)
{
	return ((t0 >= s->tmin ? (double)(t0 - s->tmin) : -(double)(s->tmin - t0)) + off) / (double)s->width;
}

/* The place of tick t0 + off (clamped to the grid). */
static struct gpos grid_pos(const struct tc_call_summary *s, uint64_t t0, double off)
{
	double u = grid_u(s, t0, off);
	if (!(u > 0)) u = 0;
	if (u >= s->nbins) return (struct gpos){ s->nbins - 1, 1 };
	uint32_t k = (uint32_t)u;
	return (struct gpos){ k, u - k };
}

/* A prefix sum (column j of p, stride columns per bin) interpolated at g. */
static double cum_at(const uint64_t *p, uint32_t stride, uint32_t j, struct gpos g)
{
	const uint64_t *a = p + (size_t)g.k * stride + j;
	return (double)a[0] + (double)(a[stride] - a[0]) * g.f;
}

uint32_t tc_call_summary_activity(const struct tc_call_summary *s, uint64_t t0, uint64_t t1, uint32_t nx,
				  uint32_t max_slots, uint32_t *slots, double *share)
{
	if (!nx || max_slots < 2) return 0;
	uint32_t nreg = s->nregions;
	double *tk = xcalloc((size_t)nx * (nreg ? nreg : 1), sizeof *tk);
	struct gpos e0 = grid_pos(s, t0, 0);
	for (uint32_t x = 0; x < nx && t1 > t0; x++) {
		struct gpos e1 = grid_pos(s, t0, edge_off(t0, t1, nx, x + 1));
		for (uint32_t r = 0; r < nreg; r++)
			tk[(size_t)x * nreg + r] = cum_at(s->time, nreg, r, e1) - cum_at(s->time, nreg, r, e0);
		e0 = e1;
	}
	double w = t1 > t0 ? (double)(t1 - t0) / nx : 0;
	uint32_t ns = fold_slots(tk, nreg, s->region, nx, w, s->nranks, max_slots, slots, share);
	free(tk);
	return ns;
}

/* The first base bin whose middle is at or after tick t0 + off (clamped to [0, nbins]). */
static uint32_t first_bin(const struct tc_call_summary *s, uint64_t t0, double off)
{
	double u = ceil(grid_u(s, t0, off) - 0.5);
	return u <= 0 ? 0 : u >= s->nbins ? s->nbins : (uint32_t)u;
}

uint32_t tc_call_summary_density(const struct tc_call_summary *s, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t ny,
				 uint32_t *counts)
{
	enum { NB = TC_CALL_BUCKETS };
	memset(counts, 0, (size_t)nx * ny * sizeof *counts);
	if (!nx || !ny || t1 <= t0) return 0;
	uint32_t *fine = xmalloc((size_t)nx * NB * sizeof *fine);
	uint32_t k0 = first_bin(s, t0, 0);
	for (uint32_t x = 0; x < nx; x++) {
		uint32_t k1 = first_bin(s, t0, edge_off(t0, t1, nx, x + 1));
		const uint64_t *a = s->count + (size_t)k0 * NB, *b = s->count + (size_t)k1 * NB;
		for (uint32_t j = 0; j < NB; j++) fine[(size_t)x * NB + j] = (uint32_t)(b[j] - a[j]);
		k0 = k1;
	}
	uint32_t mx = bucket_rows(fine, nx, ny, counts);
	free(fine);
	return mx;
}

uint64_t tc_call_summary_calls(const struct tc_call_summary *s, uint64_t t0, uint64_t t1)
{
	if (t1 <= t0) return 0;
	const uint64_t *a = s->count + (size_t)first_bin(s, t0, 0) * TC_CALL_BUCKETS;
	const uint64_t *b = s->count + (size_t)first_bin(s, t0, (double)(t1 - t0)) * TC_CALL_BUCKETS;
	uint64_t n = 0;
	for (uint32_t j = 0; j < TC_CALL_BUCKETS; j++) n += b[j] - a[j];
	return n;
}

struct tc_call_bins tc_call_bins(const struct tc_trace *t, const struct tc_call_summary *s, uint64_t t0, uint64_t t1,
				 uint32_t nx, uint32_t ny, uint32_t max_slots, uint32_t *slots, double *share,
				 uint32_t *counts)
{
	struct tc_call_bins res = { 0 };
	if (!nx || !ny || max_slots < 2) return res;
	if (t1 > t0 && (double)(t1 - t0) >= s->min_bins * nx * (double)s->width &&
	    tc_call_summary_calls(s, t0, t1) > s->exact_calls) {
		res.nslots = tc_call_summary_activity(s, t0, t1, nx, max_slots, slots, share);
		res.cmax = tc_call_summary_density(s, t0, t1, nx, ny, counts);
		return res;
	}
	struct dur_axis ax = dur_axis(s->dmin, s->dmax, s->res);
	return exact_bins(t, s->ranks, s->nranks, t0, t1, nx, ny, &ax, max_slots, slots, share, counts);
}

double tc_opacity(uint32_t d, uint32_t dmax, double omin, bool logscale)
{
	if (!d || !dmax) return 0;
	if (dmax == 1) return 1;
	double f = logscale ? log((double)d) / log((double)dmax) : (double)d / dmax;
	return omin + (1 - omin) * f;
}
