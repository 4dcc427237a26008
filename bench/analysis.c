/* analysis.c — analysis benchmark on one archive: each analysis timed after
 * the load and printed as a ratio to the raw libotf2 decode time of the same
 * archive (measured by bench/rawdecode in the same `make bench` run and passed
 * with --raw).
 *
 *   analysis ARCHIVE --raw SECONDS
 * Goals (design.md, issues 3, 5 and 13): steps + all metrics ≤ 1× raw decode,
 * clustering all phases ≤ 0.5× raw decode, root causes (wait/own split,
 * excess, delay costs, critical path) + verdicts ≤ 1× raw decode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_cluster.h"
#include "analysis_latency.h"
#include "analysis_profile.h"
#include "analysis_rootcause.h"
#include "analysis_span.h"
#include "analysis_verdict.h"
#include "analysis_steps.h"
#include "analysis_waitstate.h"
#include "read.h"

static void line(const char *what, double s, double raw, double goal)
{
	printf("  %-28s %8.3f s   %5.2f x raw", what, s, s / raw);
	if (goal > 0) printf("   (goal <= %.1f: %s)", goal, s / raw <= goal ? "met" : "MISSED");
	putchar('\n');
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	double raw = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--raw") && i + 1 < argc) raw = atof(argv[++i]);
		else path = argv[i];
	}
	if (!path || raw <= 0) {
		fprintf(stderr, "usage: analysis ARCHIVE --raw SECONDS\n");
		return 2;
	}
	struct tc_read_opts ro = { .threads = 1 };
	char *err = NULL;
	double t0 = tc_now();
	struct tc_trace *t = tc_read_otf2(path, &ro, &err);
	if (!t) {
		fprintf(stderr, "analysis: %s\n", err);
		return 2;
	}
	double load = tc_now() - t0;
	printf("analysis benchmark: %s (raw decode %.3f s, 1 thread)\n", path, raw);
	line("load (1 thread)", load, raw, 0);
	printf("  %-28s reading %.3f s, matching and indexing %.3f s\n", "", t->read_seconds, t->finish_seconds);

	struct tc_steps_opts so;
	tc_steps_default_opts(&so);
	t0 = tc_now();
	struct tc_steps *st = tc_steps_compute(t, &so);
	double steps = tc_now() - t0;
	line("steps + metrics", steps, raw, 1.0);
	printf("  %-28s %zu communication events, %u partitions, %u steps\n", "", st->ncevs, st->npartitions,
	       st->max_step + 1);

	t0 = tc_now();
	struct tc_clusters *cl = tc_clusters_new(st, NULL);
	tc_clusters_compute_all(cl, 0);
	uint32_t nclusters = 0;
	for (uint32_t p = 0; p < st->npartitions; p++) {
		const struct tc_phase_clusters *ph = tc_clusters_phase(cl, p);
		if (ph) nclusters += ph->nvisible;
	}
	line("clusters, all phases (2 thr)", tc_now() - t0, raw, 0.5);
	printf("  %-28s %u clusters at the default cuts of %u phases\n", "", nclusters, st->npartitions);

	t0 = tc_now();
	struct tc_waitstates *ws = tc_waitstates_compute(t);
	line("wait states", tc_now() - t0, raw, 0);

	t0 = tc_now();
	struct tc_profile *pr = tc_profile_compute(t);
	line("profile", tc_now() - t0, raw, 0);

	struct tc_latency_opts lo;
	tc_latency_default_opts(&lo);
	t0 = tc_now();
	struct tc_latency *lat = tc_latency_compute(t, &lo);
	line("latency + regions + evolution", tc_now() - t0, raw, 0);
	printf("  %-28s %u regions\n", "", lat->nregions);

	/* issue 13: critical path + wait/own split + delay costs + verdicts <= 1x raw.
	 * The verdicts' other inputs (latency, steps, wait states) are timed above;
	 * the remap (METIS) is part of `report`, not of this line. */
	t0 = tc_now();
	struct tc_span *sp = tc_span_compute(t, false);
	struct tc_rootcause *rc = tc_rootcause_compute(t, sp, NULL);
	double trc = tc_now() - t0;
	t0 = tc_now();
	struct tc_verdicts *V = tc_verdicts_compute(t, lat, st, ws, NULL, rc, NULL);
	double tv = tc_now() - t0;
	line("root causes + verdicts", trc + tv, raw, 1.0);
	printf("  %-28s activities, wait/own, excess, delay costs, critical path %.3f s; verdicts %.3f s\n", "", trc, tv);
	printf("  %-28s %zu activities, %u contexts, path %zu pieces; top verdict %s\n", "", rc->nacts, rc->nctx,
	       rc->npath, tc_cause_names[V->v[0].cause]);
	tc_verdicts_free(V);
	tc_rootcause_free(rc);
	tc_span_free(sp);

	tc_latency_free(lat);
	tc_profile_free(pr);
	tc_waitstates_free(ws);
	tc_clusters_free(cl);
	tc_steps_free(st);
	tc_trace_free(t);
	return 0;
}
