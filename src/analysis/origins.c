/* origins.c — root causes placed at their logical step (analysis_origins.h). */
#include <stdlib.h>

#include "analysis_origins.h"

/* The communication event of the first call at or after activity i on rank r
 * that has one; agg: whether the activity is a compute segment (its block is
 * the event's aggregate block). */
bool tc_block_of_act(const struct tc_rootcause *rc, const struct tc_steps *st, uint32_t r, uint32_t i,
		     struct tc_block *b)
{
	for (uint32_t k = i; k < rc->act_first[r + 1]; k++) {
		uint32_t call = tc_rc_act_call(rc, r, k);
		if (call == TC_NONE) continue;
		uint32_t cev = tc_steps_cev_of_call(st, r, call);
		if (cev == TC_NONE) continue;
		b->cev = cev;
		b->agg = tc_rc_act_kind(rc, i) == TC_ACT_COMPUTE;
		return true;
	}
	return false;
}

size_t tc_origins(const struct tc_rootcause *rc, const struct tc_steps *st, size_t k, struct tc_origin *out)
{
	struct tc_rc_origin *o = xmalloc((k ? k : 1) * sizeof *o);
	size_t n = tc_rc_origins(rc, k, o);
	for (size_t i = 0; i < n; i++) {
		out[i].rc = o[i];
		out[i].have_block = st && tc_block_of_act(rc, st, o[i].rank, o[i].act, &out[i].block);
	}
	free(o);
	return n;
}
