/* partition_dist.c — Ravel's partitions of a distributed model
 * (analysis_steps_dist.h, docs/scale.md "The partitions over parts").
 *
 * Each process makes the cevs of its ranks once (tc_pcevs_make, with
 * steps_rank_cevs as the serial code; the steps over parts use them too)
 * and joins, in a union-find of its own, what it can join alone: the
 * "true Waitall" groups (steps_waitall_rank) and the messages whose both
 * ends are its ranks'.  Each class (a local component) is named by its first
 * cev's global index.  What crosses processes goes to process 0 as pairs of
 * names: a message received here and sent elsewhere (its sender's process
 * answers with the name of the send's component), every collective member
 * (with its place among the members), and the succession of two components
 * on a rank (the partition graph's edges).  Process 0 joins the components
 * along messages and collectives, condenses the cycles of their graph
 * (steps_merge_cycles, until none is left, as build_dag does) and numbers
 * the partitions in the order of their first cev: the serial numbering,
 * since a partition's first cev is the least name of its components.  It
 * sends each process its components' numbers.
 *
 * Process 0 holds a record per component, cross-process message pair,
 * member and edge, each deduplicated per process: far less than the
 * skeleton (a component gathers many cevs), never more than a few words per
 * cev. */
#include <stdlib.h>
#include <string.h>

#include "analysis_steps_dist.h"
#include "replay_internal.h"
#include "steps_internal.h"

struct pair { uint64_t a, b; };

struct pdist {
	const struct tc_part *p;
	const struct tc_pcevs *c;    /* this process's cevs */
	uint32_t *send_cev;          /* per message of p->msgs: the cev of its send, TC_NONE */
	struct steps_uf u;
	uint32_t *comp;              /* cev → component */
	uint64_t *name;              /* component → its first cev (global) */
	uint32_t ncomp;
};

static int pair_cmp(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;
	if (a->a != b->a) return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

/* Sorted, each pair once; returns the count. */
static size_t pairs_unique(struct pair *v, size_t n)
{
	if (!n) return 0;
	qsort(v, n, sizeof *v, pair_cmp);
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (pair_cmp(&v[i], &v[k - 1])) v[k++] = v[i];
	return k;
}

/* --- the local part -------------------------------------------------------- */

void tc_pcevs_make(const struct tc_part *p, const struct tc_dist *d, bool coalesce, struct tc_pcevs *c)
{
	const struct tc_trace *t = p->t;
	*c = (struct tc_pcevs){ .nmine = p->hi - p->lo };
	c->opbase = xmalloc(((size_t)c->nmine + 1) * sizeof *c->opbase);
	size_t nops = 0;
	for (uint32_t j = 0; j < c->nmine; j++) {
		c->opbase[j] = (uint32_t)nops;
		nops += t->ranks[p->lo + j].nops;
	}
	c->opbase[c->nmine] = (uint32_t)nops;
	c->op2cev = xmalloc((nops + 1) * sizeof *c->op2cev);
	c->cev = xmalloc((nops + 1) * sizeof *c->cev);
	c->rfirst = xmalloc(((size_t)c->nmine + 1) * sizeof *c->rfirst);
	for (uint32_t j = 0; j < c->nmine; j++) {
		c->rfirst[j] = c->n;
		c->n += steps_rank_cevs(t, p->lo + j, coalesce, c->n, c->cev + c->n, c->op2cev + c->opbase[j]);
	}
	c->rfirst[c->nmine] = c->n;
	c->tm = xmalloc(((size_t)c->n + 1) * sizeof *c->tm);
	for (uint32_t j = 0; j < c->nmine; j++)
		for (uint32_t i = c->rfirst[j]; i < c->rfirst[j + 1]; i++) {
			const struct tc_cev *e = &c->cev[i];
			const struct tc_rank *R = &t->ranks[e->rank];
			const struct tc_call *k = &R->calls[R->ops[e->op].call];
			uint64_t enter = k->enter, prev = i > c->rfirst[j] ? c->tm[i - 1].leave : enter;
			c->tm[i] = (struct tc_cev_times){ enter, steps_calls_leave(k, e->nops), steps_block_start(enter, prev) };
		}
	c->base = c->n;
	d->exscan(d->ctx, &c->base, 1, TC_DIST_SUM);
	if (d->index == 0) c->base = 0;
}

void tc_pcevs_free(struct tc_pcevs *c)
{
	free(c->cev), free(c->rfirst), free(c->opbase), free(c->op2cev), free(c->tm);
	*c = (struct tc_pcevs){ 0 };
}

struct tc_step_msg tc_part_step_msg(const struct tc_part *p, uint32_t id)
{
	uint64_t k = id - p->msg_first;
	if (id < p->msg_first || k >= p->nmsgs) return (struct tc_step_msg){ 0 };
	const struct tc_msg *m = &p->msgs[k];
	return (struct tc_step_msg){ m->send_done, m->post_time, m->flags, 0 };
}

/* tc_part_step_msg as the true-Waitall rule reads it (all the messages are the part's). */
static struct tc_step_msg part_msg(const void *ctx, uint32_t id)
{
	return tc_part_step_msg(ctx, id);
}

static void local_waitall(struct pdist *x)
{
	const struct tc_pcevs *c = x->c;
	for (uint32_t j = 0; j < c->nmine; j++) {
		uint32_t f = c->rfirst[j];
		steps_waitall_rank(&x->u, f, x->p->t, x->p->lo + j, c->cev + f, c->rfirst[j + 1] - f, c->tm + f, part_msg,
				   x->p);
	}
}

/* Both ends of every message sent and received here. */
static void local_messages(struct pdist *x)
{
	const struct tc_part *p = x->p;
	const struct tc_trace *t = p->t;
	x->send_cev = xmalloc((p->nmsgs + 1) * sizeof *x->send_cev);
	for (size_t k = 0; k < p->nmsgs; k++) x->send_cev[k] = TC_NONE;
	for (uint32_t i = 0; i < x->c->n; i++)
		STEPS_FOR_CEV_MSGS(t, &x->c->cev[i], false, id, {
			if (id >= p->msg_first && id - p->msg_first < p->nmsgs) x->send_cev[id - p->msg_first] = i;
		})
	for (uint32_t i = 0; i < x->c->n; i++)
		STEPS_FOR_CEV_MSGS(t, &x->c->cev[i], true, id, {
			if (id >= p->msg_first && id - p->msg_first < p->nmsgs && x->send_cev[id - p->msg_first] != TC_NONE)
				steps_uf_union(&x->u, x->send_cev[id - p->msg_first], i);
		})
}

/* The components, numbered in the order of their first cev, named by it. */
static void local_components(struct pdist *x)
{
	x->comp = xmalloc(((size_t)x->c->n + 1) * sizeof *x->comp);
	x->name = xmalloc(((size_t)x->c->n + 1) * sizeof *x->name);
	uint32_t *of_root = xmalloc(((size_t)x->c->n + 1) * sizeof *of_root);
	for (uint32_t i = 0; i < x->c->n; i++) of_root[i] = TC_NONE;
	x->ncomp = 0;
	for (uint32_t i = 0; i < x->c->n; i++) {
		uint32_t r = steps_uf_find(&x->u, i);
		if (of_root[r] == TC_NONE) {
			of_root[r] = x->ncomp;
			x->name[x->ncomp++] = x->c->base + i;
		}
		x->comp[i] = of_root[r];
	}
	free(of_root);
}

static uint64_t cev_name(const struct pdist *x, uint32_t i)
{
	return x->name[x->comp[i]];
}

/* A receive's request to the sender's process: the name of the send's
 * component, UINT64_MAX when that message has no send here. */
static void send_name(void *ctx, const void *req, void *ans)
{
	const struct pdist *x = ctx;
	uint64_t id, v = UINT64_MAX;
	memcpy(&id, req, sizeof id);
	uint64_t k = id - x->p->msg_first;
	if (id >= x->p->msg_first && k < x->p->nmsgs && x->send_cev[k] != TC_NONE) v = cev_name(x, x->send_cev[k]);
	memcpy(ans, &v, sizeof v);
}

/* Messages received here and sent by another process's ranks: (send's
 * component, receive's component), each pair once. */
static struct pair *cross_messages(struct pdist *x, const struct tc_dist *d, size_t *npairs)
{
	const struct tc_part *p = x->p;
	const struct tc_trace *t = p->t;
	uint64_t *first = replay_firsts(d, p->msg_first, p->msgs_total);
	VEC(uint64_t) req = { 0 };
	VEC(uint32_t) at = { 0 };
	VEC(int) to = { 0 };
	for (uint32_t i = 0; i < x->c->n; i++)
		STEPS_FOR_CEV_MSGS(t, &x->c->cev[i], true, id, {
			if (id >= p->msg_first && id - p->msg_first < p->nmsgs) continue;
			VEC_PUSH(req, (uint64_t)id);
			VEC_PUSH(at, i);
			VEC_PUSH(to, replay_owner(first, d->count, id));
		})
	uint64_t *ans = replay_ask(d, req.a, to.a, req.n, sizeof *req.a, sizeof(uint64_t), send_name, x, NULL, NULL);
	struct pair *v = xmalloc((req.n + 1) * sizeof *v);
	size_t n = 0;
	for (size_t k = 0; k < req.n; k++)
		if (ans[k] != UINT64_MAX) v[n++] = (struct pair){ ans[k], cev_name(x, at.a[k]) };
	free(ans), free(first);
	VEC_FREE(req);
	VEC_FREE(at);
	VEC_FREE(to);
	*npairs = pairs_unique(v, n);
	return v;
}

/* Every member of this process's ranks with a cev: (its place among all
 * members, its component). */
static struct pair *members(const struct pdist *x, size_t *n)
{
	const struct tc_part *p = x->p;
	const struct tc_trace *t = p->t;
	struct pair *v = xmalloc((p->nmembers + 1) * sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < p->nmembers; i++) {
		const struct tc_coll_member *mb = &p->members[i];
		if (mb->rank < p->lo || mb->rank >= p->hi) continue;
		uint32_t op = t->ranks[mb->rank].calls[mb->call].op;
		if (op == TC_NONE) continue;
		uint32_t e = x->c->op2cev[x->c->opbase[mb->rank - p->lo] + op];
		if (e != TC_NONE) v[k++] = (struct pair){ p->member_at[i], cev_name(x, e) };
	}
	*n = k;
	return v;
}

/* The partition graph's edges here: a component followed on a rank by another. */
static struct pair *edges(const struct pdist *x, size_t *n)
{
	struct pair *v = xmalloc(((size_t)x->c->n + 1) * sizeof *v);
	size_t k = 0;
	for (uint32_t j = 0; j < x->c->nmine; j++)
		for (uint32_t i = x->c->rfirst[j] + 1; i < x->c->rfirst[j + 1]; i++)
			if (x->comp[i - 1] != x->comp[i]) v[k++] = (struct pair){ cev_name(x, i - 1), cev_name(x, i) };
	*n = pairs_unique(v, k);
	return v;
}

/* --- process 0 ---------------------------------------------------------------- */

struct global {
	uint64_t *name;      /* every component, ascending */
	size_t n;
	struct steps_uf u;
};

static uint32_t comp_at(const struct global *G, uint64_t name)
{
	return (uint32_t)tc_lower_bound_u64(G->name, G->n, name);   /* present: every name sent is a component's */
}

/* All parts of every collective instance (colls: first and n of every
 * instance; m: the members, sorted here by place). */
static void join_collectives(struct global *G, const uint32_t *colls, size_t ncolls, struct pair *m, size_t nm)
{
	qsort(m, nm, sizeof *m, pair_cmp);
	struct pair *c = xmalloc((ncolls + 1) * sizeof *c);
	for (size_t k = 0; k < ncolls; k++) c[k] = (struct pair){ colls[2 * k], colls[2 * k + 1] };
	qsort(c, ncolls, sizeof *c, pair_cmp);
	size_t j = 0;
	for (size_t k = 0; k < ncolls; k++) {
		uint32_t first = TC_NONE;
		while (j < nm && m[j].a < c[k].a) j++;
		for (; j < nm && m[j].a < c[k].a + c[k].b; j++) {
			uint32_t x = comp_at(G, m[j].b);
			if (first == TC_NONE) first = x;
			else steps_uf_union(&G->u, first, x);
		}
	}
	free(c);
}

/* One round of the cycle merge: the graph over the classes, then Tarjan. */
static bool merge_round(struct global *G, const struct pair *e, size_t ne)
{
	uint32_t *node = xmalloc((G->n + 1) * sizeof *node), *first = xmalloc((G->n + 1) * sizeof *first);
	uint32_t nn = 0;
	for (size_t c = 0; c < G->n; c++) node[c] = TC_NONE;
	for (size_t c = 0; c < G->n; c++) {
		uint32_t r = steps_uf_find(&G->u, (uint32_t)c);
		if (node[r] == TC_NONE) first[nn] = (uint32_t)c, node[r] = nn++;
	}
	uint32_t *src = xmalloc((ne + 1) * sizeof *src), *dst = xmalloc((ne + 1) * sizeof *dst);
	uint32_t *off = xcalloc((size_t)nn + 2, sizeof *off), *adj = xmalloc((ne + 1) * sizeof *adj);
	for (size_t k = 0; k < ne; k++) {
		src[k] = node[steps_uf_find(&G->u, comp_at(G, e[k].a))];
		dst[k] = node[steps_uf_find(&G->u, comp_at(G, e[k].b))];
		if (src[k] != dst[k]) off[src[k] + 2]++;
	}
	for (uint32_t v = 0; v < nn; v++) off[v + 2] += off[v + 1];
	for (size_t k = 0; k < ne; k++)
		if (src[k] != dst[k]) adj[off[src[k] + 1]++] = dst[k];
	struct steps_cgraph g = { nn, off, adj, first };
	bool merged = steps_merge_cycles(&G->u, &g);
	free(node), free(first), free(src), free(dst), free(off), free(adj);
	return merged;
}

/* Every component's partition, numbered in the order of first cevs. */
static uint32_t *number(struct global *G, uint32_t *np)
{
	uint32_t *of_root = xmalloc((G->n + 1) * sizeof *of_root), *pid = xmalloc((G->n + 1) * sizeof *pid);
	for (size_t c = 0; c < G->n; c++) of_root[c] = TC_NONE;
	*np = 0;
	for (size_t c = 0; c < G->n; c++) {
		uint32_t r = steps_uf_find(&G->u, (uint32_t)c);
		if (of_root[r] == TC_NONE) of_root[r] = (*np)++;
		pid[c] = of_root[r];
	}
	free(of_root);
	return pid;
}

/* --- the whole ------------------------------------------------------------------- */

/* Process 0's partition graph for tc_pdag: each partition's first cev and
 * the edges between partitions, each once. */
static void keep_dag(const struct global *G, const uint32_t *pid, uint32_t np, const struct pair *e, size_t ne,
		     struct tc_pdag *dag)
{
	dag->first = xmalloc(((size_t)np + 1) * sizeof *dag->first);
	for (size_t c = G->n; c-- > 0;) dag->first[pid[c]] = G->name[c];   /* names ascend: the least last */
	struct pair *v = xmalloc((ne + 1) * sizeof *v);
	size_t n = 0;
	for (size_t k = 0; k < ne; k++) {
		uint32_t a = pid[comp_at(G, e[k].a)], b = pid[comp_at(G, e[k].b)];
		if (a != b) v[n++] = (struct pair){ a, b };
	}
	n = pairs_unique(v, n);
	dag->edge = xmalloc((2 * n + 1) * sizeof *dag->edge);
	for (size_t k = 0; k < n; k++) dag->edge[2 * k] = (uint32_t)v[k].a, dag->edge[2 * k + 1] = (uint32_t)v[k].b;
	dag->nedge = n;
	free(v);
}

void tc_pdag_free(struct tc_pdag *dag)
{
	free(dag->first);
	free(dag->edge);
	*dag = (struct tc_pdag){ 0 };
}

/* Process 0: the owners' ranges of partitions, cut[q] .. cut[q + 1] − 1
 * for process q, each about a P-th of the cevs (size: every component's). */
static void owner_cuts(const struct global *G, const uint32_t *pid, uint32_t np, const uint32_t *size, int P,
		       uint64_t *cut)
{
	uint64_t *psize = xcalloc((size_t)np + 1, sizeof *psize), total = 0, run = 0;
	for (size_t c = 0; c < G->n; c++) psize[pid[c]] += size[c], total += size[c];
	uint32_t q = 1;
	cut[0] = 0;
	for (uint32_t k = 0; k < np && q < (uint32_t)P; k++) {
		while (q < (uint32_t)P && run >= total * q / (uint64_t)P) cut[q++] = k;
		run += psize[k];
	}
	while (q <= (uint32_t)P) cut[q++] = np;
	free(psize);
}

uint32_t *tc_partition_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
			    const struct tc_pcevs *c, uint32_t *np, struct tc_pdag *dag, uint64_t *cut)
{
	struct pdist x = { .p = p, .c = c };
	steps_uf_init(&x.u, c->n);
	if (o->waitall_merge) local_waitall(&x);
	local_messages(&x);
	local_components(&x);
	size_t nx, nm, ne, nmine = x.ncomp;
	struct pair *cross = cross_messages(&x, d, &nx);
	struct pair *mem = members(&x, &nm);
	struct pair *edg = edges(&x, &ne);
	uint32_t *colls = xmalloc((2 * p->ncolls + 1) * sizeof *colls);
	for (size_t k = 0; k < p->ncolls; k++) colls[2 * k] = p->colls[k].first, colls[2 * k + 1] = p->colls[k].n;
	/* every process's count of components, for the answer's way back */
	uint64_t *counts = xcalloc((size_t)d->count + 1, sizeof *counts);
	d->allgather(d->ctx, nmine, counts);
	struct global G = { 0 };
	G.name = replay_gather0(d, x.name, nmine, sizeof *x.name, &G.n);
	uint32_t *size = xcalloc((size_t)nmine + 1, sizeof *size), *sizes = NULL;   /* each component's cevs */
	for (uint32_t i = 0; cut && i < c->n; i++) size[x.comp[i]]++;
	size_t nsz = 0;
	if (cut) sizes = replay_gather0(d, size, nmine, sizeof *size, &nsz);
	free(size);
	if (cut) memset(cut, 0, ((size_t)d->count + 1) * sizeof *cut);
	struct pair *X = replay_gather0(d, cross, nx, sizeof *cross, &nx);
	struct pair *M = replay_gather0(d, mem, nm, sizeof *mem, &nm);
	struct pair *E = replay_gather0(d, edg, ne, sizeof *edg, &ne);
	size_t ncolls;
	uint32_t *C = replay_gather0(d, colls, p->ncolls, 2 * sizeof *colls, &ncolls);
	free(cross), free(mem), free(edg), free(colls);
	uint32_t *pid = NULL, n_p = 0;
	int *to = NULL;
	size_t nback = 0;
	if (d->index == 0) {
		steps_uf_init(&G.u, G.n);
		for (size_t k = 0; k < nx; k++) steps_uf_union(&G.u, comp_at(&G, X[k].a), comp_at(&G, X[k].b));
		join_collectives(&G, C, ncolls, M, nm);
		for (int pass = 0; pass < 4 && merge_round(&G, E, ne); pass++)
			;
		pid = number(&G, &n_p);
		steps_uf_free(&G.u);
		if (dag) keep_dag(&G, pid, n_p, E, ne, dag);
		if (cut && nsz == G.n) owner_cuts(&G, pid, n_p, sizes, d->count, cut);
		to = xmalloc((G.n + 1) * sizeof *to);
		size_t at = 0;
		for (int q = 0; q < d->count; q++)
			for (uint64_t k = 0; k < counts[q]; k++) to[at++] = q;
		nback = G.n;
	}
	free(G.name), free(X), free(M), free(E), free(C), free(counts), free(sizes);
	size_t nin;
	uint32_t *mine = replay_send(d, pid, to, nback, sizeof *pid, &nin);
	free(pid), free(to);
	uint32_t *out = xmalloc(((size_t)c->n + 1) * sizeof *out);
	for (uint32_t i = 0; i < c->n; i++) out[i] = x.comp[i] < nin ? mine[x.comp[i]] : 0;
	free(mine);
	uint64_t npv = n_p;
	d->reduce(d->ctx, &npv, 1, TC_DIST_MAX);
	*np = (uint32_t)npv;
	if (cut) d->reduce(d->ctx, cut, (size_t)d->count + 1, TC_DIST_MAX);   /* process 0's, to every process */
	steps_uf_free(&x.u);
	free(x.send_cev), free(x.comp), free(x.name);
	return out;
}
