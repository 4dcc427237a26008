/* sys.c — CPU count, monotonic clock, peak memory, prefaulting. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int tc_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

double tc_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t tc_peak_rss(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
	return (uint64_t)ru.ru_maxrss * 1024;
}

struct tc_usage tc_usage(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0) return (struct tc_usage){ 0 };
	return (struct tc_usage){
		.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
		       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6,
		.minflt = (uint64_t)ru.ru_minflt,
	};
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static int huge_on = -1;   /* TRACECOMB_HUGE_PAGES read once; the reader threads may ask at once */

bool tc_huge_pages(void)
{
	int v = __atomic_load_n(&huge_on, __ATOMIC_RELAXED);
	if (v < 0) {
		const char *e = getenv("TRACECOMB_HUGE_PAGES");
		v = e && strcmp(e, "1") == 0;
		__atomic_store_n(&huge_on, v, __ATOMIC_RELAXED);
	}
	return v;
}

void tc_set_huge_pages(bool on)
{
	__atomic_store_n(&huge_on, on ? 1 : 0, __ATOMIC_RELAXED);
}

void tc_sleep(double secs)
{
	if (!(secs > 0)) return;
	struct timespec ts = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

size_t tc_page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

void tc_prefault(void *p, size_t len)
{
	size_t page = tc_page_size();
	uintptr_t a = (uintptr_t)p & ~((uintptr_t)page - 1);
	uintptr_t e = ((uintptr_t)p + len + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	if (len && e > a) (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
}

void *tc_vec_room(void *a, size_t *cap, size_t n, size_t size, size_t batch, size_t *ready)
{
	if (n >= *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		while (nc <= n) nc *= 2;
		a = xreallocarray(a, nc, size);
		*cap = nc;
	}
	*ready = tc_prefault_ahead(a, n, *cap, size, batch);
	return a;
}

size_t tc_prefault_ahead(void *base, size_t n, size_t cap, size_t size, size_t batch)
{
	size_t end = n + batch < cap ? n + batch : cap;
	tc_prefault((char *)base + n * size, (end - n) * size);
	return end;
}
