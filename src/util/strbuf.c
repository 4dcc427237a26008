/* strbuf.c — growable strings and small formatting helpers. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

void sb_init(struct strbuf *b)
{
	b->cap = 64;
	b->len = 0;
	b->s = xmalloc(b->cap);
	b->s[0] = '\0';
}

void sb_addn(struct strbuf *b, const char *s, size_t n)
{
	if (!b->s) sb_init(b);
	if (b->len + n + 1 > b->cap) {
		while (b->len + n + 1 > b->cap) b->cap *= 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_add(struct strbuf *b, const char *s) { sb_addn(b, s, strlen(s)); }
void sb_addc(struct strbuf *b, char c) { sb_addn(b, &c, 1); }

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_add(b, s);
	free(s);
}

char *sb_detach(struct strbuf *b)
{
	if (!b->s) sb_init(b);
	char *s = b->s;
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void fmt_ranges(struct strbuf *b, const uint32_t *v, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1) j++;
		if (i) sb_addc(b, ',');
		if (j == i) sb_printf(b, "%u", v[i]);
		else sb_printf(b, "%u-%u", v[i], v[j]);
		i = j + 1;
	}
	if (!n && !b->s) sb_init(b);
}

void fmt_seconds(char *buf, size_t n, double s)
{
	double a = s < 0 ? -s : s;
	if (a == 0) snprintf(buf, n, "0 s");
	else if (a < 1e-6) snprintf(buf, n, "%.1f ns", s * 1e9);
	else if (a < 1e-3) snprintf(buf, n, "%.1f us", s * 1e6);
	else if (a < 1) snprintf(buf, n, "%.1f ms", s * 1e3);
	else snprintf(buf, n, "%.2f s", s);
}

void fmt_time(char *buf, size_t n, double s)
{
	snprintf(buf, n, "%.6f s", s);
}

void fmt_bytes(char *buf, size_t n, uint64_t bytes)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 4) { v /= 1024; u++; }
	if (u == 0) snprintf(buf, n, "%llu B", (unsigned long long)bytes);
	else snprintf(buf, n, "%.1f %s", v, unit[u]);
}
