/* steps.c — Ravel's logical time: communication events (§1.8), local steps
 * by strides with receive inflation (§2.6 a–c) or Lamport-style (§2.6 d),
 * global steps (§2.7), and the lookup API.  Phases are in partition.c and the
 * metrics in lateness.c.  Every stage is linear in events + messages, or
 * n·log n where something is sorted; no stage loops on cyclic or broken input.
 * See docs/logical-time.md for the choices that differ from Ravel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "steps_internal.h"

const char *const tc_metric_names[TC_M_COUNT] = { "lateness", "global_lateness", "diff_lateness", "duration" };

void tc_steps_default_opts(struct tc_steps_opts *o)
{
	*o = (struct tc_steps_opts){
		.coalesce_isends = true,
		.waitall_merge = true,
		.caller_merge = false,   /* see docs/logical-time.md: Ravel's default collapses main-only codes */
		.leap_merge = false,
		.lamport = false,
	};
}

/* --- topological order that survives cycles ------------------------------------ */
struct keyed { uint64_t key; uint32_t i; };

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void steps_topo_order(uint32_t nn, const uint32_t *off, const uint32_t *adj, const uint64_t *key,
		      uint32_t *order)
{
	uint32_t *indeg = xcalloc((size_t)nn + 1, sizeof *indeg);
	uint8_t *queued = xcalloc((size_t)nn + 1, 1);
	for (uint32_t e = 0; e < off[nn]; e++) indeg[adj[e]]++;
	uint32_t head = 0, tail = 0;
	for (uint32_t v = 0; v < nn; v++)
		if (!indeg[v]) { queued[v] = 1; order[tail++] = v; }
	struct keyed *sorted = NULL;
	uint32_t sp = 0;
	while (head < nn) {
		if (head == tail) {
			/* only cycles left: take the remaining node with the smallest key */
			if (!sorted) {
				sorted = xmalloc((size_t)nn * sizeof *sorted);
				for (uint32_t v = 0; v < nn; v++) sorted[v] = (struct keyed){ key ? key[v] : v, v };
				qsort(sorted, nn, sizeof *sorted, keyed_cmp);
			}
			while (queued[sorted[sp].i]) sp++;
			queued[sorted[sp].i] = 1;
			order[tail++] = sorted[sp].i;
		}
		uint32_t u = order[head++];
		for (uint32_t e = off[u]; e < off[u + 1]; e++) {
			uint32_t v = adj[e];
			if (!queued[v] && --indeg[v] == 0) { queued[v] = 1; order[tail++] = v; }
		}
	}
	free(sorted);
	free(indeg);
	free(queued);
}

/* --- communication events ------------------------------------------------------- */
uint32_t steps_rank_cevs(const struct tc_trace *t, uint32_t r, bool coalesce, uint32_t base, struct tc_cev *out,
			 uint32_t *op2cev)
{
	const struct tc_rank *R = &t->ranks[r];
	uint32_t n = 0;
	bool prev_isend = false;
	for (uint32_t k = 0; k < R->nops; k++) {
		const struct tc_op *op = &R->ops[k];
		const struct tc_call *c = &R->calls[op->call];
		uint8_t kind = c->region < t->nregions ? t->regions[c->region].kind : TC_RK_USER;
		bool isend = kind == TC_RK_MPI_ISEND && op->nsend && !op->nrecv && op->coll == TC_NONE;
		if (coalesce && isend && prev_isend && out[n - 1].nops < TC_CEV_MAX_NOPS) {
			/* the previous Isend's call is the call just before this one,
			 * with the same parent: no other Leave happened in between */
			struct tc_cev *last = &out[n - 1];
			uint32_t pc = R->ops[last->op + last->nops - 1].call;
			if (pc + 1 == op->call && !(c->flags & TC_CALL_APART) && R->calls[pc].parent == c->parent) {
				last->nops++;   /* its calls stay consecutive: tc_cev_leave reads them */
				op2cev[k] = base + n - 1;
				continue;
			}
		}
		struct tc_cev e = { .rank = r, .op = k, .nops = 1, .partition = TC_NONE };
		if (op->nsend) e.flags |= TC_CEV_SEND;
		if (op->nrecv) e.flags |= TC_CEV_RECV;
		if (op->coll != TC_NONE) e.flags |= TC_CEV_COLL;
		op2cev[k] = base + n;
		out[n++] = e;
		prev_isend = isend;
	}
	return n;
}

static void build_cevs(struct steps_build *b)
{
	const struct tc_trace *t = b->t;
	struct tc_steps *s = b->s;
	b->op_base = xmalloc(((size_t)t->nranks + 1) * sizeof *b->op_base);
	size_t nops = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		b->op_base[r] = (uint32_t)nops;
		nops += t->ranks[r].nops;
	}
	b->op_base[t->nranks] = (uint32_t)nops;
	b->op2cev = xmalloc((nops + 1) * sizeof *b->op2cev);
	s->rank_first = xmalloc(((size_t)t->nranks + 1) * sizeof *s->rank_first);
	VEC(struct tc_cev) v = { 0 };
	VEC_RESERVE(v, nops + 1);
	for (uint32_t r = 0; r < t->nranks; r++) {
		s->rank_first[r] = (uint32_t)v.n;
		v.n += steps_rank_cevs(t, r, b->o->coalesce_isends, (uint32_t)v.n, v.a + v.n, b->op2cev + b->op_base[r]);
	}
	s->rank_first[t->nranks] = (uint32_t)v.n;
	s->cevs = xreallocarray(v.a, v.n + 1, sizeof *v.a);   /* the reserve counted ops, not cevs */
	s->ncevs = v.n;

	size_t nm = t->nmsgs;
	s->msg_send_cev = xmalloc((nm + 1) * sizeof *s->msg_send_cev);
	s->msg_recv_cev = xmalloc((nm + 1) * sizeof *s->msg_recv_cev);
	for (size_t m = 0; m < nm; m++) s->msg_send_cev[m] = s->msg_recv_cev[m] = TC_NONE;
	for (size_t i = 0; i < s->ncevs; i++) {
		const struct tc_cev *e = &s->cevs[i];
		const struct tc_rank *R = &t->ranks[e->rank];
		for (uint32_t k = 0; k < e->nops; k++) {
			const struct tc_op *op = &R->ops[e->op + k];
			const uint32_t *ms = tc_op_sends(t, e->rank, op), *mr = tc_op_recvs(t, e->rank, op);
			for (uint32_t j = 0; j < op->nsend; j++) s->msg_send_cev[ms[j]] = (uint32_t)i;
			for (uint32_t j = 0; j < op->nrecv; j++) s->msg_recv_cev[mr[j]] = (uint32_t)i;
		}
	}
}

/* Collective instance of a cev, TC_NONE if it is not a collective part. */
static uint32_t cev_coll(const struct steps_build *b, uint32_t i)
{
	const struct tc_cev *e = &b->s->cevs[i];
	if (!(e->flags & TC_CEV_COLL)) return TC_NONE;
	return b->t->ranks[e->rank].ops[e->op].coll;
}

/* --- layering over a graph of cev groups ------------------------------------------ */
/* A graph whose nodes are cevs, except that all parts of one collective share a
 * node.  Edges are added in two passes (count, then fill). */
struct cgraph {
	uint32_t nn;
	uint32_t *node;      /* cev → node, TC_NONE when the cev is not a node */
	uint32_t *off, *adj;
	uint64_t *key;       /* node → smallest enter */
	int pass;
};

static void cg_nodes(struct cgraph *g, const struct steps_build *b, uint32_t flags_mask)
{
	size_t n = b->s->ncevs;
	g->node = xmalloc((n + 1) * sizeof *g->node);
	uint32_t *coll_node = xmalloc((b->t->ncolls + 1) * sizeof *coll_node);
	for (size_t c = 0; c < b->t->ncolls; c++) coll_node[c] = TC_NONE;
	g->nn = 0;
	for (size_t i = 0; i < n; i++) {
		g->node[i] = TC_NONE;
		if (flags_mask && !(b->s->cevs[i].flags & flags_mask)) continue;
		uint32_t c = cev_coll(b, (uint32_t)i);
		if (c == TC_NONE) g->node[i] = g->nn++;
		else {
			if (coll_node[c] == TC_NONE) coll_node[c] = g->nn++;
			g->node[i] = coll_node[c];
		}
	}
	free(coll_node);
	g->key = xmalloc(((size_t)g->nn + 1) * sizeof *g->key);
	for (uint32_t v = 0; v < g->nn; v++) g->key[v] = UINT64_MAX;
	for (size_t i = 0; i < n; i++)
		if (g->node[i] != TC_NONE) g->key[g->node[i]] = TC_MIN(g->key[g->node[i]], tc_cev_enter(b->s, (uint32_t)i));
	g->off = xcalloc((size_t)g->nn + 2, sizeof *g->off);
	g->adj = NULL;
	g->pass = 0;
}

static void cg_edge(struct cgraph *g, uint32_t from_cev, uint32_t to_cev)
{
	uint32_t a = g->node[from_cev], c = g->node[to_cev];
	if (a == TC_NONE || c == TC_NONE || a == c) return;
	if (g->pass == 0) g->off[a + 2]++;
	else g->adj[g->off[a + 1]++] = c;
}

static void cg_next_pass(struct cgraph *g)
{
	for (uint32_t v = 0; v < g->nn; v++) g->off[v + 2] += g->off[v + 1];
	g->adj = xmalloc(((size_t)g->off[g->nn + 1] + 1) * sizeof *g->adj);
	g->pass = 1;
}

/* Longest-path levels (0 for sources) in topological order. */
static uint32_t *cg_levels(struct cgraph *g)
{
	uint32_t *order = xmalloc(((size_t)g->nn + 1) * sizeof *order);
	uint32_t *lvl = xcalloc((size_t)g->nn + 1, sizeof *lvl);
	steps_topo_order(g->nn, g->off, g->adj, g->key, order);
	for (uint32_t i = 0; i < g->nn; i++) {
		uint32_t u = order[i];
		for (uint32_t e = g->off[u]; e < g->off[u + 1]; e++)
			if (lvl[g->adj[e]] < lvl[u] + 1) lvl[g->adj[e]] = lvl[u] + 1;
	}
	free(order);
	return lvl;
}

static void cg_free(struct cgraph *g)
{
	free(g->node); free(g->off); free(g->adj); free(g->key);
}

/* --- local steps ----------------------------------------------------------------- */
static bool same_part_prev(const struct steps_build *b, uint32_t i, uint32_t *prev)
{
	uint32_t pv = steps_prev(b->s, i);
	*prev = pv;
	return pv != TC_NONE && b->pid[pv] == b->pid[i];
}

/* A receive: one step after its previous event in the partition and after
 * every sender already placed. */
static void place_recv(struct steps_build *b, uint32_t i)
{
	const struct tc_steps *s = b->s;
	const struct tc_trace *t = b->t;
	int64_t v = -1;
	uint32_t pv;
	if (same_part_prev(b, i, &pv)) v = b->lstep[pv];
	const struct tc_cev *e = &s->cevs[i];
	for (uint32_t k = 0; k < e->nops; k++) {
		const struct tc_op *op = &t->ranks[e->rank].ops[e->op + k];
		const uint32_t *mr = tc_op_recvs(t, e->rank, op);
		for (uint32_t j = 0; j < op->nrecv; j++) {
			uint32_t sc = s->msg_send_cev[mr[j]];
			if (sc != TC_NONE && b->pid[sc] == b->pid[i] && b->lstep[sc] > v) v = b->lstep[sc];
		}
	}
	b->lstep[i] = v + 1;
}

/* §2.6 (a)–(c): strides over sends and collectives, receives inflated in. */
static void step_strides(struct steps_build *b)
{
	const struct tc_trace *t = b->t;
	struct tc_steps *s = b->s;
	size_t n = s->ncevs;
	struct cgraph g;
	cg_nodes(&g, b, TC_CEV_SEND | TC_CEV_COLL);
	/* nxt[i]: the first stride node strictly after cev i on its rank, same partition */
	uint32_t *nxt = xmalloc((n + 1) * sizeof *nxt);
	for (uint32_t r = 0; r < t->nranks; r++) {
		uint32_t next = TC_NONE;
		for (uint32_t i = s->rank_first[r + 1]; i-- > s->rank_first[r];) {
			if (next != TC_NONE && b->pid[next] != b->pid[i]) next = TC_NONE;
			nxt[i] = next;
			if (g.node[i] != TC_NONE) next = i;
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		if (pass) cg_next_pass(&g);
		for (uint32_t i = 0; i < n; i++) {
			if (g.node[i] == TC_NONE) continue;
			if (nxt[i] != TC_NONE) cg_edge(&g, i, nxt[i]);
			const struct tc_cev *e = &s->cevs[i];
			for (uint32_t k = 0; k < e->nops; k++) {
				const struct tc_op *op = &t->ranks[e->rank].ops[e->op + k];
				const uint32_t *ms = tc_op_sends(t, e->rank, op);
				for (uint32_t j = 0; j < op->nsend; j++) {
					uint32_t rc = s->msg_recv_cev[ms[j]];
					if (rc != TC_NONE && b->pid[rc] == b->pid[i] && nxt[rc] != TC_NONE)
						cg_edge(&g, i, nxt[rc]);
				}
			}
		}
	}
	uint32_t *stride = cg_levels(&g);

	/* bucket the stride cevs by (partition, stride) */
	uint32_t np = b->np;
	uint32_t *pms = xcalloc((size_t)np + 1, sizeof *pms);
	for (uint32_t i = 0; i < n; i++)
		if (g.node[i] != TC_NONE) pms[b->pid[i]] = TC_MAX(pms[b->pid[i]], stride[g.node[i]]);
	size_t *base = xmalloc(((size_t)np + 1) * sizeof *base);
	size_t nb = 0;
	for (uint32_t p = 0; p < np; p++) { base[p] = nb; nb += (size_t)pms[p] + 1; }
	uint32_t *boff = xcalloc(nb + 2, sizeof *boff);
	for (uint32_t i = 0; i < n; i++)
		if (g.node[i] != TC_NONE) boff[base[b->pid[i]] + stride[g.node[i]] + 2]++;
	for (size_t k = 0; k < nb; k++) boff[k + 2] += boff[k + 1];
	uint32_t *bucket = xmalloc(((size_t)boff[nb + 1] + 1) * sizeof *bucket);
	for (uint32_t i = 0; i < n; i++)
		if (g.node[i] != TC_NONE) bucket[boff[base[b->pid[i]] + stride[g.node[i]] + 1]++] = i;

	for (size_t i = 0; i < n; i++) b->lstep[i] = -1;
	for (uint32_t p = 0; p < np; p++) {
		int64_t ms = -1;
		for (uint32_t k = 0; k <= pms[p]; k++) {
			size_t bk = base[p] + k;
			for (uint32_t x = boff[bk]; x < boff[bk + 1]; x++) {
				uint32_t i = bucket[x], j = i, pv;
				while (same_part_prev(b, j, &pv) && g.node[pv] == TC_NONE && b->lstep[pv] < 0) j = pv;
				for (; j < i; j++) {
					place_recv(b, j);
					ms = TC_MAX(ms, b->lstep[j]);
				}
			}
			for (uint32_t x = boff[bk]; x < boff[bk + 1]; x++) b->lstep[bucket[x]] = ms + 1;
			if (boff[bk + 1] > boff[bk]) ms++;
		}
		b->pmax[p] = ms;
	}
	/* trailing receives (after the last stride node of their rank in the partition) */
	for (uint32_t i = 0; i < n; i++)
		if (b->lstep[i] < 0) {
			place_recv(b, i);
			b->pmax[b->pid[i]] = TC_MAX(b->pmax[b->pid[i]], b->lstep[i]);
		}
	free(nxt); free(stride); free(pms); free(base); free(boff); free(bucket);
	cg_free(&g);
}

/* §2.6 (d), simplified: Lamport clocks in each partition; the parts of a
 * collective share one step (the largest of their bounds). */
static void step_lamport(struct steps_build *b)
{
	const struct tc_steps *s = b->s;
	size_t n = s->ncevs;
	struct cgraph g;
	cg_nodes(&g, b, 0);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) cg_next_pass(&g);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t pv;
			if (same_part_prev(b, i, &pv)) cg_edge(&g, pv, i);
		}
		for (size_t m = 0; m < b->t->nmsgs; m++) {
			uint32_t a = s->msg_send_cev[m], c = s->msg_recv_cev[m];
			if (a != TC_NONE && c != TC_NONE && b->pid[a] == b->pid[c]) cg_edge(&g, a, c);
		}
	}
	uint32_t *lvl = cg_levels(&g);
	for (uint32_t p = 0; p < b->np; p++) b->pmax[p] = -1;
	for (size_t i = 0; i < n; i++) {
		b->lstep[i] = lvl[g.node[i]];
		b->pmax[b->pid[i]] = TC_MAX(b->pmax[b->pid[i]], b->lstep[i]);
	}
	free(lvl);
	cg_free(&g);
}

/* Guarantee strictly increasing steps along each rank inside a partition (a
 * no-op unless a cycle had to be broken in a stride or Lamport graph). */
static void fix_monotone(struct steps_build *b)
{
	for (uint32_t i = 0; i < b->s->ncevs; i++) {
		uint32_t pv;
		int64_t lo = same_part_prev(b, i, &pv) ? b->lstep[pv] + 1 : 0;
		if (b->lstep[i] < lo) b->lstep[i] = lo;
		b->pmax[b->pid[i]] = TC_MAX(b->pmax[b->pid[i]], b->lstep[i]);
	}
}

/* --- global steps and the final partition order (§2.7) --------------------------- */
struct porder { uint32_t first_step, first_cev, p; };

static int porder_cmp(const void *a, const void *c)
{
	const struct porder *x = a, *y = c;
	if (x->first_step != y->first_step) return x->first_step < y->first_step ? -1 : 1;
	return x->first_cev < y->first_cev ? -1 : x->first_cev > y->first_cev;
}

void steps_order(uint32_t np, const uint32_t *poff, const uint32_t *padj, const int64_t *pmax, const uint32_t *first_cev,
		 uint64_t *acc, uint32_t *leap, uint32_t *rank_of)
{
	uint32_t *order = xmalloc(((size_t)np + 1) * sizeof *order);
	memset(acc, 0, (size_t)np * sizeof *acc);
	memset(leap, 0, (size_t)np * sizeof *leap);
	steps_topo_order(np, poff, padj, NULL, order);
	for (uint32_t i = 0; i < np; i++) {
		uint32_t p = order[i];
		uint64_t last = acc[p] + 2 * (uint64_t)(pmax[p] > 0 ? pmax[p] : 0);
		for (uint32_t e = poff[p]; e < poff[p + 1]; e++) {
			uint32_t c = padj[e];
			if (acc[c] < last + 2) acc[c] = last + 2;
			if (leap[c] < leap[p] + 1) leap[c] = leap[p] + 1;
		}
	}
	struct porder *po = xmalloc(((size_t)np + 1) * sizeof *po);
	for (uint32_t p = 0; p < np; p++) po[p] = (struct porder){ (uint32_t)acc[p], first_cev[p], p };
	qsort(po, np, sizeof *po, porder_cmp);
	for (uint32_t k = 0; k < np; k++) rank_of[po[k].p] = k;
	free(order);
	free(po);
}

struct tc_partition steps_part_span(uint64_t acc, int64_t pmax, uint32_t leap)
{
	return (struct tc_partition){ .first_step = (uint32_t)acc,
				      .last_step = (uint32_t)(acc + 2 * (uint64_t)(pmax > 0 ? pmax : 0)),
				      .enter = UINT64_MAX, .leap = leap };
}

static void global_steps(struct steps_build *b)
{
	struct tc_steps *s = b->s;
	uint32_t np = b->np;
	uint64_t *acc = xcalloc((size_t)np + 1, sizeof *acc);
	uint32_t *leap = xcalloc((size_t)np + 1, sizeof *leap), *first = xmalloc(((size_t)np + 1) * sizeof *first);
	uint32_t *rank_of = xmalloc(((size_t)np + 1) * sizeof *rank_of);
	for (size_t i = s->ncevs; i-- > 0;) first[b->pid[i]] = (uint32_t)i;
	steps_order(np, b->poff, b->padj, b->pmax, first, acc, leap, rank_of);
	s->npartitions = np;
	s->parts = xcalloc((size_t)np + 1, sizeof *s->parts);
	for (uint32_t p = 0; p < np; p++) s->parts[rank_of[p]] = steps_part_span(acc[p], b->pmax[p], leap[p]);
	s->max_step = 0;
	for (uint32_t i = 0; i < s->ncevs; i++) {
		struct tc_cev *e = &s->cevs[i];
		uint32_t p = b->pid[i];
		e->partition = rank_of[p];
		e->step = (uint32_t)(2 * b->lstep[i] + (int64_t)acc[p]);
		struct tc_partition *P = &s->parts[e->partition];
		P->ncevs++;
		uint32_t pv = steps_prev(s, i);
		if (pv == TC_NONE || b->pid[pv] != p) P->nranks++;
		P->enter = TC_MIN(P->enter, tc_cev_enter(s, i));
		P->leave = TC_MAX(P->leave, tc_cev_leave(s, i));
		s->max_step = TC_MAX(s->max_step, e->step);
	}
	free(acc); free(leap); free(first); free(rank_of);
}

const char *tc_step_label(int64_t step, char *buf, size_t n)
{
	if (step < 0) snprintf(buf, n, "init");
	else snprintf(buf, n, "%lld", (long long)step);
	return buf;
}

struct tc_steps *tc_steps_compute(const struct tc_trace *t, const struct tc_steps_opts *o)
{
	return tc_steps_compute_msgs(t, o, NULL);
}

struct tc_steps *tc_steps_compute_msgs(const struct tc_trace *t, const struct tc_steps_opts *o,
				       const struct tc_step_msg *mx)
{
	struct tc_steps_opts def;
	if (!o) {
		tc_steps_default_opts(&def);
		o = &def;
	}
	struct tc_steps *s = xcalloc(1, sizeof *s);
	s->opts = *o;
	s->t = t;
	struct steps_build b = { .t = t, .o = &s->opts, .s = s, .mx = mx };
	build_cevs(&b);
	steps_read_times(s);   /* the passes below read the times many times: once from the model */
	steps_partition(&b);
	b.lstep = xmalloc((s->ncevs + 1) * sizeof *b.lstep);
	b.pmax = xmalloc(((size_t)b.np + 1) * sizeof *b.pmax);
	if (o->lamport) step_lamport(&b);
	else step_strides(&b);
	fix_monotone(&b);
	global_steps(&b);
	steps_metrics(s, mx);
	free(s->times);   /* from now on read from the model: the steps keep 40 bytes per cev */
	s->times = NULL;
	free(b.op_base); free(b.op2cev); free(b.pid); free(b.poff); free(b.padj);
	free(b.lstep); free(b.pmax);
	return s;
}

void tc_steps_free(struct tc_steps *s)
{
	if (!s) return;
	if (s->mapped) {
		free(s);
		return;
	}
	free(s->cevs);
	free(s->rank_first);
	free(s->parts);
	free(s->steps);
	free(s->slots);
	free(s->wide);
	free(s->times);
	free(s->given);
	free(s->msg_send_cev);
	free(s->msg_recv_cev);
	free(s);
}

/* --- a cev's times and metrics ----------------------------------------------------- */
/* The first of cev e's calls; NULL when its op is not in the model. */
static const struct tc_call *cev_call(const struct tc_steps *s, const struct tc_cev *e)
{
	const struct tc_rank *R = &s->t->ranks[e->rank];
	return e->op < R->nops ? &R->calls[R->ops[e->op].call] : NULL;
}

uint64_t tc_cev_enter(const struct tc_steps *s, uint32_t i)
{
	if (s->times) return s->times[i].enter;
	const struct tc_call *c = cev_call(s, &s->cevs[i]);
	return c ? c->enter : 0;
}

/* Cev i's latest leave, read from the model. */
static uint64_t model_leave(const struct tc_steps *s, uint32_t i)
{
	const struct tc_cev *e = &s->cevs[i];
	const struct tc_call *c = cev_call(s, e);
	return c ? steps_calls_leave(c, e->nops) : 0;
}

uint64_t tc_cev_leave(const struct tc_steps *s, uint32_t i)
{
	return s->times ? s->times[i].leave : model_leave(s, i);
}

uint64_t tc_cev_agg_start(const struct tc_steps *s, uint32_t i)
{
	if (s->times) return s->times[i].agg_start;
	uint64_t enter = tc_cev_enter(s, i);
	uint32_t pv = steps_prev(s, i);
	return steps_block_start(enter, pv != TC_NONE ? model_leave(s, pv) : enter);
}

void steps_times(const struct tc_steps *s, uint32_t i, struct tc_cev_times *x)
{
	if (s->times) {
		*x = s->times[i];
		return;
	}
	x->enter = tc_cev_enter(s, i);
	x->leave = model_leave(s, i);
	x->agg_start = tc_cev_agg_start(s, i);
}

void steps_read_times(struct tc_steps *s)
{
	struct tc_cev_times *tm = xmalloc((s->ncevs + 1) * sizeof *tm);
	for (uint32_t i = 0; i < s->ncevs; i++) {
		tm[i].enter = tc_cev_enter(s, i);
		tm[i].leave = model_leave(s, i);
		tm[i].agg_start = steps_block_start(tm[i].enter, steps_prev(s, i) != TC_NONE ? tm[i - 1].leave : tm[i].enter);
	}
	s->times = tm;
}

static double given_metric(const struct tc_cev_given *g, enum tc_metric m, bool agg)
{
	switch (m) {
	case TC_M_LATENESS: return agg ? g->lateness_agg : g->lateness;
	case TC_M_GLATENESS: return agg ? g->glateness_agg : g->glateness;
	case TC_M_DURATION: return agg ? g->duration_agg : g->duration;
	default: return 0;
	}
}

/* The tick count whose tc_dur is d exactly, if there is one below 2^31;
 * else TC_CEV_WIDE.  d * res rounded is it when there is one, give or take
 * one tick (the product is rounded too). */
static uint32_t dlate_ticks(const struct tc_trace *t, double d)
{
	if (d == 0 && !signbit(d)) return 0;
	if (!(d > 0 && d * (double)t->res < (double)TC_CEV_WIDE)) return TC_CEV_WIDE;
	uint64_t k = (uint64_t)llround(d * (double)t->res);
	for (uint64_t c = k ? k - 1 : 0; c <= k + 1 && c < TC_CEV_WIDE; c++)
		if (tc_dur(t, c) == d) return (uint32_t)c;
	return TC_CEV_WIDE;
}

void tc_cev_set_dlateness(struct tc_steps *s, uint32_t i, double d)
{
	uint32_t code = dlate_ticks(s->t, d);
	if (code == TC_CEV_WIDE) {
		if (!(s->nwide & (s->nwide - 1)))   /* 0, 1, 2, 4, ...: full */
			s->wide = xreallocarray(s->wide, s->nwide ? 2 * s->nwide : 1, sizeof *s->wide);
		s->wide[s->nwide] = d;
		code = TC_CEV_WIDE | (uint32_t)s->nwide++;
	}
	s->cevs[i].dlate = code;
}

static double cev_dlateness(const struct tc_steps *s, const struct tc_cev *e)
{
	if (!(e->dlate & TC_CEV_WIDE)) return e->dlate ? tc_dur(s->t, e->dlate) : 0;
	uint32_t k = e->dlate & ~TC_CEV_WIDE;
	return k < s->nwide ? s->wide[k] : 0;
}

/* Each metric is the difference of a time (or a length) of the block to the
 * least one among its peers, computed here as lateness.c computed it for the
 * baselines (the same uint64 difference and tc_dur: the same double). */
double steps_metric_at(const struct tc_steps *s, uint32_t i, const struct tc_cev_times *x, enum tc_metric m, bool agg)
{
	const struct tc_cev *e = &s->cevs[i];
	if (m == TC_M_DLATENESS) return agg ? e->dlateness_agg : cev_dlateness(s, e);
	if (s->given) return given_metric(&s->given[i], m, agg);
	const struct tc_slot *S = &s->slots[tc_cev_slot(s, i)];
	const struct tc_step_sum *G = &s->steps[e->step];
	uint64_t d;
	switch (m) {
	case TC_M_LATENESS: d = agg ? x->enter - S->enter : x->leave - S->leave; break;
	case TC_M_GLATENESS: d = agg ? x->enter - G->enter_min : x->leave - G->leave_min; break;
	case TC_M_DURATION: d = agg ? (x->enter - x->agg_start) - S->agg : (x->leave - x->enter) - S->dur; break;
	default: return 0;
	}
	return tc_dur(s->t, d);
}

double tc_cev_metric(const struct tc_steps *s, uint32_t i, enum tc_metric m, bool agg)
{
	if (m == TC_M_DLATENESS || s->given) return steps_metric_at(s, i, NULL, m, agg);
	struct tc_cev_times x = { 0 };   /* only the times this metric reads */
	if (agg || m == TC_M_DURATION) x.enter = tc_cev_enter(s, i);
	if (!agg) x.leave = tc_cev_leave(s, i);
	else if (m == TC_M_DURATION) x.agg_start = tc_cev_agg_start(s, i);
	return steps_metric_at(s, i, &x, m, agg);
}

uint32_t tc_steps_find(const struct tc_steps *s, uint32_t rank, uint32_t step)
{
	if (!s || rank >= s->t->nranks) return TC_NONE;
	uint32_t lo = s->rank_first[rank], hi = s->rank_first[rank + 1];
	while (lo < hi) {   /* first cev with step >= the asked one */
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->cevs[mid].step < step) lo = mid + 1;
		else hi = mid;
	}
	if (lo < s->rank_first[rank + 1]) {
		uint32_t st = s->cevs[lo].step;
		if (st == step || (step != UINT32_MAX && st == step + 1)) return lo;
	}
	return TC_NONE;
}

uint32_t tc_steps_cev_of_call(const struct tc_steps *s, uint32_t rank, uint32_t call)
{
	if (!s || rank >= s->t->nranks || call >= s->t->ranks[rank].ncalls) return TC_NONE;
	uint32_t op = s->t->ranks[rank].calls[call].op;
	if (op == TC_NONE) return TC_NONE;
	uint32_t lo = s->rank_first[rank], hi = s->rank_first[rank + 1];
	while (lo < hi) {   /* first cev whose first op is > op */
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->cevs[mid].op <= op) lo = mid + 1;
		else hi = mid;
	}
	if (lo == s->rank_first[rank]) return TC_NONE;
	const struct tc_cev *e = &s->cevs[lo - 1];
	return op < e->op + e->nops ? lo - 1 : TC_NONE;
}

struct tc_steps *steps_local(const struct tc_trace *t, const struct tc_steps_opts *o, const struct tc_step_msg *mx,
			     uint32_t *pid, size_t npid, uint32_t np, const uint64_t *prev_leave, int64_t **lstep,
			     int64_t **pmax)
{
	struct tc_steps *s = xcalloc(1, sizeof *s);
	s->opts = *o;
	s->t = t;
	struct steps_build b = { .t = t, .o = &s->opts, .s = s, .mx = mx, .pid = pid, .np = np };
	build_cevs(&b);
	free(b.op_base), free(b.op2cev);
	if (npid != s->ncevs) {   /* never: the owner got whole cevs */
		free(pid);
		tc_steps_free(s);
		return NULL;
	}
	steps_read_times(s);
	for (size_t i = 0; i < s->ncevs; i++) {
		struct tc_cev_times *x = &s->times[i];
		x->agg_start = steps_block_start(x->enter, prev_leave[i] != UINT64_MAX ? prev_leave[i] : x->enter);
	}
	b.lstep = xmalloc((s->ncevs + 1) * sizeof *b.lstep);
	b.pmax = xmalloc(((size_t)np + 1) * sizeof *b.pmax);
	if (o->lamport) step_lamport(&b);
	else step_strides(&b);
	fix_monotone(&b);
	free(pid);
	*lstep = b.lstep;
	*pmax = b.pmax;
	return s;
}
