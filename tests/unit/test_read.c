/* test_read.c — the OTF2 reader on real archives, cross-checked with otf2-print. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <stdio.h>

#include "otfw.h"
#include "read.h"
#include "testkit.h"


static struct tc_trace *load(const char *name, int threads)
{
	struct tc_trace *t = tk_load(name, threads);
	assert_non_null(t);
	return t;
}

/* otf2-print pipit-ping-pong-2p: the first message is
 *   MPI_SEND  loc 0 @7397467382760060 Receiver: 1, Tag: 10, Length: 16384
 *   MPI_RECV  loc 1 @7397467382799971 Sender: 0 */
static void test_pingpong(void **st)
{
	(void)st;
	struct tc_trace *t = load("pipit-ping-pong-2p", 1);
	assert_int_equal(t->res, 2095197216ULL);
	assert_int_equal(t->t0, 7397466976977800ULL);
	assert_int_equal(t->nranks, 2);
	assert_int_equal(t->nmsgs, 16);
	const struct tc_msg *m = NULL;
	for (size_t i = 0; i < t->nmsgs; i++)
		if (t->msgs[i].src == 0 && (!m || t->msgs[i].send_time < m->send_time)) m = &t->msgs[i];
	assert_non_null(m);
	assert_int_equal(m->send_time, 7397467382760060ULL);
	assert_int_equal(m->recv_time, 7397467382799971ULL);
	assert_int_equal(m->post_time, 7397467382769925ULL); /* ENTER MPI_Recv on loc 1 */
	assert_int_equal(m->send_done, 7397467382788022ULL); /* LEAVE MPI_Send on loc 0 */
	assert_int_equal(m->tag, 10);
	assert_int_equal(m->bytes, 16384);
	assert_string_equal(t->comms[m->comm].name, "MPI_COMM_WORLD");
	assert_string_equal(tc_region_name(t, t->ranks[0].calls[m->send_call].region), "MPI_Send");
	assert_int_equal(t->regions[t->ranks[0].calls[m->send_call].region].kind, TC_RK_MPI_SEND);
	uint64_t bytes[2] = { 0, 0 };
	for (size_t i = 0; i < t->nmsgs; i++) bytes[t->msgs[i].src] += t->msgs[i].bytes;
	assert_int_equal(bytes[0], 4177920);
	assert_int_equal(bytes[1], 4177920);
	assert_string_equal(t->nodes[t->ranks[1].node].name, "quartz10");
	/* main is the root call of each rank, MPI calls below it */
	assert_string_equal(tc_region_name(t, t->ranks[0].calls[0].region), "int main(int, char**)");
	assert_int_equal(t->ranks[0].calls[1].parent, 0);
	tc_trace_free(t);
}

/* The same model with 1 and 2 reading threads. */
static void test_threads_identical(void **st)
{
	(void)st;
	struct tc_trace *a = load("sstmacro-mpi-coverage-10p", 1), *b = load("sstmacro-mpi-coverage-10p", 2);
	assert_int_equal(a->nmsgs, b->nmsgs);
	assert_memory_equal(a->msgs, b->msgs, a->nmsgs * sizeof *a->msgs);
	assert_int_equal(a->ncolls, b->ncolls);
	for (size_t i = 0; i < a->ncolls; i++) {
		assert_int_equal(a->colls[i].begin, b->colls[i].begin);
		assert_int_equal(a->colls[i].end, b->colls[i].end);
		assert_int_equal(a->colls[i].comm, b->colls[i].comm);
		assert_int_equal(a->colls[i].n, b->colls[i].n);
		assert_int_equal(a->colls[i].op, b->colls[i].op);
	}
	for (uint32_t r = 0; r < a->nranks; r++) {
		assert_int_equal(a->ranks[r].ncalls, b->ranks[r].ncalls);
		assert_memory_equal(a->ranks[r].calls, b->ranks[r].calls, a->ranks[r].ncalls * sizeof(struct tc_call));
	}
	tc_trace_free(a);
	tc_trace_free(b);
}

/* sstmacro: 10 ranks on 10 nodes, Comm_split sub-communicators: every collective
 * instance is complete and the non-blocking collectives are plain regions. */
static void test_subcomms(void **st)
{
	(void)st;
	struct tc_trace *t = load("sstmacro-mpi-coverage-10p", 0);
	assert_int_equal(t->nranks, 10);
	assert_int_equal(t->nnodes, 10);
	/* otf2-print | grep MPI_COLLECTIVE_END by communicator: 400 records on
	 * MPI_COMM_WORLD (40 instances of 10), 4 × 80 on the 2-rank Comm_split
	 * communicators 1–4 (160 instances of 2), 400 + 80 on communicators 6 and 7,
	 * whose group is COMM_SELF (480 instances of 1): 680 */
	assert_int_equal(t->ncolls, 680);
	assert_int_equal(t->incomplete_colls, 0);
	size_t on_world = 0, on_pairs = 0, on_self = 0;
	for (size_t i = 0; i < t->ncolls; i++) {
		const struct tc_comm *c = &t->comms[t->colls[i].comm];
		if (c->self) { assert_int_equal(t->colls[i].n, 1); on_self++; continue; }
		assert_int_equal(t->colls[i].n, c->size);
		if (c->size == 10) on_world++;
		else if (c->size == 2) on_pairs++;
	}
	assert_int_equal(on_world, 40);
	assert_int_equal(on_pairs, 160);
	assert_int_equal(on_self, 480);
	bool icoll = false;
	for (uint32_t i = 0; i < t->nregions; i++) icoll |= t->regions[i].kind == TC_RK_MPI_ICOLL;
	assert_true(icoll);
	tc_trace_free(t);
}

/* jacobi: MPI_COMM_WORLD is communicator 4 (CUDA/OpenMP groups come first); the
 * OpenMP threads are locations of the same rank but not the master. */
static void test_jacobi_mapping(void **st)
{
	(void)st;
	struct tc_trace *t = load("casita-jacobi-mpi-omp-cuda-cpu015-2p", 0);
	assert_int_equal(t->nranks, 2);
	assert_string_equal(t->comms[t->world].name, "MPI_COMM_WORLD");
	assert_int_equal(t->nthreads, 8);
	assert_int_equal(t->locs[t->ranks[1].loc].id, 1);
	assert_int_equal(t->nmsgs, 2000);
	uint32_t gpu = 0;
	for (uint32_t l = 0; l < t->nlocs; l++) gpu += t->locs[l].type == TC_LOC_GPU;
	assert_int_equal(gpu, 2);
	assert_true(strcmp(t->nodes[t->ranks[0].node].name, t->nodes[t->ranks[1].node].name) != 0);
	tc_trace_free(t);
}

/* Extra local files for locations not in the global definitions are ignored. */
static void test_extra_local_files(void **st)
{
	(void)st;
	struct tc_trace *t = load("casita-jacobi-mpi-omp-cuda-simple-2p", 0);
	assert_int_equal(t->nlocs, 6);
	assert_int_equal(t->nmsgs, 20);
	tc_trace_free(t);
}

/* Local .def files that hold nothing (libotf2 writes one per location) are
 * told from real ones: otfw's are empty, Score-P's are not, one changed byte
 * or a missing file is not empty; the archive loads the same with them skipped. */
static void test_empty_local_defs(void **st)
{
	(void)st;
	char dir[] = "/tmp/test_read_defs_XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct otfw *w = otfw_open(dir, 2, NULL, 1, 1000);
	assert_non_null(w);
	uint32_t main_ = otfw_region(w, "main"), send = otfw_region(w, "MPI_Send"), recv = otfw_region(w, "MPI_Recv");
	for (uint32_t r = 0; r < 2; r++) otfw_enter(w, r, 10, main_);
	otfw_enter(w, 0, 20, send); otfw_send(w, 0, 21, 1, OTFW_COMM_WORLD, 3, 8); otfw_leave(w, 0, 22, send);
	otfw_enter(w, 1, 20, recv); otfw_recv(w, 1, 30, 0, OTFW_COMM_WORLD, 3, 8); otfw_leave(w, 1, 31, recv);
	for (uint32_t r = 0; r < 2; r++) otfw_leave(w, r, 40, main_);
	assert_int_equal(otfw_close(w), 0);
	char *d0 = xasprintf("%s/traces/0.def", dir), *d1 = xasprintf("%s/traces/1.def", dir);
	assert_true(tc_otf2_def_file_empty(d0));
	assert_true(tc_otf2_def_file_empty(d1));
	char *err = NULL;
	struct tc_trace *t = tc_read_otf2(dir, &(struct tc_read_opts){ .threads = 1 }, &err);
	assert_non_null(t);
	assert_int_equal(t->nmsgs, 1);
	assert_int_equal(t->msgs[0].recv_time, 30);
	tc_trace_free(t);
	FILE *f = fopen(d1, "r+b");   /* one byte changed: not the empty file */
	assert_non_null(f);
	fseek(f, 5, SEEK_SET);
	fputc(0x07, f);
	fclose(f);
	assert_false(tc_otf2_def_file_empty(d1));
	assert_false(tc_otf2_def_file_empty("/tmp/test_read_defs_none/0.def"));
	char *real = tk_trace_path("tracer-stencil4d-32p");
	char *rd = xasprintf("%s/traces/0.def", real);
	assert_false(tc_otf2_def_file_empty(rd));
	free(rd);
	free(real);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(d0);
	free(d1);
}

/* Progress is reported and a false return cancels the load with a message. */
static bool stop_early(void *ctx, uint64_t done, uint64_t total)
{
	uint64_t *seen = ctx;
	*seen = total;
	return done < 1;
}

static void test_cancel(void **st)
{
	(void)st;
	uint64_t total = 0;
	struct tc_read_opts o = { .threads = 1, .progress = stop_early, .progress_ctx = &total };
	char *p = tk_trace_path("casita-cloverleaf-openacc-cuda-2p"), *err = NULL;
	struct tc_trace *t = tc_read_otf2(p, &o, &err);
	assert_null(t);
	assert_string_equal(err, "loading cancelled");
	assert_int_equal(total, 137954);
	free(err);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_threads_identical),
		cmocka_unit_test(test_subcomms),
		cmocka_unit_test(test_jacobi_mapping),
		cmocka_unit_test(test_extra_local_files),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_empty_local_defs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
