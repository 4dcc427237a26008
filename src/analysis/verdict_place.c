/* verdict_place.c — background in one place: a slow node or link
 * (docs/verdicts.md, "A slow node or link").
 *
 * verdict_background claims the MPI calls that stall beyond their typical own
 * time now and then (outliers of their context, spread over ranks and pairs).
 * A node whose every transfer is slow, or one slow link, stalls nothing now
 * and then: its calls are slow throughout.  When its transfers are a minority
 * of their context (a slow node in a halo) they are outliers all the same;
 * when they are most of it (the node holding a binary tree's inner rank 2:
 * 8 of the 10 inter-node sends of an iteration touch it, probe-mix6
 * q-tree2-7p-node-s145) the context's median is slow and only the ranks that
 * never touch the node stand below: the excess is persistent (rcexcess.c: a
 * rank's median in a context above the ranks' lower quartile), none is an
 * outlier, and the run read "none" with 76 % of its critical path in
 * inter-node MPI time.
 *
 * Claimed here: the persistent excess of own MPI time on the critical path
 * (intra-node pieces; inter-node ones too unless the mapping is claimed: then
 * they are the mapping's), when it is localised — held by at most a third of
 * the ranks, none a communication hot spot (a master's traffic is the
 * pattern's), each holding at least half of the largest, together
 * imb_concentration (0.7) of it.  Spread over the ranks it is the network's
 * or the machine's pace, no place to name.  Confidence = min(1, S / path_full)
 * × min(1, concentration / 0.7), S = that excess × (1 − busy) / the path
 * (a busy machine makes some ranks' calls slow throughout too). */
#include "analysis_rootcause.h"
#include "verdict_internal.h"

/* A call slow by a factor: its own time at least SLOW_STEP times what the
 * ranks' lower quartile in its context takes (own − persistent excess); a
 * rank a little slower in its calls (a neighbour more, a busier core) is no
 * slow place (the same step as a quiet period's, rcexcess.c). */
#define SLOW_STEP 2.0
#define SLOW_MIN 3  /* such calls on the path per rank at least */

/* Per rank, the persistent own-MPI excess on the critical path of calls slow
 * by SLOW_STEP (cnt: how many), kept for the ranks with SLOW_MIN of them;
 * returns the sum over all ranks. */
static double persistent_mpi(const struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
			     double *pm, uint32_t *cnt)
{
	double P = 0;
	for (size_t i = 0; i < rc->npath; i++) {
		const struct tc_cp_piece *p = &rc->path[i];
		if (!verdict_piece_own_mpi(V, p) || !(p->excess > 0) || rc->act_outlier[p->act] != 2) continue;
		if (!verdict_act_p2p(t, rc, p->act)) continue;
		struct tc_act a = tc_rc_act(rc, p->rank, p->act);
		double own = tc_dur(t, a.end - TC_MAX(a.start, a.ready)), q = own - a.excess;
		if (!(own >= SLOW_STEP * q)) continue;
		pm[p->rank] += p->excess;
		cnt[p->rank]++;
		P += p->excess;
	}
	/* slow throughout: a rank with fewer such calls on the path holds an event
	 * (a warm-up call that took 12 ms once: sstmacro-mpi-coverage-10p), not a
	 * place; its excess stays in P, against the concentration */
	for (uint32_t r = 0; r < rc->nranks; r++)
		if (cnt[r] < SLOW_MIN) pm[r] = 0;
	return P;
}

/* The ranks holding the persistent excess pm (P in all): largest first, each
 * at least half the largest, until they hold `need` of P, at most maxk; 0
 * when they do not get there or one of them is a hot spot. */
static uint32_t slow_ranks(const double *pm, uint32_t N, double P, double need, uint32_t maxk, const bool *hot,
			   uint32_t *out, double *held)
{
	uint32_t k = verdict_top_ranks(pm, N, need * P, maxk, out, held);
	if (*held < need * P) return 0;
	for (uint32_t i = 0; i < k; i++)
		if (hot[out[i]]) return 0;
	return k;
}

/* verdict_nodes_str: up to NODE_NAMES node names, else their indices. */
#define NODE_NAMES 3

char *verdict_nodes_str(const struct tc_trace *t, const uint32_t *r, uint32_t n)
{
	uint32_t *nd = xmalloc((n ? n : 1) * sizeof *nd), m = 0;
	for (uint32_t i = 0; i < n; i++) nd[m++] = t->ranks[r[i]].node;
	qsort(nd, m, sizeof *nd, tc_cmp_u32);
	uint32_t u = 0;
	for (uint32_t i = 0; i < m; i++)
		if (!u || nd[i] != nd[u - 1]) nd[u++] = nd[i];
	struct strbuf b;
	sb_init(&b);
	sb_printf(&b, "node%s ", u > 1 ? "s" : "");
	if (u <= NODE_NAMES) {
		for (uint32_t i = 0; i < u; i++) {
			const char *name = nd[i] < t->nnodes ? t->nodes[nd[i]].name : NULL;
			if (name && *name) sb_printf(&b, "%s%s", i ? "," : "", name);
			else sb_printf(&b, "%s%u", i ? "," : "", nd[i]);
		}
	} else {
		char *ix = ranks_str(nd, u);
		sb_add(&b, ix);
		free(ix);
	}
	free(nd);
	return sb_detach(&b);
}

void verdict_slow_place(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
			const bool *hot)
{
	const struct tc_verdict_opts *o = &V->opts;
	uint32_t N = rc->nranks;
	if (N < 3 || !(rc->path_len > 0)) return;  /* of two ranks, "elsewhere" is one rank */
	double *pm = xcalloc(N, sizeof *pm);
	uint32_t *cnt = xcalloc(N, sizeof *cnt);
	double P = persistent_mpi(V, t, rc, pm, cnt), held = 0;
	free(cnt);
	uint32_t *sl = xmalloc(N * sizeof *sl);
	uint32_t k = P > 0 ? slow_ranks(pm, N, P, o->imb_concentration, TC_MAX(1u, (uint32_t)(o->imb_max_ranks * N)),
					hot, sl, &held)
			   : 0;
	free(pm);
	if (!k) {
		free(sl);
		return;
	}
	double busy = verdict_machine_busy(rc, o, false), part = held * (1 - busy), S = part / rc->path_len;
	V->path_background += part;
	struct tc_verdict *v = vnew(b, TC_CAUSE_BACKGROUND, TC_NONE);
	set_ranks(v, sl, k);
	free(sl);
	v->confidence = clamp01(S / o->path_full) * clamp01(held / P / o->imb_concentration);
	ev_add(v, "persistent_s", held);
	ev_add(v, "path_share", S);
	ev_add(v, "concentration", held / P);
	ev_add(v, "machine_busy", busy);
	char *rs = ranks_str(v->ranks, v->nranks), *ns = verdict_nodes_str(t, v->ranks, v->nranks);
	char b1[32];
	fmt_seconds(b1, sizeof b1, held);
	bool many = v->nranks > 1;
	v->summary = xasprintf("background traffic in one place: the MPI calls of rank%s %s (%s) were slower than "
			       "the same calls elsewhere throughout the run, %s of the critical path (%.0f%%)",
			       many ? "s" : "", rs, ns, b1, 100 * S);
	v->advice = xasprintf("O3 check %s and the links of rank%s %s (another job, a faulty link), or rerun "
			      "on other nodes: the application is not at fault", ns, many ? "s" : "", rs);
	free(rs);
	free(ns);
}
