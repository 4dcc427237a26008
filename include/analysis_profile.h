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

/* --- per location and per rank (issue 15) ------------------------------
 * One cell per (region, location) or (region, rank) with calls, in integer
 * clock ticks: exclusive = the call's duration minus its direct children's
 * (so a region's exclusive times over all regions sum to the location's
 * time inside calls); inclusive = the durations of the calls that have no
 * caller of the same region on their location (a recursive region counts
 * once per outermost instance).  Every location counts its own calls (CPU
 * threads, accelerator streams); a rank's cell sums its locations' cells
 * (Score-P's per-process view), the master thread included. */
struct tc_prof_cell {
	uint32_t region;
	uint32_t who;       /* location index (trace->locs) or rank */
	uint64_t calls;
	uint64_t excl, incl; /* ticks */
};
struct tc_prof_table {
	size_t n;
	struct tc_prof_cell *cells; /* by who, then exclusive time descending, then region */
};
/* Every location with calls. */
struct tc_prof_table *tc_profile_locations(const struct tc_trace *t);
/* Every rank, summed from a per-location table (locations outside a rank are left out). */
struct tc_prof_table *tc_profile_ranks(const struct tc_trace *t, const struct tc_prof_table *per_loc);
void tc_prof_table_free(struct tc_prof_table *pt);
/* The same over each rank r's calls' time inside [rank_t0[r], rank_t1[r]] (calls
 * wholly outside are left out; either array NULL: the whole trace) and over
 * ranks[0..nranks) only (ranks NULL: 0 .. nranks−1).  The profile view uses the
 * application span's per-rank bounds (analysis_span.h) and the visible ranks. */
struct tc_profile *tc_profile_compute_window(const struct tc_trace *t, const uint64_t *rank_t0, const uint64_t *rank_t1,
					     const uint32_t *ranks, uint32_t nranks);
void tc_profile_free(struct tc_profile *p);

/* --- the MPI call view's two halves ----------------------------------
 * Over a window [t0, t1) cut into equal columns:
 *  - activity: for column x and slot s, share[x * max_slots + s] = fraction
 *    of the column's rank-time spent in the slot's region (outermost MPI
 *    calls).  slots[] lists the region of each slot: the nslots − 1 MPI
 *    regions with most time in the window, then TC_NONE = every other MPI
 *    region.  share must hold nx × max_slots.
 *  - density: counts[y * nx + x] = outermost MPI calls starting in column x
 *    whose log10 duration falls in row y of [log10 dmin, log10 dmax] (row 0 =
 *    longest; row y is centred on l1 − y·(l1 − l0)/(ny − 1), so the first and
 *    last rows are half as tall).  Durations are first put in TC_CALL_BUCKETS
 *    equal log buckets; a bucket goes whole to the row of its centre (a call
 *    moves at most half a bucket; a spike of one duration stays in one row;
 *    rows hold ⌊⌋ or ⌈⌉ of 128 / (ny − 1) buckets, so above 65 rows the end
 *    rows may stay empty).
 * Two ways compute them, equal on windows whose column edges fall on the
 * summary's base-bin edges: the exact pass over the calls overlapping the
 * window (tc_activity, tc_call_density), and the per-trace summary below. */
#define TC_CALL_BUCKETS 128   /* log-duration buckets between dmin and dmax */
#define TC_CALL_BINS 8192     /* the summary's base bins over [tmin, tmax] */
#define TC_CALL_EXACT 131072  /* windows with at most this many calls starting take the exact pass */

/* The exact pass.  Returns nslots (≤ max_slots). */
uint32_t tc_activity(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t max_slots,
		     uint32_t *slots, double *share);
/* The exact pass.  Returns the largest count. */
uint32_t tc_call_density(const struct tc_trace *t, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t ny,
			 double dmin, double dmax, uint32_t *counts);

/* The per-trace summary: one pass over the calls (after one to find the
 * duration range), then any window costs O(columns × (regions + buckets)).
 * Time is cut into nbins base bins of equal integer width from tmin to past
 * tmax; bin k = [tmin + k·width, tmin + (k+1)·width).  Prefix sums over the
 * bins:
 *  - time[k * nregions + r]: rank-ticks spent in MPI region r (compact index,
 *    trace region region[r]) by outermost MPI calls before bin k;
 *  - count[k * TC_CALL_BUCKETS + j]: outermost MPI calls that started before
 *    bin k with their duration in bucket j.
 * A column edge inside a base bin shares the bin's rank-time between the two
 * columns pro rata (uniform within the bin: the interpolated prefix sum) and
 * gives its calls whole to the column holding the bin's middle (a burst stays
 * in one column; every call is counted once).  On column edges that fall on
 * bin edges both are exact. */
struct tc_call_summary {
	uint64_t tmin, width;
	uint32_t nbins;
	uint32_t nranks;            /* ranks summed (shares are of them) */
	uint32_t *ranks;            /* which (ascending), NULL: all ranks of the trace */
	uint64_t res;
	uint32_t nregions;          /* MPI regions of the trace */
	uint32_t *region;           /* their trace region indices, ascending */
	uint64_t *time;             /* (nbins + 1) × nregions */
	uint64_t *count;            /* (nbins + 1) × TC_CALL_BUCKETS */
	uint64_t ncalls;            /* outermost MPI calls */
	double dmin, dmax;          /* seconds: shortest non-zero and longest of them; dmax ≥ 10 dmin */
	/* when tc_call_bins takes the summary: windows with more than exact_calls
	 * calls starting and at least min_bins base bins per column */
	uint64_t exact_calls;       /* TC_CALL_EXACT */
	double min_bins;            /* 2 */
};
/* About nbins bins (0: TC_CALL_BINS): width = ⌈(tmax − tmin) / nbins⌉ ticks,
 * then as many as reach past tmax (fewer when the trace has fewer ticks). */
struct tc_call_summary *tc_call_summary_new(const struct tc_trace *t, uint32_t nbins);
/* The same over the nranks ranks listed (a filter's; ranks NULL: all ranks); tc_call_bins
 * then counts only them, in its exact pass too. */
struct tc_call_summary *tc_call_summary_new_ranks(const struct tc_trace *t, uint32_t nbins, const uint32_t *ranks,
						  uint32_t nranks);
void tc_call_summary_free(struct tc_call_summary *s);
uint32_t tc_call_summary_activity(const struct tc_call_summary *s, uint64_t t0, uint64_t t1, uint32_t nx,
				  uint32_t max_slots, uint32_t *slots, double *share);
uint32_t tc_call_summary_density(const struct tc_call_summary *s, uint64_t t0, uint64_t t1, uint32_t nx, uint32_t ny,
				 uint32_t *counts);
/* Calls starting in the base bins whose middle is in [t0, t1). */
uint64_t tc_call_summary_calls(const struct tc_call_summary *s, uint64_t t0, uint64_t t1);

/* Both halves for the calls view: from the summary when the window is wide
 * enough (see exact_calls, min_bins), else by one exact pass over the calls
 * overlapping it (densities over the summary's dmin, dmax either way). */
struct tc_call_bins {
	uint32_t nslots;
	uint32_t cmax;              /* largest count */
	bool exact;                 /* the exact pass was taken */
};
struct tc_call_bins tc_call_bins(const struct tc_trace *t, const struct tc_call_summary *s, uint64_t t0, uint64_t t1,
				 uint32_t nx, uint32_t ny, uint32_t max_slots, uint32_t *slots, double *share,
				 uint32_t *counts);

/* The paper's opacity map: o_min + (1 − o_min)·log(D)/log(Dmax) (log), or
 * o_min + (1 − o_min)·D/Dmax (linear); 0 for D = 0. */
double tc_opacity(uint32_t d, uint32_t dmax, double omin, bool logscale);

#endif
