/* remap.c — `tracecomb remap TRACE [-o FILE] [--format openmpi|mpich|plain]
 * [--weight bytes|messages]`: a rank placement that cuts inter-node traffic.
 * Nothing is written unless -o is given, and never into the trace directory. */
#include <stdlib.h>
#include <string.h>

#include "analysis_remap.h"
#include "cli.h"

static int usage(void)
{
	fprintf(stderr, "usage: tracecomb remap TRACE [-o FILE [--force]] [--format openmpi|mpich|plain] [--weight bytes|messages]\n");
	return 1;
}

int cmd_remap(int argc, char **argv)
{
	struct tc_read_opts opts = { 0 };
	const char *path = NULL, *out = NULL, *format = "openmpi";
	enum tc_remap_weight w = TC_REMAP_BYTES;
	bool force = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
		else if (!strcmp(argv[i], "--force")) force = true;
		else if (!strcmp(argv[i], "--format") && i + 1 < argc) format = argv[++i];
		else if (!strcmp(argv[i], "--weight") && i + 1 < argc) {
			const char *v = argv[++i];
			if (!strcmp(v, "bytes")) w = TC_REMAP_BYTES;
			else if (!strcmp(v, "messages")) w = TC_REMAP_MESSAGES;
			else return usage();
		} else if (cli_opt_threads(argc, argv, &i, &opts)) continue;
		else if (argv[i][0] == '-' && argv[i][1]) return usage();
		else if (!path) path = argv[i];
		else return usage();
	}
	if (!path) return usage();
	if (strcmp(format, "openmpi") && strcmp(format, "mpich") && strcmp(format, "plain")) {
		fprintf(stderr, "tracecomb remap: unknown format '%s' (openmpi, mpich, plain)\n", format);
		return 1;
	}
	struct tc_trace *t = cli_load(path, &opts);
	if (!t) return 2;
	struct cli_out o;
	int rc = out ? cli_out_open(&o, out, force, t->anchor) : 0;
	if (rc) {
		tc_trace_free(t);
		return rc;
	}
	struct tc_remap *r = tc_remap_compute(t, w);
	double pm = r->inter_msgs_before ? 100.0 * (1.0 - (double)r->inter_msgs_after / (double)r->inter_msgs_before) : 0;
	printf("ranks %u on %u nodes (at most %u per node)\n", r->nranks, r->nnodes, r->capacity);
	printf("inter-node messages %llu -> %llu (%.1f%% fewer)\n", (unsigned long long)r->inter_msgs_before,
	       (unsigned long long)r->inter_msgs_after, pm);
	printf("inter-node bytes    %llu -> %llu\n", (unsigned long long)r->inter_bytes_before,
	       (unsigned long long)r->inter_bytes_after);
	printf("ranks moved         %u%s\n", r->moved, r->improved ? "" : " (the trace's placement is already as good)");
	if (out) {
		tc_remap_write(t, r, format, o.f);
		if (!(rc = cli_out_close(&o))) printf("wrote %s (%s)\n", out, format);
	}
	tc_remap_free(r);
	tc_trace_free(t);
	return rc;
}
