/* lsum_parts.h — the logical view's lateness summary (ui.h, struct
 * tc_lsum) made by the processes together from the steps in slices
 * (tracecomb-mpi prep, docs/scale.md "The steps in slices"): the blob
 * lsum_pack makes of the whole steps, byte for byte, with no process
 * holding every leaf. */
#ifndef TC_LSUM_PARTS_H
#define TC_LSUM_PARTS_H

#include "analysis_steps_dist.h"
#include "cache.h"
#include "ui.h"

struct lsum_parts {
	struct strbuf blob;                /* process 0: the blob's bytes but the holes' */
	uint64_t size;                     /* process 0: the whole blob's size */
	struct tc_cache_hole holes[3];     /* process 0: where b1, b2 and the leaves go */
	struct tc_cache_piece pieces[3];   /* every process: its ranks' b1, b2 and leaves */
	void *mem[3];
};
/* Collective.  The lateness summary (TC_M_LATENESS; agg: with the
 * aggregate blocks) of the steps whose slices the processes hold (sl):
 * each process makes its ranks' leaves and block maxima (its pieces); the
 * level-0 tiles and the largest value are reductions (maxima of values >=
 * 0, whose bits order as they do), the per-column sums a fold in rank
 * order (the serial order of the additions); process 0 packs the rest. */
void lsum_pack_parts(const struct tc_steps_slice *sl, const struct tc_dist *d, uint32_t nranks, bool agg,
		     struct lsum_parts *out);
void lsum_parts_free(struct lsum_parts *x);

#endif
