/* oselect.c — order statistics over one process's values or over every
 * process's parts of them (oselect.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oselect.h"
#include "util.h"

/* Targets (one order statistic of one set) per reduction, at most: 256
 * counts of 8 bytes each, 8 MiB. */
#define OSEL_CHUNK 4096

struct target { size_t q; uint64_t k, prefix; };

static inline uint64_t bits_of(double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	return b;
}

/* The targets [t0, t1) found by their bits, 8 at a time from the top. */
static void find_bits(const struct tc_dist *d, osel_fill fill, void *arg, double *buf, struct target *tg, size_t t0,
		      size_t t1)
{
	size_t nt = t1 - t0;
	uint64_t *h = xmalloc((256 * nt + 1) * sizeof *h);
	for (int round = 0; round < 8; round++) {
		int shift = 56 - 8 * round;
		memset(h, 0, 256 * nt * sizeof *h);
		for (size_t t = t0; t < t1;) {   /* the targets of one set share its fill */
			size_t q = tg[t].q, e = t;
			while (e < t1 && tg[e].q == q) e++;
			size_t n = fill(arg, q, buf);
			for (size_t j = t; j < e; j++) {
				uint64_t *hj = h + 256 * (j - t0), pre = tg[j].prefix;
				for (size_t i = 0; i < n; i++) {
					uint64_t b = bits_of(buf[i]);
					if (!round || b >> (shift + 8) == pre) hj[b >> shift & 255]++;
				}
			}
			t = e;
		}
		d->reduce(d->ctx, h, 256 * nt, TC_DIST_SUM);
		for (size_t j = t0; j < t1; j++) {
			const uint64_t *hj = h + 256 * (j - t0);
			unsigned b = 0;
			while (b < 255 && tg[j].k >= hj[b]) tg[j].k -= hj[b++];
			tg[j].prefix = tg[j].prefix << 8 | b;
		}
	}
	free(h);
}

static double of_bits(uint64_t b)
{
	double v;
	memcpy(&v, &b, sizeof v);
	return v;
}

void osel_batch(const struct tc_dist *d, size_t nq, osel_fill fill, void *arg, double *buf, const uint64_t *kth,
		double *out, uint64_t *n)
{
	if (!nq) return;
	if (!d) {
		for (size_t q = 0; q < nq; q++) {
			size_t m = fill(arg, q, buf);
			bool med = !kth || kth[q] == OSEL_MEDIAN;
			out[q] = med ? tc_median(buf, m) : tc_kth(buf, m, kth[q]);
			if (n) n[q] = m;
		}
		return;
	}
	uint64_t *size = xmalloc((nq + 1) * sizeof *size);
	for (size_t q = 0; q < nq; q++) size[q] = fill(arg, q, buf);
	d->reduce(d->ctx, size, nq, TC_DIST_SUM);
	/* the targets, by set: a median of an even count is two */
	struct target *tg = xmalloc((2 * nq + 1) * sizeof *tg);
	size_t nt = 0;
	for (size_t q = 0; q < nq; q++) {
		uint64_t m = size[q];
		if (n) n[q] = m;
		out[q] = NAN;
		if (!m) continue;
		if (kth && kth[q] != OSEL_MEDIAN) {
			tg[nt++] = (struct target){ q, kth[q] < m ? kth[q] : m - 1, 0 };
		} else {
			if (m % 2 == 0) tg[nt++] = (struct target){ q, m / 2 - 1, 0 };
			tg[nt++] = (struct target){ q, m / 2, 0 };
		}
	}
	for (size_t t0 = 0; t0 < nt;) {   /* the same targets on every process: the same rounds */
		size_t t1 = TC_MIN(nt, t0 + OSEL_CHUNK);
		while (t1 < nt && tg[t1].q == tg[t1 - 1].q) t1++;   /* a set's targets in one chunk */
		find_bits(d, fill, arg, buf, tg, t0, t1);
		t0 = t1;
	}
	for (size_t t = 0; t < nt;) {
		size_t q = tg[t].q;
		bool two = t + 1 < nt && tg[t + 1].q == q;
		double hi = of_bits(tg[two ? t + 1 : t].prefix);
		out[q] = two ? (of_bits(tg[t].prefix) + hi) / 2 : hi;
		t += two ? 2 : 1;
	}
	free(tg);
	free(size);
}
