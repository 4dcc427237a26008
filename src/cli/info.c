/* info.c — `tracecomb info TRACE [--json]`: what is in the archive. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

int cmd_info(int argc, char **argv)
{
	struct tc_read_opts opts = { 0 };
	struct cli_cache cache = { 0 };
	const char *path = NULL;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) json = true;
		else if (cli_opt_threads(argc, argv, &i, &opts)) continue;
		else if (cli_opt_cache(argc, argv, &i, &cache)) continue;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "tracecomb info: unknown option '%s'\n", argv[i]);
			return 1;
		} else if (!path) path = argv[i];
		else {
			fprintf(stderr, "tracecomb info: one trace at a time\n");
			return 1;
		}
	}
	if (!path) {
		fprintf(stderr, "usage: tracecomb info TRACE [--json] [--threads N] [--no-cache | --cache FILE]\n");
		return 1;
	}
	struct tc_session *s = cli_open(path, &opts, &cache, NULL, 0);
	if (!s) return 2;
	if (json) {
		struct json j;
		json_init(&j, stdout, 2);
		report_info_json(s, &j);
		json_finish(&j);
	} else {
		report_info_text(s, stdout);
	}
	session_free(s);
	return 0;
}
