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

/* Per rank, sparse: the waits (activity indices, in order) and the
 * activities with excess with the running sum of the excess (in order; the
 * sum over the zeros between them is the same), so that the prefix sum at any
 * activity and the last wait at or before it are binary searches over short
 * lists instead of arrays over all activities.  The replay over parts
 * (rcdelay_dist.c) makes one per process over its own ranks. */
struct rc_dc {
	uint32_t nranks;
	const uint32_t *act_first;  /* nranks + 1: each rank's activities (one numbering for all ranks) */
	const uint64_t *rank_t0;    /* nranks: each rank's first activity's start */
	/* where a wait's partner was at its ready: the partner's activity just
	 * before it (TC_NONE: none), asked only when needed (partner_act) */
	uint32_t (*jof)(void *ctx, uint32_t partner, uint64_t ready);
	void *jctx;
	uint32_t *wfirst;   /* nranks + 1 offsets into wact */
	uint32_t *wact;     /* the waits' activity indices, rank by rank, in order */
	uint64_t *wstart;   /* the waits' activities' starts (ticks), likewise */
	struct wst *ws;     /* per wait (index into wact) */
	uint32_t *xfirst;   /* nranks + 1 offsets into xact / xpre */
	uint32_t *xact;     /* activities with excess, rank by rank, in order */
	double *xpre;       /* their rank's excess summed up to them, inclusive */
	double *coef;       /* difference array over xact: cost per second of excess, from this one on */
	int32_t *open;      /* difference array over xact: the ranges covering it (0: its cost is 0,
	                       exactly, not the rounding left of ranges added and taken away) */
	double lost;        /* cost neither explained nor passed on */
};
/* The activities with excess xa[0..n) (in order; xval: each one's excess):
 * their running sums per rank and the difference arrays (xa is d's now). */
void rc_dc_prepare(struct rc_dc *d, uint32_t *xa, const float *xval, size_t n);
/* What handing a wait's cost to its partner's interval depends on but the
 * cost (delaycost.c): early (no interval: the whole cost unattributed), or
 * the range of activities with excess [from, zend) (from TC_NONE: none;
 * zend TC_NONE: to the rank's end) and f, the share their excess E
 * explains, and fw, the share the wait tw (index into wact; TC_NONE: none)
 * passes on. */
struct rc_dplan { uint32_t tw, from, zend; double f, fw, E; bool early; };
void rc_dc_plan(struct rc_dc *d, struct wref *w, double wait, struct rc_dplan *pl);
/* For cost C: the cost per second of excess added over the range, the
 * remainder passed on and the cost lost (neither explained nor passed on). */
struct rc_dcost { double per, rest, lost; };
static inline struct rc_dcost rc_dc_cost(const struct rc_dplan *pl, double C)
{
	if (pl->early) return (struct rc_dcost){ 0, C, 0 };
	return (struct rc_dcost){ pl->f > 0 ? C * pl->f / pl->E : 0, C * pl->fw, C * (1 - pl->f - pl->fw) };
}
/* Each activity with excess its cost (ex_delay, per xact) from the
 * difference arrays, summed per rank into delay_cost. */
void rc_dc_finish(const struct rc_dc *d, const float *xval, float *ex_delay, double *delay_cost);

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
