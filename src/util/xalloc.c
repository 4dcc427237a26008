/* xalloc.c — allocation that never returns NULL, and fatal errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) tc_oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) tc_oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) tc_oom(n);
	return q;
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
