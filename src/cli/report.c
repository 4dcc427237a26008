/* report.c — `tracecomb report TRACE [--json] [--section NAME[,NAME...]]`. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static int usage(void)
{
	fprintf(stderr, "usage: tracecomb report TRACE [--json] [--section NAME[,NAME...]] [--opt KEY=VALUE]\n"
			"sections:");
	for (size_t i = 0; i < report_nsections; i++) fprintf(stderr, " %s", report_sections[i].name);
	fputc('\n', stderr);
	return 1;
}

int cmd_report(int argc, char **argv)
{
	struct tc_read_opts opts = { 0 };
	const char *path = NULL;
	bool json = false;
	VEC(const struct report_section *) want = { 0 };
	VEC(const char *) kv = { 0 };
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) json = true;
		else if (cli_opt_threads(argc, argv, &i, &opts)) continue;
		else if ((!strcmp(argv[i], "--section") || !strcmp(argv[i], "--opt")) && i + 1 < argc) {
			bool sec = !strcmp(argv[i], "--section");
			char *list = xstrdup(argv[++i]);
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
	if (!want.n)
		for (size_t i = 0; i < report_nsections; i++) VEC_PUSH(want, &report_sections[i]);
	struct tc_trace *t = cli_load(path, &opts);
	if (!t) { rc = 2; goto out; }
	struct tc_session *s = session_new(t);
	for (size_t i = 0; i < kv.n; i++) session_set_opt(s, kv.a[i]);
	if (json) {
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
	return rc;
}
