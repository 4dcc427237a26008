/* analysis_profile.h — the flat profile (TAU's profile view), message-size
 * histogram, activity over time (share of ranks in each MPI function: the
 * MPI call view's timeline) and the duration-vs-time density of MPI calls
 * with log opacity scaling.  Pure functions of the model. */
#ifndef TC_ANALYSIS_PROFILE_H
#define TC_ANALYSIS_PROFILE_H

#include "model.h"

struct tc_prof_region {
	uint32_t region;
	uint64_t calls;
	double incl, excl;             /* seconds summed over ranks */
	double excl_min, excl_max;     /* per rank */
	uint32_t rank_max;             /* rank with the largest exclusive time */
	uint32_t nranks;               /* ranks that called it */
	double imbalance;              /* (max − mean) / max over ranks that called it, 0..1 */
};

#define TC_PROF_HIST 48
struct tc_profile {
	uint32_t n;
	struct tc_prof_region *regions; /* sorted by exclusive time, descending */
	double total;                   /* seconds of all ranks' timelines summed */
	double mpi;                     /* seconds in (outermost) MPI calls */
	uint64_t hist_count[TC_PROF_HIST]; /* messages by size: bucket k = [2^(k-1), 2^k) bytes, 0 = empty */
	uint64_t hist_bytes[TC_PROF_HIST];
};

struct tc_profile *tc_profile_compute(const struct tc_trace *t);
void tc_profile_free(struct tc_profile *p);

/* Activity over [t0, t1) in nbins: for bin b and MPI region slot s,
 * share[b * nslots + s] = fraction of rank-time spent in that region
 * (outermost MPI calls).  slots[] lists the region of each slot: the nslots-1
 * MPI regions with most time, and the last slot = every other MPI region.
 * Returns nslots (≤ max_slots); share must hold nbins × max_slots. */
uint32_t tc_activity(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nbins, uint32_t max_slots,
		     uint32_t *slots, double *share);

/* Duration-vs-time density of outermost MPI calls: counts[y * nx + x] for
 * calls starting in time column x of [t0, t1) with log10(duration) in row y
 * of [log10(dmin), log10(dmax)] (row 0 = longest).  Returns the max count. */
uint32_t tc_call_density(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t ny,
			 double dmin, double dmax, uint32_t *counts);
/* The paper's opacity map: o_min + (1 − o_min)·log(D)/log(Dmax) (log), or
 * o_min + (1 − o_min)·D/Dmax (linear); 0 for D = 0. */
double tc_opacity(uint32_t d, uint32_t dmax, double omin, bool logscale);

#endif
