/* replay_dump.c — the canonical text of the replayed results (tc_replay_dump):
 * every double as its exact hexadecimal value, so that equal text means
 * equal bits (the report's JSON has 9 digits). */
#include <stdlib.h>

#include "waitstate_internal.h"
#include "analysis_replay.h"

static void dump_profile(FILE *f, const struct tc_profile *p)
{
	fprintf(f, "profile total %a mpi %a regions %u\n", p->total, p->mpi, p->n);
	for (uint32_t i = 0; i < p->n; i++) {
		const struct tc_prof_region *r = &p->regions[i];
		fprintf(f, "region %u calls %llu incl %a excl %a min %a max %a rank_max %u ranks %u imbalance %a\n", r->region,
			(unsigned long long)r->calls, r->incl, r->excl, r->excl_min, r->excl_max, r->rank_max, r->nranks,
			r->imbalance);
	}
	for (int k = 0; k < TC_PROF_HIST; k++)
		if (p->hist_count[k])
			fprintf(f, "sizes %d count %llu bytes %llu\n", k, (unsigned long long)p->hist_count[k],
				(unsigned long long)p->hist_bytes[k]);
}

static void dump_table(FILE *f, const char *name, const struct tc_prof_table *pt)
{
	fprintf(f, "%s %zu\n", name, pt->n);
	for (size_t i = 0; i < pt->n; i++) {
		const struct tc_prof_cell *c = &pt->cells[i];
		fprintf(f, "cell %u %u %llu %llu %llu\n", c->who, c->region, (unsigned long long)c->calls,
			(unsigned long long)c->excl, (unsigned long long)c->incl);
	}
}

static void dump_waits(FILE *f, const struct tc_trace *t, const struct tc_waitstates *w, size_t longest)
{
	fprintf(f, "waitstates mpi %a run %a clamped %llu waits %zu\n", w->mpi_time, w->run_time,
		(unsigned long long)w->clamped, tc_ws_count(w));
	for (int k = 0; k < TC_WS_COUNT; k++) fprintf(f, "total %s %a\n", tc_ws_names[k], w->total[k]);
	for (uint32_t r = 0; r < t->nranks; r++)
		if (w->waited[r] != 0 || w->caused[r] != 0) fprintf(f, "rank %u waited %a caused %a\n", r, w->waited[r], w->caused[r]);
	uint32_t *idx;
	size_t k = ws_longest(w->w, w->n, longest, &idx);
	for (size_t i = 0; i < k; i++) {
		const struct tc_wait *x = &w->w[idx[i]];
		const struct tc_call *c = w->at ? NULL : &t->ranks[x->rank].calls[x->call];
		fprintf(f, "wait %s rank %u call %u cause %d cause_call %d seconds %a region %u enter %llu\n",
			tc_ws_names[x->kind], x->rank, x->call, (int)x->cause, (int)x->cause_call, x->seconds,
			c ? c->region : w->at[idx[i]].region, (unsigned long long)(c ? c->enter : w->at[idx[i]].enter));
	}
	free(idx);
}

/* Ranks with MPI activities, each with its row. */
static void dump_rcwait(FILE *f, const struct tc_rcwait *w)
{
	fprintf(f, "rcwait total_wait %a\n", w->total_wait);
	for (uint32_t r = 0; r < w->nranks; r++) {
		const struct tc_rc_rankstat *s = &w->rank[r];
		if (!s->mpi && s->wait_s == 0) continue;
		fprintf(f, "rcwait rank %u mpi %llu", r, (unsigned long long)s->mpi);
		for (int k = 0; k < TC_WE_COUNT; k++)
			fprintf(f, " %s %llu", tc_wait_edge_names[k], (unsigned long long)s->edge[k]);
		fprintf(f, " mpi_ticks %llu wait_ticks %llu digest %016llx wait %a\n", (unsigned long long)s->mpi_ticks,
			(unsigned long long)s->wait_ticks, (unsigned long long)s->digest, s->wait_s);
	}
}

/* The contexts (every field the activity pass sets), the ranks with
 * activities, the compute scale's non-empty bins. */
static void dump_rcctx(FILE *f, const struct tc_rcctx *c)
{
	fprintf(f, "rcctx contexts %u\n", c->nctx);
	for (uint32_t i = 0; i < c->nctx; i++) {
		const struct tc_rc_ctx *x = &c->ctx[i];
		fprintf(f, "ctx %u key %016llx coarse %016llx place %016llx work %016llx n %u ranks %u region %u kind %u inter %u bucket %u\n",
			i, (unsigned long long)x->key, (unsigned long long)x->coarse, (unsigned long long)x->place,
			(unsigned long long)x->work, x->n, x->nranks, x->region, x->kind, x->inter, x->size_bucket);
	}
	for (uint32_t r = 0; r < c->nranks; r++)
		if (c->rank[r].acts)
			fprintf(f, "rcctx rank %u acts %llu digest %016llx\n", r, (unsigned long long)c->rank[r].acts,
				(unsigned long long)c->rank[r].digest);
	for (int b = 0; b < TC_RC_SCALE_BINS; b++)
		if (c->scale_bin[b] != 0) fprintf(f, "scale_bin %d %a\n", b, c->scale_bin[b]);
}

/* The typed contexts (the typical values' fields), the run-level figures,
 * every rank with waiting or excess. */
static void dump_rcexcess(FILE *f, const struct tc_rcexcess *x)
{
	const struct tc_rc_figures *g = &x->fig;
	fprintf(f, "rcexcess contexts %u noise_floor %a spread %a stall_min %a\n", x->nctx, g->noise_floor,
		g->compute_spread, g->stall_min);
	for (uint32_t i = 0; i < x->nctx; i++) {
		const struct tc_rc_ctx *c = &x->ctx[i];
		fprintf(f, "typ %u n %u ranks %u typical %u quiet %u median %a mad %a threshold %a full %a %a\n", i, c->n,
			c->nranks, c->typical, c->quiet, c->median, c->mad, c->threshold, c->full_median, c->full_threshold);
	}
	fprintf(f, "counts compute %llu stalls %llu mpi %llu stalls %llu ranks %llu %llu pairs %llu\n",
		(unsigned long long)g->n_compute, (unsigned long long)g->n_compute_stalls, (unsigned long long)g->n_mpi,
		(unsigned long long)g->n_mpi_stalls, (unsigned long long)g->stall_ranks_compute,
		(unsigned long long)g->stall_ranks_mpi, (unsigned long long)g->stall_pairs_mpi);
	fprintf(f, "stalls height %a share %a rate_q1 %a typical %a %a total_wait %a\n", g->compute_stall_height,
		g->compute_stall_share, g->compute_stall_rate_q1, g->typical_compute_s, g->typical_mpi_s, g->total_wait);
	for (uint32_t r = 0; r < x->nranks; r++) {
		const struct tc_rc_xrank *k = &x->rank[r];
		if (k->wait_s != 0 || k->nexcess)
			fprintf(f, "rcexcess rank %u wait %a excess %llu digest %016llx\n", r, k->wait_s,
				(unsigned long long)k->nexcess, (unsigned long long)k->digest);
	}
}

/* The waiting no excess explains, every rank with excess or a delay cost. */
static void dump_rcdelay(FILE *f, const struct tc_rcdelay *x)
{
	fprintf(f, "rcdelay unattributed %a\n", x->unattributed);
	for (uint32_t r = 0; r < x->nranks; r++) {
		const struct tc_rc_drank *k = &x->rank[r];
		if (k->delay_cost != 0 || k->nexcess)
			fprintf(f, "rcdelay rank %u cost %a excess %llu digest %016llx\n", r, k->delay_cost,
				(unsigned long long)k->nexcess, (unsigned long long)k->digest);
	}
}

/* The critical path's end rank, length, shares and every piece. */
static void dump_cpath(FILE *f, const struct tc_cpath *c)
{
	fprintf(f, "cpath end_rank %d length %a pieces %zu", (int)c->end_rank, c->length, c->n);
	for (int k = 0; k < TC_CP_NKINDS; k++) fprintf(f, " %s %a", tc_cp_kind_names[k], c->share[k]);
	fputc('\n', f);
	for (size_t i = 0; i < c->n; i++) {
		const struct tc_cp_piece *p = &c->piece[i];
		fprintf(f, "piece %s rank %u act %u start %llu end %llu excess %a\n", tc_cp_kind_names[p->kind], p->rank,
			p->act, (unsigned long long)p->start, (unsigned long long)p->end, p->excess);
	}
	for (uint32_t r = 0; r < c->nranks; r++)
		if (c->compute_excess[r] != 0 || c->mpi_excess[r] != 0)
			fprintf(f, "cpath rank %u compute_excess %a mpi_excess %a\n", r, c->compute_excess[r], c->mpi_excess[r]);
}

bool tc_replay_dump(FILE *f, const struct tc_trace *t, const struct tc_replay *r, size_t longest)
{
	dump_profile(f, r->profile);
	dump_table(f, "per_location", r->per_loc);
	dump_table(f, "per_rank", r->per_rank);
	dump_waits(f, t, r->waitstates, longest);
	dump_rcwait(f, r->rcwait);
	if (r->rcctx) dump_rcctx(f, r->rcctx);
	if (r->rcexcess) dump_rcexcess(f, r->rcexcess);
	if (r->rcdelay) dump_rcdelay(f, r->rcdelay);
	dump_cpath(f, r->cpath);
	return !ferror(f);
}

void tc_replay_serial(const struct tc_trace *t, struct tc_replay *out)
{
	*out = (struct tc_replay){ 0 };
	out->profile = tc_profile_compute(t);
	out->per_loc = tc_profile_locations(t);
	out->per_rank = tc_profile_ranks(t, out->per_loc);
	out->waitstates = tc_waitstates_compute(t);
	struct tc_span *sp = tc_span_compute(t, false);
	struct tc_rootcause *rc = tc_rootcause_compute(t, sp, NULL);
	out->rcwait = tc_rcwait_of(t, rc);
	out->rcctx = tc_rcctx_serial(t, sp);
	out->rcexcess = tc_rcexcess_serial(t, sp);
	out->rcdelay = tc_rcdelay_of(rc);
	out->cpath = tc_cpath_of(rc);
	tc_rootcause_free(rc);
	tc_span_free(sp);
}

void tc_replay_free(struct tc_replay *r)
{
	tc_profile_free(r->profile);
	tc_prof_table_free(r->per_loc);
	tc_prof_table_free(r->per_rank);
	tc_waitstates_free(r->waitstates);
	tc_rcwait_free(r->rcwait);
	tc_rcctx_free(r->rcctx);
	tc_rcexcess_free(r->rcexcess);
	tc_rcdelay_free(r->rcdelay);
	tc_cpath_free(r->cpath);
	tc_rc_results_free(r->rc);
	free(r->mine);
	free(r->ex.act), free(r->ex.excess), free(r->ex.delay), free(r->ex.outlier);
	*r = (struct tc_replay){ 0 };
}
