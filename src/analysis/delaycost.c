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
 * Cost: a sort of the waits, then O(1) per wait with per-rank prefix sums of
 * the excess, the index of the last wait before each activity and a range
 * addition (difference array) of "cost per second of excess". */
#include <stdlib.h>

#include "analysis_rootcause.h"

struct wref { uint64_t ready; uint32_t act; };

static int wref_cmp(const void *x, const void *y)
{
	const struct wref *a = x, *b = y;
	if (a->ready != b->ready) return a->ready > b->ready ? -1 : 1;
	return a->act > b->act ? -1 : a->act < b->act;
}

struct dc {
	const struct tc_trace *t;
	struct tc_rootcause *rc;
	double *pre;        /* per activity: excess summed from its rank's first activity, inclusive */
	uint32_t *last_wait;/* per activity: the last activity at or before it (same rank) that waited */
	double *coef;       /* difference array: cost per second of excess, from this activity on */
	double *prop;       /* cost propagated into a wait */
	double lost;        /* cost neither explained nor passed on */
};

static bool waited(const struct tc_act *a)
{
	return a->kind == TC_ACT_MPI && a->partner != TC_NONE && a->ready > a->start;
}

static void prepare(struct dc *d)
{
	struct tc_rootcause *rc = d->rc;
	size_t n = rc->nacts ? rc->nacts : 1;
	d->pre = tc_rc_big(n * sizeof *d->pre);
	d->last_wait = tc_rc_big(n * sizeof *d->last_wait);
	d->coef = tc_rc_big((n + 1) * sizeof *d->coef);
	d->prop = tc_rc_big(n * sizeof *d->prop);
	for (uint32_t r = 0; r < rc->nranks; r++) {
		double s = 0;
		uint32_t lw = TC_NONE;
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			s += rc->acts[i].excess;
			d->pre[i] = s;
			if (waited(&rc->acts[i])) lw = i;
			d->last_wait[i] = lw;
		}
	}
}

/* Hands cost C of a wait of `wait` seconds to p's interval before T; returns
 * the wait its remainder propagates into (TC_NONE: unattributed) and the
 * remainder in *rest. */
static uint32_t assign(struct dc *d, uint32_t p, uint64_t T, double C, double wait, double *rest)
{
	struct tc_rootcause *rc = d->rc;
	*rest = C;
	uint32_t j = tc_rc_act_before(rc, p, T);
	if (j == TC_NONE) return TC_NONE;
	uint32_t first = rc->act_first[p], target = d->last_wait[j];
	uint32_t lo = target == TC_NONE ? first : target;
	double E = d->pre[j] - (lo > first ? d->pre[lo - 1] : 0);
	double f = wait > 0 && E > 0 ? TC_MIN(1.0, E / wait) : 0;
	if (f > 0) {
		d->coef[lo] += C * f / E;
		d->coef[j + 1] -= C * f / E;
	}
	/* p's own last wait explains at most its length of p's lateness: a 3 ms
	 * wait cannot pass on an 80 ms delay (the rest is unattributed) */
	double fw = 0;
	if (target != TC_NONE && wait > 0) {
		const struct tc_act *w = &rc->acts[target];
		fw = TC_MIN(1 - f, tc_dur(d->t, w->ready - w->start) / wait);
	}
	*rest = C * fw;
	d->lost += C * (1 - f - fw);
	return target;
}

/* A context seen fewer than 3 times or on one rank only has no typical value
 * (a unique compute segment has nothing to be compared with): when a wait's
 * cause interval holds no excess at all, its longest compute segment in a thin
 * context takes the wait as its excess (Böhme's delay: the cause spent that
 * much longer than its victim before the synchronisation).  Marked outlier 3. */
static void thin_context_delays(const struct tc_trace *t, struct tc_rootcause *rc)
{
	for (size_t k = 0; k < rc->nacts; k++) {
		const struct tc_act *a = &rc->acts[k];
		if (a->kind != TC_ACT_MPI || a->partner == TC_NONE || a->ready <= a->start) continue;
		uint32_t p = a->partner, j = tc_rc_act_before(rc, p, a->ready);
		if (j == TC_NONE) continue;
		uint32_t best = TC_NONE;
		double E = 0;
		for (uint32_t i = j + 1; i-- > rc->act_first[p];) {
			const struct tc_act *x = &rc->acts[i];
			E += x->excess;
			if (x->kind == TC_ACT_COMPUTE && (best == TC_NONE || x->end - x->start > rc->acts[best].end - rc->acts[best].start))
				best = i;
			if (x->kind == TC_ACT_MPI && x->partner != TC_NONE && x->ready > x->start) break;
			if (j - i > 64) break;  /* a bounded look back */
		}
		if (E > 0 || best == TC_NONE) continue;
		const struct tc_rc_ctx *C = &rc->ctx[rc->acts[best].ctx];
		if (C->n >= 3 && C->nranks >= 2) continue;
		struct tc_act *b = &rc->acts[best];
		double w = TC_MIN(tc_act_wait(t, a), tc_dur(t, b->end - b->start));
		if (w > b->excess) {
			b->excess = (float)w;
			b->outlier = 3;
		}
	}
}

void tc_rc_delay_costs(const struct tc_trace *t, struct tc_rootcause *rc)
{
	thin_context_delays(t, rc);
	uint32_t N = rc->nranks;
	rc->delay_cost = xcalloc(N ? N : 1, sizeof(double));
	VEC(struct wref) w = { 0 };
	for (size_t i = 0; i < rc->nacts; i++) {
		const struct tc_act *a = &rc->acts[i];
		if (a->kind == TC_ACT_MPI && a->partner != TC_NONE && a->ready > a->start) {
			struct wref x = { a->ready, (uint32_t)i };
			VEC_PUSH(w, x);
		}
	}
	if (w.n) qsort(w.a, w.n, sizeof *w.a, wref_cmp);
	struct dc d = { .t = t, .rc = rc };
	prepare(&d);
	for (size_t k = 0; k < w.n; k++) {
		uint32_t i = w.a[k].act;
		const struct tc_act *a = &rc->acts[i];
		double wait = tc_act_wait(t, a), rest;
		uint32_t to = assign(&d, a->partner, a->ready, wait + d.prop[i], wait, &rest);
		/* a propagated cost must reach a wait handled later (an earlier one) */
		if (to != TC_NONE && rc->acts[to].ready < a->ready) d.prop[to] += rest;
		else rc->unattributed += rest;
	}
	for (uint32_t r = 0; r < N; r++) {
		double c = 0;
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			c += d.coef[i];
			rc->acts[i].delay_cost = (float)(c * rc->acts[i].excess);
		}
	}
	rc->unattributed += d.lost;
	tc_rc_big_free(d.pre); tc_rc_big_free(d.last_wait); tc_rc_big_free(d.coef); tc_rc_big_free(d.prop);
	VEC_FREE(w);
	for (uint32_t r = 0; r < N; r++)
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) rc->delay_cost[r] += rc->acts[i].delay_cost;
}
