/* report.c — `tracecomb report TRACE [--json] [--section NAME[,NAME...]]`. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static int usage(void)
{
	fprintf(stderr, "usage: tracecomb report TRACE [--json | --csv] [--section NAME[,NAME...]] [--opt KEY=VALUE] [--limit N]\n"
			"       [--no-cache | --cache FILE]\n"
			"  --limit N   list at most N items in each long list (0 = all; default: each list's own cut,\n"
			"              all for per_rank/per_location); JSON says <list>_total and <list>_truncated\n"
			"sections:");
	for (size_t i = 0; i < report_nsections; i++) fprintf(stderr, " %s", report_sections[i].name);
	fputc('\n', stderr);
	return 1;
}

/* A --section value naming one table ("profile.per_rank") rather than
 * sections: taken as the --csv table. */
static bool csv_table_arg(const char *v, const char **table)
{
	if (!strchr(v, '.') || strchr(v, ',')) return false;
	*table = v;
	return true;
}

struct report_args {
	struct tc_read_opts opts;
	struct cli_cache cache;
	const char *path, *csv_table;
	bool json, csv;
	VEC(const struct report_section *) want;
	VEC(const char *) kv;      /* --opt and --limit settings, checked */
	VEC(char *) owned;         /* "limit=N" strings given to the session */
};

/* --limit N: checked as the option limit=N.  0 or the exit code. */
static int limit_arg(struct report_args *A, const char *v)
{
	char *e = NULL, *limit_kv = xasprintf("limit=%s", v);
	VEC_PUSH(A->owned, limit_kv);
	if (!report_opt_check(limit_kv, &e)) {
		fprintf(stderr, "tracecomb report: --limit %s: %s\n", v, strstr(e, "takes") ? strstr(e, "takes") : e);
		free(e);
		return 1;
	}
	VEC_PUSH(A->kv, limit_kv);
	return 0;
}

/* --opt KEY=VALUE (checked) or --section a,b,... (known names, or one
 * table for --csv).  0 or the exit code. */
static int section_or_opt_arg(struct report_args *A, bool sec, const char *v)
{
	if (!sec) {
		char *e = NULL;
		if (!report_opt_check(v, &e)) {
			fprintf(stderr, "tracecomb report: %s\n", e);
			free(e);
			return 1;
		}
		VEC_PUSH(A->kv, v);
		return 0;
	}
	if (csv_table_arg(v, &A->csv_table)) return 0;
	char *list = xstrdup(v);
	int rc = 0;
	for (char *save, *tok = strtok_r(list, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		const struct report_section *r = report_find(tok);
		if (r) VEC_PUSH(A->want, r);
		else {
			fprintf(stderr, "tracecomb report: unknown section '%s'\n", tok);
			rc = usage();
		}
	}
	free(list);
	return rc;
}

/* The command line and what goes together (--csv takes one table).  0 or the
 * exit code. */
static int parse_args(int argc, char **argv, struct report_args *A)
{
	for (int i = 1; i < argc; i++) {
		int rc = 0;
		if (!strcmp(argv[i], "--json")) A->json = true;
		else if (!strcmp(argv[i], "--csv")) A->csv = true;
		else if (!strcmp(argv[i], "--limit") && i + 1 < argc) rc = limit_arg(A, argv[++i]);
		else if (cli_opt_threads(argc, argv, &i, &A->opts)) continue;
		else if (cli_opt_cache(argc, argv, &i, &A->cache)) continue;
		else if ((!strcmp(argv[i], "--section") || !strcmp(argv[i], "--opt")) && i + 1 < argc) {
			bool sec = !strcmp(argv[i], "--section");
			rc = section_or_opt_arg(A, sec, argv[++i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "tracecomb report: unknown option '%s'\n", argv[i]);
			rc = usage();
		} else if (!A->path) A->path = argv[i];
		else rc = usage();
		if (rc) return rc;
	}
	if (!A->path) return usage();
	if (A->csv && !A->csv_table && A->want.n == 1) {
		A->csv_table = A->want.a[0]->name;
		A->want.n = 0;
	}
	if (!A->csv && A->csv_table) {
		fprintf(stderr, "tracecomb report: --section %s names a table: for --csv\n", A->csv_table);
		return 1;
	}
	if (A->csv && (!A->csv_table || A->json || A->want.n)) {
		fprintf(stderr, "tracecomb report: --csv needs one --section NAME[.LIST] (a table: %s)\n",
			"e.g. profile, profile.per_rank, profile.per_location, waitstates.longest, latency.top");
		return 1;
	}
	if (!A->want.n)
		for (size_t i = 0; i < report_nsections; i++) VEC_PUSH(A->want, &report_sections[i]);
	return 0;
}

/* The sections as text, as one JSON object, or the one table as CSV.  0 or 1. */
static int write_report(struct tc_session *s, const struct report_args *A)
{
	if (A->csv) {
		char *e = NULL;
		if (report_csv(s, A->csv_table, stdout, &e)) return 0;
		fprintf(stderr, "tracecomb report: --csv --section %s: %s\n", A->csv_table, e);
		free(e);
		return 1;
	}
	if (A->json) {
		report_json(s, A->want.a, A->want.n, stdout);
		return 0;
	}
	for (size_t i = 0; i < A->want.n; i++) {
		printf("%s== %s ==\n", i ? "\n" : "", A->want.a[i]->name);
		A->want.a[i]->text(s, stdout);
		report_release(s, A->want.a, A->want.n, i);
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args A = { 0 };
	int rc = parse_args(argc, argv, &A);
	if (!rc) {
		VEC(const char *) kv = { 0 };
		if (A.csv) VEC_PUSH(kv, "limit=0");   /* a table whole unless --limit says otherwise */
		for (size_t i = 0; i < A.kv.n; i++) VEC_PUSH(kv, A.kv.a[i]);
		struct tc_session *s = cli_open(A.path, &A.opts, &A.cache, kv.a, kv.n);
		VEC_FREE(kv);
		if (!s) rc = 2;
		else {
			rc = write_report(s, &A);
			session_free(s);
		}
	}
	VEC_FREE(A.want);
	VEC_FREE(A.kv);
	for (size_t i = 0; i < A.owned.n; i++) free(A.owned.a[i]);
	VEC_FREE(A.owned);
	return rc;
}
