/* span.c — the application span (analysis_span.h, docs/span.md).
 *
 * t0 = the earliest leave of MPI_Init / MPI_Init_thread over the ranks, t1 =
 * the latest enter of MPI_Finalize.  The earliest Init leave keeps a rank
 * that leaves Init late inside the span (the others wait for it in their
 * first communication, which is application time); the latest Finalize
 * enter keeps the last rank's work.  Without Init, t0 is the first enter of
 * an MPI call that communicates; without Finalize, t1 is the last leave of
 * one; with neither of those, the whole trace. */
#include <stdlib.h>
#include <string.h>

#include "analysis_span.h"

static bool name_is(const struct tc_trace *t, uint32_t region, const char *const *names)
{
	if (region >= t->nregions || !t->regions[region].name) return false;
	for (; *names; names++)
		if (!strcmp(t->regions[region].name, *names)) return true;
	return false;
}

bool tc_region_is_init(const struct tc_trace *t, uint32_t region)
{
	static const char *const n[] = { "MPI_Init", "MPI_Init_thread", NULL };
	return name_is(t, region, n);
}

bool tc_region_is_finalize(const struct tc_trace *t, uint32_t region)
{
	static const char *const n[] = { "MPI_Finalize", NULL };
	return name_is(t, region, n);
}

/* First enter and last leave of the calls that communicate (ops), over ranks. */
static bool comm_bounds(const struct tc_trace *t, uint64_t *lo, uint64_t *hi)
{
	bool any = false;
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		if (!R->nops) continue;
		uint64_t a = R->calls[R->ops[0].call].enter, z = 0;
		for (uint32_t o = 0; o < R->nops; o++) z = TC_MAX(z, R->calls[R->ops[o].call].leave);
		if (!any || a < *lo) *lo = a;
		if (!any || z > *hi) *hi = z;
		any = true;
	}
	return any;
}

/* Per rank: its Init leave and Finalize enter (outermost calls only).  A
 * trace whose regions include neither has no calls to look for: the scan of
 * every call (0.02 s at 5 M calls, 2 % of `info` on such a trace) is
 * skipped. */
static void rank_marks(const struct tc_trace *t, struct tc_span *s, const bool *is_init, const bool *is_fin,
		       bool any, uint64_t *init_lo, uint64_t *fin_hi)
{
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		s->rank_t0[r] = s->rank_t1[r] = 0;
		bool ri = false, rf = false;
		for (uint32_t c = 0; any && c < R->ncalls; c++) {
			const struct tc_call *k = &R->calls[c];
			if (k->depth || k->region >= t->nregions) continue;
			if (is_init[k->region] && !ri) {
				ri = true;
				s->rank_t0[r] = k->leave;
				s->init_s = TC_MAX(s->init_s, tc_dur(t, k->leave - k->enter));
				if (!s->have_init || k->leave < *init_lo) *init_lo = k->leave;
				s->have_init = true;
			} else if (is_fin[k->region]) {
				rf = true;
				s->rank_t1[r] = k->enter;
				s->finalize_s = TC_MAX(s->finalize_s, tc_dur(t, k->leave - k->enter));
				if (!s->have_finalize || k->enter > *fin_hi) *fin_hi = k->enter;
				s->have_finalize = true;
			}
		}
		if (!ri) s->rank_t0[r] = UINT64_MAX; /* filled with t0 below */
		if (!rf) s->rank_t1[r] = 0;
	}
}

struct tc_span *tc_span_compute(const struct tc_trace *t, bool all)
{
	struct tc_span *s = xcalloc(1, sizeof *s);
	uint32_t n = t->nranks ? t->nranks : 1;
	s->rank_t0 = xcalloc(n, sizeof *s->rank_t0);
	s->rank_t1 = xcalloc(n, sizeof *s->rank_t1);
	uint64_t lo = t->tmin, hi = t->tmax > t->tmin ? t->tmax : t->tmin;
	s->t0 = lo;
	s->t1 = hi;
	s->source = TC_SPAN_ALL;
	bool *is_init = xcalloc(t->nregions + 1, sizeof *is_init);
	bool *is_fin = xcalloc(t->nregions + 1, sizeof *is_fin);
	bool any = false;
	for (uint32_t g = 0; g < t->nregions; g++) {
		is_init[g] = tc_region_is_init(t, g);
		is_fin[g] = tc_region_is_finalize(t, g);
		any |= is_init[g] || is_fin[g];
	}
	uint64_t init_lo = 0, fin_hi = 0;
	rank_marks(t, s, is_init, is_fin, any, &init_lo, &fin_hi);
	free(is_init);
	free(is_fin);
	if (!all) {
		uint64_t clo = lo, chi = hi;
		bool comm = comm_bounds(t, &clo, &chi);
		uint64_t a = s->have_init ? init_lo : comm ? clo : lo;
		uint64_t z = s->have_finalize ? fin_hi : comm ? chi : hi;
		if (z > a) {
			s->t0 = a;
			s->t1 = z;
			s->source = s->have_init || s->have_finalize ? TC_SPAN_INIT_FINALIZE
				    : comm ? TC_SPAN_COMM : TC_SPAN_ALL;
		}
	}
	for (uint32_t r = 0; r < t->nranks; r++) {
		if (s->rank_t0[r] == UINT64_MAX || all) s->rank_t0[r] = s->t0;
		if (!s->rank_t1[r] || all) s->rank_t1[r] = s->t1;
		if (s->rank_t1[r] < s->rank_t0[r]) s->rank_t1[r] = s->rank_t0[r];
	}
	return s;
}

void tc_span_free(struct tc_span *s)
{
	if (!s) return;
	free(s->rank_t0);
	free(s->rank_t1);
	free(s);
}
