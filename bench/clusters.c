/* bench/clusters.c — clustering time of one large phase, on a hand-built
 * struct tc_steps (no trace, no steps engine): RANKS ranks × STEPS steps in
 * one partition, four lateness groups (rank mod 16 < 1, < 4, < 8, rest) with
 * per-event noise and ranks that skip every third step, so the fill rule of
 * the distance is exercised.  Prints the time of the first tc_clusters_phase
 * (CLARA + single linkage + cut + exchange + focus) and of the glyphs of the
 * visible clusters.
 *   usage: build/bench/clusters [RANKS [STEPS]]   (default 65536 × 50) */
#include <stdio.h>
#include <stdlib.h>

#include "analysis_cluster.h"

static int group_of(uint32_t r)
{
	uint32_t g = r % 16;
	return g < 1 ? 0 : g < 4 ? 1 : g < 8 ? 2 : 3;
}

int main(int argc, char **argv)
{
	uint32_t nranks = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 65536;
	uint32_t nsteps = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 50;
	if (!nranks || !nsteps) {
		fprintf(stderr, "usage: %s [RANKS [STEPS]]\n", argv[0]);
		return 1;
	}
	struct tc_steps s = { 0 };
	s.cevs = xcalloc((size_t)nranks * nsteps, sizeof *s.cevs);
	s.given = xcalloc((size_t)nranks * nsteps, sizeof *s.given);   /* no model behind these events */
	s.rank_first = xcalloc((size_t)nranks + 1, sizeof *s.rank_first);
	uint64_t x = 88172645463325252ULL;
	size_t n = 0;
	for (uint32_t r = 0; r < nranks; r++) {
		s.rank_first[r] = (uint32_t)n;
		static const double base_of[4] = { 0.040, 0.020, 0.010, 0.001 };
		double base = base_of[group_of(r)];
		for (uint32_t i = 0; i < nsteps; i++) {
			if (r % 5 == 1 && i % 3 == 2) continue;   /* gaps */
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			struct tc_cev *e = &s.cevs[n++];
			e->rank = r;
			e->step = 2 * i;
			e->flags = i % 2 ? TC_CEV_RECV : TC_CEV_SEND;
			struct tc_cev_given *g = &s.given[n - 1];
			g->lateness = base + 0.002 * (double)(x % 1000) / 1000.0;
			g->lateness_agg = g->lateness / 2;
			e->op = TC_NONE;
		}
	}
	s.rank_first[nranks] = (uint32_t)n;
	s.ncevs = n;
	s.npartitions = 1;
	struct tc_partition part = { .first_step = 0, .last_step = 2 * (nsteps - 1), .ncevs = (uint32_t)n, .nranks = nranks };
	s.parts = &part;
	s.max_step = 2 * (nsteps - 1);

	double t0 = tc_now();
	struct tc_clusters *c = tc_clusters_new(&s, NULL);
	double t1 = tc_now();
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	double t2 = tc_now();
	struct tc_cluster_glyph *g = xmalloc(nsteps * sizeof *g);
	for (uint32_t v = 0; v < ph->nvisible; v++) tc_clusters_glyphs(c, 0, ph->visible[v], 0, nsteps, g);
	double t3 = tc_now();
	for (uint32_t v = 0; v < ph->nvisible; v++) tc_clusters_glyphs(c, 0, ph->visible[v], 0, nsteps, g);
	double t4 = tc_now();
	uint32_t cen = tc_clusters_centroid(c, 0, ph->root);
	double t5 = tc_now();

	printf("clusters: %u ranks x %u steps (%zu events) in one phase\n", nranks, nsteps, n);
	printf("  index partitions     %8.3f s\n", t1 - t0);
	printf("  cluster the phase    %8.3f s  (%s, %u leaves, default cut %u clusters)\n", t2 - t1,
	       ph->clara ? "CLARA" : "direct", ph->nleaves, ph->default_clusters);
	printf("  glyphs, first call   %8.3f s  (%u visible clusters x %u steps, builds the leaf cells)\n", t3 - t2,
	       ph->nvisible, nsteps);
	printf("  glyphs, again        %8.3f s\n", t4 - t3);
	printf("  centroid of the root %8.3f s  (rank %u)\n", t5 - t4, cen);
	/* are the clusters exactly the four planted groups? */
	bool exact = ph->nvisible == 4;
	for (uint32_t v = 0; v < ph->nvisible; v++) {
		const struct tc_cnode *N = &ph->nodes[ph->visible[v]];
		printf("  cluster %u: %u ranks, mean %.4f, max %.4f, medoid %u\n", v, N->size, N->mean, N->max, N->medoid);
		for (uint32_t i = 1; i < N->size; i++) exact = exact && group_of(ph->members[N->first + i]) == group_of(ph->members[N->first]);
	}
	printf("  planted groups recovered exactly: %s\n", exact ? "yes" : "no");
	printf("  peak RSS %.1f MiB\n", (double)tc_peak_rss() / (1 << 20));
	free(g);
	tc_clusters_free(c);
	free(s.cevs);
	free(s.given);
	free(s.rank_first);
	return 0;
}
