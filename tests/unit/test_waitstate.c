/* test_waitstate.c — Scalasca wait-state patterns on hand-made traces. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis_waitstate.h"

/* res = 1000 ticks/s: 1 tick = 1 ms */
#define MS(x) ((double)(x) / 1000.0)

static struct tc_trace *base(uint32_t n, uint32_t *rg)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, n, NULL, 1);
	rg[0] = tc_def_region(t, "MPI_Send", 0, 0, true);
	rg[1] = tc_def_region(t, "MPI_Recv", 0, 0, true);
	rg[2] = tc_def_region(t, "MPI_Barrier", 0, 0, true);
	rg[3] = tc_def_region(t, "MPI_Bcast", 0, 0, true);
	rg[4] = tc_def_region(t, "MPI_Reduce", 0, 0, true);
	rg[5] = tc_def_region(t, "MPI_Irecv", 0, 0, true);
	rg[6] = tc_def_region(t, "MPI_Waitall", 0, 0, true);
	return t;
}

/* Late sender: rank 1 enters MPI_Recv at 10, rank 0 enters MPI_Send at 40:
 * wait = min(40, leave 50) − 10 = 30 ms, caused by rank 0.
 * Late receiver: rank 0's MPI_Send [100,160] ends after rank 1 posts its
 * MPI_Recv at 150: wait = 150 − 100 = 50 ms, caused by rank 1. */
static void test_p2p(void **st)
{
	(void)st;
	uint32_t rg[7];
	struct tc_trace *t = base(2, rg);
	tcb_enter(t, 0, 40, rg[0]); tcb_send(t, 0, 41, 1, 0, 0, 8); tcb_leave(t, 0, 42, rg[0]);
	tcb_enter(t, 1, 10, rg[1]); tcb_recv(t, 1, 49, 0, 0, 0, 8); tcb_leave(t, 1, 50, rg[1]);
	tcb_enter(t, 0, 100, rg[0]); tcb_send(t, 0, 101, 1, 0, 1, 8); tcb_leave(t, 0, 160, rg[0]);
	tcb_enter(t, 1, 150, rg[1]); tcb_recv(t, 1, 159, 0, 0, 1, 8); tcb_leave(t, 1, 161, rg[1]);
	tc_trace_finish(t);
	struct tc_waitstates *w = tc_waitstates_compute(t);
	assert_float_equal(w->total[TC_WS_LATE_SENDER], MS(30), 1e-12);
	assert_float_equal(w->total[TC_WS_LATE_RECEIVER], MS(50), 1e-12);
	assert_float_equal(w->caused[0], MS(30), 1e-12);
	assert_float_equal(w->caused[1], MS(50), 1e-12);
	assert_float_equal(w->waited[1], MS(30), 1e-12);
	assert_int_equal(w->n, 2);
	assert_int_equal(w->w[0].rank, 0);
	assert_int_equal(w->w[0].kind, TC_WS_LATE_RECEIVER);
	assert_int_equal(w->w[0].cause_call, 1);
	/* MPI time: 2 + 40 + 11 + 40... = (42-40)+(50-10)+(160-100)+(161-150) = 113 ms */
	assert_float_equal(w->mpi_time, MS(113), 1e-12);
	tc_waitstates_free(w);
	tc_trace_free(t);
}

/* Waitall completing two receives: the latest sender counts (enter 70 of rank 2),
 * clipped to the wait's end 60: wait = 60 − 20 = 40, one clock case clipped. */
static void test_waitall_latest_sender(void **st)
{
	(void)st;
	uint32_t rg[7];
	struct tc_trace *t = base(3, rg);
	tcb_enter(t, 1, 5, rg[0]); tcb_send(t, 1, 6, 0, 0, 0, 8); tcb_leave(t, 1, 7, rg[0]);
	tcb_enter(t, 2, 70, rg[0]); tcb_send(t, 2, 71, 0, 0, 0, 8); tcb_leave(t, 2, 72, rg[0]);
	tcb_enter(t, 0, 1, rg[5]); tcb_irecv_request(t, 0, 1, 1); tcb_leave(t, 0, 2, rg[5]);
	tcb_enter(t, 0, 3, rg[5]); tcb_irecv_request(t, 0, 3, 2); tcb_leave(t, 0, 4, rg[5]);
	tcb_enter(t, 0, 20, rg[6]);
	tcb_irecv(t, 0, 30, 1, 0, 0, 8, 1);
	tcb_irecv(t, 0, 59, 2, 0, 0, 8, 2);
	tcb_leave(t, 0, 60, rg[6]);
	tc_trace_finish(t);
	struct tc_waitstates *w = tc_waitstates_compute(t);
	assert_float_equal(w->total[TC_WS_LATE_SENDER], MS(40), 1e-12);
	assert_float_equal(w->caused[2], MS(40), 1e-12);
	assert_int_equal(w->clamped, 1);
	tc_waitstates_free(w);
	tc_trace_free(t);
}

/* Barrier entered at 10, 20, 50 by ranks 0..2, left at 55, 56, 57:
 * wait = 40, 30, 0 (caused by rank 2); completion from max(earliest leave 55,
 * latest enter 50) = 55: 0, 1, 2 → 3 in all. */
static void test_collectives(void **st)
{
	(void)st;
	uint32_t rg[7];
	struct tc_trace *t = base(3, rg);
	uint64_t be[3] = { 10, 20, 50 }, bl[3] = { 55, 56, 57 };
	/* Bcast root 1 enters at 100; ranks 0 and 2 at 80 and 130: rank 0 waits 20 */
	uint64_t ce[3] = { 80, 100, 130 };
	/* Reduce root 0 enters at 200, senders at 210 and 240 (latest): root waits 40 */
	uint64_t re[3] = { 200, 210, 240 };
	for (uint32_t r = 0; r < 3; r++) {
		tcb_enter(t, r, be[r], rg[2]); tcb_coll_begin(t, r, be[r]);
		tcb_coll_end(t, r, bl[r], 0, 0, TC_NONE, 0, 0); tcb_leave(t, r, bl[r], rg[2]);
		tcb_enter(t, r, ce[r], rg[3]); tcb_coll_begin(t, r, ce[r]);
		tcb_coll_end(t, r, 140, 1, 0, 1, 0, 0); tcb_leave(t, r, 140, rg[3]);
		tcb_enter(t, r, re[r], rg[4]); tcb_coll_begin(t, r, re[r]);
		tcb_coll_end(t, r, 250, 12, 0, 0, 0, 0); tcb_leave(t, r, 250, rg[4]);
	}
	tc_trace_finish(t);
	struct tc_waitstates *w = tc_waitstates_compute(t);
	assert_float_equal(w->total[TC_WS_WAIT_BARRIER], MS(70), 1e-12);
	assert_float_equal(w->total[TC_WS_BARRIER_COMPLETION], MS(3), 1e-12);
	assert_float_equal(w->total[TC_WS_LATE_BROADCAST], MS(20), 1e-12);
	assert_float_equal(w->total[TC_WS_EARLY_REDUCE], MS(40), 1e-12);
	/* rank 2 caused the barrier wait (70) and the early reduce (40); rank 1 the late broadcast (20) */
	assert_float_equal(w->caused[2], MS(110), 1e-12);
	assert_float_equal(w->caused[1], MS(20), 1e-12);
	assert_float_equal(w->waited[0], MS(40 + 20 + 40), 1e-12);
	tc_waitstates_free(w);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p2p),
		cmocka_unit_test(test_waitall_latest_sender),
		cmocka_unit_test(test_collectives),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
