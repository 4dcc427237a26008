/* grid.c — the cell grid views draw into, its glyph sets, and its text and
 * ANSI renderings.  No curses here: `render` and the unit tests use it alone. */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui.h"

const char *const tc_role_names[TC_R_COUNT] = {
#define TC_ROLE_NAME(e, n, fg, bg, a, m) n,
	TC_ROLES(TC_ROLE_NAME)
#undef TC_ROLE_NAME
};

/* UTF-8 and ASCII glyph sets; information never rests on colour alone, so
 * send, receive and collective differ in both. */
static const uint32_t glyphs_utf8[TC_G_COUNT] = {
	[TC_G_SEND] = 0x25B6, [TC_G_RECV] = 0x25C0, [TC_G_SENDRECV] = 0x25C6, [TC_G_COLL] = 0x2736,
	[TC_G_AGG] = 0x00B7, [TC_G_EMPTY] = ' ', [TC_G_DENSE] = 0x2593, [TC_G_HLINE] = 0x2500,
	[TC_G_VLINE] = 0x2502, [TC_G_TICK] = 0x2575, [TC_G_ELLIPSIS] = 0x2026, [TC_G_MARK] = 0x25B2,
	[TC_G_OTHER_MPI] = 0x25AA, [TC_G_SHADE1] = 0x2591, [TC_G_SHADE2] = 0x2592, [TC_G_SHADE3] = 0x2593,
	[TC_G_FULL] = 0x2588,
};
static const uint32_t glyphs_ascii[TC_G_COUNT] = {
	[TC_G_SEND] = '>', [TC_G_RECV] = '<', [TC_G_SENDRECV] = 'x', [TC_G_COLL] = '*', [TC_G_AGG] = '.',
	[TC_G_EMPTY] = ' ', [TC_G_DENSE] = '#', [TC_G_HLINE] = '-', [TC_G_VLINE] = '|', [TC_G_TICK] = '\'',
	[TC_G_ELLIPSIS] = '~', [TC_G_MARK] = '^', [TC_G_OTHER_MPI] = 'm', [TC_G_SHADE1] = '.',
	[TC_G_SHADE2] = ':', [TC_G_SHADE3] = '=', [TC_G_FULL] = '#',
};

uint32_t grid_glyph(const struct tc_grid *g, enum tc_glyph gl)
{
	return (g->ascii ? glyphs_ascii : glyphs_utf8)[gl];
}

uint32_t grid_left_eighth(const struct tc_grid *g, int n)
{
	if (n <= 0) return ' ';
	if (n >= 8) return g->ascii ? '#' : 0x2588;
	if (g->ascii) return n >= 4 ? '#' : ' ';
	return 0x2590 - (uint32_t)n;   /* U+258F ▏ (1/8) … U+2589 ▉ (7/8) */
}

uint32_t grid_lower_eighth(const struct tc_grid *g, int n)
{
	if (n <= 0) return ' ';
	if (n >= 8) return g->ascii ? '#' : 0x2588;
	if (g->ascii) return n >= 4 ? '#' : (n >= 2 ? '_' : ' ');
	return 0x2580 + (uint32_t)n;   /* U+2581 ▁ … U+2587 ▇ */
}

void grid_init(struct tc_grid *g, int w, int h, bool ascii)
{
	g->w = g->h = 0;
	g->c = NULL;
	g->ascii = ascii;
	grid_resize(g, w, h);
}

void grid_resize(struct tc_grid *g, int w, int h)
{
	if (w < 0) w = 0;
	if (h < 0) h = 0;
	int cells = w * h > 0 ? w * h : 1;
	if (cells > g->w * g->h || !g->c) g->c = xreallocarray(g->c, (size_t)cells, sizeof *g->c);
	g->w = w;
	g->h = h;
	grid_clear(g, TC_R_NORMAL);
}

void grid_free(struct tc_grid *g)
{
	free(g->c);
	g->c = NULL;
	g->w = g->h = 0;
}

void grid_clear(struct tc_grid *g, enum tc_role bg)
{
	for (int i = 0; i < g->w * g->h; i++) g->c[i] = (struct tc_cell){ ' ', (uint8_t)bg, (uint8_t)bg, 0 };
}

struct tc_cell *grid_at(struct tc_grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h) return NULL;
	return &g->c[y * g->w + x];
}

void grid_put(struct tc_grid *g, int x, int y, uint32_t ch, enum tc_role fg, enum tc_role bg, uint8_t attr)
{
	struct tc_cell *c = grid_at(g, x, y);
	if (!c) return;
	if (g->ascii && ch > 0x7e) ch = '?';
	*c = (struct tc_cell){ ch, (uint8_t)fg, (uint8_t)bg, attr };
}

void grid_putr(struct tc_grid *g, int x, int y, uint32_t ch, enum tc_role r)
{
	grid_put(g, x, y, ch, r, r, 0);
}

void grid_fill(struct tc_grid *g, int x, int y, int w, int h, uint32_t ch, enum tc_role r)
{
	for (int j = y; j < y + h; j++)
		for (int i = x; i < x + w; i++) grid_putr(g, i, j, ch, r);
}

/* Decode one UTF-8 sequence; invalid bytes decode as U+FFFD, one byte each. */
static uint32_t utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t c = s[0];
	int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
	if (n < 0) { *p = s + 1; return 0xfffd; }
	if (n == 0) { *p = s + 1; return c; }
	c &= 0x3f >> n;
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80) { *p = s + 1; return 0xfffd; }
		c = c << 6 | (s[i] & 0x3f);
	}
	*p = s + n + 1;
	return c;
}

int grid_text(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *s)
{
	int used = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && used < maxw && x + used < g->w) {
		uint32_t c = utf8_next(&p);
		if (c < 0x20 || c == 0x7f) c = '?';
		else if (c > 0x7e && (g->ascii || wcwidth((wchar_t)c) != 1)) c = '?';
		grid_putr(g, x + used, y, c, r);
		used++;
	}
	return used;
}

int grid_printf(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return grid_text(g, x, y, maxw, r, buf);
}

static void put_utf8(FILE *f, uint32_t c)
{
	if (c < 0x80) fputc((int)c, f);
	else if (c < 0x800) { fputc(0xc0 | (int)(c >> 6), f); fputc(0x80 | (int)(c & 0x3f), f); }
	else if (c < 0x10000) {
		fputc(0xe0 | (int)(c >> 12), f);
		fputc(0x80 | (int)((c >> 6) & 0x3f), f);
		fputc(0x80 | (int)(c & 0x3f), f);
	} else {
		fputc(0xf0 | (int)(c >> 18), f);
		fputc(0x80 | (int)((c >> 12) & 0x3f), f);
		fputc(0x80 | (int)((c >> 6) & 0x3f), f);
		fputc(0x80 | (int)(c & 0x3f), f);
	}
}

void grid_write_text(const struct tc_grid *g, FILE *f)
{
	for (int y = 0; y < g->h; y++) {
		int end = g->w;
		while (end > 0 && g->c[y * g->w + end - 1].ch == ' ') end--;
		for (int x = 0; x < end; x++) put_utf8(f, g->c[y * g->w + x].ch);
		fputc('\n', f);
	}
}

static void sgr_color(FILE *f, const struct tc_color *c, bool bg)
{
	if (c->kind == TC_COL_DEFAULT) fprintf(f, ";%d", bg ? 49 : 39);
	else fprintf(f, ";%d;5;%d", bg ? 48 : 38, color_to_256(c));
}

void grid_write_ansi(const struct tc_grid *g, const struct tc_theme *th, FILE *f)
{
	for (int y = 0; y < g->h; y++) {
		int last = -1;
		for (int x = 0; x < g->w; x++) {
			const struct tc_cell *c = &g->c[y * g->w + x];
			const struct tc_style *sf = &th->role[c->fg], *sb = &th->role[c->bg];
			int key = c->fg | c->bg << 8 | c->attr << 16;
			if (key != last) {
				uint8_t a = (th->monochrome ? sf->mono : sf->attr) | (c->attr & ~TC_A_SOLID);
				fputs("\033[0", f);
				if (a & TC_A_BOLD) fputs(";1", f);
				if (a & TC_A_DIM) fputs(";2", f);
				if (a & TC_A_UNDERLINE) fputs(";4", f);
				if (a & TC_A_REVERSE) fputs(";7", f);
				if (!th->monochrome) {   /* a role without a colour takes the normal role's, as on the terminal */
					const struct tc_color *fc = (c->attr & TC_A_SOLID) ? &sf->bg : &sf->fg, *bc = &sb->bg;
					if (fc->kind == TC_COL_DEFAULT) fc = &th->role[TC_R_NORMAL].fg;
					if (bc->kind == TC_COL_DEFAULT) bc = &th->role[TC_R_NORMAL].bg;
					sgr_color(f, fc, false);
					sgr_color(f, bc, true);
				}
				fputc('m', f);
				last = key;
			}
			put_utf8(f, c->ch);
		}
		fputs("\033[0m\n", f);
	}
}

size_t grid_text_len(const char *s)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) n += (*p & 0xc0) != 0x80;
	return n;
}

int grid_text_elide(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *s)
{
	if (maxw <= 0) return 0;
	size_t len = grid_text_len(s);
	if (len <= (size_t)maxw) return grid_text(g, x, y, maxw, r, s);
	/* cut after the last whole word that leaves room for the ellipsis */
	const unsigned char *p = (const unsigned char *)s;
	int cut = 0, col = 0, room = maxw - 1;
	while (*p && col <= room) {
		if (*p == ' ' && col <= room) cut = col;
		utf8_next(&p);
		col++;
	}
	if (cut < room / 2) cut = room;   /* no word break in the second half: cut mid-word */
	int used = grid_text(g, x, y, cut, r, s);
	grid_putr(g, x + used, y, grid_glyph(g, TC_G_ELLIPSIS), r);
	return used + 1;
}

int grid_text_tail(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *head,
		   const char *const *tails, int ntails, int min_head)
{
	int hl = (int)grid_text_len(head), k = 0;
	while (k + 1 < ntails && (int)grid_text_len(tails[k]) + TC_MIN(hl, min_head) > maxw) k++;
	const char *tail = tails[k];
	int tl = (int)grid_text_len(tail);
	if (hl + tl <= maxw || maxw - tl < TC_MIN(hl, min_head)) {
		char *all = xasprintf("%s%s", head, tail);
		int used = grid_text_elide(g, x, y, maxw, r, all);
		free(all);
		return used;
	}
	int used = grid_text_elide(g, x, y, maxw - tl, r, head);
	return used + grid_text(g, x + used, y, maxw - used, r, tail);
}
