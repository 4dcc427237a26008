/* xalloc.c — allocation that never returns NULL, and fatal errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

static void (*fatal_restore)(void);

void tc_on_fatal(void (*restore)(void))
{
	fatal_restore = restore;
}

static void run_fatal_restore(void)
{
	void (*f)(void) = fatal_restore;
	fatal_restore = NULL;
	if (f) f();
}

void tc_oom(size_t n)
{
	run_fatal_restore();
	fprintf(stderr, "tracecomb: out of memory (allocating %zu bytes)\n", n);
	exit(3);
}

/* Big arrays (the model's, the analyses'), when huge pages are asked for
 * (tc_huge_pages, util.h): the whole block advised to take transparent huge
 * pages.  A refusal (no THP, old kernel) leaves ordinary pages. */
static void *advise_huge(void *p, size_t n)
{
	if (n < 2 * TC_HUGE_PAGE || !tc_huge_pages()) return p;
	/* the whole pages the block covers, from the page holding malloc's chunk
	 * header: a block this large is its own mapping, and advising all of it
	 * keeps it one mapping (advising only its aligned middle split it in
	 * three, and glibc's realloc, which grows a block by mremap, then failed
	 * and copied the block into a new one) */
	uintptr_t pg = (uintptr_t)tc_page_size();
	uintptr_t a = ((uintptr_t)p - 2 * sizeof(size_t)) & ~(pg - 1);
	uintptr_t e = ((uintptr_t)p + n + pg - 1) & ~(pg - 1);
	(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
	return p;
}

#ifdef TC_FUZZ_ALLOC_LIMIT
void tc_alloc_check(size_t n)
{
	if (n <= (size_t)TC_FUZZ_ALLOC_LIMIT) return;
	fprintf(stderr, "tracecomb (fuzz build): one allocation of %zu bytes, over the limit of %zu\n", n,
		(size_t)TC_FUZZ_ALLOC_LIMIT);
	abort();
}
#endif

void *xmalloc(size_t n)
{
	tc_alloc_check(n);
	void *p = malloc(n ? n : 1);
	if (!p) tc_oom(n);
	return advise_huge(p, n);
}

void *xcalloc(size_t n, size_t size)
{
	tc_alloc_check(size && n > SIZE_MAX / size ? SIZE_MAX : n * size);
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) tc_oom(n * size);
	return advise_huge(p, n * size);
}

void *xrealloc(void *p, size_t n)
{
	tc_alloc_check(n);
	void *q = realloc(p, n ? n : 1);
	if (!q) tc_oom(n);
	return advise_huge(q, n);
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) tc_oom(SIZE_MAX);
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) tc_oom(strlen(fmt));
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void tc_fatal(const char *fmt, ...)
{
	va_list ap;
	run_fatal_restore();
	fputs("tracecomb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}
