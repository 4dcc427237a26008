/* test_util.c — JSON writer, rank ranges, hash map, page arrays, arena, formatting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "util.h"
#include "u64map.h"

static void test_json(void **st)
{
	(void)st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	json_init(&j, f, 0);
	json_obj_begin(&j);
	json_kstr(&j, "s", "a\"b\\c\n\x01");
	json_kint(&j, "i", -3);
	json_knum(&j, "x", 0.5);
	json_knum(&j, "nan", NAN);
	json_key(&j, "a");
	json_arr_begin(&j);
	json_uint(&j, 1);
	json_uint(&j, 0);
	json_uint(&j, UINT64_MAX);
	json_int(&j, 0);
	json_int(&j, INT64_MAX);
	json_int(&j, INT64_MIN);
	json_arr_begin(&j);
	json_arr_end(&j);
	json_obj_begin(&j);
	json_obj_end(&j);
	json_arr_end(&j);
	json_kbool(&j, "b", true);
	/* from a trace: invalid UTF-8 (a stray byte, a cut sequence) and DEL (issue 17) */
	json_kstr(&j, "u", "a\xff\xc3\xa9\x7f\xe2\x82");
	json_obj_end(&j);
	fclose(f);
	assert_string_equal(buf, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"i\":-3,\"x\":0.5,\"nan\":null,\"a\":[1,0,18446744073709551615,0,9223372036854775807,-9223372036854775808,[],{}],\"b\":true,"
				 "\"u\":\"a\\ufffd\xc3\xa9\\u007f\\ufffd\\ufffd\"}");
	free(buf);
}

static void test_ranges(void **st)
{
	(void)st;
	uint32_t v[] = { 0, 1, 2, 3, 8, 10, 11, 12 };
	struct strbuf b = { 0 };
	fmt_ranges(&b, v, 8);
	assert_string_equal(b.s, "0-3,8,10-12");
	sb_free(&b);
	fmt_ranges(&b, v, 0);
	assert_string_equal(b.s, "");
	sb_free(&b);
}

static void test_u64map(void **st)
{
	(void)st;
	struct u64map m;
	u64map_init(&m);
	for (uint64_t k = 0; k < 10000; k++) u64map_put(&m, k * 7919, (uint32_t)k);
	for (uint64_t k = 0; k < 10000; k += 2) assert_int_equal(u64map_take(&m, k * 7919), k);
	for (uint64_t k = 0; k < 10000; k++) assert_int_equal(u64map_get(&m, k * 7919), k % 2 ? (uint32_t)k : TC_NONE);
	u64map_clear(&m);
	assert_int_equal(u64map_get(&m, 7919), TC_NONE);
	u64map_put(&m, 5, 6);
	assert_int_equal(u64map_get(&m, 5), 6);
	u64map_free(&m);
}

/* tc_median by selection equals the median of the sorted values. */
static void test_median(void **st)
{
	(void)st;
	assert_true(isnan(tc_median(NULL, 0)));
	double one[1] = { 7 };
	assert_true(tc_median(one, 1) == 7);
	double odd[7] = { 9, 3, 7, 3, 8, 1, 3 };
	assert_true(tc_median(odd, 7) == 3);
	double even[8] = { 50, 10, 40, 10, 30, 20, 40, 10 };
	assert_true(tc_median(even, 8) == 25);
	double same[6] = { 2, 2, 2, 2, 2, 2 };
	assert_true(tc_median(same, 6) == 2);
	/* 1000 pseudo-random values, with repeats: against a sort */
	double v[1000], w[1000];
	uint32_t x = 12345;
	for (int n = 1; n <= 1000; n += 37) {
		for (int i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			v[i] = w[i] = (double)((x >> 16) % 97);
		}
		qsort(w, (size_t)n, sizeof *w, tc_cmp_double);
		double want = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
		assert_true(tc_median(v, (size_t)n) == want);
	}
}

/* tc_kth (Floyd-Rivest: a sampled window on more than 600 values) is the
 * k-th of the sorted values and leaves v partitioned around it, on 100,001
 * values random with and without repeats, ascending, descending, all equal,
 * at k = 0, n/4, n/3, n/2, n - 1; tc_median against a sort there too. */
static void test_kth_large(void **st)
{
	(void)st;
	enum { N = 100001 };
	double *v = malloc(N * sizeof *v), *w = malloc(N * sizeof *w), *s = malloc(N * sizeof *s);
	assert_non_null(v);
	assert_non_null(w);
	assert_non_null(s);
	uint32_t x = 777;
	for (int mode = 0; mode < 5; mode++) {
		for (size_t n = N - 2; n <= N; n++) {  /* odd and even */
			for (size_t i = 0; i < n; i++) {
				x = x * 1103515245u + 12345u;
				v[i] = mode == 0 ? (double)(x >> 8) : mode == 1 ? (double)((x >> 16) % 5)
				       : mode == 2 ? (double)i : mode == 3 ? (double)(n - i) : 1.5;
			}
			memcpy(s, v, n * sizeof *v);
			qsort(s, n, sizeof *s, tc_cmp_double);
			size_t ks[] = { 0, n / 4, n / 3, n / 2, n - 1 };
			for (size_t q = 0; q < 5; q++) {
				memcpy(w, v, n * sizeof *v);
				double got = tc_kth(w, n, ks[q]);
				assert_true(got == s[ks[q]]);
				for (size_t i = 0; i < n; i++) assert_true(i < ks[q] ? w[i] <= got : i > ks[q] ? w[i] >= got : 1);
			}
			memcpy(w, v, n * sizeof *v);
			assert_true(tc_median(w, n) == (n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2));
		}
	}
	free(v);
	free(w);
	free(s);
}

/* Word i of a test pattern (not periodic in a page). */
static uint32_t pat(size_t i, uint32_t seed)
{
	return (uint32_t)(i * 2654435761u) ^ seed;
}

/* tc_sort_u32 equals qsort with tc_cmp_u32: both branches (insertion below
 * 48 values, radix above), values that fill one, two or three digits, all
 * alike (every pass skipped), duplicates, and the extremes 0 and UINT32_MAX. */
/* tc_wrap: the lines of a text at a width, by columns (UTF-8), breaking at
 * the last space, a space right after a full line, or inside a word longer
 * than the width. */
static void check_wrap(const char *s, int w, const char *const *want, int nwant)
{
	assert_int_equal(tc_wrap(s, w, 0, NULL, NULL), nwant);
	for (int k = 0; k < nwant; k++) {
		const char *p = NULL;
		int bytes = -1;
		tc_wrap(s, w, k, &p, &bytes);
		assert_int_equal(bytes, (int)strlen(want[k]));
		assert_memory_equal(p, want[k], (size_t)bytes);
	}
}

static void test_wrap(void **state)
{
	(void)state;
	check_wrap("", 10, NULL, 0);
	check_wrap("short", 10, (const char *[]){ "short" }, 1);
	check_wrap("previous / next step (physical: time)", 12,
		   (const char *[]){ "previous /", "next step", "(physical:", "time)" }, 4);
	check_wrap("exactly ten next", 10, (const char *[]){ "exactly", "ten next" }, 2);
	check_wrap("abcdefghij klm", 10, (const char *[]){ "abcdefghij", "klm" }, 2);   /* a space after a full line */
	check_wrap("abcdefghijklm no", 5, (const char *[]){ "abcde", "fghij", "klm", "no" }, 4);
	check_wrap("two  spaces   here", 6, (const char *[]){ "two ", "spaces", "here" }, 3);
	check_wrap("é é é é é é", 5, (const char *[]){ "é é é", "é é é" }, 2);   /* columns, not bytes */
	check_wrap(" lead", 3, (const char *[]){ " le", "ad" }, 2);                  /* a leading space is no break */
}

static void test_sort_u32(void **st)
{
	(void)st;
	tc_sort_u32(NULL, 0);
	static const uint32_t masks[] = { 0xff, 0x7ff, 0x3fffff, 0xffffffff, 0 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	for (size_t mi = 0; mi < sizeof masks / sizeof *masks; mi++)
		for (size_t n = 1; n < 5000; n = n * 3 / 2 + 1) {
			uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
			for (size_t i = 0; i < n; i++) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				a[i] = (uint32_t)x & masks[mi];
				if (i % 97 == 5) a[i] = UINT32_MAX & masks[mi];
			}
			memcpy(b, a, n * sizeof *a);
			qsort(b, n, sizeof *b, tc_cmp_u32);
			tc_sort_u32(a, n);
			assert_memory_equal(a, b, n * sizeof *a);
			free(a);
			free(b);
		}
}

/* tc_pages_move: the bytes land at off whatever off's place in its page,
 * by remapped pages (long arrays, shifted in parallel chunks or in one
 * memmove) or by copy (short ones); what dst held before off stays. */
static void test_pages_move(void **st)
{
	(void)st;
	const size_t lens[] = { 100, 5 * 4096 + 12, (3u << 20) + 36 };
	const size_t offs[] = { 0, 4096, 72 * 1001, 4096 * 7 + 4092 };
	const int threads[] = { 1, 3 };
	for (size_t li = 0; li < TC_NELEM(lens); li++)
		for (size_t oi = 0; oi < TC_NELEM(offs); oi++)
			for (size_t ti = 0; ti < TC_NELEM(threads); ti++) {
				size_t len = lens[li] / 4 * 4, off = offs[oi];
				struct tc_pages src = { 0 }, dst = { 0 };
				tc_pages_reserve(&src, len);
				tc_pages_reserve(&dst, off + len);
				uint32_t *a = (uint32_t *)(void *)src.p, *b = (uint32_t *)(void *)dst.p;
				for (size_t i = 0; i < len / 4; i++) a[i] = pat(i, 7);
				for (size_t i = 0; i < off / 4; i++) b[i] = pat(i, 99);
				assert_true(tc_pages_move(&dst, off, &src, len, threads[ti]));
				assert_null(src.p);
				assert_int_equal(src.cap, 0);
				b = (uint32_t *)(void *)dst.p;
				size_t bad = 0;
				for (size_t i = 0; i < off / 4; i++) bad += b[i] != pat(i, 99);
				for (size_t i = 0; i < len / 4; i++) bad += b[off / 4 + i] != pat(i, 7);
				assert_int_equal(bad, 0);
				tc_pages_shrink(&dst, off + len);
				assert_true(dst.cap >= off + len && dst.cap < off + len + 4096);
				tc_pages_free(&dst);
			}
	/* growth keeps the contents; room faults in a batch ahead */
	struct tc_pages g = { 0 };
	size_t ready = 0;
	for (size_t i = 0; i < 300000; i++) {
		if (i >= ready) tc_pages_room(&g, i, sizeof(uint64_t), 1000, &ready);
		((uint64_t *)(void *)g.p)[i] = i * 3;
	}
	size_t bad = 0;
	for (size_t i = 0; i < 300000; i++) bad += ((uint64_t *)(void *)g.p)[i] != i * 3;
	assert_int_equal(bad, 0);
	assert_int_equal(g.cap, (size_t)4 << 20);                  /* 2.4 MB of items: doubled to 4 MiB */
	tc_pages_free(&g);
	/* with huge pages asked for (TRACECOMB_HUGE_PAGES=1), a fresh reservation
	 * of 2 MiB or more starts on a huge-page boundary, and keeps its contents
	 * when it grows; without, it is a plain mapping */
	tc_set_huge_pages(true);
	tc_pages_reserve(&g, (size_t)3 << 20);
	assert_int_equal((uintptr_t)g.p % TC_HUGE_PAGE, 0);
	memset(g.p, 0x5a, (size_t)3 << 20);
	tc_pages_reserve(&g, (size_t)9 << 20);
	assert_int_equal((unsigned char)g.p[((size_t)3 << 20) - 1], 0x5a);
	tc_pages_free(&g);
	assert_null(g.p);
	tc_set_huge_pages(false);
	tc_pages_reserve(&g, (size_t)3 << 20);
	assert_int_equal((uintptr_t)g.p % tc_page_size(), 0);
	assert_int_equal(g.cap, (size_t)4 << 20);
	tc_pages_free(&g);
}

/* tc_pages growth: doubling up to 64 MiB, then by an eighth, so a large
 * array reserves little address space it does not use (the 41 M-event trace's
 * message block asked for 268,435,512 bytes and got 512 MiB, failing under
 * ulimit -v 1300000); the contents are kept across growth. */
static void test_pages_growth(void **st)
{
	(void)st;
	struct tc_pages g = { 0 };
	tc_pages_reserve(&g, 1);
	assert_int_equal(g.cap, 16 * tc_page_size());
	g.p[0] = 'a';
	tc_pages_reserve(&g, (size_t)64 << 20);
	assert_int_equal(g.cap, (size_t)64 << 20);
	g.p[g.cap - 1] = 'z';
	tc_pages_reserve(&g, ((size_t)64 << 20) + 1);
	assert_int_equal(g.cap, (size_t)72 << 20);
	tc_pages_reserve(&g, 268435512);
	assert_true(g.cap >= 268435512 && g.cap <= 268435512 / 8 * 9 + tc_page_size());
	if (tc_page_size() == 4096) assert_int_equal(g.cap, 275824640);
	assert_int_equal(g.p[0], 'a');
	assert_int_equal(g.p[((size_t)64 << 20) - 1], 'z');
	tc_pages_free(&g);
	assert_null(g.p);
}

static void test_arena_and_fmt(void **st)
{
	(void)st;
	struct arena *a = arena_new(64);
	char *s = arena_strdup(a, "hello");
	void *big = arena_alloc(a, 1000);
	assert_string_equal(s, "hello");
	assert_int_equal(((uintptr_t)big) % 16, 0);
	assert_true(arena_used(a) >= 1016);
	arena_free(a);
	char buf[32];
	fmt_seconds(buf, sizeof buf, 0.0123);
	assert_string_equal(buf, "12.3 ms");
	fmt_seconds(buf, sizeof buf, 2.5e-6);
	assert_string_equal(buf, "2.5 us");
	fmt_bytes(buf, sizeof buf, 4177920);
	assert_string_equal(buf, "4.0 MiB");
	fmt_bytes(buf, sizeof buf, 12);
	assert_string_equal(buf, "12 B");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_u64map),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_kth_large),
		cmocka_unit_test(test_sort_u32),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_pages_move),
		cmocka_unit_test(test_pages_growth),
		cmocka_unit_test(test_arena_and_fmt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
