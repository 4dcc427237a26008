/* regions.c — benchmark of the communication regions (free-energy distance
 * and single linkage) on in-memory models with G planted groups (ring
 * neighbours or random partners inside the groups), at 1k and 16k ranks.  Prints one line per size: ranks, messages, regions, adjusted
 * Rand index against the planted groups, and the regions time.
 * Budgets (docs/latency.md): 1k ranks < 1 s, 16k ranks < 10 s on 2 cores. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis_latency.h"
#include "latency_gen.h"

static void run(uint32_t n, uint32_t G, uint32_t deg)
{
	uint32_t *grp = xmalloc(n * sizeof *grp);
	struct tc_trace *t = deg ? gen_groups_random(n, G, deg, 3, 32, 1, grp) : gen_groups(n, G, 1, 4, 32, grp);
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	struct tc_latency *lat = tc_latency_compute(t, &o);
	printf("regions %-6s ranks=%u groups=%u messages=%zu regions=%u ari=%.3f pairs=%zu depth=%u time=%.3f s\n",
	       deg ? "random" : "ring", n, G,
	       t->nmsgs, lat->nregions, gen_ari(grp, lat->rank_region, n), lat->npairs, lat->depth_used,
	       lat->regions_seconds);
	tc_latency_free(lat);
	tc_trace_free(t);
	free(grp);
}

int main(int argc, char **argv)
{
	uint32_t G = argc > 1 ? (uint32_t)atoi(argv[1]) : 16;
	/* ring: 4 partners per rank inside the group; random: 8 drawn partners (≈16 with the incoming) */
	run(1024, G, 0);
	run(16384, G, 0);
	run(1024, G, 8);
	run(16384, G, 8);
	return 0;
}
