/* steps_dist.c — the logical steps of a distributed model
 * (analysis_steps_dist.h, docs/scale.md "The logical steps in the cache"):
 * the steps over parts' two halves (steps_parts.c) called by default; with
 * the leap merge the communication skeleton gathered to process 0 within a
 * bound, rebuilt there as a model that the serial steps code reads exactly
 * as it reads the whole one, and tc_steps_compute run on it (any options
 * but the caller merge, which reads every call).
 *
 * The skeleton model of a rank holds its ops as they are (their message ids
 * and collective instances are global already) and one call per op with the
 * fields the steps read (enter, leave, region, parent: the parent is only
 * compared between two ops' calls, so the serial index is kept).  The one
 * other thing read from calls is whether two consecutive ops' calls are
 * consecutive (Isends coalesce only then): an op's call that did not follow
 * the previous op's serially has TC_CALL_APART (until session 15 a filler
 * call sat between them: 32 bytes for most ops); call 0 is a filler (op
 * TC_NONE), the call of a collective member whose call is no op.  Messages
 * carry only send_done, post_time and flags: the skeleton model has no
 * struct tc_msg array (72 bytes a message), the steps read the gathered
 * fields (24 bytes, tc_steps_compute_msgs); instances first and n; members
 * rank and call. */
#include <stdlib.h>
#include <string.h>

#include "analysis_steps_dist.h"
#include "replay_internal.h"
#include "steps_internal.h"
#include "steps_skel.h"

struct skel_coll { uint32_t first, n; };
struct skel_member { uint64_t at; uint32_t rank, op; };

/* What the gather brought to process 0 (arrays NULL elsewhere). */
struct tc_skel {
	uint64_t *count;              /* per rank: ops, send ids, receive ids (3 × nranks) */
	struct skel_op *ops;
	uint32_t *sends, *recvs;      /* every rank's message ids, in rank order */
	struct tc_step_msg *msgs;
	struct skel_coll *colls;
	struct skel_member *members;
	struct tc_sparts *parts;      /* the steps over parts' first half (tc_steps_parts_pack): no skeleton */
	size_t nops, nsends, nrecvs, nmsgs, ncolls, nmembers;
};

/* The global counts on every process and the decision. */
static void skel_counts(const struct tc_part *p, const struct tc_dist *d, uint64_t bound, struct tc_steps_dist *g,
			struct tc_skel *in)
{
	const struct tc_trace *t = p->t;
	uint32_t nr = t->nranks;
	in->count = xcalloc(3 * (size_t)nr + 1, sizeof *in->count);
	for (uint32_t r = p->lo; r < p->hi; r++) {
		in->count[r] = t->ranks[r].nops;
		in->count[nr + r] = t->ranks[r].nsend_msgs;
		in->count[2 * (size_t)nr + r] = t->ranks[r].nrecv_msgs;
	}
	d->reduce(d->ctx, in->count, 3 * (size_t)nr, TC_DIST_SUM);
	*g = (struct tc_steps_dist){ .msgs = p->msgs_total, .colls = p->colls_total, .members = p->members_total,
				     .bound = bound };
	for (uint32_t r = 0; r < nr; r++) g->ops += in->count[r];
	g->need = g->ops * TC_SKEL_OP_BYTES + g->msgs * TC_SKEL_MSG_BYTES + (g->members + g->colls) * TC_SKEL_MEMBER_BYTES;
	g->stored = g->need <= bound;
}

/* The n records of v (allocated, taken) to process 0: there all of them,
 * grouped by process in order (*nin); NULL elsewhere.  One process keeps
 * its own. */
static void *gather0(const struct tc_dist *d, void *v, size_t n, size_t recsize, size_t *nin)
{
	if (d->count == 1) {
		*nin = n;
		return v;
	}
	void *in = replay_gather0(d, v, n, recsize, nin);
	free(v);
	return in;
}

/* This process's ops, in rank order (packed: the part is not read after). */
static void pack_ops(const struct tc_part *p, struct tc_skel *in)
{
	const struct tc_trace *t = p->t;
	size_t n = 0;
	for (uint32_t r = p->lo; r < p->hi; r++) n += t->ranks[r].nops;
	struct skel_op *v = xcalloc(n + 1, sizeof *v);
	size_t k = 0;
	for (uint32_t r = p->lo; r < p->hi; r++) {
		const struct tc_rank *R = &t->ranks[r];
		for (uint32_t o = 0; o < R->nops; o++, k++) {
			v[k] = skel_op_of(R, o);
		}
	}
	in->ops = v, in->nops = n;
}

/* This process's ranks' message ids (sends, or receives), in rank order. */
static uint32_t *pack_ids(const struct tc_part *p, bool recv, size_t *nout)
{
	const struct tc_trace *t = p->t;
	size_t n = 0;
	for (uint32_t r = p->lo; r < p->hi; r++) n += recv ? t->ranks[r].nrecv_msgs : t->ranks[r].nsend_msgs;
	uint32_t *v = xmalloc((n + 1) * sizeof *v), *at = v;
	for (uint32_t r = p->lo; r < p->hi; r++) {
		const struct tc_rank *R = &t->ranks[r];
		size_t m = recv ? R->nrecv_msgs : R->nsend_msgs;
		if (m) memcpy(at, recv ? R->recv_msgs : R->send_msgs, m * sizeof *at);
		at += m;
	}
	*nout = n;
	return v;
}

/* The slices of messages, instances and members (in global order but the
 * members, which carry their place). */
static void pack_globals(const struct tc_part *p, struct tc_skel *in)
{
	struct tc_step_msg *m = xcalloc(p->nmsgs + 1, sizeof *m);
	for (size_t i = 0; i < p->nmsgs; i++)
		m[i] = (struct tc_step_msg){ p->msgs[i].send_done, p->msgs[i].post_time, p->msgs[i].flags, 0 };
	in->msgs = m, in->nmsgs = p->nmsgs;
	struct skel_coll *c = xcalloc(p->ncolls + 1, sizeof *c);
	for (size_t i = 0; i < p->ncolls; i++) c[i] = (struct skel_coll){ p->colls[i].first, p->colls[i].n };
	in->colls = c, in->ncolls = p->ncolls;
	struct skel_member *b = xcalloc(p->nmembers + 1, sizeof *b);
	for (size_t i = 0; i < p->nmembers; i++) {
		const struct tc_coll_member *mb = &p->members[i];
		b[i] = (struct skel_member){ p->member_at[i], mb->rank, p->t->ranks[mb->rank].calls[mb->call].op };
	}
	in->members = b, in->nmembers = p->nmembers;
}

/* Every process's packed records to process 0 (grouped by process, in order). */
static void gather_all(const struct tc_dist *d, struct tc_skel *in)
{
	in->ops = gather0(d, in->ops, in->nops, sizeof *in->ops, &in->nops);
	in->sends = gather0(d, in->sends, in->nsends, sizeof *in->sends, &in->nsends);
	in->recvs = gather0(d, in->recvs, in->nrecvs, sizeof *in->recvs, &in->nrecvs);
	in->msgs = gather0(d, in->msgs, in->nmsgs, sizeof *in->msgs, &in->nmsgs);
	in->colls = gather0(d, in->colls, in->ncolls, sizeof *in->colls, &in->ncolls);
	in->members = gather0(d, in->members, in->nmembers, sizeof *in->members, &in->nmembers);
}

void skel_rank(struct tc_rank *R, const struct skel_op *a, uint32_t n, struct tc_op *ops, struct tc_call *calls)
{
	static const struct tc_call filler = { .region = TC_NONE, .parent = TC_NONE, .op = TC_NONE };
	uint32_t c = 0;
	calls[c++] = filler;
	for (uint32_t k = 0; k < n; k++) {
		bool apart = k > 0 && a[k].op.call != a[k - 1].op.call + 1;
		calls[c] = (struct tc_call){ .enter = a[k].enter, .leave = a[k].leave, .region = a[k].region,
					     .parent = a[k].parent, .op = k, .flags = apart ? TC_CALL_APART : 0 };
		ops[k] = a[k].op;
		ops[k].call = c++;
	}
	R->calls = calls, R->ncalls = c;
	R->ops = ops, R->nops = n;
}

/* The skeleton's messages, instances and members (the ranks' calls
 * built); the gathered records are freed before the steps' own memory. */
static void skel_globals(struct tc_trace *K, const struct tc_steps_dist *g, struct tc_skel *in)
{
	struct tc_coll *colls = xcalloc(g->colls + 1, sizeof *colls);
	for (size_t c = 0; c < in->ncolls && c < g->colls; c++)
		colls[c].first = in->colls[c].first, colls[c].n = in->colls[c].n;
	struct tc_coll_member *members = xcalloc(g->members + 1, sizeof *members);
	for (size_t i = 0; i < in->nmembers; i++) {
		const struct skel_member *b = &in->members[i];
		if (b->at >= g->members || b->rank >= K->nranks) continue;   /* never: the finish placed them */
		const struct tc_rank *R = &K->ranks[b->rank];
		members[b->at] = (struct tc_coll_member){ .rank = b->rank,
							  .call = b->op < R->nops ? R->ops[b->op].call : 0 };
	}
	free(in->colls), free(in->members);
	in->colls = NULL, in->members = NULL;
	K->msgs = NULL, K->nmsgs = g->msgs;   /* the fields the steps read: g->skel_msgs */
	K->colls = colls, K->ncolls = g->colls;
	K->coll_members = members;
}

/* Process 0: the skeleton model from what was gathered (its definitions
 * and scalars process 0's, which every process has). */
static struct tc_trace *skel_build(const struct tc_part *p, const struct tc_steps_dist *g, struct tc_skel *in)
{
	const struct tc_trace *t = p->t;
	uint32_t nr = t->nranks;
	struct tc_trace *K = xmalloc(sizeof *K);
	memcpy(K, t, sizeof *K);
	K->ranks = xcalloc((size_t)nr + 1, sizeof *K->ranks);
	size_t ncalls = 0, o = 0, so = 0, ro = 0;
	struct tc_call *calls = xmalloc((g->ops + nr + 1) * sizeof *calls);   /* a call per op, call 0 of each rank */
	struct tc_op *ops = xmalloc((g->ops + 1) * sizeof *ops);
	for (uint32_t r = 0; r < nr; r++) {
		struct tc_rank *R = &K->ranks[r];
		*R = t->ranks[r];
		skel_rank(R, in->ops + o, (uint32_t)in->count[r], ops + o, calls + ncalls);
		R->send_msgs = in->sends + so, R->nsend_msgs = (uint32_t)in->count[nr + r];
		R->recv_msgs = in->recvs + ro, R->nrecv_msgs = (uint32_t)in->count[2 * (size_t)nr + r];
		o += R->nops, ncalls += R->ncalls, so += R->nsend_msgs, ro += R->nrecv_msgs;
	}
	free(in->ops);
	in->ops = NULL;
	skel_globals(K, g, in);
	return K;
}

struct tc_skel *tc_steps_dist_pack(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
				   uint64_t bound, struct tc_steps_dist *g)
{
	struct tc_steps_opts def;
	if (!o) tc_steps_default_opts(&def), o = &def;
	struct tc_skel *in = xcalloc(1, sizeof *in);
	skel_counts(p, d, bound, g, in);
	g->skeleton = o->leap_merge;
	g->calls_needed = o->caller_merge;
	if (!g->skeleton && !g->calls_needed) {   /* the steps over parts: no skeleton; the need known with the partitions */
		in->parts = tc_steps_parts_pack(p, d, o, bound, &g->need);
		g->stored = in->parts != NULL;
		return in;
	}
	g->stored = g->stored && !g->calls_needed;
	if (g->stored) {
		pack_ops(p, in);
		in->sends = pack_ids(p, false, &in->nsends);
		in->recvs = pack_ids(p, true, &in->nrecvs);
		pack_globals(p, in);
	}
	return in;
}

void tc_steps_dist_gather(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
			  struct tc_skel *in, struct tc_steps_dist *g, struct tc_steps_slice *sl)
{
	struct tc_steps_opts def;
	if (!o) tc_steps_default_opts(&def), o = &def;
	*sl = (struct tc_steps_slice){ .whole = true };
	if (in->parts) {
		if (!tc_steps_parts_finish(in->parts, d, o, sl)) g->stored = false, g->parts_failed = true;
		in->parts = NULL;
		tc_skel_free(in);
		return;
	}
	if (g->stored) gather_all(d, in);
	if (g->stored && p->index == 0) {
		g->skel = skel_build(p, g, in);
		if (in->nmsgs < g->msgs) {   /* never: the finish numbered them; zeros as a message without fields */
			in->msgs = xreallocarray(in->msgs, g->msgs + 1, sizeof *in->msgs);
			memset(in->msgs + in->nmsgs, 0, (g->msgs - in->nmsgs) * sizeof *in->msgs);
		}
		g->skel_msgs = in->msgs;
		in->msgs = NULL;
		sl->s0 = tc_steps_compute_msgs(g->skel, o, g->skel_msgs);
		in->sends = in->recvs = NULL;   /* the skeleton's now */
	}
	tc_skel_free(in);
}

void tc_skel_free(struct tc_skel *k)
{
	if (!k) return;
	free(k->count), free(k->ops), free(k->sends), free(k->recvs), free(k->msgs), free(k->colls), free(k->members);
	tc_sparts_free(k->parts);
	free(k);
}

struct tc_steps *tc_steps_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
			       uint64_t bound, struct tc_steps_dist *g)
{
	struct tc_steps_slice sl;
	tc_steps_dist_gather(p, d, o, tc_steps_dist_pack(p, d, o, bound, g), g, &sl);
	return tc_steps_slice_whole(&sl, d);
}

void tc_steps_dist_free(struct tc_steps *s, struct tc_steps_dist *g)
{
	tc_steps_free(s);
	struct tc_trace *K = g->skel;
	if (!K) return;
	if (K->nranks) {   /* rank 0's arrays start every rank's */
		free(K->ranks[0].calls);
		free(K->ranks[0].ops);
		free(K->ranks[0].send_msgs);
		free(K->ranks[0].recv_msgs);
	}
	free(K->ranks), free(K->colls), free(K->coll_members);
	free(K);
	free(g->skel_msgs);
	g->skel = NULL;
	g->skel_msgs = NULL;
}
