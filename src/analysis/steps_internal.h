/* steps_internal.h — state shared by the files of the logical-time engine
 * (steps.c: communication events, stepping, global steps and the API;
 * partition.c: phases; lateness.c: metrics).  Not part of the API. */
#ifndef TC_STEPS_INTERNAL_H
#define TC_STEPS_INTERNAL_H

#include "analysis_steps.h"

struct steps_build {
	const struct tc_trace *t;
	const struct tc_steps_opts *o;
	struct tc_steps *s;
	const struct tc_step_msg *mx;   /* the messages' fields when not read from t->msgs */
	/* op → cev: op k of rank r is cev op2cev[op_base[r] + k] (TC_NONE if none) */
	uint32_t *op_base, *op2cev;
	/* partitions before the final sort: cev → dense partition id */
	uint32_t *pid;
	uint32_t np;
	/* partition DAG in CSR form: successors of p are padj[poff[p] .. poff[p+1]) */
	uint32_t *poff, *padj;
	/* per cev: local step inside its partition; per partition: largest local step */
	int64_t *lstep;
	int64_t *pmax;
};

/* Kahn topological order of a graph given in CSR form.  Never loops: when only
 * nodes on cycles remain, the one with the smallest key is taken next (and its
 * not yet ordered predecessors are ignored).  key may be NULL (node index). */
void steps_topo_order(uint32_t nn, const uint32_t *off, const uint32_t *adj, const uint64_t *key,
		      uint32_t *order);

/* The cevs of rank r (§1.8: an MPI call that communicates; a run of Isends
 * coalesced when coalesce is set) into out[0..) (room for the rank's ops),
 * and op k's cev, base + its index, into op2cev[k] (the rank's ops); returns
 * their number.  The one definition of a cev: build_cevs and the partitions
 * over parts (partition_dist.c) both call it. */
uint32_t steps_rank_cevs(const struct tc_trace *t, uint32_t r, bool coalesce, uint32_t base, struct tc_cev *out,
			 uint32_t *op2cev);

/* An aggregate block starts at the previous cev's leave, or at enter when
 * that is not earlier (prev_leave = enter for a rank's first cev). */
static inline uint64_t steps_block_start(uint64_t enter, uint64_t prev_leave)
{
	return prev_leave < enter ? prev_leave : enter;
}

/* The latest leave of a cev's nops consecutive calls from c (a Leave
 * recorded before its Enter counts as the Enter). */
static inline uint64_t steps_calls_leave(const struct tc_call *c, uint32_t nops)
{
	uint64_t leave = c->enter;
	for (uint32_t k = 0; k < nops; k++) leave = TC_MAX(leave, c[k].leave);
	return leave;
}

/* body for every message id (named id) of cev e's ops, e a cev of the
 * part's model t: its sends (recv false) or its receives. */
#define STEPS_FOR_CEV_MSGS(t, e, recv, id, body)                                                             \
	for (uint32_t k_ = 0; k_ < (e)->nops; k_++) {                                                  \
		const struct tc_op *op_ = &(t)->ranks[(e)->rank].ops[(e)->op + k_];                   \
		const uint32_t *ids_ = (recv) ? tc_op_recvs(t, (e)->rank, op_) : tc_op_sends(t, (e)->rank, op_); \
		for (uint32_t j_ = 0, n_ = (recv) ? op_->nrecv : op_->nsend; j_ < n_; j_++) {          \
			uint32_t id = ids_[j_];                                                        \
			body                                                                           \
		}                                                                                      \
	}

/* Union-find over cevs (or over any items), union by size. */
struct steps_uf { uint32_t *p, *sz; };
void steps_uf_init(struct steps_uf *u, size_t n);
void steps_uf_free(struct steps_uf *u);
static inline uint32_t steps_uf_find(struct steps_uf *u, uint32_t x)
{
	while (u->p[x] != x) {
		u->p[x] = u->p[u->p[x]];
		x = u->p[x];
	}
	return x;
}
static inline bool steps_uf_union(struct steps_uf *u, uint32_t a, uint32_t b)
{
	a = steps_uf_find(u, a);
	b = steps_uf_find(u, b);
	if (a == b) return false;
	if (u->sz[a] < u->sz[b]) { uint32_t x = a; a = b; b = x; }
	u->p[b] = a;
	u->sz[a] += u->sz[b];
	return true;
}

/* Message id's fields for the "true Waitall" rule, from wherever they are. */
typedef struct tc_step_msg (*steps_msg_fn)(const void *ctx, uint32_t id);

/* E. "true Waitall" groups (§1.8 E) of one rank r: its cevs cev[0..n), their
 * times tm[0..n) (enter and leave), merged in u at base + index; the fields
 * of its sends through msg(mctx, id). */
void steps_waitall_rank(struct steps_uf *u, uint32_t base, const struct tc_trace *t, uint32_t r,
			const struct tc_cev *cev, uint32_t n, const struct tc_cev_times *tm, steps_msg_fn msg,
			const void *mctx);

/* A graph over groups of items (a union-find's classes): successors of node
 * v are adj[off[v] .. off[v+1]) (multi-edges kept); first[v] = an item of v. */
struct steps_cgraph { uint32_t n; const uint32_t *off, *adj, *first; };
/* Tarjan: merges (in u, through first[]) every strongly connected component
 * of more than one node; true when something was merged.  O(nodes + edges). */
bool steps_merge_cycles(struct steps_uf *u, const struct steps_cgraph *g);

/* Phases: fills b->pid, b->np, b->poff, b->padj (partition.c). */
void steps_partition(struct steps_build *b);

/* §2.7 over the partition DAG (np partitions, successors in CSR form, each
 * one's largest local step pmax[p] and first cev): each partition's first
 * global step acc[p] (a longest path, two global steps per local one),
 * its leap (depth) and its place in the final order rank_of[p] (by first
 * step, then first cev).  The arrays have np entries. */
void steps_order(uint32_t np, const uint32_t *poff, const uint32_t *padj, const int64_t *pmax, const uint32_t *first_cev,
		 uint64_t *acc, uint32_t *leap, uint32_t *rank_of);
/* A partition's steps and leap (enter UINT64_MAX, counts 0: filled from its cevs). */
struct tc_partition steps_part_span(uint64_t acc, int64_t pmax, uint32_t leap);

/* The local steps of whole partitions (an owner's skeleton, steps_parts.c):
 * the cevs (pid[0..npid), taken, must be one per cev: else NULL), their
 * times with each cev's predecessor on its rank in the whole trace given
 * (prev_leave[i], UINT64_MAX: none; the skeleton holds only these
 * partitions), the strides or Lamport steps and the monotone fix: the
 * steps (cevs, times, message ends; no global steps yet) and, caller
 * frees, *lstep per cev and *pmax per partition. */
struct tc_steps *steps_local(const struct tc_trace *t, const struct tc_steps_opts *o, const struct tc_step_msg *mx,
			     uint32_t *pid, size_t npid, uint32_t np, const uint64_t *prev_leave, int64_t **lstep,
			     int64_t **pmax);


/* Differential lateness, the metrics' baselines (slots, each step's earliest
 * enter and exit) and the per-step sums (lateness.c); needs cevs with their
 * final global step and partition. */
void steps_metrics(struct tc_steps *s, const struct tc_step_msg *mx);

/* The metrics of the partitions an owner holds, in the steps over parts
 * (steps_parts.c): s holds whole partitions only, with the global parts,
 * their slot layout (s->nslots) and s->max_step set.  prev_leave[i]: the
 * leave of cev i's predecessor on its rank in the whole trace (UINT64_MAX:
 * none); minima(ctx, s): after the baselines, s->steps' enter_min and
 * leave_min made global (a reduction); out[8i ..]: cev i's lateness,
 * differential lateness, global lateness and duration, then the same of its
 * aggregate block (when its step is not 0), which steps_step_add turns into
 * the per-step sums where the cevs are in order.  The differential
 * lateness is not coded into the cevs (their wide values are numbered in
 * order, elsewhere). */
struct steps_mhook {
	const uint64_t *prev_leave;
	void (*minima)(void *ctx, struct tc_steps *s);
	void *ctx;
	double *out;
};
void steps_metrics_hooked(struct tc_steps *s, const struct tc_step_msg *mx, const struct steps_mhook *h);
/* One block's four values (v: lateness, differential lateness, global
 * lateness, duration) into the sums of step − agg (x: the cev's times). */
void steps_step_add(struct tc_steps *s, uint32_t step, int agg, const struct tc_cev_times *x, const double v[4]);
/* After the sums: each step without events spans from the last one's end. */
void steps_sums_end(struct tc_steps *s);
/* Each partition's first slot (parts in their final order); returns the
 * number of slots. */
size_t steps_slot_layout(struct tc_steps *s);

/* Message id's flags, send_done and post_time: from mx when given (the
 * skeleton's, tc_steps_compute_msgs), else from the model. */
static inline struct tc_step_msg steps_msg(const struct tc_trace *t, const struct tc_step_msg *mx, uint32_t id)
{
	if (mx) return mx[id];
	const struct tc_msg *m = &t->msgs[id];
	return (struct tc_step_msg){ m->send_done, m->post_time, m->flags, 0 };
}

/* Cev i's times (tc_cev_enter, tc_cev_leave, tc_cev_agg_start). */
void steps_times(const struct tc_steps *s, uint32_t i, struct tc_cev_times *x);
/* Every cev's times read from the model into s->times (one pass: an array of
 * them is read faster than the calls they lie in). */
void steps_read_times(struct tc_steps *s);
/* Metric m of cev i from its times (agg_start read only for the aggregate
 * block's duration, leave only for the event); the baselines must be there. */
double steps_metric_at(const struct tc_steps *s, uint32_t i, const struct tc_cev_times *x, enum tc_metric m, bool agg);

/* Rank of the first cev of each rank; cev i's predecessor on its rank, TC_NONE if first. */
static inline uint32_t steps_prev(const struct tc_steps *s, uint32_t i)
{
	return i > s->rank_first[s->cevs[i].rank] ? i - 1 : TC_NONE;
}

#endif
