/* lateness.c — the step metrics of Ravel (§3): lateness per partition and
 * step, global lateness per global step, differential lateness (§3.1),
 * duration, each for the event and for its aggregate block, and the per-step
 * summaries.  Events are bucketed by (partition, step) and by global step, so
 * everything is O(events + messages) (Ravel rescans all events per step). */
#include <stdlib.h>

#include "steps_internal.h"

static double dmax0(double x) { return x > 0 ? x : 0; }

/* The lateness event i inherits from its predecessor on the rank.  In the same
 * partition, the predecessor's lateness (Ravel).  Across a partition boundary
 * the two lateness values have different baselines: the predecessor's leave is
 * measured in i's frame instead, against the earliest predecessor leave among
 * i's peers (the same partition and step). */
static double inherited_from_prev(const struct tc_steps *s, uint32_t i, const uint64_t *m, int x_pred)
{
	uint32_t pv = steps_prev(s, i);
	if (pv == TC_NONE) return 0;
	const struct tc_cev *e = &s->cevs[i], *p = &s->cevs[pv];
	if (p->partition == e->partition) return p->lateness;
	uint64_t base = m[x_pred];
	return p->leave > base ? tc_dur(s->t, p->leave - base) : 0;
}

/* The lateness an event inherits from its partners: for a receive, its
 * senders' lateness; for a blocking send held by a late receiver (the receive
 * posted after the send began), the receive's enter lateness (the receiver's
 * aggregate block; the send left after that post: it was held); lateness
 * inherited from a late receiver is not new. */
static double inherited_from_partners(const struct tc_steps *s, uint32_t i)
{
	const struct tc_cev *e = &s->cevs[i];
	const struct tc_trace *t = s->t;
	if (e->flags & TC_CEV_COLL) return 0;
	const struct tc_rank *R = &t->ranks[e->rank];
	double got = 0;
	for (uint32_t k = 0; k < e->nops; k++) {
		const struct tc_op *op = &R->ops[e->op + k];
		if (e->flags & TC_CEV_RECV) {
			const uint32_t *mr = tc_op_recvs(t, e->rank, op);
			for (uint32_t j = 0; j < op->nrecv; j++) {
				uint32_t sc = s->msg_send_cev[mr[j]];
				if (sc != TC_NONE && s->cevs[sc].lateness > got) got = s->cevs[sc].lateness;
			}
		}
		if (e->flags & TC_CEV_SEND) {
			const uint32_t *ms = tc_op_sends(t, e->rank, op);
			for (uint32_t j = 0; j < op->nsend; j++) {
				const struct tc_msg *msg = &t->msgs[ms[j]];
				uint32_t rc = s->msg_recv_cev[ms[j]];
				if (rc == TC_NONE || (msg->flags & TC_MSG_NB_SEND) || msg->post_time <= e->enter ||
				    msg->post_time >= e->leave)
					continue;
				if (s->cevs[rc].partition == e->partition && s->cevs[rc].lateness_agg > got)
					got = s->cevs[rc].lateness_agg;
			}
		}
	}
	return got;
}

/* Ask for a receive's senders' events ahead of inherited_from_partners: they
 * lie anywhere in the cevs, one miss each (only the first op: enough here). */
static void prefetch_partners(const struct tc_steps *s, size_t i)
{
	if (i >= s->ncevs) return;
	const struct tc_cev *e = &s->cevs[i];
	if (!(e->flags & TC_CEV_RECV) || (e->flags & TC_CEV_COLL)) return;
	const struct tc_trace *t = s->t;
	const struct tc_op *op = &t->ranks[e->rank].ops[e->op];
	const uint32_t *mr = tc_op_recvs(t, e->rank, op);
	for (uint32_t j = 0; j < op->nrecv; j++) {
		uint32_t sc = s->msg_send_cev[mr[j]];
		if (sc != TC_NONE) __builtin_prefetch(&s->cevs[sc].lateness);
	}
}

/* Event i's block (agg = 0) or aggregate block (agg = 1) into the sums of
 * the step it is drawn on: events on their (even) step, aggregate blocks on
 * step − 1. */
static void step_add(struct tc_steps *s, const struct tc_cev *e, int agg)
{
	struct tc_step_sum *S = &s->steps[e->step - (uint32_t)agg];
	uint64_t a = agg ? e->agg_start : e->enter, z = agg ? e->enter : e->leave;
	S->enter_min = TC_MIN(S->enter_min, a);
	S->leave_max = TC_MAX(S->leave_max, z);
	S->ncevs++;
	double l = tc_cev_metric(e, TC_M_LATENESS, agg), d = tc_cev_metric(e, TC_M_DLATENESS, agg);
	S->lateness_max = TC_MAX(S->lateness_max, l);
	S->lateness_sum += l;
	S->dlateness_max = TC_MAX(S->dlateness_max, d);
	S->dlateness_sum += d;
	S->glateness_max = TC_MAX(S->glateness_max, tc_cev_metric(e, TC_M_GLATENESS, agg));
	S->duration_max = TC_MAX(S->duration_max, tc_cev_metric(e, TC_M_DURATION, agg));
}

/* Differential lateness (docs/logical-time.md): what was not inherited, from
 * the predecessor (the event's own aggregate block) or from the partners;
 * each event then goes into its steps' sums (one pass over the events). */
static void diff_lateness(struct tc_steps *s, const size_t *slot, const uint64_t *pmin, int x_n, int x_pred)
{
	enum { AHEAD = 8 };
	for (size_t i = 0; i < s->ncevs; i++) {
		prefetch_partners(s, i + AHEAD);
		struct tc_cev *e = &s->cevs[i];
		double prev = inherited_from_prev(s, (uint32_t)i, &pmin[slot[i] * x_n], x_pred);
		e->dlateness_agg = dmax0(e->lateness_agg - prev);
		double parent = e->lateness_agg, partners = inherited_from_partners(s, (uint32_t)i);
		e->dlateness = dmax0(e->lateness - (partners > parent ? partners : parent));
		step_add(s, e, 0);
		if (e->step) step_add(s, e, 1);
	}
}

void steps_metrics(struct tc_steps *s)
{
	const struct tc_trace *t = s->t;
	size_t n = s->ncevs;
	uint32_t np = s->npartitions;
	size_t ng = (size_t)s->max_step + 1;
	s->steps = xcalloc(ng, sizeof *s->steps);

	/* slots: one per (partition, even step in its span) */
	size_t *poff = xmalloc(((size_t)np + 1) * sizeof *poff);
	size_t ns = 0;
	for (uint32_t p = 0; p < np; p++) {
		poff[p] = ns;
		ns += (size_t)(s->parts[p].last_step - s->parts[p].first_step) / 2 + 1;
	}
	enum { X_EXIT, X_ENTER, X_DUR, X_AGG, X_PRED, X_N };
	uint64_t *pmin = xmalloc((ns + 1) * X_N * sizeof *pmin);
	uint64_t *gmin = xmalloc(ng * 2 * sizeof *gmin);
	for (size_t k = 0; k < (ns + 1) * X_N; k++) pmin[k] = UINT64_MAX;
	for (size_t k = 0; k < ng * 2; k++) gmin[k] = UINT64_MAX;
	size_t *slot = xmalloc((n + 1) * sizeof *slot);
	for (size_t i = 0; i < n; i++) {
		const struct tc_cev *e = &s->cevs[i];
		const struct tc_partition *P = &s->parts[e->partition];
		slot[i] = poff[e->partition] + (e->step - P->first_step) / 2;
		uint64_t *m = &pmin[slot[i] * X_N];
		uint32_t pv = steps_prev(s, (uint32_t)i);
		uint64_t v[X_N] = { e->leave, e->enter, e->leave - e->enter, e->enter - e->agg_start,
				    pv != TC_NONE ? s->cevs[pv].leave : UINT64_MAX };
		for (int k = 0; k < X_N; k++) m[k] = TC_MIN(m[k], v[k]);
		gmin[e->step * 2] = TC_MIN(gmin[e->step * 2], e->leave);
		gmin[e->step * 2 + 1] = TC_MIN(gmin[e->step * 2 + 1], e->enter);
	}
	for (size_t i = 0; i < n; i++) {
		struct tc_cev *e = &s->cevs[i];
		const uint64_t *m = &pmin[slot[i] * X_N];
		e->lateness = tc_dur(t, e->leave - m[X_EXIT]);
		e->lateness_agg = tc_dur(t, e->enter - m[X_ENTER]);
		e->duration = tc_dur(t, (e->leave - e->enter) - m[X_DUR]);
		e->duration_agg = tc_dur(t, (e->enter - e->agg_start) - m[X_AGG]);
		e->glateness = tc_dur(t, e->leave - gmin[e->step * 2]);
		e->glateness_agg = tc_dur(t, e->enter - gmin[e->step * 2 + 1]);
	}
	for (size_t g = 0; g < ng; g++) s->steps[g].enter_min = UINT64_MAX;
	diff_lateness(s, slot, pmin, X_N, X_PRED);
	uint64_t last = t->tmin;
	for (size_t g = 0; g < ng; g++) {
		struct tc_step_sum *S = &s->steps[g];
		if (!S->ncevs) S->enter_min = S->leave_max = last;
		else last = S->leave_max;
	}
	free(poff); free(pmin); free(gmin); free(slot);
}

static bool block_before(const struct tc_steps *s, enum tc_metric m, struct tc_block a, struct tc_block b)
{
	double va = tc_cev_metric(&s->cevs[a.cev], m, a.agg), vb = tc_cev_metric(&s->cevs[b.cev], m, b.agg);
	if (va != vb) return va > vb;
	if (a.cev != b.cev) return a.cev < b.cev;
	return !a.agg && b.agg;
}

size_t tc_steps_top(const struct tc_steps *s, enum tc_metric m, bool aggs, size_t k, struct tc_block *out)
{
	size_t have = 0;
	if (!k) return 0;
	for (uint32_t i = 0; i < s->ncevs; i++)
		for (int agg = 0; agg < (aggs ? 2 : 1); agg++) {
			struct tc_block b = { i, agg != 0 };
			/* the block before a rank's first event has no measured start:
			 * its value is start-up skew, not something that happened there */
			if (b.agg && steps_prev(s, i) == TC_NONE) continue;
			if (!(tc_cev_metric(&s->cevs[i], m, b.agg) > 0)) continue;
			if (have == k && !block_before(s, m, b, out[k - 1])) continue;
			size_t pos = have < k ? have++ : k - 1;
			while (pos > 0 && block_before(s, m, b, out[pos - 1])) {
				out[pos] = out[pos - 1];
				pos--;
			}
			out[pos] = b;
		}
	return have;
}
