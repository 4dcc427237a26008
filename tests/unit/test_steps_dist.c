/* test_steps_dist.c — what tracecomb-mpi prep -o stores beside the model,
 * computed over parts without MPI (P = 1..4 threads, tests/support/
 * distkit.h): the application span (tc_span_dist, on every process) and
 * the logical steps (analysis_steps_dist.h: over the parts, and with the
 * leap merge from the skeleton gathered to process 0) equal the serial
 * ones field for field, every
 * double as bits, and as a cache file stores them, on the hand-built trace (non-blocking messages, sends
 * nobody receives, a receive without a send, a clock violation, a
 * sub-communicator, COMM_SELF and incomplete collectives), with the
 * default options and each other one but the caller merge, whole and in
 * the two halves tracecomb-mpi runs with the part's events dropped between
 * them (analysis_steps_dist.h); over the bound,
 * and with the caller merge, nothing is gathered and every process knows
 * it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis_span.h"
#include "analysis_steps_dist.h"
#include "../../src/cache/format.h"
#include "cache.h"
#include "distkit.h"
#include "lsum_parts.h"

static void same_span(const struct tc_span *a, const struct tc_span *b, uint32_t nranks)
{
	assert_int_equal(a->t0, b->t0);
	assert_int_equal(a->t1, b->t1);
	assert_int_equal(a->source, b->source);
	assert_int_equal(a->have_init, b->have_init);
	assert_int_equal(a->have_finalize, b->have_finalize);
	assert_memory_equal(&a->init_s, &b->init_s, sizeof a->init_s);
	assert_memory_equal(&a->finalize_s, &b->finalize_s, sizeof a->finalize_s);
	assert_memory_equal(a->rank_t0, b->rank_t0, nranks * sizeof *a->rank_t0);
	assert_memory_equal(a->rank_t1, b->rank_t1, nranks * sizeof *a->rank_t1);
}

static void same_steps(const struct tc_steps *a, const struct tc_steps *b, uint32_t nranks, size_t nmsgs)
{
	assert_non_null(b);
	assert_int_equal(a->ncevs, b->ncevs);
	assert_memory_equal(a->cevs, b->cevs, a->ncevs * sizeof *a->cevs);   /* no padding: bits */
	assert_memory_equal(a->rank_first, b->rank_first, (nranks + 1) * sizeof *a->rank_first);
	assert_int_equal(a->npartitions, b->npartitions);
	for (uint32_t k = 0; k < a->npartitions; k++) {
		const struct tc_partition *x = &a->parts[k], *y = &b->parts[k];
		assert_int_equal(x->first_step, y->first_step);
		assert_int_equal(x->last_step, y->last_step);
		assert_int_equal(x->ncevs, y->ncevs);
		assert_int_equal(x->nranks, y->nranks);
		assert_int_equal(x->enter, y->enter);
		assert_int_equal(x->leave, y->leave);
		assert_int_equal(x->leap, y->leap);
	}
	assert_int_equal(a->max_step, b->max_step);
	for (uint32_t k = 0; k <= a->max_step; k++) {
		const struct tc_step_sum *x = &a->steps[k], *y = &b->steps[k];
		assert_int_equal(x->enter_min, y->enter_min);
		assert_int_equal(x->leave_max, y->leave_max);
		assert_int_equal(x->ncevs, y->ncevs);
		assert_memory_equal(&x->lateness_max, &y->lateness_max, 6 * sizeof(double));
	}
	assert_memory_equal(a->msg_send_cev, b->msg_send_cev, nmsgs * sizeof *a->msg_send_cev);
	assert_memory_equal(a->msg_recv_cev, b->msg_recv_cev, nmsgs * sizeof *a->msg_recv_cev);
}

/* The cache file of model t with steps st (nothing else): the steps as the
 * file stores them, every field of every array (padding zeroed). */
static char *cache_bytes(const struct tc_trace *t, const struct tc_steps *st, long *n)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	struct tc_cache_results res = { .steps = st };
	char *err = NULL;
	assert_true(tc_cache_write(f, t, &res, "identity", &err));
	*n = ftell(f);
	char *b = xmalloc((size_t)*n + 1);
	rewind(f);
	assert_int_equal(fread(b, 1, (size_t)*n, f), (size_t)*n);
	fclose(f);
	return b;
}

/* The same file with the serial steps and with the gathered ones. */
static void same_file(const struct tc_trace *t, const struct tc_steps *a, const struct tc_steps *b)
{
	long na, nb;
	char *x = cache_bytes(t, a, &na), *y = cache_bytes(t, b, &nb);
	assert_int_equal(na, nb);
	assert_memory_equal(x, y, (size_t)na);
	free(x);
	free(y);
}

struct want {
	struct tc_trace *t;
	struct tc_span *span;
	struct tc_steps *steps;
	const struct tc_steps_opts *o;
	uint64_t bound;
	bool halves;             /* tc_steps_dist_pack, the part dropped, tc_steps_dist_gather */
	struct tc_steps_dist g;
	int fd;                  /* halves: the file every process writes its part and slices into */
};

/* The rest of the shared file, as tracecomb-mpi writes it (src/mpi/results.c):
 * every process its slices of the steps' per-event arrays and of the
 * lateness summary, process 0 the rest (the summary's blob with holes); or,
 * from the skeleton, process 0 the whole steps and summary. */
static void write_slices(struct dk_proc *x, struct tc_cache_wpart *c, struct tc_steps_slice *sl)
{
	struct tc_cache_piece pieces[8];
	size_t np = tc_cache_steps_pieces(sl, pieces);
	struct lsum_parts lp = { 0 };
	struct strbuf whole = { 0 };
	struct tc_cache_blob b = { .name = LSUM_CACHE_BLOB };
	if (!sl->whole) {
		lsum_pack_parts(sl, &x->d, x->t->nranks, true, &lp);
		for (int k = 0; k < 3; k++) pieces[np++] = lp.pieces[k];
		b.p = lp.blob.s, b.size = lp.size, b.holes = lp.holes, b.nholes = 3;
	} else if (sl->s0) {
		struct tc_lsum *sum = lsum_build(sl->s0, TC_M_LATENESS, true);
		lsum_pack(sum, &whole);
		lsum_free(sum);
		b.p = whole.s, b.size = whole.len;
	}
	struct tc_cache_results res = { .steps = sl->s0, .blobs = &b, .nblobs = sl->s0 ? 1 : 0, .pieces = pieces,
					.npieces = np };
	char *err = NULL;
	assert_true(tc_cache_write_end(c, &res, &err));
	lsum_parts_free(&lp);
	sb_free(&whole);
}

/* The serial file of the same steps and summary equals the one the
 * processes wrote together but for the load times (CS_TRACE) and the
 * checksums covering them. */
static void same_written(const struct tc_trace *t, const struct tc_steps *st, int fd)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	struct tc_lsum *sum = lsum_build(st, TC_M_LATENESS, true);
	struct strbuf blob = { 0 };
	lsum_pack(sum, &blob);
	lsum_free(sum);
	struct tc_cache_blob b = { .name = LSUM_CACHE_BLOB, .p = blob.s, .size = blob.len };
	struct tc_cache_results res = { .steps = st, .blobs = &b, .nblobs = 1 };
	char *err = NULL;
	assert_true(tc_cache_write(f, t, &res, "identity", &err));
	struct stat sa, sc;
	assert_int_equal(fstat(fileno(f), &sa), 0);
	assert_int_equal(fstat(fd, &sc), 0);
	assert_int_equal(sa.st_size, sc.st_size);
	size_t n = (size_t)sa.st_size;
	char *a = xmalloc(n + 1), *c = xmalloc(n + 1);
	assert_int_equal(pread(fileno(f), a, n, 0), (ssize_t)n);
	assert_int_equal(pread(fd, c, n, 0), (ssize_t)n);
	struct tc_cache_header h;
	memcpy(&h, a, sizeof h);
	for (int sec = 0; sec < CS_COUNT; sec++) {
		if (sec == CS_TRACE) continue;
		assert_true(h.sec[sec].off + h.sec[sec].size <= n);
		assert_memory_equal(a + h.sec[sec].off, c + h.sec[sec].off, h.sec[sec].size);
	}
	assert_true(h.sec[CS_STEPS].size > 0 && h.sec[CS_CEVS].size > 0 && h.sec[CS_BLOBS].size > 0);
	free(a), free(c);
	sb_free(&blob);
	fclose(f);
}

static void dist_proc(struct dk_proc *x)
{
	struct want *w = x->arg;
	dk_finish(x);
	struct tc_span *sp = tc_span_dist(&x->part, &x->d, false);
	same_span(w->span, sp, w->t->nranks);   /* on every process */
	tc_span_free(sp);
	struct tc_steps *st;
	if (w->halves) {   /* as tracecomb-mpi: the part's events dropped between the halves */
		struct tc_skel *k = tc_steps_dist_pack(&x->part, &x->d, w->o, w->bound, &w->g);
		struct tc_cache_wpart *c = tc_cache_write_begin(w->fd, &x->part, &x->d, "identity");
		tc_part_drop_events(&x->part);
		assert_null(x->t->ranks[x->part.lo].ops);
		struct tc_steps_slice sl;
		tc_steps_dist_gather(&x->part, &x->d, w->o, k, &w->g, &sl);
		write_slices(x, c, &sl);
		st = tc_steps_slice_whole(&sl, &x->d);
	} else {
		st = tc_steps_dist(&x->part, &x->d, w->o, w->bound, &w->g);
	}
	if (x->p == 0 && w->g.stored) {
		same_steps(w->steps, st, w->t->nranks, w->t->nmsgs);
		same_file(w->t, w->steps, st);
	} else {
		assert_null(st);
	}
	assert_int_equal(w->g.ops + w->g.msgs > 0, 1);
	tc_steps_dist_free(st, &w->g);
	tc_part_release(&x->part);
	tc_trace_free(x->t);
}

static void run(struct tc_trace *t, struct tc_span *span, struct tc_steps *steps, const struct tc_steps_opts *o,
		uint64_t bound, bool stored)
{
	for (int P = 1; P <= 2 * DK_MAXP; P++) {   /* P and P - DK_MAXP: in halves */
		int np = P > DK_MAXP ? P - DK_MAXP : P;
		struct want w[DK_MAXP];
		void *arg[DK_MAXP];
		for (int p = 0; p < np; p++) {
			w[p] = (struct want){ t, span, steps, o, bound, P > DK_MAXP, { 0 }, -1 };
			arg[p] = &w[p];
		}
		FILE *f = tmpfile();
		assert_non_null(f);
		for (int p = 0; p < np; p++) w[p].fd = fileno(f);
		dk_run(np, dist_proc, arg);
		if (P > DK_MAXP && stored) same_written(t, steps, fileno(f));
		fclose(f);
		for (int p = 0; p < np; p++) {
			assert_int_equal(w[p].g.stored, stored);
			assert_int_equal(w[p].g.need, w[0].g.need);
			assert_int_equal(w[p].g.msgs, t->nmsgs);
			assert_int_equal(w[p].g.colls, t->ncolls);
		}
	}
}

static void test_dist_equals_serial(void **state)
{
	(void)state;
	struct tc_trace *t = dk_trace(0, DK_NR, true);
	tc_trace_finish(t);
	struct tc_span *span = tc_span_compute(t, false);
	for (int k = 0; k < 6; k++) {   /* the defaults, then one option changed each time */
		struct tc_steps_opts o;
		tc_steps_default_opts(&o);
		bool *flip[] = { NULL, &o.lamport, &o.leap_merge, &o.coalesce_isends, &o.waitall_merge, &o.caller_merge };
		if (flip[k]) *flip[k] = !*flip[k];
		struct tc_steps *steps = tc_steps_compute(t, &o);
		assert_true(steps->ncevs > 0 && t->nmsgs > 0 && t->ncolls > 0);
		/* every rank's two Isends in a row are one cev, the two apart are not
		 * (the skeleton keeps that with TC_CALL_APART, not filler calls) */
		uint32_t coalesced = 0;
		for (uint32_t i = 0; i < steps->ncevs; i++) coalesced += steps->cevs[i].nops == 2;
		assert_int_equal(coalesced, o.coalesce_isends ? DK_NR : 0);
		run(t, span, steps, &o, TC_SKEL_BOUND_DEFAULT, !o.caller_merge);
		if (k == 0) run(t, span, steps, &o, 0, false);   /* over the bound: nothing gathered */
		tc_steps_free(steps);
	}
	tc_span_free(span);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dist_equals_serial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
