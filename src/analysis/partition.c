/* partition.c — phases of the logical structure (Ravel §1.8 A/E/F, §2.2–2.5).
 *
 * Every communication event starts alone; then, with a union-find over cevs:
 *  E. "true Waitall" merge: an Isend that completes after its call returns
 *     holds the following cevs of its rank until the one whose call contains
 *     the completion (a receive containing it is left out, as in Ravel);
 *  F. caller merge (option): neighbouring cevs of a rank under the same
 *     instance of a function that wraps > 1 comm event anywhere;
 *  -  message merge: both ends of every message, all parts of a collective;
 *  -  cycle merge: the partition graph (edge P → Q when a cev of P is followed
 *     on its rank by a cev of Q) is condensed with an iterative Tarjan, so
 *     every partition is a contiguous run of cevs on each of its ranks;
 *  -  "complete leaps" merge (option), followed by another cycle merge.
 * All stages are linear in cevs + messages + collective members, except the
 * leap merge, which rebuilds the graph once per round (see docs/logical-time.md). */
#include <stdlib.h>
#include <string.h>

#include "steps_internal.h"

/* --- union-find over cevs ------------------------------------------------------ */
struct uf { uint32_t *p, *sz; };

static uint32_t uf_find(struct uf *u, uint32_t x)
{
	while (u->p[x] != x) {
		u->p[x] = u->p[u->p[x]];
		x = u->p[x];
	}
	return x;
}

static bool uf_union(struct uf *u, uint32_t a, uint32_t b)
{
	a = uf_find(u, a);
	b = uf_find(u, b);
	if (a == b) return false;
	if (u->sz[a] < u->sz[b]) { uint32_t x = a; a = b; b = x; }
	u->p[b] = a;
	u->sz[a] += u->sz[b];
	return true;
}

/* --- partition graph ------------------------------------------------------------ */
struct pgraph {
	uint32_t np;
	uint32_t *pid;        /* cev → dense id (order of first cev) */
	uint32_t *off, *adj;  /* CSR successors, multi-edges kept */
	uint64_t *gap;        /* per edge: successor's enter − predecessor's leave on that rank */
};

static void pgraph_free(struct pgraph *g)
{
	free(g->off); free(g->adj); free(g->gap);
	g->off = g->adj = NULL;
	g->gap = NULL;
}

static void pgraph_build(struct uf *u, const struct tc_steps *s, struct pgraph *g, uint32_t *root_id)
{
	size_t n = s->ncevs;
	pgraph_free(g);
	for (size_t i = 0; i < n; i++) root_id[i] = TC_NONE;
	uint32_t np = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t r = uf_find(u, (uint32_t)i);
		if (root_id[r] == TC_NONE) root_id[r] = np++;
		g->pid[i] = root_id[r];
	}
	g->np = np;
	g->off = xcalloc((size_t)np + 2, sizeof *g->off);
	size_t ne = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t pv = steps_prev(s, (uint32_t)i);
		if (pv != TC_NONE && g->pid[pv] != g->pid[i]) { g->off[g->pid[pv] + 2]++; ne++; }
	}
	for (uint32_t p = 0; p < np; p++) g->off[p + 2] += g->off[p + 1];
	g->adj = xmalloc((ne ? ne : 1) * sizeof *g->adj);
	g->gap = xmalloc((ne ? ne : 1) * sizeof *g->gap);
	for (size_t i = 0; i < n; i++) {
		uint32_t pv = steps_prev(s, (uint32_t)i);
		if (pv == TC_NONE || g->pid[pv] == g->pid[i]) continue;
		uint32_t k = g->off[g->pid[pv] + 1]++;
		g->adj[k] = g->pid[i];
		g->gap[k] = s->cevs[i].enter > s->cevs[pv].leave ? s->cevs[i].enter - s->cevs[pv].leave : 0;
	}
}

/* Iterative Tarjan; merges every strongly connected component of > 1 partition.
 * Returns true when something was merged.  O(P + E). */
static bool merge_cycles(struct uf *u, const struct pgraph *g, const uint32_t *first_cev)
{
	uint32_t np = g->np;
	uint32_t *index = xmalloc(((size_t)np + 1) * sizeof *index);
	uint32_t *low = xmalloc(((size_t)np + 1) * sizeof *low);
	uint8_t *on = xcalloc((size_t)np + 1, 1);
	uint32_t *stack = xmalloc(((size_t)np + 1) * sizeof *stack);
	struct frame { uint32_t v, e; } *fr = xmalloc(((size_t)np + 1) * sizeof *fr);
	for (uint32_t v = 0; v < np; v++) index[v] = TC_NONE;
	uint32_t idx = 0, sp = 0;
	bool merged = false;
	for (uint32_t v0 = 0; v0 < np; v0++) {
		if (index[v0] != TC_NONE) continue;
		uint32_t fp = 0;
		fr[fp++] = (struct frame){ v0, g->off[v0] };
		index[v0] = low[v0] = idx++;
		stack[sp++] = v0;
		on[v0] = 1;
		while (fp) {
			struct frame *f = &fr[fp - 1];
			uint32_t v = f->v;
			if (f->e < g->off[v + 1]) {
				uint32_t w = g->adj[f->e++];
				if (index[w] == TC_NONE) {
					index[w] = low[w] = idx++;
					stack[sp++] = w;
					on[w] = 1;
					fr[fp++] = (struct frame){ w, g->off[w] };
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			fp--;
			if (low[v] == index[v]) {
				uint32_t w;
				do {
					w = stack[--sp];
					on[w] = 0;
					if (w != v) {
						uf_union(u, first_cev[w], first_cev[v]);
						merged = true;
					}
				} while (w != v);
			}
			if (fp) {
				uint32_t pu = fr[fp - 1].v;
				if (low[v] < low[pu]) low[pu] = low[v];
			}
		}
	}
	free(index); free(low); free(on); free(stack); free(fr);
	return merged;
}

/* Build the graph and condense its cycles until it is a DAG (one Tarjan pass
 * suffices: the condensation of a graph is acyclic; the loop is a guard). */
static void build_dag(struct uf *u, const struct tc_steps *s, struct pgraph *g, uint32_t *scratch,
		      uint32_t *first_cev)
{
	for (int pass = 0;; pass++) {
		pgraph_build(u, s, g, scratch);
		for (size_t i = s->ncevs; i-- > 0;) first_cev[g->pid[i]] = (uint32_t)i;
		if (pass == 4 || !merge_cycles(u, g, first_cev)) return;
	}
}

/* E. "true Waitall" groups (§1.8 E), per rank. */
static void merge_waitall(struct uf *u, const struct tc_trace *t, const struct tc_steps *s)
{
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		uint64_t max_complete = 0;
		uint32_t group = TC_NONE;
		for (uint32_t i = s->rank_first[r]; i < s->rank_first[r + 1]; i++) {
			const struct tc_cev *e = &s->cevs[i];
			if (group != TC_NONE) {
				bool closes = e->enter > max_complete ||
					      ((e->flags & TC_CEV_RECV) && e->leave >= max_complete);
				if (closes) {
					group = TC_NONE;
					max_complete = 0;
				} else {
					uf_union(u, group, i);
				}
			}
			for (uint32_t k = 0; k < e->nops; k++) {
				const struct tc_op *op = &R->ops[e->op + k];
				const uint32_t *ms = tc_op_sends(t, r, op);
				for (uint32_t j = 0; j < op->nsend; j++) {
					const struct tc_msg *m = &t->msgs[ms[j]];
					if (!(m->flags & TC_MSG_NB_SEND) || m->send_done <= e->leave) continue;
					if (group == TC_NONE) group = i;
					if (m->send_done > max_complete) max_complete = m->send_done;
				}
			}
		}
	}
}

/* F. Caller merge (§1.8 F).  comms(f) = max over non-communicating calls of f
 * of the comm events below them (a collective counts 2); LMFC(e) = nearest
 * ancestor-or-self call whose function has comms > 1.  Neighbouring cevs of a
 * rank with the same LMFC instance are merged. */
static void merge_callers(struct uf *u, const struct tc_trace *t, const struct tc_steps *s)
{
	uint32_t maxcalls = 0;
	for (uint32_t r = 0; r < t->nranks; r++) maxcalls = TC_MAX(maxcalls, t->ranks[r].ncalls);
	uint32_t *below = xmalloc(((size_t)maxcalls + 1) * sizeof *below);
	uint32_t *fcomms = xcalloc((size_t)t->nregions + 1, sizeof *fcomms);
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t r = 0; r < t->nranks; r++) {
			const struct tc_rank *R = &t->ranks[r];
			if (pass == 0) {
				memset(below, 0, (size_t)R->ncalls * sizeof *below);
				for (uint32_t i = s->rank_first[r]; i < s->rank_first[r + 1]; i++)
					below[R->ops[s->cevs[i].op].call] += (s->cevs[i].flags & TC_CEV_COLL) ? 2 : 1;
				for (uint32_t c = R->ncalls; c-- > 0;) {
					const struct tc_call *cl = &R->calls[c];
					if (cl->parent != TC_NONE && cl->parent < c) below[cl->parent] += below[c];
					if (cl->op == TC_NONE && cl->region < t->nregions && below[c] > fcomms[cl->region])
						fcomms[cl->region] = below[c];
				}
				continue;
			}
			/* pass 1: below[] now holds LMFC of each call (calls are in pre-order) */
			for (uint32_t c = 0; c < R->ncalls; c++) {
				const struct tc_call *cl = &R->calls[c];
				if (cl->region < t->nregions && fcomms[cl->region] > 1) below[c] = c;
				else below[c] = cl->parent != TC_NONE && cl->parent < c ? below[cl->parent] : TC_NONE;
			}
			for (uint32_t i = s->rank_first[r] + 1; i < s->rank_first[r + 1]; i++) {
				uint32_t a = below[R->ops[s->cevs[i - 1].op].call];
				uint32_t b = below[R->ops[s->cevs[i].op].call];
				if (a != TC_NONE && a == b) uf_union(u, i - 1, i);
			}
		}
	}
	free(below);
	free(fcomms);
}

/* Both ends of every message; all parts of every collective. */
static void merge_messages(struct uf *u, const struct tc_trace *t, const struct steps_build *b)
{
	const struct tc_steps *s = b->s;
	for (size_t m = 0; m < t->nmsgs; m++)
		if (s->msg_send_cev[m] != TC_NONE && s->msg_recv_cev[m] != TC_NONE)
			uf_union(u, s->msg_send_cev[m], s->msg_recv_cev[m]);
	for (size_t c = 0; c < t->ncolls; c++) {
		const struct tc_coll *co = &t->colls[c];
		uint32_t first = TC_NONE;
		for (uint32_t k = 0; k < co->n; k++) {
			const struct tc_coll_member *mb = &t->coll_members[co->first + k];
			uint32_t op = t->ranks[mb->rank].calls[mb->call].op;
			if (op == TC_NONE) continue;
			uint32_t e = b->op2cev[b->op_base[mb->rank] + op];
			if (e == TC_NONE) continue;
			if (first == TC_NONE) first = e;
			else uf_union(u, first, e);
		}
	}
}

/* --- "complete leaps" merge (§2.5) ------------------------------------------------ */
/* One round on a DAG g: every leap ≥ *kstart whose partitions do not cover
 * every active rank merges (backwards when the parents are more than 10×
 * closer in time than the children, else with the children that add ranks,
 * else with every child at the next leap), skipping leaps already changed in
 * this round.  Returns true when it merged (*kstart = the leap before the first
 * merge); the caller rebuilds the DAG and calls again.  Merging several leaps
 * per round keeps the number of rounds near log(partitions) on chains. */
static bool leap_round(struct uf *u, const struct tc_steps *s, const struct pgraph *g, const uint32_t *first_cev,
		       uint32_t *kstart)
{
	uint32_t np = g->np, nranks = s->t->nranks;
	uint32_t *order = xmalloc(((size_t)np + 1) * sizeof *order);
	uint32_t *leap = xcalloc((size_t)np + 1, sizeof *leap);
	steps_topo_order(np, g->off, g->adj, NULL, order);
	uint32_t maxleap = 0;
	for (uint32_t i = 0; i < np; i++) {
		uint32_t p = order[i];
		maxleap = TC_MAX(maxleap, leap[p]);
		for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++)
			if (leap[g->adj[e]] < leap[p] + 1) leap[g->adj[e]] = leap[p] + 1;
	}
	/* ranks of each partition: runs of cevs (contiguous per rank after cycle merge) */
	uint32_t *roff = xcalloc((size_t)np + 2, sizeof *roff);
	for (size_t i = 0; i < s->ncevs; i++) {
		uint32_t pv = steps_prev(s, (uint32_t)i);
		if (pv == TC_NONE || g->pid[pv] != g->pid[i]) roff[g->pid[i] + 2]++;
	}
	for (uint32_t p = 0; p < np; p++) roff[p + 2] += roff[p + 1];
	uint32_t *rk = xmalloc((roff[np + 1] + 1) * sizeof *rk);
	for (size_t i = 0; i < s->ncevs; i++) {
		uint32_t pv = steps_prev(s, (uint32_t)i);
		if (pv == TC_NONE || g->pid[pv] != g->pid[i]) rk[roff[g->pid[i] + 1]++] = s->cevs[i].rank;
	}
	/* parents with their gaps: reverse CSR */
	uint32_t *ioff = xcalloc((size_t)np + 2, sizeof *ioff);
	uint32_t ne = g->off[np];
	for (uint32_t e = 0; e < ne; e++) ioff[g->adj[e] + 2]++;
	for (uint32_t p = 0; p < np; p++) ioff[p + 2] += ioff[p + 1];
	uint32_t *isrc = xmalloc((ne + 1) * sizeof *isrc);
	uint64_t *igap = xmalloc((ne + 1) * sizeof *igap);
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++) {
			uint32_t k = ioff[g->adj[e] + 1]++;
			isrc[k] = p;
			igap[k] = g->gap[e];
		}
	/* partitions by leap */
	uint32_t *loff = xcalloc((size_t)maxleap + 3, sizeof *loff);
	for (uint32_t p = 0; p < np; p++) loff[leap[p] + 2]++;
	for (uint32_t k = 0; k <= maxleap; k++) loff[k + 2] += loff[k + 1];
	uint32_t *lp = xmalloc(((size_t)np + 1) * sizeof *lp);
	for (uint32_t p = 0; p < np; p++) lp[loff[leap[p] + 1]++] = p;
	/* active ranks */
	uint32_t active = 0;
	for (uint32_t r = 0; r < nranks; r++) active += s->rank_first[r + 1] > s->rank_first[r];
	uint32_t *mark = xmalloc(((size_t)nranks + 1) * sizeof *mark);
	for (uint32_t r = 0; r < nranks; r++) mark[r] = TC_NONE;

	/* touched[p]: p took part in a merge this round; a leap holding a touched
	 * partition waits for the next round (its leaps are stale until then) */
	uint8_t *touched = xcalloc((size_t)np + 1, 1);
	uint32_t first_merge = TC_NONE;
#define JOIN(p, q) do { if (uf_union(u, first_cev[p], first_cev[q])) { merged_here = true; touched[p] = touched[q] = 1; } } while (0)
	for (uint32_t k = *kstart; k <= maxleap; k++) {
		uint32_t have = 0;
		bool stale = false;
		for (uint32_t i = loff[k]; i < loff[k + 1]; i++) {
			stale |= touched[lp[i]];
			for (uint32_t j = roff[lp[i]]; j < roff[lp[i] + 1]; j++)
				if (mark[rk[j]] != k) { mark[rk[j]] = k; have++; }
		}
		if (have >= active || stale) continue;
		bool any_child = false, merged_here = false;
		for (uint32_t i = loff[k]; i < loff[k + 1]; i++) {
			uint32_t p = lp[i];
			uint64_t pd = UINT64_MAX, cd = UINT64_MAX;
			for (uint32_t e = ioff[p]; e < ioff[p + 1]; e++)
				if (leap[isrc[e]] + 1 == k && igap[e] < pd) pd = igap[e];
			for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++)
				if (leap[g->adj[e]] == k + 1) {
					any_child = true;
					if (g->gap[e] < cd) cd = g->gap[e];
				}
			if (pd != UINT64_MAX && (cd == UINT64_MAX || cd / 10 > pd)) {
				for (uint32_t e = ioff[p]; e < ioff[p + 1]; e++)
					if (leap[isrc[e]] + 1 == k) JOIN(p, isrc[e]);
				continue;
			}
			for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++) {
				uint32_t c = g->adj[e];
				if (leap[c] != k + 1) continue;
				bool adds = false;
				for (uint32_t j = roff[c]; j < roff[c + 1]; j++)
					if (mark[rk[j]] != k) { mark[rk[j]] = k; adds = true; }
				if (adds) JOIN(p, c);
			}
		}
		if (!merged_here && any_child) /* force: absorb the next leap reachable from here */
			for (uint32_t i = loff[k]; i < loff[k + 1]; i++)
				for (uint32_t e = g->off[lp[i]]; e < g->off[lp[i] + 1]; e++)
					if (leap[g->adj[e]] == k + 1) JOIN(lp[i], g->adj[e]);
		if (merged_here && first_merge == TC_NONE) first_merge = k;
	}
#undef JOIN
	*kstart = first_merge == TC_NONE ? maxleap + 1 : first_merge > 0 ? first_merge - 1 : 0;
	free(order); free(leap); free(roff); free(rk); free(ioff); free(isrc); free(igap);
	free(loff); free(lp); free(mark); free(touched);
	return first_merge != TC_NONE;
}

void steps_partition(struct steps_build *b)
{
	struct tc_steps *s = b->s;
	const struct tc_trace *t = b->t;
	size_t n = s->ncevs;
	struct uf u = { xmalloc((n + 1) * sizeof *u.p), xmalloc((n + 1) * sizeof *u.sz) };
	for (size_t i = 0; i < n; i++) { u.p[i] = (uint32_t)i; u.sz[i] = 1; }
	if (b->o->waitall_merge) merge_waitall(&u, t, s);
	if (b->o->caller_merge) merge_callers(&u, t, s);
	merge_messages(&u, t, b);

	struct pgraph g = { 0 };
	g.pid = xmalloc((n + 1) * sizeof *g.pid);
	uint32_t *scratch = xmalloc((n + 1) * sizeof *scratch);
	uint32_t *first_cev = xmalloc((n + 1) * sizeof *first_cev);
	build_dag(&u, s, &g, scratch, first_cev);
	if (b->o->leap_merge) {
		uint32_t kstart = 0;
		while (leap_round(&u, s, &g, first_cev, &kstart)) build_dag(&u, s, &g, scratch, first_cev);
	}
	free(scratch);
	free(first_cev);
	free(u.p);
	free(u.sz);
	free(g.gap);
	b->pid = g.pid;
	b->np = g.np;
	b->poff = g.off;
	b->padj = g.adj;
}
