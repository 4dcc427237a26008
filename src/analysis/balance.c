/* balance.c — communication load balance (PCLVis Eq. 9–10) and the
 * dispersion statistic of the background-traffic attribution (A3). */
#include <math.h>
#include <stdlib.h>

#include "analysis_verdict.h"

double tc_load_balance(const double *c, uint32_t n, double *lb, double *mean)
{
	double m = 0, ad = 0;
	for (uint32_t i = 0; i < n; i++) m += c[i];
	m = n ? m / n : 0;
	for (uint32_t i = 0; i < n; i++) ad += fabs(c[i] - m);
	ad = n ? ad / n : 0;
	/* relative guard: with equal loads rounding leaves a tiny AD */
	bool flat = ad <= 1e-12 * (fabs(m) > 1 ? fabs(m) : 1);
	if (lb)
		for (uint32_t i = 0; i < n; i++) lb[i] = flat ? 0 : fabs(c[i] - m) / ad;
	if (mean) *mean = m;
	return flat ? 0 : ad;
}

/* quantile p of sorted v[0..n), linear between order statistics */
static double quantile(const double *v, size_t n, double p)
{
	if (n == 0) return NAN;
	double pos = p * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= n) return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

uint32_t tc_dispersion(const double *level, const uint32_t *n, uint32_t nwin, uint32_t min_n, double factor,
		       double zmin, double *score, bool *disturbed, double *quiet, double *spread)
{
	double *v = xmalloc((nwin ? nwin : 1) * sizeof *v);
	size_t k = 0;
	for (uint32_t w = 0; w < nwin; w++)
		if (n[w] >= min_n && n[w] > 0 && isfinite(level[w])) v[k++] = level[w];
	qsort(v, k, sizeof *v, tc_cmp_double);
	double q = quantile(v, k, 0.25), med = quantile(v, k, 0.5);
	/* spread of the quiet half around the quiet reference */
	size_t m = 0;
	for (size_t i = 0; i < k && v[i] <= med; i++) v[m++] = fabs(v[i] - q);
	qsort(v, m, sizeof *v, tc_cmp_double);
	double s = 1.4826 * quantile(v, m, 0.5);
	if (k && !(s >= 0.05 * fabs(q))) s = 0.05 * fabs(q);
	if (k && !(s > 0)) s = 1e-12;
	free(v);
	uint32_t nd = 0;
	for (uint32_t w = 0; w < nwin; w++) {
		bool counted = k && n[w] >= min_n && n[w] > 0 && isfinite(level[w]);
		score[w] = counted ? (level[w] - q) / s : NAN;
		disturbed[w] = counted && level[w] >= factor * q && score[w] >= zmin;
		nd += disturbed[w];
	}
	if (quiet) *quiet = q;
	if (spread) *spread = k ? s : NAN;
	return nd;
}
