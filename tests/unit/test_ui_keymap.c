/* The key table: dispatch, hints and help come from the same rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static void test_find(void **state)
{
	assert_int_equal(keymap_find('j', TC_V_LOGICAL)->act, ACT_DOWN);
	assert_int_equal(keymap_find(TK_DOWN, TC_V_PHYSICAL)->act, ACT_DOWN);
	assert_int_equal(keymap_find('h', TC_V_LOGICAL)->act, ACT_LEFT);
	assert_int_equal(keymap_find('+', TC_V_PHYSICAL)->act, ACT_ZOOM_IN);
	assert_int_equal(keymap_find('0', TC_V_OVERVIEW)->act, ACT_ZOOM_FIT);
	assert_int_equal(keymap_find(TK_BTAB, TC_V_LOGICAL)->act, ACT_PREV_VIEW);
	assert_int_equal(keymap_find('v', TC_V_OVERVIEW)->act, ACT_MARK);
	assert_null(keymap_find('v', TC_V_LOGICAL));
	assert_null(keymap_find('h', TC_V_HELP));     /* not a move in help */
	assert_int_equal(keymap_find(TK_ESC, TC_V_HELP)->act, ACT_BACK);
	assert_int_equal(keymap_find('q', TC_V_DETAIL)->act, ACT_BACK);
	assert_int_equal(keymap_find('q', TC_V_LOGICAL)->act, ACT_QUIT);
	assert_int_equal(keymap_find('/', TC_V_OVERVIEW)->act, ACT_SEARCH);
	assert_null(keymap_find('x', TC_V_LOGICAL));
}

/* Every key of design.md exists in the main views, and no key is bound twice in one view. */
static void test_complete_and_unique(void **state)
{
	int keys[] = { 'j', 'k', TK_UP, TK_DOWN, 'h', 'l', TK_LEFT, TK_RIGHT, TK_PGUP, TK_PGDN, 'g', 'G', TK_HOME,
		       TK_END, '+', '-', '0', TK_TAB, TK_BTAB, '1', '2', '3', TK_ENTER, TK_ESC, '/', 'n', 'N', 'f', 'm',
		       ':', '?', 'q' };
	for (size_t i = 0; i < TC_NELEM(keys); i++)
		if (!keymap_find(keys[i], TC_V_LOGICAL)) fail_msg("key %d unbound in logical", keys[i]);
	for (int v = 0; v < TC_V_COUNT; v++)
		for (size_t i = 0; i < tc_nkeymap; i++)
			for (size_t j = i + 1; j < tc_nkeymap; j++)
				if (tc_keymap[i].key == tc_keymap[j].key && (tc_keymap[i].views & tc_keymap[j].views & TC_VM(v)))
					fail_msg("key %d bound twice in view %d", tc_keymap[i].key, v);
}

static void test_hints_and_help(void **state)
{
	struct tc_grid g;
	grid_init(&g, 40, 1, true);
	keymap_hints(&g, 0, TC_V_LOGICAL);
	char line[41];
	for (int x = 0; x < 40; x++) line[x] = (char)grid_at(&g, x, 0)->ch;
	line[40] = 0;
	/* ranked: help, quit, origin, verdicts first, then what fits, in table order */
	assert_memory_equal(line, "?:help q:quit h:move 8:verdicts o:origin", 40);
	grid_free(&g);
	char **lines;
	size_t n = keymap_help(TC_V_OVERVIEW, &lines);
	bool has_mark = false;
	for (size_t i = 0; i < n; i++) {
		has_mark |= !strncmp(lines[i], "v ", 2);
		free(lines[i]);
	}
	free(lines);
	assert_true(has_mark);
	n = keymap_help(TC_V_LOGICAL, &lines);
	for (size_t i = 0; i < n; i++) {
		assert_true(strncmp(lines[i], "v ", 2) != 0);
		free(lines[i]);
	}
	free(lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find), cmocka_unit_test(test_complete_and_unique), cmocka_unit_test(test_hints_and_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
