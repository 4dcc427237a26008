/* uikit.c — see uikit.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uikit.h"

void uk_keys(struct tc_app *a, const char *s)
{
	for (; *s; s++) app_key(a, *s == '\n' ? TK_ENTER : *s);
}

char *uk_text(const struct tc_grid *g)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	grid_write_text(g, f);
	fclose(f);
	return buf;
}

char *uk_draw(struct tc_app *a, int w, int h, bool ascii)
{
	struct tc_grid g;
	grid_init(&g, w, h, ascii);
	app_draw(a, &g);
	char *buf = uk_text(&g);
	grid_free(&g);
	return buf;
}

bool uk_screen_has(struct tc_app *a, int w, int h, const char *what)
{
	char *buf = uk_draw(a, w, h, false);
	bool ok = strstr(buf, what) != NULL;
	if (!ok) fprintf(stderr, "screen without '%s':\n%s", what, buf);
	free(buf);
	return ok;
}

struct tc_session *uk_empty_session(uint32_t nranks)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, nranks, NULL, 1);
	tc_trace_finish(t);
	return session_new(t);
}
