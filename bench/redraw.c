/* redraw.c — how long the logical view takes to redraw after a key at
 * 64k ranks × 10⁶ steps (design budget: ≤ 16 ms).
 *
 * No trace of 6.4·10¹⁰ events is built: the step structures are synthesised
 * directly (16 events per rank spread over 10⁶ steps, per-step summaries for
 * every step), the view's summary is built from them, and then its level-0
 * tiles are filled densely, as if every rank were active at every step, and
 * the pyramid above them rebuilt.  Drawing only reads the summary, so its
 * cost is that of the dense case.  Prints the build time and, per screen
 * size, the median and worst redraw over a sequence of keys (moves, pages,
 * ends, zooms, metric and aggregate toggles that hit a cached summary).
 *   build/bench/redraw [RANKS [STEPS]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Seconds of this thread's CPU time: the redraw cost without the waits of a
 * machine shared with other work (wall time is what the build lines print). */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* Fill level 0 densely and rebuild the levels above it. */
static void densify(struct tc_lsum *s)
{
	size_t n0 = (size_t)s->tw[0] * s->th[0];
	for (size_t i = 0; i < n0; i++) {
		s->tiles[0][i].v = (float)(rnd() % 1000) * 1e-6f;
		s->tiles[0][i].f = (uint8_t)(1u << (rnd() % 4));
	}
	for (int l = 1; l < s->nlevels; l++) {
		memset(s->tiles[l], 0, (size_t)s->tw[l] * s->th[l] * sizeof(struct tc_cellsum));
		for (uint32_t y = 0; y < s->th[l - 1]; y++)
			for (uint32_t x = 0; x < s->tw[l - 1]; x++) {
				struct tc_cellsum *d = &s->tiles[l][(size_t)(y / 2) * s->tw[l] + x / 2];
				struct tc_cellsum c = s->tiles[l - 1][(size_t)y * s->tw[l - 1] + x];
				if (c.v > d->v) d->v = c.v;
				d->f |= c.f;
			}
	}
}

#define PER_RANK 16   /* events per rank */

/* The step structures of nranks ranks over nsteps steps, PER_RANK events a
 * rank spread over the steps, a summary for every step (no model behind
 * them: t has ranks and one node, no calls). */
static void synth_steps(struct tc_trace *t, struct tc_steps *st, uint32_t nranks, uint32_t nsteps)
{
	st->t = t;
	st->ncevs = (size_t)nranks * PER_RANK;
	st->cevs = xcalloc(st->ncevs, sizeof *st->cevs);
	st->times = xcalloc(st->ncevs, sizeof *st->times);
	st->given = xcalloc(st->ncevs, sizeof *st->given);
	st->rank_first = xcalloc((size_t)nranks + 1, sizeof *st->rank_first);
	st->max_step = nsteps & ~1u;
	uint32_t stride = st->max_step / 2 / PER_RANK;
	for (uint32_t r = 0; r < nranks; r++) {
		st->rank_first[r + 1] = (r + 1) * PER_RANK;
		for (uint32_t k = 0; k < PER_RANK; k++) {
			size_t i = (size_t)r * PER_RANK + k;
			struct tc_cev *e = &st->cevs[i];
			struct tc_cev_times *x = &st->times[i];
			struct tc_cev_given *g = &st->given[i];
			e->rank = r;
			e->op = TC_NONE;
			e->step = 2 * (k * stride + rnd() % (stride ? stride : 1));
			x->enter = (uint64_t)e->step * 1000;
			x->leave = x->enter + 500;
			x->agg_start = x->enter - 200;
			e->flags = 1u << (rnd() % 3);
			g->lateness = g->glateness = (double)(rnd() % 1000) * 1e-6;
			tc_cev_set_dlateness(st, (uint32_t)i, g->lateness);
			g->lateness_agg = g->duration = (double)(rnd() % 1000) * 1e-6;
		}
	}
	st->steps = xcalloc((size_t)st->max_step + 1, sizeof *st->steps);
	for (uint32_t s = 0; s <= st->max_step; s++) {
		st->steps[s].enter_min = (uint64_t)s * 1000;
		st->steps[s].leave_max = (uint64_t)s * 1000 + 900;
		st->steps[s].ncevs = nranks;
	}
}

/* The redraw after each key of a fixed sequence on a w x h screen: prints
 * the median and worst CPU time; true when the worst is within the budget. */
static bool time_keys(struct tc_app *a, int w, int h)
{
	static const int keys[] = { 'j', 'j', 'l', 'l', TK_PGDN, 'G', TK_END, 'k', 'h', '0', '-', '+', '+', '+',
				    '>', '>', '>', '>', '>', '>', '>', '>', '>', '>', '>', '>', 'j', 'l', TK_PGDN,
				    '+', '+', '+', '+', '+', '+', 'l', 'l', 'g', TK_HOME, '<', '<', '<', 'm', 'a', 'a',
				    'm', 'm', 'm', '0', TK_PGUP, 'j', 'l' };
	struct tc_grid g;
	grid_init(&g, w, h, false);
	a->lv.fitted = false;
	app_draw(a, &g);
	size_t n = TC_NELEM(keys);
	double *dt = xmalloc(n * sizeof *dt);
	for (size_t i = 0; i < n; i++) {
		if (a->metric > TC_M_GLATENESS) a->metric = TC_M_LATENESS;   /* keep to the built summaries */
		double s0 = cpu_now();
		app_key(a, keys[i]);
		if (a->metric > TC_M_GLATENESS) a->metric = TC_M_LATENESS;
		app_draw(a, &g);
		dt[i] = (cpu_now() - s0) * 1e3;
	}
	qsort(dt, n, sizeof *dt, cmp_double);
	double med = dt[n / 2], worst = dt[n - 1];
	printf("logical view %dx%d: redraw after a key (CPU time): median %.2f ms, worst %.2f ms over %zu keys (goal <= 16 ms) %s\n",
	       w, h, med, worst, n, worst <= 16 ? "ok" : "OVER");
	free(dt);
	grid_free(&g);
	return worst <= 16;
}

int main(int argc, char **argv)
{
	uint32_t nranks = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 65536;
	uint32_t nsteps = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1000000;

	struct tc_trace t = { 0 };
	t.nranks = nranks;
	t.res = 1000000000;
	t.tmin = 0;
	t.tmax = (uint64_t)nsteps * 1000;
	t.ranks = xcalloc(nranks, sizeof *t.ranks);
	struct tc_node node = { "node0" };
	t.nodes = &node;
	t.nnodes = 1;

	double t0 = tc_now();
	struct tc_steps st = { 0 };
	synth_steps(&t, &st, nranks, nsteps);
	double t1 = tc_now();

	struct tc_session sess = { 0 };
	sess.t = &t;
	sess.steps = &st;
	struct tc_app a;
	double t2 = tc_now();
	app_init(&a, &sess, "synthetic", true, true);
	for (int m = 0; m < 2; m++)   /* the summaries the key sequence uses */
		for (int g = 0; g < 2; g++) {
			a.metric = m ? TC_M_GLATENESS : TC_M_LATENESS;
			a.show_agg = g;
			densify((struct tc_lsum *)app_sum(&a));
		}
	a.metric = TC_M_LATENESS;
	a.show_agg = true;
	double t3 = tc_now();
	const struct tc_lsum *ls = app_sum(&a);
	printf("synthetic steps: %u ranks x %u steps, %zu events (%.2f s); summaries built in %.2f s "
	       "(4 of them; %u x %u level-0 tiles of %u ranks x %u steps, %d levels)\n",
	       nranks, st.max_step + 1, st.ncevs, t1 - t0, t3 - t2, ls->th[0], ls->tw[0], 1u << ls->rs, 1u << ls->xs,
	       ls->nlevels);

	const int sizes[][2] = { { 80, 24 }, { 200, 60 }, { 320, 90 } };
	int fails = 0;
	for (size_t z = 0; z < TC_NELEM(sizes); z++) fails += !time_keys(&a, sizes[z][0], sizes[z][1]);
	app_free(&a);
	free(st.cevs);
	free(st.times);
	free(st.given);
	free(st.rank_first);
	free(st.steps);
	free(t.ranks);
	return fails ? 1 : 0;
}
