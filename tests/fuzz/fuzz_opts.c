/* fuzz_opts.c — libFuzzer target: the input is a list of --opt values, one
 * "KEY=VALUE" per line.  Each goes through report_opt_check as `report
 * --opt` does; the accepted ones are set on a session over a small generated
 * trace (8 ranks in 2 planted groups on 2 nodes, tests/support/latency_gen.c)
 * and every report section is computed, as text and JSON, to /dev/null.
 * A refused option must say why; an accepted one must not reach undefined
 * behaviour, a crash, a hang or a huge allocation in any analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "latency_gen.h"
#include "report.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	devnull = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096) return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	fz_cpu_begin();
	struct tc_session *s = session_new(gen_groups(8, 2, 2, 1, 4, NULL));
	for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *err = NULL;
		if (report_opt_check(line, &err)) session_set_opt(s, line);
		else if (!err) abort(); /* a refusal always says why */
		free(err);
	}
	fz_report_all(s, devnull);
	session_free(s);
	fz_cpu_end();
	free(text);
	return 0;
}
