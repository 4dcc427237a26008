/* csv.c — `report --csv --section NAME[.LIST]`: one table of a section as
 * CSV (a header row, one row per record).  The section writes its JSON into
 * memory, exactly as `report --json` does; the table is one of its lists of
 * objects (LIST, default the first), the columns are the records' scalar
 * fields in first-seen order (nested lists and objects are left out), values
 * are written as in the JSON (strings unquoted unless they hold a comma, a
 * quote or a line break, RFC 4180; null as an empty field). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* --- a reader for the JSON our own writer produces ------------------------ */
enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct jv {
	enum jt type;
	char *text;          /* J_BOOL, J_NUM, J_STR: the value as text (strings decoded) */
	size_t n;
	struct jv *items;    /* J_ARR, J_OBJ */
	char **keys;         /* J_OBJ */
};

struct jp { const char *p; bool bad; };

static void skip_ws(struct jp *P)
{
	while (*P->p == ' ' || *P->p == '\n' || *P->p == '\t' || *P->p == '\r') P->p++;
}

static void put_utf8(struct strbuf *b, unsigned c)
{
	if (c < 0x80) {
		sb_addc(b, (char)c);
	} else if (c < 0x800) {
		sb_addc(b, (char)(0xC0 | c >> 6));
		sb_addc(b, (char)(0x80 | (c & 0x3F)));
	} else {
		sb_addc(b, (char)(0xE0 | c >> 12));
		sb_addc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
		sb_addc(b, (char)(0x80 | (c & 0x3F)));
	}
}

static char *parse_str(struct jp *P)
{
	struct strbuf b;
	sb_init(&b);
	P->p++;   /* opening quote */
	while (*P->p && *P->p != '"') {
		if (*P->p != '\\') { sb_addc(&b, *P->p++); continue; }
		char e = *++P->p;
		P->p++;
		switch (e) {
		case 'n': sb_addc(&b, '\n'); break;
		case 't': sb_addc(&b, '\t'); break;
		case 'r': sb_addc(&b, '\r'); break;
		case 'b': sb_addc(&b, '\b'); break;
		case 'f': sb_addc(&b, '\f'); break;
		case 'u': {
			unsigned c = 0;
			for (int k = 0; k < 4 && *P->p; k++, P->p++) {
				char h = *P->p;
				c = c * 16 + (unsigned)(h >= 'a' ? h - 'a' + 10 : h >= 'A' ? h - 'A' + 10 : h - '0');
			}
			put_utf8(&b, c);
			break;
		}
		case '\0': P->bad = true; P->p--; break;
		default: sb_addc(&b, e); break;
		}
	}
	if (*P->p == '"') P->p++;
	else P->bad = true;
	return b.s;
}

static void parse_value(struct jp *P, struct jv *v);

static void parse_list(struct jp *P, struct jv *v, bool obj)
{
	VEC(struct jv) items = { 0 };
	VEC(char *) keys = { 0 };
	char close = obj ? '}' : ']';
	P->p++;
	skip_ws(P);
	while (!P->bad && *P->p && *P->p != close) {
		if (obj) {
			if (*P->p != '"') { P->bad = true; break; }
			VEC_PUSH(keys, parse_str(P));
			skip_ws(P);
			if (*P->p++ != ':') { P->bad = true; break; }
		}
		struct jv x = { 0 };
		parse_value(P, &x);
		VEC_PUSH(items, x);
		skip_ws(P);
		if (*P->p == ',') { P->p++; skip_ws(P); }
	}
	if (*P->p == close) P->p++;
	else P->bad = true;
	v->type = obj ? J_OBJ : J_ARR;
	v->items = items.a;
	v->n = items.n;
	v->keys = keys.a;
}

static void parse_value(struct jp *P, struct jv *v)
{
	skip_ws(P);
	const char *s = P->p;
	if (*s == '{' || *s == '[') { parse_list(P, v, *s == '{'); return; }
	if (*s == '"') { v->type = J_STR; v->text = parse_str(P); return; }
	size_t n = strcspn(s, ",}] \n\t\r");
	if (!n) { P->bad = true; return; }
	v->type = !strncmp(s, "null", 4) ? J_NULL : (!strncmp(s, "true", 4) || !strncmp(s, "false", 5)) ? J_BOOL : J_NUM;
	v->text = xasprintf("%.*s", (int)n, s);
	P->p += n;
}

static void jv_free(struct jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		jv_free(&v->items[i]);
		if (v->keys) free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->text);
}

/* --- the table ------------------------------------------------------------- */
static bool is_table(const struct jv *v)
{
	if (v->type != J_ARR) return false;
	for (size_t i = 0; i < v->n; i++)
		if (v->items[i].type != J_OBJ) return false;
	return v->n > 0;
}

static bool scalar(const struct jv *v)
{
	return v->type != J_ARR && v->type != J_OBJ;
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) { fputs(s, f); return; }
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"') fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_table(const struct jv *tab, FILE *f)
{
	VEC(const char *) cols = { 0 };
	for (size_t i = 0; i < tab->n; i++) {
		const struct jv *r = &tab->items[i];
		for (size_t k = 0; k < r->n; k++) {
			if (!scalar(&r->items[k])) continue;
			bool have = false;
			for (size_t c = 0; c < cols.n && !have; c++) have = !strcmp(cols.a[c], r->keys[k]);
			if (!have) VEC_PUSH(cols, r->keys[k]);
		}
	}
	for (size_t c = 0; c < cols.n; c++) {
		if (c) fputc(',', f);
		csv_field(f, cols.a[c]);
	}
	fputc('\n', f);
	for (size_t i = 0; i < tab->n; i++) {
		const struct jv *r = &tab->items[i];
		for (size_t c = 0; c < cols.n; c++) {
			if (c) fputc(',', f);
			for (size_t k = 0; k < r->n; k++)
				if (!strcmp(r->keys[k], cols.a[c])) {
					if (r->items[k].type != J_NULL) csv_field(f, r->items[k].text);
					break;
				}
		}
		fputc('\n', f);
	}
	VEC_FREE(cols);
}

static char *tables_of(const struct jv *root)
{
	struct strbuf b;
	sb_init(&b);
	for (size_t k = 0; k < root->n; k++)
		if (is_table(&root->items[k])) sb_printf(&b, "%s%s", b.s[0] ? ", " : "", root->keys[k]);
	return b.s;
}

bool report_csv(struct tc_session *s, const char *name, FILE *out, char **err)
{
	char *sec = xstrdup(name), *list = strchr(sec, '.');
	if (list) *list++ = '\0';
	const struct report_section *r = report_find(sec);
	bool ok = false;
	if (!r) {
		*err = xasprintf("unknown section '%s'", sec);
		free(sec);
		return false;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct json j;
	json_init(&j, m, 0);
	r->json(s, &j);
	json_finish(&j);
	fclose(m);
	struct jp P = { buf, false };
	struct jv root = { 0 };
	parse_value(&P, &root);
	const struct jv *tab = NULL;
	for (size_t k = 0; root.type == J_OBJ && k < root.n && !tab; k++)
		if (list ? !strcmp(root.keys[k], list) : is_table(&root.items[k])) tab = &root.items[k];
	if (P.bad || root.type != J_OBJ) *err = xasprintf("section %s: its JSON could not be read back", sec);
	else if (!tab || (tab->type != J_ARR || (tab->n && !is_table(tab)))) {
		char *t = tables_of(&root);
		*err = xasprintf("section %s has no table%s%s%s (tables: %s)", sec, list ? " '" : "", list ? list : "",
				 list ? "'" : "", t[0] ? t : "none");
		free(t);
	} else {
		write_table(tab, out);
		ok = true;
	}
	jv_free(&root);
	free(buf);
	free(sec);
	return ok;
}
