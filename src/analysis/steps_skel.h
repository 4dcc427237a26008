/* steps_skel.h — the communication skeleton's records, shared by the
 * skeleton gathered to process 0 (steps_dist.c) and the partitions' owners
 * (steps_parts.c): an op with what the steps read of its call. */
#ifndef TC_STEPS_SKEL_H
#define TC_STEPS_SKEL_H

#include "model.h"

struct skel_op {        /* 48 bytes per op */
	uint64_t enter, leave;
	uint32_t region, parent, call;
	struct tc_op op;     /* op.call: the serial index, to mark the calls apart */
};

static inline struct skel_op skel_op_of(const struct tc_rank *R, uint32_t o)
{
	const struct tc_call *c = &R->calls[R->ops[o].call];
	return (struct skel_op){ c->enter, c->leave, c->region, c->parent, 0, R->ops[o] };
}

/* Rank R of a skeleton model from its n ops a[0..n): one call per op (call
 * 0 a filler), TC_CALL_APART where two ops' calls were not consecutive
 * serially; ops and calls are the rank's arrays (n and n + 1 entries). */
void skel_rank(struct tc_rank *R, const struct skel_op *a, uint32_t n, struct tc_op *ops, struct tc_call *calls);

#endif
