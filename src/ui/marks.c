/* marks.c — named places, as in vim and less: `M` + letter saves the cursor
 * (view, rank, step, time), `'` + letter returns there (a jump: Esc comes
 * back).  Marks persist per trace in $XDG_STATE_HOME/tracecomb/marks-HASH
 * (default ~/.local/state), HASH from the trace's real anchor path; one line
 * per mark: "LETTER VIEW RANK STEP TIME".  A mark file that cannot be read
 * or written only costs a message. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ui.h"

/* The mark file of the trace, NULL when there is no place for it. */
static char *marks_path(const struct tc_app *a, bool create)
{
	const char *st = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char *base;
	if (st && *st) base = xasprintf("%s/tracecomb", st);
	else if (home && *home) base = xasprintf("%s/.local/state/tracecomb", home);
	else return NULL;
	if (create) {   /* mkdir -p for the two levels that may be missing */
		char *slash = strrchr(base, '/');
		if (slash) { *slash = 0; mkdir(base, 0700); *slash = '/'; }
		mkdir(base, 0700);
	}
	char *real = a->t->anchor && *a->t->anchor ? realpath(a->t->anchor, NULL) : NULL;
	const char *key = real ? real : a->trace_name ? a->trace_name : "";
	uint64_t h = 1469598103934665603ull;   /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)key; *p; p++) h = (h ^ *p) * 1099511628211ull;
	free(real);
	char *path = xasprintf("%s/marks-%016llx", base, (unsigned long long)h);
	free(base);
	return path;
}

static void load(struct tc_app *a)
{
	if (a->marks_loaded) return;
	a->marks_loaded = true;
	char *path = marks_path(a, false);
	FILE *f = path ? fopen(path, "r") : NULL;
	free(path);
	if (!f) return;
	char line[256], view[64];
	while (fgets(line, sizeof line, f)) {
		char c;
		unsigned rank;
		long long step;
		unsigned long long time;
		if (sscanf(line, "%c %63s %u %lld %llu", &c, view, &rank, &step, &time) != 5) continue;
		if (c < 'a' || c > 'z' || !view_find(view) || rank >= a->t->nranks) continue;
		struct tc_mark *m = &a->marks[c - 'a'];
		*m = (struct tc_mark){ true, view_find(view), rank, step, time };
	}
	fclose(f);
}

static bool save(struct tc_app *a)
{
	char *path = marks_path(a, true);
	FILE *f = path ? fopen(path, "w") : NULL;
	if (!f) {
		app_message(a, true, "marks: cannot write %s: %s", path ? path : "(no HOME)", strerror(errno));
		free(path);
		return false;
	}
	for (int i = 0; i < 26; i++) {
		const struct tc_mark *m = &a->marks[i];
		if (m->set)
			fprintf(f, "%c %s %u %lld %llu\n", 'a' + i, m->view->name, m->rank, (long long)m->step,
				(unsigned long long)m->time);
	}
	bool ok = fclose(f) == 0;
	free(path);
	return ok;
}

bool marks_key(struct tc_app *a, char cmd, int key)
{
	if (key < 'a' || key > 'z') {
		app_message(a, key == TK_ESC ? false : true, key == TK_ESC ? "no mark" : "marks are a to z");
		return false;
	}
	load(a);
	struct tc_mark *m = &a->marks[key - 'a'];
	char sl[24];
	if (cmd == 'M') {
		const struct view *v = app_base_view(a);
		*m = (struct tc_mark){ true, v, a->rank, a->step, a->time };
		if (save(a))
			app_message(a, false, "mark %c: %s, rank %u step %s ('%c returns)", key, v->name, a->rank,
				    tc_step_label(a->step, sl, sizeof sl), key);
		return true;
	}
	if (!m->set) {
		app_message(a, true, "no mark %c (M%c sets it)", key, key);
		return false;
	}
	app_history_push(a);
	app_show(a, m->view);
	app_set_rank(a, m->rank);
	app_set_step(a, m->step);
	if (m->view == &view_physical) app_set_time(a, m->time);
	app_follow_time(a);
	app_message(a, false, "mark %c: %s, rank %u step %s (Esc: back)", key, m->view->name, a->rank,
		    tc_step_label(a->step, sl, sizeof sl));
	return true;
}
