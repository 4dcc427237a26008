/* profile_dist.c — the flat profile and its tables replayed over parts
 * (analysis_replay.h).  The per-region sums are doubles added call by call
 * in rank order, so the serial loop itself (prof_add_rank) runs on each
 * process's ranks in a fold passed along the processes (struct tc_dist
 * chain): process p adds its ranks to the sums process p − 1 handed on.  The
 * message-size histogram is integer sums of each process's messages; the
 * per-location and per-rank cells are each a process's own, gathered. */
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "replay_internal.h"

/* The fold's state: the profile's sums, then one entry per region. */
struct prof_fold {
	const struct tc_part *p;
	struct prof_scratch sc;
};

static void prof_step(void *arg, void *state)
{
	struct prof_fold *f = arg;
	struct tc_profile *acc = state;
	struct tc_prof_region *g = (struct tc_prof_region *)(acc + 1);
	for (uint32_t r = f->p->lo; r < f->p->hi; r++) prof_add_rank(f->p->t, r, NULL, NULL, acc, g, &f->sc);
}

struct tc_profile *tc_profile_dist(const struct tc_part *p, const struct tc_dist *d)
{
	uint32_t nr = p->t->nregions;
	size_t bytes = sizeof(struct tc_profile) + (size_t)nr * sizeof(struct tc_prof_region);
	struct tc_profile *acc = xcalloc(1, bytes);
	prof_regions_init((struct tc_prof_region *)(acc + 1), nr);
	struct prof_fold f = { .p = p };
	prof_scratch_init(&f.sc, nr);
	d->chain(d->ctx, acc, bytes, prof_step, &f);
	prof_scratch_free(&f.sc);
	struct tc_profile h = { 0 };
	prof_hist(&h, p->msgs, p->nmsgs);
	d->reduce(d->ctx, h.hist_count, TC_PROF_HIST, TC_DIST_SUM);
	d->reduce(d->ctx, h.hist_bytes, TC_PROF_HIST, TC_DIST_SUM);
	if (d->index != 0) {
		free(acc);
		return NULL;
	}
	struct tc_profile *out = xcalloc(1, sizeof *out);
	*out = h;
	out->total = acc->total;
	out->mpi = acc->mpi;
	struct tc_prof_region *g = xmalloc((nr ? nr : 1) * sizeof *g);
	memcpy(g, acc + 1, (size_t)nr * sizeof *g);
	prof_finish(out, g, nr);
	free(acc);
	return out;
}

/* A table's cells on process 0, in the table's order (NULL elsewhere). */
static struct tc_prof_table *table_gather(const struct tc_dist *d, struct tc_prof_table *mine)
{
	size_t n;
	struct tc_prof_cell *c = replay_gather0(d, mine->cells, mine->n, sizeof *c, &n);
	tc_prof_table_free(mine);
	if (!c) return NULL;
	struct tc_prof_table *pt = xcalloc(1, sizeof *pt);
	pt->cells = c;
	pt->n = n;
	prof_table_sort(pt);
	return pt;
}

void tc_profile_tables_dist(const struct tc_part *p, const struct tc_dist *d, struct tc_prof_table **per_loc,
			    struct tc_prof_table **per_rank)
{
	struct tc_prof_table *pl = tc_profile_locations(p->t), *pr = tc_profile_ranks(p->t, pl);
	*per_loc = table_gather(d, pl);
	*per_rank = table_gather(d, pr);
}
