/* analysis_span.h — the application span: from the end of MPI_Init to the
 * start of MPI_Finalize.  Every window, share, percentage and confidence of
 * the analyses and views is computed over it (docs/span.md): on real runs
 * MPI_Init is often most of the trace, and time fractions over the whole
 * trace dilute everything.  Pure function of the model. */
#ifndef TC_ANALYSIS_SPAN_H
#define TC_ANALYSIS_SPAN_H

#include "model.h"

enum tc_span_source {
	TC_SPAN_INIT_FINALIZE, /* Init leave .. Finalize enter (either may fall back, see below) */
	TC_SPAN_COMM,          /* neither Init nor Finalize: first .. last MPI communication */
	TC_SPAN_ALL,           /* the whole trace (--opt span=all, or nothing to go by) */
};

struct tc_span {
	uint64_t t0, t1;        /* ticks, t0 <= t1: the application span */
	uint64_t *rank_t0;      /* nranks: this rank's own Init leave (else t0) */
	uint64_t *rank_t1;      /* nranks: this rank's own Finalize enter (else t1) */
	uint8_t source;         /* enum tc_span_source */
	bool have_init, have_finalize;
	double init_s;          /* s: the longest MPI_Init over ranks (0 without Init) */
	double finalize_s;      /* s: the longest MPI_Finalize over ranks (0 without) */
};

/* all = true: the whole trace (tmin .. tmax). */
struct tc_span *tc_span_compute(const struct tc_trace *t, bool all);
/* The same over a distributed model (part.h, docs/scale.md): each process
 * marks its own ranks, a few reductions join them; on every process. */
struct tc_part;
struct tc_dist;
struct tc_span *tc_span_dist(const struct tc_part *p, const struct tc_dist *d, bool all);
void tc_span_free(struct tc_span *s);
/* Seconds of the span (t1 - t0). */
static inline double tc_span_len(const struct tc_trace *t, const struct tc_span *s)
{
	return tc_dur(t, s->t1 - s->t0);
}
/* Whether the region is MPI_Init / MPI_Init_thread, MPI_Finalize. */
bool tc_region_is_init(const struct tc_trace *t, uint32_t region);
bool tc_region_is_finalize(const struct tc_trace *t, uint32_t region);

#endif
