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
void steps_uf_init(struct steps_uf *u, size_t n)
{
	u->p = xmalloc((n + 1) * sizeof *u->p);
	u->sz = xmalloc((n + 1) * sizeof *u->sz);
	for (size_t i = 0; i < n; i++) { u->p[i] = (uint32_t)i; u->sz[i] = 1; }
}

void steps_uf_free(struct steps_uf *u)
{
	free(u->p);
	free(u->sz);
	u->p = u->sz = NULL;
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

static void pgraph_build(struct steps_uf *u, const struct tc_steps *s, struct pgraph *g, uint32_t *root_id)
{
	size_t n = s->ncevs;
	pgraph_free(g);
	for (size_t i = 0; i < n; i++) root_id[i] = TC_NONE;
	uint32_t np = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t r = steps_uf_find(u, (uint32_t)i);
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
		uint64_t enter = tc_cev_enter(s, (uint32_t)i), pl = tc_cev_leave(s, pv);
		g->gap[k] = enter > pl ? enter - pl : 0;
	}
}

/* Iterative Tarjan (steps_internal.h). */
bool steps_merge_cycles(struct steps_uf *u, const struct steps_cgraph *g)
{
	uint32_t np = g->n;
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
						steps_uf_union(u, g->first[w], g->first[v]);
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
static void build_dag(struct steps_uf *u, const struct tc_steps *s, struct pgraph *g, uint32_t *scratch,
		      uint32_t *first_cev)
{
	for (int pass = 0;; pass++) {
		pgraph_build(u, s, g, scratch);
		for (size_t i = s->ncevs; i-- > 0;) first_cev[g->pid[i]] = (uint32_t)i;
		struct steps_cgraph cg = { g->np, g->off, g->adj, first_cev };
		if (pass == 4 || !steps_merge_cycles(u, &cg)) return;
	}
}

/* E. "true Waitall" groups (§1.8 E) of one rank (steps_internal.h). */
void steps_waitall_rank(struct steps_uf *u, uint32_t base, const struct tc_trace *t, uint32_t r,
			const struct tc_cev *cev, uint32_t n, const struct tc_cev_times *tm, steps_msg_fn msg,
			const void *mctx)
{
	const struct tc_rank *R = &t->ranks[r];
	uint64_t max_complete = 0;
	uint32_t group = TC_NONE;
	for (uint32_t i = 0; i < n; i++) {
		const struct tc_cev *e = &cev[i];
		uint64_t leave = tm[i].leave;
		if (group != TC_NONE) {
			bool closes = tm[i].enter > max_complete || ((e->flags & TC_CEV_RECV) && leave >= max_complete);
			if (closes) {
				group = TC_NONE;
				max_complete = 0;
			} else {
				steps_uf_union(u, base + group, base + i);
			}
		}
		for (uint32_t k = 0; k < e->nops; k++) {
			const struct tc_op *op = &R->ops[e->op + k];
			const uint32_t *ms = tc_op_sends(t, r, op);
			for (uint32_t j = 0; j < op->nsend; j++) {
				struct tc_step_msg m = msg(mctx, ms[j]);
				if (!(m.flags & TC_MSG_NB_SEND) || m.send_done <= leave) continue;
				if (group == TC_NONE) group = i;
				if (m.send_done > max_complete) max_complete = m.send_done;
			}
		}
	}
}

struct msg_src { const struct tc_trace *t; const struct tc_step_msg *mx; };

static struct tc_step_msg serial_msg(const void *ctx, uint32_t id)
{
	const struct msg_src *m = ctx;
	return steps_msg(m->t, m->mx, id);
}

static void merge_waitall(struct steps_uf *u, const struct tc_trace *t, const struct tc_steps *s,
			  const struct tc_step_msg *mx)
{
	struct msg_src ms = { t, mx };
	for (uint32_t r = 0; r < t->nranks; r++) {
		uint32_t f = s->rank_first[r];
		steps_waitall_rank(u, f, t, r, s->cevs + f, s->rank_first[r + 1] - f, s->times + f, serial_msg, &ms);
	}
}

/* F. Caller merge (§1.8 F).  comms(f) = max over non-communicating calls of f
 * of the comm events below them (a collective counts 2); LMFC(e) = nearest
 * ancestor-or-self call whose function has comms > 1.  Neighbouring cevs of a
 * rank with the same LMFC instance are merged. */
static void merge_callers(struct steps_uf *u, const struct tc_trace *t, const struct tc_steps *s)
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
				if (a != TC_NONE && a == b) steps_uf_union(u, i - 1, i);
			}
		}
	}
	free(below);
	free(fcomms);
}

/* Both ends of every message; all parts of every collective. */
static void merge_messages(struct steps_uf *u, const struct tc_trace *t, const struct steps_build *b)
{
	const struct tc_steps *s = b->s;
	for (size_t m = 0; m < t->nmsgs; m++)
		if (s->msg_send_cev[m] != TC_NONE && s->msg_recv_cev[m] != TC_NONE)
			steps_uf_union(u, s->msg_send_cev[m], s->msg_recv_cev[m]);
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
			else steps_uf_union(u, first, e);
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
/* What one round reads: the partitions' leaps, their ranks, their parents
 * (reverse CSR with gaps) and the partitions by leap. */
struct leaps {
	const struct pgraph *g;
	struct steps_uf *u;
	const uint32_t *first_cev;
	uint32_t *leap, maxleap;
	uint32_t *roff, *rk;          /* ranks of partition p: rk[roff[p] .. roff[p+1]) */
	uint32_t *ioff, *isrc;        /* parents of p: isrc[ioff[p] .. ioff[p+1]), gaps igap */
	uint64_t *igap;
	uint32_t *loff, *lp;          /* partitions of leap k: lp[loff[k] .. loff[k+1]) */
	uint32_t active;              /* ranks with at least one cev */
	uint32_t *mark;               /* rank → the leap that counted it last */
	uint8_t *touched;             /* partition took part in a merge this round */
};

static void leap_levels(struct leaps *L)
{
	const struct pgraph *g = L->g;
	uint32_t np = g->np;
	uint32_t *order = xmalloc(((size_t)np + 1) * sizeof *order);
	L->leap = xcalloc((size_t)np + 1, sizeof *L->leap);
	steps_topo_order(np, g->off, g->adj, NULL, order);
	L->maxleap = 0;
	for (uint32_t i = 0; i < np; i++) {
		uint32_t p = order[i];
		L->maxleap = TC_MAX(L->maxleap, L->leap[p]);
		for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++)
			if (L->leap[g->adj[e]] < L->leap[p] + 1) L->leap[g->adj[e]] = L->leap[p] + 1;
	}
	free(order);
	/* partitions by leap */
	L->loff = xcalloc((size_t)L->maxleap + 3, sizeof *L->loff);
	for (uint32_t p = 0; p < np; p++) L->loff[L->leap[p] + 2]++;
	for (uint32_t k = 0; k <= L->maxleap; k++) L->loff[k + 2] += L->loff[k + 1];
	L->lp = xmalloc(((size_t)np + 1) * sizeof *L->lp);
	for (uint32_t p = 0; p < np; p++) L->lp[L->loff[L->leap[p] + 1]++] = p;
}

/* Ranks of each partition: runs of cevs (contiguous per rank after cycle merge). */
static void partition_ranks(struct leaps *L, const struct tc_steps *s)
{
	const struct pgraph *g = L->g;
	uint32_t np = g->np;
	L->roff = xcalloc((size_t)np + 2, sizeof *L->roff);
	for (size_t i = 0; i < s->ncevs; i++) {
		uint32_t pv = steps_prev(s, (uint32_t)i);
		if (pv == TC_NONE || g->pid[pv] != g->pid[i]) L->roff[g->pid[i] + 2]++;
	}
	for (uint32_t p = 0; p < np; p++) L->roff[p + 2] += L->roff[p + 1];
	L->rk = xmalloc((L->roff[np + 1] + 1) * sizeof *L->rk);
	for (size_t i = 0; i < s->ncevs; i++) {
		uint32_t pv = steps_prev(s, (uint32_t)i);
		if (pv == TC_NONE || g->pid[pv] != g->pid[i]) L->rk[L->roff[g->pid[i] + 1]++] = s->cevs[i].rank;
	}
	uint32_t nranks = s->t->nranks;
	L->active = 0;
	for (uint32_t r = 0; r < nranks; r++) L->active += s->rank_first[r + 1] > s->rank_first[r];
	L->mark = xmalloc(((size_t)nranks + 1) * sizeof *L->mark);
	for (uint32_t r = 0; r < nranks; r++) L->mark[r] = TC_NONE;
}

/* Parents with their gaps: the reverse CSR of g. */
static void parents(struct leaps *L)
{
	const struct pgraph *g = L->g;
	uint32_t np = g->np, ne = g->off[np];
	L->ioff = xcalloc((size_t)np + 2, sizeof *L->ioff);
	for (uint32_t e = 0; e < ne; e++) L->ioff[g->adj[e] + 2]++;
	for (uint32_t p = 0; p < np; p++) L->ioff[p + 2] += L->ioff[p + 1];
	L->isrc = xmalloc((ne + 1) * sizeof *L->isrc);
	L->igap = xmalloc((ne + 1) * sizeof *L->igap);
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++) {
			uint32_t k = L->ioff[g->adj[e] + 1]++;
			L->isrc[k] = p;
			L->igap[k] = g->gap[e];
		}
}

static bool join(struct leaps *L, uint32_t p, uint32_t q)
{
	if (!steps_uf_union(L->u, L->first_cev[p], L->first_cev[q])) return false;
	L->touched[p] = L->touched[q] = 1;
	return true;
}

/* Partition p of leap k: merged backwards with its parents when they are more
 * than 10× closer in time than its children, else with the children that add
 * ranks.  Sets *any_child when p has a child at the next leap. */
static bool merge_one(struct leaps *L, uint32_t p, uint32_t k, bool *any_child)
{
	const struct pgraph *g = L->g;
	bool merged = false;
	uint64_t pd = UINT64_MAX, cd = UINT64_MAX;
	for (uint32_t e = L->ioff[p]; e < L->ioff[p + 1]; e++)
		if (L->leap[L->isrc[e]] + 1 == k && L->igap[e] < pd) pd = L->igap[e];
	for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++)
		if (L->leap[g->adj[e]] == k + 1) {
			*any_child = true;
			if (g->gap[e] < cd) cd = g->gap[e];
		}
	if (pd != UINT64_MAX && (cd == UINT64_MAX || cd / 10 > pd)) {
		for (uint32_t e = L->ioff[p]; e < L->ioff[p + 1]; e++)
			if (L->leap[L->isrc[e]] + 1 == k) merged |= join(L, p, L->isrc[e]);
		return merged;
	}
	for (uint32_t e = g->off[p]; e < g->off[p + 1]; e++) {
		uint32_t c = g->adj[e];
		if (L->leap[c] != k + 1) continue;
		bool adds = false;
		for (uint32_t j = L->roff[c]; j < L->roff[c + 1]; j++)
			if (L->mark[L->rk[j]] != k) { L->mark[L->rk[j]] = k; adds = true; }
		if (adds) merged |= join(L, p, c);
	}
	return merged;
}

/* Leap k: nothing when its partitions cover every active rank or one of them
 * was touched this round (its leaps are stale until the DAG is rebuilt); else
 * every partition merges (merge_one), or, when none did, the whole next leap
 * reachable from here is absorbed.  Returns whether it merged. */
static bool merge_leap(struct leaps *L, uint32_t k)
{
	const struct pgraph *g = L->g;
	uint32_t have = 0;
	bool stale = false;
	for (uint32_t i = L->loff[k]; i < L->loff[k + 1]; i++) {
		stale |= L->touched[L->lp[i]];
		for (uint32_t j = L->roff[L->lp[i]]; j < L->roff[L->lp[i] + 1]; j++)
			if (L->mark[L->rk[j]] != k) { L->mark[L->rk[j]] = k; have++; }
	}
	if (have >= L->active || stale) return false;
	bool any_child = false, merged = false;
	for (uint32_t i = L->loff[k]; i < L->loff[k + 1]; i++) merged |= merge_one(L, L->lp[i], k, &any_child);
	if (!merged && any_child) /* force: absorb the next leap reachable from here */
		for (uint32_t i = L->loff[k]; i < L->loff[k + 1]; i++)
			for (uint32_t e = g->off[L->lp[i]]; e < g->off[L->lp[i] + 1]; e++)
				if (L->leap[g->adj[e]] == k + 1) merged |= join(L, L->lp[i], g->adj[e]);
	return merged;
}

/* One round on a DAG g: every leap ≥ *kstart whose partitions do not cover
 * every active rank merges (merge_leap), skipping leaps already changed in
 * this round.  Returns true when it merged (*kstart = the leap before the first
 * merge); the caller rebuilds the DAG and calls again.  Merging several leaps
 * per round keeps the number of rounds near log(partitions) on chains. */
static bool leap_round(struct steps_uf *u, const struct tc_steps *s, const struct pgraph *g, const uint32_t *first_cev,
		       uint32_t *kstart)
{
	struct leaps L = { .g = g, .u = u, .first_cev = first_cev };
	leap_levels(&L);
	partition_ranks(&L, s);
	parents(&L);
	L.touched = xcalloc((size_t)g->np + 1, 1);
	uint32_t first_merge = TC_NONE;
	for (uint32_t k = *kstart; k <= L.maxleap; k++)
		if (merge_leap(&L, k) && first_merge == TC_NONE) first_merge = k;
	*kstart = first_merge == TC_NONE ? L.maxleap + 1 : first_merge > 0 ? first_merge - 1 : 0;
	free(L.leap); free(L.roff); free(L.rk); free(L.ioff); free(L.isrc); free(L.igap);
	free(L.loff); free(L.lp); free(L.mark); free(L.touched);
	return first_merge != TC_NONE;
}

void steps_partition(struct steps_build *b)
{
	struct tc_steps *s = b->s;
	const struct tc_trace *t = b->t;
	size_t n = s->ncevs;
	struct steps_uf u;
	steps_uf_init(&u, n);
	if (b->o->waitall_merge) merge_waitall(&u, t, s, b->mx);
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
	steps_uf_free(&u);
	free(g.gap);
	b->pid = g.pid;
	b->np = g.np;
	b->poff = g.off;
	b->padj = g.adj;
}
