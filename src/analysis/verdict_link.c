/* verdict_link.c — background on a few links or at a few ranks: transfers
 * that stall now and then between the same ranks (docs/verdicts.md,
 * "Background on a link or at a rank").
 *
 * verdict_background weighs the MPI stalls of the whole run against the
 * machine's (compute's stall rate): traffic on one link of many hides in
 * that rate.  A pair of ranks whose transfers stall in 20-50 % of their
 * messages, in a 12-rank halo whose other links stall in 0.5 %, made the
 * run's MPI stall rate 1.6 % against 0.5 % for compute: under the ratio of
 * 4 at which background starts to count, and the run read "none" with 38 %
 * of its critical path in own MPI time (probe-link, session 16).
 *
 * Here each message counts as stalled when the call that sent it or the call
 * that completed its receive stalled (an outlier of its context by at least
 * stall_min, the stall counts' yardstick; point-to-point calls only); of a
 * call that sent or completed several, only the messages whose transfer
 * took half the longest's at least (transfer()).  A
 * place — a link (an unordered pair of ranks), or, when no link does, a
 * rank (all its messages: a link's stalls also stall the Waitalls that
 * complete its ranks' other links) — stands out when
 *   - it has at least LINK_MIN_STALLS stalled messages,
 *   - their share of its messages is at least 4/7 of bg_stall_ratio times
 *     the reference rate (counted fully from bg_stall_ratio on, linear
 *     between, as verdict_background's ratio), the reference being the
 *     larger of the other messages' stall rate (with one stall added: a
 *     run whose other links never stalled is not infinitely clean) and
 *     compute's stall rate (the machine's);
 *   - and so many stalls at the reference rate are improbable: the
 *     binomial tail P(X >= k | n, reference) at most LINK_P over the number
 *     of candidate places of the kind (a clean halo's 40 links each see a
 *     stall or two by chance; 9 of 30 at 1 % is 1e-11).
 * On a busy machine every link stalls alike: the other messages' rate rises
 * with it, and the claim weighs by (1 − busy) as the run's does.  The
 * claimed time is the excess of the critical path's stalled own-MPI pieces
 * that send or receive a message of a standing-out place (the largest left
 * out, as for the run), so a plant off the path claims nothing. */
#include <math.h>

#include "analysis_rootcause.h"
#include "verdict_internal.h"

#define LINK_MIN_STALLS 3
#define LINK_P 1e-4
#define LINK_MAX_RANKS_SHARE (1.0 / 3.0)   /* the links' ranks at most this share of all (else: the run's) */

/* A place's key: a link (a < b), or a rank's messages (b = TC_NONE). */
static uint64_t link_key(uint32_t a, uint32_t b)
{
	return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}
static uint64_t rank_key(uint32_t a) { return (uint64_t)a << 32 | TC_NONE; }
static bool is_rank(uint64_t key) { return (uint32_t)key == TC_NONE; }

/* A point-to-point MPI activity that stalled (an outlier by stall_min at least). */
static bool stalled_p2p(const struct tc_trace *t, const struct tc_rootcause *rc, uint32_t i)
{
	return tc_rc_act_kind(rc, i) == TC_ACT_MPI && rc->act_outlier[i] == 1 && rc->act_excess[i] >= rc->stall_min &&
	       verdict_act_p2p(t, rc, i);
}

/* The op of activity i's call on rank r, or NULL. */
static const struct tc_op *act_op(const struct tc_trace *t, const struct tc_rootcause *rc, uint32_t r, uint32_t i)
{
	uint32_t c = tc_rc_act_call(rc, r, i);
	if (c == TC_NONE || c >= t->ranks[r].ncalls) return NULL;
	uint32_t op = t->ranks[r].calls[c].op;
	return op < t->ranks[r].nops ? &t->ranks[r].ops[op] : NULL;
}

/* Message j of op (rank r's): its sends first, then its receives. */
static uint32_t op_msg(const struct tc_trace *t, uint32_t r, const struct tc_op *op, uint32_t j)
{
	return j < op->nsend ? tc_op_sends(t, r, op)[j] : tc_op_recvs(t, r, op)[j - op->nsend];
}

/* log P(X >= k) for X ~ Binomial(n, p), 0 < p < 1. */
static double log_tail(uint64_t n, uint64_t k, double p)
{
	if (k == 0) return 0;
	if (k > n) return -INFINITY;
	double lp = log(p), lq = log1p(-p), lc = lgamma((double)n + 1), m = -INFINITY, s = 0;
	for (uint64_t j = k; j <= n; j++) {
		double x = lc - lgamma((double)j + 1) - lgamma((double)(n - j) + 1) + (double)j * lp + (double)(n - j) * lq;
		if (x > m) s = s * exp(m - x) + 1, m = x;
		else s += exp(x - m);
		if (x < m - 40) break;   /* the terms fall: the rest is nothing */
	}
	return m + log(s);
}

/* Message m's transfer as rank r's call that sent or completed it saw it
 * (ticks): a send from its record to its completion, a receive from the
 * later of the send and the post to its completion. */
static uint64_t transfer(const struct tc_msg *M, uint32_t r)
{
	if (M->src == r) return M->send_done > M->send_time ? M->send_done - M->send_time : 0;
	uint64_t from = TC_MAX(M->send_time, M->post_time);
	return M->recv_time > from ? M->recv_time - from : 0;
}

struct cand { uint64_t key; uint64_t n, k; };
typedef VEC(struct cand) cands_t;

/* The stalled messages' places (cands, k counted: each message on its link
 * and at both its ranks) and how many messages stalled in all. */
static uint64_t stalled_links(const struct tc_trace *t, const struct tc_rootcause *rc, struct u64map *idx,
			      cands_t *cands)
{
	uint8_t *mark = xcalloc(t->nmsgs / 8 + 1, 1);
	uint64_t K = 0;
	for (uint32_t r = 0, x = 0; x < rc->nexcess; x++) {
		uint32_t i = rc->ex_act[x];
		while (rc->act_first[r + 1] <= i) r++;
		if (!stalled_p2p(t, rc, i)) continue;
		const struct tc_op *op = act_op(t, rc, r, i);
		if (!op) continue;
		uint32_t nm = op->nsend + op->nrecv;
		uint64_t longest = 0;
		for (uint32_t j = 0; j < nm; j++) {
			uint32_t m = op_msg(t, r, op, j);
			if (m < t->nmsgs) longest = TC_MAX(longest, transfer(&t->msgs[m], r));
		}
		for (uint32_t j = 0; j < nm; j++) {
			uint32_t m = op_msg(t, r, op, j);
			if (m >= t->nmsgs || mark[m / 8] >> (m % 8) & 1) continue;
			const struct tc_msg *M = &t->msgs[m];
			/* of a call that sent or completed several, the slow ones stalled it */
			if (M->src == M->dst || 2 * transfer(M, r) < longest) continue;
			mark[m / 8] |= (uint8_t)(1u << (m % 8));
			K++;
			const uint64_t keys[3] = { link_key(M->src, M->dst), rank_key(M->src), rank_key(M->dst) };
			for (int q = 0; q < 3; q++) {
				uint32_t c = u64map_get(idx, keys[q]);
				if (c == U64MAP_NONE) {
					c = (uint32_t)cands->n;
					u64map_put(idx, keys[q], c);
					VEC_PUSH(*cands, ((struct cand){ keys[q], 0, 0 }));
				}
				cands->a[c].k++;
			}
		}
	}
	free(mark);
	return K;
}

/* Every candidate place's messages: a link's, those its lower rank sends
 * to or receives from the other; a rank's, all it sends or receives. */
static void count_messages(const struct tc_trace *t, const struct u64map *idx, struct cand *c, size_t nc)
{
	bool *seen = xcalloc((size_t)t->nranks + 1, 1);
	for (size_t j = 0; j < nc; j++) {
		uint32_t a = (uint32_t)(c[j].key >> 32);
		if (seen[a]) continue;
		seen[a] = true;
		const struct tc_rank *R = &t->ranks[a];
		uint32_t ka = u64map_get(idx, rank_key(a));   /* the rank's own place, if a candidate */
		for (int dir = 0; dir < 2; dir++) {
			const uint32_t *ms = dir ? R->recv_msgs : R->send_msgs;
			uint32_t n = dir ? R->nrecv_msgs : R->nsend_msgs;
			for (uint32_t q = 0; q < n; q++) {
				const struct tc_msg *M = &t->msgs[ms[q]];
				uint32_t other = dir ? M->src : M->dst;
				if (other == a) continue;
				if (ka != U64MAP_NONE) c[ka].n++;
				if (other < a) continue;   /* a link with a lower rank is counted from there */
				uint32_t k = u64map_get(idx, link_key(a, other));
				if (k != U64MAP_NONE) c[k].n++;
			}
		}
	}
	free(seen);
}

/* Whether activity i of rank r sends or receives a message on a marked link
 * or of a marked rank. */
static bool on_link(const struct tc_trace *t, const struct tc_rootcause *rc, uint32_t r, uint32_t i,
		    const struct u64map *bad)
{
	const struct tc_op *op = act_op(t, rc, r, i);
	if (!op) return false;
	for (uint32_t j = 0; j < op->nsend + op->nrecv; j++) {
		const struct tc_msg *M = &t->msgs[op_msg(t, r, op, j)];
		if (u64map_get(bad, link_key(M->src, M->dst)) != U64MAP_NONE || u64map_get(bad, rank_key(M->src)) != U64MAP_NONE ||
		    u64map_get(bad, rank_key(M->dst)) != U64MAP_NONE)
			return true;
	}
	return false;
}

/* The critical path's stalled own-MPI excess on the marked links (B) and its largest piece. */
static void link_path(const struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
		      const struct u64map *bad, struct vlink_claim *L)
{
	for (size_t i = 0; i < rc->npath; i++) {
		const struct tc_cp_piece *p = &rc->path[i];
		if (!verdict_piece_own_mpi(V, p) || !(p->excess >= rc->stall_min) || !stalled_p2p(t, rc, p->act) ||
		    !on_link(t, rc, p->rank, p->act, bad))
			continue;
		L->B += p->excess;
		L->top = TC_MAX(L->top, (double)p->excess);
	}
}

/* Keeps the candidates that stand out (their ranks in L), the strongest's
 * numbers in L; their keys into bad.  Returns how many. */
static uint32_t stand_out(const struct tc_verdicts *V, const struct tc_rootcause *rc, const struct cand *c, size_t nc,
			  bool ranks, uint64_t K, uint64_t N, struct u64map *bad, struct vlink_claim *L)
{
	const struct tc_verdict_opts *o = &V->opts;
	double rcmp = rc->n_compute ? (double)rc->n_compute_stalls / (double)rc->n_compute : 0;
	size_t tried = 0;
	for (size_t j = 0; j < nc; j++) tried += is_rank(c[j].key) == ranks;
	double lo = 4.0 / 7.0 * o->bg_stall_ratio, cut = log(LINK_P / (double)(tried ? tried : 1));
	bool *in = xcalloc((size_t)rc->nranks + 1, 1);
	uint32_t nbad = 0;
	for (size_t j = 0; j < nc; j++) {
		if (is_rank(c[j].key) != ranks) continue;
		if (c[j].k < LINK_MIN_STALLS || c[j].n < c[j].k || N <= c[j].n) continue;
		double rate = (double)c[j].k / (double)c[j].n;
		double ref = TC_MAX((double)(K - c[j].k + 1) / (double)(N - c[j].n + 1), rcmp);
		double beyond = ref < 1 ? clamp01((rate / ref - lo) / (o->bg_stall_ratio - lo)) : 0;
		if (!(beyond > 0) || log_tail(c[j].n, c[j].k, ref) > cut) continue;
		u64map_put(bad, c[j].key, 1);
		nbad++;
		uint32_t a = (uint32_t)(c[j].key >> 32), b = (uint32_t)c[j].key;
		if (!in[a]) in[a] = true, L->ranks[L->nranks++] = a;
		if (!ranks && !in[b]) in[b] = true, L->ranks[L->nranks++] = b;
		if (beyond > L->beyond || (beyond == L->beyond && rate > L->rate)) {
			L->beyond = beyond, L->rate = rate, L->ref = ref;
			L->a = a, L->b = b, L->n = c[j].n, L->k = c[j].k;
		}
	}
	free(in);
	return nbad;
}

bool verdict_link(const struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
		  struct vlink_claim *L)
{
	*L = (struct vlink_claim){ 0 };
	if (rc->nranks < 3 || !t->nmsgs) return false;   /* of two ranks, "elsewhere" is nothing */
	struct u64map idx, bad;
	u64map_init(&idx);
	u64map_init(&bad);
	cands_t c = { 0 };
	uint64_t K = stalled_links(t, rc, &idx, &c);
	count_messages(t, &idx, c.a, c.n);
	L->ranks = xmalloc(((size_t)rc->nranks + 1) * sizeof *L->ranks);
	/* links first; when none stands out, ranks (a link's stalls spread over
	 * the Waitalls of its ranks' other links too: a halo) */
	uint32_t nbad = c.n ? stand_out(V, rc, c.a, c.n, false, K, t->nmsgs, &bad, L) : 0;
	L->nlinks = nbad;
	if (!nbad && c.n) nbad = stand_out(V, rc, c.a, c.n, true, K, t->nmsgs, &bad, L);
	bool ok = nbad && L->nranks <= TC_MAX(2.0, LINK_MAX_RANKS_SHARE * rc->nranks);
	if (ok) link_path(V, t, rc, &bad, L);
	VEC_FREE(c);
	u64map_free(&idx);
	u64map_free(&bad);
	if (!ok || !(L->B > 0)) {
		free(L->ranks);
		*L = (struct vlink_claim){ 0 };
		return false;
	}
	return true;
}
