/* delaycost.c — long-term delay costs (Böhme et al., "Identifying the root
 * causes of wait states in large-scale parallel applications", ICPP 2010;
 * docs/rootcause.md).
 *
 * Every wait (an MPI activity whose partner p became ready at T) carries a
 * cost: its waiting time plus what later waits propagated into it.  The cost
 * goes to p's synchronisation interval: the activities of p back from T to
 * and including the last one in which p itself waited (where p was last held
 * by someone else; calls that did not wait do not reset the interval: a rank
 * whose receives found their data there was not synchronised by them).  The
 * excess in that interval (compute excess, own-time excess) E explains
 * f = min(1, E / wait) of the cost: that part is split over the interval's
 * activities in proportion to their excess.  The rest was not p's doing: p was
 * late because it had waited itself, so it is propagated into that last wait,
 * as far as that wait's length explains it (a 3 ms wait cannot pass on an
 * 80 ms delay); what is neither explained nor passed on (p never waited
 * before T, or was later than its wait explains) is left unattributed.  Waits are handled
 * latest first, so a propagated cost arrives before its wait is handled.  A
 * relay that only passed a delay on has no excess and is never blamed.
 * Cost: a sort of the waits, then O(log n) per wait: per rank, the waits and
 * the activities with excess (with running sums of the excess) are short
 * sorted lists searched by bisection, and a range addition (difference array)
 * of "cost per second of excess" over the activities with excess (the others
 * take no cost: an array over all activities was 8 bytes of fresh memory
 * each). */
#include <stdlib.h>
#include <string.h>

#include "delaycost_internal.h"



/* The waits latest first, ties the later activity first: an LSD radix sort
 * by ready (11-bit digits over the bits the span needs) of the waits in
 * activity order, which is stable, then reversed.  qsort of 4·10⁵ waits was a
 * quarter of this file's time. */
static void sort_waits(struct wref *w, size_t n, struct wref *tmp)
{
	if (n < 2) return;
	uint64_t lo = w[0].ready, hi = w[0].ready;
	for (size_t i = 1; i < n; i++) {
		lo = TC_MIN(lo, w[i].ready);
		hi = TC_MAX(hi, w[i].ready);
	}
	struct wref *a = w, *b = tmp;
	for (unsigned shift = 0; shift < 64 && (hi - lo) >> shift; shift += 11) {
		size_t cnt[2049] = { 0 };
		for (size_t i = 0; i < n; i++) cnt[((a[i].ready - lo) >> shift & 2047) + 1]++;
		for (int d = 0; d < 2048; d++) cnt[d + 1] += cnt[d];
		for (size_t i = 0; i < n; i++) b[cnt[(a[i].ready - lo) >> shift & 2047]++] = a[i];
		struct wref *x = a;
		a = b;
		b = x;
	}
	for (size_t i = 0; i < n; i++) b[n - 1 - i] = a[i];
	if (b != w) memcpy(w, b, n * sizeof *w);
}

/* The first activity in [i, hi) with a wait record, hi when none. */
static uint32_t next_with_wait(const struct tc_rootcause *rc, uint32_t i, uint32_t hi)
{
	while (i < hi) {
		uint64_t w = rc->wait_bits[i / 64] >> (i % 64);
		if (w) return TC_MIN(hi, i + (uint32_t)__builtin_ctzll(w));
		i = (i | 63) + 1;
	}
	return hi;
}

/* The last position k in v[lo, hi) with v[k] <= x, or TC_NONE. */
static uint32_t last_at_or_before(const uint32_t *v, uint32_t lo, uint32_t hi, uint32_t x)
{
	uint32_t a = lo, b = hi;  /* first with v > x */
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		if (v[mid] <= x) a = mid + 1;
		else b = mid;
	}
	return a > lo ? a - 1 : TC_NONE;
}

/* The last of p's activities with excess at or before activity i (TC_NONE:
 * none), an index into xact. */
static uint32_t excess_at(const struct rc_dc *d, uint32_t p, uint32_t i)
{
	return last_at_or_before(d->xact, d->xfirst[p], d->xfirst[p + 1], i);
}

/* One pass: the waits (per rank, in order), their starts and waiting times;
 * where each one's partner was when it became ready is looked up later, and
 * only when needed (partner_act). */
static void collect_waits(const struct tc_trace *t, const struct tc_rootcause *rc, struct rc_dc *d, struct wref *w,
			  struct wst *ws, uint32_t *wa, size_t *nw)
{
	uint32_t N = rc->nranks;
	size_t n = 0;
	d->wfirst = xcalloc((size_t)N + 1, sizeof *d->wfirst);
	for (uint32_t r = 0; r < N; r++) {
		d->wfirst[r] = (uint32_t)n;
		uint32_t hi = rc->act_first[r + 1];
		for (uint32_t i = next_with_wait(rc, rc->act_first[r], hi); i < hi; i = next_with_wait(rc, i + 1, hi)) {
			const struct tc_rc_wait *a = &rc->waits[tc_rc_wait_of(rc, i)];
			uint64_t start = tc_rc_act_start(rc, r, i);
			if (a->ready <= start) continue;  /* a partner, but no waiting */
			uint32_t p = a->partner;
			w[n] = (struct wref){ a->ready, (uint32_t)n, p < N ? J_LATER : TC_NONE, p };
			ws[n] = (struct wst){ a->ready, tc_dur(t, a->ready - start), 0 };
			d->wstart[n] = start;
			wa[n++] = i;
		}
	}
	d->wfirst[N] = (uint32_t)n;
	d->wact = wa;
	d->ws = ws;
	*nw = n;
}

/* The partner's activity just before the wait's ready (w->j, looked up once:
 * only the waits whose partner has excess, or all when thin contexts need it,
 * pay for the search through the partner's activities). */
static uint32_t partner_act(struct rc_dc *d, struct wref *w)
{
	if (w->j == J_LATER) w->j = d->jof(d->jctx, w->partner, w->ready);
	return w->j;
}

/* p's last wait (index into wact) whose activity starts before t, TC_NONE:
 * none; its activity is then at or before p's activity just before t, and
 * every later wait's is after it (activities are in time order). */
static uint32_t wait_before(const struct rc_dc *d, uint32_t p, uint64_t t)
{
	uint32_t a = d->wfirst[p], b = d->wfirst[p + 1];  /* first with start >= t */
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		if (d->wstart[mid] < t) a = mid + 1;
		else b = mid;
	}
	return a > d->wfirst[p] ? a - 1 : TC_NONE;
}

/* The activities with excess xa[0..n) (in order; xval: each one's excess),
 * their running sums per rank and the difference arrays (xa is d's now). */
void rc_dc_prepare(struct rc_dc *d, uint32_t *xa, const float *xval, size_t n)
{
	uint32_t N = d->nranks;
	double *xp = xmalloc((n ? n : 1) * sizeof *xp);
	d->xfirst = xcalloc((size_t)N + 1, sizeof *d->xfirst);
	for (uint32_t r = 0, x = 0; r < N; r++) {
		d->xfirst[r] = x;
		double s = 0;
		for (; x < n && xa[x] < d->act_first[r + 1]; x++) {
			s += xval[x];
			xp[x] = s;
		}
	}
	d->xfirst[N] = (uint32_t)n;
	d->xact = xa;
	d->xpre = xp;
	d->coef = xcalloc(n + 1, sizeof *d->coef);
	d->open = xcalloc(n + 1, sizeof *d->open);
}

/* What handing a wait's cost to its partner p's interval depends on but the
 * cost itself (rc_dc_plan): the interval is p's activities up to p's
 * activity j just before the wait's ready (none: p had not started) back to
 * p's last wait before it (tw, the wait the remainder propagates into;
 * TC_NONE: unattributed).  j itself is only looked up when p has
 * activities with excess: else E = 0, and p's last wait before j is its
 * last wait starting before ready. */
void rc_dc_plan(struct rc_dc *d, struct wref *w, double wait, struct rc_dplan *pl)
{
	uint32_t p = w->partner;
	*pl = (struct rc_dplan){ .tw = TC_NONE, .from = TC_NONE, .zend = TC_NONE, .early = true };
	if (w->j == TC_NONE || d->act_first[p] == d->act_first[p + 1] || d->rank_t0[p] >= w->ready) return;
	pl->early = false;
	uint32_t first = d->act_first[p];
	uint32_t tw = wait_before(d, p, w->ready);
	uint32_t target = tw == TC_NONE ? TC_NONE : d->wact[tw];
	uint32_t lo = target == TC_NONE ? first : target;
	double E = 0;
	uint32_t z = TC_NONE, a = TC_NONE;
	if (d->xfirst[p] < d->xfirst[p + 1]) {  /* the activities with excess in [lo, j]: xact (a, z] */
		uint32_t j = partner_act(d, w);
		z = excess_at(d, p, j);
		a = lo > first ? excess_at(d, p, lo - 1) : TC_NONE;
		E = (z == TC_NONE ? 0 : d->xpre[z]) - (a == TC_NONE ? 0 : d->xpre[a]);
	}
	double f = wait > 0 && E > 0 ? TC_MIN(1.0, E / wait) : 0;
	if (f > 0) {  /* E > 0: z is one */
		pl->from = a == TC_NONE ? d->xfirst[p] : a + 1;
		if (z + 1 < d->xfirst[p + 1]) pl->zend = z + 1;   /* the sums start again at each rank */
	}
	/* p's own last wait explains at most its length of p's lateness: a 3 ms
	 * wait cannot pass on an 80 ms delay (the rest is unattributed) */
	double fw = 0;
	if (target != TC_NONE && wait > 0) fw = TC_MIN(1 - f, d->ws[tw].sec / wait);
	pl->tw = tw, pl->f = f, pl->fw = fw, pl->E = E;
}

/* Hands cost C of wait w of `wait` seconds to its partner p's interval
 * (rc_dc_plan): the excess in it, E, explains f = min(1, E / wait) of the
 * cost, split over its activities in proportion to their excess (a range
 * addition over the difference arrays); the rest propagates into p's last
 * wait as far as that wait's length explains it.  Returns that wait (index
 * into wact; TC_NONE: unattributed) and the remainder in *rest. */
static uint32_t assign(struct rc_dc *d, struct wref *w, double C, double wait, double *rest)
{
	struct rc_dplan pl;
	rc_dc_plan(d, w, wait, &pl);
	struct rc_dcost v = rc_dc_cost(&pl, C);
	*rest = v.rest;
	if (pl.early) return TC_NONE;
	if (pl.from != TC_NONE) {
		d->coef[pl.from] += v.per;
		d->open[pl.from]++;
		if (pl.zend != TC_NONE) {
			d->coef[pl.zend] -= v.per;
			d->open[pl.zend]--;
		}
	}
	d->lost += v.lost;
	return pl.tw;
}

/* A context with no typical value (rootcause.c: seen fewer than 3 times, and
 * its coarse context, backoff_thin, no better; a context seen 3 times or more
 * on a single rank has that rank's own median, as the tail of a pipeline or the
 * root of a tree: the waits its usual length causes are the structure's
 * coupling, not a delay): a unique compute segment has nothing to be compared
 * with.  When a wait's
 * cause interval holds no excess at all, its longest compute segment in a thin
 * context takes the wait as its excess (Böhme's delay: the cause spent that
 * much longer than its victim before the synchronisation).  Marked outlier 3. */
static struct rc_thin_act rc_thin_serial(void *ctx, uint32_t p, uint32_t i);

static bool thin_context_delays(const struct tc_trace *t, struct tc_rootcause *rc, struct rc_dc *d, struct wref *w,
				size_t nw)
{
	bool any = false, changed = false;  /* no thin compute context: nothing to do (the usual case on big traces) */
	for (uint32_t c = 0; c < rc->nctx && !any; c++)
		any = rc->ctx[c].kind == TC_ACT_COMPUTE && !rc->ctx[c].typical;
	if (!any) return false;
	struct rc_thin_src src = { rc_thin_serial, rc };
	for (size_t k = 0; k < nw; k++) {
		uint32_t p = w[k].partner, j = w[k].j == TC_NONE ? TC_NONE : partner_act(d, &w[k]);
		if (j == TC_NONE) continue;
		double wt;
		uint32_t best = rc_thin_pick(t, &src, p, rc->act_first[p], j, d->ws[k].sec, &wt);
		if (best != TC_NONE && wt > rc->act_excess[best]) {
			rc->act_excess[best] = (float)wt;
			rc->act_outlier[best] = 3;
			changed = true;
		}
	}
	return changed;
}

uint32_t rc_thin_pick(const struct tc_trace *t, const struct rc_thin_src *src, uint32_t p, uint32_t lo, uint32_t j,
		      double sec, double *wt)
{
	uint32_t best = TC_NONE;
	uint64_t blen = 0;  /* best's length */
	double E = 0;
	for (uint32_t i = j + 1; i-- > lo;) {
		struct rc_thin_act x = src->act(src->ctx, p, i);
		E += x.excess;
		if (!x.mpi && (best == TC_NONE || x.len > blen)) {
			best = i;
			blen = x.len;
		}
		if (x.waited) break;
		if (j - i > 64) break;  /* a bounded look back */
	}
	if (E > 0 || best == TC_NONE || src->act(src->ctx, p, best).typical) return TC_NONE;
	*wt = TC_MIN(sec, tc_dur(t, blen));
	return best;
}

static struct rc_thin_act rc_thin_serial(void *ctx, uint32_t p, uint32_t i)
{
	const struct tc_rootcause *rc = ctx;
	struct tc_act x = tc_rc_act(rc, p, i);
	return (struct rc_thin_act){ x.end - x.start, x.excess, x.kind == TC_ACT_MPI,
				     x.kind == TC_ACT_MPI && x.partner != TC_NONE && x.ready > x.start,
				     rc->ctx[x.ctx].typical };
}

void rc_dc_finish(const struct rc_dc *d, const float *xval, float *ex_delay, double *delay_cost)
{
	for (uint32_t r = 0; r < d->nranks; r++) {
		double c = 0;
		int32_t open = 0;
		for (uint32_t x = d->xfirst[r]; x < d->xfirst[r + 1]; x++) {
			c += d->coef[x];
			open += d->open[x];
			if (!open) c = 0;
			ex_delay[x] = (float)(c * xval[x]);
			delay_cost[r] += ex_delay[x];
		}
	}
}

void rc_delay_sweep(struct rc_dsweep *in, double *unattributed)
{
	struct rc_dc d = { .nranks = in->nranks, .act_first = in->act_first, .rank_t0 = in->rank_t0, .jof = in->jof,
			.jctx = in->jctx, .wfirst = in->wfirst, .wact = in->wact, .wstart = in->wstart, .ws = in->ws };
	rc_dc_prepare(&d, in->xact, in->xval, in->nx);
	sort_waits(in->w, in->nw, in->tmp);
	for (size_t k = 0; k < in->nw; k++) {
		const struct wst *me = &d.ws[in->w[k].k];
		double wait = me->sec, rest;
		uint32_t to = assign(&d, &in->w[k], wait + me->prop, wait, &rest);
		/* a propagated cost must reach a wait handled later (an earlier one) */
		if (to != TC_NONE && d.ws[to].ready < in->w[k].ready) d.ws[to].prop += rest;
		else *unattributed += rest;
	}
	in->ex_delay = xmalloc((in->nx ? in->nx : 1) * sizeof *in->ex_delay);
	rc_dc_finish(&d, in->xval, in->ex_delay, in->delay_cost);
	*unattributed += d.lost;
	free(d.xfirst); free(d.xpre); free(d.coef); free(d.open);
}

/* Serially: the partner's activity before ready, searched from where the
 * last search on that rank ended. */
struct jser { const struct tc_rootcause *rc; uint32_t *hint; };

static uint32_t jof_serial(void *ctx, uint32_t p, uint64_t ready)
{
	struct jser *j = ctx;
	return tc_rc_act_before_hint(j->rc, p, ready, &j->hint[p]);
}

void tc_rc_delay_costs(const struct tc_trace *t, struct tc_rootcause *rc)
{
	uint32_t N = rc->nranks;
	rc->delay_cost = xcalloc(N ? N : 1, sizeof(double));
	struct jser js = { rc, xmalloc(((size_t)N + 1) * sizeof *js.hint) };
	for (uint32_t r = 0; r <= N; r++) js.hint[r] = TC_NONE;
	struct rc_dc d = { .nranks = N, .act_first = rc->act_first, .rank_t0 = rc->rank_t0, .jof = jof_serial, .jctx = &js };
	struct wref *w;
	size_t nw;
	/* at most one per wait record, and the sort's second buffer, carved from
	 * the scratch the context pass faulted in (fresh pages cost more than
	 * this pass's own work: docs/rootcause.md, "Cost") */
	size_t cap = rc->nwaits ? rc->nwaits : 1;
	char *sc = tc_rc_scratch(rc, cap * (2 * sizeof(struct wref) + sizeof(struct wst) + sizeof(uint64_t) +
					    sizeof(uint32_t)));
	struct wref *tmp = (struct wref *)(void *)sc;
	w = tmp + cap;
	struct wst *ws = (struct wst *)(void *)(w + cap);
	d.wstart = (uint64_t *)(void *)(ws + cap);
	collect_waits(t, rc, &d, w, ws, (uint32_t *)(void *)(d.wstart + cap), &nw);
	/* the activities with excess: the excess pass's list, or all of them
	 * again when the thin-context delays gave some more */
	VEC(uint32_t) xa = { 0 };
	if (thin_context_delays(t, rc, &d, w, nw)) {
		for (uint32_t i = 0; i < rc->nacts; i++)
			if (rc->act_excess[i] != 0) VEC_PUSH(xa, i);
		free(rc->ex_act);
	} else {
		xa.a = rc->ex_act;
		xa.n = rc->nexcess;
	}
	rc->ex_act = NULL;
	float *xval = xmalloc((xa.n ? xa.n : 1) * sizeof *xval);
	for (size_t x = 0; x < xa.n; x++) xval[x] = rc->act_excess[xa.a[x]];
	struct rc_dsweep in = { .nranks = N, .act_first = rc->act_first, .rank_t0 = rc->rank_t0, .jof = jof_serial,
				.jctx = &js, .w = w, .tmp = tmp, .nw = nw, .wfirst = d.wfirst, .wact = d.wact,
				.wstart = d.wstart, .ws = d.ws, .xact = xa.a, .xval = xval, .nx = xa.n,
				.delay_cost = rc->delay_cost };
	rc_delay_sweep(&in, &rc->unattributed);
	rc->nexcess = xa.n;
	rc->ex_act = xa.a;
	rc->ex_delay = in.ex_delay;
	free(xval);
	free(d.wfirst); free(js.hint);
}
