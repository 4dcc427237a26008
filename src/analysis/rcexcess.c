/* rcexcess.c — typical values per context and excess over them, the passes
 * of tc_rootcause_compute after the activities (analysis_rootcause.h,
 * docs/rootcause.md §3 and "Cost"):
 *  3. contexts: the activities' values gathered context by context in one
 *     pass over the activities (rank order within a context), then per context
 *     the median and MAD by selection (linear), each rank's median there, the
 *     back-off of thin compute contexts, and the pooled robust spread of
 *     compute, from which the noise floor;
 *  4. excess: one pass over the activities sets the outlier excess, counts
 *     the stalls, sums the waiting per rank and applies the persistent excess
 *     of the ranks whose median in a context stands above the cross-rank lower
 *     quartile (decided per context beforehand). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcexcess_internal.h"

/* The room in g->val of each context (its values, or at most one per block
 * of each run), and of each context's runs. */
static void gather_room(const struct tc_rootcause *rc, struct groups *g, struct pick *pk, uint32_t *maxn)
{
	uint32_t nc = rc->nctx;
	*maxn = 0;
	g->first = xcalloc((size_t)nc + 1, sizeof *g->first);
	g->rfirst = xcalloc((size_t)nc + 1, sizeof *g->rfirst);
	for (uint32_t c = 0; c < nc; c++) {
		const struct tc_rc_ctx *C = &rc->ctx[c];
		pk[c] = (struct pick){ .rank = TC_NONE, .stride = sample_stride(rc, C) };
		uint32_t room = pk[c].stride == 1 ? C->n : C->n / pk[c].stride + C->nranks + 1;
		g->first[c + 1] = g->first[c] + room;  /* counted while building the activities */
		*maxn = TC_MAX(*maxn, room);
		/* room for each context's runs: its rank count from the activity pass */
		g->rfirst[c + 1] = g->rfirst[c] + C->nranks;
	}
}

/* A transfer's own time shows whole only when the partner's lateness hid
 * none of it: a blocking send whose receiver was ready (no late-receiver
 * wait), a receive (Recv, Wait) whose sender entered after it (a late-sender
 * wait: rc_whole_transfer).  Otherwise part of the transfer ran before the
 * call's own time began (the receive was posted in the middle of a send that
 * was still moving its data, or the receive was entered while its message
 * was on the way), and the own time is the rest of it.  A latency inside
 * blocking sends (emulated inter-node latency, a slow injection) makes such
 * contexts two-humped: a ring's receives are 3 ms where the receiver came
 * first and ~0 where it came last, and the 3 ms ones were outliers
 * ("background") though every message took the same 3 ms
 * (docs/rootcause.md §3, "Hidden transfers"). */

uint8_t rc_p2p_class(const struct tc_trace *t, const struct tc_rc_ctx *C)
{
	if (C->kind != TC_ACT_MPI || C->region >= t->nregions) return 0;
	uint8_t k = t->regions[C->region].kind;
	return k == TC_RK_MPI_RECV || k == TC_RK_MPI_WAIT ? P2P_RECV : k == TC_RK_MPI_SEND ? P2P_SEND : 0;
}

/* The groups' arrays once first and rfirst are set (maxn: the largest room). */
static void groups_alloc(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, uint32_t maxn)
{
	uint32_t nc = rc->nctx;
	size_t room = g->first[nc];
	g->val = tc_rc_scratch(rc, ((room ? room : 1) + (size_t)maxn + 2) * sizeof *g->val);
	g->buf = g->val + (room ? room : 1);
	g->end = xmalloc(((size_t)nc + 1) * sizeof *g->end);
	memcpy(g->end, g->first, ((size_t)nc + 1) * sizeof *g->end);
	g->rend = xmalloc(((size_t)nc + 1) * sizeof *g->rend);
	memcpy(g->rend, g->rfirst, ((size_t)nc + 1) * sizeof *g->rend);
	g->runs = tc_rc_big(((size_t)g->rfirst[nc] + 1) * sizeof *g->runs);
	g->vbin = tc_rc_big(room ? room : 1);  /* only the MPI contexts' pages are written (rc_groups_add) */
	g->p2p = xmalloc((size_t)nc + 1);
	for (uint32_t c = 0; c < nc; c++) g->p2p[c] = rc_p2p_class(t, &rc->ctx[c]);
}

void rc_groups_begin(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, struct pick **pk)
{
	uint32_t maxn;
	*g = (struct groups){ 0 };
	*pk = xmalloc(((size_t)rc->nctx + 1) * sizeof **pk);
	gather_room(rc, g, *pk, &maxn);
	groups_alloc(t, rc, g, maxn);
}

void rc_groups_sized(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, const uint32_t *room,
		     const uint32_t *runs)
{
	uint32_t nc = rc->nctx, maxn = 0;
	*g = (struct groups){ 0 };
	g->first = xcalloc((size_t)nc + 1, sizeof *g->first);
	g->rfirst = xcalloc((size_t)nc + 1, sizeof *g->rfirst);
	for (uint32_t c = 0; c < nc; c++) {
		g->first[c + 1] = g->first[c] + room[c];
		g->rfirst[c + 1] = g->rfirst[c] + runs[c];
		maxn = TC_MAX(maxn, room[c]);
	}
	groups_alloc(t, rc, g, maxn);
}

/* One pass over the activities: their values into g->val, context by
 * context, and the runs (a context's activities on one rank); the distinct
 * ranks each context's picks saw into *nranks (caller frees). */
static void gather(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, uint32_t **nranks)
{
	struct pick *pk;
	rc_groups_begin(t, rc, g, &pk);
	uint64_t span = rc->t1 > rc->t0 ? rc->t1 - rc->t0 : 1;
	for (uint32_t r = 0; r < rc->nranks; r++) {
		uint64_t s = rc->rank_t0[r];  /* the activity's start */
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			uint32_t c = tc_rc_act_ctx(rc, i);
			uint64_t from = s, e = tc_rc_act_end(rc, i);
			s = e;
			if (!pick_next(&pk[c], c, r)) continue;
			bool mpi = rc->ctx[c].kind == TC_ACT_MPI;
			uint32_t w = mpi ? tc_rc_wait_of(rc, i) : TC_NONE;
			const struct tc_rc_wait *W = w != TC_NONE ? &rc->waits[w] : NULL;
			uint8_t vbin;
			double v = rc_act_value(t, rc->t0, span, from, e, mpi, W, W ? W->ready : 0, W ? W->edge : 0,
						g->p2p[c], &vbin);
			rc_groups_add(g, c, r, v, vbin, !pk[c].run);
			pk[c].run = true;
		}
	}
	*nranks = xmalloc(((size_t)rc->nctx + 1) * sizeof **nranks);
	for (uint32_t c = 0; c < rc->nctx; c++) (*nranks)[c] = pk[c].nranks;
	free(pk);
}

static void stalls_begin(struct tc_rootcause *rc, double scale, struct stalls *s)
{
	/* a stall: more than a tenth of the typical compute segment (the one that
	 * holds most compute time) above the context's median, and above the floor */
	rc->stall_min = TC_MAX(rc->noise_floor, 0.1 * scale);
	s->cr = xcalloc(rc->nranks + 1, 1);
	s->mr = xcalloc(rc->nranks + 1, 1);
	s->cn = xcalloc(rc->nranks + 1, sizeof *s->cn);
	s->cs = xcalloc(rc->nranks + 1, sizeof *s->cs);
	s->cw = xcalloc(rc->nranks + 1, sizeof *s->cw);
	s->csw = xcalloc(rc->nranks + 1, sizeof *s->csw);
	u64map_init(&s->pairs);
}

void tally_begin(const struct tc_rootcause *rc, struct tally *y)
{
	*y = (struct tally){ .typical_compute_s = rc->typical_compute_s, .typical_mpi_s = rc->typical_mpi_s };
}

/* Rank r's tally into s and rc. */
void tally_end(struct tc_rootcause *rc, struct stalls *s, uint32_t r, const struct tally *y)
{
	rc->n_compute += y->n_compute;
	rc->n_compute_stalls += y->n_compute_stalls;
	rc->n_mpi += y->n_mpi;
	rc->n_mpi_stalls += y->n_mpi_stalls;
	rc->typical_compute_s = y->typical_compute_s;
	rc->typical_mpi_s = y->typical_mpi_s;
	s->cn[r] = y->cn;
	s->cs[r] = y->cs;
	s->cw[r] = y->cw;
	s->csw[r] = y->csw;
	s->cr[r] = y->cr;
	s->mr[r] = y->mr;
}

/* An activity of rank r, of kind mpi or compute, a stall or not (its value
 * more than stall_min above its context's median: one absolute yardstick for
 * both kinds, where the relative thresholds of the contexts (½·median) would
 * make a 1 ms stall an outlier of a 20 µs MPI call but not of a 2 ms compute
 * block), partner (TC_NONE: none); compute: its weight in the held share
 * (typical) and, a stall, its height above the median. */
static inline __attribute__((always_inline)) void stall_count(struct stalls *s, struct tally *y, uint32_t r,
							       bool mpi, bool stall, uint32_t partner, double typical,
							       double height)
{
	if (!mpi) {
		y->n_compute++;
		y->n_compute_stalls += stall;
		y->cn++;
		y->cs += stall;
		y->cw += typical;
		if (stall) {
			y->csw += typical;
			y->cr = true;
			VEC_PUSH(s->height, height);
		}
		return;
	}
	y->n_mpi++;
	y->n_mpi_stalls += stall;
	if (!stall) return;
	y->mr = true;
	uint64_t key = (uint64_t)r << 32 | (partner == TC_NONE ? 0xffffffffu : partner);
	if (u64map_get(&s->pairs, key) == U64MAP_NONE) u64map_put(&s->pairs, key, 1);
}

void rc_stalls_end(struct tc_rootcause *rc, struct stalls *s, uint64_t npairs)
{
	double *rate = xmalloc((rc->nranks + 1) * sizeof *rate);
	uint32_t nrate = 0;
	for (uint32_t r = 0; r < rc->nranks; r++) {
		rc->stall_ranks_compute += s->cr[r];
		rc->stall_ranks_mpi += s->mr[r];
		if (s->cn[r]) rate[nrate++] = (double)s->cs[r] / (double)s->cn[r];
	}
	rc->compute_stall_rate_q1 = nrate ? tc_kth(rate, nrate, nrate / 4) : 0;
	free(rate);
	double W = 0, SW = 0;
	for (uint32_t r = 0; r < rc->nranks; r++) {
		W += s->cw[r];
		SW += s->csw[r];
	}
	rc->compute_stall_share = W > 0 ? SW / W : 0;
	rc->compute_stall_height = s->height.n ? tc_median(s->height.a, s->height.n) : 0;
	VEC_FREE(s->height);
	free(s->cn);
	free(s->cs);
	free(s->cw);
	free(s->csw);
	rc->stall_pairs_mpi = (uint32_t)npairs;
	u64map_free(&s->pairs);
	free(s->cr);
	free(s->mr);
}

/* The median and threshold an activity's own time is measured by. */
struct typ { double median, threshold; };

/* Activity i, value x: its outlier excess (above the threshold: what
 * lies above typical), then the persistent excess q of its run (NAN: none).
 * warmup: a rank's first MPI call of its context.  Returns whether it has
 * excess now (always > 0 when set: above the threshold, which stands above
 * the median by the noise floor at least, or above q). */
static bool set_excess(struct xpass *p, uint32_t i, struct typ C, double x, bool warmup, double q)
{
	bool set = false;
	if (!warmup && x > C.threshold) {
		p->excess[i] = (float)(x - C.median);
		p->outlier[i] = 1;
		set = true;
	}
	if (isnan(q) || !(x - q > p->excess[i])) return set;
	p->excess[i] = (float)(x - q);
	if (!p->outlier[i]) p->outlier[i] = 2;
	return true;
}

/* The fewest ticks T whose duration stands more than x above base
 * (tc_dur(T) − base > x); UINT64_MAX when none does.  tc_dur and the
 * subtraction are monotonic in T, so "ticks >= this" decides exactly what the
 * comparison in seconds decides, without a division per activity. */
static bool above(const struct tc_trace *t, uint64_t T, double base, double x)
{
	return tc_dur(t, T) - base > x;
}

#define TICKS_MAX ((uint64_t)1 << 62)

static uint64_t ticks_above(const struct tc_trace *t, double base, double x)
{
	double est = (base + x) * (double)t->res;
	if (isnan(est) || !above(t, TICKS_MAX, base, x)) return UINT64_MAX;
	uint64_t lo, hi = est <= 0 ? 0 : est >= (double)TICKS_MAX ? TICKS_MAX : (uint64_t)est;
	if (above(t, hi, base, x)) {  /* the answer is hi or below: doubling steps down */
		for (uint64_t step = 1;; step *= 2) {
			if (!hi) return 0;
			lo = hi > step ? hi - step : 0;
			if (!above(t, lo, base, x)) break;
			hi = lo;
		}
	} else {  /* above hi: doubling steps up (TICKS_MAX is above) */
		lo = hi;
		for (uint64_t step = 1;; step *= 2) {
			hi = TICKS_MAX - lo > step ? lo + step : TICKS_MAX;
			if (above(t, hi, base, x)) break;
			lo = hi;
		}
	}
	while (hi - lo > 1) {  /* not above at lo, above at hi */
		uint64_t mid = lo + (hi - lo) / 2;
		if (above(t, mid, base, x)) hi = mid;
		else lo = mid;
	}
	return hi;
}

static struct xctx *excess_contexts(const struct tc_trace *t, const struct tc_rootcause *rc, const uint8_t *p2p)
{
	struct xctx *x = xmalloc(((size_t)rc->nctx + 1) * sizeof *x);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		const struct tc_rc_ctx *C = &rc->ctx[c];
		/* the machine holding a rank shows where a rank repeats the same work;
		 * a segment each rank runs once (a start-up block) differs from rank
		 * to rank by its work, and in a short run it is most of the compute
		 * time (tracer-stencil4d-64p: 39 % "held" by that block alone) */
		bool repeated = C->kind == TC_ACT_COMPUTE && (uint64_t)C->n >= 3 * (uint64_t)C->nranks;
		x[c] = (struct xctx){ ticks_above(t, 0, C->threshold), ticks_above(t, C->median, rc->stall_min), NAN,
				      C->median, repeated ? C->median : 0, TC_NONE,
				      C->full_median > 0 ? p2p[c] : 0, C->kind == TC_ACT_MPI, false };
	}
	return x;
}

/* Where the transfer of MPI activity i of rank r began, for a receive: the
 * latest enter of the sends of the messages it completes (the serial pass's
 * xpass.xfer; a blocking send's is its own start). */
static uint64_t transfer_start(void *ctx, uint32_t r, uint32_t i, uint64_t s)
{
	const struct tc_trace *t = ((const void *const *)ctx)[0];
	const struct tc_rootcause *rc = ((const void *const *)ctx)[1];
	const struct tc_rank *R = &t->ranks[r];
	uint32_t ci = tc_rc_act(rc, r, i).call;
	if (ci >= R->ncalls || R->calls[ci].op == TC_NONE) return s;
	const struct tc_op *op = &R->ops[R->calls[ci].op];
	const uint32_t *m = tc_op_recvs(t, r, op);
	uint64_t at = 0;
	for (uint32_t k = 0; k < op->nrecv; k++) at = TC_MAX(at, tc_msg_send_enter(t, &t->msgs[m[k]]));
	return op->nrecv ? at : s;
}

/* The median and threshold of MPI activity i (rank r, start s, own time from
 * ready on) of a point-to-point context whose whole transfers are slower than
 * its usual call (full_median): the part of its transfer that ran before its
 * own time began (ready − the transfer's start) is taken from the whole
 * transfers' median and threshold, which then count where they stand above
 * the context's own (docs/rootcause.md §3, "Hidden transfers"). */
static struct typ hidden_transfer(const struct tc_trace *t, const struct xpass *x, const struct tc_rc_ctx *C,
				  uint8_t p2p, uint32_t r, uint32_t i, uint64_t s, uint64_t ready)
{
	uint64_t from = p2p == P2P_SEND ? s : x->xfer(x->xfer_ctx, r, i, s);
	double hid = ready > from ? tc_dur(t, ready - from) : 0;
	return (struct typ){ TC_MAX(C->median, C->full_median - hid), TC_MAX(C->threshold, C->full_threshold - hid) };
}

/* The excess of MPI activity i (rank r, start s, own time from ready on,
 * `ticks` of it) of a context X whose whole transfers are slower than its
 * usual call: its outlier and persistent excess measured from
 * hidden_transfer's median and threshold (a persistent run too: a rank whose
 * receiver is always ready sends whole transfers).  *stall: whether it is a
 * stall by the context's median on entry, by hidden_transfer's on return.
 * Returns whether it has excess. */
static bool hidden_excess(const struct tc_trace *t, const struct tc_rootcause *rc, struct xpass *p, const struct xctx *X,
			  uint32_t c, uint32_t r, uint32_t i, uint64_t s, uint64_t ready, uint64_t ticks, bool usual,
			  bool *stall)
{
	bool over = ticks >= X->over;
	if (!over && !*stall && isnan(X->q)) return false;
	struct typ ty = hidden_transfer(t, p, &rc->ctx[c], X->p2p, r, i, s, ready);
	double x = tc_dur(t, ticks);
	*stall = *stall && x - ty.median > rc->stall_min;
	double q = isnan(X->q) ? NAN : TC_MAX(X->q, ty.median);
	return ((!usual && x > ty.threshold) || !isnan(q)) && set_excess(p, i, ty, x, usual, q);
}

void rc_xpass_begin(const struct tc_trace *t, struct tc_rootcause *rc, const uint8_t *p2p, double scale,
		    struct xpass *x)
{
	stalls_begin(rc, scale, &x->st);
	/* a rank's first MPI call of each context pays for setting the path up (MPI
	 * libraries connect lazily on first use): warm-up, not an outlier */
	x->xc = excess_contexts(t, rc, p2p);
}

void rc_xpass_rank(struct xpass *x, uint32_t r, bool on)
{
	if (on) {
		size_t p0 = x->pk, t0 = x->tk;
		for (; x->pk < x->npers && x->pers[x->pk].rank == r; x->pk++) x->xc[x->pers[x->pk].ctx].q = x->pers[x->pk].q;
		for (; x->tk < x->ntrend && x->trend[x->tk].rank == r; x->tk++) x->xc[x->trend[x->tk].ctx].trend = true;
		x->pk0 = p0, x->tk0 = t0;
		return;
	}
	for (size_t k = x->pk0; k < x->pk; k++) x->xc[x->pers[k].ctx].q = NAN;
	for (size_t k = x->tk0; k < x->tk; k++) x->xc[x->trend[k].ctx].trend = false;
}

/* rc_xpass_act's body, inlined into the serial pass's loop (a call per
 * activity with a dozen arguments made that pass 40 % slower). */
static inline __attribute__((always_inline)) void xpass_act(const struct tc_trace *t, const struct tc_rootcause *rc,
							     struct xpass *x, struct tally *y, uint32_t r, uint32_t i,
							     uint64_t s, uint64_t e, uint32_t c, bool wait,
							     uint64_t wready, uint32_t partner, double *wsum)
{
	struct xctx *X = &x->xc[c];
	bool warmup = X->mpi && X->seen != r;
	X->seen = r;
	bool w = X->mpi && wait;
	uint64_t ready = w ? wready : s;
	uint64_t ticks = e - (X->mpi ? ready : s);
	bool usual = warmup || X->trend;  /* no outlier */
	bool stall = ticks >= X->stall && !X->trend;
	if (X->p2p) {
		if (hidden_excess(t, rc, x, X, c, r, i, s, ready, ticks, usual, &stall)) VEC_PUSH(x->ex, i);
	} else if (((!usual && ticks >= X->over) || !isnan(X->q)) &&
		   set_excess(x, i, (struct typ){ rc->ctx[c].median, rc->ctx[c].threshold }, tc_dur(t, ticks), usual,
			      X->q)) {
		VEC_PUSH(x->ex, i);
	}
	*(X->mpi ? &y->typical_mpi_s : &y->typical_compute_s) += X->median;
	stall_count(&x->st, y, r, X->mpi, stall, w ? partner : TC_NONE, X->held_w,
		    stall && !X->mpi ? tc_dur(t, ticks) - X->median : 0);
	if (ready > s) *wsum += tc_dur(t, ready - s);  /* + 0 otherwise */
}

void rc_xpass_act(const struct tc_trace *t, const struct tc_rootcause *rc, struct xpass *x, struct tally *y,
		  uint32_t r, uint32_t i, uint64_t s, uint64_t e, uint32_t c, bool wait, uint64_t wready, uint32_t partner,
		  double *wsum)
{
	xpass_act(t, rc, x, y, r, i, s, e, c, wait, wready, partner, wsum);
}

void rc_xpass_free(struct xpass *x)
{
	free(x->xc);
	VEC_FREE(x->ex);
	x->xc = NULL;
}

void rc_groups_free(struct groups *g)
{
	free(g->trend);
	tc_rc_big_free(g->vbin);
	free(g->p2p);
	free(g->full_mad);
	free(g->within);
	free(g->first); free(g->end); free(g->nranks); tc_rc_big_free(g->runs); free(g->rfirst); free(g->rend); free(g->own);
	*g = (struct groups){ 0 };
}

/* Contexts, then outlier and persistent excess, stall counts and waiting per
 * rank in one pass over the activities.  scale: the compute scale (stalls). */
void tc_rc_excess(const struct tc_trace *t, struct tc_rootcause *rc, double scale, struct tc_usage *mark)
{
	struct groups g;
	uint32_t *nranks;
	gather(t, rc, &g, &nranks);
	rc_groups_stats(rc, &g, nranks, NULL);
	tc_rc_phase_done(rc, TC_RCP_CONTEXTS, mark);
	const void *src[2] = { t, rc };
	struct xpass x = { .excess = rc->act_excess, .outlier = rc->act_outlier, .xfer = transfer_start,
			   .xfer_ctx = (void *)src, .trend = g.trend, .ntrend = g.ntrend };
	x.pers = rc_persistent_runs(rc, &g, &x.npers, NULL);
	rc_xpass_begin(t, rc, g.p2p, scale, &x);
	for (uint32_t r = 0; r < rc->nranks; r++) {
		rc_xpass_rank(&x, r, true);
		uint64_t s = rc->rank_t0[r];  /* the activity's start */
		struct tally y;
		tally_begin(rc, &y);
		double wait = rc->wait_s[r];
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			uint32_t c = tc_rc_act_ctx(rc, i);
			uint32_t w = x.xc[c].mpi ? tc_rc_wait_of(rc, i) : TC_NONE;   /* the compact context, not the whole one */
			const struct tc_rc_wait *W = w != TC_NONE ? &rc->waits[w] : NULL;
			uint64_t e = tc_rc_act_end(rc, i);
			xpass_act(t, rc, &x, &y, r, i, s, e, c, W, W ? W->ready : 0, W ? W->partner : TC_NONE, &wait);
			s = e;
		}
		tally_end(rc, &x.st, r, &y);
		rc->wait_s[r] = wait;
		rc_xpass_rank(&x, r, false);
	}
	rc_stalls_end(rc, &x.st, x.st.pairs.live);
	rc->ex_act = x.ex.a;
	rc->nexcess = x.ex.n;
	x.ex.a = NULL;
	x.ex.n = 0;
	rc_xpass_free(&x);
	free(x.pers);
	rc_groups_free(&g);   /* the trends and nranks with it */
	tc_rc_phase_done(rc, TC_RCP_EXCESS, mark);
}
