/* verdict_internal.h — what verdict.c (PCLVis panels, pattern, mapping's
 * remap test, the orchestration) and verdict_path.c (the claims from the
 * critical path: imbalance, mapping cost, background, noise) share. */
#ifndef TC_VERDICT_INTERNAL_H
#define TC_VERDICT_INTERNAL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "analysis_verdict.h"
#include "u64map.h"

static inline void ev_add(struct tc_verdict *v, const char *key, double x)
{
	if (v->nev < TC_VERDICT_MAX_EVIDENCE) v->ev[v->nev++] = (struct tc_evidence){ key, x };
}

static inline double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : isnan(x) ? 0 : x; }

struct vb { VEC(struct tc_verdict) v; };

static inline struct tc_verdict *vnew(struct vb *b, enum tc_cause c, uint32_t scope)
{
	struct tc_verdict x = { .cause = (uint8_t)c, .scope = scope };
	VEC_PUSH(b->v, x);
	return &b->v.a[b->v.n - 1];
}

static inline void set_window(struct tc_verdict *v, const struct tc_trace *t, const struct tc_latency *lat, uint32_t w0,
		       uint32_t w1)
{
	v->windowed = true;
	v->win_first = w0;
	v->win_last = w1;
	v->start = tc_sec(t, tc_lat_win_start(lat, w0));
	v->end = tc_sec(t, TC_MIN(tc_lat_win_end(lat, w1), t->tmax));
}

static inline void set_ranks(struct tc_verdict *v, const uint32_t *r, uint32_t n)
{
	v->nranks = n;
	v->ranks = xmalloc((n ? n : 1) * sizeof *v->ranks);
	if (n) memcpy(v->ranks, r, n * sizeof *r);
	qsort(v->ranks, n, sizeof *v->ranks, tc_cmp_u32);
}

/* The blamed ranks (sorted) for a verdict's text: ranges ("0-3,8"); every
 * d-th rank of a range as "0-62 step 2 (32 ranks)"; a list longer than
 * RANKS_TEXT characters cut at a comma with "... (N ranks)" (the JSON's
 * `ranks` has them all: 32 ranks listed one by one took 4 lines of an 80-column
 * verdict view, twice). */
#define RANKS_TEXT 48

static inline char *ranks_str(const uint32_t *r, uint32_t n)
{
	struct strbuf b;
	sb_init(&b);
	uint32_t d = n >= 4 ? r[1] - r[0] : 0;
	for (uint32_t i = 2; d > 1 && i < n; i++)
		if (r[i] - r[i - 1] != d) d = 0;
	if (d > 1) {
		sb_printf(&b, "%u-%u step %u (%u ranks)", r[0], r[n - 1], d, n);
		return sb_detach(&b);
	}
	fmt_ranges(&b, r, n);
	if (!b.s || !*b.s) sb_add(&b, "-");
	if (strlen(b.s) > RANKS_TEXT) {
		char *cut = b.s + RANKS_TEXT - 12;
		while (cut > b.s && *cut != ',') cut--;
		*cut = '\0';
		b.len = (size_t)(cut - b.s);
		sb_printf(&b, ",... (%u ranks)", n);
	}
	return sb_detach(&b);
}

void verdict_free_one(struct tc_verdict *v);

struct tc_rootcause;
struct tc_steps;
/* The claims from the critical path (verdict_path.c); hot[r]: ranks already
 * blamed as communication hot spots.  Fills V->rank[].delay_cost_s etc. */
void verdict_imbalance(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
		       const struct tc_steps *st, const bool *hot);
void verdict_persistent(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
			const struct tc_steps *st, const bool *hot);
void verdict_background(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_latency *lat,
			const struct tc_rootcause *rc);
/* Background in one place, a slow node or link (verdict_place.c): the
 * persistent own-MPI excess on the path, localised on a few ranks. */
void verdict_slow_place(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
			const bool *hot);
void verdict_noise(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc);
/* Background on a few links or ranks (verdict_link.c): the links whose
 * messages stalled far more often than the others' (else such ranks), their
 * ranks (not sorted), the strongest one's numbers, and the critical path's
 * stalled own-MPI excess on them.  False (nothing to free) when no link stands out or none of its
 * stalls is on the path; else the caller frees ranks. */
struct vlink_claim {
	uint32_t *ranks, nranks;   /* the links' ranks, or the ranks that stand out */
	uint32_t nlinks;           /* links that stand out; 0: ranks do */
	uint32_t a, b;             /* the strongest link, or rank (b = TC_NONE) */
	uint64_t n, k;             /* its messages, the stalled ones */
	double rate, ref, beyond;  /* k / n, the reference rate, how far beyond noise (0..1) */
	double B, top;             /* s: path excess on the links, its largest piece */
};
bool verdict_link(const struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
		  struct vlink_claim *L);
/* Seconds of the critical path the mapping costs: of the inter-node pieces,
 * what an intra-node placement would save (verdict_path.c); inter_cost: the
 * transfer-based inter / intra ratio (NaN when unknown), which alone decides
 * from gate on (below it the calls' own time counts too); busy: how busy
 * the machine was (verdict_machine_busy); *ratio: the ratio that carried
 * more of the cost. */
double verdict_mapping_path_cost(const struct tc_trace *t, const struct tc_rootcause *rc, double inter_cost,
				 double gate, double busy, double *ratio);
/* A piece of own MPI time on the path that background may claim: intra-node,
 * or inter-node unless the mapping is claimed (its pieces are then the
 * mapping's; verdict_path.c). */
struct tc_cp_piece;
bool verdict_piece_own_mpi(const struct tc_verdicts *V, const struct tc_cp_piece *p);
/* Activity i is a point-to-point MPI call: not a collective (blocking or
 * not) nor another MPI call (Init, Finalize, ...; verdict_path.c). */
bool verdict_act_p2p(const struct tc_trace *t, const struct tc_rootcause *rc, uint32_t i);
/* Share of the critical path spent on the given ranks. */
double verdict_path_share_of(const struct tc_rootcause *rc, const bool *ranks);
/* The same for their own MPI time only (a hot spot's traffic; verdict_path.c). */
double verdict_path_comm_share_of(const struct tc_trace *t, const struct tc_rootcause *rc, const bool *ranks);
double verdict_machine_busy(const struct tc_rootcause *rc, const struct tc_verdict_opts *o, bool typical);
/* The ranks with the largest val[r] (of N), largest first, each at least half
 * the largest and above 0, until they hold `need` in all (*held: what they
 * hold), at most maxk; returns how many, in out sorted by rank
 * (verdict_path.c). */
uint32_t verdict_top_ranks(const double *val, uint32_t N, double need, uint32_t maxk, uint32_t *out, double *held);
/* The distinct nodes of ranks r[0..n), as text: "node vm-n1", "nodes
 * vm-n1,vm-n3" (up to 3 names, as info lists them), else "nodes 1-3,7"
 * (their indices, info's order; verdict_place.c).  Caller frees. */
char *verdict_nodes_str(const struct tc_trace *t, const uint32_t *r, uint32_t n);
/* Sorts claims into their reported order (verdict.c, rank_keys). */
void verdict_sort(struct tc_verdict *v, size_t n);

#endif
