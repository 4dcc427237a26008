/* cache.c — the analysis cache's figures (docs/cache.md, issue 18 §1):
 *
 *   cache [--rounds N] [--bin TRACECOMB] [--rawdecode PATH] [--idle S] ARCHIVE
 *
 * prep's time (wall and CPU, one run), the cache file's size against the
 * model's bytes in memory (tc_trace_bytes; goal <= 1.2), then N interleaved
 * rounds (default 3) of the floor (bench/rawdecode) and of the first frame
 * from the cache (`tracecomb render ARCHIVE --view logical --size 120x36
 * --cache FILE`, a fresh process: open, check, draw), best CPU of each and
 * their ratio (goal <= 0.1), and in this process what opening costs without
 * the large sections' checksums and what those checksums cost.  CPU times of
 * children from getrusage(RUSAGE_CHILDREN); the file goes to a temporary
 * directory, removed at the end.  --idle S: S seconds of sleep before each
 * timed run, as bench/load --idle (a user's run, not one on the memory the
 * last just freed). */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_span.h"
#include "analysis_steps.h"
#include "cache.h"
#include "read.h"

static double children_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
}

static double idle_s;   /* --idle: seconds of sleep before every run */

/* Run a shell command; its CPU time (and wall time in *wall); -1 when it fails. */
static double run(const char *cmd, double *wall)
{
	tc_sleep(idle_s);
	double c0 = children_cpu(), t0 = tc_now();
	int rc = system(cmd);
	if (wall) *wall = tc_now() - t0;
	if (rc != 0) {
		fprintf(stderr, "cache: failed: %s\n", cmd);
		return -1;
	}
	return children_cpu() - c0;
}

/* In this process: open without the large sections' checksums, then those. */
static int open_split(const char *file, const char *archive)
{
	char *err = NULL, *anchor = tc_find_anchor(archive, &err);
	char *ident = anchor ? tc_cache_identity(anchor, NULL, 0, &err) : NULL;
	if (!ident) {
		fprintf(stderr, "cache: %s\n", err);
		return 1;
	}
	struct tc_trace *t;
	struct tc_steps *st;
	struct tc_span *span;
	double c0 = tc_usage().cpu;
	enum tc_cache_status rc = tc_cache_open(file, ident, anchor, TC_VERIFY_SMALL, &t, &st, &span, &err);
	double c1 = tc_usage().cpu;
	bool ok = rc == TC_CACHE_OK && tc_cache_verify_rest(t, &err);
	double c2 = tc_usage().cpu;
	if (!ok) {
		fprintf(stderr, "cache: %s\n", err ? err : "cannot open");
		return 1;
	}
	printf("open (header, identity, small sections and steps checked, pointers fixed up): %.3f s CPU\n", c1 - c0);
	printf("checksums of the large sections (the model's arrays; the file is %.1f MB): %.3f s CPU\n",
	       (double)t->mapped.cap / 1e6, c2 - c1);
	tc_span_free(span);
	tc_steps_free(st);
	tc_trace_free(t);
	free(ident);
	free(anchor);
	return 0;
}

/* The cache's size against the model's bytes in memory (the archive read here). */
static void size_ratio(const char *archive, const char *file)
{
	struct tc_read_opts ro = { .threads = 1 };
	char *err = NULL;
	struct tc_trace *t = tc_read_otf2(archive, &ro, &err);
	struct stat st;
	if (!t || stat(file, &st) != 0) {
		fprintf(stderr, "cache: %s\n", err ? err : file);
		free(err);
		return;
	}
	uint64_t model = tc_trace_bytes(t);
	printf("cache size %.1f MB / model %.1f MB in memory = %.3f (goal <= 1.2)\n", (double)st.st_size / 1e6,
	       (double)model / 1e6, (double)st.st_size / (double)model);
	tc_trace_free(t);
}

int main(int argc, char **argv)
{
	const char *bin = "./tracecomb", *raw = "build/bench/rawdecode", *archive = NULL;
	int rounds = 3;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--bin") && i + 1 < argc) bin = argv[++i];
		else if (!strcmp(argv[i], "--rawdecode") && i + 1 < argc) raw = argv[++i];
		else if (!strcmp(argv[i], "--idle") && i + 1 < argc) idle_s = atof(argv[++i]);
		else archive = argv[i];
	}
	if (!archive || rounds < 1) {
		fprintf(stderr, "usage: cache [--rounds N] [--bin TRACECOMB] [--rawdecode PATH] [--idle S] ARCHIVE\n");
		return 1;
	}
	char dir[] = "/tmp/tracecomb-bench-cache.XXXXXX";
	if (!mkdtemp(dir)) return 1;
	char *file = xasprintf("%s/bench.tcc", dir);
	char *prep = xasprintf("'%s' prep '%s' -o '%s' --threads 1 >/dev/null", bin, archive, file);
	char *frame = xasprintf("'%s' render '%s' --view logical --size 120x36 --threads 1 --cache '%s' >/dev/null 2>&1",
				bin, archive, file);
	char *floor = xasprintf("'%s' '%s' >/dev/null", raw, archive);
	double wall, cpu = run(prep, &wall);
	int rc = cpu < 0;
	if (!rc) printf("prep: %.3f s CPU, %.3f s wall\n", cpu, wall);
	double best_raw = 1e30, best_frame = 1e30;
	for (int r = 0; r < rounds && !rc; r++) {
		double a = run(floor, NULL), b = run(frame, NULL);
		if (a < 0 || b < 0) rc = 1;
		best_raw = TC_MIN(best_raw, a), best_frame = TC_MIN(best_frame, b);
		printf("round %d: floor %.3f s, first frame from the cache %.3f s (%.3f)\n", r + 1, a, b, b / a);
	}
	if (!rc) {
		printf("first frame from the cache / raw decode (CPU, best of %d): %.3f / %.3f = %.3f (goal <= 0.1)\n",
		       rounds, best_frame, best_raw, best_frame / best_raw);
		rc = open_split(file, archive);
		size_ratio(archive, file);
	}
	unlink(file);
	rmdir(dir);
	free(file), free(prep), free(frame), free(floor);
	return rc;
}
