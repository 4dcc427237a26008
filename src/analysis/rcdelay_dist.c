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
 * partner's activities, which only that process holds).
 *
 * The sweep is a backward replay (docs/scale.md "Delay costs").  What
 * handing a wait's cost to its partner's interval depends on but the cost
 * (rc_dc_plan: the partner's activities with excess and their sums, its
 * last wait before the ready) is the partner's process's, so that process
 * plans every wait asked of it.  A wait's cost is its waiting plus what the
 * later waits passed into it, which are all waits whose partner is its own
 * rank: planned at its own process.  So a wait's cost is known at its
 * victim's process once every wait passing into it has been handled; it
 * then goes to the partner's process (one message), which hands it on: a
 * range addition over the partner's activities with excess, and a
 * remainder into the partner's own wait, which is local.  Rounds of one
 * exchange each go on until every wait is handled (a chain of waits that
 * crosses processes takes a round per crossing; chains inside one process
 * go in one).  Every sum whose order matters is made in the serial sweep's
 * order (latest ready first, ties the later wait first): a wait's passed-in
 * remainders sorted by that order before they are added; each range
 * addition kept with its wait's place and applied in that order at the end;
 * the unattributed and lost costs, one record per wait, sorted across the
 * processes (a sample sort) and added by a fold over them.  Process 0
 * gathers only each rank's row; each process keeps its activities with
 * excess (the cache file gets them from every process). */
#include <stdlib.h>
#include <string.h>

#include "delaycost_internal.h"
#include "rcctx_internal.h"
#include "rcdist_internal.h"
#include "replay_internal.h"

/* A wait on its way to its partner's process (the question) and to process 0. */
struct dwait { uint64_t ready, start, act, gk; double sec; uint32_t rank, partner; };
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

/* This process's waits in collect order (gk: their place in the whole
 * trace's, numbered by the caller). */
static struct dwait *collect(const struct tc_trace *t, const struct rc_dacts *a, size_t *n)
{
	VEC(struct dwait) v = { 0 };
	for (uint32_t r = a->lo; r < a->hi; r++) {
		uint32_t q = r - a->lo;
		for (uint32_t i = a->first[q]; i < a->first[q + 1]; i++) {
			uint64_t start = dact_start(a, q, i);
			uint32_t k = dact_wait(a, i);
			if (k == TC_NONE || a->ready[k] <= start) continue;
			struct dwait w = { a->ready[k], start, a->base + i, 0, tc_dur(t, a->ready[k] - start), r, a->partner[k] };
			VEC_PUSH(v, w);
		}
	}
	*n = v.n;
	return v.a;
}

/* An activity with excess on its way to process 0 (serial numbering), with its delay cost. */
struct dex { uint64_t act; float excess, delay; uint8_t outlier, pad[7]; };

/* --- the process's side of the sweep ------------------------------------------------------- */

/* A wait's place in the sweep's order: latest ready first, ties the later
 * wait (collect order) first. */
struct skey { uint64_t ready, gk; };
static inline bool skey_before(struct skey a, struct skey b)
{
	return a.ready != b.ready ? a.ready > b.ready : a.gk > b.gk;
}

/* A remainder passed into a wait, a range addition, a wait's unattributed
 * and lost costs: each with its wait's place. */
struct pin { struct skey k; double rest; };
struct radd { struct skey k; uint32_t x; int32_t dopen; double per; };
struct usum { struct skey k; double u, l; uint8_t fu, fl, pad[6]; };

static int pin_cmp(const void *a, const void *b)
{
	const struct pin *x = a, *y = b;
	return skey_before(x->k, y->k) ? -1 : skey_before(y->k, x->k);
}
static int radd_cmp(const void *a, const void *b)
{
	const struct radd *x = a, *y = b;
	if (x->x != y->x) return x->x < y->x ? -1 : 1;
	return skey_before(x->k, y->k) ? -1 : skey_before(y->k, x->k);
}
static int usum_cmp(const void *a, const void *b)
{
	const struct usum *x = a, *y = b;
	return skey_before(x->k, y->k) ? -1 : skey_before(y->k, x->k);
}

struct sweep {
	const struct tc_dist *d;
	struct rc_dc dc;               /* this process's ranks' waits and activities with excess */
	uint32_t *act_first, *wfirst;  /* dc's (nranks + 1) */
	uint64_t *rank_t0;
	/* the waits asked of this process (partner here), by gk: their plans */
	const struct dwait *got;
	size_t ngot;
	struct rc_dplan *plan;
	bool *pass;                    /* the remainder passes into the partner's wait (plan.tw) */
	/* this process's own waits (dc.ws's order): what passes into them */
	const struct dwait *own;
	size_t nown;
	uint32_t *nleft, *pfirst, *pfill;   /* waits still to pass in; their room in pins */
	struct pin *pins;
	VEC(uint32_t) ready;           /* own waits whose cost is known */
	VEC(struct radd) adds;
	VEC(struct usum) sums;
};

/* The process's sparse lists over its own ranks (the others' empty), its
 * waits (collect order is each rank's in order) and activities with excess. */
static void sweep_lists(struct sweep *S, uint32_t N, const struct rc_dacts *a, const struct dwait *w, size_t nw,
			const struct dex *ex, size_t nx, float *xval)
{
	struct rc_dc *dc = &S->dc;
	uint32_t nmine = a->hi - a->lo;
	S->act_first = xcalloc((size_t)N + 2, sizeof *S->act_first);
	S->rank_t0 = xcalloc((size_t)N + 1, sizeof *S->rank_t0);
	S->wfirst = xcalloc((size_t)N + 2, sizeof *S->wfirst);
	for (uint32_t r = 0; r <= N; r++) {
		uint32_t q = r < a->lo ? 0 : r > a->hi ? nmine : r - a->lo;
		S->act_first[r] = (uint32_t)(a->base + a->first[q]);
		if (r >= a->lo && r < a->hi) S->rank_t0[r] = a->rank_t0[q];
	}
	for (size_t k = 0; k < nw; k++) S->wfirst[w[k].rank + 1]++;
	for (uint32_t r = 0; r < N; r++) S->wfirst[r + 1] += S->wfirst[r];
	*dc = (struct rc_dc){ .nranks = N, .act_first = S->act_first, .rank_t0 = S->rank_t0, .wfirst = S->wfirst };
	dc->wact = xmalloc((nw + 1) * sizeof *dc->wact);
	dc->wstart = xmalloc((nw + 1) * sizeof *dc->wstart);
	dc->ws = xmalloc((nw + 1) * sizeof *dc->ws);
	for (size_t k = 0; k < nw; k++) {
		dc->wact[k] = (uint32_t)w[k].act, dc->wstart[k] = w[k].start;
		dc->ws[k] = (struct wst){ w[k].ready, w[k].sec, 0 };
	}
	uint32_t *xa = xmalloc((nx + 1) * sizeof *xa);
	for (size_t k = 0; k < nx; k++) xa[k] = (uint32_t)ex[k].act, xval[k] = ex[k].excess;
	rc_dc_prepare(dc, xa, xval, nx);
}

/* Every wait asked of this process planned (its partner's interval here),
 * and how many pass into each own wait. */
static void sweep_plan(struct sweep *S, uint32_t N, const struct rc_dacts *a)
{
	S->plan = xmalloc((S->ngot + 1) * sizeof *S->plan);
	S->pass = xcalloc(S->ngot + 1, sizeof *S->pass);
	S->nleft = xcalloc(S->nown + 1, sizeof *S->nleft);
	for (size_t g = 0; g < S->ngot; g++) {
		const struct dwait *w = &S->got[g];
		uint32_t p = w->partner, j = TC_NONE;
		if (p < N && p >= a->lo && p < a->hi) {
			uint32_t jl = dact_before(a, p - a->lo, w->ready);
			j = jl == TC_NONE ? TC_NONE : (uint32_t)(a->base + jl);
		}
		struct wref r = { w->ready, 0, j, p };
		rc_dc_plan(&S->dc, &r, w->sec, &S->plan[g]);
		uint32_t tw = S->plan[g].tw;
		S->pass[g] = !S->plan[g].early && tw != TC_NONE && S->dc.ws[tw].ready < w->ready;
		if (S->pass[g]) S->nleft[tw]++;
	}
	S->pfirst = xcalloc(S->nown + 1, sizeof *S->pfirst);
	S->pfill = xcalloc(S->nown + 1, sizeof *S->pfill);
	for (size_t i = 0; i < S->nown; i++) S->pfirst[i + 1] = S->pfirst[i] + S->nleft[i];
	S->pins = xmalloc(((size_t)S->pfirst[S->nown] + 1) * sizeof *S->pins);
	for (size_t i = 0; i < S->nown; i++)
		if (!S->nleft[i]) VEC_PUSH(S->ready, (uint32_t)i);
}

/* The wait asked of this process whose place is gk (got is in gk order). */
static size_t got_at(const struct sweep *S, uint64_t gk)
{
	size_t lo = 0, hi = S->ngot;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (S->got[mid].gk < gk) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/* Wait g (asked of this process) handed on with cost C, as the serial sweep's
 * assign and its caller do, each sum kept with the wait's place. */
static void hand_on(struct sweep *S, size_t g, double C)
{
	const struct rc_dplan *pl = &S->plan[g];
	struct skey k = { S->got[g].ready, S->got[g].gk };
	struct rc_dcost v = rc_dc_cost(pl, C);
	struct usum u = { k, 0, 0, 0, 0, { 0 } };
	if (!pl->early) {
		if (pl->from != TC_NONE) {
			struct radd x = { k, pl->from, 1, v.per };
			VEC_PUSH(S->adds, x);
			if (pl->zend != TC_NONE) {
				struct radd z = { k, pl->zend, -1, -v.per };
				VEC_PUSH(S->adds, z);
			}
		}
		u.l = v.lost, u.fl = 1;
	}
	if (S->pass[g]) {
		uint32_t tw = pl->tw;
		S->pins[S->pfirst[tw] + S->pfill[tw]++] = (struct pin){ k, v.rest };
		if (!--S->nleft[tw]) VEC_PUSH(S->ready, tw);
	} else {
		u.u = v.rest, u.fu = 1;
	}
	if (u.fu || u.fl) VEC_PUSH(S->sums, u);
}

/* Own wait i's cost: its waiting plus what passed into it, added in the sweep's order. */
static double cost_of(struct sweep *S, uint32_t i)
{
	struct pin *p = S->pins + S->pfirst[i];
	uint32_t n = S->pfill[i];
	qsort(p, n, sizeof *p, pin_cmp);
	double prop = 0;
	for (uint32_t k = 0; k < n; k++) prop += p[k].rest;
	return S->dc.ws[i].sec + prop;
}

struct cmsg { uint64_t gk; double C; };

/* The rounds: the own waits whose cost is known go to their partners'
 * processes (to_partner[i], where own wait i was asked; this one's handled
 * at once), until every wait is handled. */
static void sweep_rounds(struct sweep *S, const int *to_partner)
{
	const struct tc_dist *d = S->d;
	size_t left = S->nown;
	VEC(struct cmsg) out = { 0 };
	VEC(int) to = { 0 };
	for (;;) {
		while (S->ready.n) {
			uint32_t i = S->ready.a[--S->ready.n];
			const struct dwait *w = &S->own[i];
			struct cmsg m = { w->gk, cost_of(S, i) };
			int q = to_partner[i];   /* the process it was asked of */
			left--;
			if (q == d->index) {
				hand_on(S, got_at(S, m.gk), m.C);
			} else {
				VEC_PUSH(out, m);
				VEC_PUSH(to, q);
			}
		}
		uint64_t more[2] = { left, out.n };
		d->reduce(d->ctx, more, 2, TC_DIST_SUM);
		if (!more[1]) break;   /* nothing in flight: done (left is 0 then: the waits pass into earlier ones only) */
		size_t nin;
		struct cmsg *in = replay_send(d, out.a, to.a, out.n, sizeof *out.a, &nin);
		out.n = to.n = 0;
		for (size_t k = 0; k < nin; k++) hand_on(S, got_at(S, in[k].gk), in[k].C);
		free(in);
	}
	VEC_FREE(out);
	VEC_FREE(to);
}

/* The range additions in the sweep's order, per activity with excess. */
static void apply_adds(struct sweep *S)
{
	qsort(S->adds.a, S->adds.n, sizeof *S->adds.a, radd_cmp);
	for (size_t k = 0; k < S->adds.n; k++) {
		const struct radd *x = &S->adds.a[k];
		S->dc.coef[x->x] += x->per;
		S->dc.open[x->x] += x->dopen;
	}
}

/* The unattributed and lost costs of every wait added in the sweep's order
 * across the processes: sorted by a sample sort (process 0 the latest
 * waits), then a fold in process order.  out: the two sums, on every process. */
struct fold2 { const struct usum *r; size_t n; };

static void fold2_step(void *arg, void *state)
{
	const struct fold2 *f = arg;
	double *s = state;
	for (size_t k = 0; k < f->n; k++) {
		if (f->r[k].fu) s[0] += f->r[k].u;
		if (f->r[k].fl) s[1] += f->r[k].l;
	}
}

static void ordered_sums(const struct tc_dist *d, struct usum *r, size_t n, double out[2])
{
	enum { SAMPLES = 64 };
	int P = d->count;
	qsort(r, n, sizeof *r, usum_cmp);
	struct usum smp[SAMPLES];
	size_t ns = TC_MIN(n, (size_t)SAMPLES), nall, nsp;
	for (size_t k = 0; k < ns; k++) smp[k] = r[k * n / ns];
	struct usum *all = replay_gather0(d, smp, ns, sizeof *smp, &nall);
	struct usum *spl = xmalloc(((size_t)P + 1) * sizeof *spl);   /* process q takes the keys from spl[q - 1] (excluded) to spl[q] */
	size_t nspl = 0;
	if (d->index == 0 && nall) {
		qsort(all, nall, sizeof *all, usum_cmp);
		for (int q = 1; q < P; q++) spl[nspl++] = all[(size_t)q * nall / (size_t)P];
	}
	struct usum *sp = replay_bcast0(d, spl, nspl, sizeof *spl, &nsp);
	int *to = xmalloc((n + 1) * sizeof *to);
	for (size_t k = 0, q = 0; k < n; k++) {   /* r is in the order: the destinations rise */
		while (q < nsp && !skey_before(r[k].k, sp[q].k)) q++;
		to[k] = (int)q;
	}
	size_t nin;
	struct usum *in = replay_send(d, r, to, n, sizeof *r, &nin);
	qsort(in, nin, sizeof *in, usum_cmp);
	struct fold2 f = { in, nin };
	out[0] = out[1] = 0;
	d->chain(d->ctx, out, 2 * sizeof *out, fold2_step, &f);
	free(all), free(spl), free(sp), free(to), free(in);
}

static void sweep_free(struct sweep *S)
{
	free(S->act_first), free(S->rank_t0), free(S->wfirst);
	free(S->dc.wact), free(S->dc.wstart), free(S->dc.ws), free(S->dc.xfirst), free(S->dc.xact), free(S->dc.xpre);
	free(S->dc.coef);
	free(S->dc.open);
	free(S->plan), free(S->pass), free(S->nleft), free(S->pfirst), free(S->pfill), free(S->pins);
	VEC_FREE(S->ready);
	VEC_FREE(S->adds);
	VEC_FREE(S->sums);
}

/* A rank's row on its way to process 0. */
struct drow { uint64_t rank; struct tc_rc_drank r; };

/* Process 0: the rows into the result (the activities with excess counted:
 * every process holds its own). */
static struct tc_rcdelay *result_at0(uint32_t N, const struct drow *rows, size_t nrow, uint64_t nx, double unattributed)
{
	struct tc_rcdelay *D = xcalloc(1, sizeof *D);
	D->nranks = N;
	D->rank = xcalloc((size_t)N + 1, sizeof *D->rank);
	for (size_t k = 0; k < nrow; k++)
		if (rows[k].rank < N) D->rank[rows[k].rank] = rows[k].r;
	D->unattributed = unattributed;
	D->nexcess = nx;
	return D;
}

/* This process's activities with excess, with their delay costs (*ex). */
static void ex_slice(const struct tc_dist *d, const struct dex *e, size_t n, struct tc_rc_exslice *ex)
{
	*ex = (struct tc_rc_exslice){ .first = n, .n = n };
	d->exscan(d->ctx, &ex->first, 1, TC_DIST_SUM);
	if (d->index == 0) ex->first = 0;
	ex->act = xmalloc((n + 1) * sizeof *ex->act), ex->excess = xmalloc((n + 1) * sizeof *ex->excess);
	ex->delay = xmalloc((n + 1) * sizeof *ex->delay), ex->outlier = xmalloc(n + 1);
	for (size_t k = 0; k < n; k++)
		ex->act[k] = (uint32_t)e[k].act, ex->excess[k] = e[k].excess, ex->delay[k] = e[k].delay, ex->outlier[k] = e[k].outlier;
}

/* Each own rank's row: its delay cost, its activities with excess and their digest. */
static struct drow *rows_of(const struct sweep *S, const struct rc_dacts *a, const struct dex *ex,
			    const double *cost)
{
	uint32_t nmine = a->hi - a->lo;
	struct drow *rows = xmalloc(((size_t)nmine + 1) * sizeof *rows);
	for (uint32_t q = 0, k = 0; q < nmine; q++) {
		uint32_t r = a->lo + q, end = S->act_first[r + 1];
		uint64_t h = 0, n = 0;
		for (; k < S->dc.xfirst[r + 1] && S->dc.xact[k] < end; k++, n++) {
			uint32_t b, c;
			memcpy(&b, &ex[k].excess, sizeof b);
			memcpy(&c, &ex[k].delay, sizeof c);
			h = rc_mix(rc_mix(rc_mix(rc_mix(h, S->dc.xact[k] - S->act_first[r]), b), ex[k].outlier), c);
		}
		rows[q] = (struct drow){ r, { cost[r], n, h } };
	}
	return rows;
}

struct tc_rcdelay *rc_delay_dist(const struct tc_part *p, const struct tc_dist *d, const struct rc_dacts *a,
				 struct rc_dexcess *x, struct tc_rc_exslice *exs)
{
	const struct tc_trace *t = p->t;
	uint32_t N = t->nranks;
	struct dd dd = { p, a, x, false };
	for (uint32_t c = 0; c < x->nctx && !dd.thin; c++) dd.thin = x->ctx[c].kind == TC_ACT_COMPUTE && !x->ctx[c].typical;
	/* the waits, each asked of its partner's process (the thin-context delays on the way) */
	size_t nw;
	struct dwait *w = collect(t, a, &nw);
	uint64_t base = nw;
	d->exscan(d->ctx, &base, 1, TC_DIST_SUM);
	if (d->index == 0) base = 0;
	for (size_t k = 0; k < nw; k++) w[k].gk = base + k;
	uint64_t *rank_first = replay_firsts(d, p->lo, N);
	int *to = xmalloc((nw + 1) * sizeof *to);
	for (size_t k = 0; k < nw; k++) to[k] = replay_owner(rank_first, d->count, w[k].partner < N ? w[k].partner : 0);
	void *got = NULL;
	size_t ngot = 0;
	struct dans *j = replay_ask(d, w, to, nw, sizeof *w, sizeof *j, answer, &dd, &got, &ngot);
	free(j);
	/* the activities with excess, after the thin-context delays */
	VEC(struct dex) ex = { 0 };
	for (size_t i = 0; i < a->n; i++)
		if (x->excess[i] != 0) {
			struct dex e = { a->base + i, x->excess[i], 0, x->outlier[i], { 0 } };
			VEC_PUSH(ex, e);
		}
	/* the sweep */
	struct sweep S = { .d = d, .got = got, .ngot = ngot, .own = w, .nown = nw };
	float *xval = xmalloc((ex.n + 1) * sizeof *xval), *delay = xmalloc((ex.n + 1) * sizeof *delay);
	sweep_lists(&S, N, a, w, nw, ex.a, ex.n, xval);
	sweep_plan(&S, N, a);
	sweep_rounds(&S, to);
	apply_adds(&S);
	double *cost = xcalloc((size_t)N + 1, sizeof *cost), sums[2];
	rc_dc_finish(&S.dc, xval, delay, cost);
	for (size_t k = 0; k < ex.n; k++) ex.a[k].delay = delay[k];
	ordered_sums(d, S.sums.a, S.sums.n, sums);
	/* each rank's row to process 0; the activities with excess stay */
	struct drow *rows = rows_of(&S, a, ex.a, cost);
	size_t nrow;
	struct drow *rin = replay_gather0(d, rows, a->hi - a->lo, sizeof *rows, &nrow);
	ex_slice(d, ex.a, ex.n, exs);
	uint64_t nx = ex.n;
	d->reduce(d->ctx, &nx, 1, TC_DIST_SUM);
	struct tc_rcdelay *D = d->index == 0 ? result_at0(N, rin, nrow, nx, sums[0] + sums[1]) : NULL;
	sweep_free(&S);
	free(w), free(to), free(got), free(rank_first), free(xval), free(delay), free(cost), free(rows), free(rin);
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
