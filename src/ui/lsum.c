/* lsum.c — the logical view's multi-resolution summary.
 *
 * Built once per (metric, aggregates shown) in one pass over the cevs, so a
 * frame never walks events:
 *  - per rank, the "leaves" are its cevs (each preceded by its aggregate
 *    block when those are shown) in step order; block maxima over 8 and
 *    1024 consecutive leaves answer "max over ranks r × x units [x0, x1)"
 *    exactly in O(log n + span/1024) per rank: at most 2 × 7 leaves at the
 *    edges and 2 × 127 maxima of 8 (a leaf's value is read through the
 *    model's calls, tc_cev_metric: several loads; a maximum is one);
 *  - a 2-D tile pyramid (level 0: 2^rs ranks × 2^xs x units, at most 2^20
 *    tiles; each level halves both sides) answers cells that cover many
 *    ranks in O(tiles touched), a few per cell; edges round out to whole
 *    tiles, so such a cell shows the maximum over a slightly larger block;
 *  - prefix sums of the metric per x unit for the overview's bars. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lsum_internal.h"

#define EXACT_RANKS 16u

static inline uint32_t nleaves(const struct tc_lsum *s, uint32_t r)
{
	return (s->st->rank_first[r + 1] - s->st->rank_first[r]) * (s->agg ? 2u : 1u);
}

/* leaf k of rank r: its x unit, value and flags */
static inline uint32_t leaf_x(const struct tc_lsum *s, uint32_t r, uint32_t k)
{
	const struct tc_cev *e = &s->st->cevs[s->st->rank_first[r] + (s->agg ? k / 2 : k)];
	return lsum_leaf_x(e, s->agg, k & 1);
}

/* leaf k of rank r's place in leafv */
static inline size_t leaf_at(const struct tc_lsum *s, uint32_t r, uint32_t k)
{
	return (size_t)s->st->rank_first[r] * (s->agg ? 2u : 1u) + k;
}

static inline struct tc_cellsum leaf(const struct tc_lsum *s, uint32_t r, uint32_t k)
{
	uint32_t i = s->st->rank_first[r] + (s->agg ? k / 2 : k);
	const struct tc_cev *e = &s->st->cevs[i];
	bool is_agg = s->agg && !(k & 1);
	double v = s->leafv ? s->leafv[leaf_at(s, r, k)] : tc_cev_metric(s->st, i, s->metric, is_agg);
	return lsum_cell(e, is_agg, v);   /* leafv's are finite already */
}

/* first leaf of rank r with x >= x */
static uint32_t leaf_lower(const struct tc_lsum *s, uint32_t r, uint32_t x)
{
	uint32_t lo = 0, hi = nleaves(s, r);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (leaf_x(s, r, mid) < x) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/* The tile pyramid's geometry from nranks and nx: at most 2^20 level-0
 * tiles, about 4 x units per rank row. */
void lsum_geometry(struct tc_lsum *s)
{
	uint64_t nx = s->nx, nry = s->nranks ? s->nranks : 1;
	s->rs = s->xs = 0;
	while ((((nx - 1) >> s->xs) + 1) * (((nry - 1) >> s->rs) + 1) > (1u << 20)) {
		if (((nx - 1) >> s->xs) + 1 > 4 * (((nry - 1) >> s->rs) + 1)) s->xs++;
		else s->rs++;
	}
	s->tw[0] = (uint32_t)(((nx - 1) >> s->xs) + 1);
	s->th[0] = (uint32_t)(((nry - 1) >> s->rs) + 1);
	s->nlevels = 1;
	while ((s->tw[s->nlevels - 1] > 1 || s->th[s->nlevels - 1] > 1) && s->nlevels < 24) {
		s->tw[s->nlevels] = (s->tw[s->nlevels - 1] + 1) / 2;
		s->th[s->nlevels] = (s->th[s->nlevels - 1] + 1) / 2;
		s->nlevels++;
	}
}

void lsum_firsts(struct tc_lsum *s)
{
	s->b1_first = xcalloc((size_t)s->nranks + 1, sizeof *s->b1_first);
	s->b2_first = xcalloc((size_t)s->nranks + 1, sizeof *s->b2_first);
	for (uint32_t r = 0; r < s->nranks; r++) {
		uint32_t n = nleaves(s, r);
		s->b1_first[r + 1] = s->b1_first[r] + (n + B1 - 1) / B1;
		s->b2_first[r + 1] = s->b2_first[r] + (n + B2 - 1) / B2;
	}
}

void lsum_tiles_up(struct tc_lsum *s)
{
	for (int l = 1; l < s->nlevels; l++)
		for (uint32_t y = 0; y < s->th[l - 1]; y++)
			for (uint32_t x = 0; x < s->tw[l - 1]; x++)
				lsum_merge(&s->tiles[l][(size_t)(y / 2) * s->tw[l] + x / 2], s->tiles[l - 1][(size_t)y * s->tw[l - 1] + x]);
}

struct tc_lsum *lsum_build(const struct tc_steps *st, enum tc_metric m, bool agg)
{
	struct tc_lsum *s = xcalloc(1, sizeof *s);
	s->st = st;
	s->metric = m;
	s->agg = agg;
	uint32_t nr = s->nranks = st->t->nranks;
	s->nx = lsum_x_of_step(agg, st->max_step) + 1;
	lsum_firsts(s);
	s->b1 = xcalloc((size_t)s->b1_first[nr] + 1, sizeof *s->b1);
	s->b2 = xcalloc((size_t)s->b2_first[nr] + 1, sizeof *s->b2);
	lsum_geometry(s);
	for (int l = 0; l < s->nlevels; l++) s->tiles[l] = xcalloc((size_t)s->tw[l] * s->th[l], sizeof(struct tc_cellsum));
	s->xsum = xcalloc((size_t)s->nx + 1, sizeof *s->xsum);
	float *leafv = xcalloc((size_t)st->ncevs * (agg ? 2u : 1u) + 1, sizeof *leafv);  /* the spare one stored as 0 */

	double vmax = 0;
	for (uint32_t r = 0; r < nr; r++) {
		uint32_t n = nleaves(s, r);
		struct tc_cellsum *t0 = s->tiles[0] + (size_t)(r >> s->rs) * s->tw[0];
		for (uint32_t k = 0; k < n; k++) {
			struct tc_cellsum c = leaf(s, r, k);
			leafv[leaf_at(s, r, k)] = c.v;
			uint32_t x = leaf_x(s, r, k);
			if (x >= s->nx) continue;
			lsum_merge(&s->b1[s->b1_first[r] + k / B1], c);
			lsum_merge(&s->b2[s->b2_first[r] + k / B2], c);
			lsum_merge(&t0[x >> s->xs], c);
			s->xsum[x + 1] += c.v;
			if (c.v > vmax) vmax = c.v;
		}
	}
	for (uint32_t x = 0; x < s->nx; x++) s->xsum[x + 1] += s->xsum[x];
	lsum_tiles_up(s);
	s->vmax = vmax;
	s->leafv = leafv;   /* from now on every leaf is read here */
	return s;
}

void lsum_free(struct tc_lsum *s)
{
	if (!s) return;
	if (!s->borrowed) {
		free(s->b1_first);
		free(s->b2_first);
		free(s->b1);
		free(s->b2);
		for (int l = 0; l < s->nlevels; l++) free(s->tiles[l]);
		free(s->xsum);
		free(s->leafv);
	}
	free(s);
}

static void rank_query(const struct tc_lsum *s, uint32_t r, uint32_t x0, uint32_t x1, struct tc_cellsum *out)
{
	uint32_t n = nleaves(s, r);
	if (!n) return;
	uint32_t lo = leaf_lower(s, r, x0);
	if (lo >= n || leaf_x(s, r, lo) >= x1) return;
	uint32_t hi = leaf_lower(s, r, x1);
	const struct tc_cellsum *b1 = s->b1 + s->b1_first[r], *b2 = s->b2 + s->b2_first[r];
	while (lo < hi && lo % B1) lsum_merge(out, leaf(s, r, lo++));
	while (lo + B1 <= hi && lo % B2) { lsum_merge(out, b1[lo / B1]); lo += B1; }
	while (lo + B2 <= hi) { lsum_merge(out, b2[lo / B2]); lo += B2; }
	while (lo + B1 <= hi) { lsum_merge(out, b1[lo / B1]); lo += B1; }
	while (lo < hi) lsum_merge(out, leaf(s, r, lo++));
}

struct tc_cellsum lsum_query(const struct tc_lsum *s, uint32_t r0, uint32_t r1, uint32_t x0, uint32_t x1)
{
	struct tc_cellsum out = { 0, 0 };
	if (r1 > s->nranks) r1 = s->nranks;
	if (x1 > s->nx) x1 = s->nx;
	if (r0 >= r1 || x0 >= x1) return out;
	if (r1 - r0 <= EXACT_RANKS) {
		for (uint32_t r = r0; r < r1; r++) rank_query(s, r, x0, x1, &out);
		return out;
	}
	int l = 0;
	while (l + 1 < s->nlevels && (1ull << (s->rs + l + 1)) <= r1 - r0 && (1ull << (s->xs + l + 1)) <= x1 - x0) l++;
	uint32_t ty0 = r0 >> (s->rs + l), ty1 = (r1 - 1) >> (s->rs + l);
	uint32_t tx0 = x0 >> (s->xs + l), tx1 = (x1 - 1) >> (s->xs + l);
	for (uint32_t y = ty0; y <= ty1 && y < s->th[l]; y++)
		for (uint32_t x = tx0; x <= tx1 && x < s->tw[l]; x++) lsum_merge(&out, s->tiles[l][(size_t)y * s->tw[l] + x]);
	return out;
}

double lsum_xsum(const struct tc_lsum *s, uint32_t x0, uint32_t x1)
{
	if (x1 > s->nx) x1 = s->nx;
	if (x0 >= x1) return 0;
	return s->xsum[x1] - s->xsum[x0];
}

double *lsum_xsum_ranks(const struct tc_lsum *s, const uint32_t *ranks, uint32_t n)
{
	double *p = xcalloc((size_t)s->nx + 1, sizeof *p);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = ranks[i];
		if (r >= s->nranks) continue;
		for (uint32_t k = 0, m = nleaves(s, r); k < m; k++) {
			uint32_t x = leaf_x(s, r, k);
			if (x < s->nx) p[x + 1] += leaf(s, r, k).v;
		}
	}
	for (uint32_t x = 0; x < s->nx; x++) p[x + 1] += p[x];
	return p;
}

/* --- kept in the analysis cache (docs/cache.md, "Blobs") ------------------- */
/* The arrays of s in blob order, their places and byte sizes; the sizes of
 * b1 and b2 follow from b1_first and b2_first (NULL: 0 for now). */
static int lsum_arrays(struct tc_lsum *s, void **place[], size_t size[])
{
	uint32_t nr = s->nranks;
	int n = 0;
	place[n] = (void **)&s->b1_first, size[n++] = ((size_t)nr + 1) * sizeof *s->b1_first;
	place[n] = (void **)&s->b2_first, size[n++] = ((size_t)nr + 1) * sizeof *s->b2_first;
	place[n] = (void **)&s->b1, size[n++] = s->b1_first ? ((size_t)s->b1_first[nr] + 1) * sizeof *s->b1 : 0;
	place[n] = (void **)&s->b2, size[n++] = s->b2_first ? ((size_t)s->b2_first[nr] + 1) * sizeof *s->b2 : 0;
	for (int l = 0; l < s->nlevels; l++)
		place[n] = (void **)&s->tiles[l], size[n++] = (size_t)s->tw[l] * s->th[l] * sizeof(struct tc_cellsum);
	place[n] = (void **)&s->xsum, size[n++] = ((size_t)s->nx + 1) * sizeof *s->xsum;
	place[n] = (void **)&s->leafv, size[n++] = ((size_t)s->st->ncevs * (s->agg ? 2u : 1u) + 1) * sizeof *s->leafv;
	return n;
}

static size_t up8(size_t n) { return (n + 7) & ~(size_t)7; }

uint64_t lsum_pack_holes(const struct tc_lsum *s, struct strbuf *out, struct tc_cache_hole holes[LSUM_HOLES])
{
	struct lsum_head h = { (uint32_t)s->metric, s->agg, s->nranks, s->nx, s->vmax };
	static const char zeros[8];
	sb_addn(out, (const char *)&h, sizeof h);
	uint64_t at = sizeof h;
	void **place[32];
	size_t size[32];
	int n = lsum_arrays((struct tc_lsum *)s, place, size), k = 0;
	for (int i = 0; i < n; i++) {
		bool hole = holes && (i == 2 || i == 3 || i == n - 1);   /* b1, b2, leafv: per rank */
		if (hole) {
			holes[k] = (struct tc_cache_hole){ at, up8(size[i]), TC_ANCHOR_BLOB0 + k };
			k++;
		} else {
			sb_addn(out, (const char *)*place[i], size[i]);
			sb_addn(out, zeros, up8(size[i]) - size[i]);
		}
		at += up8(size[i]);
	}
	return at;
}

void lsum_pack(const struct tc_lsum *s, struct strbuf *out)
{
	lsum_pack_holes(s, out, NULL);
}

/* Whether the per-rank block offsets are those of st's events. */
static bool firsts_ok(const struct tc_lsum *s)
{
	for (uint32_t r = 0; r < s->nranks; r++) {
		uint32_t n = nleaves(s, r);
		if (s->b1_first[r + 1] - s->b1_first[r] != (n + B1 - 1) / B1 ||
		    s->b2_first[r + 1] - s->b2_first[r] != (n + B2 - 1) / B2)
			return false;
	}
	return !s->b1_first[0] && !s->b2_first[0];
}

struct tc_lsum *lsum_unpack(const void *blob, size_t len, const struct tc_steps *st)
{
	struct lsum_head h;
	if (len < sizeof h) return NULL;
	memcpy(&h, blob, sizeof h);
	if (h.metric >= TC_M_COUNT || h.agg > 1 || h.nranks != st->t->nranks ||
	    h.nx != lsum_x_of_step(h.agg, st->max_step) + 1)
		return NULL;
	struct tc_lsum *s = xcalloc(1, sizeof *s);
	*s = (struct tc_lsum){ .st = st, .metric = (enum tc_metric)h.metric, .agg = h.agg, .nranks = h.nranks,
			       .nx = h.nx, .vmax = h.vmax };
	lsum_geometry(s);
	/* every array starts 8-aligned in the bytes (lsum_pack_holes): when the
	 * bytes do, the arrays are read where they are, else copied */
	s->borrowed = (uintptr_t)blob % 8 == 0;
	size_t at = sizeof h;
	void **place[32];
	size_t size[32];
	bool ok = true;
	for (int i = 0; ok && i < lsum_arrays(s, place, size); i++) {
		lsum_arrays(s, place, size);     /* b1, b2: sizes known once their firsts are in */
		ok = size[i] <= len - at;
		if (ok && s->borrowed) {
			*place[i] = (char *)(uintptr_t)blob + at;
		} else if (ok) {
			*place[i] = xmalloc(size[i] ? size[i] : 1);
			memcpy(*place[i], (const char *)blob + at, size[i]);
		}
		if (ok) at += up8(size[i]) <= len - at ? up8(size[i]) : len - at;
		if (ok && i == 1) ok = firsts_ok(s);
	}
	if (!ok || at != len) {
		lsum_free(s);
		return NULL;
	}
	return s;
}
