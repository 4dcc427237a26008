/* ui.h — the one internal header of the terminal UI (layer 5).
 *
 * Views draw into a cell grid (struct tc_grid) that knows nothing about
 * curses; src/ui/term.c is the only file that includes curses and copies a
 * grid to the screen.  `tracecomb render` prints the same grid as text.
 * Colours are named roles (X-macro below); a theme maps roles to colours. */
#ifndef TC_UI_H
#define TC_UI_H

#include "analysis_steps.h"
#include "analysis_origins.h"
#include "session.h"
#include "util.h"

/* --- colour roles ------------------------------------------------------------
 * X(ENUM, "yaml-name", dark fg, dark bg, attrs, mono attrs)
 * Colours are "#rrggbb", a name or "" (terminal default). */
#define TC_ROLES(X)                                                                  \
	X(NORMAL, "normal", "", "", 0, 0)                                            \
	X(TITLE, "title", "#ffffff", "#005f87", TC_A_BOLD, TC_A_REVERSE)             \
	X(STATUS, "status", "#d0d0d0", "#303030", 0, TC_A_REVERSE)                   \
	X(HINT, "hint", "#a8a8a8", "#1c1c1c", 0, 0)                                  \
	X(HINT_KEY, "hint_key", "#ffd75f", "#1c1c1c", TC_A_BOLD, TC_A_BOLD)          \
	X(MESSAGE, "message", "#87d7ff", "", 0, 0)                                   \
	X(ERROR, "error", "#ffffff", "#af0000", TC_A_BOLD, TC_A_BOLD | TC_A_REVERSE) \
	X(CURSOR, "cursor", "#000000", "#ffff5f", TC_A_BOLD, TC_A_REVERSE)           \
	X(SELECTION, "selection", "#ffffff", "#5f5faf", 0, TC_A_UNDERLINE)           \
	X(PARTNER, "partner", "#000000", "#5fffaf", TC_A_BOLD, TC_A_BOLD | TC_A_UNDERLINE) \
	X(MATCH, "match", "#000000", "#ff87ff", TC_A_BOLD, TC_A_BOLD | TC_A_UNDERLINE) \
	X(PATH, "critical_path", "#ffffff", "#875fd7", TC_A_BOLD | TC_A_UNDERLINE, TC_A_BOLD | TC_A_UNDERLINE) \
	X(AXIS, "axis", "#8a8a8a", "", 0, 0)                                         \
	X(LABEL, "label", "#bcbcbc", "", 0, 0)                                       \
	X(INACTIVE, "inactive", "#3a3a3a", "", 0, 0)                                 \
	X(SEND, "send", "#000000", "#87afff", 0, 0)                                  \
	X(RECV, "receive", "#000000", "#afd787", 0, 0)                               \
	X(COLL, "collective", "#000000", "#d7afff", 0, 0)                            \
	X(AGG, "aggregate", "#6c6c6c", "", 0, TC_A_DIM)                              \
	X(MPI, "mpi", "#000000", "#5fafaf", 0, TC_A_BOLD)                            \
	X(DEPTH0, "depth0", "#bcbcbc", "#3a3a3a", 0, 0)                              \
	X(DEPTH1, "depth1", "#bcbcbc", "#4e4e4e", 0, 0)                              \
	X(DEPTH2, "depth2", "#000000", "#626262", 0, 0)                              \
	X(DEPTH3, "depth3", "#000000", "#808080", 0, 0)                              \
	X(BAR, "bar", "#5fafd7", "", 0, 0)                                           \
	X(MAP0, "map0", "#000000", "#add8e6", 0, TC_A_DIM)                           \
	X(MAP1, "map1", "#000000", "#c3dcc4", 0, TC_A_DIM)                           \
	X(MAP2, "map2", "#000000", "#d9e0a3", 0, 0)                                  \
	X(MAP3, "map3", "#000000", "#efe48e", 0, 0)                                  \
	X(MAP4, "map4", "#000000", "#e6be79", 0, TC_A_BOLD)                          \
	X(MAP5, "map5", "#000000", "#d88b5f", 0, TC_A_BOLD | TC_A_UNDERLINE)         \
	X(MAP6, "map6", "#ffffff", "#c65a45", 0, TC_A_REVERSE)                       \
	X(MAP7, "map7", "#ffffff", "#b22222", TC_A_BOLD, TC_A_REVERSE | TC_A_BOLD)   \
	X(HELP_KEY, "help_key", "#ffd75f", "", TC_A_BOLD, TC_A_BOLD)                 \
	X(HEADING, "heading", "#87d7ff", "", TC_A_BOLD, TC_A_BOLD | TC_A_UNDERLINE) \
	X(GPU_KERNEL, "gpu_kernel", "#000000", "#d75fd7", 0, TC_A_BOLD)               \
	X(GPU_MEMCPY, "gpu_memcpy", "#000000", "#d7af5f", 0, TC_A_UNDERLINE)          \
	X(OPENMP, "openmp", "#000000", "#87af87", 0, 0)                              \
	X(COUNTER, "counter", "#87d787", "", 0, 0)

#define TC_A_BOLD 0x1
#define TC_A_REVERSE 0x2
#define TC_A_UNDERLINE 0x4
#define TC_A_DIM 0x8
#define TC_A_SOLID 0x10   /* cell attr: foreground colour = the fg role's background colour */

enum tc_role {
#define TC_ROLE_ENUM(e, n, fg, bg, a, m) TC_R_##e,
	TC_ROLES(TC_ROLE_ENUM)
#undef TC_ROLE_ENUM
	TC_R_COUNT
};
#define TC_NMAP 8
extern const char *const tc_role_names[TC_R_COUNT];

/* --- cell grid ------------------------------------------------------------ */
struct tc_cell {
	uint32_t ch;    /* Unicode code point (ASCII only in ascii grids) */
	uint8_t fg;     /* role giving the foreground colour and the attributes */
	uint8_t bg;     /* role giving the background colour */
	uint8_t attr;   /* TC_A_* added to the role's */
};
struct tc_grid {
	int w, h;
	bool ascii;     /* only 7-bit glyphs */
	struct tc_cell *c;
};

enum tc_glyph {
	TC_G_SEND, TC_G_RECV, TC_G_SENDRECV, TC_G_COLL, TC_G_AGG, TC_G_EMPTY, TC_G_DENSE,
	TC_G_HLINE, TC_G_VLINE, TC_G_TICK, TC_G_ELLIPSIS, TC_G_MARK, TC_G_OTHER_MPI,
	TC_G_SHADE1, TC_G_SHADE2, TC_G_SHADE3, TC_G_FULL,
	TC_G_COUNT
};

void grid_init(struct tc_grid *g, int w, int h, bool ascii);
void grid_resize(struct tc_grid *g, int w, int h);
void grid_free(struct tc_grid *g);
void grid_clear(struct tc_grid *g, enum tc_role bg);
struct tc_cell *grid_at(struct tc_grid *g, int x, int y);  /* NULL outside */
void grid_put(struct tc_grid *g, int x, int y, uint32_t ch, enum tc_role fg, enum tc_role bg, uint8_t attr);
/* Role r for both fg and bg. */
void grid_putr(struct tc_grid *g, int x, int y, uint32_t ch, enum tc_role r);
void grid_fill(struct tc_grid *g, int x, int y, int w, int h, uint32_t ch, enum tc_role r);
/* UTF-8 text, clipped to maxw columns; returns columns used.  Characters
 * that are not one column wide (or not ASCII in an ascii grid) become '?'. */
int grid_text(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *s);
int grid_printf(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *fmt, ...) TC_PRINTF(6, 7);
/* Characters (columns) of UTF-8 text. */
size_t grid_text_len(const char *s);
/* grid_text, but text longer than maxw ends at a word boundary with an ellipsis (…, "~" in ASCII). */
int grid_text_elide(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *s);
/* head then the first of the ntails tails (longest first) that fits whole
 * beside at least min_head columns of head (or the last), head cut ("…")
 * when the two do not fit; when even that does not, the two cut as one text. */
int grid_text_tail(struct tc_grid *g, int x, int y, int maxw, enum tc_role r, const char *head,
		   const char *const *tails, int ntails, int min_head);
uint32_t grid_glyph(const struct tc_grid *g, enum tc_glyph gl);
/* Eighth blocks: left_eighth(n) fills n/8 of the cell from the left, lower_eighth from the bottom (1..8). */
uint32_t grid_left_eighth(const struct tc_grid *g, int n);
uint32_t grid_lower_eighth(const struct tc_grid *g, int n);
/* Plain text, one line per row, trailing blanks trimmed. */
void grid_write_text(const struct tc_grid *g, FILE *f);

/* --- themes --------------------------------------------------------------- */
struct tc_color {
	uint8_t kind;   /* TC_COL_DEFAULT, TC_COL_RGB, TC_COL_INDEX */
	uint8_t r, g, b;
	uint8_t index;  /* 0..255 for TC_COL_INDEX */
};
enum { TC_COL_DEFAULT = 0, TC_COL_RGB, TC_COL_INDEX };
struct tc_style {
	struct tc_color fg, bg;
	uint8_t attr;   /* with colour */
	uint8_t mono;   /* without colour */
};
struct tc_theme {
	char name[64];
	bool monochrome;
	struct tc_style role[TC_R_COUNT];
};
/* The compiled-in default (dark) theme. */
void theme_builtin(struct tc_theme *th);
/* Parse YAML text; `where` names it in messages.  On error: false and *err =
 * "where:line:col: problem" (the theme is left as the built-in default). */
bool theme_parse(struct tc_theme *th, const char *text, size_t len, const char *where, char **err);
bool theme_load_file(struct tc_theme *th, const char *path, char **err);
/* NAME (searched in ./themes, then TC_DATADIR/themes; "default" is built in) or a PATH. */
bool theme_load(struct tc_theme *th, const char *spec, char **err);
/* Colour helpers: nearest xterm-256 index, nearest of the first n (8 or 16) ANSI colours. */
int color_to_256(const struct tc_color *c);
int color_to_ansi(const struct tc_color *c, int n);
void color_rgb(const struct tc_color *c, uint8_t rgb[3]);

/* --- regular expressions (PCRE2) ------------------------------------------- */
struct tc_regex;
/* NULL on error with *err = message and *erroff = offset in pat. */
struct tc_regex *regex_new(const char *pat, bool utf8, char **err, size_t *erroff);
bool regex_match(struct tc_regex *re, const char *s);
void regex_free(struct tc_regex *re);
/* "PCRE2 error at offset N: message\n  pattern\n  ^" for the command line. */
char *regex_error_text(const char *pat, const char *msg, size_t off);

/* --- keys ------------------------------------------------------------------ */
enum tc_key {
	TK_NONE = 0,
	TK_ESC = 27, TK_ENTER = '\r', TK_TAB = '\t', TK_BACKSPACE = 127, TK_CTRL_L = 12,
	TK_UP = 0x110000, TK_DOWN, TK_LEFT, TK_RIGHT, TK_PGUP, TK_PGDN, TK_HOME, TK_END,
	TK_BTAB, TK_F1, TK_RESIZE, TK_DELETE, TK_INTERRUPT,
	TK_MOUSE   /* a mouse event: term_mouse() says which (docs/tui.md, "Mouse") */
};
/* A mouse event at screen cell (x, y), 0-based: a button-1 click or a wheel notch;
 * ctrl: Ctrl was held (the wheel then zooms). */
enum tc_mouse_kind { TC_MOUSE_CLICK, TC_MOUSE_WHEEL_UP, TC_MOUSE_WHEEL_DOWN };
struct tc_mouse { int x, y; enum tc_mouse_kind kind; bool ctrl; };
enum tc_action {
	ACT_NONE, ACT_QUIT, ACT_DOWN, ACT_UP, ACT_LEFT, ACT_RIGHT, ACT_PGDN, ACT_PGUP, ACT_TOP, ACT_BOTTOM,
	ACT_FIRST, ACT_LAST, ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_ZOOM_FIT, ACT_RANKS_IN, ACT_RANKS_OUT,
	ACT_NEXT_VIEW, ACT_PREV_VIEW, ACT_VIEW_N, ACT_ENTER, ACT_BACK, ACT_SEARCH, ACT_NEXT, ACT_PREV,
	ACT_FILTER, ACT_METRIC, ACT_AGG, ACT_COMMAND, ACT_HELP, ACT_MARK, ACT_REDRAW, ACT_ORIGIN, ACT_LATENCY,
	ACT_SORT, ACT_OPACITY,   /* profile: next sort key; calls: log / linear opacity */
	ACT_WIN_PREV, ACT_WIN_NEXT, ACT_SCOPE,   /* dag, verdicts: [ ] time window, r region / scope */
	ACT_FOCUS_MAX, ACT_FOCUS_CENTROID,   /* clusters: refocus on the cluster's max rank / centroid */
	ACT_SET_MARK, ACT_GOTO_MARK,         /* M / ' + letter (src/ui/marks.c) */
	ACT_PARTNER,                         /* the cursor to the next message partner / collective peer */
	ACT_PATH,                            /* physical: the critical path on / off (docs/rootcause.md) */
	ACT_EXPAND, ACT_EXPAND_ALL,          /* physical: the cursor rank's threads and streams as rows / all ranks' */
	ACT_COUNTER,                         /* physical: the next counter (METRIC) drawn under the timeline */
	ACT_TABLE, ACT_WHO,                  /* profile: flat / per-rank table / rank statistics; per rank / per location */
	ACT_COUNT
};
enum tc_view_id {
	TC_V_LOGICAL, TC_V_PHYSICAL, TC_V_OVERVIEW, TC_V_DETAIL, TC_V_HELP, TC_V_REGIONS, TC_V_EVOLUTION,
	TC_V_WAITSTATES, TC_V_PROFILE, TC_V_CALLS, TC_V_DAG, TC_V_VERDICTS,
	TC_V_CLUSTERS, TC_V_MATRIX,
	TC_V_COUNT
};
#define TC_VM(v) (1u << (v))
#define TC_VM_EXTRA (TC_VM(TC_V_WAITSTATES) | TC_VM(TC_V_PROFILE) | TC_VM(TC_V_CALLS))
#define TC_VM_ALL ((1u << TC_V_COUNT) - 1)
/* every main view: all but the detail pane and the help screen */
#define TC_VM_MAIN (TC_VM_ALL & ~(TC_VM(TC_V_DETAIL) | TC_VM(TC_V_HELP)))

struct tc_keybind {
	int key;           /* enum tc_key or a character */
	unsigned views;    /* TC_VM mask */
	enum tc_action act;
	const char *keyname;  /* shown in help; NULL: same line as the previous binding */
	const char *hint;     /* short label for the key bar, NULL: not in the bar */
	const char *help;     /* one line for the help screen */
	int rank;             /* key bar: hints with a lower rank stay when the bar is short (0: last) */
};
extern const struct tc_keybind tc_keymap[];
extern const size_t tc_nkeymap;
/* The binding for key in view (NULL if none). */
const struct tc_keybind *keymap_find(int key, enum tc_view_id view);
/* The key bar for a view, "key label  key label ...", clipped to width. */
void keymap_hints(struct tc_grid *g, int y, enum tc_view_id view);
/* Help lines of a view: "keys  text" pairs (caller frees the vector's strings). */
size_t keymap_help(enum tc_view_id view, char ***lines);

/* --- logical-view summary ----------------------------------------------------
 * Built once per (metric, aggregate on/off) in O(events); afterwards a view
 * cell covering any block of ranks × columns is answered from per-rank block
 * maxima or a 2-D tile pyramid, so a frame costs O(screen), not O(events).
 * Columns ("x units"): with aggregates x = step + 1 (x 0 is the aggregate
 * block at step −1); without them x = step / 2. */
#define TC_F_SEND 0x1
#define TC_F_RECV 0x2
#define TC_F_COLL 0x4
#define TC_F_AGG 0x8
struct tc_cellsum { float v; uint8_t f; };
struct tc_lsum {
	const struct tc_steps *st;
	enum tc_metric metric;
	bool agg;
	uint32_t nranks;
	uint32_t nx;              /* x units */
	double vmax;              /* largest value (colour range is [0, vmax]) */
	/* per rank: leaves are its cevs (and their aggregate blocks) in step order */
	uint32_t *b1_first, *b2_first;   /* nranks+1 offsets into b1, b2 */
	struct tc_cellsum *b1, *b2;      /* maxima of 8 and 1024 consecutive leaves */
	/* tile pyramid: level 0 tiles are (1 << rs) ranks × (1 << xs) x units */
	int rs, xs, nlevels;
	uint32_t tw[24], th[24];         /* tiles per level (columns, rows) */
	struct tc_cellsum *tiles[24];
	double *xsum;                    /* prefix sums of the metric per x unit (nx+1) */
	float *leafv;                    /* every leaf's value, rank by rank (a frame's edge leaves
	                                    read here, not through the model's calls) */
	bool borrowed;                   /* the arrays are the cache's bytes (lsum_unpack): read
	                                    only, not freed here; the session, whose mapping they
	                                    are in, is freed after the summary */
};
struct tc_lsum *lsum_build(const struct tc_steps *st, enum tc_metric m, bool agg);
void lsum_free(struct tc_lsum *s);
/* The summary as bytes for the analysis cache (appended to out), and back:
 * NULL when the bytes do not fit st (other steps, truncated).  Unpacked from
 * 8-byte aligned bytes, the summary's arrays are those bytes (borrowed). */
void lsum_pack(const struct tc_lsum *s, struct strbuf *out);
struct tc_lsum *lsum_unpack(const void *blob, size_t len, const struct tc_steps *st);
/* The name of the lateness summary's blob in the cache (the first frame's). */
#define LSUM_CACHE_BLOB "ui.lsum.lateness.agg"
/* Summary of ranks [r0, r1) × x units [x0, x1); exact when the block covers few ranks. */
struct tc_cellsum lsum_query(const struct tc_lsum *s, uint32_t r0, uint32_t r1, uint32_t x0, uint32_t x1);
/* Metric summed over x units [x0, x1) over all ranks. */
double lsum_xsum(const struct tc_lsum *s, uint32_t x0, uint32_t x1);
/* The same prefix sums (nx + 1, caller frees) over ranks[0..n) only: O(their events). */
double *lsum_xsum_ranks(const struct tc_lsum *s, const uint32_t *ranks, uint32_t n);
static inline uint32_t lsum_x_of_step(bool agg, int64_t step) { return agg ? (uint32_t)(step + 1) : (uint32_t)(step / 2); }
static inline int64_t lsum_step_of_x(bool agg, uint32_t x) { return agg ? (int64_t)x - 1 : (int64_t)x * 2; }

/* --- bands: items over cells at any ratio (src/ui/band.c) ------------------------
 * span items from first shown on cells cells: cell i covers [band_lo, band_hi),
 * at least one item; band_find is the first cell showing item (-1: not shown). */
struct tc_band { uint32_t first, span; int cells; };
uint32_t band_lo(const struct tc_band *b, int i);
uint32_t band_hi(const struct tc_band *b, int i);
int band_find(const struct tc_band *b, uint32_t item);

/* --- application state -------------------------------------------------------- */
struct tc_app;
struct tc_rect { int x, y, w, h; };
struct view {
	const char *name;
	enum tc_view_id id;
	int min_w, min_h;     /* smallest area it can draw in */
	void (*draw)(struct tc_app *a, struct tc_grid *g, struct tc_rect r);
	/* act is the keymap's action for key (ACT_NONE when unbound); true if handled */
	bool (*key)(struct tc_app *a, int key, enum tc_action act);
	const char *const *help;  /* lines about the view, NULL-terminated */
	/* releases what the view keeps in the app (caches); NULL if nothing; app_free calls it */
	void (*free_state)(struct tc_app *a);
	/* `:csv FILE`: the view's table as CSV with a header line; NULL: the view has no table */
	void (*csv)(struct tc_app *a, FILE *f);
	bool filtered;        /* draws only the visible ranks (else the title says "all ranks") */
	/* slow data (src/ui/job.c): ready says whether the session has what draw needs,
	 * prepare computes it (in a worker thread); both NULL: nothing slow */
	bool (*ready)(const struct tc_session *s);
	void (*prepare)(struct tc_session *s);
	/* a click at screen cell (x, y) inside r, the area draw was last given: moves the
	 * cursor or selection there; true if handled.  NULL: clicks are ignored (the wheel
	 * works in every view through its keys, app_mouse) */
	bool (*click)(struct tc_app *a, struct tc_rect r, int x, int y);
};
extern const struct view view_logical, view_physical, view_overview, view_detail, view_help;
extern const struct view view_regions, view_evolution;
extern const struct view view_waitstates, view_profile, view_calls;
extern const struct view view_dag, view_verdicts;
extern const struct view view_clusters, view_matrix;
/* The main views in Tab order (src/ui/views/registry.c). */
extern const struct view *const tc_main_views[];
extern const size_t tc_nmain_views;
const struct view *view_find(const char *name);          /* a main view by name, NULL if none */
void view_names(struct strbuf *b, const char *sep);      /* "logical|physical|..." */

/* What the regions and evolution views draw from (src/ui/views/regions.c),
 * built on first use from session_latency(): O(regions log regions + messages). */
#define TC_LATV_TOP 16
struct tc_latview {
	const struct tc_latency *lat;
	uint32_t *order;          /* all regions by RL, highest first (regions without inside messages last) */
	uint32_t nwith;           /* regions with inside messages: order[0 .. nwith) */
	double rl_min, rl_max;    /* smallest and largest RL (0 when none) */
	double l_max;             /* largest window mean L (all messages and every region) */
	uint32_t ntop;            /* regions in the traffic matrix (most crossing messages), by id */
	uint32_t top[TC_LATV_TOP];
	uint64_t *matrix;         /* nregions × TC_LATV_TOP: messages from region i to top[j] */
	uint64_t matrix_max;      /* largest count off the diagonal */
};
struct tc_latview *latview_build(const struct tc_latency *lat);
void latview_free(struct tc_latview *v);

struct tc_app {
	struct tc_session *sess;
	const struct tc_trace *t;
	const struct tc_steps *st;
	struct tc_lsum *sums[TC_M_COUNT][2];   /* cache by (metric, agg) */
	bool sum_pending;    /* a summary for a metric / aggregate change is built in the worker (sumswitch.c) */
	const char *trace_name;
	bool utf8;
	bool color;          /* colours reach the screen (else glyphs and attributes carry everything) */

	/* shared cursor and selection */
	uint32_t rank;
	int64_t step;        /* -1 ..= max_step */
	uint64_t time;       /* ticks */
	bool sel;            /* a step range is selected */
	int64_t sel_s0, sel_s1;
	enum tc_metric metric;
	bool show_agg;

	/* visible ranks (filter or rank set, app_set_rank_set) */
	uint32_t *vis;       /* visible rank list */
	uint32_t nvis;
	char *filter;        /* what restricts vis (a pattern, "region 3"), shown as f:...; NULL: all ranks */
	char *search;        /* pattern or NULL */
	struct tc_regex *search_re;
	uint8_t *region_match;   /* per region: matches the search */
	struct tc_hit { uint64_t time; uint32_t rank; int64_t step; } *hits;   /* search hits by time (app.c) */
	size_t nhits;
	uint32_t hits_gen;   /* vis_gen they were found for */

	/* view ports */
	/* logical: first row (index into vis), first x unit, x units per column, ranks per row;
	 * fitted: xpc/rpr are set; zoomed / rzoomed: the user chose xpc / rpr (else the whole
	 * trace / every visible rank is spread over the screen at any ratio, see struct tc_band) */
	struct { uint32_t top, left, xpc, rpr; bool fitted, zoomed, rzoomed; int cols, rows; } lv;
	struct { uint32_t top; uint64_t t0, t1; int cols, rows; bool path; } pv;   /* physical: time window; path: critical path shown */
	/* overview: zoomed: xpc x units per column from left (else the whole trace over the width);
	 * xs: prefix sums over the visible ranks when a filter is set, for (xs_sum, xs_gen) */
	struct {
		uint32_t left, xpc; bool fitted, zoomed; int64_t mark; bool marking; int cols;
		double *xs; const struct tc_lsum *xs_sum; uint32_t xs_gen;
	} ov;
	uint32_t vis_gen;    /* counts changes of vis (caches over the visible ranks compare it) */
	uint32_t detail_scroll, help_scroll;
	/* latency views: the selected region (TC_NONE: none yet / all messages), regions: first
	 * row and latency mode, evolution: the window under the cursor and the first row */
	uint32_t lat_region;
	struct { uint32_t top; bool latency; int rows; } rg;
	struct { uint32_t win, left, top; int rows; } ev;
	struct tc_latview *latv;   /* NULL until a latency view draws */
	struct { uint32_t *ids, n, nwith, gen; bool built; } latrows;   /* app_lat_rows' cache */
	/* wait states: selected line, first line shown */
	struct { uint32_t sel, top; int rows; } ws;
	/* profile: selected row, first row shown, sort key (0 exclusive, 1 inclusive, 2 calls, 3 imbalance) */
	struct { uint32_t sel, top; int sort, rows; } pf;
	/* calls: linear instead of log opacity (the time window is pv.t0/t1) */
	struct { bool linear; } cv;
	struct tc_dagview *dagv;     /* dag.c: chosen region/window, cursor, the cached DAG */
	struct tc_verdview *verdv;   /* verdicts.c: scope, selected line, window cursor, panels */
	struct tc_physv *phv;        /* physical.c: expanded ranks, the cursor's thread or stream row */
	struct tc_pfview *pfv;       /* profile.c: the per-rank x function table's mode, columns, order */
	uint32_t counter;            /* the counter (trace->metrics index) drawn, TC_NONE: none (src/ui/counters.c) */
	struct tc_ctrack *ctr;       /* its per-rank series (counters.c), NULL until drawn */
	/* clusters: the phase shown, the dendrogram cursor (node) and first tree line, the
	 * first step column and band; the (rank, step, metric) it was picked for (a change
	 * elsewhere picks the phase again); the selected node; its ranks as text */
	struct {
		bool ready, pending;   /* pending: the phase is being clustered in the worker */
		uint32_t part, node, top, btop, seen_rank, sel_part, sel_node, text_part, text_node;
		int64_t left, seen_step;
		enum tc_metric metric;
		int rows;
		char text[160];
	} cl;
	/* matrix: the cursor pair (sender, receiver ranks), messages instead of bytes, the
	 * communication matrices (tc_comm_matrix, built on first draw; nranks² each) */
	struct { uint32_t src, dst; bool msgs, ready; uint64_t *bytes, *count; int rows, cols; } mx;
	/* selected ranks (a cluster's members): drawn in the selection role on the rank
	 * labels of the timelines; nrank_sel == 0: none (Esc clears) */
	uint8_t *rank_sel;
	uint32_t nrank_sel;

	/* jump history: where the cursor was before each jump (Enter on a verdict, wait
	 * state, overview range or window, `o`, a search hit); Esc / Backspace returns */
	struct tc_place {
		const struct view *view;
		uint32_t rank;
		int64_t step;
		uint64_t time, pv_t0, pv_t1;
		uint32_t tick;   /* when it was pushed (ticks) */
	} hist[32];
	int nhist;
	uint32_t ticks, filter_tick;   /* a clock of pushes and rank-set changes: Esc undoes the later */
	bool confirm_quit;   /* q after jumps asked "quit?"; the next key answers */
	uint32_t pt_from, pt_at, pt_next;   /* p: the event whose partners are walked, the one shown, the next index */
	char pending;        /* 'M' or '\'': the next key names a mark (src/ui/marks.c) */
	struct tc_mark { bool set; const struct view *view; uint32_t rank; int64_t step; uint64_t time; } marks[26];
	bool marks_loaded;

	/* views */
	const struct view *view;
	const struct view *stack[8];
	int depth;
	const struct view *help_of;   /* the view whose keys the help screen shows */

	/* bottom line */
	char prompt;         /* 0, '/', ':', 'f' */
	char line[256];
	size_t linelen;
	char msg[256];
	bool msg_err;
	char *err_caret;     /* regex error: pattern with a caret, drawn above the bottom line */

	/* `o`: the root causes at their steps (analysis_origins.h), visited in turn */
	struct tc_origin origins[20];
	size_t norigins, origin_next;
	bool origins_done;
	bool origin_pending; /* `o` pressed while the root causes were computing: go when they are there */

	struct tc_job *job;  /* data being computed off the UI thread (job.c), NULL if none */
	bool quit;
	bool interactive;    /* the terminal UI (keys answer); false in `render` */
	int last_w, last_h;
	struct tc_rect view_rect;   /* where the current view was last drawn (clicks, src/ui/mouse.c) */
	struct tc_theme theme;
	char *theme_request;  /* :theme NAME asks the terminal to reload colours */
};

void app_init(struct tc_app *a, struct tc_session *s, const char *trace_name, bool utf8, bool color);
void app_free(struct tc_app *a);
const struct tc_lsum *app_sum(struct tc_app *a);
void app_draw(struct tc_app *a, struct tc_grid *g);
void app_key(struct tc_app *a, int key);
/* A mouse event (src/ui/mouse.c): a click goes to the view's click hook, the wheel
 * moves by rows (up/down keys), with Ctrl it zooms (+/-). */
void app_mouse(struct tc_app *a, const struct tc_mouse *m);
/* A click at row y of a list drawn from *top in rows lines starting at screen row y0:
 * *sel becomes that line when it is one of the n; true if it moved. */
bool app_list_click(uint32_t *sel, uint32_t top, uint32_t n, int rows, int y0, int y);
bool app_set_view(struct tc_app *a, const char *name);
void app_push(struct tc_app *a, const struct view *v);
void app_pop(struct tc_app *a);
/* Remember where the cursor is (view, rank, step, time, time window) before a jump. */
/* The main view under the panes pushed on it (detail, help): what the cursor belongs to. */
static inline const struct view *app_base_view(const struct tc_app *a)
{
	return a->depth > 0 ? a->stack[0] : a->view;
}
void app_history_push(struct tc_app *a);
/* Back to the last remembered place; false when there is none. */
bool app_history_pop(struct tc_app *a);
/* Show main view v (a jump's target): the view stack is left. */
void app_show(struct tc_app *a, const struct view *v);
void app_message(struct tc_app *a, bool err, const char *fmt, ...) TC_PRINTF(3, 4);
/* Run a ':' command line ("step 120", "rank 3", "metric duration", "theme light", "q"). */
void app_command(struct tc_app *a, const char *cmd);
bool app_set_metric(struct tc_app *a, const char *name);
/* The metric as the UI names it: "duration" is the call's duration beyond the
 * shortest of its peers (docs/tui.md), so the UI says "excess_duration"; `--metric` and
 * `:metric` take both names. */
const char *app_metric_label(enum tc_metric m);
void app_set_step(struct tc_app *a, int64_t step);   /* also moves time */
/* (a step as shown to the user: tc_step_label, analysis_steps.h) */
void app_set_rank(struct tc_app *a, uint32_t rank);
void app_follow_rank(struct tc_app *a);   /* after the rank moved by itself: time or step follows */
void app_set_time(struct tc_app *a, uint64_t time);  /* also moves step */
bool app_set_filter(struct tc_app *a, const char *pat);
/* Restrict the visible ranks to ranks[0..n) (sorted, distinct, < nranks), named label in the title
 * (f:label); ranks NULL: all ranks again.  The filter uses it too.  False (nothing changed) when
 * n == 0 or the list is not sorted or out of range. */
bool app_set_rank_set(struct tc_app *a, const uint32_t *ranks, uint32_t n, const char *label);
/* The latency views' data (built on first use). */
const struct tc_latview *app_latview(struct tc_app *a);
/* The regions in RL order (latview order) that hold a visible rank, *n of
 * them; the first *nwith have messages inside.  Without a filter: order. */
const uint32_t *app_lat_rows(struct tc_app *a, uint32_t *n, uint32_t *nwith);
bool app_set_search(struct tc_app *a, const char *pat);
bool app_search_next(struct tc_app *a, bool backward);
/* The cursor to the next message partner or collective peer of the event it was on when p was first pressed. */
bool app_next_partner(struct tc_app *a);
/* Move the cursor to the next origin: the root causes (excess ranked by delay
 * cost and critical path, analysis_origins.h), best first. */
bool app_next_origin(struct tc_app *a);
/* Index of the cursor rank in the visible list (or the nearest). */
uint32_t app_vis_index(const struct tc_app *a, uint32_t rank);
/* The cev under the cursor, TC_NONE if none. */
uint32_t app_cursor_cev(const struct tc_app *a);
/* Physical span of a step: its events' [enter_min, leave_max]. */
void app_step_span(const struct tc_app *a, int64_t step, uint64_t *b, uint64_t *e);
/* Select ranks (n = 0 or ranks = NULL: clear the selection). */
void app_select_ranks(struct tc_app *a, const uint32_t *ranks, uint32_t n);
static inline bool app_rank_selected(const struct tc_app *a, uint32_t r)
{
	return a->nrank_sel && r < a->t->nranks && a->rank_sel[r];
}
/* Is rank r in the visible list (the filter's or a region's rank set)? O(log n). */
bool app_rank_visible(const struct tc_app *a, uint32_t r);
/* Colour-map role for a value in [0, vmax]. */
enum tc_role app_map_role(double v, double vmax);
void app_fit_logical(struct tc_app *a, int cols, int rows);
/* The logical view's columns (x units) and rows (visible ranks) for a cols × rows area. */
struct tc_band app_logical_xband(struct tc_app *a, int cols);
struct tc_band app_logical_rband(const struct tc_app *a, int rows);
/* The time window (pv.t0/t1, shared by the physical and calls views): kept inside
 * the trace and at least 8 ticks wide; zoomed by 2 around the cursor time. */
void app_clamp_time_window(struct tc_app *a);
void app_zoom_time(struct tc_app *a, bool in);
void app_fit_time(struct tc_app *a);     /* the whole trace */
void app_follow_time(struct tc_app *a);  /* clamped, re-centred on the cursor time when it left */
/* The events at the other end of the cursor event's messages and collective,
 * at most max of them (src/ui/views/marks.c). */
uint32_t view_partners(const struct tc_app *a, uint32_t *out, uint32_t max);
/* Legend at (x, y), w wide: the metric's colour map from 0 to vmax, then the
 * glyphs; returns the columns used. */
int view_legend(struct tc_app *a, struct tc_grid *g, int x, int y, int w, double vmax);
/* One status line about the event (or call) under the cursor, at row y. */
void app_event_line(struct tc_app *a, struct tc_grid *g, int y);
/* The cursor on an axis line: the cell at (x, y) in the cursor role; the mark
 * glyph only on a blank, tick or line cell, never over a label's digits. */
void app_axis_cursor(struct tc_grid *g, int x, int y);
/* A full-width line in the status role (the event line, the latency views' selection). */
void app_status_line(struct tc_grid *g, int y, const char *s);
/* A horizontal bar of frac (0..1) of w cells, in eighths, at (x, y); a value
 * above 0 shows at least a sliver (src/ui/views/bar.c). */
void view_hbar(struct tc_grid *g, int x, int y, int w, double frac, enum tc_role role);
/* Scrolling of text views (help, detail): true when act scrolls. */
bool app_scroll(uint32_t *scroll, enum tc_action act);
/* A cursor over n items (j/k, PgDn/PgUp by page, g/G): true when act moves it. */
bool app_move_index(uint32_t *i, uint32_t n, uint32_t page, enum tc_action act);
/* The same over a list shown in rows lines (a page is rows − 1); app_list_top keeps
 * cur among the rows shown from *top. */
bool app_list_move(uint32_t *i, uint32_t n, int rows, enum tc_action act);
void app_list_top(uint32_t *top, uint32_t cur, uint32_t n, int rows);
/* The latency region of at least two ranks after g (TC_NONE: from the first); TC_NONE after
 * the last.  The DAG and verdict views cycle through it with r (src/ui/views/dag.c). */
uint32_t view_next_region(const struct tc_latency *lat, uint32_t g);

/* The matrix view's blocks (src/ui/views/matrix.c): out[i * cols->cells + j] = the sum
 * of m (n × n, row-major) over rows band_lo..band_hi(rows, i) × columns of cols, j. */
void matrix_blocks(const uint64_t *m, uint32_t n, const struct tc_band *rows, const struct tc_band *cols,
		   uint64_t *out);

/* The physical view's cursor row when it is a thread or stream (trace->locs index), else
 * TC_NONE: the rank's master (src/ui/views/physical.c). */
uint32_t physical_cursor_loc(const struct tc_app *a);

/* --- counters (src/ui/counters.c): the picked metric (a->counter) per rank as a time
 * series from the rank's location with most samples of it; accumulated counters are
 * drawn as their rate (interpolated between samples), others as their value. */
/* The next metric with samples after a->counter (TC_NONE after the last); true if one was picked. */
bool counter_next(struct tc_app *a);
/* The counter's value (last sample at or before time) and rate (per second, between the samples
 * around time) on rank; false when the rank has no sample of it at or before time. */
bool counter_at(struct tc_app *a, uint32_t rank, uint64_t time, double *value, double *rate);
/* The strip: a heading at y, then one row of sparkline glyphs per rank of ranks[0..n) over
 * [t0, t1) in cols columns from x0 (labels left of x0, lw wide). */
void counter_strip(struct tc_app *a, struct tc_grid *g, int x0, int lw, int y, const uint32_t *ranks, int n,
		   int cols, uint64_t t0, uint64_t t1);
/* One line about the counter at the cursor ("" when none is picked) into buf. */
void counter_line(struct tc_app *a, char *buf, size_t n);
void counter_free(struct tc_app *a);

/* --- slow views (src/ui/job.c) ------------------------------------------------------
 * app_view_ready: whether v can draw now; starts its prepare in a worker when its data
 * are missing (in place when not interactive).  app_job_poll reaps a finished worker;
 * app_busy: a worker runs (the key loop then polls). */
bool app_view_ready(struct tc_app *a, const struct view *v);
/* The same for data a key needs (o, c: the root causes): true when ready(s)
 * (computed in place when not interactive), else false, with prepare started
 * in the worker under the name what (or another job still running). */
bool app_data_ready(struct tc_app *a, bool (*ready)(const struct tc_session *), void (*prepare)(struct tc_session *),
		    const char *what);
void app_job_poll(struct tc_app *a);
bool app_busy(const struct tc_app *a);
void app_draw_computing(struct tc_app *a, struct tc_grid *g, struct tc_rect r);
/* Run fn(ctx) in the worker on behalf of view v (NULL: none; what: the text while it
 * runs, e.g. "clusters of phase 12"); v then draws "computing …" until it is done, and
 * done(a, ctx) (if not NULL) runs on the UI thread when app_job_poll reaps it.  False
 * when a worker runs already or none can start (the caller then computes in place). */
bool app_job_start(struct tc_app *a, const struct view *v, const char *what, void (*fn)(void *), void *ctx,
		   void (*done)(struct tc_app *a, void *ctx));
/* Metric m with aggregate blocks agg (sumswitch.c): at once when its summary is there
 * or not interactive (true), else built in the worker and switched to when done (false). */
bool app_switch_summary(struct tc_app *a, enum tc_metric m, bool agg);
/* The views' ready / prepare hooks, one pair per session result. */
bool view_ready_latency(const struct tc_session *s);
void view_prepare_latency(struct tc_session *s);
bool view_ready_rootcause(const struct tc_session *s);   /* o, c: the root causes */
void view_prepare_rootcause(struct tc_session *s);
bool view_ready_waitstates(const struct tc_session *s);
void view_prepare_waitstates(struct tc_session *s);
bool view_ready_profile(const struct tc_session *s);
void view_prepare_profile(struct tc_session *s);
bool view_ready_verdicts(const struct tc_session *s);
void view_prepare_verdicts(struct tc_session *s);
bool view_ready_clusters(const struct tc_session *s);
void view_prepare_clusters(struct tc_session *s);

/* --- marks (src/ui/marks.c): M + letter saves the cursor, ' + letter returns;
 * persisted per trace under $XDG_STATE_HOME/tracecomb/.  cmd is 'M' or '\''. */
bool marks_key(struct tc_app *a, char cmd, int key);

/* --- export from inside (src/ui/export.c) -------------------------------------------
 * `:write FILE` the current view as text (what `render` prints), `:csv FILE` its table;
 * a name ending in "!" (":write! F" or ":write F!") overwrites.  Never into the trace's
 * directory.  False with a message in the app. */
bool export_write(struct tc_app *a, const char *path, bool force, int w, int h);
bool export_csv(struct tc_app *a, const char *path, bool force);
/* A CSV field: quoted, inner quotes doubled. */
void export_csv_str(FILE *f, const char *s);

/* --- terminal (src/ui/term.c, the only curses user) --------------------------- */
enum tc_colormode { TC_CM_AUTO, TC_CM_ALWAYS, TC_CM_NEVER };
struct tc_term_opts { enum tc_colormode color; bool ascii, mouse; };   /* mouse: report clicks and the wheel */
/* Checks TERM and opens the screen; false with *err set (nothing to restore). */
bool term_open(const struct tc_term_opts *o, char **err);
void term_close(void);          /* idempotent; safe from signal handlers */
bool term_utf8(void);
const char *term_color_desc(void);  /* "truecolor", "256", "16", "8", "mono" */
void term_set_theme(const struct tc_theme *th);
void term_size(int *w, int *h);
void term_blit(const struct tc_grid *g);
/* Next key (enum tc_key or character); TK_NONE after timeout_ms (-1: wait). */
int term_key(int timeout_ms);
/* The event behind the last TK_MOUSE; false when it was none we use. */
bool term_mouse(struct tc_mouse *m);
void term_redraw_all(void);   /* Ctrl-L: repaint everything */
/* ANSI rendering of a grid (for `render --color`): 256-colour SGR. */
void grid_write_ansi(const struct tc_grid *g, const struct tc_theme *th, FILE *f);

#endif
