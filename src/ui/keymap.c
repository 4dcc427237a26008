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
#define MX TC_VM(TC_V_MATRIX)
#define MT (M & ~RG & ~X)   /* main views whose h/l move along steps, time, windows or levels */
#define M TC_VM_MAIN
#define A TC_VM_ALL

const struct tc_keybind tc_keymap[] = {
	{ '?', M | D, ACT_HELP, "?  F1", "help", "this help (keys of the current view)", 1 },
	{ TK_F1, M | D, ACT_HELP, NULL, NULL, NULL, 0 },
	{ 'q', M, ACT_QUIT, "q", "quit", "quit", 2 },
	{ 'q', D | H, ACT_BACK, "q", "back", "back to the view it was opened from", 2 },
	{ 'Q', A, ACT_QUIT, "Q", NULL, "quit at once", 0 },
	{ 'j', A, ACT_DOWN, "j k  Down Up", NULL, "next/previous rank, region, line, node (help, detail: scroll)", 0 },
	{ TK_DOWN, A, ACT_DOWN, NULL, NULL, NULL, 0 },
	{ 'k', A, ACT_UP, NULL, NULL, NULL, 0 },
	{ TK_UP, A, ACT_UP, NULL, NULL, NULL, 0 },
	{ 'h', MT, ACT_LEFT, "h l  Left Right", "move", "previous / next step (physical: time; evolution, verdicts: window; dag: node)", 0 },
	{ TK_LEFT, MT, ACT_LEFT, NULL, NULL, NULL, 0 },
	{ 'l', MT, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ TK_RIGHT, MT, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ 'h', W, ACT_LEFT, "h l  Left Right", "section", "previous / next section (patterns, causing, waiting)", 0 },
	{ TK_LEFT, W, ACT_LEFT, NULL, NULL, NULL, 0 },
	{ 'l', W, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ TK_RIGHT, W, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ 'h', C, ACT_LEFT, "h l  Left Right", "pan", "pan the time window by an eighth (moves the cursor time)", 0 },
	{ TK_LEFT, C, ACT_LEFT, NULL, NULL, NULL, 0 },
	{ 'l', C, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ TK_RIGHT, C, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ TK_PGDN, A, ACT_PGDN, "PgDn PgUp", NULL, "one page down / up", 0 },
	{ ' ', A, ACT_PGDN, NULL, NULL, NULL, 0 },
	{ TK_PGUP, A, ACT_PGUP, NULL, NULL, NULL, 0 },
	{ 'b', MX, ACT_METRIC, "b", "bytes/msgs", "shade by bytes or by messages (toggles)", 0 },
	{ 'b', A & ~MX, ACT_PGUP, NULL, NULL, NULL, 0 },   /* matrix: b toggles bytes / messages */
	{ 'g', A, ACT_TOP, "g G", NULL, "first / last rank, region, line or tree node", 0 },
	{ 'G', A, ACT_BOTTOM, NULL, NULL, NULL, 0 },
	{ TK_HOME, MT | C, ACT_FIRST, "Home End", NULL, "first / last step, time (physical, calls), window or level", 0 },
	{ TK_END, MT | C, ACT_LAST, NULL, NULL, NULL, 0 },
	{ '+', L | P | O | C, ACT_ZOOM_IN, "+ -", "zoom", "zoom in / out (steps or time)", 0 },
	{ '=', L | P | O | C, ACT_ZOOM_IN, NULL, NULL, NULL, 0 },
	{ '-', L | P | O | C, ACT_ZOOM_OUT, NULL, NULL, NULL, 0 },
	{ '>', L, ACT_RANKS_IN, "> <", NULL, "fewer / more ranks per row", 0 },
	{ '<', L, ACT_RANKS_OUT, NULL, NULL, NULL, 0 },
	{ '0', L | P | O | C, ACT_ZOOM_FIT, "0", NULL, "fit the whole trace", 0 },
	{ '+', CL, ACT_ZOOM_IN, "+ -", "level", "open / close one more level of the dendrogram under the cursor", 0 },
	{ '=', CL, ACT_ZOOM_IN, NULL, NULL, NULL, 0 },
	{ '-', CL, ACT_ZOOM_OUT, NULL, NULL, NULL, 0 },
	{ '0', CL, ACT_ZOOM_FIT, "0", NULL, "the default cut of the dendrogram", 0 },
	{ TK_TAB, M, ACT_NEXT_VIEW, "Tab S-Tab", "view", "next / previous view", 8 },
	{ TK_BTAB, M, ACT_PREV_VIEW, NULL, NULL, NULL, 0 },
	{ '1', M, ACT_VIEW_N, "1 .. 9", NULL, "logical physical overview regions evolution waits profile verdicts clusters", 0 },
	{ '2', M, ACT_VIEW_N, NULL, NULL, NULL, 0 },
	{ '3', M, ACT_VIEW_N, NULL, NULL, NULL, 0 },
	{ '4', M, ACT_VIEW_N, NULL, NULL, NULL, 0 },
	{ '5', M, ACT_VIEW_N, NULL, NULL, NULL, 0 },
	{ '6', M, ACT_VIEW_N, NULL, NULL, NULL, 0 },
	{ '7', M, ACT_VIEW_N, NULL, NULL, NULL, 0 },
	{ '8', M, ACT_VIEW_N, "8", "verdicts", "the verdicts: why the run is slow", 4 },
	{ '9', M, ACT_VIEW_N, NULL, NULL, NULL, 0 },
	{ 'v', O, ACT_MARK, "v", "mark", "mark the start of a step range (Enter jumps there)", 0 },
	{ 'L', RG, ACT_LATENCY, "L", "latency", "latency mode: colour regions and ranks by region latency", 0 },
	{ TK_ENTER, L | P | O, ACT_ENTER, "Enter", "detail", "details of the event under the cursor (overview: jump)", 5 },
	{ TK_ENTER, RG, ACT_ENTER, "Enter", "ranks", "show only the region's ranks in the other views (Esc: all)", 5 },
	{ TK_ENTER, EV, ACT_ENTER, "Enter", "window", "set the other views to the window's time (physical: its span)", 5 },
	{ TK_ENTER, W, ACT_ENTER, "Enter", "go", "logical view at the largest wait of the selected line", 5 },
	{ TK_ENTER, F, ACT_ENTER, "Enter", "highlight", "search the selected region by exact name (highlights it)", 5 },
	{ TK_ENTER, C, ACT_ENTER, "Enter", "physical", "physical timeline over the same time window", 5 },
	{ TK_ENTER, DG, ACT_ENTER, "Enter", "fold", "fold / unfold the cursor rank's nodes (one line per node, with its edges)", 5 },
	{ TK_ENTER, VD, ACT_ENTER, "Enter", "jump", "jump to the window (physical) or rank and step (logical) behind the line", 5 },
	{ TK_ENTER, MX, ACT_ENTER, "Enter", "pair", "show only the cell's ranks (sender and receiver) in the other views (Esc: all)", 5 },
	{ TK_ENTER, CL, ACT_ENTER, "Enter", "open", "open / close the dendrogram node under the cursor and select it", 5 },
	{ '\n', M, ACT_ENTER, NULL, NULL, NULL, 0 },
	{ 's', F, ACT_SORT, "s", "sort", "sort by exclusive, inclusive, calls, imbalance (cycles); table: by the cursor column (again: reverse)", 0 },
	{ 't', F, ACT_TABLE, "t", "table", "per-rank x function table, then rank statistics, then the flat profile (cycles)", 0 },
	{ 'm', F, ACT_METRIC, "m", NULL, "table: exclusive time, inclusive time, calls (cycles)", 0 },
	{ 'w', F, ACT_WHO, "w", "rank/loc", "table columns per rank (threads and streams summed) or per location", 0 },
	{ 'h', F, ACT_LEFT, "h l  Left Right", NULL, "table: the column cursor (s sorts by it)", 0 },
	{ TK_LEFT, F, ACT_LEFT, NULL, NULL, NULL, 0 },
	{ 'l', F, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ TK_RIGHT, F, ACT_RIGHT, NULL, NULL, NULL, 0 },
	{ 'o', C, ACT_OPACITY, "o", "opacity", "log / linear opacity scaling of the density", 0 },
	{ '[', DG | VD, ACT_WIN_PREV, "[ ]", "window", "previous / next time window", 0 },
	{ ']', DG | VD, ACT_WIN_NEXT, NULL, NULL, NULL, 0 },
	{ 'r', DG, ACT_SCOPE, "r", "region", "next region (then all ranks)", 0 },
	{ 'r', VD, ACT_SCOPE, "r", "scope", "next scope: the run, then each region", 0 },
	{ TK_ESC, A, ACT_BACK, "Esc", NULL, "back: to where you were before a jump (Enter, o, search), else clears a mark, the selected ranks, a filter or rank set", 0 },
	{ TK_BACKSPACE, A, ACT_BACK, NULL, NULL, NULL, 0 },
	{ '/', M, ACT_SEARCH, "/ n N", "search", "search region names (PCRE2); next / previous match", 6 },
	{ 'n', M, ACT_NEXT, NULL, NULL, NULL, 0 },
	{ 'N', M, ACT_PREV, NULL, NULL, NULL, 0 },
	{ 'f', M, ACT_FILTER, "f", "filter", "keep ranks whose number, node or regions match a regex", 7 },
	{ 'm', L | P | O | D, ACT_METRIC, "m", "metric", "next metric: lateness, global, differential, duration", 0 },
	{ 'm', CL, ACT_METRIC, "m", "metric", "next metric; the phase is clustered again on it", 0 },
	{ 'c', CL, ACT_FOCUS_MAX, "c C", "focus", "focus ranks around the cluster's max-metric rank / its centroid", 0 },
	{ 'C', CL, ACT_FOCUS_CENTROID, NULL, NULL, NULL, 0 },
	{ 'a', L | O | CL, ACT_AGG, "a", "agg", "show / hide aggregate (non-communication) steps", 0 },
	{ 'c', P, ACT_PATH, "c", "path", "critical path on/off: its pieces underlined in the rows they run on", 0 },
	{ 'e', P, ACT_EXPAND, "e E", "threads", "open / close the cursor rank into its threads and streams; E: every rank", 0 },
	{ 'E', P, ACT_EXPAND_ALL, NULL, NULL, NULL, 0 },
	{ '#', P, ACT_COUNTER, "#", "counter", "next counter (METRIC) drawn per rank under the rows; after the last: off", 0 },
	{ 'o', L | P | O | CL | VD | W, ACT_ORIGIN, "o", "origin",
	  "next origin: a root cause, by the waiting it caused (verdicts, wait states: shown in the logical view)", 3 },
	{ 'p', L | P | D, ACT_PARTNER, "p", "partner", "the cursor to the event's message partner / next collective peer (again: the next; Esc: back)", 0 },
	{ 'M', M, ACT_SET_MARK, "M ' a-z", NULL, "M + letter marks the place (view, rank, step, time); ' + letter returns (kept per trace)", 0 },
	{ '\'', M, ACT_GOTO_MARK, NULL, NULL, NULL, 0 },
	{ ':', M, ACT_COMMAND, ":", "cmd", ":step N  :rank R  :metric M  :theme T  :view V  :write F  :csv F  :q", 0 },
	{ TK_CTRL_L, A, ACT_REDRAW, "C-l", NULL, "redraw the screen", 0 },
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

/* The key bar: hints are chosen by rank (lower first, 0 last, then table order)
 * while they fit, and drawn in table order, so the important keys survive a
 * narrow terminal. */
void keymap_hints(struct tc_grid *g, int y, enum tc_view_id view)
{
	grid_fill(g, 0, y, g->w, 1, ' ', TC_R_HINT);
	bool *take = xcalloc(tc_nkeymap + 1, sizeof *take);
	int used = 0;
	for (int pass = 1; pass <= 100; pass++)
		for (size_t i = 0; i < tc_nkeymap; i++) {
			const struct tc_keybind *b = &tc_keymap[i];
			int rank = b->rank ? b->rank : 100;
			if (rank != pass || !b->hint || !b->keyname || !(b->views & TC_VM(view))) continue;
			char k[16];
			first_key(b, k, sizeof k);
			int need = (int)strlen(k) + 1 + (int)strlen(b->hint) + 1;
			if (used + need - 1 > g->w) continue;
			take[i] = true;
			used += need;
		}
	int x = 0;
	for (size_t i = 0; i < tc_nkeymap; i++) {
		if (!take[i]) continue;
		const struct tc_keybind *b = &tc_keymap[i];
		char k[16];
		first_key(b, k, sizeof k);
		x += grid_text(g, x, y, g->w - x, TC_R_HINT_KEY, k);
		x += grid_text(g, x, y, g->w - x, TC_R_HINT, ":");
		x += grid_text(g, x, y, g->w - x, TC_R_HINT, b->hint);
		if (x < g->w) x++;
	}
	free(take);
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
