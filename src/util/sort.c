/* sort.c — sorting and searching helpers shared across modules. */
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
