/* lateness.c — the step metrics of Ravel (§3): lateness per partition and
 * step, global lateness per global step, differential lateness (§3.1),
 * duration, each for the event and for its aggregate block, and the per-step
 * summaries.  Events are bucketed by (partition, step) and by global step, so
 * everything is O(events + messages) (Ravel rescans all events per step).
 *
 * Only the differential lateness is stored per event: lateness, global
 * lateness and duration are a time of the event minus a minimum over its
 * peers, so the minima are kept (the slots, and each step's earliest enter and
 * exit) and tc_cev_metric takes the difference when asked. */
#include <stdlib.h>
#include <string.h>

#include "steps_internal.h"

static double dmax0(double x) { return x > 0 ? x : 0; }

/* What the metrics pass reads: late[2i], late[2i+1] = cev i's lateness and
 * aggregate lateness (the partners' are read at random: one array, not the
 * times again); pred[k] = slot k's earliest predecessor exit. */
struct mpass {
	struct tc_steps *s;
	const struct tc_step_msg *mx;   /* the messages' fields, or NULL: t->msgs */
	const struct steps_mhook *h;    /* the steps over parts' (steps_internal.h), or NULL */
	double *late;
	uint64_t *pred;
};

/* Whether cev i has a predecessor on its rank, and its leave: the hook's
 * (the owner of a partition holds no other partition's cevs), else the
 * previous cev's (prev_leave: cev i − 1's, as the passes carry it). */
static bool prev_of(const struct mpass *M, uint32_t i, uint64_t *prev_leave)
{
	if (M->h) {
		*prev_leave = M->h->prev_leave[i];
		return *prev_leave != UINT64_MAX;
	}
	return steps_prev(M->s, i) != TC_NONE;
}

/* The lateness event i inherits from its predecessor on the rank.  In the same
 * partition, the predecessor's lateness (Ravel).  Across a partition boundary
 * the two lateness values have different baselines: the predecessor's leave is
 * measured in i's frame instead, against the earliest predecessor leave among
 * i's peers (the same partition and step). */
static double inherited_from_prev(const struct mpass *M, uint32_t i, uint64_t prev_leave)
{
	const struct tc_steps *s = M->s;
	if (!prev_of(M, i, &prev_leave)) return 0;
	uint32_t pv = steps_prev(s, i);   /* the same cev when in the same partition (a run of cevs on the rank) */
	if (pv != TC_NONE && s->cevs[pv].partition == s->cevs[i].partition) return M->late[2 * (size_t)pv];
	uint64_t base = M->pred[tc_cev_slot(s, i)];
	return prev_leave > base ? tc_dur(s->t, prev_leave - base) : 0;
}

/* The lateness an event inherits from its partners: for a receive, its
 * senders' lateness; for a blocking send held by a late receiver (the receive
 * posted after the send began), the receive's enter lateness (the receiver's
 * aggregate block; the send left after that post: it was held); lateness
 * inherited from a late receiver is not new. */
static double inherited_from_partners(const struct mpass *M, uint32_t i, const struct tc_cev_times *x)
{
	const struct tc_steps *s = M->s;
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
				if (sc != TC_NONE && M->late[2 * (size_t)sc] > got) got = M->late[2 * (size_t)sc];
			}
		}
		if (e->flags & TC_CEV_SEND) {
			const uint32_t *ms = tc_op_sends(t, e->rank, op);
			for (uint32_t j = 0; j < op->nsend; j++) {
				uint32_t rc = s->msg_recv_cev[ms[j]];
				if (rc == TC_NONE) continue;
				struct tc_step_msg msg = steps_msg(t, M->mx, ms[j]);
				if ((msg.flags & TC_MSG_NB_SEND) || msg.post_time <= x->enter || msg.post_time >= x->leave)
					continue;
				if (s->cevs[rc].partition == e->partition && M->late[2 * (size_t)rc + 1] > got)
					got = M->late[2 * (size_t)rc + 1];
			}
		}
	}
	return got;
}

/* Ask for a receive's senders' lateness ahead of inherited_from_partners: it
 * lies anywhere in late[], one miss each (only the first op: enough here). */
static void prefetch_partners(const struct mpass *M, size_t i)
{
	const struct tc_steps *s = M->s;
	if (i >= s->ncevs) return;
	const struct tc_cev *e = &s->cevs[i];
	if (!(e->flags & TC_CEV_RECV) || (e->flags & TC_CEV_COLL)) return;
	const struct tc_trace *t = s->t;
	const struct tc_op *op = &t->ranks[e->rank].ops[e->op];
	const uint32_t *mr = tc_op_recvs(t, e->rank, op);
	for (uint32_t j = 0; j < op->nrecv; j++) {
		uint32_t sc = s->msg_send_cev[mr[j]];
		if (sc != TC_NONE) __builtin_prefetch(&M->late[2 * (size_t)sc]);
	}
}

void steps_step_add(struct tc_steps *s, uint32_t step, int agg, const struct tc_cev_times *x, const double v[4])
{
	struct tc_step_sum *S = &s->steps[step - (uint32_t)agg];
	uint64_t a = agg ? x->agg_start : x->enter, z = agg ? x->enter : x->leave;
	S->enter_min = TC_MIN(S->enter_min, a);
	S->leave_max = TC_MAX(S->leave_max, z);
	S->ncevs++;
	S->lateness_max = TC_MAX(S->lateness_max, v[0]);
	S->lateness_sum += v[0];
	S->dlateness_max = TC_MAX(S->dlateness_max, v[1]);
	S->dlateness_sum += v[1];
	S->glateness_max = TC_MAX(S->glateness_max, v[2]);
	S->duration_max = TC_MAX(S->duration_max, v[3]);
}

/* Event i's block (agg = 0) or aggregate block (agg = 1) into the sums of
 * the step it is drawn on (steps_step_add), or its four values into the
 * hook's out[8i + 4agg ..] when the sums are made elsewhere.  Its lateness
 * is late[], its differential lateness just set. */
static void step_add(const struct mpass *M, uint32_t i, const struct tc_cev_times *x, int agg, double dlate)
{
	struct tc_steps *s = M->s;
	double v[4] = { M->late[2 * (size_t)i + (size_t)agg], dlate, steps_metric_at(s, i, x, TC_M_GLATENESS, agg),
			steps_metric_at(s, i, x, TC_M_DURATION, agg) };
	if (M->h) memcpy(M->h->out + 8 * (size_t)i + 4 * (size_t)agg, v, sizeof v);
	else steps_step_add(s, s->cevs[i].step, agg, x, v);
}

/* Differential lateness (docs/logical-time.md): what was not inherited, from
 * the predecessor (the event's own aggregate block) or from the partners;
 * each event then goes into its steps' sums (one pass over the events). */
static void diff_lateness(const struct mpass *M)
{
	enum { AHEAD = 8 };
	struct tc_steps *s = M->s;
	uint64_t prev_leave = 0;   /* of cev i − 1 */
	for (uint32_t i = 0; i < s->ncevs; i++) {
		prefetch_partners(M, i + AHEAD);
		struct tc_cev *e = &s->cevs[i];
		struct tc_cev_times x;
		steps_times(s, i, &x);
		double lat = M->late[2 * (size_t)i], lat_agg = M->late[2 * (size_t)i + 1];
		e->dlateness_agg = dmax0(lat_agg - inherited_from_prev(M, i, prev_leave));
		double partners = inherited_from_partners(M, i, &x);
		double dlate = dmax0(lat - (partners > lat_agg ? partners : lat_agg));
		if (!M->h) tc_cev_set_dlateness(s, i, dlate);   /* else numbered where the cevs are in order */
		step_add(M, i, &x, 0, dlate);
		if (e->step) step_add(M, i, &x, 1, e->dlateness_agg);
		else if (M->h) M->h->out[8 * (size_t)i + 4] = lat_agg;   /* no step below: only the lateness
									    summary reads it (tc_steps_slice.late) */
		prev_leave = x.leave;
	}
}

/* The baselines: per slot (a partition at one of its steps) the minima of
 * tc_slot and the earliest predecessor exit (M->pred), per even step the
 * earliest enter and exit of its events. */
size_t steps_slot_layout(struct tc_steps *s)
{
	size_t ns = 0;
	for (uint32_t p = 0; p < s->npartitions; p++) {
		/* ns <= ncevs: a partition's k-th local step is reached through k of its events */
		s->parts[p].slot0 = (uint32_t)ns;
		ns += (size_t)(s->parts[p].last_step - s->parts[p].first_step) / 2 + 1;
	}
	return ns;
}

static void baselines(struct mpass *M)
{
	struct tc_steps *s = M->s;
	size_t ns = M->h ? s->nslots : steps_slot_layout(s);   /* the steps over parts laid them out */
	s->nslots = ns;
	s->slots = xmalloc((ns + 1) * sizeof *s->slots);
	M->pred = xmalloc((ns + 1) * sizeof *M->pred);
	for (size_t k = 0; k < ns; k++) {
		s->slots[k] = (struct tc_slot){ UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
		M->pred[k] = UINT64_MAX;
	}
	for (size_t g = 0; g <= s->max_step; g++) s->steps[g].enter_min = s->steps[g].leave_min = UINT64_MAX;
	uint64_t prev_leave = 0;   /* of cev i − 1 */
	for (uint32_t i = 0; i < s->ncevs; i++) {
		const struct tc_cev *e = &s->cevs[i];
		struct tc_cev_times x;
		steps_times(s, i, &x);
		size_t k = tc_cev_slot(s, i);
		struct tc_slot *S = &s->slots[k];
		S->leave = TC_MIN(S->leave, x.leave);
		S->enter = TC_MIN(S->enter, x.enter);
		S->dur = TC_MIN(S->dur, x.leave - x.enter);
		S->agg = TC_MIN(S->agg, x.enter - x.agg_start);
		uint64_t pl = prev_leave;
		if (prev_of(M, i, &pl)) M->pred[k] = TC_MIN(M->pred[k], pl);
		struct tc_step_sum *G = &s->steps[e->step];
		G->leave_min = TC_MIN(G->leave_min, x.leave);
		G->enter_min = TC_MIN(G->enter_min, x.enter);
		prev_leave = x.leave;
	}
}

void steps_metrics(struct tc_steps *s, const struct tc_step_msg *mx)
{
	steps_metrics_hooked(s, mx, NULL);
}

void steps_metrics_hooked(struct tc_steps *s, const struct tc_step_msg *mx, const struct steps_mhook *h)
{
	size_t n = s->ncevs, ng = (size_t)s->max_step + 1;
	s->steps = xcalloc(ng, sizeof *s->steps);
	struct mpass M = { .s = s, .mx = mx, .h = h };
	baselines(&M);
	if (h) h->minima(h->ctx, s);
	M.late = xmalloc((2 * n + 1) * sizeof *M.late);
	for (uint32_t i = 0; i < n; i++) {
		struct tc_cev_times x;
		steps_times(s, i, &x);
		M.late[2 * (size_t)i] = steps_metric_at(s, i, &x, TC_M_LATENESS, false);
		M.late[2 * (size_t)i + 1] = steps_metric_at(s, i, &x, TC_M_LATENESS, true);
	}
	diff_lateness(&M);
	if (!h) steps_sums_end(s);
	free(M.late);
	free(M.pred);
}

void steps_sums_end(struct tc_steps *s)
{
	uint64_t last = s->t->tmin;
	for (size_t g = 0; g <= s->max_step; g++) {
		struct tc_step_sum *S = &s->steps[g];
		if (!S->ncevs) S->enter_min = S->leave_max = last;
		else last = S->leave_max;
	}
}

/* Block a (metric value va) ranks before block b (vb): larger value first,
 * then earlier cev, then the event before its aggregate block. */
static bool block_before(double va, struct tc_block a, double vb, struct tc_block b)
{
	if (va != vb) return va > vb;
	if (a.cev != b.cev) return a.cev < b.cev;
	return !a.agg && b.agg;
}

/* The top k kept sorted by insertion, each entry's value beside it: a
 * candidate's metric is computed once (computing it reads the model's calls
 * when the steps hold no times, and it was computed again for every
 * comparison: three times per candidate over a million cevs). */
size_t tc_steps_top(const struct tc_steps *s, enum tc_metric m, bool aggs, size_t k, struct tc_block *out)
{
	size_t have = 0;
	if (!k) return 0;
	double *val = xmalloc(k * sizeof *val);
	for (uint32_t i = 0; i < s->ncevs; i++)
		for (int agg = 0; agg < (aggs ? 2 : 1); agg++) {
			struct tc_block b = { i, agg != 0 };
			/* the block before a rank's first event has no measured start:
			 * its value is start-up skew, not something that happened there */
			if (b.agg && steps_prev(s, i) == TC_NONE) continue;
			double v = tc_cev_metric(s, i, m, b.agg);
			if (!(v > 0)) continue;
			if (have == k && !block_before(v, b, val[k - 1], out[k - 1])) continue;
			size_t pos = have < k ? have++ : k - 1;
			while (pos > 0 && block_before(v, b, val[pos - 1], out[pos - 1])) {
				out[pos] = out[pos - 1];
				val[pos] = val[pos - 1];
				pos--;
			}
			out[pos] = b;
			val[pos] = v;
		}
	free(val);
	return have;
}
