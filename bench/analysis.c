/* analysis.c — analysis benchmark on one archive: each analysis timed after
 * the load and printed as a ratio to the raw libotf2 decode time of the same
 * archive (measured by bench/rawdecode in the same `make bench` run and passed
 * with --raw).
 *
 *   analysis ARCHIVE --raw SECONDS [--rc-only]
 * --rc-only: skip the clusters and the profile (the root-cause line and its
 * inputs only).  * Goals (design.md, issues 3, 5 and 13): steps + all metrics ≤ 1× raw decode,
 * clustering all phases ≤ 0.5× raw decode, root causes (wait/own split,
 * excess, delay costs, critical path) + verdicts ≤ 1× raw decode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_cluster.h"
#include "analysis_origins.h"
#include "analysis_latency.h"
#include "analysis_profile.h"
#include "analysis_rootcause.h"
#include "analysis_span.h"
#include "analysis_verdict.h"
#include "analysis_steps.h"
#include "analysis_waitstate.h"
#include "read.h"

/* The floor's CPU seconds, measured now by the rawdecode next to this
 * program (same run, same machine state); 0 when it cannot be run. */
static double floor_cpu(const char *self, const char *archive)
{
	const char *slash = strrchr(self, '/');
	char *cmd = xasprintf("'%.*srawdecode' '%s'", slash ? (int)(slash - self + 1) : 0, self, archive);
	FILE *p = popen(cmd, "r");
	free(cmd);
	double cpu = 0;
	char buf[256];
	while (p && fgets(buf, sizeof buf, p)) {
		const char *c = strstr(buf, " cpu=");
		if (c) cpu = atof(c + 5);
	}
	if (p) pclose(p);
	return cpu;
}

/* Resident set now and its peak since the last reset (/proc/self/status;
 * writing 5 to /proc/self/clear_refs resets the peak), bytes. */
static void rss_now_peak(uint64_t *now, uint64_t *peak)
{
	*now = *peak = 0;
	FILE *f = fopen("/proc/self/status", "r");
	char buf[256];
	while (f && fgets(buf, sizeof buf, f)) {
		unsigned long long kb;
		if (sscanf(buf, "VmHWM: %llu", &kb) == 1) *peak = kb * 1024;
		if (sscanf(buf, "VmRSS: %llu", &kb) == 1) *now = kb * 1024;
	}
	if (f) fclose(f);
}

static bool reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (!f) return false;
	bool ok = fputs("5", f) >= 0;
	return fclose(f) == 0 && ok;
}

/* A timed stage: wall and CPU seconds (every thread of the process) and
 * page faults since stage_begin. */
struct stage { double t0; struct tc_usage u0; };

static struct stage stage_begin(void)
{
	return (struct stage){ tc_now(), tc_usage() };
}

/* One line: wall time, its ratio to the floor's wall time, and the CPU time
 * (the analyses' CPU summed over the whole report is what the report's CPU
 * ratio is made of); goal > 0: the wall-time goal. */
static double line(const char *what, struct stage s, double raw, double goal)
{
	double wall = tc_now() - s.t0;
	struct tc_usage u = tc_usage();
	double cpu = u.cpu - s.u0.cpu;
	printf("  %-28s %8.3f s   %5.2f x raw   CPU %6.3f s", what, wall, wall / raw, cpu);
	if (goal > 0) printf("   (goal <= %.1f: %s)", goal, wall / raw <= goal ? "met" : "MISSED");
	putchar('\n');
	return cpu;
}

static struct tc_clusters *bench_clusters(const struct tc_steps *st, double raw, double *cpu)
{
	struct stage s = stage_begin();
	struct tc_clusters *cl = tc_clusters_new(st, NULL);
	tc_clusters_compute_all(cl, 0);
	uint32_t nclusters = 0;
	for (uint32_t p = 0; p < st->npartitions; p++) {
		const struct tc_phase_clusters *ph = tc_clusters_phase(cl, p);
		if (ph) nclusters += ph->nvisible;
	}
	*cpu += line("clusters, all phases (2 thr)", s, raw, 0.5);
	printf("  %-28s %u clusters at the default cuts of %u phases\n", "", nclusters, st->npartitions);
	return cl;
}

/* The root causes' lines: their details, and their CPU against the floor's. */
static void rc_lines(const struct tc_rootcause *rc, const struct tc_verdicts *V, size_t nog, double cpu, double fcpu,
		     struct tc_usage u0, struct tc_usage u1, struct tc_usage u2, struct tc_usage u3)
{
	printf("  %-28s %zu activities, %u contexts, path %zu pieces, %zu origins; top verdict %s\n", "", rc->nacts,
	       rc->nctx, rc->npath, nog, tc_cause_names[V->v[0].cause]);
	size_t nmpi = 0;
	for (size_t i = 0; i < rc->nacts; i++) nmpi += tc_rc_act_kind(rc, (uint32_t)i) == TC_ACT_MPI;
	printf("  %-28s %zu MPI calls, %zu with a partner (wait records), %zu with excess\n", "", nmpi, rc->nwaits,
	       rc->nexcess);
	if (fcpu > 0)
		printf("  root causes + verdicts CPU   %8.3f s   %5.2f x the floor's CPU %.3f s (goal <= 1.0: %s)\n", cpu,
		       cpu / fcpu, fcpu, cpu / fcpu <= 1.0 ? "met" : "MISSED");
	printf("  %-28s span %.3f s, verdicts + origins %.3f s (%llu faults)\n", "", u1.cpu - u0.cpu, u3.cpu - u2.cpu,
	       (unsigned long long)(u3.minflt - u2.minflt));
	for (int k = 0; k < TC_RCP_COUNT; k++)
		printf("  %-28s %-13s %.3f s CPU (%llu faults)\n", "", tc_rc_phase_names[k], rc->phase_cpu[k],
		       (unsigned long long)rc->phase_faults[k]);
}

/* issue 13: critical path + wait/own split + delay costs + verdicts <= 1x raw,
 * in CPU time against the floor's CPU time measured just before by
 * rawdecode.  The verdicts' other inputs (latency, steps, wait states) are
 * timed before; the remap (METIS) is part of `report`, not of this line.
 * Returns their CPU seconds. */
static double bench_rootcause(const struct tc_trace *t, const struct tc_latency *lat, const struct tc_steps *st,
			      const struct tc_waitstates *ws, double fcpu, double raw)
{
	uint64_t rss0, peak;
	bool peak_ok = reset_peak();
	rss_now_peak(&rss0, &peak);
	struct stage s = stage_begin();
	struct tc_usage u0 = s.u0;
	struct tc_span *sp = tc_span_compute(t, false);
	struct tc_usage u1 = tc_usage();
	struct tc_rootcause *rc = tc_rootcause_compute(t, sp, NULL);
	double trc = tc_now() - s.t0;
	struct tc_usage u2 = tc_usage();
	double t0 = tc_now();
	struct tc_verdicts *V = tc_verdicts_compute(t, lat, st, ws, NULL, rc, NULL);
	struct tc_origin og[10];
	size_t nog = tc_origins(rc, st, TC_NELEM(og), og);
	double tv = tc_now() - t0;
	struct tc_usage u3 = tc_usage();
	uint64_t rss1;
	rss_now_peak(&rss1, &peak);
	line("root causes + verdicts", s, raw, 0);
	printf("  %-28s activities, wait/own, excess, delay costs, critical path %.3f s; verdicts + origins %.3f s\n", "",
	       trc, tv);
	double cpu = u3.cpu - u0.cpu;
	rc_lines(rc, V, nog, cpu, fcpu, u0, u1, u2, u3);
	uint64_t nev = tc_trace_events(t);
	if (peak_ok && peak > rss0)
		printf("  %-28s peak above the loaded state %.1f MiB (%.1f B/event)\n", "", (double)(peak - rss0) / 1048576,
		       (double)(peak - rss0) / (double)(nev ? nev : 1));
	tc_verdicts_free(V);
	tc_rootcause_free(rc);
	tc_span_free(sp);
	return cpu;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	double raw = 0;
	bool rc_only = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--raw") && i + 1 < argc) raw = atof(argv[++i]);
		else if (!strcmp(argv[i], "--rc-only")) rc_only = true;
		else path = argv[i];
	}
	if (!path || raw <= 0) {
		fprintf(stderr, "usage: analysis ARCHIVE --raw SECONDS [--rc-only]\n");
		return 2;
	}
	struct tc_read_opts ro = { .threads = 1 };
	char *err = NULL;
	struct stage s = stage_begin();
	struct tc_trace *t = tc_read_otf2(path, &ro, &err);
	if (!t) {
		fprintf(stderr, "analysis: %s\n", err);
		return 2;
	}
	printf("analysis benchmark: %s (raw decode %.3f s, 1 thread)\n", path, raw);
	double load_cpu = line("load (1 thread)", s, raw, 0), cpu = 0;
	printf("  %-28s reading %.3f s, matching and indexing %.3f s\n", "", t->read_seconds, t->finish_seconds);

	struct tc_steps_opts so;
	tc_steps_default_opts(&so);
	s = stage_begin();
	struct tc_steps *st = tc_steps_compute(t, &so);
	cpu += line("steps + metrics", s, raw, 1.0);
	printf("  %-28s %zu communication events, %u partitions, %u steps\n", "", st->ncevs, st->npartitions,
	       st->max_step + 1);
	struct tc_clusters *cl = rc_only ? NULL : bench_clusters(st, raw, &cpu);

	s = stage_begin();
	struct tc_waitstates *ws = tc_waitstates_compute(t);
	cpu += line("wait states", s, raw, 0);

	s = stage_begin();
	struct tc_profile *pr = rc_only ? NULL : tc_profile_compute(t);
	if (pr) cpu += line("profile", s, raw, 0);

	struct tc_latency_opts lo;
	tc_latency_default_opts(&lo);
	s = stage_begin();
	struct tc_latency *lat = tc_latency_compute(t, &lo);
	cpu += line("latency + regions + evolution", s, raw, 0);
	printf("  %-28s %u regions\n", "", lat->nregions);

	double fcpu = floor_cpu(argv[0], path);
	cpu += bench_rootcause(t, lat, st, ws, fcpu, raw);
	if (fcpu > 0)
		printf("  CPU: load %.3f s + these analyses %.3f s = %.3f s, %.2f x the floor's CPU (the report adds the\n"
		       "  remap, the critical path's JSON and the output)\n",
		       load_cpu, cpu, load_cpu + cpu, (load_cpu + cpu) / fcpu);

	tc_latency_free(lat);
	if (pr) tc_profile_free(pr);
	tc_waitstates_free(ws);
	if (cl) tc_clusters_free(cl);
	tc_steps_free(st);
	tc_trace_free(t);
	return 0;
}
