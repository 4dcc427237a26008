/* theme.c — colour themes: the built-in default (dark) and YAML theme files
 * read with libyaml's document API.
 *
 *   name: light
 *   monochrome: false          # optional: draw with attributes only
 *   colors:
 *     status:  { fg: "#000000", bg: "#d0d0d0", attrs: [bold] }
 *     map0:    { bg: "#add8e6" }
 *     cursor:  { fg: black, bg: 11, mono: [reverse] }
 *
 * Colours: "#rgb", "#rrggbb", an ANSI name (black, red, …, bright-white),
 * "default", or an xterm index 0–255.  Attributes: bold, reverse, underline,
 * dim.  Any error is reported as file:line:column and the caller keeps the
 * built-in theme. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

#include "ui.h"

#ifndef TC_DATADIR
#define TC_DATADIR "/usr/local/share/tracecomb"
#endif

static bool parse_hex(const char *s, struct tc_color *c)
{
	size_t n = strlen(s);
	unsigned v[6];
	if (n != 4 && n != 7) return false;
	for (size_t i = 1; i < n; i++) {
		char ch = s[i];
		if (ch >= '0' && ch <= '9') v[i - 1] = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f') v[i - 1] = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F') v[i - 1] = (unsigned)(ch - 'A' + 10);
		else return false;
	}
	c->kind = TC_COL_RGB;
	if (n == 4) {
		c->r = (uint8_t)(v[0] * 17); c->g = (uint8_t)(v[1] * 17); c->b = (uint8_t)(v[2] * 17);
	} else {
		c->r = (uint8_t)(v[0] * 16 + v[1]); c->g = (uint8_t)(v[2] * 16 + v[3]); c->b = (uint8_t)(v[4] * 16 + v[5]);
	}
	return true;
}

static const char *const ansi_names[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue", "bright-magenta",
	"bright-cyan", "bright-white",
};
/* xterm's RGB for the 16 ANSI colours. */
static const uint8_t ansi_rgb[16][3] = {
	{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 }, { 0, 0, 238 }, { 205, 0, 205 },
	{ 0, 205, 205 }, { 229, 229, 229 }, { 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 },
	{ 255, 255, 0 }, { 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
};

static bool parse_color(const char *s, struct tc_color *c)
{
	if (!*s || !strcasecmp(s, "default") || !strcasecmp(s, "none")) {
		*c = (struct tc_color){ .kind = TC_COL_DEFAULT };
		return true;
	}
	if (s[0] == '#') return parse_hex(s, c);
	for (int i = 0; i < 16; i++)
		if (!strcasecmp(s, ansi_names[i])) {
			*c = (struct tc_color){ .kind = TC_COL_INDEX, .index = (uint8_t)i };
			return true;
		}
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*end && !errno && v >= 0 && v <= 255) {
		*c = (struct tc_color){ .kind = TC_COL_INDEX, .index = (uint8_t)v };
		return true;
	}
	return false;
}

static void index_rgb(int i, uint8_t rgb[3])
{
	if (i < 16) { memcpy(rgb, ansi_rgb[i], 3); return; }
	if (i < 232) {
		static const uint8_t lv[6] = { 0, 95, 135, 175, 215, 255 };
		i -= 16;
		rgb[0] = lv[i / 36]; rgb[1] = lv[(i / 6) % 6]; rgb[2] = lv[i % 6];
		return;
	}
	rgb[0] = rgb[1] = rgb[2] = (uint8_t)(8 + 10 * (i - 232));
}

static int dist2(const uint8_t a[3], int r, int g, int b)
{
	int dr = a[0] - r, dg = a[1] - g, db = a[2] - b;
	return 2 * dr * dr + 4 * dg * dg + 3 * db * db;
}

int color_to_256(const struct tc_color *c)
{
	if (c->kind == TC_COL_INDEX) return c->index;
	if (c->kind != TC_COL_RGB) return -1;
	int best = 16, bd = 1 << 30;
	for (int i = 16; i < 256; i++) {
		uint8_t rgb[3];
		index_rgb(i, rgb);
		int d = dist2(rgb, c->r, c->g, c->b);
		if (d < bd) { bd = d; best = i; }
	}
	return best;
}

void color_rgb(const struct tc_color *c, uint8_t rgb[3])
{
	if (c->kind == TC_COL_RGB) { rgb[0] = c->r; rgb[1] = c->g; rgb[2] = c->b; }
	else if (c->kind == TC_COL_INDEX) index_rgb(c->index, rgb);
	else rgb[0] = rgb[1] = rgb[2] = 0;
}

int color_to_ansi(const struct tc_color *c, int n)
{
	if (c->kind == TC_COL_DEFAULT) return -1;
	uint8_t rgb[3];
	if (c->kind == TC_COL_INDEX) {
		if (c->index < n) return c->index;
		index_rgb(c->index, rgb);
	} else {
		rgb[0] = c->r; rgb[1] = c->g; rgb[2] = c->b;
	}
	int best = 0, bd = 1 << 30;
	for (int i = 0; i < n; i++) {
		int d = dist2(ansi_rgb[i], rgb[0], rgb[1], rgb[2]);
		if (d < bd) { bd = d; best = i; }
	}
	return best;
}

void theme_builtin(struct tc_theme *th)
{
	static const struct { const char *fg, *bg; uint8_t a, m; } def[TC_R_COUNT] = {
#define TC_ROLE_DEF(e, n, fg, bg, a, m) { fg, bg, a, m },
		TC_ROLES(TC_ROLE_DEF)
#undef TC_ROLE_DEF
	};
	memset(th, 0, sizeof *th);
	snprintf(th->name, sizeof th->name, "default");
	for (int i = 0; i < TC_R_COUNT; i++) {
		parse_color(def[i].fg, &th->role[i].fg);
		parse_color(def[i].bg, &th->role[i].bg);
		th->role[i].attr = def[i].a;
		th->role[i].mono = def[i].m;
	}
}

/* --- YAML ----------------------------------------------------------------- */
struct tparse {
	yaml_document_t *d;
	const char *where;
	char *err;
};

static bool perr(struct tparse *p, const yaml_node_t *n, const char *fmt, const char *arg)
{
	if (p->err) return false;
	char msg[256];
	snprintf(msg, sizeof msg, fmt, arg ? arg : "");
	p->err = xasprintf("%s:%zu:%zu: %s", p->where, n ? n->start_mark.line + 1 : 1,
			   n ? n->start_mark.column + 1 : 1, msg);
	return false;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static bool parse_attrs(struct tparse *p, yaml_node_t *n, uint8_t *out)
{
	*out = 0;
	const char *one = scalar(n);
	yaml_node_item_t *it = NULL, *end = NULL;
	if (!one) {
		if (n->type != YAML_SEQUENCE_NODE) return perr(p, n, "attributes must be a list like [bold, reverse]%s", NULL);
		it = n->data.sequence.items.start;
		end = n->data.sequence.items.top;
	}
	for (;;) {
		yaml_node_t *e = n;
		if (!one) {
			if (it >= end) break;
			e = yaml_document_get_node(p->d, *it++);
		}
		const char *s = scalar(e);
		if (!s) return perr(p, e, "an attribute must be a word%s", NULL);
		if (!strcmp(s, "bold")) *out |= TC_A_BOLD;
		else if (!strcmp(s, "reverse")) *out |= TC_A_REVERSE;
		else if (!strcmp(s, "underline")) *out |= TC_A_UNDERLINE;
		else if (!strcmp(s, "dim")) *out |= TC_A_DIM;
		else if (strcmp(s, "none") != 0)
			return perr(p, e, "unknown attribute '%s' (bold, reverse, underline, dim, none)", s);
		if (one) break;
	}
	return true;
}

static bool parse_role(struct tparse *p, struct tc_style *st, yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE) return perr(p, n, "expected a mapping like { fg: \"#ffffff\", bg: blue }%s", NULL);
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(p->d, pr->key), *v = yaml_document_get_node(p->d, pr->value);
		const char *key = scalar(k);
		if (!key) return perr(p, k, "expected a key%s", NULL);
		if (!strcmp(key, "fg") || !strcmp(key, "bg")) {
			const char *cs = scalar(v);
			if (!cs || !parse_color(cs, key[0] == 'f' ? &st->fg : &st->bg))
				return perr(p, v, "bad colour '%s' (use \"#rrggbb\", \"#rgb\", a colour name or 0-255)",
					    cs ? cs : "?");
		} else if (!strcmp(key, "attrs")) {
			if (!parse_attrs(p, v, &st->attr)) return false;
		} else if (!strcmp(key, "mono")) {
			if (!parse_attrs(p, v, &st->mono)) return false;
		} else {
			return perr(p, k, "unknown key '%s' (fg, bg, attrs, mono)", key);
		}
	}
	return true;
}

static bool parse_doc(struct tparse *p, struct tc_theme *th)
{
	yaml_node_t *root = yaml_document_get_root_node(p->d);
	if (!root) return perr(p, NULL, "empty theme file%s", NULL);
	if (root->type != YAML_MAPPING_NODE) return perr(p, root, "expected a mapping with name: and colors:%s", NULL);
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(p->d, pr->key), *v = yaml_document_get_node(p->d, pr->value);
		const char *key = scalar(k);
		if (!key) return perr(p, k, "expected a key%s", NULL);
		if (!strcmp(key, "name")) {
			const char *s = scalar(v);
			if (!s) return perr(p, v, "name must be text%s", NULL);
			snprintf(th->name, sizeof th->name, "%s", s);
		} else if (!strcmp(key, "monochrome")) {
			const char *s = scalar(v);
			if (!s || (strcmp(s, "true") && strcmp(s, "false")))
				return perr(p, v, "monochrome must be true or false%s", NULL);
			th->monochrome = !strcmp(s, "true");
		} else if (!strcmp(key, "description")) {
			continue;
		} else if (!strcmp(key, "colors")) {
			if (v->type != YAML_MAPPING_NODE) return perr(p, v, "colors must be a mapping of role: {fg, bg}%s", NULL);
			for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
				yaml_node_t *rk = yaml_document_get_node(p->d, q->key);
				const char *rn = scalar(rk);
				int role = -1;
				for (int i = 0; rn && i < TC_R_COUNT; i++)
					if (!strcmp(rn, tc_role_names[i])) role = i;
				if (role < 0) return perr(p, rk, "unknown role '%s' (see themes/default.yaml)", rn ? rn : "?");
				if (!parse_role(p, &th->role[role], yaml_document_get_node(p->d, q->value))) return false;
			}
		} else {
			return perr(p, k, "unknown key '%s' (name, description, monochrome, colors)", key);
		}
	}
	return true;
}

/* A theme is two levels deep (roles → role → attribute list): documents
 * nested deeper than THEME_MAX_DEPTH are refused by a streaming pass before
 * libyaml builds the document (which takes a minute per 100 kB of "[[[["). */
#define THEME_MAX_DEPTH 16
#define THEME_MAX_BYTES (256 * 1024)

static bool depth_ok(const char *text, size_t len, const char *where, char **err)
{
	yaml_parser_t ps;
	if (!yaml_parser_initialize(&ps)) tc_oom(sizeof ps);
	yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
	int depth = 0;
	bool ok = true, done = false;
	while (ok && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&ps, &ev)) break;  /* the load reports the syntax error */
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) depth++;
		else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) depth--;
		else if (ev.type == YAML_STREAM_END_EVENT) done = true;
		if (depth > THEME_MAX_DEPTH) {
			*err = xasprintf("%s:%zu:%zu: nested deeper than %d levels (a theme needs 3)", where,
					 ev.start_mark.line + 1, ev.start_mark.column + 1, THEME_MAX_DEPTH);
			ok = false;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&ps);
	return ok;
}

bool theme_parse(struct tc_theme *th, const char *text, size_t len, const char *where, char **err)
{
	if (len > THEME_MAX_BYTES) {
		*err = xasprintf("%s: theme larger than %d KiB", where, THEME_MAX_BYTES / 1024);
		return false;
	}
	if (!depth_ok(text, len, where, err)) return false;
	struct tc_theme tmp;
	theme_builtin(&tmp);
	yaml_parser_t ps;
	yaml_document_t d;
	if (!yaml_parser_initialize(&ps)) tc_oom(sizeof ps);
	yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
	if (!yaml_parser_load(&ps, &d)) {
		*err = xasprintf("%s:%zu:%zu: %s%s%s%s", where, ps.problem_mark.line + 1, ps.problem_mark.column + 1,
				 ps.problem ? ps.problem : "syntax error", ps.context ? " (" : "",
				 ps.context ? ps.context : "", ps.context ? ")" : "");
		yaml_parser_delete(&ps);
		return false;
	}
	struct tparse p = { .d = &d, .where = where };
	bool ok = parse_doc(&p, &tmp);
	yaml_document_delete(&d);
	yaml_parser_delete(&ps);
	if (!ok) {
		*err = p.err;
		return false;
	}
	*th = tmp;
	return true;
}

/* Opened without blocking (a FIFO or a device as --theme must not hang the
 * tool) and only when it is a regular file; read up to the size cap. */
bool theme_load_file(struct tc_theme *th, const char *path, char **err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		if (fd >= 0) close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = xasprintf("%s: not a regular file", path);
		close(fd);
		return false;
	}
	struct strbuf b;
	sb_init(&b);
	char buf[4096];
	ssize_t n;
	while (b.len <= THEME_MAX_BYTES && (n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) {
			*err = xasprintf("%s: %s", path, strerror(errno));
			close(fd);
			sb_free(&b);
			return false;
		}
		sb_addn(&b, buf, (size_t)n);
	}
	close(fd);
	bool ok = theme_parse(th, b.s ? b.s : "", b.len, path, err);
	sb_free(&b);
	return ok;
}

bool theme_load(struct tc_theme *th, const char *spec, char **err)
{
	if (strchr(spec, '/') || (strlen(spec) > 5 && !strcmp(spec + strlen(spec) - 5, ".yaml")))
		return theme_load_file(th, spec, err);
	for (const char *s = spec; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '_')) {
			*err = xasprintf("bad theme name '%s'", spec);
			return false;
		}
	/* ./themes, then beside the installed binary (<prefix>/bin/../share/...), then
	 * the directory configured at build time */
	char exe[4096], rel[4200] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(rel, sizeof rel, "%s/../share/tracecomb/themes", exe);
		}
	}
	const char *dirs[] = { "themes", rel, TC_DATADIR "/themes" };
	for (size_t i = 0; i < TC_NELEM(dirs); i++) {
		if (!dirs[i][0]) continue;
		char *path = xasprintf("%s/%s.yaml", dirs[i], spec);
		struct stat sb;
		if (!stat(path, &sb)) {
			bool ok = theme_load_file(th, path, err);
			free(path);
			return ok;
		}
		free(path);
	}
	if (!strcmp(spec, "default")) {
		theme_builtin(th);
		return true;
	}
	*err = xasprintf("no theme '%s' in ./themes or %s/themes", spec, TC_DATADIR);
	return false;
}
