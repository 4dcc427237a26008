/* rcdelay_dist.c — the long-term delay costs (delaycost.c, docs/rootcause.md
 * "Delay costs") replayed over parts (analysis_replay.h), and the same
 * figures read off a serial result.
 *
 * Each wait (an MPI activity that waited for a partner) asks its partner's
 * process for the partner's activity just before the wait's ready; that
 * process answers the waits in the serial collect order (victims' ranks in
 * order, each one's activities in order) and, when some compute context has
 * no typical value, gives its own activities their thin-context delays as it
 * goes (delaycost_internal.h, rc_thin_pick: the serial rule over the
 * partner's activities, which only that process holds).  The sweep itself
 * passes costs from each wait to the partner's last wait before it, latest
 * first, across every rank: a chain of additions whose order is the serial
 * one only when made in one place.  It runs at process 0 on the waits and
 * the activities with excess, which it gathers (378,299 waits and their
 * partners' activities of 18.6 M events on the bench archive, docs/scale.md
 * "Delay costs"), with the serial code (rc_delay_sweep). */
#include <stdlib.h>
#include <string.h>

#include "delaycost_internal.h"
#include "rcctx_internal.h"
#include "rcdist_internal.h"
#include "replay_internal.h"

/* A wait on its way to its partner's process (the question) and to process 0. */
struct dwait { uint64_t ready, start, act; double sec; uint32_t rank, partner; };
struct dans { uint64_t j; };   /* the partner's activity before ready (serial numbering), TC_NONE: none */

struct dd {
	const struct tc_part *p;
	const struct rc_dacts *a;
	struct rc_dexcess *x;
	bool thin;        /* some compute context has no typical value */
};

static struct rc_thin_act thin_dist(void *ctx, uint32_t p, uint32_t i)
{
	const struct dd *x = ctx;
	const struct rc_dacts *a = x->a;
	uint64_t start = dact_start(a, p - a->lo, i);
	bool mpi = dact_mpi(a, i);
	return (struct rc_thin_act){ a->end[i] - start, x->x->excess[i], mpi, mpi && dact_ready(a, i, start) > start,
				     x->x->ctx[a->ctx[i]].typical };
}

/* A wait's question at its partner's process: answered in the serial collect
 * order, the thin-context delay given on the way. */
static void answer(void *ctx, const void *req, void *ans)
{
	struct dd *x = ctx;
	const struct dwait *w = req;
	uint32_t j = w->partner < x->p->t->nranks ? dact_before(x->a, w->partner - x->a->lo, w->ready) : TC_NONE;
	struct dans r = { j == TC_NONE ? TC_NONE : x->a->base + j };
	memcpy(ans, &r, sizeof r);
	if (!x->thin || j == TC_NONE) return;
	struct rc_thin_src src = { thin_dist, x };
	double wt;
	uint32_t best = rc_thin_pick(x->p->t, &src, w->partner, x->a->first[w->partner - x->a->lo], j, w->sec, &wt);
	if (best != TC_NONE && wt > x->x->excess[best]) {
		x->x->excess[best] = (float)wt;
		x->x->outlier[best] = 3;
	}
}

/* This process's waits in collect order. */
static struct dwait *collect(const struct tc_trace *t, const struct rc_dacts *a, size_t *n)
{
	VEC(struct dwait) v = { 0 };
	for (uint32_t r = a->lo; r < a->hi; r++) {
		uint32_t q = r - a->lo;
		for (uint32_t i = a->first[q]; i < a->first[q + 1]; i++) {
			uint64_t start = dact_start(a, q, i);
			uint32_t k = dact_wait(a, i);
			if (k == TC_NONE || a->ready[k] <= start) continue;
			struct dwait w = { a->ready[k], start, a->base + i, tc_dur(t, a->ready[k] - start), r, a->partner[k] };
			VEC_PUSH(v, w);
		}
	}
	*n = v.n;
	return v.a;
}

/* An activity with excess on its way to process 0 (serial numbering). */
struct dex { uint64_t act; float excess; uint8_t outlier, pad[3]; };

/* Process 0: the sweep over every wait (in collect order, j its partner's
 * activity) and every activity with excess. */
static struct tc_rcdelay *sweep_at0(uint32_t N, const uint32_t *act_first, const uint64_t *rank_t0,
				    const struct dwait *w, const struct dans *j, size_t nw, const struct dex *ex, size_t nx)
{
	struct wref *wr = xmalloc((nw + 1) * sizeof *wr), *tmp = xmalloc((nw + 1) * sizeof *tmp);
	struct wst *ws = xmalloc((nw + 1) * sizeof *ws);
	uint64_t *wstart = xmalloc((nw + 1) * sizeof *wstart);
	uint32_t *wact = xmalloc((nw + 1) * sizeof *wact), *wfirst = xcalloc((size_t)N + 1, sizeof *wfirst);
	for (size_t k = 0; k < nw; k++) {
		uint32_t jj = w[k].partner < N ? (uint32_t)j[k].j : TC_NONE;
		wr[k] = (struct wref){ w[k].ready, (uint32_t)k, jj, w[k].partner };
		ws[k] = (struct wst){ w[k].ready, w[k].sec, 0 };
		wstart[k] = w[k].start;
		wact[k] = (uint32_t)w[k].act;
		wfirst[w[k].rank + 1]++;
	}
	for (uint32_t r = 0; r < N; r++) wfirst[r + 1] += wfirst[r];
	uint32_t *xact = xmalloc((nx + 1) * sizeof *xact);
	float *xval = xmalloc((nx + 1) * sizeof *xval);
	for (size_t k = 0; k < nx; k++) xact[k] = (uint32_t)ex[k].act, xval[k] = ex[k].excess;
	struct tc_rcdelay *D = xcalloc(1, sizeof *D);
	D->nranks = N;
	D->rank = xcalloc((size_t)N + 1, sizeof *D->rank);
	double *cost = xcalloc((size_t)N + 1, sizeof *cost);
	struct rc_dsweep in = { .nranks = N, .act_first = act_first, .rank_t0 = rank_t0, .w = wr, .tmp = tmp, .nw = nw,
				.wfirst = wfirst, .wact = wact, .wstart = wstart, .ws = ws, .xact = xact, .xval = xval,
				.nx = nx, .delay_cost = cost };
	rc_delay_sweep(&in, &D->unattributed);
	for (uint32_t r = 0, k = 0; r < N; r++) {
		uint64_t h = 0, n = 0;
		for (; k < nx && xact[k] < act_first[r + 1]; k++, n++) {
			uint32_t b, c;
			memcpy(&b, &ex[k].excess, sizeof b);
			memcpy(&c, &in.ex_delay[k], sizeof c);
			h = rc_mix(rc_mix(rc_mix(rc_mix(h, xact[k] - act_first[r]), b), ex[k].outlier), c);
		}
		D->rank[r] = (struct tc_rc_drank){ cost[r], n, h };
	}
	D->nexcess = nx, D->ex_act = xact, D->ex_excess = xval, D->ex_delay = in.ex_delay;
	D->ex_outlier = xmalloc(nx + 1);
	for (size_t k = 0; k < nx; k++) D->ex_outlier[k] = ex[k].outlier;
	free(wr), free(tmp), free(ws), free(wstart), free(wact), free(wfirst), free(cost);
	return D;
}

/* Every rank's first activity (serial numbering) and start, at process 0. */
struct frow { uint64_t rank, first, n, t0; };

struct tc_rcdelay *rc_delay_dist(const struct tc_part *p, const struct tc_dist *d, const struct rc_dacts *a,
				 struct rc_dexcess *x)
{
	const struct tc_trace *t = p->t;
	uint32_t N = t->nranks;
	struct dd dd = { p, a, x, false };
	for (uint32_t c = 0; c < x->nctx && !dd.thin; c++) dd.thin = x->ctx[c].kind == TC_ACT_COMPUTE && !x->ctx[c].typical;
	size_t nw;
	struct dwait *w = collect(t, a, &nw);
	uint64_t *rank_first = replay_firsts(d, p->lo, N);
	int *to = xmalloc((nw + 1) * sizeof *to);
	for (size_t k = 0; k < nw; k++) to[k] = replay_owner(rank_first, d->count, w[k].partner < N ? w[k].partner : 0);
	struct dans *j = replay_ask(d, w, to, nw, sizeof *w, sizeof *j, answer, &dd, NULL, NULL);
	free(to), free(rank_first);
	/* the activities with excess, after the thin-context delays */
	VEC(struct dex) ex = { 0 };
	for (size_t i = 0; i < a->n; i++)
		if (x->excess[i] != 0) {
			struct dex e = { a->base + i, x->excess[i], x->outlier[i], { 0 } };
			VEC_PUSH(ex, e);
		}
	uint32_t mine = p->hi - p->lo;
	struct frow *rows = xmalloc(((size_t)mine + 1) * sizeof *rows);
	for (uint32_t q = 0; q < mine; q++)
		rows[q] = (struct frow){ p->lo + q, a->base + a->first[q], a->first[q + 1] - a->first[q], a->rank_t0[q] };
	size_t nwin, nj, nx, nf;
	struct dwait *win = replay_gather0(d, w, nw, sizeof *w, &nwin);
	struct dans *jin = replay_gather0(d, j, nw, sizeof *j, &nj);
	struct dex *xin = replay_gather0(d, ex.a, ex.n, sizeof *ex.a, &nx);
	struct frow *fin = replay_gather0(d, rows, mine, sizeof *rows, &nf);
	struct tc_rcdelay *D = NULL;
	if (d->index == 0) {
		uint32_t *act_first = xcalloc((size_t)N + 1, sizeof *act_first);
		uint64_t *rank_t0 = xcalloc((size_t)N + 1, sizeof *rank_t0);
		for (size_t k = 0; k < nf; k++) {
			act_first[fin[k].rank] = (uint32_t)fin[k].first;
			act_first[fin[k].rank + 1] = (uint32_t)(fin[k].first + fin[k].n);
			rank_t0[fin[k].rank] = fin[k].t0;
		}
		D = sweep_at0(N, act_first, rank_t0, win, jin, nwin, xin, nx);
		free(act_first), free(rank_t0);
	}
	free(w), free(j), free(rows), free(win), free(jin), free(xin), free(fin);
	VEC_FREE(ex);
	return D;
}

/* --- the serial reference ----------------------------------------------------------- */

struct tc_rcdelay *tc_rcdelay_of(const struct tc_rootcause *rc)
{
	struct tc_rcdelay *D = xcalloc(1, sizeof *D);
	D->nranks = rc->nranks;
	D->rank = xcalloc((size_t)rc->nranks + 1, sizeof *D->rank);
	D->unattributed = rc->unattributed;
	for (uint32_t r = 0, k = 0; r < rc->nranks; r++) {
		uint64_t h = 0, n = 0;
		for (; k < rc->nexcess && rc->ex_act[k] < rc->act_first[r + 1]; k++, n++) {
			uint32_t i = rc->ex_act[k], b, c;
			memcpy(&b, &rc->act_excess[i], sizeof b);
			memcpy(&c, &rc->ex_delay[k], sizeof c);
			h = rc_mix(rc_mix(rc_mix(rc_mix(h, i - rc->act_first[r]), b), rc->act_outlier[i]), c);
		}
		D->rank[r] = (struct tc_rc_drank){ rc->delay_cost[r], n, h };
	}
	return D;
}

void tc_rcdelay_free(struct tc_rcdelay *x)
{
	if (!x) return;
	free(x->rank);
	free(x->ex_act), free(x->ex_excess), free(x->ex_delay), free(x->ex_outlier);
	free(x);
}
