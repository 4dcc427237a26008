/* critpath_internal.h — one step of the critical path's backward walk
 * (docs/rootcause.md §4), shared by the serial walk (critpath.c) and the one
 * over parts (critpath_dist.c), which differ only in where an activity and
 * its partner's are read.  A step on rank r at time T takes the activity
 * that holds T: a compute segment whole; an MPI call whose wait ended at its
 * partner's readiness, its own part after that moment, then the walk jumps
 * to the partner (when the partner has an activity before the moment, and a
 * run of jumps at one moment is cut after nranks of them); else the whole
 * call (its wait, then its own part).  Pieces go to the caller's `piece`. */
#ifndef TC_CRITPATH_INTERNAL_H
#define TC_CRITPATH_INTERNAL_H

#include "analysis_rootcause.h"

/* The walk: rank r at time T; guard: the steps left; stuck: jumps in a row at one moment. */
struct cp_walk {
	uint64_t T, guard;
	uint32_t r, stuck;
};

/* An activity as a step reads it (index: its serial index, tc_rc_act). */
struct cp_act {
	uint64_t start, end, ready;
	uint32_t partner, index;
	uint8_t kind, inter;
};

/* An MPI step waiting to learn whether its partner can be followed. */
struct cp_step {
	uint64_t at, e, start;   /* the moment to jump at, the activity's end on the path, its start */
	uint32_t act, partner;
	uint8_t own, waits;      /* the own part's kind (TC_CP_MPI_*); it waited for its partner */
	uint8_t pad[6];
};

typedef void (*cp_piece_fn)(void *ctx, uint64_t s, uint64_t e, uint32_t rank, uint32_t act, uint8_t kind);

/* Begins the step on activity a of w->r: a compute segment is taken whole
 * and the step is done (true); an MPI activity fills *st (false): the caller
 * asks whether the partner can be followed (cp_asks) and ends the step
 * with cp_end. */
static inline bool cp_begin(struct cp_walk *w, const struct cp_act *a, struct cp_step *st, cp_piece_fn piece,
			    void *ctx)
{
	uint64_t e = TC_MIN(w->T, a->end);
	if (a->kind == TC_ACT_COMPUTE) {
		piece(ctx, a->start, e, w->r, a->index, TC_CP_COMPUTE);
		w->T = a->start;
		w->stuck = 0;
		w->guard--;
		return true;
	}
	bool waits = a->partner != TC_NONE && a->ready > a->start;
	*st = (struct cp_step){ .at = TC_MIN(a->ready, e), .e = e, .start = a->start, .act = a->index,
				.partner = a->partner, .own = a->inter ? TC_CP_MPI_INTER : TC_CP_MPI_INTRA,
				.waits = waits };
	return false;
}

/* Whether the step's partner must be looked at (it waited for a rank). */
static inline bool cp_asks(const struct cp_step *st, uint32_t nranks)
{
	return st->waits && st->partner < nranks;
}

/* Ends the step: follow, the partner has an activity before the moment. */
static inline void cp_end(struct cp_walk *w, const struct cp_step *st, bool follow, uint32_t nranks, cp_piece_fn piece,
			  void *ctx)
{
	if (follow && !(st->at == w->T && w->stuck > nranks)) {
		piece(ctx, st->at, st->e, w->r, st->act, st->own);
		w->stuck = st->at == w->T ? w->stuck + 1 : 0;
		w->r = st->partner;
		w->T = st->at;
	} else {
		if (st->waits) {
			piece(ctx, st->at, st->e, w->r, st->act, st->own);
			piece(ctx, st->start, st->at, w->r, st->act, TC_CP_WAIT);
		} else {
			piece(ctx, st->start, st->e, w->r, st->act, st->own);
		}
		w->T = st->start;
		w->stuck = 0;
	}
	w->guard--;
}

#endif
