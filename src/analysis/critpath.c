/* critpath.c — the critical path over the activities of tc_rootcause
 * (docs/rootcause.md).
 *
 * A backward walk from the rank that reaches MPI_Finalize last (the end of
 * its span): on a compute segment, take it; on an MPI call whose wait ended
 * at its partner's readiness, take the own part after that moment and jump to
 * the partner at that moment; otherwise take the whole call.  Every step moves
 * back in time or jumps to the partner at an earlier or equal moment (a run of
 * jumps at one moment is cut after nranks of them), so the walk ends; each
 * step is one binary search, O(path · log n).  Waiting is on the path only
 * where its partner cannot be followed (no activity there). */
#include <stdlib.h>
#include <string.h>

#include "analysis_rootcause.h"

typedef VEC(struct tc_cp_piece) pieces_t;

static void add_piece(pieces_t *v, const struct tc_trace *t, const struct tc_act *a, uint64_t s, uint64_t e,
		      uint32_t rank, uint32_t act, uint8_t kind)
{
	if (e <= s) return;
	double len = tc_dur(t, e - s);
	double ex = kind == TC_CP_WAIT ? 0 : TC_MIN((double)a->excess, len);
	struct tc_cp_piece p = { s, e, rank, act, kind, ex };
	VEC_PUSH(*v, p);
}

static uint32_t last_rank(const struct tc_rootcause *rc)
{
	uint32_t best = TC_NONE;
	uint64_t end = 0;
	for (uint32_t r = 0; r < rc->nranks; r++) {
		uint32_t z = rc->act_first[r + 1];
		if (z == rc->act_first[r]) continue;
		if (best == TC_NONE || tc_rc_act_end(rc, z - 1) > end) { end = tc_rc_act_end(rc, z - 1); best = r; }
	}
	return best;
}

static void walk(const struct tc_trace *t, const struct tc_rootcause *rc, pieces_t *v, uint32_t r)
{
	uint64_t T = tc_rc_act_end(rc, rc->act_first[r + 1] - 1);
	uint32_t stuck = 0; /* jumps without moving back in time */
	for (size_t guard = 2 * rc->nacts + 16; T > rc->t0 && guard; guard--) {
		uint32_t i = tc_rc_act_at(rc, r, T);
		if (i == TC_NONE || tc_rc_act_start(rc, r, i) >= T) break;
		const struct tc_act act = tc_rc_act(rc, r, i), *a = &act;
		uint64_t e = TC_MIN(T, a->end);
		uint8_t own = a->inter ? TC_CP_MPI_INTER : TC_CP_MPI_INTRA;
		if (a->kind == TC_ACT_COMPUTE) {
			add_piece(v, t, a, a->start, e, r, i, TC_CP_COMPUTE);
			T = a->start;
			stuck = 0;
			continue;
		}
		bool waits = a->partner != TC_NONE && a->ready > a->start;
		uint64_t at = TC_MIN(a->ready, e);  /* the moment to jump at */
		bool follow = waits && a->partner < rc->nranks && tc_rc_act_before(rc, a->partner, at) != TC_NONE;
		if (follow && !(at == T && stuck > rc->nranks)) {
			add_piece(v, t, a, at, e, r, i, own);
			stuck = at == T ? stuck + 1 : 0;
			r = a->partner;
			T = at;
			continue;
		}
		if (waits) {
			add_piece(v, t, a, at, e, r, i, own);
			add_piece(v, t, a, a->start, at, r, i, TC_CP_WAIT);
		} else {
			add_piece(v, t, a, a->start, e, r, i, own);
		}
		T = a->start;
		stuck = 0;
	}
}

void tc_rc_critical_path(const struct tc_trace *t, struct tc_rootcause *rc)
{
	uint32_t N = rc->nranks;
	rc->path_compute_excess = xcalloc(N ? N : 1, sizeof(double));
	rc->path_mpi_excess = xcalloc(N ? N : 1, sizeof(double));
	rc->path_end_rank = last_rank(rc);
	if (rc->path_end_rank == TC_NONE) return;
	pieces_t v = { 0 };
	walk(t, rc, &v, rc->path_end_rank);
	/* backward walk → time order */
	for (size_t i = 0, j = v.n ? v.n - 1 : 0; i < j; i++, j--) {
		struct tc_cp_piece x = v.a[i];
		v.a[i] = v.a[j];
		v.a[j] = x;
	}
	rc->path = v.a;
	rc->npath = v.n;
	double len[TC_CP_NKINDS] = { 0 };
	for (size_t i = 0; i < v.n; i++) {
		const struct tc_cp_piece *p = &v.a[i];
		double d = tc_dur(t, p->end - p->start);
		len[p->kind] += d;
		rc->path_len += d;
		if (p->kind == TC_CP_COMPUTE) rc->path_compute_excess[p->rank] += p->excess;
		else rc->path_mpi_excess[p->rank] += p->excess;
	}
	for (int k = 0; k < TC_CP_NKINDS; k++) rc->share[k] = rc->path_len > 0 ? len[k] / rc->path_len : 0;
}
