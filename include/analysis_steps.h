/* analysis_steps.h — Ravel's logical structure: communication events,
 * partitions (phases), logical steps, and the lateness metrics.  Pure
 * functions over the model (no curses).  See docs/logical-time.md and
 * ../shared/reference/ravel-algorithms.md §1.8, §2, §3. */
#ifndef TC_ANALYSIS_STEPS_H
#define TC_ANALYSIS_STEPS_H

#include "model.h"

struct tc_steps_opts {
	bool coalesce_isends;  /* consecutive Isends → one send event (default true) */
	bool waitall_merge;    /* OTF2 "true Waitall" merge (default true) */
	bool caller_merge;     /* Ravel's caller merge (default: see docs; make it an option) */
	bool leap_merge;       /* "complete leaps" merge (default false) */
	bool lamport;          /* simple Lamport-style stepping for validation (default false) */
};
void tc_steps_default_opts(struct tc_steps_opts *o);

#define TC_CEV_SEND 0x1   /* initiates ≥ 1 message */
#define TC_CEV_RECV 0x2   /* completes ≥ 1 message */
#define TC_CEV_COLL 0x4   /* part of a collective */

#define TC_CEV_MAX_NOPS ((1u << 29) - 1)   /* a longer run of Isends is cut into events of this many */
#define TC_CEV_WIDE 0x80000000u              /* tc_cev.dlate: an index into tc_steps.wide */

/* A communication event: one MPI call that communicates (or a run of
 * coalesced Isends).  Its aggregate block is the non-communication time
 * between the previous communication event on the rank and this one; it sits
 * on step-1.  32 bytes: what the model already has is not copied here (the
 * times are its calls': tc_cev_enter/leave/agg_start), and of the metrics
 * only the differential lateness is stored (it depends on the partners'
 * lateness), the others are differences of those times to per-step minima
 * (tc_cev_metric). */
struct tc_cev {
	uint32_t rank;
	uint32_t op;             /* first tc_op on the rank */
	uint32_t nops : 29;      /* ops covered (> 1 only for coalesced Isends; their calls are consecutive) */
	uint32_t flags : 3;      /* TC_CEV_* */
	uint32_t partition;
	uint32_t step;           /* global logical step; even; the aggregate block is step-1 */
	/* the event's differential lateness: n < 2^31 ticks when tc_dur of them
	 * is that double exactly (0, the common value, always is; a difference
	 * of two divided tick counts often is not), else TC_CEV_WIDE | its index
	 * in tc_steps.wide (tc_cev_metric reads either) */
	uint32_t dlate;
	double dlateness_agg;    /* its aggregate block's, in seconds */
};

struct tc_partition {
	uint32_t first_step, last_step;  /* global steps covered */
	uint32_t ncevs;
	uint32_t nranks;                 /* ranks with at least one event in it */
	uint64_t enter, leave;           /* physical span */
	uint32_t leap;                   /* depth in the partition DAG (0 = no predecessor) */
	uint32_t slot0;                  /* its first slot: step k's is slot0 + (k - first_step) / 2 */
};

/* The baselines of the lateness and duration metrics of one partition at one
 * (even) step: minima over its events there, in ticks. */
struct tc_slot {
	uint64_t leave, enter;   /* exits (lateness), enters (aggregate lateness) */
	uint64_t dur, agg;       /* leave − enter (duration), enter − agg_start (aggregate duration) */
};

/* Per global step summary for views and the step↔time map.  Even steps sum
 * the events on them; odd steps sum the aggregate blocks drawn there (span
 * agg_start..enter, *_agg values).  A step with no entry repeats the previous
 * step's end as its span.  On an even step with events, enter_min and
 * leave_min are the global lateness's baselines (aggregate and event). */
struct tc_step_sum {
	uint64_t enter_min, leave_max;   /* physical span of the step's events */
	uint64_t leave_min;              /* earliest exit of the step's events; UINT64_MAX on other steps */
	uint32_t ncevs;
	double lateness_max, lateness_sum;
	double dlateness_max, dlateness_sum;
	double glateness_max, duration_max;
};

/* A cev's times in ticks (tc_cev_enter, tc_cev_leave, tc_cev_agg_start). */
struct tc_cev_times { uint64_t enter, leave, agg_start; };
/* The derived metrics of a cev of steps made by hand (tc_steps.given). */
struct tc_cev_given { double lateness, lateness_agg, glateness, glateness_agg, duration, duration_agg; };

enum tc_metric { TC_M_LATENESS, TC_M_GLATENESS, TC_M_DLATENESS, TC_M_DURATION, TC_M_COUNT };
extern const char *const tc_metric_names[TC_M_COUNT]; /* "lateness", "global_lateness", "diff_lateness", "duration" */

struct tc_steps {
	struct tc_steps_opts opts;
	const struct tc_trace *t;
	size_t ncevs;
	struct tc_cev *cevs;        /* grouped by rank, in time order within a rank */
	uint32_t *rank_first;       /* nranks+1 offsets into cevs */
	uint32_t npartitions;
	struct tc_partition *parts; /* sorted by first_step */
	uint32_t max_step;          /* largest global step */
	struct tc_step_sum *steps;  /* max_step+1 entries */
	size_t nslots;
	struct tc_slot *slots;      /* per partition, one per even step it covers (tc_partition.slot0) */
	size_t nwide;
	double *wide;               /* the differential lateness values no tick count gives (tc_cev.dlate) */
	/* per message: the cev index of its send and of its receive */
	uint32_t *msg_send_cev, *msg_recv_cev;
	/* Each cev's times when they are not read from the model: while
	 * tc_steps_compute runs (its passes read them many times: read once) and
	 * in steps made by hand (tests, benches: no model calls behind the cevs);
	 * else NULL. */
	struct tc_cev_times *times;
	/* NULL but in steps made by hand: their metrics but the differential lateness */
	struct tc_cev_given *given;
	/* The arrays live in a cache file's mapping (src/cache), owned by the
	 * trace: tc_steps_free frees only this struct. */
	bool mapped;
};

struct tc_steps *tc_steps_compute(const struct tc_trace *t, const struct tc_steps_opts *o);
/* What the steps read of a message: its send's completion, its receive's
 * post, its flags (24 bytes of the 72 of struct tc_msg). */
struct tc_step_msg { uint64_t send_done, post_time; uint32_t flags, pad; };
/* tc_steps_compute reading the messages from m[id] instead of t->msgs (NULL:
 * t->msgs): tracecomb-mpi's skeleton model carries only these fields
 * (analysis_steps_dist.h). */
struct tc_steps *tc_steps_compute_msgs(const struct tc_trace *t, const struct tc_steps_opts *o,
				       const struct tc_step_msg *m);
/* A step as users read it: "init" for the aggregate block before step 0 (the
 * time before a rank's first communication event, mostly MPI_Init), else the
 * number.  Into buf (n bytes); returns buf. */
const char *tc_step_label(int64_t step, char *buf, size_t n);
void tc_steps_free(struct tc_steps *s);
/* The times of cev i in ticks: its call's enter; the latest leave of its
 * calls (not before enter); the leave of the previous cev on the rank when
 * that is earlier than enter, else enter.  From the model's calls (or times). */
uint64_t tc_cev_enter(const struct tc_steps *s, uint32_t i);
uint64_t tc_cev_leave(const struct tc_steps *s, uint32_t i);
uint64_t tc_cev_agg_start(const struct tc_steps *s, uint32_t i);
/* The value of a metric for cev i (agg = its aggregate block), in seconds. */
double tc_cev_metric(const struct tc_steps *s, uint32_t i, enum tc_metric m, bool agg);
/* Set cev i's (event) differential lateness d >= 0 (steps not mapped from a cache). */
void tc_cev_set_dlateness(struct tc_steps *s, uint32_t i, double d);
/* The slot (tc_slot) of cev i: its partition at its step. */
static inline size_t tc_cev_slot(const struct tc_steps *s, uint32_t i)
{
	const struct tc_cev *e = &s->cevs[i];
	const struct tc_partition *P = &s->parts[e->partition];
	return P->slot0 + (e->step - P->first_step) / 2;
}
/* Index of the cev of rank at global step (or at step-1 for its aggregate block);
 * TC_NONE when the rank has no event there.  O(log n). */
uint32_t tc_steps_find(const struct tc_steps *s, uint32_t rank, uint32_t step);
/* A block of the logical timeline: a cev, or its aggregate block (on step-1). */
struct tc_block { uint32_t cev; bool agg; };
/* The (at most) k blocks with the largest value > 0 of metric m, largest first,
 * among the events and, with aggs, their aggregate blocks too (except the
 * block before each rank's first event, which has no measured start); ties go to the earlier cev, then the event
 * before its aggregate block.  Returns how many were written.  O(n·k) at
 * worst, O(n) typically. */
size_t tc_steps_top(const struct tc_steps *s, enum tc_metric m, bool aggs, size_t k, struct tc_block *out);
/* Index of the cev that contains call `call` of rank (via its op), TC_NONE if none. */
uint32_t tc_steps_cev_of_call(const struct tc_steps *s, uint32_t rank, uint32_t call);

#endif
