/* bar.c — what the list views (wait states, profile) share: horizontal
 * bars in eighth blocks and moving a selection through a list. */
#include "ui.h"

void view_hbar(struct tc_grid *g, int x, int y, int w, double frac, enum tc_role role)
{
	if (w <= 0) return;
	if (!(frac > 0)) return;
	if (frac > 1) frac = 1;
	int e = (int)(frac * w * 8 + 0.5);
	if (e < 1) e = 1;
	for (int i = 0; i < w && e - i * 8 > 0; i++) {
		int n = e - i * 8;
		uint32_t ch = grid_left_eighth(g, n >= 8 ? 8 : n);
		if (ch == ' ') ch = g->ascii ? '|' : grid_left_eighth(g, 1);   /* a sliver in ASCII */
		grid_put(g, x + i, y, ch, role, role == TC_R_CURSOR ? TC_R_CURSOR : TC_R_NORMAL, 0);
	}
}

bool view_list_move(uint32_t *sel, uint32_t n, int rows, enum tc_action act)
{
	uint32_t page = (uint32_t)(rows > 2 ? rows - 1 : 1), last = n ? n - 1 : 0;
	switch (act) {
	case ACT_DOWN: if (*sel < last) (*sel)++; return true;
	case ACT_UP: if (*sel) (*sel)--; return true;
	case ACT_PGDN: *sel = *sel + page < last ? *sel + page : last; return true;
	case ACT_PGUP: *sel = *sel > page ? *sel - page : 0; return true;
	case ACT_TOP: *sel = 0; return true;
	case ACT_BOTTOM: *sel = last; return true;
	default: return false;
	}
}
