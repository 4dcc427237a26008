/* json.c — a streaming JSON writer: commas, escaping, finite numbers. */
#include <math.h>
#include <string.h>

#include "util.h"

void json_init(struct json *j, FILE *f, int indent)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->indent = indent;
	j->first[0] = true;
}

static void newline(struct json *j)
{
	static const char spaces[] = "\n                                                                ";
	if (!j->indent) return;
	/* one write per line break: report --json writes ~10^6 of them */
	size_t n = (size_t)(j->depth * j->indent) + 1;
	fwrite(spaces, 1, TC_MIN(n, sizeof spaces - 1), j->f);
	for (n = n > sizeof spaces - 1 ? n - (sizeof spaces - 1) : 0; n; n--) fputc(' ', j->f);
}

/* Before any value: a comma when it is not the first in its container. */
static void pre_value(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth]) fputc(',', j->f);
	if (j->depth > 0) newline(j);
	j->first[j->depth] = false;
}

static void open(struct json *j, char c)
{
	pre_value(j);
	fputc(c, j->f);
	if (j->depth + 1 < (int)TC_NELEM(j->first)) j->depth++;
	j->first[j->depth] = true;
}

static void close(struct json *j, char c)
{
	bool empty = j->first[j->depth];
	if (j->depth > 0) j->depth--;
	if (!empty) newline(j);
	fputc(c, j->f);
}

void json_obj_begin(struct json *j) { open(j, '{'); }
void json_obj_end(struct json *j) { close(j, '}'); }
void json_arr_begin(struct json *j) { open(j, '['); }
void json_arr_end(struct json *j) { close(j, ']'); }

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		size_t plain = 0;  /* a run of bytes written as they are: one write */
		while (p[plain] >= 0x20 && p[plain] < 0x7f && p[plain] != '"' && p[plain] != '\\') plain++;
		if (plain) {
			fwrite(p, 1, plain, f);
			p += plain - 1;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(f, "\\u%04x", *p);
			} else if (*p >= 0x80) {
				/* valid UTF-8 as is; a byte of an invalid sequence as U+FFFD */
				size_t n = tc_utf8_len(p);
				if (n) fwrite(p, 1, n, f), p += n - 1;
				else fputs("\\ufffd", f);
			} else {
				fputc(*p, f);
			}
		}
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	pre_value(j);
	put_string(j->f, key);
	fputs(j->indent ? ": " : ":", j->f);
	j->after_key = true;
}

void json_str(struct json *j, const char *s) { pre_value(j); put_string(j->f, s); }
/* v in decimal, as printf's %llu (with a '-' first when neg): report --json
 * writes ~10^6 integers, and a format string parsed for each costs more than
 * the digits. */
static void put_decimal(FILE *f, uint64_t v, bool neg)
{
	char b[24], *p = b + sizeof b;
	do *--p = (char)('0' + v % 10); while (v /= 10);
	if (neg) *--p = '-';
	fwrite(p, 1, (size_t)(b + sizeof b - p), f);
}

void json_int(struct json *j, int64_t v)
{
	pre_value(j);
	put_decimal(j->f, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}
void json_uint(struct json *j, uint64_t v) { pre_value(j); put_decimal(j->f, v, false); }
void json_bool(struct json *j, bool v) { pre_value(j); fputs(v ? "true" : "false", j->f); }
void json_null(struct json *j) { pre_value(j); fputs("null", j->f); }

void json_num(struct json *j, double v)
{
	pre_value(j);
	if (!isfinite(v)) fputs("null", j->f);
	else if (v == 0) fputs("0", j->f);
	else fprintf(j->f, "%.9g", v);
}

void json_finish(struct json *j) { fputc('\n', j->f); }

void json_kstr(struct json *j, const char *k, const char *s) { json_key(j, k); json_str(j, s); }
void json_kint(struct json *j, const char *k, int64_t v) { json_key(j, k); json_int(j, v); }
void json_kuint(struct json *j, const char *k, uint64_t v) { json_key(j, k); json_uint(j, v); }
void json_knum(struct json *j, const char *k, double v) { json_key(j, k); json_num(j, v); }
void json_kbool(struct json *j, const char *k, bool v) { json_key(j, k); json_bool(j, v); }

void json_kuint32s(struct json *j, const char *k, const uint32_t *a, size_t n)
{
	json_key(j, k);
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) json_uint(j, a[i]);
	json_arr_end(j);
}
