/* term.c — the only file that talks to curses (ncursesw): opening the
 * screen with newterm (a bad TERM is an error message, not an exit), the
 * colour ladder (truecolor → 256 → 16/8 → mono, NO_COLOR, --color), copying
 * a grid to the screen, keys, resize, and putting the terminal back on every
 * exit path (normal, error, SIGINT/SIGTERM/SIGHUP, SIGSEGV/SIGABRT/...). */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui.h"

enum level { LV_MONO, LV_8, LV_16, LV_256, LV_TRUE };

static SCREEN *scr;
static volatile sig_atomic_t open_flag, interrupted;
static bool utf8;
static enum level level;
static struct tc_theme theme;
static int pairs[TC_R_COUNT][TC_R_COUNT][2];   /* (fg role, bg role, solid) → pair, -1 unknown */
static int saved_stderr = -1;
static FILE *err_log;

/* Put stderr back; with replay, copy what was written meanwhile to it (with
 * read/write only: on_fatal calls this from a signal handler). */
static void restore_stderr(bool replay)
{
	if (saved_stderr < 0) return;
	dup2(saved_stderr, 2);
	close(saved_stderr);
	saved_stderr = -1;
	if (replay && err_log) {
		int fd = fileno(err_log);
		char buf[4096];
		ssize_t n;
		lseek(fd, 0, SEEK_SET);
		while ((n = read(fd, buf, sizeof buf)) > 0)
			if (write(2, buf, (size_t)n) < 0) break;
	}
}

void term_close(void)
{
	if (!open_flag) return;
	open_flag = 0;
	tc_on_fatal(NULL);
	fflush(stderr);
	endwin();
	restore_stderr(true);
	if (err_log) { fclose(err_log); err_log = NULL; }
	if (scr) {
		delscreen(scr);
		scr = NULL;
	}
}

/* tc_oom / tc_fatal inside the UI: the terminal back, what went to stderr
 * meanwhile shown, then their message. */
static void restore_for_fatal(void)
{
	if (!open_flag) return;
	open_flag = 0;
	fflush(stderr);
	endwin();
	restore_stderr(true);
}

/* The signals that end the process: faults, termination requests, resource
 * limits (SIGXCPU from `ulimit -t`, SIGXFSZ from `ulimit -f`), and the
 * signals whose default action is to terminate (SIGUSR1/2, SIGALRM, ...). */
static const struct { int sig; const char *what; } fatal_sigs[] = {
	{ SIGSEGV, "segmentation fault (SIGSEGV)" }, { SIGABRT, "aborted (SIGABRT)" },
	{ SIGBUS, "bus error (SIGBUS)" }, { SIGFPE, "arithmetic exception (SIGFPE)" },
	{ SIGILL, "illegal instruction (SIGILL)" }, { SIGTERM, "terminated (SIGTERM)" },
	{ SIGHUP, "hangup (SIGHUP)" }, { SIGQUIT, "quit (SIGQUIT)" },
	{ SIGXCPU, "CPU time limit exceeded (SIGXCPU)" }, { SIGXFSZ, "file size limit exceeded (SIGXFSZ)" },
	{ SIGUSR1, "user signal 1 (SIGUSR1)" }, { SIGUSR2, "user signal 2 (SIGUSR2)" },
	{ SIGALRM, "alarm clock (SIGALRM)" }, { SIGVTALRM, "virtual timer expired (SIGVTALRM)" },
	{ SIGPROF, "profiling timer expired (SIGPROF)" }, { SIGPIPE, "broken pipe (SIGPIPE)" },
	{ SIGSYS, "bad system call (SIGSYS)" },
};

static void say(const char *s)
{
	if (write(2, s, strlen(s)) < 0) return;
}

/* Async-signal-safe: endwin (as ncurses' own handlers do), stderr back with
 * what was written meanwhile, one line naming the signal, then the default
 * action (the shell sees the usual 128 + signal status). */
static void on_fatal(int sig)
{
	if (open_flag) {
		open_flag = 0;
		endwin();
		restore_stderr(true);
		for (size_t i = 0; i < TC_NELEM(fatal_sigs); i++)
			if (fatal_sigs[i].sig == sig) {
				say("tracecomb: ");
				say(fatal_sigs[i].what);
				say("; terminal restored\n");
			}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_int(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int attrs_of(uint8_t a)
{
	int r = 0;
	if (a & TC_A_BOLD) r |= A_BOLD;
	if (a & TC_A_REVERSE) r |= A_REVERSE;
	if (a & TC_A_UNDERLINE) r |= A_UNDERLINE;
	if (a & TC_A_DIM) r |= A_DIM;
	return r;
}

static int color_num(const struct tc_color *c)
{
	if (c->kind == TC_COL_DEFAULT) return -1;
	switch (level) {
	case LV_TRUE: {
		uint8_t rgb[3];
		color_rgb(c, rgb);
		return rgb[0] << 16 | rgb[1] << 8 | rgb[2];
	}
	case LV_256: return color_to_256(c);
	case LV_16: return color_to_ansi(c, 16);
	case LV_8: return color_to_ansi(c, 8);
	default: return -1;
	}
}

bool term_utf8(void) { return utf8; }

const char *term_color_desc(void)
{
	static const char *const d[] = { "mono", "8", "16", "256", "truecolor" };
	return d[level];
}

void term_set_theme(const struct tc_theme *th)
{
	theme = *th;
	memset(pairs, -1, sizeof pairs);
	if (level != LV_MONO) reset_color_pairs();
}

bool term_open(const struct tc_term_opts *o, char **err)
{
	const char *t = getenv("TERM");
	if (!t || !*t || !strcmp(t, "dumb")) {
		*err = xasprintf("this terminal (TERM=%s) cannot show the UI; use `tracecomb report` or "
				 "`tracecomb render` instead, or set TERM (e.g. TERM=xterm-256color)", t && *t ? t : "unset");
		return false;
	}
	if (!isatty(0) || !isatty(1)) {
		*err = xstrdup("the UI needs a terminal on stdin and stdout; use `tracecomb render` for files and pipes");
		return false;
	}
	const char *cs = nl_langinfo(CODESET);
	utf8 = !o->ascii && cs && !strcmp(cs, "UTF-8");
	/* stderr would scribble over the screen: keep it in a file and show it after endwin */
	fflush(stderr);
	err_log = tmpfile();
	if (err_log) {
		saved_stderr = dup(2);
		dup2(fileno(err_log), 2);
	}
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		restore_stderr(true);
		*err = xasprintf("unknown terminal type TERM=%s (try TERM=xterm-256color)", t);
		return false;
	}
	set_term(scr);
	open_flag = 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal;
	for (size_t i = 0; i < TC_NELEM(fatal_sigs); i++) sigaction(fatal_sigs[i].sig, &sa, NULL);
	tc_on_fatal(restore_for_fatal);
	sa.sa_handler = on_int;
	sigaction(SIGINT, &sa, NULL);
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	curs_set(0);
	if (o->mouse) {   /* no click interval: a press answers at once (a click is press + release) */
		mouseinterval(0);
		mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED | BUTTON_CTRL, NULL);
	}
	level = LV_MONO;
	const char *nc = getenv("NO_COLOR");
	bool want = o->color == TC_CM_ALWAYS || (o->color == TC_CM_AUTO && !(nc && *nc));
	if (want && has_colors() && start_color() == OK) {
		use_default_colors();
		level = COLORS >= 0x1000000 ? LV_TRUE : COLORS >= 256 ? LV_256 : COLORS >= 16 ? LV_16 : COLORS >= 8 ? LV_8 : LV_MONO;
	}
	theme_builtin(&theme);
	memset(pairs, -1, sizeof pairs);
	return true;
}

void term_size(int *w, int *h)
{
	*w = COLS;
	*h = LINES;
}

bool term_mouse(struct tc_mouse *m)
{
	MEVENT ev;
	if (getmouse(&ev) != OK) return false;
	if (ev.bstate & BUTTON1_PRESSED) m->kind = TC_MOUSE_CLICK;
	else if (ev.bstate & BUTTON4_PRESSED) m->kind = TC_MOUSE_WHEEL_UP;
	else if (ev.bstate & BUTTON5_PRESSED) m->kind = TC_MOUSE_WHEEL_DOWN;
	else return false;
	m->x = ev.x;
	m->y = ev.y;
	m->ctrl = (ev.bstate & BUTTON_CTRL) != 0;
	return true;
}

void term_redraw_all(void)
{
	clearok(curscr, TRUE);
}

void term_blit(const struct tc_grid *g)
{
	bool mono = level == LV_MONO || theme.monochrome;
	for (int y = 0; y < g->h && y < LINES; y++) {
		for (int x = 0; x < g->w && x < COLS; x++) {
			const struct tc_cell *c = &g->c[y * g->w + x];
			const struct tc_style *sf = &theme.role[c->fg];
			int attr, pair = 0;
			if (mono) {
				attr = attrs_of(sf->mono | (c->attr & ~TC_A_SOLID));
			} else {
				attr = attrs_of(sf->attr | (c->attr & ~TC_A_SOLID));
				int solid = (c->attr & TC_A_SOLID) ? 1 : 0;
				int *p = &pairs[c->fg][c->bg][solid];
				if (*p < 0) {
					/* a role without a colour takes the normal role's (a light theme paints its background) */
					const struct tc_color *fc = solid ? &sf->bg : &sf->fg, *bc = &theme.role[c->bg].bg;
					if (fc->kind == TC_COL_DEFAULT) fc = &theme.role[TC_R_NORMAL].fg;
					if (bc->kind == TC_COL_DEFAULT) bc = &theme.role[TC_R_NORMAL].bg;
					int fg = color_num(fc), bg = color_num(bc);
					*p = (fg < 0 && bg < 0) ? 0 : alloc_pair(fg, bg);
					if (*p < 0) *p = 0;
				}
				pair = *p;
			}
			wchar_t wc[2] = { (wchar_t)(c->ch ? c->ch : ' '), 0 };
			if (!utf8 && c->ch > 0x7e) wc[0] = '?';
			cchar_t cc;
			setcchar(&cc, wc, (attr_t)attr, 0, &pair);
			mvadd_wch(y, x, &cc);
		}
	}
	wnoutrefresh(stdscr);
	doupdate();
}

int term_key(int timeout_ms)
{
	int waited = 0;
	for (;;) {
		if (interrupted) {
			interrupted = 0;
			return TK_INTERRUPT;
		}
		int step = timeout_ms < 0 ? 100 : TC_MIN(100, timeout_ms - waited);
		if (step < 0) step = 0;
		timeout(step);
		wint_t wch;
		int r = get_wch(&wch);
		if (r == KEY_CODE_YES) {
			switch (wch) {
			case KEY_UP: return TK_UP;
			case KEY_DOWN: return TK_DOWN;
			case KEY_LEFT: return TK_LEFT;
			case KEY_RIGHT: return TK_RIGHT;
			case KEY_PPAGE: return TK_PGUP;
			case KEY_NPAGE: return TK_PGDN;
			case KEY_HOME: case KEY_A1: return TK_HOME;
			case KEY_END: case KEY_C1: return TK_END;
			case KEY_BTAB: return TK_BTAB;
			case KEY_F(1): return TK_F1;
			case KEY_RESIZE: return TK_RESIZE;
			case KEY_BACKSPACE: return TK_BACKSPACE;
			case KEY_ENTER: return TK_ENTER;
			case KEY_DC: return TK_DELETE;
			case KEY_MOUSE: return TK_MOUSE;
			default: continue;
			}
		}
		if (r == OK) {
			if (wch == '\r' || wch == '\n') return TK_ENTER;
			if (wch == 8 || wch == 127) return TK_BACKSPACE;
			if (wch == 3) return TK_INTERRUPT;
			return (int)wch;
		}
		waited += step;
		if (timeout_ms >= 0 && waited >= timeout_ms) return interrupted ? (interrupted = 0, TK_INTERRUPT) : TK_NONE;
	}
}
