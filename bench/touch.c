/* touch.c — what fresh memory costs on this machine, per MB, in CPU time:
 * the price of every page a load or an analysis writes for the first time
 * (see docs/model.md, "Load time: where it goes").
 *
 *   touch [--mb N] [--rounds R]
 *       N MB (default 256) of anonymous memory, R rounds (default 3), each
 *       way in a fresh mapping, one store per 64-byte line:
 *         first-touch   the stores fault the pages in (4 KiB pages)
 *         populate      madvise(MADV_POPULATE_WRITE) (what the loader does),
 *                       then the stores: both printed and their sum
 *         hugepage      a 2 MiB-aligned mapping with madvise(MADV_HUGEPAGE),
 *                       then the stores (skipped when madvise refuses)
 *         rewrite       the same stores again over memory already written
 *       Prints the best round of each in ms per MB and the line
 *       "fresh_ms_per_mb=X" (populate + stores, the loader's way) that
 *       bench/load --touch-ms takes to say what part of a run is first writes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static void store_lines(char *p, size_t len, char v)
{
	for (size_t i = 0; i < len; i += 64) ((volatile char *)p)[i] = v;
}

/* A fresh mapping of len bytes at a 2 MiB boundary (the whole mapping in *raw). */
static char *fresh(size_t len, size_t *rawlen, char **raw)
{
	size_t align = (size_t)2 << 20;
	*rawlen = len + align;
	*raw = mmap(NULL, *rawlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*raw == MAP_FAILED) { perror("touch: mmap"); exit(1); }
	return (char *)(((uintptr_t)*raw + align - 1) & ~(uintptr_t)(align - 1));
}

static double cpu_now(void) { return tc_usage().cpu; }

static double min_d(double a, double b) { return a < b ? a : b; }

int main(int argc, char **argv)
{
	size_t mb = 256;
	int rounds = 3;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mb") && i + 1 < argc) mb = (size_t)atol(argv[++i]);
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
		else { fprintf(stderr, "usage: touch [--mb N] [--rounds R]\n"); return 1; }
	}
	if (mb < 8) mb = 8;
	if (rounds < 1) rounds = 1;
	size_t len = mb << 20, rawlen;
	char *raw;
	double first = 1e9, pop = 1e9, pop_st = 1e9, pop_sum = 1e9, huge = 1e9, rewrite = 1e9;
	bool huge_ok = true;
	for (int r = 0; r < rounds; r++) {
		char *p = fresh(len, &rawlen, &raw);
		double c0 = cpu_now();
		store_lines(p, len, 1);
		double c1 = cpu_now();
		store_lines(p, len, 2);
		double c2 = cpu_now();
		first = min_d(first, c1 - c0);
		rewrite = min_d(rewrite, c2 - c1);
		munmap(raw, rawlen);

		p = fresh(len, &rawlen, &raw);
		c0 = cpu_now();
		int rc = madvise(p, len, MADV_POPULATE_WRITE);
		c1 = cpu_now();
		store_lines(p, len, 1);
		c2 = cpu_now();
		if (rc != 0) fprintf(stderr, "touch: MADV_POPULATE_WRITE refused (the stores fault instead)\n");
		pop = min_d(pop, c1 - c0);
		pop_st = min_d(pop_st, c2 - c1);
		pop_sum = min_d(pop_sum, c2 - c0);
		munmap(raw, rawlen);

		p = fresh(len, &rawlen, &raw);
		if (madvise(p, len, MADV_HUGEPAGE) != 0) huge_ok = false;
		c0 = cpu_now();
		store_lines(p, len, 1);
		c1 = cpu_now();
		huge = min_d(huge, c1 - c0);
		munmap(raw, rawlen);
	}
	double k = 1e3 / (double)mb;
	printf("fresh memory, %zu MB, best of %d (CPU ms per MB):\n", mb, rounds);
	printf("  first-touch (4 KiB faults)      %6.2f\n", first * k);
	printf("  populate + stores               %6.2f  (%.2f + %.2f)\n", pop_sum * k, pop * k, pop_st * k);
	if (huge_ok) printf("  MADV_HUGEPAGE, then stores      %6.2f\n", huge * k);
	else printf("  MADV_HUGEPAGE                   refused (no transparent huge pages)\n");
	printf("  rewrite (memory written before) %6.2f\n", rewrite * k);
	printf("fresh_ms_per_mb=%.3f\n", pop_sum * k);
	return 0;
}
