/* rcctx_internal.h — the root causes' context keys (docs/rootcause.md §3,
 * "Contexts") in the pieces that the serial pass (rootcause.c) and the
 * replay over parts (rcctx_dist.c) share: the formulas of the keys and the
 * tag signatures, so that every process computes the key the serial pass
 * computes for the same activity. */
#ifndef TC_RCCTX_INTERNAL_H
#define TC_RCCTX_INTERNAL_H

#include "analysis_rootcause.h"

static inline uint64_t rc_mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* A call's tag signature (rootcause.c, call_tag): no call or no message. */
#define RC_TAG_NONE 0xffff
/* A tag of a pair that numbers its messages: one value, above every 32-bit tag. */
#define RC_NUMBERED ((uint64_t)1 << 32)
/* A collective's signature: its operation. */
static inline uint64_t rc_coll_tag(uint8_t op)
{
	return 0x10000u + op;
}

/* The user regions between two MPI calls, one more region entered. */
static inline uint64_t rc_gap_add(uint64_t gap_sig, uint32_t region)
{
	return rc_mix(gap_sig, region + 1);
}

/* The regions of the calls around a compute segment: TC_NONE - 1 for none. */
static inline uint32_t rc_seg_region(const struct tc_call *c)
{
	return c ? c->region : TC_NONE - 1;
}

/* A compute segment between regions pr and nr (rc_seg_region) with the tags
 * tag0, tag1 of its calls and the user regions gap_sig between: its place
 * (the key without the user regions) and key. */
static inline uint64_t rc_place_key(uint32_t pr, uint64_t tag0, uint32_t nr, uint64_t tag1)
{
	return rc_mix(rc_mix(rc_mix(rc_mix(1, pr), tag0), nr), tag1);
}
static inline uint64_t rc_compute_key(uint64_t place, uint64_t gap_sig)
{
	return rc_mix(place, gap_sig);
}
/* Its coarse key (the tags left out: backoff_thin). */
static inline uint64_t rc_coarse_key(uint32_t pr, uint32_t nr, uint64_t gap_sig)
{
	return rc_mix(rc_mix(rc_mix(3, pr), nr), gap_sig);
}
/* The key a rank's first segment (no previous call) is joined by
 * (first_segments): the next call and the user regions. */
static inline uint64_t rc_steady_key(uint32_t nr, uint64_t tag1, uint64_t gap_sig)
{
	return rc_mix(rc_mix(rc_mix(3, nr), tag1), gap_sig);
}

/* The number of bits of x: floor(log2 x) + 1, 0 for 0 (the size bucket of
 * an MPI context, and the bins of the compute scale). */
static inline uint8_t rc_size_bucket(uint64_t x)
{
	return x ? (uint8_t)(64 - __builtin_clzll(x)) : 0;
}

/* An MPI activity's key: its region, size bucket and whether it crosses nodes. */
static inline uint64_t rc_mpi_key(uint32_t region, uint8_t bucket, uint8_t inter)
{
	return rc_mix(rc_mix(rc_mix(2, region), bucket), inter);
}

/* Numbering tags (rootcause.c): a bit per message of msgs[0..nbits) (the
 * messages of ranks [lo, hi), message id − first), set when its pair
 * numbers its messages; NULL when none does. */
uint64_t *rc_numbering(const struct tc_trace *t, uint32_t lo, uint32_t hi, const struct tc_msg *msgs, uint64_t first,
		       size_t nbits);
static inline bool rc_numbered(const uint64_t *bits, uint64_t k)
{
	return bits && (bits[k / 64] >> (k % 64) & 1);
}
/* The receive tag signature, one message more (tag, numbered or not): the
 * smallest tag of the messages whose pairs do not number them. */
static inline uint64_t rc_recv_tag(uint64_t sig, uint32_t tag, bool numbered)
{
	return numbered ? sig : TC_MIN(sig, (uint64_t)tag);
}

/* The first pass of tc_rootcause_compute (rootcause.c): the activities,
 * their contexts (key and parts, n and nranks counted, the first segments
 * joined; no typical values yet) and the wait/own split; scale_bin: the
 * compute time per rc_size_bucket of the segment's length (the compute
 * scale's input). */
struct tc_span;
struct tc_rootcause *tc_rc_activities(const struct tc_trace *t, const struct tc_span *sp, const struct tc_rc_opts *o,
				      double scale_bin[65], struct tc_usage *mark);
/* The length of the compute segments that hold most of the compute time
 * (the time-weighted median of the segments' lengths) from scale_bin. */
double rc_compute_scale(const struct tc_trace *t, const double *bin);

#endif
