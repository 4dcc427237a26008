/* xalloc.c — allocation that never returns NULL, and fatal errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

static TC_NORETURN void oom(size_t n)
{
	fprintf(stderr, "tracecomb: out of memory (allocating %zu bytes)\n", n);
	exit(3);
}

static void advise_huge(void *p, size_t n);

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) oom(n);
	advise_huge(p, n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) oom(n * size);
	return p;
}

/* Large arrays (the model's per-location and per-trace arrays) ask for
 * transparent huge pages: far fewer page faults when they are first filled. */
static void advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	const size_t huge = (size_t)2 << 20;
	if (n < 2 * huge) return;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(huge - 1);
	if (e > a) madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) oom(n);
	advise_huge(q, n);
	return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) oom(SIZE_MAX);
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
	if (vasprintf(&s, fmt, ap) < 0) oom(strlen(fmt));
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
	fputs("tracecomb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}
