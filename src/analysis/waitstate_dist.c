/* waitstate_dist.c — the wait states replayed over parts (analysis_replay.h).
 *
 * What each process needs of the others:
 *  - per message (held by its sender's process): the receiver's process gets
 *    the send call's enter, sender and call, and the posting call (32 bytes)
 *    and answers with that call's enter (8 bytes): the late-sender waits are
 *    found at the receiver, the late-receiver ones at the sender;
 *  - per collective member: its call's times (32 bytes) to the process that
 *    holds its instance, which finds the instance's waits.
 * The serial sums, in their order (waitstate.c: p2p waits by rank, then the
 * instances in order): the totals per kind by a fold along the processes
 * (p2p, then instances), each rank's waited and caused time at the rank's
 * process, from records that arrive in process order (16 or 32 bytes per
 * wait).  Process 0 gets the per-rank vectors, the counts and each part's
 * longest waits. */
#include <stdlib.h>
#include <string.h>

#include "replay_internal.h"
#include "waitstate_internal.h"

struct wsd {
	const struct tc_part *p;
	const struct tc_dist *d;
	const struct tc_trace *t;
	const struct replay_msgx *m;   /* the messages, exchanged (replay_msgx_get) */
};

static int rank_owner(const struct wsd *x, uint32_t r)
{
	return replay_owner(x->m->rank_first, x->d->count, r);
}

/* Message id's partner fields (ws_msg_fn): sent here (all known) or to here. */
static void dist_msg(const void *ctx, uint32_t id, struct ws_msg *m)
{
	const struct wsd *x = ctx;
	const struct tc_part *p = x->p;
	if (id >= p->msg_first && id - p->msg_first < p->nmsgs) {
		const struct tc_msg *s = &p->msgs[id - p->msg_first];
		*m = (struct ws_msg){ tc_msg_send_enter(x->t, s), x->m->post[id - p->msg_first], s->src,
				      s->send_call, s->dst, s->post_call };
		return;
	}
	const struct replay_rmsg *r = replay_rmsg_find(x->m->in, x->m->nin, id);
	if (!r) {   /* not in a consistent part: no sender known */
		*m = (struct ws_msg){ 0, 0, TC_NONE, TC_NONE, TC_NONE, TC_NONE };
		return;
	}
	*m = (struct ws_msg){ r->send_enter, 0, r->src, r->send_call, r->dst, r->post_call };
}

/* The members' times to the processes holding their instances, then the
 * waits of this process's instances, in instance order. */
static void coll_waits(const struct wsd *x, struct ws_acc *a)
{
	const struct tc_part *p = x->p;
	uint64_t start;
	struct ws_member *m = replay_members(p, x->d, &start);
	uint32_t nr = x->t->nranks;
	uint32_t *member_of = xmalloc((nr ? nr : 1) * sizeof *member_of);
	for (uint32_t k = 0; k < nr; k++) member_of[k] = TC_NONE;
	for (size_t i = 0; i < p->ncolls; i++) ws_coll(x->t, &p->colls[i], m + (p->colls[i].first - start), member_of, a);
	free(member_of), free(m);
}

/* The fold of the totals: state = total[TC_WS_COUNT], run, mpi. */
struct tot_fold {
	const struct wsd *x;
	const struct ws_acc *a;
	bool times;
};

static void tot_step(void *arg, void *state)
{
	struct tot_fold *f = arg;
	double *s = state;
	for (size_t i = 0; i < f->a->w.n; i++) s[f->a->w.a[i].kind] += f->a->w.a[i].seconds;
	if (f->times) ws_times(f->x->t, f->x->p->lo, f->x->p->hi, &s[TC_WS_COUNT], &s[TC_WS_COUNT + 1]);
}

static void totals(const struct wsd *x, const struct ws_acc *p2p, const struct ws_acc *colls, struct tc_waitstates *r)
{
	double s[TC_WS_COUNT + 2] = { 0 };
	struct tot_fold f = { x, p2p, true };
	x->d->chain(x->d->ctx, s, sizeof s, tot_step, &f);
	f = (struct tot_fold){ x, colls, false };
	x->d->chain(x->d->ctx, s, sizeof s, tot_step, &f);
	memcpy(r->total, s, sizeof r->total);
	r->run_time = s[TC_WS_COUNT];
	r->mpi_time = s[TC_WS_COUNT + 1];
}

/* A wait's time for one rank. */
struct rtime {
	uint32_t rank;
	double seconds;
};

/* Each wait's time to the process of its cause, added there in arrival order. */
static void add_caused(const struct wsd *x, const struct ws_acc *a, double *caused)
{
	struct rtime *out = xmalloc((a->w.n ? a->w.n : 1) * sizeof *out);
	int *to = xmalloc((a->w.n ? a->w.n : 1) * sizeof *to);
	size_t n = 0;
	for (size_t i = 0; i < a->w.n; i++) {
		if (a->w.a[i].cause == TC_NONE) continue;
		out[n] = (struct rtime){ a->w.a[i].cause, a->w.a[i].seconds };
		to[n++] = rank_owner(x, a->w.a[i].cause);
	}
	size_t nin;
	struct rtime *in = replay_send(x->d, out, to, n, sizeof *out, &nin);
	for (size_t k = 0; k < nin; k++) caused[in[k].rank] += in[k].seconds;
	free(in), free(to), free(out);
}

/* The instances' waits to their waiters' processes: appended to own. */
static void take_coll_waits(const struct wsd *x, const struct ws_acc *colls, struct ws_acc *own)
{
	int *to = xmalloc((colls->w.n ? colls->w.n : 1) * sizeof *to);
	for (size_t i = 0; i < colls->w.n; i++) to[i] = rank_owner(x, colls->w.a[i].rank);
	size_t nin;
	struct tc_wait *in = replay_send(x->d, colls->w.a, to, colls->w.n, sizeof *in, &nin);
	for (size_t k = 0; k < nin; k++) VEC_PUSH(own->w, in[k]);
	free(in), free(to);
}

/* One of a part's longest waits, where its call is. */
struct rlong {
	struct tc_wait w;
	struct tc_wait_at at;
};

/* The `longest` longest of w[0..n) (ties: the earlier), in list order, to process 0. */
static void gather_longest(const struct wsd *x, const struct tc_wait *w, size_t n, size_t longest,
			   struct tc_waitstates *r)
{
	uint32_t *idx;
	size_t k = ws_longest(w, n, longest, &idx);
	struct rlong *out = xmalloc((k ? k : 1) * sizeof *out);
	for (size_t i = 0; i < k; i++) {
		const struct tc_wait *y = &w[idx[i]];
		const struct tc_call *c = &x->t->ranks[y->rank].calls[y->call];
		out[i] = (struct rlong){ *y, { c->enter, c->region } };
	}
	size_t nin;
	struct rlong *in = replay_gather0(x->d, out, k, sizeof *out, &nin);
	if (r) {
		r->w = xmalloc((nin ? nin : 1) * sizeof *r->w);
		r->at = xmalloc((nin ? nin : 1) * sizeof *r->at);
		for (size_t i = 0; i < nin; i++) r->w[i] = in[i].w, r->at[i] = in[i].at;
		r->n = nin;
	}
	free(in), free(out), free(idx);
}

struct tc_waitstates *replay_waitstates(const struct tc_part *p, const struct tc_dist *d, size_t longest,
					const struct replay_msgx *m, struct tc_wait **mine, size_t *nmine)
{
	uint32_t nr = p->t->nranks;
	struct wsd x = { .p = p, .d = d, .t = p->t, .m = m };
	struct ws_acc own = { 0 }, colls = { 0 };
	for (uint32_t r = p->lo; r < p->hi; r++) ws_p2p_rank(p->t, r, dist_msg, &x, &own);
	VEC_FREE(own.rx);
	VEC_FREE(own.recv);
	coll_waits(&x, &colls);
	struct tc_waitstates *r = ws_new(nr);
	totals(&x, &own, &colls, r);
	add_caused(&x, &own, r->caused);     /* every p2p wait's, then every instance's: the serial order */
	add_caused(&x, &colls, r->caused);
	take_coll_waits(&x, &colls, &own);   /* own: its ranks' p2p waits, then the instances' in order */
	for (size_t i = 0; i < own.w.n; i++) r->waited[own.w.a[i].rank] += own.w.a[i].seconds;
	replay_join(d, r->waited, nr);
	replay_join(d, r->caused, nr);
	uint64_t cnt[2] = { own.w.n, own.clamped + colls.clamped };
	d->reduce(d->ctx, cnt, 2, TC_DIST_SUM);
	r->n_all = cnt[0];
	r->clamped = cnt[1];
	if (own.w.n) qsort(own.w.a, own.w.n, sizeof *own.w.a, ws_wait_cmp);
	if (d->index != 0) {
		tc_waitstates_free(r);
		r = NULL;
	}
	gather_longest(&x, own.w.a, own.w.n, longest, r);
	if (r && !r->at) r->at = xmalloc(sizeof *r->at);   /* reduced even when empty */
	if (mine) *mine = own.w.a, *nmine = own.w.n;
	else VEC_FREE(own.w);
	VEC_FREE(colls.w);
	return r;
}
