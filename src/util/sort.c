/* sort.c — sorting and searching helpers shared across modules. */
#include <math.h>

#include "util.h"

int tc_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

size_t tc_lower_bound_u32(const uint32_t *a, size_t n, uint32_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid] < key) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

int tc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The k-th smallest of v[0..n) (0-based), partially reordering v so that
 * everything before k is <= v[k] and everything after is >= v[k]. */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		double p = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < p) i++;
			while (v[j] > p) j--;
			if (i <= j) {
				double x = v[i];
				v[i] = v[j];
				v[j] = x;
				i++;
				if (j == 0) break;
				j--;
			}
		}
		if (k <= j) hi = j;
		else if (k >= i) lo = i;
		else return v[k];
	}
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
