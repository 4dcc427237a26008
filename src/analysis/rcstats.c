/* rcstats.c — the typical values of the root causes' contexts
 * (docs/rootcause.md §3): medians, MADs, runs' medians, whole transfers,
 * quiet periods, trends, the back-offs, the noise floor, the thresholds and
 * the persistent runs, over the values of struct groups (rcexcess_internal.h).
 *
 * The serial pass holds every value; the replay over parts (rcexcess_dist.c)
 * holds each process's ranks' values in groups of its own, and the same code
 * runs on every process with d set.  What one rank's values decide (a run's
 * median, its trend, its deviations) is computed where they are; what a
 * context's or a group's values decide (their median, MAD, counts) is an
 * order statistic over every process (oselect.h: exact, the same double as
 * tc_median of all of them) or a sum; the rest reads only the contexts'
 * table, which every process then holds alike.  The statistics run in
 * batches, one per kind of set, so that the processes exchange a few
 * reductions per batch, not per context. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oselect.h"
#include "rcexcess_internal.h"

/* A context's whole transfers are kept apart only when they agree among
 * themselves: at most this share of them under half their median
 * (context_whole; rcexcess.c, "Hidden transfers"). */
#define HIDDEN_FAST 0.1

static int pers_cmp(const void *x, const void *y)
{
	const struct pers *a = x, *b = y;
	if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
	return a->ctx < b->ctx ? -1 : a->ctx > b->ctx;
}

/* Where run k of context c ends in g->val (the next run's start, or the context's end). */
static uint32_t run_end(const struct groups *g, uint32_t c, uint32_t k)
{
	return k + 1 < g->rend[c] ? g->runs[k + 1].at : g->end[c];
}

/* --- the sets ------------------------------------------------------------------------ */

/* A set of a context's values: all of them, its whole transfers', those of
 * some time bins (mask), those below a bound; as they are, or as their
 * distances to ref (not NAN). */
enum { VS_ALL, VS_WHOLE, VS_BINS };
struct vset { uint32_t c; uint8_t mode; uint16_t mask; double below, ref; };

struct rstat {
	struct tc_rootcause *rc;
	struct groups *g;
	const struct tc_dist *d;     /* NULL: g holds every value */
	struct vset *set;            /* the batch's sets (vset_fill) */
	const uint32_t *gfirst, *order;   /* group j: the contexts order[gfirst[j] .. gfirst[j + 1]) (group_fill) */
	const uint32_t *gid;         /* per query: its group */
	double *gref;                /* per query: NAN, or the distance's reference */
};

static size_t vset_fill(void *arg, size_t q, double *buf)
{
	const struct rstat *S = arg;
	const struct groups *g = S->g;
	const struct vset *s = &S->set[q];
	uint32_t a = g->first[s->c], n = g->end[s->c] - a, m = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint8_t b = g->vbin[a + k];
		double v = g->val[a + k];
		if (s->mode == VS_WHOLE ? !(b & WHOLE) : s->mode == VS_BINS && !(s->mask >> (b & ~WHOLE) & 1)) continue;
		if (!(v < s->below)) continue;
		buf[m++] = isnan(s->ref) ? v : fabs(v - s->ref);
	}
	return m;
}

/* A group's values: those of each of its contexts. */
static size_t group_fill(void *arg, size_t q, double *buf)
{
	const struct rstat *S = arg;
	const struct groups *g = S->g;
	uint32_t j = S->gid[q];
	double ref = S->gref[q];
	size_t m = 0;
	for (uint32_t x = S->gfirst[j]; x < S->gfirst[j + 1]; x++) {
		uint32_t c = S->order[x];
		for (uint32_t k = g->first[c]; k < g->end[c]; k++) buf[m++] = isnan(ref) ? g->val[k] : fabs(g->val[k] - ref);
	}
	return m;
}

/* Context cs[q]'s runs' medians (the runs here). */
struct runmeds { const struct groups *g; const uint32_t *cs; };

static size_t runmed_fill(void *arg, size_t q, double *buf)
{
	const struct runmeds *R = arg;
	uint32_t c = R->cs[q], m = 0;
	for (uint32_t k = R->g->rfirst[c]; k < R->g->rend[c]; k++) buf[m++] = R->g->runs[k].med;
	return m;
}

/* The values already in buf (the deviations written over g->val). */
static size_t held_fill(void *arg, size_t q, double *buf)
{
	(void)q, (void)buf;
	return *(const size_t *)arg;
}

static struct vset vs(uint32_t c, uint8_t mode, uint16_t mask, double ref)
{
	return (struct vset){ c, mode, mask, INFINITY, ref };
}

/* Order statistics of the sets S->set[0..n) (kth NULL: medians) into out, their sizes into cnt. */
static void vsel(struct rstat *S, size_t n, const uint64_t *kth, double *out, uint64_t *cnt)
{
	osel_batch(S->d, n, vset_fill, S, S->g->buf, kth, out, cnt);
}

/* Sizes only: of each set, over every process. */
static void vcount(struct rstat *S, size_t n, uint64_t *cnt)
{
	for (size_t q = 0; q < n; q++) cnt[q] = vset_fill(S, q, S->g->buf);
	if (S->d) S->d->reduce(S->d->ctx, cnt, n, TC_DIST_SUM);
}

/* --- a context's own statistics ----------------------------------------------------------- */

/* Each run's median (its values are on one rank: here). */
static void runs_medians(struct groups *g, uint32_t nc)
{
	for (uint32_t c = 0; c < nc; c++)
		for (uint32_t k = g->rfirst[c]; k < g->rend[c]; k++) {
			uint32_t m = run_end(g, c, k) - g->runs[k].at;
			const double *x = g->val + g->runs[k].at;
			if (m <= 2) {  /* most runs of a context with a tag per iteration: one value */
				g->runs[k].med = m == 1 ? x[0] : (x[0] + x[1]) / 2;
				continue;
			}
			memcpy(g->buf, x, m * sizeof *x);
			g->runs[k].med = tc_median(g->buf, m);
		}
}

/* The median and MAD of every context's values, and each of its runs'
 * median; nval: how many values each context has (over every process;
 * first_segments may empty one: nothing to type, typical 1). */
static void context_typical(struct rstat *S, uint64_t *nval)
{
	struct tc_rootcause *rc = S->rc;
	struct groups *g = S->g;
	uint32_t nc = rc->nctx;
	runs_medians(g, nc);
	double *med = xmalloc(((size_t)nc + 1) * sizeof *med);
	for (uint32_t c = 0; c < nc; c++) S->set[c] = vs(c, VS_ALL, 0, NAN);
	vsel(S, nc, NULL, med, nval);
	for (uint32_t c = 0; c < nc; c++) S->set[c].ref = med[c];
	double *mad = xmalloc(((size_t)nc + 1) * sizeof *mad);
	vsel(S, nc, NULL, mad, NULL);
	for (uint32_t c = 0; c < nc; c++) {
		struct tc_rc_ctx *C = &rc->ctx[c];
		C->nranks = g->nranks[c];
		if (!nval[c]) {
			C->typical = 1;
			continue;
		}
		C->median = g->own[c] = med[c];
		C->mad = 1.4826 * mad[c];
		C->typical = C->n >= 3 && C->nranks >= 2;
	}
	free(med), free(mad);
}

/* The median and MAD of the whole transfers of each point-to-point context
 * (hidden_transfer), at least 3 of them, into full_median and g->full_mad
 * when their median stands above the context's (rc_groups_stats then keeps
 * it only above the context's threshold: a whole transfer slower than an
 * outlier, not a few µs more).  The whole transfers must agree among
 * themselves: where more than HIDDEN_FAST of them took under half their
 * median, the slow ones are some pairs' own (a slow node: its receivers
 * wait for it, so its transfers are whole, and the fast pairs' data is
 * mostly there before the receive; a slow node under a tree read "mapping"
 * otherwise, probe-place r-tree4-9p-node1-s156). */
static void context_whole(struct rstat *S, const uint64_t *nval)
{
	struct tc_rootcause *rc = S->rc;
	struct groups *g = S->g;
	uint32_t nc = rc->nctx, nq = 0, *cq = xmalloc(((size_t)nc + 1) * sizeof *cq);
	for (uint32_t c = 0; c < nc; c++)
		if (nval[c] && g->p2p[c]) cq[nq] = c, S->set[nq++] = vs(c, VS_WHOLE, 0, NAN);
	double *med = xmalloc(((size_t)nq + 1) * sizeof *med), *mad = xmalloc(((size_t)2 * nq + 1) * sizeof *mad);
	uint64_t *m = xmalloc(((size_t)nq + 1) * sizeof *m), *fast = xmalloc(((size_t)nq + 1) * sizeof *fast);
	vsel(S, nq, NULL, med, m);
	uint32_t nk = 0;   /* the ones still in: their fast count, then the MAD */
	for (uint32_t q = 0; q < nq; q++)
		if (m[q] >= 3 && med[q] > rc->ctx[cq[q]].median) {
			cq[nk] = cq[q], med[nk] = med[q], m[nk] = m[q];
			S->set[nk] = vs(cq[nk], VS_WHOLE, 0, NAN);
			S->set[nk].below = 0.5 * med[nk];
			nk++;
		}
	vcount(S, nk, fast);
	for (uint32_t q = 0; q < nk; q++) S->set[q] = vs(cq[q], VS_WHOLE, 0, med[q]);
	vsel(S, nk, NULL, mad, NULL);
	for (uint32_t q = 0; q < nk; q++) {
		if (fast[q] > HIDDEN_FAST * m[q]) continue;
		rc->ctx[cq[q]].full_median = med[q];
		g->full_mad[cq[q]] = 1.4826 * mad[q];
	}
	free(cq), free(med), free(mad), free(m), free(fast);
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

/* The quiet bins (a mask) of context c whose bins' medians are med[],
 * their counts cnt[]; 0 when it has no slow period. */
static uint16_t quiet_bins(const struct tc_rootcause *rc, const double *med, const uint64_t *cnt)
{
	double lo = INFINITY;
	for (int b = 0; b < QUIET_BINS; b++)
		if (cnt[b] >= QUIET_MIN) lo = TC_MIN(lo, med[b]);
	if (!(lo > 0)) return 0;
	/* the slow bins: one contiguous run (bins without data inside it allowed);
	 * slow by the noise floor's least at least (a 1 µs call taking 2 µs for a
	 * while is no traffic) */
	double bar = TC_MAX(QUIET_STEP * lo, lo + rc->opts.floor_min);
	int first = -1, last = -1, nslow = 0, nquiet = 0;
	uint16_t quiet = 0;
	for (int b = 0; b < QUIET_BINS; b++) {
		if (cnt[b] < QUIET_MIN) continue;
		if (med[b] > bar) {
			if (first < 0) first = b;
			last = b;
			nslow++;
		} else {
			nquiet++;
			quiet |= (uint16_t)(1u << b);
		}
	}
	if (nslow < 2 || nquiet < 2) return 0;
	for (int b = first; b <= last; b++)
		if (cnt[b] >= QUIET_MIN && !(med[b] > bar)) return 0;  /* not one period */
	return quiet;
}

static void context_quiet(struct rstat *S, const uint64_t *nval)
{
	struct tc_rootcause *rc = S->rc;
	uint32_t nc = rc->nctx, nk = 0, *cq = xmalloc(((size_t)nc + 1) * sizeof *cq);
	for (uint32_t c = 0; c < nc; c++)   /* the MPI contexts with enough values; each one's bins: sizes and medians */
		if (nval[c] >= QUIET_BINS * QUIET_MIN && rc->ctx[c].kind == TC_ACT_MPI && rc->ctx[c].median > 0) cq[nk++] = c;
	size_t nb = (size_t)nk * QUIET_BINS;
	double *med = xmalloc((nb + 1) * sizeof *med);
	uint64_t *cnt = xmalloc((nb + 1) * sizeof *cnt);
	for (size_t x = 0; x < nb; x++) S->set[x] = vs(cq[x / QUIET_BINS], VS_BINS, (uint16_t)(1u << (x % QUIET_BINS)), NAN);
	vsel(S, nb, NULL, med, cnt);
	/* the contexts with a slow period: their quiet bins' median */
	uint32_t nq = 0;
	uint16_t *mask = xmalloc(((size_t)nk + 1) * sizeof *mask);
	for (uint32_t q = 0; q < nk; q++) {
		uint16_t m = quiet_bins(rc, med + (size_t)q * QUIET_BINS, cnt + (size_t)q * QUIET_BINS);
		if (m) cq[nq] = cq[q], mask[nq] = m, S->set[nq] = vs(cq[q], VS_BINS, m, NAN), nq++;
	}
	vsel(S, nq, NULL, med, NULL);
	uint32_t nm = 0;
	for (uint32_t q = 0; q < nq; q++)
		if (rc->ctx[cq[q]].median > QUIET_STEP * med[q])
			cq[nm] = cq[q], med[nm] = med[q], S->set[nm] = vs(cq[q], VS_BINS, mask[q], med[q]), nm++;
	double *mad = xmalloc(((size_t)nm + 1) * sizeof *mad);
	vsel(S, nm, NULL, mad, NULL);
	for (uint32_t q = 0; q < nm; q++) {
		struct tc_rc_ctx *C = &rc->ctx[cq[q]];
		C->median = med[q];
		C->mad = 1.4826 * mad[q];
		C->quiet = 1;
	}
	free(cq), free(med), free(cnt), free(mask), free(mad);
}

/* --- trends (rank by rank: here) ---------------------------------------------------------- */

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

/* --- back-offs ------------------------------------------------------------------------------ */

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

/* The pooled median and MAD of the groups js[0..nj) (by_group's first,
 * order), and whether each one's runs are on >= 2 ranks (two). */
static void group_stats(struct rstat *S, const uint32_t *first, const uint32_t *order, const uint32_t *js, uint32_t nj,
			double *med, double *mad, bool *two)
{
	const struct groups *g = S->g;
	size_t room = 0;
	uint64_t *lo = xmalloc(((size_t)nj + 1) * sizeof *lo), *hi = xcalloc((size_t)nj + 1, sizeof *hi);
	for (uint32_t q = 0; q < nj; q++) {   /* the room here; the lowest and highest rank of its runs */
		size_t m = 0;
		lo[q] = UINT64_MAX;
		for (uint32_t x = first[js[q]]; x < first[js[q] + 1]; x++) {
			uint32_t c = order[x];
			m += g->end[c] - g->first[c];
			for (uint32_t k = g->rfirst[c]; k < g->rend[c]; k++)
				lo[q] = TC_MIN(lo[q], g->runs[k].rank), hi[q] = TC_MAX(hi[q], (uint64_t)g->runs[k].rank + 1);
		}
		room = TC_MAX(room, m);
	}
	if (S->d) S->d->reduce(S->d->ctx, lo, nj, TC_DIST_MIN), S->d->reduce(S->d->ctx, hi, nj, TC_DIST_MAX);
	double *buf = xmalloc((room + 1) * sizeof *buf), *ref = xmalloc(((size_t)nj + 1) * sizeof *ref);
	for (uint32_t q = 0; q < nj; q++) ref[q] = NAN, two[q] = hi[q] > lo[q] + 1;
	S->gfirst = first, S->order = order, S->gid = js, S->gref = ref;
	osel_batch(S->d, nj, group_fill, S, buf, NULL, med, NULL);
	memcpy(ref, med, (size_t)nj * sizeof *ref);
	osel_batch(S->d, nj, group_fill, S, buf, NULL, mad, NULL);
	for (uint32_t q = 0; q < nj; q++) mad[q] *= 1.4826;
	free(buf), free(ref), free(lo), free(hi);
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

static void backoff_work(struct rstat *S)
{
	struct tc_rootcause *rc = S->rc;
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
	uint32_t *js = xmalloc(((size_t)ng + 1) * sizeof *js), nj = 0, *at = xmalloc(((size_t)ng + 1) * sizeof *at);
	for (uint32_t j = 0; j < ng; j++) {
		at[j] = TC_NONE;
		if (n[j]) at[j] = nj, js[nj++] = j;
	}
	double *med = xmalloc(((size_t)nj + 1) * sizeof *med), *mad = xmalloc(((size_t)nj + 1) * sizeof *mad);
	bool *two = xcalloc((size_t)nj + 1, sizeof *two);
	group_stats(S, first, order, js, nj, med, mad, two);
	for (uint32_t c = 0; c < nc; c++) {
		struct tc_rc_ctx *C = &rc->ctx[c];
		uint32_t j = work_thin(C) ? u64map_get(&w, C->work) : U64MAP_NONE;
		if (j == U64MAP_NONE || at[j] == TC_NONE || !two[at[j]]) continue;
		C->median = med[at[j]];
		C->mad = mad[at[j]];
		C->typical = 5;
	}
	u64map_free(&w);
	free(grp), free(first), free(order), free(n), free(med), free(mad), free(two), free(js), free(at);
}

/* Back-off: a compute context seen fewer than 3 times or on one rank has no
 * typical value of its own (a tag unique to a rank or to an iteration makes it
 * so).  It takes the median and MAD of its coarse context (the same MPI calls
 * and user regions around it, tags left out) when that one is seen >= 3 times
 * on >= 2 ranks; then its outliers are found like everyone's, and the
 * delay-cost rule for contexts with no typical value (delaycost.c) is left for
 * the ones with none even there.  Only run when such a context exists. */
static void backoff_thin(struct rstat *S)
{
	struct tc_rootcause *rc = S->rc;
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
	uint32_t *js = xmalloc(((size_t)ng + 1) * sizeof *js), nj = 0;
	for (uint32_t j = 0; j < ng; j++)
		if (gthin[j] && gn[j] >= 3) js[nj++] = j;
	double *med = xmalloc(((size_t)nj + 1) * sizeof *med), *mad = xmalloc(((size_t)nj + 1) * sizeof *mad);
	bool *two = xcalloc((size_t)nj + 1, sizeof *two);
	group_stats(S, gfirst, order, js, nj, med, mad, two);
	for (uint32_t q = 0; q < nj; q++) {
		if (!two[q]) continue;
		for (uint32_t x = gfirst[js[q]]; x < gfirst[js[q] + 1]; x++) {
			struct tc_rc_ctx *C = &rc->ctx[order[x]];
			if (C->typical) continue;
			C->median = med[q];
			C->mad = mad[q];
			C->typical = 2;
		}
	}
	free(gid), free(gfirst), free(order), free(gn), free(gthin), free(js), free(med), free(mad), free(two);
}

/* --- the noise floor, the thresholds ----------------------------------------------------- */

/* An excess must stand above median + max(k·MAD, frac·median, the noise floor). */
static double bar(const struct tc_rootcause *rc, double median, double mad)
{
	double m = TC_MAX(rc->opts.mad_k * mad, rc->opts.median_frac * median);
	return median + TC_MAX(m, rc->noise_floor);
}

/* A compute context of 3 or more values: its deviations are pooled into the
 * noise floor and make its spread within runs (noise_floor). */
static bool pooled(const struct tc_rc_ctx *C)
{
	return C->kind == TC_ACT_COMPUTE && C->n >= 3;
}

/* The contexts whose spread within runs is asked for (within_fill): set q is
 * context cs[q], its deviations [at[c], at[c + 1]) of g->val. */
struct devs { const struct groups *g; const size_t *at; const uint32_t *cs; };

static size_t within_fill(void *arg, size_t q, double *buf)
{
	const struct devs *D = arg;
	uint32_t c = D->cs[q];
	size_t n = D->at[c + 1] - D->at[c];
	memcpy(buf, D->g->val + D->at[c], n * sizeof *buf);
	return n;
}

/* The compute contexts where a run's median could stand above the
 * persistent bar at all: the largest run median above (1 + persist_frac)
 * times the smallest (or than the median a typical-5 context takes from
 * the others: rc_persistent_runs' references).  Only these need their spread
 * within runs (a selection over their values); over parts the medians'
 * extremes are reduced first, so every process picks the same.  Returns
 * how many, into cs. */
static uint32_t chance_contexts(const struct tc_rootcause *rc, const struct groups *g, const struct tc_dist *d,
				uint32_t *cs)
{
	uint32_t nc = rc->nctx, k = 0;
	uint64_t *lo = xmalloc(((size_t)nc + 1) * sizeof *lo), *hi = xcalloc((size_t)nc + 1, sizeof *hi);
	for (uint32_t c = 0; c < nc; c++) {
		lo[c] = UINT64_MAX;
		for (uint32_t x = g->rfirst[c]; x < g->rend[c]; x++) {
			uint64_t m;
			double med = g->runs[x].med;
			memcpy(&m, &med, sizeof m);   /* non-negative: the bits order as the values */
			lo[c] = TC_MIN(lo[c], m), hi[c] = TC_MAX(hi[c], m);
		}
	}
	if (d) {
		d->reduce(d->ctx, lo, nc, TC_DIST_MIN);
		d->reduce(d->ctx, hi, nc, TC_DIST_MAX);
	}
	for (uint32_t c = 0; c < nc; c++) {
		const struct tc_rc_ctx *C = &rc->ctx[c];
		if (!pooled(C) || !hi[c] || lo[c] == UINT64_MAX) continue;
		double mn, mx;
		memcpy(&mn, &lo[c], sizeof mn);
		memcpy(&mx, &hi[c], sizeof mx);
		if (C->typical == 5) mn = TC_MIN(mn, C->median);
		if (mx > (1 + rc->opts.persist_frac) * mn) cs[k++] = c;
	}
	free(lo);
	free(hi);
	return k;
}

/* The compute contexts' deviations, written over the values already used
 * (never ahead of the context being read): from the rank's own median
 * where the rank has 3 or more values there (noise is how a rank's work
 * varies; ranks that differ throughout, a ramp, are imbalance and must not
 * raise the floor that would hide them), else from the context's; their
 * pooled robust spread, from which the noise floor; and, in the contexts
 * where it can matter (chance_contexts), each one's own (g->within: how far
 * a rank's median there may stand from the others' by chance,
 * rc_persistent_runs). */
static void noise_floor(struct rstat *S)
{
	struct tc_rootcause *rc = S->rc;
	struct groups *g = S->g;
	uint32_t nc = rc->nctx;
	size_t ndev = 0, *at = xmalloc(((size_t)nc + 1) * sizeof *at);
	for (uint32_t c = 0; c < nc; c++) {
		at[c] = ndev;
		if (!pooled(&rc->ctx[c])) continue;
		for (uint32_t k = g->rfirst[c]; k < g->rend[c]; k++) {
			uint32_t a = g->runs[k].at, z = run_end(g, c, k);
			double ref = z - a >= 3 ? g->runs[k].med : g->own[c];
			for (uint32_t x = a; x < z; x++) g->val[ndev++] = fabs(g->val[x] - ref);
		}
	}
	at[nc] = ndev;
	/* per context first: the pooled selection below reorders g->val */
	g->within = xcalloc((size_t)nc + 1, sizeof *g->within);
	uint32_t *cs = xmalloc(((size_t)nc + 1) * sizeof *cs), nq = chance_contexts(rc, g, S->d, cs);
	if (nq) {
		double *w = xmalloc((size_t)nq * sizeof *w);
		struct devs D = { g, at, cs };
		osel_batch(S->d, nq, within_fill, &D, g->buf, NULL, w, NULL);
		for (uint32_t q = 0; q < nq; q++) g->within[cs[q]] = isnan(w[q]) ? 0 : 1.4826 * w[q];
		free(w);
	}
	free(cs);
	free(at);
	double spread;
	uint64_t n;
	osel_batch(S->d, 1, held_fill, &ndev, g->val, NULL, &spread, &n);
	rc->compute_spread = n ? 1.4826 * spread : 0;
	rc->noise_floor = TC_MAX(rc->opts.floor_min, rc->opts.floor_k * rc->compute_spread);
}

void rc_groups_stats(struct tc_rootcause *rc, struct groups *g, uint32_t *nranks, const struct tc_dist *d)
{
	g->nranks = nranks;
	g->own = xcalloc((size_t)rc->nctx + 1, sizeof *g->own);
	g->full_mad = xcalloc((size_t)rc->nctx + 1, sizeof *g->full_mad);
	/* room for the largest batch of sets: every MPI context's time bins */
	struct rstat S = { rc, g, d, xmalloc(((size_t)rc->nctx * QUIET_BINS + 1) * sizeof *S.set), NULL, NULL, NULL, NULL };
	uint64_t *nval = xcalloc((size_t)rc->nctx + 1, sizeof *nval);
	context_typical(&S, nval);
	context_whole(&S, nval);
	context_quiet(&S, nval);
	free(nval);
	find_trends(rc, g);
	backoff_place(rc, false);
	backoff_thin(&S);
	backoff_work(&S);
	backoff_place(rc, true);
	/* still none, but seen 3 times or more (on one rank): that rank's own
	 * median is its typical value (the tail of a pipeline, a tree's only inner
	 * node; docs/rootcause.md, thin contexts) */
	for (uint32_t c = 0; c < rc->nctx; c++)
		if (!rc->ctx[c].typical && rc->ctx[c].n >= 3) rc->ctx[c].typical = 3;
	noise_floor(&S);
	for (uint32_t c = 0; c < rc->nctx; c++) {
		struct tc_rc_ctx *C = &rc->ctx[c];
		C->threshold = bar(rc, C->median, C->mad);
		if (C->full_median > C->threshold) C->full_threshold = bar(rc, C->full_median, g->full_mad[c]);
		else C->full_median = 0;
	}
	free(S.set);
}

/* How far run x's median may stand above the others' in context c by chance:
 * persist_z standard errors of a median of its length (1.2533 sigma / sqrt(n)
 * for a normal sample), sigma the context's spread within runs (g->within;
 * not its MAD, which mixes in the slow ranks' own values).  A master/worker
 * run whose 2 ms tasks carry up to 3 ms of random jitter put one worker's
 * median above 1.25 q by chance in 3 of 13 seeds, and read "imbalance"
 * (docs/rootcause.md, "Persistent excess"). */
static double chance_gap(const struct tc_rootcause *rc, const struct groups *g, uint32_t c, uint32_t x)
{
	uint32_t len = run_end(g, c, x) - g->runs[x].at;
	if (!g->within || !(rc->opts.persist_z > 0) || !len) return 0;
	return rc->opts.persist_z * 1.2533 * g->within[c] / sqrt((double)len);
}

/* Persistent excess: the runs whose median stands above the lower quartile of
 * their context's runs' medians (contexts seen on >= 2 ranks: of two, the
 * faster is the reference) by max(persist_frac of it, the noise floor); each
 * activity there has at least its value − that quartile as excess.  A
 * context that took the same work's value from other ranks (typical 5: a
 * place one rank has alone, a chain's head or tail) measures its run against
 * that median instead (probe-mix18: a tail or head 1 ms slower in 3 ms read
 * none).  A run must also stand above it by more than chance (chance_gap).
 * Returns those runs (of the ranks here) by rank, with the reference in q. */
struct pers *rc_persistent_runs(struct tc_rootcause *rc, const struct groups *g, size_t *n, const struct tc_dist *d)
{
	uint32_t nc = rc->nctx;
	uint64_t *nr = xmalloc(((size_t)nc + 1) * sizeof *nr), *k = xmalloc(((size_t)nc + 1) * sizeof *k);
	for (uint32_t c = 0; c < nc; c++) nr[c] = g->rend[c] - g->rfirst[c];
	if (d) d->reduce(d->ctx, nr, nc, TC_DIST_SUM);
	/* the reference of each context: the others' median for the same work
	 * at a rank's own place (typical 5), else the lower quartile of its
	 * runs' medians when they are on >= 2 ranks */
	uint32_t *cs = xmalloc(((size_t)nc + 1) * sizeof *cs), nq = 0;
	size_t room = 0;
	for (uint32_t c = 0; c < nc; c++)
		if (rc->ctx[c].typical != 5 && nr[c] >= 2) {
			k[nq] = nr[c] / 4, cs[nq++] = c;
			room = TC_MAX(room, (size_t)(g->rend[c] - g->rfirst[c]));
		}
	double *q = xmalloc(((size_t)nq + 1) * sizeof *q), *buf = xmalloc((room + 1) * sizeof *buf);
	struct runmeds R = { g, cs };
	osel_batch(d, nq, runmed_fill, &R, buf, k, q, NULL);
	VEC(struct pers) v = { 0 };
	for (uint32_t c = 0, j = 0; c < nc; c++) {
		double ref;
		if (rc->ctx[c].typical == 5) ref = rc->ctx[c].median;
		else if (j < nq && cs[j] == c) ref = q[j++];
		else continue;
		double bar = ref + TC_MAX(rc->opts.persist_frac * ref, rc->noise_floor);
		for (uint32_t x = g->rfirst[c]; x < g->rend[c]; x++)
			if (g->runs[x].med > TC_MAX(bar, ref + chance_gap(rc, g, c, x))) {
				struct pers y = { g->runs[x].rank, c, ref };
				VEC_PUSH(v, y);
			}
	}
	if (v.n) qsort(v.a, v.n, sizeof *v.a, pers_cmp);
	free(cs), free(k), free(nr), free(q), free(buf);
	*n = v.n;
	return v.a;
}
