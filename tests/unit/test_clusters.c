/* test_clusters.c — per-phase clustering on hand-built struct tc_steps
 * values (no steps engine): the distance, the direct and CLARA paths, the
 * dendrogram state, glyphs, centroids, exchange flavours and focus ranks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis_cluster.h"
#include "testkit.h"

#define EPS 1e-12

static void near_(double a, double b, double eps, const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%.17g != %.17g (within %g)\n", a, b, eps);
		_fail(file, line);
	}
}
#define assert_near(a, b, eps) near_((a), (b), (eps), __FILE__, __LINE__)

/* --- hand-built steps ------------------------------------------------------ */

struct hb {
	VEC(struct tc_cev) ev;
	VEC(struct tc_cev_times) times;   /* no model calls behind these cevs: their times */
	VEC(struct tc_cev_given) given;   /* and metrics */
	uint32_t nranks;
};

static struct tc_cev *hb_add(struct hb *h, uint32_t rank, uint32_t part, uint32_t step, double lat, uint32_t flags)
{
	struct tc_cev e = { 0 };
	e.rank = rank;
	e.partition = part;
	e.step = step;
	e.flags = flags;
	e.op = TC_NONE;
	e.nops = 1;
	VEC_PUSH(h->ev, e);
	struct tc_cev_times x = { 0 };
	VEC_PUSH(h->times, x);
	struct tc_cev_given g = { .lateness = lat };
	VEC_PUSH(h->given, g);
	if (rank >= h->nranks) h->nranks = rank + 1;
	return &h->ev.a[h->ev.n - 1];
}

/* Events must have been added rank by rank, in time order within a rank. */
static struct tc_steps *hb_finish(struct hb *h, const struct tc_trace *t)
{
	struct tc_steps *s = calloc(1, sizeof *s);
	s->t = t;
	s->ncevs = h->ev.n;
	s->cevs = h->ev.a;
	s->times = h->times.a;
	s->given = h->given.a;
	uint32_t nr = t ? t->nranks : h->nranks;
	s->rank_first = calloc(nr + 1, sizeof *s->rank_first);
	for (size_t i = 0; i < s->ncevs; i++) s->rank_first[s->cevs[i].rank + 1]++;
	for (uint32_t r = 0; r < nr; r++) s->rank_first[r + 1] += s->rank_first[r];
	for (size_t i = 0; i < s->ncevs; i++) {
		const struct tc_cev *e = &s->cevs[i];
		if (e->partition + 1 > s->npartitions) s->npartitions = e->partition + 1;
		if (e->step > s->max_step) s->max_step = e->step;
	}
	s->parts = calloc(s->npartitions, sizeof *s->parts);
	for (uint32_t p = 0; p < s->npartitions; p++) s->parts[p].first_step = UINT32_MAX;
	uint32_t *last_rank = malloc(s->npartitions * sizeof *last_rank);
	for (uint32_t p = 0; p < s->npartitions; p++) last_rank[p] = UINT32_MAX;
	for (size_t i = 0; i < s->ncevs; i++) {
		const struct tc_cev *e = &s->cevs[i];
		struct tc_partition *P = &s->parts[e->partition];
		P->first_step = TC_MIN(P->first_step, e->step);
		P->last_step = TC_MAX(P->last_step, e->step);
		P->ncevs++;
		if (last_rank[e->partition] != e->rank) { P->nranks++; last_rank[e->partition] = e->rank; }
	}
	free(last_rank);
	s->steps = calloc(s->max_step + 1, sizeof *s->steps);
	if (t) {
		/* message ends: the cev whose ops hold the send / receive call's op */
		s->msg_send_cev = malloc((t->nmsgs + 1) * sizeof *s->msg_send_cev);
		s->msg_recv_cev = malloc((t->nmsgs + 1) * sizeof *s->msg_recv_cev);
		for (size_t m = 0; m < t->nmsgs; m++) {
			const struct tc_msg *M = &t->msgs[m];
			uint32_t sop = t->ranks[M->src].calls[M->send_call].op, rop = t->ranks[M->dst].calls[M->recv_call].op;
			s->msg_send_cev[m] = s->msg_recv_cev[m] = TC_NONE;
			for (uint32_t i = s->rank_first[M->src]; i < s->rank_first[M->src + 1]; i++)
				if (s->cevs[i].op <= sop && sop < s->cevs[i].op + s->cevs[i].nops) s->msg_send_cev[m] = i;
			for (uint32_t i = s->rank_first[M->dst]; i < s->rank_first[M->dst + 1]; i++)
				if (s->cevs[i].op <= rop && rop < s->cevs[i].op + s->cevs[i].nops) s->msg_recv_cev[m] = i;
		}
	}
	return s;
}

/* One cev per op of every rank of a built model, at step 2·(op index),
 * partition 0, lateness 0. */
static struct tc_steps *steps_from_ops(const struct tc_trace *t)
{
	struct hb h = { 0 };
	for (uint32_t r = 0; r < t->nranks; r++)
		for (uint32_t o = 0; o < t->ranks[r].nops; o++) {
			const struct tc_op *op = &t->ranks[r].ops[o];
			uint32_t fl = (op->nsend ? TC_CEV_SEND : 0) | (op->nrecv ? TC_CEV_RECV : 0) |
				      (op->coll != TC_NONE ? TC_CEV_COLL : 0);
			struct tc_cev *e = hb_add(&h, r, 0, 2 * o, 0, fl);
			e->op = o;
			const struct tc_call *c = &t->ranks[r].calls[op->call];
			h.times.a[h.times.n - 1] = (struct tc_cev_times){ .enter = c->enter, .leave = c->leave };
		}
	return hb_finish(&h, t);
}

static void assert_members(const struct tc_phase_clusters *ph, uint32_t node, const char *want)
{
	char *got = tk_node_ranks(ph, node);
	assert_string_equal(got, want);
	free(got);
}

/* --- distance ----------------------------------------------------------- */

static void test_distance(void **st)
{
	(void)st;
	/* a active at 0..3; b at 1 and 3.  Column 0: b has no value yet (skipped);
	 * 1: (2−2)²; 2: b repeats 2 → (3−2)²; 3: (4−6)².  (0 + 1 + 4) / 3. */
	uint32_t ca[] = { 0, 1, 2, 3 }, cb[] = { 1, 3 };
	double va[] = { 1, 2, 3, 4 }, vb[] = { 2, 6 };
	assert_near(tc_cluster_distance(ca, va, 4, cb, vb, 2), 5.0 / 3.0, EPS);
	assert_near(tc_cluster_distance(cb, vb, 2, ca, va, 4), 5.0 / 3.0, EPS);
	assert_near(tc_cluster_distance(ca, va, 4, ca, va, 4), 0, EPS);
	/* columns where both are inactive (1, 3) are skipped; 0: b has no value;
	 * 2: a repeats 1 → (1−3)²; 4: b repeats 3 → (5−3)².  (4 + 4) / 2. */
	uint32_t cc[] = { 0, 4 }, cd[] = { 2 };
	double vc[] = { 1, 5 }, vd[] = { 3 };
	assert_near(tc_cluster_distance(cc, vc, 2, cd, vd, 1), 4.0, EPS);
	/* b starts after a ends: a's last value fills the rest. (0.5−0.2)² at 5 and 6 */
	uint32_t ce[] = { 0, 1 }, cf[] = { 5, 6 };
	double ve[] = { 0.1, 0.5 }, vf[] = { 0.2, 0.2 };
	assert_near(tc_cluster_distance(ce, ve, 2, cf, vf, 2), 0.09, EPS);
}

/* --- direct path: two groups, every 4th rank 0.3 later ------------------ */

static double lat_of(uint32_t r, uint32_t i, double jitter)
{
	return 0.1 + 0.01 * (i % 3) + (r % 4 == 0 ? 0.3 : 0) + jitter * (double)((r * 7 + i * 13) % 5) / 4.0;
}

static struct tc_steps *groups_steps(uint32_t nranks, uint32_t nsteps, double jitter)
{
	struct hb h = { 0 };
	for (uint32_t r = 0; r < nranks; r++)
		for (uint32_t i = 0; i < nsteps; i++) hb_add(&h, r, 0, 2 * i, lat_of(r, i, jitter), TC_CEV_SEND);
	h.nranks = nranks;
	return hb_finish(&h, NULL);
}

static void test_groups_direct(void **st)
{
	(void)st;
	struct tc_steps *s = groups_steps(32, 10, 0);
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	assert_non_null(ph);
	assert_false(ph->clara);
	assert_int_equal(ph->nranks, 32);
	assert_int_equal(ph->nleaves, 32);
	assert_int_equal(ph->nnodes, 63);
	assert_int_equal(ph->first_step, 0);
	assert_int_equal(ph->last_step, 18);
	assert_int_equal(ph->default_clusters, 2);
	assert_int_equal(ph->nvisible, 2);
	/* child[0] is the cluster with the lower first rank */
	assert_members(ph, ph->visible[0], "0,4,8,12,16,20,24,28");
	assert_members(ph, ph->visible[1], "1-3,5-7,9-11,13-15,17-19,21-23,25-27,29-31");
	const struct tc_cnode *A = &ph->nodes[ph->visible[0]], *B = &ph->nodes[ph->visible[1]];
	assert_int_equal(A->size, 8);
	assert_int_equal(B->size, 24);
	/* per rank: mean of 0.01·(i mod 3) over i = 0..9 is 0.009 */
	assert_near(A->mean, 0.409, 1e-9);
	assert_near(A->max, 0.42, 1e-9);
	assert_near(B->mean, 0.109, 1e-9);
	assert_near(B->max, 0.12, 1e-9);
	assert_int_equal(A->max_rank, 0);
	assert_int_equal(B->max_rank, 1);
	assert_int_equal(A->medoid, 0);   /* identical members: the lowest rank */
	assert_int_equal(B->medoid, 1);
	/* the root merges the groups at the mean squared difference 0.3² */
	assert_near(ph->nodes[ph->root].height, 0.09, 1e-9);
	assert_int_equal(ph->root, 62);
	assert_true(ph->nodes[ph->root].open);
	assert_near(ph->max, 0.42, 1e-9);
	assert_int_equal(ph->max_rank, 0);
	/* no messages: the focus is the seed alone; no exchange */
	assert_int_equal(ph->nfocus, 1);
	assert_int_equal(ph->focus[0], 0);
	assert_int_equal(ph->pattern, TC_EX_NONE);
	assert_int_equal(tc_clusters_visible_of(c, 0, 8), ph->visible[0]);
	assert_int_equal(tc_clusters_visible_of(c, 0, 9), ph->visible[1]);
	assert_int_equal(tc_clusters_visible_of(c, 0, 40), TC_NONE);
	assert_null(tc_clusters_phase(c, 1));
	tc_clusters_free(c);
	tc_steps_free(s);
}

/* --- CLARA path: 2000 ranks -------------------------------------------- */

static void check_two_groups(const struct tc_phase_clusters *ph, uint32_t nranks)
{
	assert_true(ph->clara);
	assert_int_equal(ph->nranks, nranks);
	assert_int_equal(ph->nleaves, 20);
	assert_int_equal(ph->nnodes, 39);
	assert_int_equal(ph->nvisible, 2);
	const struct tc_cnode *A = &ph->nodes[ph->visible[0]], *B = &ph->nodes[ph->visible[1]];
	assert_int_equal(A->size, nranks / 4);
	assert_int_equal(B->size, nranks - nranks / 4);
	for (uint32_t i = 0; i < A->size; i++) assert_int_equal(ph->members[A->first + i] % 4, 0);
	for (uint32_t i = 0; i < B->size; i++) assert_int_not_equal(ph->members[B->first + i] % 4, 0);
	assert_int_equal(A->medoid % 4, 0);
	assert_int_not_equal(B->medoid % 4, 0);
	/* every leaf's members are one group */
	for (uint32_t l = 0; l < ph->nleaves; l++) {
		const struct tc_cnode *L = &ph->nodes[l];
		assert_true(L->size > 0);
		for (uint32_t i = 1; i < L->size; i++)
			assert_int_equal(ph->members[L->first + i] % 4 == 0, ph->members[L->first] % 4 == 0);
	}
}

/* The same members, and per node the same medoid and size. */
static void same_leaves(const struct tc_phase_clusters *a, const struct tc_phase_clusters *b)
{
	assert_int_equal(a->nranks, b->nranks);
	assert_int_equal(a->nnodes, b->nnodes);
	assert_memory_equal(a->members, b->members, a->nranks * sizeof *a->members);
	for (uint32_t x = 0; x < a->nnodes; x++) {
		assert_int_equal(a->nodes[x].medoid, b->nodes[x].medoid);
		assert_int_equal(a->nodes[x].size, b->nodes[x].size);
	}
}

static void test_groups_clara(void **st)
{
	(void)st;
	struct tc_steps *s = groups_steps(2000, 12, 0.002);
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	check_two_groups(ph, 2000);
	/* group means: 0.1 + mean of 0.01·(i mod 3) over 12 steps (0.01) + mean jitter
	 * 0.002·(mean of (7r + 13i) mod 5)/4 over the group; 0.3 more for group A */
	double ja = 0, jb = 0;
	for (uint32_t r = 0; r < 2000; r++)
		for (uint32_t i = 0; i < 12; i++) {
			double j = 0.002 * (double)((r * 7 + i * 13) % 5) / 4.0;
			if (r % 4 == 0) ja += j; else jb += j;
		}
	assert_near(ph->nodes[ph->visible[0]].mean, 0.41 + ja / (500 * 12), 1e-9);
	assert_near(ph->nodes[ph->visible[1]].mean, 0.11 + jb / (1500 * 12), 1e-9);
	assert_near(ph->nodes[ph->visible[0]].max, 0.42 + 0.002, 1e-9);
	/* deterministic for a seed: the same leaves again */
	struct tc_clusters *c2 = tc_clusters_new(s, NULL);
	same_leaves(ph, tc_clusters_phase(c2, 0));
	/* released (the report's batches), then computed again: the same */
	tc_clusters_release(c2, 0);
	assert_false(tc_clusters_phase_ready(c2, 0));
	tc_clusters_compute_range(c2, 0, 1, 2);
	assert_true(tc_clusters_phase_ready(c2, 0));
	same_leaves(ph, tc_clusters_phase(c2, 0));
	tc_clusters_free(c2);
	/* another seed finds the same two groups */
	struct tc_cluster_opts o;
	tc_cluster_default_opts(&o);
	o.seed = 12345;
	struct tc_clusters *c3 = tc_clusters_new(s, &o);
	check_two_groups(tc_clusters_phase(c3, 0), 2000);
	tc_clusters_free(c3);
	tc_clusters_free(c);
	tc_steps_free(s);
}

/* --- dendrogram state: three groups at 0, 0.1 and 0.5 ------------------- */

static struct tc_steps *three_groups(void)
{
	struct hb h = { 0 };
	static const double val[] = { 0, 0.1, 0.5 };
	for (uint32_t r = 0; r < 12; r++)
		for (uint32_t i = 0; i < 4; i++) {
			hb_add(&h, r, 0, 2 * i, val[r / 4], TC_CEV_SEND);
			h.given.a[h.given.n - 1].duration = r == 11 ? 1.0 : 0;   /* by duration only rank 11 stands out */
		}
	return hb_finish(&h, NULL);
}

static void test_open_close(void **st)
{
	(void)st;
	struct tc_steps *s = three_groups();
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	/* merges at 0 (9 of them), 0.01 (groups 0+1), 0.16 (+ group 2); in RMS
	 * terms 0.1 and 0.4.  Both cuts separate well (0.1 ≥ 2·0 and 0.4 ≥ 2·0.1,
	 * gaps 0.1 and 0.3 ≥ a quarter of 0.3): the finer one, three clusters */
	assert_int_equal(ph->nnodes, 23);
	assert_near(ph->nodes[21].height, 0.01, EPS);
	assert_near(ph->nodes[22].height, 0.16, EPS);
	assert_int_equal(ph->default_clusters, 3);
	assert_int_equal(ph->nvisible, 3);
	assert_members(ph, ph->visible[0], "0-3");
	assert_members(ph, ph->visible[1], "4-7");
	assert_members(ph, ph->visible[2], "8-11");
	assert_int_equal(ph->nodes[ph->visible[0]].parent, 21);
	assert_int_equal(ph->nodes[21].parent, 22);
	assert_int_equal(ph->nodes[22].parent, TC_NONE);
	assert_int_equal(ph->nodes[22].child[0], 21);
	assert_int_equal(tc_clusters_visible_of(c, 0, 5), ph->visible[1]);
	/* close the lower merge: two clusters */
	assert_int_equal(tc_clusters_open(c, 0, 21, false), 2);
	assert_int_equal(ph->visible[0], 21);
	assert_members(ph, 21, "0-7");
	assert_members(ph, ph->visible[1], "8-11");
	assert_int_equal(tc_clusters_visible_of(c, 0, 5), 21);
	assert_int_equal(tc_clusters_open(c, 0, 21, true), 3);
	/* close the root: one cluster; opening it again restores the subtree */
	assert_int_equal(tc_clusters_open(c, 0, 22, false), 1);
	assert_int_equal(ph->visible[0], 22);
	assert_int_equal(tc_clusters_visible_of(c, 0, 5), 22);
	assert_int_equal(tc_clusters_open(c, 0, 22, true), 3);
	/* a leaf cannot open */
	assert_int_equal(tc_clusters_open(c, 0, 0, true), 3);
	assert_int_equal(tc_clusters_cut(c, 0, 0), 3);
	assert_int_equal(tc_clusters_cut(c, 0, 2), 2);
	assert_int_equal(ph->visible[0], 21);
	assert_int_equal(tc_clusters_cut(c, 0, 12), 12);
	assert_int_equal(tc_clusters_cut(c, 0, 99), 12);
	for (uint32_t i = 0; i < 12; i++) assert_int_equal(ph->members[ph->nodes[ph->visible[i]].first], i);
	/* medoid of the whole phase: rank with the least summed distance (group 1) */
	assert_int_equal(ph->nodes[22].medoid, 4);
	/* centroid of the root: mean vector 0.2 everywhere; closest is group 1 (0.1) */
	assert_int_equal(tc_clusters_centroid(c, 0, 22), 4);
	assert_int_equal(tc_clusters_centroid(c, 0, 5), 5);   /* a leaf: its rank */
	assert_int_equal(tc_clusters_centroid(c, 0, 99), TC_NONE);
	/* another metric: recomputed on the next access */
	tc_clusters_set_metric(c, TC_M_DURATION);
	ph = tc_clusters_phase(c, 0);
	assert_int_equal(ph->metric, TC_M_DURATION);
	assert_int_equal(ph->nvisible, 2);
	assert_members(ph, ph->visible[0], "0-10");
	assert_members(ph, ph->visible[1], "11");
	assert_int_equal(ph->max_rank, 11);
	assert_near(ph->nodes[ph->root].height, 1.0, EPS);
	tc_clusters_free(c);
	tc_steps_free(s);
}

/* One rank alone, an empty partition, identical ranks: one cluster each. */
static void test_degenerate(void **st)
{
	(void)st;
	struct hb h = { 0 };
	hb_add(&h, 0, 0, 4, 0.5, TC_CEV_SEND);
	hb_add(&h, 0, 2, 8, 0.5, TC_CEV_SEND);
	for (uint32_t r = 1; r < 5; r++) hb_add(&h, r, 2, 8, 0.25, TC_CEV_RECV);
	struct tc_steps *s = hb_finish(&h, NULL);
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	assert_int_equal(ph->nranks, 1);
	assert_int_equal(ph->nnodes, 1);
	assert_int_equal(ph->nvisible, 1);
	assert_int_equal(ph->first_step, 4);
	assert_int_equal(ph->nodes[0].medoid, 0);
	ph = tc_clusters_phase(c, 1);
	assert_int_equal(ph->nranks, 0);
	assert_int_equal(ph->nnodes, 0);
	assert_int_equal(ph->nvisible, 0);
	assert_int_equal(tc_clusters_cut(c, 1, 0), 0);
	ph = tc_clusters_phase(c, 2);
	/* rank 0 at 0.5 vs four at 0.25: RMS 0.25 ≥ 5 % of 0.5, so two clusters */
	assert_int_equal(ph->nvisible, 2);
	assert_members(ph, ph->visible[0], "0");
	assert_members(ph, ph->visible[1], "1-4");
	struct tc_cluster_glyph g[2];
	tc_clusters_glyphs(c, 2, ph->visible[1], 6, 2, g);
	assert_int_equal(g[0].active, 0);
	assert_int_equal(g[0].inactive, 4);
	assert_true(isnan(g[0].mean));
	assert_int_equal(g[1].active, 4);
	assert_int_equal(g[1].recvs, 4);
	assert_int_equal(g[1].sends, 0);
	assert_near(g[1].recv_mean, 0.25, EPS);
	tc_clusters_free(c);
	tc_steps_free(s);
}

/* A gradient (pF3D-like: lateness grows with the rank) has no gap: one cluster. */
static void test_gradient_one_cluster(void **st)
{
	(void)st;
	struct hb h = { 0 };
	for (uint32_t r = 0; r < 16; r++)
		for (uint32_t i = 0; i < 3; i++) hb_add(&h, r, 0, 2 * i, 0.01 * r, TC_CEV_SEND);
	struct tc_steps *s = hb_finish(&h, NULL);
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	assert_int_equal(ph->default_clusters, 1);
	assert_int_equal(ph->nvisible, 1);
	assert_int_equal(ph->visible[0], ph->root);
	assert_near(ph->nodes[ph->root].height, 1e-4, 1e-15);
	assert_int_equal(ph->nodes[ph->root].medoid, 7);   /* ties 7 and 8: the lower */
	assert_int_equal(tc_clusters_centroid(c, 0, ph->root), 7);
	assert_int_equal(ph->max_rank, 15);
	tc_clusters_free(c);
	tc_steps_free(s);
}

/* --- ties, and the two ways of getting distances ------------------------ */

/* One step, four ranks at 1, 3, 2, 0 (a distance is the squared
 * difference).  From rank 0, ranks 2 and 3 are both at 1: the lower, 2,
 * joins first.  Then 1 and 3 are both at 1 again (1 through 2, 3 through 0,
 * its first tree neighbour at that distance): 1 joins, through 2, then 3
 * through 0.  The edges (0,2) (0,3) (1,2), all at 1, merge in that order.
 * Medoids: summed distances 6, 14, 6, 14 over all four, so 0 (the lower of
 * 0 and 2); {0, 2, 3}: 2, -, 5, 5, so 0; {0, 2}: a tie, 0.  Rank 4 repeats
 * rank 2's value in phase 1: a zero distance, joined first; the sums are now
 * 7, 15, 6, 18, 6, so the medoid is 2 (of the identical 2 and 4). */
static struct tc_steps *tie_steps(void)
{
	static const double val[] = { 1, 3, 2, 0 };
	struct hb h = { 0 };
	for (uint32_t r = 0; r < 5; r++) {
		if (r < 4) hb_add(&h, r, 0, 0, val[r], TC_CEV_SEND);
		hb_add(&h, r, 1, 2, r == 4 ? val[2] : val[r], TC_CEV_SEND);
	}
	return hb_finish(&h, NULL);
}

static void check_ties(uint32_t dense_max)
{
	struct tc_steps *s = tie_steps();
	struct tc_cluster_opts o;
	tc_cluster_default_opts(&o);
	o.dense_max = dense_max;
	struct tc_clusters *c = tc_clusters_new(s, &o);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	assert_int_equal(ph->nnodes, 7);
	const uint32_t child[3][2] = { { 0, 2 }, { 4, 3 }, { 5, 1 } }, medoid[7] = { 0, 1, 2, 3, 0, 0, 0 };
	for (uint32_t x = 0; x < 7; x++) {
		if (x >= 4) {
			assert_int_equal(ph->nodes[x].child[0], child[x - 4][0]);
			assert_int_equal(ph->nodes[x].child[1], child[x - 4][1]);
			assert_true(ph->nodes[x].height == 1.0);
		}
		assert_int_equal(ph->nodes[x].medoid, medoid[x]);
	}
	static const uint32_t members[] = { 0, 2, 3, 1 };
	assert_memory_equal(ph->members, members, sizeof members);
	/* phase 1: ranks 2 and 4 identical, merged at 0 before anything else */
	ph = tc_clusters_phase(c, 1);
	assert_int_equal(ph->nleaves, 5);
	assert_int_equal(ph->nodes[5].child[0], 2);
	assert_int_equal(ph->nodes[5].child[1], 4);
	assert_true(ph->nodes[5].height == 0.0);
	assert_int_equal(ph->nodes[ph->root].medoid, 2);
	tc_clusters_free(c);
	tc_steps_free(s);
}

static void test_ties(void **st)
{
	(void)st;
	check_ties(8);   /* distances computed where used */
	check_ties(0);   /* a distance matrix */
}

/* Phases full of ties (values on a coarse grid, many ranks equal) at 1 to 8
 * steps, with and without a rank missing a step: the same dendrograms,
 * medoids and default cuts whether distances are computed where used or
 * taken from a matrix. */
static void test_dense_matrix_same(void **st)
{
	(void)st;
	struct hb h = { 0 };
	uint64_t x = 12345;
	static const uint32_t nranks[] = { 3, 17, 64, 130 }, nsteps[] = { 1, 2, 3, 8 };
	uint32_t p = 0;
	for (uint32_t a = 0; a < 4; a++)
		for (uint32_t b = 0; b < 4; b++, p++)
			for (uint32_t r = 0; r < nranks[a]; r++)
				for (uint32_t i = 0; i < nsteps[b]; i++) {
					x ^= x << 13; x ^= x >> 7; x ^= x << 17;
					if (p % 5 == 4 && r == 1 && i == 0 && nsteps[b] > 1) continue;   /* sparse: a matrix either way */
					hb_add(&h, r, p, 100 * p + 2 * i, 0.25 * (double)(x % 4), TC_CEV_SEND);
				}
	/* hb_finish wants events rank by rank */
	for (size_t i = 1; i < h.ev.n; i++)
		for (size_t j = i; j > 0 && h.ev.a[j - 1].rank > h.ev.a[j].rank; j--) {
			struct tc_cev t = h.ev.a[j];
			h.ev.a[j] = h.ev.a[j - 1];
			h.ev.a[j - 1] = t;
		}
	struct tc_steps *s = hb_finish(&h, NULL);
	struct tc_cluster_opts o;
	tc_cluster_default_opts(&o);
	struct tc_clusters *dense = tc_clusters_new(s, &o);
	o.dense_max = 0;
	struct tc_clusters *matrix = tc_clusters_new(s, &o);
	for (uint32_t q = 0; q < p; q++) {
		const struct tc_phase_clusters *A = tc_clusters_phase(dense, q), *B = tc_clusters_phase(matrix, q);
		assert_int_equal(A->nnodes, B->nnodes);
		assert_int_equal(A->nnodes, 2 * nranks[q / 4] - 1);
		assert_int_equal(A->default_clusters, B->default_clusters);
		assert_memory_equal(A->members, B->members, A->nranks * sizeof *A->members);
		for (uint32_t n = 0; n < A->nnodes; n++) {
			const struct tc_cnode *X = &A->nodes[n], *Y = &B->nodes[n];
			assert_int_equal(X->child[0], Y->child[0]);
			assert_int_equal(X->child[1], Y->child[1]);
			assert_int_equal(X->parent, Y->parent);
			assert_memory_equal(&X->height, &Y->height, sizeof X->height);
			assert_int_equal(X->medoid, Y->medoid);
		}
	}
	tc_clusters_free(dense);
	tc_clusters_free(matrix);
	tc_steps_free(s);
}

/* --- models with messages ------------------------------------------------ */

struct fx { struct tc_trace *t; uint32_t send, recv, irecv, waitall, sendrecv, main_; };

static struct fx model(uint32_t nranks)
{
	struct fx f;
	f.t = tc_trace_new(1000, 0, 0);
	tc_def_simple(f.t, nranks, NULL, 1);
	f.main_ = tc_def_region(f.t, "main", 0, 0, false);
	f.send = tc_def_region(f.t, "MPI_Send", 0, 0, true);
	f.recv = tc_def_region(f.t, "MPI_Recv", 0, 0, true);
	f.irecv = tc_def_region(f.t, "MPI_Irecv", 0, 0, true);
	f.waitall = tc_def_region(f.t, "MPI_Waitall", 0, 0, true);
	f.sendrecv = tc_def_region(f.t, "MPI_Sendrecv", 0, 0, true);
	return f;
}

static void do_send(struct fx *f, uint32_t r, uint64_t t, uint32_t peer)
{
	tcb_enter(f->t, r, t, f->send);
	tcb_send(f->t, r, t + 1, peer, 0, 0, 8);
	tcb_leave(f->t, r, t + 2, f->send);
}

static void do_recv(struct fx *f, uint32_t r, uint64_t t, uint32_t peer)
{
	tcb_enter(f->t, r, t, f->recv);
	tcb_recv(f->t, r, t + 1, peer, 0, 0, 8);
	tcb_leave(f->t, r, t + 2, f->recv);
}

enum flavour { FL_ALT, FL_SR, FL_WAIT, FL_ONEWAY, FL_SENDRECV };

/* A ring of n ranks exchanging with both neighbours, in the given flavour. */
static struct tc_trace *ring(uint32_t n, enum flavour fl)
{
	struct fx f = model(n);
	for (uint32_t r = 0; r < n; r++) {
		uint32_t L = (r + n - 1) % n, R = (r + 1) % n;
		tcb_enter(f.t, r, 0, f.main_);
		switch (fl) {
		case FL_ALT:
			do_send(&f, r, 10, R); do_recv(&f, r, 20, L); do_send(&f, r, 30, L); do_recv(&f, r, 40, R);
			break;
		case FL_SR:
			do_send(&f, r, 10, R); do_send(&f, r, 20, L); do_recv(&f, r, 30, L); do_recv(&f, r, 40, R);
			break;
		case FL_WAIT:
			tcb_enter(f.t, r, 2, f.irecv); tcb_irecv_request(f.t, r, 3, 100); tcb_leave(f.t, r, 4, f.irecv);
			tcb_enter(f.t, r, 5, f.irecv); tcb_irecv_request(f.t, r, 6, 101); tcb_leave(f.t, r, 7, f.irecv);
			do_send(&f, r, 10, R); do_send(&f, r, 20, L);
			tcb_enter(f.t, r, 30, f.waitall);
			tcb_irecv(f.t, r, 31, L, 0, 0, 8, 100);
			tcb_irecv(f.t, r, 32, R, 0, 0, 8, 101);
			tcb_leave(f.t, r, 33, f.waitall);
			break;
		case FL_ONEWAY:
			do_send(&f, r, 10, R); do_recv(&f, r, 20, L);
			break;
		case FL_SENDRECV:
			tcb_enter(f.t, r, 10, f.sendrecv);
			tcb_send(f.t, r, 11, R, 0, 0, 8);
			tcb_recv(f.t, r, 12, L, 0, 0, 8);
			tcb_leave(f.t, r, 13, f.sendrecv);
			break;
		}
		tcb_leave(f.t, r, 100, f.main_);
	}
	tc_trace_finish(f.t);
	return f.t;
}

static enum tc_exchange ring_pattern(uint32_t n, enum flavour fl)
{
	struct tc_trace *t = ring(n, fl);
	assert_int_equal(t->unmatched_sends + t->unmatched_recvs, 0);
	struct tc_steps *s = steps_from_ops(t);
	enum tc_exchange e = tc_exchange_detect(s, 0);
	tc_steps_free(s);
	tc_trace_free(t);
	return e;
}

static void test_exchange_flavours(void **st)
{
	(void)st;
	assert_int_equal(ring_pattern(4, FL_ALT), TC_EX_ALTERNATING);
	assert_int_equal(ring_pattern(4, FL_SR), TC_EX_SENDS_RECVS);
	assert_int_equal(ring_pattern(4, FL_WAIT), TC_EX_WAITALL);
	/* one-way ring: sends right, receives from the left: not an exchange */
	assert_int_equal(ring_pattern(4, FL_ONEWAY), TC_EX_NONE);
	/* two ranks with one send and one receive each: a pairwise exchange */
	assert_int_equal(ring_pattern(2, FL_ONEWAY), TC_EX_ALTERNATING);
	/* Sendrecv to the right from the left is one-way in a ring of 4, an exchange in 2 */
	assert_int_equal(ring_pattern(4, FL_SENDRECV), TC_EX_NONE);
	assert_int_equal(ring_pattern(2, FL_SENDRECV), TC_EX_ALTERNATING);
	assert_string_equal(tc_exchange_names[TC_EX_WAITALL], "exchange_waitall");
}

/* Glyphs of the waitall ring: 4 ranks, steps 0 (send), 2 (send), 4 (Waitall of 2). */
static void test_glyphs_waitall(void **st)
{
	(void)st;
	struct tc_trace *t = ring(4, FL_WAIT);
	struct tc_steps *s = steps_from_ops(t);
	for (size_t i = 0; i < s->ncevs; i++) {
		s->given[i].lateness = 0.01 * s->cevs[i].rank + 0.1 * s->cevs[i].step;
		s->given[i].lateness_agg = 0.5;
	}
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	assert_int_equal(ph->pattern, TC_EX_WAITALL);
	tc_clusters_cut(c, 0, 1);
	assert_int_equal(ph->nvisible, 1);
	struct tc_cluster_glyph g[4];
	tc_clusters_glyphs(c, 0, ph->root, 0, 4, g);
	assert_int_equal(g[0].size, 4);
	assert_int_equal(g[0].sends, 4);
	assert_int_equal(g[0].recvs, 0);
	assert_int_equal(g[0].recv_msgs, 0);
	assert_near(g[0].send_mean, 0.015, EPS);  /* mean of 0, .01, .02, .03 */
	assert_true(isnan(g[0].recv_mean));
	assert_near(g[0].agg_mean, 0.5, EPS);
	assert_int_equal(g[2].recvs, 4);
	assert_int_equal(g[2].recv_msgs, 8);
	assert_int_equal(g[2].active, 4);
	assert_int_equal(g[2].inactive, 0);
	assert_near(g[2].recv_mean, 0.415, EPS);
	assert_near(g[2].mean, 0.415, EPS);
	assert_int_equal(g[3].active, 0);   /* step 6: past the phase */
	assert_int_equal(g[3].inactive, 4);
	/* a window starting before the phase: step −… cannot be, start at 2 */
	tc_clusters_glyphs(c, 0, ph->root, 2, 1, g);
	assert_int_equal(g[0].sends, 4);
	assert_near(g[0].send_mean, 0.215, EPS);
	tc_clusters_free(c);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- focus ranks ------------------------------------------------------------ */

/* A chain 0 → 1 → 2 → 3 → 4: rank i receives from i−1, then sends to i+1. */
static struct tc_trace *chain(void)
{
	struct fx f = model(5);
	for (uint32_t r = 0; r < 5; r++) {
		tcb_enter(f.t, r, 0, f.main_);
		if (r > 0) do_recv(&f, r, 10 * r, r - 1);
		if (r < 4) do_send(&f, r, 10 * r + 5, r + 1);
		tcb_leave(f.t, r, 100, f.main_);
	}
	tc_trace_finish(f.t);
	return f.t;
}

static char *ranks_str(const uint32_t *v, uint32_t n)
{
	struct strbuf b = { 0 };
	fmt_ranges(&b, v, n);
	return sb_detach(&b);
}

static void assert_focus(const struct tc_steps *s, uint32_t p, uint32_t seed, uint32_t radius, uint32_t max,
			 const char *want)
{
	uint32_t out[16];
	uint32_t n = tc_focus_ranks(s, p, seed, radius, max, out);
	char *got = ranks_str(out, n);
	assert_string_equal(got, want);
	free(got);
}

static void test_focus_bfs(void **st)
{
	(void)st;
	struct tc_trace *t = chain();
	assert_int_equal(t->nmsgs, 4);
	struct tc_steps *s = steps_from_ops(t);
	assert_focus(s, 0, 2, 0, 16, "2");
	assert_focus(s, 0, 2, 1, 16, "1-3");
	assert_focus(s, 0, 2, 2, 16, "0-4");
	/* two hops along receives: 4 ← 3 ← 2 (Ravel's BFS stopped at 3) */
	assert_focus(s, 0, 4, 2, 16, "2-4");
	assert_focus(s, 0, 0, 3, 16, "0-3");
	assert_focus(s, 0, 2, 2, 3, "1-3");   /* nearer ranks first */
	assert_focus(s, 0, 9, 1, 16, "");      /* not in the partition */
	/* the phase's focus: seed = the latest rank (3), radius 1 */
	for (size_t i = 0; i < s->ncevs; i++) s->given[i].lateness = s->cevs[i].rank == 3 ? 1.0 : 0.1;
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	assert_int_equal(ph->max_rank, 3);
	assert_int_equal(ph->focus_seed, 3);
	char *got = ranks_str(ph->focus, ph->nfocus);
	assert_string_equal(got, "2-4");
	free(got);
	assert_int_equal(tc_clusters_refocus(c, 0, 0, 1), 2);
	assert_int_equal(ph->focus[0], 0);
	assert_int_equal(ph->focus[1], 1);
	/* two clusters: {0-2,4} at 0.1 and {3}; the first one's max rank is 0 */
	assert_int_equal(ph->nvisible, 2);
	assert_int_equal(ph->nodes[ph->visible[0]].max_rank, 0);
	assert_int_equal(tc_clusters_refocus(c, 0, ph->nodes[ph->visible[0]].max_rank, 2), 3);
	assert_int_equal(ph->radius, 2);
	assert_int_equal(tc_clusters_refocus(c, 0, 77, 2), 3);   /* not in the phase: unchanged */
	tc_clusters_free(c);
	/* the message 0 → 1 in another partition no longer links 0 and 1 in partition 0 */
	size_t m01 = 0;
	while (t->msgs[m01].src != 0) m01++;
	s->cevs[s->msg_send_cev[m01]].partition = 1;
	s->cevs[s->msg_recv_cev[m01]].partition = 1;
	assert_focus(s, 0, 2, 2, 16, "1-4");
	assert_focus(s, 1, 0, 1, 16, "0-1");
	tc_steps_free(s);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_groups_direct),
		cmocka_unit_test(test_groups_clara),
		cmocka_unit_test(test_open_close),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_gradient_one_cluster),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_dense_matrix_same),
		cmocka_unit_test(test_exchange_flavours),
		cmocka_unit_test(test_glyphs_waitall),
		cmocka_unit_test(test_focus_bfs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
