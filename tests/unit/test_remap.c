/* test_remap.c — METIS remap of the rank communication graph. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis_remap.h"

/* A ring of n ranks, each sending `bytes` to both neighbours once. */
static struct tc_trace *ring(uint32_t n, const uint32_t *node_of, uint32_t nnodes, uint64_t bytes)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, n, node_of, nnodes);
	uint32_t send = tc_def_region(t, "MPI_Send", 0, 0, true), recv = tc_def_region(t, "MPI_Recv", 0, 0, true);
	for (uint32_t r = 0; r < n; r++) {
		uint32_t right = (r + 1) % n, left = (r + n - 1) % n;
		tcb_enter(t, r, 0, send); tcb_send(t, r, 1, right, 0, 0, bytes); tcb_leave(t, r, 2, send);
		tcb_enter(t, r, 3, send); tcb_send(t, r, 4, left, 0, 1, bytes); tcb_leave(t, r, 5, send);
		tcb_enter(t, r, 6, recv); tcb_recv(t, r, 7, left, 0, 0, bytes); tcb_leave(t, r, 8, recv);
		tcb_enter(t, r, 9, recv); tcb_recv(t, r, 10, right, 0, 1, bytes); tcb_leave(t, r, 11, recv);
	}
	tc_trace_finish(t);
	return t;
}

/* 8 ranks round-robin on 2 nodes: every ring edge crosses nodes (16 messages).
 * The best placement of 4 per node is two arcs: 2 edges cross = 4 messages. */
static void test_roundrobin_ring(void **st)
{
	(void)st;
	uint32_t rr[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	struct tc_trace *t = ring(8, rr, 2, 100);
	struct tc_remap *r = tc_remap_compute(t, TC_REMAP_BYTES);
	assert_int_equal(r->capacity, 4);
	assert_int_equal(r->msgs, 16);
	assert_int_equal(r->inter_msgs_before, 16);
	assert_int_equal(r->inter_bytes_before, 1600);
	assert_int_equal(r->inter_msgs_after, 4);
	assert_int_equal(r->inter_bytes_after, 400);
	assert_true(r->improved);
	uint32_t per[2] = { 0, 0 };
	for (uint32_t u = 0; u < 8; u++) per[r->node_after[u]]++;
	assert_int_equal(per[0], 4);
	assert_int_equal(per[1], 4);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_true(tc_remap_write(t, r, "plain", f));
	assert_false(tc_remap_write(t, r, "bogus", f));
	fclose(f);
	assert_int_equal(strlen(buf), 8 * strlen("0 node0\n"));
	free(buf);
	tc_remap_free(r);
	tc_trace_free(t);
}

/* Already blocked: nothing to gain, the placement is kept. */
static void test_block_kept(void **st)
{
	(void)st;
	uint32_t blk[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct tc_trace *t = ring(8, blk, 2, 100);
	struct tc_remap *r = tc_remap_compute(t, TC_REMAP_MESSAGES);
	assert_int_equal(r->inter_msgs_before, 4);
	assert_int_equal(r->inter_msgs_after, 4);
	assert_false(r->improved);
	assert_int_equal(r->moved, 0);
	tc_remap_free(r);
	tc_trace_free(t);
}

/* One node: nothing to do. */
static void test_single_node(void **st)
{
	(void)st;
	struct tc_trace *t = ring(4, NULL, 1, 10);
	struct tc_remap *r = tc_remap_compute(t, TC_REMAP_BYTES);
	assert_int_equal(r->inter_msgs_before, 0);
	assert_int_equal(r->inter_msgs_after, 0);
	assert_int_equal(r->moved, 0);
	tc_remap_free(r);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundrobin_ring),
		cmocka_unit_test(test_block_kept),
		cmocka_unit_test(test_single_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
