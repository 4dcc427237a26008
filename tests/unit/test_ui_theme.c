/* Theme parsing: good files, and every kind of bad file reports file:line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static void test_builtin(void **state)
{
	struct tc_theme th;
	theme_builtin(&th);
	assert_string_equal(th.name, "default");
	assert_int_equal(th.role[TC_R_MAP7].bg.kind, TC_COL_RGB);
	assert_int_equal(th.role[TC_R_MAP7].bg.r, 0xb2);
	assert_int_equal(th.role[TC_R_NORMAL].fg.kind, TC_COL_DEFAULT);
}

static void test_good(void **state)
{
	const char *y = "name: t1\n"
			"monochrome: false\n"
			"colors:\n"
			"  cursor: { fg: black, bg: \"#0f0\", attrs: [bold, underline], mono: reverse }\n"
			"  map0: { bg: 33 }\n";
	struct tc_theme th;
	char *err = NULL;
	assert_true(theme_parse(&th, y, strlen(y), "t1.yaml", &err));
	assert_string_equal(th.name, "t1");
	assert_int_equal(th.role[TC_R_CURSOR].fg.kind, TC_COL_INDEX);
	assert_int_equal(th.role[TC_R_CURSOR].fg.index, 0);
	assert_int_equal(th.role[TC_R_CURSOR].bg.g, 255);
	assert_int_equal(th.role[TC_R_CURSOR].attr, TC_A_BOLD | TC_A_UNDERLINE);
	assert_int_equal(th.role[TC_R_CURSOR].mono, TC_A_REVERSE);
	assert_int_equal(th.role[TC_R_MAP0].bg.index, 33);
	/* roles not named keep the built-in colours */
	assert_int_equal(th.role[TC_R_MAP7].bg.r, 0xb2);
}

static void expect_error(const char *y, const char *want)
{
	struct tc_theme th;
	theme_builtin(&th);
	char *err = NULL;
	assert_false(theme_parse(&th, y, strlen(y), "bad.yaml", &err));
	assert_non_null(err);
	if (strncmp(err, want, strlen(want)) != 0) fail_msg("got '%s', want prefix '%s'", err, want);
	free(err);
	assert_string_equal(th.name, "default");   /* unchanged */
}

static void test_errors(void **state)
{
	expect_error("name: x\ncolors:\n  cursor: { fg: \"#12345\" }\n", "bad.yaml:3:17: bad colour '#12345'");
	expect_error("name: x\ncolors:\n  curser: { fg: red }\n", "bad.yaml:3:3: unknown role 'curser'");
	expect_error("name: x\ncolors:\n  cursor: { fg: red, blink: yes }\n", "bad.yaml:3:22: unknown key 'blink'");
	expect_error("name: x\ncolors:\n  cursor: { attrs: [bold, wavy] }\n", "bad.yaml:3:27: unknown attribute 'wavy'");
	expect_error("name: x\ncolors: [1, 2\n", "bad.yaml:3:1: did not find expected ',' or ']'");
	expect_error("- a\n- b\n", "bad.yaml:1:1: expected a mapping");
	expect_error("", "bad.yaml:1:1: empty theme file");
	expect_error("nmae: x\n", "bad.yaml:1:1: unknown key 'nmae'");
	expect_error("colors:\n  map3: { bg: 256 }\n", "bad.yaml:2:15: bad colour '256'");
}

static void test_files(void **state)
{
	struct tc_theme th;
	char *err = NULL;
	assert_false(theme_load(&th, "/nonexistent/x.yaml", &err));
	assert_non_null(strstr(err, "/nonexistent/x.yaml: No such file"));
	free(err);
	err = NULL;
	assert_false(theme_load(&th, "no-such-theme", &err));
	assert_non_null(strstr(err, "no theme 'no-such-theme'"));
	free(err);
	err = NULL;
	assert_true(theme_load(&th, "default", &err));
	/* the shipped themes (tests run from the source tree) */
	const char *names[] = { "default", "light", "mono", "colorblind" };
	for (size_t i = 0; i < 4; i++) {
		err = NULL;
		if (!theme_load(&th, names[i], &err)) fail_msg("%s: %s", names[i], err);
		assert_string_equal(th.name, names[i]);
	}
	assert_true(th.role[TC_R_MAP0].bg.kind == TC_COL_RGB);
	assert_true(theme_load(&th, "mono", &err) && th.monochrome);
}

static void test_color_mapping(void **state)
{
	struct tc_color c = { .kind = TC_COL_RGB, .r = 255, .g = 0, .b = 0 };
	assert_int_equal(color_to_256(&c), 196);
	assert_int_equal(color_to_ansi(&c, 8), 1);
	assert_int_equal(color_to_ansi(&c, 16), 9);
	c = (struct tc_color){ .kind = TC_COL_RGB, .r = 0x80, .g = 0x80, .b = 0x80 };
	assert_int_equal(color_to_256(&c), 244);
	c = (struct tc_color){ .kind = TC_COL_INDEX, .index = 4 };
	assert_int_equal(color_to_256(&c), 4);
	c = (struct tc_color){ .kind = TC_COL_DEFAULT };
	assert_int_equal(color_to_256(&c), -1);
}

/* Thousands of damaged copies of a real theme: never a crash, and every
 * rejection is "file:line:col: problem". */
static void test_mutations(void **state)
{
	FILE *f = fopen("themes/default.yaml", "rb");
	if (!f) skip();
	char base[16384];
	size_t n = fread(base, 1, sizeof base - 1, f);
	fclose(f);
	base[n] = 0;
	static const char alphabet[] = ":{}[],#\"'\n -a0&*!|>%@`\t\\";
	uint64_t x = 0x2545f4914f6cdd1dULL;
	char buf[16384];
	int rejected = 0;
	for (int it = 0; it < 4000; it++) {
		memcpy(buf, base, n + 1);
		size_t len = n;
		int edits = 1 + it % 4;
		for (int e = 0; e < edits; e++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			size_t pos = (size_t)(x % len);
			switch ((x >> 32) % 3) {
			case 0: buf[pos] = alphabet[(x >> 40) % (sizeof alphabet - 1)]; break;
			case 1: len = pos; buf[len] = 0; break;                         /* truncate */
			default: buf[pos] = (char)(x >> 48); break;                     /* any byte */
			}
			if (!len) { buf[0] = 'x'; buf[1] = 0; len = 1; }
		}
		struct tc_theme th;
		char *err = NULL;
		if (!theme_parse(&th, buf, len, "mut.yaml", &err)) {
			unsigned line, col;
			char c;
			if (!err || sscanf(err, "mut.yaml:%u:%u%c", &line, &col, &c) != 3 || c != ':' || !line || !col)
				fail_msg("bad error text: %s", err ? err : "(null)");
			free(err);
			rejected++;
		}
	}
	assert_true(rejected > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin), cmocka_unit_test(test_good), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_files), cmocka_unit_test(test_color_mapping), cmocka_unit_test(test_mutations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
