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
#include "part.h"

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

/* What ranks give the span, combined over ranks (and over processes, by
 * tc_span_dist): words combined by MIN, words combined by MAX.  The longest
 * Init and Finalize are doubles >= 0, whose bits order as the numbers do. */
enum { SP_INIT_LO, SP_COMM_LO, SP_NMIN };
enum { SP_FIN_HI, SP_COMM_HI, SP_HAVE_INIT, SP_HAVE_FIN, SP_COMM, SP_INIT_S, SP_FIN_S, SP_NMAX };
struct span_acc { uint64_t min[SP_NMIN], max[SP_NMAX]; };

static uint64_t dbits(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	return u;
}

static double bits_d(uint64_t u)
{
	double v;
	memcpy(&v, &u, sizeof v);
	return v;
}

/* First enter and last leave of the calls that communicate (ops), over the ranks [r0, r1). */
static void comm_bounds(const struct tc_trace *t, uint32_t r0, uint32_t r1, struct span_acc *A)
{
	for (uint32_t r = r0; r < r1; r++) {
		const struct tc_rank *R = &t->ranks[r];
		if (!R->nops) continue;
		uint64_t a = R->calls[R->ops[0].call].enter, z = 0;
		for (uint32_t o = 0; o < R->nops; o++) z = TC_MAX(z, R->calls[R->ops[o].call].leave);
		A->min[SP_COMM_LO] = TC_MIN(A->min[SP_COMM_LO], a);
		A->max[SP_COMM_HI] = TC_MAX(A->max[SP_COMM_HI], z);
		A->max[SP_COMM] = 1;
	}
}

/* Per rank of [r0, r1): its Init leave and Finalize enter (the outermost MPI
 * calls of those regions, at any depth (not inside another MPI call, a
 * wrapper's): instrumented user code puts them
 * inside main or an init routine; UINT64_MAX and 0 without), into A the
 * earliest Init leave, the latest Finalize enter and the longest of each.  A
 * trace whose regions include neither has no calls to look for (any false):
 * the scan of every call (0.02 s at 5 M calls, 2 % of `info` on such a
 * trace) is skipped. */
static void rank_marks(const struct tc_trace *t, uint32_t r0, uint32_t r1, struct tc_span *s, const bool *is_init,
		       const bool *is_fin, bool any, struct span_acc *A)
{
	for (uint32_t r = r0; r < r1; r++) {
		const struct tc_rank *R = &t->ranks[r];
		s->rank_t0[r] = UINT64_MAX;
		s->rank_t1[r] = 0;
		bool ri = false;
		for (uint32_t c = 0; any && c < R->ncalls; c++) {
			const struct tc_call *k = &R->calls[c];
			if (k->region >= t->nregions || !(is_init[k->region] || is_fin[k->region]) || tc_call_in_mpi(t, R, k))
				continue;
			if (is_init[k->region] && !ri) {
				uint64_t d = dbits(tc_dur(t, k->leave - k->enter));
				ri = true;
				s->rank_t0[r] = k->leave;
				A->max[SP_INIT_S] = TC_MAX(A->max[SP_INIT_S], d);
				A->min[SP_INIT_LO] = TC_MIN(A->min[SP_INIT_LO], k->leave);
				A->max[SP_HAVE_INIT] = 1;
			} else if (is_fin[k->region]) {
				uint64_t d = dbits(tc_dur(t, k->leave - k->enter));
				s->rank_t1[r] = k->enter;
				A->max[SP_FIN_S] = TC_MAX(A->max[SP_FIN_S], d);
				A->max[SP_FIN_HI] = TC_MAX(A->max[SP_FIN_HI], k->enter);
				A->max[SP_HAVE_FIN] = 1;
			}
		}
	}
}

/* The marks of the ranks [r0, r1) (the others' zero: UINT64_MAX is "no Init"
 * only where it is set), then, with d, combined over the processes. */
static struct tc_span *span_marks(const struct tc_trace *t, uint32_t r0, uint32_t r1, const struct tc_dist *d,
				  struct span_acc *A)
{
	struct tc_span *s = xcalloc(1, sizeof *s);
	uint32_t n = t->nranks ? t->nranks : 1;
	s->rank_t0 = xcalloc(n, sizeof *s->rank_t0);
	s->rank_t1 = xcalloc(n, sizeof *s->rank_t1);
	bool *is_init = xcalloc(t->nregions + 1, sizeof *is_init);
	bool *is_fin = xcalloc(t->nregions + 1, sizeof *is_fin);
	bool any = false;
	for (uint32_t g = 0; g < t->nregions; g++) {
		is_init[g] = tc_region_is_init(t, g);
		is_fin[g] = tc_region_is_finalize(t, g);
		any |= is_init[g] || is_fin[g];
	}
	*A = (struct span_acc){ .min = { UINT64_MAX, UINT64_MAX } };
	rank_marks(t, r0, r1, s, is_init, is_fin, any, A);
	/* the communication's bounds stand in for a missing Init or Finalize only
	 * (one process knows that alone when it has every rank) */
	if (d || !(A->max[SP_HAVE_INIT] && A->max[SP_HAVE_FIN])) comm_bounds(t, r0, r1, A);
	free(is_init);
	free(is_fin);
	if (d) {
		d->reduce(d->ctx, A->min, SP_NMIN, TC_DIST_MIN);
		d->reduce(d->ctx, A->max, SP_NMAX, TC_DIST_MAX);
		d->reduce(d->ctx, s->rank_t0, t->nranks, TC_DIST_MAX);
		d->reduce(d->ctx, s->rank_t1, t->nranks, TC_DIST_MAX);
	}
	return s;
}

/* The span from the combined marks. */
static struct tc_span *span_of(const struct tc_trace *t, const struct tc_dist *d, uint32_t r0, uint32_t r1, bool all)
{
	struct span_acc A;
	struct tc_span *s = span_marks(t, r0, r1, d, &A);
	uint64_t lo = t->tmin, hi = t->tmax > t->tmin ? t->tmax : t->tmin;
	s->t0 = lo;
	s->t1 = hi;
	s->source = TC_SPAN_ALL;
	s->have_init = A.max[SP_HAVE_INIT], s->have_finalize = A.max[SP_HAVE_FIN];
	s->init_s = bits_d(A.max[SP_INIT_S]), s->finalize_s = bits_d(A.max[SP_FIN_S]);
	if (!all) {
		bool comm = A.max[SP_COMM];
		uint64_t a = s->have_init ? A.min[SP_INIT_LO] : comm ? A.min[SP_COMM_LO] : lo;
		uint64_t z = s->have_finalize ? A.max[SP_FIN_HI] : comm ? A.max[SP_COMM_HI] : hi;
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

struct tc_span *tc_span_compute(const struct tc_trace *t, bool all)
{
	return span_of(t, NULL, 0, t->nranks, all);
}

struct tc_span *tc_span_dist(const struct tc_part *p, const struct tc_dist *d, bool all)
{
	return span_of(p->t, d, p->lo, p->hi, all);
}

void tc_span_free(struct tc_span *s)
{
	if (!s) return;
	free(s->rank_t0);
	free(s->rank_t1);
	free(s);
}
