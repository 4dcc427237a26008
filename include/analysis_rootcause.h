/* analysis_rootcause.h — why the run is slow, on the happened-before graph:
 * every rank's timeline inside the application span cut into activities
 * (compute segments and outermost MPI calls), each MPI call split into wait
 * (time before the partner was ready) and own time, typical values per
 * call-path context with robust outlier excess, the critical path, and
 * long-term delay costs (Böhme et al., ICPP 2010).  None of it rests on
 * logical steps or partitions, so it means the same on rings, trees,
 * pipelines, halos, master/worker and random traffic.  Pure functions of the
 * model (no curses).  Definitions and a worked example: docs/rootcause.md. */
#ifndef TC_ANALYSIS_ROOTCAUSE_H
#define TC_ANALYSIS_ROOTCAUSE_H

#include "model.h"

struct tc_span;

enum tc_act_kind { TC_ACT_COMPUTE = 0, TC_ACT_MPI = 1 };
/* What ended an MPI call's wait: the edge of the happened-before graph. */
enum tc_wait_edge {
	TC_WE_NONE = 0,
	TC_WE_LATE_SENDER,    /* the latest send (enter of its call) among the messages it completes */
	TC_WE_LATE_RECEIVER,  /* the receive post of a message it sends (blocking send, Sendrecv's send
	                         half, a Wait completing a rendezvous Isend) */
	TC_WE_COLLECTIVE,     /* the last member's enter (N×N, barrier), the root (1-N), the latest
	                         non-root (N-1) */
	TC_WE_COUNT
};
extern const char *const tc_wait_edge_names[TC_WE_COUNT]; /* "none", "late_sender", ... */

/* One activity of a rank, unpacked (tc_rc_act): the analysis keeps the
 * activities in a compact form (struct tc_rootcause; docs/rootcause.md,
 * "Layout").  Activities of a rank are contiguous from its own span start to
 * its span end and in time order. */
struct tc_act {
	uint64_t start, end;  /* ticks */
	uint64_t ready;       /* MPI: when the partner was ready (start + wait); start when no wait */
	float excess;         /* s above the typical value of its context (compute: duration,
	                         MPI: own time): value − median when above the context's
	                         threshold, value − the cross-rank lower quartile for a rank
	                         persistently above it; 0 when typical */
	uint32_t call;        /* MPI: the outermost MPI call; compute: the MPI call that ends it, or
	                         TC_NONE at the rank's span end */
	uint32_t partner;     /* MPI with wait: the rank whose readiness ended it, else TC_NONE */
	uint32_t ctx;         /* context index (tc_rootcause.ctx) */
	uint8_t kind;         /* enum tc_act_kind (its context's) */
	uint8_t edge;         /* enum tc_wait_edge */
	uint8_t inter;        /* MPI: a message or collective member crosses compute nodes (its context's) */
	uint8_t outlier;      /* the excess is an outlier of its context (1), persistent for the rank (2),
	                         the delay before a wait in a context with no typical value (3) */
};

static inline double tc_act_wait(const struct tc_trace *t, const struct tc_act *a)
{
	return a->kind == TC_ACT_MPI ? tc_dur(t, a->ready - a->start) : 0;
}
static inline double tc_act_own(const struct tc_trace *t, const struct tc_act *a)
{
	return tc_dur(t, a->end - a->ready);
}

/* The ends of 64 consecutive activities: base + a 32-bit offset each, or
 * (when they span more than 2^32 ticks) 64 full ends at wide × 64 in end_wide. */
struct tc_rc_block { uint64_t base; uint32_t wide; };

/* What ended an MPI call's wait, for the few activities that have a partner
 * (tc_rootcause.waits). */
struct tc_rc_wait {
	uint64_t ready;       /* ticks: start < ready <= end, or ready = start = end */
	uint32_t partner;
	uint8_t edge;         /* enum tc_wait_edge */
};

/* A call-path context: what is compared with what.  Compute: (previous MPI
 * call and tag, user regions inside the gap, next MPI call and tag); MPI:
 * (region, message size bucket, intra/inter node). */
struct tc_rc_ctx {
	uint64_t key;
	uint64_t coarse;      /* compute: the same key without the tags (the back-off context) */
	uint64_t place;       /* compute: the same key without the user regions: the same place in
	                         the program, between the same calls with the same tags (backoff_place) */
	uint64_t work;        /* compute: the user regions inside the segment (their signature; 0:
	                         none), whatever calls are around it (backoff_work) */
	uint32_t n;           /* activities */
	uint32_t nranks;      /* distinct ranks with such an activity */
	uint32_t region;      /* compute: the next MPI call's region; MPI: the call's region */
	uint8_t kind;         /* enum tc_act_kind */
	uint8_t inter;        /* MPI */
	uint8_t size_bucket;  /* MPI: floor(log2(bytes + 1)) */
	uint8_t quiet;        /* MPI: 1 when its own time stepped up for a period of the run (an
	                         episode of background traffic longer than the rest): median and
	                         MAD are those of the quiet time bins (rcstats.c, context_quiet) */
	uint8_t typical;      /* it has a typical value: seen >= 3 times on >= 2 ranks (1), or a
	                         compute context that is not, whose coarse context is (2: median
	                         and MAD are the coarse context's), or else seen >= 3 times on one
	                         rank (3: that rank's own), or a minority variant of its place
	                         (4: median and MAD of the place's main context: rcexcess.c,
	                         backoff_place), or one seen >= 3 times whose user regions other
	                         typical contexts run too (5: their pooled median and MAD,
	                         backoff_work); 0: none (docs/rootcause.md §3) */
	double median, mad;   /* s, of the durations (compute) or own times (MPI) */
	double threshold;     /* s: median + max(k·MAD, frac·median, floor) */
	double full_median;   /* MPI point-to-point (blocking sends, receives, Waits): the median own
	                         time of its whole transfers (none of it hidden by the partner's
	                         lateness: a send whose receiver was ready, a receive whose sender
	                         came late), when that stands above median (a transfer slower than
	                         the context's usual call, rcexcess.c, hidden_transfer); else 0 */
	double full_threshold; /* s: the same bar over the whole transfers; 0 with full_median */
};

/* Critical path pieces. */
enum tc_cp_kind { TC_CP_COMPUTE = 0, TC_CP_WAIT, TC_CP_MPI_INTRA, TC_CP_MPI_INTER, TC_CP_NKINDS };
extern const char *const tc_cp_kind_names[TC_CP_NKINDS]; /* "compute", "wait", "mpi_own_intra", "mpi_own_inter" */
struct tc_cp_piece {
	uint64_t start, end;  /* ticks */
	uint32_t rank;
	uint32_t act;         /* activity index (tc_rc_act) */
	uint8_t kind;         /* enum tc_cp_kind */
	double excess;        /* s: the part of the activity's excess on this piece (≤ its length) */
};

struct tc_rc_opts {
	double mad_k;         /* outlier: above median + max(mad_k·MAD, ...) (5) */
	double median_frac;   /* ... frac·median (0.5) */
	double floor_min;     /* s: the noise floor at least (20e-6) */
	double floor_k;       /* the floor = floor_k × the pooled robust spread of compute (5) */
	double persist_frac;  /* persistent: a rank's median above the cross-rank lower quartile by
	                         this share of it (0.25) */
	double persist_z;     /* ... and by this many standard errors of its median, from the
	                         context's spread within runs (5; 0: not asked) */
	uint32_t sample_cap;  /* an MPI context seen more often is typed from a sample of about
	                         this many (65536; 0: never) */
};
void tc_rc_default_opts(struct tc_rc_opts *o);

/* The passes of tc_rootcause_compute, for the cost breakdown (bench/analysis). */
enum tc_rc_phase {
	TC_RCP_ACTIVITIES = 0, /* activities, their contexts and their wait/own split (with each rank's
	                          receives and its Isends completed in Waits) */
	TC_RCP_CONTEXTS,       /* grouping by context, medians, MADs, noise floor */
	TC_RCP_EXCESS,         /* outlier excess, stall counts, waiting per rank; persistent excess */
	TC_RCP_DELAY,          /* delay costs */
	TC_RCP_PATH,           /* critical path */
	TC_RCP_COUNT
};
extern const char *const tc_rc_phase_names[TC_RCP_COUNT];

struct tc_rootcause {
	struct tc_rc_opts opts;
	double phase_cpu[TC_RCP_COUNT];    /* s of process CPU time per pass */
	uint64_t phase_faults[TC_RCP_COUNT]; /* minor page faults per pass */
	uint64_t t0, t1;          /* the span (ticks) */
	uint32_t nranks;
	uint32_t *act_first;      /* nranks + 1 offsets into the activities */
	uint64_t *rank_t0;        /* nranks: the start of each rank's first activity */
	size_t nacts;
	/* the activities, one entry per activity in each array (docs/rootcause.md,
	 * "Layout"); read them through tc_rc_act and the inline helpers below.
	 * An activity starts where the previous one of its rank ends; its kind
	 * and inter are its context's. */
	uint32_t *end_off;        /* ticks: the end, above its block's base (tc_rc_act_end) */
	struct tc_rc_block *end_block; /* per 64 activities */
	uint64_t *end_wide;       /* the ends of the wide blocks, 64 per block */
	/* the context of each activity (index into ctx): 16 bits while the
	 * contexts fit (act_ctx16), else 32 (act_ctx32, act_ctx16 NULL): tc_rc_act_ctx */
	uint16_t *act_ctx16;
	uint32_t *act_ctx32;
	/* the MPI activities: bit i of mpi_bits says activity i is one, mpi_base
	 * as wait_base; mpi_call: their outermost MPI calls, in activity order (a
	 * compute segment's call is the next activity's: tc_rc_act_call) */
	uint64_t *mpi_bits;
	uint32_t *mpi_base;
	uint32_t *mpi_call;
	float *act_excess;        /* tc_act.excess */
	uint8_t *act_outlier;     /* tc_act.outlier */
	/* the MPI activities with a partner, in activity order: bit i of
	 * wait_bits says activity i has one, wait_base[i / 64] counts those before
	 * activity i & ~63 */
	uint64_t *wait_bits;
	uint32_t *wait_base;
	size_t nwaits;
	struct tc_rc_wait *waits;
	/* the activities with excess (act_excess != 0), in activity order, and
	 * their long-term delay cost (s of waiting elsewhere their excess caused) */
	size_t nexcess;
	uint32_t *ex_act;
	float *ex_delay;
	uint32_t nctx;
	struct tc_rc_ctx *ctx;
	double noise_floor;       /* s */
	double compute_spread;    /* s: pooled robust spread (1.4826 × median |x − context median|) */
	/* stalls: activities more than stall_min (max(noise floor, a tenth of the
	 * compute segment length that holds most compute time)) above their
	 * context's median, per kind: the same yardstick for compute and MPI */
	double stall_min;
	uint64_t n_compute, n_compute_stalls, n_mpi, n_mpi_stalls;
	uint32_t stall_ranks_compute, stall_ranks_mpi; /* distinct ranks with stalls */
	double compute_stall_height; /* s: the median height of the compute stalls above their context's median
	                                (how long the machine held a rank when it did) */
	double compute_stall_share; /* the share of compute stalls weighted by their contexts' typical length
	                               (the share of the typical compute time held; rcexcess.c) */
	double compute_stall_rate_q1; /* the lower quartile over ranks of each rank's compute stall rate:
	                                 machine noise stalls every rank, slow ranks or a ramp only some */
	uint32_t stall_pairs_mpi;  /* distinct (rank, partner-or-peer) pairs among MPI stalls */
	double typical_compute_s, typical_mpi_s; /* s: every activity's context median summed, by kind
	                                            (the time exposed to stalls at the typical pace) */
	/* critical path, in time order */
	size_t npath;
	struct tc_cp_piece *path;
	double path_len;           /* s */
	double share[TC_CP_NKINDS];/* of path_len */
	uint32_t path_end_rank;    /* the rank that reached Finalize last */
	/* per rank (nranks): excess on the path, long-term delay cost of its activities */
	double *path_compute_excess, *path_mpi_excess, *delay_cost, *wait_s;
	double total_wait;         /* s over all ranks */
	/* internal: scratch memory the passes share (tc_rc_scratch), so what one
	 * pass faulted in the next reuses; released at the end of the compute */
	void *scratch;
	size_t scratch_bytes;
	double unattributed;       /* s of waiting whose cause had no excess to blame */
};

/* Bit i of a bitmap with per-64 counts of the set bits before (base): how
 * many are set before it, TC_NONE when it is not set. */
static inline uint32_t tc_rc_bit_rank(const uint64_t *bits, const uint32_t *base, uint32_t i)
{
	uint64_t w = bits[i / 64], bit = (uint64_t)1 << (i % 64);
	if (!(w & bit)) return TC_NONE;
	return base[i / 64] + (uint32_t)__builtin_popcountll(w & (bit - 1));
}
/* A context's typical own time of a whole transfer: full_median where its
 * whole transfers are slower than its usual call, else its median. */
static inline double tc_rc_ctx_transfer(const struct tc_rc_ctx *C)
{
	return C->full_median > C->median ? C->full_median : C->median;
}

/* The wait record of activity i (index into rc->waits), TC_NONE when it has none. */
static inline uint32_t tc_rc_wait_of(const struct tc_rootcause *rc, uint32_t i)
{
	return tc_rc_bit_rank(rc->wait_bits, rc->wait_base, i);
}
/* Where activity i ends (ticks). */
static inline uint64_t tc_rc_act_end(const struct tc_rootcause *rc, uint32_t i)
{
	const struct tc_rc_block *b = &rc->end_block[i / 64];
	return b->wide == TC_NONE ? b->base + rc->end_off[i] : rc->end_wide[(size_t)b->wide * 64 + i % 64];
}
/* Activity i of rank r: where it starts (where the previous one ends). */
static inline uint64_t tc_rc_act_start(const struct tc_rootcause *rc, uint32_t r, uint32_t i)
{
	return i > rc->act_first[r] ? tc_rc_act_end(rc, i - 1) : rc->rank_t0[r];
}
static inline uint32_t tc_rc_act_ctx(const struct tc_rootcause *rc, uint32_t i)
{
	return rc->act_ctx16 ? rc->act_ctx16[i] : rc->act_ctx32[i];
}
static inline uint8_t tc_rc_act_kind(const struct tc_rootcause *rc, uint32_t i)
{
	return rc->mpi_bits[i / 64] >> (i % 64) & 1 ? TC_ACT_MPI : TC_ACT_COMPUTE;
}
/* tc_act.call of activity i of rank r: an MPI call's own, a compute
 * segment's next activity's (the call that ends it), TC_NONE at the span end. */
static inline uint32_t tc_rc_act_call(const struct tc_rootcause *rc, uint32_t r, uint32_t i)
{
	uint32_t j = tc_rc_act_kind(rc, i) == TC_ACT_MPI ? i : i + 1;
	uint32_t k = j < rc->act_first[r + 1] ? tc_rc_bit_rank(rc->mpi_bits, rc->mpi_base, j) : TC_NONE;
	return k == TC_NONE ? TC_NONE : rc->mpi_call[k];
}
/* Activity i of rank r unpacked. */
struct tc_act tc_rc_act(const struct tc_rootcause *rc, uint32_t r, uint32_t i);
/* The delay cost of activity i (0 without excess).  O(log activities with excess). */
double tc_rc_act_delay_cost(const struct tc_rootcause *rc, uint32_t i);

/* sp: the span to work in (NULL: the whole trace).  o NULL: defaults. */
struct tc_rootcause *tc_rootcause_compute(const struct tc_trace *t, const struct tc_span *sp,
					  const struct tc_rc_opts *o);
void tc_rootcause_free(struct tc_rootcause *rc);
/* Index of the activity of rank containing time t (start < t ≤ end, or the
 * first one when t ≤ its start), TC_NONE when the rank has none.  O(log n). */
uint32_t tc_rc_act_at(const struct tc_rootcause *rc, uint32_t rank, uint64_t t);
/* The activity of rank holding the moment just before t (the last one that
 * starts before t), TC_NONE when none does.  O(log n). */
uint32_t tc_rc_act_before(const struct tc_rootcause *rc, uint32_t rank, uint64_t t);
/* The same searched from *hint (an earlier answer on that rank; updated):
 * O(log distance) when the times of successive lookups grow. */
uint32_t tc_rc_act_at_hint(const struct tc_rootcause *rc, uint32_t rank, uint64_t t, uint32_t *hint);
uint32_t tc_rc_act_before_hint(const struct tc_rootcause *rc, uint32_t rank, uint64_t t, uint32_t *hint);
/* The rank an activity belongs to (O(log ranks)). */
uint32_t tc_rc_rank_of(const struct tc_rootcause *rc, uint32_t act);

/* Root causes: activities with excess, ranked by delay cost + excess on the
 * path (largest first).  Writes at most k activity indices to out, returns
 * how many. */
struct tc_rc_origin { uint32_t act, rank; double score, excess, delay_cost, on_path; };
size_t tc_rc_origins(const struct tc_rootcause *rc, size_t k, struct tc_rc_origin *out);

/* Big zeroed arrays of the analysis (huge-page hinted mappings; rootcause.c):
 * the activities and the per-activity scratch.  Free with tc_rc_big_free. */
void *tc_rc_big(size_t bytes);
void tc_rc_big_free(void *p);
/* rc's scratch of at least bytes (contents undefined; valid until the next
 * call); tc_rc_scratch(rc, 0) releases it. */
void *tc_rc_scratch(struct tc_rootcause *rc, size_t bytes);

/* What tc_rootcause_compute computes after the activity pass, apart from
 * the activities themselves: the typed contexts, the run-level figures, the
 * per-rank sums, the activities with excess (in the serial numbering, in
 * order; excess, kind of excess, delay cost) and the critical path.  A cache
 * stores it (docs/cache.md, "The root causes"), serially or from
 * tracecomb-mpi's replay; the opener makes the activities again and puts
 * these in (tc_rootcause_from), without the contexts' statistics, the
 * excess, delay-cost and path passes. */
/* The run-level figures of a result (tc_rootcause's fields of the same
 * names), 8 bytes each: no padding, so that a cache stores the struct. */
struct tc_rc_figures {
	double noise_floor, compute_spread, stall_min;
	uint64_t n_compute, n_compute_stalls, n_mpi, n_mpi_stalls;
	uint64_t stall_ranks_compute, stall_ranks_mpi, stall_pairs_mpi, path_end_rank;
	double compute_stall_height, compute_stall_share, compute_stall_rate_q1;
	double typical_compute_s, typical_mpi_s, total_wait, unattributed, path_len;
	double share[TC_CP_NKINDS];
};
void tc_rc_figures_get(const struct tc_rootcause *rc, struct tc_rc_figures *f);
void tc_rc_figures_put(struct tc_rootcause *rc, const struct tc_rc_figures *f);
struct tc_rc_results {
	uint32_t nranks, nctx;
	size_t nexcess, npath;
	struct tc_rc_ctx *ctx;                 /* nctx */
	struct tc_rc_figures fig;
	double *wait_s, *delay_cost, *path_compute_excess, *path_mpi_excess;   /* nranks each */
	uint32_t *ex_act;                      /* nexcess, increasing */
	float *ex_excess, *ex_delay;           /* nexcess */
	uint8_t *ex_outlier;                   /* nexcess */
	struct tc_cp_piece *path;              /* npath, time order */
};
/* From a computed result (every array a copy). */
struct tc_rc_results *tc_rc_results_of(const struct tc_rootcause *rc);
void tc_rc_results_free(struct tc_rc_results *x);
/* The activity pass over t within sp with options o, then x put in: equal to
 * tc_rootcause_compute's result when x was made from it (for the same
 * model, span and options).  NULL when x does not fit the activities (its
 * contexts, ranks or activity indices: another model). */
struct tc_rootcause *tc_rootcause_from(const struct tc_trace *t, const struct tc_span *sp, const struct tc_rc_opts *o,
				       const struct tc_rc_results *x);

/* internal passes (separate files), exposed for the unit tests */
void tc_rc_critical_path(const struct tc_trace *t, struct tc_rootcause *rc);
void tc_rc_delay_costs(const struct tc_trace *t, struct tc_rootcause *rc);
/* contexts and excess (rcexcess.c); scale: the compute scale of the stalls */
void tc_rc_excess(const struct tc_trace *t, struct tc_rootcause *rc, double scale, struct tc_usage *mark);
/* whether m values in time order (one rank's run of a compute context) rise
 * or fall steadily: the workload changing, not the machine (rcexcess.c,
 * docs/rootcause.md §3 "Trends") */
bool tc_rc_trends(const double *x, uint32_t m);
/* charges the CPU time and faults since *mark to phase p; *mark = now */
void tc_rc_phase_done(struct tc_rootcause *rc, enum tc_rc_phase p, struct tc_usage *mark);

#endif
