/* pages.c — arrays in their own anonymous mappings (see util.h, tc_pages):
 * grown by mremap (no copy), faulted in by batches, and handed from one
 * mapping to another by whole pages. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

static size_t round_up(size_t n, size_t page)
{
	return (n + page - 1) / page * page;
}

/* Growth: doubling up to 64 MiB, then by an eighth (in whole pages).  mremap
 * moves page tables, not bytes, so growing often costs little, while doubling
 * a 256 MiB message array left up to 256 MiB of address space reserved and
 * unused: a 41 M-event trace (887 MB working set) failed under
 * `ulimit -v 1300000` (docs/model.md, "Memory"). */
#define PAGES_DOUBLE_UP_TO ((size_t)64 << 20)

static size_t grown(size_t cap)
{
	if (cap < PAGES_DOUBLE_UP_TO) return cap * 2;
	return round_up(cap + cap / 8, tc_page_size());
}

/* A fresh mapping of cap bytes starting at a TC_HUGE_PAGE boundary, advised to
 * take transparent huge pages (where the kernel has none or refuses, it is an
 * ordinary mapping); NULL when there is no room. */
static char *map_huge(size_t cap)
{
	size_t slack = TC_HUGE_PAGE;
	char *raw = mmap(NULL, cap + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) return NULL;
	char *p = (char *)(((uintptr_t)raw + slack - 1) & ~(uintptr_t)(slack - 1));
	if (p > raw) (void)munmap(raw, (size_t)(p - raw));
	if (raw + slack > p) (void)munmap(p + cap, (size_t)(raw + slack - p));
	(void)madvise(p, cap, MADV_HUGEPAGE);
	return p;
}

/* When huge pages are asked for (tc_huge_pages, util.h), arrays of 2 MiB and
 * more live in huge-page mappings: a fresh one starts on a huge-page
 * boundary.  Growing one is a plain mremap (pages moved, not copied; one
 * mapping, so the next growth works and an address-space limit counts only
 * the growth — moving the pages into a second, aligned mapping left two
 * mappings that mremap cannot grow, and needed old + new address space at
 * once: docs/model.md, "Memory"). */
void tc_pages_reserve(struct tc_pages *a, size_t bytes)
{
	if (bytes <= a->cap) return;
	size_t cap = a->cap ? a->cap : 16 * tc_page_size();
	while (cap < bytes) cap = grown(cap);
	tc_alloc_check(cap);
	void *p;
	if (a->p) {
		p = mremap(a->p, a->cap, cap, MREMAP_MAYMOVE);
		if (p == MAP_FAILED) tc_oom(cap);
		if (cap >= TC_HUGE_PAGE && tc_huge_pages()) (void)madvise(p, cap, MADV_HUGEPAGE);
	} else {
		p = cap >= TC_HUGE_PAGE && tc_huge_pages() ? map_huge(cap) : NULL;
		if (!p) p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) tc_oom(cap);
	}
	a->p = p;
	a->cap = cap;
}

void *tc_pages_room(struct tc_pages *a, size_t used, size_t size, size_t batch, size_t *ready)
{
	if ((used + 1) * size > a->cap) tc_pages_reserve(a, (used + 1) * size);
	*ready = tc_prefault_ahead(a->p, used, a->cap / size, size, batch);
	return a->p;
}

void tc_pages_shrink(struct tc_pages *a, size_t bytes)
{
	size_t keep = round_up(bytes, tc_page_size());
	if (keep >= a->cap) return;
	if (keep == 0) { tc_pages_free(a); return; }
	/* munmap, not mremap: the range may span mappings spliced in by tc_pages_move */
	(void)munmap(a->p + keep, a->cap - keep);
	a->cap = keep;
}

void tc_pages_free(struct tc_pages *a)
{
	if (a->p) (void)munmap(a->p, a->cap);
	a->p = NULL;
	a->cap = 0;
}

/* Shift [p, p + len) up by d bytes (d < chunk), in parallel chunks: each chunk
 * first keeps its first d bytes (the previous chunk's tail lands there), then
 * moves the rest of itself, then writes the kept bytes. */
struct shift { char *p; size_t len, d, chunk; char *saved; };

static void shift_save(void *ctx, uint32_t j, int tid)
{
	(void)tid;
	struct shift *s = ctx;
	memcpy(s->saved + (size_t)j * s->d, s->p + (size_t)j * s->chunk, s->d);
}

static void shift_move(void *ctx, uint32_t j, int tid)
{
	(void)tid;
	struct shift *s = ctx;
	size_t b = (size_t)j * s->chunk, e = TC_MIN(b + s->chunk, s->len);
	memmove(s->p + b + 2 * s->d, s->p + b + s->d, e - b - s->d);
}

static void shift_put(void *ctx, uint32_t j, int tid)
{
	(void)tid;
	struct shift *s = ctx;
	memcpy(s->p + (size_t)j * s->chunk + s->d, s->saved + (size_t)j * s->d, s->d);
}

static void shift_up(char *p, size_t len, size_t d, int threads)
{
	if (!d || !len) return;
	size_t chunk = TC_MAX((size_t)1 << 20, len / (size_t)TC_MAX(threads, 1) + 1);
	if (len <= chunk || d >= chunk) { memmove(p + d, p, len); return; }
	struct shift s = { p, len, d, chunk, NULL };
	uint32_t n = (uint32_t)((len + chunk - 1) / chunk);
	if ((n - 1) * chunk + d > len) { memmove(p + d, p, len); return; } /* last chunk shorter than d */
	s.saved = xmalloc((size_t)n * d);
	tc_parallel_for(n, threads, shift_save, &s);
	tc_parallel_for(n, threads, shift_move, &s);
	tc_parallel_for(n, threads, shift_put, &s);
	free(s.saved);
}

bool tc_pages_move(struct tc_pages *dst, size_t off, struct tc_pages *src, size_t len, int threads)
{
	size_t pg = tc_page_size(), phase = off % pg;
	if (off + len > dst->cap) return false;
	if (len < 4 * pg) goto copy;
	/* the source's bytes at the phase they take in dst: then page i of the
	 * source is page i of dst from the one holding byte off */
	tc_pages_reserve(src, phase + len);
	shift_up(src->p, len, phase, threads);
	char *to = dst->p + (off - phase);
	size_t whole = round_up(phase + len, pg) - pg;  /* pages after the first */
	if (mremap(src->p + pg, whole, whole, MREMAP_MAYMOVE | MREMAP_FIXED, to + pg) == MAP_FAILED) {
		tc_prefault(dst->p + off, len);  /* e.g. too many mappings: copy instead */
		memcpy(dst->p + off, src->p + phase, len);
		tc_pages_free(src);
		return true;
	}
	memcpy(dst->p + off, src->p + phase, pg - phase);  /* the first page: its head belongs to dst */
	/* unmap only what is still src's: another thread may already have a
	 * mapping where the moved pages were */
	(void)munmap(src->p, pg);
	if (src->cap > pg + whole) (void)munmap(src->p + pg + whole, src->cap - pg - whole);
	src->p = NULL;
	src->cap = 0;
	return true;
copy:
	tc_prefault(dst->p + off, len);
	memcpy(dst->p + off, src->p, len);
	tc_pages_free(src);
	return true;
}
