/* mouse.c — the mouse in the UI (on unless `--no-mouse`, docs/tui.md "Mouse").
 * term.c turns the terminal's reports into struct tc_mouse; here a click goes
 * to the current view's click hook (views without one ignore clicks) and the
 * wheel becomes keys, so every view scrolls as with its own ↑/↓: a notch moves
 * TC_WHEEL_ROWS rows, with Ctrl it zooms once (+ / -).  Nothing happens while
 * the bottom line is a prompt or a key is awaited (a mark's letter, "quit?"). */
#include "ui.h"

#define TC_WHEEL_ROWS 3

static bool inside(const struct tc_rect *r, int x, int y)
{
	return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

void app_mouse(struct tc_app *a, const struct tc_mouse *m)
{
	if (a->prompt || a->pending || a->confirm_quit || !app_view_ready(a, a->view)) return;
	switch (m->kind) {
	case TC_MOUSE_CLICK:
		if (a->view->click && inside(&a->view_rect, m->x, m->y)) {
			a->msg[0] = 0;
			a->view->click(a, a->view_rect, m->x, m->y);
		}
		return;
	case TC_MOUSE_WHEEL_UP:
	case TC_MOUSE_WHEEL_DOWN: {
		bool up = m->kind == TC_MOUSE_WHEEL_UP;
		if (m->ctrl) {
			app_key(a, up ? '+' : '-');
			return;
		}
		for (int i = 0; i < TC_WHEEL_ROWS; i++) app_key(a, up ? TK_UP : TK_DOWN);
		return;
	}
	}
}

bool app_list_click(uint32_t *sel, uint32_t top, uint32_t n, int rows, int y0, int y)
{
	if (y < y0 || y >= y0 + rows) return false;
	uint32_t k = top + (uint32_t)(y - y0);
	if (k >= n) return false;
	*sel = k;
	return true;
}
