/* analysis_latency.h — PCLVis communication regions, message latency and its
 * evolution over time (paper §4.1, §4.2, §5.1).  Pure functions over the
 * model (no curses).  Definitions, choices and costs: docs/latency.md.
 *
 *  - transfer time of a message: receive completion − max(send start,
 *    receive posted); the raw completion − send start on demand (tc_lat_raw);
 *  - latency criteria: per message-size bucket and per class (intra / inter
 *    node), the median transfer time; thin buckets interpolate;
 *  - L = transfer / criterion (delayed when L > 1); region latency RL = mean L
 *    of the messages inside the region;
 *  - regions: process correlation (depth-bounded correlation tree), row-
 *    normalised transition probabilities, damped first-passage path sums
 *    solved per rank in its correlation neighbourhood, symmetrised
 *    free-energy distance, single-linkage agglomeration up to a threshold;
 *  - evolution: the run in equal time windows; per region and window the
 *    mean L, delayed and high-latency counts; growth and steady-high periods,
 *    the rest compressed to start / mid / end. */
#ifndef TC_ANALYSIS_LATENCY_H
#define TC_ANALYSIS_LATENCY_H

#include "model.h"

enum tc_lat_class { TC_LAT_INTRA = 0, TC_LAT_INTER = 1, TC_LAT_NCLASS = 2 };
enum tc_lat_buckets { TC_LAT_BUCKETS_LOG2 = 0, TC_LAT_BUCKETS_LINEAR = 1 };
enum tc_lat_weight { TC_LAT_W_MESSAGES = 0, TC_LAT_W_BYTES = 1, TC_LAT_W_BINARY = 2 };

struct tc_latency_opts {
	/* criteria (§4.1) */
	enum tc_lat_buckets buckets;   /* LOG2 (default): [2^(k-1), 2^k) bytes; LINEAR: fixed width */
	uint64_t bucket_bytes;         /* LINEAR width in bytes (paper: 50) */
	uint32_t min_count;            /* buckets with fewer messages interpolate (default 5) */
	double high_l;                 /* L at or above which a message is "high latency" (default 2) */
	/* regions (§4.2) */
	double threshold;              /* stop merging above this distance (paper: 2) */
	double margin;                 /* the threshold rises to (median nearest-partner distance
	                                  + margin) when that is higher; < 0: fixed (default 0.5) */
	double damping;                /* α in (0,1): weight per step of a path (default 0.8) */
	uint32_t depth;                /* correlation tree depth bound, 1..3 (default 3) */
	bool balanced;                 /* depth layers weigh 1, 1/4, 1/9 in total (default true) */
	enum tc_lat_weight weight;     /* edge weight of the communication graph (default messages) */
	uint32_t ball_max;             /* largest neighbourhood solved per rank; R keeps its
	                                  ball_max − 1 strongest correlations per row (default 64) */
	double tol;                    /* convergence of the neighbourhood solves (default 1e-10) */
	/* evolution (§5.1) */
	uint32_t windows;              /* time windows; 0 = adapt to the trace (default) */
	uint64_t win_t0, win_t1;       /* ticks the windows cover (the application span, analysis_span.h);
					* win_t1 <= win_t0: the whole trace (default) */
	double steady_level;           /* window mean L counted as high (default 1.2) */
	uint32_t steady_min;           /* windows a steady-high period lasts at least (default 3) */
	double growth_min;             /* rise of mean L a growth period needs at least (default 0.2) */
	int threads;                   /* threads of the distance solves; 0 = number of CPUs */
};
void tc_latency_default_opts(struct tc_latency_opts *o);

/* One size bucket of one class. */
struct tc_lat_bucket {
	uint64_t lo, hi;       /* message sizes in bytes, inclusive */
	uint32_t count;        /* messages in it */
	double median;         /* median transfer time of those (s); NaN when count == 0 */
	double criterion;      /* the value used (s): the median, or interpolated when count < min_count */
	bool interpolated;
};

/* Message statistics of one region (or of all messages) in one time window. */
struct tc_lat_win {
	uint32_t n;            /* messages (completed in the window) */
	uint32_t n_inter;      /* of which inter-node */
	uint32_t delayed;      /* L > 1 */
	uint32_t high;         /* L >= high_l */
	double mean_l;         /* NaN when n == 0 */
	double max_l;
	double mean_transfer;  /* s; NaN when n == 0 */
};

enum tc_period_kind { TC_PERIOD_OTHER = 0, TC_PERIOD_GROWTH, TC_PERIOD_STEADY_HIGH };
extern const char *const tc_period_kind_names[3]; /* "other", "growth", "steady_high" */

/* A span of consecutive windows of the abstraction.  "other" periods keep
 * only three windows: keep[0] start, keep[1] mid, keep[2] end (the first,
 * middle-most and last windows with messages; first, mid, last if none). */
struct tc_period {
	uint8_t kind;          /* enum tc_period_kind */
	uint32_t first, last;  /* windows, inclusive */
	double mean_l;         /* over the messages of the span; NaN if none */
	uint32_t keep[3];
};

struct tc_lat_region {
	uint32_t nranks;
	uint32_t *ranks;             /* sorted */
	uint32_t nnodes;             /* distinct nodes spanned */
	uint64_t messages_inside;    /* both ends in the region */
	uint64_t messages_crossing;  /* one end in the region */
	uint64_t inter_inside;       /* inside and inter-node */
	uint64_t delayed;            /* inside messages with L > 1 */
	uint64_t high;               /* inside messages with L >= high_l */
	double rl;                   /* mean L of the inside messages (Eq. 2); NaN if none */
	double rl_touching;          /* mean L of inside + crossing messages; NaN if none */
	double max_merge;            /* largest distance merged inside the region (0 for one rank) */
	/* evolution */
	struct tc_lat_win *win;      /* nwindows entries, inside messages */
	uint32_t nperiods;
	struct tc_period *periods;   /* cover all windows in order */
};

struct tc_latency {
	struct tc_latency_opts opts;
	const struct tc_trace *t;

	/* per message (index into t->msgs) */
	double *transfer;       /* s: recv_time − max(send_time, post_time), ≥ 0 */
	double *l;              /* transfer / criterion */
	uint32_t *bucket;       /* index into criteria[class] */
	uint8_t *cls;           /* enum tc_lat_class */
	uint32_t *window;       /* window of its receive completion */

	/* criteria */
	uint32_t nbuckets[TC_LAT_NCLASS];
	struct tc_lat_bucket *criteria[TC_LAT_NCLASS];   /* by increasing size */
	uint64_t delayed, high; /* messages over all */
	double mean_l;          /* over all messages; NaN if none */

	/* regions: sorted by their smallest rank; region id = index */
	uint32_t nregions;
	struct tc_lat_region *regions;
	uint32_t *rank_region;  /* nranks entries */
	uint32_t depth_used;    /* correlation depth bound after the work limit (docs/latency.md) */
	double threshold_used;  /* max(threshold, median nearest distance + margin) */
	double nearest_median;  /* median over ranks with a partner of the nearest distance; NaN if none */
	size_t npairs;          /* candidate pairs whose distance was computed */
	double regions_seconds; /* wall time of the region computation */

	/* evolution */
	uint32_t nwindows;
	uint64_t win_t0, win_dt;              /* window w = [t0 + w·dt, t0 + (w+1)·dt) in ticks */
	struct tc_lat_win *win_all;           /* nwindows: all messages */
	struct tc_lat_win *win_class;         /* nwindows × 2: [w·2 + class] */
	uint32_t nperiods_all;
	struct tc_period *periods_all;        /* abstraction over all messages */
};

struct tc_latency *tc_latency_compute(const struct tc_trace *t, const struct tc_latency_opts *o);
void tc_latency_free(struct tc_latency *lat);

/* Window bounds in ticks. */
static inline uint64_t tc_lat_win_start(const struct tc_latency *lat, uint32_t w)
{
	return lat->win_t0 + (uint64_t)w * lat->win_dt;
}
static inline uint64_t tc_lat_win_end(const struct tc_latency *lat, uint32_t w)
{
	return lat->win_t0 + (uint64_t)(w + 1) * lat->win_dt;
}
/* Criterion (s) for a message size and class (what L divides by); a class
 * without messages borrows the other's; NaN when there are no messages. */
double tc_lat_criterion(const struct tc_latency *lat, enum tc_lat_class c, uint64_t bytes);
/* Message i's raw latency, s: recv_time − send_time (< 0 on bad clocks).
 * Computed when asked (the report's few top messages) rather than kept for
 * every message. */
double tc_lat_raw(const struct tc_latency *lat, size_t i);

/* --- building blocks, public for tests and the next analyses --------------- */

/* Sparse symmetric-pattern matrix in CSR with sorted columns. */
struct tc_sparse {
	uint32_t n;
	uint32_t *row;   /* n + 1 offsets */
	uint32_t *col;
	double *val;
};
void tc_sparse_free(struct tc_sparse *m);
/* The value at (i, j), 0 when absent.  O(log row length). */
double tc_sparse_get(const struct tc_sparse *m, uint32_t i, uint32_t j);

/* Undirected weighted communication graph from the messages (weights summed
 * over both directions, scaled so the largest is 1; BINARY: all 1). */
void tc_comm_graph(const struct tc_trace *t, enum tc_lat_weight w, struct tc_sparse *g);
/* Same from an edge list (a[i]–b[i] with weight w[i]; duplicates add up),
 * without scaling. */
void tc_graph_from_edges(uint32_t n, size_t nedges, const uint32_t *a, const uint32_t *b,
			 const double *w, struct tc_sparse *g);
/* Process correlation R (Eq. 3): R(p,q) = Σ over nodes v of p's correlation
 * tree with pid q of 1/depth², depth ≤ depth (1..3); with weights, a node
 * counts the product of the edge weights on its path.  balanced: the depth
 * layers of p's tree are scaled so that layer d weighs 1/d² of layer 1 in
 * total (the paper's R when false; see docs/latency.md).  keep > 0: each row
 * keeps its `keep` largest values (ties: lower columns), plus the mirror of
 * every entry kept in another row, so the pattern stays symmetric. */
void tc_process_correlation(const struct tc_sparse *g, uint32_t depth, bool balanced, uint32_t keep,
			    struct tc_sparse *r);

/* Symmetrised free-energy distance of a candidate pair. */
struct tc_fe_pair { uint32_t p, q; double d; };
/* Distances for every pair (p, q), p < q, with q in p's correlation
 * neighbourhood (the nonzeros of R, at most ball_max per rank), using
 * damping, ball_max, tol and threads from o.  Returns the count. */
size_t tc_free_energy(const struct tc_sparse *r, const struct tc_latency_opts *o, struct tc_fe_pair **pairs);
/* Single linkage over the pairs up to threshold: region id per rank (regions
 * numbered by their smallest rank), returns the number of regions.
 * merge_max[region] (may be NULL) receives the largest merged distance. */
uint32_t tc_single_linkage(uint32_t n, const struct tc_fe_pair *pairs, size_t npairs, double threshold,
			   uint32_t *region_of, double **merge_max);

/* Periods of a series of windows (growth, steady high, other), using
 * steady_level, steady_min and growth_min from o.  Empty windows (n == 0)
 * continue the period around them.  Returns the count; *out is malloc'd. */
uint32_t tc_lat_periods(const struct tc_lat_win *w, uint32_t nwin, const struct tc_latency_opts *o,
			struct tc_period **out);

#endif
