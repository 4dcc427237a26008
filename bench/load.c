/* load.c — load benchmark: our reader (tc_read_otf2) against raw libotf2 decode.
 *
 *   load [--reps N] [--rawdecode PATH] ARCHIVE...
 *       For each archive, in one run: raw decode seconds (build/bench/rawdecode,
 *       1 and 2 threads), our load seconds (1 and 2 threads), the ratios
 *       load/raw at the same thread count (goal <= 1.5) and of our 2-thread
 *       load to the 1-thread raw decode, peak memory in bytes per event and
 *       the 2-thread speed-up.  Every measurement runs in a fresh child
 *       process (best of N runs, default 5, the four kinds interleaved), so
 *       peak RSS belongs to one load only.
 *   load --mode ours --threads T ARCHIVE
 *       One load in this process; prints "events=N seconds=S peak_rss=B". */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "read.h"
#include "util.h"

#define GOAL_RATIO 1.5

struct result {
	uint64_t events;
	double seconds;
	uint64_t peak_rss;   /* 0 when not reported */
};

static int measure_ours(const char *path, int threads)
{
	struct tc_read_opts opts = { .threads = threads };
	char *err = NULL;
	double t0 = tc_now();
	struct tc_trace *t = tc_read_otf2(path, &opts, &err);
	double secs = tc_now() - t0;
	if (!t) {
		fprintf(stderr, "load: %s\n", err ? err : "tc_read_otf2 failed");
		free(err);
		return 1;
	}
	uint64_t events = tc_trace_events(t);
	uint64_t rss = tc_peak_rss();
	printf("events=%llu seconds=%.3f peak_rss=%llu\n", (unsigned long long)events, secs,
	       (unsigned long long)rss);
	tc_trace_free(t);
	return 0;
}

/* Run argv[0] with argv, capture stdout and parse "events= seconds= [peak_rss=]". */
static int run_child(char *const argv[], struct result *res)
{
	int fd[2];
	if (pipe(fd) != 0) return -1;
	pid_t pid = fork();
	if (pid < 0) return -1;
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		fprintf(stderr, "load: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	struct strbuf out;
	sb_init(&out);
	char buf[1024];
	ssize_t n;
	while ((n = read(fd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0) sb_addn(&out, buf, (size_t)n);
	close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) return -1;
	int rc = -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && out.s) {
		unsigned long long ev = 0, rss = 0;
		double s = 0;
		const char *p = strstr(out.s, "events=");
		if (p && sscanf(p, "events=%llu seconds=%lf", &ev, &s) == 2) {
			const char *q = strstr(p, "peak_rss=");
			if (q) sscanf(q, "peak_rss=%llu", &rss);
			res->events = ev;
			res->seconds = s;
			res->peak_rss = rss;
			rc = 0;
		}
	}
	if (rc != 0) {
		fprintf(stderr, "load: failed:");
		for (char *const *a = argv; *a; a++) fprintf(stderr, " %s", *a);
		fputc('\n', stderr);
	}
	sb_free(&out);
	return rc;
}

/* Fold one run into the best (fastest) so far; peak_rss is the largest seen. */
static void keep_best(struct result *best, const struct result *r, bool first)
{
	if (first || r->seconds < best->seconds) {
		best->seconds = r->seconds;
		best->events = r->events;
	}
	best->peak_rss = TC_MAX(best->peak_rss, r->peak_rss);
}

static char *self_path(const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		return xstrdup(buf);
	}
	return xstrdup(argv0);
}

static char *sibling(const char *self, const char *name)
{
	const char *slash = strrchr(self, '/');
	if (!slash) return xstrdup(name);
	return xasprintf("%.*s/%s", (int)(slash - self), self, name);
}

static int bench_archive(const char *self, const char *raw, const char *path, int reps)
{
	struct result raw1 = { 0 }, raw2 = { 0 }, ours1 = { 0 }, ours2 = { 0 };
	char *a_raw1[] = { (char *)raw, "--threads", "1", (char *)path, NULL };
	char *a_raw2[] = { (char *)raw, "--threads", "2", (char *)path, NULL };
	char *a_ours1[] = { (char *)self, "--mode", "ours", "--threads", "1", (char *)path, NULL };
	char *a_ours2[] = { (char *)self, "--mode", "ours", "--threads", "2", (char *)path, NULL };
	/* interleaved, so that a drift of the machine's speed hits both sides alike */
	char *const *argvs[4] = { a_raw1, a_ours1, a_raw2, a_ours2 };
	struct result *best[4] = { &raw1, &ours1, &raw2, &ours2 };
	double *pair[2] = { xcalloc((size_t)reps, sizeof(double)), xcalloc((size_t)reps, sizeof(double)) };
	for (int i = 0; i < reps; i++) {
		double sec[4];
		for (int k = 0; k < 4; k++) {
			struct result r;
			if (run_child(argvs[k], &r) != 0) {
				free(pair[0]);
				free(pair[1]);
				return 1;
			}
			keep_best(best[k], &r, i == 0);
			sec[k] = r.seconds;
		}
		pair[0][i] = sec[0] > 0 ? sec[1] / sec[0] : 0;
		pair[1][i] = sec[2] > 0 ? sec[3] / sec[2] : 0;
	}
	double ratio1 = raw1.seconds > 0 ? ours1.seconds / raw1.seconds : 0;
	double ratio2 = raw2.seconds > 0 ? ours2.seconds / raw2.seconds : 0;
	double speedup = ours2.seconds > 0 ? ours1.seconds / ours2.seconds : 0;
	double bpe1 = ours1.events ? (double)ours1.peak_rss / (double)ours1.events : 0;
	double bpe2 = ours2.events ? (double)ours2.peak_rss / (double)ours2.events : 0;
	printf("archive %s\n", path);
	printf("  events                 raw %llu, ours %llu%s\n", (unsigned long long)raw1.events,
	       (unsigned long long)ours1.events, raw1.events == ours1.events ? "" : "   (MISMATCH)");
	printf("  raw decode seconds     1 thread %.3f   2 threads %.3f\n", raw1.seconds, raw2.seconds);
	printf("  our load seconds       1 thread %.3f   2 threads %.3f\n", ours1.seconds, ours2.seconds);
	printf("  ratio load/raw         1 thread %.2f   (goal <= %.1f: %s)   2 threads %.2f (goal: %s)\n",
	       ratio1, GOAL_RATIO, ratio1 <= GOAL_RATIO ? "met" : "MISSED", ratio2,
	       ratio2 <= GOAL_RATIO ? "met" : "MISSED");
	for (int k = 0; k < 2; k++) qsort(pair[k], (size_t)reps, sizeof(double), tc_cmp_double);
	printf("  paired ratios          1 thread %.2f (%.2f-%.2f)   2 threads %.2f (%.2f-%.2f)   (median (range) of the %d rounds, each measured back to back)\n",
	       pair[0][reps / 2], pair[0][0], pair[0][reps - 1], pair[1][reps / 2], pair[1][0], pair[1][reps - 1], reps);
	free(pair[0]);
	free(pair[1]);
	printf("  ours 2 threads / raw 1 thread %.2f   (libotf2 alone decodes in one thread; our default is min(cores, 4))\n",
	       raw1.seconds > 0 ? ours2.seconds / raw1.seconds : 0);
	printf("  peak memory            1 thread %.1f   2 threads %.1f bytes/event (%.1f MiB peak RSS)\n", bpe1,
	       bpe2, (double)TC_MAX(ours1.peak_rss, ours2.peak_rss) / 1048576.0);
	printf("  2-thread speed-up      ours %.2fx   raw %.2fx\n", speedup,
	       raw2.seconds > 0 ? raw1.seconds / raw2.seconds : 0);
	return 0;
}

static TC_NORETURN void usage(void)
{
	fprintf(stderr, "usage: load [--reps N] [--rawdecode PATH] ARCHIVE...\n"
			"       load --mode ours --threads T ARCHIVE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = "all", *raw = NULL;
	int threads = 1, reps = 5;
	VEC(const char *) paths = { 0 };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc) mode = argv[++i];
		else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
		else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
		else if (strcmp(argv[i], "--rawdecode") == 0 && i + 1 < argc) raw = argv[++i];
		else if (argv[i][0] == '-') usage();
		else VEC_PUSH(paths, argv[i]);
	}
	if (paths.n == 0 || threads < 1 || reps < 1) usage();
	if (strcmp(mode, "ours") == 0) {
		if (paths.n != 1) usage();
		int rc = measure_ours(paths.a[0], threads);
		VEC_FREE(paths);
		return rc;
	}
	if (strcmp(mode, "all") != 0) usage();
	char *self = self_path(argv[0]);
	char *rawpath = raw ? xstrdup(raw) : sibling(self, "rawdecode");
	int rc = 0;
	printf("load benchmark: best of %d runs each, every measurement in a fresh process\n", reps);
	for (size_t i = 0; i < paths.n; i++) rc |= bench_archive(self, rawpath, paths.a[i], reps);
	free(self);
	free(rawpath);
	VEC_FREE(paths);
	return rc;
}
