/* sort.c — comparison functions for qsort shared across modules. */
#include "util.h"

int tc_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}
