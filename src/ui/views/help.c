/* help.c — the `?` screen: the keys of the view it was opened from, taken
 * from the same table that dispatches them (keymap.c), then what that view
 * shows.  j/k scroll, Esc or q go back. */
#include <stdlib.h>

#include "ui.h"

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct view *of = a->help_of ? a->help_of : &view_logical;
	char **keys;
	size_t nk = keymap_help(of->id, &keys);
	size_t nh = 0;
	while (of->help && of->help[nh]) nh++;
	size_t total = 1 + nk + 2 + nh;
	if (a->help_scroll + (size_t)r.h > total) a->help_scroll = total > (size_t)r.h ? (uint32_t)(total - (size_t)r.h) : 0;
	for (int y = 0; y < r.h; y++) {
		size_t i = a->help_scroll + (size_t)y;
		if (i == 0) grid_printf(g, r.x, r.y + y, r.w, TC_R_HEADING, "Keys in the %s view", of->name);
		else if (i <= nk) {
			const char *l = keys[i - 1];
			grid_text(g, r.x + 1, r.y + y, 16, TC_R_HELP_KEY, l);
			grid_text(g, r.x + 18, r.y + y, r.w - 18, TC_R_NORMAL, l + 17);
		} else if (i == nk + 2) grid_printf(g, r.x, r.y + y, r.w, TC_R_HEADING, "The %s view", of->name);
		else if (i > nk + 2 && i < total) grid_text(g, r.x + 1, r.y + y, r.w - 1, TC_R_NORMAL, of->help[i - nk - 3]);
	}
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
