/* analysis_cluster.h — per-phase process clustering (Ravel §3.3, §4.2):
 * one metric vector per rank over the logical steps of a partition, CLARA
 * (sampled k-medoids) for many ranks, single linkage over its clusters (or
 * directly over the ranks of small phases), a dendrogram the user opens and
 * closes, per-cluster step glyphs, focus ranks and exchange detection.
 * Pure analysis over struct tc_steps (no curses).  See docs/clusters.md. */
#ifndef TC_ANALYSIS_CLUSTER_H
#define TC_ANALYSIS_CLUSTER_H

#include "analysis_steps.h"

struct tc_cluster_opts {
	enum tc_metric metric;  /* the clustered metric (TC_M_LATENESS) */
	uint64_t seed;          /* CLARA sampling seed (TC_CLUSTER_SEED) */
	uint32_t k;             /* CLARA medoids (20) */
	uint32_t direct_max;    /* phases with at most this many ranks skip CLARA (512) */
	uint32_t samples;       /* CLARA samples (5) */
	uint32_t sample_size;   /* ranks per CLARA sample; 0 = 40 + 2k */
	uint32_t max_default;   /* most clusters the default cut shows (8) */
	uint32_t radius;        /* focus neighbourhood in message hops (1) */
	uint32_t focus_max;     /* most focus ranks (32) */
	uint32_t dense_max;     /* phases whose ranks all have their events at the same
				 * ≤ dense_max steps compute distances where needed, the
				 * others keep a distance matrix (8; 0: always a matrix).
				 * Speed only: the results are the same. */
	double min_sep;         /* the default cut never splits clusters closer than
				 * this fraction of the phase's duration (0.001) */
};
#define TC_CLUSTER_SEED 0x5eedULL
void tc_cluster_default_opts(struct tc_cluster_opts *o);

/* A dendrogram node.  Nodes 0..nleaves-1 are the leaves (CLARA clusters, or
 * single ranks in small phases); internal nodes follow in merge order, so a
 * parent always has a larger index than its children and the root is last. */
struct tc_cnode {
	uint32_t child[2];      /* TC_NONE for a leaf; child[0] holds the lower first rank */
	uint32_t parent;        /* TC_NONE for the root */
	double height;          /* merge distance (mean squared difference); 0 for a leaf */
	uint32_t first, size;   /* members: phase->members[first .. first+size) */
	uint32_t medoid;        /* representative rank (see docs/clusters.md) */
	uint32_t max_rank;      /* member with the largest metric value in the phase */
	double mean, max;       /* metric over the members' events in the phase */
	bool open;              /* internal node shown as its two children */
};

enum tc_exchange {
	TC_EX_NONE,             /* not an exchange */
	TC_EX_UNKNOWN,          /* exchange, flavour not recognised */
	TC_EX_ALTERNATING,      /* send, receive, send, receive (or Sendrecv) */
	TC_EX_SENDS_RECVS,      /* all sends, then the receives one by one */
	TC_EX_WAITALL,          /* receives posted, sends, then one Wait* completes all receives */
	TC_EX_COUNT
};
extern const char *const tc_exchange_names[TC_EX_COUNT];
/* "none", "exchange", "exchange_alternating", "exchange_sends_receives", "exchange_waitall" */

struct tc_phase_clusters {
	uint32_t partition;
	uint32_t first_step, last_step;  /* even steps of the phase's first and last events */
	uint32_t nranks;                 /* ranks with an event in the phase */
	uint32_t *members;               /* nranks ranks; a node's members are contiguous */
	uint32_t nleaves, nnodes, root;
	struct tc_cnode *nodes;          /* nnodes = 2·nleaves − 1 */
	bool clara;                      /* leaves come from CLARA (else one leaf per rank) */
	uint32_t default_clusters;       /* clusters the default cut shows */
	uint32_t nvisible;
	uint32_t *visible;               /* visible clusters (node ids), top to bottom */
	enum tc_metric metric;           /* the metric the phase was clustered on */
	double max;                      /* largest metric value in the phase ... */
	uint32_t max_rank;               /* ... and its rank: the default focus seed */
	double min_sep;                  /* seconds: the default cut's least separation */
	enum tc_exchange pattern;
	uint32_t focus_seed, radius;
	uint32_t nfocus;
	uint32_t *focus;                 /* focus ranks, ascending (the seed included) */
	double seconds;                  /* time spent clustering the phase */
};

/* Glyph of one cluster at one even step (paper Fig. 7). */
struct tc_cluster_glyph {
	uint32_t size;                   /* members of the cluster */
	uint32_t active, inactive;       /* members with / without an event at the step */
	uint32_t sends, recvs, colls;    /* members whose event sends / receives / is a
					  * collective (a Sendrecv counts as both) */
	uint32_t recv_msgs;              /* messages completed by the receiving members */
	double mean;                     /* mean metric of the active members' events */
	double send_mean, recv_mean, coll_mean;
	double agg_mean;                 /* mean metric of their aggregate blocks (step−1) */
	/* means are NAN when the part is empty */
};

struct tc_clusters;

/* Clusters of every partition of s, computed one phase at a time on demand
 * (one thread at a time: the calls below compute and cache).
 * s must outlive the result.  o = NULL: defaults.  Options are clamped:
 * k ≤ 256, direct_max ≤ 1024, samples ≤ 100, sample_size ≤ 2048, dense_max ≤ 8. */
struct tc_clusters *tc_clusters_new(const struct tc_steps *s, const struct tc_cluster_opts *o);
void tc_clusters_free(struct tc_clusters *c);
const struct tc_cluster_opts *tc_clusters_opts(const struct tc_clusters *c);
/* The clusters of one partition, computed on first use and again after the
 * metric changed; NULL when partition is out of range. */
const struct tc_phase_clusters *tc_clusters_phase(struct tc_clusters *c, uint32_t partition);
/* Is the partition clustered for the current metric (tc_clusters_phase would not compute)?
 * Phases are independent: one thread may compute phase p while another reads phase q. */
bool tc_clusters_phase_ready(const struct tc_clusters *c, uint32_t partition);
/* Compute every phase now, in parallel (threads ≤ 0: min(cores, 4)). */
void tc_clusters_compute_all(struct tc_clusters *c, int threads);
/* The same for the n phases from partition first on. */
void tc_clusters_compute_range(struct tc_clusters *c, uint32_t first, uint32_t n, int threads);
/* Forget a phase's clusters (its memory freed; computed again when next
 * asked for): for a one-pass reader such as the report, which then keeps a
 * batch of phases rather than all of them. */
void tc_clusters_release(struct tc_clusters *c, uint32_t partition);
/* Change the clustered metric: phases recompute lazily as they are asked for. */
void tc_clusters_set_metric(struct tc_clusters *c, enum tc_metric m);

/* Dendrogram interaction; each returns the number of visible clusters
 * (phase->visible lists them).  open = false closes node (its subtree's
 * open flags are kept for when it is opened again); a leaf cannot open. */
uint32_t tc_clusters_open(struct tc_clusters *c, uint32_t partition, uint32_t node, bool open);
/* Show exactly n clusters (the n−1 highest merges open); n = 0: the default cut. */
uint32_t tc_clusters_cut(struct tc_clusters *c, uint32_t partition, uint32_t n);
/* The visible cluster holding rank, TC_NONE if the rank is not in the phase. */
uint32_t tc_clusters_visible_of(struct tc_clusters *c, uint32_t partition, uint32_t rank);

/* Glyphs of node for n even steps from the even global step `step`
 * (out[i] ↔ step + 2i); steps outside the phase come out all inactive. */
void tc_clusters_glyphs(struct tc_clusters *c, uint32_t partition, uint32_t node, uint32_t step,
			uint32_t n, struct tc_cluster_glyph *out);
/* The member ranks of a node of a computed phase, ascending (caller frees). */
uint32_t *tc_clusters_node_ranks(const struct tc_phase_clusters *ph, uint32_t node);
/* The member closest to the node's mean vector (Ravel's centroid). */
uint32_t tc_clusters_centroid(struct tc_clusters *c, uint32_t partition, uint32_t node);
/* Refocus on seed (e.g. a node's max_rank or centroid) with a radius in
 * message hops; returns phase->nfocus. */
uint32_t tc_clusters_refocus(struct tc_clusters *c, uint32_t partition, uint32_t seed, uint32_t radius);

/* --- building blocks, exposed for tests and other modules ------------- */

/* Distance of two sparse metric vectors: a rank's values at the columns
 * (step indices within the phase) where it has an event, columns ascending.
 * Over each column where at least one of the two has an event and both have
 * a value (their own event there, else their latest earlier one) the squared
 * difference is taken; the result is their mean (paper Fig. 4). */
double tc_cluster_distance(const uint32_t *col_a, const double *val_a, uint32_t na,
			   const uint32_t *col_b, const double *val_b, uint32_t nb);

/* Exchange detection in a partition: every rank with an event in it sends
 * to and receives from the same non-empty set of peers (messages with both
 * ends in the partition), and the flavour by majority vote over the ranks. */
enum tc_exchange tc_exchange_detect(const struct tc_steps *s, uint32_t partition);

/* Focus ranks: breadth-first over the messages with both ends in partition,
 * from seed, up to radius hops and at most max ranks (ranks nearer the seed
 * first; a rank's neighbours in ascending order).  out gets them ascending;
 * returns the count. */
uint32_t tc_focus_ranks(const struct tc_steps *s, uint32_t partition, uint32_t seed, uint32_t radius,
			uint32_t max, uint32_t *out);

#endif
