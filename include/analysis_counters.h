/* analysis_counters.h — hardware and software counters (METRIC samples,
 * docs/model.md "Metrics") per rank and per function, as Cube shows them.
 * Pure functions of the model. */
#ifndef TC_ANALYSIS_COUNTERS_H
#define TC_ANALYSIS_COUNTERS_H

#include "model.h"

/* Per (metric, region, rank), for accumulated metrics sampled on a location
 * with calls: a call's inclusive value is the metric's value at its Leave
 * minus its value at its Enter — the value of a sample is taken at the first
 * Enter/Leave record after it (Score-P writes a synchronous metric just before
 * each Enter and Leave, same timestamp); exclusive = inclusive minus the
 * direct children's inclusive values; inclusive is summed over the calls with
 * no caller of the same region (recursion counted once), exclusive over all.
 * Calls before the metric's first sample on their location are left out.
 * A rank sums its locations.  Integer metrics are summed exactly (int64). */
struct tc_counter_cell {
	uint32_t metric, region, rank;
	uint64_t calls;
	int64_t iexcl, iincl;   /* integer metrics */
	double dexcl, dincl;    /* every metric (doubles) */
};
/* Per (metric, rank): its samples on the rank's locations. */
struct tc_counter_rank {
	uint32_t metric, rank;
	uint64_t samples;
	double min, max;
	double increase;        /* sum over the rank's locations of last − first sample */
};
struct tc_counters {
	size_t ncells;
	struct tc_counter_cell *cells;  /* by metric, then rank, then exclusive descending, then region */
	size_t nranks;
	struct tc_counter_rank *ranks;  /* by metric, then rank */
};
struct tc_counters *tc_counters_compute(const struct tc_trace *t);
void tc_counters_free(struct tc_counters *c);
static inline bool tc_metric_is_int(const struct tc_metric_def *m)
{
	return m->vtype != TC_MV_DOUBLE;
}

#endif
