/* critpath_dist.c — the critical path (docs/rootcause.md §4) by a backward
 * replay over parts: the walk of critpath.c (its steps are the same code,
 * critpath_internal.h), made by a token that moves between processes.  The
 * process holding the token walks its own ranks' activities (rc_dacts, from
 * the wait/own replay) back in time; when an MPI activity waited for a
 * partner on another process, the token goes there (a probe): that process
 * decides whether the partner can be followed (it has an activity before the
 * moment), records the pieces and goes on, with the partner's activities or
 * by sending the token back.  Each hand-off is one point-to-point message
 * (struct tc_dist send1 / recv1), O(path) of them at most; the processes
 * without the token wait for it.  Every piece carries its place in the walk;
 * process 0 gathers them, puts them in time order and sums the lengths in
 * that order, as critpath.c does.  A piece's excess is its activity's (the
 * replayed excess and thin-context delays), at most the piece's length, as
 * critpath.c's; the excess on the path per rank is summed in time order at
 * process 0. */
#include <stdlib.h>
#include <string.h>

#include "critpath_internal.h"
#include "rcdist_internal.h"
#include "replay_internal.h"

enum { TOK_WALK = 1, TOK_PROBE, TOK_DONE };

/* The walk's state and the pieces' count; a probe also carries its step
 * (the waiting activity of w.r and its partner). */
struct cp_token {
	struct cp_walk w;
	struct cp_step st;
	uint64_t seq;
	float excess;           /* a probe: the waiting activity's excess (its process's) */
	uint8_t mode, pad[3];
};

struct seq_piece { uint64_t seq; struct tc_cp_piece p; };

struct cpw {
	const struct tc_dist *d;
	const struct rc_dacts *a;
	const float *excess;            /* per activity of a (NULL: none) */
	const struct tc_trace *t;
	const uint64_t *rank_first;     /* replay_firsts of the ranks */
	uint32_t nranks;
	uint64_t t0;                    /* the span's start */
	VEC(struct seq_piece) pieces;
	uint64_t *seq;                  /* the token's piece count (piece) */
	const float *probe_excess;      /* the token's excess of a probe's activity, held elsewhere */
};

static int owner(const struct cpw *w, uint32_t r)
{
	return replay_owner(w->rank_first, w->d->count, r);
}

/* A piece of the walk (cp_piece_fn), numbered in the walk's order. */
static void piece(void *ctx, uint64_t s, uint64_t e, uint32_t rank, uint32_t act, uint8_t kind)
{
	struct cpw *w = ctx;
	if (e <= s) return;
	const struct rc_dacts *a = w->a;
	float ax = !w->excess ? 0 : act - a->base < a->n ? w->excess[act - a->base] : *w->probe_excess;
	double ex = kind == TC_CP_WAIT ? 0 : TC_MIN((double)ax, tc_dur(w->t, e - s));
	struct seq_piece x = { (*w->seq)++, { s, e, rank, act, kind, ex } };
	VEC_PUSH(w->pieces, x);
}

/* Walks while the token's rank is this process's.  Returns the process the
 * token goes to (a walk or a probe), or -1 when the walk has ended. */
static int run(struct cpw *w, struct cp_token *tk)
{
	const struct rc_dacts *a = w->a;
	int me = w->d->index;
	w->seq = &tk->seq;
	w->probe_excess = &tk->excess;
	if (tk->mode == TOK_PROBE) {
		cp_end(&tk->w, &tk->st, dact_before(a, tk->st.partner - a->lo, tk->st.at) != TC_NONE, w->nranks, piece, w);
		tk->mode = TOK_WALK;
	}
	while (tk->w.T > w->t0 && tk->w.guard) {
		if (owner(w, tk->w.r) != me) return owner(w, tk->w.r);
		uint32_t k = tk->w.r - a->lo;
		uint32_t i = dact_at(a, k, tk->w.T);
		if (i == TC_NONE || dact_start(a, k, i) >= tk->w.T) return -1;
		uint64_t st = dact_start(a, k, i);
		struct cp_act x = { st, a->end[i], dact_ready(a, i, st), dact_partner(a, i), (uint32_t)(a->base + i),
				    dact_mpi(a, i) ? TC_ACT_MPI : TC_ACT_COMPUTE, dact_inter(a, i) };
		if (cp_begin(&tk->w, &x, &tk->st, piece, w)) continue;
		bool ask = cp_asks(&tk->st, w->nranks);
		if (ask && owner(w, tk->st.partner) != me) {
			tk->mode = TOK_PROBE;
			tk->excess = w->excess ? w->excess[i] : 0;
			return owner(w, tk->st.partner);
		}
		cp_end(&tk->w, &tk->st, ask && dact_before(a, tk->st.partner - a->lo, tk->st.at) != TC_NONE, w->nranks, piece, w);
	}
	return -1;
}

/* The rank whose last activity ends last (the first such), and that end. */
static uint32_t end_rank(const struct cpw *w, uint64_t *T)
{
	const struct rc_dacts *a = w->a;
	uint32_t best = TC_NONE;
	uint64_t end = 0;
	for (uint32_t k = 0; k < a->hi - a->lo; k++) {
		uint32_t z = a->first[k + 1];
		if (z == a->first[k]) continue;
		if (best == TC_NONE || a->end[z - 1] > end) { end = a->end[z - 1]; best = a->lo + k; }
	}
	uint64_t v[2] = { best == TC_NONE ? 0 : end + 1, 0 };   /* + 1: 0 is no activity */
	w->d->reduce(w->d->ctx, v, 1, TC_DIST_MAX);
	v[1] = best != TC_NONE && end + 1 == v[0] ? best : UINT64_MAX;
	w->d->reduce(w->d->ctx, &v[1], 1, TC_DIST_MIN);
	*T = v[0] ? v[0] - 1 : 0;
	return v[1] == UINT64_MAX ? TC_NONE : (uint32_t)v[1];
}

/* Hand-offs until the walk ends: the holder walks, then gives the token to
 * the next process (send1) or, at the end, the end to every other process;
 * the others wait for either (recv1).  A hand-off is one point-to-point
 * message: O(1) per crossing of the path, whatever the process count. */
static void walk_token(struct cpw *w, uint32_t r, uint64_t T)
{
	const struct tc_dist *d = w->d;
	struct cp_token tk = { .w = { .T = T, .guard = 2 * w->a->total + 16, .r = r }, .mode = TOK_WALK };
	bool have = owner(w, r) == d->index;
	for (;;) {
		if (!have) {
			d->recv1(d->ctx, &tk, sizeof tk);
			if (tk.mode == TOK_DONE) return;
		}
		int q = run(w, &tk);
		if (q >= 0) {
			d->send1(d->ctx, q, &tk, sizeof tk);
			have = false;
			continue;
		}
		tk.mode = TOK_DONE;
		for (int k = 0; k < d->count; k++)
			if (k != d->index) d->send1(d->ctx, k, &tk, sizeof tk);
		return;
	}
}

static int seq_desc(const void *x, const void *y)
{
	const struct seq_piece *a = x, *b = y;
	return a->seq < b->seq ? 1 : a->seq > b->seq ? -1 : 0;
}

/* The pieces in time order, the length summed in that order, the shares. */
static struct tc_cpath *path_of(const struct tc_trace *t, struct seq_piece *in, size_t n, uint32_t end)
{
	struct tc_cpath *c = xcalloc(1, sizeof *c);
	c->end_rank = end;
	c->nranks = t->nranks;
	c->compute_excess = xcalloc((size_t)t->nranks + 1, sizeof *c->compute_excess);
	c->mpi_excess = xcalloc((size_t)t->nranks + 1, sizeof *c->mpi_excess);
	qsort(in, n, sizeof *in, seq_desc);
	c->piece = xmalloc((n ? n : 1) * sizeof *c->piece);
	c->n = n;
	double len[TC_CP_NKINDS] = { 0 };
	for (size_t i = 0; i < n; i++) {
		c->piece[i] = in[i].p;
		double d = tc_dur(t, in[i].p.end - in[i].p.start);
		len[in[i].p.kind] += d;
		c->length += d;
		double *ex = in[i].p.kind == TC_CP_COMPUTE ? c->compute_excess : c->mpi_excess;
		ex[in[i].p.rank] += in[i].p.excess;
	}
	for (int k = 0; k < TC_CP_NKINDS; k++) c->share[k] = c->length > 0 ? len[k] / c->length : 0;
	return c;
}

struct tc_cpath *rc_cpath_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
			       const uint64_t *rank_first, const struct rc_dacts *a, const float *excess)
{
	struct cpw w = { .d = d, .a = a, .excess = excess, .t = p->t, .nranks = p->t->nranks, .t0 = sp->t0 };
	w.rank_first = rank_first;
	uint64_t T;
	uint32_t r = end_rank(&w, &T);
	if (r != TC_NONE) walk_token(&w, r, T);
	size_t nin;
	struct seq_piece *in = replay_gather0(d, w.pieces.a, w.pieces.n, sizeof *w.pieces.a, &nin);
	struct tc_cpath *c = in ? path_of(p->t, in, nin, r) : NULL;
	free(in);
	VEC_FREE(w.pieces);
	return c;
}

struct tc_cpath *tc_cpath_of(const struct tc_rootcause *rc)
{
	struct tc_cpath *c = xcalloc(1, sizeof *c);
	c->end_rank = rc->path_end_rank;
	c->length = rc->path_len;
	memcpy(c->share, rc->share, sizeof c->share);
	c->n = rc->npath;
	c->piece = xmalloc((c->n ? c->n : 1) * sizeof *c->piece);
	memcpy(c->piece, rc->path, c->n * sizeof *c->piece);
	c->nranks = rc->nranks;
	c->compute_excess = xmalloc(((size_t)rc->nranks + 1) * sizeof *c->compute_excess);
	c->mpi_excess = xmalloc(((size_t)rc->nranks + 1) * sizeof *c->mpi_excess);
	memcpy(c->compute_excess, rc->path_compute_excess, rc->nranks * sizeof *c->compute_excess);
	memcpy(c->mpi_excess, rc->path_mpi_excess, rc->nranks * sizeof *c->mpi_excess);
	return c;
}

void tc_cpath_free(struct tc_cpath *c)
{
	if (!c) return;
	free(c->piece);
	free(c->compute_excess), free(c->mpi_excess);
	free(c);
}
