/* test_model.c — the model builder: pairing, matching, translation, ops. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model.h"

struct fx { struct tc_trace *t; uint32_t send, recv, isend, irecv, waitall, sendrecv, barrier, bcast, main_, work; };

static struct fx setup(uint32_t nranks)
{
	struct fx f = { 0 };
	f.t = tc_trace_new(1000, 0, 0);
	uint32_t nodes[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	tc_def_simple(f.t, nranks, nodes, 4);
	f.main_ = tc_def_region(f.t, "main", 0, 0, false);
	f.send = tc_def_region(f.t, "MPI_Send", 0, 0, true);
	f.recv = tc_def_region(f.t, "MPI_Recv", 0, 0, true);
	f.isend = tc_def_region(f.t, "MPI_Isend", 0, 0, true);
	f.irecv = tc_def_region(f.t, "MPI_Irecv", 0, 0, true);
	f.waitall = tc_def_region(f.t, "MPI_Waitall", 0, 0, true);
	f.sendrecv = tc_def_region(f.t, "MPI_Sendrecv", 0, 0, true);
	f.barrier = tc_def_region(f.t, "MPI_Barrier", 0, 0, true);
	f.bcast = tc_def_region(f.t, "MPI_Bcast", 0, 0, true);
	f.work = tc_def_region(f.t, "work", 0, 0, false);
	return f;
}

static void test_classify(void **st)
{
	(void)st;
	assert_int_equal(tc_classify_region("MPI_Isend", true), TC_RK_MPI_ISEND);
	assert_int_equal(tc_classify_region("MPI_Waitall", true), TC_RK_MPI_WAIT);
	assert_int_equal(tc_classify_region("MPI_Iallreduce", true), TC_RK_MPI_ICOLL);
	assert_int_equal(tc_classify_region("MPI_Allreduce", true), TC_RK_MPI_COLL);
	assert_int_equal(tc_classify_region("MPI_Comm_rank", true), TC_RK_MPI_OTHER);
	assert_int_equal(tc_classify_region("main", false), TC_RK_USER);
	assert_int_equal(tc_classify_region("mpi_send", false), TC_RK_MPI_SEND);
}

/* rank 0: main[0,100] > MPI_Send[10,20] (send at 15); rank 1: main > MPI_Recv[5,30] (recv at 28) */
static void test_send_recv(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	tcb_enter(t, 0, 0, f.main_);
	tcb_enter(t, 0, 10, f.send);
	tcb_send(t, 0, 15, 1, 0, 7, 64);
	tcb_leave(t, 0, 20, f.send);
	tcb_leave(t, 0, 100, f.main_);
	tcb_enter(t, 1, 0, f.main_);
	tcb_enter(t, 1, 5, f.recv);
	tcb_recv(t, 1, 28, 0, 0, 7, 64);
	tcb_leave(t, 1, 30, f.recv);
	tcb_leave(t, 1, 90, f.main_);
	tc_trace_finish(t);
	assert_int_equal(t->nranks, 2);
	assert_int_equal(t->nmsgs, 1);
	const struct tc_msg *m = &t->msgs[0];
	assert_int_equal(m->src, 0);
	assert_int_equal(m->dst, 1);
	assert_int_equal(m->send_time, 15);
	assert_int_equal(m->recv_time, 28);
	assert_int_equal(m->post_time, 5);
	assert_int_equal(m->send_done, 20);
	assert_int_equal(m->send_call, 1);
	assert_int_equal(m->recv_call, 1);
	assert_int_equal(m->post_call, 1);
	assert_int_equal(m->bytes, 64);
	assert_int_equal(m->flags, 0);
	assert_int_equal(t->ranks[0].calls[1].depth, 1);
	assert_int_equal(t->ranks[0].calls[1].parent, 0);
	assert_int_equal(t->ranks[0].nops, 1);
	assert_int_equal(t->ranks[0].ops[0].call, 1);
	assert_int_equal(t->ranks[0].ops[0].nsend, 1);
	assert_int_equal(t->ranks[0].calls[1].op, 0);
	assert_int_equal(t->ranks[0].calls[0].op, TC_NONE);
	assert_int_equal(t->ranks[1].ops[0].nrecv, 1);
	assert_int_equal(t->ev_count[TC_EV_ENTER], 4);
	assert_int_equal(t->ev_count[TC_EV_MPI_SEND], 1);
	assert_int_equal(t->ncalls, 4);
	assert_true(tc_same_node(t, 0, 1));
	assert_int_equal(tc_call_at(t, 0, 12), 1);
	assert_int_equal(tc_call_at(t, 0, 50), 0);
	assert_int_equal(tc_call_at(t, 0, 101), TC_NONE);
	assert_int_equal(t->tmin, 0);
	assert_int_equal(t->tmax, 100);
	assert_int_equal(t->warnings.n, 0);
	tc_trace_free(t);
}

/* FIFO per (comm, src, dst, tag): tags keep their own order; a sub-communicator
 * translates comm-local ranks to world ranks. */
static void test_tags_and_subcomm(void **st)
{
	(void)st;
	struct fx f = setup(4);
	struct tc_trace *t = f.t;
	uint32_t members[2] = { 3, 1 };  /* local 0 = world 3, local 1 = world 1 */
	uint32_t sub = tc_def_comm(t, "sub", 2, members, false, false);
	/* world 3 sends tag 1 (8 B) then tag 2 (16 B) to world 1 over sub (peer = local 1) */
	tcb_enter(t, 3, 0, f.send); tcb_send(t, 3, 1, 1, sub, 1, 8); tcb_leave(t, 3, 2, f.send);
	tcb_enter(t, 3, 3, f.send); tcb_send(t, 3, 4, 1, sub, 2, 16); tcb_leave(t, 3, 5, f.send);
	/* world 1 receives tag 2 first, then tag 1, from local 0 */
	tcb_enter(t, 1, 0, f.recv); tcb_recv(t, 1, 6, 0, sub, 2, 16); tcb_leave(t, 1, 7, f.recv);
	tcb_enter(t, 1, 8, f.recv); tcb_recv(t, 1, 9, 0, sub, 1, 8); tcb_leave(t, 1, 10, f.recv);
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 2);
	/* messages are in send order: tag 1 first, received by the second MPI_Recv */
	assert_int_equal(t->msgs[0].src, 3);
	assert_int_equal(t->msgs[0].dst, 1);
	assert_int_equal(t->msgs[0].tag, 1);
	assert_int_equal(t->msgs[0].bytes, 8);
	assert_int_equal(t->msgs[0].send_call, 0);
	assert_int_equal(t->msgs[0].recv_call, 1);
	assert_int_equal(t->msgs[1].tag, 2);
	assert_int_equal(t->msgs[1].send_call, 1);
	assert_int_equal(t->msgs[1].recv_call, 0);
	assert_int_equal(t->unmatched_sends + t->unmatched_recvs, 0);
	assert_false(tc_same_node(t, 3, 1));
	tc_trace_free(t);
}

/* Isend/Irecv/Waitall: a Waitall completing 2 receives is one op with nrecv = 2;
 * post time comes from IrecvRequest, send_done from IsendComplete. */
static void test_nonblocking(void **st)
{
	(void)st;
	struct fx f = setup(3);
	struct tc_trace *t = f.t;
	for (uint32_t s = 1; s <= 2; s++) {  /* ranks 1 and 2 isend to 0, complete in a Waitall */
		tcb_enter(t, s, 10, f.isend); tcb_isend(t, s, 11, 0, 0, 5, 100 * s, 77); tcb_leave(t, s, 12, f.isend);
		tcb_enter(t, s, 20, f.waitall); tcb_isend_complete(t, s, 25, 77); tcb_leave(t, s, 26, f.waitall);
	}
	tcb_enter(t, 0, 1, f.irecv); tcb_irecv_request(t, 0, 2, 500); tcb_leave(t, 0, 3, f.irecv);
	tcb_enter(t, 0, 4, f.irecv); tcb_irecv_request(t, 0, 5, 501); tcb_leave(t, 0, 6, f.irecv);
	tcb_enter(t, 0, 30, f.waitall);
	tcb_irecv(t, 0, 31, 2, 0, 5, 200, 501);
	tcb_irecv(t, 0, 32, 1, 0, 5, 100, 500);
	tcb_leave(t, 0, 33, f.waitall);
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 2);
	const struct tc_rank *R = &t->ranks[0];
	assert_int_equal(R->nops, 1);
	assert_int_equal(R->ops[0].call, 2);
	assert_int_equal(R->ops[0].nrecv, 2);
	const uint32_t *rm = tc_op_recvs(t, 0, &R->ops[0]);
	const struct tc_msg *a = &t->msgs[rm[0]], *b = &t->msgs[rm[1]];
	assert_int_equal(a->src, 2);
	assert_int_equal(a->post_time, 5);
	assert_int_equal(a->post_call, 1);
	assert_int_equal(a->send_done, 25);
	assert_int_equal(b->src, 1);
	assert_int_equal(b->post_time, 2);
	assert_int_equal(b->post_call, 0);
	assert_int_equal(a->flags & (TC_MSG_NB_SEND | TC_MSG_NB_RECV), TC_MSG_NB_SEND | TC_MSG_NB_RECV);
	/* the Isend call is the sender's op; the Waitall that only completes sends is not an op */
	assert_int_equal(t->ranks[1].nops, 1);
	assert_int_equal(t->ranks[1].ops[0].call, 0);
	assert_int_equal(t->ev_count[TC_EV_MPI_IRECV_REQUEST], 2);
	tc_trace_free(t);
}

/* Score-P without extended non-blocking events: an Isend appears as MpiSend in
 * MPI_Isend, and the receive as MpiRecv inside MPI_Wait — classified by region. */
static void test_nonblocking_by_region(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	uint32_t wait = tc_def_region(t, "MPI_Wait", 0, 0, true);
	tcb_enter(t, 0, 1, f.isend); tcb_send(t, 0, 2, 1, 0, 0, 4); tcb_leave(t, 0, 3, f.isend);
	tcb_enter(t, 1, 1, wait); tcb_recv(t, 1, 5, 0, 0, 0, 4); tcb_leave(t, 1, 6, wait);
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 1);
	assert_int_equal(t->msgs[0].flags, TC_MSG_NB_SEND | TC_MSG_NB_RECV);
	assert_int_equal(t->msgs[0].post_call, TC_NONE);
	tc_trace_free(t);
}

/* MPI_Sendrecv carries a send and a receive in one op. */
static void test_sendrecv(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	for (uint32_t r = 0; r < 2; r++) {
		tcb_enter(t, r, 10, f.sendrecv);
		tcb_send(t, r, 11, 1 - r, 0, 3, 32);
		tcb_recv(t, r, 15, 1 - r, 0, 3, 32);
		tcb_leave(t, r, 16, f.sendrecv);
	}
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 2);
	for (uint32_t r = 0; r < 2; r++) {
		assert_int_equal(t->ranks[r].nops, 1);
		assert_int_equal(t->ranks[r].ops[0].nsend, 1);
		assert_int_equal(t->ranks[r].ops[0].nrecv, 1);
	}
	tc_trace_free(t);
}

/* Unmatched halves are counted and warned about, never crash. */
static void test_unmatched(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	tcb_enter(t, 0, 1, f.send); tcb_send(t, 0, 2, 1, 0, 9, 4); tcb_leave(t, 0, 3, f.send);
	tcb_enter(t, 1, 1, f.recv); tcb_recv(t, 1, 5, 0, 0, 8, 4); tcb_leave(t, 1, 6, f.recv);
	tcb_enter(t, 1, 7, f.recv); tcb_recv(t, 1, 8, 5, 0, 8, 4); tcb_leave(t, 1, 9, f.recv); /* rank 5: not in comm */
	tcb_send(t, 0, 10, 1, 0, 9, 4); /* outside any region */
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 0);
	assert_int_equal(t->unmatched_sends, 1);
	assert_int_equal(t->unmatched_recvs, 2);
	assert_int_equal(t->ranks[0].nops, 0);
	assert_true(t->warnings.n >= 2);
	tc_trace_free(t);
}

/* FIFO per key, keys told apart: 60 sends cycling over 5 tags, received tag by
 * tag in reverse tag order; the k-th receive of a tag gets its k-th send
 * (queues of 12: the receive pass's prefetch cursor restarts and runs out). */
static void test_fifo_per_tag(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	for (uint32_t i = 0; i < 60; i++) {
		tcb_enter(t, 0, 10 + i * 10, f.send);
		tcb_send(t, 0, 11 + i * 10, 1, 0, i % 5, 100 + i);
		tcb_leave(t, 0, 12 + i * 10, f.send);
	}
	for (uint32_t g = 0; g < 5; g++)
		for (uint32_t k = 0; k < 12; k++) {
			uint64_t at = 1000 + (g * 12 + k) * 10;
			tcb_enter(t, 1, at, f.recv);
			tcb_recv(t, 1, at + 1, 0, 0, 4 - g, 100 + (4 - g) + 5 * k);
			tcb_leave(t, 1, at + 2, f.recv);
		}
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 60);
	assert_int_equal(t->unmatched_sends + t->unmatched_recvs, 0);
	for (uint32_t i = 0; i < 60; i++) {
		const struct tc_msg *m = &t->msgs[i];
		uint32_t g = 4 - i % 5, k = i / 5;
		assert_int_equal(m->send_call, i);
		assert_int_equal(m->tag, i % 5);
		assert_int_equal(m->recv_call, g * 12 + k);
		assert_int_equal(m->recv_time, 1000 + (g * 12 + k) * 10 + 1);
	}
	for (size_t w = 0; w < t->warnings.n; w++) assert_null(strstr(t->warnings.a[w], "different sizes"));
	tc_trace_free(t);
}

/* Tags mixed in one (comm, src, dst) queue, checked against the rule itself:
 * 8 sends of a tag nobody receives first, then 400 sends of 8 tags in a
 * pseudo-random order from each of ranks 0 and 2 to rank 1 (same tags, so the
 * sender tells the queues apart), received in a shuffled order of their tags,
 * plus receives of a tag never sent.  Every receive must get the first
 * not yet received send of its (src, tag) in send order (MPI non-overtaking),
 * whether its queue is scanned or split by tag. */
static void test_tags_against_rule(void **st)
{
	(void)st;
	enum { SKIP = 8, N = 400, NT = 8, NR = 2 * N + 3 };
	struct fx f = setup(3);
	struct tc_trace *t = f.t;
	uint32_t tag[2][SKIP + N], rtag[NR], rsrc[NR];
	bool taken[2][SKIP + N] = { { false } };
	uint64_t x = 12345;
	for (uint32_t s = 0; s < 2; s++)
		for (uint32_t i = 0; i < SKIP + N; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			tag[s][i] = i < SKIP ? 77 : (uint32_t)(x >> 33) % NT;
		}
	uint32_t nr = 0;
	for (uint32_t s = 0; s < 2; s++)
		for (uint32_t i = SKIP; i < SKIP + N; i++) { rsrc[nr] = s; rtag[nr++] = tag[s][i]; }
	for (uint32_t i = 0; i < 3; i++) { rsrc[nr] = i % 2; rtag[nr++] = 55; }   /* never sent */
	for (uint32_t i = nr - 1; i > 0; i--) {   /* shuffle the receives */
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		uint32_t j = (uint32_t)(x >> 33) % (i + 1), a = rtag[i], b = rsrc[i];
		rtag[i] = rtag[j]; rsrc[i] = rsrc[j]; rtag[j] = a; rsrc[j] = b;
	}
	for (uint32_t s = 0; s < 2; s++)
		for (uint32_t i = 0; i < SKIP + N; i++) {
			uint32_t r = s * 2;
			tcb_enter(t, r, 10 + i * 10, f.send);
			tcb_send(t, r, 11 + i * 10, 1, 0, tag[s][i], 8);
			tcb_leave(t, r, 12 + i * 10, f.send);
		}
	for (uint32_t j = 0; j < NR; j++) {
		tcb_enter(t, 1, 100000 + j * 10, f.recv);
		tcb_recv(t, 1, 100001 + j * 10, rsrc[j] * 2, 0, rtag[j], 8);
		tcb_leave(t, 1, 100002 + j * 10, f.recv);
	}
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 2 * N);
	assert_int_equal(t->unmatched_sends, 2 * SKIP);
	assert_int_equal(t->unmatched_recvs, 3);
	uint32_t want[2][SKIP + N];
	for (uint32_t s = 0; s < 2; s++)
		for (uint32_t i = 0; i < SKIP + N; i++) want[s][i] = TC_NONE;
	for (uint32_t j = 0; j < NR; j++) {   /* the rule, by brute force */
		uint32_t s = rsrc[j], i = 0;
		while (i < SKIP + N && (taken[s][i] || tag[s][i] != rtag[j])) i++;
		if (i == SKIP + N) continue;
		taken[s][i] = true;
		want[s][i] = j;
	}
	uint32_t id = 0;
	for (uint32_t s = 0; s < 2; s++)
		for (uint32_t i = SKIP; i < SKIP + N; i++, id++) {
			const struct tc_msg *m = &t->msgs[id];
			assert_int_equal(m->src, s * 2);
			assert_int_equal(m->send_call, i);
			assert_int_equal(m->tag, tag[s][i]);
			assert_int_equal(m->recv_call, want[s][i]);
		}
	tc_trace_free(t);
}

/* Messages summed per (sender, receiver): self-messages left out, a
 * zero-byte message counts 1 in bytes1, pairs in sender order. */
static void test_msg_pairs(void **st)
{
	(void)st;
	struct fx f = setup(3);
	struct tc_trace *t = f.t;
	static const uint32_t to[6] = { 1, 2, 1, 0, 1, 1 }, from[6] = { 0, 0, 0, 1, 1, 2 };
	static const uint64_t sz[6] = { 10, 0, 30, 5, 7, 0 };
	for (uint32_t i = 0; i < 6; i++) {
		uint32_t s = from[i], d = to[i];
		tcb_enter(t, s, 10 + i * 10, f.send); tcb_send(t, s, 11 + i * 10, d, 0, 1, sz[i]); tcb_leave(t, s, 12 + i * 10, f.send);
		tcb_enter(t, d, 100 + i * 10, f.recv); tcb_recv(t, d, 101 + i * 10, s, 0, 1, sz[i]); tcb_leave(t, d, 102 + i * 10, f.recv);
	}
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 6);
	struct tc_pair *p = NULL;
	size_t n = tc_msg_pairs(t, &p);
	assert_int_equal(n, 4);   /* 0→1 (2 msgs), 0→2, 1→0; 1→1 left out; 2→1 */
	static const struct tc_pair want[4] = {
		{ 0, 1, 2, 40, 40 }, { 0, 2, 1, 0, 1 }, { 1, 0, 1, 5, 5 }, { 2, 1, 1, 0, 1 },
	};
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(p[i].src, want[i].src);
		assert_int_equal(p[i].dst, want[i].dst);
		assert_int_equal(p[i].msgs, want[i].msgs);
		assert_int_equal(p[i].bytes, want[i].bytes);
		assert_int_equal(p[i].bytes1, want[i].bytes1);
	}
	free(p);
	tc_trace_free(t);
}

/* Sends nobody received are dropped after the ops were built: the ids of the
 * others are renumbered, an op left empty disappears, later ops move up. */
static void test_unreceived_between(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	tcb_enter(t, 0, 1, f.isend); tcb_isend(t, 0, 2, 1, 0, 5, 8, 100); tcb_leave(t, 0, 3, f.isend);   /* call 0 */
	tcb_enter(t, 0, 4, f.isend); tcb_isend(t, 0, 5, 1, 0, 99, 8, 101); tcb_leave(t, 0, 6, f.isend);  /* call 1: never received */
	tcb_enter(t, 0, 7, f.send); tcb_send(t, 0, 8, 1, 0, 5, 8); tcb_leave(t, 0, 9, f.send);           /* call 2 */
	tcb_enter(t, 0, 10, f.waitall); tcb_isend_complete(t, 0, 11, 100); tcb_isend_complete(t, 0, 12, 101);
	tcb_leave(t, 0, 13, f.waitall);                                                                   /* call 3 */
	tcb_enter(t, 1, 1, f.recv); tcb_recv(t, 1, 14, 0, 0, 5, 8); tcb_leave(t, 1, 15, f.recv);
	tcb_enter(t, 1, 16, f.recv); tcb_recv(t, 1, 17, 0, 0, 5, 8); tcb_leave(t, 1, 18, f.recv);
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 2);
	assert_int_equal(t->unmatched_sends, 1);
	assert_int_equal(t->msgs[0].send_call, 0);
	assert_int_equal(t->msgs[0].send_done, 11);  /* IsendComplete */
	assert_int_equal(t->msgs[1].send_call, 2);
	assert_int_equal(t->msgs[1].send_done, 9);   /* blocking: the leave of MPI_Send */
	const struct tc_rank *R = &t->ranks[0];
	assert_int_equal(R->nops, 2);
	assert_int_equal(R->nsend_msgs, 2);
	assert_int_equal(R->calls[0].op, 0);
	assert_int_equal(R->calls[1].op, TC_NONE);
	assert_int_equal(R->calls[2].op, 1);
	assert_int_equal(R->ops[1].call, 2);
	assert_int_equal(R->ops[1].first_send, 1);
	assert_int_equal(R->ops[1].nsend, 1);
	assert_int_equal(tc_op_sends(t, 0, &R->ops[1])[0], 1);
	const struct tc_rank *Q = &t->ranks[1];
	assert_int_equal(Q->nops, 2);
	assert_int_equal(tc_op_recvs(t, 1, &Q->ops[0])[0], 0);
	assert_int_equal(tc_op_recvs(t, 1, &Q->ops[1])[0], 1);
	assert_int_equal(t->msgs[1].recv_call, 1);
	tc_trace_free(t);
}

/* Ops are numbered while reading, at each call's first kept record; when a
 * nested call's record comes first, the finish renumbers in call order. */
static void test_ops_nested(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	tcb_enter(t, 0, 1, f.work);                                                                 /* call 0 */
	tcb_enter(t, 0, 2, f.send); tcb_send(t, 0, 3, 1, 0, 1, 8); tcb_leave(t, 0, 4, f.send);      /* call 1 */
	tcb_send(t, 0, 5, 1, 0, 2, 8);                                                              /* in call 0 */
	tcb_leave(t, 0, 6, f.work);
	tcb_enter(t, 0, 7, f.barrier); tcb_coll_begin(t, 0, 7);
	tcb_coll_end(t, 0, 8, 0, 0, TC_NONE, 0, 0); tcb_leave(t, 0, 9, f.barrier);                  /* call 2 */
	tcb_enter(t, 1, 1, f.recv); tcb_recv(t, 1, 10, 0, 0, 1, 8); tcb_leave(t, 1, 11, f.recv);
	tcb_enter(t, 1, 12, f.recv); tcb_recv(t, 1, 13, 0, 0, 2, 8); tcb_leave(t, 1, 14, f.recv);
	tcb_enter(t, 1, 15, f.barrier); tcb_coll_begin(t, 1, 15);
	tcb_coll_end(t, 1, 16, 0, 0, TC_NONE, 0, 0); tcb_leave(t, 1, 17, f.barrier);
	tc_trace_finish(t);
	const struct tc_rank *R = &t->ranks[0];
	assert_int_equal(t->nmsgs, 2);
	assert_int_equal(t->msgs[0].send_call, 1);   /* ids in record order */
	assert_int_equal(t->msgs[1].send_call, 0);
	assert_int_equal(R->nops, 3);
	assert_int_equal(R->calls[0].op, 0);
	assert_int_equal(R->calls[1].op, 1);
	assert_int_equal(R->calls[2].op, 2);
	assert_int_equal(R->ops[0].call, 0);
	assert_int_equal(tc_op_sends(t, 0, &R->ops[0])[0], 1);
	assert_int_equal(R->ops[1].call, 1);
	assert_int_equal(tc_op_sends(t, 0, &R->ops[1])[0], 0);
	assert_int_equal(R->ops[2].call, 2);
	assert_int_not_equal(R->ops[2].coll, TC_NONE);
	assert_int_equal(t->ranks[1].nops, 3);
	tc_trace_free(t);
}

/* A call whose only record is a receive nobody sent has no op: the ops after
 * it move down by one, and it keeps TC_NONE. */
static void test_ops_unmatched_first(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	tcb_enter(t, 0, 1, f.recv); tcb_recv(t, 0, 2, 1, 0, 7, 8); tcb_leave(t, 0, 3, f.recv);      /* unmatched */
	tcb_enter(t, 0, 4, f.work); tcb_leave(t, 0, 5, f.work);
	tcb_enter(t, 0, 6, f.send); tcb_send(t, 0, 7, 1, 0, 1, 8); tcb_leave(t, 0, 8, f.send);      /* call 2 */
	tcb_enter(t, 1, 1, f.recv); tcb_recv(t, 1, 10, 0, 0, 1, 8); tcb_leave(t, 1, 11, f.recv);
	tc_trace_finish(t);
	const struct tc_rank *R = &t->ranks[0];
	assert_int_equal(t->unmatched_recvs, 1);
	assert_int_equal(R->nops, 1);
	assert_int_equal(R->calls[0].op, TC_NONE);
	assert_int_equal(R->calls[1].op, TC_NONE);
	assert_int_equal(R->calls[2].op, 0);
	assert_int_equal(R->ops[0].call, 2);
	assert_int_equal(R->ops[0].nrecv, 0);
	assert_int_equal(R->ops[0].nsend, 1);
	tc_trace_free(t);
}

/* Many requests open at once (more than the short array holds), completed
 * in another order, then the same ids reused: each Irecv gets the time and
 * call of its own IrecvRequest, each Isend the time of its IsendComplete. */
static void test_many_requests(void **st)
{
	(void)st;
	enum { N = 40 };
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	uint64_t now = 1;
	for (int round = 0; round < 2; round++) {
		for (uint32_t i = 0; i < N; i++) {   /* rank 0 posts N receives, tag i */
			tcb_enter(t, 0, now++, f.irecv);
			tcb_irecv_request(t, 0, now++, 500 + i);
			tcb_leave(t, 0, now++, f.irecv);
		}
		for (uint32_t i = 0; i < N; i++) {   /* rank 1 sends them, tag i */
			tcb_enter(t, 1, now++, f.isend);
			tcb_isend(t, 1, now++, 0, 0, i, 8, 900 + i);
			tcb_leave(t, 1, now++, f.isend);
		}
		tcb_enter(t, 1, now++, f.waitall);
		for (uint32_t i = 0; i < N; i++) tcb_isend_complete(t, 1, now++, 900 + (i * 7) % N);
		tcb_leave(t, 1, now++, f.waitall);
		tcb_enter(t, 0, now++, f.waitall);
		for (uint32_t i = 0; i < N; i++) {   /* completed in reverse */
			uint32_t k = N - 1 - i;
			tcb_irecv(t, 0, now++, 1, 0, k, 8, 500 + k);
		}
		tcb_leave(t, 0, now++, f.waitall);
	}
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 2 * N);
	assert_int_equal(t->unmatched_sends + t->unmatched_recvs, 0);
	uint64_t per_round = 3 * N + 3 * N + 2 + N + 2 + N;  /* timestamps used per round */
	for (uint32_t j = 0; j < 2 * N; j++) {
		const struct tc_msg *m = &t->msgs[j];
		uint32_t round = j / N, i = m->tag;
		uint64_t base = 1 + round * per_round;
		assert_int_equal(m->post_time, base + 3 * i + 1);      /* its IrecvRequest */
		assert_int_equal(m->post_call, round * (N + 1) + i);   /* its MPI_Irecv call on rank 0 */
		uint64_t c0 = base + 6 * N + 1;                        /* first IsendComplete */
		uint32_t pos = 0;
		while ((pos * 7) % N != i) pos++;
		assert_int_equal(m->send_done, c0 + pos);
		assert_true(m->flags & TC_MSG_NB_RECV);
	}
	tc_trace_free(t);
}

/* Six ranks exchanging many messages (a ring both ways, 400 per rank), built
 * with the reader's slots as threads would give them (ranks 0-1 in slot 0,
 * 2-3 in slot 1, rank 4 read apart as if stolen, rank 5 in slot 2) and built
 * with no slots: the same messages under the same ids, field by field (the
 * slots' arrays are long enough to be moved into place by pages). */
static struct tc_trace *ring_trace(bool slots)
{
	enum { R = 6, K = 200 };
	struct fx f = setup(R);
	struct tc_trace *t = f.t;
	static const int slot_of[R] = { 0, 0, 1, 1, -1, 2 };
	for (uint32_t r = 0; r < R; r++) {
		if (slots && slot_of[r] >= 0) tcb_loc_begin(t, r, slot_of[r]);
		uint64_t now = 1;
		for (uint32_t k = 0; k < K; k++) {
			tcb_enter(t, r, now++, f.sendrecv);
			tcb_send(t, r, now++, (r + 1) % R, 0, k % 3, 8 + r);
			tcb_send(t, r, now++, (r + R - 1) % R, 0, 100 + k % 3, 16 + r);
			tcb_recv(t, r, now++, (r + R - 1) % R, 0, k % 3, 8 + (r + R - 1) % R);
			tcb_recv(t, r, now++, (r + 1) % R, 0, 100 + k % 3, 16 + (r + 1) % R);
			tcb_leave(t, r, now++, f.sendrecv);
		}
	}
	tc_trace_finish(t);
	return t;
}

static void test_blocks_moved(void **st)
{
	(void)st;
	struct tc_trace *a = ring_trace(true), *b = ring_trace(false);
	assert_int_equal(a->nmsgs, 6 * 400);
	assert_int_equal(b->nmsgs, a->nmsgs);
	assert_int_equal(a->unmatched_sends + a->unmatched_recvs, 0);
	size_t bad = 0;
	for (size_t i = 0; i < a->nmsgs; i++) {
		const struct tc_msg *x = &a->msgs[i], *y = &b->msgs[i];
		bad += x->send_time != y->send_time || x->recv_time != y->recv_time || x->post_time != y->post_time ||
		       x->send_done != y->send_done || x->bytes != y->bytes || x->src != y->src || x->dst != y->dst ||
		       x->send_call != y->send_call || x->recv_call != y->recv_call || x->post_call != y->post_call ||
		       x->tag != y->tag || x->comm != y->comm || x->flags != y->flags;
		bad += x->src != i / 400 || x->bytes != (i % 2 ? 16 : 8) + x->src;  /* by sender, then record order */
	}
	assert_int_equal(bad, 0);
	for (uint32_t r = 0; r < 6; r++) {
		assert_int_equal(a->ranks[r].nops, 200);
		assert_memory_equal(a->ranks[r].recv_msgs, b->ranks[r].recv_msgs, 400 * sizeof(uint32_t));
	}
	tc_trace_free(a);
	tc_trace_free(b);
}

/* A send naming a rank outside its communicator takes no message id from the
 * good ones, is counted apart from the unmatched sends, and has no op. */
static void test_send_bad_rank(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	tcb_enter(t, 0, 1, f.send); tcb_send(t, 0, 2, 7, 0, 9, 4); tcb_leave(t, 0, 3, f.send);
	tcb_enter(t, 0, 4, f.send); tcb_send(t, 0, 5, 1, 0, 9, 16); tcb_leave(t, 0, 6, f.send);
	tcb_enter(t, 1, 1, f.recv); tcb_recv(t, 1, 7, 0, 0, 9, 16); tcb_leave(t, 1, 8, f.recv);
	tc_trace_finish(t);
	assert_int_equal(t->nmsgs, 1);
	assert_int_equal(t->unmatched_sends, 0);
	assert_int_equal(t->unmatched_recvs, 0);
	assert_int_equal(t->msgs[0].src, 0);
	assert_int_equal(t->msgs[0].dst, 1);
	assert_int_equal(t->msgs[0].bytes, 16);
	assert_int_equal(t->msgs[0].send_call, 1);
	assert_int_equal(t->ranks[0].nops, 1);
	assert_int_equal(t->ranks[0].ops[0].call, 1);
	assert_int_equal(t->ranks[0].send_msgs[0], 0);
	assert_int_equal(t->ranks[1].recv_msgs[0], 0);
	bool warned = false;
	for (size_t i = 0; i < t->warnings.n; i++) warned |= strstr(t->warnings.a[i], "outside their communicator") != NULL;
	assert_true(warned);
	tc_trace_free(t);
}

/* Collectives: the k-th record on a communicator is instance k; roots are world ranks. */
static void test_collectives(void **st)
{
	(void)st;
	struct fx f = setup(4);
	struct tc_trace *t = f.t;
	uint32_t members[2] = { 2, 3 };
	uint32_t sub = tc_def_comm(t, "pair", 2, members, false, false);
	for (uint32_t r = 0; r < 4; r++) {
		tcb_enter(t, r, 10 + r, f.barrier); tcb_coll_begin(t, r, 10 + r);
		tcb_coll_end(t, r, 40, 0, 0, TC_NONE, 0, 0); tcb_leave(t, r, 41 + r, f.barrier);
		if (r >= 2) {
			tcb_enter(t, r, 50, f.bcast); tcb_coll_begin(t, r, 50);
			tcb_coll_end(t, r, 60, 1, sub, 1, r == 3 ? 8 : 0, 8); tcb_leave(t, r, 61, f.bcast);
		}
	}
	tc_trace_finish(t);
	assert_int_equal(t->ncolls, 2);
	const struct tc_coll *b = &t->colls[0], *c = &t->colls[1];
	assert_int_equal(b->n, 4);
	assert_int_equal(b->begin, 10);
	assert_int_equal(b->end, 44);
	assert_int_equal(b->root, TC_NONE);
	assert_int_equal(c->n, 2);
	assert_int_equal(c->root, 3);
	assert_int_equal(c->op, 1);
	assert_int_equal(t->coll_members[c->first].rank, 2);
	assert_int_equal(t->coll_members[c->first + 1].sent, 8);
	assert_int_equal(t->incomplete_colls, 0);
	assert_int_equal(t->ranks[3].nops, 2);
	assert_int_equal(t->ranks[3].ops[1].coll, 1);
	assert_int_equal(tc_coll_class(1), TC_CC_ONE2ALL);
	assert_string_equal(tc_coll_op_name(11), "Allreduce");
	tc_trace_free(t);
}

/* Regions still open at the end are closed at the last timestamp, with a warning;
 * a receive before its send is a clock-condition violation. */
static void test_unclosed_and_clock(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	tcb_enter(t, 0, 0, f.main_);
	tcb_enter(t, 0, 10, f.send); tcb_send(t, 0, 20, 1, 0, 0, 1); tcb_leave(t, 0, 21, f.send);
	tcb_enter(t, 0, 30, f.work);
	tcb_other(t, 0, 50);
	tcb_enter(t, 1, 5, f.recv); tcb_recv(t, 1, 15, 0, 0, 0, 1); tcb_leave(t, 1, 16, f.recv);
	tc_trace_finish(t);
	const struct tc_call *c = t->ranks[0].calls;
	assert_int_equal(c[0].leave, 50);
	assert_int_equal(c[2].leave, 50);
	assert_true(c[0].flags & TC_CALL_UNCLOSED);
	assert_false(c[1].flags & TC_CALL_UNCLOSED);
	assert_int_equal(t->clock_violations, 1);
	assert_true(t->msgs[0].flags & TC_MSG_CLOCK_BAD);
	assert_int_equal(t->ev_count[TC_EV_OTHER], 1);
	bool warned = false;
	for (size_t i = 0; i < t->warnings.n; i++) warned |= strstr(t->warnings.a[i], "still open") != NULL;
	assert_true(warned);
	tc_trace_free(t);
}

/* Metrics: samples per location in record order, counts per metric, a
 * sample naming no defined metric dropped with a warning; tcb_seen moves the
 * location's last record, where its open calls are closed. */
static void test_metrics(void **st)
{
	(void)st;
	struct fx f = setup(2);
	struct tc_trace *t = f.t;
	uint32_t cyc = tc_def_metric(t, "PAPI_TOT_CYC", "#", TC_MM_ACCUMULATED, 0, TC_MV_UINT64);
	uint32_t mem = tc_def_metric(t, "mem", "Bytes", TC_MM_ABSOLUTE, 3, TC_MV_DOUBLE);
	tcb_metric(t, 0, 5, cyc, TC_MV_UINT64, (union tc_mvalue){ .u = 100 });
	tcb_enter(t, 0, 5, f.main_);
	tcb_metric(t, 0, 50, cyc, TC_MV_UINT64, (union tc_mvalue){ .u = 350 });
	tcb_metric(t, 0, 50, mem, TC_MV_DOUBLE, (union tc_mvalue){ .d = 2.5 });
	tcb_metric(t, 0, 60, 7, TC_MV_UINT64, (union tc_mvalue){ .u = 1 });   /* undefined metric */
	tcb_seen(t, 0, 70);
	tcb_enter(t, 1, 0, f.main_);
	tcb_leave(t, 1, 40, f.main_);
	tcb_read_total(t, 0, 6);
	tc_trace_finish(t);
	assert_int_equal(t->nmetrics, 2);
	assert_string_equal(t->metrics[cyc].name, "PAPI_TOT_CYC");
	assert_string_equal(t->metrics[mem].unit, "Bytes");
	assert_int_equal(t->metrics[mem].mode, TC_MM_ABSOLUTE);
	assert_int_equal(t->metrics[cyc].nsamples, 2);
	assert_int_equal(t->metrics[mem].nsamples, 1);
	const struct tc_loc *L = &t->locs[t->ranks[0].loc];
	assert_int_equal(L->nsamples, 3);
	assert_int_equal(L->samples[0].time, 5);
	assert_int_equal(L->samples[1].v.u, 350);
	assert_true(tc_sample_value(&L->samples[2]) == 2.5);
	assert_int_equal(L->last_record, 70);
	assert_int_equal(t->locs[t->ranks[1].loc].last_record, 40);
	assert_int_equal(t->ranks[0].calls[0].leave, 70);  /* unclosed main: closed at the last record of any kind */
	assert_int_equal(t->ev_count[TC_EV_OTHER], 5);     /* 6 records read, one of them an Enter */
	bool warned = false;
	for (size_t i = 0; i < t->warnings.n; i++) warned |= strstr(t->warnings.a[i], "1 metric samples") != NULL;
	assert_true(warned);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_send_recv),
		cmocka_unit_test(test_tags_and_subcomm),
		cmocka_unit_test(test_nonblocking),
		cmocka_unit_test(test_nonblocking_by_region),
		cmocka_unit_test(test_sendrecv),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_send_bad_rank),
		cmocka_unit_test(test_unreceived_between),
		cmocka_unit_test(test_ops_nested),
		cmocka_unit_test(test_many_requests),
		cmocka_unit_test(test_blocks_moved),
		cmocka_unit_test(test_ops_unmatched_first),
		cmocka_unit_test(test_fifo_per_tag),
		cmocka_unit_test(test_tags_against_rule),
		cmocka_unit_test(test_msg_pairs),
		cmocka_unit_test(test_collectives),
		cmocka_unit_test(test_unclosed_and_clock),
		cmocka_unit_test(test_metrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
