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

/* Phases: fills b->pid, b->np, b->poff, b->padj (partition.c). */
void steps_partition(struct steps_build *b);

/* Differential lateness, the metrics' baselines (slots, each step's earliest
 * enter and exit) and the per-step sums (lateness.c); needs cevs with their
 * final global step and partition. */
void steps_metrics(struct tc_steps *s, const struct tc_step_msg *mx);

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
