/* rcdist_internal.h — one process's root-cause activities in a replay over
 * parts (rcwait_dist.c builds them; the contexts, excess, delay costs and
 * critical path read them): every activity of its ranks as the serial pass
 * makes it (compute segments and MPI activities, in order), 17 bytes each
 * and the waits apart, as tc_rootcause keeps them. */
#ifndef TC_RCDIST_INTERNAL_H
#define TC_RCDIST_INTERNAL_H

#include "analysis_replay.h"

struct rc_dacts {
	uint32_t lo, hi;          /* the process's ranks */
	uint32_t *first;          /* hi - lo + 1: each rank's activities, offsets into the arrays */
	uint64_t *rank_t0;        /* hi - lo: each rank's span start (the first activity's start) */
	uint64_t base;            /* the serial index of the first one (tc_rootcause.act_first[lo]) */
	uint64_t total;           /* activities of every process */
	size_t n;
	uint64_t *end;            /* ticks */
	uint32_t *call;           /* an MPI activity's outermost call (the rank's index), TC_NONE for compute */
	uint32_t *ctx;            /* the context (its serial index), once rc_dkeys_finish numbered them */
	uint8_t *flags;           /* DACT_MPI, DACT_INTER (its messages or instance cross nodes), the
	                             wait edge << DACT_EDGE (with a partner) */
	/* the activities with a partner, as tc_rootcause keeps them: bit i of
	 * wait_bits, wait_base[i / 64] of them before activity i & ~63; their
	 * partner's readiness and rank in order */
	uint64_t *wait_bits;
	uint32_t *wait_base;
	uint64_t *ready;
	uint32_t *partner;
	size_t nwaits;
};
#define DACT_MPI 1
#define DACT_INTER 2
#define DACT_EDGE 2

static inline bool dact_mpi(const struct rc_dacts *a, size_t i)
{
	return a->flags[i] & DACT_MPI;
}
static inline uint8_t dact_inter(const struct rc_dacts *a, size_t i)
{
	return (a->flags[i] & DACT_INTER) != 0;
}
static inline uint8_t dact_edge(const struct rc_dacts *a, size_t i)
{
	return (uint8_t)(a->flags[i] >> DACT_EDGE);
}
/* Activity i's wait record (index into ready, partner), TC_NONE: none. */
static inline uint32_t dact_wait(const struct rc_dacts *a, size_t i)
{
	return tc_rc_bit_rank(a->wait_bits, a->wait_base, (uint32_t)i);
}
/* When activity i's partner was ready (its start s when it has none), and the partner. */
static inline uint64_t dact_ready(const struct rc_dacts *a, size_t i, uint64_t s)
{
	uint32_t w = dact_wait(a, i);
	return w == TC_NONE ? s : a->ready[w];
}
static inline uint32_t dact_partner(const struct rc_dacts *a, size_t i)
{
	uint32_t w = dact_wait(a, i);
	return w == TC_NONE ? TC_NONE : a->partner[w];
}
/* Where activity i of the process's rank index q starts. */
static inline uint64_t dact_start(const struct rc_dacts *a, uint32_t q, size_t i)
{
	return i > a->first[q] ? a->end[i - 1] : a->rank_t0[q];
}
/* tc_rc_act_at over rank index q: the first activity ending at or after t,
 * else the last; TC_NONE when the rank has none. */
static inline uint32_t dact_at(const struct rc_dacts *a, uint32_t q, uint64_t t)
{
	uint32_t lo = a->first[q], hi = a->first[q + 1];
	if (lo == hi) return TC_NONE;
	uint32_t x = lo, y = hi;
	while (x < y) {
		uint32_t mid = x + (y - x) / 2;
		if (a->end[mid] < t) x = mid + 1;
		else y = mid;
	}
	return x < hi ? x : hi - 1;
}
/* tc_rc_act_before over rank index q: the last activity starting before t,
 * TC_NONE when none does. */
static inline uint32_t dact_before(const struct rc_dacts *a, uint32_t q, uint64_t t)
{
	uint32_t j = dact_at(a, q, t);
	if (j == TC_NONE || dact_start(a, q, j) < t) return j;
	return j > a->first[q] ? j - 1 : TC_NONE;
}

/* The context keys of the process's activities (rcctx_dist.c), made during
 * the wait/own split's second walk: rc_dkeys_rank at every rank of the
 * process (before its activities), rc_dkeys_user at every call inside a
 * compute segment, rc_dkeys_compute and rc_dkeys_mpi at every activity in
 * order.  ci: the instance of the MPI activity at hand (the one after a
 * compute segment), from the instance's process; NULL when it has none. */
struct replay_msgx;
struct rc_dkeys;
struct rc_collinfo { uint32_t first, n; uint8_t op, has; };
struct rc_dkeys *rc_dkeys_new(const struct tc_part *p, const struct tc_dist *d, const struct replay_msgx *m);
void rc_dkeys_rank(struct rc_dkeys *k, uint32_t r);
void rc_dkeys_user(struct rc_dkeys *k, const struct tc_call *c, uint64_t cur);
void rc_dkeys_compute(struct rc_dkeys *k, uint64_t s, uint64_t e, const struct tc_call *next,
		      const struct rc_collinfo *ci);
void rc_dkeys_mpi(struct rc_dkeys *k, uint32_t call, uint8_t inter, const struct rc_collinfo *ci);
/* The contexts numbered at process 0 (its result, NULL elsewhere); every
 * activity's context into acts->ctx, the table (serial order, as the
 * activity pass leaves it) into *table, *nctx and the compute scale's bins
 * (TC_RC_SCALE_BINS) into scale_bin on every process; frees k. */
struct tc_rcctx *rc_dkeys_finish(struct rc_dkeys *k, const struct tc_dist *d, struct rc_dacts *acts,
				 struct tc_rc_ctx **table, uint32_t *nctx, double *scale_bin);
/* One process's excess: per activity of its ranks (rc_dacts order), and the
 * typed contexts (every process's copy). */
struct rc_dexcess {
	float *excess;
	uint8_t *outlier;
	struct tc_rc_ctx *ctx;
	uint32_t nctx;
};
void rc_dexcess_free(struct rc_dexcess *x);
/* What process 0 holds of the root causes, in bytes per rank (the
 * excess, delay and path rows, the results' per-rank sums) and per context
 * (the typed table and its copies in the results).  Since session 20 the
 * contexts are typed by every process from its own ranks' values
 * (rcstats.c, oselect.c), the delay costs swept by a backward replay and
 * the activities with excess kept where they are (rcdelay_dist.c): no
 * value, wait or activity is gathered; the critical path's pieces are
 * (about one per activity on the path). */
#define RC_HELD_PER_RANK 96
#define RC_HELD_PER_CTX 384
/* The typical values and the excess over the parts (rcexcess_dist.c): on
 * process 0, NULL elsewhere; table (the contexts as rc_dkeys_finish leaves
 * them, not changed) and scale_bin on every process; the process's excess
 * into *out.  *need: what process 0 would hold of the root causes (every
 * process); over bound nothing is done (NULL, *out empty). */
struct tc_rcexcess *rc_excess_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
				   const struct replay_msgx *m, const struct rc_dacts *a, struct tc_rc_ctx *table,
				   uint32_t nctx, const double *scale_bin, uint64_t bound, uint64_t *need,
				   struct rc_dexcess *out);
/* The long-term delay costs over the parts (rcdelay_dist.c): on process 0,
 * NULL elsewhere (its activities with excess counted, not held); the
 * thin-context delays change x where they give excess; every process's
 * activities with excess into *ex. */
struct tc_rcdelay *rc_delay_dist(const struct tc_part *p, const struct tc_dist *d, const struct rc_dacts *a,
				 struct rc_dexcess *x, struct tc_rc_exslice *ex);

/* The wait/own rows replayed over the parts within span sp (tc_span_dist),
 * the messages exchanged in m (replay_msgx_get): on process 0, NULL
 * elsewhere; the process's activities in *acts (rc_dacts_free), their
 * context keys into keys (not NULL). */
struct tc_rcwait *rc_wait_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
			       const struct replay_msgx *m, struct rc_dacts *acts, struct rc_dkeys *keys);
void rc_dacts_free(struct rc_dacts *a);
/* The critical path walked back over every process's activities (a;
 * rank_first: replay_firsts of the ranks; excess: per activity of a, the
 * pieces' excess, NULL: 0): on process 0, NULL elsewhere. */
struct tc_cpath *rc_cpath_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
			       const uint64_t *rank_first, const struct rc_dacts *a, const float *excess);

#endif
