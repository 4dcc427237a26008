/* verdict_path.c — the claims that rest on the critical path and the
 * root-cause analysis (analysis_rootcause.h): compute imbalance, what the
 * mapping costs the path, background (own MPI time stalled), system noise.
 * Confidence = the share of the critical path the claim explains (full at
 * opts.path_full) × how far it stands out (concentration on few ranks, stall
 * rate of MPI against compute, spread over ranks); never a fraction of trace
 * time, so a long MPI_Init changes nothing.  docs/verdicts.md. */
#include "analysis_origins.h"
#include "verdict_internal.h"

/* The share of the critical path the ranks hold at their typical pace: their
 * pieces' length minus the pieces' excess (stalls there are noise's or
 * background's to claim, a delay is imbalance's; a hot spot costs the run its
 * typical handling time). */
double verdict_path_share_of(const struct tc_rootcause *rc, const bool *ranks)
{
	if (!(rc->path_len > 0)) return 0;
	uint64_t on = 0, all = 0;
	double excess = 0;
	for (size_t i = 0; i < rc->npath; i++) {
		uint64_t len = rc->path[i].end - rc->path[i].start;
		all += len;
		if (ranks[rc->path[i].rank]) {
			on += len;
			excess += rc->path[i].excess;
		}
	}
	if (!all) return 0;
	double typical = (double)on / (double)all * rc->path_len - excess;
	return typical > 0 ? typical / rc->path_len : 0;
}

/* An intra-node transfer of 2^(bucket-1) bytes when the trace has none to
 * compare with: 2 µs plus 4 GB/s (shared memory; a deliberately generous
 * reference, so that only clearly slower inter-node pieces count). */
static double intra_model(uint8_t bucket)
{
	double bytes = bucket ? (double)(1ULL << (bucket - 1)) : 0;
	return 2e-6 + bytes / 4e9;
}

/* Of an MPI piece whose context has no typical value (a call seen once: the
 * root's final MPI_Gather), the part beyond what its bytes could cost at a
 * generous pace (UNTYPED_SLACK × intra_model): a hold with no pace to measure
 * it by, not the cost of the traffic (docs/verdicts.md, A2). */
#define UNTYPED_SLACK 10
static double untyped_hold(const struct tc_trace *t, const struct tc_rootcause *rc, const struct tc_cp_piece *P)
{
	if (P->excess > 0) return 0;
	const struct tc_rc_ctx *C = &rc->ctx[tc_rc_act_ctx(rc, P->act)];
	if (C->typical) return 0;
	double len = tc_dur(t, P->end - P->start), most = UNTYPED_SLACK * intra_model(C->size_bucket);
	return len > most ? len - most : 0;
}

/* The share of the critical path in the ranks' own communication (MPI
 * pieces, intra- and inter-node) at its typical pace: what a hot spot's
 * handling of its messages costs the run.  A tree's root or a master is on the
 * path with its compute too; that is not its traffic (docs/verdicts.md, A2). */
double verdict_path_comm_share_of(const struct tc_trace *t, const struct tc_rootcause *rc, const bool *ranks)
{
	if (!(rc->path_len > 0)) return 0;
	uint64_t on = 0, all = 0;
	double excess = 0;
	for (size_t i = 0; i < rc->npath; i++) {
		const struct tc_cp_piece *P = &rc->path[i];
		all += P->end - P->start;
		if (ranks[P->rank] && (P->kind == TC_CP_MPI_INTRA || P->kind == TC_CP_MPI_INTER)) {
			on += P->end - P->start;
			excess += P->excess + untyped_hold(t, rc, P);
		}
	}
	if (!all) return 0;
	double typical = (double)on / (double)all * rc->path_len - excess;
	return typical > 0 ? typical / rc->path_len : 0;
}

/* The mapping's cost on the path: of every inter-node piece's own time, what an
 * intra-node placement would save.  When the trace has messages of equal size
 * in both classes and their transfers' ratio passes gate, the transfers say
 * it (inter_cost = inter / intra criterion, PCLVis): the piece × (1 − 1 /
 * inter_cost).  Otherwise the piece beyond the typical intra-node own time of
 * the same region and size (that context's median when it has ≥ 3 calls,
 * else the model above, which is not used beside measured transfers), or the
 * transfers' measure where it is larger.  An MPI call
 * completing several messages is inter-node when any of them is, so its own
 * time is compared by transfer where possible, not with the rare calls that
 * happened to be intra-node only.  Each piece counts at its typical pace, its
 * excess over its own context's median left out: a placement makes every
 * inter-node transfer slow, a stall is background's or noise's to claim.
 * A context counts only when its typical own time stands above the reference
 * as an excess must (ref + max(½·ref, the trace's noise floor)): MPI's own
 * software cost, tens of µs, is above the shared-memory model on any machine
 * and is no evidence that the placement costs anything.  Against the model
 * (no intra-node calls of that region and size to measure), on a busy
 * machine (busy: verdict_machine_busy) it must also stand above two holds of
 * a rank by the machine (a hold: the compute stalls' median height): a call
 * that completes an exchange needs its partner to run and then itself, and a
 * rank descheduled that way makes its MPI calls that slow on any node; with
 * every message inter-node nothing else tells the two apart (a clean ring of
 * 10 ranks on 2 busy cores: Waitall's own time 2.3 ms, holds of 1.7 ms;
 * docs/verdicts.md, A1). */
double verdict_mapping_path_cost(const struct tc_trace *t, const struct tc_rootcause *rc, double inter_cost,
				 double gate, double busy, double *ratio)
{
	struct u64map intra;
	u64map_init(&intra);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		const struct tc_rc_ctx *C = &rc->ctx[c];
		if (C->kind == TC_ACT_MPI && !C->inter && C->n >= 3)
			u64map_put(&intra, (uint64_t)C->region << 8 | C->size_bucket, c);
	}
	bool by_transfer = isfinite(inter_cost);
	double cost = 0, cost_transfer = 0, cost_own = 0, sum_inter = 0, sum_intra = 0;
	for (size_t i = 0; i < rc->npath; i++) {
		const struct tc_cp_piece *p = &rc->path[i];
		if (p->kind != TC_CP_MPI_INTER) continue;
		/* at the piece's typical pace: its stall (excess) is background's or noise's */
		double len = tc_dur(t, p->end - p->start) - p->excess;
		/* by the transfers; where they do not pass the gate (alike in both
		 * classes), by the calls' own time too: a latency paid inside the
		 * call (an emulated one, a slow injection) leaves the transfers alike
		 * and makes the inter-node calls slow (probe-mix12
		 * m12-halo-12p-map-cyclic-s301: Isends of 2 ms against µs, 73 % of the
		 * path, inter_cost 0.86, "none"); the larger counts, piece by piece */
		double by_tr = by_transfer && inter_cost > 1 ? len * (1 - 1 / inter_cost) : 0;
		cost_transfer += by_tr;
		if (by_transfer && inter_cost >= gate) {
			cost += by_tr;
			continue;
		}
		const struct tc_rc_ctx *C = &rc->ctx[tc_rc_act_ctx(rc, p->act)];
		uint32_t k = u64map_get(&intra, (uint64_t)C->region << 8 | C->size_bucket);
		double ref = k != U64MAP_NONE ? tc_rc_ctx_transfer(&rc->ctx[k]) : intra_model(C->size_bucket);
		double typ = tc_rc_ctx_transfer(C);
		sum_inter += typ;
		sum_intra += ref;
		/* detected as an excess is (rootcause.c): the context's typical
		 * inter-node own time above ref + max(½·ref, the noise floor); what
		 * counts is what lies above ref */
		double bar = TC_MAX(0.5 * ref, rc->noise_floor);
		if (k == U64MAP_NONE) bar = TC_MAX(bar, 2 * busy * rc->compute_stall_height);
		/* against an intra-node context only: beside measured transfers the
		 * shared-memory model made MPI's own software cost a mapping cost
		 * (every Waitall of a halo in rows of 4 completes an inter-node
		 * message: a clean twin read "mapping 0.74") */
		double by_own = by_transfer && k == U64MAP_NONE ? 0 : typ > ref + bar && len > ref ? len - ref : 0;
		cost += TC_MAX(by_tr, by_own);
		cost_own += by_own;
	}
	u64map_free(&intra);
	/* the ratio of what carried more of the cost: the transfers', else the own times' */
	*ratio = by_transfer && cost_transfer >= cost_own ? inter_cost : sum_intra > 0 ? sum_inter / sum_intra : NAN;
	return cost;
}

/* (value, rank) pairs, the largest value first, ties by rank (as a stable
 * sort of pairs built in rank order leaves them). */
static int cmp_desc(const void *a, const void *b)
{
	const double *x = a, *y = b;
	return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : (x[1] > y[1]) - (x[1] < y[1]);
}

uint32_t verdict_top_ranks(const double *val, uint32_t N, double need, uint32_t maxk, uint32_t *out, double *held)
{
	double *v = xmalloc((size_t)(N ? N : 1) * 2 * sizeof *v);
	for (uint32_t r = 0; r < N; r++) { v[2 * r] = val[r]; v[2 * r + 1] = r; }
	qsort(v, N, 2 * sizeof *v, cmp_desc);
	uint32_t k = 0;
	double sum = 0;
	while (k < N && k < maxk && sum < need && v[2 * k] > 0 && v[2 * k] >= 0.5 * v[0]) {
		sum += v[2 * k];
		out[k] = (uint32_t)v[2 * k + 1];
		k++;
	}
	free(v);
	*held = sum;
	qsort(out, k, sizeof *out, tc_cmp_u32);
	return k;
}

/* The ranks holding `need` of the path's compute excess, at most maxk of them
 * and each at least half the largest (a rank far below the worst is not what
 * stands out, and machine noise gives every rank a little); returns how many
 * (in out, by rank). */
static uint32_t blamed_ranks(const struct tc_rootcause *rc, double need, uint32_t maxk, uint32_t *out, double *held)
{
	return verdict_top_ranks(rc->path_compute_excess, rc->nranks, need, maxk, out, held);
}

/* The worst activities of the blamed ranks, placed at their logical steps. */
static void blame_steps(struct tc_verdict *v, const struct tc_trace *t, const struct tc_rootcause *rc,
			const struct tc_steps *st, uint32_t max_steps)
{
	VEC(struct tc_blame_step) s = { 0 };
	for (uint32_t k = 0; k < v->nranks; k++) {
		uint32_t r = v->ranks[k];
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			float excess = rc->act_excess[i];
			if (excess <= 0 || tc_rc_act_kind(rc, i) != TC_ACT_COMPUTE) continue;
			uint32_t step = 0;
			if (st) {
				struct tc_block blk;
				if (tc_block_of_act(rc, st, r, i, &blk))
					step = (uint32_t)((int64_t)st->cevs[blk.cev].step - (blk.agg ? 1 : 0) < 0 ? 0
							  : st->cevs[blk.cev].step - (blk.agg ? 1 : 0));
			}
			struct tc_blame_step b = { r, step, excess, tc_sec(t, tc_rc_act_start(rc, r, i)) };
			VEC_PUSH(s, b);
		}
	}
	/* largest first, at most max_steps, those at least a tenth of the worst */
	for (size_t i = 1; i < s.n; i++)
		for (size_t j = i; j > 0 && s.a[j].seconds > s.a[j - 1].seconds; j--) {
			struct tc_blame_step x = s.a[j];
			s.a[j] = s.a[j - 1];
			s.a[j - 1] = x;
		}
	size_t n = 0;
	while (n < s.n && n < max_steps && s.a[n].seconds >= 0.1 * s.a[0].seconds) n++;
	v->nsteps = (uint32_t)n;
	v->steps = xmalloc((n ? n : 1) * sizeof *v->steps);
	if (n) memcpy(v->steps, s.a, n * sizeof *v->steps);
	VEC_FREE(s);
}

static double stall_rate(uint64_t stalls, uint64_t n) { return n ? (double)stalls / (double)n : 0; }

/* How busy the machine was, from a compute stall rate (0: a quiet machine's
 * 1 % or so at ≤ busy_lo, 1: a busy or oversubscribed one's at ≥ busy_hi;
 * docs/verdicts.md).  `typical`: the lower quartile of the ranks' own rates
 * (slow ranks or a ramp stall only some ranks, machine noise all: for the
 * imbalance test); else the rate over all compute segments (for background
 * and noise, which claim what imbalance left). */
static double ramp(double x, double lo, double hi)
{
	if (!(hi > lo)) return x >= hi ? 1 : 0;
	return clamp01((x - lo) / (hi - lo));
}

double verdict_machine_busy(const struct tc_rootcause *rc, const struct tc_verdict_opts *o, bool typical)
{
	if (typical) return ramp(rc->compute_stall_rate_q1, o->busy_lo, o->busy_hi);
	/* over all compute: by count, or by time held (the machine holds a rank
	 * at any moment, so a long segment is hit more often than the short gaps
	 * between MPI calls that dilute a count: 10 ranks on 2 busy cores stalled
	 * 1.4 % of the segments but 9 % of the compute time) */
	return TC_MAX(ramp(stall_rate(rc->n_compute_stalls, rc->n_compute), o->busy_lo, o->busy_hi),
		      ramp(rc->compute_stall_share, o->held_lo, o->held_hi));
}

/* How far the blamed ranks stand out from the others.  Machine noise gives
 * every rank some compute excess; a delay, or a rank slow throughout, is well
 * above it by one of two measures: its largest single excess against the
 * largest of every other rank (a delay stands above any stall the noise
 * made), or its excess summed over the run against the median of the other
 * ranks (a persistent imbalance, a ramp, stands above the typical rank).  The
 * smallest blamed rank's value counts; the larger ratio counts.  Infinite when
 * the others have none. */
static double ratio_of(const double *v, uint32_t N, const bool *is_bl, double busy, bool summed)
{
	double lo = INFINITY, other = 0;
	double *o = xmalloc((N ? N : 1) * sizeof *o);
	uint32_t n = 0;
	for (uint32_t r = 0; r < N; r++) {
		if (is_bl[r]) lo = TC_MIN(lo, v[r]);
		else o[n++] = v[r];
	}
	double mx = 0;
	for (uint32_t i = 0; i < n; i++) mx = TC_MAX(mx, o[i]);
	/* summed: against the typical other rank; on a busy machine, whose noise
	 * falls unevenly on the ranks, against the worst other rank */
	other = summed ? tc_median(o, n) : mx;
	if (summed) other += busy * (mx - other);
	free(o);
	if (!n) return INFINITY;
	return other > 0 ? lo / other : INFINITY;
}

/* Each rank's compute excess over the whole run: summed, its largest, and how
 * many of its compute segments have some. */
static void compute_excess(const struct tc_rootcause *rc, double *sum, double *big, uint32_t *cnt)
{
	/* the activities without excess add nothing */
	for (uint32_t r = 0, x = 0; x < rc->nexcess; x++) {
		uint32_t i = rc->ex_act[x];
		while (rc->act_first[r + 1] <= i) r++;
		if (tc_rc_act_kind(rc, i) == TC_ACT_COMPUTE) {
			sum[r] += rc->act_excess[i];
			big[r] = TC_MAX(big[r], (double)rc->act_excess[i]);
			cnt[r]++;
		}
	}
}

/* The slowest rank: the largest compute excess per segment that has some,
 * over ranks with at least 3 such segments (slow throughout, not delayed once)
 * and no hot spot; TC_NONE: none. */
static uint32_t slowest_rank(const struct tc_rootcause *rc, const double *sum, const uint32_t *cnt, const bool *hot)
{
	uint32_t top = TC_NONE;
	for (uint32_t r = 0; r < rc->nranks; r++)
		if (!hot[r] && cnt[r] >= 3 && (top == TC_NONE || sum[r] / cnt[r] > sum[top] / cnt[top])) top = r;
	return top;
}

/* ratio_of for the ranks bl[0..k) against the others. */
static double ranks_ratio(const struct tc_rootcause *rc, const double *v, const uint32_t *bl, uint32_t k, double busy,
			  bool summed)
{
	bool *is_bl = xcalloc(rc->nranks ? rc->nranks : 1, sizeof *is_bl);
	for (uint32_t i = 0; i < k; i++) is_bl[bl[i]] = true;
	double x = ratio_of(v, rc->nranks, is_bl, busy, summed);
	free(is_bl);
	return x;
}

/* Rank r's summed compute excess against the typical other rank's. */
static double summed_standout(const struct tc_rootcause *rc, const double *sum, uint32_t r, double busy)
{
	return ranks_ratio(rc, sum, &r, 1, busy, true);
}

/* How far the blamed ranks stand out, as a share of what is asked (≥ 1:
 * they stand out), by the larger of the two measures.  The summed excess
 * must stand out need_summed times: on a busy machine the noise falls
 * unevenly on the ranks and sums to more on some.  The single largest excess
 * need_single times: it is measured against the largest hold of every other
 * rank, which already grows with the noise (clean runs on 2 busy cores: at
 * most 1.3; a 40–60 ms delay there: 2.6–15). */
static double standout(const struct tc_rootcause *rc, const double *sum, const double *big, const uint32_t *bl,
		       uint32_t k, double busy, double need_single, double need_summed, double *single, double *summed)
{
	*summed = ranks_ratio(rc, sum, bl, k, busy, true);
	*single = ranks_ratio(rc, big, bl, k, busy, false);
	return TC_MAX(*summed / need_summed, *single / need_single);
}

/* A ramp (each rank a little slower than the one before) puts the critical
 * path through whichever slow rank ends last, often not the slowest; several
 * ranks slow throughout (a group given 3x the work) share the path between
 * them at random, and a rank delayed once may hold more of it than any of
 * them: blamed_ranks, which asks each to hold half of the largest path
 * excess, named 5 of 8 slow ranks of 64, or only the delayed one.  So every
 * rank slow throughout is named beside the path's: at least 3 compute
 * segments with excess, its summed excess standing out by itself and at
 * least half the largest of the path's ranks' (as blamed_ranks asks of each:
 * a rank with a few small stalls is not "slow"); the slowest first
 * (slowest_rank: the largest excess per segment, as before session 10),
 * then by summed excess while fewer than maxk slow ranks are named (half of
 * the ranks: 2 of 5, or every even rank at twice the work, are still an
 * imbalance, where a third left 3 of 32 slow ranks unnamed; the path's
 * other ranks, a delayed one, are not counted).  Returns the new count of bl
 * (sorted). */
static uint32_t add_slow_ranks(const struct tc_rootcause *rc, const double *sum, const uint32_t *cnt, const bool *hot,
			       double busy, double need, uint32_t maxk, uint32_t *bl, uint32_t k)
{
	uint32_t N = rc->nranks, top = slowest_rank(rc, sum, cnt, hot);
	if (top == TC_NONE) return k;
	bool *in = xcalloc(N, sizeof *in);
	double most = 0;
	for (uint32_t i = 0; i < k; i++) {
		in[bl[i]] = true;
		most = TC_MAX(most, sum[bl[i]]);
	}
	double *v = xmalloc((size_t)N * 2 * sizeof *v);
	uint32_t n = 0;
	for (uint32_t r = 0; r < N; r++)
		if (r != top && !in[r] && !hot[r] && cnt[r] >= 3 && sum[r] >= 0.5 * most) {
			v[2 * n] = sum[r];
			v[2 * n + 1] = r;
			n++;
		}
	qsort(v, n, 2 * sizeof *v, cmp_desc);
	/* the slowest whatever maxk, then the others while the slow ranks named
	 * are fewer than maxk (the path's ranks apart: a delayed rank is another
	 * cause); the others are at least half the most already */
	uint32_t added = 0;
	if (in[top]) added++;
	else if (sum[top] >= 0.5 * most && summed_standout(rc, sum, top, busy) >= need) bl[k++] = top, added++;
	for (uint32_t j = 0; j < n && added < maxk; j++) {
		uint32_t r = (uint32_t)v[2 * j + 1];
		if (summed_standout(rc, sum, r, busy) >= need) bl[k++] = r, added++;
	}
	free(v);
	free(in);
	qsort(bl, k, sizeof *bl, tc_cmp_u32);
	return k;
}

/* Delays in parallel: two ranks held in the same iteration make their
 * neighbours wait for whichever ends last, and the critical path runs through
 * that one only (probe-mix5 z-halo-9p-same-s118: ranks 2 and 7 held 30 ms each
 * in iteration 10, 7 ending 0.17 ms later, named alone, where fixing it would
 * leave 2's delay on the path).  A rank off the named ones joins them when
 *  - its largest compute excess is at least half the named ranks' largest,
 *  - and big enough to be a claim of its own were it on the path: at least
 *    half of path_full of the path (a rank slow throughout, named, beside one
 *    machine stall of 2.7 ms on a neighbour, 1.6 % of a 167 ms path:
 *    probe-mix m-halo-6p-slow-s56),
 *  - the named ranks and it together still stand out by their largest single
 *    excess from every other rank (need_single, as standout asks),
 *  - and others waited for it: its long-term delay cost is at least half its
 *    largest excess (a delay absorbed by slack cost the run nothing; one
 *    waiting neighbour's wait is a little less than the whole delay).
 * While fewer than maxk ranks are named, the largest first.  Their path
 * excess, if any, counts in the claim as the slow ranks' does.  Returns the
 * new count of bl (sorted). */
static uint32_t add_parallel_delays(const struct tc_rootcause *rc, const double *big, const bool *hot,
				    double need_single, double least, uint32_t maxk, uint32_t *bl, uint32_t k)
{
	uint32_t N = rc->nranks;
	bool *in = xcalloc(N ? N : 1, sizeof *in);
	double top = 0, lo = INFINITY;
	for (uint32_t i = 0; i < k; i++) {
		in[bl[i]] = true;
		top = TC_MAX(top, big[bl[i]]);
		lo = TC_MIN(lo, big[bl[i]]);
	}
	least = TC_MAX(least, 0.5 * top);
	/* the other ranks, the largest excess first: a rank joins only when every
	 * rank above it did (one left out stays among the others, above the next) */
	double *v = xmalloc((size_t)(N ? N : 1) * 2 * sizeof *v);
	uint32_t n = 0;
	for (uint32_t r = 0; r < N; r++)
		if (!in[r]) {
			v[2 * n] = big[r];
			v[2 * n + 1] = r;
			n++;
		}
	qsort(v, n, 2 * sizeof *v, cmp_desc);
	for (uint32_t j = 0; j < n && k < maxk; j++) {
		uint32_t r = (uint32_t)v[2 * j + 1];
		double rest = j + 1 < n ? v[2 * j + 2] : 0, low = TC_MIN(lo, big[r]);
		if (hot[r] || !(big[r] > 0) || big[r] < least || rc->delay_cost[r] < 0.5 * big[r]) break;
		if (rest > 0 && low < need_single * rest) break;
		lo = low;
		bl[k++] = r;
	}
	free(v);
	free(in);
	qsort(bl, k, sizeof *bl, tc_cmp_u32);
	return k;
}

/* A ramp under dynamic work (each worker a little slower than the one
 * before, tasks handed to whoever is free) puts the path through slow ranks
 * that are not the slowest, and measured alone they do not stand out from
 * the slower ones off the path (probe-mix11 m11-mw-8p-ramp-s279: workers
 * 2 + (w − 1) ms per task, the path through worker 4: "noise 1.00", the ramp
 * named only off the path at 0.71).  When the path's ranks do not stand out
 * by themselves and each is slow throughout itself (at least 3 compute
 * segments with excess: a rank the machine or a delay held once or twice is
 * not), they are measured with the slow ranks that add_slow_ranks names
 * beside them (each standing out by itself, as verdict_imbalance names them
 * once the path's ranks do): when together they stand out (standout), they
 * are the claim, else nothing changes.  Growing the group one rank at a
 * time until it stood out instead named noise-stalled ranks in 12 clean
 * twins on busy or oversubscribed machines.  Returns the new count of bl
 * (sorted), with *stand, *single and *summed. */
static uint32_t with_slow_ranks(const struct tc_rootcause *rc, const double *sum, const double *big,
				const uint32_t *cnt, const bool *hot, double busy, double need_single, double need,
				uint32_t *bl, uint32_t k, double *stand, double *single, double *summed)
{
	uint32_t N = rc->nranks;
	for (uint32_t i = 0; i < k; i++)
		if (cnt[bl[i]] < 3) return k;
	uint32_t *tmp = xmalloc((N ? N : 1) * sizeof *tmp);
	memcpy(tmp, bl, k * sizeof *tmp);
	uint32_t k2 = add_slow_ranks(rc, sum, cnt, hot, busy, need, TC_MAX(1u, N / 2), tmp, k);
	double si = 0, su = 0, s2 = k2 > k ? standout(rc, sum, big, tmp, k2, busy, need_single, need, &si, &su) : 0;
	if (s2 >= 1) {
		memcpy(bl, tmp, k2 * sizeof *bl);
		k = k2;
		*stand = s2;
		*single = si;
		*summed = su;
	}
	free(tmp);
	return k;
}

/* All the excess on the critical path, compute and MPI, summed rank by rank. */
static double path_excess(const struct tc_rootcause *rc)
{
	double all = 0;
	for (uint32_t r = 0; r < rc->nranks; r++) all += rc->path_compute_excess[r] + rc->path_mpi_excess[r];
	return all;
}

/* The path's length at the application's own pace, for the share of a claim
 * that was tested against the machine's noise (imbalance): on a busy machine
 * the excess of the path that the claim does not hold (`held` is its own) is
 * mostly the machine's, stretching the path the claim's share is taken of
 * (40-60 % of the path on 2 busy cores, where a planted 20-25 ms delay then
 * held 5-8 % of it against 15-20 % on a quiet machine); that excess counts
 * out by the busyness.  The machine's own share is the noise claim's. */
static double app_path(const struct tc_rootcause *rc, const struct tc_verdict_opts *o, double held)
{
	double all = path_excess(rc), rest = all > held ? all - held : 0;
	double len = rc->path_len - verdict_machine_busy(rc, o, false) * rest;
	return len > held && len > 0 ? len : rc->path_len;
}

/* The evidence, the blamed steps and the text of an imbalance claim v on the
 * path: held s of the path's excess (S of the path, conc of its compute
 * excess), standing out single / summed. */
static void imbalance_describe(struct tc_verdict *v, const struct tc_verdicts *V, const struct tc_trace *t,
			       const struct tc_rootcause *rc, const struct tc_steps *st, double held, double S,
			       double conc, double single, double summed)
{
	double dc = 0, own = 0, caused = 0, waited = 0;
	uint32_t k = v->nranks;
	for (uint32_t i = 0; i < k; i++) {
		dc += rc->delay_cost[v->ranks[i]];
		own += V->rank[v->ranks[i]].own_late;
		caused += V->rank[v->ranks[i]].caused;
		waited += V->rank[v->ranks[i]].waited;
	}
	ev_add(v, "excess_s", held);
	ev_add(v, "path_share", S);
	ev_add(v, "concentration", conc);
	ev_add(v, "delay_cost_s", dc);
	ev_add(v, "path_s", rc->path_len);
	ev_add(v, "standout", TC_MAX(single, summed));
	ev_add(v, "standout_single", single);
	ev_add(v, "standout_summed", summed);
	ev_add(v, "path_compute_share", rc->share[TC_CP_COMPUTE]);
	ev_add(v, "own_late_s", own);
	ev_add(v, "caused_s", caused);
	ev_add(v, "waited_s", waited);
	blame_steps(v, t, rc, st, V->opts.max_steps);
	char *rs = ranks_str(v->ranks, v->nranks);
	char b1[32], b2[32], b3[32];
	fmt_seconds(b1, sizeof b1, held);
	fmt_seconds(b2, sizeof b2, dc);
	struct strbuf sb;
	sb_init(&sb);
	for (uint32_t i = 0; i < v->nsteps && i < 3; i++) {
		fmt_seconds(b3, sizeof b3, v->steps[i].seconds);
		sb_printf(&sb, "%srank %u step %u at %.4f s (+%s)", i ? ", " : "", v->steps[i].rank, v->steps[i].step,
			  v->steps[i].at, b3);
	}
	v->summary = xasprintf("compute imbalance: rank%s %s computed %s beyond the typical on the critical path "
			       "(%.0f%% of it) and made others wait %s; worst at %s", k > 1 ? "s" : "", rs, b1, 100 * S, b2,
			       sb.s ? sb.s : "-");
	v->advice = xasprintf("rebalance the work of rank%s %s (their computation before the named steps), or "
			      "check those ranks' nodes for interference", k > 1 ? "s" : "", rs);
	sb_free(&sb);
	free(rs);
}

/* The weight of an imbalance by its size in seconds: full from opts.imb_min_s
 * (one scheduler slice) on.  A share of the path alone made 72 µs of rank 0's
 * first compute segment in a clean 0.26 ms ring allreduce on 4 ranks (2
 * cores) "imbalance 1.00" (docs/verdicts.md, compute imbalance). */
static double significant(double held, const struct tc_verdict_opts *o)
{
	return o->imb_min_s > 0 ? clamp01(held / o->imb_min_s) : 1;
}

void verdict_imbalance(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
		       const struct tc_steps *st, const bool *hot)
{
	const struct tc_verdict_opts *o = &V->opts;
	uint32_t N = rc->nranks;
	double X = 0;
	for (uint32_t r = 0; r < N; r++) X += rc->path_compute_excess[r];
	if (!(X > 0) || !(rc->path_len > 0)) return;
	uint32_t maxk = TC_MAX(1u, (uint32_t)(o->imb_max_ranks * N));
	uint32_t *bl = xmalloc((N ? N : 1) * sizeof *bl);
	double held;
	uint32_t k = blamed_ranks(rc, o->imb_concentration * X, maxk, bl, &held);
	/* a master's lateness is the traffic it handles: not compute imbalance */
	uint32_t kk = 0;
	for (uint32_t i = 0; i < k; i++)
		if (!hot[bl[i]]) bl[kk++] = bl[i];
		else held -= rc->path_compute_excess[bl[i]];
	k = kk;
	if (!k) { free(bl); return; }
	/* on a busy machine the noise itself makes some ranks' sums stand out: ask
	 * for twice as much of them (standout) */
	double single, summed, busy = verdict_machine_busy(rc, o, true);
	double *sum = xcalloc(N ? N : 1, sizeof *sum), *big = xcalloc(N ? N : 1, sizeof *big);
	uint32_t *cnt = xcalloc(N ? N : 1, sizeof *cnt);
	compute_excess(rc, sum, big, cnt);
	double need = o->imb_standout * (1 + busy);
	double stand = standout(rc, sum, big, bl, k, busy, o->imb_standout, need, &single, &summed);
	double least = 0.5 * o->path_full * rc->path_len;
	if (!(stand >= 1)) {
		/* two delays in parallel hide each other from the single measure (the
		 * other's 40 ms is the largest hold of "every other rank"), and on a
		 * busy machine the summed one asks too much (probe-parallel under
		 * load read "noise"): the path's ranks with their parallel delays,
		 * which stand out together by construction, are measured together */
		uint32_t k2 = add_parallel_delays(rc, big, hot, o->imb_standout, least, TC_MAX(k, maxk), bl, k);
		if (k2 > k) {
			k = k2;
			stand = standout(rc, sum, big, bl, k, busy, o->imb_standout, need, &single, &summed);
		}
	}
	if (!(stand >= 1))
		k = with_slow_ranks(rc, sum, big, cnt, hot, busy, o->imb_standout, need, bl, k, &stand, &single, &summed);
	if (stand >= 1) {  /* the slow ranks named beside them hold their path excess too */
		k = add_slow_ranks(rc, sum, cnt, hot, busy, need, TC_MAX(1u, N / 2), bl, k);
		k = add_parallel_delays(rc, big, hot, o->imb_standout, least, TC_MAX(k, maxk), bl, k);
		held = 0;
		for (uint32_t i = 0; i < k; i++) held += rc->path_compute_excess[bl[i]];
	}
	free(sum);
	free(big);
	free(cnt);
	if (!(stand >= 1)) { free(bl); return; }
	double S = held / app_path(rc, o, held), conc = held / X;
	V->path_imbalance = held;
	struct tc_verdict *v = vnew(b, TC_CAUSE_IMBALANCE, TC_NONE);
	set_ranks(v, bl, k);
	free(bl);
	/* full weight at twice what is asked, less one (3 for the 2 asked) */
	double full = TC_MAX((single - 1) / (2 * (o->imb_standout - 1)), (summed - 1) / (2 * (need - 1)));
	v->confidence = clamp01(S / o->path_full) * clamp01(conc / o->imb_concentration) * clamp01(full) *
			significant(held, o);
	imbalance_describe(v, V, t, rc, st, held, S, conc, single, summed);
}

/* Persistent imbalance off the critical path.  Under dynamic work
 * distribution (a master handing out tasks) the path runs through the workers
 * that are fast, and a slow rank's excess never lies on it; yet the run lost
 * the capacity that rank wasted: with every rank at the typical speed the same
 * tasks, spread over the workers, end earlier by about the ranks' summed
 * excess over the number of computing ranks.  Claimed, when the path holds no
 * imbalance, if the slowest rank (slowest_rank) stands out by its summed
 * excess as verdict_imbalance's ranks must; blames the ranks with at least half
 * its sum; confidence = that capacity share of the path (against path_full) ×
 * how far it stands out.  Evidence "persistent" = 1. */
void verdict_persistent(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc,
			const struct tc_steps *st, const bool *hot)
{
	const struct tc_verdict_opts *o = &V->opts;
	uint32_t N = rc->nranks;
	if (!N || !(rc->path_len > 0)) return;
	double *sum = xcalloc(N, sizeof *sum), *big = xcalloc(N, sizeof *big);
	uint32_t *cnt = xcalloc(N, sizeof *cnt), *bl = xmalloc(N * sizeof *bl), k = 0, workers = 0;
	compute_excess(rc, sum, big, cnt);
	double busy = verdict_machine_busy(rc, o, true), need = o->imb_standout * (1 + busy), tot = 0, held = 0;
	uint32_t top = slowest_rank(rc, sum, cnt, hot);
	double stand = top == TC_NONE ? 0 : summed_standout(rc, sum, top, busy);
	for (uint32_t r = 0; r < N && stand >= need; r++) {
		if (hot[r]) continue;
		tot += sum[r];
		workers += rc->act_first[r + 1] > rc->act_first[r];
		if (r != top && !(sum[r] >= 0.5 * sum[top])) continue;
		bl[k++] = r;
		held += sum[r];
	}
	double S = workers ? tot / workers / rc->path_len : 0;
	double conf = clamp01(S / o->path_full) * clamp01((stand - 1) / (2 * (need - 1))) * significant(held, o);
	free(sum); free(big); free(cnt);
	if (!k || !(conf > 0)) { free(bl); return; }
	struct tc_verdict *v = vnew(b, TC_CAUSE_IMBALANCE, TC_NONE);
	set_ranks(v, bl, k);
	free(bl);
	v->confidence = conf;
	ev_add(v, "excess_s", held);
	ev_add(v, "persistent", 1);
	ev_add(v, "capacity_share", S);
	ev_add(v, "path_share", 0);
	ev_add(v, "path_s", rc->path_len);
	ev_add(v, "standout", stand);
	ev_add(v, "standout_summed", stand);
	blame_steps(v, t, rc, st, o->max_steps);
	char *rs = ranks_str(v->ranks, v->nranks);
	char b1[32];
	fmt_seconds(b1, sizeof b1, held);
	v->summary = xasprintf("compute imbalance: rank%s %s computed %s beyond the typical rank throughout the run "
			       "(about %.0f%% of the run's length in lost capacity), off the critical path: the work "
			       "distribution gave %s less to do", k > 1 ? "s" : "", rs, b1, 100 * S, k > 1 ? "them" : "it");
	v->advice = xasprintf("find why rank%s %s compute%s slower than the others (%s node%s, %s share of the data), "
			      "or rebalance the work", k > 1 ? "s" : "", rs, k > 1 ? "" : "s", k > 1 ? "their" : "its",
			      k > 1 ? "s" : "", k > 1 ? "their" : "its");
	free(rs);
}

/* The smallest run of time bins holding `need` of the total (two pointers). */
static void densest(const double *bin, uint32_t n, double need, uint32_t *lo, uint32_t *hi)
{
	double sum = 0;
	uint32_t best_lo = 0, best_hi = n - 1, a = 0;
	for (uint32_t z = 0; z < n; z++) {
		sum += bin[z];
		while (a < z && sum - bin[a] >= need) sum -= bin[a++];
		if (sum >= need && z - a < best_hi - best_lo) { best_lo = a; best_hi = z; }
	}
	*lo = best_lo;
	*hi = best_hi;
}

#define BG_BINS 20

/* Activity i is a collective call (background counts point-to-point
 * transfers only: verdict_background). */
static bool act_collective(const struct tc_trace *t, const struct tc_rootcause *rc, uint32_t i)
{
	return t->regions[rc->ctx[tc_rc_act_ctx(rc, i)].region].kind == TC_RK_MPI_COLL;
}

bool verdict_act_p2p(const struct tc_trace *t, const struct tc_rootcause *rc, uint32_t i)
{
	uint32_t reg = rc->ctx[tc_rc_act_ctx(rc, i)].region;
	uint8_t kind = reg < t->nregions ? t->regions[reg].kind : TC_RK_MPI_OTHER;
	return kind != TC_RK_MPI_COLL && kind != TC_RK_MPI_ICOLL && kind != TC_RK_MPI_OTHER;
}

bool verdict_piece_own_mpi(const struct tc_verdicts *V, const struct tc_cp_piece *p)
{
	return p->kind == TC_CP_MPI_INTRA || (p->kind == TC_CP_MPI_INTER && !(V->path_mapping > 0));
}

/* A time-localised episode: most of the stalled own MPI time in a fifth to two
 * fifths of the span.  Sets the verdict's window. */
static void episode(struct tc_verdict *v, const struct tc_trace *t, const struct tc_latency *lat,
		    const struct tc_rootcause *rc)
{
	double bin[BG_BINS] = { 0 }, tot = 0;
	uint64_t span = rc->t1 > rc->t0 ? rc->t1 - rc->t0 : 1;
	/* an outlier has excess: the activities with excess are the candidates */
	for (uint32_t r = 0, x = 0; x < rc->nexcess; x++) {
		uint32_t i = rc->ex_act[x];
		while (rc->act_first[r + 1] <= i) r++;
		if (tc_rc_act_kind(rc, i) != TC_ACT_MPI || rc->act_outlier[i] != 1 || act_collective(t, rc, i)) continue;
		uint64_t start = tc_rc_act_start(rc, r, i);
		uint64_t at = start > rc->t0 ? start - rc->t0 : 0;
		uint32_t k = (uint32_t)TC_MIN((uint64_t)BG_BINS - 1, at * BG_BINS / span);
		bin[k] += rc->act_excess[i];
		tot += rc->act_excess[i];
	}
	if (!(tot > 0)) return;
	uint32_t lo, hi;
	densest(bin, BG_BINS, 0.8 * tot, &lo, &hi);
	if (hi - lo + 1 > 2 * BG_BINS / 5) return;
	uint64_t s = rc->t0 + span * lo / BG_BINS, e = rc->t0 + span * (hi + 1) / BG_BINS;
	v->windowed = true;
	v->start = tc_sec(t, s);
	v->end = tc_sec(t, e);
	uint32_t W = lat->nwindows ? lat->nwindows : 1;
	uint64_t dt = lat->win_dt ? lat->win_dt : 1;
	v->win_first = (uint32_t)TC_MIN((uint64_t)W - 1, s > lat->win_t0 ? (s - lat->win_t0) / dt : 0);
	v->win_last = (uint32_t)TC_MIN((uint64_t)W - 1, e > lat->win_t0 ? (e - 1 - lat->win_t0) / dt : 0);
	ev_add(v, "episode_share", 0.8);
}

/* MPI's stalls per second of its typical own time (0 without any). */
static double mpi_stalls_per_s(const struct tc_rootcause *rc)
{
	return rc->typical_mpi_s > 0 ? (double)rc->n_mpi_stalls / rc->typical_mpi_s : 0;
}

/* The ratio of MPI's stall rate to compute's, by count and by time.  By count
 * (stalls per call against stalls per compute segment), as measured on the
 * corpus; by time (stalls per second of typical own time against stalls per
 * second of typical compute), because a machine that holds ranks holds them
 * per second, not per call: a code that is nearly all MPI (a ring allreduce
 * whose compute is a few µs between Sendrecvs) has segments too short to be
 * hit, and 64 ranks of it on 2 cores stalled 39 % of their transfers against
 * 0.1 % of their compute segments (453×) but 3.3× as often per second, and
 * read "background 1.00".  The smaller counts.  NAN without any compute
 * stall (compute_exposure decides then). */
static double stall_ratio(const struct tc_rootcause *rc)
{
	double rm = stall_rate(rc->n_mpi_stalls, rc->n_mpi), rcmp = stall_rate(rc->n_compute_stalls, rc->n_compute);
	double tm = mpi_stalls_per_s(rc);
	double tc = rc->typical_compute_s > 0 ? (double)rc->n_compute_stalls / rc->typical_compute_s : 0;
	return rcmp > 0 && tc > 0 ? TC_MIN(rm / rcmp, tm / tc) : NAN;
}

/* Without any compute stall: how exposed the compute was.  At MPI's stall
 * rate per second of typical time the compute would have stalled e times; it
 * counts fully from EXPOSED_STALLS on, linearly below (a few µs of compute
 * cannot show the machine's holds, docs/verdicts.md, background). */
#define EXPOSED_STALLS 3.0

static double compute_exposure(const struct tc_rootcause *rc)
{
	return clamp01(mpi_stalls_per_s(rc) * rc->typical_compute_s / EXPOSED_STALLS);
}

/* How much of the MPI stalling is beyond the machine's noise: MPI stalling
 * bg_stall_ratio (7) times as often as compute counts fully, 4 times or less
 * not at all (a busy or oversubscribed machine stalls MPI more often than
 * compute too: busy-polling ranks fight for the cores, 1.3–4.3× in the clean
 * runs of the corpus; planted background stalled 8–60× as often), linear
 * between. */
static double beyond_noise(const struct tc_rootcause *rc, const struct tc_verdict_opts *o)
{
	if (!rc->n_mpi_stalls) return 0;
	double ratio = stall_ratio(rc);
	if (isnan(ratio)) return compute_exposure(rc);
	double lo = 4.0 / 7.0 * o->bg_stall_ratio;
	return clamp01((ratio - lo) / (o->bg_stall_ratio - lo)) * (1 - verdict_machine_busy(rc, o, false));
}

/* The background claim of a few links or ranks (L, part: the path's seconds it claims). */
static void link_background(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_latency *lat,
			    const struct tc_rootcause *rc, const struct vlink_claim *L, double part)
{
	const struct tc_verdict_opts *o = &V->opts;
	V->path_background = part;
	double S = part / rc->path_len;
	struct tc_verdict *v = vnew(b, TC_CAUSE_BACKGROUND, TC_NONE);
	set_ranks(v, L->ranks, L->nranks);
	v->confidence = clamp01(S / o->path_full);
	episode(v, t, lat, rc);
	ev_add(v, "stalled_s", L->B);
	ev_add(v, "largest_stall_s", L->top);
	ev_add(v, "path_share", S);
	ev_add(v, "links", L->nlinks);
	ev_add(v, "place_ranks", L->nranks);
	ev_add(v, "link_messages", (double)L->n);
	ev_add(v, "link_stalled", (double)L->k);
	ev_add(v, "link_stall_rate", L->rate);
	ev_add(v, "reference_stall_rate", L->ref);
	ev_add(v, "beyond_noise", L->beyond);
	ev_add(v, "mpi_stall_rate", V->mpi_stall_rate);
	ev_add(v, "compute_stall_rate", V->compute_stall_rate);
	char b1[32], when[64] = "", more[48] = "";
	fmt_seconds(b1, sizeof b1, L->B);
	if (v->windowed) snprintf(when, sizeof when, " in %.3f-%.3f s", v->start, v->end);
	char *rs = ranks_str(v->ranks, v->nranks), *ns = verdict_nodes_str(t, v->ranks, v->nranks);
	if (L->nlinks) {
		if (L->nlinks > 1) snprintf(more, sizeof more, " (the worst of %u such links)", L->nlinks);
		v->summary = xasprintf("background traffic on the link between ranks %u and %u%s%s: %llu of its %llu "
				       "messages stalled (%.0f%%) against %.1f%% elsewhere, %s of the critical path (%.0f%%)",
				       L->a, L->b, more, when, (unsigned long long)L->k, (unsigned long long)L->n,
				       100 * L->rate, 100 * L->ref, b1, 100 * S);
		v->advice = xasprintf("O3 check the link between ranks %u and %u (%s: another job's traffic, a faulty "
				      "link), or rerun on other nodes: the application is not at fault", L->a, L->b, ns);
	} else {
		bool many = v->nranks > 1;
		v->summary = xasprintf("background traffic at rank%s %s (%s)%s: %llu of rank %u's %llu messages stalled "
				       "(%.0f%%) against %.1f%% elsewhere, %s of the critical path (%.0f%%)",
				       many ? "s" : "", rs, ns, when, (unsigned long long)L->k, L->a, (unsigned long long)L->n,
				       100 * L->rate, 100 * L->ref, b1, 100 * S);
		v->advice = xasprintf("O3 check %s and the links of rank%s %s (another job's traffic, a faulty link), "
				      "or rerun on other nodes: the application is not at fault", ns, many ? "s" : "", rs);
	}
	free(rs);
	free(ns);
}

void verdict_background(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_latency *lat,
			const struct tc_rootcause *rc)
{
	const struct tc_verdict_opts *o = &V->opts;
	V->mpi_stall_rate = stall_rate(rc->n_mpi_stalls, rc->n_mpi);
	V->compute_stall_rate = stall_rate(rc->n_compute_stalls, rc->n_compute);
	/* when the mapping is claimed, the inter-node pieces' time is its (the
	 * placement makes them slow: their stalls are not background).  Only
	 * point-to-point calls count: a collective's own time waits for every
	 * member to be scheduled, so on a busy machine it stalls about as often as
	 * any of its members' compute would (48 ranks of a clean collectives-only
	 * code on 2 cores: 3.1 % of the calls, "background 0.51"); background is
	 * traffic on messages (docs/verdicts.md, A3).  Only stalls count: excess
	 * of stall_min at least, the yardstick of the stall counts this claim's
	 * rates come from (40 ranks of a clean tree on 2 cores: transfers held
	 * 0.1-0.36 ms by busy-polling neighbours, outliers of µs calls but under
	 * the 0.3 ms of a stall, summed to 11 % of the path, "background 0.72") */
	double B = 0, top = 0;
	for (size_t i = 0; i < rc->npath; i++) {
		const struct tc_cp_piece *p = &rc->path[i];
		if (!verdict_piece_own_mpi(V, p) || act_collective(t, rc, p->act) || p->excess < rc->stall_min) continue;
		B += p->excess;
		top = TC_MAX(top, (double)p->excess);
	}
	if (!(B > 0) || !(rc->path_len > 0)) return;
	double beyond = beyond_noise(rc, o);
	double spread = rc->stall_ranks_mpi >= 2 ? 1.0 : 0.5;
	/* background stalls many transfers: the largest single stall on the path
	 * is left out (one call held 19 ms by the OS is an event, not traffic;
	 * many similar stalls lose one of many) */
	double part = (B - top) * beyond;
	/* or on a few links, which the run's rate hides (verdict_link.c) */
	struct vlink_claim L;
	if (verdict_link(V, t, rc, &L)) {
		/* the places are named when they claim more, or hold most of the
		 * stalled excess the run's rate claims too (which then claims the
		 * time it would have claimed) */
		double lpart = (L.B - L.top) * L.beyond * (1 - verdict_machine_busy(rc, o, false));
		bool most = L.B >= 0.5 * B;
		if (most) lpart = TC_MAX(lpart, part);
		if (lpart > part || (most && part > 0)) {
			link_background(b, V, t, lat, rc, &L, lpart);
			free(L.ranks);
			return;
		}
		free(L.ranks);
	}
	V->path_background = part;
	double S = part / rc->path_len;
	struct tc_verdict *v = vnew(b, TC_CAUSE_BACKGROUND, TC_NONE);
	set_ranks(v, NULL, 0);
	v->confidence = clamp01(S / o->path_full) * spread;
	episode(v, t, lat, rc);
	ev_add(v, "stalled_s", B);
	ev_add(v, "largest_stall_s", top);
	ev_add(v, "path_share", S);
	ev_add(v, "mpi_stall_rate", V->mpi_stall_rate);
	ev_add(v, "compute_stall_rate", V->compute_stall_rate);
	ev_add(v, "stall_ranks", rc->stall_ranks_mpi);
	ev_add(v, "stall_pairs", rc->stall_pairs_mpi);
	ev_add(v, "beyond_noise", beyond);
	ev_add(v, "compute_held_share", rc->compute_stall_share);
	ev_add(v, "typical_compute_s", rc->typical_compute_s);
	ev_add(v, "typical_mpi_s", rc->typical_mpi_s);
	char b1[32];
	fmt_seconds(b1, sizeof b1, B);
	char when[64] = "";
	if (v->windowed) snprintf(when, sizeof when, " in %.3f-%.3f s", v->start, v->end);
	v->summary = xasprintf("background traffic%s: MPI calls stalled beyond their typical own time for %s of the "
			       "critical path (%.0f%%), %.1f%% of transfers against %.1f%% of compute segments, on %u ranks",
			       when, b1, 100 * S, 100 * V->mpi_stall_rate, 100 * V->compute_stall_rate, rc->stall_ranks_mpi);
	v->advice = xasprintf("O3 rerun at another time or on other nodes: the application is not at fault%s (the "
			      "network or the nodes were busy)", v->windowed ? " in this window" : "");
}

void verdict_noise(struct vb *b, struct tc_verdicts *V, const struct tc_trace *t, const struct tc_rootcause *rc)
{
	const struct tc_verdict_opts *o = &V->opts;
	uint32_t N = rc->nranks;
	if (!N || !(rc->path_len > 0)) return;
	double rest = path_excess(rc) - V->path_imbalance - V->path_background;
	if (V->path_mapping > 0)  /* the inter-node pieces are the mapping's */
		for (size_t i = 0; i < rc->npath; i++)
			if (rc->path[i].kind == TC_CP_MPI_INTER) rest -= rc->path[i].excess;
	if (!(rest > 0)) return;
	uint32_t ranks = TC_MAX(rc->stall_ranks_compute, rc->stall_ranks_mpi);
	double spread = clamp01((double)ranks / N / o->noise_rank_share);
	double S = rest / rc->path_len, busy = verdict_machine_busy(rc, o, false);
	V->path_noise = rest;
	struct tc_verdict *v = vnew(b, TC_CAUSE_NOISE, TC_NONE);
	set_ranks(v, NULL, 0);
	v->confidence = clamp01(S / o->path_full) * spread * busy;
	ev_add(v, "excess_s", rest);
	ev_add(v, "path_share", S);
	ev_add(v, "stall_ranks", ranks);
	ev_add(v, "compute_stall_rate", V->compute_stall_rate);
	ev_add(v, "mpi_stall_rate", V->mpi_stall_rate);
	ev_add(v, "compute_spread_s", rc->compute_spread);
	ev_add(v, "compute_held_share", rc->compute_stall_share);
	ev_add(v, "compute_stall_height_s", rc->compute_stall_height);
	ev_add(v, "machine_busy", busy);
	char b1[32];
	fmt_seconds(b1, sizeof b1, rest);
	v->summary = xasprintf("system noise: short stalls in computation and MPI spread over %u of %u ranks cost %s "
			       "of the critical path (%.0f%%); no single rank or transfer stands out", ranks, N, b1, 100 * S);
	v->advice = xasprintf("run on dedicated nodes with fewer ranks per core, pin ranks to cores, or check for other "
			      "jobs and daemons on the nodes");
	(void)t;
}
