/* rcexcess.c — typical values per context and excess over them, the passes
 * of tc_rootcause_compute after the activities (analysis_rootcause.h,
 * docs/rootcause.md §3 and "Cost"):
 *  3. contexts: the activities' values gathered context by context in one
 *     pass over the activities (rank order within a context), then per context
 *     the median and MAD by selection (linear), each rank's median there, the
 *     back-off of thin compute contexts, and the pooled robust spread of
 *     compute, from which the noise floor;
 *  4. excess: one pass over the activities sets the outlier excess, counts
 *     the stalls, sums the waiting per rank and applies the persistent excess
 *     of the ranks whose median in a context stands above the cross-rank lower
 *     quartile (decided per context beforehand). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rcexcess_internal.h"

static int pers_cmp(const void *x, const void *y)
{
	const struct pers *a = x, *b = y;
	if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
	return a->ctx < b->ctx ? -1 : a->ctx > b->ctx;
}

/* The room in g->val of each context (its values, or at most one per block
 * of each run), and of each context's runs. */
static void gather_room(const struct tc_rootcause *rc, struct groups *g, struct pick *pk, uint32_t *maxn)
{
	uint32_t nc = rc->nctx;
	*maxn = 0;
	g->first = xcalloc((size_t)nc + 1, sizeof *g->first);
	g->rfirst = xcalloc((size_t)nc + 1, sizeof *g->rfirst);
	for (uint32_t c = 0; c < nc; c++) {
		const struct tc_rc_ctx *C = &rc->ctx[c];
		pk[c] = (struct pick){ .rank = TC_NONE, .stride = sample_stride(rc, C) };
		uint32_t room = pk[c].stride == 1 ? C->n : C->n / pk[c].stride + C->nranks + 1;
		g->first[c + 1] = g->first[c] + room;  /* counted while building the activities */
		*maxn = TC_MAX(*maxn, room);
		/* room for each context's runs: its rank count from the activity pass */
		g->rfirst[c + 1] = g->rfirst[c] + C->nranks;
	}
}

/* A transfer's own time shows whole only when the partner's lateness hid
 * none of it: a blocking send whose receiver was ready (no late-receiver
 * wait), a receive (Recv, Wait) whose sender entered after it (a late-sender
 * wait: rc_whole_transfer).  Otherwise part of the transfer ran before the
 * call's own time began (the receive was posted in the middle of a send that
 * was still moving its data, or the receive was entered while its message
 * was on the way), and the own time is the rest of it.  A latency inside
 * blocking sends (emulated inter-node latency, a slow injection) makes such
 * contexts two-humped: a ring's receives are 3 ms where the receiver came
 * first and ~0 where it came last, and the 3 ms ones were outliers
 * ("background") though every message took the same 3 ms
 * (docs/rootcause.md §3, "Hidden transfers"). */
#define HIDDEN_FAST 0.1

uint8_t rc_p2p_class(const struct tc_trace *t, const struct tc_rc_ctx *C)
{
	if (C->kind != TC_ACT_MPI || C->region >= t->nregions) return 0;
	uint8_t k = t->regions[C->region].kind;
	return k == TC_RK_MPI_RECV || k == TC_RK_MPI_WAIT ? P2P_RECV : k == TC_RK_MPI_SEND ? P2P_SEND : 0;
}

void rc_groups_begin(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, struct pick **pk)
{
	uint32_t nc = rc->nctx, maxn;
	*g = (struct groups){ 0 };
	*pk = xmalloc(((size_t)nc + 1) * sizeof **pk);
	gather_room(rc, g, *pk, &maxn);
	size_t room = g->first[nc];
	g->val = tc_rc_scratch(rc, ((room ? room : 1) + (size_t)maxn + 2) * sizeof *g->val);
	g->buf = g->val + (room ? room : 1);
	g->end = xmalloc(((size_t)nc + 1) * sizeof *g->end);
	memcpy(g->end, g->first, ((size_t)nc + 1) * sizeof *g->end);
	g->rend = xmalloc(((size_t)nc + 1) * sizeof *g->rend);
	memcpy(g->rend, g->rfirst, ((size_t)nc + 1) * sizeof *g->rend);
	g->runs = tc_rc_big(((size_t)g->rfirst[nc] + 1) * sizeof *g->runs);
	g->vbin = tc_rc_big(room ? room : 1);  /* only the MPI contexts' pages are written (rc_groups_add) */
	g->p2p = xmalloc((size_t)nc + 1);
	for (uint32_t c = 0; c < nc; c++) g->p2p[c] = rc_p2p_class(t, &rc->ctx[c]);
}

/* One pass over the activities: their values into g->val, context by
 * context, and the runs (a context's activities on one rank); the distinct
 * ranks each context's picks saw into *nranks (caller frees). */
static void gather(const struct tc_trace *t, struct tc_rootcause *rc, struct groups *g, uint32_t **nranks)
{
	struct pick *pk;
	rc_groups_begin(t, rc, g, &pk);
	uint64_t span = rc->t1 > rc->t0 ? rc->t1 - rc->t0 : 1;
	for (uint32_t r = 0; r < rc->nranks; r++) {
		uint64_t s = rc->rank_t0[r];  /* the activity's start */
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			uint32_t c = tc_rc_act_ctx(rc, i);
			uint64_t from = s, e = tc_rc_act_end(rc, i);
			s = e;
			if (!pick_next(&pk[c], c, r)) continue;
			bool mpi = rc->ctx[c].kind == TC_ACT_MPI;
			uint32_t w = mpi ? tc_rc_wait_of(rc, i) : TC_NONE;
			const struct tc_rc_wait *W = w != TC_NONE ? &rc->waits[w] : NULL;
			uint8_t vbin;
			double v = rc_act_value(t, rc->t0, span, from, e, mpi, W, W ? W->ready : 0, W ? W->edge : 0,
						g->p2p[c], &vbin);
			rc_groups_add(g, c, r, v, vbin, !pk[c].run);
			pk[c].run = true;
		}
	}
	*nranks = xmalloc(((size_t)rc->nctx + 1) * sizeof **nranks);
	for (uint32_t c = 0; c < rc->nctx; c++) (*nranks)[c] = pk[c].nranks;
	free(pk);
}

/* Where run k of context c ends in g->val (the next run's start, or the context's end). */
static uint32_t run_end(const struct groups *g, uint32_t c, uint32_t k)
{
	return k + 1 < g->rend[c] ? g->runs[k + 1].at : g->end[c];
}

/* The median and MAD of the whole transfers of point-to-point context c
 * (hidden_transfer), at least 3 of them, into full_median and g->full_mad
 * when their median stands above the context's (context_stats then keeps it
 * only above the context's threshold: a whole transfer slower than an
 * outlier, not a few µs more). */
static void context_whole(struct tc_rootcause *rc, struct groups *g, uint32_t c)
{
	struct tc_rc_ctx *C = &rc->ctx[c];
	if (!g->p2p[c]) return;
	uint32_t a = g->first[c], n = g->end[c] - a, m = 0;
	for (uint32_t k = 0; k < n; k++)
		if (g->vbin[a + k] & WHOLE) g->buf[m++] = g->val[a + k];
	if (m < 3) return;
	double med = tc_median(g->buf, m);
	if (!(med > C->median)) return;
	/* the whole transfers must agree among themselves: where more than
	 * HIDDEN_FAST of them took under half their median, the slow ones are
	 * some pairs' own (a slow node: its receivers wait for it, so its
	 * transfers are whole, and the fast pairs' data is mostly there before
	 * the receive; a slow node under a tree read "mapping" otherwise,
	 * probe-place r-tree4-9p-node1-s156) */
	uint32_t fast = 0;
	for (uint32_t k = 0; k < m; k++) fast += g->buf[k] < 0.5 * med;
	if (fast > HIDDEN_FAST * m) return;
	for (uint32_t k = 0; k < m; k++) g->buf[k] = fabs(g->buf[k] - med);
	C->full_median = med;
	g->full_mad[c] = 1.4826 * tc_median(g->buf, m);
}

/* The median and MAD of context c's values and each of its runs' median. */
static void context_typical(struct tc_rootcause *rc, struct groups *g, uint32_t c)
{
	struct tc_rc_ctx *C = &rc->ctx[c];
	const double *v = g->val + g->first[c];
	uint32_t n = g->end[c] - g->first[c];  /* C->n itself when not sampled */
	C->nranks = g->nranks[c];
	if (!n) {  /* emptied by first_segments: nothing to type */
		C->typical = 1;
		return;
	}
	for (uint32_t k = g->rfirst[c]; k < g->rend[c]; k++) {
		uint32_t m = run_end(g, c, k) - g->runs[k].at;
		const double *x = g->val + g->runs[k].at;
		if (m <= 2) {  /* most runs of a context with a tag per iteration: one value */
			g->runs[k].med = m == 1 ? x[0] : (x[0] + x[1]) / 2;
			continue;
		}
		memcpy(g->buf, x, m * sizeof *v);
		g->runs[k].med = tc_median(g->buf, m);
	}
	memcpy(g->buf, v, n * sizeof *v);
	C->median = g->own[c] = tc_median(g->buf, n);
	for (uint32_t k = 0; k < n; k++) g->buf[k] = fabs(g->buf[k] - C->median);
	C->mad = 1.4826 * tc_median(g->buf, n);
	C->typical = C->n >= 3 && C->nranks >= 2;
	context_whole(rc, g, c);
}

/* An episode of background traffic longer than the rest of the run: an MPI
 * context's own time stepped up for one period (a contiguous run of at least
 * two of QUIET_BINS time bins, each bin's median above QUIET_STEP times the
 * quietest bin's and above it by the least noise floor, opts.floor_min),
 * with at least two quiet bins left, and the context's median among the slow
 * values (above QUIET_STEP times the quiet bins' median): the slow period is
 * most of the run, the median is no typical value, and nothing in it was an
 * outlier.  The context then takes the median and MAD of its quiet bins'
 * values (quiet = 1).  A slowdown shorter than the rest leaves the median
 * quiet and is found as outliers without this; one over the whole run
 * leaves no quiet bin and is how the network is; tracer-stencil4d-32p's
 * 128 KiB rendezvous sends, 1.5 times slower in the second half of a 4 ms
 * run, are neither.  Bins with fewer than QUIET_MIN values are left out
 * (docs/rootcause.md §3, "Quiet periods"). */
#define QUIET_STEP 2.0
#define QUIET_MIN 5

static void context_quiet(struct tc_rootcause *rc, struct groups *g, uint32_t c)
{
	struct tc_rc_ctx *C = &rc->ctx[c];
	uint32_t a = g->first[c], n = g->end[c] - a;
	if (C->kind != TC_ACT_MPI || n < QUIET_BINS * QUIET_MIN || !(C->median > 0)) return;
	double med[QUIET_BINS];
	uint32_t cnt[QUIET_BINS] = { 0 };
	for (uint32_t k = 0; k < n; k++) cnt[g->vbin[a + k] & ~WHOLE]++;
	double lo = INFINITY;
	for (uint32_t b = 0; b < QUIET_BINS; b++) {
		med[b] = NAN;
		if (cnt[b] < QUIET_MIN) continue;
		uint32_t m = 0;
		for (uint32_t k = 0; k < n; k++)
			if ((g->vbin[a + k] & ~WHOLE) == b) g->buf[m++] = g->val[a + k];
		med[b] = tc_median(g->buf, m);
		lo = TC_MIN(lo, med[b]);
	}
	if (!(lo > 0)) return;
	/* the slow bins: one contiguous run (bins without data inside it allowed);
	 * slow by the noise floor's least at least (a 1 µs call taking 2 µs for a
	 * while is no traffic) */
	double bar = TC_MAX(QUIET_STEP * lo, lo + rc->opts.floor_min);
	int first = -1, last = -1, nslow = 0, nquiet = 0;
	for (int b = 0; b < QUIET_BINS; b++) {
		if (isnan(med[b])) continue;
		if (med[b] > bar) {
			if (first < 0) first = b;
			last = b;
			nslow++;
		} else {
			nquiet++;
		}
	}
	if (nslow < 2 || nquiet < 2) return;
	for (int b = first; b <= last; b++)
		if (!isnan(med[b]) && !(med[b] > bar)) return;  /* not one period */
	uint32_t m = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint8_t b = g->vbin[a + k] & ~WHOLE;
		if (!isnan(med[b]) && !(med[b] > bar)) g->buf[m++] = g->val[a + k];
	}
	double q = tc_median(g->buf, m);
	if (!(C->median > QUIET_STEP * q)) return;
	C->median = q;
	for (uint32_t k = 0; k < m; k++) g->buf[k] = fabs(g->buf[k] - q);
	C->mad = 1.4826 * tc_median(g->buf, m);
	C->quiet = 1;
}

/* The values of the contexts ctx[0..nc) (the contexts of one coarse group)
 * into v; their median and MAD; *two: they are on >= 2 ranks. */
static void group_stats(const struct tc_rootcause *rc, const struct groups *g, const uint32_t *ctx, uint32_t nc,
			double *v, double *med, double *mad, bool *two)
{
	size_t n = 0;
	uint32_t r0 = TC_NONE;
	*two = false;
	for (uint32_t q = 0; q < nc; q++) {
		uint32_t c = ctx[q], m = g->end[c] - g->first[c];
		memcpy(v + n, g->val + g->first[c], m * sizeof *v);
		n += m;
		for (uint32_t k = g->rfirst[c]; k < g->rend[c]; k++) {
			if (r0 == TC_NONE) r0 = g->runs[k].rank;
			else if (g->runs[k].rank != r0) *two = true;
		}
	}
	*med = tc_median(v, n);
	for (size_t k = 0; k < n; k++) v[k] = fabs(v[k] - *med);
	*mad = 1.4826 * tc_median(v, n);
}

/* Work in code only some ranks run (docs/rootcause.md §3, "Places").  The
 * user regions between two MPI calls are part of a compute context's key, so
 * a rank that also runs a region the others do not (a checkpoint written by
 * rank 0 every sixth iteration, a routine on the edge ranks) makes contexts
 * of its own, typical of themselves: its extra work was never excess, and
 * the waiting it caused was nobody's (probe-extra: 20 ms every sixth
 * iteration on a ring read "none, 0.995"; without user regions, the same
 * work inside the compute block was found).  A place is the key without the
 * user regions: the same calls with the same tags around the segment.  A
 * compute context that is a minority variant of its place — on at most a
 * third of the ranks of the place's main context (the one on the most ranks,
 * which has a typical value of its own and is on >= 3 ranks) — takes the
 * main context's median and MAD (typical = 4): what the other ranks took at
 * that place.  Run again after the same-work back-off (after_work): a place
 * only one rank has (a chain's tail, which sends nothing) whose main context
 * took the others' value for the same work (typical = 5) lends it to a
 * variant still without one that is no more frequent there (the tail's
 * extra work every third iteration; probe-mix16 m16-chain-8p-tail-s355). */
static bool place_variant(const struct tc_rc_ctx *C, const struct tc_rc_ctx *M, bool after_work)
{
	if (!after_work) return M->typical == 1 && M->nranks >= 3 && 3 * C->nranks <= M->nranks;
	/* a place of one rank's own (a chain's tail): its main context does the
	 * others' work (typical 5), the variant is no more frequent on no more ranks */
	return M->typical == 5 && !C->typical && C->nranks <= M->nranks && C->n <= M->n;
}

static void backoff_place(struct tc_rootcause *rc, bool after_work)
{
	struct u64map g;
	u64map_init(&g);
	uint32_t ng = 0, *main_of = xmalloc(((size_t)rc->nctx + 1) * sizeof *main_of);
	uint32_t *gid = xmalloc(((size_t)rc->nctx + 1) * sizeof *gid);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		const struct tc_rc_ctx *C = &rc->ctx[c];
		gid[c] = TC_NONE;
		if (C->kind != TC_ACT_COMPUTE || !C->n) continue;
		uint32_t j = u64map_get(&g, C->place);
		if (j == U64MAP_NONE) {
			u64map_put(&g, C->place, j = ng++);
			main_of[j] = c;
		}
		gid[c] = j;
		const struct tc_rc_ctx *M = &rc->ctx[main_of[j]];
		if (C->nranks > M->nranks || (C->nranks == M->nranks && C->n > M->n)) main_of[j] = c;
	}
	u64map_free(&g);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		if (gid[c] == TC_NONE || main_of[gid[c]] == c) continue;
		struct tc_rc_ctx *C = &rc->ctx[c];
		const struct tc_rc_ctx *M = &rc->ctx[main_of[gid[c]]];
		if (!place_variant(C, M, after_work)) continue;
		C->median = M->median;
		C->mad = M->mad;
		C->typical = 4;
	}
	free(main_of);
	free(gid);
}

/* The contexts with a group (gid[c] < ng; TC_NONE: none) ordered by group, a
 * counting sort: group j's are order[first[j] .. first[j + 1]), and n[j]
 * their activities.  The caller frees first, order and n. */
static void by_group(const struct tc_rootcause *rc, const uint32_t *gid, uint32_t ng, uint32_t **first,
		     uint32_t **order, size_t **n)
{
	uint32_t *f = xcalloc((size_t)ng + 2, sizeof *f), *o = xmalloc(((size_t)rc->nctx + 1) * sizeof *o);
	size_t *k = xcalloc((size_t)ng + 1, sizeof *k);
	for (uint32_t c = 0; c < rc->nctx; c++)
		if (gid[c] != TC_NONE) {
			f[gid[c] + 2]++;
			k[gid[c]] += rc->ctx[c].n;
		}
	for (uint32_t j = 0; j < ng; j++) f[j + 2] += f[j + 1];
	for (uint32_t c = 0; c < rc->nctx; c++)
		if (gid[c] != TC_NONE) o[f[gid[c] + 1]++] = c;
	*first = f;
	*order = o;
	*n = k;
}

/* A compute context still without a typical value (after the place and
 * coarse back-offs), seen 3 times or more, whose user regions (work) other
 * contexts with typical values of their own run too: the pooled median and
 * MAD of those, when they are on >= 2 ranks (typical = 5).  The last rank of
 * a chain computes between two receives, the others between a receive and a
 * send: the same work at another place, and its own median (typical = 3)
 * hid a slow tail (probe-mix4 y-chain-6p-tail2-s105: ranks 4 and 5 slow,
 * only 4 named; docs/rootcause.md §3, "Same work"). */
static bool work_thin(const struct tc_rc_ctx *C)
{
	return C->kind == TC_ACT_COMPUTE && !C->typical && C->work && C->n >= 3;
}

static void backoff_work(struct tc_rootcause *rc, const struct groups *gr)
{
	struct u64map w;  /* a thin context's work -> its group */
	u64map_init(&w);
	uint32_t ng = 0, nc = rc->nctx;
	for (uint32_t c = 0; c < nc; c++)
		if (work_thin(&rc->ctx[c]) && u64map_get(&w, rc->ctx[c].work) == U64MAP_NONE)
			u64map_put(&w, rc->ctx[c].work, ng++);
	if (!ng) {
		u64map_free(&w);
		return;
	}
	/* each group's contexts with a typical value of their own */
	uint32_t *grp = xmalloc(((size_t)nc + 1) * sizeof *grp), *first, *order;
	size_t *n;
	for (uint32_t c = 0; c < nc; c++) {
		const struct tc_rc_ctx *K = &rc->ctx[c];
		grp[c] = K->kind == TC_ACT_COMPUTE && K->typical == 1 && K->work ? u64map_get(&w, K->work) : TC_NONE;
	}
	by_group(rc, grp, ng, &first, &order, &n);
	double *med = xmalloc((size_t)ng * sizeof *med), *mad = xmalloc((size_t)ng * sizeof *mad);
	bool *two = xcalloc((size_t)ng, sizeof *two);
	for (uint32_t j = 0; j < ng; j++) {
		if (!n[j]) continue;
		double *v = xmalloc(n[j] * sizeof *v);
		group_stats(rc, gr, order + first[j], first[j + 1] - first[j], v, &med[j], &mad[j], &two[j]);
		free(v);
	}
	for (uint32_t c = 0; c < nc; c++) {
		struct tc_rc_ctx *C = &rc->ctx[c];
		uint32_t j = work_thin(C) ? u64map_get(&w, C->work) : U64MAP_NONE;
		if (j == U64MAP_NONE || !two[j]) continue;
		C->median = med[j];
		C->mad = mad[j];
		C->typical = 5;
	}
	u64map_free(&w);
	free(grp); free(first); free(order); free(n); free(med); free(mad); free(two);
}

/* Back-off: a compute context seen fewer than 3 times or on one rank has no
 * typical value of its own (a tag unique to a rank or to an iteration makes it
 * so).  It takes the median and MAD of its coarse context (the same MPI calls
 * and user regions around it, tags left out) when that one is seen >= 3 times
 * on >= 2 ranks; then its outliers are found like everyone's, and the
 * delay-cost rule for contexts with no typical value (delaycost.c) is left for
 * the ones with none even there.  Only run when such a context exists. */
static void backoff_thin(struct tc_rootcause *rc, const struct groups *gr)
{
	uint32_t nthin = 0;
	for (uint32_t c = 0; c < rc->nctx; c++) nthin += rc->ctx[c].kind == TC_ACT_COMPUTE && !rc->ctx[c].typical;
	if (!nthin) return;
	/* the compute contexts ordered by coarse key (a counting sort over group ids) */
	struct u64map g;
	u64map_init(&g);
	uint32_t *gid = xmalloc(((size_t)rc->nctx + 1) * sizeof *gid), ng = 0;
	for (uint32_t c = 0; c < rc->nctx; c++) {
		gid[c] = TC_NONE;
		if (rc->ctx[c].kind != TC_ACT_COMPUTE) continue;
		uint32_t j = u64map_get(&g, rc->ctx[c].coarse);
		if (j == U64MAP_NONE) u64map_put(&g, rc->ctx[c].coarse, j = ng++);
		gid[c] = j;
	}
	u64map_free(&g);
	uint32_t *gfirst, *order;
	size_t *gn;
	by_group(rc, gid, ng, &gfirst, &order, &gn);
	bool *gthin = xcalloc((size_t)ng + 1, 1);
	for (uint32_t c = 0; c < rc->nctx; c++)
		if (gid[c] != TC_NONE) gthin[gid[c]] |= !rc->ctx[c].typical;
	for (uint32_t j = 0; j < ng; j++) {
		if (!gthin[j] || gn[j] < 3) continue;
		double *v = xmalloc(gn[j] * sizeof *v), med, mad;
		bool two;
		group_stats(rc, gr, order + gfirst[j], gfirst[j + 1] - gfirst[j], v, &med, &mad, &two);
		free(v);
		if (!two) continue;
		for (uint32_t q = gfirst[j]; q < gfirst[j + 1]; q++) {
			struct tc_rc_ctx *C = &rc->ctx[order[q]];
			if (C->typical) continue;
			C->median = med;
			C->mad = mad;
			C->typical = 2;
		}
	}
	free(gid); free(gfirst); free(order); free(gn); free(gthin);
}

/* A workload that changes over the run: a run (one rank's values of one
 * compute context, in time order) whose values rise (or fall) steadily, as
 * the compute before each send of a ping-pong whose message doubles every
 * iteration (pipit-ping-pong-2p, rank 0: 25, 41, 52, 155, 266, 586, 1029 µs).
 * Its late values are the work growing, not the machine holding the rank nor
 * a delay: they are neither stalls nor outliers of the context (a rank that
 * slows down alone still stands above the others' quartile: persistent
 * excess).  Trend: Mann-Kendall's S over at most TREND_PICK values evenly
 * spaced over the run has |z| = |S| / sd(S) >= TREND_Z (fewer than 1 in 80
 * runs of independent values) and at least TREND_STEPS of the successive
 * steps go its way (a step up, half fast then half slow, as a job starting
 * on the node halfway through, has a large S but about half of its steps
 * down); runs shorter than TREND_MIN never trend (docs/rootcause.md §3,
 * "Trends"). */
#define TREND_MIN 6
#define TREND_PICK 32
#define TREND_Z 2.5
#define TREND_STEPS 0.75

bool tc_rc_trends(const double *x, uint32_t m)
{
	if (m < TREND_MIN) return false;
	double v[TREND_PICK];
	uint32_t n = TC_MIN(m, (uint32_t)TREND_PICK);
	for (uint32_t k = 0; k < n; k++) v[k] = x[n == m ? k : (uint32_t)((uint64_t)k * (m - 1) / (n - 1))];
	int S = 0, up = 0, down = 0;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = i + 1; j < n; j++) S += (v[j] > v[i]) - (v[j] < v[i]);
	for (uint32_t i = 1; i < n; i++) {
		up += v[i] > v[i - 1];
		down += v[i] < v[i - 1];
	}
	double sd = sqrt((double)n * (n - 1) * (2 * n + 5) / 18.0);
	if (abs(S) < TREND_Z * sd) return false;
	return (double)(S > 0 ? up : down) >= TREND_STEPS * (n - 1);
}

/* The compute runs that trend, by rank (read before the deviations are
 * written over the values). */
static void find_trends(const struct tc_rootcause *rc, struct groups *g)
{
	VEC(struct pers) v = { 0 };
	for (uint32_t c = 0; c < rc->nctx; c++) {
		if (rc->ctx[c].kind != TC_ACT_COMPUTE || rc->ctx[c].n < (uint32_t)TREND_MIN) continue;
		for (uint32_t k = g->rfirst[c]; k < g->rend[c]; k++) {
			uint32_t a = g->runs[k].at, m = run_end(g, c, k) - a;
			if (m < TREND_MIN || !tc_rc_trends(g->val + a, m)) continue;  /* most runs: one or two values */
			struct pers x = { g->runs[k].rank, c, 0 };
			VEC_PUSH(v, x);
		}
	}
	if (v.n) qsort(v.a, v.n, sizeof *v.a, pers_cmp);
	g->trend = v.a;
	g->ntrend = v.n;
}

/* An excess must stand above median + max(k·MAD, frac·median, the noise floor). */
static double bar(const struct tc_rootcause *rc, double median, double mad)
{
	double m = TC_MAX(rc->opts.mad_k * mad, rc->opts.median_frac * median);
	return median + TC_MAX(m, rc->noise_floor);
}

/* Contexts: medians, MADs, runs' medians, back-off, noise floor, thresholds. */
void rc_groups_stats(struct tc_rootcause *rc, struct groups *g, uint32_t *nranks)
{
	g->nranks = nranks;
	g->own = xcalloc((size_t)rc->nctx + 1, sizeof *g->own);
	g->full_mad = xcalloc((size_t)rc->nctx + 1, sizeof *g->full_mad);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		context_typical(rc, g, c);
		context_quiet(rc, g, c);
	}
	find_trends(rc, g);
	backoff_place(rc, false);
	backoff_thin(rc, g);
	backoff_work(rc, g);
	backoff_place(rc, true);
	/* still none, but seen 3 times or more (on one rank): that rank's own
	 * median is its typical value (the tail of a pipeline, a tree's only inner
	 * node; docs/rootcause.md, thin contexts) */
	for (uint32_t c = 0; c < rc->nctx; c++)
		if (!rc->ctx[c].typical && rc->ctx[c].n >= 3) rc->ctx[c].typical = 3;
	/* the compute contexts' deviations, written over the values already used
	 * (never ahead of the context being read): from the rank's own median
	 * where the rank has 3 or more values there (noise is how a rank's work
	 * varies; ranks that differ throughout, a ramp, are imbalance and must not
	 * raise the floor that would hide them), else from the context's */
	size_t ndev = 0;
	for (uint32_t c = 0; c < rc->nctx; c++) {
		if (rc->ctx[c].kind != TC_ACT_COMPUTE || rc->ctx[c].n < 3) continue;
		for (uint32_t k = g->rfirst[c]; k < g->rend[c]; k++) {
			uint32_t a = g->runs[k].at, z = run_end(g, c, k);
			double ref = z - a >= 3 ? g->runs[k].med : g->own[c];
			for (uint32_t x = a; x < z; x++) g->val[ndev++] = fabs(g->val[x] - ref);
		}
	}
	rc->compute_spread = ndev ? 1.4826 * tc_median(g->val, ndev) : 0;
	rc->noise_floor = TC_MAX(rc->opts.floor_min, rc->opts.floor_k * rc->compute_spread);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		struct tc_rc_ctx *C = &rc->ctx[c];
		C->threshold = bar(rc, C->median, C->mad);
		if (C->full_median > C->threshold) C->full_threshold = bar(rc, C->full_median, g->full_mad[c]);
		else C->full_median = 0;
	}
}

/* Persistent excess: the runs whose median stands above the lower quartile of
 * their context's runs' medians (contexts seen on >= 2 ranks: of two, the
 * faster is the reference) by max(persist_frac of it, the noise floor); each
 * activity there has at least its value − that quartile as excess.  A
 * context that took the same work's value from other ranks (typical 5: a
 * place one rank has alone, a chain's head or tail) measures its run against
 * that median instead (probe-mix18: a tail or head 1 ms slower in 3 ms read
 * none).  Returns those runs by rank, with the reference in q. */
struct pers *rc_persistent_runs(struct tc_rootcause *rc, const struct groups *g, size_t *n)
{
	VEC(struct pers) v = { 0 };
	for (uint32_t c = 0; c < rc->nctx; c++) {
		uint32_t a = g->rfirst[c], nr = g->rend[c] - a;
		double q;
		if (rc->ctx[c].typical == 5) {
			q = rc->ctx[c].median;   /* a rank's own place: the others' median for the same work */
		} else {
			if (nr < 2) continue;
			for (uint32_t k = 0; k < nr; k++) g->buf[k] = g->runs[a + k].med;
			q = tc_kth(g->buf, nr, nr / 4);
		}
		double bar = q + TC_MAX(rc->opts.persist_frac * q, rc->noise_floor);
		for (uint32_t k = a; k < a + nr; k++)
			if (g->runs[k].med > bar) {
				struct pers x = { g->runs[k].rank, c, q };
				VEC_PUSH(v, x);
			}
	}
	if (v.n) qsort(v.a, v.n, sizeof *v.a, pers_cmp);
	*n = v.n;
	return v.a;
}

static void stalls_begin(struct tc_rootcause *rc, double scale, struct stalls *s)
{
	/* a stall: more than a tenth of the typical compute segment (the one that
	 * holds most compute time) above the context's median, and above the floor */
	rc->stall_min = TC_MAX(rc->noise_floor, 0.1 * scale);
	s->cr = xcalloc(rc->nranks + 1, 1);
	s->mr = xcalloc(rc->nranks + 1, 1);
	s->cn = xcalloc(rc->nranks + 1, sizeof *s->cn);
	s->cs = xcalloc(rc->nranks + 1, sizeof *s->cs);
	s->cw = xcalloc(rc->nranks + 1, sizeof *s->cw);
	s->csw = xcalloc(rc->nranks + 1, sizeof *s->csw);
	u64map_init(&s->pairs);
}

void tally_begin(const struct tc_rootcause *rc, struct tally *y)
{
	*y = (struct tally){ .typical_compute_s = rc->typical_compute_s, .typical_mpi_s = rc->typical_mpi_s };
}

/* Rank r's tally into s and rc. */
void tally_end(struct tc_rootcause *rc, struct stalls *s, uint32_t r, const struct tally *y)
{
	rc->n_compute += y->n_compute;
	rc->n_compute_stalls += y->n_compute_stalls;
	rc->n_mpi += y->n_mpi;
	rc->n_mpi_stalls += y->n_mpi_stalls;
	rc->typical_compute_s = y->typical_compute_s;
	rc->typical_mpi_s = y->typical_mpi_s;
	s->cn[r] = y->cn;
	s->cs[r] = y->cs;
	s->cw[r] = y->cw;
	s->csw[r] = y->csw;
	s->cr[r] = y->cr;
	s->mr[r] = y->mr;
}

/* An activity of rank r, of kind mpi or compute, a stall or not (its value
 * more than stall_min above its context's median: one absolute yardstick for
 * both kinds, where the relative thresholds of the contexts (½·median) would
 * make a 1 ms stall an outlier of a 20 µs MPI call but not of a 2 ms compute
 * block), partner (TC_NONE: none); compute: its weight in the held share
 * (typical) and, a stall, its height above the median. */
static inline __attribute__((always_inline)) void stall_count(struct stalls *s, struct tally *y, uint32_t r,
							       bool mpi, bool stall, uint32_t partner, double typical,
							       double height)
{
	if (!mpi) {
		y->n_compute++;
		y->n_compute_stalls += stall;
		y->cn++;
		y->cs += stall;
		y->cw += typical;
		if (stall) {
			y->csw += typical;
			y->cr = true;
			VEC_PUSH(s->height, height);
		}
		return;
	}
	y->n_mpi++;
	y->n_mpi_stalls += stall;
	if (!stall) return;
	y->mr = true;
	uint64_t key = (uint64_t)r << 32 | (partner == TC_NONE ? 0xffffffffu : partner);
	if (u64map_get(&s->pairs, key) == U64MAP_NONE) u64map_put(&s->pairs, key, 1);
}

void rc_stalls_end(struct tc_rootcause *rc, struct stalls *s, uint64_t npairs)
{
	double *rate = xmalloc((rc->nranks + 1) * sizeof *rate);
	uint32_t nrate = 0;
	for (uint32_t r = 0; r < rc->nranks; r++) {
		rc->stall_ranks_compute += s->cr[r];
		rc->stall_ranks_mpi += s->mr[r];
		if (s->cn[r]) rate[nrate++] = (double)s->cs[r] / (double)s->cn[r];
	}
	rc->compute_stall_rate_q1 = nrate ? tc_kth(rate, nrate, nrate / 4) : 0;
	free(rate);
	double W = 0, SW = 0;
	for (uint32_t r = 0; r < rc->nranks; r++) {
		W += s->cw[r];
		SW += s->csw[r];
	}
	rc->compute_stall_share = W > 0 ? SW / W : 0;
	rc->compute_stall_height = s->height.n ? tc_median(s->height.a, s->height.n) : 0;
	VEC_FREE(s->height);
	free(s->cn);
	free(s->cs);
	free(s->cw);
	free(s->csw);
	rc->stall_pairs_mpi = (uint32_t)npairs;
	u64map_free(&s->pairs);
	free(s->cr);
	free(s->mr);
}

/* The median and threshold an activity's own time is measured by. */
struct typ { double median, threshold; };

/* Activity i, value x: its outlier excess (above the threshold: what
 * lies above typical), then the persistent excess q of its run (NAN: none).
 * warmup: a rank's first MPI call of its context.  Returns whether it has
 * excess now (always > 0 when set: above the threshold, which stands above
 * the median by the noise floor at least, or above q). */
static bool set_excess(struct xpass *p, uint32_t i, struct typ C, double x, bool warmup, double q)
{
	bool set = false;
	if (!warmup && x > C.threshold) {
		p->excess[i] = (float)(x - C.median);
		p->outlier[i] = 1;
		set = true;
	}
	if (isnan(q) || !(x - q > p->excess[i])) return set;
	p->excess[i] = (float)(x - q);
	if (!p->outlier[i]) p->outlier[i] = 2;
	return true;
}

/* The fewest ticks T whose duration stands more than x above base
 * (tc_dur(T) − base > x); UINT64_MAX when none does.  tc_dur and the
 * subtraction are monotonic in T, so "ticks >= this" decides exactly what the
 * comparison in seconds decides, without a division per activity. */
static bool above(const struct tc_trace *t, uint64_t T, double base, double x)
{
	return tc_dur(t, T) - base > x;
}

#define TICKS_MAX ((uint64_t)1 << 62)

static uint64_t ticks_above(const struct tc_trace *t, double base, double x)
{
	double est = (base + x) * (double)t->res;
	if (isnan(est) || !above(t, TICKS_MAX, base, x)) return UINT64_MAX;
	uint64_t lo, hi = est <= 0 ? 0 : est >= (double)TICKS_MAX ? TICKS_MAX : (uint64_t)est;
	if (above(t, hi, base, x)) {  /* the answer is hi or below: doubling steps down */
		for (uint64_t step = 1;; step *= 2) {
			if (!hi) return 0;
			lo = hi > step ? hi - step : 0;
			if (!above(t, lo, base, x)) break;
			hi = lo;
		}
	} else {  /* above hi: doubling steps up (TICKS_MAX is above) */
		lo = hi;
		for (uint64_t step = 1;; step *= 2) {
			hi = TICKS_MAX - lo > step ? lo + step : TICKS_MAX;
			if (above(t, hi, base, x)) break;
			lo = hi;
		}
	}
	while (hi - lo > 1) {  /* not above at lo, above at hi */
		uint64_t mid = lo + (hi - lo) / 2;
		if (above(t, mid, base, x)) hi = mid;
		else lo = mid;
	}
	return hi;
}

static struct xctx *excess_contexts(const struct tc_trace *t, const struct tc_rootcause *rc, const uint8_t *p2p)
{
	struct xctx *x = xmalloc(((size_t)rc->nctx + 1) * sizeof *x);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		const struct tc_rc_ctx *C = &rc->ctx[c];
		/* the machine holding a rank shows where a rank repeats the same work;
		 * a segment each rank runs once (a start-up block) differs from rank
		 * to rank by its work, and in a short run it is most of the compute
		 * time (tracer-stencil4d-64p: 39 % "held" by that block alone) */
		bool repeated = C->kind == TC_ACT_COMPUTE && (uint64_t)C->n >= 3 * (uint64_t)C->nranks;
		x[c] = (struct xctx){ ticks_above(t, 0, C->threshold), ticks_above(t, C->median, rc->stall_min), NAN,
				      C->median, repeated ? C->median : 0, TC_NONE,
				      C->full_median > 0 ? p2p[c] : 0, C->kind == TC_ACT_MPI, false };
	}
	return x;
}

/* Where the transfer of MPI activity i of rank r began, for a receive: the
 * latest enter of the sends of the messages it completes (the serial pass's
 * xpass.xfer; a blocking send's is its own start). */
static uint64_t transfer_start(void *ctx, uint32_t r, uint32_t i, uint64_t s)
{
	const struct tc_trace *t = ((const void *const *)ctx)[0];
	const struct tc_rootcause *rc = ((const void *const *)ctx)[1];
	const struct tc_rank *R = &t->ranks[r];
	uint32_t ci = tc_rc_act(rc, r, i).call;
	if (ci >= R->ncalls || R->calls[ci].op == TC_NONE) return s;
	const struct tc_op *op = &R->ops[R->calls[ci].op];
	const uint32_t *m = tc_op_recvs(t, r, op);
	uint64_t at = 0;
	for (uint32_t k = 0; k < op->nrecv; k++) at = TC_MAX(at, tc_msg_send_enter(t, &t->msgs[m[k]]));
	return op->nrecv ? at : s;
}

/* The median and threshold of MPI activity i (rank r, start s, own time from
 * ready on) of a point-to-point context whose whole transfers are slower than
 * its usual call (full_median): the part of its transfer that ran before its
 * own time began (ready − the transfer's start) is taken from the whole
 * transfers' median and threshold, which then count where they stand above
 * the context's own (docs/rootcause.md §3, "Hidden transfers"). */
static struct typ hidden_transfer(const struct tc_trace *t, const struct xpass *x, const struct tc_rc_ctx *C,
				  uint8_t p2p, uint32_t r, uint32_t i, uint64_t s, uint64_t ready)
{
	uint64_t from = p2p == P2P_SEND ? s : x->xfer(x->xfer_ctx, r, i, s);
	double hid = ready > from ? tc_dur(t, ready - from) : 0;
	return (struct typ){ TC_MAX(C->median, C->full_median - hid), TC_MAX(C->threshold, C->full_threshold - hid) };
}

/* The excess of MPI activity i (rank r, start s, own time from ready on,
 * `ticks` of it) of a context X whose whole transfers are slower than its
 * usual call: its outlier and persistent excess measured from
 * hidden_transfer's median and threshold (a persistent run too: a rank whose
 * receiver is always ready sends whole transfers).  *stall: whether it is a
 * stall by the context's median on entry, by hidden_transfer's on return.
 * Returns whether it has excess. */
static bool hidden_excess(const struct tc_trace *t, const struct tc_rootcause *rc, struct xpass *p, const struct xctx *X,
			  uint32_t c, uint32_t r, uint32_t i, uint64_t s, uint64_t ready, uint64_t ticks, bool usual,
			  bool *stall)
{
	bool over = ticks >= X->over;
	if (!over && !*stall && isnan(X->q)) return false;
	struct typ ty = hidden_transfer(t, p, &rc->ctx[c], X->p2p, r, i, s, ready);
	double x = tc_dur(t, ticks);
	*stall = *stall && x - ty.median > rc->stall_min;
	double q = isnan(X->q) ? NAN : TC_MAX(X->q, ty.median);
	return ((!usual && x > ty.threshold) || !isnan(q)) && set_excess(p, i, ty, x, usual, q);
}

void rc_xpass_begin(const struct tc_trace *t, struct tc_rootcause *rc, const uint8_t *p2p, double scale,
		    struct xpass *x)
{
	stalls_begin(rc, scale, &x->st);
	/* a rank's first MPI call of each context pays for setting the path up (MPI
	 * libraries connect lazily on first use): warm-up, not an outlier */
	x->xc = excess_contexts(t, rc, p2p);
}

void rc_xpass_rank(struct xpass *x, uint32_t r, bool on)
{
	if (on) {
		size_t p0 = x->pk, t0 = x->tk;
		for (; x->pk < x->npers && x->pers[x->pk].rank == r; x->pk++) x->xc[x->pers[x->pk].ctx].q = x->pers[x->pk].q;
		for (; x->tk < x->ntrend && x->trend[x->tk].rank == r; x->tk++) x->xc[x->trend[x->tk].ctx].trend = true;
		x->pk0 = p0, x->tk0 = t0;
		return;
	}
	for (size_t k = x->pk0; k < x->pk; k++) x->xc[x->pers[k].ctx].q = NAN;
	for (size_t k = x->tk0; k < x->tk; k++) x->xc[x->trend[k].ctx].trend = false;
}

/* rc_xpass_act's body, inlined into the serial pass's loop (a call per
 * activity with a dozen arguments made that pass 40 % slower). */
static inline __attribute__((always_inline)) void xpass_act(const struct tc_trace *t, const struct tc_rootcause *rc,
							     struct xpass *x, struct tally *y, uint32_t r, uint32_t i,
							     uint64_t s, uint64_t e, uint32_t c, bool wait,
							     uint64_t wready, uint32_t partner, double *wsum)
{
	struct xctx *X = &x->xc[c];
	bool warmup = X->mpi && X->seen != r;
	X->seen = r;
	bool w = X->mpi && wait;
	uint64_t ready = w ? wready : s;
	uint64_t ticks = e - (X->mpi ? ready : s);
	bool usual = warmup || X->trend;  /* no outlier */
	bool stall = ticks >= X->stall && !X->trend;
	if (X->p2p) {
		if (hidden_excess(t, rc, x, X, c, r, i, s, ready, ticks, usual, &stall)) VEC_PUSH(x->ex, i);
	} else if (((!usual && ticks >= X->over) || !isnan(X->q)) &&
		   set_excess(x, i, (struct typ){ rc->ctx[c].median, rc->ctx[c].threshold }, tc_dur(t, ticks), usual,
			      X->q)) {
		VEC_PUSH(x->ex, i);
	}
	*(X->mpi ? &y->typical_mpi_s : &y->typical_compute_s) += X->median;
	stall_count(&x->st, y, r, X->mpi, stall, w ? partner : TC_NONE, X->held_w,
		    stall && !X->mpi ? tc_dur(t, ticks) - X->median : 0);
	if (ready > s) *wsum += tc_dur(t, ready - s);  /* + 0 otherwise */
}

void rc_xpass_act(const struct tc_trace *t, const struct tc_rootcause *rc, struct xpass *x, struct tally *y,
		  uint32_t r, uint32_t i, uint64_t s, uint64_t e, uint32_t c, bool wait, uint64_t wready, uint32_t partner,
		  double *wsum)
{
	xpass_act(t, rc, x, y, r, i, s, e, c, wait, wready, partner, wsum);
}

void rc_xpass_free(struct xpass *x)
{
	free(x->xc);
	VEC_FREE(x->ex);
	x->xc = NULL;
}

void rc_groups_free(struct groups *g)
{
	free(g->trend);
	tc_rc_big_free(g->vbin);
	free(g->p2p);
	free(g->full_mad);
	free(g->first); free(g->end); free(g->nranks); tc_rc_big_free(g->runs); free(g->rfirst); free(g->rend); free(g->own);
	*g = (struct groups){ 0 };
}

/* Contexts, then outlier and persistent excess, stall counts and waiting per
 * rank in one pass over the activities.  scale: the compute scale (stalls). */
void tc_rc_excess(const struct tc_trace *t, struct tc_rootcause *rc, double scale, struct tc_usage *mark)
{
	struct groups g;
	uint32_t *nranks;
	gather(t, rc, &g, &nranks);
	rc_groups_stats(rc, &g, nranks);
	tc_rc_phase_done(rc, TC_RCP_CONTEXTS, mark);
	const void *src[2] = { t, rc };
	struct xpass x = { .excess = rc->act_excess, .outlier = rc->act_outlier, .xfer = transfer_start,
			   .xfer_ctx = (void *)src, .trend = g.trend, .ntrend = g.ntrend };
	x.pers = rc_persistent_runs(rc, &g, &x.npers);
	rc_xpass_begin(t, rc, g.p2p, scale, &x);
	for (uint32_t r = 0; r < rc->nranks; r++) {
		rc_xpass_rank(&x, r, true);
		uint64_t s = rc->rank_t0[r];  /* the activity's start */
		struct tally y;
		tally_begin(rc, &y);
		double wait = rc->wait_s[r];
		for (uint32_t i = rc->act_first[r]; i < rc->act_first[r + 1]; i++) {
			uint32_t c = tc_rc_act_ctx(rc, i);
			uint32_t w = x.xc[c].mpi ? tc_rc_wait_of(rc, i) : TC_NONE;   /* the compact context, not the whole one */
			const struct tc_rc_wait *W = w != TC_NONE ? &rc->waits[w] : NULL;
			uint64_t e = tc_rc_act_end(rc, i);
			xpass_act(t, rc, &x, &y, r, i, s, e, c, W, W ? W->ready : 0, W ? W->partner : TC_NONE, &wait);
			s = e;
		}
		tally_end(rc, &x.st, r, &y);
		rc->wait_s[r] = wait;
		rc_xpass_rank(&x, r, false);
	}
	rc_stalls_end(rc, &x.st, x.st.pairs.live);
	rc->ex_act = x.ex.a;
	rc->nexcess = x.ex.n;
	x.ex.a = NULL;
	x.ex.n = 0;
	rc_xpass_free(&x);
	free(x.pers);
	rc_groups_free(&g);   /* the trends and nranks with it */
	tc_rc_phase_done(rc, TC_RCP_EXCESS, mark);
}
