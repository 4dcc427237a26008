/* remap.c — `tracecomb remap TRACE [-o FILE] [--format openmpi|mpich|plain]
 * [--weight bytes|messages]`: a rank placement that cuts inter-node traffic.
 * Nothing is written unless -o is given, and never into the trace directory. */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_remap.h"
#include "cli.h"

static int usage(void)
{
	fprintf(stderr, "usage: tracecomb remap TRACE [-o FILE] [--format openmpi|mpich|plain] [--weight bytes|messages]\n");
	return 1;
}

/* True when FILE would land inside the directory holding the anchor (or below it). */
static bool inside_trace_dir(const char *anchor, const char *file)
{
	char *a = xstrdup(anchor), *f = xstrdup(file);
	char ra[PATH_MAX], rf[PATH_MAX];
	bool inside = false;
	if (realpath(dirname(a), ra) && realpath(dirname(f), rf)) {
		size_t n = strlen(ra);
		inside = !strncmp(rf, ra, n) && (rf[n] == '\0' || rf[n] == '/');
	}
	free(a);
	free(f);
	return inside;
}

int cmd_remap(int argc, char **argv)
{
	struct tc_read_opts opts = { 0 };
	const char *path = NULL, *out = NULL, *format = "openmpi";
	enum tc_remap_weight w = TC_REMAP_BYTES;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
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
	int rc = 0;
	if (out && inside_trace_dir(t->anchor, out)) {
		fprintf(stderr, "tracecomb remap: %s: refusing to write into the trace directory\n", out);
		tc_trace_free(t);
		return 1;
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
		FILE *f = fopen(out, "w");
		if (!f) {
			fprintf(stderr, "tracecomb remap: %s: cannot write\n", out);
			rc = 2;
		} else {
			tc_remap_write(t, r, format, f);
			if (fclose(f) != 0) {
				fprintf(stderr, "tracecomb remap: %s: write failed\n", out);
				rc = 2;
			} else {
				printf("wrote %s (%s)\n", out, format);
			}
		}
	}
	tc_remap_free(r);
	tc_trace_free(t);
	return rc;
}
