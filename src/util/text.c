/* text.c — names from a trace made safe to print: valid UTF-8, no terminal
 * control characters (an escape sequence in a region name must never reach
 * the terminal, a stray byte must never make a JSON document unparseable). */
#include <stdlib.h>
#include <string.h>

#include "util.h"

size_t tc_utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	if (c < 0x80) return 1;
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80) return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) || (c == 0xf0 && p[1] < 0x90) ||
	    (c == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

/* C0 controls, DEL and the C1 controls U+0080..U+009F (0xc2 0x80..0x9f). */
static bool is_control(const unsigned char *p, size_t n)
{
	return (n == 1 && (p[0] < 0x20 || p[0] == 0x7f)) || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0);
}

char *tc_clean_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p);
	char *out = xmalloc(len * 4 + 1), *o = out;
	while (*p) {
		size_t n = tc_utf8_len(p);
		if (n && !is_control(p, n)) {
			memcpy(o, p, n);
			o += n;
			p += n;
			continue;
		}
		/* each offending byte as the four characters \xNN */
		for (size_t k = 0; k < (n ? n : 1); k++, p++) {
			static const char hex[] = "0123456789abcdef";
			*o++ = '\\'; *o++ = 'x'; *o++ = hex[*p >> 4]; *o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

char *arena_clean(struct arena *a, const char *s)
{
	char *c = tc_clean_text(s);
	char *r = arena_strdup(a, c);
	free(c);
	return r;
}

int tc_wrap(const char *s, int w, int k, const char **line, int *bytes)
{
	int n = 0;
	if (w < 1) w = 1;
	for (const char *p = s; *p; n++) {
		const char *q = p, *space = NULL, *end;
		for (int col = 0; *q && col < w; col++) {
			if (*q == ' ' && q > p) space = q;
			size_t c = tc_utf8_len((const unsigned char *)q);
			q += c ? c : 1;
		}
		if (!*q || *q == ' ') end = q;      /* the rest fits, or a space follows a full line */
		else end = space ? space : q;       /* at the last space, else in the word */
		if (n == k) {
			if (line) *line = p;
			if (bytes) *bytes = (int)(end - p);
		}
		p = end;
		while (*p == ' ') p++;
	}
	return n;
}
