/* common.c — loading a trace for a command, shared option parsing. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct tc_trace *cli_load(const char *path, const struct tc_read_opts *opts)
{
	char *err = NULL;
	struct tc_trace *t = tc_read_otf2(path, opts, &err);
	if (!t) {
		fprintf(stderr, "tracecomb: %s\n", err ? err : "cannot load trace");
		free(err);
	}
	return t;
}

bool cli_opt_threads(int argc, char **argv, int *i, struct tc_read_opts *opts)
{
	const char *v = NULL;
	if (!strcmp(argv[*i], "--threads") && *i + 1 < argc) v = argv[++*i];
	else if (!strncmp(argv[*i], "--threads=", 10)) v = argv[*i] + 10;
	else return false;
	char *end;
	long n = strtol(v, &end, 10);
	if (*end || n < 1 || n > 256) {
		fprintf(stderr, "tracecomb: --threads takes a number from 1 to 256\n");
		exit(1);
	}
	opts->threads = (int)n;
	return true;
}
