/* The matrix view (src/ui/views/matrix.c): block sums, tc_comm_matrix on a
 * hand-built trace, and the view driven by keys without a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "uikit.h"

/* A 5×5 matrix m[r][c] = 5r + c summed into 2×2 blocks: rows and columns
 * split [0, 2) and [2, 5) (struct tc_band). */
static void test_blocks(void **state)
{
	(void)state;
	uint64_t m[25], out[4];
	for (int k = 0; k < 25; k++) m[k] = (uint64_t)k;
	struct tc_band b = { 0, 5, 2 };
	matrix_blocks(m, 5, &b, &b, out);
	assert_int_equal(out[0], 0 + 1 + 5 + 6);
	assert_int_equal(out[1], 2 + 3 + 4 + 7 + 8 + 9);
	assert_int_equal(out[2], 10 + 11 + 15 + 16 + 20 + 21);
	assert_int_equal(out[3], 12 + 13 + 14 + 17 + 18 + 19 + 22 + 23 + 24);
	/* one cell per rank: the matrix itself */
	uint64_t same[25];
	struct tc_band one = { 0, 5, 5 };
	matrix_blocks(m, 5, &one, &one, same);
	assert_memory_equal(same, m, sizeof m);
}

/* 3 ranks on 2 nodes ({0}, {1, 2}): 0 sends 4096 and 100 bytes to 1, 2 sends 8 to 0. */
static struct tc_session *three(void)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 1000);
	static const uint32_t node_of[3] = { 0, 1, 1 };
	tc_def_simple(t, 3, node_of, 2);
	uint32_t rmain = tc_def_region(t, "main", 0, 0, false);
	for (uint32_t r = 0; r < 3; r++) tcb_enter(t, r, 0, rmain);
	tcb_send(t, 0, 10, 1, 0, 1, 4096);
	tcb_send(t, 0, 20, 1, 0, 1, 100);
	tcb_recv(t, 1, 30, 0, 0, 1, 4096);
	tcb_recv(t, 1, 40, 0, 0, 1, 100);
	tcb_send(t, 2, 50, 0, 0, 2, 8);
	tcb_recv(t, 0, 60, 2, 0, 2, 8);
	for (uint32_t r = 0; r < 3; r++) tcb_leave(t, r, 100, rmain);
	tc_trace_finish(t);
	return session_new(t);
}

static void test_comm_matrix(void **state)
{
	(void)state;
	struct tc_session *s = three();
	uint64_t b[9], m[9];
	tc_comm_matrix(s->t, b, m);
	static const uint64_t wb[9] = { 0, 4196, 0, 0, 0, 0, 8, 0, 0 }, wm[9] = { 0, 2, 0, 0, 0, 0, 1, 0, 0 };
	assert_memory_equal(b, wb, sizeof wb);
	assert_memory_equal(m, wm, sizeof wm);
	session_free(s);
}

static void test_view(void **state)
{
	(void)state;
	struct tc_session *s = three();
	struct tc_app a;
	app_init(&a, s, "three", true, false);
	assert_true(app_set_view(&a, "matrix"));
	/* the cursor starts on the heaviest pair */
	assert_true(uk_screen_has(&a, 80, 24, "0 → 1: 2 messages, 4196 bytes"));
	assert_true(uk_screen_has(&a, 80, 24, "total 4204 bytes in 3 messages"));
	assert_true(uk_screen_has(&a, 80, 24, "3 ranks, 2 nodes; b: messages"));
	uk_keys(&a, "jj");   /* down to sender 2 */
	assert_true(uk_screen_has(&a, 80, 24, "2 → 1: 0 messages, 0 bytes"));
	uk_keys(&a, "h");    /* left to receiver 0 */
	assert_true(uk_screen_has(&a, 80, 24, "2 → 0: 1 messages, 8 bytes"));
	uk_keys(&a, "b");
	assert_true(a.mx.msgs);
	assert_true(uk_screen_has(&a, 80, 24, "messages from sender (rows)"));
	uk_keys(&a, "\n");   /* the pair's ranks in the other views */
	assert_int_equal(a.nvis, 2);
	assert_int_equal(a.vis[0], 0);
	assert_int_equal(a.vis[1], 2);
	/* too small, and an ASCII screen */
	char *txt = uk_draw(&a, 12, 4, true);
	free(txt);
	txt = uk_draw(&a, 80, 24, true);
	for (const char *p = txt; *p; p++) assert_true((unsigned char)*p < 0x80);
	free(txt);
	app_free(&a);
	session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_comm_matrix),
		cmocka_unit_test(test_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
