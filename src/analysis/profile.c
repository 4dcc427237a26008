/* profile.c — flat profile, message-size histogram, activity over time and
 * the duration-vs-time density of MPI calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_profile.h"

/* outermost MPI call: an MPI region whose parent is not MPI */
static bool outer_mpi(const struct tc_trace *t, const struct tc_rank *R, const struct tc_call *c)
{
	if (!TC_RK_IS_MPI(t->regions[c->region].kind)) return false;
	return c->parent == TC_NONE || !TC_RK_IS_MPI(t->regions[R->calls[c->parent].region].kind);
}

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
		if (R->calls[c].enter < t0 && outer_mpi(t, R, &R->calls[c])) found = c;
	return found;
}

/* Visit the outermost MPI calls of rank r that overlap [t0, t1). */
static void each_outer_mpi(const struct tc_trace *t, uint32_t r, uint64_t t0, uint64_t t1,
			   void (*fn)(void *ctx, const struct tc_call *c), void *ctx)
{
	const struct tc_rank *R = &t->ranks[r];
	uint32_t span = outer_mpi_spanning(t, r, t0), lo, hi;
	if (span != TC_NONE) fn(ctx, &R->calls[span]);
	calls_starting_in(R, t0, t1, &lo, &hi);
	for (uint32_t c = lo; c < hi; c++)
		if (outer_mpi(t, R, &R->calls[c])) fn(ctx, &R->calls[c]);
}

static int by_excl(const void *a, const void *b)
{
	const struct tc_prof_region *x = a, *y = b;
	if (x->excl != y->excl) return x->excl > y->excl ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

struct tc_profile *tc_profile_compute(const struct tc_trace *t)
{
	struct tc_profile *p = xcalloc(1, sizeof *p);
	uint32_t nr = t->nregions;
	struct tc_prof_region *g = xcalloc(nr ? nr : 1, sizeof *g);
	double *excl_rank = xcalloc(nr ? nr : 1, sizeof *excl_rank);  /* this rank's exclusive time per region */
	bool *seen = xcalloc(nr ? nr : 1, sizeof *seen);
	for (uint32_t i = 0; i < nr; i++) {
		g[i].region = i;
		g[i].excl_min = INFINITY;
		g[i].rank_max = TC_NONE;
	}
	VEC(uint32_t) touched = { 0 };
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		if (R->ncalls) p->total += tc_dur(t, R->last_time - R->first_time);
		for (uint32_t c = 0; c < R->ncalls; c++) {
			const struct tc_call *call = &R->calls[c];
			if (call->region >= nr) continue;
			double d = tc_dur(t, call->leave - call->enter);
			struct tc_prof_region *x = &g[call->region];
			x->calls++;
			/* inclusive time counts only the outermost instance of a recursive region */
			bool nested = false;
			for (uint32_t a = call->parent; a != TC_NONE && !nested; a = R->calls[a].parent)
				nested = R->calls[a].region == call->region;
			if (!nested) x->incl += d;
			if (!seen[call->region]) { seen[call->region] = true; VEC_PUSH(touched, call->region); }
			excl_rank[call->region] += d;
			if (call->parent != TC_NONE && R->calls[call->parent].region < nr)
				excl_rank[R->calls[call->parent].region] -= d;
			if (outer_mpi(t, R, call)) p->mpi += d;
		}
		for (size_t k = 0; k < touched.n; k++) {
			uint32_t reg = touched.a[k];
			struct tc_prof_region *x = &g[reg];
			double e = excl_rank[reg];
			x->excl += e;
			x->nranks++;
			if (e < x->excl_min) x->excl_min = e;
			if (x->rank_max == TC_NONE || e > x->excl_max) { x->excl_max = e; x->rank_max = r; }
			excl_rank[reg] = 0;
			seen[reg] = false;
		}
		touched.n = 0;
	}
	VEC_FREE(touched);
	free(excl_rank);
	free(seen);
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
	for (size_t i = 0; i < t->nmsgs; i++) {
		uint64_t b = t->msgs[i].bytes;
		int k = 0;
		while (b) { k++; b >>= 1; }
		if (k >= TC_PROF_HIST) k = TC_PROF_HIST - 1;
		p->hist_count[k]++;
		p->hist_bytes[k] += t->msgs[i].bytes;
	}
	return p;
}

void tc_profile_free(struct tc_profile *p)
{
	if (!p) return;
	free(p->regions);
	free(p);
}

/* Add the overlap of [a, b) with the bins of [t0, t1) to row[bin * stride + slot]. */
static void spread(uint64_t a, uint64_t b, uint64_t t0, uint64_t t1, uint32_t nbins, double *out, uint32_t stride,
		   uint32_t slot)
{
	if (b <= t0 || a >= t1 || t1 <= t0) return;
	if (a < t0) a = t0;
	if (b > t1) b = t1;
	double w = (double)(t1 - t0) / nbins;
	uint32_t b0 = (uint32_t)((double)(a - t0) / w), b1 = (uint32_t)((double)(b - t0) / w);
	if (b0 >= nbins) b0 = nbins - 1;
	if (b1 >= nbins) b1 = nbins - 1;
	for (uint32_t k = b0; k <= b1; k++) {
		double lo = (double)t0 + k * w, hi = lo + w;
		double s = TC_MAX(lo, (double)a), e = TC_MIN(hi, (double)b);
		if (e > s) out[(size_t)k * stride + slot] += (e - s) / w;
	}
}

struct act_ctx {
	uint64_t t0, t1;
	uint32_t nbins, stride;
	double *tot;          /* first pass: time per region in the window */
	const uint32_t *slot_of;
	double *share;
};

static void act_total(void *ctx, const struct tc_call *c)
{
	struct act_ctx *a = ctx;
	a->tot[c->region] += (double)(TC_MIN(c->leave, a->t1) - TC_MAX(c->enter, a->t0));
}

static void act_spread(void *ctx, const struct tc_call *c)
{
	struct act_ctx *a = ctx;
	spread(c->enter, c->leave, a->t0, a->t1, a->nbins, a->share, a->stride, a->slot_of[c->region]);
}

uint32_t tc_activity(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nbins, uint32_t max_slots,
		     uint32_t *slots, double *share)
{
	if (!nbins || max_slots < 2) return 0;
	/* MPI regions by time inside the window: only the calls overlapping it are visited */
	struct act_ctx a = { .t0 = t0, .t1 = t1, .nbins = nbins, .stride = max_slots, .share = share };
	a.tot = xcalloc(t->nregions ? t->nregions : 1, sizeof *a.tot);
	if (t1 > t0)
		for (uint32_t r = 0; r < t->nranks; r++) each_outer_mpi(t, r, t0, t1, act_total, &a);
	uint32_t ns = 0;
	for (;;) {
		uint32_t best = TC_NONE;
		for (uint32_t i = 0; i < t->nregions; i++)
			if (a.tot[i] > 0 && (best == TC_NONE || a.tot[i] > a.tot[best])) best = i;
		if (best == TC_NONE || ns == max_slots - 1) break;
		slots[ns++] = best;
		a.tot[best] = -1;
	}
	uint32_t other = ns;
	slots[ns++] = TC_NONE;
	uint32_t *slot_of = xmalloc((t->nregions ? t->nregions : 1) * sizeof *slot_of);
	for (uint32_t i = 0; i < t->nregions; i++) slot_of[i] = other;
	for (uint32_t k = 0; k < other; k++) slot_of[slots[k]] = k;
	a.slot_of = slot_of;
	memset(share, 0, (size_t)nbins * max_slots * sizeof *share);
	if (t1 > t0)
		for (uint32_t r = 0; r < t->nranks; r++) each_outer_mpi(t, r, t0, t1, act_spread, &a);
	double nr = t->nranks ? (double)t->nranks : 1;
	for (size_t i = 0; i < (size_t)nbins * max_slots; i++) share[i] /= nr;
	free(a.tot);
	free(slot_of);
	return ns;
}

uint32_t tc_call_density(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t ny,
			 double dmin, double dmax, uint32_t *counts)
{
	memset(counts, 0, (size_t)nx * ny * sizeof *counts);
	if (!nx || !ny || t1 <= t0 || dmin <= 0 || dmax <= dmin) return 0;
	double l0 = log10(dmin), l1 = log10(dmax), w = (double)(t1 - t0) / nx;
	uint32_t mx = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		uint32_t lo, hi;
		calls_starting_in(R, t0, t1, &lo, &hi);
		for (uint32_t c = lo; c < hi; c++) {
			const struct tc_call *call = &R->calls[c];
			if (!outer_mpi(t, R, call)) continue;
			double d = tc_dur(t, call->leave - call->enter);
			double ld = log10(d > dmin ? d : dmin);
			if (ld > l1) ld = l1;
			uint32_t y = (uint32_t)((l1 - ld) / (l1 - l0) * (ny - 1) + 0.5);
			uint32_t x = (uint32_t)((double)(call->enter - t0) / w);
			if (x >= nx) x = nx - 1;
			uint32_t v = ++counts[(size_t)y * nx + x];
			if (v > mx) mx = v;
		}
	}
	return mx;
}

double tc_opacity(uint32_t d, uint32_t dmax, double omin, bool logscale)
{
	if (!d || !dmax) return 0;
	if (dmax == 1) return 1;
	double f = logscale ? log((double)d) / log((double)dmax) : (double)d / dmax;
	return omin + (1 - omin) * f;
}
