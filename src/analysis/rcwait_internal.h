/* rcwait_internal.h — the wait/own split of the root causes
 * (docs/rootcause.md §2) in the pieces that the serial pass (rootcause.c)
 * and the replay over parts (rcwait_dist.c) share: which calls of a rank
 * are its MPI activities (the walk), and when the partner of one was ready
 * (the candidates and their order), given the partners' times however they
 * are found: from the whole model, or from other processes. */
#ifndef TC_RCWAIT_INTERNAL_H
#define TC_RCWAIT_INTERNAL_H

#include <stdlib.h>

#include "analysis_rootcause.h"

/* --- the walk: a rank's calls inside its span [t0, t1], in order ---------------- */

enum { RC_WALK_END, RC_WALK_USER, RC_WALK_MPI };

/* cur: where the rank's previous activity ended (the caller sets it to the
 * end of each MPI activity it takes, as the start of the next one). */
struct rc_walk {
	const struct tc_trace *t;
	const struct tc_rank *R;
	const bool *is_bound;  /* per region: MPI_Init / MPI_Finalize (bound the span, no activity) */
	uint64_t t0, t1, cur;
	uint32_t i, skip;      /* the next call; calls below skip are inside the last MPI call */
};

static inline void rc_walk_begin(struct rc_walk *w, const struct tc_trace *t, const struct tc_rank *R,
				 const bool *is_bound, uint64_t t0, uint64_t t1)
{
	*w = (struct rc_walk){ .t = t, .R = R, .is_bound = is_bound, .t0 = t0, .t1 = t1, .cur = t0 };
}

/* The next call in the span: RC_WALK_USER, a call that is no outermost MPI
 * call (*ci); RC_WALK_MPI, an MPI activity: its outermost MPI call *ci
 * (not MPI_Init or MPI_Finalize) clipped to [cur, t1] as [*s, *e];
 * RC_WALK_END after the last. */
static inline int rc_walk_next(struct rc_walk *w, uint32_t *ci, uint64_t *s, uint64_t *e)
{
	const struct tc_rank *R = w->R;
	for (; w->i < R->ncalls; w->i++) {
		uint32_t i = w->i;
		const struct tc_call *c = &R->calls[i];
		if (i < w->skip) continue;
		if (c->leave <= w->t0 && !(c->leave == w->t0 && c->enter == w->t0)) continue;
		if (c->enter >= w->t1) break;
		*ci = i;
		if (!tc_call_outermost_mpi(w->t, R, c)) {
			w->i++;
			return RC_WALK_USER;
		}
		uint32_t j = i + 1;   /* skip the MPI call's subtree */
		while (j < R->ncalls && R->calls[j].depth > c->depth) j++;
		w->skip = j;
		if (w->is_bound[c->region]) continue;
		*s = TC_MAX(c->enter, w->cur);
		*e = TC_MIN(c->leave, w->t1);
		if (*e < *s) *e = *s;
		w->i++;
		return RC_WALK_MPI;
	}
	w->i = R->ncalls;
	return RC_WALK_END;
}

/* Per region of t: whether it bounds the span (caller frees). */
bool *rc_bound_regions(const struct tc_trace *t);

/* --- readiness: the candidates of one MPI activity, the latest wins ------------- */

struct rc_ready { uint64_t ready; uint32_t partner; uint8_t edge; };
#define RC_READY_NONE ((struct rc_ready){ 0, TC_NONE, TC_WE_NONE })

static inline void rc_candidate(struct rc_ready *r, uint64_t when, uint32_t who, uint8_t edge)
{
	if (r->partner == TC_NONE || when > r->ready) {
		r->ready = when;
		r->partner = who;
		r->edge = edge;
	}
}

/* Late receiver: a message of ours held until its receive was posted. */
static inline void rc_late_receiver(const struct tc_msg *m, const struct tc_act *a, struct rc_ready *rd)
{
	if (m->post_time > a->start && a->end > m->post_time) rc_candidate(rd, m->post_time, m->dst, TC_WE_LATE_RECEIVER);
}

/* Whether the late-receiver-by-progress rule asks the receiver of m about
 * activity a: a send that returned before its receive was posted, and lasted. */
static inline bool rc_progress_asks(const struct tc_trace *t, const struct tc_msg *m, const struct tc_act *a)
{
	return m->post_time >= a->end && m->dst < t->nranks && a->end > a->start;
}

/* The receiver R's answer (docs/rootcause.md §2, "Late receiver by
 * progress"): true and *enter, the first MPI call it entered in
 * [start, end), unless it was inside an MPI call at start; *hint: where
 * the last search on R ended (any value is right, a close one is fast). */
bool rc_progress_ready(const struct tc_trace *t, const struct tc_rank *R, uint32_t *hint, uint64_t start, uint64_t end,
		       uint64_t *enter);

/* A collective instance's members as the rule reads them: their calls'
 * enters.  latest, who: the last member's enter (the first such member);
 * for rooted instances every member's enter sorted by (enter, rank). */
struct rc_coll_enter { uint64_t e; uint32_t rank; };
struct rc_coll {
	uint64_t latest;
	uint32_t who, n;
	bool rooted, done;
	struct rc_coll_enter *sorted;
};

/* c from the members m[0..n) in member order (m is kept for a rooted
 * instance: sorted in place, freed by rc_coll_free). */
void rc_coll_set(struct rc_coll *c, struct rc_coll_enter *m, uint32_t n, uint8_t op);
static inline void rc_coll_free(struct rc_coll *c)
{
	free(c->sorted);
	c->sorted = NULL;
}
/* The collective candidate of member rank r whose activity ends at end. */
void rc_coll_candidate(const struct rc_coll *c, uint32_t r, uint64_t end, struct rc_ready *rd);

/* The Isends of a rank completed inside one of its Waits, in (call, message) order. */
struct rc_nbdone { uint32_t call, msg; };
typedef VEC(struct rc_nbdone) rc_nbvec;
/* Rank R's such Isends into *nb (emptied first); message id is msgs[id - first]. */
void rc_rank_isends(const struct tc_trace *t, const struct tc_rank *R, const struct tc_msg *msgs, uint64_t first,
		    rc_nbvec *nb);

/* Where the partners' times come from (ctx: struct rc_src's). */
struct rc_ops {
	/* the late-sender candidates of op's receives (TC_WE_LATE_SENDER) */
	void (*recv)(const void *ctx, uint32_t r, const struct tc_op *op, struct rc_ready *rd);
	/* a message sent by one of this side's ranks */
	const struct tc_msg *(*msg)(const void *ctx, uint32_t id);
	/* the progress candidate of a send m that rc_progress_asks about */
	void (*progress)(const void *ctx, const struct tc_msg *m, const struct tc_act *a, struct rc_ready *rd);
	/* the collective candidate of r's member call in instance ci (none when
	 * the instance has fewer than 2 members) */
	void (*coll)(const void *ctx, uint32_t r, uint32_t ci, const struct tc_act *a, struct rc_ready *rd);
};

/* The rank at hand's sources. */
struct rc_src {
	const void *ctx;
	const rc_nbvec *nb;  /* the rank's rc_rank_isends */
	size_t nbpos;        /* a cursor into nb: activities come in call order */
};

/* Whether an Isend of the rank completed in its MPI call `call` (from src's
 * cursor on, which rc_call_wait moves past the call afterwards) goes to
 * another node than `here`: message id m is msgs[m - first], node[q] rank
 * q's node.  Part of the call's inter (rootcause.c call_bytes). */
static inline bool rc_nb_inter(const struct rc_src *src, uint32_t call, const struct tc_msg *msgs, uint64_t first,
			       const uint32_t *node, uint32_t here)
{
	const rc_nbvec *nb = src->nb;
	for (size_t k = src->nbpos; k < nb->n && nb->a[k].call <= call; k++)
		if (nb->a[k].call == call && node[msgs[nb->a[k].msg - first].dst] != here) return true;
	return false;
}

/* a->ready, partner and edge of MPI activity a of rank r (call a->call):
 * the latest candidate, clipped to the activity; none when it was ready
 * before the activity started.  ops: a static const table, so that its
 * calls are direct (and inlined) where this is. */
static inline __attribute__((always_inline)) void rc_call_wait(const struct tc_trace *t, const struct rc_ops *ops,
							       struct rc_src *src, uint32_t r, struct tc_act *a)
{
	const struct tc_call *c = &t->ranks[r].calls[a->call];
	if (c->op == TC_NONE) return;
	const struct tc_op *op = &t->ranks[r].ops[c->op];
	uint8_t kind = t->regions[c->region].kind;
	struct rc_ready rd = RC_READY_NONE;
	if (op->nrecv && (kind == TC_RK_MPI_RECV || kind == TC_RK_MPI_WAIT || kind == TC_RK_MPI_SENDRECV))
		ops->recv(src->ctx, r, op, &rd);
	if (op->nsend && (kind == TC_RK_MPI_SEND || kind == TC_RK_MPI_SENDRECV)) {
		const uint32_t *s = tc_op_sends(t, r, op);
		for (uint32_t i = 0; i < op->nsend; i++) {
			const struct tc_msg *m = ops->msg(src->ctx, s[i]);
			rc_late_receiver(m, a, &rd);
			if (rc_progress_asks(t, m, a)) ops->progress(src->ctx, m, a, &rd);
		}
	}
	const rc_nbvec *nb = src->nb;
	if (kind == TC_RK_MPI_WAIT && nb->n) {
		size_t lo = src->nbpos;   /* calls come in order: the cursor only moves forward */
		while (lo < nb->n && nb->a[lo].call < a->call) lo++;
		src->nbpos = lo;
		for (; lo < nb->n && nb->a[lo].call == a->call; lo++) rc_late_receiver(ops->msg(src->ctx, nb->a[lo].msg), a, &rd);
	}
	if (op->coll != TC_NONE && kind == TC_RK_MPI_COLL) ops->coll(src->ctx, r, op->coll, a, &rd);
	if (rd.partner == TC_NONE || rd.ready <= a->start) return;
	a->ready = TC_MIN(rd.ready, a->end);
	a->partner = rd.partner;
	a->edge = rd.edge;
}

#endif
