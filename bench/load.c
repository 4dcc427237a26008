/* load.c — load, report and first-frame benchmark against the floor (the best
 * libotf2 can do, bench/rawdecode), in CPU time (user + system) as well as
 * wall time: on a shared machine CPU time is what compares.
 *
 *   load [--reps N] [--bin TRACECOMB] [--rawdecode PATH] ARCHIVE...
 *       For each archive, in one run, N rounds (default 5) of, each in a fresh
 *       child process measured by wait4 (CPU time, peak RSS, minor faults):
 *       the floor at 1 and 2 threads, our load at 1 and 2 threads (this
 *       program, --mode ours), `tracecomb report --json --threads 1` and
 *       `tracecomb render --view logical --size 120x36 --threads 1` (the first
 *       TUI frame's work).  Prints the best of each and the CPU-time ratios
 *       to the 1-thread floor (of the best times; and the median and range of
 *       the ratios of each round, its runs one after another; "user x": the best
 *       run's user-mode CPU over the floor's, the rest being the kernel's, mostly
 *       first writes to fresh pages), against the goals:
 *       load <= 1.5, report <= 3, first frame <= 2.5, 2 threads faster than 1
 *       in wall time, peak <= 40 bytes/event.
 *   load --scale [--bin TRACECOMB] [--rawdecode PATH] [--idle S] ARCHIVE...
 *       One line per archive (best of 2 rounds): events, ranks, the floor,
 *       our load and the report (CPU seconds, ratio to the floor, peak RSS,
 *       bytes/event): the scaling table.
 *       With --touch-ms X (bench/touch's fresh_ms_per_mb: what a fresh MB costs
 *       here), it also prints for load, report and first frame the part of
 *       their CPU time that the first writes to their peak memory take at
 *       that price, and the ratio left without it: what the layout, not the
 *       code, costs on this machine.
 *       With --base DIR (a build of another commit: DIR/tracecomb and
 *       DIR/bench/load), each round also runs that build's load at 1 and 2
 *       threads and its first frame, right after ours: a change's before and
 *       after in one interleaved run, as ratios to the same floor.
 *       Each round also runs our load at 1 thread, the report and the first
 *       frame with TRACECOMB_HUGE_PAGES=1 (transparent huge pages, off by
 *       default: docs/model.md, "Memory", session 23), rows "... huge pages";
 *       every other run has the variable unset.
 *       With --idle S, S seconds of sleep before every run: each starts as a
 *       user's run does, after the kernel had time to hand freed memory back
 *       (a virtual machine's free-page reporting waits 2 s); without it the
 *       runs follow each other, and one finds the memory the last just freed.
 *   load --mode ours --threads T ARCHIVE
 *       One load in this process; prints "events=N seconds=S peak_rss=B". */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "read.h"
#include "util.h"

struct result {
	uint64_t events;    /* as the child printed (0 when it prints none) */
	double wall, cpu;   /* seconds */
	double user;        /* seconds of cpu in user mode (the rest is the kernel's: mostly fresh pages) */
	uint64_t peak_rss;  /* bytes */
	uint64_t minflt;
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
	printf("events=%llu seconds=%.3f peak_rss=%llu\n", (unsigned long long)tc_trace_events(t), secs,
	       (unsigned long long)tc_peak_rss());
	tc_trace_free(t);
	return 0;
}

static double idle_s;   /* --idle: seconds of sleep before every run */

/* Run argv in a child, its stdout captured (parsed for "events=") or thrown
 * away; its CPU time, peak RSS and faults from wait4.  huge: the child runs
 * with TRACECOMB_HUGE_PAGES=1, else without it. */
static int run_child(char *const argv[], bool huge, struct result *res)
{
	int fd[2];
	tc_sleep(idle_s);
	if (pipe(fd) != 0) return -1;
	double t0 = tc_now();
	pid_t pid = fork();
	if (pid < 0) return -1;
	if (pid == 0) {
		if (huge) setenv("TRACECOMB_HUGE_PAGES", "1", 1);
		else unsetenv("TRACECOMB_HUGE_PAGES");
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
	char buf[4096];
	ssize_t n;
	while ((n = read(fd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && out.len < 4096) sb_addn(&out, buf, (size_t)n);
	close(fd[0]);
	int st;
	struct rusage ru;
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR) return -1;
	double user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	*res = (struct result){
		.wall = tc_now() - t0,
		.cpu = user + (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6,
		.user = user,
		.peak_rss = (uint64_t)ru.ru_maxrss * 1024,
		.minflt = (uint64_t)ru.ru_minflt,
	};
	const char *p = out.s ? strstr(out.s, "events=") : NULL;
	unsigned long long ev = 0;
	if (p && sscanf(p, "events=%llu", &ev) == 1) res->events = ev;
	int rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
	if (rc != 0) {
		fprintf(stderr, "load: failed:");
		for (char *const *a = argv; *a; a++) fprintf(stderr, " %s", *a);
		fputc('\n', stderr);
	}
	sb_free(&out);
	return rc;
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

/* The kinds measured in one round, in this order (interleaved): HLOAD1,
 * HREPORT and HFRAME are LOAD1, REPORT and FRAME with huge pages; the last
 * three only with --base: the same as LOAD1, LOAD2 and FRAME by another
 * build, so that a change's before and after are measured in one run. */
enum kind { RAW1, RAW2, LOAD1, LOAD2, REPORT, FRAME, HLOAD1, HREPORT, HFRAME, BLOAD1, BLOAD2, BFRAME, NKIND };
static const char *const kind_name[NKIND] = { "floor 1 thread", "floor 2 threads", "load 1 thread",
					      "load 2 threads", "report --json", "first frame",
					      "load, huge pages", "report, huge pg", "1st frame, huge",
					      "base load 1 thr", "base load 2 thr", "base 1st frame" };

static bool kind_huge(enum kind k)
{
	return k == HLOAD1 || k == HREPORT || k == HFRAME;
}

/* The kind whose command line k runs (a huge-page kind: its plain twin's). */
static enum kind kind_cmd(enum kind k)
{
	return k == HLOAD1 ? LOAD1 : k == HREPORT ? REPORT : k == HFRAME ? FRAME : k;
}

struct prog { const char *self, *raw, *bin, *bself, *bbin; };  /* bself, bbin: --base, else NULL */

static void kind_argv(const struct prog *P, enum kind k, const char *path, char **a)
{
#define LOAD_ARGV(self, th) { (char *)(self), "--mode", "ours", "--threads", th, (char *)path, NULL }
#define FRAME_ARGV(bin) { (char *)(bin), "render", (char *)path, "--view", "logical", "--size", "120x36", \
			  "--threads", "1", "--no-cache", NULL }
	char *const v[NKIND][12] = {
		[RAW1] = { (char *)P->raw, "--threads", "1", (char *)path, NULL },
		[RAW2] = { (char *)P->raw, "--threads", "2", (char *)path, NULL },
		[LOAD1] = LOAD_ARGV(P->self, "1"),
		[LOAD2] = LOAD_ARGV(P->self, "2"),
		/* from the archive, never from an analysis cache a `prep` may have left (docs/cache.md) */
		[REPORT] = { (char *)P->bin, "report", "--json", "--threads", "1", "--no-cache", (char *)path, NULL },
		[FRAME] = FRAME_ARGV(P->bin),
		[BLOAD1] = LOAD_ARGV(P->bself, "1"),
		[BLOAD2] = LOAD_ARGV(P->bself, "2"),
		[BFRAME] = FRAME_ARGV(P->bbin),
	};
#undef LOAD_ARGV
#undef FRAME_ARGV
	memcpy(a, v[kind_cmd(k)], sizeof v[0]);
}

/* The kinds this run measures: the base's only with --base. */
static int nkinds(const struct prog *P)
{
	return P->bself ? NKIND : BLOAD1;
}

static void keep_best(struct result *best, const struct result *r, bool first)
{
	if (first || r->cpu < best->cpu) {
		uint64_t ev = best->events;
		*best = *r;
		if (!r->events) best->events = ev;
	}
	best->peak_rss = TC_MAX(best->peak_rss, r->peak_rss);
	if (!best->events) best->events = r->events;
}

static void goal(double v, double limit)
{
	printf("   (goal <= %.1f: %s)", limit, v <= limit ? "met" : "MISSED");
}

/* At touch_ms CPU ms per fresh MB: the part of each run's CPU that writing
 * its peak memory for the first time takes (a lower bound: memory freed and
 * taken again from the kernel is paid twice), and its ratio without that. */
static void fresh_share(const struct result *best, double touch_ms)
{
	static const enum kind ks[3] = { LOAD1, REPORT, FRAME };
	double floor = best[RAW1].cpu, floor_mem = (double)best[RAW1].peak_rss / 1048576.0 * touch_ms * 1e-3;
	printf("  first writes to the peak memory at %.2f ms/MB (bench/touch): floor %.3f s of %.3f\n", touch_ms,
	       floor_mem, floor);
	for (int i = 0; i < 3; i++) {
		const struct result *r = &best[ks[i]];
		double mem = (double)r->peak_rss / 1048576.0 * touch_ms * 1e-3;
		printf("    %-14s %.3f s of %.3f (%.0f %%); ratio without them %.2f\n", kind_name[ks[i]], mem, r->cpu,
		       r->cpu > 0 ? 100.0 * mem / r->cpu : 0, floor > floor_mem ? (r->cpu - mem) / (floor - floor_mem) : 0);
	}
}

static int bench_archive(const struct prog *P, const char *path, int reps, double touch_ms)
{
	struct result best[NKIND] = { 0 };
	double bestwall[NKIND] = { 0 };
	double *pair[NKIND];
	for (int k = 0; k < NKIND; k++) pair[k] = xcalloc((size_t)reps, sizeof(double));
	int rc = 0;
	int nk = nkinds(P);
	for (int i = 0; i < reps && !rc; i++) {
		struct result r[NKIND];
		for (int k = 0; k < nk && !rc; k++) {
			char *a[12];
			kind_argv(P, (enum kind)k, path, a);
			if (run_child(a, kind_huge((enum kind)k), &r[k]) != 0) { rc = 1; break; }
			keep_best(&best[k], &r[k], i == 0);
			if (i == 0 || r[k].wall < bestwall[k]) bestwall[k] = r[k].wall;
		}
		if (rc) break;
		for (int k = 0; k < nk; k++) pair[k][i] = r[RAW1].cpu > 0 ? r[k].cpu / r[RAW1].cpu : 0;
	}
	if (!rc) {
		double floor = best[RAW1].cpu;
		uint64_t ev = best[RAW1].events;
		printf("archive %s: %llu events%s\n", path, (unsigned long long)ev,
		       best[LOAD1].events == ev ? "" : "   (EVENT COUNT MISMATCH)");
		double ufloor = best[RAW1].user;
		printf("  %-16s %8s %8s %7s  %-18s %6s %9s %8s %10s\n", "", "wall s", "CPU s", "CPU/floor",
		       "paired (median, range)", "user x", "peak MiB", "B/event", "minor flt");
		for (int k = 0; k < nk; k++) {
			qsort(pair[k], (size_t)reps, sizeof(double), tc_cmp_double);
			printf("  %-16s %8.3f %8.3f %7.2f    %5.2f (%.2f-%.2f)     %6.2f %9.1f %8.1f %10llu", kind_name[k],
			       bestwall[k], best[k].cpu, floor > 0 ? best[k].cpu / floor : 0, pair[k][reps / 2],
			       pair[k][0], pair[k][reps - 1], ufloor > 0 ? best[k].user / ufloor : 0,
			       (double)best[k].peak_rss / 1048576.0,
			       ev ? (double)best[k].peak_rss / (double)ev : 0, (unsigned long long)best[k].minflt);
			double ratio = floor > 0 ? best[k].cpu / floor : 0;
			if (k == LOAD1 || k == BLOAD1 || k == HLOAD1) goal(ratio, 1.5);
			if (k == REPORT || k == HREPORT) goal(ratio, 3.0);
			if (k == FRAME || k == BFRAME || k == HFRAME) goal(ratio, 2.5);
			putchar('\n');
		}
		double bpe = ev ? (double)best[LOAD1].peak_rss / (double)ev : 0;
		printf("  load peak %.1f bytes/event", bpe);
		goal(bpe, 40);
		printf("\n  2 threads / 1 thread, wall: load %.2f (goal < 1: %s), floor %.2f\n",
		       bestwall[LOAD1] > 0 ? bestwall[LOAD2] / bestwall[LOAD1] : 0,
		       bestwall[LOAD2] < bestwall[LOAD1] ? "met" : "MISSED",
		       bestwall[RAW1] > 0 ? bestwall[RAW2] / bestwall[RAW1] : 0);
		if (P->bself)
			printf("  base: load peak %.1f bytes/event, 2 threads / 1 thread wall %.2f\n",
			       ev ? (double)best[BLOAD1].peak_rss / (double)ev : 0,
			       bestwall[BLOAD1] > 0 ? bestwall[BLOAD2] / bestwall[BLOAD1] : 0);
		if (touch_ms > 0) fresh_share(best, touch_ms);
	}
	for (int k = 0; k < NKIND; k++) free(pair[k]);
	return rc;
}

/* One row of the scaling table: best of 2 rounds of floor, load, report. */
static int scale_archive(const struct prog *P, const char *path)
{
	static const enum kind ks[3] = { RAW1, LOAD1, REPORT };
	struct result best[3] = { 0 };
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 3; k++) {
			char *a[12];
			struct result r;
			kind_argv(P, ks[k], path, a);
			if (run_child(a, false, &r) != 0) return 1;
			keep_best(&best[k], &r, i == 0);
		}
	uint64_t ev = best[0].events;
	double floor = best[0].cpu, ufloor = best[0].user;
	printf("  %-40s %10llu %9.3f %9.3f %6.2f %6.2f %8.1f %6.1f %9.3f %6.2f %6.2f %8.1f\n", path,
	       (unsigned long long)ev, floor, best[1].cpu, floor > 0 ? best[1].cpu / floor : 0,
	       ufloor > 0 ? best[1].user / ufloor : 0, (double)best[1].peak_rss / 1048576.0,
	       ev ? (double)best[1].peak_rss / (double)ev : 0, best[2].cpu, floor > 0 ? best[2].cpu / floor : 0,
	       ufloor > 0 ? best[2].user / ufloor : 0, (double)best[2].peak_rss / 1048576.0);
	fflush(stdout);
	return 0;
}

static TC_NORETURN void usage(void)
{
	fprintf(stderr, "usage: load [--reps N] [--bin TRACECOMB] [--rawdecode PATH] [--touch-ms X] [--base DIR] [--idle S]\n"
			"            ARCHIVE...\n"
			"       load --scale [--bin TRACECOMB] [--rawdecode PATH] [--idle S] ARCHIVE...\n"
			"       load --mode ours --threads T ARCHIVE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = "all", *raw = NULL, *bin = NULL, *base = NULL;
	int threads = 1, reps = 5;
	double touch_ms = 0;
	bool scale = false;
	VEC(const char *) paths = { 0 };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc) mode = argv[++i];
		else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
		else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
		else if (strcmp(argv[i], "--rawdecode") == 0 && i + 1 < argc) raw = argv[++i];
		else if (strcmp(argv[i], "--bin") == 0 && i + 1 < argc) bin = argv[++i];
		else if (strcmp(argv[i], "--touch-ms") == 0 && i + 1 < argc) touch_ms = atof(argv[++i]);
		else if (strcmp(argv[i], "--base") == 0 && i + 1 < argc) base = argv[++i];
		else if (strcmp(argv[i], "--idle") == 0 && i + 1 < argc) idle_s = atof(argv[++i]);
		else if (strcmp(argv[i], "--scale") == 0) scale = true;
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
	char *binpath = bin ? xstrdup(bin) : sibling(self, "../../tracecomb");
	char *bself = base ? xasprintf("%s/bench/load", base) : NULL;
	char *bbin = base ? xasprintf("%s/tracecomb", base) : NULL;
	struct prog P = { self, rawpath, binpath, bself, bbin };
	int rc = 0;
	if (scale) {
		printf("  x: CPU / the floor's CPU; user x: user-mode CPU / the floor's (the rest is the kernel's,\n"
		       "  mostly first writes to fresh pages: docs/model.md, \"Load time\")\n");
		printf("  %-40s %10s %9s %9s %6s %6s %8s %6s %9s %6s %6s %8s\n", "archive", "events", "floor s", "load s",
		       "x", "user x", "peak MiB", "B/ev", "report s", "x", "user x", "peak MiB");
		for (size_t i = 0; i < paths.n && !rc; i++) rc |= scale_archive(&P, paths.a[i]);
	} else {
		printf("best of %d rounds, every measurement in a fresh process; CPU = user + system (wait4);\n"
		       "ratios are CPU time over the 1-thread floor's", reps);
		if (idle_s > 0) printf("; %g s idle before every run", idle_s);
		putchar('\n');
		for (size_t i = 0; i < paths.n && !rc; i++) rc |= bench_archive(&P, paths.a[i], reps, touch_ms);
	}
	free(self);
	free(rawpath);
	free(binpath);
	free(bself);
	free(bbin);
	VEC_FREE(paths);
	return rc;
}
