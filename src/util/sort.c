/* sort.c — sorting and searching helpers shared across modules. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* qsort's comparison and the first index whose value is >= key in a sorted
 * array, for one unsigned type (tc_cmp_u32 / tc_lower_bound_u32, ..._u64). */
#define TC_SORT_HELPERS(T, name)                                                 \
	int tc_cmp_##name(const void *a, const void *b)                          \
	{                                                                        \
		T x = *(const T *)a, y = *(const T *)b;                          \
		return x < y ? -1 : x > y;                                       \
	}                                                                        \
	size_t tc_lower_bound_##name(const T *a, size_t n, T key)                \
	{                                                                        \
		size_t lo = 0, hi = n;                                           \
		while (lo < hi) {                                                \
			size_t mid = lo + (hi - lo) / 2;                         \
			if (a[mid] < key) lo = mid + 1;                          \
			else hi = mid;                                           \
		}                                                                \
		return lo;                                                       \
	}

TC_SORT_HELPERS(uint32_t, u32)
TC_SORT_HELPERS(uint64_t, u64)

int tc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Floyd and Rivest's selection (CACM 18(3), 1975, Algorithm 489): the k-th
 * smallest of v[lo..hi] into v[k], everything before it <= v[k] and
 * everything after >= v[k].  On a range above FR_SAMPLE values it first
 * selects, in a window of about n^(2/3) values around where the k-th is
 * expected, the value that the window's own k-th is: a pivot so close to
 * the answer that one partition leaves only a short range to go.  About n +
 * min(k, n - k) comparisons against ~3.4 n for a middle-element pivot's
 * Hoare quickselect at the median (the root causes select the median and
 * the MAD of millions of compute segments: docs/rootcause.md, "Cost").  The
 * partition stops on values equal to the pivot from both sides, so ties (a
 * context of equal values) split evenly. */
#define FR_SAMPLE 600

static void swap_d(double *v, size_t a, size_t b)
{
	double x = v[a];
	v[a] = v[b];
	v[b] = x;
}

static void fr_select(double *v, size_t lo, size_t hi, size_t k)
{
	while (hi > lo) {
		if (hi - lo > FR_SAMPLE) {
			double n = (double)(hi - lo + 1), i = (double)(k - lo + 1), z = log(n);
			double s = 0.5 * exp(2 * z / 3), sd = 0.5 * sqrt(z * s * (n - s) / n) * (i < n / 2 ? -1 : 1);
			double l = floor((double)k - i * s / n + sd), h = floor((double)k + (n - i) * s / n + sd);
			size_t nl = l > (double)lo ? (size_t)l : lo, nh = h < (double)hi ? (size_t)h : hi;
			fr_select(v, nl, nh, k);
		}
		double t = v[k];
		size_t i = lo, j = hi;
		swap_d(v, lo, k);
		if (v[hi] > t) swap_d(v, hi, lo);
		while (i < j) {
			swap_d(v, i, j);
			i++;
			j--;
			while (v[i] < t) i++;
			while (v[j] > t) j--;
		}
		if (v[lo] == t) {
			swap_d(v, lo, j);
		} else {
			j++;
			swap_d(v, j, hi);
		}
		if (j <= k) lo = j + 1;
		if (k <= j) {
			if (!j) break;
			hi = j - 1;
		}
	}
}

static double select_kth(double *v, size_t n, size_t k)
{
	fr_select(v, 0, n - 1, k);
	return v[k];
}

double tc_kth(double *v, size_t n, size_t k)
{
	if (!n) return NAN;
	return select_kth(v, n, k < n ? k : n - 1);
}

double tc_median(double *v, size_t n)
{
	if (!n) return NAN;
	double hi = select_kth(v, n, n / 2);
	if (n % 2) return hi;
	double lo = v[0]; /* the largest of the lower half, which select_kth left below n/2 */
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lo) lo = v[i];
	return (lo + hi) / 2;
}

/* Insertion sort below SORT_SMALL values, else a least-significant-digit
 * radix sort, 11 bits a pass (three passes over the values and a buffer of
 * n; a pass whose digit is the same for every value is skipped).  The same
 * order as qsort with tc_cmp_u32, without a call per comparison. */
#define SORT_SMALL 48

void tc_sort_u32(uint32_t *a, size_t n)
{
	if (n < SORT_SMALL) {
		for (size_t i = 1; i < n; i++) {
			uint32_t x = a[i];
			size_t j = i;
			for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	uint32_t *buf = xmalloc(n * sizeof *buf), *src = a, *dst = buf;
	for (int shift = 0; shift < 32; shift += 11) {
		size_t count[2048] = { 0 };
		for (size_t i = 0; i < n; i++) count[(src[i] >> shift) & 2047]++;
		if (count[(src[0] >> shift) & 2047] == n) continue;
		size_t sum = 0;
		for (size_t d = 0; d < 2048; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++) dst[count[(src[i] >> shift) & 2047]++] = src[i];
		uint32_t *x = src;
		src = dst;
		dst = x;
	}
	if (src != a) memcpy(a, src, n * sizeof *a);
	free(buf);
}
