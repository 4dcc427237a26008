/* steps_parts.c — the logical steps computed by the processes together
 * (analysis_steps_dist.h, docs/scale.md "The steps over parts"), where
 * steps_dist.c, with the leap merge, gathers the whole skeleton to process 0.
 *
 *  1. The partitions (tc_partition_dist): each cev of a process's ranks has
 *     its partition; process 0 has the partition graph.
 *  2. Each partition goes to an owner (contiguous ranges of partitions of
 *     about a P-th of the cevs each): the skeleton of its cevs (their ops, the message ids and the
 *     sends' fields) and each cev's predecessor's leave on its rank.  The
 *     owner rebuilds a skeleton model of its partitions only and steps them
 *     with the serial code (steps_local): a partition is a contiguous run of
 *     cevs on each of its ranks and its messages stay inside it, so the
 *     strides, the Lamport steps and the monotone fix see what they see in
 *     the whole trace.
 *  3. Process 0 orders the partitions over their graph with the serial code
 *     (steps_order: the first global steps, leaps, the final order), lays
 *     out the slots and sends each owner its partitions' places.
 *  4. The owners run the metrics (steps_metrics_hooked): slots and
 *     differential lateness are a partition's own; each global step's
 *     earliest enter and exit is a MIN reduction; the per-step sums are
 *     made where the cevs are in order (below).
 *  5. Each cev's results go back to its rank's process; there the wide
 *     differential lateness values are numbered in order (an exclusive scan
 *     gives each process its first index) and the per-step sums are added
 *     cev by cev in a fold over the processes in rank order: the serial
 *     order of every addition.
 *  6. The steps stay in slices (struct tc_steps_slice): each process keeps
 *     its ranks' cevs, times, lateness and wide values, and each of its
 *     messages' two ends (the receive's came to the sender's process in
 *     the first half); process 0 holds only what is of the whole trace but
 *     not per event: the partitions, the per-step sums, the slots, every
 *     rank's first cev.  The cache writer puts each slice at its place;
 *     tc_steps_slice_whole gathers them (the tests: equal to the serial
 *     steps bit for bit). */
#include <stdlib.h>
#include <string.h>

#include "analysis_steps_dist.h"
#include "replay_internal.h"
#include "steps_internal.h"
#include "steps_skel.h"

/* --- the process's cevs -------------------------------------------------------- */

struct home {
	const struct tc_part *p;
	struct tc_pcevs c;           /* the process's cevs, its ranks in order, and their times */
	uint32_t *pid;               /* per cev: its partition (tc_partition_dist) */
	uint32_t np;
	uint64_t *cut;               /* the owners' ranges of partitions (P + 1: tc_partition_dist) */
	int P;
};

/* Cev i's predecessor's leave on its rank, UINT64_MAX when it is the rank's first. */
static uint64_t prev_leave(const struct home *h, uint32_t i)
{
	return i > 0 && h->c.cev[i - 1].rank == h->c.cev[i].rank ? h->c.tm[i - 1].leave : UINT64_MAX;
}

/* --- 2. the partitions to their owners ----------------------------------------- */

/* The owner of partition pid: the process whose range holds it. */
static int owner_of(const struct home *h, uint32_t pid)
{
	return replay_owner(h->cut, h->P, pid);
}

struct rcev {            /* a cev on its way to its owner */
	uint64_t g, prev;    /* its index in the whole trace; its predecessor's leave */
	uint32_t rank, pid, nops, flags;
	uint32_t at, pad;    /* at the owner: its place as received (owned_sort) */
};
struct rsend { uint64_t id; struct tc_step_msg m; };

/* What an owner got: cevs in the global order, their ops, the ids of their
 * ops' sends (with the fields) and receives, each in the ops' order. */
struct owned {
	struct rcev *cev;
	size_t ncev;
	struct skel_op *op;
	size_t nop;
	struct rsend *send;
	size_t nsend;
	uint64_t *recv;
	size_t nrecv;
};

/* What route sends of cevs [i0, i1), sized exactly (a count pass first:
 * the vectors' doubling would hold up to twice the records while the
 * exchange copies them). */
struct outbox {
	struct rcev *c;
	struct skel_op *o;
	struct rsend *s;
	uint64_t *r;
	int *tc, *to, *ts, *tr;
	size_t nc, no, ns, nr;
};

/* Cev e's ops and their send and receive ids (what route sends of it),
 * added to n[0], n[1], n[2]. */
static void cev_records(const struct tc_trace *t, const struct tc_cev *e, size_t n[3])
{
	for (uint32_t k = 0; k < e->nops; k++) {
		const struct tc_op *op = &t->ranks[e->rank].ops[e->op + k];
		n[0]++, n[1] += op->nsend, n[2] += op->nrecv;
	}
}

static size_t outbox_count(const struct home *h, uint32_t i0, uint32_t i1, struct outbox *b)
{
	size_t n[3] = { 0, 0, 0 };
	for (uint32_t i = i0; i < i1; i++) cev_records(h->p->t, &h->c.cev[i], n);
	*b = (struct outbox){ .nc = i1 - i0, .no = n[0], .ns = n[1], .nr = n[2] };
	return b->nc * (sizeof *b->c + sizeof(int)) + b->no * (sizeof *b->o + sizeof(int)) +
	       b->ns * (sizeof *b->s + sizeof(int)) + b->nr * (sizeof *b->r + sizeof(int));
}

static void outbox_fill(const struct home *h, const struct tc_dist *d, uint32_t i0, uint32_t i1, struct outbox *b)
{
	const struct tc_part *p = h->p;
	const struct tc_trace *t = p->t;
	b->c = xmalloc((b->nc + 1) * sizeof *b->c), b->tc = xmalloc((b->nc + 1) * sizeof *b->tc);
	b->o = xmalloc((b->no + 1) * sizeof *b->o), b->to = xmalloc((b->no + 1) * sizeof *b->to);
	b->s = xmalloc((b->ns + 1) * sizeof *b->s), b->ts = xmalloc((b->ns + 1) * sizeof *b->ts);
	b->r = xmalloc((b->nr + 1) * sizeof *b->r), b->tr = xmalloc((b->nr + 1) * sizeof *b->tr);
	size_t no = 0, ns = 0, nr = 0;
	for (uint32_t i = i0; i < i1; i++) {
		const struct tc_cev *e = &h->c.cev[i];
		const struct tc_rank *R = &t->ranks[e->rank];
		int q = owner_of(h, h->pid[i]);
		b->c[i - i0] = (struct rcev){ h->c.base + i, prev_leave(h, i), e->rank, h->pid[i], e->nops, e->flags, 0, 0 };
		b->tc[i - i0] = q;
		for (uint32_t k = 0; k < e->nops; k++) {
			const struct tc_op *op = &R->ops[e->op + k];
			b->o[no] = skel_op_of(R, e->op + k);
			b->to[no++] = q;
			const uint32_t *ms = tc_op_sends(t, e->rank, op), *mr = tc_op_recvs(t, e->rank, op);
			for (uint32_t j = 0; j < op->nsend; j++) {
				b->s[ns] = (struct rsend){ ms[j], tc_part_step_msg(p, ms[j]) };
				b->ts[ns++] = q;
			}
			for (uint32_t j = 0; j < op->nrecv; j++) {
				b->r[nr] = mr[j];
				b->tr[nr++] = q;
			}
		}
	}
}

/* The records sent here appended to *v (*n of them). */
static void *send_append(const struct tc_dist *d, void *v, size_t *n, const void *rec, const int *to, size_t k,
			 size_t rs)
{
	size_t nin;
	void *in = replay_send(d, rec, to, k, rs, &nin);
	if (!*n) {
		free(v);
		*n = nin;
		return in;
	}
	v = xreallocarray(v, *n + nin + 1, rs);
	memcpy((char *)v + *n * rs, in, nin * rs);
	*n += nin;
	free(in);
	return v;
}

/* Each cev, its ops, their messages' ids and the sends' fields to the
 * cev's owner; in rounds of at most tc_steps_route_bytes sent per process (every
 * process takes as many rounds as the one that needs most), so that the
 * records sent are not all held at once beside the part. */
size_t tc_steps_route_bytes = (size_t)32 << 20;

static void route(const struct home *h, const struct tc_dist *d, struct owned *w)
{
	struct outbox b;
	size_t bytes = outbox_count(h, 0, h->c.n, &b);
	uint64_t rounds = bytes / (tc_steps_route_bytes ? tc_steps_route_bytes : 1) + 1;
	d->reduce(d->ctx, &rounds, 1, TC_DIST_MAX);
	*w = (struct owned){ 0 };
	for (uint64_t k = 0; k < rounds; k++) {
		uint32_t i0 = (uint32_t)((uint64_t)h->c.n * k / rounds), i1 = (uint32_t)((uint64_t)h->c.n * (k + 1) / rounds);
		outbox_count(h, i0, i1, &b);
		outbox_fill(h, d, i0, i1, &b);
		w->cev = send_append(d, w->cev, &w->ncev, b.c, b.tc, b.nc, sizeof *b.c);
		w->op = send_append(d, w->op, &w->nop, b.o, b.to, b.no, sizeof *b.o);
		w->send = send_append(d, w->send, &w->nsend, b.s, b.ts, b.ns, sizeof *b.s);
		w->recv = send_append(d, w->recv, &w->nrecv, b.r, b.tr, b.nr, sizeof *b.r);
		free(b.c), free(b.o), free(b.s), free(b.r), free(b.tc), free(b.to), free(b.ts), free(b.tr);
	}
}

/* The owned records in the whole trace's order: the rounds of route
 * interleave the senders' chunks (each chunk in order).  A cev's ops, and
 * an op's message ids, follow it. */
static int rcev_cmp(const void *a, const void *b)
{
	const struct rcev *x = a, *y = b;
	return x->g < y->g ? -1 : x->g > y->g;
}

static void owned_sort(struct owned *w)
{
	bool sorted = true;
	for (size_t i = 1; i < w->ncev && sorted; i++) sorted = w->cev[i - 1].g < w->cev[i].g;
	if (sorted) return;
	size_t n = w->ncev;
	/* where each cev's ops, sends and receives start, in the order received */
	size_t *at = xmalloc((3 * n + 1) * sizeof *at), o = 0, so = 0, ro = 0;
	for (size_t i = 0; i < n; i++) {
		at[3 * i] = o, at[3 * i + 1] = so, at[3 * i + 2] = ro;
		w->cev[i].at = (uint32_t)i;   /* carried through the sort */
		for (uint32_t k = 0; k < w->cev[i].nops; k++, o++) so += w->op[o].op.nsend, ro += w->op[o].op.nrecv;
	}
	qsort(w->cev, n, sizeof *w->cev, rcev_cmp);
	struct skel_op *op = xmalloc((w->nop + 1) * sizeof *op);
	struct rsend *sd = xmalloc((w->nsend + 1) * sizeof *sd);
	uint64_t *rv = xmalloc((w->nrecv + 1) * sizeof *rv);
	o = so = ro = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = w->cev[i].at, a = at[3 * j], sa = at[3 * j + 1], ra = at[3 * j + 2], ns = 0, nr = 0;
		for (uint32_t k = 0; k < w->cev[i].nops; k++) ns += w->op[a + k].op.nsend, nr += w->op[a + k].op.nrecv;
		memcpy(op + o, w->op + a, w->cev[i].nops * sizeof *op);
		memcpy(sd + so, w->send + sa, ns * sizeof *sd);
		memcpy(rv + ro, w->recv + ra, nr * sizeof *rv);
		o += w->cev[i].nops, so += ns, ro += nr;
	}
	free(at), free(w->op), free(w->send), free(w->recv);
	w->op = op, w->send = sd, w->recv = rv;
}

/* --- the owner's skeleton ---------------------------------------------------------- */

/* Sorted distinct values of v[0..n) (a copy); *m of them. */
static uint64_t *distinct(const uint64_t *v, size_t n, size_t *m)
{
	uint64_t *u = xmalloc((n + 1) * sizeof *u);
	if (n) memcpy(u, v, n * sizeof *u);
	qsort(u, n, sizeof *u, tc_cmp_u64);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || u[k - 1] != u[i]) u[k++] = u[i];
	*m = k;
	return u;
}

static uint32_t index_of(const uint64_t *u, size_t n, uint64_t v)
{
	return (uint32_t)tc_lower_bound_u64(u, n, v);
}

/* The owner's model: its cevs' ranks with their ops only, message ids and
 * collective instances numbered among its own (K->nmsgs, *mx their fields). */
struct skel {
	struct tc_trace K;
	struct tc_rank *ranks;
	struct tc_op *ops;
	struct tc_call *calls;
	uint32_t *sends, *recvs;
	uint64_t *msg_id;            /* local message → global id */
	size_t nmsg;
	struct tc_step_msg *mx;
};

static void owner_ids(struct owned *w, struct skel *k)
{
	uint64_t *all = xmalloc((w->nsend + w->nrecv + 1) * sizeof *all);
	for (size_t i = 0; i < w->nsend; i++) all[i] = w->send[i].id;
	memcpy(all + w->nsend, w->recv, w->nrecv * sizeof *all);
	k->msg_id = distinct(all, w->nsend + w->nrecv, &k->nmsg);
	free(all);
	k->mx = xcalloc(k->nmsg + 1, sizeof *k->mx);
	k->sends = xmalloc((w->nsend + 1) * sizeof *k->sends);
	k->recvs = xmalloc((w->nrecv + 1) * sizeof *k->recvs);
	for (size_t i = 0; i < w->nsend; i++) {
		uint32_t m = index_of(k->msg_id, k->nmsg, w->send[i].id);
		k->sends[i] = m;
		k->mx[m] = w->send[i].m;
	}
	for (size_t i = 0; i < w->nrecv; i++) k->recvs[i] = index_of(k->msg_id, k->nmsg, w->recv[i]);
	/* collective instances: numbered among the owner's */
	uint64_t *coll = xmalloc((w->nop + 1) * sizeof *coll);
	size_t nc = 0, ncoll;
	for (size_t i = 0; i < w->nop; i++)
		if (w->op[i].op.coll != TC_NONE) coll[nc++] = w->op[i].op.coll;
	uint64_t *cu = distinct(coll, nc, &ncoll);
	for (size_t i = 0; i < w->nop; i++)
		if (w->op[i].op.coll != TC_NONE) w->op[i].op.coll = index_of(cu, ncoll, w->op[i].op.coll);
	free(coll), free(cu);
	k->K.ncolls = ncoll;
	k->K.colls = xcalloc(ncoll + 1, sizeof *k->K.colls);   /* never read: the partitions are given */
}

static void owner_skel(const struct tc_part *p, struct owned *w, struct skel *k)
{
	const struct tc_trace *t = p->t;
	uint32_t nr = t->nranks;
	memcpy(&k->K, t, sizeof k->K);
	owner_ids(w, k);
	free(w->send), free(w->recv);   /* now the skeleton's */
	w->send = NULL, w->recv = NULL;
	k->K.msgs = NULL, k->K.nmsgs = k->nmsg, k->K.coll_members = NULL;
	k->ranks = xcalloc((size_t)nr + 1, sizeof *k->ranks);
	k->ops = xmalloc((w->nop + 1) * sizeof *k->ops);
	k->calls = xmalloc((w->nop + nr + 1) * sizeof *k->calls);
	uint32_t *nops = xcalloc((size_t)nr + 1, sizeof *nops);
	for (size_t i = 0; i < w->ncev; i++) nops[w->cev[i].rank] += w->cev[i].nops;
	size_t o = 0, nc = 0, so = 0, ro = 0;
	for (uint32_t r = 0; r < nr; r++) {
		struct tc_rank *R = &k->ranks[r];
		*R = t->ranks[r];
		uint32_t ns = 0, nv = 0;
		for (uint32_t j = 0; j < nops[r]; j++) {   /* the rank's own message arrays: its ops' ids in order */
			struct tc_op *op = &w->op[o + j].op;
			op->first_send = ns, op->first_recv = nv;
			ns += op->nsend, nv += op->nrecv;
		}
		skel_rank(R, w->op + o, nops[r], k->ops + o, k->calls + nc);
		R->send_msgs = k->sends + so, R->nsend_msgs = ns;
		R->recv_msgs = k->recvs + ro, R->nrecv_msgs = nv;
		o += nops[r], nc += R->ncalls, so += ns, ro += nv;
	}
	free(nops);
	k->K.ranks = k->ranks;
}

static void skel_free(struct skel *k)
{
	free(k->ranks), free(k->ops), free(k->calls), free(k->sends), free(k->recvs), free(k->msg_id), free(k->mx);
	free(k->K.colls);
	*k = (struct skel){ 0 };
}

/* --- 3. process 0: the partitions' order -------------------------------------------- */

struct pstat { int64_t pmax; uint64_t enter, leave; uint32_t ncevs, nranks; };
struct pplace { uint64_t acc; uint32_t rank_of, slot0, first_step, last_step; };

/* Each owned partition's largest local step, span and counts. */
static struct pstat *owner_stats(const struct tc_steps *s, const uint32_t *pid, const int64_t *pmax, uint32_t np)
{
	struct pstat *v = xcalloc((size_t)np + 1, sizeof *v);
	for (uint32_t q = 0; q < np; q++) v[q] = (struct pstat){ .pmax = pmax[q], .enter = UINT64_MAX };
	for (uint32_t i = 0; i < s->ncevs; i++) {
		struct pstat *P = &v[pid[i]];
		P->ncevs++;
		uint32_t pv = steps_prev(s, i);   /* another partition's on the rank, or none: a run starts */
		if (pv == TC_NONE || pid[pv] != pid[i]) P->nranks++;
		P->enter = TC_MIN(P->enter, s->times[i].enter);
		P->leave = TC_MAX(P->leave, s->times[i].leave);
	}
	return v;
}

/* Process 0: the order, the parts and the slots (into *s0); the places. */
static struct pplace *order0(const struct tc_pdag *dag, const struct pstat *st, uint32_t np, struct tc_steps *s0)
{
	uint32_t *off = xcalloc((size_t)np + 2, sizeof *off), *adj = xmalloc((dag->nedge + 1) * sizeof *adj);
	for (size_t e = 0; e < dag->nedge; e++) off[dag->edge[2 * e] + 2]++;
	for (uint32_t q = 0; q < np; q++) off[q + 2] += off[q + 1];
	for (size_t e = 0; e < dag->nedge; e++) adj[off[dag->edge[2 * e] + 1]++] = dag->edge[2 * e + 1];
	int64_t *pmax = xmalloc(((size_t)np + 1) * sizeof *pmax);
	uint32_t *first = xmalloc(((size_t)np + 1) * sizeof *first), *leap = xmalloc(((size_t)np + 1) * sizeof *leap);
	uint32_t *rank_of = xmalloc(((size_t)np + 1) * sizeof *rank_of);
	uint64_t *acc = xmalloc(((size_t)np + 1) * sizeof *acc);
	for (uint32_t q = 0; q < np; q++) pmax[q] = st[q].pmax, first[q] = (uint32_t)dag->first[q];
	steps_order(np, off, adj, pmax, first, acc, leap, rank_of);
	s0->npartitions = np;
	s0->parts = xcalloc((size_t)np + 1, sizeof *s0->parts);
	s0->max_step = 0;
	for (uint32_t q = 0; q < np; q++) {
		struct tc_partition *P = &s0->parts[rank_of[q]];
		*P = steps_part_span(acc[q], pmax[q], leap[q]);
		P->enter = st[q].enter, P->leave = st[q].leave, P->ncevs = st[q].ncevs, P->nranks = st[q].nranks;
		s0->max_step = TC_MAX(s0->max_step, P->last_step);
	}
	s0->nslots = steps_slot_layout(s0);
	struct pplace *pl = xmalloc(((size_t)np + 1) * sizeof *pl);
	for (uint32_t q = 0; q < np; q++) {
		const struct tc_partition *P = &s0->parts[rank_of[q]];
		pl[q] = (struct pplace){ acc[q], rank_of[q], P->slot0, P->first_step, P->last_step };
	}
	free(off), free(adj), free(pmax), free(first), free(leap), free(rank_of), free(acc);
	return pl;
}

/* --- 4. the owners' metrics ------------------------------------------------------------ */

struct minima_ctx { const struct tc_dist *d; };

/* Every global step's earliest enter and exit over all processes. */
static void minima(void *ctx, struct tc_steps *s)
{
	const struct minima_ctx *m = ctx;
	size_t ng = (size_t)s->max_step + 1;
	uint64_t *v = xmalloc((2 * ng + 1) * sizeof *v);
	for (size_t g = 0; g < ng; g++) v[2 * g] = s->steps[g].enter_min, v[2 * g + 1] = s->steps[g].leave_min;
	m->d->reduce(m->d->ctx, v, 2 * ng, TC_DIST_MIN);
	for (size_t g = 0; g < ng; g++) s->steps[g].enter_min = v[2 * g], s->steps[g].leave_min = v[2 * g + 1];
	free(v);
}

struct cres {            /* a cev's results on their way to its rank's process */
	uint64_t g;
	uint32_t partition, step;
	double dlate_agg;
	double v[8];         /* steps_mhook.out */
};
struct sslot { uint64_t k; struct tc_slot s; };

/* The owner's partitions placed, their metrics; each cev's results sent to
 * its rank's process, which returns those of its own cevs (*nback); the
 * owned partitions' slots (*slots). */
static struct cres *owner_metrics(const struct tc_part *p, const struct tc_dist *d, struct tc_steps *s,
				  const struct owned *w, const int64_t *lstep, const uint32_t *pidl, const struct pplace *pl,
				  uint32_t npl, uint32_t np, uint32_t max_step, uint64_t nslots,
				  const struct tc_step_msg *mx, struct sslot **slots, size_t *nslot, size_t *nback)
{
	s->npartitions = np;
	s->parts = xcalloc((size_t)np + 1, sizeof *s->parts);
	for (uint32_t q = 0; q < npl; q++) {
		struct tc_partition *P = &s->parts[pl[q].rank_of];
		P->first_step = pl[q].first_step, P->last_step = pl[q].last_step, P->slot0 = pl[q].slot0;
	}
	for (uint32_t i = 0; i < s->ncevs; i++) {
		s->cevs[i].partition = pl[pidl[i]].rank_of;
		s->cevs[i].step = (uint32_t)(2 * lstep[i] + (int64_t)pl[pidl[i]].acc);
	}
	s->max_step = max_step;
	s->nslots = nslots;
	uint64_t *prev = xmalloc((s->ncevs + 1) * sizeof *prev);
	for (uint32_t i = 0; i < s->ncevs; i++) prev[i] = w->cev[i].prev;
	struct minima_ctx mc = { d };
	double *out = xcalloc(8 * s->ncevs + 1, sizeof *out);
	struct steps_mhook h = { prev, minima, &mc, out };
	steps_metrics_hooked(s, mx, &h);
	free(prev);
	VEC(struct sslot) sv = { 0 };
	for (uint32_t q = 0; q < npl; q++)
		for (uint32_t k = pl[q].slot0; k <= pl[q].slot0 + (pl[q].last_step - pl[q].first_step) / 2; k++) {
			struct sslot x = { k, s->slots[k] };
			VEC_PUSH(sv, x);
		}
	*slots = sv.a, *nslot = sv.n;
	/* each cev's results to its rank's process */
	uint64_t *rank_first = replay_firsts(d, p->lo, p->t->nranks);
	struct cres *r = xmalloc((s->ncevs + 1) * sizeof *r);
	int *to = xmalloc((s->ncevs + 1) * sizeof *to);
	for (uint32_t i = 0; i < s->ncevs; i++) {
		r[i] = (struct cres){ w->cev[i].g, s->cevs[i].partition, s->cevs[i].step, s->cevs[i].dlateness_agg, { 0 } };
		memcpy(r[i].v, out + 8 * (size_t)i, sizeof r[i].v);
		to[i] = replay_owner(rank_first, d->count, w->cev[i].rank);
	}
	free(out);
	struct cres *back = replay_send(d, r, to, s->ncevs, sizeof *r, nback);
	free(r), free(to), free(rank_first);
	return back;
}

/* --- 5. the results where the cevs are in order ---------------------------------------- */

/* Each cev's results (back: this process's, from their owners) into its
 * cevs; the wide differential lateness values numbered from the process's
 * first index in the whole trace (*wide, *nwide: its own, in order, from
 * *wide_first); *vals: the metrics' values per cev (steps_mhook.out). */
static double *home_results(struct home *h, const struct tc_dist *d, const struct cres *back, size_t nback,
			    double **wide, size_t *nwide, uint64_t *wide_first)
{
	double *vals = xcalloc(8 * (size_t)h->c.n + 1, sizeof *vals), *dl = xcalloc((size_t)h->c.n + 1, sizeof *dl);
	for (size_t k = 0; k < nback; k++) {
		uint64_t i = back[k].g - h->c.base;
		if (back[k].g < h->c.base || i >= h->c.n) continue;   /* never: sent to its rank's process */
		struct tc_cev *e = &h->c.cev[i];
		e->partition = back[k].partition, e->step = back[k].step, e->dlateness_agg = back[k].dlate_agg;
		memcpy(vals + 8 * i, back[k].v, sizeof back[k].v);
		dl[i] = back[k].v[1];
	}
	/* the differential lateness coded as serially, the wide values numbered in order */
	struct tc_steps hs = { .t = h->p->t, .cevs = h->c.cev, .ncevs = h->c.n };
	for (uint32_t i = 0; i < h->c.n; i++) tc_cev_set_dlateness(&hs, i, dl[i]);
	free(dl);
	uint64_t first = hs.nwide;
	d->exscan(d->ctx, &first, 1, TC_DIST_SUM);
	if (d->index == 0) first = 0;
	for (uint32_t i = 0; i < h->c.n; i++)
		if (h->c.cev[i].dlate & TC_CEV_WIDE) h->c.cev[i].dlate = TC_CEV_WIDE | (uint32_t)((h->c.cev[i].dlate & ~TC_CEV_WIDE) + first);
	*wide = hs.wide, *nwide = hs.nwide, *wide_first = first;
	return vals;
}

/* The per-step sums, cev by cev in the serial order: a fold over the
 * processes in rank order whose state is only what depends on the order,
 * each step's two sums (the lateness and the differential lateness); the
 * rest of each step's figures (earliest enter, latest leave, count,
 * maxima) are a MIN, MAX or SUM whatever the order: reductions.  Every
 * maximum is of values >= 0, whose doubles order as their bits. */
struct fold { const struct home *h; const double *vals; };

static void fold_step(void *arg, void *state)
{
	const struct fold *f = arg;
	double *sum = state;   /* 2 per step */
	for (uint32_t i = 0; i < f->h->c.n; i++) {
		const struct tc_cev *e = &f->h->c.cev[i];
		const double *v = f->vals + 8 * (size_t)i;
		sum[2 * (size_t)e->step] += v[0];
		sum[2 * (size_t)e->step + 1] += v[1];
		if (e->step) {
			sum[2 * (size_t)e->step - 2] += v[4];
			sum[2 * (size_t)e->step - 1] += v[5];
		}
	}
}

/* Each step's figures but its sums (steps_step_add's), over this
 * process's cevs, then over all processes, into sums (which holds the
 * global minima of the baselines). */

static void step_figures(const struct home *h, const struct tc_dist *d, const double *vals, struct tc_step_sum *sums,
			 uint32_t max_step)
{
	size_t ng = (size_t)max_step + 1;
	uint64_t *lo = xmalloc((ng + 1) * sizeof *lo), *hi = xcalloc(5 * ng + 1, sizeof *hi);
	for (size_t g = 0; g < ng; g++) lo[g] = sums[g].enter_min;
	for (uint32_t i = 0; i < h->c.n; i++) {
		const struct tc_cev *e = &h->c.cev[i];
		for (int agg = 0; agg <= (e->step > 0); agg++) {
			size_t g = e->step - (uint32_t)agg;
			const double *v = vals + 8 * (size_t)i + 4 * (size_t)agg;
			uint64_t a = agg ? h->c.tm[i].agg_start : h->c.tm[i].enter, z = agg ? h->c.tm[i].enter : h->c.tm[i].leave;
			lo[g] = TC_MIN(lo[g], a);
			uint64_t *x = hi + 5 * g;   /* leave, then the maxima's bits */
			x[0] = TC_MAX(x[0], z);
			for (int k = 0; k < 4; k++) {
				uint64_t b;
				memcpy(&b, &v[k], sizeof b);
				x[1 + k] = TC_MAX(x[1 + k], b);
			}
		}
	}
	uint64_t *n = xcalloc(ng + 1, sizeof *n);   /* the blocks drawn on each step */
	for (uint32_t i = 0; i < h->c.n; i++) {
		n[h->c.cev[i].step]++;
		if (h->c.cev[i].step) n[h->c.cev[i].step - 1]++;
	}
	d->reduce(d->ctx, lo, ng, TC_DIST_MIN);
	d->reduce(d->ctx, hi, 5 * ng, TC_DIST_MAX);
	d->reduce(d->ctx, n, ng, TC_DIST_SUM);
	for (size_t g = 0; g < ng; g++) {
		struct tc_step_sum *S = &sums[g];
		const uint64_t *x = hi + 5 * g;
		S->enter_min = lo[g], S->leave_max = x[0], S->ncevs = (uint32_t)n[g];
		memcpy(&S->lateness_max, &x[1], 8), memcpy(&S->dlateness_max, &x[2], 8);
		memcpy(&S->glateness_max, &x[3], 8), memcpy(&S->duration_max, &x[4], 8);
	}
	free(lo), free(hi), free(n);
}

/* --- 6. the slices ------------------------------------------------------------------------ */

struct mend { uint64_t id, g; };

/* Each of the part's messages' two ends (p->msgs, *send and *recv): its
 * ranks send them, so the send's cev is here; each receive's cev goes to
 * its sender's process. */
static void message_ends(const struct home *h, const struct tc_dist *d, uint32_t **send, uint32_t **recv)
{
	const struct tc_part *p = h->p;
	const struct tc_trace *t = p->t;
	size_t nm = p->nmsgs;
	uint32_t *sd = xmalloc((nm + 1) * sizeof *sd), *rv = xmalloc((nm + 1) * sizeof *rv);
	for (size_t m = 0; m < nm; m++) sd[m] = rv[m] = TC_NONE;
	uint64_t *first = replay_firsts(d, p->msg_first, p->msgs_total);
	VEC(struct mend) v = { 0 };
	VEC(int) to = { 0 };
	for (uint32_t i = 0; i < h->c.n; i++) {
		uint64_t g = h->c.base + i;
		STEPS_FOR_CEV_MSGS(t, &h->c.cev[i], false, id, {
			if (id >= p->msg_first && id - p->msg_first < nm) sd[id - p->msg_first] = (uint32_t)g;
		})
		STEPS_FOR_CEV_MSGS(t, &h->c.cev[i], true, id, {
			struct mend x;
			x.id = id;
			x.g = g;
			VEC_PUSH(v, x);
			VEC_PUSH(to, replay_owner(first, d->count, id));
		})
	}
	size_t nin;
	struct mend *in = replay_send(d, v.a, to.a, v.n, sizeof *v.a, &nin);
	for (size_t k = 0; k < nin; k++)
		if (in[k].id >= p->msg_first && in[k].id - p->msg_first < nm) rv[in[k].id - p->msg_first] = (uint32_t)in[k].g;
	free(in), free(v.a), free(to.a), free(first);
	*send = sd, *recv = rv;
}

/* Process 0's steps of the whole trace but for the per-event arrays (s0:
 * its parts, steps and slot count set): every rank's first cev (from the
 * processes' counts), the slots, the totals. */
static void whole_but_events(const struct home *h, const struct tc_dist *d, struct tc_steps *s0, uint64_t nwide,
			     struct sslot *slots, size_t nslot)
{
	const struct tc_part *p = h->p;
	uint32_t nranks = p->t->nranks;
	uint64_t tot[2] = { h->c.n, nwide };
	d->reduce(d->ctx, tot, 2, TC_DIST_SUM);
	size_t nc, ns;
	uint32_t *cnt = xmalloc(((size_t)h->c.nmine + 1) * sizeof *cnt);
	for (uint32_t j = 0; j < h->c.nmine; j++) cnt[j] = h->c.rfirst[j + 1] - h->c.rfirst[j];
	uint32_t *cin = replay_gather0(d, cnt, h->c.nmine, sizeof *cnt, &nc);   /* the ranks in order */
	struct sslot *sin = replay_gather0(d, slots, nslot, sizeof *slots, &ns);
	free(cnt);
	if (d->index) return;
	s0->t = p->t;
	s0->ncevs = tot[0], s0->nwide = tot[1];
	s0->rank_first = xcalloc((size_t)nranks + 2, sizeof *s0->rank_first);
	for (uint32_t r = 0; r < nranks; r++) s0->rank_first[r + 1] = s0->rank_first[r] + (r < nc ? cin[r] : 0);
	s0->slots = xcalloc(s0->nslots + 1, sizeof *s0->slots);
	for (size_t k = 0; k < ns; k++)
		if (sin[k].k < s0->nslots) s0->slots[sin[k].k] = sin[k].s;
	free(cin), free(sin);
}

/* The process's slice (its cevs and their times taken from h). */
static void slice_of(struct home *h, const double *vals, struct tc_steps_slice *sl)
{
	const struct tc_part *p = h->p;
	sl->lo = p->lo, sl->hi = p->hi;
	sl->cevs = h->c.cev, sl->ncevs = h->c.n, sl->first = h->c.base, sl->times = h->c.tm, sl->rfirst = h->c.rfirst;
	h->c.cev = NULL, h->c.tm = NULL, h->c.rfirst = NULL;
	sl->late = xmalloc((2 * (size_t)sl->ncevs + 1) * sizeof *sl->late);
	for (uint32_t i = 0; i < sl->ncevs; i++) sl->late[2 * i] = vals[8 * (size_t)i], sl->late[2 * i + 1] = vals[8 * (size_t)i + 4];
	sl->nmsgs = p->nmsgs, sl->msg_first = p->msg_first;
}

void tc_steps_slice_free(struct tc_steps_slice *sl)
{
	tc_steps_free(sl->s0);
	free(sl->rfirst), free(sl->cevs), free(sl->times), free(sl->late), free(sl->wide), free(sl->send), free(sl->recv);
	*sl = (struct tc_steps_slice){ 0 };
}

/* The slices' array at process 0, in the processes' order (their order in
 * the whole trace). */
static void *gather_taken(const struct tc_dist *d, void **a, size_t n, size_t size)
{
	size_t nin;
	void *in = replay_gather0(d, *a, n, size, &nin);
	free(*a);
	*a = NULL;
	return in;
}

struct tc_steps *tc_steps_slice_whole(struct tc_steps_slice *sl, const struct tc_dist *d)
{
	struct tc_steps *s = sl->s0;
	if (!sl->whole) {
		struct tc_cev *cevs = gather_taken(d, (void **)&sl->cevs, sl->ncevs, sizeof *sl->cevs);
		struct tc_cev_times *tm = gather_taken(d, (void **)&sl->times, sl->ncevs, sizeof *sl->times);
		double *wide = gather_taken(d, (void **)&sl->wide, sl->nwide, sizeof *sl->wide);
		uint32_t *send = gather_taken(d, (void **)&sl->send, sl->nmsgs, sizeof *sl->send);
		uint32_t *recv = gather_taken(d, (void **)&sl->recv, sl->nmsgs, sizeof *sl->recv);
		if (s) s->cevs = cevs, s->times = tm, s->wide = wide, s->msg_send_cev = send, s->msg_recv_cev = recv;
	}
	sl->s0 = NULL;
	tc_steps_slice_free(sl);
	return s;
}

/* --- the whole, in two halves ------------------------------------------------------------ */

/* What the first half leaves the second: the process's cevs and their
 * times, its owned partitions' skeleton and cevs, process 0's partition
 * graph, its messages' ends.  Nothing of the part's events. */
struct tc_sparts {
	struct home h;
	struct owned w;              /* w.cev only: the owned cevs' indices, predecessors' leaves, ranks */
	struct skel k;
	uint32_t pfirst, npl;        /* the owned partitions */
	struct tc_pdag dag;          /* process 0 */
	uint32_t *send, *recv;       /* each of the part's messages' send and receive cev */
};

static void home_free(struct home *h)
{
	tc_pcevs_free(&h->c);
	free(h->pid), free(h->cut);
	h->pid = NULL, h->cut = NULL;
}

static void owned_free(struct owned *w)
{
	free(w->cev), free(w->op), free(w->send), free(w->recv);
	*w = (struct owned){ 0 };
}

void tc_sparts_free(struct tc_sparts *x)
{
	if (!x) return;
	home_free(&x->h);
	owned_free(&x->w);
	skel_free(&x->k);
	tc_pdag_free(&x->dag);
	free(x->send), free(x->recv);
	free(x);
}

/* The most one process would hold of the steps (TC_PARTS_*): each owner
 * its partitions' ops and message ends, process 0 the partitions' records;
 * on every process. */
static uint64_t parts_need(const struct home *h, const struct tc_dist *d)
{
	uint64_t *v = xcalloc(2 * (size_t)h->P + 1, sizeof *v);
	for (uint32_t i = 0; i < h->c.n; i++) {
		size_t n[3] = { 0, 0, 0 };
		cev_records(h->p->t, &h->c.cev[i], n);
		uint64_t *x = v + 2 * (size_t)owner_of(h, h->pid[i]);
		x[0] += n[0], x[1] += n[1] + n[2];
	}
	d->reduce(d->ctx, v, 2 * (size_t)h->P, TC_DIST_SUM);
	uint64_t need = (uint64_t)h->np * TC_PARTS_PART_BYTES;
	for (int q = 0; q < h->P; q++) need = TC_MAX(need, v[2 * q] * TC_PARTS_OP_BYTES + v[2 * q + 1] * TC_PARTS_END_BYTES);
	free(v);
	return need;
}

struct tc_sparts *tc_steps_parts_pack(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
				      uint64_t bound, uint64_t *need)
{
	struct tc_sparts *x = xcalloc(1, sizeof *x);
	struct home *h = &x->h;
	/* 1. the cevs and their partitions */
	h->p = p;
	tc_pcevs_make(p, d, o->coalesce_isends, &h->c);
	h->P = d->count;
	h->cut = xcalloc((size_t)d->count + 1, sizeof *h->cut);
	h->pid = tc_partition_dist(p, d, o, &h->c, &h->np, d->index == 0 ? &x->dag : NULL, h->cut);
	*need = parts_need(h, d);
	if (*need > bound) {
		tc_sparts_free(x);
		return NULL;
	}
	/* 2. the partitions to their owners, which build their skeleton */
	route(h, d, &x->w);
	free(h->pid);
	h->pid = NULL;
	uint32_t pfirst = UINT32_MAX, plast = 0;
	for (size_t i = 0; i < x->w.ncev; i++)
		pfirst = TC_MIN(pfirst, x->w.cev[i].pid), plast = TC_MAX(plast, x->w.cev[i].pid);
	x->pfirst = pfirst, x->npl = x->w.ncev ? plast - pfirst + 1 : 0;
	/* the message ends, while the ops are there */
	message_ends(h, d, &x->send, &x->recv);
	free(h->c.opbase), free(h->c.op2cev);   /* the rest of the cevs stays for the second half */
	h->c.opbase = h->c.op2cev = NULL;
	return x;
}

/* 3. The owners' partition figures to process 0, which orders the
 * partitions (into *s0, its own) and sends each owner its places (*npl_in
 * of them); max_step and nslots (sc) on every process. */
static struct pplace *place_partitions(struct tc_sparts *x, const struct tc_dist *d, const struct tc_steps_opts *o,
				       const struct tc_steps *s, const uint32_t *pidl, const int64_t *pmax,
				       struct tc_steps **s0, uint64_t sc[2], size_t *npl_in)
{
	uint32_t np = x->h.np;
	struct pstat *st = owner_stats(s, pidl, pmax, x->npl);
	size_t nst;
	struct pstat *stin = replay_gather0(d, st, x->npl, sizeof *st, &nst);
	free(st);
	*s0 = d->index == 0 ? xcalloc(1, sizeof **s0) : NULL;
	struct pplace *pl = NULL;
	int *to = NULL;
	sc[0] = sc[1] = 0;
	if (*s0) {
		(*s0)->opts = *o;
		pl = order0(&x->dag, stin, np, *s0);
		sc[0] = (*s0)->max_step, sc[1] = (*s0)->nslots;
		to = xmalloc(((size_t)np + 1) * sizeof *to);
		for (uint32_t q = 0; q < np; q++) to[q] = owner_of(&x->h, q);
	}
	free(stin);
	tc_pdag_free(&x->dag);
	d->reduce(d->ctx, sc, 2, TC_DIST_MAX);
	struct pplace *mine = replay_send(d, pl, to, *s0 ? np : 0, sizeof *pl, npl_in);
	free(pl), free(to);
	return mine;
}

/* 5.–6. Each cev's results at its rank's process, the sums folded in order
 * (sums: the global minima, taken), the steps left in slices (*sl; s0:
 * process 0's, taken). */
static void results_in_order(struct tc_sparts *x, const struct tc_dist *d, struct cres *back, size_t nback,
			     struct tc_step_sum *sums, uint32_t max_step, struct tc_steps *s0, struct sslot *slots,
			     size_t nslot, struct tc_steps_slice *sl)
{
	struct home *h = &x->h;
	double *vals = home_results(h, d, back, nback, &sl->wide, &sl->nwide, &sl->wide_first);
	size_t ng = (size_t)max_step + 1;
	step_figures(h, d, vals, sums, max_step);
	double *sum = xcalloc(2 * ng + 1, sizeof *sum);
	struct fold f = { h, vals };
	d->chain(d->ctx, sum, 2 * ng * sizeof *sum, fold_step, &f);
	for (size_t g = 0; g < ng; g++) sums[g].lateness_sum = sum[2 * g], sums[g].dlateness_sum = sum[2 * g + 1];
	free(sum);
	whole_but_events(h, d, s0, sl->nwide, slots, nslot);
	slice_of(h, vals, sl);
	free(vals);
	sl->send = x->send, sl->recv = x->recv;
	x->send = x->recv = NULL;
	if (!s0) {
		free(sums);
		return;
	}
	s0->steps = sums;
	steps_sums_end(s0);
	sl->s0 = s0;
}

/* 2. (the owner's half) – 6. over the halves' state (taken). */
bool tc_steps_parts_finish(struct tc_sparts *x, const struct tc_dist *d, const struct tc_steps_opts *o,
			   struct tc_steps_slice *sl)
{
	*sl = (struct tc_steps_slice){ 0 };
	struct owned *w = &x->w;
	owned_sort(w);
	owner_skel(x->h.p, w, &x->k);   /* reads only the part's definitions */
	free(w->op);
	w->op = NULL;
	uint32_t *pidl = xmalloc((w->ncev + 1) * sizeof *pidl), *pidk = xmalloc((w->ncev + 1) * sizeof *pidk);
	uint64_t *prev = xmalloc((w->ncev + 1) * sizeof *prev);
	for (size_t i = 0; i < w->ncev; i++) pidl[i] = pidk[i] = w->cev[i].pid - x->pfirst, prev[i] = w->cev[i].prev;
	int64_t *lstep = NULL, *pmax = NULL;
	struct tc_steps *s = steps_local(&x->k.K, o, x->k.mx, pidk, w->ncev, x->npl, prev, &lstep, &pmax);
	free(prev);
	uint64_t bad = !s;   /* never: the owner's cevs are the ones sent */
	d->reduce(d->ctx, &bad, 1, TC_DIST_MAX);
	if (!bad) {
		struct tc_steps *s0;
		uint64_t sc[2];
		size_t npl_in, nslot, nback;
		struct pplace *mine = place_partitions(x, d, o, s, pidl, pmax, &s0, sc, &npl_in);
		/* 4. the metrics at the owners */
		struct sslot *slots;
		struct cres *back = owner_metrics(x->h.p, d, s, w, lstep, pidl, mine, (uint32_t)npl_in, x->h.np,
						  (uint32_t)sc[0], sc[1], x->k.mx, &slots, &nslot, &nback);
		free(mine);
		struct tc_step_sum *sums = xmalloc((sc[0] + 1) * sizeof *sums);
		memcpy(sums, s->steps, (sc[0] + 1) * sizeof *sums);   /* the global minima, no sums yet */
		tc_steps_free(s);
		s = NULL;
		skel_free(&x->k);
		owned_free(w);
		results_in_order(x, d, back, nback, sums, (uint32_t)sc[0], s0, slots, nslot, sl);
		free(back), free(slots);
	}
	tc_steps_free(s);
	free(lstep), free(pmax), free(pidl);
	tc_sparts_free(x);
	return !bad;
}

struct tc_steps *tc_steps_parts(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o)
{
	struct tc_steps_slice sl;
	uint64_t need;
	tc_steps_parts_finish(tc_steps_parts_pack(p, d, o, UINT64_MAX, &need), d, o, &sl);
	return tc_steps_slice_whole(&sl, d);
}
