/* delaycost_internal.h — the long-term delay costs (delaycost.c) in the
 * pieces that the serial pass and the replay over parts (rcdelay_dist.c)
 * share: the thin-context delay of one wait, over the partner's activities
 * however they are held, and the sweep over the waits latest first, which
 * reads only sparse lists (the waits, the activities with excess). */
#ifndef TC_DELAYCOST_INTERNAL_H
#define TC_DELAYCOST_INTERNAL_H

#include "analysis_rootcause.h"

/* A wait: when its partner was ready, its place k among the waits (activity
 * order), the partner and the partner's activity just before ready (TC_NONE:
 * none; J_LATER: not looked up yet, partner_act).  Handled in time order, so
 * what each one needs is in it. */
struct wref { uint64_t ready; uint32_t k, j, partner; };
#define J_LATER (TC_NONE - 1)
/* A wait's state, by place k: when its partner was ready, its waiting time
 * (tc_act_wait) and the cost propagated into it (one line, read at random). */
struct wst { uint64_t ready; double sec, prop; };

/* What the thin-context delay reads of an activity. */
struct rc_thin_act {
	uint64_t len;     /* ticks */
	float excess;     /* as it stands (earlier waits may have set it) */
	bool mpi;
	bool waited;      /* an MPI activity that waited for a partner */
	uint8_t typical;  /* its context's */
};
struct rc_thin_src { struct rc_thin_act (*act)(void *ctx, uint32_t p, uint32_t i); void *ctx; };
/* The activity of partner p (its activities from lo on) that takes the wait
 * of sec seconds whose ready came after p's activity j: the longest compute
 * segment back from j to p's last wait (64 at most) when none of them has
 * excess and its context has no typical value (docs/rootcause.md, thin
 * contexts); TC_NONE: none.  *wt: the excess it takes (if larger). */
uint32_t rc_thin_pick(const struct tc_trace *t, const struct rc_thin_src *src, uint32_t p, uint32_t lo, uint32_t j,
		      double sec, double *wt);

/* The sweep's input: every rank's activities in one numbering (act_first,
 * rank_t0), the waits (w: one per wait in collect order, k its place, j its
 * partner's activity or J_LATER: asked of jof when needed; tmp: room for
 * the sort; wfirst, wact, wstart, ws: per rank, in activity order), the
 * activities with excess (xact in order, xval their excess; the sweep keeps
 * xact).  Out: ex_delay (per xact, allocated), delay_cost (per rank, added). */
struct rc_dsweep {
	uint32_t nranks;
	const uint32_t *act_first;
	const uint64_t *rank_t0;
	uint32_t (*jof)(void *ctx, uint32_t partner, uint64_t ready);
	void *jctx;
	struct wref *w, *tmp;
	size_t nw;
	uint32_t *wfirst, *wact;
	uint64_t *wstart;
	struct wst *ws;
	uint32_t *xact;
	const float *xval;
	size_t nx;
	float *ex_delay;
	double *delay_cost;
};
/* The costs handed back from the latest wait to the earliest; what is
 * neither explained nor passed on is added to *unattributed. */
void rc_delay_sweep(struct rc_dsweep *in, double *unattributed);

#endif
