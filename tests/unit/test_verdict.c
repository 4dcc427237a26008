/* test_verdict.c — load balance (Eq. 9–10), the background dispersion
 * statistic, the dependency DAG (Algorithm 2) and verdicts on hand-made traces. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis_latency.h"
#include "analysis_remap.h"
#include "analysis_steps.h"
#include "analysis_rootcause.h"
#include "analysis_verdict.h"
#include "analysis_waitstate.h"
#include "steps_halo.h"
#include "../../src/analysis/verdict_internal.h"

/* loads 2,2,2,10: mean 4, AD = (2+2+2+6)/4 = 3, LB = 2/3 ×3 and 6/3 = 2 */
static void test_load_balance(void **st)
{
	(void)st;
	double c[4] = { 2, 2, 2, 10 }, lb[4], mean;
	double ad = tc_load_balance(c, 4, lb, &mean);
	assert_float_equal(mean, 4, 1e-12);
	assert_float_equal(ad, 3, 1e-12);
	assert_float_equal(lb[0], 2.0 / 3.0, 1e-12);
	assert_float_equal(lb[2], 2.0 / 3.0, 1e-12);
	assert_float_equal(lb[3], 2.0, 1e-12);
	/* mean of LB is 1 whenever AD > 0 (by construction) */
	assert_float_equal((lb[0] + lb[1] + lb[2] + lb[3]) / 4, 1.0, 1e-12);
	/* equal loads: AD 0, every LB 0 */
	double e[3] = { 5, 5, 5 }, le[3] = { 9, 9, 9 };
	assert_float_equal(tc_load_balance(e, 3, le, NULL), 0, 0);
	assert_float_equal(le[0], 0, 0);
	assert_float_equal(le[2], 0, 0);
	/* two ranks 0 and 4: mean 2, AD 2, LB 1 each */
	double p[2] = { 0, 4 }, lp[2];
	assert_float_equal(tc_load_balance(p, 2, lp, NULL), 2, 1e-12);
	assert_float_equal(lp[0], 1, 1e-12);
	assert_float_equal(lp[1], 1, 1e-12);
}

/* Ten windows, two of them at 5x: quiet q = lower quartile of the levels = 1.0
 * (sorted 0.98 0.99 1 1 1 1 1.01 1.02 5 5.2: position 2.25), spread = MAD of
 * the quiet half = 0 → floored to 0.05·q; scores of the slow windows (5−1)/0.05
 * = 80 and 84.  Window 9 is slow too but has too few messages to count. */
static void test_dispersion(void **st)
{
	(void)st;
	double lv[11] = { 1, 1.02, 0.98, 1, 1, 1.01, 5, 5.2, 1, 0.99, 9 };
	uint32_t n[11] = { 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 3 };
	double score[11], q, s;
	bool d[11];
	uint32_t k = tc_dispersion(lv, n, 11, 8, 2.0, 3.0, score, d, &q, &s);
	assert_int_equal(k, 2);
	assert_true(d[6] && d[7]);
	assert_false(d[0] || d[5] || d[8] || d[9] || d[10]);
	assert_float_equal(q, 1.0, 1e-12);
	assert_float_equal(s, 0.05, 1e-12);
	assert_float_equal(score[6], 80, 1e-9);
	assert_float_equal(score[7], 84, 1e-9);
	assert_true(isnan(score[10]));
	/* with a real spread: quiet levels 1 ± 0.2 → a 1.5x window is not disturbed
	 * (below factor 2), a 3x one is */
	double lv2[8] = { 0.8, 1.2, 1.0, 0.9, 1.1, 1.5, 3.0, 1.0 };
	uint32_t n2[8] = { 10, 10, 10, 10, 10, 10, 10, 10 };
	double sc2[8];
	bool d2[8];
	assert_int_equal(tc_dispersion(lv2, n2, 8, 8, 2.0, 3.0, sc2, d2, NULL, NULL), 1);
	assert_true(d2[6]);
	assert_false(d2[5]);
}

static struct tc_trace *p2p_trace(uint32_t n, const uint32_t *node_of, uint32_t nnodes, uint32_t *rs, uint32_t *rr)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, n, node_of, nnodes);
	*rs = tc_def_region(t, "MPI_Send", 0, 0, true);
	*rr = tc_def_region(t, "MPI_Recv", 0, 0, true);
	return t;
}

static void send_at(struct tc_trace *t, uint32_t rs, uint32_t from, uint32_t to, uint64_t at, uint64_t bytes)
{
	tcb_enter(t, from, at, rs);
	tcb_send(t, from, at, to, 0, 0, bytes);
	tcb_leave(t, from, at + 1, rs);
}

static void recv_at(struct tc_trace *t, uint32_t rr, uint32_t at_rank, uint32_t from, uint64_t enter, uint64_t done,
		    uint64_t bytes)
{
	tcb_enter(t, at_rank, enter, rr);
	tcb_recv(t, at_rank, done, from, 0, 0, bytes);
	tcb_leave(t, at_rank, done + 1, rr);
}

/* A chain 0 → 1 → 2 → 0 (Figure 7 style).  Algorithm 2 gives four nodes:
 * A = rank 0 [send], B = rank 1 [recv, send], C = rank 2 [recv, send],
 * D = rank 0 [recv] (A already holds a send), edges A→B, B→C, C→D and levels
 * 0, 1, 2, 3.  Every rank sends one and receives one message: LB all 0. */
static void test_dag_chain(void **st)
{
	(void)st;
	uint32_t rs, rr;
	struct tc_trace *t = p2p_trace(3, NULL, 1, &rs, &rr);
	send_at(t, rs, 0, 1, 10, 100);
	recv_at(t, rr, 1, 0, 5, 20, 100);
	send_at(t, rs, 1, 2, 30, 200);
	recv_at(t, rr, 2, 1, 6, 40, 200);
	send_at(t, rs, 2, 0, 50, 300);
	recv_at(t, rr, 0, 2, 12, 60, 300);
	tc_trace_finish(t);
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	struct tc_dag *d = tc_dag_build(t, lat, NULL, 0, 0, 1000, 0);
	assert_int_equal(d->nmsgs, 3);
	assert_int_equal(d->nnodes, 4);
	assert_int_equal(d->nedges, 3);
	assert_int_equal(d->nlevels, 4);
	uint32_t rank[4] = { 0, 1, 2, 0 }, nrecv[4] = { 0, 1, 1, 1 }, nsend[4] = { 1, 1, 1, 0 };
	for (uint32_t v = 0; v < 4; v++) {
		assert_int_equal(d->nodes[v].rank, rank[v]);
		assert_int_equal(d->nodes[v].level, v);
		assert_int_equal(d->nodes[v].nrecv, nrecv[v]);
		assert_int_equal(d->nodes[v].nsend, nsend[v]);
	}
	assert_int_equal(d->nodes[3].prev, 0);
	assert_int_equal(d->nodes[1].prev, TC_NONE);
	for (uint32_t e = 0; e < 3; e++) {
		assert_int_equal(d->edges[e].from, e);
		assert_int_equal(d->edges[e].to, e + 1);
	}
	assert_int_equal(d->edges[1].bytes, 200);
	assert_int_equal(d->nodes[1].bytes_in, 100);
	assert_int_equal(d->nodes[1].bytes_out, 200);
	/* adjacency */
	assert_int_equal(d->nodes[1].nin, 1);
	assert_int_equal(d->in_edges[d->nodes[1].first_in], 0);
	assert_int_equal(d->out_edges[d->nodes[1].first_out], 1);
	/* rows */
	assert_int_equal(d->nranks, 3);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(d->ranks[i].rank, i);
		assert_int_equal(d->ranks[i].msgs_in, 1);
		assert_int_equal(d->ranks[i].msgs_out, 1);
		assert_float_equal(d->ranks[i].lb, 0, 0);
	}
	/* transfer of 0→1: completion 20 − max(send 10, posted 5) = 10 ms */
	assert_float_equal(d->edges[0].transfer, 0.010, 1e-12);
	assert_float_equal(d->ranks[1].transfer_in, 0.010, 1e-12);
	tc_dag_free(d);

	/* window [0, 45): the last message (received at 60) is out */
	d = tc_dag_build(t, lat, NULL, 0, 0, 45, 0);
	assert_int_equal(d->nmsgs, 2);
	assert_int_equal(d->nnodes, 3);
	assert_int_equal(d->nlevels, 3);
	tc_dag_free(d);
	/* rank set {1, 2}: only 1 → 2 */
	uint32_t set[2] = { 1, 2 };
	d = tc_dag_build(t, lat, set, 2, 0, 1000, 0);
	assert_int_equal(d->nmsgs, 1);
	assert_int_equal(d->nnodes, 2);
	assert_int_equal(d->nodes[0].rank, 1);
	assert_int_equal(d->nodes[1].level, 1);
	tc_dag_free(d);
	/* max_msgs 1: the first by receive completion */
	d = tc_dag_build(t, lat, NULL, 0, 0, 1000, 1);
	assert_true(d->truncated);
	assert_int_equal(d->nmsgs_window, 3);
	assert_int_equal(d->edges[0].msg, 0);
	tc_dag_free(d);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* Fan-in: ranks 1, 2, 3 send to 0 concurrently, 0 then answers 1.  Rank 0's
 * three receives share one node (level 1) which then takes the send, so
 * 1's receive opens a new node on rank 1 at level 2.  Counts: rank 0 has 4
 * messages, the others 1, 1, 2 → mean 2, AD 1, LB(0) = 2. */
static void test_dag_fan_in(void **st)
{
	(void)st;
	uint32_t rs, rr;
	struct tc_trace *t = p2p_trace(4, NULL, 1, &rs, &rr);
	send_at(t, rs, 1, 0, 10, 8);
	send_at(t, rs, 2, 0, 11, 8);
	send_at(t, rs, 3, 0, 12, 8);
	recv_at(t, rr, 0, 1, 1, 20, 8);
	recv_at(t, rr, 0, 2, 22, 23, 8);
	recv_at(t, rr, 0, 3, 25, 26, 8);
	send_at(t, rs, 0, 1, 30, 8);
	recv_at(t, rr, 1, 0, 15, 40, 8);
	tc_trace_finish(t);
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	struct tc_dag *d = tc_dag_build(t, lat, NULL, 0, 0, 1000, 0);
	assert_int_equal(d->nnodes, 5);
	assert_int_equal(d->nedges, 4);
	assert_int_equal(d->nlevels, 3);
	uint32_t v0 = TC_NONE, v1b = TC_NONE;
	for (uint32_t v = 0; v < d->nnodes; v++) {
		if (d->nodes[v].rank == 0) v0 = v;
		if (d->nodes[v].rank == 1 && d->nodes[v].nrecv) v1b = v;
	}
	assert_int_equal(d->nodes[v0].nrecv, 3);
	assert_int_equal(d->nodes[v0].nsend, 1);
	assert_int_equal(d->nodes[v0].level, 1);
	assert_int_equal(d->nodes[v0].nin, 3);
	assert_int_equal(d->nodes[v1b].level, 2);
	assert_int_not_equal(d->nodes[v1b].prev, TC_NONE);
	assert_float_equal(d->ranks[0].lb, 2.0, 1e-12);
	assert_float_equal(d->ranks[3].lb, 1.0, 1e-12);
	assert_float_equal(d->ranks[1].lb, 0.0, 1e-12);
	tc_dag_free(d);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* Clock-condition violations making a cycle: each receive completes before
 * the matching send.  The build must terminate with both edges. */
static void test_dag_bad_clocks(void **st)
{
	(void)st;
	uint32_t rs, rr;
	struct tc_trace *t = p2p_trace(2, NULL, 1, &rs, &rr);
	recv_at(t, rr, 0, 1, 20, 30, 8);
	send_at(t, rs, 0, 1, 50, 8);
	recv_at(t, rr, 1, 0, 35, 40, 8);
	send_at(t, rs, 1, 0, 45, 8);
	tc_trace_finish(t);
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	struct tc_dag *d = tc_dag_build(t, lat, NULL, 0, 0, 1000, 0);
	assert_int_equal(d->nmsgs, 2);
	assert_int_equal(d->nedges, 2);
	assert_true(d->nnodes >= 2 && d->nnodes <= 4);
	tc_dag_free(d);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* Master/worker by hand: rank 0 exchanges 20 rounds with each of 15 workers
 * (one node): rank 0 carries 600 of 1200 message ends, mean 75 → 8x.  The
 * pattern verdict names rank 0; there is no mapping claim on one node. */
static void test_verdict_pattern(void **st)
{
	(void)st;
	uint32_t rs, rr;
	const uint32_t n = 16;
	struct tc_trace *t = p2p_trace(n, NULL, 1, &rs, &rr);
	uint64_t now0 = 0, now[16] = { 0 };
	for (uint32_t it = 0; it < 20; it++)
		for (uint32_t w = 1; w < n; w++) {
			uint64_t s = TC_MAX(now0, now[w]) + 2;
			send_at(t, rs, 0, w, s, 64);
			recv_at(t, rr, w, 0, s, s + 3, 64);
			send_at(t, rs, w, 0, s + 5, 16);
			recv_at(t, rr, 0, w, s + 2, s + 8, 16);
			now0 = s + 9;
			now[w] = s + 6;
		}
	tc_trace_finish(t);
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	struct tc_remap *rm = tc_remap_compute(t, TC_REMAP_BYTES);
	struct tc_verdicts *V = tc_verdicts_compute(t, lat, NULL, NULL, rm, NULL, NULL);
	assert_true(V->n >= 1);
	const struct tc_verdict *v = &V->v[0];
	assert_int_equal(v->cause, TC_CAUSE_PATTERN);
	assert_int_equal(v->scope, TC_NONE);
	assert_false(v->windowed);
	assert_int_equal(v->nranks, 1);
	assert_int_equal(v->ranks[0], 0);
	assert_float_equal(tc_verdict_ev(v, "max_over_mean"), 8.0, 1e-12);
	assert_float_equal(tc_verdict_ev(v, "busiest_partners"), 15, 0);
	/* 8x: log2(8)/3 = 1, 600 message ends of 1200 messages: full weight */
	assert_float_equal(v->confidence, 1.0, 1e-12);
	for (uint32_t i = 0; i < V->n; i++) assert_int_not_equal(V->v[i].cause, TC_CAUSE_MAPPING);
	assert_int_equal(V->rank[0].msgs_in + V->rank[0].msgs_out, 600);
	assert_int_equal(V->rank[3].partners, 1);
	tc_verdicts_free(V);
	tc_remap_free(rm);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* A ring 0-1-...-7 with ranks alternating between two nodes (every message
 * crosses) against a block placement (2 of 16 directed pairs cross): the
 * mapping verdict carries the remap numbers; the block placement is "none". */
static struct tc_verdicts *ring_verdicts(const uint32_t *node_of, struct tc_remap **rmp, struct tc_latency **latp,
					 struct tc_trace **tp)
{
	uint32_t rs, rr;
	const uint32_t n = 8;
	struct tc_trace *t = p2p_trace(n, node_of, 2, &rs, &rr);
	for (uint32_t it = 0; it < 30; it++) {
		uint64_t base = 100 * it;
		for (uint32_t r = 0; r < n; r++) {
			uint32_t right = (r + 1) % n, left = (r + n - 1) % n;
			bool inter_r = node_of[r] != node_of[right], inter_l = node_of[r] != node_of[left];
			send_at(t, rs, r, right, base + 10, 4096);
			send_at(t, rs, r, left, base + 12, 4096);
			/* posted after the sends: inter-node transfers take 9 ticks, intra-node 3 */
			recv_at(t, rr, r, left, base + 14, base + 14 + (inter_l ? 9 : 3), 4096);
			recv_at(t, rr, r, right, base + 30, base + 30 + (inter_r ? 9 : 3), 4096);
		}
	}
	tc_trace_finish(t);
	*latp = tc_latency_compute(t, NULL);
	*rmp = tc_remap_compute(t, TC_REMAP_BYTES);
	*tp = t;
	struct tc_rootcause *rc = tc_rootcause_compute(t, NULL, NULL);
	struct tc_verdicts *V = tc_verdicts_compute(t, *latp, NULL, NULL, *rmp, rc, NULL);
	tc_rootcause_free(rc);
	return V;
}

static void test_verdict_mapping(void **st)
{
	(void)st;
	uint32_t alt[8] = { 0, 1, 0, 1, 0, 1, 0, 1 }, blk[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct tc_remap *rm;
	struct tc_latency *lat;
	struct tc_trace *t;
	struct tc_verdicts *V = ring_verdicts(alt, &rm, &lat, &t);
	assert_int_equal(V->v[0].cause, TC_CAUSE_MAPPING);
	assert_int_equal(V->remap_msgs_before, 480);
	assert_int_equal(V->remap_msgs_after, 120);
	assert_float_equal(tc_verdict_ev(&V->v[0], "remap_cut"), 0.75, 1e-12);
	assert_float_equal(tc_verdict_ev(&V->v[0], "inter_share"), 1.0, 1e-12);
	/* all messages cross: no intra-node reference in the trace, the intra-node
	 * model (2 µs + 4 GB/s) is the reference.  The inter-node receives (10 ticks)
	 * and sends (1 tick) on the critical path are 22.5 % of it (≥ path_full 0.15:
	 * full weight), the remap cuts 75 % (≥ 50 %: full weight) → confidence 1 */
	assert_true(isnan(V->inter_cost));
	assert_float_equal(V->v[0].confidence, 1.0, 1e-12);
	assert_true(tc_verdict_ev(&V->v[0], "path_share") > 0.2 && tc_verdict_ev(&V->v[0], "path_share") < 0.2253);
	assert_int_equal(V->v[0].nranks, V->remap_moved);
	tc_verdicts_free(V);
	tc_remap_free(rm);
	tc_latency_free(lat);
	tc_trace_free(t);

	V = ring_verdicts(blk, &rm, &lat, &t);
	assert_int_equal(V->n, 1);
	assert_int_equal(V->v[0].cause, TC_CAUSE_NONE);
	assert_int_equal(V->remap_msgs_before, 120);
	assert_false(V->remap_improved);
	assert_float_equal(V->inter_cost, 3.0, 1e-9);
	tc_verdicts_free(V);
	tc_remap_free(rm);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* Ring halo (tests/support/steps_halo.c), 8 ranks, 10 iterations of 100 s,
 * rank 3 computes 100 s longer in iteration 2: the imbalance verdict (from
 * the critical path, test_rootcause.c) names rank 3 alone at step 7 (the
 * block's step); the Ravel numbers kept in the JSON say the same: its block
 * before step 8 is the only origin of differential lateness (D_agg = 100). */
static void test_verdict_imbalance(void **st)
{
	(void)st;
	struct halo_spec h = { .nranks = 8, .iters = 10, .res = 1, .work = 100, .delay_rank = 3, .delay_iter = 2,
			       .delay = 100 };
	struct tc_trace *t = halo_trace(&h);
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	struct tc_steps *sp = tc_steps_compute(t, NULL);
	struct tc_waitstates *ws = tc_waitstates_compute(t);
	struct tc_rootcause *rc = tc_rootcause_compute(t, NULL, NULL);
	struct tc_verdicts *V = tc_verdicts_compute(t, lat, sp, ws, NULL, rc, NULL);
	const struct tc_verdict *v = &V->v[0];
	assert_int_equal(v->cause, TC_CAUSE_IMBALANCE);
	assert_int_equal(v->nranks, 1);
	assert_int_equal(v->ranks[0], 3);
	assert_float_equal(V->rank[3].own_late, 100, 1e-9);
	for (uint32_t r = 0; r < 8; r++)
		if (r != 3) assert_float_equal(V->rank[r].own_late, 0, 1e-9);
	assert_float_equal(tc_verdict_ev(v, "excess_s"), 100, 1e-4);
	assert_float_equal(tc_verdict_ev(v, "caused_s"), ws->caused[3], 1e-12);
	/* its neighbours waited 98 and 99 s (they entered their Waitall a few ticks into
	 * the delay); rank 3 itself never waited */
	assert_float_equal(ws->caused[3], 197, 1e-9);
	assert_float_equal(V->rank[3].waited, 0, 0);
	assert_int_equal(v->nsteps, 1);
	assert_int_equal(v->steps[0].rank, 3);
	assert_int_equal(v->steps[0].step, 7);
	assert_float_equal(v->steps[0].seconds, 100, 1e-4);
	/* confidence: the path share (100 s of the whole trace here) over path_full (0.15) */
	assert_float_equal(v->confidence, 100.0 / rc->path_len / 0.15, 1e-4);
	tc_verdicts_free(V);
	/* without the root-cause analysis there is no imbalance claim; without the
	 * logical structure the same claim, with no steps named */
	V = tc_verdicts_compute(t, lat, NULL, NULL, NULL, NULL, NULL);
	for (uint32_t i = 0; i < V->n; i++) assert_int_not_equal(V->v[i].cause, TC_CAUSE_IMBALANCE);
	tc_verdicts_free(V);
	V = tc_verdicts_compute(t, lat, NULL, NULL, NULL, rc, NULL);
	assert_int_equal(V->v[0].cause, TC_CAUSE_IMBALANCE);
	assert_int_equal(V->v[0].ranks[0], 3);
	assert_float_equal(V->v[0].confidence, 100.0 / rc->path_len / 0.15, 1e-4);
	tc_verdicts_free(V);
	tc_rootcause_free(rc);
	tc_waitstates_free(ws);
	tc_steps_free(sp);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* Two groups of 8 ranks: 0-7 a ring, 8-15 a star around rank 8, 20 rounds.
 * Run: rank 8 carries 14 of 60 message ends per round, mean 3.75 → 3.73x;
 * region of 8-15: 14 of 28, mean 3.5 → 4x.  Both scopes name rank 8. */
static void test_verdict_region_scope(void **st)
{
	(void)st;
	uint32_t rs, rr;
	struct tc_trace *t = p2p_trace(16, NULL, 1, &rs, &rr);
	for (uint32_t it = 0; it < 20; it++) {
		uint64_t b = 1000 * it;
		for (uint32_t r = 0; r < 8; r++) {
			send_at(t, rs, r, (r + 1) % 8, b + 10, 64);
			send_at(t, rs, r, (r + 7) % 8, b + 12, 64);
			recv_at(t, rr, r, (r + 7) % 8, b + 14, b + 20, 64);
			recv_at(t, rr, r, (r + 1) % 8, b + 22, b + 24, 64);
		}
		for (uint32_t w = 9; w < 16; w++) {
			uint64_t s = b + 10 * (w - 8);
			send_at(t, rs, 8, w, s, 64);
			recv_at(t, rr, w, 8, s, s + 3, 64);
			send_at(t, rs, w, 8, s + 5, 64);
			recv_at(t, rr, 8, w, s + 2, s + 8, 64);
		}
	}
	tc_trace_finish(t);
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	assert_int_equal(lat->nregions, 2);
	struct tc_verdicts *V = tc_verdicts_compute(t, lat, NULL, NULL, NULL, NULL, NULL);
	const struct tc_verdict *run = NULL, *reg = NULL;
	for (uint32_t i = 0; i < V->n; i++) {
		if (V->v[i].cause != TC_CAUSE_PATTERN) continue;
		if (V->v[i].scope == TC_NONE) run = &V->v[i];
		else reg = &V->v[i];
	}
	assert_non_null(run);
	assert_non_null(reg);
	assert_int_equal(reg->scope, lat->rank_region[8]);
	assert_int_equal(run->nranks, 1);
	assert_int_equal(run->ranks[0], 8);
	assert_int_equal(reg->nranks, 1);
	assert_int_equal(reg->ranks[0], 8);
	assert_float_equal(tc_verdict_ev(run, "max_over_mean"), 14 / 3.75, 1e-9);
	assert_float_equal(tc_verdict_ev(reg, "max_over_mean"), 4.0, 1e-9);
	/* sorted by confidence: the region's 4x before the run's 3.73x */
	assert_true(reg < run);
	/* panels: the run's windows hold all 600 messages; the ring region's 320 and
	 * the star region's 280, whose busiest rank is always 8 */
	uint32_t W = lat->nwindows, sum = 0, ring = 0, star = 0;
	struct tc_verdict_win *pw = calloc(W, sizeof *pw);
	for (uint32_t w = 0; w < W; w++) sum += V->win[w].msgs;
	tc_verdict_windows(t, lat, lat->rank_region[0], NULL, pw);
	for (uint32_t w = 0; w < W; w++) { ring += pw[w].msgs; assert_int_equal(pw[w].inter, 0); }
	tc_verdict_windows(t, lat, lat->rank_region[8], NULL, pw);
	for (uint32_t w = 0; w < W; w++) {
		star += pw[w].msgs;
		if (pw[w].msgs >= 14) assert_int_equal(pw[w].busiest, 8);
	}
	assert_int_equal(sum, 600);
	assert_int_equal(ring, 320);
	assert_int_equal(star, 280);
	free(pw);
	tc_verdicts_free(V);
	tc_latency_free(lat);
	tc_trace_free(t);
}

/* Machine busyness (docs/verdicts.md): 0 at a compute stall rate <= 2 %, 1 at
 * >= 4 %, linear between; `typical` uses the lower quartile of the ranks'
 * rates, else the rate over all compute segments. */
static void test_machine_busy(void **state)
{
	(void)state;
	struct tc_verdict_opts o;
	tc_verdict_default_opts(&o);
	struct tc_rootcause rc = { .n_compute = 1000, .n_compute_stalls = 30, .compute_stall_rate_q1 = 0.01 };
	assert_float_equal(verdict_machine_busy(&rc, &o, false), 0.5, 1e-12);
	assert_float_equal(verdict_machine_busy(&rc, &o, true), 0, 0);
	rc.n_compute_stalls = 10;
	assert_float_equal(verdict_machine_busy(&rc, &o, false), 0, 0);
	rc.n_compute_stalls = 200;
	rc.compute_stall_rate_q1 = 0.035;
	assert_float_equal(verdict_machine_busy(&rc, &o, false), 1, 0);
	assert_float_equal(verdict_machine_busy(&rc, &o, true), 0.75, 1e-12);
	/* by time held: 1 % of the segments stalled (0), but 6.5 % of the typical
	 * compute time (held 0.05 .. 0.08: 0.5); the typical rank's rate alone
	 * decides `typical` */
	rc.n_compute_stalls = 10;
	rc.compute_stall_rate_q1 = 0.01;
	rc.compute_stall_share = 0.065;
	assert_float_equal(verdict_machine_busy(&rc, &o, false), 0.5, 1e-12);
	assert_float_equal(verdict_machine_busy(&rc, &o, true), 0, 0);
	rc.compute_stall_share = 0.2;
	assert_float_equal(verdict_machine_busy(&rc, &o, false), 1, 0);
}


/* A hot spot's cost on the path is its own MPI time there (A2): rank 0 holds
 * 5 of 10 s of the path, of which 1 s communicating with 0.5 s excess.
 * path_share = (5/10 · 10 − 0.5) / 10 = 0.45; path_comm_share = (1/10 · 10 −
 * 0.5) / 10 = 0.05; rank 1 holds no communication.  A piece of a context
 * with no typical value (a call seen once) counts up to 10 × the intra-node
 * model of its bytes (size bucket 0: 2 µs, so 20 µs), the rest is a hold:
 * with no excess, (1 − (1 − 20 µs)) / 10 = 2e-6. */
static void test_path_comm_share(void **state)
{
	(void)state;
	struct tc_cp_piece p[] = {
		{ .start = 0, .end = 4, .rank = 0, .kind = TC_CP_COMPUTE, .act = 0 },
		{ .start = 4, .end = 5, .rank = 0, .kind = TC_CP_MPI_INTRA, .excess = 0.5, .act = 1 },
		{ .start = 5, .end = 10, .rank = 1, .kind = TC_CP_COMPUTE, .act = 2 },
	};
	uint16_t act_ctx[3] = { 0, 1, 0 };
	struct tc_rc_ctx ctx[2] = { { .kind = TC_ACT_COMPUTE, .typical = 1 }, { .kind = TC_ACT_MPI, .typical = 1 } };
	struct tc_rootcause rc = { .npath = 3, .path = p, .path_len = 10, .act_ctx16 = act_ctx, .ctx = ctx, .nctx = 2 };
	struct tc_trace t = { .res = 1 };
	bool hot0[2] = { true, false }, hot1[2] = { false, true };
	assert_float_equal(verdict_path_share_of(&rc, hot0), 0.45, 1e-12);
	assert_float_equal(verdict_path_comm_share_of(&t, &rc, hot0), 0.05, 1e-12);
	assert_float_equal(verdict_path_share_of(&rc, hot1), 0.5, 1e-12);
	assert_float_equal(verdict_path_comm_share_of(&t, &rc, hot1), 0, 0);
	p[1].kind = TC_CP_MPI_INTER;
	assert_float_equal(verdict_path_comm_share_of(&t, &rc, hot0), 0.05, 1e-12);
	/* untyped: excess 0 here, the hold is what lies beyond 20 µs */
	p[1].excess = 0;
	ctx[1].typical = 0;
	assert_float_equal(verdict_path_comm_share_of(&t, &rc, hot0), 2e-6, 1e-12);
	ctx[1].typical = 1;
	assert_float_equal(verdict_path_comm_share_of(&t, &rc, hot0), 0.1, 1e-12);
}

/* Noise is the explanation of last resort: a claim that was tested against
 * the machine's noise (imbalance, background) comes before it whatever the
 * shares; against the others (mapping, pattern) noise counts half its share.
 * Before session 6 the first list read noise, mapping, imbalance. */
static struct tc_verdict claim(uint8_t cause, double share, double conf)
{
	struct tc_verdict v = { .cause = cause, .scope = TC_NONE, .confidence = conf };
	ev_add(&v, "path_share", share);
	return v;
}

static void test_verdict_noise_last(void **state)
{
	(void)state;
	struct tc_verdict v[3] = { claim(TC_CAUSE_NOISE, 0.44, 1), claim(TC_CAUSE_IMBALANCE, 0.16, 0.79),
				   claim(TC_CAUSE_MAPPING, 0.2, 0.9) };
	verdict_sort(v, 3);
	assert_int_equal(v[0].cause, TC_CAUSE_MAPPING);
	assert_int_equal(v[1].cause, TC_CAUSE_IMBALANCE);
	assert_int_equal(v[2].cause, TC_CAUSE_NOISE);
	struct tc_verdict w[2] = { claim(TC_CAUSE_MAPPING, 0.16, 1), claim(TC_CAUSE_NOISE, 0.44, 1) };
	verdict_sort(w, 2);  /* 0.44 / 2 = 0.22 > 0.16 */
	assert_int_equal(w[0].cause, TC_CAUSE_NOISE);
	assert_float_equal(w[0].rank_key, 0.22, 1e-12);
	struct tc_verdict x[2] = { claim(TC_CAUSE_NOISE, 0.6, 1), claim(TC_CAUSE_BACKGROUND, 0.1, 0.67) };
	verdict_sort(x, 2);
	assert_int_equal(x[0].cause, TC_CAUSE_BACKGROUND);
	assert_float_equal(x[1].rank_key, 0, 0);
}

/* The mapping's cost counts an inter-node context only when its typical own
 * time stands above the intra-node reference as an excess must: ref +
 * max(ref / 2, noise floor).  Ring halo of 8 ranks alternating between two
 * nodes (every Isend and Waitall crosses; no intra-node call of the kind to
 * compare with: the reference is the model, 2 µs + 4 GB/s); every MPI call
 * lasts 1 tick, compute is 10 ticks without jitter (noise floor 20 µs).
 * With 1 tick = 10 µs the calls are MPI's software cost (10 µs < 2 µs +
 * 20 µs): cost 0 (it was 8 µs per inter-node piece on the path, 11 % of it:
 * a mapping claim on a placement that costs nothing).  With 1 tick = 100 µs
 * every inter-node piece costs its length minus the model. */
static double halo_mapping_cost_busy(uint64_t res, double busy, double height, size_t *npieces, double *want)
{
	static const uint32_t alt[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	struct halo_spec h = { .nranks = 8, .iters = 10, .res = res, .work = 10, .delay_rank = TC_NONE,
			       .node_of = alt, .nnodes = 2 };
	struct tc_trace *t = halo_trace(&h);
	struct tc_rootcause *rc = tc_rootcause_compute(t, NULL, NULL);
	rc->compute_stall_height = height;
	double ratio, cost = verdict_mapping_path_cost(t, rc, NAN, 1.2, busy, &ratio);
	*npieces = 0;
	*want = 0;
	for (size_t i = 0; i < rc->npath; i++) {
		const struct tc_cp_piece *p = &rc->path[i];
		if (p->kind != TC_CP_MPI_INTER) continue;
		assert_int_equal(p->end - p->start, 1);
		assert_float_equal(p->excess, 0, 0);
		uint8_t b = rc->ctx[tc_rc_act_ctx(rc, p->act)].size_bucket;
		*want += 1.0 / (double)res - (2e-6 + (double)(1ULL << (b - 1)) / 4e9);
		(*npieces)++;
	}
	tc_rootcause_free(rc);
	tc_trace_free(t);
	return cost;
}

static double halo_mapping_cost(uint64_t res, size_t *npieces, double *want)
{
	return halo_mapping_cost_busy(res, 0, 0, npieces, want);
}

static void test_verdict_mapping_floor(void **state)
{
	(void)state;
	size_t n;
	double want;
	assert_float_equal(halo_mapping_cost(100000, &n, &want), 0, 0);
	assert_true(n >= 10);
	double cost = halo_mapping_cost(10000, &n, &want);
	assert_true(n >= 10);
	assert_float_equal(cost, want, 1e-12);
	assert_true(cost > 0.5 * (double)n * 1e-4);
	/* a busy machine (busy 1) that held ranks 50 µs at a time: two holds (100
	 * µs) are as much as the 100 µs calls, which no longer stand above the
	 * model by more (cost 0); half as busy, the bar is one hold (50 µs) and
	 * every piece counts again */
	assert_float_equal(halo_mapping_cost_busy(10000, 1, 50e-6, &n, &want), 0, 0);
	assert_float_equal(halo_mapping_cost_busy(10000, 0.5, 50e-6, &n, &want), want, 1e-12);
}


/* Background is many stalled transfers: the largest single stall on the
 * critical path is left out of its time (a leave-one-out sum).  Ring halo of
 * 8 ranks, 10 iterations of 100 s; rank 2's Waitall of iteration 4 is held
 * 100 s (one event: the OS, a page fault storm), rank 3's of iteration 5 12 s
 * (above the stall yardstick of 10 s, so MPI stalled on two ranks).  No
 * compute stalls: the MPI stalls are all beyond the noise.  The path (1163 s)
 * carries both stalls; left out the 100 s one, 12 s remain: no background
 * claim (before session 6: 112 s, "background traffic" with confidence
 * (112 / 1163) / 0.15 = 0.64). */
static void test_verdict_background_one_event(void **st)
{
	(void)st;
	struct halo_spec h = { .nranks = 8, .iters = 10, .res = 1, .work = 100, .delay_rank = TC_NONE,
			       .mpi_stall_rank = { 2, 3 }, .mpi_stall_iter = { 4, 5 }, .mpi_stall = { 100, 12 } };
	struct tc_trace *t = halo_trace(&h);
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	struct tc_rootcause *rc = tc_rootcause_compute(t, NULL, NULL);
	struct tc_verdicts *V = tc_verdicts_compute(t, lat, NULL, NULL, NULL, rc, NULL);
	double B = 0, top = 0;
	for (size_t i = 0; i < rc->npath; i++)
		if (rc->path[i].kind == TC_CP_MPI_INTRA) {
			B += rc->path[i].excess;
			top = TC_MAX(top, (double)rc->path[i].excess);
		}
	assert_float_equal(B, 112, 1e-4);
	assert_float_equal(top, 100, 1e-4);
	assert_int_equal(rc->stall_ranks_mpi, 2);
	assert_int_equal(rc->n_compute_stalls, 0);
	/* the claim that stays under min_confidence: (12 s / path) / 0.15 */
	assert_int_equal(V->n, 1);
	assert_int_equal(V->v[0].cause, TC_CAUSE_NONE);
	assert_float_equal(V->v[0].confidence, 1 - 12 / rc->path_len / 0.15, 1e-6);
	tc_verdicts_free(V);
	tc_rootcause_free(rc);
	tc_latency_free(lat);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_balance),
		cmocka_unit_test(test_machine_busy),
		cmocka_unit_test(test_path_comm_share),
		cmocka_unit_test(test_dispersion),
		cmocka_unit_test(test_dag_chain),
		cmocka_unit_test(test_dag_fan_in),
		cmocka_unit_test(test_dag_bad_clocks),
		cmocka_unit_test(test_verdict_pattern),
		cmocka_unit_test(test_verdict_mapping),
		cmocka_unit_test(test_verdict_imbalance),
		cmocka_unit_test(test_verdict_region_scope),
		cmocka_unit_test(test_verdict_noise_last),
		cmocka_unit_test(test_verdict_mapping_floor),
		cmocka_unit_test(test_verdict_background_one_event),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
