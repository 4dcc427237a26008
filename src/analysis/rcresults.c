/* rcresults.c — the root causes' results beyond the activities
 * (analysis_rootcause.h, struct tc_rc_results): read off a computed result,
 * and put back into the activities made again (tc_rootcause_from), which is
 * how a trace opened from a cache gets its root causes without the
 * contexts' statistics, the excess, delay-cost and critical-path passes
 * (docs/cache.md, "The root causes"). */
#include <stdlib.h>
#include <string.h>

#include "analysis_rootcause.h"
#include "rcctx_internal.h"

static void *dup_arr(const void *p, size_t n, size_t size)
{
	void *q = xmalloc(n * size + 1);
	if (n) memcpy(q, p, n * size);
	return q;
}

void tc_rc_figures_get(const struct tc_rootcause *rc, struct tc_rc_figures *f)
{
	*f = (struct tc_rc_figures){
		rc->noise_floor, rc->compute_spread, rc->stall_min, rc->n_compute, rc->n_compute_stalls, rc->n_mpi,
		rc->n_mpi_stalls, rc->stall_ranks_compute, rc->stall_ranks_mpi, rc->stall_pairs_mpi, rc->path_end_rank,
		rc->compute_stall_height, rc->compute_stall_share, rc->compute_stall_rate_q1, rc->typical_compute_s,
		rc->typical_mpi_s, rc->total_wait, rc->unattributed, rc->path_len, { 0 } };
	memcpy(f->share, rc->share, sizeof f->share);
}

void tc_rc_figures_put(struct tc_rootcause *rc, const struct tc_rc_figures *f)
{
	rc->noise_floor = f->noise_floor, rc->compute_spread = f->compute_spread, rc->stall_min = f->stall_min;
	rc->n_compute = f->n_compute, rc->n_compute_stalls = f->n_compute_stalls;
	rc->n_mpi = f->n_mpi, rc->n_mpi_stalls = f->n_mpi_stalls;
	rc->stall_ranks_compute = (uint32_t)f->stall_ranks_compute, rc->stall_ranks_mpi = (uint32_t)f->stall_ranks_mpi;
	rc->stall_pairs_mpi = (uint32_t)f->stall_pairs_mpi, rc->path_end_rank = (uint32_t)f->path_end_rank;
	rc->compute_stall_height = f->compute_stall_height, rc->compute_stall_share = f->compute_stall_share;
	rc->compute_stall_rate_q1 = f->compute_stall_rate_q1;
	rc->typical_compute_s = f->typical_compute_s, rc->typical_mpi_s = f->typical_mpi_s;
	rc->total_wait = f->total_wait, rc->unattributed = f->unattributed, rc->path_len = f->path_len;
	memcpy(rc->share, f->share, sizeof rc->share);
}

struct tc_rc_results *tc_rc_results_of(const struct tc_rootcause *rc)
{
	struct tc_rc_results *x = xcalloc(1, sizeof *x);
	uint32_t N = rc->nranks;
	x->nranks = N, x->nctx = rc->nctx;
	x->nexcess = rc->nexcess, x->npath = rc->npath;
	x->ctx = dup_arr(rc->ctx, rc->nctx, sizeof *rc->ctx);
	tc_rc_figures_get(rc, &x->fig);
	x->wait_s = dup_arr(rc->wait_s, N, sizeof(double));
	x->delay_cost = dup_arr(rc->delay_cost, N, sizeof(double));
	x->path_compute_excess = dup_arr(rc->path_compute_excess, N, sizeof(double));
	x->path_mpi_excess = dup_arr(rc->path_mpi_excess, N, sizeof(double));
	size_t n = rc->nexcess;
	x->ex_act = dup_arr(rc->ex_act, n, sizeof *x->ex_act);
	x->ex_delay = dup_arr(rc->ex_delay, n, sizeof *x->ex_delay);
	x->ex_excess = xmalloc((n + 1) * sizeof *x->ex_excess);
	x->ex_outlier = xmalloc(n + 1);
	for (size_t k = 0; k < n; k++) {
		x->ex_excess[k] = rc->act_excess[rc->ex_act[k]];
		x->ex_outlier[k] = rc->act_outlier[rc->ex_act[k]];
	}
	x->path = dup_arr(rc->path, rc->npath, sizeof *rc->path);
	return x;
}

void tc_rc_results_free(struct tc_rc_results *x)
{
	if (!x) return;
	free(x->ctx);
	free(x->wait_s), free(x->delay_cost), free(x->path_compute_excess), free(x->path_mpi_excess);
	free(x->ex_act), free(x->ex_excess), free(x->ex_delay), free(x->ex_outlier);
	free(x->path);
	free(x);
}

/* Whether x belongs to the activities of rc: the same ranks and contexts,
 * activity indices inside them (the excess in order). */
static bool fits(const struct tc_rootcause *rc, const struct tc_rc_results *x)
{
	if (x->nranks != rc->nranks || x->nctx != rc->nctx ||
	    (x->fig.path_end_rank != TC_NONE && x->fig.path_end_rank >= rc->nranks))
		return false;
	for (uint32_t c = 0; c < x->nctx; c++)
		if (x->ctx[c].key != rc->ctx[c].key || x->ctx[c].kind != rc->ctx[c].kind || x->ctx[c].n != rc->ctx[c].n)
			return false;
	for (size_t k = 0; k < x->nexcess; k++)
		if (x->ex_act[k] >= rc->nacts || (k && x->ex_act[k] <= x->ex_act[k - 1])) return false;
	for (size_t k = 0; k < x->npath; k++)
		if (x->path[k].act >= rc->nacts || x->path[k].kind >= TC_CP_NKINDS) return false;
	return true;
}

struct tc_rootcause *tc_rootcause_from(const struct tc_trace *t, const struct tc_span *sp, const struct tc_rc_opts *o,
				       const struct tc_rc_results *x)
{
	struct tc_usage mark = tc_usage();
	double bins[65];
	struct tc_rootcause *rc = tc_rc_activities(t, sp, o, bins, &mark);
	if (!fits(rc, x)) {
		tc_rootcause_free(rc);
		return NULL;
	}
	uint32_t N = rc->nranks;
	for (uint32_t c = 0; c < x->nctx; c++) {   /* what the statistics set; the rest is the activity pass's own */
		struct tc_rc_ctx *C = &rc->ctx[c];
		const struct tc_rc_ctx *X = &x->ctx[c];
		C->nranks = X->nranks, C->quiet = X->quiet, C->typical = X->typical;
		C->median = X->median, C->mad = X->mad, C->threshold = X->threshold;
		C->full_median = X->full_median, C->full_threshold = X->full_threshold;
	}
	tc_rc_figures_put(rc, &x->fig);
	rc->wait_s = dup_arr(x->wait_s, N, sizeof(double));
	rc->delay_cost = dup_arr(x->delay_cost, N, sizeof(double));
	rc->nexcess = x->nexcess;
	rc->ex_act = dup_arr(x->ex_act, x->nexcess, sizeof *x->ex_act);
	rc->ex_delay = dup_arr(x->ex_delay, x->nexcess, sizeof *x->ex_delay);
	for (size_t k = 0; k < x->nexcess; k++) {
		rc->act_excess[x->ex_act[k]] = x->ex_excess[k];
		rc->act_outlier[x->ex_act[k]] = x->ex_outlier[k];
	}
	rc->npath = x->npath;
	rc->path = x->npath ? dup_arr(x->path, x->npath, sizeof *x->path) : NULL;
	for (size_t k = 0; k < rc->npath; k++) {   /* rank and excess as critpath.c gives them (a cache keeps neither) */
		struct tc_cp_piece *p = &rc->path[k];
		p->rank = tc_rc_rank_of(rc, p->act);
		double len = tc_dur(t, p->end - p->start);
		p->excess = p->kind == TC_CP_WAIT ? 0 : TC_MIN((double)rc->act_excess[p->act], len);
	}
	rc->path_compute_excess = dup_arr(x->path_compute_excess, N, sizeof(double));
	rc->path_mpi_excess = dup_arr(x->path_mpi_excess, N, sizeof(double));
	return rc;
}
