/* profile_internal.h — the pieces of the flat profile (profile.c) that the
 * serial pass and the replay over parts (profile_dist.c) share: rank by rank
 * into per-region sums, in the serial order. */
#ifndef TC_PROFILE_INTERNAL_H
#define TC_PROFILE_INTERNAL_H

#include "analysis_profile.h"

/* A rank's exclusive time per region, while its calls are summed. */
struct prof_scratch {
	double *excl_rank;
	bool *seen;
	VEC(uint32_t) touched;
};
void prof_scratch_init(struct prof_scratch *sc, uint32_t nregions);
void prof_scratch_free(struct prof_scratch *sc);
/* g[i] = region i with nothing summed yet. */
void prof_regions_init(struct tc_prof_region *g, uint32_t nregions);
/* Rank r's calls added to g[], p->total and p->mpi exactly as the serial
 * pass adds them (rank_t0/rank_t1 NULL: the whole trace). */
void prof_add_rank(const struct tc_trace *t, uint32_t r, const uint64_t *rank_t0, const uint64_t *rank_t1,
		   struct tc_profile *p, struct tc_prof_region *g, struct prof_scratch *sc);
/* The regions with calls, their imbalance, sorted: p->regions = g. */
void prof_finish(struct tc_profile *p, struct tc_prof_region *g, uint32_t nregions);
/* The message-size histogram of msgs[0..n) added to p. */
void prof_hist(struct tc_profile *p, const struct tc_msg *msgs, size_t n);
/* A table's cells in their order (who, exclusive descending, region). */
void prof_table_sort(struct tc_prof_table *pt);

#endif
