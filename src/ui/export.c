/* export.c — writing from inside the UI: `:write FILE` draws the current view
 * into a grid of the screen's size and writes it as text (the same bytes as
 * `render` at that size), `:csv FILE` writes the current view's table through
 * its csv hook.  Both refuse an existing file unless forced (":write! F") and
 * never write into the trace's directory (the rule of the whole tool). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui.h"

void export_csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"') fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The real directory of path (which need not exist yet); NULL if it cannot be resolved. */
static char *real_dir(const char *path)
{
	char *copy = xstrdup(path), *d = dirname(copy);
	char *r = realpath(d, NULL);
	free(copy);
	return r;
}

/* Opens path for writing after the checks; NULL with a message. */
static FILE *open_target(struct tc_app *a, const char *path, bool force)
{
	if (!path || !*path) {
		app_message(a, true, "a file name is needed (add ! to overwrite)");
		return NULL;
	}
	char *dir = real_dir(path);
	if (!dir) {
		app_message(a, true, "%s: %s", path, strerror(errno));
		return NULL;
	}
	const char *anchor = a->t->anchor;
	char *tdir = anchor && *anchor ? real_dir(anchor) : NULL;
	bool inside = tdir && !strncmp(dir, tdir, strlen(tdir)) && (dir[strlen(tdir)] == 0 || dir[strlen(tdir)] == '/');
	free(dir);
	free(tdir);
	if (inside) {
		app_message(a, true, "not written: tracecomb never writes into the trace directory (%s)", path);
		return NULL;
	}
	struct stat sb;
	if (!force && stat(path, &sb) == 0) {
		app_message(a, true, "%s exists (add ! to overwrite)", path);
		return NULL;
	}
	FILE *f = fopen(path, "w");
	if (!f) app_message(a, true, "%s: %s", path, strerror(errno));
	return f;
}

static bool finish(struct tc_app *a, FILE *f, const char *path, const char *what)
{
	bool ok = !ferror(f);
	if (fclose(f) != 0) ok = false;
	if (ok) app_message(a, false, "wrote %s to %s", what, path);
	else app_message(a, true, "%s: write error", path);
	return ok;
}

bool export_write(struct tc_app *a, const char *path, bool force, int w, int h)
{
	FILE *f = open_target(a, path, force);
	if (!f) return false;
	struct tc_grid g;
	grid_init(&g, w > 0 ? w : 80, h > 0 ? h : 24, !a->utf8);
	char msg[sizeof a->msg];
	memcpy(msg, a->msg, sizeof msg);
	bool err = a->msg_err;
	a->msg[0] = 0;   /* the view as it stands, without the command's own message */
	app_draw(a, &g);
	memcpy(a->msg, msg, sizeof msg);
	a->msg_err = err;
	grid_write_text(&g, f);
	grid_free(&g);
	char what[64];
	snprintf(what, sizeof what, "the %s view", a->view->name);
	return finish(a, f, path, what);
}

bool export_csv(struct tc_app *a, const char *path, bool force)
{
	if (!a->view->csv) {
		app_message(a, true, ":csv: the %s view has no table (profile, waitstates, regions, verdicts have)", a->view->name);
		return false;
	}
	FILE *f = open_target(a, path, force);
	if (!f) return false;
	a->view->csv(a, f);
	char what[64];
	snprintf(what, sizeof what, "the %s table", a->view->name);
	return finish(a, f, path, what);
}
