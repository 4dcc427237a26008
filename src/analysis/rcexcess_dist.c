/* rcexcess_dist.c — the root causes' typical values and excess (docs/rootcause.md
 * §3) replayed over parts (analysis_replay.h), and the same figures read off
 * the serial passes.
 *
 * The typical values need every value of a context at once (medians, MADs,
 * the back-offs pool contexts, the noise floor pools every compute
 * deviation): each process picks its ranks' values as the serial gather does
 * (the sample of a big MPI context is a function of the context, the rank
 * and the activity's place in the rank's run: rcexcess_internal.h, pick_next)
 * into groups of its own, and every process runs the statistics
 * (rc_groups_stats, rcstats.c) with the others: a context's order
 * statistics over every process's values (oselect.c), a run's where its
 * rank is; nothing is gathered, and every process gets the same typed
 * contexts and noise floor, and its ranks' persistent runs and trends
 * (docs/scale.md, "Typical values and excess").  The excess pass is then
 * local (rc_xpass_act, one activity
 * at a time, as serially): a receive's hidden transfer starts at the latest
 * send enter of its messages, which the message exchange brought.  Sums
 * whose order matters go as serially: each rank's in its process, the
 * typical times over every activity by a fold in rank order, the stall
 * shares and total waiting at process 0 over the ranks' rows in rank order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcctx_internal.h"
#include "rcdist_internal.h"
#include "rcexcess_internal.h"
#include "replay_internal.h"

/* This process's groups (g): its ranks' kept values, picked as the serial
 * gather picks them (the sample of a big MPI context is a function of the
 * context, the rank and the activity's place in the rank's run), each
 * context's room and runs counted in a first pass; *seen: per context,
 * the distinct ranks its picks saw here (the serial g->nranks, summed over
 * the processes). */
static void local_groups(const struct tc_part *p, const struct tc_span *sp, const struct rc_dacts *a,
			 struct tc_rootcause *L, const uint8_t *p2p, struct groups *g, uint64_t *seen)
{
	const struct tc_trace *t = p->t;
	uint32_t nc = L->nctx;
	struct pick *pk = xmalloc(((size_t)nc + 1) * sizeof *pk);
	uint32_t *room = xcalloc((size_t)nc + 1, sizeof *room), *runs = xcalloc((size_t)nc + 1, sizeof *runs);
	uint64_t span = sp->t1 > sp->t0 ? sp->t1 - sp->t0 : 1;
	for (int pass = 0; pass < 2; pass++) {
		if (pass) rc_groups_sized(t, L, g, room, runs);
		for (uint32_t c = 0; c < nc; c++) pk[c] = (struct pick){ .rank = TC_NONE, .stride = sample_stride(L, &L->ctx[c]) };
		for (uint32_t r = a->lo; r < a->hi; r++) {
			uint64_t s = a->rank_t0[r - a->lo];
			for (uint32_t i = a->first[r - a->lo]; i < a->first[r - a->lo + 1]; i++) {
				uint32_t c = a->ctx[i];
				uint64_t from = s, e = a->end[i];
				s = e;
				if (!pick_next(&pk[c], c, r)) continue;
				bool first = !pk[c].run;
				pk[c].run = true;
				if (!pass) {
					room[c]++, runs[c] += first;
					continue;
				}
				bool mpi = L->ctx[c].kind == TC_ACT_MPI;
				uint32_t w = mpi ? dact_wait(a, i) : TC_NONE;
				uint8_t vbin;
				double val = rc_act_value(t, sp->t0, span, from, e, mpi, w != TC_NONE, w != TC_NONE ? a->ready[w] : 0,
							  dact_edge(a, i), p2p[c], &vbin);
				rc_groups_add(g, c, r, val, vbin, first);
			}
		}
	}
	for (uint32_t c = 0; c < nc; c++) seen[c] = pk[c].nranks;
	free(pk), free(room), free(runs);
}

/* Where a receive's transfer began (xpass.xfer): the latest send enter of
 * the messages its call completes, from the message exchange. */
struct xsrc { const struct tc_part *p; const struct rc_dacts *a; const struct replay_msgx *m; };

static uint64_t dist_transfer_start(void *ctx, uint32_t r, uint32_t i, uint64_t s)
{
	const struct xsrc *x = ctx;
	const struct tc_trace *t = x->p->t;
	const struct tc_rank *R = &t->ranks[r];
	uint32_t ci = x->a->call[i];
	if (ci >= R->ncalls || R->calls[ci].op == TC_NONE) return s;
	const struct tc_op *op = &R->ops[R->calls[ci].op];
	uint64_t at = 0;
	for (uint32_t k = 0; k < op->nrecv; k++) {
		uint32_t q = replay_rmsg_at(x->m, r, op->first_recv + k);
		at = TC_MAX(at, q != TC_NONE ? x->m->in[q].send_enter : 0);
	}
	return op->nrecv ? at : s;
}

/* A rank's row on its way to process 0: its stall counts, waiting and excess digest. */
struct xrow {
	uint64_t rank;
	struct tc_rc_xrank x;
	double cw, csw;
	uint32_t cn, cs;
	uint8_t cr, mr, pad[6];
};

/* The excess pass over this process's ranks (x set up by rc_xpass_begin):
 * the rows, and x->ex the activities with excess (the process's indices). */
static struct xrow *measure(const struct tc_trace *t, struct tc_rootcause *L, const struct rc_dacts *a, struct xpass *x)
{
	uint32_t mine = a->hi - a->lo;
	struct xrow *rows = xcalloc((size_t)mine + 1, sizeof *rows);
	for (uint32_t r = a->lo; r < a->hi; r++) {
		uint32_t q = r - a->lo, i0 = a->first[q];
		size_t e0 = x->ex.n;
		rc_xpass_rank(x, r, true);
		uint64_t s = a->rank_t0[q];
		struct tally y;
		tally_begin(L, &y);
		double wait = 0;
		for (uint32_t i = i0; i < a->first[q + 1]; i++) {
			uint32_t w = dact_wait(a, i);
			rc_xpass_act(t, L, x, &y, r, i, s, a->end[i], a->ctx[i], w != TC_NONE, w != TC_NONE ? a->ready[w] : 0,
				     w != TC_NONE ? a->partner[w] : TC_NONE, &wait);
			s = a->end[i];
		}
		tally_end(L, &x->st, r, &y);
		rc_xpass_rank(x, r, false);
		uint64_t h = 0;
		for (size_t k = e0; k < x->ex.n; k++) {
			uint32_t i = x->ex.a[k], bits;
			memcpy(&bits, &x->excess[i], sizeof bits);
			h = rc_mix(rc_mix(rc_mix(h, i - i0), bits), x->outlier[i]);
		}
		rows[q] = (struct xrow){ r, { wait, x->ex.n - e0, h }, x->st.cw[r], x->st.csw[r], x->st.cn[r], x->st.cs[r],
					 x->st.cr[r], x->st.mr[r], { 0 } };
	}
	return rows;
}

/* The typical times: every activity's context median, by kind, in rank order. */
struct typ_fold { const struct rc_dacts *a; const struct tc_rc_ctx *ctx; };

static void typ_step(void *arg, void *state)
{
	const struct typ_fold *f = arg;
	double *s = state;
	for (size_t i = 0; i < f->a->n; i++) {
		const struct tc_rc_ctx *C = &f->ctx[f->a->ctx[i]];
		s[C->kind == TC_ACT_MPI] += C->median;
	}
}

/* Process 0's result: the figures of L, the stall figures from every rank's row. */
static struct tc_rcexcess *result_at0(struct tc_rootcause *L, struct xpass *x, const struct xrow *in, size_t nin,
				      const double *heights, size_t nh, uint64_t npairs, const uint64_t *counts,
				      const double *typ)
{
	struct tc_rcexcess *X = xcalloc(1, sizeof *X);
	X->nranks = L->nranks;
	X->rank = xcalloc((size_t)L->nranks + 1, sizeof *X->rank);
	for (size_t k = 0; k < nin; k++) {
		uint32_t r = (uint32_t)in[k].rank;
		X->rank[r] = in[k].x;
		x->st.cw[r] = in[k].cw, x->st.csw[r] = in[k].csw, x->st.cn[r] = in[k].cn, x->st.cs[r] = in[k].cs;
		x->st.cr[r] = in[k].cr, x->st.mr[r] = in[k].mr;
	}
	VEC_FREE(x->st.height);
	for (size_t k = 0; k < nh; k++) VEC_PUSH(x->st.height, heights[k]);
	rc_stalls_end(L, &x->st, npairs);
	for (uint32_t r = 0; r < L->nranks; r++) L->total_wait += X->rank[r].wait_s;
	L->n_compute = counts[0], L->n_compute_stalls = counts[1], L->n_mpi = counts[2], L->n_mpi_stalls = counts[3];
	L->typical_compute_s = typ[0], L->typical_mpi_s = typ[1];
	tc_rc_figures_get(L, &X->fig);
	X->nctx = L->nctx;
	X->ctx = L->ctx;
	L->ctx = NULL;
	return X;
}

struct tc_rcexcess *rc_excess_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
				   const struct replay_msgx *m, const struct rc_dacts *a, struct tc_rc_ctx *table,
				   uint32_t nctx, const double *scale_bin, uint64_t bound, uint64_t *need,
				   struct rc_dexcess *out)
{
	/* L: the root causes as this process holds them (the contexts, typed
	 * alike on every process; its ranks' activities are in a) */
	const struct tc_trace *t = p->t;
	struct tc_rootcause L = { .nranks = t->nranks, .t0 = sp->t0, .t1 = sp->t1, .nctx = nctx };
	L.ctx = xmalloc(((size_t)nctx + 1) * sizeof *L.ctx);   /* typed here (the result takes it) */
	memcpy(L.ctx, table, (size_t)nctx * sizeof *L.ctx);
	tc_rc_default_opts(&L.opts);
	uint8_t *p2p = xmalloc((size_t)nctx + 1);
	for (uint32_t c = 0; c < nctx; c++) p2p[c] = rc_p2p_class(t, &table[c]);
	/* the values kept here, typed by every process alike (rcstats.c) */
	*out = (struct rc_dexcess){ 0 };
	*need = (uint64_t)t->nranks * RC_HELD_PER_RANK + (uint64_t)nctx * RC_HELD_PER_CTX;   /* alike everywhere */
	if (*need > bound) {
		free(p2p), free(L.ctx);
		return NULL;
	}
	uint64_t *seen = xcalloc((size_t)nctx + 1, sizeof *seen);
	struct groups g;
	local_groups(p, sp, a, &L, p2p, &g, seen);
	d->reduce(d->ctx, seen, nctx, TC_DIST_SUM);
	uint32_t *nranks = xmalloc(((size_t)nctx + 1) * sizeof *nranks);
	for (uint32_t c = 0; c < nctx; c++) nranks[c] = (uint32_t)seen[c];
	free(seen);
	rc_groups_stats(&L, &g, nranks, d);
	struct xsrc src = { p, a, m };
	struct xpass x = { .xfer = dist_transfer_start, .xfer_ctx = &src, .trend = g.trend, .ntrend = g.ntrend };
	x.pers = rc_persistent_runs(&L, &g, &x.npers, d);
	g.trend = NULL;
	rc_groups_free(&g);   /* nranks with it */
	tc_rc_scratch(&L, 0);
	x.excess = xcalloc(a->n + 1, sizeof *x.excess);
	x.outlier = xcalloc(a->n + 1, 1);
	rc_xpass_begin(t, &L, p2p, rc_compute_scale(t, scale_bin), &x);
	struct xrow *rows = measure(t, &L, a, &x);
	uint64_t counts[4] = { L.n_compute, L.n_compute_stalls, L.n_mpi, L.n_mpi_stalls };
	d->reduce(d->ctx, counts, 4, TC_DIST_SUM);
	uint64_t npairs = x.st.pairs.live;
	d->reduce(d->ctx, &npairs, 1, TC_DIST_SUM);
	double typ[2] = { 0, 0 };
	struct typ_fold tf = { a, L.ctx };
	d->chain(d->ctx, typ, sizeof typ, typ_step, &tf);
	size_t nrow, nh;
	struct xrow *rin = replay_gather0(d, rows, a->hi - a->lo, sizeof *rows, &nrow);
	double *hin = replay_gather0(d, x.st.height.a, x.st.height.n, sizeof(double), &nh);
	struct tc_rcexcess *X = NULL;
	if (d->index == 0) X = result_at0(&L, &x, rin, nrow, hin, nh, npairs, counts, typ);
	else rc_stalls_end(&L, &x.st, 0);   /* frees the counts */
	*out = (struct rc_dexcess){ x.excess, x.outlier, NULL, nctx };
	out->ctx = xmalloc(((size_t)nctx + 1) * sizeof *out->ctx);
	memcpy(out->ctx, X ? X->ctx : L.ctx, (size_t)nctx * sizeof *out->ctx);
	free(rows), free(rin), free(hin), free(p2p), free(x.pers), free(x.trend);
	free(L.ctx);
	rc_xpass_free(&x);
	return X;
}

void rc_dexcess_free(struct rc_dexcess *x)
{
	free(x->excess), free(x->outlier), free(x->ctx);
	*x = (struct rc_dexcess){ 0 };
}

/* --- the serial reference ----------------------------------------------------------- */

struct tc_rcexcess *tc_rcexcess_serial(const struct tc_trace *t, const struct tc_span *sp)
{
	struct tc_usage mark = tc_usage();
	double bins[TC_RC_SCALE_BINS];
	struct tc_rootcause *rc = tc_rc_activities(t, sp, NULL, bins, &mark);
	rc->wait_s = xcalloc((size_t)rc->nranks + 1, sizeof *rc->wait_s);
	tc_rc_excess(t, rc, rc_compute_scale(t, bins), &mark);
	struct tc_rcexcess *X = xcalloc(1, sizeof *X);
	X->nranks = rc->nranks;
	X->rank = xcalloc((size_t)rc->nranks + 1, sizeof *X->rank);
	for (uint32_t r = 0, k = 0; r < rc->nranks; r++) {
		uint64_t h = 0, n = 0;
		for (; k < rc->nexcess && rc->ex_act[k] < rc->act_first[r + 1]; k++, n++) {
			uint32_t i = rc->ex_act[k], bits;
			memcpy(&bits, &rc->act_excess[i], sizeof bits);
			h = rc_mix(rc_mix(rc_mix(h, i - rc->act_first[r]), bits), rc->act_outlier[i]);
		}
		X->rank[r] = (struct tc_rc_xrank){ rc->wait_s[r], n, h };
		rc->total_wait += rc->wait_s[r];   /* as tc_rootcause_compute sums it */
	}
	tc_rc_figures_get(rc, &X->fig);
	X->nctx = rc->nctx;
	X->ctx = rc->ctx;
	rc->ctx = NULL;
	tc_rootcause_free(rc);
	return X;
}

void tc_rcexcess_free(struct tc_rcexcess *x)
{
	if (!x) return;
	free(x->ctx);
	free(x->rank);
	free(x);
}
