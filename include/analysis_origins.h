/* analysis_origins.h — the origins of the run's delays: root causes of the
 * root-cause analysis (activities with excess, ranked by delay cost plus
 * excess on the critical path; analysis_rootcause.h) placed at their logical
 * step (analysis_steps.h), for the report's `origins[]` and the UI's `o`.
 * docs/rootcause.md. */
#ifndef TC_ANALYSIS_ORIGINS_H
#define TC_ANALYSIS_ORIGINS_H

#include "analysis_rootcause.h"
#include "analysis_steps.h"

struct tc_origin {
	struct tc_rc_origin rc;   /* the activity, its rank, score, excess, delay cost */
	struct tc_block block;    /* compute: the aggregate block before the next communication event;
	                             MPI: the event of the call (or the next one) */
	bool have_block;          /* false when the rank has no communication event after it */
};

/* The logical block of activity i of rank r: a compute segment's is the
 * aggregate block before the next communication event, an MPI call's the
 * event of the call or of the next one; false when there is none. */
bool tc_block_of_act(const struct tc_rootcause *rc, const struct tc_steps *st, uint32_t r, uint32_t i,
		     struct tc_block *b);
/* At most k origins, best first; returns how many. */
size_t tc_origins(const struct tc_rootcause *rc, const struct tc_steps *st, size_t k, struct tc_origin *out);

#endif
