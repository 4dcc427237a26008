/* help.c — the `?` screen: the keys of the view it was opened from, taken
 * from the same table that dispatches them (keymap.c), then what that view
 * shows.  Lines longer than the screen wrap (a key's description beside its
 * key column).  j/k scroll, Esc or q go back. */
#include <stdlib.h>
#include <string.h>

#include "ui.h"

#define KEY_W 16        /* keymap_help's key column: "%-16s %s" */
#define DESC_X 18       /* where a description starts on screen */

/* Lines of the help, numbered from the top; only those in view are drawn. */
struct out {
	struct tc_grid *g;
	struct tc_rect r;
	size_t line, first;   /* the next line's number; the first one shown */
};

static void put(struct out *o, int x, enum tc_role role, const char *s, int bytes)
{
	size_t y = o->line - o->first;
	if (o->line >= o->first && y < (size_t)o->r.h) {
		char *t = xasprintf("%.*s", bytes, s);
		grid_text(o->g, o->r.x + x, o->r.y + (int)y, o->r.w - x, role, t);
		free(t);
	}
}

/* Text from column x, wrapped to the rest of the width; key, when given,
 * beside its first line. */
static void para(struct out *o, int x, const char *key, const char *text)
{
	int w = o->r.w - x, n = tc_wrap(text, w, 0, NULL, NULL);
	if (key) put(o, 1, TC_R_HELP_KEY, key, KEY_W);
	for (int k = 0; k < n; k++) {
		const char *p;
		int bytes;
		tc_wrap(text, w, k, &p, &bytes);
		put(o, x, TC_R_NORMAL, p, bytes);
		o->line++;
	}
	if (!n) o->line++;   /* an empty line */
}

static void heading(struct out *o, const char *fmt, const char *name)
{
	char *h = xasprintf(fmt, name);
	put(o, 0, TC_R_HEADING, h, (int)strlen(h));
	free(h);
	o->line++;
}

/* All lines from first on; returns how many there are. */
static size_t lines(struct out *o, const struct view *of, char **keys, size_t nk)
{
	o->line = 0;
	heading(o, "Keys in the %s view", of->name);
	for (size_t i = 0; i < nk; i++) para(o, DESC_X, keys[i], keys[i] + KEY_W + 1);
	o->line++;
	heading(o, "The %s view", of->name);
	for (size_t i = 0; of->help && of->help[i]; i++) para(o, 1, NULL, of->help[i]);
	return o->line;
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct view *of = a->help_of ? a->help_of : &view_logical;
	char **keys;
	size_t nk = keymap_help(of->id, &keys);
	struct out o = { g, r, 0, SIZE_MAX };   /* counting: nothing in view */
	size_t total = lines(&o, of, keys, nk);
	if (a->help_scroll + (size_t)r.h > total) a->help_scroll = total > (size_t)r.h ? (uint32_t)(total - (size_t)r.h) : 0;
	o.first = a->help_scroll;
	lines(&o, of, keys, nk);
	for (size_t i = 0; i < nk; i++) free(keys[i]);
	free(keys);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	return app_scroll(&a->help_scroll, act);
}

static const char *const help[] = { "Esc or q closes this help.", NULL };

const struct view view_help = {
	.name = "help", .id = TC_V_HELP, .min_w = 20, .min_h = 2, .draw = draw, .key = key, .help = help,
};
