/* rcexcess_internal.h — the typical values per context and the excess pass
 * (rcexcess.c, docs/rootcause.md §3) in the pieces that the serial pass and
 * the replay over parts (rcexcess_dist.c) share: the values grouped by
 * context (each activity's value and time bin, the sample), the statistics
 * over them, and the excess pass one activity at a time. */
#ifndef TC_RCEXCESS_INTERNAL_H
#define TC_RCEXCESS_INTERNAL_H

#include <math.h>

#include "analysis_rootcause.h"
#include "u64map.h"

/* A context's activities of one rank: where their values start in val, their median. */
struct run { uint32_t rank, at; double med; };
/* A run with persistent excess: its context's lower quartile of the runs' medians. */
struct pers { uint32_t rank, ctx; double q; };

/* The values of the activities grouped by context. */
struct groups {
	double *val;        /* context by context, rank order within one (scratch) */
	uint32_t *first;    /* nctx + 1 offsets into val: room for each context's values */
	uint32_t *end;      /* nctx: where each context's values end (a sampled one leaves room) */
	uint32_t *nranks;   /* nctx: the distinct ranks with such an activity (a sampled context
	                       may have no run on a rank with few of them) */
	struct run *runs;   /* context by context, rank order within one */
	uint32_t *rfirst;   /* nctx + 1: where each context's runs start in runs */
	uint32_t *rend;     /* nctx: where they end (room for ctx.nranks from rfirst) */
	double *own;        /* per context: its own median (before the back-off) */
	double *buf;        /* the largest context's size */
	uint8_t *vbin;      /* per value of an MPI context: its activity's time bin (QUIET_BINS over the span),
	                       | WHOLE when the value is a whole transfer (hidden_transfer) */
	uint8_t *p2p;       /* per context: P2P_RECV, P2P_SEND or 0 (hidden_transfer) */
	double *full_mad;   /* per context: the MAD of its whole transfers (context_whole) */
	double *within;     /* per compute context: the robust spread of its values around their
	                       runs' medians (noise_floor; 0 for others) */
	struct pers *trend; /* the compute runs that trend (tc_rc_trends), by rank (q unused) */
	size_t ntrend;
};

/* An MPI context seen more than opts.sample_cap times is typed from a sample
 * (docs/rootcause.md §3, "Sampled MPI contexts"): each rank's run of it is cut
 * into blocks of stride activities and one activity of each block, at an
 * offset drawn from a hash of (context, rank, block), is kept: about
 * sample_cap values, spread over every rank and the whole run, and no
 * aliasing with a periodic pattern (a fixed stride of 4 over a halo's four
 * directions would see one direction only).  MPI contexts are few and huge (a
 * call × size bucket × intra/inter), and gathering all their values was half
 * of the context pass on big traces; compute contexts are never sampled (the
 * noise floor pools their deviations). */
static inline uint32_t sample_stride(const struct tc_rootcause *rc, const struct tc_rc_ctx *C)
{
	uint32_t cap = rc->opts.sample_cap;
	return cap && C->kind == TC_ACT_MPI && C->n > cap ? (C->n + cap - 1) / cap : 1;
}

#define QUIET_BINS 10  /* time bins of the span for context_quiet */

/* Per context, while gathering: the rank of the run at hand, whether it has
 * a value yet, the position in the block and the block's chosen offset, the
 * ranks seen. */
struct pick { uint32_t rank, stride, pos, at, block, nranks; bool run; };

static inline uint32_t pick_offset(uint32_t c, uint32_t r, uint32_t block, uint32_t stride)
{
	uint64_t h = ((uint64_t)c << 40 ^ (uint64_t)r << 20 ^ block) * 0x9e3779b97f4a7c15ULL;
	return (uint32_t)((h >> 32) % stride);
}

/* Activity of rank r in context c: kept (its value goes into the sample)? */
static inline bool pick_next(struct pick *p, uint32_t c, uint32_t r)
{
	if (p->rank != r) {
		*p = (struct pick){ .rank = r, .stride = p->stride, .nranks = p->nranks + 1 };
		p->at = p->stride > 1 ? pick_offset(c, r, 0, p->stride) : 0;
	}
	bool keep = p->pos == p->at;
	if (p->stride > 1 && ++p->pos == p->stride) {
		p->pos = 0;
		p->block++;
		p->at = pick_offset(c, r, p->block, p->stride);
	}
	return keep;
}

/* A transfer's own time shows whole only when the partner's lateness hid
 * none of it (rcexcess.c, "Hidden transfers"): the classes of point-to-point
 * contexts, and the mark of a whole transfer's value. */
#define P2P_RECV 1
#define P2P_SEND 2
#define WHOLE 0x80
uint8_t rc_p2p_class(const struct tc_trace *t, const struct tc_rc_ctx *C);

/* Whether an MPI activity of a context of class p2p is a whole transfer: a
 * blocking send without a wait record, a receive whose wait was a late
 * sender's (wait: it has a wait record, edge its edge). */
static inline bool rc_whole_transfer(uint8_t p2p, bool wait, uint8_t edge)
{
	if (p2p == P2P_SEND) return !wait;
	return p2p == P2P_RECV && wait && edge == TC_WE_LATE_SENDER;
}

/* An activity's value as the contexts read it: the seconds of [s, e] (an MPI
 * activity with a wait record: from ready on) and, MPI, its time bin over
 * the span [t0, t0 + span) (| WHOLE for a whole transfer) into *vbin. */
static inline double rc_act_value(const struct tc_trace *t, uint64_t t0, uint64_t span, uint64_t s, uint64_t e,
				  bool mpi, bool wait, uint64_t ready, uint8_t edge, uint8_t p2p, uint8_t *vbin)
{
	*vbin = 0;
	if (mpi) {
		uint64_t at = s > t0 ? s - t0 : 0;
		*vbin = (uint8_t)TC_MIN((uint64_t)QUIET_BINS - 1, at * QUIET_BINS / span);
		if (wait) s = ready;
		if (p2p && rc_whole_transfer(p2p, wait, edge)) *vbin |= WHOLE;
	}
	return tc_dur(t, e - s);
}

/* The groups' arrays, sized from the contexts' counts (n, nranks of the
 * activity pass) and their samples; *pk: each context's pick (caller frees). */
void rc_groups_begin(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, struct pick **pk);
/* The same sized for room[c] values and runs[c] runs of each context (the
 * replay over parts: the values of a process's ranks). */
void rc_groups_sized(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, const uint32_t *room,
		     const uint32_t *runs);
/* A kept value of rank r in context c (ranks in order); first: the rank's
 * first there (a new run). */
static inline void rc_groups_add(struct groups *g, uint32_t c, uint32_t r, double val, uint8_t vbin, bool first)
{
	if (first) g->runs[g->rend[c]++] = (struct run){ r, g->end[c], 0 };
	if (vbin) g->vbin[g->end[c]] = vbin;  /* zero already: compute values leave the pages untouched */
	g->val[g->end[c]++] = val;
}
/* The statistics of every context once its values are in (nranks: the
 * distinct ranks each context's picks saw; kept): medians, MADs, runs'
 * medians, quiet periods, trends, back-offs, the noise floor, thresholds
 * (rcstats.c).  d NULL: g holds every value; else g holds this process's
 * ranks' values, the others' theirs, and every process gets the same typed
 * contexts (collective); the trends are the ranks' here. */
struct tc_dist;
void rc_groups_stats(struct tc_rootcause *rc, struct groups *g, uint32_t *nranks, const struct tc_dist *d);
/* The runs with persistent excess of the ranks whose values g holds, by rank
 * (caller frees; collective with d, as rc_groups_stats). */
struct pers *rc_persistent_runs(struct tc_rootcause *rc, const struct groups *g, size_t *n, const struct tc_dist *d);
void rc_groups_free(struct groups *g);

/* --- the excess pass ------------------------------------------------------------ */

/* What the excess pass reads of a context per activity, in ticks (the
 * activity's own ticks decide the comparisons): 32 bytes, not a whole
 * tc_rc_ctx with its doubles. */
struct xctx {
	uint64_t over;     /* an outlier from this many ticks on (value > threshold) */
	uint64_t stall;    /* a stall from this many ticks on (value − median > stall_min) */
	double q;          /* the persistent quartile of the rank at hand, NAN: none */
	double median;     /* the context's (s) */
	double held_w;     /* compute: its weight in the held share (stalls_end): the median
	                      length where ranks repeat the work (≥ 3 per rank on average), else 0 */
	uint32_t seen;     /* the last rank with such an activity (MPI warm-up) */
	uint8_t p2p;       /* P2P_* when its whole transfers are slower (full_median): hidden_transfer */
	bool mpi;
	bool trend;        /* the rank at hand's run trends (tc_rc_trends): no outliers, no stalls */
};

/* Stall counts: activities more than stall_min above their context median, by
 * kind; distinct ranks and pairs.  Counted in the excess pass. */
struct stalls { bool *cr, *mr; uint32_t *cn, *cs; double *cw, *csw; struct u64map pairs; VEC(double) height; };

/* What the excess pass counts of one rank's activities, in registers while
 * the rank is at hand (kept in memory, each sum was a chain of loads and
 * stores through the same address; the additions, and so the sums, are the
 * same in the same order), then folded into rc and the stall arrays. */
struct tally {
	uint64_t n_compute, n_compute_stalls, n_mpi, n_mpi_stalls;
	double typical_compute_s, typical_mpi_s;  /* run-level: continued from rc's */
	uint32_t cn, cs;                          /* this rank's: compute activities, stalls among them */
	double cw, csw;                           /* their weights in the held share, the stalls' */
	bool cr, mr;                              /* it has compute / MPI stalls */
};

/* The pass's state: the contexts as it reads them, the persistent runs and
 * trends by rank (cursors pk, tk), the stall counts, the activities with
 * excess found (their indices into excess/outlier, in order), and where a
 * hidden transfer began (xfer: transfer_start's answer for activity i of
 * rank r, start s, of a receive context). */
struct xpass {
	struct xctx *xc;
	struct pers *pers, *trend;
	size_t npers, ntrend, pk, tk, pk0, tk0;
	struct stalls st;
	VEC(uint32_t) ex;
	float *excess;
	uint8_t *outlier;
	uint64_t (*xfer)(void *ctx, uint32_t r, uint32_t i, uint64_t s);
	void *xfer_ctx;
};
/* The contexts' thresholds in ticks, stall_min from the compute scale. */
void rc_xpass_begin(const struct tc_trace *t, struct tc_rootcause *rc, const uint8_t *p2p, double scale,
		    struct xpass *x);
/* Rank r's persistent runs and trends on, before its activities; off after. */
void rc_xpass_rank(struct xpass *x, uint32_t r, bool on);
/* One activity of rank r: index i (into excess, outlier), [s, e], context
 * c, its wait record (wait; ready, partner), into the tally y and *wait. */
void rc_xpass_act(const struct tc_trace *t, const struct tc_rootcause *rc, struct xpass *x, struct tally *y,
		  uint32_t r, uint32_t i, uint64_t s, uint64_t e, uint32_t c, bool wait, uint64_t ready, uint32_t partner,
		  double *wsum);
void tally_begin(const struct tc_rootcause *rc, struct tally *y);
void tally_end(struct tc_rootcause *rc, struct stalls *s, uint32_t r, const struct tally *y);
/* The run-level stall figures (rc) from the counts; npairs: the distinct
 * (rank, partner) pairs of MPI stalls (s->pairs' serially).  Frees s. */
void rc_stalls_end(struct tc_rootcause *rc, struct stalls *s, uint64_t npairs);
void rc_xpass_free(struct xpass *x);

#endif
