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
#include "critpath_internal.h"

typedef VEC(struct tc_cp_piece) pieces_t;

/* The serial walk's pieces (cp_piece_fn): with the activity's excess (at
 * most the piece's length), a wait's none. */
struct cp_out {
	pieces_t *v;
	const struct tc_trace *t;
	const struct tc_rootcause *rc;
};

static void add_piece(void *ctx, uint64_t s, uint64_t e, uint32_t rank, uint32_t act, uint8_t kind)
{
	const struct cp_out *o = ctx;
	if (e <= s) return;
	double len = tc_dur(o->t, e - s);
	double ex = kind == TC_CP_WAIT ? 0 : TC_MIN((double)o->rc->act_excess[act], len);
	struct tc_cp_piece p = { s, e, rank, act, kind, ex };
	VEC_PUSH(*o->v, p);
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
	struct cp_out out = { v, t, rc };
	struct cp_walk w = { .T = tc_rc_act_end(rc, rc->act_first[r + 1] - 1), .guard = 2 * rc->nacts + 16, .r = r };
	while (w.T > rc->t0 && w.guard) {
		uint32_t i = tc_rc_act_at(rc, w.r, w.T);
		if (i == TC_NONE || tc_rc_act_start(rc, w.r, i) >= w.T) break;
		const struct tc_act x = tc_rc_act(rc, w.r, i);
		struct cp_act a = { x.start, x.end, x.ready, x.partner, i, x.kind, x.inter };
		struct cp_step st;
		if (cp_begin(&w, &a, &st, add_piece, &out)) continue;
		bool follow = cp_asks(&st, rc->nranks) && tc_rc_act_before(rc, st.partner, st.at) != TC_NONE;
		cp_end(&w, &st, follow, rc->nranks, add_piece, &out);
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
