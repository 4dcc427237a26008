/* report.c — `tracecomb report TRACE [--json] [--section NAME[,NAME...]]`. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static int usage(void)
{
	fprintf(stderr, "usage: tracecomb report TRACE [--json] [--section NAME[,NAME...]] [--opt KEY=VALUE] [--limit N]\n"
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

int cmd_report(int argc, char **argv)
{
	struct tc_read_opts opts = { 0 };
	const char *path = NULL;
	bool json = false, csv = false;
	const char *csv_table = NULL;
	VEC(const struct report_section *) want = { 0 };
	VEC(const char *) kv = { 0 };
	VEC(char *) owned = { 0 };   /* "limit=N" strings given to the session */
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) json = true;
		else if (!strcmp(argv[i], "--csv")) csv = true;
		else if (!strcmp(argv[i], "--limit") && i + 1 < argc) {
			char *e = NULL, *limit_kv = xasprintf("limit=%s", argv[++i]);
			VEC_PUSH(owned, limit_kv);
			if (!report_opt_check(limit_kv, &e)) {
				fprintf(stderr, "tracecomb report: --limit %s: %s\n", argv[i], strstr(e, "takes") ? strstr(e, "takes") : e);
				free(e);
				rc = 1;
				goto out;
			}
			VEC_PUSH(kv, limit_kv);
		}
		else if (cli_opt_threads(argc, argv, &i, &opts)) continue;
		else if ((!strcmp(argv[i], "--section") || !strcmp(argv[i], "--opt")) && i + 1 < argc) {
			bool sec = !strcmp(argv[i], "--section");
			char *list = xstrdup(argv[++i]);
			if (sec && csv_table_arg(argv[i], &csv_table)) { free(list); continue; }
			for (char *save, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (!sec) {
					char *e = NULL;
					if (!report_opt_check(argv[i], &e)) {
						fprintf(stderr, "tracecomb report: %s\n", e);
						free(e);
						free(list);
						rc = 1;
						goto out;
					}
					VEC_PUSH(kv, argv[i]);
					break;
				}
				const struct report_section *r = report_find(tok);
				if (!r) {
					fprintf(stderr, "tracecomb report: unknown section '%s'\n", tok);
					free(list);
					rc = usage();
					goto out;
				}
				VEC_PUSH(want, r);
			}
			free(list);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "tracecomb report: unknown option '%s'\n", argv[i]);
			rc = usage();
			goto out;
		} else if (!path) path = argv[i];
		else { rc = usage(); goto out; }
	}
	if (!path) { rc = usage(); goto out; }
	if (csv && !csv_table && want.n == 1) {
		csv_table = want.a[0]->name;
		want.n = 0;
	}
	if (!csv && csv_table) {
		fprintf(stderr, "tracecomb report: --section %s names a table: for --csv\n", csv_table);
		rc = 1;
		goto out;
	}
	if (csv && (!csv_table || json || want.n)) {
		fprintf(stderr, "tracecomb report: --csv needs one --section NAME[.LIST] (a table: %s)\n",
			"e.g. profile, profile.per_rank, profile.per_location, waitstates.longest, latency.top");
		rc = 1;
		goto out;
	}
	if (!want.n)
		for (size_t i = 0; i < report_nsections; i++) VEC_PUSH(want, &report_sections[i]);
	struct tc_trace *t = cli_load(path, &opts);
	if (!t) { rc = 2; goto out; }
	struct tc_session *s = session_new(t);
	if (csv) session_set_opt(s, "limit=0");   /* a table whole unless --limit says otherwise */
	for (size_t i = 0; i < kv.n; i++) session_set_opt(s, kv.a[i]);
	if (csv) {
		char *e = NULL;
		if (!report_csv(s, csv_table, stdout, &e)) {
			fprintf(stderr, "tracecomb report: --csv --section %s: %s\n", csv_table, e);
			free(e);
			rc = 1;
		}
	} else if (json) {
		struct json j;
		json_init(&j, stdout, 2);
		json_obj_begin(&j);
		for (size_t i = 0; i < want.n; i++) {
			json_key(&j, want.a[i]->name);
			want.a[i]->json(s, &j);
		}
		json_obj_end(&j);
		json_finish(&j);
	} else {
		for (size_t i = 0; i < want.n; i++) {
			printf("%s== %s ==\n", i ? "\n" : "", want.a[i]->name);
			want.a[i]->text(s, stdout);
		}
	}
	session_free(s);
out:
	VEC_FREE(want);
	VEC_FREE(kv);
	for (size_t i = 0; i < owned.n; i++) free(owned.a[i]);
	VEC_FREE(owned);
	return rc;
}
