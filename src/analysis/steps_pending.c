/* steps_pending.c — TEMPORARY logical-time engine for the `tui` branch.
 *
 * DELETE AT MERGE in favour of the real engine (src/analysis/steps*.c on the
 * `steps` branch), which implements the same header, include/analysis_steps.h.
 *
 * This is the simple Lamport-style stepping (what tc_steps_opts.lamport asks
 * for in the real engine), not a stub:
 *   - one communication event (cev) per tc_op (no Isend coalescing);
 *   - step(e) = max(step(prev on rank) + 2, step(send cev of each message e
 *     receives) + 2); the members of one collective share one step,
 *     2 + the maximum over the members' previous steps (first events: 0);
 *   - one partition holding everything, so lateness == global lateness:
 *     exit − min exit at the same step (aggregate: enter − min enter);
 *     duration and differential lateness as in ravel-algorithms.md §3, §3.1.
 * Events whose dependencies cannot be resolved (clock or matching damage)
 * are forced in time order, so the engine always terminates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_steps.h"

const char *const tc_metric_names[TC_M_COUNT] = { "lateness", "global_lateness", "diff_lateness", "duration" };

void tc_steps_default_opts(struct tc_steps_opts *o)
{
	*o = (struct tc_steps_opts){ .coalesce_isends = true, .waitall_merge = true, .caller_merge = false,
				     .leap_merge = false, .lamport = true };
}

double tc_cev_metric(const struct tc_cev *e, enum tc_metric m, bool agg)
{
	switch (m) {
	case TC_M_LATENESS: return agg ? e->lateness_agg : e->lateness;
	case TC_M_GLATENESS: return agg ? e->glateness_agg : e->glateness;
	case TC_M_DLATENESS: return agg ? e->dlateness_agg : e->dlateness;
	case TC_M_DURATION: return agg ? e->duration_agg : e->duration;
	default: return 0;
	}
}

uint32_t tc_steps_find(const struct tc_steps *s, uint32_t rank, uint32_t step)
{
	if (!s->rank_first || rank >= s->t->nranks) return TC_NONE;
	uint32_t lo = s->rank_first[rank], hi = s->rank_first[rank + 1];
	while (lo < hi) {   /* first cev with step >= step */
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->cevs[mid].step < step) lo = mid + 1;
		else hi = mid;
	}
	if (lo < s->rank_first[rank + 1]) {
		if (s->cevs[lo].step == step) return lo;
		if (s->cevs[lo].step == step + 1) return lo;   /* its aggregate block */
	}
	return TC_NONE;
}

uint32_t tc_steps_cev_of_call(const struct tc_steps *s, uint32_t rank, uint32_t call)
{
	const struct tc_trace *t = s->t;
	if (rank >= t->nranks || call >= t->ranks[rank].ncalls) return TC_NONE;
	uint32_t op = t->ranks[rank].calls[call].op;
	if (op == TC_NONE) return TC_NONE;
	uint32_t lo = s->rank_first[rank], hi = s->rank_first[rank + 1];
	while (lo < hi) {   /* last cev with first op <= op */
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->cevs[mid].op <= op) lo = mid + 1;
		else hi = mid;
	}
	if (lo == s->rank_first[rank]) return TC_NONE;
	const struct tc_cev *e = &s->cevs[lo - 1];
	return op < e->op + e->nops ? lo - 1 : TC_NONE;
}

#define UNSET UINT32_MAX

struct lstate {
	const struct tc_trace *t;
	struct tc_steps *s;
	uint32_t *pos;       /* per rank: next cev to resolve */
	uint32_t *coll_cevs; /* per collective: its member cevs (offsets coll_first) */
	uint32_t *coll_first;
	uint32_t *coll_arrived, *coll_expected;
	uint32_t *queue;
	bool *inq;
	size_t qh, qt, qcap;
};

static void push_rank(struct lstate *L, uint32_t r)
{
	if (L->inq[r]) return;
	L->inq[r] = true;
	L->queue[L->qt++ % L->qcap] = r;
}

static uint32_t prev_step2(const struct lstate *L, uint32_t e)
{
	const struct tc_cev *c = &L->s->cevs[e];
	return e > L->s->rank_first[c->rank] ? L->s->cevs[e - 1].step + 2 : 0;
}

static void resolved(struct lstate *L, uint32_t e)
{
	const struct tc_trace *t = L->t;
	const struct tc_cev *c = &L->s->cevs[e];
	const struct tc_op *op = &t->ranks[c->rank].ops[c->op];
	const uint32_t *sm = tc_op_sends(t, c->rank, op);
	for (uint32_t k = 0; k < op->nsend; k++) push_rank(L, t->msgs[sm[k]].dst);
	L->pos[c->rank] = e + 1;
	push_rank(L, c->rank);
}

/* Try to resolve the next event of rank r; force ignores missing dependencies. */
static bool try_next(struct lstate *L, uint32_t r, bool force)
{
	struct tc_steps *s = L->s;
	const struct tc_trace *t = L->t;
	uint32_t e = L->pos[r];
	if (e >= s->rank_first[r + 1]) return false;
	struct tc_cev *c = &s->cevs[e];
	if (c->step != UNSET) return false;   /* waiting at its collective */
	uint32_t step = prev_step2(L, e);
	const struct tc_op *op = &t->ranks[r].ops[c->op];
	const uint32_t *rm = tc_op_recvs(t, r, op);
	for (uint32_t k = 0; k < op->nrecv; k++) {
		uint32_t se = s->msg_send_cev[rm[k]];
		if (se == TC_NONE) continue;
		if (s->cevs[se].step == UNSET) {
			if (!force) return false;
			continue;
		}
		step = TC_MAX(step, s->cevs[se].step + 2);
	}
	uint32_t co = op->coll;
	if (co != TC_NONE && !force) {
		/* arrive; the last member to arrive resolves the whole collective */
		c->partition = step;   /* scratch: the member's own lower bound */
		c->step = UNSET - 1;   /* marks "arrived" */
		if (++L->coll_arrived[co] < L->coll_expected[co]) return false;
		uint32_t cs = 0;
		for (uint32_t k = L->coll_first[co]; k < L->coll_first[co + 1]; k++) {
			uint32_t m = L->coll_cevs[k];
			if (s->cevs[m].step == UNSET - 1) cs = TC_MAX(cs, s->cevs[m].partition);
		}
		for (uint32_t k = L->coll_first[co]; k < L->coll_first[co + 1]; k++) {
			uint32_t m = L->coll_cevs[k];
			if (s->cevs[m].step != UNSET - 1) continue;
			s->cevs[m].step = cs;
			s->cevs[m].partition = 0;
			resolved(L, m);
		}
		return true;
	}
	if (co != TC_NONE) {   /* forced out of its collective: the others stop waiting for it */
		L->coll_expected[co]--;
		for (uint32_t k = L->coll_first[co]; k < L->coll_first[co + 1]; k++)
			if (L->coll_cevs[k] != e) push_rank(L, s->cevs[L->coll_cevs[k]].rank);
		if (L->coll_arrived[co] && L->coll_arrived[co] == L->coll_expected[co]) {
			/* re-arrive one member so the collective resolves */
			for (uint32_t k = L->coll_first[co]; k < L->coll_first[co + 1]; k++) {
				uint32_t m = L->coll_cevs[k];
				if (s->cevs[m].step == UNSET - 1) {
					s->cevs[m].step = UNSET;
					L->coll_arrived[co]--;
					try_next(L, s->cevs[m].rank, false);
					break;
				}
			}
		}
	}
	c->step = step;
	c->partition = 0;
	resolved(L, e);
	return true;
}

static void assign_steps(struct tc_steps *s)
{
	const struct tc_trace *t = s->t;
	struct lstate L = { .t = t, .s = s };
	uint32_t nr = t->nranks;
	L.pos = xcalloc(nr + 1, sizeof *L.pos);
	L.inq = xcalloc(nr + 1, sizeof *L.inq);
	L.qcap = (size_t)nr + 1;
	L.queue = xcalloc(L.qcap, sizeof *L.queue);
	size_t nc = t->ncolls;
	L.coll_first = xcalloc(nc + 1, sizeof *L.coll_first);
	L.coll_arrived = xcalloc(nc + 1, sizeof *L.coll_arrived);
	L.coll_expected = xcalloc(nc + 1, sizeof *L.coll_expected);
	for (size_t e = 0; e < s->ncevs; e++) {
		uint32_t co = t->ranks[s->cevs[e].rank].ops[s->cevs[e].op].coll;
		if (co != TC_NONE) L.coll_expected[co]++;
	}
	for (size_t c = 0; c < nc; c++) L.coll_first[c + 1] = L.coll_first[c] + L.coll_expected[c];
	L.coll_cevs = xcalloc(L.coll_first[nc] + 1, sizeof *L.coll_cevs);
	uint32_t *fill = xcalloc(nc + 1, sizeof *fill);
	for (size_t e = 0; e < s->ncevs; e++) {
		uint32_t co = t->ranks[s->cevs[e].rank].ops[s->cevs[e].op].coll;
		if (co != TC_NONE) L.coll_cevs[L.coll_first[co] + fill[co]++] = (uint32_t)e;
	}
	free(fill);
	for (uint32_t r = 0; r < nr; r++) {
		L.pos[r] = s->rank_first[r];
		push_rank(&L, r);
	}
	size_t done = 0;
	for (;;) {
		while (L.qh != L.qt) {
			uint32_t r = L.queue[L.qh++ % L.qcap];
			L.inq[r] = false;
			while (try_next(&L, r, false)) {}
		}
		/* stuck (or finished): force the pending event that starts first */
		uint32_t best = TC_NONE;
		for (uint32_t r = 0; r < nr; r++) {
			uint32_t e = L.pos[r];
			if (e >= s->rank_first[r + 1]) continue;
			if (best == TC_NONE || s->cevs[e].enter < s->cevs[L.pos[best]].enter) best = r;
		}
		if (best == TC_NONE) break;
		uint32_t e = L.pos[best];
		if (s->cevs[e].step == UNSET - 1) {   /* arrived at a stuck collective: leave it */
			uint32_t co = t->ranks[best].ops[s->cevs[e].op].coll;
			s->cevs[e].step = UNSET;
			L.coll_arrived[co]--;
		}
		try_next(&L, best, true);
		done++;
	}
	(void)done;
	free(L.pos);
	free(L.inq);
	free(L.queue);
	free(L.coll_first);
	free(L.coll_arrived);
	free(L.coll_expected);
	free(L.coll_cevs);
}

static void metrics(struct tc_steps *s)
{
	const struct tc_trace *t = s->t;
	uint32_t ns = s->max_step + 1;
	uint64_t *min_exit = xmalloc(ns * sizeof *min_exit), *min_enter = xmalloc(ns * sizeof *min_enter);
	uint64_t *min_dur = xmalloc(ns * sizeof *min_dur), *min_adur = xmalloc(ns * sizeof *min_adur);
	for (uint32_t i = 0; i < ns; i++) min_exit[i] = min_enter[i] = min_dur[i] = min_adur[i] = UINT64_MAX;
	for (size_t i = 0; i < s->ncevs; i++) {
		const struct tc_cev *e = &s->cevs[i];
		uint32_t k = e->step;
		min_exit[k] = TC_MIN(min_exit[k], e->leave);
		min_enter[k] = TC_MIN(min_enter[k], e->enter);
		min_dur[k] = TC_MIN(min_dur[k], e->leave - e->enter);
		min_adur[k] = TC_MIN(min_adur[k], e->enter - e->agg_start);
	}
	for (size_t i = 0; i < s->ncevs; i++) {
		struct tc_cev *e = &s->cevs[i];
		uint32_t k = e->step;
		e->lateness = e->glateness = tc_dur(t, e->leave - min_exit[k]);
		e->lateness_agg = e->glateness_agg = tc_dur(t, e->enter - min_enter[k]);
		e->duration = tc_dur(t, (e->leave - e->enter) - min_dur[k]);
		e->duration_agg = tc_dur(t, (e->enter - e->agg_start) - min_adur[k]);
	}
	for (size_t i = 0; i < s->ncevs; i++) {
		struct tc_cev *e = &s->cevs[i];
		bool first = i == s->rank_first[e->rank];
		double parent = e->lateness_agg;
		const struct tc_op *op = &t->ranks[e->rank].ops[e->op];
		if (op->coll == TC_NONE) {
			const uint32_t *rm = tc_op_recvs(t, e->rank, op);
			for (uint32_t k = 0; k < op->nrecv; k++) {
				uint32_t se = s->msg_send_cev[rm[k]];
				if (se != TC_NONE) parent = fmax(parent, s->cevs[se].lateness);
			}
		}
		e->dlateness = fmax(0, e->lateness - parent);
		e->dlateness_agg = fmax(0, e->lateness_agg - (first ? 0 : s->cevs[i - 1].lateness));
	}
	for (size_t i = 0; i < s->ncevs; i++) {
		const struct tc_cev *e = &s->cevs[i];
		struct tc_step_sum *ss = &s->steps[e->step];
		ss->enter_min = TC_MIN(ss->enter_min, e->enter);
		ss->leave_max = TC_MAX(ss->leave_max, e->leave);
		ss->ncevs++;
		ss->lateness_max = fmax(ss->lateness_max, e->lateness);
		ss->lateness_sum += e->lateness;
		ss->dlateness_max = fmax(ss->dlateness_max, e->dlateness);
		ss->dlateness_sum += e->dlateness;
		ss->glateness_max = fmax(ss->glateness_max, e->glateness);
		ss->duration_max = fmax(ss->duration_max, e->duration);
	}
	free(min_exit);
	free(min_enter);
	free(min_dur);
	free(min_adur);
}

struct tc_steps *tc_steps_compute(const struct tc_trace *t, const struct tc_steps_opts *o)
{
	struct tc_steps *s = xcalloc(1, sizeof *s);
	if (o) s->opts = *o;
	else tc_steps_default_opts(&s->opts);
	s->t = t;
	s->rank_first = xcalloc((size_t)t->nranks + 1, sizeof *s->rank_first);
	size_t n = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		s->rank_first[r] = (uint32_t)n;
		n += t->ranks[r].nops;
	}
	s->rank_first[t->nranks] = (uint32_t)n;
	s->ncevs = n;
	s->cevs = xcalloc(n ? n : 1, sizeof *s->cevs);
	s->msg_send_cev = xmalloc((t->nmsgs ? t->nmsgs : 1) * sizeof(uint32_t));
	s->msg_recv_cev = xmalloc((t->nmsgs ? t->nmsgs : 1) * sizeof(uint32_t));
	for (size_t m = 0; m < t->nmsgs; m++) s->msg_send_cev[m] = s->msg_recv_cev[m] = TC_NONE;
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		uint64_t prev_leave = UINT64_MAX;
		for (uint32_t k = 0; k < R->nops; k++) {
			uint32_t i = s->rank_first[r] + k;
			const struct tc_op *op = &R->ops[k];
			const struct tc_call *c = &R->calls[op->call];
			struct tc_cev *e = &s->cevs[i];
			e->enter = c->enter;
			e->leave = TC_MAX(c->leave, c->enter);
			e->agg_start = prev_leave == UINT64_MAX ? e->enter : TC_MIN(prev_leave, e->enter);
			prev_leave = e->leave;
			e->rank = r;
			e->op = k;
			e->nops = 1;
			e->step = UNSET;
			e->flags = (op->nsend ? TC_CEV_SEND : 0) | (op->nrecv ? TC_CEV_RECV : 0) |
				   (op->coll != TC_NONE ? TC_CEV_COLL : 0);
			const uint32_t *sm = tc_op_sends(t, r, op), *rm = tc_op_recvs(t, r, op);
			for (uint32_t j = 0; j < op->nsend; j++) s->msg_send_cev[sm[j]] = i;
			for (uint32_t j = 0; j < op->nrecv; j++) s->msg_recv_cev[rm[j]] = i;
		}
	}
	assign_steps(s);
	uint32_t max_step = 0;
	for (size_t i = 0; i < n; i++) max_step = TC_MAX(max_step, s->cevs[i].step);
	s->max_step = max_step;
	s->steps = xcalloc((size_t)max_step + 1, sizeof *s->steps);
	for (uint32_t i = 0; i <= max_step; i++) s->steps[i].enter_min = UINT64_MAX;
	metrics(s);
	for (uint32_t i = 0; i <= max_step; i++)
		if (!s->steps[i].ncevs) s->steps[i].enter_min = 0;
	s->npartitions = 1;
	s->parts = xcalloc(1, sizeof *s->parts);
	struct tc_partition *p = s->parts;
	p->first_step = 0;
	p->last_step = max_step;
	p->ncevs = (uint32_t)n;
	p->enter = UINT64_MAX;
	for (uint32_t r = 0; r < t->nranks; r++) p->nranks += s->rank_first[r + 1] > s->rank_first[r];
	for (size_t i = 0; i < n; i++) {
		p->enter = TC_MIN(p->enter, s->cevs[i].enter);
		p->leave = TC_MAX(p->leave, s->cevs[i].leave);
	}
	if (!n) p->enter = 0;
	return s;
}

void tc_steps_free(struct tc_steps *s)
{
	if (!s) return;
	free(s->cevs);
	free(s->rank_first);
	free(s->parts);
	free(s->steps);
	free(s->msg_send_cev);
	free(s->msg_recv_cev);
	free(s);
}
