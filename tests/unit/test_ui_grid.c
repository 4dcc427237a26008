/* Grid drawing, glyph sets and the logical summary, without a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "uikit.h"

static void test_text_clip(void **state)
{
	struct tc_grid g;
	grid_init(&g, 6, 2, false);
	assert_int_equal(grid_text(&g, 1, 0, 10, TC_R_NORMAL, "abcdefgh"), 5);
	grid_text(&g, -1, 1, 3, TC_R_NORMAL, "xyz");   /* off the left edge: clipped */
	char *s = uk_text(&g);
	assert_string_equal(s, " abcde\nyz\n");
	free(s);
	assert_null(grid_at(&g, 6, 0));
	assert_null(grid_at(&g, 0, 2));
	grid_free(&g);
}

/* grid_text_elide at a word boundary, and grid_text_tail keeping its tail
 * whole by cutting the head, the shorter tail taken when the longer one
 * leaves the head fewer than min_head columns (ASCII: the ellipsis is "~"). */
static void test_elide_and_tail(void **state)
{
	(void)state;
	struct tc_grid g;
	grid_init(&g, 20, 5, true);
	assert_int_equal(grid_text_elide(&g, 0, 0, 20, TC_R_NORMAL, "short text"), 10);
	/* the last space within 11 columns is after "most:" */
	assert_int_equal(grid_text_elide(&g, 0, 1, 12, TC_R_NORMAL, "most: late_sender of rank 3"), 6);
	/* both fit: drawn as they are */
	assert_int_equal(grid_text_tail(&g, 0, 2, 20, TC_R_NORMAL, "MPI_Recv", (const char *[]){ ": 2 ranks" }, 1, 4), 17);
	/* the head cut so that the tail stays whole */
	assert_int_equal(grid_text_tail(&g, 0, 3, 20, TC_R_NORMAL, "!$omp for @jacobi_cuda.c:175",
					(const char *[]){ ": min 1 s max 1.36 s", ": max 1.36 s" }, 2, 4),
			 18);
	/* the head would keep fewer than min_head columns: one text, cut at a word */
	assert_int_equal(grid_text_tail(&g, 0, 4, 20, TC_R_NORMAL, "a_long_region_name",
					(const char *[]){ ": min 1 s max 2 s (rank 0)" }, 1, 12),
			 20);
	char *s = uk_text(&g);
	assert_string_equal(s, "short text\nmost:~\nMPI_Recv: 2 ranks\n!$omp~: max 1.36 s\n"
			       "a_long_region_name:~\n");
	free(s);
	grid_free(&g);
}

static void test_utf8_and_ascii(void **state)
{
	struct tc_grid g;
	grid_init(&g, 8, 1, false);
	grid_text(&g, 0, 0, 8, TC_R_NORMAL, "\xc3\xa9t\xff!");   /* é t <bad byte> ! */
	assert_int_equal(grid_at(&g, 0, 0)->ch, 0xe9);
	assert_int_equal(grid_at(&g, 2, 0)->ch, 0xfffd);   /* bad byte: replacement character */
	assert_int_equal(grid_at(&g, 3, 0)->ch, '!');
	grid_free(&g);
	grid_init(&g, 8, 1, true);
	grid_text(&g, 0, 0, 8, TC_R_NORMAL, "\xc3\xa9t");
	assert_int_equal(grid_at(&g, 0, 0)->ch, '?');
	/* every ascii glyph is 7-bit; send, receive and collective differ */
	for (int i = 0; i < TC_G_COUNT; i++) assert_true(grid_glyph(&g, (enum tc_glyph)i) < 0x7f);
	assert_int_not_equal(grid_glyph(&g, TC_G_SEND), grid_glyph(&g, TC_G_RECV));
	assert_int_not_equal(grid_glyph(&g, TC_G_SEND), grid_glyph(&g, TC_G_COLL));
	assert_int_equal(grid_left_eighth(&g, 3), ' ');
	assert_int_equal(grid_lower_eighth(&g, 8), '#');
	grid_free(&g);
}

static void test_eighths(void **state)
{
	struct tc_grid g;
	grid_init(&g, 1, 1, false);
	assert_int_equal(grid_left_eighth(&g, 1), 0x258F);
	assert_int_equal(grid_left_eighth(&g, 4), 0x258C);
	assert_int_equal(grid_left_eighth(&g, 7), 0x2589);
	assert_int_equal(grid_left_eighth(&g, 8), 0x2588);
	assert_int_equal(grid_lower_eighth(&g, 1), 0x2581);
	assert_int_equal(grid_lower_eighth(&g, 7), 0x2587);
	grid_free(&g);
}

static void test_resize_and_ansi(void **state)
{
	struct tc_grid g;
	grid_init(&g, 2, 2, false);
	grid_resize(&g, 5, 3);
	assert_int_equal(g.w, 5);
	grid_putr(&g, 4, 2, 'x', TC_R_CURSOR);
	struct tc_theme th;
	theme_builtin(&th);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	grid_write_ansi(&g, &th, f);
	fclose(f);
	assert_non_null(strstr(buf, "x\033[0m"));
	assert_non_null(strstr(buf, "38;5;"));
	free(buf);
	grid_free(&g);
}

/* The summary answers a block with the maximum and the union of activity. */
static void test_lsum(void **state)
{
	struct tc_trace t = { 0 };
	t.nranks = 40;
	struct tc_steps st = { 0 };
	st.t = &t;
	st.ncevs = 40 * 50;
	st.cevs = calloc(st.ncevs, sizeof *st.cevs);
	st.given = calloc(st.ncevs, sizeof *st.given);   /* no model behind these events */
	st.rank_first = calloc(41, sizeof *st.rank_first);
	for (uint32_t r = 0; r < 40; r++) {
		st.rank_first[r + 1] = (r + 1) * 50;
		for (uint32_t k = 0; k < 50; k++) {
			struct tc_cev *e = &st.cevs[r * 50 + k];
			e->rank = r;
			e->step = 2 * k;
			e->flags = k % 2 ? TC_CEV_SEND : TC_CEV_RECV;
			st.given[r * 50 + k].lateness = r * 100 + k;
			st.given[r * 50 + k].lateness_agg = 0.5;
		}
	}
	st.max_step = 98;
	struct tc_lsum *s = lsum_build(&st, TC_M_LATENESS, true);
	assert_int_equal(s->nx, 100);
	struct tc_cellsum c = lsum_query(s, 3, 4, lsum_x_of_step(true, 10), lsum_x_of_step(true, 10) + 1);
	assert_true(c.v == 305.0f);
	assert_int_equal(c.f, TC_F_SEND);
	c = lsum_query(s, 3, 4, lsum_x_of_step(true, 9), lsum_x_of_step(true, 9) + 1);
	assert_int_equal(c.f, TC_F_AGG);
	c = lsum_query(s, 0, 40, 0, 100);   /* the tile pyramid */
	assert_true(c.v == 39 * 100 + 49);
	assert_int_equal(c.f, TC_F_SEND | TC_F_RECV | TC_F_AGG);
	c = lsum_query(s, 0, 2, 0, 100);
	assert_true(c.v == 149.0f);
	assert_true(lsum_xsum(s, 0, 1) == 40 * 0.5);
	lsum_free(s);
	s = lsum_build(&st, TC_M_LATENESS, false);
	assert_int_equal(s->nx, 50);
	c = lsum_query(s, 0, 1, 5, 6);
	assert_true(c.v == 5.0f);
	lsum_free(s);
	free(st.cevs);
	free(st.given);
	free(st.rank_first);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_clip), cmocka_unit_test(test_elide_and_tail),
		cmocka_unit_test(test_utf8_and_ascii), cmocka_unit_test(test_eighths),
		cmocka_unit_test(test_resize_and_ansi), cmocka_unit_test(test_lsum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
