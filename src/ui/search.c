/* search.c — PCRE2 regular expressions for `/` search and `f` filter.
 * Compiled once per pattern (UTF + UCP + MATCH_INVALID_UTF in UTF-8
 * locales, so names with broken UTF-8 simply do not match), JIT when
 * available, one match data block reused for every subject, and a match
 * limit so a pathological pattern cannot hang the UI. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

struct tc_regex {
	pcre2_code *code;
	pcre2_match_data *md;
	pcre2_match_context *mc;
};

struct tc_regex *regex_new(const char *pat, bool utf8, char **err, size_t *erroff)
{
	int code;
	PCRE2_SIZE off;
	uint32_t flags = utf8 ? (PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF) : 0;
	/* smart case: a pattern without capitals matches either case */
	bool upper = false;
	for (const char *s = pat; *s; s++) upper |= *s >= 'A' && *s <= 'Z';
	if (!upper) flags |= PCRE2_CASELESS;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, flags, &code, &off, NULL);
	if (!re) {
		PCRE2_UCHAR buf[256];
		if (pcre2_get_error_message(code, buf, sizeof buf) < 0) snprintf((char *)buf, sizeof buf, "error %d", code);
		*err = xstrdup((const char *)buf);
		*erroff = off;
		return NULL;
	}
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);   /* optional: the interpreter is the fallback */
	struct tc_regex *r = xcalloc(1, sizeof *r);
	r->code = re;
	r->md = pcre2_match_data_create_from_pattern(re, NULL);
	r->mc = pcre2_match_context_create(NULL);
	if (!r->md || !r->mc) tc_oom(sizeof *r);
	pcre2_set_match_limit(r->mc, 1000000);
	pcre2_set_depth_limit(r->mc, 10000);
	return r;
}

bool regex_match(struct tc_regex *re, const char *s)
{
	int rc = pcre2_match(re->code, (PCRE2_SPTR)s, strlen(s), 0, 0, re->md, re->mc);
	return rc >= 0;   /* no match, limits and bad UTF-8 all count as "no" */
}

void regex_free(struct tc_regex *re)
{
	if (!re) return;
	pcre2_match_data_free(re->md);
	pcre2_match_context_free(re->mc);
	pcre2_code_free(re->code);
	free(re);
}

char *regex_error_text(const char *pat, const char *msg, size_t off)
{
	size_t n = strlen(pat);
	if (off > n) off = n;
	/* caret column: count characters, not bytes, up to the offset */
	size_t col = 0;
	for (size_t i = 0; i < off; i++) col += ((unsigned char)pat[i] & 0xc0) != 0x80;
	struct strbuf b;
	sb_init(&b);
	sb_printf(&b, "regex error at offset %zu: %s\n  %s\n  ", off, msg, pat);
	for (size_t i = 0; i < col; i++) sb_addc(&b, ' ');
	sb_addc(&b, '^');
	return sb_detach(&b);
}
