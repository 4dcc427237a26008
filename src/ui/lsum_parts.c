/* lsum_parts.c — the lateness summary's blob made over parts
 * (lsum_parts.h): what lsum_build and lsum_pack make of the whole steps,
 * each process making its ranks' part of it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lsum_internal.h"
#include "lsum_parts.h"

/* What a process makes of its ranks' leaves. */
struct mine {
	const struct tc_steps_slice *sl;
	bool agg;
	uint32_t K, nx;
	float *leafv;                 /* sl->ncevs * K */
	struct tc_cellsum *b1, *b2;   /* its ranks' blocks, in order */
	uint64_t nb1, nb2;
	uint64_t *key, *cnt;          /* per level-0 tile: its largest flagged value's bits + 1 (0: none),
	                                 its flags as 16-bit counts (summed over the processes) */
	double vmax;
};

/* Flags as four 16-bit fields of 0 or 1: summed over the processes (fewer
 * than 2^16), each field is not zero where some process had the flag. */
static inline uint64_t spread(uint8_t f)
{
	return (uint64_t)(f & 1) | (uint64_t)(f >> 1 & 1) << 16 | (uint64_t)(f >> 2 & 1) << 32 | (uint64_t)(f >> 3 & 1) << 48;
}

static inline uint8_t unspread(uint64_t c)
{
	return (uint8_t)((c & 0xffff ? 1 : 0) | (c >> 16 & 0xffff ? 2 : 0) | (c >> 32 & 0xffff ? 4 : 0) |
			 (c >> 48 & 0xffff ? 8 : 0));
}

/* The leaves of the process's ranks, as lsum_build walks them. */
static void make_leaves(struct mine *m, const struct tc_lsum *s)
{
	const struct tc_steps_slice *sl = m->sl;
	uint64_t o1 = 0, o2 = 0;
	uint8_t *fl = xcalloc((size_t)s->tw[0] * s->th[0] + 1, 1);
	for (uint32_t j = 0; j < sl->hi - sl->lo; j++) {
		uint32_t r = sl->lo + j, n = (sl->rfirst[j + 1] - sl->rfirst[j]) * m->K;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = sl->rfirst[j] + k / m->K, a = k % m->K;
			bool is_agg = m->agg && !a;
			struct tc_cellsum c = lsum_cell(&sl->cevs[i], is_agg, sl->late[2 * (size_t)i + is_agg]);
			m->leafv[(size_t)sl->rfirst[j] * m->K + k] = c.v;
			uint32_t x = lsum_leaf_x(&sl->cevs[i], m->agg, a);
			if (x >= s->nx) continue;
			lsum_merge(&m->b1[o1 + k / B1], c);
			lsum_merge(&m->b2[o2 + k / B2], c);
			if (c.f) {
				size_t t = (size_t)(r >> s->rs) * s->tw[0] + (x >> s->xs);
				uint32_t bits;
				memcpy(&bits, &c.v, sizeof bits);
				m->key[t] = TC_MAX(m->key[t], (uint64_t)bits + 1);
				fl[t] |= c.f;
			}
			if (c.v > m->vmax) m->vmax = c.v;
		}
		o1 += (n + B1 - 1) / B1, o2 += (n + B2 - 1) / B2;
	}
	for (size_t t = 0; t < (size_t)s->tw[0] * s->th[0]; t++) m->cnt[t] = spread(fl[t]);
	free(fl);
}

/* The per-column sums, leaf by leaf in the serial order (chain). */
static void xsum_step(void *arg, void *state)
{
	const struct mine *m = arg;
	double *xs = state;
	for (uint32_t i = 0; i < m->sl->ncevs; i++)
		for (uint32_t a = 0; a < m->K; a++) {
			uint32_t x = lsum_leaf_x(&m->sl->cevs[i], m->agg, a);
			if (x < m->nx) xs[x + 1] += m->leafv[(size_t)i * m->K + a];
		}
}

/* Process 0: the pyramid from the reduced level 0. */
static void tiles(struct tc_lsum *s, const struct mine *m)
{
	for (int l = 0; l < s->nlevels; l++) s->tiles[l] = xcalloc((size_t)s->tw[l] * s->th[l] + 1, sizeof(struct tc_cellsum));
	for (size_t t = 0; t < (size_t)s->tw[0] * s->th[0]; t++)
		if (m->key[t]) {
			uint32_t bits = (uint32_t)(m->key[t] - 1);
			memcpy(&s->tiles[0][t].v, &bits, sizeof bits);
			s->tiles[0][t].f = unspread(m->cnt[t]);
		}
	lsum_tiles_up(s);
}

void lsum_pack_parts(const struct tc_steps_slice *sl, const struct tc_dist *d, uint32_t nranks, bool agg,
		     struct lsum_parts *out)
{
	*out = (struct lsum_parts){ 0 };
	uint64_t max_step = sl->s0 ? sl->s0->max_step : 0;
	d->reduce(d->ctx, &max_step, 1, TC_DIST_MAX);
	/* process 0 packs from its steps: every rank's first cev, the count */
	struct tc_lsum s = { .st = sl->s0, .metric = TC_M_LATENESS, .agg = agg, .nranks = nranks,
			     .nx = lsum_x_of_step(agg, (int64_t)max_step) + 1 };
	lsum_geometry(&s);
	struct mine m = { .sl = sl, .agg = agg, .K = agg ? 2u : 1u, .nx = s.nx };
	uint32_t nmine = sl->hi - sl->lo;
	for (uint32_t j = 0; j < nmine; j++) {   /* this process's blocks */
		uint32_t n = (sl->rfirst[j + 1] - sl->rfirst[j]) * m.K;
		m.nb1 += (n + B1 - 1) / B1, m.nb2 += (n + B2 - 1) / B2;
	}
	size_t ntile = (size_t)s.tw[0] * s.th[0];
	m.leafv = xcalloc((size_t)sl->ncevs * m.K + 1, sizeof *m.leafv);
	m.b1 = xcalloc(m.nb1 + 1, sizeof *m.b1), m.b2 = xcalloc(m.nb2 + 1, sizeof *m.b2);
	m.key = xcalloc(ntile + 1, sizeof *m.key), m.cnt = xcalloc(ntile + 1, sizeof *m.cnt);
	make_leaves(&m, &s);
	d->reduce(d->ctx, m.key, ntile, TC_DIST_MAX);
	d->reduce(d->ctx, m.cnt, ntile, TC_DIST_SUM);
	uint64_t vb;   /* a double >= 0: its bits order as its values */
	memcpy(&vb, &m.vmax, sizeof vb);
	d->reduce(d->ctx, &vb, 1, TC_DIST_MAX);
	memcpy(&s.vmax, &vb, sizeof vb);
	s.xsum = xcalloc((size_t)s.nx + 1, sizeof *s.xsum);
	d->chain(d->ctx, s.xsum, ((size_t)s.nx + 1) * sizeof *s.xsum, xsum_step, &m);
	uint64_t base[2] = { m.nb1, m.nb2 };
	d->exscan(d->ctx, base, 2, TC_DIST_SUM);
	if (d->index == 0) base[0] = base[1] = 0;
	if (d->index == 0) {
		for (uint32_t x = 0; x < s.nx; x++) s.xsum[x + 1] += s.xsum[x];
		lsum_firsts(&s);
		tiles(&s, &m);
		out->size = lsum_pack_holes(&s, &out->blob, out->holes);
	}
	free(m.key), free(m.cnt);
	s.leafv = NULL, s.b1 = s.b2 = NULL;
	free(s.b1_first), free(s.b2_first), free(s.xsum);
	for (int l = 0; l < s.nlevels; l++) free(s.tiles[l]);
	out->pieces[0] = (struct tc_cache_piece){ TC_ANCHOR_BLOB0, base[0] * sizeof *m.b1, m.b1, m.nb1 * sizeof *m.b1 };
	out->pieces[1] = (struct tc_cache_piece){ TC_ANCHOR_BLOB0 + 1, base[1] * sizeof *m.b2, m.b2, m.nb2 * sizeof *m.b2 };
	out->pieces[2] = (struct tc_cache_piece){ TC_ANCHOR_BLOB0 + 2, sl->first * m.K * sizeof *m.leafv, m.leafv,
						 (uint64_t)sl->ncevs * m.K * sizeof *m.leafv };
	out->mem[0] = m.b1, out->mem[1] = m.b2, out->mem[2] = m.leafv;
}

void lsum_parts_free(struct lsum_parts *x)
{
	sb_free(&x->blob);
	for (int k = 0; k < 3; k++) free(x->mem[k]);
	*x = (struct lsum_parts){ 0 };
}
