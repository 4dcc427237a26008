/* rcwait_dist.c — the root causes' wait/own split (docs/rootcause.md §2)
 * replayed over parts (analysis_replay.h), and the same per-rank figures
 * read off a serial result.
 *
 * Every process walks its ranks' MPI activities with the serial rules
 * (rcwait_internal.h: the same walk, the same candidates in the same order)
 * twice: the first walk only collects what it must ask other processes, the
 * second takes the answers in the order it asked.  What each process needs
 * of the others:
 *  - per message (held by its sender's process): its send call's enter and
 *    sender, at the receiver's process (late sender; the wait states'
 *    exchange, made once for both: replay_msgx_get);
 *  - per blocking send whose receive was posted after it ended: the
 *    receiver's first MPI enter in the send's interval, from the receiver's
 *    process (late receiver by progress: 24 bytes there, 16 back);
 *  - per collective member activity: its candidate, from the process that
 *    holds the instance, which gets every member's enter first
 *    (replay_members; 24 bytes there, 16 back).
 * Messages the process's own ranks send (late receiver, Isends completed in a
 * Wait) are in its part.  Each rank's sums are made at its process in
 * activity order, as the serial pass makes them; the total wait by a fold
 * along the processes in rank order; process 0 gathers a row per rank. */
#include <stdlib.h>
#include <string.h>

#include "rcdist_internal.h"
#include "rcwait_internal.h"
#include "replay_internal.h"
#include "waitstate_internal.h"

static uint64_t dmix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* MPI activity a into its rank's row. */
static void stat_add(const struct tc_trace *t, struct tc_rc_rankstat *st, const struct tc_act *a)
{
	st->mpi++;
	st->edge[a->partner == TC_NONE ? TC_WE_NONE : a->edge]++;
	st->mpi_ticks += a->end - a->start;
	st->wait_ticks += a->ready - a->start;
	uint64_t h = dmix(st->digest, a->call);
	h = dmix(dmix(dmix(h, a->start), a->end), a->ready);
	st->digest = dmix(dmix(h, a->partner), a->edge);
	if (a->ready > a->start) st->wait_s += tc_dur(t, a->ready - a->start);
}

static struct tc_rcwait *rcwait_new(uint32_t nranks)
{
	struct tc_rcwait *w = xcalloc(1, sizeof *w);
	w->nranks = nranks;
	w->rank = xcalloc((size_t)nranks + 1, sizeof *w->rank);
	return w;
}

void tc_rcwait_free(struct tc_rcwait *w)
{
	if (!w) return;
	free(w->rank);
	free(w);
}

struct tc_rcwait *tc_rcwait_of(const struct tc_trace *t, const struct tc_rootcause *rc)
{
	struct tc_rcwait *w = rcwait_new(rc->nranks);
	for (uint32_t r = 0; r < rc->nranks; r++) {
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			struct tc_act a = tc_rc_act(rc, r, i);
			if (a.kind == TC_ACT_MPI) stat_add(t, &w->rank[r], &a);
		}
		w->rank[r].wait_s = rc->wait_s[r];
	}
	w->total_wait = rc->total_wait;
	return w;
}

/* --- the replay ------------------------------------------------------------------- */

struct prog_req { uint64_t start, end; uint32_t dst, pad; };
struct prog_ans { uint64_t enter; uint32_t found, pad; };
struct coll_req { uint64_t ci, end; uint32_t rank, pad; };
struct coll_ans { uint64_t ready; uint32_t partner, first, n; uint8_t edge, spans, op, pad; };

struct rwd {
	const struct tc_part *p;
	const struct tc_dist *d;
	const struct tc_trace *t;
	const struct replay_msgx *m;        /* the messages (replay_msgx_get): their send enters here */
	uint64_t *coll_first;               /* replay_firsts of the instances */
	bool ask;                           /* the first walk: collect the requests */
	VEC(struct prog_req) preq;
	VEC(int) pto;
	struct prog_ans *pans;
	size_t pcur;
	VEC(struct coll_req) creq;
	VEC(int) cto;
	struct coll_ans *cans;
	size_t ccur;
	const struct coll_ans *cur;         /* the answer for the activity at hand */
	/* the answering side */
	struct ws_member *mem;              /* members of this process's instances (replay_members) */
	uint64_t mem_start;
	struct rc_coll *coll;               /* per instance held here, set on first use */
	uint8_t *spans;                     /* per instance held here: 0 not known yet, 1 one node, 2 more */
	uint32_t *hint;                     /* per rank of this process: rc_progress_ready's */
	uint32_t *node;                     /* per rank: its node */
};

static void dist_recv(const void *ctx, uint32_t r, const struct tc_op *op, struct rc_ready *rd)
{
	const struct rwd *x = ctx;
	if (x->ask) return;   /* the first walk keeps no candidate */
	for (uint32_t i = 0; i < op->nrecv; i++) {
		uint32_t k = replay_rmsg_at(x->m, r, op->first_recv + i);
		const struct replay_rmsg *m = k == TC_NONE ? NULL : &x->m->in[k];
		rc_candidate(rd, m ? m->send_enter : 0, m ? m->src : TC_NONE, TC_WE_LATE_SENDER);
	}
}

static const struct tc_msg *dist_msg(const void *ctx, uint32_t id)
{
	const struct rwd *x = ctx;
	return &x->p->msgs[id - x->p->msg_first];
}

static void dist_progress(const void *ctx, const struct tc_msg *m, const struct tc_act *a, struct rc_ready *rd)
{
	struct rwd *x = (struct rwd *)ctx;
	if (x->ask) {
		struct prog_req q = { a->start, a->end, m->dst, 0 };
		VEC_PUSH(x->preq, q);
		VEC_PUSH(x->pto, replay_owner(x->m->rank_first, x->d->count, m->dst));
		return;
	}
	const struct prog_ans *s = &x->pans[x->pcur++];
	if (s->found) rc_candidate(rd, s->enter, m->dst, TC_WE_LATE_RECEIVER);
}

/* Every MPI activity of an instance asks its process (the candidate, and
 * whether the members span nodes: the activity's inter), before its
 * readiness; rc_call_wait then reads the answer (x->cur). */
static void coll_ask(struct rwd *x, uint32_t r, const struct tc_act *a)
{
	const struct tc_call *c = &x->t->ranks[r].calls[a->call];
	x->cur = NULL;
	if (c->op == TC_NONE || x->t->ranks[r].ops[c->op].coll == TC_NONE) return;
	if (!x->ask) {
		x->cur = &x->cans[x->ccur++];
		return;
	}
	uint32_t ci = x->t->ranks[r].ops[c->op].coll;
	struct coll_req q = { ci, a->end, r, 0 };
	VEC_PUSH(x->creq, q);
	VEC_PUSH(x->cto, replay_owner(x->coll_first, x->d->count, ci));
}

static void dist_coll(const void *ctx, uint32_t r, uint32_t ci, const struct tc_act *a, struct rc_ready *rd)
{
	const struct rwd *x = ctx;
	(void)r, (void)ci, (void)a;
	if (x->cur && x->cur->partner != TC_NONE) rc_candidate(rd, x->cur->ready, x->cur->partner, x->cur->edge);
}

static void answer_progress(void *ctx, const void *req, void *ans)
{
	struct rwd *x = ctx;
	const struct prog_req *q = req;
	struct prog_ans s = { 0, 0, 0 };
	s.found = rc_progress_ready(x->t, &x->t->ranks[q->dst], &x->hint[q->dst - x->p->lo], q->start, q->end, &s.enter);
	memcpy(ans, &s, sizeof s);
}

static void answer_coll(void *ctx, const void *req, void *ans)
{
	struct rwd *x = ctx;
	const struct coll_req *q = req;
	size_t k = q->ci - x->p->coll_first;
	struct rc_coll *c = &x->coll[k];
	if (!c->done) {
		const struct tc_coll *co = &x->p->colls[k];
		const struct ws_member *m = x->mem + (co->first - x->mem_start);
		struct rc_coll_enter *e = xmalloc(((size_t)co->n + 1) * sizeof *e);
		for (uint32_t j = 0; j < co->n; j++) e[j] = (struct rc_coll_enter){ m[j].enter, m[j].rank };
		rc_coll_set(c, e, co->n, co->op);
	}
	struct rc_ready rd = RC_READY_NONE;
	rc_coll_candidate(c, q->rank, q->end, &rd);
	if (!x->spans[k]) {
		const struct tc_coll *co = &x->p->colls[k];
		const struct ws_member *m = x->mem + (co->first - x->mem_start);
		x->spans[k] = 1;
		for (uint32_t j = 1; j < co->n && x->spans[k] == 1; j++)
			if (!tc_same_node(x->t, m[0].rank, m[j].rank)) x->spans[k] = 2;
	}
	const struct tc_coll *co = &x->p->colls[k];
	struct coll_ans s = { rd.ready, rd.partner, co->first, co->n, rd.edge, x->spans[k] == 2, co->op, 0 };
	memcpy(ans, &s, sizeof s);
}

static const struct rc_ops dist_ops = { dist_recv, dist_msg, dist_progress, dist_coll };

/* Whether MPI activity a of rank r moves anything across nodes (its
 * context's inter, rootcause.c call_bytes): its Isends completed in it (nb
 * from the cursor on), its sends, its receives, its instance's members. */
static uint8_t act_inter(const struct rwd *x, uint32_t r, const struct tc_act *a, const struct rc_src *src)
{
	const struct tc_trace *t = x->t;
	const uint32_t *node = x->node, here = node[r];
	if (rc_nb_inter(src, a->call, x->p->msgs, x->p->msg_first, node, here)) return 1;
	const struct tc_call *c = &t->ranks[r].calls[a->call];
	if (c->op == TC_NONE) return 0;
	const struct tc_op *op = &t->ranks[r].ops[c->op];
	const uint32_t *s = tc_op_sends(t, r, op);
	bool inter = false;
	for (uint32_t i = 0; i < op->nsend; i++) inter |= node[dist_msg(x, s[i])->dst] != here;
	for (uint32_t i = 0; i < op->nrecv; i++) {
		uint32_t k = replay_rmsg_at(x->m, r, op->first_recv + i);
		inter |= k != TC_NONE && node[x->m->in[k].src] != here;
	}
	return inter || (x->cur && x->cur->spans);
}

/* The activities as they are made (the second walk). */
struct dacts_vec {
	VEC(uint64_t) end, ready, bits;
	VEC(uint32_t) call, partner;
	VEC(uint8_t) flags;
};

static void dact_push(struct dacts_vec *v, uint64_t end, const struct tc_act *a, uint8_t inter)
{
	size_t i = v->end.n;
	VEC_PUSH(v->end, end);
	VEC_PUSH(v->call, a->call);
	if (i % 64 == 0) VEC_PUSH(v->bits, 0);
	uint8_t f = (a->kind == TC_ACT_MPI ? DACT_MPI : 0) | (inter ? DACT_INTER : 0);
	if (a->partner != TC_NONE) {
		VEC_PUSH(v->ready, a->ready);
		VEC_PUSH(v->partner, a->partner);
		v->bits.a[i / 64] |= (uint64_t)1 << (i % 64);
		f |= (uint8_t)(a->edge << DACT_EDGE);
	}
	VEC_PUSH(v->flags, f);
}

/* A compute segment ending at end. */
static void dact_compute(struct dacts_vec *v, uint64_t end)
{
	struct tc_act a = { .partner = TC_NONE, .call = TC_NONE, .kind = TC_ACT_COMPUTE };
	dact_push(v, end, &a, 0);
}

/* The instance of the activity at hand, as the context keys read it. */
static const struct rc_collinfo *collinfo(const struct rwd *x, struct rc_collinfo *ci)
{
	if (!x->cur) return NULL;
	*ci = (struct rc_collinfo){ x->cur->first, x->cur->n, x->cur->op, 1 };
	return ci;
}

/* One walk over the process's ranks (x->ask: collecting the requests; else
 * the rows of its ranks into st, ranks lo.. at st[0..], their activities
 * into v, rank k's from first[k], and their context keys into kw). */
static void walk(struct rwd *x, const bool *is_bound, const struct tc_span *sp, struct tc_rc_rankstat *st,
		 struct dacts_vec *v, uint32_t *first, struct rc_dkeys *kw)
{
	const struct tc_part *p = x->p;
	const struct tc_trace *t = x->t;
	rc_nbvec nb = { 0 };
	struct rc_src src = { .ctx = x, .nb = &nb };
	struct rc_collinfo cinfo;
	for (uint32_t r = p->lo; r < p->hi; r++) {
		const struct tc_rank *R = &t->ranks[r];
		if (first) first[r - p->lo] = (uint32_t)v->end.n;
		if (kw) rc_dkeys_rank(kw, r);
		if (!R->ncalls) continue;
		rc_rank_isends(t, R, p->msgs, p->msg_first, &nb);
		src.nbpos = 0;
		struct rc_walk w;
		rc_walk_begin(&w, t, R, is_bound, sp->rank_t0[r], sp->rank_t1[r]);
		uint32_t i;
		uint64_t s, e;
		for (int k; (k = rc_walk_next(&w, &i, &s, &e)) != RC_WALK_END;) {
			if (k != RC_WALK_MPI) {
				if (kw) rc_dkeys_user(kw, &R->calls[i], w.cur);
				continue;
			}
			struct tc_act a = { .start = s, .end = e, .ready = s, .call = i, .partner = TC_NONE,
					    .kind = TC_ACT_MPI };
			coll_ask(x, r, &a);
			uint8_t inter = x->ask ? 0 : act_inter(x, r, &a, &src);
			rc_call_wait(t, &dist_ops, &src, r, &a);
			if (st) stat_add(t, &st[r - p->lo], &a);
			if (v && s > w.cur) dact_compute(v, s);
			if (v) dact_push(v, e, &a, inter);
			if (kw && s > w.cur) rc_dkeys_compute(kw, w.cur, s, &R->calls[i], collinfo(x, &cinfo));
			if (kw) rc_dkeys_mpi(kw, i, inter, collinfo(x, &cinfo));
			w.cur = e;
		}
		if (v && w.cur < w.t1) dact_compute(v, w.t1);
		if (kw && w.cur < w.t1) rc_dkeys_compute(kw, w.cur, w.t1, NULL, NULL);
	}
	if (first) first[p->hi - p->lo] = (uint32_t)v->end.n;
	VEC_FREE(nb);
}

/* The walk's activities into *acts. */
static void dacts_keep(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
		       struct dacts_vec *v, uint32_t *first, struct rc_dacts *acts)
{
	uint32_t mine = p->hi - p->lo;
	*acts = (struct rc_dacts){ .lo = p->lo, .hi = p->hi, .first = first, .n = v->end.n, .end = v->end.a,
				   .call = v->call.a, .flags = v->flags.a, .wait_bits = v->bits.a, .ready = v->ready.a,
				   .partner = v->partner.a, .nwaits = v->ready.n };
	size_t nw = v->bits.n;
	acts->wait_base = xmalloc((nw + 1) * sizeof *acts->wait_base);
	for (size_t k = 0, c = 0; k < nw; k++) {
		acts->wait_base[k] = (uint32_t)c;
		c += (size_t)__builtin_popcountll(v->bits.a[k]);
	}
	acts->rank_t0 = xmalloc(((size_t)mine + 1) * sizeof *acts->rank_t0);
	for (uint32_t k = 0; k < mine; k++) acts->rank_t0[k] = sp->rank_t0[p->lo + k];
	uint64_t c[1] = { acts->n };
	acts->base = acts->n;
	d->exscan(d->ctx, &acts->base, 1, TC_DIST_SUM);
	d->reduce(d->ctx, c, 1, TC_DIST_SUM);
	acts->total = c[0];
}

void rc_dacts_free(struct rc_dacts *a)
{
	free(a->first), free(a->rank_t0), free(a->end), free(a->call), free(a->ctx), free(a->flags);
	free(a->wait_bits), free(a->wait_base), free(a->ready), free(a->partner);
	*a = (struct rc_dacts){ 0 };
}

/* The fold of the total wait: this process's ranks' wait_s in rank order. */
struct wait_fold { const struct tc_rc_rankstat *st; uint32_t n; };

static void wait_step(void *arg, void *state)
{
	const struct wait_fold *f = arg;
	double *s = state;
	for (uint32_t k = 0; k < f->n; k++) *s += f->st[k].wait_s;
}

/* A rank's row on its way to process 0. */
struct rrow { uint64_t rank; struct tc_rc_rankstat st; };

struct tc_rcwait *rc_wait_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
			       const struct replay_msgx *m, struct rc_dacts *acts, struct rc_dkeys *keys)
{
	const struct tc_trace *t = p->t;
	uint32_t nr = t->nranks, mine = p->hi - p->lo;
	struct rwd x = { .p = p, .d = d, .t = t, .m = m };
	x.coll_first = replay_firsts(d, p->coll_first, p->colls_total);
	x.mem = replay_members(p, d, &x.mem_start);
	x.coll = xcalloc(p->ncolls + 1, sizeof *x.coll);
	x.spans = xcalloc(p->ncolls + 1, 1);
	x.hint = xcalloc((size_t)mine + 1, sizeof *x.hint);
	x.node = xmalloc(((size_t)nr + 1) * sizeof *x.node);
	for (uint32_t r = 0; r < nr; r++) x.node[r] = t->ranks[r].node;
	bool *is_bound = rc_bound_regions(t);
	x.ask = true;
	walk(&x, is_bound, sp, NULL, NULL, NULL, NULL);
	x.pans = replay_ask(d, x.preq.a, x.pto.a, x.preq.n, sizeof *x.preq.a, sizeof *x.pans, answer_progress, &x,
			    NULL, NULL);
	x.cans = replay_ask(d, x.creq.a, x.cto.a, x.creq.n, sizeof *x.creq.a, sizeof *x.cans, answer_coll, &x, NULL,
			    NULL);
	x.ask = false;
	struct tc_rc_rankstat *st = xcalloc((size_t)mine + 1, sizeof *st);
	struct dacts_vec v = { 0 };
	uint32_t *first = acts ? xmalloc(((size_t)mine + 1) * sizeof *first) : NULL;
	walk(&x, is_bound, sp, st, acts ? &v : NULL, first, keys);
	if (acts) dacts_keep(p, d, sp, &v, first, acts);
	double total = 0;
	struct wait_fold f = { st, mine };
	d->chain(d->ctx, &total, sizeof total, wait_step, &f);
	struct rrow *rows = xmalloc(((size_t)mine + 1) * sizeof *rows);
	for (uint32_t k = 0; k < mine; k++) rows[k] = (struct rrow){ p->lo + k, st[k] };
	size_t nin;
	struct rrow *in = replay_gather0(d, rows, mine, sizeof *rows, &nin);
	struct tc_rcwait *w = NULL;
	if (in) {
		w = rcwait_new(nr);
		for (size_t k = 0; k < nin; k++) w->rank[in[k].rank] = in[k].st;
		w->total_wait = total;
	}
	for (size_t k = 0; k < p->ncolls; k++) rc_coll_free(&x.coll[k]);
	free(in), free(rows), free(st), free(is_bound), free(x.hint), free(x.node), free(x.coll), free(x.spans), free(x.mem);
	free(x.pans), free(x.cans), free(x.coll_first);
	VEC_FREE(x.preq);
	VEC_FREE(x.pto);
	VEC_FREE(x.creq);
	VEC_FREE(x.cto);
	return w;
}
