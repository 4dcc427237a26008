/* steps.c — benchmark of the logical-time engine (partitions, steps, metrics).
 *
 *   steps ARCHIVE
 *       load seconds, steps+metrics seconds and the ratio steps/load, with
 *       the default options, then with the caller merge (one partition for a
 *       code whose MPI sits in one function), the leap merge, and Lamport steps.
 *   steps --halo RANKS ITERS
 *       the same on an in-memory ring halo built with the model builder
 *       (tests/support/steps_halo.c; one delayed compute block), without OTF2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_steps.h"
#include "read.h"
#include "steps_halo.h"

/* CPU seconds of this process: steadier than wall time on a shared machine */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_steps(const struct tc_trace *t, double load_s)
{
	static const char *const names[] = { "default", "caller_merge", "leap_merge", "lamport" };
	for (int v = 0; v < 4; v++) {
		struct tc_steps_opts o;
		tc_steps_default_opts(&o);
		o.caller_merge = v == 1;
		o.leap_merge = v == 2;
		o.lamport = v == 3;
		double t0 = tc_now(), c0 = cpu_now();
		struct tc_steps *s = tc_steps_compute(t, &o);
		double secs = tc_now() - t0, cpu = cpu_now() - c0;
		printf("steps %-13s %8.3f s  ratio steps/load %.2f  (cpu %.3f s; %zu comm events, %u partitions, %u steps, %.0f ns/comm event)\n",
		       names[v], secs, load_s > 0 ? secs / load_s : 0, cpu, s->ncevs, s->npartitions, s->max_step + 1,
		       s->ncevs ? secs * 1e9 / (double)s->ncevs : 0);
		tc_steps_free(s);
	}
	printf("peak rss %.1f MiB\n", (double)tc_peak_rss() / (1 << 20));
}

int main(int argc, char **argv)
{
	struct tc_trace *t;
	double t0 = tc_now();
	const char *what;
	if (argc == 4 && !strcmp(argv[1], "--halo")) {
		struct halo_spec h = { .nranks = (uint32_t)strtoul(argv[2], NULL, 10),
				       .iters = (uint32_t)strtoul(argv[3], NULL, 10), .res = 1000000000,
				       .work = 100000, .delay_rank = 1, .delay_iter = 2, .delay = 50000 };
		if (!h.nranks || !h.iters) goto usage;
		t = halo_trace(&h);
		what = "build";
	} else if (argc == 2 && argv[1][0] != '-') {
		struct tc_read_opts ro = { 0 };
		char *err = NULL;
		t = tc_read_otf2(argv[1], &ro, &err);
		if (!t) {
			fprintf(stderr, "steps: %s\n", err ? err : "cannot load");
			free(err);
			return 2;
		}
		what = "load";
	} else {
		goto usage;
	}
	double load_s = tc_now() - t0;
	printf("%-19s %8.3f s  (%u ranks, %llu events, %zu messages)\n", what, load_s, t->nranks,
	       (unsigned long long)tc_trace_events(t), t->nmsgs);
	run_steps(t, load_s);
	tc_trace_free(t);
	return 0;
usage:
	fprintf(stderr, "usage: steps ARCHIVE | steps --halo RANKS ITERS\n");
	return 1;
}
