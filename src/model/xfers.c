/* xfers.c — memory transfers of accelerator streams in the model: Score-P
 * writes a memcpy as an RMA put or get record on the stream's location and
 * an op-complete record with the same matching id when it is done
 * (docs/model.md, "Threads and streams").  Kept per location in record order
 * for the physical timeline; they count as "other" records, as before. */
#include <stdlib.h>

#include "model_internal.h"

/* Open transfers searched back from the latest for a completion. */
#define XFER_LOOKBACK 64

void tcb_xfer_begin(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t bytes, uint64_t match, bool get)
{
	struct locb *b = &t->b->lb.a[loc];
	tcb_seen(t, loc, time);
	struct tc_xfer x = { time, UINT64_MAX, bytes, get ? TC_XFER_GET : 0 };
	VEC_PUSH(b->xfers, x);
	VEC_PUSH(b->xmatch, match);
}

void tcb_xfer_end(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t match)
{
	struct locb *b = &t->b->lb.a[loc];
	tcb_seen(t, loc, time);
	for (size_t i = b->xfers.n, n = 0; i-- > 0 && n < XFER_LOOKBACK; n++) {
		struct tc_xfer *x = &b->xfers.a[i];
		if (x->end != UINT64_MAX || b->xmatch.a[i] != match) continue;
		x->end = time >= x->begin ? time : x->begin;
		return;
	}
}

void tc_finish_xfers(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		struct locb *b = &B->lb.a[l];
		struct tc_loc *L = &t->locs[l];
		for (size_t i = 0; i < b->xfers.n; i++)
			if (b->xfers.a[i].end == UINT64_MAX) {
				b->xfers.a[i].end = b->xfers.a[i].begin;
				b->xfers.a[i].flags |= TC_XFER_OPEN;
			}
		L->xfers = b->xfers.a;
		L->nxfers = (uint32_t)b->xfers.n;
		b->xfers.a = NULL;
		b->xfers.n = b->xfers.cap = 0;
		VEC_FREE(b->xmatch);
	}
}

uint32_t tc_xfer_at(const struct tc_loc *L, uint64_t time)
{
	uint32_t lo = 0, hi = L->nxfers;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (L->xfers[mid].begin <= time) lo = mid + 1;
		else hi = mid;
	}
	if (!lo || L->xfers[lo - 1].end < time) return TC_NONE;
	return lo - 1;
}
