/* counters.c — METRIC samples per rank and per function (analysis_counters.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_counters.h"

/* The Enter and Leave record indices of each call on its location (the
 * records in order: a call's Enter, its subtree, its Leave; calls still open
 * at the end leave after the last record). */
static void event_indices(const struct tc_loc *L, uint32_t *enter_ix, uint32_t *leave_ix)
{
	uint32_t *stack = xmalloc((L->ncalls ? L->ncalls : 1) * sizeof *stack), top = 0, ev = 0;
	for (uint32_t i = 0; i < L->ncalls; i++) {
		while (top && stack[top - 1] != L->calls[i].parent) leave_ix[stack[--top]] = ev++;
		enter_ix[i] = ev++;
		stack[top++] = i;
	}
	while (top) leave_ix[stack[--top]] = ev++;
	free(stack);
}

/* One metric's samples on one location, in record order. */
struct series {
	size_t n;
	uint32_t *seq;
	const struct tc_sample **s;
};

/* The sample in force at record e: the last one with seq <= e, NULL if none. */
static const struct tc_sample *value_at(const struct series *S, uint32_t e)
{
	size_t lo = 0, hi = S->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (S->seq[mid] <= e) lo = mid + 1;
		else hi = mid;
	}
	return lo ? S->s[lo - 1] : NULL;
}

struct cell_acc {
	int64_t *iexcl, *iincl;
	double *dexcl, *dincl;
	uint64_t *calls;
};

/* A call's inclusive value of the metric, false when not known at both ends. */
static bool call_incl(const struct series *S, uint32_t e0, uint32_t e1, int64_t *iv, double *dv)
{
	const struct tc_sample *a = value_at(S, e0), *b = value_at(S, e1);
	if (!a || !b) return false;
	*dv = tc_sample_value(b) - tc_sample_value(a);
	*iv = b->vtype == TC_MV_DOUBLE ? (int64_t)*dv : (int64_t)(b->v.u - a->v.u);
	return true;
}

/* Add one location's calls for one metric into the per-region sums. */
static void location_metric(const struct tc_trace *t, const struct tc_loc *L, const struct series *S,
			    const uint32_t *enter_ix, const uint32_t *leave_ix, struct cell_acc *A)
{
	for (uint32_t c = 0; c < L->ncalls; c++) {
		const struct tc_call *call = &L->calls[c];
		int64_t iv;
		double dv;
		if (call->region >= t->nregions || !call_incl(S, enter_ix[c], leave_ix[c], &iv, &dv)) continue;
		uint32_t r = call->region;
		A->calls[r]++;
		A->iexcl[r] += iv;
		A->dexcl[r] += dv;
		uint32_t p = call->parent;
		if (p != TC_NONE && L->calls[p].region < t->nregions) {
			int64_t piv;
			double pdv;
			if (call_incl(S, enter_ix[p], leave_ix[p], &piv, &pdv)) {
				A->iexcl[L->calls[p].region] -= iv;
				A->dexcl[L->calls[p].region] -= dv;
			}
		}
		bool nested = false;
		for (uint32_t a = p; a != TC_NONE && !nested; a = L->calls[a].parent) nested = L->calls[a].region == r;
		if (!nested) {
			A->iincl[r] += iv;
			A->dincl[r] += dv;
		}
	}
}

typedef VEC(struct tc_counter_cell) cellvec;

static int cell_cmp(const void *a, const void *b)
{
	const struct tc_counter_cell *x = a, *y = b;
	if (x->metric != y->metric) return x->metric < y->metric ? -1 : 1;
	if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
	if (x->dexcl != y->dexcl) return x->dexcl > y->dexcl ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

/* Per-region sums of metric m over every location of rank r, appended to out. */
static void rank_cells(const struct tc_trace *t, uint32_t r, uint32_t m, struct cell_acc *A, cellvec *out)
{
	for (uint32_t l = 0; l < t->nlocs; l++) {
		const struct tc_loc *L = &t->locs[l];
		if (L->rank != r || !L->ncalls || !L->nsamples) continue;
		struct series S = { 0 };
		S.seq = xmalloc(L->nsamples * sizeof *S.seq);
		S.s = xmalloc(L->nsamples * sizeof *S.s);
		for (uint32_t i = 0; i < L->nsamples; i++)
			if (L->samples[i].metric == m) { S.seq[S.n] = L->samples[i].seq; S.s[S.n++] = &L->samples[i]; }
		if (S.n) {
			uint32_t *ix = xmalloc(2 * (size_t)L->ncalls * sizeof *ix);
			event_indices(L, ix, ix + L->ncalls);
			location_metric(t, L, &S, ix, ix + L->ncalls, A);
			free(ix);
		}
		free(S.seq);
		free(S.s);
	}
	for (uint32_t g = 0; g < t->nregions; g++) {
		if (!A->calls[g]) continue;
		struct tc_counter_cell c = { m, g, r, A->calls[g], A->iexcl[g], A->iincl[g], A->dexcl[g], A->dincl[g] };
		VEC_PUSH(*out, c);
		A->calls[g] = 0;
		A->iexcl[g] = A->iincl[g] = 0;
		A->dexcl[g] = A->dincl[g] = 0;
	}
}

/* Per (metric, rank): samples, min, max, increase. */
static void rank_summaries(const struct tc_trace *t, struct tc_counters *C)
{
	size_t n = (size_t)t->nmetrics * t->nranks;
	struct tc_counter_rank *R = xcalloc(n ? n : 1, sizeof *R);
	for (uint32_t l = 0; l < t->nlocs; l++) {
		const struct tc_loc *L = &t->locs[l];
		if (L->rank >= t->nranks) continue;
		for (uint32_t m = 0; m < t->nmetrics; m++) {
			const struct tc_sample *first = NULL, *last = NULL;
			struct tc_counter_rank *x = &R[(size_t)m * t->nranks + L->rank];
			for (uint32_t i = 0; i < L->nsamples; i++) {
				const struct tc_sample *s = &L->samples[i];
				if (s->metric != m) continue;
				double v = tc_sample_value(s);
				if (!x->samples || v < x->min) x->min = v;
				if (!x->samples || v > x->max) x->max = v;
				x->samples++;
				if (!first) first = s;
				last = s;
			}
			if (first) x->increase += tc_sample_value(last) - tc_sample_value(first);
		}
	}
	size_t k = 0;
	for (uint32_t m = 0; m < t->nmetrics; m++)
		for (uint32_t r = 0; r < t->nranks; r++) {
			struct tc_counter_rank x = R[(size_t)m * t->nranks + r];
			if (!x.samples) continue;
			x.metric = m;
			x.rank = r;
			R[k++] = x;
		}
	C->ranks = R;
	C->nranks = k;
}

struct tc_counters *tc_counters_compute(const struct tc_trace *t)
{
	struct tc_counters *C = xcalloc(1, sizeof *C);
	uint32_t nr = t->nregions ? t->nregions : 1;
	struct cell_acc A = { xcalloc(nr, sizeof(int64_t)), xcalloc(nr, sizeof(int64_t)), xcalloc(nr, sizeof(double)),
			      xcalloc(nr, sizeof(double)), xcalloc(nr, sizeof(uint64_t)) };
	cellvec cells = { 0 };
	for (uint32_t m = 0; m < t->nmetrics; m++) {
		if (t->metrics[m].mode != TC_MM_ACCUMULATED || !t->metrics[m].nsamples) continue;
		for (uint32_t r = 0; r < t->nranks; r++) rank_cells(t, r, m, &A, &cells);
	}
	free(A.iexcl); free(A.iincl); free(A.dexcl); free(A.dincl); free(A.calls);
	if (cells.n) qsort(cells.a, cells.n, sizeof *cells.a, cell_cmp);
	C->cells = cells.a;
	C->ncells = cells.n;
	rank_summaries(t, C);
	return C;
}

void tc_counters_free(struct tc_counters *c)
{
	if (!c) return;
	free(c->cells);
	free(c->ranks);
	free(c);
}
