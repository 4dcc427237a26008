/* test_clusters_e2e.c — clustering on the real steps engine: shared Score-P
 * traces (TRACES) and models built with the builder API. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis_cluster.h"
#include "read.h"
#include "testkit.h"

static struct tc_trace *load(const char *name)
{
	struct tc_trace *t = tk_load(name, 1);
	assert_non_null(t);
	return t;
}

static void assert_ranks(const struct tc_phase_clusters *ph, uint32_t node, const char *want)
{
	char *got = tk_node_ranks(ph, node);
	assert_string_equal(got, want);
	free(got);
}

/* The largest lateness among the events of a partition, and its rank. */
static double part_max(const struct tc_steps *s, uint32_t p, uint32_t *rank)
{
	double m = -INFINITY;
	for (size_t i = 0; i < s->ncevs; i++)
		if (s->cevs[i].partition == p && tc_cev_metric(s, (uint32_t)i, TC_M_LATENESS, false) > m) {
			m = tc_cev_metric(s, (uint32_t)i, TC_M_LATENESS, false);
			*rank = s->cevs[i].rank;
		}
	return m;
}

/* Ping-pong: 16 phases of one message each, no lateness: one cluster {0,1}. */
static void test_pingpong(void **st)
{
	(void)st;
	struct tc_trace *t = load("pipit-ping-pong-2p");
	struct tc_steps *s = tc_steps_compute(t, NULL);
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	for (uint32_t p = 0; p < s->npartitions; p++) {
		const struct tc_phase_clusters *ph = tc_clusters_phase(c, p);
		assert_int_equal(ph->nranks, 2);
		assert_int_equal(ph->nvisible, 1);
		assert_ranks(ph, ph->visible[0], "0-1");
		assert_int_equal(ph->pattern, TC_EX_NONE);   /* one message per phase */
		assert_true(ph->max == 0);
		assert_int_equal(ph->nfocus, 2);
	}
	tc_clusters_free(c);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* casita late-sender-barrier: the barrier phase (3) splits by lateness into
 * {0,1}, {2}, {3} without a least separation; with the default one (0.1 % of
 * the phase's 7.8 s) the 57 us of exit skew is noise: one cluster.  Rank 3 is
 * the latest and the focus seed. */
static void test_late_sender_barrier(void **st)
{
	(void)st;
	struct tc_trace *t = load("casita-late-sender-barrier-4p");
	struct tc_steps *s = tc_steps_compute(t, NULL);
	assert_int_equal(s->npartitions, 4);
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 3);
	assert_int_equal(ph->nvisible, 1);
	assert_true(ph->min_sep > 0.007 && ph->min_sep < 0.008);
	tc_clusters_free(c);
	struct tc_cluster_opts o;
	tc_cluster_default_opts(&o);
	o.min_sep = 0;
	c = tc_clusters_new(s, &o);
	ph = tc_clusters_phase(c, 3);
	assert_int_equal(ph->nranks, 4);
	assert_int_equal(ph->first_step, 12);
	assert_int_equal(ph->last_step, 12);
	uint32_t mr = TC_NONE;
	double m = part_max(s, 3, &mr);
	assert_true(ph->max == m);
	assert_int_equal(ph->max_rank, 3);
	assert_int_equal(mr, 3);
	assert_int_equal(ph->nvisible, 3);
	assert_ranks(ph, ph->visible[0], "0-1");
	assert_ranks(ph, ph->visible[1], "2");
	assert_ranks(ph, ph->visible[2], "3");
	assert_int_equal(ph->nfocus, 1);   /* a barrier: no message neighbours */
	assert_int_equal(ph->focus[0], 3);
	tc_clusters_free(c);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* tracer stencil4d (32 ranks): the halo phases are Irecv/Isend/Waitall
 * exchanges; the focus of phase 0 is its latest rank and its neighbours. */
static void test_stencil(void **st)
{
	(void)st;
	struct tc_trace *t = load("tracer-stencil4d-32p");
	struct tc_steps *s = tc_steps_compute(t, NULL);
	struct tc_clusters *c = tc_clusters_new(s, NULL);
	const struct tc_phase_clusters *ph = tc_clusters_phase(c, 0);
	assert_int_equal(ph->nranks, 32);
	assert_int_equal(ph->pattern, TC_EX_WAITALL);
	assert_int_equal(tc_exchange_detect(s, 0), TC_EX_WAITALL);
	uint32_t mr = TC_NONE;
	assert_true(ph->max == part_max(s, 0, &mr));
	assert_int_equal(ph->max_rank, mr);
	/* the focus is the seed and exactly its message peers in the phase */
	uint32_t peers[64], np = 0;
	for (size_t m = 0; m < t->nmsgs; m++) {
		const struct tc_msg *M = &t->msgs[m];
		uint32_t a = s->msg_send_cev[m], b = s->msg_recv_cev[m];
		if (a == TC_NONE || b == TC_NONE || s->cevs[a].partition || s->cevs[b].partition) continue;
		uint32_t other = M->src == mr ? M->dst : M->dst == mr ? M->src : TC_NONE;
		if (other == TC_NONE) continue;
		bool dup = false;
		for (uint32_t i = 0; i < np; i++) dup = dup || peers[i] == other;
		if (!dup) peers[np++] = other;
	}
	assert_int_equal(ph->nfocus, np + 1);
	for (uint32_t i = 0; i < np; i++) {
		bool found = false;
		for (uint32_t k = 0; k < ph->nfocus; k++) found = found || ph->focus[k] == peers[i];
		assert_true(found);
	}
	/* every rank once in the dendrogram, node sizes add up */
	uint8_t seen[32] = { 0 };
	for (uint32_t i = 0; i < ph->nranks; i++) seen[ph->members[i]]++;
	for (uint32_t r = 0; r < 32; r++) assert_int_equal(seen[r], 1);
	for (uint32_t x = ph->nleaves; x < ph->nnodes; x++)
		assert_int_equal(ph->nodes[x].size,
				 ph->nodes[ph->nodes[x].child[0]].size + ph->nodes[ph->nodes[x].child[1]].size);
	/* glyphs of the root add up to the phase's events */
	uint32_t ncols = (ph->last_step - ph->first_step) / 2 + 1, total = 0;
	struct tc_cluster_glyph *g = calloc(ncols, sizeof *g);
	tc_clusters_glyphs(c, 0, ph->root, ph->first_step, ncols, g);
	for (uint32_t i = 0; i < ncols; i++) total += g[i].active;
	assert_int_equal(total, s->parts[0].ncevs);
	free(g);
	tc_clusters_free(c);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* 64 ranks through CLARA (direct_max lowered): deterministic, every rank once. */
static void test_stencil64_clara(void **st)
{
	(void)st;
	struct tc_trace *t = load("tracer-stencil4d-64p");
	struct tc_steps *s = tc_steps_compute(t, NULL);
	struct tc_cluster_opts o;
	tc_cluster_default_opts(&o);
	o.direct_max = 16;
	o.k = 8;
	struct tc_clusters *a = tc_clusters_new(s, &o), *b = tc_clusters_new(s, &o);
	for (uint32_t p = 0; p < s->npartitions; p++) {
		const struct tc_phase_clusters *x = tc_clusters_phase(a, p), *y = tc_clusters_phase(b, p);
		assert_true(x->clara);
		assert_int_equal(x->nleaves, 8);
		assert_memory_equal(x->members, y->members, x->nranks * sizeof *x->members);
		uint64_t sum = 0;
		for (uint32_t i = 0; i < x->nranks; i++) sum += x->members[i];
		assert_int_equal(sum, 64 * 63 / 2);
		assert_int_equal(x->nodes[x->root].size, 64);
	}
	tc_clusters_free(a);
	tc_clusters_free(b);
	tc_steps_free(s);
	tc_trace_free(t);
}

/* A ring of 4 built with the builder, through the real engine: the three
 * exchange flavours (every partition gets the same verdict). */
enum flavour { FL_ALT, FL_SR, FL_WAIT };

static enum tc_exchange ring(enum flavour fl, bool caller_merge, uint32_t *nparts)
{
	struct tc_trace *t = tc_trace_new(1000, 0, 0);
	tc_def_simple(t, 4, NULL, 1);
	uint32_t main_ = tc_def_region(t, "main", 0, 0, false), send = tc_def_region(t, "MPI_Send", 0, 0, true),
		 recv = tc_def_region(t, "MPI_Recv", 0, 0, true), irecv = tc_def_region(t, "MPI_Irecv", 0, 0, true),
		 waitall = tc_def_region(t, "MPI_Waitall", 0, 0, true);
	for (uint32_t r = 0; r < 4; r++) {
		uint32_t L = (r + 3) % 4, R = (r + 1) % 4;
		uint32_t seq[4][2];   /* (is_send, peer) */
		if (fl == FL_ALT) {
			uint32_t a[4][2] = { { 1, R }, { 0, L }, { 1, L }, { 0, R } };
			memcpy(seq, a, sizeof a);
		} else {
			uint32_t a[4][2] = { { 1, R }, { 1, L }, { 0, L }, { 0, R } };
			memcpy(seq, a, sizeof a);
		}
		tcb_enter(t, r, 0, main_);
		if (fl == FL_WAIT) {
			tcb_enter(t, r, 2, irecv); tcb_irecv_request(t, r, 3, 100); tcb_leave(t, r, 4, irecv);
			tcb_enter(t, r, 5, irecv); tcb_irecv_request(t, r, 6, 101); tcb_leave(t, r, 7, irecv);
		}
		for (uint32_t k = 0; k < 4; k++) {
			uint64_t at = 10 + 10 * k;
			if (seq[k][0]) {
				tcb_enter(t, r, at, send); tcb_send(t, r, at + 1, seq[k][1], 0, 0, 8); tcb_leave(t, r, at + 2, send);
			} else if (fl != FL_WAIT) {
				tcb_enter(t, r, at, recv); tcb_recv(t, r, at + 5, seq[k][1], 0, 0, 8); tcb_leave(t, r, at + 6, recv);
			}
		}
		if (fl == FL_WAIT) {
			tcb_enter(t, r, 60, waitall);
			tcb_irecv(t, r, 61, L, 0, 0, 8, 100);
			tcb_irecv(t, r, 62, R, 0, 0, 8, 101);
			tcb_leave(t, r, 63, waitall);
		}
		tcb_leave(t, r, 100, main_);
	}
	tc_trace_finish(t);
	struct tc_steps_opts so;
	tc_steps_default_opts(&so);
	so.caller_merge = caller_merge;
	struct tc_steps *s = tc_steps_compute(t, &so);
	*nparts = s->npartitions;
	enum tc_exchange e = tc_exchange_detect(s, 0);
	for (uint32_t p = 1; p < s->npartitions; p++) assert_int_equal(tc_exchange_detect(s, p), e);
	tc_steps_free(s);
	tc_trace_free(t);
	return e;
}

static void test_built_rings(void **st)
{
	(void)st;
	uint32_t np;
	assert_int_equal(ring(FL_SR, false, &np), TC_EX_SENDS_RECVS);
	assert_int_equal(np, 1);
	assert_int_equal(ring(FL_WAIT, false, &np), TC_EX_WAITALL);
	assert_int_equal(np, 1);
	/* alternating: without the caller merge each direction is its own phase,
	 * a one-way shift, which is no exchange; merged by caller it is one */
	assert_int_equal(ring(FL_ALT, false, &np), TC_EX_NONE);
	assert_int_equal(np, 2);
	assert_int_equal(ring(FL_ALT, true, &np), TC_EX_ALTERNATING);
	assert_int_equal(np, 1);
	assert_int_equal(ring(FL_SR, true, &np), TC_EX_SENDS_RECVS);
	assert_int_equal(ring(FL_WAIT, true, &np), TC_EX_WAITALL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_late_sender_barrier),
		cmocka_unit_test(test_stencil),
		cmocka_unit_test(test_stencil64_clara),
		cmocka_unit_test(test_built_rings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
