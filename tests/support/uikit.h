/* uikit.h — helpers shared by the UI unit tests: keys into an app, a grid or
 * a drawn screen as text. */
#ifndef TC_UIKIT_H
#define TC_UIKIT_H

#include "ui.h"

/* Each character of s as a key ('\n' as Enter). */
void uk_keys(struct tc_app *a, const char *s);
/* The grid as plain text, one line per row (caller frees). */
char *uk_text(const struct tc_grid *g);
/* Draw the app into a w×h grid and return it as text (caller frees). */
char *uk_draw(struct tc_app *a, int w, int h, bool ascii);
/* Draw the app into a w×h grid: true when the text shows what (else the
 * screen goes to stderr). */
bool uk_screen_has(struct tc_app *a, int w, int h, const char *what);

/* A session over a trace of nranks ranks without events. */
struct tc_session *uk_empty_session(uint32_t nranks);

#endif
