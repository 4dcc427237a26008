/* regions.c — PCLVis communication regions (paper §4.2, Algorithm 1).
 *
 *  1. communication graph: ranks, an undirected edge per communicating pair,
 *     weighted by messages (or bytes, or 1);
 *  2. process correlation R(p,q) = Σ 1/depth² over the nodes of p's
 *     correlation tree that are q — the weighted count of simple paths of
 *     each length up to the depth bound, enumerated directly;
 *  3. P = R row-normalised (transition probabilities);
 *  4. first-passage path sums with damping α per step:
 *        Zh(p,q) = Σ over paths p→q that reach q only at their end of α^len ∏P,
 *     i.e. for a fixed target q the solution of h(q) = 1,
 *        h(p) = α Σ_x P(p,x) h(x)  (p ≠ q),
 *     solved by Gauss–Seidel in q's correlation neighbourhood (paths that
 *     leave it are dropped).  When the neighbourhood is the whole graph this
 *     is exactly Z = (I − αP)⁻¹, Zh(p,q) = Z(p,q)/Z(q,q);
 *  5. D(p,q) = −½ (log Zh(p,q) + log Zh(q,p));
 *  6. single linkage over those pairs up to the threshold.
 * Cost: see docs/latency.md. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"

void tc_sparse_free(struct tc_sparse *m)
{
	if (!m) return;
	free(m->row);
	free(m->col);
	free(m->val);
	memset(m, 0, sizeof *m);
}

static uint32_t sparse_find(const struct tc_sparse *m, uint32_t i, uint32_t j)
{
	uint32_t lo = m->row[i] + (uint32_t)tc_lower_bound_u32(m->col + m->row[i], m->row[i + 1] - m->row[i], j);
	return lo < m->row[i + 1] && m->col[lo] == j ? lo : TC_NONE;
}

double tc_sparse_get(const struct tc_sparse *m, uint32_t i, uint32_t j)
{
	if (i >= m->n || j >= m->n) return 0;
	uint32_t k = sparse_find(m, i, j);
	return k == TC_NONE ? 0 : m->val[k];
}

/* --- graph ------------------------------------------------------------------ */
struct cv { uint32_t c; double v; };

static int cmp_cv(const void *a, const void *b)
{
	const struct cv *x = a, *y = b;
	return x->c < y->c ? -1 : x->c > y->c;
}

void tc_graph_from_edges(uint32_t n, size_t nedges, const uint32_t *a, const uint32_t *b,
			 const double *w, struct tc_sparse *g)
{
	uint32_t *deg = xcalloc((size_t)n + 1, sizeof *deg);
	for (size_t e = 0; e < nedges; e++) {
		if (a[e] == b[e] || a[e] >= n || b[e] >= n) continue;
		deg[a[e]]++;
		deg[b[e]]++;
	}
	size_t *off = xmalloc(((size_t)n + 1) * sizeof *off);
	off[0] = 0;
	for (uint32_t i = 0; i < n; i++) off[i + 1] = off[i] + deg[i];
	struct cv *tmp = xmalloc((off[n] ? off[n] : 1) * sizeof *tmp);
	memset(deg, 0, (size_t)n * sizeof *deg);
	for (size_t e = 0; e < nedges; e++) {
		if (a[e] == b[e] || a[e] >= n || b[e] >= n) continue;
		double x = w ? w[e] : 1.0;
		tmp[off[a[e]] + deg[a[e]]++] = (struct cv){ b[e], x };
		tmp[off[b[e]] + deg[b[e]]++] = (struct cv){ a[e], x };
	}
	g->n = n;
	g->row = xmalloc(((size_t)n + 1) * sizeof *g->row);
	g->col = xmalloc((off[n] ? off[n] : 1) * sizeof *g->col);
	g->val = xmalloc((off[n] ? off[n] : 1) * sizeof *g->val);
	/* per row: repeats of a column summed in edge order through a slot table,
	 * then the distinct columns sorted (linear in the edges; the same sums as a
	 * stable sort by column would give) */
	uint32_t *slot = xmalloc((n ? n : 1) * sizeof *slot);
	for (uint32_t i = 0; i < n; i++) slot[i] = TC_NONE;
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct cv *r = tmp + off[i];
		size_t m = off[i + 1] - off[i], d = 0;
		for (size_t j = 0; j < m; j++) {
			if (slot[r[j].c] != TC_NONE) { r[slot[r[j].c]].v += r[j].v; continue; }
			slot[r[j].c] = (uint32_t)d;
			r[d++] = r[j];
		}
		for (size_t j = 0; j < d; j++) slot[r[j].c] = TC_NONE;
		qsort(r, d, sizeof *r, cmp_cv);
		g->row[i] = k;
		for (size_t j = 0; j < d; j++, k++) {
			g->col[k] = r[j].c;
			g->val[k] = r[j].v;
		}
	}
	g->row[n] = k;
	free(slot);
	free(tmp);
	free(off);
	free(deg);
}

void tc_comm_graph(const struct tc_trace *t, enum tc_lat_weight wmode, struct tc_sparse *g)
{
	/* per sender-receiver pair, not per message: the weights are whole numbers
	 * below 2^53, so their sums are exact in any order */
	struct tc_pair *p = NULL;
	size_t m = tc_msg_pairs(t, &p);
	uint32_t *a = xmalloc((m ? m : 1) * sizeof *a);
	uint32_t *b = xmalloc((m ? m : 1) * sizeof *b);
	double *w = xmalloc((m ? m : 1) * sizeof *w);
	for (size_t i = 0; i < m; i++) {
		a[i] = p[i].src;
		b[i] = p[i].dst;
		w[i] = wmode == TC_LAT_W_BYTES ? (double)p[i].bytes1 : (double)p[i].msgs;
	}
	free(p);
	tc_graph_from_edges(t->nranks, m, a, b, w, g);
	free(a);
	free(b);
	free(w);
	uint32_t nnz = g->row[g->n];
	double mx = 0;
	for (uint32_t k = 0; k < nnz; k++) mx = TC_MAX(mx, g->val[k]);
	for (uint32_t k = 0; k < nnz; k++) g->val[k] = wmode == TC_LAT_W_BINARY ? 1.0 : g->val[k] / mx;
}

/* Worker threads take rows in chunks: [*base, *end) of at most `chunk` rows;
 * false when none are left. */
static bool claim_rows(pthread_mutex_t *lock, uint32_t *next, uint32_t n, uint32_t chunk, uint32_t *base,
		       uint32_t *end)
{
	pthread_mutex_lock(lock);
	*base = *next;
	*end = *base + chunk < n ? *base + chunk : n;
	*next = *end > *base ? *end : *base;
	pthread_mutex_unlock(lock);
	return *base < n;
}

/* --- process correlation ------------------------------------------------------ */
/* A kept entry: row p, column q, raw weighted path counts per length. */
struct kent { uint32_t p, q; double s[3]; };

static int cmp_kent(const void *a, const void *b)
{
	const struct kent *x = a, *y = b;
	if (x->p != y->p) return x->p < y->p ? -1 : 1;
	return x->q < y->q ? -1 : x->q > y->q;
}

/* Min-heap of (value, column) on "weaker": smaller value, then larger column. */
struct hent { double v; uint32_t q; };

static bool weaker(const struct hent *a, const struct hent *b)
{
	return a->v < b->v || (a->v == b->v && a->q > b->q);
}

static void heap_sift(struct hent *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && weaker(&h[l], &h[m])) m = l;
		if (r < n && weaker(&h[r], &h[m])) m = r;
		if (m == i) return;
		struct hent x = h[i]; h[i] = h[m]; h[m] = x;
		i = m;
	}
}

/* Rows are handed out in chunks to the threads; each keeps its own
 * accumulators and its list of kept entries. */
struct corr_job {
	const struct tc_sparse *g;
	uint32_t depth, keep;
	bool balanced;
	double (*f)[3];              /* per row: layer factors */
	uint32_t next;
	pthread_mutex_t lock;
};

struct corr_part {
	struct corr_job *J;
	pthread_t th;
	VEC(struct kent) kept;
};

static void *corr_worker(void *arg)
{
	struct corr_part *P = arg;
	struct corr_job *J = P->J;
	const struct tc_sparse *g = J->g;
	uint32_t n = g->n, depth = J->depth, keep = J->keep;
	double *acc[3];
	for (int d = 0; d < 3; d++) acc[d] = xcalloc(n ? n : 1, sizeof(double));
	uint8_t *seen = xcalloc(n ? n : 1, 1);
	VEC(uint32_t) touched = { 0 };
	VEC(struct hent) heap = { 0 };
	uint32_t base, end;
	while (claim_rows(&J->lock, &J->next, n, 256, &base, &end)) {
		for (uint32_t p = base; p < end; p++) {
			touched.n = 0;
			double mass[3] = { 0, 0, 0 };
#define ADD(d, q, v) do { if (!seen[q]) { seen[q] = 1; VEC_PUSH(touched, (q)); } acc[d][q] += (v); mass[d] += (v); } while (0)
			for (uint32_t i = g->row[p]; i < g->row[p + 1]; i++) {
				uint32_t x = g->col[i];
				double wx = g->val[i];
				ADD(0, x, wx);
				if (depth < 2) continue;
				for (uint32_t j = g->row[x]; j < g->row[x + 1]; j++) {
					uint32_t y = g->col[j];
					if (y == p) continue;
					double wy = wx * g->val[j];
					ADD(1, y, wy);
					if (depth < 3) continue;
					for (uint32_t k = g->row[y]; k < g->row[y + 1]; k++) {
						uint32_t z = g->col[k];
						if (z == p || z == x) continue;
						ADD(2, z, wy * g->val[k]);
					}
				}
			}
#undef ADD
			/* 1/depth² per tree node; balanced: each depth layer scaled to the
			 * mass of the first, so layers weigh 1, 1/4, 1/9 whatever the fan-out */
			double *f = J->f[p];
			f[0] = 1.0;
			f[1] = 1.0 / 4;
			f[2] = 1.0 / 9;
			if (J->balanced)
				for (int d = 1; d < 3; d++) f[d] = mass[d] > 0 ? f[d] * mass[0] / mass[d] : 0;
			/* the `keep` strongest (all when keep == 0) */
			heap.n = 0;
			for (size_t i = 0; i < touched.n; i++) {
				uint32_t q = touched.a[i];
				struct hent h = { f[0] * acc[0][q] + f[1] * acc[1][q] + f[2] * acc[2][q], q };
				if (!(h.v > 0)) continue;
				if (!keep || heap.n < keep) {
					VEC_PUSH(heap, h);
					if (keep && heap.n == keep)
						for (size_t k = heap.n / 2; k-- > 0;) heap_sift(heap.a, heap.n, k);
				} else if (weaker(&heap.a[0], &h)) {
					heap.a[0] = h;
					heap_sift(heap.a, heap.n, 0);
				}
			}
			for (size_t i = 0; i < heap.n; i++) {
				uint32_t q = heap.a[i].q;
				VEC_PUSH(P->kept, ((struct kent){ p, q, { acc[0][q], acc[1][q], acc[2][q] } }));
			}
			for (size_t i = 0; i < touched.n; i++) {
				uint32_t q = touched.a[i];
				acc[0][q] = acc[1][q] = acc[2][q] = 0;
				seen[q] = 0;
			}
		}
	}
	VEC_FREE(touched);
	VEC_FREE(heap);
	for (int d = 0; d < 3; d++) free(acc[d]);
	free(seen);
	return NULL;
}

void tc_process_correlation(const struct tc_sparse *g, uint32_t depth, bool balanced, uint32_t keep,
			    struct tc_sparse *r)
{
	uint32_t n = g->n;
	struct corr_job J = {
		.g = g, .depth = depth < 1 ? 1 : depth > 3 ? 3 : depth, .keep = keep, .balanced = balanced,
		.f = xmalloc((n ? n : 1) * sizeof *J.f),
	};
	pthread_mutex_init(&J.lock, NULL);
	int nt = g->row[n] < 20000 ? 1 : TC_MIN(tc_ncpus(), 16);
	struct corr_part part[16];
	memset(part, 0, sizeof part);
	int started = 1;
	part[0].J = &J;
	for (int i = 1; i < nt; i++) {
		part[started].J = &J;
		if (pthread_create(&part[started].th, NULL, corr_worker, &part[started]) == 0) started++;
	}
	corr_worker(&part[0]);
	for (int i = 1; i < started; i++) pthread_join(part[i].th, NULL);
	pthread_mutex_destroy(&J.lock);

	/* the path counts are symmetric: every kept entry and (with keep) its
	 * mirror, bucketed by row, then one entry per (row, column) */
	uint32_t *cnt = xcalloc((size_t)n + 1, sizeof *cnt);
	size_t total = 0;
	for (int i = 0; i < started; i++)
		for (size_t k = 0; k < part[i].kept.n; k++) {
			cnt[part[i].kept.a[k].p]++;
			if (keep) cnt[part[i].kept.a[k].q]++;
			total += keep ? 2 : 1;
		}
	size_t *pos = xmalloc(((size_t)n + 1) * sizeof *pos);
	pos[0] = 0;
	for (uint32_t p = 0; p < n; p++) pos[p + 1] = pos[p] + cnt[p];
	struct kent *all = xmalloc((total ? total : 1) * sizeof *all);
	for (int i = 0; i < started; i++) {
		for (size_t k = 0; k < part[i].kept.n; k++) {
			struct kent e = part[i].kept.a[k];
			all[pos[e.p]++] = e;
			if (keep) {
				struct kent m = e;
				m.p = e.q;
				m.q = e.p;
				all[pos[m.p]++] = m;
			}
		}
		VEC_FREE(part[i].kept);
	}
	r->n = n;
	r->row = xmalloc(((size_t)n + 1) * sizeof *r->row);
	r->col = xmalloc((total ? total : 1) * sizeof *r->col);
	r->val = xmalloc((total ? total : 1) * sizeof *r->val);
	uint32_t m = 0;
	size_t start = 0;
	for (uint32_t p = 0; p < n; p++) {
		r->row[p] = m;
		size_t end = start + cnt[p];
		qsort(all + start, cnt[p], sizeof *all, cmp_kent);
		for (size_t i = start; i < end; i++) {
			if (m > r->row[p] && r->col[m - 1] == all[i].q) continue;
			const double *sd = all[i].s;
			r->col[m] = all[i].q;
			r->val[m] = J.f[p][0] * sd[0] + J.f[p][1] * sd[1] + J.f[p][2] * sd[2];
			m++;
		}
		start = end;
	}
	r->row[n] = m;
	free(all);
	free(pos);
	free(cnt);
	free(J.f);
}

/* --- free-energy distance ------------------------------------------------------- */
struct fe_job {
	const struct tc_sparse *r;     /* pattern and correlation */
	const double *rowsum;          /* Σ_k R(p,k) */
	double alpha, tol;
	uint32_t ball_max;
	double *zh;                    /* parallel to r->val: Zh(p, col) */
	uint32_t next;                 /* next target (shared, under lock) */
	pthread_mutex_t lock;
};

struct rank_val { uint32_t q; double v; };

static int cmp_rv_desc(const void *a, const void *b)
{
	const struct rank_val *x = a, *y = b;
	if (x->v != y->v) return x->v > y->v ? -1 : 1;
	return x->q < y->q ? -1 : x->q > y->q;
}

static void *fe_worker(void *arg)
{
	struct fe_job *J = arg;
	const struct tc_sparse *R = J->r;
	uint32_t n = R->n;
	uint32_t *local = xmalloc((n ? n : 1) * sizeof *local);
	for (uint32_t i = 0; i < n; i++) local[i] = TC_NONE;
	VEC(uint32_t) ball = { 0 };
	VEC(struct rank_val) cand = { 0 };
	VEC(uint32_t) lrow = { 0 };
	VEC(uint32_t) lcol = { 0 };
	VEC(double) lval = { 0 };
	double *h = NULL;
	size_t hcap = 0;
	uint32_t base, end;
	while (claim_rows(&J->lock, &J->next, n, 64, &base, &end)) {
		for (uint32_t q = base; q < end; q++) {
			/* the neighbourhood: q, then its correlated ranks (strongest first when capped) */
			uint32_t deg = R->row[q + 1] - R->row[q];
			ball.n = 0;
			VEC_PUSH(ball, q);
			if (deg + 1 > J->ball_max) {
				cand.n = 0;
				for (uint32_t k = R->row[q]; k < R->row[q + 1]; k++)
					VEC_PUSH(cand, ((struct rank_val){ R->col[k], R->val[k] }));
				qsort(cand.a, cand.n, sizeof *cand.a, cmp_rv_desc);
				for (size_t i = 0; i + 1 < J->ball_max && i < cand.n; i++) VEC_PUSH(ball, cand.a[i].q);
			} else {
				for (uint32_t k = R->row[q]; k < R->row[q + 1]; k++) VEC_PUSH(ball, R->col[k]);
			}
			for (size_t i = 0; i < ball.n; i++) local[ball.a[i]] = (uint32_t)i;
			/* local transition rows, α folded in; row 0 (q) is fixed at h = 1 */
			lrow.n = lcol.n = lval.n = 0;
			for (size_t i = 0; i < ball.n; i++) {
				VEC_PUSH(lrow, (uint32_t)lcol.n);
				uint32_t p = ball.a[i];
				if (i == 0 || J->rowsum[p] <= 0) continue;
				double s = J->alpha / J->rowsum[p];
				for (uint32_t k = R->row[p]; k < R->row[p + 1]; k++) {
					uint32_t x = local[R->col[k]];
					if (x == TC_NONE) continue;
					VEC_PUSH(lcol, x);
					VEC_PUSH(lval, R->val[k] * s);
				}
			}
			VEC_PUSH(lrow, (uint32_t)lcol.n);
			if (ball.n > hcap) {
				hcap = ball.n;
				h = xreallocarray(h, hcap, sizeof *h);
			}
			h[0] = 1.0;
			for (size_t i = 1; i < ball.n; i++) h[i] = 0.0;
			for (int it = 0; it < 10000; it++) {
				double change = 0;
				for (size_t i = 1; i < ball.n; i++) {
					double s = 0;
					for (uint32_t k = lrow.a[i]; k < lrow.a[i + 1]; k++) s += lval.a[k] * h[lcol.a[k]];
					double d = fabs(s - h[i]);
					if (d > change) change = d;
					h[i] = s;
				}
				if (change <= J->tol) break;
			}
			for (size_t i = 1; i < ball.n; i++) {
				uint32_t p = ball.a[i];
				uint32_t k = sparse_find(R, p, q);
				if (k != TC_NONE) J->zh[k] = h[i];
			}
			for (size_t i = 0; i < ball.n; i++) local[ball.a[i]] = TC_NONE;
		}
	}
	free(local);
	free(h);
	VEC_FREE(ball);
	VEC_FREE(cand);
	VEC_FREE(lrow);
	VEC_FREE(lcol);
	VEC_FREE(lval);
	return NULL;
}

size_t tc_free_energy(const struct tc_sparse *r, const struct tc_latency_opts *o, struct tc_fe_pair **pairs)
{
	uint32_t n = r->n;
	uint32_t nnz = r->row[n];
	struct fe_job J = {
		.r = r,
		.alpha = o->damping > 0 && o->damping < 1 ? o->damping : 0.8,
		.tol = o->tol > 0 ? o->tol : 1e-10,
		.ball_max = o->ball_max >= 2 ? o->ball_max : 2,
		.next = 0,
	};
	double *rowsum = xcalloc(n ? n : 1, sizeof *rowsum);
	for (uint32_t p = 0; p < n; p++)
		for (uint32_t k = r->row[p]; k < r->row[p + 1]; k++) rowsum[p] += r->val[k];
	J.rowsum = rowsum;
	J.zh = xmalloc((nnz ? nnz : 1) * sizeof *J.zh);
	for (uint32_t k = 0; k < nnz; k++) J.zh[k] = 0;
	pthread_mutex_init(&J.lock, NULL);
	int nt = o->threads > 0 ? o->threads : tc_ncpus();
	if (nt > 64) nt = 64;
	if ((uint64_t)nnz < 20000) nt = 1;
	pthread_t th[64];
	int started = 0;
	for (int i = 1; i < nt; i++)
		if (pthread_create(&th[started], NULL, fe_worker, &J) == 0) started++;
	fe_worker(&J);
	for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
	pthread_mutex_destroy(&J.lock);

	VEC(struct tc_fe_pair) out = { 0 };
	for (uint32_t p = 0; p < n; p++)
		for (uint32_t k = r->row[p]; k < r->row[p + 1]; k++) {
			uint32_t q = r->col[k];
			if (q <= p) continue;
			uint32_t k2 = sparse_find(r, q, p);
			if (k2 == TC_NONE || J.zh[k] <= 0 || J.zh[k2] <= 0) continue;
			double d = -0.5 * (log(J.zh[k]) + log(J.zh[k2]));
			VEC_PUSH(out, ((struct tc_fe_pair){ p, q, d > 0 ? d : 0 }));
		}
	free(J.zh);
	free(rowsum);
	*pairs = out.a;
	return out.n;
}

/* --- single linkage ---------------------------------------------------------------- */
static int cmp_pair(const void *a, const void *b)
{
	const struct tc_fe_pair *x = a, *y = b;
	if (x->d != y->d) return x->d < y->d ? -1 : 1;
	if (x->p != y->p) return x->p < y->p ? -1 : 1;
	return x->q < y->q ? -1 : x->q > y->q;
}

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

uint32_t tc_single_linkage(uint32_t n, const struct tc_fe_pair *pairs, size_t npairs, double threshold,
			   uint32_t *region_of, double **merge_max)
{
	struct tc_fe_pair *s = xmalloc((npairs ? npairs : 1) * sizeof *s);
	if (npairs) memcpy(s, pairs, npairs * sizeof *s);
	qsort(s, npairs, sizeof *s, cmp_pair);
	uint32_t *parent = xmalloc((n ? n : 1) * sizeof *parent);
	double *mm = xcalloc(n ? n : 1, sizeof *mm);
	for (uint32_t i = 0; i < n; i++) parent[i] = i;
	for (size_t i = 0; i < npairs && s[i].d <= threshold; i++) {
		uint32_t a = uf_find(parent, s[i].p), b = uf_find(parent, s[i].q);
		if (a == b) continue;
		/* root = smaller index, so a region's root is its smallest rank */
		if (b < a) { uint32_t x = a; a = b; b = x; }
		parent[b] = a;
		mm[a] = TC_MAX(TC_MAX(mm[a], mm[b]), s[i].d);
	}
	uint32_t nreg = 0;
	uint32_t *id = xmalloc((n ? n : 1) * sizeof *id);
	for (uint32_t i = 0; i < n; i++) id[i] = TC_NONE;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t root = uf_find(parent, i);
		if (id[root] == TC_NONE) id[root] = nreg++;
		region_of[i] = id[root];
	}
	if (merge_max) {
		double *out = xcalloc(nreg ? nreg : 1, sizeof *out);
		for (uint32_t i = 0; i < n; i++)
			if (parent[i] == i) out[id[i]] = mm[i];
		*merge_max = out;
	}
	free(id);
	free(mm);
	free(parent);
	free(s);
	return nreg;
}
