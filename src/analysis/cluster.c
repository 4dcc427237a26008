/* cluster.c — per-phase process clustering: sparse metric vectors, the
 * distance of paper Fig. 4, CLARA (sampled PAM), single linkage over the
 * CLARA clusters (or over the ranks of small phases), the default cut, the
 * open/close state of the dendrogram, glyph data and centroids. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_internal.h"

void tc_cluster_default_opts(struct tc_cluster_opts *o)
{
	memset(o, 0, sizeof *o);
	o->metric = TC_M_LATENESS;
	o->seed = TC_CLUSTER_SEED;
	o->k = 20;
	o->direct_max = 512;
	o->samples = 5;
	o->sample_size = 0;
	o->max_default = 8;
	o->radius = 1;
	o->focus_max = 32;
	o->dense_max = 8;
	o->min_sep = 0.001;
}

/* Sums of one leaf at one column: the glyph before division. */
struct cell {
	uint32_t col, active, sends, recvs, colls, recv_msgs;
	double sum, send_sum, recv_sum, coll_sum, agg_sum;
};

struct phase_priv {
	bool done;
	struct cl_events ev;        /* ev.ranks are the phase's ranks ("rank index" below) */
	uint32_t base;              /* global step of column 0 */
	uint32_t ncols;
	uint32_t *leaf_of;          /* rank index → leaf */
	uint32_t *leaf_medoid;      /* leaf → rank index of its medoid */
	uint32_t *leaf_seq;         /* leaves in display order */
	uint32_t *node_lfirst;      /* node → first position in leaf_seq */
	uint32_t *node_nleaves;     /* node → its number of leaves */
	uint32_t *centroid;         /* node → centroid rank, TC_NONE until asked */
	bool have_cells;
	uint32_t *cell_off;         /* nleaves + 1 */
	struct cell *cells;
};

struct tc_clusters {
	const struct tc_steps *s;
	struct tc_cluster_opts o;
	uint32_t npart;
	struct cl_index ix;         /* the events and message ends of every partition */
	struct tc_phase_clusters *ph;
	struct phase_priv *pp;
	/* every cev's metric (not aggregate) for metric mval_of, read once in
	 * the model's order by tc_clusters_compute_range: its phases then read
	 * one array instead of three scattered ones (the cev's op, its calls) */
	double *mval;
	enum tc_metric mval_of;
};

/* Cev i's metric m (not aggregate): from the array when it holds m. */
static double cev_value(const struct tc_clusters *c, uint32_t i, enum tc_metric m)
{
	return c->mval && c->mval_of == m ? c->mval[i] : tc_cev_metric(c->s, i, m, false);
}

/* --- sparse vectors ------------------------------------------------------ */

struct vecs {
	uint32_t n;                 /* vectors */
	uint32_t *off;              /* n + 1 */
	uint32_t *col;
	double *val;
};

static void vecs_free(struct vecs *v)
{
	free(v->off);
	free(v->col);
	free(v->val);
	memset(v, 0, sizeof *v);
}

static double vdist(const struct vecs *a, uint32_t i, const struct vecs *b, uint32_t j)
{
	return tc_cluster_distance(a->col + a->off[i], a->val + a->off[i], a->off[i + 1] - a->off[i],
				   b->col + b->off[j], b->val + b->off[j], b->off[j + 1] - b->off[j]);
}

/* Two doubles per instruction where the compiler has vector extensions
 * (SSE2 on x86-64, NEON on arm64); lane arithmetic is plain IEEE double, so
 * results are bit-identical to the scalar loops. */
#if defined(__GNUC__)
#define CL_V2 1
#ifdef __SSE2__
#include <emmintrin.h>
#endif
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2i __attribute__((vector_size(16)));   /* lane masks of v2d comparisons */
static inline v2d v2_load(const double *p) { v2d x; memcpy(&x, p, sizeof x); return x; }
static inline void v2_store(double *p, v2d x) { memcpy(p, &x, sizeof x); }
static inline v2i v2i_load(const void *p) { v2i x; memcpy(&x, p, sizeof x); return x; }
static inline void v2i_store(void *p, v2i x) { memcpy(p, &x, sizeof x); }
/* a < b ? a : b in each lane */
static inline v2d v2_min(v2d a, v2d b)
{
#ifdef __SSE2__
	return _mm_min_pd(a, b);
#else
	v2i lt = (v2i)(a < b);
	return (v2d)((lt & (v2i)a) | (~lt & (v2i)b));
#endif
}
/* x > 0 ? x : +0 in each lane (zero: the +0 vector), as pos_part */
static inline v2d v2_pos(v2d x, v2d zero)
{
#ifdef __SSE2__
	return _mm_max_pd(x, zero);
#else
	v2i gt = (v2i)(x > zero);
	return (v2d)(gt & (v2i)x);
#endif
}
/* is a ≤ b in either lane? */
static inline bool v2_any_le(v2d a, v2d b)
{
#ifdef __SSE2__
	return _mm_movemask_pd(_mm_cmple_pd(a, b)) != 0;
#else
	v2i le = (v2i)(a <= b);
	return (le[0] | le[1]) != 0;
#endif
}
/* for the loops specialised on the number of columns */
#define CL_INLINE inline __attribute__((always_inline))
#else
#define CL_INLINE inline
#endif
/* a loop over at most four of something, unrolled so its sums stay in registers */
#if defined(__GNUC__) && !defined(__clang__)
#define CL_UNROLL4 _Pragma("GCC unroll 4")
#else
#define CL_UNROLL4
#endif

/* The distance of paper Fig. 4 between dense vectors (every vector has
 * events at the same d columns): the mean squared difference, summed over
 * the columns in order as tc_cluster_distance's same-steps path does (0 + t²
 * is t²; the sign of t does not matter), so the result has the same bits.
 * X holds the values column by column, X[k·stride + b]; xv the d values of
 * the other vector.  dist2: the vectors b and b + 1 at once. */
static inline double dense_dist(const double *X, size_t stride, uint32_t d, const double *xv, size_t b)
{
	double t = X[b] - xv[0], sum = t * t;
	for (uint32_t k = 1; k < d; k++) {
		t = X[k * stride + b] - xv[k];
		sum += t * t;
	}
	return sum / d;
}

#ifdef CL_V2
static inline v2d dense_dist2(const double *X, size_t stride, uint32_t d, const double *xv, size_t b)
{
	v2d t = v2_load(X + b) - (v2d){ xv[0], xv[0] }, sum = t * t;
	for (uint32_t k = 1; k < d; k++) {
		t = v2_load(X + k * stride + b) - (v2d){ xv[k], xv[k] };
		sum += t * t;
	}
	return sum / (v2d){ d, d };
}
#endif

/* The d values of dense vector i. */
static inline void dense_point(const double *X, size_t stride, uint32_t d, uint32_t i, double *xv)
{
	for (uint32_t k = 0; k < d; k++) xv[k] = X[k * stride + i];
}

/* Column b of the dense distance matrix for the rows a0 ≤ a < ae (all < b),
 * and the mirror entries. */
static CL_INLINE void dense_col(const double *restrict X, uint32_t n, uint32_t d, uint32_t a0, uint32_t ae,
			     uint32_t b, double *restrict D, double *restrict xb)
{
	double *row = D + (size_t)b * n, *col = D + (size_t)a0 * n + b;
	dense_point(X, n, d, b, xb);
	uint32_t a = a0;
#ifdef CL_V2
	for (; a + 2 <= ae; a += 2, col += 2 * (size_t)n) {
		v2d x = dense_dist2(X, n, d, xb, a);
		v2_store(row + a, x);
		col[0] = x[0];
		col[n] = x[1];
	}
#endif
	for (; a < ae; a++, col += n) row[a] = *col = dense_dist(X, n, d, xb, a);
}

/* The dense matrix in bands of 16 rows, column by column, so the mirror
 * entries of a band stay in the cache while the band is written. */
static void dense_matrix(const double *X, uint32_t n, uint32_t d, double *D)
{
	enum { BAND = 16 };
	double *xb = xmalloc(d * sizeof *xb);
	for (uint32_t a0 = 0; a0 < n; a0 += BAND) {
		uint32_t a1 = TC_MIN(a0 + BAND, n);
		for (uint32_t a = a0; a < a1; a++) D[(size_t)a * n + a] = 0;
		for (uint32_t b = a0 + 1; b < n; b++) {
			uint32_t ae = TC_MIN(a1, b);
			if (d == 1) dense_col(X, n, 1, a0, ae, b, D, xb);
			else if (d == 2) dense_col(X, n, 2, a0, ae, b, D, xb);
			else dense_col(X, n, d, a0, ae, b, D, xb);
		}
	}
	free(xb);
}

/* The number of columns when every vector of v has events at the same ones
 * (the common case: every rank takes part in every step of the phase), else 0. */
static uint32_t dense_cols(const struct vecs *v)
{
	uint32_t n = v->n, d = n ? v->off[1] - v->off[0] : 0;
	for (uint32_t a = 1; a < n && d; a++) {
		const uint32_t *ca = v->col + v->off[a];
		if (v->off[a + 1] - v->off[a] != d) return 0;
		for (uint32_t k = 0; k < d; k++)   /* a few columns: no memcmp call */
			if (ca[k] != v->col[k]) return 0;
	}
	return d;
}

/* The values of dense vectors, column by column (X[k·n + i]). */
static double *dense_values(const struct vecs *v, uint32_t d)
{
	double *X = xmalloc(((size_t)v->n * d + 1) * sizeof *X);
	for (uint32_t i = 0; i < v->n; i++)
		for (uint32_t k = 0; k < d; k++) X[(size_t)k * v->n + i] = v->val[v->off[i] + k];
	return X;
}

/* All pairwise distances of v (v->n × v->n). */
static double *distance_matrix(const struct vecs *v)
{
	uint32_t n = v->n, d = dense_cols(v);
	double *D = xmalloc(((size_t)n * n + 1) * sizeof *D);
	if (d) {
		double *X = dense_values(v, d);
		dense_matrix(X, n, d, D);
		free(X);
		return D;
	}
	for (uint32_t a = 0; a < n; a++) {
		D[(size_t)a * n + a] = 0;
		for (uint32_t b = a + 1; b < n; b++) D[(size_t)a * n + b] = D[(size_t)b * n + a] = vdist(v, a, v, b);
	}
	return D;
}

/* The distances between the leaves of a phase: a full matrix D, or — when
 * every vector has events at the same d ≤ dense_max columns (opts) — the
 * dense values X, each distance computed where it is used.  Prim's algorithm
 * and the medoid sums use every pair once each, and at a few columns
 * computing a distance costs about what loading it would, while an n²
 * matrix would not stay in the cache.  Either way the same bits. */
#define DENSE_MAX 8     /* largest dense_max */
struct ldist {
	uint32_t n, d;
	double *D;      /* n × n, or NULL */
	double *X;      /* dense values X[k·n + i], or NULL */
};

static void ldist_init(struct ldist *L, const struct vecs *v, uint32_t dense_max)
{
	L->n = v->n;
	L->d = dense_cols(v);
	L->X = L->D = NULL;
	if (L->d && L->d <= dense_max) L->X = dense_values(v, L->d);
	else L->D = distance_matrix(v);
}

static void ldist_free(struct ldist *L)
{
	free(L->D);
	free(L->X);
}

double tc_cluster_distance(const uint32_t *ca, const double *va, uint32_t na,
			   const uint32_t *cb, const double *vb, uint32_t nb)
{
	uint32_t i = 0, j = 0, cnt = 0;
	double pa = 0, pb = 0, sum = 0;
	bool ha = false, hb = false;
	if (na == nb && na && !memcmp(ca, cb, na * sizeof *ca)) {
		/* the common case: events at the same steps */
		for (; i < na; i++) {
			double d = va[i] - vb[i];
			sum += d * d;
		}
		return sum / na;
	}
	while (i < na || j < nb) {
		uint32_t c = i < na ? ca[i] : UINT32_MAX;
		if (j < nb && cb[j] < c) c = cb[j];
		if (i < na && ca[i] == c) { pa = va[i++]; ha = true; }
		if (j < nb && cb[j] == c) { pb = vb[j++]; hb = true; }
		if (ha && hb) {
			double d = pa - pb;
			sum += d * d;
			cnt++;
		}
	}
	return cnt ? sum / cnt : 0;
}

/* One vector per rank index of the phase: the metric of its events by
 * column.  rsum, rmax (NULL: not wanted): per rank the sum (in event order)
 * and the largest of the metric over all its events. */
static void build_vecs(const struct tc_clusters *c, const struct phase_priv *pp, enum tc_metric m, struct vecs *v,
		       double *rsum, double *rmax)
{
	const struct cl_events *ev = &pp->ev;
	v->n = ev->nranks;
	v->off = xmalloc(((size_t)ev->nranks + 1) * sizeof *v->off);
	v->col = xmalloc(((size_t)ev->n + 1) * sizeof *v->col);
	v->val = xmalloc(((size_t)ev->n + 1) * sizeof *v->val);
	uint32_t k = 0;
	for (uint32_t r = 0; r < ev->nranks; r++) {
		v->off[r] = k;
		double sum = 0, max = -INFINITY;
		for (uint32_t i = ev->off[r]; i < ev->off[r + 1]; i++) {
			const struct tc_cev *e = &c->s->cevs[ev->cev[i]];
			uint32_t col = (e->step - pp->base) / 2;
			double x = cev_value(c, ev->cev[i], m);
			sum += x;
			max = TC_MAX(max, x);
			if (k > v->off[r] && v->col[k - 1] >= col) {
				v->val[k - 1] = x;   /* one event per rank and step; keep the last */
				continue;
			}
			v->col[k] = col;
			v->val[k++] = x;
		}
		if (rsum) {
			rsum[r] = sum;
			rmax[r] = max;
		}
	}
	v->off[ev->nranks] = k;
}

/* Ranks of each group: the rank indices of group g are rk[start[g] .. start[g+1]). */
static void group_ranks(const uint32_t *group_of, uint32_t nr, uint32_t ngroups, uint32_t **start, uint32_t **rk)
{
	uint32_t *st = xcalloc((size_t)ngroups + 2, sizeof *st), *r = xmalloc(((size_t)nr + 1) * sizeof *r);
	for (uint32_t i = 0; i < nr; i++)
		if (group_of[i] != TC_NONE) st[group_of[i] + 2]++;
	for (uint32_t g = 0; g < ngroups; g++) st[g + 2] += st[g + 1];
	for (uint32_t i = 0; i < nr; i++)
		if (group_of[i] != TC_NONE) r[st[group_of[i] + 1]++] = i;
	*start = st;
	*rk = r;
}

/* The columns spanned by the ranks rk[a..b) of v: false when they have no events. */
static bool span_of(const struct vecs *v, const uint32_t *rk, uint32_t a, uint32_t b, uint32_t *lo, uint32_t *hi)
{
	*lo = UINT32_MAX;
	*hi = 0;
	for (uint32_t q = a; q < b; q++) {
		uint32_t r = rk[q];
		if (v->off[r] == v->off[r + 1]) continue;
		*lo = TC_MIN(*lo, v->col[v->off[r]]);
		*hi = TC_MAX(*hi, v->col[v->off[r + 1] - 1]);
	}
	return *lo <= *hi;
}

/* Mean vectors of groups of ranks: group_of[rank index] (TC_NONE = none).
 * At each column where a member has an event, the mean over the members
 * that have a value there (their latest event at or before the column).
 * Per group one pass over its members' events into difference arrays over
 * the columns, then one prefix sum: O(events + groups × columns). */
static void mean_vecs(const struct vecs *v, uint32_t ncols, const uint32_t *group_of, uint32_t ngroups,
		      struct vecs *out)
{
	uint32_t *gs, *gr;
	group_ranks(group_of, v->n, ngroups, &gs, &gr);
	double *dsum = xmalloc((size_t)ncols * sizeof *dsum);
	int32_t *dcnt = xmalloc((size_t)ncols * sizeof *dcnt);
	uint8_t *act = xmalloc(ncols);
	VEC(uint32_t) oc = { 0 };
	VEC(double) ov = { 0 };
	out->n = ngroups;
	out->off = xmalloc(((size_t)ngroups + 1) * sizeof *out->off);
	for (uint32_t g = 0; g < ngroups; g++) {
		out->off[g] = (uint32_t)oc.n;
		uint32_t lo, hi;
		if (!span_of(v, gr, gs[g], gs[g + 1], &lo, &hi)) continue;
		memset(dsum + lo, 0, (size_t)(hi - lo + 1) * sizeof *dsum);
		memset(dcnt + lo, 0, (size_t)(hi - lo + 1) * sizeof *dcnt);
		memset(act + lo, 0, hi - lo + 1);
		for (uint32_t q = gs[g]; q < gs[g + 1]; q++) {
			uint32_t r = gr[q];
			for (uint32_t i = v->off[r]; i < v->off[r + 1]; i++) {
				uint32_t c = v->col[i];
				act[c] = 1;
				if (i == v->off[r]) { dsum[c] += v->val[i]; dcnt[c]++; }
				else dsum[c] += v->val[i] - v->val[i - 1];
			}
		}
		double S = 0;
		int64_t N = 0;
		for (uint32_t c = lo; c <= hi; c++) {
			S += dsum[c];
			N += dcnt[c];
			if (act[c]) { VEC_PUSH(oc, c); VEC_PUSH(ov, S / (double)N); }
		}
	}
	out->off[ngroups] = (uint32_t)oc.n;
	out->col = oc.a ? oc.a : xmalloc(sizeof *out->col);
	out->val = ov.a ? ov.a : xmalloc(sizeof *out->val);
	free(dsum); free(dcnt); free(act); free(gs); free(gr);
}

/* --- CLARA ----------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The change of cost if medoid slot m were swapped for object h, for the nh
 * (≤ SWAP_LANES) objects h0, h0+1, ...: each a sum over i in the same order as
 * one at a time (so bit for bit the same), the lanes' independent add chains
 * interleaved (a single chain waits on each add's latency). */
enum { SWAP_LANES = 4 };
static void swap_deltas(const double *D, uint32_t n, uint32_t h0, uint32_t nh, uint32_t m, const uint32_t *nearm,
			const double *near, const double *second, double *delta)
{
	const double *Dq[SWAP_LANES];   /* a lane past nh repeats row h0; its delta is not read */
	for (uint32_t q = 0; q < SWAP_LANES; q++) Dq[q] = D + (size_t)(h0 + (q < nh ? q : 0)) * n;
	const double *D0 = Dq[0], *D1 = Dq[1], *D2 = Dq[2], *D3 = Dq[3];
	double a0 = 0, a1 = 0, a2 = 0, a3 = 0;   /* in registers: delta[] may alias D */
	for (uint32_t i = 0; i < n; i++) {
		double cap = nearm[i] == m ? second[i] : near[i], ni = near[i];
		a0 += TC_MIN(D0[i], cap) - ni;
		a1 += TC_MIN(D1[i], cap) - ni;
		a2 += TC_MIN(D2[i], cap) - ni;
		a3 += TC_MIN(D3[i], cap) - ni;
	}
	delta[0] = a0;
	delta[1] = a1;
	delta[2] = a2;
	delta[3] = a3;
}

/* The change of cost of every swap (slot m, object h) at once, dm[h·k + m],
 * in O(n² + k·Σ|S_h|) rather than swap_deltas' O(k·n²) (the idea of
 * Schubert & Rousseeuw's FastPAM1), with the same bits: swap_deltas' term
 * for object i is d − near[i] for every slot when d = D(h, i) < near[i]
 * (the set S_h, a few objects near h), else min(d, second[i]) − near[i] for
 * i's own slot and min(d, near[i]) − near[i] = +0 for the others — and
 * adding +0 leaves a sum as it is, so each dm[h·k + m] adds the same nonzero
 * terms in the same order of i.  That needs every near[i] finite (∞ − ∞ is
 * no zero): false, dm untouched, when one is not.  Medoid rows are skipped
 * (their deltas are not read: rowmin ∞); rowmin[h], the least of row h. */
static bool swap_deltas_all(const double *D, uint32_t n, uint32_t k, const uint8_t *is_med, const uint32_t *nearm,
			    const double *near, const double *second, double *restrict dm, double *restrict rowmin)
{
	for (uint32_t i = 0; i < n; i++)
		if (!isfinite(near[i])) return false;
	for (uint32_t h = 0; h < n; h++) {
		rowmin[h] = INFINITY;
		if (is_med[h]) continue;
		const double *Dh = D + (size_t)h * n;
		double *restrict acc = dm + (size_t)h * k;
		for (uint32_t m = 0; m < k; m++) acc[m] = 0;
		for (uint32_t i = 0; i < n; i++) {
			double d = Dh[i], ni = near[i];
			if (d < ni) {
				double t = d - ni;
				for (uint32_t m = 0; m < k; m++) acc[m] += t;
			} else acc[nearm[i]] += TC_MIN(d, second[i]) - ni;
		}
		for (uint32_t m = 0; m < k; m++) rowmin[h] = TC_MIN(acc[m], rowmin[h]);   /* a NaN never the least */
	}
	return true;
}

/* swap_best's room: n·k deltas, n row minima, n rows */
struct swap_scratch {
	double *dm, *rowmin;
	uint32_t *live;
};

/* SWAP's candidate: the (slot, object) exchange that lowers the cost most,
 * by more than eps, the first in (slot, object) order among equals; *bh =
 * TC_NONE when none does. */
static void swap_best(const double *D, uint32_t n, uint32_t k, const uint8_t *is_med,
		      const uint32_t *nearm, const double *near, const double *second, double eps,
		      struct swap_scratch sc, uint32_t *bm, uint32_t *bh)
{
	double best_delta = 0, *dm = sc.dm, *rowmin = sc.rowmin;
	uint32_t *live = sc.live;
	*bm = 0;
	*bh = TC_NONE;
	if (swap_deltas_all(D, n, k, is_med, nearm, near, second, dm, rowmin)) {
		/* the best so far only falls from 0: a row whose least delta is not
		 * below −eps takes no part, and the scan in (slot, object) order
		 * over the other rows is the same scan */
		uint32_t nlive = 0;
		for (uint32_t h = 0; h < n; h++)
			if (rowmin[h] < -eps) live[nlive++] = h;
		for (uint32_t m = 0; m < k; m++)
			for (uint32_t q = 0; q < nlive; q++) {
				uint32_t h = live[q];
				if (dm[(size_t)h * k + m] < best_delta - eps) {
					best_delta = dm[(size_t)h * k + m];
					*bm = m;
					*bh = h;
				}
			}
		return;
	}
	for (uint32_t m = 0; m < k; m++)
		for (uint32_t h = 0; h < n; h += SWAP_LANES) {
			double delta[SWAP_LANES];
			uint32_t nh = TC_MIN((uint32_t)SWAP_LANES, n - h);
			swap_deltas(D, n, h, nh, m, nearm, near, second, delta);
			for (uint32_t q = 0; q < nh; q++)
				if (!is_med[h + q] && delta[q] < best_delta - eps) {
					best_delta = delta[q];
					*bm = m;
					*bh = h + q;
				}
		}
}

/* x when positive, else +0 (one maxsd on x86-64).  ni − d > 0 exactly when
 * d < ni: the difference of two unequal doubles is never 0, and a NaN (an
 * ∞ − ∞ included) is no more positive than d < ni is true. */
static inline double pos_part(double x)
{
	return x > 0 ? x : 0;
}

/* BUILD's gains of the nj (≤ BUILD_LANES) candidates j0, j0+1, ...: the
 * sum over i, in order, of what each would save object i, near[i] − d when
 * d < near[i].  The other objects add +0, which leaves a sum of such terms
 * as it is: no branch (it would go either way at random), each lane bit for
 * bit the sum of the positive terms alone.  D is symmetric, so a full block's
 * eight candidates are read from row i side by side, two per vector. */
enum { BUILD_LANES = 8 };
static void build_gains(const double *D, uint32_t n, uint32_t j0, uint32_t nj, const double *near, double *gain)
{
#ifdef CL_V2
	if (nj == BUILD_LANES) {
		v2d a0 = { 0, 0 }, a1 = a0, a2 = a0, a3 = a0, zero = a0;
		for (uint32_t i = 0; i < n; i++) {
			const double *r = D + (size_t)i * n + j0;
			v2d ni = { near[i], near[i] };
			a0 += v2_pos(ni - v2_load(r), zero);
			a1 += v2_pos(ni - v2_load(r + 2), zero);
			a2 += v2_pos(ni - v2_load(r + 4), zero);
			a3 += v2_pos(ni - v2_load(r + 6), zero);
		}
		v2_store(gain, a0);
		v2_store(gain + 2, a1);
		v2_store(gain + 4, a2);
		v2_store(gain + 6, a3);
		return;
	}
#endif
	for (uint32_t q = 0; q < nj; q++) {
		const double *Dj = D + (size_t)(j0 + q) * n;
		double a = 0;
		for (uint32_t i = 0; i < n; i++) a += pos_part(near[i] - Dj[i]);
		gain[q] = a;
	}
}

/* PAM (BUILD then SWAP) on an n×n distance matrix; med gets k indices.
 * Returns the total distance of the objects to their nearest medoid. */
static double pam(const double *D, uint32_t n, uint32_t k, uint32_t *med)
{
	double *near = xmalloc(n * sizeof *near), *second = xmalloc(n * sizeof *second);
	struct swap_scratch sc = { xmalloc((size_t)n * k * sizeof *sc.dm), xmalloc(n * sizeof *sc.rowmin),
				   xmalloc(n * sizeof *sc.live) };
	uint32_t *nearm = xmalloc(n * sizeof *nearm);
	uint8_t *is_med = xcalloc(n, 1);
	/* BUILD: the most central object, then the one that lowers the cost most */
	uint32_t best = 0;
	double bestv = INFINITY;
	for (uint32_t j = 0; j < n; j++) {
		double sum = 0;
		for (uint32_t i = 0; i < n; i++) sum += D[(size_t)j * n + i];
		if (sum < bestv) { bestv = sum; best = j; }
	}
	med[0] = best;
	is_med[best] = 1;
	for (uint32_t i = 0; i < n; i++) near[i] = D[(size_t)best * n + i];
	for (uint32_t m = 1; m < k; m++) {
		double gain_best = -1;
		best = TC_NONE;
		for (uint32_t j = 0; j < n; j += BUILD_LANES) {
			double gain[BUILD_LANES];
			uint32_t nj = TC_MIN((uint32_t)BUILD_LANES, n - j);
			build_gains(D, n, j, nj, near, gain);
			for (uint32_t q = 0; q < nj; q++)
				if (!is_med[j + q] && gain[q] > gain_best) { gain_best = gain[q]; best = j + q; }
		}
		med[m] = best;
		is_med[best] = 1;
		for (uint32_t i = 0; i < n; i++) near[i] = TC_MIN(near[i], D[(size_t)best * n + i]);
	}
	/* SWAP: best improving (medoid, non-medoid) exchange until none */
	double cost = 0;
	for (int iter = 0; iter < 100; iter++) {
		cost = 0;
		for (uint32_t i = 0; i < n; i++) {
			near[i] = second[i] = INFINITY;
			nearm[i] = 0;
			for (uint32_t m = 0; m < k; m++) {
				double d = D[(size_t)i * n + med[m]];
				if (d < near[i]) { second[i] = near[i]; near[i] = d; nearm[i] = m; }
				else if (d < second[i]) second[i] = d;
			}
			cost += near[i];
		}
		uint32_t bm, bh;
		swap_best(D, n, k, is_med, nearm, near, second, 1e-12 * (cost + 1e-300), sc, &bm, &bh);
		if (bh == TC_NONE) break;
		is_med[med[bm]] = 0;
		med[bm] = bh;
		is_med[bh] = 1;
	}
	free(near); free(second); free(nearm); free(is_med);
	free(sc.dm); free(sc.rowmin); free(sc.live);
	return cost;
}

/* The rank vectors as CLARA reads them: when they are dense (events at the
 * same d columns), their values column by column, so that a distance is d
 * subtractions rather than tc_cluster_distance's call, column compare and
 * loop — the same sum in the same order, so the same bits. */
struct rdist {
	const struct vecs *v;
	uint32_t d;
	double *X;      /* X[k·n + i], or NULL: sparse, vdist */
};

static void rdist_init(struct rdist *R, const struct vecs *v)
{
	R->v = v;
	R->d = dense_cols(v);
	R->X = R->d ? dense_values(v, R->d) : NULL;
}

static inline double rdist(const struct rdist *R, uint32_t i, uint32_t j)
{
	if (!R->X) return vdist(R->v, i, R->v, j);
	size_t n = R->v->n;
	double sum = 0;
	for (uint32_t k = 0; k < R->d; k++) {
		double t = R->X[k * n + i] - R->X[k * n + j];
		sum += t * t;
	}
	return sum / R->d;
}

/* The medoid slot nearest to rank index i (a medoid is nearest to itself). */
static uint32_t nearest(const struct rdist *R, uint32_t i, const uint32_t *med, uint32_t k, double *dist)
{
	double dmin = INFINITY;
	uint32_t am = 0;
	for (uint32_t q = 0; q < k; q++) {
		if (med[q] == i) { *dist = 0; return q; }
		double d = rdist(R, i, med[q]);
		if (d < dmin) { dmin = d; am = q; }
	}
	*dist = dmin;
	return am;
}

/* Samples are compared on at most this many ranks (all of them below it). */
#define CLARA_EVAL_MAX 8192

/* Draw m distinct indices of 0..n-1 into out (ascending), skipping those
 * marked in `in` and marking the ones drawn; perm is scratch of n. */
static uint32_t draw(uint64_t *rng, uint32_t n, uint32_t m, uint32_t *perm, uint8_t *in, uint32_t *out)
{
	uint32_t got = 0;
	for (uint32_t i = 0; i < n; i++) perm[i] = i;
	for (uint32_t i = 0; got < m && i < n; i++) {
		uint32_t j = i + (uint32_t)(splitmix(rng) % (n - i));
		uint32_t x = perm[j];
		perm[j] = perm[i];
		perm[i] = x;
		if (!in[x]) { in[x] = 1; out[got++] = x; }
	}
	return got;
}

/* CLARA over all rank vectors; assign[r] = medoid slot, med[slot] = rank
 * index.  Each sample's medoids (PAM on the sample) are scored by the total
 * distance of the ranks to their nearest medoid — all ranks, or a fixed
 * random subset of CLARA_EVAL_MAX of them in larger phases — and the best
 * medoids then take every rank.  Returns the number of medoids (min(k, n)). */
static uint32_t clara(const struct tc_cluster_opts *o, uint64_t seed, const struct vecs *v,
		      uint32_t *med, uint32_t *assign)
{
	uint32_t n = v->n, k = TC_MIN(o->k ? o->k : 1, n);
	uint32_t ss = o->sample_size ? o->sample_size : 40 + 2 * k;
	ss = TC_MAX(ss, k);
	ss = TC_MIN(ss, n);
	uint32_t nsamples = ss == n ? 1 : TC_MAX(o->samples, 1u);
	uint32_t *sample = xmalloc(ss * sizeof *sample), *perm = xmalloc(n * sizeof *perm);
	uint32_t *smed = xmalloc(k * sizeof *smed), *cur = xmalloc(k * sizeof *cur);
	uint8_t *in = xcalloc(n, 1);
	double *D = xmalloc((size_t)ss * ss * sizeof *D);
	struct rdist R;
	rdist_init(&R, v);
	double best = INFINITY, d;
	uint32_t have_best = 0;
	uint64_t rng = seed;
	uint32_t neval = TC_MIN(n, CLARA_EVAL_MAX), *eval = NULL;
	if (neval < n) {
		eval = xmalloc(neval * sizeof *eval);
		draw(&rng, n, neval, perm, in, eval);
		qsort(eval, neval, sizeof *eval, tc_cmp_u32);
	}
	for (uint32_t t = 0; t < nsamples; t++) {
		uint32_t m = 0;
		if (ss == n) {
			for (uint32_t i = 0; i < n; i++) sample[m++] = i;
		} else {
			memset(in, 0, n);
			for (uint32_t i = 0; i < have_best; i++) { sample[m++] = med[i]; in[med[i]] = 1; }
			m += draw(&rng, n, ss - m, perm, in, sample + m);
			qsort(sample, m, sizeof *sample, tc_cmp_u32);
		}
		for (uint32_t i = 0; i < m; i++) {
			D[(size_t)i * m + i] = 0;
			for (uint32_t j = i + 1; j < m; j++)
				D[(size_t)i * m + j] = D[(size_t)j * m + i] = rdist(&R, sample[i], sample[j]);
		}
		pam(D, m, k, smed);
		for (uint32_t i = 0; i < k; i++) cur[i] = sample[smed[i]];
		qsort(cur, k, sizeof *cur, tc_cmp_u32);
		double cost = 0;
		for (uint32_t q = 0; q < neval && cost < best; q++) {   /* stop once it cannot win */
			nearest(&R, eval ? eval[q] : q, cur, k, &d);
			cost += d;
		}
		if (cost < best) {
			best = cost;
			memcpy(med, cur, k * sizeof *med);
			have_best = k;
		}
	}
	for (uint32_t i = 0; i < n; i++) assign[i] = nearest(&R, i, med, k, &d);
	free(R.X);
	free(sample); free(perm); free(smed); free(cur); free(in); free(D); free(eval);
	return k;
}

/* --- the hierarchy ---------------------------------------------------------- */

struct edge { double d; uint32_t a, b; };

/* (d, a, b) lexicographic, without branches (sorting compares at random) */
static bool edge_less(const struct edge *p, const struct edge *q)
{
	return (p->d < q->d) | ((p->d == q->d) & ((p->a < q->a) | ((p->a == q->a) & (p->b < q->b))));
}

/* Sort n edges by (distance, a, b): insertion sort of runs of 8, then
 * bottom-up merges (tmp: n edges); the keys of a tree's edges are distinct,
 * so the order is unique. */
static void sort_edges(struct edge *E, size_t n, struct edge *tmp)
{
	enum { RUN = 8 };
	for (size_t lo = 0; lo < n; lo += RUN)
		for (size_t i = lo + 1; i < TC_MIN(lo + RUN, n); i++) {
			struct edge x = E[i];
			size_t j = i;
			for (; j > lo && edge_less(&x, &E[j - 1]); j--) E[j] = E[j - 1];
			E[j] = x;
		}
	for (size_t w = RUN; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = TC_MIN(lo + w, n), hi = TC_MIN(lo + 2 * w, n), i = lo, j = mid, o = lo;
			while (i < mid && j < hi) {
				bool right = edge_less(&E[j], &E[i]);
				tmp[o++] = *(right ? &E[j] : &E[i]);
				j += right;
				i += !right;
			}
			while (i < mid) tmp[o++] = E[i++];
			while (j < hi) tmp[o++] = E[j++];
		}
		memcpy(E, tmp, n * sizeof *E);
	}
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x) { up[x] = up[up[x]]; x = up[x]; }
	return x;
}

/* A remaining vertex (position q) at distance b from the tree: is it the
 * nearest so far (*m; the lowest vertex *mid among equals, at *k)? */
static inline void prim_pick(double b, size_t q, const uint32_t *rem, double *m, uint32_t *mid, uint32_t *k)
{
	if (b <= *m && (b < *m || rem[q] < *mid)) {
		*m = b;
		*mid = rem[q];
		*k = (uint32_t)q;
	}
}

/* One remaining vertex (position q) seen from the vertex v just added:
 * its distance to the tree drops to dq if dq is smaller (about a quarter of
 * the time, at random: computed without a branch), then prim_pick. */
static inline void prim_relax(double dq, size_t q, uint32_t v, double *best, uint64_t *from, const uint32_t *rem,
			      double *m, uint32_t *mid, uint32_t *k)
{
	double b = best[q];
	uint64_t closer = -(uint64_t)(dq < b);   /* all ones or zero: no branch */
	b = dq < b ? dq : b;
	best[q] = b;
	from[q] ^= (from[q] ^ v) & closer;
	prim_pick(b, q, rem, m, mid, k);
}

#ifdef CL_V2
/* prim_relax for the positions q and q + 1 (no nearest-so-far test): their
 * new distances to the tree. */
static inline v2d prim_relax2(const double *X, size_t stride, uint32_t d, const double *xv, size_t q, v2i vv,
			      double *best, uint64_t *from)
{
	v2d dq = dense_dist2(X, stride, d, xv, q), b = v2_load(best + q);
	v2i closer = (v2i)(dq < b);
	b = v2_min(dq, b);
	v2_store(best + q, b);
	v2i_store(from + q, (closer & vv) | (~closer & v2i_load(from + q)));
	return b;
}
#endif

/* The relaxation round of prim() over dense values (the compacted X, stride
 * columns), d a constant where inlined; four vertices at a time, the nearest
 * so far checked only when one of them may be it. */
static CL_INLINE void prim_round_dense(const double *X, size_t stride, uint32_t d, const double *xv, uint32_t nrem,
				       uint32_t v, double *best, uint64_t *from, const uint32_t *rem, double *m,
				       uint32_t *mid, uint32_t *k)
{
	size_t q = 0;
#ifdef CL_V2
	v2i vv = { v, v };
	v2d mv = { *m, *m };
	for (; q + 4 <= nrem; q += 4) {
		v2d b0 = prim_relax2(X, stride, d, xv, q, vv, best, from);
		v2d b1 = prim_relax2(X, stride, d, xv, q + 2, vv, best, from);
		if (v2_any_le(v2_min(b0, b1), mv)) {
			prim_pick(b0[0], q, rem, m, mid, k);
			prim_pick(b0[1], q + 1, rem, m, mid, k);
			prim_pick(b1[0], q + 2, rem, m, mid, k);
			prim_pick(b1[1], q + 3, rem, m, mid, k);
			mv = (v2d){ *m, *m };
		}
	}
#endif
	for (; q < nrem; q++) prim_relax(dense_dist(X, stride, d, xv, q), q, v, best, from, rem, m, mid, k);
}

/* Prim's algorithm: the minimum spanning tree of the leaves into E (n − 1
 * edges, in the order found).  Vertex 0 starts the tree; each round adds the
 * remaining vertex nearest to the tree (ties: the lowest vertex) with its
 * edge to the first tree vertex found at that distance (a distance is only
 * replaced by a strictly smaller one).  The remaining vertices are kept
 * compact (a removal moves the last one into the gap; with dense values
 * their values move along), so round k scans n − k of them once, relaxing
 * through the vertex just added and finding the next. */
static uint32_t prim(const struct ldist *L, struct edge *E)
{
	uint32_t n = L->n, d = L->d, nrem = n ? n - 1 : 0, ne = 0, k = 0, mid = UINT32_MAX, v = 0;
	if (!nrem) return 0;
	size_t stride = nrem;
	double *best = xmalloc(nrem * sizeof *best), *X = NULL, xv[DENSE_MAX], m = INFINITY;
	uint64_t *from = xmalloc(nrem * sizeof *from);   /* 64 bits: blended with best */
	uint32_t *rem = xmalloc(nrem * sizeof *rem);
	for (uint32_t q = 0; q < nrem; q++) {
		rem[q] = q + 1;
		best[q] = INFINITY;
		from[q] = 0;
	}
	if (L->X) {
		X = xmalloc(d * stride * sizeof *X);
		for (uint32_t j = 0; j < d; j++) memcpy(X + j * stride, L->X + (size_t)j * n + 1, nrem * sizeof *X);
		dense_point(L->X, n, d, 0, xv);
	}
	for (;;) {
		/* relax through v; find the nearest remaining vertex */
		if (X && d == 1) prim_round_dense(X, stride, 1, xv, nrem, v, best, from, rem, &m, &mid, &k);
		else if (X && d == 2) prim_round_dense(X, stride, 2, xv, nrem, v, best, from, rem, &m, &mid, &k);
		else if (X) prim_round_dense(X, stride, d, xv, nrem, v, best, from, rem, &m, &mid, &k);
		else {
			const double *Dv = L->D + (size_t)v * n;
			for (uint32_t q = 0; q < nrem; q++) prim_relax(Dv[rem[q]], q, v, best, from, rem, &m, &mid, &k);
		}
		v = rem[k];
		uint32_t f = (uint32_t)from[k];
		E[ne++] = (struct edge){ best[k], TC_MIN(f, v), TC_MAX(f, v) };
		if (X) dense_point(X, stride, d, k, xv);
		if (!--nrem) break;
		rem[k] = rem[nrem];
		best[k] = best[nrem];
		from[k] = from[nrem];
		for (uint32_t j = 0; X && j < d; j++) X[j * stride + k] = X[j * stride + nrem];
		m = INFINITY;
		mid = UINT32_MAX;
		k = 0;
	}
	free(best); free(from); free(rem); free(X);
	return ne;
}

/* Single linkage over the nl leaves: fills the nodes' child/parent/height.
 * minrank[node] orders the children.  The single-linkage hierarchy is
 * Kruskal over the minimum spanning tree: Prim's algorithm finds the tree in
 * O(nl²), then only its nl−1 edges are sorted (instead of all nl²/2 pairs). */
static void single_linkage(struct tc_phase_clusters *ph, const struct ldist *L, uint32_t *minrank)
{
	uint32_t nl = L->n;
	struct edge *E = xmalloc(2 * (size_t)(nl ? nl : 1) * sizeof *E);
	uint32_t ne = prim(L, E);
	sort_edges(E, ne, E + nl);
	uint32_t *up = xmalloc(nl * sizeof *up), *top = xmalloc(nl * sizeof *top);
	for (uint32_t i = 0; i < nl; i++) up[i] = top[i] = i;
	uint32_t next = nl;
	for (size_t i = 0; i < ne && next < 2 * nl - 1; i++) {
		uint32_t ra = uf_find(up, E[i].a), rb = uf_find(up, E[i].b);
		if (ra == rb) continue;
		uint32_t x = top[ra], y = top[rb];
		if (minrank[y] < minrank[x]) { uint32_t t = x; x = y; y = t; }
		struct tc_cnode *N = &ph->nodes[next];
		N->child[0] = x;
		N->child[1] = y;
		N->height = E[i].d;
		ph->nodes[x].parent = ph->nodes[y].parent = next;
		minrank[next] = minrank[x];
		up[rb] = ra;
		top[ra] = next++;
	}
	free(E); free(up); free(top);
}

static void visible_update(struct tc_phase_clusters *ph)
{
	ph->nvisible = 0;
	if (!ph->nnodes) return;
	uint32_t *stack = xmalloc(ph->nnodes * sizeof *stack);
	uint32_t sp = 0;
	stack[sp++] = ph->root;
	while (sp) {
		const struct tc_cnode *N = &ph->nodes[stack[--sp]];
		if (N->child[0] != TC_NONE && N->open) {
			stack[sp++] = N->child[1];
			stack[sp++] = N->child[0];
		} else ph->visible[ph->nvisible++] = (uint32_t)(N - ph->nodes);
	}
	free(stack);
}

static void cut_count(struct tc_phase_clusters *ph, uint32_t q)
{
	q = TC_MAX(q, 1u);
	q = TC_MIN(q, ph->nleaves);
	for (uint32_t i = ph->nleaves; i < ph->nnodes; i++) ph->nodes[i].open = i >= ph->nnodes - (q - 1);
	visible_update(ph);
}

/* The default cut.  A cut into q clusters lies between the last merge kept
 * (RMS distance lo) and the first merge undone (hi).  It separates well when
 * hi ≥ 2·lo (the clusters are twice as far apart as anything inside them) and
 * the gap hi − lo is material: at least 5 % of the phase's largest metric
 * value, at least ph->min_sep (a fraction of the phase's duration: 35 ns
 * between ranks of a phase lasting 1 s is noise, however small the phase's
 * values) and at least a quarter of the widest such gap.  The finest cut that
 * separates well is taken (up to max_default clusters), else one cluster.
 * Merge heights are non-decreasing in node order. */
static uint32_t default_cut(const struct tc_phase_clusters *ph, uint32_t max_default)
{
	uint32_t c = ph->nleaves, qmax = TC_MIN(c, max_default), best = 1;
	double floor = TC_MAX(0.05 * fabs(ph->max), ph->min_sep), widest = 0;
	if (!(floor > 0)) return 1;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t q = 2; q <= qmax; q++) {
			uint32_t j = c - q;  /* merges kept: nodes c .. c+j-1 */
			double lo = j ? sqrt(ph->nodes[c + j - 1].height) : 0;
			double hi = sqrt(ph->nodes[c + j].height);
			if (hi < 2 * lo) continue;
			if (pass == 0) widest = TC_MAX(widest, hi - lo);
			else if (hi - lo >= floor && hi - lo >= 0.25 * widest) best = q;
		}
	return best;
}

/* --- medoids ---------------------------------------------------------------- */

/* Medoid costs at the merge of two nodes whose leaves sit at the display
 * positions A = [pa, pa + na) and B = [pa + na, pa + na + nb): every leaf
 * gains its size-weighted distances to the other node's leaves.  A leaf of A
 * gets its sum over B (in order, from 0) added at once; a leaf of B one term
 * per leaf of A, in order.  That order fixes the bits of the costs, and so
 * which leaf wins a near tie.  D is the leaves' distance matrix (by leaf),
 * seq the leaf at each position, lsize the sizes by position (NULL: all 1,
 * the products being then the distances themselves). */
static void merge_costs(const double *D, uint32_t nl, const uint32_t *seq, const double *lsize, uint32_t pa,
			uint32_t na, uint32_t nb, double *cost)
{
	uint32_t pb = pa + na;
	for (uint32_t i = pa; i < pb; i++) {
		const double *Di = D + (size_t)seq[i] * nl;
		double si = lsize ? lsize[i] : 1, ci = 0;
		for (uint32_t j = pb; j < pb + nb; j++) {
			double d = Di[seq[j]];
			ci += (lsize ? lsize[j] : 1) * d;
			cost[j] += si * d;
		}
		cost[i] += ci;
	}
}

/* A block of merge_costs_dense: the vectors at the outer positions o0 ..
 * o0 + no − 1 (no ≤ 4, a constant where inlined) against those at the inner
 * positions p0 .. p1 − 1.  Each distance is added to its inner target T[p]
 * (outer positions in order) and to its outer sum c[o] (inner positions in
 * order): up to four independent chains of additions, each inner vector
 * loaded once. */
static CL_INLINE void cost_block(const double *restrict Y, uint32_t n, uint32_t d, uint32_t o0, uint32_t no,
				 uint32_t p0, uint32_t p1, double *restrict T, double *restrict c)
{
	double xo[4][DENSE_MAX], sum[4];
	CL_UNROLL4
	for (uint32_t o = 0; o < no; o++) {
		dense_point(Y, n, d, o0 + o, xo[o]);
		sum[o] = c[o];
	}
	uint32_t p = p0;
#ifdef CL_V2
	for (; p + 2 <= p1; p += 2) {
		v2d t = v2_load(T + p);
		CL_UNROLL4
		for (uint32_t o = 0; o < no; o++) {
			v2d a = dense_dist2(Y, n, d, xo[o], p);
			t += a;
			sum[o] += a[0];
			sum[o] += a[1];
		}
		v2_store(T + p, t);
	}
#endif
	for (; p < p1; p++) {
		double t = T[p];
		CL_UNROLL4
		for (uint32_t o = 0; o < no; o++) {
			double a = dense_dist(Y, n, d, xo[o], p);
			t += a;
			sum[o] += a;
		}
		T[p] = t;
	}
	CL_UNROLL4
	for (uint32_t o = 0; o < no; o++) c[o] = sum[o];
}

/* The outer positions o0 .. o1 − 1 against the inner p0 .. p1 − 1, four at
 * a time, the rest together. */
static CL_INLINE void cost_blocks(const double *Y, uint32_t n, uint32_t d, uint32_t o0, uint32_t o1, uint32_t p0,
				  uint32_t p1, double *T, double *c)
{
	for (; o0 + 4 <= o1; o0 += 4, c += 4) cost_block(Y, n, d, o0, 4, p0, p1, T, c);
	switch (o1 - o0) {
	case 3: cost_block(Y, n, d, o0, 3, p0, p1, T, c); break;
	case 2: cost_block(Y, n, d, o0, 2, p0, p1, T, c); break;
	case 1: cost_block(Y, n, d, o0, 1, p0, p1, T, c); break;
	}
}

/* merge_costs for single-rank leaves over dense values in display order
 * (Y[k·n + position]): the same sums, with the shorter side outer (see
 * cost_block).  A shorter: B's leaves are the targets, A's sums start at 0
 * and are then added to their costs.  B shorter: B's sums run along A from
 * their costs, and A's sums are kept in tmp until complete (a sum of one term
 * being the term, B of one leaf adds to A's costs directly). */
static CL_INLINE void merge_costs_dense(const double *Y, uint32_t n, uint32_t d, uint32_t pa, uint32_t na, uint32_t nb,
					double *cost, double *tmp)
{
	uint32_t pb = pa + na, pe = pb + nb;
	if (na <= nb) {
		memset(tmp + pa, 0, na * sizeof *tmp);
		cost_blocks(Y, n, d, pa, pb, pb, pe, cost, tmp + pa);
		for (uint32_t i = pa; i < pb; i++) cost[i] += tmp[i];
		return;
	}
	if (nb == 1) {
		cost_blocks(Y, n, d, pb, pe, pa, pb, cost, cost + pb);
		return;
	}
	memset(tmp + pa, 0, na * sizeof *tmp);
	cost_blocks(Y, n, d, pb, pe, pa, pb, tmp, cost + pb);
	for (uint32_t i = pa; i < pb; i++) cost[i] += tmp[i];
}

/* Medoids of the internal nodes (the leaves have theirs): the leaf medoid
 * with the least size-weighted distance to the medoids of all the node's
 * leaves, ties to the lower rank.  M: distances between the leaf medoids.
 * cost[p] is the weighted distance of the leaf at display position p to the
 * leaves of its current node; a pair of leaves is added once, at the merge
 * where they meet, so all medoids together cost O(leaves²). */
static void node_medoids(struct tc_phase_clusters *ph, const struct phase_priv *pp, const struct ldist *M)
{
	uint32_t nl = ph->nleaves;
	const uint32_t *seq = pp->leaf_seq;
	double *cost = xcalloc(nl, sizeof *cost), *tmp = xmalloc(nl * sizeof *tmp), *lsize = NULL, *Y = NULL;
	uint32_t *lrank = xmalloc(nl * sizeof *lrank);
	for (uint32_t p = 0; p < nl; p++) lrank[p] = ph->nodes[seq[p]].medoid;
	if (ph->clara) {
		lsize = xmalloc(nl * sizeof *lsize);
		for (uint32_t p = 0; p < nl; p++) lsize[p] = ph->nodes[seq[p]].size;
	}
	if (M->X) {
		Y = xmalloc((size_t)M->d * nl * sizeof *Y);
		for (uint32_t k = 0; k < M->d; k++)
			for (uint32_t p = 0; p < nl; p++) Y[(size_t)k * nl + p] = M->X[(size_t)k * nl + seq[p]];
	}
	for (uint32_t x = nl; x < ph->nnodes; x++) {
		uint32_t a = ph->nodes[x].child[0], b = ph->nodes[x].child[1];
		uint32_t pa = pp->node_lfirst[a], na = pp->node_nleaves[a], nb = pp->node_nleaves[b];
		if (Y && M->d == 1) merge_costs_dense(Y, nl, 1, pa, na, nb, cost, tmp);
		else if (Y && M->d == 2) merge_costs_dense(Y, nl, 2, pa, na, nb, cost, tmp);
		else if (Y) merge_costs_dense(Y, nl, M->d, pa, na, nb, cost, tmp);
		else merge_costs(M->D, nl, seq, lsize, pa, na, nb, cost);
		double bestc = INFINITY;
		uint32_t bestr = TC_NONE;
		for (uint32_t p = pa; p < pa + na + nb; p++)
			if (cost[p] <= bestc && (cost[p] < bestc || lrank[p] < bestr)) {
				bestc = cost[p];
				bestr = lrank[p];
			}
		ph->nodes[x].medoid = bestr;
	}
	free(cost); free(tmp); free(lsize); free(Y); free(lrank);
}

/* --- one phase ----------------------------------------------------------- */

static void phase_clear(struct tc_phase_clusters *ph, struct phase_priv *pp)
{
	free(ph->members); free(ph->nodes); free(ph->visible); free(ph->focus);
	cl_events_free(&pp->ev);
	free(pp->leaf_of); free(pp->leaf_medoid); free(pp->leaf_seq); free(pp->node_lfirst); free(pp->node_nleaves);
	free(pp->centroid); free(pp->cell_off); free(pp->cells);
	uint32_t part = ph->partition;
	memset(ph, 0, sizeof *ph);
	memset(pp, 0, sizeof *pp);
	ph->partition = part;
}

/* The phase's steps: first and last, the base and the number of columns. */
static void phase_step_range(const struct tc_steps *s, const struct cl_events *ev, struct tc_phase_clusters *ph,
			     struct phase_priv *pp)
{
	enum { AHEAD = 16 };   /* the phase's first look at its events, scattered over the cevs: fetched ahead */
	uint32_t lo = UINT32_MAX, hi = 0;
	for (uint32_t i = 0; i < ev->n; i++) {
		if (i + AHEAD < ev->n) __builtin_prefetch(&s->cevs[ev->cev[i + AHEAD]].step);
		uint32_t st = s->cevs[ev->cev[i]].step;
		lo = TC_MIN(lo, st);
		hi = TC_MAX(hi, st);
	}
	pp->base = ph->first_step = lo;
	ph->last_step = hi;
	pp->ncols = (hi - lo) / 2 + 1;
}

/* Stage one: the leaves, CLARA clusters (their mean vectors into *lv) or one
 * per rank; their count.  pp->leaf_of, pp->leaf_medoid set. */
static uint32_t make_leaves(struct tc_clusters *c, uint32_t p, struct tc_phase_clusters *ph, struct phase_priv *pp,
			    const struct vecs *v, struct vecs *lv)
{
	uint32_t nr = ph->nranks, nl;
	pp->leaf_of = xmalloc(nr * sizeof *pp->leaf_of);
	if (nr > c->o.direct_max) {
		ph->clara = true;
		uint32_t *med = xmalloc(TC_MIN(TC_MAX(c->o.k, 1u), nr) * sizeof *med);
		nl = clara(&c->o, c->o.seed ^ ((uint64_t)p * 0x9e3779b97f4a7c15ULL), v, med, pp->leaf_of);
		pp->leaf_medoid = med;
		mean_vecs(v, pp->ncols, pp->leaf_of, nl, lv);
	} else {
		nl = nr;
		pp->leaf_medoid = xmalloc(nr * sizeof *pp->leaf_medoid);
		for (uint32_t r = 0; r < nr; r++) pp->leaf_of[r] = pp->leaf_medoid[r] = r;
	}
	return nl;
}

/* The dendrogram's nodes (leaves first, the root last), each leaf's size,
 * metric sum (in mean), event count (in first) and maximum; returns each
 * node's lowest rank (the single linkage's tie rule), leaves filled. */
static uint32_t *leaf_stats(struct tc_phase_clusters *ph, const struct phase_priv *pp, const struct cl_events *ev,
			    uint32_t nl, const double *rsum, const double *rmax)
{
	ph->nleaves = nl;
	ph->nnodes = 2 * nl - 1;
	ph->root = ph->nnodes - 1;
	ph->nodes = xcalloc(ph->nnodes, sizeof *ph->nodes);
	for (uint32_t i = 0; i < ph->nnodes; i++) {
		struct tc_cnode *N = &ph->nodes[i];
		N->child[0] = N->child[1] = N->parent = TC_NONE;
		N->max = -INFINITY;
	}
	uint32_t *minrank = xmalloc(ph->nnodes * sizeof *minrank);
	for (uint32_t l = 0; l < nl; l++) minrank[l] = UINT32_MAX;
	for (uint32_t r = 0; r < ph->nranks; r++) {
		struct tc_cnode *L = &ph->nodes[pp->leaf_of[r]];
		L->size++;
		L->mean += rsum[r];                        /* sum for now */
		L->first += ev->off[r + 1] - ev->off[r];   /* event count for now */
		if (rmax[r] > L->max) { L->max = rmax[r]; L->max_rank = ev->ranks[r]; }
		minrank[pp->leaf_of[r]] = TC_MIN(minrank[pp->leaf_of[r]], ev->ranks[r]);
	}
	return minrank;
}

/* Distances between the leaf medoids (CLARA leaves). */
static void medoid_matrix(const struct vecs *v, const struct phase_priv *pp, uint32_t nl, struct ldist *M)
{
	M->n = nl;
	M->D = xmalloc(((size_t)nl * nl + 1) * sizeof *M->D);
	for (uint32_t a = 0; a < nl; a++) {
		M->D[(size_t)a * nl + a] = 0;
		for (uint32_t b = a + 1; b < nl; b++)
			M->D[(size_t)a * nl + b] = M->D[(size_t)b * nl + a] =
				vdist(v, pp->leaf_medoid[a], v, pp->leaf_medoid[b]);
	}
}

/* Display order (child[0] first): the leaves in pp->leaf_seq, each node's
 * first leaf there; returns the members before each node. */
static uint32_t *display_order(const struct tc_phase_clusters *ph, struct phase_priv *pp)
{
	pp->leaf_seq = xmalloc(ph->nleaves * sizeof *pp->leaf_seq);
	pp->node_lfirst = xmalloc(ph->nnodes * sizeof *pp->node_lfirst);
	uint32_t *msum = xcalloc(ph->nnodes, sizeof *msum);
	uint32_t *stack = xmalloc(ph->nnodes * sizeof *stack), sp = 0, nseq = 0, mpos = 0;
	stack[sp++] = ph->root;
	while (sp) {
		uint32_t x = stack[--sp];
		const struct tc_cnode *N = &ph->nodes[x];
		pp->node_lfirst[x] = nseq;
		msum[x] = mpos;
		if (N->child[0] == TC_NONE) {
			pp->leaf_seq[nseq++] = x;
			mpos += N->size;
		} else {
			stack[sp++] = N->child[1];
			stack[sp++] = N->child[0];
		}
	}
	free(stack);
	return msum;
}

/* Leaf statistics into their final form, internal nodes' from their
 * children: size, mean metric per event, maximum, leaves below, first member. */
static void node_stats(struct tc_phase_clusters *ph, struct phase_priv *pp, const uint32_t *msum)
{
	uint32_t nl = ph->nleaves;
	uint32_t *nleafs = pp->node_nleaves = xmalloc(ph->nnodes * sizeof *nleafs);
	uint64_t *evcnt = xcalloc(ph->nnodes, sizeof *evcnt);
	for (uint32_t l = 0; l < nl; l++) {
		evcnt[l] = ph->nodes[l].first;
		nleafs[l] = 1;
	}
	for (uint32_t x = nl; x < ph->nnodes; x++) {
		struct tc_cnode *N = &ph->nodes[x], *A = &ph->nodes[N->child[0]], *B = &ph->nodes[N->child[1]];
		N->size = A->size + B->size;
		N->mean = A->mean + B->mean;
		evcnt[x] = evcnt[N->child[0]] + evcnt[N->child[1]];
		nleafs[x] = nleafs[N->child[0]] + nleafs[N->child[1]];
		bool b_wins = B->max > A->max || (B->max == A->max && B->max_rank < A->max_rank);
		N->max = b_wins ? B->max : A->max;
		N->max_rank = b_wins ? B->max_rank : A->max_rank;
	}
	for (uint32_t x = 0; x < ph->nnodes; x++) {
		struct tc_cnode *N = &ph->nodes[x];
		N->mean = evcnt[x] ? N->mean / (double)evcnt[x] : 0;
		N->first = msum[x];
	}
	free(evcnt);
}

/* Members: the ranks of each leaf ascending, leaves in display order. */
static void fill_members(struct tc_phase_clusters *ph, const struct phase_priv *pp, const struct cl_events *ev)
{
	ph->members = xmalloc(ph->nranks * sizeof *ph->members);
	uint32_t *fill = xmalloc(ph->nleaves * sizeof *fill);
	for (uint32_t l = 0; l < ph->nleaves; l++) fill[l] = ph->nodes[l].first;
	for (uint32_t r = 0; r < ph->nranks; r++) ph->members[fill[pp->leaf_of[r]]++] = ev->ranks[r];
	free(fill);
}

/* The exchange pattern and the focus ranks around the max-metric rank. */
static void phase_focus(const struct tc_clusters *c, const struct cl_events *ev, struct tc_phase_clusters *ph)
{
	struct cl_peers g;
	cl_peers_init(&g, ev);
	ph->pattern = cl_exchange(c->s, ev, &g);
	ph->focus = xmalloc(TC_MAX(c->o.focus_max, 1u) * sizeof *ph->focus);
	ph->focus_seed = ph->max_rank;
	ph->radius = c->o.radius;
	ph->nfocus = cl_focus(ev, &g, ph->focus_seed, ph->radius, TC_MAX(c->o.focus_max, 1u), ph->focus);
	cl_peers_free(&g);
}

static void phase_compute(struct tc_clusters *c, uint32_t p)
{
	const struct tc_steps *s = c->s;
	struct tc_phase_clusters *ph = &c->ph[p];
	struct phase_priv *pp = &c->pp[p];
	double t0 = tc_now();
	phase_clear(ph, pp);
	ph->metric = c->o.metric;
	ph->root = ph->max_rank = ph->focus_seed = TC_NONE;
	cl_events_init(&pp->ev, p, &c->ix, c->ix.pcev + c->ix.pfirst[p], c->ix.pfirst[p + 1] - c->ix.pfirst[p]);
	const struct cl_events *ev = &pp->ev;
	uint32_t nr = ph->nranks = ev->nranks;
	pp->done = true;
	if (!nr) { ph->seconds = tc_now() - t0; return; }
	phase_step_range(s, ev, ph, pp);

	struct vecs v;
	/* per rank: sum, max (first rank wins ties) */
	double *rsum = xmalloc(nr * sizeof *rsum), *rmax = xmalloc(nr * sizeof *rmax);
	build_vecs(c, pp, ph->metric, &v, rsum, rmax);
	ph->max = -INFINITY;
	for (uint32_t r = 0; r < nr; r++)
		if (rmax[r] > ph->max) { ph->max = rmax[r]; ph->max_rank = ev->ranks[r]; }

	struct vecs lv = { 0 };
	uint32_t nl = make_leaves(c, p, ph, pp, &v, &lv);
	const struct vecs *leafv = ph->clara ? &lv : &v;
	uint32_t *minrank = leaf_stats(ph, pp, ev, nl, rsum, rmax);
	/* stage two: single linkage over the leaves */
	struct ldist LD, M = { 0 };
	ldist_init(&LD, leafv, c->o.dense_max);
	single_linkage(ph, &LD, minrank);
	if (ph->clara) medoid_matrix(&v, pp, nl, &M);
	uint32_t *msum = display_order(ph, pp);
	node_stats(ph, pp, msum);
	fill_members(ph, pp, ev);
	/* medoids: a leaf's own, then the internal nodes' */
	for (uint32_t l = 0; l < nl; l++) ph->nodes[l].medoid = ev->ranks[pp->leaf_medoid[l]];
	node_medoids(ph, pp, ph->clara ? &M : &LD);
	ldist_free(&LD);
	ldist_free(&M);
	pp->centroid = xmalloc(ph->nnodes * sizeof *pp->centroid);
	for (uint32_t x = 0; x < ph->nnodes; x++) pp->centroid[x] = TC_NONE;
	ph->visible = xmalloc(ph->nnodes * sizeof *ph->visible);
	const struct tc_partition *P = s->parts ? &s->parts[p] : NULL;
	if (s->t && P && P->leave > P->enter) ph->min_sep = c->o.min_sep * tc_dur(s->t, P->leave - P->enter);
	ph->default_clusters = default_cut(ph, TC_MAX(c->o.max_default, 1u));
	cut_count(ph, ph->default_clusters);
	phase_focus(c, ev, ph);

	free(msum); free(minrank);
	free(rsum); free(rmax);
	vecs_free(&v);
	if (ph->clara) vecs_free(&lv);
	ph->seconds = tc_now() - t0;
}

/* --- public ---------------------------------------------------------------- */

struct tc_clusters *tc_clusters_new(const struct tc_steps *s, const struct tc_cluster_opts *o)
{
	struct tc_clusters *c = xcalloc(1, sizeof *c);
	c->s = s;
	if (o) c->o = *o;
	else tc_cluster_default_opts(&c->o);
	/* keep the quadratic parts (PAM on a sample, linkage over leaves) small */
	c->o.k = TC_MIN(TC_MAX(c->o.k, 1u), 256u);
	c->o.direct_max = TC_MIN(c->o.direct_max, 1024u);
	c->o.samples = TC_MIN(TC_MAX(c->o.samples, 1u), 100u);
	c->o.sample_size = TC_MIN(c->o.sample_size, 2048u);
	c->o.max_default = TC_MAX(c->o.max_default, 1u);
	c->o.focus_max = TC_MAX(c->o.focus_max, 1u);
	c->o.dense_max = TC_MIN(c->o.dense_max, (uint32_t)DENSE_MAX);
	if (!(c->o.min_sep >= 0)) c->o.min_sep = 0;
	if ((unsigned)c->o.metric >= TC_M_COUNT) c->o.metric = TC_M_LATENESS;
	c->npart = s->npartitions;
	cl_index_init(&c->ix, s, TC_MIN(tc_ncpus(), 4));
	c->ph = xcalloc(c->npart + 1, sizeof *c->ph);
	c->pp = xcalloc(c->npart + 1, sizeof *c->pp);
	for (uint32_t p = 0; p < c->npart; p++) {
		c->ph[p].partition = p;
		c->ph[p].root = TC_NONE;
	}
	return c;
}

void tc_clusters_free(struct tc_clusters *c)
{
	if (!c) return;
	for (uint32_t p = 0; p < c->npart; p++) phase_clear(&c->ph[p], &c->pp[p]);
	free(c->ph);
	free(c->pp);
	free(c->mval);
	cl_index_free(&c->ix);
	free(c);
}

const struct tc_cluster_opts *tc_clusters_opts(const struct tc_clusters *c)
{
	return &c->o;
}

static struct tc_phase_clusters *phase_get(struct tc_clusters *c, uint32_t p)
{
	if (p >= c->npart) return NULL;
	if (!c->pp[p].done || c->ph[p].metric != c->o.metric) phase_compute(c, p);
	return &c->ph[p];
}

const struct tc_phase_clusters *tc_clusters_phase(struct tc_clusters *c, uint32_t partition)
{
	return phase_get(c, partition);
}

bool tc_clusters_phase_ready(const struct tc_clusters *c, uint32_t partition)
{
	return partition < c->npart && c->pp[partition].done && c->ph[partition].metric == c->o.metric;
}

/* Phases are independent: each phase_compute writes only its own ph[p] and pp[p]. */
struct range { struct tc_clusters *c; uint32_t first; };

static void compute_one(void *ctx, uint32_t i, int tid)
{
	(void)tid;
	const struct range *r = ctx;
	phase_get(r->c, r->first + i);
}

enum { MVAL_CHUNK = 1u << 16 };

static void mval_chunk(void *ctx, uint32_t k, int tid)
{
	(void)tid;
	struct tc_clusters *c = ctx;
	uint32_t end = (uint32_t)TC_MIN((uint64_t)(k + 1) * MVAL_CHUNK, (uint64_t)c->s->ncevs);
	for (uint32_t i = k * MVAL_CHUNK; i < end; i++) c->mval[i] = tc_cev_metric(c->s, i, c->mval_of, false);
}

void tc_clusters_compute_range(struct tc_clusters *c, uint32_t first, uint32_t n, int threads)
{
	if (threads <= 0) threads = TC_MIN(tc_ncpus(), 4);
	first = TC_MIN(first, c->npart);
	if (!c->mval || c->mval_of != c->o.metric) {   /* the same doubles tc_cev_metric gives */
		free(c->mval);
		c->mval = xmalloc(((size_t)c->s->ncevs + 1) * sizeof *c->mval);
		c->mval_of = c->o.metric;
		tc_parallel_for((c->s->ncevs + MVAL_CHUNK - 1) / MVAL_CHUNK, threads, mval_chunk, c);
	}
	struct range r = { c, first };
	tc_parallel_for(TC_MIN(n, c->npart - first), threads, compute_one, &r);
}

void tc_clusters_compute_all(struct tc_clusters *c, int threads)
{
	tc_clusters_compute_range(c, 0, c->npart, threads);
}

void tc_clusters_release(struct tc_clusters *c, uint32_t partition)
{
	if (partition < c->npart) phase_clear(&c->ph[partition], &c->pp[partition]);
}

void tc_clusters_set_metric(struct tc_clusters *c, enum tc_metric m)
{
	if ((unsigned)m < TC_M_COUNT) c->o.metric = m;
}

uint32_t tc_clusters_open(struct tc_clusters *c, uint32_t partition, uint32_t node, bool open)
{
	struct tc_phase_clusters *ph = phase_get(c, partition);
	if (!ph) return 0;
	if (node < ph->nnodes && ph->nodes[node].child[0] != TC_NONE) {
		ph->nodes[node].open = open;
		visible_update(ph);
	}
	return ph->nvisible;
}

uint32_t tc_clusters_cut(struct tc_clusters *c, uint32_t partition, uint32_t n)
{
	struct tc_phase_clusters *ph = phase_get(c, partition);
	if (!ph) return 0;
	if (ph->nnodes) cut_count(ph, n ? n : ph->default_clusters);
	return ph->nvisible;
}

uint32_t tc_clusters_visible_of(struct tc_clusters *c, uint32_t partition, uint32_t rank)
{
	struct tc_phase_clusters *ph = phase_get(c, partition);
	if (!ph) return TC_NONE;
	uint32_t ri = cl_rank_index(&c->pp[partition].ev, rank);
	if (ri == TC_NONE) return TC_NONE;
	uint32_t ans = c->pp[partition].leaf_of[ri];
	for (uint32_t x = ph->nodes[ans].parent; x != TC_NONE; x = ph->nodes[x].parent)
		if (!ph->nodes[x].open) ans = x;
	return ans;
}

uint32_t tc_clusters_refocus(struct tc_clusters *c, uint32_t partition, uint32_t seed, uint32_t radius)
{
	struct tc_phase_clusters *ph = phase_get(c, partition);
	if (!ph) return 0;
	if (cl_rank_index(&c->pp[partition].ev, seed) == TC_NONE) return ph->nfocus;
	ph->focus_seed = seed;
	ph->radius = radius;
	struct cl_peers g;
	cl_peers_init(&g, &c->pp[partition].ev);
	ph->nfocus = cl_focus(&c->pp[partition].ev, &g, seed, radius, TC_MAX(c->o.focus_max, 1u), ph->focus);
	cl_peers_free(&g);
	return ph->nfocus;
}

uint32_t tc_clusters_centroid(struct tc_clusters *c, uint32_t partition, uint32_t node)
{
	struct tc_phase_clusters *ph = phase_get(c, partition);
	if (!ph || node >= ph->nnodes) return TC_NONE;
	struct phase_priv *pp = &c->pp[partition];
	if (pp->centroid[node] != TC_NONE) return pp->centroid[node];
	struct vecs v, mv;
	build_vecs(c, pp, ph->metric, &v, NULL, NULL);
	uint32_t *group = xmalloc(ph->nranks * sizeof *group);
	for (uint32_t r = 0; r < ph->nranks; r++) group[r] = TC_NONE;
	const struct tc_cnode *N = &ph->nodes[node];
	for (uint32_t i = N->first; i < N->first + N->size; i++)
		group[cl_rank_index(&pp->ev, ph->members[i])] = 0;
	mean_vecs(&v, pp->ncols, group, 1, &mv);
	double best = INFINITY;
	uint32_t bestr = TC_NONE;
	for (uint32_t r = 0; r < ph->nranks; r++) {
		if (group[r] == TC_NONE) continue;
		double d = vdist(&v, r, &mv, 0);
		if (d < best) { best = d; bestr = pp->ev.ranks[r]; }  /* ranks ascending: ties keep the lowest */
	}
	free(group);
	vecs_free(&v);
	vecs_free(&mv);
	return pp->centroid[node] = bestr;
}

/* Glyph sums of every leaf at every column where it has an event: per leaf
 * one pass over its members' events into a column array, then compaction. */
static void build_cells(struct tc_clusters *c, uint32_t p)
{
	const struct tc_steps *s = c->s;
	struct tc_phase_clusters *ph = &c->ph[p];
	struct phase_priv *pp = &c->pp[p];
	const struct cl_events *ev = &pp->ev;
	uint32_t nl = ph->nleaves, *ls, *lr;
	struct vecs v;
	build_vecs(c, pp, ph->metric, &v, NULL, NULL);
	group_ranks(pp->leaf_of, ev->nranks, nl, &ls, &lr);
	struct cell *tmp = xmalloc((size_t)pp->ncols * sizeof *tmp);
	VEC(struct cell) cells = { 0 };
	pp->cell_off = xmalloc(((size_t)nl + 1) * sizeof *pp->cell_off);
	for (uint32_t l = 0; l < nl; l++) {
		uint32_t lo, hi;
		pp->cell_off[l] = (uint32_t)cells.n;
		if (!span_of(&v, lr, ls[l], ls[l + 1], &lo, &hi)) continue;
		memset(tmp + lo, 0, (size_t)(hi - lo + 1) * sizeof *tmp);
		for (uint32_t q = ls[l]; q < ls[l + 1]; q++) {
			uint32_t r = lr[q];
			for (uint32_t i = ev->off[r]; i < ev->off[r + 1]; i++) {
				const struct tc_cev *e = &s->cevs[ev->cev[i]];
				struct cell *C = &tmp[(e->step - pp->base) / 2];
				double x = cev_value(c, ev->cev[i], ph->metric);
				C->active++;
				C->sum += x;
				C->agg_sum += tc_cev_metric(s, ev->cev[i], ph->metric, true);
				if (e->flags & TC_CEV_SEND) { C->sends++; C->send_sum += x; }
				if (e->flags & TC_CEV_RECV) {
					C->recvs++;
					C->recv_sum += x;
					C->recv_msgs += cl_cev_recv_msgs(s, e);
				}
				if (e->flags & TC_CEV_COLL) { C->colls++; C->coll_sum += x; }
			}
		}
		for (uint32_t col = lo; col <= hi; col++)
			if (tmp[col].active) {
				tmp[col].col = col;
				VEC_PUSH(cells, tmp[col]);
			}
	}
	pp->cell_off[nl] = (uint32_t)cells.n;
	pp->cells = cells.a;
	pp->have_cells = true;
	free(tmp); free(ls); free(lr);
	vecs_free(&v);
}

void tc_clusters_glyphs(struct tc_clusters *c, uint32_t partition, uint32_t node, uint32_t step,
			uint32_t n, struct tc_cluster_glyph *out)
{
	struct tc_phase_clusters *ph = phase_get(c, partition);
	if (!n) return;
	uint32_t size = ph && node < ph->nnodes ? ph->nodes[node].size : 0;
	for (uint32_t i = 0; i < n; i++)
		out[i] = (struct tc_cluster_glyph){ .size = size, .inactive = size, .mean = 0, .send_mean = 0,
					    .recv_mean = 0, .coll_mean = 0, .agg_mean = 0 };
	double *sums = xcalloc((size_t)n * 5, sizeof *sums);
	if (size) {
		struct phase_priv *pp = &c->pp[partition];
		if (!pp->have_cells) build_cells(c, partition);
		const uint32_t *ls = pp->leaf_seq + pp->node_lfirst[node];
		uint64_t lo_step = step;
		for (uint32_t li = 0; li < pp->node_nleaves[node]; li++) {
			uint32_t l = ls[li];
			/* first cell at or after step */
			uint32_t a = pp->cell_off[l], b = pp->cell_off[l + 1];
			while (a < b) {
				uint32_t mid = a + (b - a) / 2;
				if ((uint64_t)pp->base + 2ull * pp->cells[mid].col < lo_step) a = mid + 1;
				else b = mid;
			}
			for (; a < pp->cell_off[l + 1]; a++) {
				const struct cell *C = &pp->cells[a];
				uint64_t g = (uint64_t)pp->base + 2ull * C->col;
				if (g >= lo_step + 2ull * n) break;
				if ((g - lo_step) & 1) continue;
				struct tc_cluster_glyph *G = &out[(g - lo_step) / 2];
				double *S = &sums[((g - lo_step) / 2) * 5];
				G->active += C->active;
				G->sends += C->sends;
				G->recvs += C->recvs;
				G->colls += C->colls;
				G->recv_msgs += C->recv_msgs;
				S[0] += C->sum; S[1] += C->send_sum; S[2] += C->recv_sum; S[3] += C->coll_sum; S[4] += C->agg_sum;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		struct tc_cluster_glyph *G = &out[i];
		const double *S = &sums[(size_t)i * 5];
		G->inactive = G->size - G->active;
		G->mean = G->active ? S[0] / G->active : NAN;
		G->send_mean = G->sends ? S[1] / G->sends : NAN;
		G->recv_mean = G->recvs ? S[2] / G->recvs : NAN;
		G->coll_mean = G->colls ? S[3] / G->colls : NAN;
		G->agg_mean = G->active ? S[4] / G->active : NAN;
	}
	free(sums);
}

uint32_t *tc_clusters_node_ranks(const struct tc_phase_clusters *ph, uint32_t node)
{
	const struct tc_cnode *N = &ph->nodes[node];
	uint32_t *r = xmalloc(((size_t)N->size + 1) * sizeof *r);
	memcpy(r, ph->members + N->first, (size_t)N->size * sizeof *r);
	tc_sort_u32(r, N->size);
	return r;
}
