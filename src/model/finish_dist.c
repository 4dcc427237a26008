/* finish_dist.c — tc_trace_finish over several processes (part.h,
 * docs/scale.md).  Process p has read whole ranks [lo, hi), contiguous and in
 * process order; every process runs the serial passes of finish.c on its own
 * ranks and the operations of struct tc_dist (MPI in src/mpi/comm.c) join
 * them, so that each ends with its slice of the serial model:
 *
 *  - messages: each process sends its kept sends to the owner of their
 *    receiver (one exchange; those between its own ranks stay and are
 *    matched from its own messages); the receivers match them with the serial
 *    receive pass (queues per (comm, src, dst) in send order, the first of a
 *    tag) and return the receiver's side (a second exchange); the senders
 *    number the received ones by an exclusive scan of their counts, which is
 *    the serial numbering (by sender rank, then send order, unreceived ones
 *    dropped), and tell the receivers those ids (a third exchange);
 *  - collectives: instance (C, k) is created by the lowest rank with k+1
 *    records on C; an exclusive MAX scan of each process's per-comm counts
 *    says which instances earlier processes created ("shadows" here), an
 *    exclusive SUM scan of the instances created numbers them, one MIN
 *    reduction over (comm, k) tells every process the ids and operations of
 *    the shadows, and partial instances (begin, end, members) go to their
 *    creator, which returns where their members stand in coll_members. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

struct dctx {
	struct tc_trace *t;
	const struct tc_dist *d;
	struct tc_part *part;
	uint32_t lo, hi;
	int P;
	uint64_t *plo, *phi;   /* per process: its ranks */
};

/* The process of rank r: the first whose ranks end after r. */
static int owner_of(const struct dctx *D, uint64_t r)
{
	int a = 0, b = D->P - 1;
	while (a < b) {
		int m = a + (b - a) / 2;
		if (D->phi[m] > r) b = m;
		else a = m + 1;
	}
	return a;
}

/* Records grouped by destination: slot[i] = where record i goes in the send
 * buffer (records of dest[i] in order), counts per destination in scount. */
static uint64_t *group_by_dest(const uint32_t *dest, size_t n, int P, uint64_t *scount)
{
	uint64_t *slot = xmalloc((n ? n : 1) * sizeof *slot), *off = xcalloc((size_t)P + 1, sizeof *off);
	memset(scount, 0, (size_t)P * sizeof *scount);
	for (size_t i = 0; i < n; i++) scount[dest[i]]++;
	for (int p = 0; p < P; p++) off[p + 1] = off[p] + scount[p];
	for (size_t i = 0; i < n; i++) slot[i] = off[dest[i]]++;
	free(off);
	return slot;
}

static uint64_t total(const uint64_t *c, int P)
{
	uint64_t n = 0;
	for (int p = 0; p < P; p++) n += c[p];
	return n;
}

/* --- messages ------------------------------------------------------------------- */
/* A send as its receiver's owner needs it (40 bytes, not a whole tc_msg). */
struct send_side { uint64_t send_time, bytes; uint32_t src, dst, tag, comm, flags, pad; };

/* A send as its receiver's pass reads it: the send's side, the receive's unknown. */
static struct tc_msg msg_of(const struct send_side *r)
{
	return (struct tc_msg){ .send_time = r->send_time, .bytes = r->bytes, .src = r->src, .dst = r->dst,
				.send_call = TC_NONE, .recv_call = TC_NONE, .post_call = TC_NONE, .tag = r->tag,
				.comm = r->comm, .flags = r->flags };
}

static struct send_side side_of(const struct tc_msg *m)
{
	return (struct send_side){ m->send_time, m->bytes, m->src, m->dst, m->tag, m->comm, m->flags, 0 };
}

/* The receiver's side of a message, returned to its sender. */
struct recv_side { uint64_t recv_time, post_time; uint32_t recv_call, post_call, flags, pad; };

static void set_recv(struct tc_msg *m, const struct recv_side *r)
{
	m->recv_time = r->recv_time;
	m->post_time = r->post_time;
	m->recv_call = r->recv_call;
	m->post_call = r->post_call;
	m->flags = r->flags;
}

/* Match the messages sent to this process's ranks (in: every kept send to
 * them, in global send order): the serial receive pass with one queue table.
 * raw_recv.msg = index into in. */
static void match_incoming(struct dctx *D, struct tc_msg *in, size_t nin, struct recv_acc *acc)
{
	struct tc_trace *t = D->t;
	struct sendblk inb = { 0 };
	for (size_t j = 0; j < nin; j++) {
		struct qkey key = { in[j].comm, in[j].src, in[j].dst, QTAG_ALL };
		tc_sendblk_link(&inb, (uint32_t)j, &key);
	}
	uint32_t n = t->nranks ? t->nranks : 1;
	struct msgmap mi = { .blk = xmalloc(n * sizeof *mi.blk), .delta = xcalloc(n, sizeof *mi.delta) };
	for (uint32_t r = 0; r < n; r++) mi.blk[r] = &inb;
	struct qtab bytag = { 0 };
	struct recv_pass rp = { .t = t, .mm = &mi, .msgs = in, .acc = acc, .bytag = &bytag };
	for (uint32_t r = D->lo; r < D->hi; r++) fin_recv_rank(&rp, r, 0);
	qtab_free(&bytag);
	qtab_free(&inb.q);
	tc_pages_free(&inb.next);
	free(mi.blk);
	free(mi.delta);
}

/* Exchanges 1 and 2: each of the n local messages (t->msgs; message i at
 * slot[i] of the blocks by receiver's process) gets its receiver's side.
 * The messages between this process's own ranks (its block: own of them
 * from slot o0) are matched from t->msgs, not sent to itself: the sends
 * from process q come in q's block of the receive pass's input, in process
 * order, so this process's go between those of the processes before and
 * after it (the serial send order); acc counts the receive pass here. */
/* The receiver's side of a matched message. */
static struct recv_side recv_of(const struct tc_msg *x)
{
	return (struct recv_side){ x->recv_time, x->post_time, x->recv_call, x->post_call, x->flags, 0 };
}

/* This process's block of the blocks by receiver's process: own slots from o0. */
struct own_block { uint64_t o0, own; };
static inline bool in_own(struct own_block b, uint64_t s) { return s >= b.o0 && s < b.o0 + b.own; }
/* A slot outside the block in the buffers without it. */
static inline uint64_t outside(struct own_block b, uint64_t s) { return s < b.o0 ? s : s - b.own; }

static void match_remote(struct dctx *D, size_t n, const uint64_t *slot, const uint64_t *scount, struct recv_acc *acc)
{
	struct tc_trace *t = D->t;
	const struct tc_dist *d = D->d;
	int me = d->index;
	struct own_block b = { 0, scount[me] };
	for (int q = 0; q < me; q++) b.o0 += scount[q];
	uint64_t *sc = xmalloc(((size_t)D->P + 1) * sizeof *sc), *rc = xmalloc(((size_t)D->P + 1) * sizeof *rc);
	memcpy(sc, scount, (size_t)D->P * sizeof *sc);
	sc[me] = 0;
	/* the others' sends out, this block left out of the send buffer */
	struct send_side *out = xmalloc((n - b.own + 1) * sizeof *out);
	for (size_t i = 0; i < n; i++)
		if (!in_own(b, slot[i])) out[outside(b, slot[i])] = side_of(&t->msgs[i]);
	struct send_side *got = d->exchange(d->ctx, out, sc, sizeof *out, rc);
	free(out);
	/* the receive pass's input: the processes' blocks in order, this one's from t->msgs */
	size_t nrem = total(rc, D->P), before = 0;
	for (int q = 0; q < me; q++) before += rc[q];
	struct own_block inb = { before, b.own };   /* in: the received ones around this block */
	struct tc_msg *in = xmalloc((nrem + b.own + 1) * sizeof *in);
	for (size_t j = 0; j < nrem; j++) in[j < before ? j : j + b.own] = msg_of(&got[j]);
	free(got);
	for (size_t i = 0; i < n; i++)
		if (in_own(b, slot[i])) {
			struct send_side s1 = side_of(&t->msgs[i]);
			in[before + slot[i] - b.o0] = msg_of(&s1);
		}
	match_incoming(D, in, nrem + b.own, acc);
	/* this block's results straight into t->msgs; the others' back, in place over in */
	for (size_t i = 0; i < n; i++)
		if (in_own(b, slot[i])) {
			struct recv_side r = recv_of(&in[before + slot[i] - b.o0]);
			set_recv(&t->msgs[i], &r);
		}
	struct recv_side *back = (struct recv_side *)(void *)in;   /* smaller, written forward */
	for (size_t j = 0, k = 0; j < nrem + b.own; j++)
		if (!in_own(inb, j)) back[k++] = recv_of(&in[j]);
	uint64_t *c2 = xmalloc(((size_t)D->P + 1) * sizeof *c2);
	struct recv_side *res = d->exchange(d->ctx, back, rc, sizeof *back, c2);
	free(in);
	for (size_t i = 0; i < n; i++)
		if (!in_own(b, slot[i])) set_recv(&t->msgs[i], &res[outside(b, slot[i])]);
	free(res), free(c2), free(sc), free(rc);
}

/* Exchange 3: the final id of every message to its receiver; the receive
 * records of this process's ranks get the ids of their messages. */
static void send_final_ids(struct dctx *D, const uint32_t *remap, size_t n, const uint64_t *slot,
			   const uint64_t *scount)
{
	struct tc_trace *t = D->t;
	const struct tc_dist *d = D->d;
	uint32_t *fid = xmalloc((n ? n : 1) * sizeof *fid);
	for (size_t i = 0; i < n; i++) fid[slot[i]] = remap[i];
	uint64_t *rc = xmalloc((size_t)D->P * sizeof *rc);
	uint32_t *final = d->exchange(d->ctx, fid, scount, sizeof *fid, rc);
	free(fid);
	free(rc);
	for (uint32_t r = D->lo; r < D->hi; r++) {
		if (t->ranks[r].loc == TC_NONE) continue;
		struct locb *b = &t->b->lb.a[t->ranks[r].loc];
		for (size_t i = 0; i < b->recv.n; i++)
			if (b->recv.a[i].msg != TC_NONE) b->recv.a[i].msg = final[b->recv.a[i].msg];
	}
	free(final);
}

static void match_messages_dist(struct dctx *D, uint32_t **coll_of_rec)
{
	struct tc_trace *t = D->t;
	struct msgmap mm = { 0 };
	size_t n = fin_layout_messages(t, &mm, 1);
	uint32_t *dest = xmalloc((n ? n : 1) * sizeof *dest);
	for (size_t i = 0; i < n; i++) dest[i] = (uint32_t)owner_of(D, t->msgs[i].dst);
	uint64_t *scount = xmalloc((size_t)D->P * sizeof *scount);
	uint64_t *slot = group_by_dest(dest, n, D->P, scount);
	free(dest);
	struct recv_acc acc = { 0 };
	match_remote(D, n, slot, scount, &acc);
	uint64_t matched = 0;
	for (size_t i = 0; i < n; i++) matched += t->msgs[i].recv_call != TC_NONE;
	/* the serial ids: received messages by sender rank, then send order */
	uint64_t base = matched;
	D->d->exscan(D->d->ctx, &base, 1, TC_DIST_SUM);
	uint32_t *remap = xmalloc((n ? n : 1) * sizeof *remap);
	for (size_t i = 0, k = 0; i < n; i++) remap[i] = t->msgs[i].recv_call == TC_NONE ? TC_NONE : (uint32_t)(base + k++);
	send_final_ids(D, remap, n, slot, scount);
	struct ops_pass op = { .t = t, .mm = &mm, .coll_of_rec = coll_of_rec };
	int th = fin_ops_threads(&op, 1);
	for (uint32_t r = D->lo; r < D->hi; r++) fin_ops_rank(&op, r, 0);
	fin_ops_free(&op, th);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (remap[i] != TC_NONE) t->msgs[k++] = t->msgs[i];
	for (uint32_t r = D->lo; r < D->hi; r++) fin_ops_drop(&t->ranks[r], remap, NULL);
	tc_pages_shrink(&t->msgs_map, (k + 1) * sizeof *t->msgs);
	t->nmsgs = k;
	struct tc_part *p = D->part;
	p->msgs = t->msgs;
	p->nmsgs = k;
	p->msg_first = base;
	p->msgs_total = k;
	D->d->reduce(D->d->ctx, &p->msgs_total, 1, TC_DIST_SUM);
	fin_messages_done(t, n, &acc);
	fin_msgmap_free(&mm);
	free(remap);
	free(slot);
	free(scount);
}

/* --- collectives ------------------------------------------------------------------ */
/* Per communicator: the most records any rank of this process has on it
 * (the instances its ranks take part in); COMM_SELF-like ones count 0. */
static uint64_t *comm_counts(struct dctx *D)
{
	struct tc_trace *t = D->t;
	uint32_t nc = t->ncomms;
	uint64_t *most = xcalloc(nc + 1, sizeof *most), *cnt = xcalloc(nc + 1, sizeof *cnt);
	for (uint32_t r = D->lo; r < D->hi; r++) {
		if (t->ranks[r].loc == TC_NONE) continue;
		const struct locb *b = &t->b->lb.a[t->ranks[r].loc];
		for (size_t i = 0; i < b->coll.n; i++) {
			const struct raw_coll *c = &b->coll.a[i];
			if (c->call == TC_NONE || c->comm >= nc || t->comms[c->comm].self) continue;
			if (++cnt[c->comm] > most[c->comm]) most[c->comm] = cnt[c->comm];
		}
		for (size_t i = 0; i < b->coll.n; i++)
			if (b->coll.a[i].comm < nc) cnt[b->coll.a[i].comm] = 0;
	}
	free(cnt);
	return most;
}

/* Collective state of this process between the steps. */
struct cdist {
	struct coll_scan cs;
	uint64_t *prev, *tot;     /* per comm: shadows (instances of earlier processes here), most records anywhere */
	size_t nshadow, nown;
	uint64_t base;            /* global id of the first instance created here */
	uint64_t *gid;            /* per local instance (shadows, then own) */
	uint64_t *gbase;          /* per local instance: global index of its first member here */
};

/* Ids and operations of every instance this process's ranks take part in. */
static void coll_ids(struct dctx *D, struct cdist *C)
{
	struct tc_trace *t = D->t;
	uint32_t nc = t->ncomms;
	uint64_t ntab = 0, *off = xcalloc(nc + 1, sizeof *off);
	for (uint32_t c = 0; c < nc; c++) off[c + 1] = ntab += C->tot[c];
	uint64_t *tab = xmalloc((ntab ? ntab : 1) * sizeof *tab);
	for (uint64_t i = 0; i < ntab; i++) tab[i] = UINT64_MAX;
	struct tc_coll *co = C->cs.colls.a;
	for (uint32_t c = 0; c < nc; c++)
		for (size_t k = C->prev[c]; k < C->cs.inst[c].n; k++) {
			uint32_t l = C->cs.inst[c].a[k];
			tab[off[c] + k] = (C->base + l - C->nshadow) << 8 | co[l].op;
		}
	D->d->reduce(D->d->ctx, tab, ntab, TC_DIST_MIN);   /* only the creator names an instance */
	C->gid = xmalloc((C->cs.colls.n + 1) * sizeof *C->gid);
	for (size_t l = C->nshadow; l < C->cs.colls.n; l++) C->gid[l] = C->base + l - C->nshadow;
	for (uint32_t c = 0; c < nc; c++)
		for (size_t k = 0; k < C->prev[c]; k++) {
			uint32_t l = C->cs.inst[c].a[k];
			C->gid[l] = tab[off[c] + k] >> 8;
			co[l].op = (uint8_t)tab[off[c] + k];
		}
	free(tab);
	free(off);
}

/* Records of this process's ranks whose operation is not their instance's;
 * coll_of_rec becomes global ids. */
static uint64_t coll_records_global(struct dctx *D, struct cdist *C, uint32_t **coll_of_rec)
{
	struct tc_trace *t = D->t;
	uint64_t mism = 0;
	for (uint32_t r = D->lo; r < D->hi; r++) {
		if (t->ranks[r].loc == TC_NONE) continue;
		const struct locb *b = &t->b->lb.a[t->ranks[r].loc];
		for (size_t i = 0; i < b->coll.n; i++) {
			uint32_t l = coll_of_rec[r][i];
			if (l == TC_NONE) continue;
			mism += C->cs.colls.a[l].op != b->coll.a[i].op;
			coll_of_rec[r][i] = (uint32_t)C->gid[l];
		}
	}
	return mism;
}

/* A shadow's part of an instance, to the instance's creator. */
struct partial { uint64_t gid, begin, end, n; };

/* Partial instances to their creators, merged there (t->colls local: shadows,
 * then own); each shadow learns the global index of its first member. */
static void coll_merge(struct dctx *D, struct cdist *C)
{
	struct tc_trace *t = D->t;
	const struct tc_dist *d = D->d;
	int P = D->P;
	uint64_t *cend = xmalloc((size_t)P * sizeof *cend);
	d->allgather(d->ctx, C->base + C->nown, cend);
	uint32_t *dest = xmalloc((C->nshadow + 1) * sizeof *dest);
	for (size_t l = 0; l < C->nshadow; l++) {
		int a = 0, b = P - 1;   /* the creator: the first process whose instances end after the id */
		while (a < b) {
			int m = a + (b - a) / 2;
			if (cend[m] > C->gid[l]) b = m;
			else a = m + 1;
		}
		dest[l] = (uint32_t)a;
	}
	uint64_t *scount = xmalloc((size_t)P * sizeof *scount), *rcount = xmalloc((size_t)P * sizeof *rcount);
	uint64_t *slot = group_by_dest(dest, C->nshadow, P, scount);
	struct partial *out = xmalloc((C->nshadow + 1) * sizeof *out);
	for (size_t l = 0; l < C->nshadow; l++) {
		const struct tc_coll *co = &t->colls[l];
		out[slot[l]] = (struct partial){ C->gid[l], co->begin, co->end, co->n };
	}
	struct partial *in = d->exchange(d->ctx, out, scount, sizeof *out, rcount);
	size_t nin = total(rcount, P);
	uint64_t *at = xmalloc((nin + 1) * sizeof *at);   /* member offset in its instance */
	for (size_t j = 0; j < nin; j++) {
		struct tc_coll *co = &t->colls[in[j].gid - C->base + C->nshadow];
		at[j] = co->n;
		co->n += (uint32_t)in[j].n;
		co->begin = TC_MIN(co->begin, in[j].begin);
		co->end = TC_MAX(co->end, in[j].end);
	}
	uint64_t mbase = 0;
	for (size_t l = C->nshadow; l < t->ncolls; l++) mbase += t->colls[l].n;
	D->part->members_total = mbase;
	d->reduce(d->ctx, &D->part->members_total, 1, TC_DIST_SUM);
	d->exscan(d->ctx, &mbase, 1, TC_DIST_SUM);
	C->gbase = xmalloc((t->ncolls + 1) * sizeof *C->gbase);
	for (size_t l = C->nshadow; l < t->ncolls; l++) {
		C->gbase[l] = mbase;   /* its members here come first */
		mbase += t->colls[l].n;
	}
	for (size_t j = 0; j < nin; j++) at[j] += C->gbase[in[j].gid - C->base + C->nshadow];
	uint64_t *back = d->exchange(d->ctx, at, rcount, sizeof *at, scount);
	for (size_t l = 0; l < C->nshadow; l++) C->gbase[l] = back[slot[l]];
	free(back);
	free(at);
	free(in);
	free(out);
	free(slot);
	free(scount);
	free(rcount);
	free(dest);
	free(cend);
}

static int cmp_member_at(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The part's members (its ranks', sorted by global index) and its instances
 * (those it created, first global). */
static void coll_part(struct dctx *D, struct cdist *C, const uint32_t *lfirst, const uint32_t *ln)
{
	struct tc_trace *t = D->t;
	struct tc_part *p = D->part;
	size_t nm = 0;
	for (size_t l = 0; l < t->ncolls; l++) nm += ln[l];
	struct am { uint64_t at; struct tc_coll_member m; } *v = xmalloc((nm + 1) * sizeof *v);
	for (size_t l = 0; l < t->ncolls; l++)
		for (uint32_t j = 0; j < ln[l]; j++)
			v[lfirst[l] + j] = (struct am){ C->gbase[l] + j, t->coll_members[lfirst[l] + j] };
	qsort(v, nm, sizeof *v, cmp_member_at);
	p->own_at = xmalloc((nm + 1) * sizeof *p->own_at);
	for (size_t i = 0; i < nm; i++) {
		p->own_at[i] = v[i].at;
		t->coll_members[i] = v[i].m;
	}
	free(v);
	p->members = t->coll_members;
	p->member_at = p->own_at;
	p->nmembers = nm;
	memmove(t->colls, t->colls + C->nshadow, C->nown * sizeof *t->colls);
	t->ncolls = C->nown;
	for (size_t l = 0; l < C->nown; l++) t->colls[l].first = (uint32_t)C->gbase[C->nshadow + l];
	p->colls = t->colls;
	p->ncolls = C->nown;
	p->coll_first = C->base;
	p->colls_total = C->nown;
	D->d->reduce(D->d->ctx, &p->colls_total, 1, TC_DIST_SUM);
}

static void match_collectives_dist(struct dctx *D, uint32_t **coll_of_rec)
{
	struct tc_trace *t = D->t;
	const struct tc_dist *d = D->d;
	struct cdist C = { 0 };
	uint32_t nc = t->ncomms;
	uint64_t *most = comm_counts(D);
	C.prev = xmalloc((nc + 1) * sizeof *C.prev);
	C.tot = xmalloc((nc + 1) * sizeof *C.tot);
	memcpy(C.prev, most, nc * sizeof *C.prev);
	memcpy(C.tot, most, nc * sizeof *C.tot);
	d->reduce(d->ctx, C.tot, nc, TC_DIST_MAX);
	d->exscan(d->ctx, C.prev, nc, TC_DIST_MAX);
	fin_coll_scan_init(t, &C.cs);
	/* the instances an earlier process creates that ranks here take part in:
	 * shadows, numbered like the serial scan would have them */
	for (uint32_t c = 0; c < nc; c++) {
		C.prev[c] = TC_MIN(C.prev[c], most[c]);
		for (uint64_t k = 0; k < C.prev[c]; k++) {
			struct tc_coll sh = { .begin = UINT64_MAX, .comm = c, .root = TC_NONE };
			VEC_PUSH(C.cs.colls, sh);
			VEC_PUSH(C.cs.inst[c], (uint32_t)C.cs.colls.n - 1);
		}
	}
	free(most);
	C.nshadow = C.cs.colls.n;
	for (uint32_t r = D->lo; r < D->hi; r++) fin_coll_scan_rank(t, &C.cs, r, coll_of_rec);
	C.nown = C.cs.colls.n - C.nshadow;
	C.base = C.nown;
	d->exscan(d->ctx, &C.base, 1, TC_DIST_SUM);
	coll_ids(D, &C);
	uint64_t v[3] = { 0, coll_records_global(D, &C, coll_of_rec), C.cs.bad };
	fin_coll_members(t, &C.cs);
	uint32_t *lfirst = xmalloc((t->ncolls + 1) * sizeof *lfirst), *ln = xmalloc((t->ncolls + 1) * sizeof *ln);
	for (size_t l = 0; l < t->ncolls; l++) {
		lfirst[l] = t->colls[l].first;
		ln[l] = t->colls[l].n;
	}
	coll_merge(D, &C);
	v[0] = fin_colls_incomplete(t, t->colls + C.nshadow, C.nown);
	coll_part(D, &C, lfirst, ln);
	fin_colls_done(t, v);
	free(lfirst);
	free(ln);
	free(C.gid);
	free(C.gbase);
	free(C.prev);
	free(C.tot);
	fin_coll_scan_free(t, &C.cs);
}

void tc_finish_dist(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	const struct tc_dist *d = B->dist;
	struct dctx D = { .t = t, .d = d, .part = d->out, .lo = B->dist_lo, .hi = B->dist_hi, .P = d->count };
	D.plo = xmalloc((size_t)D.P * sizeof *D.plo);
	D.phi = xmalloc((size_t)D.P * sizeof *D.phi);
	d->allgather(d->ctx, D.lo, D.plo);
	d->allgather(d->ctx, D.hi, D.phi);
	struct tc_part *p = D.part;
	*p = (struct tc_part){ .t = t, .index = d->index, .count = d->count, .lo = D.lo, .hi = D.hi };
	uint32_t **coll_of_rec = xcalloc(t->nranks ? t->nranks : 1, sizeof *coll_of_rec);
	match_collectives_dist(&D, coll_of_rec);
	match_messages_dist(&D, coll_of_rec);
	for (uint32_t r = 0; r < t->nranks; r++) free(coll_of_rec[r]);
	free(coll_of_rec);
	free(D.plo);
	free(D.phi);
}
