/* lsum_internal.h — what the lateness summary (lsum.c) and its making over
 * parts (lsum_parts.c) share: the block sizes, a leaf's flags, the merge
 * of two cells, the tile pyramid's geometry and upper levels, and the blob
 * packed with the per-rank arrays left as holes. */
#ifndef TC_LSUM_INTERNAL_H
#define TC_LSUM_INTERNAL_H

#include <math.h>

#include "cache.h"
#include "ui.h"

#define B1 8u
#define B2 1024u

/* The blob's head (then the arrays, each padded to 8 bytes: lsum_pack). */
struct lsum_head { uint32_t metric, agg, nranks, nx; double vmax; };

/* A leaf's flags: its cev's kinds, or TC_F_AGG for its aggregate block. */
static inline uint8_t lsum_leaf_flags(const struct tc_cev *e, bool is_agg)
{
	if (is_agg) return TC_F_AGG;
	return (uint8_t)(((e->flags & TC_CEV_SEND) ? TC_F_SEND : 0) | ((e->flags & TC_CEV_RECV) ? TC_F_RECV : 0) |
			 ((e->flags & TC_CEV_COLL) ? TC_F_COLL : 0));
}

/* Leaf a of cev e (with aggregates: 0 its aggregate block, 1 the event;
 * without: 0 the event): its x unit. */
static inline uint32_t lsum_leaf_x(const struct tc_cev *e, bool agg, uint32_t a)
{
	return agg ? e->step + a : e->step / 2;
}

/* A leaf's cell: its metric's value v (0 when not finite) as a float, its flags. */
static inline struct tc_cellsum lsum_cell(const struct tc_cev *e, bool is_agg, double v)
{
	if (!isfinite(v)) v = 0;
	return (struct tc_cellsum){ (float)v, lsum_leaf_flags(e, is_agg) };
}

/* b into a: the largest value of the cells with flags, their flags or'ed. */
static inline void lsum_merge(struct tc_cellsum *a, struct tc_cellsum b)
{
	if (b.f) {
		if (!a->f || b.v > a->v) a->v = b.v;
		a->f |= b.f;
	}
}

/* The tile pyramid's geometry from nranks and nx (rs, xs, tw, th, nlevels). */
void lsum_geometry(struct tc_lsum *s);
/* Every rank's offsets into b1 and b2 (allocated) from s->st's rank_first. */
void lsum_firsts(struct tc_lsum *s);
/* Levels 1.. of the pyramid from level 0. */
void lsum_tiles_up(struct tc_lsum *s);
/* The blob of s appended to out (lsum_pack), with holes (not NULL) where
 * b1, b2 and leafv go (their bytes, padding included, not appended; holes
 * [0..3) name them with TC_ANCHOR_BLOB0 + 0, 1, 2); returns the blob's
 * whole size.  s->st need only have ncevs. */
#define LSUM_HOLES 3
uint64_t lsum_pack_holes(const struct tc_lsum *s, struct strbuf *out, struct tc_cache_hole holes[LSUM_HOLES]);

#endif
