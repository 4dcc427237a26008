/* test_cache.c — the analysis cache (src/cache, docs/cache.md): a hand-built
 * trace written and opened again, every array and stored result equal; a
 * file with a bad magic, another format or version, another identity, cut at
 * several offsets or with a byte flipped in any section is refused with the
 * right reason; the stored wait states and profile equal, and refused when
 * they index out of the model; the identity's stale reasons; the checksum itself. */
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/cache/format.h"
#include "analysis_profile.h"
#include "analysis_span.h"
#include "analysis_steps.h"
#include "analysis_waitstate.h"
#include "cache.h"
#include "testkit.h"

#define IDENT "format\t1\ntest\tidentity\n"

/* 3 ranks (2 nodes): point-to-point, Isend + Waitall, a barrier, a counter, a warning. */
static struct tc_trace *build(void)
{
	struct tc_trace *t = tc_trace_new(1000, 5, 400);
	uint32_t nodes[3] = { 0, 0, 1 };
	tc_def_simple(t, 3, nodes, 2);
	uint32_t main_ = tc_def_region(t, "main", 0, 0, false), send = tc_def_region(t, "MPI_Send", 0, 0, true);
	uint32_t recv = tc_def_region(t, "MPI_Recv", 0, 0, true), isend = tc_def_region(t, "MPI_Isend", 0, 0, true);
	uint32_t wait = tc_def_region(t, "MPI_Waitall", 0, 0, true), bar = tc_def_region(t, "MPI_Barrier", 0, 0, true);
	uint32_t m = tc_def_metric(t, "PAPI_TOT_CYC", "cycles", TC_MM_ACCUMULATED, 0, TC_MV_UINT64);
	for (uint32_t r = 0; r < 3; r++) {
		tcb_enter(t, r, 0, main_);
		tcb_metric(t, r, 1, m, TC_MV_UINT64, (union tc_mvalue){ .u = 100 + r });
		if (r == 0) {
			tcb_enter(t, 0, 10, send); tcb_send(t, 0, 15, 1, 0, 7, 64); tcb_leave(t, 0, 20, send);
			tcb_enter(t, 0, 30, isend); tcb_isend(t, 0, 31, 2, 0, 9, 128, 55); tcb_leave(t, 0, 32, isend);
			tcb_enter(t, 0, 40, wait); tcb_isend_complete(t, 0, 45, 55); tcb_leave(t, 0, 46, wait);
		} else {
			tcb_enter(t, r, 5, recv); tcb_recv(t, r, 28 + r, 0, 0, r == 1 ? 7 : 9, r == 1 ? 64 : 128);
			tcb_leave(t, r, 35, recv);
		}
		tcb_enter(t, r, 50 + r, bar); tcb_coll_begin(t, r, 50 + r);
		tcb_coll_end(t, r, 60, 0 /* barrier */, 0, TC_NONE, 0, 0); tcb_leave(t, r, 61, bar);
		tcb_leave(t, r, 100, main_);
	}
	tc_trace_finish(t);
	tc_warn(t, "a warning kept: %d", 42);
	return t;
}

struct fixture {
	struct tc_trace *t;
	struct tc_steps *st;
	struct tc_span *span;
	struct tc_waitstates *ws;
	struct tc_profile *prof;
	struct tc_prof_table *per_loc, *per_rank;
	struct tc_rootcause *rc;
	char path[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->t = build();
	struct tc_steps_opts o;
	tc_steps_default_opts(&o);
	f->st = tc_steps_compute(f->t, &o);
	f->span = tc_span_compute(f->t, false);
	strcpy(f->path, "/tmp/tc-test-cache.XXXXXX");
	int fd = mkstemp(f->path);
	FILE *out = fdopen(fd, "w+");
	static const char blob[] = "blob bytes";
	struct tc_cache_blob b = { .name = "test.blob", .p = blob, .size = sizeof blob };
	f->ws = tc_waitstates_compute(f->t);
	f->prof = tc_profile_compute(f->t);
	f->per_loc = tc_profile_locations(f->t);
	f->per_rank = tc_profile_ranks(f->t, f->per_loc);
	f->rc = tc_rootcause_compute(f->t, f->span, NULL);
	struct tc_rc_results *rx = tc_rc_results_of(f->rc);
	struct tc_cache_results res = { .steps = f->st, .span = f->span, .blobs = &b, .nblobs = 1, .ws = f->ws,
					.waits = f->ws->w, .nwaits = f->ws->n, .profile = f->prof,
					.per_loc = f->per_loc, .per_rank = f->per_rank, .rc = rx };
	char *err = NULL;
	assert_true(tc_cache_write(out, f->t, &res, IDENT, &err));
	tc_rc_results_free(rx);
	fclose(out);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	unlink(f->path);
	tc_waitstates_free(f->ws);
	tc_profile_free(f->prof);
	tc_prof_table_free(f->per_loc), tc_prof_table_free(f->per_rank);
	tc_rootcause_free(f->rc);
	tc_span_free(f->span);
	tc_steps_free(f->st);
	tc_trace_free(f->t);
	free(f);
	return 0;
}

static enum tc_cache_status open_at(const char *path, enum tc_cache_verify v, char **why)
{
	struct tc_trace *t;
	struct tc_steps *st;
	struct tc_span *sp;
	*why = NULL;
	enum tc_cache_status rc = tc_cache_open(path, IDENT, "x.otf2", v, &t, &st, &sp, why);
	if (rc == TC_CACHE_OK) {
		tc_span_free(sp);
		tc_steps_free(st);
		tc_trace_free(t);
	}
	return rc;
}

#define SAME_ARRAY(a, b, n)                                                        \
	do {                                                                       \
		if (n) assert_memory_equal((a), (b), (size_t)(n) * sizeof *(a));   \
	} while (0)

static void same_model(const struct tc_trace *a, const struct tc_trace *b)
{
	assert_int_equal(a->res, b->res), assert_int_equal(a->t0, b->t0), assert_int_equal(a->length, b->length);
	assert_int_equal(a->tmin, b->tmin), assert_int_equal(a->tmax, b->tmax);
	assert_int_equal(a->ncalls, b->ncalls), assert_int_equal(a->msg_bytes, b->msg_bytes);
	assert_memory_equal(a->ev_count, b->ev_count, sizeof a->ev_count);
	assert_int_equal(a->world, b->world), assert_int_equal(a->nthreads, b->nthreads);
	assert_int_equal(a->nranks, b->nranks);
	for (uint32_t r = 0; r < a->nranks; r++) {
		const struct tc_rank *x = &a->ranks[r], *y = &b->ranks[r];
		assert_int_equal(x->ncalls, y->ncalls), assert_int_equal(x->nops, y->nops);
		assert_int_equal(x->first_time, y->first_time), assert_int_equal(x->last_time, y->last_time);
		SAME_ARRAY(x->calls, y->calls, x->ncalls);
		SAME_ARRAY(x->ops, y->ops, x->nops);
		SAME_ARRAY(x->send_msgs, y->send_msgs, x->nsend_msgs);
		SAME_ARRAY(x->recv_msgs, y->recv_msgs, x->nrecv_msgs);
		assert_ptr_equal(y->calls, b->locs[y->loc].calls);   /* the master's calls are its location's */
	}
	assert_int_equal(a->nlocs, b->nlocs);
	for (uint32_t i = 0; i < a->nlocs; i++) {
		const struct tc_loc *x = &a->locs[i], *y = &b->locs[i];
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->id, y->id), assert_int_equal(x->rank, y->rank), assert_int_equal(x->nsamples, y->nsamples);
		SAME_ARRAY(x->calls, y->calls, x->ncalls);
		SAME_ARRAY(x->samples, y->samples, x->nsamples);
		SAME_ARRAY(x->xfers, y->xfers, x->nxfers);
	}
	assert_int_equal(a->nregions, b->nregions);
	for (uint32_t i = 0; i < a->nregions; i++) {
		assert_string_equal(a->regions[i].name, b->regions[i].name);
		assert_int_equal(a->regions[i].kind, b->regions[i].kind);
	}
	for (uint32_t i = 0; i < a->nnodes; i++) assert_string_equal(a->nodes[i].name, b->nodes[i].name);
	assert_int_equal(a->ncomms, b->ncomms);
	for (uint32_t i = 0; i < a->ncomms; i++) {
		assert_string_equal(a->comms[i].name, b->comms[i].name);
		SAME_ARRAY(a->comms[i].members, b->comms[i].members, a->comms[i].size);
	}
	assert_int_equal(a->nmetrics, b->nmetrics);
	assert_string_equal(a->metrics[0].name, b->metrics[0].name);
	assert_string_equal(a->metrics[0].unit, b->metrics[0].unit);
	assert_int_equal(a->nmsgs, b->nmsgs), assert_int_equal(a->ncolls, b->ncolls);
	SAME_ARRAY(a->msgs, b->msgs, a->nmsgs);
	for (size_t c = 0; c < a->ncolls; c++) {   /* field by field: the original's padding is undefined */
		const struct tc_coll *x = &a->colls[c], *y = &b->colls[c];
		assert_true(x->begin == y->begin && x->end == y->end && x->comm == y->comm && x->root == y->root &&
			    x->first == y->first && x->n == y->n && x->op == y->op);
	}
	for (size_t c = 0; c < a->ncolls; c++)
		SAME_ARRAY(a->coll_members + a->colls[c].first, b->coll_members + b->colls[c].first, a->colls[c].n);
	assert_int_equal(a->warnings.n, b->warnings.n);
	for (size_t i = 0; i < a->warnings.n; i++) assert_string_equal(a->warnings.a[i], b->warnings.a[i]);
}

static void same_steps(const struct tc_steps *a, const struct tc_steps *b, uint32_t nranks, size_t nmsgs)
{
	assert_int_equal(a->ncevs, b->ncevs), assert_int_equal(a->npartitions, b->npartitions);
	assert_int_equal(a->max_step, b->max_step);
	assert_memory_equal(&a->opts, &b->opts, sizeof a->opts);
	SAME_ARRAY(a->cevs, b->cevs, a->ncevs);   /* doubles bitwise */
	SAME_ARRAY(a->rank_first, b->rank_first, nranks + 1);
	SAME_ARRAY(a->parts, b->parts, a->npartitions);
	SAME_ARRAY(a->steps, b->steps, a->max_step + 1);
	assert_int_equal(a->nslots, b->nslots);
	SAME_ARRAY(a->slots, b->slots, a->nslots);
	assert_int_equal(a->nwide, b->nwide);
	SAME_ARRAY(a->wide, b->wide, a->nwide);
	/* every metric of every block, from the stored baselines (bitwise) */
	for (uint32_t i = 0; i < a->ncevs; i++)
		for (int m = 0; m < TC_M_COUNT; m++)
			for (int agg = 0; agg < 2; agg++) {
				double x = tc_cev_metric(a, i, (enum tc_metric)m, agg), y = tc_cev_metric(b, i, (enum tc_metric)m, agg);
				assert_memory_equal(&x, &y, sizeof x);
			}
	SAME_ARRAY(a->msg_send_cev, b->msg_send_cev, nmsgs);
	SAME_ARRAY(a->msg_recv_cev, b->msg_recv_cev, nmsgs);
}

static void same_table(const struct tc_prof_table *a, const struct tc_prof_table *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct tc_prof_cell *x = &a->cells[i], *y = &b->cells[i];
		assert_true(x->region == y->region && x->who == y->who && x->calls == y->calls && x->excl == y->excl &&
			    x->incl == y->incl);
	}
}

/* The stored root causes put into the activities made again: the computed
 * result, every field (the path's ranks and excess made from the activities);
 * refused when they do not fit the activities. */
static void same_rc_stored(const struct fixture *f, const struct tc_trace *t, struct tc_rc_results *got)
{
	assert_non_null(got);
	assert_true(f->rc->nexcess > 0 && f->rc->npath > 0);   /* the fixture has excess and a path */
	struct tc_rootcause *rc = tc_rootcause_from(t, f->span, NULL, got);
	assert_non_null(rc);
	struct tc_rc_results *a = tc_rc_results_of(f->rc), *b = tc_rc_results_of(rc);
	assert_true(tk_same_rc_results(a, b));
	assert_int_equal(rc->nacts, f->rc->nacts);
	for (uint32_t i = 0; i < rc->nacts; i++) {
		assert_memory_equal(&rc->act_excess[i], &f->rc->act_excess[i], sizeof(float));
		assert_int_equal(rc->act_outlier[i], f->rc->act_outlier[i]);
	}
	tc_rc_results_free(a), tc_rc_results_free(b);
	uint32_t keep = got->ex_act[0];
	got->ex_act[0] = (uint32_t)rc->nacts;   /* an index past the activities (another model's): not put in */
	assert_null(tc_rootcause_from(t, f->span, NULL, got));
	got->ex_act[0] = keep;
	tc_rootcause_free(rc);
}

/* The stored wait states and profile: every field, doubles bitwise. */
static void same_stored(const struct fixture *f, const struct tc_trace *t)
{
	struct tc_cache_stored got;
	assert_true(tc_cache_stored(t, &got));
	struct tc_waitstates *ws = got.ws;
	struct tc_profile *p = got.profile;
	struct tc_prof_table *pl = got.per_loc, *pr = got.per_rank;
	same_rc_stored(f, t, got.rc);
	tc_rc_results_free(got.rc);
	assert_non_null(ws), assert_non_null(p), assert_non_null(pl), assert_non_null(pr);
	assert_true(f->ws->n >= 2);   /* the late receive and the barrier's late arrivers */
	assert_int_equal(ws->n, f->ws->n);
	for (size_t i = 0; i < ws->n; i++) {
		const struct tc_wait *x = &f->ws->w[i], *y = &ws->w[i];
		assert_memory_equal(&x->seconds, &y->seconds, sizeof x->seconds);
		assert_true(x->rank == y->rank && x->call == y->call && x->cause == y->cause &&
			    x->cause_call == y->cause_call && x->kind == y->kind);
	}
	assert_memory_equal(ws->total, f->ws->total, sizeof ws->total);
	assert_memory_equal(ws->waited, f->ws->waited, t->nranks * sizeof(double));
	assert_memory_equal(ws->caused, f->ws->caused, t->nranks * sizeof(double));
	assert_memory_equal(&ws->mpi_time, &f->ws->mpi_time, sizeof(double));
	assert_memory_equal(&ws->run_time, &f->ws->run_time, sizeof(double));
	assert_int_equal(ws->clamped, f->ws->clamped);
	assert_null(ws->at);
	assert_int_equal(p->n, f->prof->n);
	assert_memory_equal(&p->total, &f->prof->total, sizeof(double));
	assert_memory_equal(&p->mpi, &f->prof->mpi, sizeof(double));
	assert_memory_equal(p->hist_count, f->prof->hist_count, sizeof p->hist_count);
	assert_memory_equal(p->hist_bytes, f->prof->hist_bytes, sizeof p->hist_bytes);
	for (uint32_t i = 0; i < p->n; i++) {
		const struct tc_prof_region *x = &f->prof->regions[i], *y = &p->regions[i];
		assert_true(x->region == y->region && x->calls == y->calls && x->rank_max == y->rank_max &&
			    x->nranks == y->nranks);
		assert_true(!memcmp(&x->incl, &y->incl, 8) && !memcmp(&x->excl, &y->excl, 8) &&
			    !memcmp(&x->excl_min, &y->excl_min, 8) && !memcmp(&x->excl_max, &y->excl_max, 8) &&
			    !memcmp(&x->imbalance, &y->imbalance, 8));
	}
	same_table(f->per_loc, pl);
	same_table(f->per_rank, pr);
	tc_waitstates_free(ws), tc_profile_free(p), tc_prof_table_free(pl), tc_prof_table_free(pr);
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct tc_trace *t;
	struct tc_steps *st;
	struct tc_span *sp;
	char *why = NULL;
	assert_int_equal(tc_cache_open(f->path, IDENT, "x.otf2", TC_VERIFY_ALL, &t, &st, &sp, &why), TC_CACHE_OK);
	assert_null(why);
	assert_non_null(t->mapped.p);
	assert_string_equal(t->anchor, "x.otf2");
	assert_true(f->t->nmsgs == 2 && f->t->ncolls == 1 && f->t->warnings.n >= 1);
	same_model(f->t, t);
	assert_non_null(st);
	assert_true(st->mapped && st->t == t && st->ncevs > 0);
	same_steps(f->st, st, t->nranks, t->nmsgs);
	assert_non_null(sp);
	assert_int_equal(sp->t0, f->span->t0), assert_int_equal(sp->t1, f->span->t1);
	assert_int_equal(sp->source, f->span->source);
	assert_memory_equal(sp->rank_t0, f->span->rank_t0, 3 * sizeof(uint64_t));
	assert_memory_equal(sp->rank_t1, f->span->rank_t1, 3 * sizeof(uint64_t));
	size_t n = 0;
	const char *blob = tc_cache_blob(t, "test.blob", &n);
	assert_non_null(blob);
	assert_int_equal(n, sizeof "blob bytes");
	assert_string_equal(blob, "blob bytes");
	assert_null(tc_cache_blob(t, "other", &n));
	assert_true(tc_cache_verify_rest(t, &why));
	same_stored(f, t);
	/* the steps recomputed on the opened model are the stored ones */
	struct tc_steps *again = tc_steps_compute(t, &f->st->opts);
	same_steps(again, st, t->nranks, t->nmsgs);
	tc_steps_free(again);
	tc_span_free(sp);
	tc_steps_free(st);
	tc_trace_free(t);
}

/* A copy of the file with fn applied to its bytes; the copy's path. */
static char *mutated(const char *path, void (*fn)(char *buf, size_t *len, size_t arg), size_t arg)
{
	FILE *in = fopen(path, "rb");
	fseek(in, 0, SEEK_END);
	size_t len = (size_t)ftell(in);
	rewind(in);
	char *buf = malloc(len + 1);
	assert_int_equal(fread(buf, 1, len, in), len);
	fclose(in);
	fn(buf, &len, arg);
	char *out = xasprintf("%s.m", path);
	FILE *o = fopen(out, "wb");
	fwrite(buf, 1, len, o);
	fclose(o);
	free(buf);
	return out;
}

static void cut(char *buf, size_t *len, size_t at) { (void)buf; if (at < *len) *len = at; }
static void flip(char *buf, size_t *len, size_t at) { if (at < *len) buf[at] ^= 0x20; }

/* The status of the file changed by fn(arg), and its reason in *why. */
static enum tc_cache_status try(const char *path, void (*fn)(char *, size_t *, size_t), size_t arg, char **why)
{
	char *m = mutated(path, fn, arg);
	enum tc_cache_status rc = open_at(m, TC_VERIFY_ALL, why);
	unlink(m);
	free(m);
	return rc;
}

static struct tc_cache_header header_of(const char *path)
{
	struct tc_cache_header h;
	FILE *in = fopen(path, "rb");
	assert_int_equal(fread(&h, sizeof h, 1, in), 1);
	fclose(in);
	return h;
}

static void test_truncated(void **state)
{
	struct fixture *f = *state;
	struct tc_cache_header h = header_of(f->path);
	size_t cuts[] = { 0, 7, 12, 100, sizeof h - 1, sizeof h, h.sec[CS_CALLS].off + 3, h.file_size / 2, h.file_size - 1 };
	for (size_t i = 0; i < TC_NELEM(cuts); i++) {
		char *why = NULL;
		assert_int_equal(try(f->path, cut, cuts[i], &why), TC_CACHE_CORRUPT);
		assert_non_null(why);
		free(why);
	}
	char *why = NULL;
	assert_int_equal(try(f->path, cut, sizeof h + 64, &why), TC_CACHE_CORRUPT);
	assert_non_null(strstr(why, "truncated"));
	free(why);
}

/* A byte flipped in the middle of each section that has bytes: that section named. */
static void test_flipped_each_section(void **state)
{
	struct fixture *f = *state;
	struct tc_cache_header h = header_of(f->path);
	int tried = 0;
	for (int s = 0; s < CS_COUNT; s++) {
		if (!h.sec[s].size) continue;
		char *why = NULL, *want = xasprintf("section %s, chunk 0: checksum mismatch", tc_cache_sec_names[s]);
		assert_int_equal(try(f->path, flip, h.sec[s].off + h.sec[s].size / 2, &why), TC_CACHE_CORRUPT);
		assert_string_equal(why, want);
		free(why);
		free(want);
		tried++;
	}
	assert_true(tried >= CS_COUNT - 3);   /* samples/transfers-like sections may be empty */
	char *why = NULL;
	assert_int_equal(try(f->path, flip, offsetof(struct tc_cache_header, file_size), &why), TC_CACHE_CORRUPT);
	assert_string_equal(why, "header checksum mismatch");
	free(why);
	assert_int_equal(try(f->path, flip, h.sums_off + 3, &why), TC_CACHE_CORRUPT);   /* the checksum table */
	assert_string_equal(why, "checksum table mismatch");
	free(why);
}

/* With TC_VERIFY_SMALL a flipped byte in a large section is found by tc_cache_verify_rest. */
static void test_verify_rest(void **state)
{
	struct fixture *f = *state;
	struct tc_cache_header h = header_of(f->path);
	char *m = mutated(f->path, flip, h.sec[CS_MSGS].off + 1);
	struct tc_trace *t;
	struct tc_steps *st;
	struct tc_span *sp;
	char *why = NULL;
	assert_int_equal(tc_cache_open(m, IDENT, "x", TC_VERIFY_SMALL, &t, &st, &sp, &why), TC_CACHE_OK);
	assert_false(tc_cache_verify_rest(t, &why));
	assert_string_equal(why, "section messages, chunk 0: checksum mismatch");
	free(why);
	tc_span_free(sp);
	tc_steps_free(st);
	tc_trace_free(t);
	assert_int_equal(open_at(m, TC_VERIFY_ALL, &why), TC_CACHE_CORRUPT);
	free(why);
	unlink(m);
	free(m);
}

/* The first stored wait's call (v = 0) or its rank's count (v = 1) out of
 * range, or the first path piece's kind (v = 2) or the root causes' rank
 * count (v = 3), the checksums made right again: only tc_cache_stored's own
 * checks can tell. */
static void bad_wait(char *buf, size_t *len, size_t v)
{
	(void)len;
	struct tc_cache_header *h = (void *)buf;
	int sec = v < 2 ? CS_WAITS : CS_RCAUSE;
	const struct tc_cache_section *s = &h->sec[sec];
	uint32_t huge = 1000000;
	struct tc_cache_rc rc;
	memcpy(&rc, buf + s->off, sizeof rc);
	if (v == 0) memcpy(buf + s->off + TC_WAITS_HEAD(3), &huge, 4);   /* the first record's call */
	else if (v == 1) memcpy(buf + s->off, &huge, 4);                 /* rank 0's count */
	else if (v == 2) buf[s->off + s->size - rc.npath * TC_PIECE_REC + 4] = 99;   /* a kind */
	else memcpy(buf + s->off, &huge, 4);                             /* nranks */
	uint64_t *sums = (void *)(buf + h->sums_off);
	sums[s->chunk0] = tc_cache_chunk_sum(buf + s->off, (size_t)s->size, sec, 0);
	h->sums_sum = tc_hash64(sums, 8 * h->nchunks, CS_COUNT);
	h->sum = tc_hash64(h, offsetof(struct tc_cache_header, sum), 0);
}

/* A stored result that passes every checksum but indexes out of the model is refused, nothing returned. */
static void test_stored_bounds(void **state)
{
	struct fixture *f = *state;
	for (size_t v = 0; v < 4; v++) {
		char *m = mutated(f->path, bad_wait, v), *why = NULL;
		struct tc_trace *t;
		struct tc_steps *st;
		struct tc_span *sp;
		assert_int_equal(tc_cache_open(m, IDENT, "x", TC_VERIFY_ALL, &t, &st, &sp, &why), TC_CACHE_OK);
		struct tc_cache_stored got = { (void *)1, (void *)1, (void *)1, (void *)1, (void *)1 };
		assert_false(tc_cache_stored(t, &got));
		assert_true(!got.ws && !got.profile && !got.per_loc && !got.per_rank && !got.rc);
		tc_span_free(sp), tc_steps_free(st), tc_trace_free(t);
		unlink(m);
		free(m);
	}
}

/* Header fields rewritten with a valid header checksum. */
static void set_format(char *buf, size_t *len, size_t v)
{
	struct tc_cache_header *h = (void *)buf;
	(void)len;
	if (v == 0) memcpy(h->magic, "NOTCACHE", 8);
	else if (v == 1) h->format = TC_CACHE_FORMAT - 1;   /* a cache of the previous format */
	else if (v == 2) memcpy(h->version, "0.0.9", 6);
	else if (v == 3) h->layout ^= 1;
	h->sum = tc_hash64(h, offsetof(struct tc_cache_header, sum), 0);
}

static void test_header_rejections(void **state)
{
	struct fixture *f = *state;
	static const struct { enum tc_cache_status rc; const char *why; } want[] = {
		{ TC_CACHE_CORRUPT, "not a tracecomb cache file" },
		{ TC_CACHE_STALE, "cache format 5, this tracecomb reads 6" },
		{ TC_CACHE_STALE, "written by tracecomb 0.0.9, this is " TC_VERSION },
		{ TC_CACHE_STALE, "written by a build with other struct layouts" },
	};
	for (size_t v = 0; v < TC_NELEM(want); v++) {
		char *why = NULL;
		assert_int_equal(try(f->path, set_format, v, &why), want[v].rc);
		assert_string_equal(why, want[v].why);
		free(why);
	}
	char *why = NULL;
	struct tc_trace *t;
	struct tc_steps *st;
	struct tc_span *sp;
	assert_int_equal(tc_cache_open(f->path, "format\t1\ntest\tother\n", "x", TC_VERIFY_ALL, &t, &st, &sp, &why),
			 TC_CACHE_STALE);
	assert_string_equal(why, "test changed");
	free(why);
	assert_int_equal(open_at("/nonexistent/cache.tcc", TC_VERIFY_ALL, &why), TC_CACHE_ABSENT);
	assert_null(why);
}

static void write_file(const char *path, const char *s)
{
	FILE *o = fopen(path, "w");
	fputs(s, o);
	fclose(o);
}

/* A fake archive dir/traces.otf2, traces.def, traces/{0.def,0.evt,1.evt}: the identity's reasons. */
static void test_identity_reasons(void **state)
{
	(void)state;
	char dir[] = "/tmp/tc-test-ident.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *anchor = xasprintf("%s/traces.otf2", dir), *sub = xasprintf("%s/traces", dir);
	char *evt0 = xasprintf("%s/0.evt", sub), *evt1 = xasprintf("%s/1.evt", sub), *def0 = xasprintf("%s/0.def", sub);
	char *gdef = xasprintf("%s/traces.def", dir);
	mkdir(sub, 0700);
	write_file(anchor, "a"), write_file(gdef, "g"), write_file(def0, "d"), write_file(evt0, "e0"), write_file(evt1, "e1");
	char *err = NULL;
	const char *opts1[] = { "caller_merge=off", "limit=5" }, *opts2[] = { "caller_merge=on" };
	char *a = tc_cache_identity(anchor, opts1, 2, &err);
	assert_non_null(a);
	assert_non_null(strstr(a, "file traces/0.evt\t2 "));
	assert_non_null(strstr(a, "opts\tcaller_merge=off\n"));   /* limit changes no result */
	const char *lim[] = { "caller_merge=off", "limit=9" };
	char *same = tc_cache_identity(anchor, lim, 2, &err);
	assert_string_equal(a, same);
	char *o = tc_cache_identity(anchor, opts2, 1, &err), *why = tc_cache_ident_diff(a, o);
	assert_string_equal(why, "other options: cache caller_merge=off, now caller_merge=on");
	free(why), free(o);
	write_file(evt0, "e0 grown");
	char *b = tc_cache_identity(anchor, opts1, 2, &err);
	why = tc_cache_ident_diff(a, b);
	assert_string_equal(why, "traces/0.evt changed");
	free(why);
	unlink(evt1);
	char *c = tc_cache_identity(anchor, opts1, 2, &err);
	why = tc_cache_ident_diff(b, c);
	assert_string_equal(why, "traces/1.evt removed");
	free(why);
	why = tc_cache_ident_diff(c, b);
	assert_string_equal(why, "traces/1.evt added");
	free(why);
	char *other_dir = xasprintf("%s/other", dir), *other = xasprintf("%s/traces.otf2", other_dir);
	mkdir(other_dir, 0700);
	write_file(other, "a");
	char real[PATH_MAX];
	assert_non_null(realpath(anchor, real));
	char *oi = tc_cache_identity(other, opts1, 2, &err), *want = xasprintf("made for another archive, %s", real);
	why = tc_cache_ident_diff(c, oi);
	assert_string_equal(why, want);
	free(why), free(oi), free(want);
	unlink(other), rmdir(other_dir), free(other), free(other_dir);
	char *dirp = NULL, *p = tc_cache_default_path(anchor, &dirp, &err);
	assert_non_null(p);
	assert_null(strstr(p, dir));   /* never the trace directory (unless XDG_CACHE_HOME says so) */
	assert_non_null(strstr(p, ".tcc"));
	free(p), free(dirp);
	unlink(evt0), unlink(def0), unlink(gdef), unlink(anchor), rmdir(sub), rmdir(dir);
	free(a), free(same), free(b), free(c), free(anchor), free(sub), free(evt0), free(evt1), free(def0), free(gdef);
}

/* The chunked checksums: pinned values of a 2.5 MiB section's chunks read
 * back from a file, and a flipped byte that changes exactly its chunk's. */
static void test_chunks(void **state)
{
	(void)state;
	size_t n = 5 * TC_CACHE_CHUNK / 2;
	unsigned char *buf = xmalloc(n);
	for (size_t i = 0; i < n; i++) buf[i] = (unsigned char)(i * 131 + (i >> 11));
	struct tc_cache_header h;
	memset(&h, 0, sizeof h);
	for (int s = 0; s < CS_COUNT; s++) h.sec[s].off = 4096;
	h.sec[CS_CALLS].size = n;
	tc_cache_plan_chunks(&h, 4096 + n);
	assert_int_equal(h.nchunks, 3);
	assert_int_equal(h.sec[CS_CALLS].chunk0, 0);
	assert_int_equal(h.sums_off, 4096 + n);
	assert_int_equal(h.file_size, 4096 + n + 24);
	char path[] = "/tmp/tc-chunks-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(tc_cache_pwrite(fd, buf, n, 4096));
	uint64_t sums[3], again[3];
	assert_true(tc_cache_sum_range(fd, &h, 0, 3, sums));
	assert_true(sums[0] == tc_cache_chunk_sum(buf, TC_CACHE_CHUNK, CS_CALLS, 0));
	assert_true(sums[2] == tc_cache_chunk_sum(buf + 2 * TC_CACHE_CHUNK, TC_CACHE_CHUNK / 2, CS_CALLS, 2));
	assert_true(sums[0] == 0xd9f81c529ab80862ULL && sums[1] == 0x2b1c22d0d0373cc4ULL && sums[2] == 0x3cdbc4caefdf23d0ULL);
	assert_true(tc_cache_chunk_sum(buf, 100, CS_CALLS, 0) != tc_cache_chunk_sum(buf, 100, CS_CALLS, 1));
	assert_true(tc_cache_chunk_sum(buf, 100, CS_CALLS, 0) != tc_cache_chunk_sum(buf, 100, CS_OPS, 0));
	/* two readers of one range each give the same table */
	memset(again, 0, sizeof again);
	assert_true(tc_cache_sum_range(fd, &h, 0, 1, again) && tc_cache_sum_range(fd, &h, 1, 3, again));
	assert_memory_equal(sums, again, sizeof sums);
	buf[TC_CACHE_CHUNK + 77] ^= 4;   /* in chunk 1 */
	assert_true(tc_cache_pwrite(fd, buf + TC_CACHE_CHUNK + 77, 1, 4096 + TC_CACHE_CHUNK + 77));
	assert_true(tc_cache_sum_range(fd, &h, 0, 3, again));
	assert_true(again[0] == sums[0] && again[1] != sums[1] && again[2] == sums[2]);
	close(fd);
	unlink(path);
	free(buf);
}

static void test_hash(void **state)
{
	(void)state;
	/* the values of the algorithm (a change of them is a new TC_CACHE_FORMAT): the
	 * same from -O0, -O2, AVX2 and AVX-512 builds (docs/cache.md, "Checksums") */
	assert_true(tc_hash64("", 0, 0) == 0xb2684cf17e22417fULL);
	assert_true(tc_hash64("abc", 3, 0) == 0x5eef49e5d53ffd4dULL);
	char v[300];
	for (int i = 0; i < 300; i++) v[i] = (char)i;
	assert_true(tc_hash64(v, 300, 7) == 0x5fcaba0507651e25ULL);
	assert_true(tc_hash64(v, 300, 8) != 0x5fcaba0507651e25ULL);
	char buf[5000];
	for (size_t i = 0; i < sizeof buf; i++) buf[i] = (char)(i * 131 + 7);
	uint64_t whole = tc_hash64(buf, sizeof buf, 3);
	struct tc_hash h;
	tc_hash_init(&h, 3);
	for (size_t at = 0, k = 1; at < sizeof buf; at += k, k = k * 3 % 61 + 1)
		tc_hash_add(&h, buf + at, TC_MIN(k, sizeof buf - at));
	assert_true(tc_hash_end(&h) == whole);
	/* every single bit flipped, at every 7th byte across the stripes and the tail, is seen */
	for (size_t at = 0; at < sizeof buf; at += 7)
		for (int bit = 0; bit < 8; bit++) {
			buf[at] ^= (char)(1 << bit);
			assert_true(tc_hash64(buf, sizeof buf, 3) != whole);
			buf[at] ^= (char)(1 << bit);
		}
	assert_true(tc_hash64(buf, sizeof buf - 1, 3) != whole);   /* a shorter input with a zero tail */
	buf[sizeof buf - 1] = 0;
	assert_true(tc_hash64(buf, sizeof buf, 3) != tc_hash64(buf, sizeof buf - 1, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flipped_each_section, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_rest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_rejections, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stored_bounds, setup, teardown),
		cmocka_unit_test(test_identity_reasons),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
