/* test_steps.c — the logical-time engine on hand-made traces with exact
 * timestamps (clock: 1 tick = 1 s, so every metric is an exact integer) and on
 * the real traces in $TRACES; on the random and the real traces also the
 * partitions over parts (tc_partition_dist, P = 2..4 threads) against the
 * serial ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis_steps.h"
#include "analysis_steps_dist.h"
#include "distkit.h"
#include "lsum_parts.h"
#include "read.h"
#include "testkit.h"
#include "util.h"

/* Metric m of event e (agg: of its aggregate block). */
static double M(const struct tc_steps *s, const struct tc_cev *e, enum tc_metric m, bool agg)
{
	return tc_cev_metric(s, (uint32_t)(e - s->cevs), m, agg);
}

/* --- hand-made traces ---------------------------------------------------------- */
#define MAXR 16
struct hand {
	struct tc_trace *t;
	uint32_t nranks;
	uint64_t last[MAXR];
	uint32_t main_, exch, send, recv, isend, irecv, wait, waitall, barrier, sendrecv;
};

static struct hand hand_new(uint32_t nranks)
{
	struct hand h = { .nranks = nranks };
	h.t = tc_trace_new(1, 0, 0);
	tc_def_simple(h.t, nranks, NULL, 1);
	h.main_ = tc_def_region(h.t, "main", 0, 0, false);
	h.exch = tc_def_region(h.t, "exchange", 0, 0, false);
	h.send = tc_def_region(h.t, "MPI_Send", 0, 0, true);
	h.recv = tc_def_region(h.t, "MPI_Recv", 0, 0, true);
	h.isend = tc_def_region(h.t, "MPI_Isend", 0, 0, true);
	h.irecv = tc_def_region(h.t, "MPI_Irecv", 0, 0, true);
	h.wait = tc_def_region(h.t, "MPI_Wait", 0, 0, true);
	h.waitall = tc_def_region(h.t, "MPI_Waitall", 0, 0, true);
	h.barrier = tc_def_region(h.t, "MPI_Barrier", 0, 0, true);
	h.sendrecv = tc_def_region(h.t, "MPI_Sendrecv", 0, 0, true);
	for (uint32_t r = 0; r < nranks; r++) tcb_enter(h.t, r, 0, h.main_);
	return h;
}

static void h_at(struct hand *h, uint32_t r, uint64_t z) { if (z > h->last[r]) h->last[r] = z; }

static void h_send(struct hand *h, uint32_t r, uint64_t a, uint64_t z, uint32_t peer, uint32_t tag)
{
	tcb_enter(h->t, r, a, h->send);
	tcb_send(h->t, r, a, peer, 0, tag, 8);
	tcb_leave(h->t, r, z, h->send);
	h_at(h, r, z);
}

static void h_recv(struct hand *h, uint32_t r, uint64_t a, uint64_t z, uint32_t peer, uint32_t tag)
{
	tcb_enter(h->t, r, a, h->recv);
	tcb_recv(h->t, r, z, peer, 0, tag, 8);
	tcb_leave(h->t, r, z, h->recv);
	h_at(h, r, z);
}

static void h_isend(struct hand *h, uint32_t r, uint64_t a, uint64_t z, uint32_t peer, uint32_t tag, uint64_t req)
{
	tcb_enter(h->t, r, a, h->isend);
	tcb_isend(h->t, r, a, peer, 0, tag, 8, req);
	tcb_leave(h->t, r, z, h->isend);
	h_at(h, r, z);
}

/* region (MPI_Wait/Waitall) over [a,z] completing the send requests reqs at z */
static void h_wait_sends(struct hand *h, uint32_t r, uint32_t region, uint64_t a, uint64_t z, const uint64_t *reqs,
			 size_t n)
{
	tcb_enter(h->t, r, a, region);
	for (size_t k = 0; k < n; k++) tcb_isend_complete(h->t, r, z, reqs[k]);
	tcb_leave(h->t, r, z, region);
	h_at(h, r, z);
}

static void h_sendrecv(struct hand *h, uint32_t r, uint64_t a, uint64_t z, uint32_t peer)
{
	tcb_enter(h->t, r, a, h->sendrecv);
	tcb_send(h->t, r, a, peer, 0, 5, 8);
	tcb_recv(h->t, r, z, peer, 0, 5, 8);
	tcb_leave(h->t, r, z, h->sendrecv);
	h_at(h, r, z);
}

static void h_barrier(struct hand *h, uint32_t r, uint64_t a, uint64_t z)
{
	tcb_enter(h->t, r, a, h->barrier);
	tcb_coll_begin(h->t, r, a);
	tcb_coll_end(h->t, r, z, 0, 0, UINT32_MAX, 0, 0);
	tcb_leave(h->t, r, z, h->barrier);
	h_at(h, r, z);
}

static struct tc_trace *h_finish(struct hand *h)
{
	for (uint32_t r = 0; r < h->nranks; r++) tcb_leave(h->t, r, h->last[r] + 1, h->main_);
	tc_trace_finish(h->t);
	return h->t;
}

static struct tc_steps_opts opts_with(bool caller, bool lamport, bool leap)
{
	struct tc_steps_opts o;
	tc_steps_default_opts(&o);
	o.caller_merge = caller;
	o.lamport = lamport;
	o.leap_merge = leap;
	return o;
}

/* Structural invariants every result must satisfy, for any input. */
static void check_invariants(const struct tc_steps *s)
{
	const struct tc_trace *t = s->t;
	assert_int_equal(s->rank_first[0], 0);
	assert_int_equal(s->rank_first[t->nranks], s->ncevs);
	for (uint32_t r = 0; r < t->nranks; r++)
		for (uint32_t i = s->rank_first[r]; i < s->rank_first[r + 1]; i++) {
			const struct tc_cev *e = &s->cevs[i];
			assert_int_equal(e->rank, r);
			assert_int_equal(e->step % 2, 0);
			assert_true(e->step <= s->max_step);
			assert_true(e->partition < s->npartitions);
			assert_true(tc_cev_agg_start(s, i) <= tc_cev_enter(s, i) && tc_cev_enter(s, i) <= tc_cev_leave(s, i));
			assert_true(e->flags != 0);
			if (i > s->rank_first[r]) {
				assert_true(e->step > s->cevs[i - 1].step);
				assert_true(tc_cev_enter(s, i) >= tc_cev_enter(s, i - 1));
			}
			const struct tc_partition *P = &s->parts[e->partition];
			assert_true(e->step >= P->first_step && e->step <= P->last_step);
			assert_int_equal(tc_steps_find(s, r, e->step), i);
			if (e->step > 0) assert_int_equal(tc_steps_find(s, r, e->step - 1), i);
			uint32_t call = t->ranks[r].ops[e->op].call;
			assert_int_equal(tc_steps_cev_of_call(s, r, call), i);
			for (int m = 0; m < TC_M_COUNT; m++)
				for (int agg = 0; agg < 2; agg++) {
					double v = tc_cev_metric(s, i, (enum tc_metric)m, agg);
					assert_true(v >= 0 && v < 1e12);
				}
		}
	for (uint32_t p = 0; p + 1 < s->npartitions; p++)
		assert_true(s->parts[p].first_step <= s->parts[p + 1].first_step);
	uint32_t total = 0;
	for (uint32_t p = 0; p < s->npartitions; p++) {
		total += s->parts[p].ncevs;
		assert_true(s->parts[p].nranks >= 1 && s->parts[p].nranks <= t->nranks);
		assert_true(s->parts[p].last_step <= s->max_step);
	}
	assert_int_equal(total, s->ncevs);
	for (size_t m = 0; m < t->nmsgs; m++) {
		uint32_t a = s->msg_send_cev[m], b = s->msg_recv_cev[m];
		assert_true(a < s->ncevs && b < s->ncevs);
		assert_int_equal(s->cevs[a].rank, t->msgs[m].src);
		assert_int_equal(s->cevs[b].rank, t->msgs[m].dst);
		assert_true(s->cevs[a].flags & TC_CEV_SEND);
		assert_true(s->cevs[b].flags & TC_CEV_RECV);
		assert_int_equal(s->cevs[a].partition, s->cevs[b].partition);
	}
	for (uint32_t g = 0; g + 1 <= s->max_step; g++)
		assert_true(s->steps[g].enter_min <= s->steps[g].leave_max);
}

/* --- ring exchange + barrier (4 ranks) ---------------------------------------------
 * rank r: Send(→r+1) then Recv(←r-1), then Barrier.
 *        Send     Recv     Barrier
 *   r0  [0,2]    [3,5]    [8,12]
 *   r1  [1,4]    [4,9]    [10,12]
 *   r2  [0,1]    [2,3]    [4,13]
 *   r3  [2,3]    [3,6]    [9,12]
 * Partitions: the 4 messages join the sends and receives (X); the barrier is Y.
 * X: every send has stride 0 (no send follows in X) → local step 0; receives
 * are trailing: 1 + max(own send 0, sender 0) = 1.  Y: 0, after X → global 4.
 * Global steps: sends 0, receives 2, barrier 4.
 * Lateness (exit − min exit at the step): step 0 exits 2,4,1,3 → 1,3,0,2;
 *   step 2 exits 5,9,3,6 → 2,6,0,3; step 4 exits 12,12,13,12 → 0,0,1,0.
 * Aggregate lateness (enter − min enter): step 0 enters 0,1,0,2 → 0,1,0,2;
 *   step 2 enters 3,4,2,3 → 1,2,0,1; step 4 enters 8,10,4,9 → 4,6,0,5.
 * Duration: step 0 2,3,1,1 → 1,2,0,0; step 2 2,5,1,3 → 1,4,0,2;
 *   step 4 4,2,9,3 → 2,0,7,1.  Aggregate duration (enter − previous leave):
 *   step 0: none → 0; step 2: 1,0,1,0 → 1,0,1,0; step 4: 3,1,1,3 → 2,0,0,2.
 * Differential (§3.1):
 *   sends: D_agg = L_agg − 0 = 0,1,0,2; D = L − L_agg = 1,2,0,0.
 *   receives: D_agg = max(0, L_agg − L(send)) = 0,0,0,0;
 *     parent = max(L_agg, L(sender r-1)): r0 max(1,2)=2, r1 max(2,1)=2,
 *     r2 max(0,3)=3, r3 max(1,0)=1 → D = 0, 4, 0, 2.
 *   barrier: D_agg = L_agg − L(recv) → 2,0,0,2; D = L − L_agg → 0,0,1,0. */
static struct tc_trace *ring_trace(void)
{
	struct hand h = hand_new(4);
	static const uint64_t S[4][2] = { { 0, 2 }, { 1, 4 }, { 0, 1 }, { 2, 3 } };
	static const uint64_t R[4][2] = { { 3, 5 }, { 4, 9 }, { 2, 3 }, { 3, 6 } };
	static const uint64_t B[4][2] = { { 8, 12 }, { 10, 12 }, { 4, 13 }, { 9, 12 } };
	for (uint32_t r = 0; r < 4; r++) {
		h_send(&h, r, S[r][0], S[r][1], (r + 1) % 4, 1);
		h_recv(&h, r, R[r][0], R[r][1], (r + 3) % 4, 1);
		h_barrier(&h, r, B[r][0], B[r][1]);
	}
	return h_finish(&h);
}

/* Differential lateness with the receiver edge (issue 13, item 7): a ring of
 * blocking sends where rank 1 computes 5 ticks before posting its receive, so
 * rank 0's send to it is held until 7 (the receive is posted at 6).
 * Sends (step 0) exit 7,1,1,1 → L = 6,0,0,0.  Receives (step 2) enter
 * 8,6,1,1 → L_agg = 7,5,0,0.  Rank 0's send inherits rank 1's receive-enter
 * lateness (5): D = 6 − 5 = 1 (the transfer after the post), not 6.  Rank 1's
 * receive block is the origin: D_agg = 5 − 0 = 5. */
static void test_receiver_edge(void **st)
{
	(void)st;
	struct hand h = hand_new(4);
	static const uint64_t S[4][2] = { { 0, 7 }, { 0, 1 }, { 0, 1 }, { 0, 1 } };
	static const uint64_t R[4][2] = { { 8, 9 }, { 6, 7 }, { 1, 2 }, { 1, 2 } };
	for (uint32_t r = 0; r < 4; r++) {
		h_send(&h, r, S[r][0], S[r][1], (r + 1) % 4, 1);
		h_recv(&h, r, R[r][0], R[r][1], (r + 3) % 4, 1);
	}
	struct tc_trace *t = h_finish(&h);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	check_invariants(s);
	const struct tc_cev *send0 = &s->cevs[s->rank_first[0]], *recv1 = &s->cevs[s->rank_first[1] + 1];
	assert_int_equal(send0->step, 0);
	assert_int_equal(recv1->step, 2);
	assert_true(M(s, send0, TC_M_LATENESS, false) == 6);
	assert_true(M(s, send0, TC_M_DLATENESS, false) == 1);
	assert_true(M(s, recv1, TC_M_LATENESS, true) == 5);
	assert_true(recv1->dlateness_agg == 5);
	tc_steps_free(s);
	tc_trace_free(t);
}

static void test_ring_exchange_barrier(void **st)
{
	(void)st;
	struct tc_trace *t = ring_trace();
	struct tc_steps *s = tc_steps_compute(t, NULL);
	check_invariants(s);
	assert_int_equal(s->ncevs, 12);
	assert_int_equal(s->npartitions, 2);
	assert_int_equal(s->max_step, 4);
	assert_int_equal(s->parts[0].first_step, 0);
	assert_int_equal(s->parts[0].last_step, 2);
	assert_int_equal(s->parts[0].ncevs, 8);
	assert_int_equal(s->parts[0].nranks, 4);
	assert_int_equal(s->parts[1].first_step, 4);
	assert_int_equal(s->parts[1].last_step, 4);
	assert_int_equal(s->parts[0].leap, 0);
	assert_int_equal(s->parts[1].leap, 1);
	static const double L[3][4] = { { 1, 3, 0, 2 }, { 2, 6, 0, 3 }, { 0, 0, 1, 0 } };
	static const double LA[3][4] = { { 0, 1, 0, 2 }, { 1, 2, 0, 1 }, { 4, 6, 0, 5 } };
	static const double DU[3][4] = { { 1, 2, 0, 0 }, { 1, 4, 0, 2 }, { 2, 0, 7, 1 } };
	static const double DUA[3][4] = { { 0, 0, 0, 0 }, { 1, 0, 1, 0 }, { 2, 0, 0, 2 } };
	static const double D[3][4] = { { 1, 2, 0, 0 }, { 0, 4, 0, 2 }, { 0, 0, 1, 0 } };
	static const double DA[3][4] = { { 0, 1, 0, 2 }, { 0, 0, 0, 0 }, { 2, 0, 0, 2 } };
	for (uint32_t r = 0; r < 4; r++)
		for (uint32_t k = 0; k < 3; k++) {
			const struct tc_cev *e = &s->cevs[s->rank_first[r] + k];
			assert_int_equal(e->step, 2 * k);
			assert_int_equal(e->partition, k < 2 ? 0 : 1);
			assert_int_equal(e->flags, k == 0 ? TC_CEV_SEND : k == 1 ? TC_CEV_RECV : TC_CEV_COLL);
			assert_true(M(s, e, TC_M_LATENESS, false) == L[k][r]);
			assert_true(M(s, e, TC_M_LATENESS, true) == LA[k][r]);
			assert_true(M(s, e, TC_M_GLATENESS, false) == L[k][r]);     /* one partition per step */
			assert_true(M(s, e, TC_M_GLATENESS, true) == LA[k][r]);
			assert_true(M(s, e, TC_M_DURATION, false) == DU[k][r]);
			assert_true(M(s, e, TC_M_DURATION, true) == DUA[k][r]);
			assert_true(M(s, e, TC_M_DLATENESS, false) == D[k][r]);
			assert_true(e->dlateness_agg == DA[k][r]);
		}
	/* per-step sums: even steps the events, odd steps the aggregate blocks */
	assert_int_equal(s->steps[0].enter_min, 0);
	assert_int_equal(s->steps[0].leave_max, 4);
	assert_int_equal(s->steps[1].enter_min, 1);   /* receive blocks start at the sends' leaves 2,4,1,3 */
	assert_int_equal(s->steps[1].leave_max, 4);
	assert_int_equal(s->steps[3].enter_min, 3);
	assert_int_equal(s->steps[3].leave_max, 10);
	assert_int_equal(s->steps[4].enter_min, 4);
	assert_int_equal(s->steps[4].leave_max, 13);
	assert_int_equal(s->steps[2].ncevs, 4);
	assert_true(s->steps[2].lateness_max == 6);
	assert_true(s->steps[2].lateness_sum == 11);
	assert_true(s->steps[2].dlateness_max == 4);
	assert_true(s->steps[2].dlateness_sum == 6);
	assert_true(s->steps[3].lateness_sum == 15);  /* aggregate lateness of the barrier blocks */
	/* origins: rank 1's receive (4); then the blocks worth 2 in cev order: rank 0's
	 * barrier block (cev 2), rank 1's send (3), rank 3's send block (9), ... */
	struct tc_block top[5];
	assert_int_equal(tc_steps_top(s, TC_M_DLATENESS, true, 4, top), 4);
	assert_int_equal(top[0].cev, s->rank_first[1] + 1);
	assert_false(top[0].agg);
	assert_int_equal(top[1].cev, s->rank_first[0] + 2);
	assert_true(top[1].agg);
	assert_int_equal(top[2].cev, s->rank_first[1] + 0);  /* rank 1's send: D = 2 */
	assert_false(top[2].agg);
	/* hot spots, events only: rank 1's receive (6), then the 3s: rank 1's send (cev 3),
	 * rank 3's receive (cev 10), then rank 3's send (2, cev 9) tied with rank 0's receive (2, cev 1) */
	assert_int_equal(tc_steps_top(s, TC_M_LATENESS, false, 5, top), 5);
	static const uint32_t hot[5] = { 4, 3, 10, 1, 9 };
	for (int k = 0; k < 5; k++) {
		assert_int_equal(top[k].cev, hot[k]);
		assert_false(top[k].agg);
	}
	/* Lamport mode gives the same steps here */
	tc_steps_free(s);
	struct tc_steps_opts o = opts_with(false, true, false);
	s = tc_steps_compute(t, &o);
	check_invariants(s);
	for (uint32_t r = 0; r < 4; r++)
		for (uint32_t k = 0; k < 3; k++) assert_int_equal(s->cevs[s->rank_first[r] + k].step, 2 * k);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- strides and receive inflation (3 ranks) ------------------------------------------
 *   r0: Send(→1,t1) [0,1]; Send(→1,t2) [2,3]
 *   r1: Recv(←0,t1) [0,2]; Send(→2) [3,4]; Recv(←0,t2) [5,6]
 *   r2: Recv(←1) [1,5]
 * Default options: one partition per message, A = {S01,R1a}, C = {S1,R2},
 * B = {S02,R1b}, ordered A → C → B by the ranks: steps A 0,2; C 4,6; B 8,10.
 * With the caller merge (all in main) it is one partition.  Stride graph:
 * S01 → S02 (same rank), S01 → nxt(R1a) = S1; so strides S01 = 0, S02 = S1 = 1.  Inflation: k=0: S01 at 0.  k=1: the receive R1a
 * before S1 goes to 1 + max(−, S01=0) = 1; then S02 and S1 at 2.  Trailing:
 * R1b = 1 + max(S1=2, S02=2) = 3; R2 = 1 + S1 = 3.  Global = 2 × local.
 * Lateness: step 4 exits S02 3, S1 4 → 0, 1 (agg: enters 2, 3 → 0, 1);
 * step 6 exits R1b 6, R2 5 → 1, 0 (agg: enters 5, 1 → 4, 0).
 * Differential: S1: D_agg = 1 − L(R1a)=0 → 1, D = 1 − 1 = 0;
 * R1b: D_agg = 4 − L(S1)=1 → 3, D = max(0, 1 − max(4, L(S02)=0)) = 0. */
static void test_strides(void **st)
{
	(void)st;
	struct hand h = hand_new(3);
	h_send(&h, 0, 0, 1, 1, 1);
	h_send(&h, 0, 2, 3, 1, 2);
	h_recv(&h, 1, 0, 2, 0, 1);
	h_send(&h, 1, 3, 4, 2, 0);
	h_recv(&h, 1, 5, 6, 0, 2);
	h_recv(&h, 2, 1, 5, 1, 0);
	struct tc_trace *t = h_finish(&h);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	check_invariants(s);
	assert_int_equal(s->npartitions, 3);
	static const uint32_t dstep[6] = { 0, 8, 2, 4, 10, 6 };
	for (uint32_t i = 0; i < 6; i++) assert_int_equal(s->cevs[i].step, dstep[i]);
	tc_steps_free(s);
	struct tc_steps_opts o = opts_with(true, false, false);
	s = tc_steps_compute(t, &o);
	check_invariants(s);
	assert_int_equal(s->npartitions, 1);
	assert_int_equal(s->max_step, 6);
	static const uint32_t step[6] = { 0, 4, 2, 4, 6, 6 };
	static const double L[6] = { 0, 0, 0, 1, 1, 0 }, LA[6] = { 0, 0, 0, 1, 4, 0 };
	static const double D[6] = { 0, 0, 0, 0, 0, 0 }, DA[6] = { 0, 0, 0, 1, 3, 0 };
	for (uint32_t i = 0; i < 6; i++) {
		assert_int_equal(s->cevs[i].step, step[i]);
		assert_true(tc_cev_metric(s, i, TC_M_LATENESS, false) == L[i]);
		assert_true(tc_cev_metric(s, i, TC_M_LATENESS, true) == LA[i]);
		assert_true(tc_cev_metric(s, i, TC_M_DLATENESS, false) == D[i]);
		assert_true(s->cevs[i].dlateness_agg == DA[i]);
	}
	tc_steps_free(s);
	/* Lamport: S01 0, R1a 1, S1 2, S02 1, R1b max(S1+1, S02+1) = 3, R2 3 */
	o = opts_with(true, true, false);
	s = tc_steps_compute(t, &o);
	check_invariants(s);
	static const uint32_t lstep[6] = { 0, 2, 2, 4, 6, 6 };
	for (uint32_t i = 0; i < 6; i++) assert_int_equal(s->cevs[i].step, lstep[i]);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- lateness per partition vs global lateness (4 ranks, 2 rounds) ------------------
 * Two independent pairs: 0 → 1 then 1 → 0; 2 → 3 then 3 → 2.
 *   r0: S [0,1]   R [2,6]        r2: S [0,3]   R [4,9]
 *   r1: R [0,2]   S [3,4]        r3: R [1,5]   S [6,7]
 * Partitions A1 {r0 S, r1 R} → A2 {r1 S, r0 R}, B1 → B2 alike; both chains get
 * steps 0, 2 and 4, 6, so A and B share global steps.  Each (partition, step)
 * holds one event: lateness, differential lateness and duration are all 0.
 * Global lateness compares the pairs: step 0 exits 1, 3 → 0, 2 (enters 0, 0 →
 * 0, 0); step 2 exits 2, 5 → 0, 3 (enters 0, 1 → 0, 1); step 4 exits 4, 7 →
 * 0, 3 (enters 3, 6 → 0, 3); step 6 exits 6, 9 → 0, 3 (enters 2, 4 → 0, 2). */
/* The event's differential lateness is kept as ticks when tc_dur of them is
 * the value exactly, else in the wide array; either way it reads back bitwise. */
static void test_dlateness_codes(void **st)
{
	(void)st;
	struct tc_trace t = { .res = 1000000000 };
	struct tc_cev cevs[5] = { { 0 } };
	struct tc_steps s = { .t = &t, .ncevs = 5, .cevs = cevs };
	const double v[5] = { 0, 3e-9, 0.1 - 0.07, 5.0, 1.0 / 3 };   /* 5 s: 5e9 ticks, past 2^31 */
	for (uint32_t i = 0; i < 5; i++) {
		tc_cev_set_dlateness(&s, i, v[i]);
		double got = tc_cev_metric(&s, i, TC_M_DLATENESS, false);
		assert_memory_equal(&got, &v[i], sizeof got);
	}
	assert_int_equal(cevs[0].dlate, 0);
	assert_int_equal(cevs[1].dlate, 3);
	assert_true(cevs[3].dlate & TC_CEV_WIDE);
	assert_int_equal(s.nwide, (cevs[2].dlate & TC_CEV_WIDE ? 1 : 0) + 1 + (cevs[4].dlate & TC_CEV_WIDE ? 1 : 0));
	free(s.wide);
}

static void test_global_lateness(void **st)
{
	(void)st;
	struct hand h = hand_new(4);
	h_send(&h, 0, 0, 1, 1, 0);
	h_recv(&h, 1, 0, 2, 0, 0);
	h_send(&h, 2, 0, 3, 3, 0);
	h_recv(&h, 3, 1, 5, 2, 0);
	h_send(&h, 1, 3, 4, 0, 1);
	h_recv(&h, 0, 2, 6, 1, 1);
	h_send(&h, 3, 6, 7, 2, 1);
	h_recv(&h, 2, 4, 9, 3, 1);
	struct tc_trace *t = h_finish(&h);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	check_invariants(s);
	assert_int_equal(s->npartitions, 4);
	assert_int_equal(s->max_step, 6);
	/* per rank: (step, global lateness, its aggregate) of its two events */
	static const double G[4][2][3] = {
		{ { 0, 0, 0 }, { 6, 0, 0 } }, { { 2, 0, 0 }, { 4, 0, 0 } },
		{ { 0, 2, 0 }, { 6, 3, 2 } }, { { 2, 3, 1 }, { 4, 3, 3 } },
	};
	for (uint32_t r = 0; r < 4; r++)
		for (uint32_t k = 0; k < 2; k++) {
			const struct tc_cev *e = &s->cevs[s->rank_first[r] + k];
			assert_int_equal(e->step, (uint32_t)G[r][k][0]);
			assert_true(M(s, e, TC_M_GLATENESS, false) == G[r][k][1]);
			assert_true(M(s, e, TC_M_GLATENESS, true) == G[r][k][2]);
			assert_true(M(s, e, TC_M_LATENESS, false) == 0 && M(s, e, TC_M_LATENESS, true) == 0);
			assert_true(M(s, e, TC_M_DLATENESS, false) == 0 && e->dlateness_agg == 0);
			assert_true(M(s, e, TC_M_DURATION, false) == 0 && M(s, e, TC_M_DURATION, true) == 0);
		}
	static const double gmax[4] = { 2, 3, 3, 3 };
	for (uint32_t g = 0; g < 4; g++) {
		assert_true(s->steps[2 * g].glateness_max == gmax[g]);
		assert_true(s->steps[2 * g].lateness_max == 0);
		assert_int_equal(s->steps[2 * g].ncevs, 2);
	}
	/* the partitions A1, B1 (step 0), then A2, B2 (step 4), in order of their first event */
	assert_int_equal(s->cevs[s->rank_first[0]].partition, 0);
	assert_int_equal(s->cevs[s->rank_first[2]].partition, 1);
	assert_int_equal(s->cevs[s->rank_first[0] + 1].partition, 2);
	assert_int_equal(s->cevs[s->rank_first[2] + 1].partition, 3);
	static const uint32_t leaps[4] = { 0, 0, 1, 1 };
	for (uint32_t p = 0; p < 4; p++) assert_int_equal(s->parts[p].leap, leaps[p]);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- a collective is one step for all its parts (3 ranks, caller merge on) ----------
 *   r0: Send(→1) [0,1], Barrier [2,6]; r1: Recv(←0) [0,3], Barrier [4,6];
 *   r2: Barrier [1,7].
 * One partition.  Strides: the send 0; the barrier node 1 (after the send on
 * r0 and after the receive of r1).  Steps: send 0, receive 1, all barrier
 * parts 2 — also r2's, which has nothing before it (Ravel would leave it on
 * stride 0).  Global 0, 2, 4.  Barrier lateness: exits 6, 6, 7 → 0, 0, 1;
 * enters 2, 4, 1 → 1, 3, 0. */
static void test_collective_one_step(void **st)
{
	(void)st;
	struct hand h = hand_new(3);
	h_send(&h, 0, 0, 1, 1, 0);
	h_barrier(&h, 0, 2, 6);
	h_recv(&h, 1, 0, 3, 0, 0);
	h_barrier(&h, 1, 4, 6);
	h_barrier(&h, 2, 1, 7);
	struct tc_trace *t = h_finish(&h);
	struct tc_steps_opts o = opts_with(true, false, false);
	struct tc_steps *s = tc_steps_compute(t, &o);
	check_invariants(s);
	assert_int_equal(s->npartitions, 1);
	assert_int_equal(s->cevs[0].step, 0);
	assert_int_equal(s->cevs[2].step, 2);
	static const double L[3] = { 0, 0, 1 }, LA[3] = { 1, 3, 0 };
	for (uint32_t r = 0; r < 3; r++) {
		const struct tc_cev *b = &s->cevs[s->rank_first[r + 1] - 1];
		assert_int_equal(b->flags, TC_CEV_COLL);
		assert_int_equal(b->step, 4);
		assert_true(M(s, b, TC_M_LATENESS, false) == L[r]);
		assert_true(M(s, b, TC_M_LATENESS, true) == LA[r]);
	}
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- Isend coalescing, Waitall with several receives, message links -------------------
 *   r0: Isend(→1) [0,1], Isend(→2) [1,2] (adjacent: one event), Waitall [3,6]
 *       completing both sends; r1: Irecv [0,1], Waitall [2,5] receives from 0;
 *   r2: Recv(←0) [0,4].
 * Events: r0 one coalesced send (2 calls, [0,2]); the Waitall of r0 completes
 * no receive and is no event; r1 one receive; r2 one receive.  One partition:
 * the send at 0, both receives trailing at 2. */
static void test_coalescing(void **st)
{
	(void)st;
	struct hand h = hand_new(3);
	struct tc_trace *t = h.t;
	static const uint64_t reqs[2] = { 11, 12 };
	h_isend(&h, 0, 0, 1, 1, 3, 11);
	h_isend(&h, 0, 1, 2, 2, 3, 12);
	h_wait_sends(&h, 0, h.waitall, 3, 6, reqs, 2);
	tcb_enter(t, 1, 0, h.irecv);
	tcb_irecv_request(t, 1, 0, 7);
	tcb_leave(t, 1, 1, h.irecv);
	tcb_enter(t, 1, 2, h.waitall);
	tcb_irecv(t, 1, 5, 0, 0, 3, 8, 7);
	tcb_leave(t, 1, 5, h.waitall);
	h.last[1] = 5;
	h_recv(&h, 2, 0, 4, 0, 3);
	h_finish(&h);
	assert_int_equal(t->nmsgs, 2);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	check_invariants(s);
	assert_int_equal(s->ncevs, 3);
	const struct tc_cev *e = &s->cevs[0];
	assert_int_equal(e->nops, 2);
	assert_int_equal(e->flags, TC_CEV_SEND);
	assert_int_equal(tc_cev_enter(s, 0), 0);
	assert_int_equal(tc_cev_leave(s, 0), 2);
	assert_int_equal(s->msg_send_cev[0], 0);
	assert_int_equal(s->msg_send_cev[1], 0);
	assert_int_equal(s->cevs[1].flags, TC_CEV_RECV);
	assert_int_equal(tc_cev_agg_start(s, 1), tc_cev_enter(s, 1));  /* first event of rank 1 */
	assert_int_equal(s->npartitions, 1);
	assert_int_equal(s->cevs[0].step, 0);
	assert_int_equal(s->cevs[1].step, 2);
	assert_int_equal(s->cevs[2].step, 2);
	/* both Isend calls map to the coalesced event; the Irecv call to none */
	assert_int_equal(tc_steps_cev_of_call(s, 0, 1), 0);
	assert_int_equal(tc_steps_cev_of_call(s, 0, 2), 0);
	assert_int_equal(tc_steps_cev_of_call(s, 1, 1), TC_NONE);
	assert_int_equal(tc_steps_find(s, 1, 1), 1);   /* aggregate block of rank 1's receive */
	assert_int_equal(tc_steps_find(s, 1, 0), TC_NONE);
	assert_int_equal(tc_steps_find(s, 0, 2), TC_NONE);
	tc_steps_free(s);
	struct tc_steps_opts o;
	tc_steps_default_opts(&o);
	o.coalesce_isends = false;
	s = tc_steps_compute(t, &o);
	check_invariants(s);
	assert_int_equal(s->ncevs, 4);
	assert_int_equal(s->cevs[0].nops, 1);
	assert_int_equal(tc_cev_agg_start(s, 1), 1);
	/* without coalescing the two sends are strides 0 and 1 of one partition
	 * (joined by the Waitall merge: the first is pending over the second):
	 * Isend 0, Isend 1 (no receive before it on rank 0); trailing receives:
	 * r1 1 + first send 0 = 1, r2 1 + second send 1 = 2 → global 0, 2, 2, 4 */
	assert_int_equal(s->cevs[1].step, 2);
	assert_int_equal(s->cevs[2].step, 2);
	assert_int_equal(s->cevs[3].step, 4);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- "true Waitall" merge ------------------------------------------------------------
 *   r0: Isend(→1) [0,1] completes at 6 in MPI_Wait [5,6]; Send(→2) [2,3] in between.
 *   r1: Recv(←0) [0,4]; r2: Recv(←0) [0,4].
 * The Isend is pending over the Send, so both go into one partition with the
 * merge on; with it off each message is its own partition. */
static void test_waitall_merge(void **st)
{
	(void)st;
	struct hand h = hand_new(3);
	struct tc_trace *t = h.t;
	static const uint64_t req = 9;
	h_isend(&h, 0, 0, 1, 1, 1, req);
	h_send(&h, 0, 2, 3, 2, 1);
	h_wait_sends(&h, 0, h.wait, 5, 6, &req, 1);
	h_recv(&h, 1, 0, 4, 0, 1);
	h_recv(&h, 2, 0, 4, 0, 1);
	h_finish(&h);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	check_invariants(s);
	assert_int_equal(s->ncevs, 4);
	assert_int_equal(s->npartitions, 1);
	/* strides: Isend 0, Send 1; r1's receive trails the Isend (2), r2's the Send (4) */
	assert_int_equal(s->cevs[0].step, 0);
	assert_int_equal(s->cevs[1].step, 2);
	assert_int_equal(s->cevs[2].step, 2);
	assert_int_equal(s->cevs[3].step, 4);
	tc_steps_free(s);
	struct tc_steps_opts o;
	tc_steps_default_opts(&o);
	o.waitall_merge = false;
	s = tc_steps_compute(t, &o);
	check_invariants(s);
	assert_int_equal(s->npartitions, 2);
	assert_int_equal(s->cevs[1].step, 4);  /* second partition follows the first on rank 0 */
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- caller merge ---------------------------------------------------------------------
 * Two calls of exchange() per rank; in each, r0 sends twice to r1, which
 * receives twice.  Off: 4 partitions (one per message).  On: exchange wraps 2
 * comm events, so each exchange call is one partition: 2.  Without exchange()
 * (all in main) the caller merge makes a single partition. */
static struct tc_trace *exchange_trace(bool wrap)
{
	struct hand h = hand_new(2);
	uint64_t tm = 0;
	for (int it = 0; it < 2; it++) {
		if (wrap) { tcb_enter(h.t, 0, tm, h.exch); tcb_enter(h.t, 1, tm, h.exch); }
		for (uint32_t k = 0; k < 2; k++) {
			h_send(&h, 0, tm + 1, tm + 2, 1, k);
			h_recv(&h, 1, tm + 1, tm + 3, 0, k);
			tm += 4;
		}
		if (wrap) { tcb_leave(h.t, 0, tm, h.exch); tcb_leave(h.t, 1, tm, h.exch); }
		tm += 1;
	}
	return h_finish(&h);
}

static void test_caller_merge(void **st)
{
	(void)st;
	struct tc_trace *t = exchange_trace(true);
	struct tc_steps_opts off = opts_with(false, false, false), on = opts_with(true, false, false);
	struct tc_steps *s = tc_steps_compute(t, &off);
	check_invariants(s);
	assert_int_equal(s->npartitions, 4);
	assert_int_equal(s->max_step, 14);
	tc_steps_free(s);
	s = tc_steps_compute(t, &on);
	check_invariants(s);
	assert_int_equal(s->npartitions, 2);
	/* in one exchange: sends are strides 0 and 1 (rank chain); the receives
	 * trail: R1 = 1 + S1 0 = 1, R2 = 1 + max(R1 1, S2 1) = 2.  Local S 0, 1 and
	 * R 1, 2 → global 0, 2 / 2, 4; the second call starts at 4 + 2 = 6. */
	static const uint32_t s0[4] = { 0, 2, 6, 8 }, s1[4] = { 2, 4, 8, 10 };
	for (uint32_t k = 0; k < 4; k++) {
		assert_int_equal(s->cevs[s->rank_first[0] + k].step, s0[k]);
		assert_int_equal(s->cevs[s->rank_first[1] + k].step, s1[k]);
		assert_int_equal(s->cevs[s->rank_first[0] + k].partition, k / 2);
	}
	tc_steps_free(s);
	tc_trace_free(t);
	t = exchange_trace(false);
	s = tc_steps_compute(t, &on);
	check_invariants(s);
	assert_int_equal(s->npartitions, 1);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- complete-leaps merge ----------------------------------------------------------------
 * A chain 0→1, 1→2, 2→3 (blocking, 10 ticks apart): three partitions on leaps
 * 0, 1, 2, none covering all 4 ranks.  The leap merge pulls in the children
 * that add ranks until leap 0 holds everyone: one partition. */
static void test_leap_merge(void **st)
{
	(void)st;
	struct hand h = hand_new(4);
	for (uint32_t r = 0; r < 3; r++) {
		h_send(&h, r, 10 * r + 10, 10 * r + 11, r + 1, 0);
		h_recv(&h, r + 1, 10 * r + 5, 10 * r + 12, r, 0);
	}
	struct tc_trace *t = h_finish(&h);
	struct tc_steps_opts o = opts_with(false, false, false);
	struct tc_steps *s = tc_steps_compute(t, &o);
	check_invariants(s);
	assert_int_equal(s->npartitions, 3);
	assert_int_equal(s->max_step, 10);
	tc_steps_free(s);
	o.leap_merge = true;
	s = tc_steps_compute(t, &o);
	check_invariants(s);
	assert_int_equal(s->npartitions, 1);
	assert_int_equal(s->parts[0].nranks, 4);
	/* one partition: sends strides 0,1,2 with receives inflated between: 0..5 local */
	assert_int_equal(s->max_step, 10);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- odd input: Sendrecv exchanges (cycles for Lamport), unmatched messages, a
 * collective with one rank missing, nesting of MPI calls, 1 rank, no events --- */
static void test_robust(void **st)
{
	(void)st;
	struct hand h = hand_new(2);
	h_sendrecv(&h, 0, 0, 3, 1);
	h_sendrecv(&h, 1, 1, 4, 0);
	h_sendrecv(&h, 0, 5, 8, 1);
	h_sendrecv(&h, 1, 5, 7, 0);
	h_send(&h, 0, 9, 10, 1, 77);      /* never received */
	h_recv(&h, 1, 9, 12, 0, 78);      /* never sent */
	h_barrier(&h, 0, 13, 14);         /* rank 1 never joins */
	/* an MPI_Send nested in an MPI_Recv on rank 1 */
	tcb_enter(h.t, 1, 15, h.recv);
	tcb_enter(h.t, 1, 16, h.send);
	tcb_send(h.t, 1, 16, 0, 0, 9, 8);
	tcb_leave(h.t, 1, 17, h.send);
	tcb_leave(h.t, 1, 18, h.recv);
	h_recv(&h, 0, 15, 19, 1, 9);
	h.last[1] = 18;
	struct tc_trace *t = h_finish(&h);
	for (int lam = 0; lam < 2; lam++)
		for (int caller = 0; caller < 2; caller++)
			for (int leap = 0; leap < 2; leap++) {
				struct tc_steps_opts o = opts_with(caller, lam, leap);
				struct tc_steps *s = tc_steps_compute(t, &o);
				check_invariants(s);
				assert_int_equal(s->cevs[0].flags, TC_CEV_SEND | TC_CEV_RECV);
				if (!lam && !caller && !leap) {
					/* both Sendrecvs of an exchange are stride 0 of their partition */
					assert_int_equal(s->cevs[0].step, 0);
					assert_int_equal(s->cevs[s->rank_first[1]].step, 0);
					assert_int_equal(s->cevs[1].step, 2);
				}
				tc_steps_free(s);
			}
	tc_trace_free(t);

	/* one rank, no messages: only the collective parts are events */
	h = hand_new(1);
	h_barrier(&h, 0, 1, 2);
	h_barrier(&h, 0, 3, 4);
	t = h_finish(&h);
	struct tc_steps *s = tc_steps_compute(t, NULL);
	check_invariants(s);
	assert_int_equal(s->ncevs, 2);
	assert_int_equal(s->npartitions, 2);
	assert_int_equal(s->cevs[1].step, 2);
	assert_true(M(s, &s->cevs[1], TC_M_LATENESS, false) == 0);
	tc_steps_free(s);
	tc_trace_free(t);

	/* nothing at all */
	t = tc_trace_new(1, 0, 0);
	tc_def_simple(t, 3, NULL, 1);
	tc_trace_finish(t);
	s = tc_steps_compute(t, NULL);
	check_invariants(s);
	assert_int_equal(s->ncevs, 0);
	assert_int_equal(s->npartitions, 0);
	assert_int_equal(s->max_step, 0);
	assert_int_equal(tc_steps_find(s, 0, 0), TC_NONE);
	struct tc_block top[2];
	assert_int_equal(tc_steps_top(s, TC_M_LATENESS, true, 2, top), 0);
	tc_steps_free(s);
	tc_trace_free(t);

	/* no ranks at all */
	t = tc_trace_new(1, 0, 0);
	tc_trace_finish(t);
	s = tc_steps_compute(t, NULL);
	assert_int_equal(s->ncevs, 0);
	assert_int_equal(s->npartitions, 0);
	assert_int_equal(tc_steps_find(s, 0, 0), TC_NONE);
	assert_int_equal(tc_steps_cev_of_call(s, 0, 0), TC_NONE);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* --- random traces: crossing messages, receives before their sends, collectives
 * matched out of order, nesting; every option combination must terminate with
 * the invariants intact (fixed seed, 300 traces) --- */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* --- the partitions over parts (analysis_steps_dist.h) -------------------------------- */
struct pd_run {
	struct tc_trace *t;
	const struct tc_steps_opts *o;
	const uint64_t *weight;
	uint32_t *pid;
	size_t n;
	uint32_t np;
	struct tc_steps *steps;   /* tc_steps_parts (process 0) */
	struct lsum_parts lsum;   /* the lateness summary made over the slices */
};

static void pd_proc(struct dk_proc *x)
{
	struct pd_run *a = x->arg;
	uint32_t lo, hi;
	tc_share_ranks(a->weight, a->t->nranks, x->p, x->P, &lo, &hi);
	struct tc_part part;
	tc_part_of_serial(a->t, lo, hi, x->p, &part);
	struct tc_pcevs c;
	tc_pcevs_make(&part, &x->d, a->o->coalesce_isends, &c);
	a->pid = tc_partition_dist(&part, &x->d, a->o, &c, &a->np, NULL, NULL);
	a->n = c.n;
	tc_pcevs_free(&c);
	struct tc_steps_slice sl;
	uint64_t need;
	struct tc_sparts *k = tc_steps_parts_pack(&part, &x->d, a->o, UINT64_MAX, &need);
	assert_true(need >= (uint64_t)TC_PARTS_PART_BYTES * a->np);
	assert_true(tc_steps_parts_finish(k, &x->d, a->o, &sl));
	assert_false(sl.whole);
	lsum_pack_parts(&sl, &x->d, a->t->nranks, true, &a->lsum);
	a->steps = tc_steps_slice_whole(&sl, &x->d);
	tc_part_release(&part);
}

/* The lateness summary's blob made over the slices (process 0's bytes,
 * every process's pieces in the holes) equals lsum_pack's of the serial
 * steps. */
static void same_lsum(const struct tc_steps *s, struct lsum_parts *const *a, int P)
{
	struct tc_lsum *sum = lsum_build(s, TC_M_LATENESS, true);
	struct strbuf want = { 0 };
	lsum_pack(sum, &want);
	lsum_free(sum);
	const struct lsum_parts *z = a[0];
	assert_int_equal(z->size, want.len);
	char *got = xcalloc(z->size + 1, 1);
	uint64_t at = 0, from = 0;
	for (int k = 0; k < 3; k++) {   /* process 0's bytes around the holes */
		memcpy(got + at, z->blob.s + from, z->holes[k].at - at);
		from += z->holes[k].at - at;
		at = z->holes[k].at + z->holes[k].size;
	}
	memcpy(got + at, z->blob.s + from, z->size - at);
	for (int p = 0; p < P; p++)
		for (int k = 0; k < 3; k++) {
			const struct tc_cache_piece *x = &a[p]->pieces[k];
			const struct tc_cache_hole *h = &z->holes[x->anchor - TC_ANCHOR_BLOB0];
			assert_true(x->off + x->size <= h->size);
			memcpy(got + h->at + x->off, x->p, x->size);
		}
	assert_memory_equal(got, want.s, want.len);
	free(got);
	sb_free(&want);
}

/* The steps over parts equal the serial ones: every array, doubles as bits. */
static void same_as_serial(const struct tc_steps *a, const struct tc_steps *b, uint32_t nranks, size_t nmsgs)
{
	assert_non_null(b);
	assert_int_equal(a->ncevs, b->ncevs);
	assert_memory_equal(a->cevs, b->cevs, a->ncevs * sizeof *a->cevs);
	assert_memory_equal(a->rank_first, b->rank_first, ((size_t)nranks + 1) * sizeof *a->rank_first);
	assert_int_equal(a->npartitions, b->npartitions);
	assert_memory_equal(a->parts, b->parts, a->npartitions * sizeof *a->parts);
	assert_int_equal(a->max_step, b->max_step);
	assert_memory_equal(a->steps, b->steps, ((size_t)a->max_step + 1) * sizeof *a->steps);
	assert_int_equal(a->nslots, b->nslots);
	assert_memory_equal(a->slots, b->slots, a->nslots * sizeof *a->slots);
	assert_int_equal(a->nwide, b->nwide);
	if (a->nwide) assert_memory_equal(a->wide, b->wide, a->nwide * sizeof *a->wide);
	if (nmsgs) {
		assert_memory_equal(a->msg_send_cev, b->msg_send_cev, nmsgs * sizeof *a->msg_send_cev);
		assert_memory_equal(a->msg_recv_cev, b->msg_recv_cev, nmsgs * sizeof *a->msg_recv_cev);
	}
	for (uint32_t i = 0; i < a->ncevs; i++)   /* and the metrics read through the times process 0 was given */
		for (int m = 0; m < TC_M_COUNT; m++)
			for (int agg = 0; agg < 2; agg++) {
				double x = tc_cev_metric(a, i, (enum tc_metric)m, agg), y = tc_cev_metric(b, i, (enum tc_metric)m, agg);
				assert_memory_equal(&x, &y, sizeof x);
			}
}

/* tc_partition_dist over P = 2..4 processes (shares by ops): one number per
 * cev, the processes' cevs in order being the serial ones, the numbers
 * appearing in order (0, 1, ...: the order of first cevs), and each number
 * one serial partition, a different one for each; tc_steps_parts: the
 * serial steps. */
static void check_dist_partitions(struct tc_trace *t, const struct tc_steps_opts *o, const struct tc_steps *s)
{
	uint64_t *w = xcalloc((size_t)t->nranks + 1, sizeof *w);
	for (uint32_t r = 0; r < t->nranks; r++) w[r] = t->ranks[r].nops + 1;
	uint32_t *to_serial = xmalloc(((size_t)s->npartitions + 1) * sizeof *to_serial);
	for (int P = 2; P <= DK_MAXP; P++) {
		struct pd_run a[DK_MAXP];
		void *arg[DK_MAXP];
		for (int p = 0; p < P; p++) {
			a[p] = (struct pd_run){ .t = t, .o = o, .weight = w };
			arg[p] = &a[p];
		}
		tc_steps_route_bytes = P == 3 ? 200 : (size_t)32 << 20;   /* at P = 3 many rounds of routing */
		dk_run(P, pd_proc, arg);
		same_as_serial(s, a[0].steps, t->nranks, t->nmsgs);
		struct lsum_parts *lp[DK_MAXP];
		for (int p = 0; p < P; p++) lp[p] = &a[p].lsum;
		same_lsum(s, lp, P);
		for (int p = 0; p < P; p++) {
			if (p) assert_null(a[p].steps);
			tc_steps_free(a[p].steps);
			lsum_parts_free(&a[p].lsum);
		}
		uint32_t i = 0, next = 0;
		for (int p = 0; p < P; p++) {
			assert_int_equal(a[p].np, s->npartitions);
			for (size_t k = 0; k < a[p].n; k++, i++) {
				uint32_t d = a[p].pid[k];
				assert_true(i < s->ncevs && d <= next && d < s->npartitions);
				if (d == next) to_serial[next++] = s->cevs[i].partition;
				assert_int_equal(to_serial[d], s->cevs[i].partition);
			}
			free(a[p].pid);
		}
		assert_int_equal(i, s->ncevs);
		assert_int_equal(next, s->npartitions);
	}
	free(to_serial);
	free(w);
}

/* The lateness summary over slices where a level-0 tile holds many leaves
 * of ranks on different processes (2,100 ranks × 1,000 columns: two ranks
 * per tile row), values tied and not, leaves without flags, columns
 * skipped: hand-made steps with given metrics, each process given a slice
 * of them. */
struct wide_run { const struct tc_steps *s; struct lsum_parts lsum; };

static void wide_proc(struct dk_proc *x)
{
	struct wide_run *a = x->arg;
	const struct tc_steps *s = a->s;
	uint32_t nr = s->t->nranks, lo = (uint32_t)((uint64_t)nr * x->p / x->P), hi = (uint32_t)((uint64_t)nr * (x->p + 1) / x->P);
	struct tc_steps_slice sl = { .lo = lo, .hi = hi, .first = s->rank_first[lo] };
	sl.ncevs = s->rank_first[hi] - s->rank_first[lo];
	sl.cevs = s->cevs + sl.first;
	sl.rfirst = xmalloc(((size_t)hi - lo + 1) * sizeof *sl.rfirst);
	for (uint32_t r = lo; r <= hi; r++) sl.rfirst[r - lo] = s->rank_first[r] - s->rank_first[lo];
	sl.late = xmalloc((2 * (size_t)sl.ncevs + 1) * sizeof *sl.late);
	for (uint32_t i = 0; i < sl.ncevs; i++)
		sl.late[2 * i] = s->given[sl.first + i].lateness, sl.late[2 * i + 1] = s->given[sl.first + i].lateness_agg;
	struct tc_steps s0 = { .t = s->t, .ncevs = s->ncevs, .rank_first = s->rank_first, .max_step = s->max_step };
	if (x->p == 0) sl.s0 = &s0;
	lsum_pack_parts(&sl, &x->d, nr, true, &a->lsum);
	free(sl.rfirst), free(sl.late);
}

/* lsum_unpack of lsum_pack's bytes answers every query as the summary
 * built: from 8-aligned bytes it reads them in place (borrowed), from
 * misaligned ones it copies them; cut bytes give NULL either way. */
static void same_unpacked(const struct tc_steps *s)
{
	struct tc_lsum *sum = lsum_build(s, TC_M_LATENESS, true);
	struct strbuf b = { 0 };
	lsum_pack(sum, &b);
	char *odd = xmalloc(b.len + 1);
	memcpy(odd + 1, b.s, b.len);
	struct tc_lsum *in = lsum_unpack(b.s, b.len, s), *cp = lsum_unpack(odd + 1, b.len, s);
	assert_non_null(in);
	assert_non_null(cp);
	assert_true(in->borrowed);
	assert_false(cp->borrowed);
	uint64_t seed = 11;
	for (int q = 0; q < 200; q++) {
		uint32_t r0 = (uint32_t)(rnd(&seed) % s->t->nranks), r1 = r0 + 1 + (uint32_t)(rnd(&seed) % 300);
		uint32_t x0 = (uint32_t)(rnd(&seed) % sum->nx), x1 = x0 + 1 + (uint32_t)(rnd(&seed) % 400);
		r1 = TC_MIN(r1, s->t->nranks), x1 = TC_MIN(x1, sum->nx);
		struct tc_cellsum w = lsum_query(sum, r0, r1, x0, x1);
		for (int k = 0; k < 2; k++) {
			struct tc_cellsum g = lsum_query(k ? cp : in, r0, r1, x0, x1);
			assert_true(g.v == w.v && g.f == w.f);
			assert_true(lsum_xsum(k ? cp : in, x0, x1) == lsum_xsum(sum, x0, x1));
		}
	}
	assert_null(lsum_unpack(b.s, b.len - 8, s));
	assert_null(lsum_unpack(odd + 1, b.len - 8, s));
	lsum_free(in), lsum_free(cp), lsum_free(sum);
	free(odd);
	sb_free(&b);
}

static void test_lsum_wide(void **st)
{
	(void)st;
	struct tc_trace t = { .nranks = 2100 };
	struct tc_steps s = { .t = &t, .max_step = 998 };
	uint64_t seed = 7;
	s.rank_first = xcalloc((size_t)t.nranks + 1, sizeof *s.rank_first);
	s.cevs = xcalloc((size_t)t.nranks * 500 + 1, sizeof *s.cevs);
	s.given = xcalloc((size_t)t.nranks * 500 + 1, sizeof *s.given);
	for (uint32_t r = 0; r < t.nranks; r++) {
		uint32_t n = 0;
		for (uint32_t k = 0; k <= 998; k += 2)
			if (rnd(&seed) % 4) {   /* some steps skipped */
				struct tc_cev *e = &s.cevs[s.ncevs + n];
				struct tc_cev_given *g = &s.given[s.ncevs + n++];
				e->rank = r, e->step = k;
				e->flags = (uint32_t)(rnd(&seed) % 8) & (TC_CEV_SEND | TC_CEV_RECV | TC_CEV_COLL);
				g->lateness = (double)(rnd(&seed) % 50) / 8;   /* ties */
				g->lateness_agg = (double)(rnd(&seed) % 1000) * 1e-7;
			}
		s.ncevs += n;
		s.rank_first[r + 1] = (uint32_t)s.ncevs;
	}
	for (int P = 1; P <= DK_MAXP; P++) {
		struct wide_run a[DK_MAXP];
		void *arg[DK_MAXP];
		struct lsum_parts *lp[DK_MAXP];
		for (int p = 0; p < P; p++) a[p] = (struct wide_run){ .s = &s }, arg[p] = &a[p], lp[p] = &a[p].lsum;
		dk_run(P, wide_proc, arg);
		same_lsum(&s, lp, P);
		for (int p = 0; p < P; p++) lsum_parts_free(&a[p].lsum);
	}
	same_unpacked(&s);
	free(s.rank_first), free(s.cevs), free(s.given);
}

static void test_random(void **st)
{
	(void)st;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	for (int it = 0; it < 300; it++) {
		uint32_t n = 1 + (uint32_t)(rnd(&seed) % 6);
		struct hand h = hand_new(n);
		for (uint32_t r = 0; r < n; r++) {
			uint64_t tm = 1 + rnd(&seed) % 5;
			uint32_t nops = (uint32_t)(rnd(&seed) % 12);
			uint64_t req = 1;
			for (uint32_t k = 0; k < nops; k++) {
				uint32_t peer = (uint32_t)(rnd(&seed) % n), tag = (uint32_t)(rnd(&seed) % 2);
				uint64_t d = 1 + rnd(&seed) % 4;
				switch (rnd(&seed) % 6) {
				case 0: h_send(&h, r, tm, tm + d, peer, tag); break;
				case 1: h_recv(&h, r, tm, tm + d, peer, tag); break;
				case 2: h_sendrecv(&h, r, tm, tm + d, peer); break;
				case 3: h_barrier(&h, r, tm, tm + d); break;
				case 4:
					h_isend(&h, r, tm, tm + 1, peer, tag, req);
					h_isend(&h, r, tm + 1, tm + 2, (peer + 1) % n, tag, req + 1);
					h_wait_sends(&h, r, h.waitall, tm + 2 + d, tm + 3 + d, (uint64_t[]){ req, req + 1 }, 2);
					req += 2;
					tm += 3;
					break;
				default:
					tcb_enter(h.t, r, tm, h.irecv);
					tcb_irecv_request(h.t, r, tm, req);
					tcb_leave(h.t, r, tm + 1, h.irecv);
					tcb_enter(h.t, r, tm + 1 + d, h.waitall);
					tcb_irecv(h.t, r, tm + 1 + d, peer, 0, tag, 8, req);
					tcb_leave(h.t, r, tm + 2 + d, h.waitall);
					h_at(&h, r, tm + 2 + d);
					req++;
					tm += 2;
					break;
				}
				tm += d + rnd(&seed) % 3;
			}
		}
		struct tc_trace *t = h_finish(&h);
		for (int v = 0; v < 16; v++) {
			struct tc_steps_opts o = opts_with(v & 1, v & 2, v & 4);
			o.coalesce_isends = !(v & 8);
			struct tc_steps *s = tc_steps_compute(t, &o);
			check_invariants(s);
			if (!o.caller_merge && !o.leap_merge) check_dist_partitions(t, &o, s);
			tc_steps_free(s);
		}
		tc_trace_free(t);
	}
}

/* --- real traces --------------------------------------------------------------------- */
static struct tc_trace *load(const char *name)
{
	struct tc_trace *t = tk_load(name, 0);
	if (!t) fail_msg("%s: cannot load", name);
	return t;
}

/* §2.9: with the caller merge, one partition; S0_i = 8i−8, R1_i = 8i−6,
 * S1_i = 8i−4, R0_i = 8i−2; max 62; every metric 0.  Without it: 16 two-event
 * partitions in a chain with the same steps. */
static void test_pingpong(void **st)
{
	(void)st;
	struct tc_trace *t = load("pipit-ping-pong-2p");
	for (int caller = 1; caller >= 0; caller--) {
		struct tc_steps_opts o = opts_with(caller, false, false);
		struct tc_steps *s = tc_steps_compute(t, &o);
		check_invariants(s);
		assert_int_equal(s->ncevs, 32);
		assert_int_equal(s->npartitions, caller ? 1 : 16);
		assert_int_equal(s->max_step, 62);
		for (uint32_t i = 1; i <= 8; i++) {
			const struct tc_cev *s0 = &s->cevs[s->rank_first[0] + 2 * (i - 1)];
			const struct tc_cev *r0 = &s->cevs[s->rank_first[0] + 2 * (i - 1) + 1];
			const struct tc_cev *r1 = &s->cevs[s->rank_first[1] + 2 * (i - 1)];
			const struct tc_cev *s1 = &s->cevs[s->rank_first[1] + 2 * (i - 1) + 1];
			assert_int_equal(s0->flags, TC_CEV_SEND);
			assert_int_equal(r0->flags, TC_CEV_RECV);
			assert_int_equal(s0->step, 8 * i - 8);
			assert_int_equal(r1->step, 8 * i - 6);
			assert_int_equal(s1->step, 8 * i - 4);
			assert_int_equal(r0->step, 8 * i - 2);
			if (!caller) {
				assert_int_equal(s0->partition, 2 * (i - 1));
				assert_int_equal(r0->partition, 2 * (i - 1) + 1);
			}
		}
		for (size_t i = 0; i < s->ncevs; i++)
			for (int m = 0; m < TC_M_COUNT; m++) {
				assert_true(tc_cev_metric(s, (uint32_t)i, (enum tc_metric)m, false) == 0);
				assert_true(tc_cev_metric(s, (uint32_t)i, (enum tc_metric)m, true) == 0);
			}
		if (!caller)
			for (uint32_t p = 0; p < 16; p++) {
				assert_int_equal(s->parts[p].first_step, 4 * p);
				assert_int_equal(s->parts[p].last_step, 4 * p + 2);
				assert_int_equal(s->parts[p].ncevs, 2);
				assert_int_equal(s->parts[p].nranks, 2);
			}
		for (uint32_t g = 0; g <= 62; g += 2) assert_int_equal(s->steps[g].ncevs, 1);
		tc_steps_free(s);
	}
	tc_trace_free(t);
}

/* TraceR stencil4d: per iteration 8 Irecv, 8 Send, Waitall (8 receives),
 * Barrier; recording covers 2 full iterations and a last Barrier.  Phases:
 * exchange (8 sends on strides 0..7, the Waitall after the last: local steps
 * 0..8 → 9 events per rank), barrier, exchange, barrier, barrier. */
static void test_stencil(void **st)
{
	(void)st;
	const char *names[2] = { "tracer-stencil4d-32p", "tracer-stencil4d-64p" };
	for (int k = 0; k < 2; k++) {
		struct tc_trace *t = load(names[k]);
		struct tc_steps *s = tc_steps_compute(t, NULL);
		check_invariants(s);
		uint32_t n = t->nranks;
		assert_int_equal(n, k ? 64 : 32);
		assert_int_equal(s->npartitions, 5);
		static const uint32_t first[5] = { 0, 18, 20, 38, 40 }, last[5] = { 16, 18, 36, 38, 40 };
		for (uint32_t p = 0; p < 5; p++) {
			assert_int_equal(s->parts[p].first_step, first[p]);
			assert_int_equal(s->parts[p].last_step, last[p]);
			assert_int_equal(s->parts[p].nranks, n);
			assert_int_equal(s->parts[p].ncevs, (p == 0 || p == 2) ? 9 * n : n);
		}
		/* the same shape on every rank */
		for (uint32_t r = 0; r < n; r++) {
			assert_int_equal(s->rank_first[r + 1] - s->rank_first[r], 21);
			for (uint32_t j = 0; j < 21; j++) {
				const struct tc_cev *e = &s->cevs[s->rank_first[r] + j];
				uint32_t it = j < 10 ? 0 : j < 20 ? 1 : 2, in = j - 10 * it;
				assert_int_equal(e->step, 20 * it + 2 * in);
				assert_int_equal(e->flags, it == 2 || in == 9 ? TC_CEV_COLL : in == 8 ? TC_CEV_RECV : TC_CEV_SEND);
			}
		}
		tc_steps_free(s);
		tc_trace_free(t);
	}
}

static void test_all_traces(void **st)
{
	(void)st;
	static const char *names[] = {
		"casita-cloverleaf-openacc-cuda-2p", "casita-jacobi-mpi-omp-cuda-cpu015-2p",
		"casita-jacobi-mpi-omp-cuda-cpu050-2p", "casita-jacobi-mpi-omp-cuda-gpu005-2p",
		"casita-jacobi-mpi-omp-cuda-simple-2p", "casita-jacobi-mpi-omp-xeonphi-01-1p",
		"casita-jacobi-mpi-omp-xeonphi-09-1p", "casita-late-sender-barrier-4p", "casita-mpi-tags-10p",
		"pipit-ping-pong-2p", "pipit-ping-pong-papi-2p", "sstelements-ember-bcast-4p",
		"sstmacro-mpi-coverage-10p", "tracer-stencil4d-32p", "tracer-stencil4d-64p",
	};
	for (size_t k = 0; k < TC_NELEM(names); k++) {
		struct tc_trace *t = load(names[k]);
		for (int v = 0; v < 4; v++) {
			struct tc_steps_opts o = opts_with(v == 1, v == 2, v == 3);
			struct tc_steps *s = tc_steps_compute(t, &o);
			check_invariants(s);
			assert_true(s->ncevs > 0);
			if (!o.caller_merge && !o.leap_merge) check_dist_partitions(t, &o, s);
			tc_steps_free(s);
		}
		tc_trace_free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_exchange_barrier),
		cmocka_unit_test(test_receiver_edge),
		cmocka_unit_test(test_strides),
		cmocka_unit_test(test_global_lateness),
		cmocka_unit_test(test_dlateness_codes),
		cmocka_unit_test(test_collective_one_step),
		cmocka_unit_test(test_coalescing),
		cmocka_unit_test(test_waitall_merge),
		cmocka_unit_test(test_caller_merge),
		cmocka_unit_test(test_leap_merge),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_lsum_wide),
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_stencil),
		cmocka_unit_test(test_all_traces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
