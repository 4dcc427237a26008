/* rcctx_dist.c — the root causes' contexts (docs/rootcause.md §3,
 * "Contexts") replayed over parts (analysis_replay.h), and the same table
 * read off the serial activity pass.
 *
 * Every process keys its ranks' activities as the serial pass does
 * (rcctx_internal.h: the same formulas), during the wait/own split's second
 * walk (rcwait_dist.c calls the rc_dkeys_* hooks at every activity).  What a
 * key needs beyond the process's own ranks:
 *  - per received message: its tag, bytes and whether its pair numbers its
 *    messages (the sender's process knows: rc_numbering over its ranks'
 *    sends), sent to the receiver's process in the order of the messages'
 *    exchange (replay_msgx_get), so that they line up with it;
 *  - per collective activity: its instance's operation and where its members
 *    are in the serial member list (the instance's process answers, with the
 *    wait/own split's candidate); the activity's own member record, and so
 *    its bytes, is then in the process's part.
 * Each process numbers its contexts in the order it meets them and counts
 * their activities and ranks.  Process 0 takes the processes' tables in
 * process order (rank order: the serial order of first appearance) and
 * numbers the contexts as the serial pass does, registers the first-segment
 * joins (the serial `steady` map: a context's key without its previous call,
 * where the context was new, which is where it is new on its process of
 * first appearance), and joins the first segments in rank order
 * (first_segments).  It returns each process its numbering and the joined
 * segments; each process digests its ranks' contexts, and the compute scale's
 * bins go by a fold in rank order (the serial sum of each rank's bins). */
#include <stdlib.h>
#include <string.h>

#include "rcctx_internal.h"
#include "rcdist_internal.h"
#include "replay_internal.h"
#include "u64map.h"

/* What a received message's key needs, from its sender's process. */
struct rtag { uint64_t bytes; uint32_t tag, numbered; };

/* A context as its process first met it. */
struct lctx {
	uint64_t key, coarse, place, work, steady;
	uint32_t n, nranks, last, region;
	uint8_t kind, inter, bucket, has_steady, pad[4];
};
/* A rank's first compute segment (no previous call): its activity (the
 * process's index), its context (the process's), the key it may join. */
struct lfirst { uint64_t steady, act; uint32_t ctx, pad; };

struct rc_dkeys {
	const struct tc_part *p;
	const struct replay_msgx *m;
	uint64_t *numbered;          /* per message of p->msgs (rc_numbering) */
	struct rtag *rt;             /* per message of m->in */
	struct u64map keys;          /* key -> the process's context */
	VEC(struct lctx) ctx;
	VEC(uint32_t) act_ctx;       /* per activity of the process, in order */
	VEC(struct lfirst) firsts;
	uint32_t *rank_first;        /* per rank of the process + 1: where its activities start */
	uint64_t (*bins)[TC_RC_SCALE_BINS]; /* per rank of the process: compute ticks per bin */
	/* the rank at hand */
	uint32_t r;
	const struct tc_call *prev;
	uint64_t prev_tag, gap_sig;
};

/* The tags, bytes and numbering of the messages this process receives: the
 * senders' processes send them in the exchange's order (replay_msgx_get). */
static struct rtag *recv_tags(const struct tc_part *p, const struct tc_dist *d, const struct replay_msgx *m,
			      const uint64_t *numbered)
{
	size_t n = p->nmsgs, nin;
	struct rtag *out = xmalloc((n ? n : 1) * sizeof *out);
	int *to = xmalloc((n ? n : 1) * sizeof *to);
	for (size_t i = 0; i < n; i++) {
		const struct tc_msg *x = &p->msgs[i];
		out[i] = (struct rtag){ x->bytes, x->tag, rc_numbered(numbered, i) };
		to[i] = replay_owner(m->rank_first, d->count, x->dst);
	}
	struct rtag *in = replay_send(d, out, to, n, sizeof *out, &nin);
	free(out), free(to);
	return in;
}

struct rc_dkeys *rc_dkeys_new(const struct tc_part *p, const struct tc_dist *d, const struct replay_msgx *m)
{
	struct rc_dkeys *k = xcalloc(1, sizeof *k);
	k->p = p;
	k->m = m;
	k->numbered = rc_numbering(p->t, p->lo, p->hi, p->msgs, p->msg_first, p->nmsgs);
	k->rt = recv_tags(p, d, m, k->numbered);
	u64map_init(&k->keys);
	uint32_t mine = p->hi - p->lo;
	k->rank_first = xcalloc((size_t)mine + 1, sizeof *k->rank_first);
	k->bins = xcalloc((size_t)mine + 1, sizeof *k->bins);
	return k;
}

static void dkeys_free(struct rc_dkeys *k)
{
	free(k->numbered), free(k->rt), free(k->rank_first), free(k->bins);
	u64map_free(&k->keys);
	VEC_FREE(k->ctx);
	VEC_FREE(k->act_ctx);
	VEC_FREE(k->firsts);
	free(k);
}

void rc_dkeys_rank(struct rc_dkeys *k, uint32_t r)
{
	k->r = r;
	k->prev = NULL;
	k->prev_tag = RC_TAG_NONE;
	k->gap_sig = 0;
	k->rank_first[r - k->p->lo] = (uint32_t)k->act_ctx.n;
}

void rc_dkeys_user(struct rc_dkeys *k, const struct tc_call *c, uint64_t cur)
{
	if (c->region < k->p->t->nregions && c->enter >= cur) k->gap_sig = rc_gap_add(k->gap_sig, c->region);
}

/* A call's tag signature (rootcause.c call_tag): ci, its instance's. */
static uint64_t dtag(const struct rc_dkeys *k, const struct tc_call *c, const struct rc_collinfo *ci)
{
	const struct tc_part *p = k->p;
	const struct tc_trace *t = p->t;
	if (!c || c->op == TC_NONE) return RC_TAG_NONE;
	const struct tc_op *op = &t->ranks[k->r].ops[c->op];
	if (op->nsend) {
		uint64_t m = tc_op_sends(t, k->r, op)[0] - p->msg_first;
		return rc_numbered(k->numbered, m) ? RC_NUMBERED : p->msgs[m].tag;
	}
	if (op->nrecv) {
		uint64_t tag = RC_NUMBERED;
		for (uint32_t i = 0; i < op->nrecv; i++) {
			uint32_t at = replay_rmsg_at(k->m, k->r, op->first_recv + i);
			if (at != TC_NONE) tag = rc_recv_tag(tag, k->rt[at].tag, k->rt[at].numbered);
		}
		return tag;
	}
	if (op->coll != TC_NONE && ci && ci->has) return rc_coll_tag(ci->op);
	return RC_TAG_NONE;
}

/* The process's context of key for an activity of the rank at hand
 * (counted there); *created: it is new on this process. */
static uint32_t lctx_of(struct rc_dkeys *k, uint64_t key, const struct lctx *proto, bool *created)
{
	uint32_t i = u64map_get(&k->keys, key);
	*created = i == U64MAP_NONE;
	if (*created) {
		i = (uint32_t)k->ctx.n;
		struct lctx c = *proto;
		c.key = key;
		c.n = c.nranks = 0;
		c.last = TC_NONE;
		VEC_PUSH(k->ctx, c);
		u64map_put(&k->keys, key, i);
	}
	struct lctx *c = &k->ctx.a[i];
	c->n++;
	if (c->last != k->r) {
		c->last = k->r;
		c->nranks++;
	}
	VEC_PUSH(k->act_ctx, i);
	return i;
}

void rc_dkeys_compute(struct rc_dkeys *k, uint64_t s, uint64_t e, const struct tc_call *next,
		      const struct rc_collinfo *ci)
{
	uint32_t pr = rc_seg_region(k->prev), nr = rc_seg_region(next);
	uint64_t tag1 = dtag(k, next, ci), place = rc_place_key(pr, k->prev_tag, nr, tag1);
	uint64_t steady = rc_steady_key(nr, tag1, k->gap_sig);
	struct lctx proto = { .coarse = rc_coarse_key(pr, nr, k->gap_sig), .place = place, .work = k->gap_sig,
			      .region = nr, .kind = TC_ACT_COMPUTE };
	bool created;
	uint64_t act = k->act_ctx.n;
	uint32_t c = lctx_of(k, rc_compute_key(place, k->gap_sig), &proto, &created);
	if (!k->prev) {
		struct lfirst f = { steady, act, c, 0 };
		VEC_PUSH(k->firsts, f);
	} else if (created) {
		k->ctx.a[c].steady = steady;
		k->ctx.a[c].has_steady = 1;
	}
	k->bins[k->r - k->p->lo][rc_size_bucket(e - s)] += e - s;
}

/* The bytes of the rank at hand's member record in instance ci (its first
 * there, as rootcause.c coll_member finds it), 0 when it has none. */
static uint64_t member_bytes(const struct rc_dkeys *k, const struct rc_collinfo *ci)
{
	const struct tc_part *p = k->p;
	size_t a = 0, b = p->nmembers;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (p->member_at[mid] < ci->first) a = mid + 1;
		else b = mid;
	}
	for (; a < p->nmembers && p->member_at[a] < (uint64_t)ci->first + ci->n; a++)
		if (p->members[a].rank == k->r) return p->members[a].sent + p->members[a].recvd;
	return 0;
}

void rc_dkeys_mpi(struct rc_dkeys *k, uint32_t call, uint8_t inter, const struct rc_collinfo *ci)
{
	const struct tc_part *p = k->p;
	const struct tc_trace *t = p->t;
	const struct tc_call *c = &t->ranks[k->r].calls[call];
	uint64_t bytes = 0;
	if (c->op != TC_NONE) {
		const struct tc_op *op = &t->ranks[k->r].ops[c->op];
		const uint32_t *s = tc_op_sends(t, k->r, op);
		for (uint32_t i = 0; i < op->nsend; i++) bytes += p->msgs[s[i] - p->msg_first].bytes;
		for (uint32_t i = 0; i < op->nrecv; i++) {
			uint32_t at = replay_rmsg_at(k->m, k->r, op->first_recv + i);
			if (at != TC_NONE) bytes += k->rt[at].bytes;
		}
		if (op->coll != TC_NONE && ci && ci->has) bytes += member_bytes(k, ci);
	}
	uint8_t bucket = rc_size_bucket(bytes);
	struct lctx proto = { .region = c->region, .kind = TC_ACT_MPI, .inter = inter, .bucket = bucket };
	bool created;
	lctx_of(k, rc_mpi_key(c->region, bucket, inter), &proto, &created);
	k->prev_tag = dtag(k, c, ci);
	k->prev = c;
	k->gap_sig = 0;
}

/* --- numbering at process 0 ---------------------------------------------------------- */

/* A context on its way to process 0, and a first segment's join back. */
struct join { uint64_t act; uint32_t ctx, pad; };

struct merge {
	struct u64map keys, steady;
	VEC(struct tc_rc_ctx) ctx;
};
struct jvec { struct join *a; size_t n, cap; };

/* Process q's table (in its order): the global number of each of its contexts into g. */
static void merge_table(struct merge *M, const struct lctx *c, uint64_t n, uint32_t *g)
{
	for (uint64_t j = 0; j < n; j++) {
		uint32_t i = u64map_get(&M->keys, c[j].key);
		if (i == U64MAP_NONE) {
			i = (uint32_t)M->ctx.n;
			struct tc_rc_ctx x = { .key = c[j].key, .coarse = c[j].coarse, .place = c[j].place, .work = c[j].work,
					       .region = c[j].region, .kind = c[j].kind, .inter = c[j].inter,
					       .size_bucket = c[j].bucket };
			VEC_PUSH(M->ctx, x);
			u64map_put(&M->keys, c[j].key, i);
			if (c[j].has_steady && u64map_get(&M->steady, c[j].steady) == U64MAP_NONE)
				u64map_put(&M->steady, c[j].steady, i);
		}
		M->ctx.a[i].n += c[j].n;
		M->ctx.a[i].nranks += c[j].nranks;
		g[j] = i;
	}
}

/* The first segments of one process (its numbering g), joined as
 * first_segments does; the joins into *out (to process q). */
struct ivec { int *a; size_t n, cap; };

static void join_firsts(struct merge *M, const struct lfirst *f, uint64_t n, const uint32_t *g, int q,
			struct jvec *out, struct ivec *to)
{
	for (uint64_t j = 0; j < n; j++) {
		uint32_t c = g[f[j].ctx];
		if (M->ctx.a[c].n >= 3) continue;
		uint32_t k = u64map_get(&M->steady, f[j].steady);
		if (k == U64MAP_NONE || k == c) continue;
		M->ctx.a[c].n--;
		M->ctx.a[k].n++;
		M->ctx.a[k].nranks++;  /* an upper bound, as serially */
		struct join x = { f[j].act, k, 0 };
		VEC_PUSH(*out, x);
		VEC_PUSH(*to, q);
	}
}

/* The fold of the compute scale's bins in rank order. */
struct bins_fold { const uint64_t (*bins)[TC_RC_SCALE_BINS]; uint32_t n; };

static void bins_step(void *arg, void *state)
{
	const struct bins_fold *f = arg;
	double *s = state;
	for (uint32_t r = 0; r < f->n; r++)
		for (int b = 0; b < TC_RC_SCALE_BINS; b++) s[b] += (double)f->bins[r][b];
}

static uint64_t digest_mix(uint64_t h, uint64_t x)
{
	return rc_mix(h, x);
}

/* A rank's row on its way to process 0. */
struct crow { uint64_t rank; struct tc_rc_ctxrank row; };

/* Process 0 numbers the contexts; each process gets its numbering (the
 * global number of each of its contexts, in its order: *gmap) and its
 * joined first segments (*jin, in activity order). */
static struct merge *number_at0(struct rc_dkeys *k, const struct tc_dist *d, uint32_t **gmap, struct join **jin,
				size_t *njoin)
{
	int P = d->count;
	uint64_t *cnt = xcalloc((size_t)P, sizeof *cnt), *fcnt = xcalloc((size_t)P, sizeof *fcnt);
	int *to = xcalloc(k->ctx.n + k->firsts.n + 1, sizeof *to);
	size_t nc, nf;
	struct lctx *tab = replay_send_counted(d, k->ctx.a, to, k->ctx.n, sizeof *k->ctx.a, &nc, cnt);
	struct lfirst *fs = replay_send_counted(d, k->firsts.a, to, k->firsts.n, sizeof *k->firsts.a, &nf, fcnt);
	free(to);
	struct merge *M = NULL;
	VEC(uint32_t) back = { 0 };
	VEC(int) bto = { 0 };
	struct jvec joins = { 0 };
	struct ivec jto = { 0 };
	if (d->index == 0) {
		M = xcalloc(1, sizeof *M);
		u64map_init(&M->keys);
		u64map_init(&M->steady);
		uint32_t *g = xmalloc((nc ? nc : 1) * sizeof *g);
		size_t at = 0, fat = 0;
		for (int q = 0; q < P; at += cnt[q], q++) merge_table(M, tab + at, cnt[q], g + at);
		at = 0;
		for (int q = 0; q < P; at += cnt[q], fat += fcnt[q], q++) {
			join_firsts(M, fs + fat, fcnt[q], g + at, q, &joins, &jto);
			for (uint64_t j = 0; j < cnt[q]; j++) {
				VEC_PUSH(back, g[at + j]);
				VEC_PUSH(bto, q);
			}
		}
		free(g);
	}
	free(tab), free(fs), free(cnt), free(fcnt);
	size_t nback;
	*gmap = replay_send(d, back.a, bto.a, back.n, sizeof(uint32_t), &nback);
	*jin = replay_send(d, joins.a, jto.a, joins.n, sizeof *joins.a, njoin);
	VEC_FREE(back);
	VEC_FREE(bto);
	VEC_FREE(joins);
	VEC_FREE(jto);
	return M;
}

/* This process's ranks' rows: their activities and the digest of their
 * contexts (global numbers) in order. */
static struct crow *rank_rows(const struct rc_dkeys *k)
{
	uint32_t mine = k->p->hi - k->p->lo;
	struct crow *rows = xmalloc(((size_t)mine + 1) * sizeof *rows);
	for (uint32_t q = 0; q < mine; q++) {
		uint32_t a = k->rank_first[q], z = q + 1 < mine ? k->rank_first[q + 1] : (uint32_t)k->act_ctx.n;
		uint64_t h = 0;
		for (uint32_t i = a; i < z; i++) h = digest_mix(h, k->act_ctx.a[i]);
		rows[q] = (struct crow){ k->p->lo + q, { z - a, h } };
	}
	return rows;
}

struct tc_rcctx *rc_dkeys_finish(struct rc_dkeys *k, const struct tc_dist *d, struct rc_dacts *acts,
				 struct tc_rc_ctx **table, uint32_t *nctx, double *scale_bin)
{
	uint32_t *gmap;
	struct join *jin;
	size_t njoin, nin;
	struct merge *M = number_at0(k, d, &gmap, &jin, &njoin);
	for (size_t a = 0; a < k->act_ctx.n; a++) k->act_ctx.a[a] = gmap[k->act_ctx.a[a]];
	for (size_t j = 0; j < njoin; j++) k->act_ctx.a[jin[j].act] = jin[j].ctx;
	free(gmap), free(jin);
	uint32_t mine = k->p->hi - k->p->lo;
	struct crow *rows = rank_rows(k);
	struct crow *in = replay_gather0(d, rows, mine, sizeof *rows, &nin);
	free(rows);
	struct tc_rcctx *c = NULL;
	double bins[TC_RC_SCALE_BINS] = { 0 };
	struct bins_fold f = { (const uint64_t (*)[TC_RC_SCALE_BINS])k->bins, mine };
	d->chain(d->ctx, bins, sizeof bins, bins_step, &f);
	memcpy(scale_bin, bins, sizeof bins);
	size_t ntab;
	*table = replay_bcast0(d, M ? M->ctx.a : NULL, M ? M->ctx.n : 0, sizeof **table, &ntab);
	*nctx = (uint32_t)ntab;
	if (M) {
		c = xcalloc(1, sizeof *c);
		c->nranks = k->p->t->nranks;
		c->nctx = (uint32_t)M->ctx.n;
		c->ctx = M->ctx.a;
		c->rank = xcalloc((size_t)c->nranks + 1, sizeof *c->rank);
		for (size_t j = 0; j < nin; j++) c->rank[in[j].rank] = in[j].row;
		memcpy(c->scale_bin, bins, sizeof bins);
		u64map_free(&M->keys);
		u64map_free(&M->steady);
		free(M);
	}
	free(in);
	acts->ctx = k->act_ctx.a;   /* the activities' global numbers, now theirs */
	k->act_ctx.a = NULL;
	dkeys_free(k);
	return c;
}

/* --- the serial reference ----------------------------------------------------------- */

struct tc_rcctx *tc_rcctx_serial(const struct tc_trace *t, const struct tc_span *sp)
{
	struct tc_usage mark = tc_usage();
	struct tc_rcctx *c = xcalloc(1, sizeof *c);
	struct tc_rootcause *rc = tc_rc_activities(t, sp, NULL, c->scale_bin, &mark);
	c->nranks = rc->nranks;
	c->nctx = rc->nctx;
	c->ctx = xmalloc(((size_t)rc->nctx + 1) * sizeof *c->ctx);
	for (uint32_t i = 0; i < rc->nctx; i++) {
		const struct tc_rc_ctx *x = &rc->ctx[i];
		c->ctx[i] = (struct tc_rc_ctx){ .key = x->key, .coarse = x->coarse, .place = x->place, .work = x->work,
						.n = x->n, .nranks = x->nranks, .region = x->region, .kind = x->kind,
						.inter = x->inter, .size_bucket = x->size_bucket };
	}
	c->rank = xcalloc((size_t)rc->nranks + 1, sizeof *c->rank);
	for (uint32_t r = 0; r < rc->nranks; r++) {
		uint64_t h = 0;
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) h = digest_mix(h, tc_rc_act_ctx(rc, i));
		c->rank[r] = (struct tc_rc_ctxrank){ rc->act_first[r + 1] - rc->act_first[r], h };
	}
	tc_rootcause_free(rc);
	return c;
}

void tc_rcctx_free(struct tc_rcctx *c)
{
	if (!c) return;
	free(c->ctx);
	free(c->rank);
	free(c);
}
