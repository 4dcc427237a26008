/* keymap.c — the one key table.  It drives dispatch (keymap_find), the key
 * bar at the bottom (keymap_hints) and the `?` help screen (keymap_help), so
 * the three cannot disagree.  Keys follow less/vim/htop (ecosystem.md §3.1). */
#include <stdlib.h>
#include <string.h>

#include "ui.h"

#define L TC_VM(TC_V_LOGICAL)
#define P TC_VM(TC_V_PHYSICAL)
#define O TC_VM(TC_V_OVERVIEW)
#define D TC_VM(TC_V_DETAIL)
#define H TC_VM(TC_V_HELP)
#define RG TC_VM(TC_V_REGIONS)
#define EV TC_VM(TC_V_EVOLUTION)
#define W TC_VM(TC_V_WAITSTATES)
#define F TC_VM(TC_V_PROFILE)
#define C TC_VM(TC_V_CALLS)
#define X TC_VM_EXTRA
#define DG TC_VM(TC_V_DAG)
#define VD TC_VM(TC_V_VERDICTS)
#define CL TC_VM(TC_V_CLUSTERS)
#define MT (M & ~RG & ~X)   /* main views whose h/l move along steps, time, windows or levels */
#define M TC_VM_MAIN
#define A TC_VM_ALL

const struct tc_keybind tc_keymap[] = {
	{ '?', M | D, ACT_HELP, "?  F1", "help", "this help (keys of the current view)" },
	{ TK_F1, M | D, ACT_HELP, NULL, NULL, NULL },
	{ 'q', M, ACT_QUIT, "q", "quit", "quit" },
	{ 'q', D | H, ACT_BACK, "q", "back", "back to the view it was opened from" },
	{ 'Q', A, ACT_QUIT, "Q", NULL, "quit at once" },
	{ 'j', A, ACT_DOWN, "j k  Down Up", NULL, "next/previous rank, region, line, node (help, detail: scroll)" },
	{ TK_DOWN, A, ACT_DOWN, NULL, NULL, NULL },
	{ 'k', A, ACT_UP, NULL, NULL, NULL },
	{ TK_UP, A, ACT_UP, NULL, NULL, NULL },
	{ 'h', MT, ACT_LEFT, "h l  Left Right", "move", "previous / next step (physical: time; evolution, verdicts: window; dag: node)" },
	{ TK_LEFT, MT, ACT_LEFT, NULL, NULL, NULL },
	{ 'l', MT, ACT_RIGHT, NULL, NULL, NULL },
	{ TK_RIGHT, MT, ACT_RIGHT, NULL, NULL, NULL },
	{ 'h', W, ACT_LEFT, "h l  Left Right", "section", "previous / next section (patterns, causing, waiting)" },
	{ TK_LEFT, W, ACT_LEFT, NULL, NULL, NULL },
	{ 'l', W, ACT_RIGHT, NULL, NULL, NULL },
	{ TK_RIGHT, W, ACT_RIGHT, NULL, NULL, NULL },
	{ 'h', C, ACT_LEFT, "h l  Left Right", "pan", "pan the time window by an eighth (moves the cursor time)" },
	{ TK_LEFT, C, ACT_LEFT, NULL, NULL, NULL },
	{ 'l', C, ACT_RIGHT, NULL, NULL, NULL },
	{ TK_RIGHT, C, ACT_RIGHT, NULL, NULL, NULL },
	{ TK_PGDN, A, ACT_PGDN, "PgDn PgUp", NULL, "one page down / up" },
	{ ' ', A, ACT_PGDN, NULL, NULL, NULL },
	{ TK_PGUP, A, ACT_PGUP, NULL, NULL, NULL },
	{ 'b', A, ACT_PGUP, NULL, NULL, NULL },
	{ 'g', A, ACT_TOP, "g G", NULL, "first / last rank, region, line or tree node" },
	{ 'G', A, ACT_BOTTOM, NULL, NULL, NULL },
	{ TK_HOME, MT | C, ACT_FIRST, "Home End", NULL, "first / last step, time (physical, calls), window or level" },
	{ TK_END, MT | C, ACT_LAST, NULL, NULL, NULL },
	{ '+', L | P | O | C, ACT_ZOOM_IN, "+ -", "zoom", "zoom in / out (steps or time)" },
	{ '=', L | P | O | C, ACT_ZOOM_IN, NULL, NULL, NULL },
	{ '-', L | P | O | C, ACT_ZOOM_OUT, NULL, NULL, NULL },
	{ '>', L, ACT_RANKS_IN, "> <", NULL, "fewer / more ranks per row" },
	{ '<', L, ACT_RANKS_OUT, NULL, NULL, NULL },
	{ '0', L | P | O | C, ACT_ZOOM_FIT, "0", NULL, "fit the whole trace" },
	{ '+', CL, ACT_ZOOM_IN, "+ -", "level", "open / close one more level of the dendrogram under the cursor" },
	{ '=', CL, ACT_ZOOM_IN, NULL, NULL, NULL },
	{ '-', CL, ACT_ZOOM_OUT, NULL, NULL, NULL },
	{ '0', CL, ACT_ZOOM_FIT, "0", NULL, "the default cut of the dendrogram" },
	{ TK_TAB, M, ACT_NEXT_VIEW, "Tab S-Tab", "view", "next / previous view" },
	{ TK_BTAB, M, ACT_PREV_VIEW, NULL, NULL, NULL },
	{ '1', M, ACT_VIEW_N, "1 .. 9", NULL, "logical physical overview regions evolution waits profile verdicts clusters" },
	{ '2', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ '3', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ '4', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ '5', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ '6', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ '7', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ '8', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ '9', M, ACT_VIEW_N, NULL, NULL, NULL },
	{ 'v', O, ACT_MARK, "v", "mark", "mark the start of a step range (Enter jumps there)" },
	{ 'L', RG, ACT_LATENCY, "L", "latency", "latency mode: colour regions and ranks by region latency" },
	{ TK_ENTER, L | P | O, ACT_ENTER, "Enter", "detail", "details of the event under the cursor (overview: jump)" },
	{ TK_ENTER, RG, ACT_ENTER, "Enter", "ranks", "show only the region's ranks in the other views (Esc: all)" },
	{ TK_ENTER, EV, ACT_ENTER, "Enter", "window", "set the other views to the window's time (physical: its span)" },
	{ TK_ENTER, W, ACT_ENTER, "Enter", "go", "logical view at the largest wait of the selected line" },
	{ TK_ENTER, F, ACT_ENTER, "Enter", "highlight", "search the selected region by exact name (highlights it)" },
	{ TK_ENTER, C, ACT_ENTER, "Enter", "physical", "physical timeline over the same time window" },
	{ TK_ENTER, DG, ACT_ENTER, "Enter", "fold", "fold / unfold the cursor rank's nodes (one line per node, with its edges)" },
	{ TK_ENTER, VD, ACT_ENTER, "Enter", "jump", "jump to the window (physical) or rank and step (logical) behind the line" },
	{ TK_ENTER, CL, ACT_ENTER, "Enter", "open", "open / close the dendrogram node under the cursor and select it" },
	{ '\n', M, ACT_ENTER, NULL, NULL, NULL },
	{ 's', F, ACT_SORT, "s", "sort", "sort by exclusive, inclusive, calls, imbalance (cycles)" },
	{ 'o', C, ACT_OPACITY, "o", "opacity", "log / linear opacity scaling of the density" },
	{ '[', DG | VD, ACT_WIN_PREV, "[ ]", "window", "previous / next time window" },
	{ ']', DG | VD, ACT_WIN_NEXT, NULL, NULL, NULL },
	{ 'r', DG, ACT_SCOPE, "r", "region", "next region (then all ranks)" },
	{ 'r', VD, ACT_SCOPE, "r", "scope", "next scope: the run, then each region" },
	{ TK_ESC, A, ACT_BACK, "Esc", NULL, "back; clears a mark, the selected ranks, a filter or rank set" },
	{ TK_BACKSPACE, D | H, ACT_BACK, NULL, NULL, NULL },
	{ '/', M, ACT_SEARCH, "/ n N", "search", "search region names (PCRE2); next / previous match" },
	{ 'n', M, ACT_NEXT, NULL, NULL, NULL },
	{ 'N', M, ACT_PREV, NULL, NULL, NULL },
	{ 'f', M, ACT_FILTER, "f", "filter", "keep ranks whose number, node or regions match a regex" },
	{ 'm', L | P | O | D, ACT_METRIC, "m", "metric", "next metric: lateness, global, differential, duration" },
	{ 'm', CL, ACT_METRIC, "m", "metric", "next metric; the phase is clustered again on it" },
	{ 'c', CL, ACT_FOCUS_MAX, "c C", "focus", "focus ranks around the cluster's max-metric rank / its centroid" },
	{ 'C', CL, ACT_FOCUS_CENTROID, NULL, NULL, NULL },
	{ 'a', L | O | CL, ACT_AGG, "a", "agg", "show / hide aggregate (non-communication) steps" },
	{ 'o', L | P | O | CL, ACT_ORIGIN, "o", "origin", "next origin: where a delay started (root causes by the waiting they caused)" },
	{ ':', M, ACT_COMMAND, ":", "cmd", ":step N  :rank R  :metric M  :theme T  :view V  :q" },
	{ TK_CTRL_L, A, ACT_REDRAW, "C-l", NULL, "redraw the screen" },
};
const size_t tc_nkeymap = TC_NELEM(tc_keymap);

const struct tc_keybind *keymap_find(int key, enum tc_view_id view)
{
	for (size_t i = 0; i < tc_nkeymap; i++)
		if (tc_keymap[i].key == key && (tc_keymap[i].views & TC_VM(view))) return &tc_keymap[i];
	return NULL;
}

/* The key of a binding as shown in the bar: the first word of keyname. */
static void first_key(const struct tc_keybind *b, char *buf, size_t n)
{
	const char *k = b->keyname;
	size_t len = strcspn(k, " ");
	if (len >= n) len = n - 1;
	memcpy(buf, k, len);
	buf[len] = 0;
}

void keymap_hints(struct tc_grid *g, int y, enum tc_view_id view)
{
	grid_fill(g, 0, y, g->w, 1, ' ', TC_R_HINT);
	int x = 0;
	for (size_t i = 0; i < tc_nkeymap; i++) {
		const struct tc_keybind *b = &tc_keymap[i];
		if (!b->hint || !b->keyname || !(b->views & TC_VM(view))) continue;
		char k[16];
		first_key(b, k, sizeof k);
		int need = (int)strlen(k) + 1 + (int)strlen(b->hint);
		if (x + need > g->w) break;
		x += grid_text(g, x, y, g->w - x, TC_R_HINT_KEY, k);
		x += grid_text(g, x, y, g->w - x, TC_R_HINT, ":");
		x += grid_text(g, x, y, g->w - x, TC_R_HINT, b->hint);
		if (x < g->w) x++;
	}
}

size_t keymap_help(enum tc_view_id view, char ***lines)
{
	VEC(char *) v = { 0 };
	for (size_t i = 0; i < tc_nkeymap; i++) {
		const struct tc_keybind *b = &tc_keymap[i];
		if (!b->keyname || !(b->views & TC_VM(view))) continue;
		VEC_PUSH(v, xasprintf("%-16s %s", b->keyname, b->help));
	}
	*lines = v.a;
	return v.n;
}
