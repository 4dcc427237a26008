/* analysis_verdict.h — why communication is slow: the dependency DAG of a
 * region and time window (PCLVis §5.2–5.3, Algorithm 2), communication load
 * balance (Eq. 9–10), and attribution verdicts (§6: A1 mapping, A2 pattern,
 * A3 background traffic) joined with logical time (compute imbalance from
 * differential lateness and wait-state delay costs), each with a confidence,
 * the blamed ranks, the numbers behind it and the advice (O1–O3).  Pure
 * functions over the model and the other analyses (no curses).  Thresholds
 * and reasoning: docs/verdicts.md. */
#ifndef TC_ANALYSIS_VERDICT_H
#define TC_ANALYSIS_VERDICT_H

#include "model.h"

struct tc_latency;
struct tc_waitstates;
struct tc_steps;
struct tc_remap;
struct tc_rootcause;

/* --- load balance (Eq. 9–10) ------------------------------------------------
 * c[0..n): load of each process (messages sent + received, or bytes).
 * AD = Σ|c_i − mean| / n;  lb[i] = |c_i − mean| / AD  (all 0 when AD = 0).
 * Returns AD; *mean (may be NULL) receives the mean. */
double tc_load_balance(const double *c, uint32_t n, double *lb, double *mean);

/* --- background traffic: dispersion against the quiet windows --------------
 * level[w]: per window the mean normalised transfer time (transfer / the
 * criterion of its size and class) of the inter-node messages; n[w] their
 * count.  Windows with n[w] < min_n take no part.  The quiet reference is the
 * lower quartile q of the levels; the quiet spread s is the median absolute
 * deviation (×1.4826) of the levels at or below the median around q, floored
 * at 5 % of q.  score[w] = (level[w] − q) / s; a window is disturbed when
 * level[w] ≥ factor · q and score[w] ≥ zmin.  Returns the number of disturbed
 * windows; score[] and disturbed[] get nwin entries (score NaN when not
 * counted); *quiet and *spread (may be NULL) receive q and s. */
uint32_t tc_dispersion(const double *level, const uint32_t *n, uint32_t nwin, uint32_t min_n, double factor,
		       double zmin, double *score, bool *disturbed, double *quiet, double *spread);

/* --- dependency DAG (§5.2–5.3, Algorithm 2) -----------------------------------
 * The messages with both ends in a rank set whose receive completes in
 * [t0, t1).  Their send and receive events are put in a linear extension of
 * happened-before (Lamport clocks over program order and messages; ties by
 * physical time), then Algorithm 2 groups each rank's consecutive events into
 * nodes: receives open a node (or join the rank's newest node while it has no
 * send), sends join the rank's newest node; an edge goes from the node holding
 * a send to the node holding its receive.  level = longest path from a source
 * over edges and program order (previous node of the same rank). */
struct tc_dag_node {
	uint32_t rank;
	uint32_t level;          /* 0 = source */
	uint32_t prev;           /* previous node of the same rank, TC_NONE if first */
	uint32_t nrecv, nsend;   /* receive / send events in it */
	uint64_t bytes_in, bytes_out;
	uint64_t first, last;    /* ticks: earliest and latest event */
	uint32_t first_in, nin;  /* incoming edges: in_edges[first_in .. +nin) */
	uint32_t first_out, nout;/* outgoing edges: out_edges[first_out .. +nout) */
	double max_l;            /* largest L of its incoming messages (NaN if none) */
};
struct tc_dag_edge {
	uint32_t msg;            /* index into trace->msgs */
	uint32_t from, to;       /* nodes */
	uint64_t bytes;
	double transfer;         /* s */
	double l;                /* message latency L */
	bool inter;              /* crosses compute nodes */
};
/* Per-rank communication state of the window (the CS-glyph row). */
struct tc_dag_rank {
	uint32_t rank, node;     /* node = compute node index */
	double lb, lb_bytes;     /* Eq. 10 over the ranks of the set, messages / bytes */
	uint32_t msgs_in, msgs_out;
	uint64_t bytes_in, bytes_out;
	double transfer_in, transfer_out; /* mean transfer time s (NaN if none) */
	double mean_l;           /* mean L of its messages in and out (NaN if none) */
	double node_l;           /* mean L of the window's messages touching its compute node (NaN) */
	uint32_t inter;          /* of its messages, how many cross nodes */
};
struct tc_dag {
	uint64_t t0, t1;         /* window, ticks */
	uint32_t region;         /* region id it was built for, TC_NONE for an explicit rank set */
	uint32_t nmsgs;          /* messages selected (edges) */
	uint32_t nmsgs_window;   /* messages of the set in the window before max_msgs */
	bool truncated;          /* nmsgs < nmsgs_window */
	uint32_t nnodes, nedges, nlevels;
	struct tc_dag_node *nodes;   /* in creation (Algorithm 2) order */
	struct tc_dag_edge *edges;   /* in receive order */
	uint32_t *in_edges, *out_edges; /* edge indices per node, see tc_dag_node */
	uint32_t nranks;
	struct tc_dag_rank *ranks;   /* sorted by rank */
	double mean_l;           /* over the edges, NaN if none */
};
/* ranks sorted ascending (NULL with nranks = 0: all ranks); max_msgs = 0:
 * no limit, else the first max_msgs messages by receive completion.  lat gives
 * transfer times and L (computed with the same trace). */
struct tc_dag *tc_dag_build(const struct tc_trace *t, const struct tc_latency *lat, const uint32_t *ranks,
			    uint32_t nranks, uint64_t t0, uint64_t t1, uint32_t max_msgs);
/* The DAG of a latency region (TC_NONE: all ranks) in latency window w
 * (TC_NONE: the whole run); d->region is set. */
struct tc_dag *tc_dag_region(const struct tc_trace *t, const struct tc_latency *lat, uint32_t region, uint32_t w,
			     uint32_t max_msgs);
void tc_dag_free(struct tc_dag *d);

/* --- verdicts -------------------------------------------------------------- */
enum tc_cause { TC_CAUSE_NONE = 0, TC_CAUSE_MAPPING, TC_CAUSE_PATTERN, TC_CAUSE_IMBALANCE, TC_CAUSE_BACKGROUND,
		TC_CAUSE_NOISE, TC_CAUSE_COUNT };
extern const char *const tc_cause_names[TC_CAUSE_COUNT]; /* "none", "mapping", "pattern", "imbalance", "background", "noise" */

struct tc_verdict_opts {
	double min_confidence;     /* verdicts below are dropped (default 0.45) */
	/* A1 mapping */
	double map_cut;            /* remap must cut inter-node messages by this share (0.2) */
	double map_excess;         /* ... and the cut be this share of all messages (0.05) */
	double map_cost;           /* inter-node transfers at least this × intra of equal size (1.2) */
	/* A2 pattern */
	double pat_ratio;          /* busiest rank's messages / mean (2) */
	double pat_lb;             /* LB (Eq. 10) of a hot spot at least (3) */
	double pat_hot_share;      /* hot spots at most this share of the ranks (0.25) */
	/* imbalance */
	double imb_share;          /* own (differential) lateness above the typical rank (lower
	                              quartile), share of the run's span (0.01) */
	double imb_factor;         /* ... and at least this × the typical rank's (3) */
	/* A3 background */
	double bg_factor;          /* disturbed window: inter-node level ≥ this × quiet (2) */
	double bg_z;               /* and this many quiet spreads above it (3) */
	uint32_t bg_min_msgs;      /* windows with fewer inter-node messages do not count (8) */
	uint32_t max_steps;        /* steps listed per blamed rank (5) */
	/* claims from the critical path (docs/verdicts.md) */
	double path_full;          /* share of the critical path that gives a claim full weight (0.15) */
	double imb_concentration;  /* blamed ranks hold at least this share of the path's compute excess (0.7) */
	double imb_max_ranks;      /* ... and are at most this share of the ranks (1/3; else it is spread: noise) */
	double imb_standout;       /* ... and stand out from every other rank's compute excess (largest
	                              single, or summed) by at least this factor (2; full weight at
	                              2·this − 1 = 3) */
	double imb_min_s;          /* ... and hold at least this much excess (s) for full weight, linear
	                              below (1e-3: one scheduler slice; less can be a single preemption or
	                              a first touch of memory, which no run of a few ms tells from work) */
	double bg_stall_ratio;     /* MPI stall rate ≥ this × compute stall rate counts fully as background,
	                              ≤ 4/7 of it not at all (noise) (7) */
	double noise_rank_share;   /* noise: stalls on at least this share of the ranks (0.5) */
	double busy_lo, busy_hi;   /* the machine counts as busy by the compute stall rate: not at all at
	                              ≤ busy_lo (0.02), fully at ≥ busy_hi (0.04), linear between; noise is
	                              claimed in proportion, background in the complement */
	double held_lo, held_hi;   /* ... or by the share of the typical compute time that stalled (compute
	                              segments weighted by their context's median length): not at all at ≤
	                              held_lo (0.05), fully at ≥ held_hi (0.08); for background and noise */
};
void tc_verdict_default_opts(struct tc_verdict_opts *o);

#define TC_VERDICT_MAX_EVIDENCE 24
struct tc_evidence { const char *key; double value; };

/* A step where a blamed rank's own computation made it late. */
struct tc_blame_step { uint32_t rank, step; double seconds; double at; /* s from trace start */ };

struct tc_verdict {
	uint8_t cause;            /* enum tc_cause */
	uint32_t scope;           /* TC_NONE = the whole run, else a region id */
	bool windowed;            /* false: the whole run */
	uint32_t win_first, win_last;   /* latency windows, inclusive (when windowed) */
	double start, end;        /* seconds from the trace start (when windowed) */
	double confidence;        /* 0..1 */
	uint32_t nranks;
	uint32_t *ranks;          /* blamed, sorted */
	uint32_t nev;
	struct tc_evidence ev[TC_VERDICT_MAX_EVIDENCE];
	uint32_t nsteps;
	struct tc_blame_step *steps; /* imbalance: the worst steps of the blamed ranks */
	char *summary;            /* one line: what and why */
	char *advice;             /* O1 / O2 / O3 / rebalance */
	double rank_key;          /* the ranking key (verdict.c, rank_keys); not reported */
};

/* Per time window (the latency windows): the attribution panels (messages
 * inside the scope: the run, or a region). */
struct tc_verdict_win {
	/* mapping */
	uint32_t msgs, inter;
	uint64_t bytes, bytes_inter;
	/* pattern */
	double lb_max;            /* largest LB (messages) */
	double ad_rel;            /* AD / mean: relative deviation of the per-rank message counts */
	double max_mean;          /* busiest rank's count / mean */
	uint32_t busiest;         /* rank, TC_NONE if no messages */
	/* background */
	uint32_t n_bg;            /* inter-node messages with a latency */
	double bg_level;          /* their mean L (NaN if none) */
	double bg_cv;             /* coefficient of variation of their L (NaN if < 2) */
	double bg_score;          /* (level − quiet) / spread, NaN when not counted */
	bool disturbed;
};

/* Per rank over the whole run. */
struct tc_verdict_rank {
	uint32_t msgs_in, msgs_out;
	uint64_t bytes_in, bytes_out;
	double lb, lb_bytes;
	double mean_l;            /* NaN if no messages */
	double own_late;          /* s: Σ over its computation blocks of the differential lateness
	                             beyond the median of the events at the same step (≥ 0) */
	double caused;            /* s: waiting it caused (short-term delay cost) */
	double waited;            /* s: waiting it suffered (all wait states) */
	double delay_cost;        /* s: long-term delay cost of its excess (root-cause analysis) */
	double path_compute_excess; /* s: its compute excess on the critical path */
	double path_mpi_excess;   /* s: its own-MPI excess on the critical path */
	uint32_t partners;        /* distinct ranks it exchanges messages with */
};

struct tc_verdicts {
	struct tc_verdict_opts opts;
	uint32_t n;
	struct tc_verdict *v;     /* ranked by the share of the critical path explained (noise counts
	                             half), then confidence; a single "none" when no cause */
	uint32_t nwindows;
	struct tc_verdict_win *win;
	uint32_t nranks;
	struct tc_verdict_rank *rank;
	/* run-wide numbers */
	double span;              /* s: analysed span of the run */
	uint64_t msgs, inter, bytes, bytes_inter;
	double inter_cost;        /* median over sizes of inter / intra criterion (NaN if one class) */
	double high_inter_share;  /* share of the messages slower than 2× the intra-node criterion of
	                             their size that cross nodes (NaN if none) */
	double high_l_inter_share;/* share of the high-latency messages (L ≥ high_l, relative to their
	                             own class) that cross nodes (NaN if none) */
	double bg_quiet, bg_spread;
	double own_late_median;   /* s: median over ranks of own_late */
	double own_late_ref;      /* s: the lower quartile, the typical rank imbalance is measured against */
	double waiting;           /* s: all wait states */
	/* the critical path (NaN / 0 without the root-cause analysis) */
	double path_len;          /* s */
	double path_share[4];     /* compute, wait, mpi_own_intra, mpi_own_inter */
	double path_imbalance, path_mapping, path_background, path_noise; /* s of the path each explains */
	double mpi_stall_rate, compute_stall_rate;
	/* remap (O1) */
	uint64_t remap_msgs_before, remap_msgs_after, remap_bytes_before, remap_bytes_after;
	uint32_t remap_moved;
	bool remap_improved;
	/* the most latent region and window (for the DAG) */
	uint32_t hot_region, hot_window;   /* TC_NONE when no region of ≥ 2 ranks has a window
	                                      with ≥ 4 inside messages */
};

/* The per-window panels of one region (TC_NONE: all messages), W = lat->nwindows
 * entries into out; o NULL: defaults.  For a view that follows the selected region. */
void tc_verdict_windows(const struct tc_trace *t, const struct tc_latency *lat, uint32_t region,
			const struct tc_verdict_opts *o, struct tc_verdict_win *out);

/* rc: the root-cause analysis (critical path, excess, delay costs); NULL: no
 * imbalance, background, noise or mapping claim (they rest on the path).
 * steps may be NULL (no logical steps named then; the verdicts themselves never
 * depend on them); ws may be NULL; remap may be NULL (no mapping verdict: the
 * remap's cut is its main evidence).  o NULL: defaults. */
struct tc_verdicts *tc_verdicts_compute(const struct tc_trace *t, const struct tc_latency *lat,
					const struct tc_steps *steps, const struct tc_waitstates *ws,
					const struct tc_remap *remap, const struct tc_rootcause *rc,
					const struct tc_verdict_opts *o);
void tc_verdicts_free(struct tc_verdicts *v);
/* The evidence value named key, NaN if absent. */
double tc_verdict_ev(const struct tc_verdict *v, const char *key);

#endif
