/* PCRE2 search and filter: matching, smart case, bad UTF-8, bad regex messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static void test_match(void **state)
{
	char *err = NULL;
	size_t off = 0;
	struct tc_regex *re = regex_new("^MPI_(Send|Recv)$", true, &err, &off);
	assert_non_null(re);
	assert_true(regex_match(re, "MPI_Send"));
	assert_false(regex_match(re, "MPI_Isend"));
	assert_false(regex_match(re, "mpi_send"));   /* capitals in the pattern: case matters */
	regex_free(re);
	re = regex_new("allreduce", true, &err, &off);   /* no capitals: either case */
	assert_true(regex_match(re, "MPI_Allreduce"));
	assert_false(regex_match(re, "compute_\xff\xfe"));   /* invalid UTF-8 just does not match */
	regex_free(re);
	re = regex_new("e", false, &err, &off);
	assert_true(regex_match(re, "compute_\xff\xfe"));
	regex_free(re);
}

static void test_bad_regex(void **state)
{
	char *err = NULL;
	size_t off = 0;
	assert_null(regex_new("MPI_(Send|Recv", true, &err, &off));
	assert_int_equal(off, 14);
	assert_string_equal(err, "missing closing parenthesis");
	char *txt = regex_error_text("MPI_(Send|Recv", err, off);
	assert_string_equal(txt, "regex error at offset 14: missing closing parenthesis\n"
				 "  MPI_(Send|Recv\n"
				 "                ^");
	free(txt);
	free(err);
	err = NULL;
	assert_null(regex_new("a{2,1}", true, &err, &off));
	assert_non_null(err);
	free(err);
	err = NULL;
	assert_null(regex_new("*x", true, &err, &off));
	free(err);
	/* the caret counts characters, not bytes */
	txt = regex_error_text("\xc3\xa9(", "m", 3);
	assert_non_null(strstr(txt, "\n    ^"));
	free(txt);
}

static void test_pathological(void **state)
{
	char *err = NULL;
	size_t off = 0;
	struct tc_regex *re = regex_new("(a+)+$", true, &err, &off);
	assert_non_null(re);
	char s[64];
	memset(s, 'a', 40);
	s[40] = 'b';
	s[41] = 0;
	assert_false(regex_match(re, s));   /* the match limit stops it: "no" */
	regex_free(re);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match), cmocka_unit_test(test_bad_regex), cmocka_unit_test(test_pathological),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
