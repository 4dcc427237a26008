/* redraw_clusters.c — how long the cluster view takes to redraw after a key
 * on a large phase (design budget: ≤ 16 ms).  A trace is built with the
 * model's builder: RANKS ranks, ROUNDS rounds of compute (four planted
 * groups of lateness, with noise), a send to rank+1, a receive from rank−1
 * and a barrier.  Prints the load and first draw (which clusters the phase,
 * CLARA above 512 ranks) and, per screen size, the median and worst redraw
 * over a sequence of keys: tree moves (each selects a node: its ranks are
 * sorted and marked), open / close, levels, steps within and across phases,
 * refocus.
 *   build/bench/redraw_clusters [RANKS [ROUNDS]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static struct tc_trace *build(uint32_t n, uint32_t rounds)
{
	struct tc_trace *t = tc_trace_new(1000000, 0, (uint64_t)rounds * 100000 + 10);
	tc_def_simple(t, n, NULL, 1);
	uint32_t rmain = tc_def_region(t, "main", 0, 0, false), rcomp = tc_def_region(t, "compute", 0, 0, false);
	uint32_t rsend = tc_def_region(t, "MPI_Send", 0, 0, true), rrecv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	uint32_t rbar = tc_def_region(t, "MPI_Barrier", 0, 0, true);
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	for (uint32_t r = 0; r < n; r++) {
		tcb_enter(t, r, 0, rmain);
		for (uint32_t k = 0; k < rounds; k++) {
			uint64_t b = 1 + (uint64_t)k * 100000;
			rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
			uint64_t work = 1000 + (uint64_t)(r * 4 / n) * 8000 + rng % 300;
			tcb_enter(t, r, b, rcomp);
			tcb_leave(t, r, b + work, rcomp);
			tcb_enter(t, r, b + work + 1, rsend);
			tcb_send(t, r, b + work + 2, (r + 1) % n, 0, k, 64);
			tcb_leave(t, r, b + work + 10, rsend);
			tcb_enter(t, r, b + 40000, rrecv);
			tcb_recv(t, r, b + 40100, (r + n - 1) % n, 0, k, 64);
			tcb_leave(t, r, b + 40100, rrecv);
			tcb_enter(t, r, b + 50000, rbar);
			tcb_coll_begin(t, r, b + 50000);
			tcb_coll_end(t, r, b + 60000, 0, 0, UINT32_MAX, 0, 0);
			tcb_leave(t, r, b + 60010, rbar);
		}
		tcb_leave(t, r, (uint64_t)rounds * 100000 + 5, rmain);
	}
	tc_trace_finish(t);
	return t;
}

int main(int argc, char **argv)
{
	uint32_t nranks = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 65536;
	uint32_t rounds = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 4;
	double t0 = tc_now();
	struct tc_session *s = session_new(build(nranks, rounds));
	const struct tc_steps *st = session_steps(s);
	double t1 = tc_now();
	struct tc_app a;
	app_init(&a, s, "bench", true, true);
	a.view = &view_clusters;
	struct tc_grid g;
	grid_init(&g, 80, 24, false);
	app_draw(&a, &g);
	double t2 = tc_now();
	printf("%u ranks, %u rounds: %zu events, %u phases; build+steps %.2f s, first draw (clusters the phase) %.2f s\n",
	       nranks, rounds, st->ncevs, st->npartitions, t1 - t0, t2 - t1);
	static const int keys[] = { 'g', 'j', 'j', 'k', TK_ENTER, 'j', '+', '+', '-', '0', 'G', 'g', TK_PGDN, TK_PGUP,
				    'l', 'l', 'h', 'c', 'C', 'j', TK_ENTER, TK_ENTER, 'l', 'l', 'l', 'h', 'h', 'h', TK_ESC,
				    'k', 'k', 'j', 'g', '+', '+', '+', '+', '+', '+', '+', '+', '+', '+', 'G', TK_PGUP, 'k',
				    TK_ENTER, '-', '-', '0' };
	const int sizes[][2] = { { 80, 24 }, { 200, 60 } };
	for (size_t z = 0; z < TC_NELEM(sizes); z++) {
		grid_resize(&g, sizes[z][0], sizes[z][1]);
		app_draw(&a, &g);
		double ms[TC_NELEM(keys)];
		for (size_t i = 0; i < TC_NELEM(keys); i++) {
			double k0 = tc_now();
			app_key(&a, keys[i]);
			app_draw(&a, &g);
			ms[i] = (tc_now() - k0) * 1e3;
			if (getenv("VERBOSE")) printf("  key %d: %.2f ms (phase %u)\n", keys[i], ms[i], a.cl.part);
		}
		if (getenv("VERBOSE")) {
			char *txt = NULL;
			size_t tn = 0;
			FILE *f = open_memstream(&txt, &tn);
			grid_write_text(&g, f);
			fclose(f);
			fputs(txt, stdout);
			free(txt);
		}
		qsort(ms, TC_NELEM(keys), sizeof ms[0], cmp_double);
		printf("%dx%d: key + redraw median %.2f ms, worst %.2f ms (%zu keys; a new phase is clustered on first view)\n",
		       sizes[z][0], sizes[z][1], ms[TC_NELEM(keys) / 2], ms[TC_NELEM(keys) - 1], TC_NELEM(keys));
	}
	grid_free(&g);
	app_free(&a);
	session_free(s);
	return 0;
}
