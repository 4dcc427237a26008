/* rootcause.c — activities, wait/own split, typical values per context and
 * excess (analysis_rootcause.h, docs/rootcause.md).  The critical path and the
 * delay costs are in critpath.c and delaycost.c.
 *
 * Passes, each O(events + messages):
 *  1. activities: per rank, the outermost MPI calls inside the rank's span
 *     (MPI_Init / MPI_Finalize excluded: they bound the span) and the compute
 *     segments between them, with a context key each, and in the same pass
 *  2. wait/own: per MPI call the time its partner became ready (late sender,
 *     late receiver, collective rules), clipped to the call;
 *  3. contexts and 4. excess: rcexcess.c.
 * Fresh memory is the main cost on big traces (docs/rootcause.md, "Cost"):
 * the big arrays come from tc_rc_big / tc_rc_scratch only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analysis_rootcause.h"
#include "analysis_span.h"
#include "rcctx_internal.h"
#include "rcwait_internal.h"
#include "u64map.h"

const char *const tc_wait_edge_names[TC_WE_COUNT] = { "none", "late_sender", "late_receiver", "collective" };
const char *const tc_rc_phase_names[TC_RCP_COUNT] = { "activities", "contexts", "excess", "delay costs",
								"critical path" };
const char *const tc_cp_kind_names[TC_CP_NKINDS] = { "compute", "wait", "mpi_own_intra", "mpi_own_inter" };

void tc_rc_default_opts(struct tc_rc_opts *o)
{
	*o = (struct tc_rc_opts){
		.mad_k = 5, .median_frac = 0.5, .floor_min = 20e-6, .floor_k = 5, .persist_frac = 0.25, .persist_z = 5,
		.sample_cap = 65536,
	};
}

/* --- big arrays ---------------------------------------------------------------- */

/* The activities and the per-activity scratch arrays are hundreds of MB on a
 * big trace, and first-touch page faults cost more than the passes over them
 * (docs/rootcause.md, "Cost"): anonymous mappings sized to an upper bound
 * (pages never touched are never faulted in), zeroed.  Small pages, not
 * MADV_HUGEPAGE: a huge page must come from 2 MiB of free physical memory,
 * which on a virtual machine is mostly memory the guest never touched, and
 * its first touch there cost ~2 ms per MB against ~0.4 for small pages, which
 * the kernel takes from what the load and the earlier analyses just freed
 * (docs/rootcause.md, "Cost", session 9).  The mapping's base and length sit
 * in the 16 bytes before the returned pointer. */
#define BIG_MIN ((size_t)4 << 20)  /* smaller: the heap */

void *tc_rc_big(size_t bytes)
{
	tc_alloc_check(bytes);
	if (bytes < BIG_MIN) {
		char *p = xcalloc(1, bytes + 16);
		((size_t *)p)[0] = 0;
		return p + 16;
	}
	size_t len = bytes + 4096;
	char *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED) tc_oom(bytes);
	char *p = base + 4096;
	((size_t *)p)[-2] = (size_t)(p - base);
	((size_t *)p)[-1] = len;
	return p;
}

void tc_rc_big_free(void *p)
{
	if (!p) return;
	size_t *h = (size_t *)p - 2;
	if (!h[0]) free(h);
	else munmap((char *)p - h[0], h[1]);
}

void *tc_rc_scratch(struct tc_rootcause *rc, size_t bytes)
{
	if (bytes && bytes <= rc->scratch_bytes) return rc->scratch;
	tc_rc_big_free(rc->scratch);
	rc->scratch = bytes ? tc_rc_big(bytes) : NULL;
	rc->scratch_bytes = bytes;
	return rc->scratch;
}

/* --- 1. activities ------------------------------------------------------------ */

struct build;
static const struct rc_ops serial_ops;  /* rc_call_wait's sources over the whole model */

/* A rank's first compute segment (no previous MPI call) and its context key
 * without the previous call (first_segments). */
struct first_seg { uint32_t act; uint64_t steady; };

/* The activities being built, in the compact form of tc_rootcause (each array
 * a tc_rc_big mapping of an upper bound: never grown). */
struct acts {
	size_t n;
	uint64_t pend[64];                /* the ends of the block being filled */
	uint32_t *end_off;                /* the ends as tc_rootcause keeps them (tc_rc_act_end) */
	struct tc_rc_block *end_block;
	VEC(uint64_t) wide;
	size_t cap;                       /* entries of each per-activity array */
	uint16_t *ctx16;                  /* tc_rootcause.act_ctx16 / act_ctx32 */
	uint32_t *ctx32;
	uint64_t *mpi_bits;               /* tc_rootcause.mpi_bits, mpi_call */
	uint32_t *mpi_call;
	size_t nmpi;
	struct tc_rc_wait *waits;
	size_t nwaits;
	uint64_t *wait_bits;
};

/* The ends of the activities of block k (the first m of pend) into their
 * compact form (tc_rc_act_end). */
static void end_block(struct acts *v, size_t k, size_t m)
{
	uint64_t lo = v->pend[0], hi = v->pend[0];
	for (size_t j = 1; j < m; j++) {
		lo = TC_MIN(lo, v->pend[j]);
		hi = TC_MAX(hi, v->pend[j]);
	}
	struct tc_rc_block *b = &v->end_block[k];
	if (hi - lo <= UINT32_MAX) {
		*b = (struct tc_rc_block){ lo, TC_NONE };
		for (size_t j = 0; j < m; j++) v->end_off[k * 64 + j] = (uint32_t)(v->pend[j] - lo);
		return;
	}
	*b = (struct tc_rc_block){ 0, (uint32_t)(v->wide.n / 64) };
	for (size_t j = 0; j < 64; j++) VEC_PUSH(v->wide, j < m ? v->pend[j] : 0);
}

/* Activity i's context: c. */
static void set_ctx(struct acts *v, size_t i, uint32_t c)
{
	if (v->ctx16 && c < UINT16_MAX) {
		v->ctx16[i] = (uint16_t)c;
		return;
	}
	if (v->ctx16) {  /* more contexts than 16 bits hold: 32 bits from now on */
		v->ctx32 = tc_rc_big(v->cap * sizeof *v->ctx32);
		for (size_t k = 0; k < v->n; k++) v->ctx32[k] = v->ctx16[k];
		tc_rc_big_free(v->ctx16);
		v->ctx16 = NULL;
	}
	v->ctx32[i] = c;
}

static uint32_t get_ctx(const struct acts *v, size_t i)
{
	return v->ctx16 ? v->ctx16[i] : v->ctx32[i];
}

/* Appends activity a (its start is the previous one's end). */
static void push_act(struct acts *v, const struct tc_act *a)
{
	size_t i = v->n++;
	v->pend[i % 64] = a->end;
	if (i % 64 == 63) end_block(v, i / 64, 64);
	set_ctx(v, i, a->ctx);
	if (a->kind == TC_ACT_MPI) {
		v->mpi_call[v->nmpi++] = a->call;
		v->mpi_bits[i / 64] |= (uint64_t)1 << (i % 64);
	}
	if (a->partner == TC_NONE) return;
	v->waits[v->nwaits++] = (struct tc_rc_wait){ a->ready, a->partner, a->edge };
	v->wait_bits[i / 64] |= (uint64_t)1 << (i % 64);
}

/* A context while the activities are built: its key, counts and the
 * context that came after it last time (compact: 24 bytes per context read
 * per activity, not a whole struct tc_rc_ctx). */
struct ctx_count { uint64_t key; uint32_t n, nranks, last, next, next2, pad; };

struct build {
	const struct tc_trace *t;
	struct tc_rootcause *rc;
	struct acts acts;
	rc_nbvec nb;                      /* the rank's Isends completed in Waits (rc_rank_isends) */
	struct rc_src src;                /* rc_call_wait's (serial_ops); src.nbpos: the cursor into nb */
	struct rc_coll *coll;             /* per collective instance, set on first use */
	double scale_bin[65];             /* compute time by log2 duration (rc_compute_scale) */
	uint64_t rank_bin[65];            /* the rank at hand's, in ticks (exact): folded into scale_bin
	                                     at its end, not a floating-point sum per segment */
	struct u64map keys;               /* context key → index */
	VEC(struct tc_rc_ctx) ctx;        /* n, nranks: from count when the pass ends (count_flush) */
	VEC(struct ctx_count) count;      /* per context: n, nranks (at least the distinct ranks), last rank */
	uint32_t prev_ctx;                /* the context of the rank's previous activity (TC_NONE: none) */
	uint32_t prev2_ctx;               /* the one before it */
	uint32_t first_ctx;               /* the context a rank's first activity had last time */
	struct u64map steady;             /* compute: key without the previous call → a context with one */
	VEC(struct first_seg) firsts;     /* each rank's compute segment before its first MPI call */
	bool *is_bound;                   /* per region: MPI_Init / MPI_Finalize */
	VEC(struct tc_recv) rx;           /* the current rank's receives (R->recv_msgs order) */
	uint8_t *coll_shape;              /* per collective instance: COLL_* (0: not seen yet) */
	uint32_t coll_place;              /* the rank at hand's place among its last instance's members */
	uint32_t *progress_hint;          /* per receiver: where rc_progress_ready last looked */
	uint64_t *numbered;               /* per message: its pair numbers its messages (rc_numbering) */
	uint32_t *node;                   /* per rank: its node (tc_same_node without a call per message) */
};

/* Numbering tags (docs/rootcause.md §3, "Tags that number messages"): a
 * tag that carries the iteration (or any counter) is a new value on every
 * message between two ranks, and as part of a compute context's key it made
 * a context per iteration: the same work typed against the ranks of one
 * iteration only, and its verdict other than the same code's with a tag per
 * message kind.  A sender-destination pair numbers its messages when it has
 * at least NUMBER_MIN of them, the tag changes on at least half of the steps
 * from one to the next in send order and never goes down on at least nine
 * tenths (a wrap-around of a counter is one step down; kinds that take
 * turns, tags 1, 2, 1, 2, go down on half).  Its messages' tags count as one
 * value, RC_NUMBERED, in the keys (rc_numbering, rcctx_internal.h: over the
 * messages of a range of ranks, the whole model's or a part's).  One pass
 * over each sender's messages, in send order and contiguous in msgs. */
#define NUMBER_MIN 8

struct pair_tags { uint32_t dst, n, changes, downs, last; };

static bool pair_numbers(const struct pair_tags *p)
{
	uint32_t steps = p->n - 1;
	return p->n >= NUMBER_MIN && 2 * (uint64_t)p->changes >= steps && 10 * (uint64_t)p->downs <= steps;
}

uint64_t *rc_numbering(const struct tc_trace *t, uint32_t lo, uint32_t hi, const struct tc_msg *msgs, uint64_t first,
		       size_t nbits)
{
	uint32_t *slot = xmalloc(((size_t)t->nranks + 1) * sizeof *slot);
	for (uint32_t r = 0; r < t->nranks; r++) slot[r] = TC_NONE;
	VEC(struct pair_tags) pairs = { 0 };
	uint64_t *bits = NULL;
	for (uint32_t r = lo; r < hi; r++) {
		const struct tc_rank *R = &t->ranks[r];
		pairs.n = 0;
		for (uint32_t k = 0; k < R->nsend_msgs; k++) {
			const struct tc_msg *m = &msgs[R->send_msgs[k] - first];
			if (m->dst >= t->nranks) continue;
			if (slot[m->dst] == TC_NONE) {
				slot[m->dst] = (uint32_t)pairs.n;
				struct pair_tags p = { m->dst, 0, 0, 0, m->tag };
				VEC_PUSH(pairs, p);
			}
			struct pair_tags *p = &pairs.a[slot[m->dst]];
			if (p->n++) {
				p->changes += m->tag != p->last;
				p->downs += m->tag < p->last;
			}
			p->last = m->tag;
		}
		bool any = false;
		for (size_t i = 0; i < pairs.n; i++) any |= pair_numbers(&pairs.a[i]);
		for (uint32_t k = 0; any && k < R->nsend_msgs; k++) {
			uint64_t id = R->send_msgs[k] - first;
			if (msgs[id].dst >= t->nranks || !pair_numbers(&pairs.a[slot[msgs[id].dst]])) continue;
			if (!bits) bits = xcalloc(nbits / 64 + 1, sizeof *bits);
			bits[id / 64] |= (uint64_t)1 << (id % 64);
		}
		for (size_t i = 0; i < pairs.n; i++) slot[pairs.a[i].dst] = TC_NONE;
	}
	VEC_FREE(pairs);
	free(slot);
	return bits;
}

/* A call's tag signature: the first message's tag (the smallest of the
 * receives it completes: a Wait* lists them in the order they completed,
 * which is the timing's, not the program's; keyed by the first, the compute
 * after a Waitall of a rank whose neighbours were late had other contexts than
 * its neighbours', and a half of the ranks at twice the work was never
 * compared with the other half), a collective's op, else none. */
static uint64_t call_tag(const struct build *b, uint32_t r, const struct tc_call *c)
{
	const struct tc_trace *t = b->t;
	if (!c || c->op == TC_NONE) return RC_TAG_NONE;
	const struct tc_op *op = &t->ranks[r].ops[c->op];
	if (op->nsend) {
		uint32_t m = tc_op_sends(t, r, op)[0];
		return rc_numbered(b->numbered, m) ? RC_NUMBERED : t->msgs[m].tag;
	}
	if (op->nrecv) {
		const struct tc_recv *v = b->rx.a + op->first_recv;
		const uint32_t *m = tc_op_recvs(t, r, op);
		uint64_t tag = RC_NUMBERED;
		for (uint32_t i = 0; i < op->nrecv; i++) tag = rc_recv_tag(tag, v[i].tag, rc_numbered(b->numbered, m[i]));
		return tag;
	}
	if (op->coll != TC_NONE) return rc_coll_tag(t->colls[op->coll].op);
	return RC_TAG_NONE;
}

/* The receives of rank r into b->rx, before the activity pass
 * (tc_rank_receives): there the misses of the scattered messages and their
 * senders' calls overlap, where inside the activity pass they came one at a
 * time and were most of its time. */
static void rank_receives(struct build *b, uint32_t r)
{
	const struct tc_rank *R = &b->t->ranks[r];
	VEC_RESERVE(b->rx, R->nrecv_msgs);
	tc_rank_receives(b->t, R, b->rx.a);
	b->rx.n = R->nrecv_msgs;
}

/* The context of key for an activity of rank r (counted there).  Ranks walk
 * through the same contexts in the same order (SPMD), so the context that
 * followed the previous one last time is tried before the hash map, whose
 * probes were most of this function (a table of 10⁴ contexts is not in L1).
 * A compute context's coarse key is a function of its key's parts: made
 * only for a new context, from prev_region and gap_sig (and region, the
 * next call's); its place (the key before the user regions are mixed in)
 * comes with the key. */
static uint32_t ctx_of(struct build *b, uint32_t r, uint64_t key, uint32_t prev_region, uint64_t gap_sig,
		       uint64_t place, uint8_t kind, uint32_t region, uint8_t inter, uint8_t bucket)
{
	uint32_t *next = b->prev_ctx == TC_NONE ? &b->first_ctx : &b->count.a[b->prev_ctx].next;
	uint32_t *next2 = b->prev2_ctx == TC_NONE ? NULL : &b->count.a[b->prev2_ctx].next2;
	uint32_t i;
	if (*next != TC_NONE && b->count.a[*next].key == key) i = *next;
	else if (next2 && *next2 != TC_NONE && b->count.a[*next2].key == key) i = *next2;
	else i = u64map_get(&b->keys, key);
	if (i == U64MAP_NONE) {
		i = (uint32_t)b->ctx.n;
		uint64_t coarse = kind == TC_ACT_COMPUTE ? rc_coarse_key(prev_region, region, gap_sig) : 0;
		struct tc_rc_ctx c = { .key = key, .coarse = coarse, .place = place,
				       .work = kind == TC_ACT_COMPUTE ? gap_sig : 0, .region = region, .kind = kind,
				       .inter = inter, .size_bucket = bucket };
		struct ctx_count k = { key, 0, 0, TC_NONE, TC_NONE, TC_NONE, 0 };
		VEC_PUSH(b->ctx, c);
		VEC_PUSH(b->count, k);
		u64map_put(&b->keys, key, i);
		next = b->prev_ctx == TC_NONE ? &b->first_ctx : &b->count.a[b->prev_ctx].next;  /* count moved */
		next2 = b->prev2_ctx == TC_NONE ? NULL : &b->count.a[b->prev2_ctx].next2;
	}
	*next = i;
	if (next2) *next2 = i;
	b->prev2_ctx = b->prev_ctx;
	b->prev_ctx = i;
	struct ctx_count *k = &b->count.a[i];
	k->n++;
	if (k->last != r) {
		k->last = r;
		k->nranks++;
	}
	return i;
}

/* The counts into the contexts, once the pass is over. */
static void count_flush(struct build *b)
{
	for (size_t i = 0; i < b->ctx.n; i++) {
		b->ctx.a[i].n = b->count.a[i].n;
		b->ctx.a[i].nranks = b->count.a[i].nranks;
	}
	VEC_FREE(b->count);
}

/* Per collective instance, learnt at its first member (once per instance,
 * not once per member: a scan of the members per member was O(members²)):
 * whether its members span nodes (then every member's part crosses nodes)
 * and whether they are in rank order (then a member is found by bisection). */
#define COLL_KNOWN 1
#define COLL_SPANS 2
#define COLL_SORTED 4

static const struct tc_coll_member *coll_member(struct build *b, uint32_t ci, uint32_t r)
{
	const struct tc_trace *t = b->t;
	const struct tc_coll *co = &t->colls[ci];
	const struct tc_coll_member *m = &t->coll_members[co->first];
	uint8_t *shape = &b->coll_shape[ci];
	if (!*shape) {
		*shape = COLL_KNOWN | COLL_SORTED;
		for (uint32_t k = 0; k < co->n; k++) {
			if (k && m[k].rank <= m[k - 1].rank) *shape &= (uint8_t)~COLL_SORTED;
			if (!tc_same_node(t, m[0].rank, m[k].rank)) *shape |= COLL_SPANS;
		}
	}
	if (!(*shape & COLL_SORTED)) {
		for (uint32_t k = 0; k < co->n; k++)
			if (m[k].rank == r) return &m[k];
		return NULL;
	}
	/* the rank's place in its previous instance first: the same communicator
	 * puts it at the same place (a miss per probe of a bisection, otherwise) */
	uint32_t lo = b->coll_place, hi = co->n;
	if (lo < hi && m[lo].rank == r) return &m[lo];
	lo = 0;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (m[mid].rank < r) lo = mid + 1;
		else hi = mid;
	}
	if (lo >= co->n || m[lo].rank != r) return NULL;
	b->coll_place = lo;
	return &m[lo];
}

/* Bytes an MPI call moves and whether any of it crosses nodes. */
static uint64_t call_bytes(struct build *b, uint32_t r, uint32_t ci, uint8_t *inter)
{
	const struct tc_trace *t = b->t;
	const struct tc_call *c = &t->ranks[r].calls[ci];
	/* a Wait's Isends cross nodes as much as its receives (an inter-node send
	 * held in the Wait is inter-node own time, not an outlier of the
	 * intra-node Waits) */
	const uint32_t *node = b->node, here = node[r];
	*inter = rc_nb_inter(&b->src, ci, t->msgs, 0, node, here);
	if (c->op == TC_NONE) return 0;
	const struct tc_op *op = &t->ranks[r].ops[c->op];
	uint64_t bytes = 0;
	const uint32_t *s = tc_op_sends(t, r, op);
	const struct tc_recv *v = op->nrecv ? b->rx.a + op->first_recv : NULL;  /* a rank with no receives has no table */
	for (uint32_t i = 0; i < op->nsend; i++) {
		bytes += t->msgs[s[i]].bytes;
		*inter |= node[t->msgs[s[i]].dst] != here;
	}
	for (uint32_t i = 0; i < op->nrecv; i++) {
		bytes += v[i].bytes;
		*inter |= node[v[i].src] != here;
	}
	if (op->coll != TC_NONE) {
		const struct tc_coll_member *m = coll_member(b, op->coll, r);
		if (m) bytes += m->sent + m->recvd;
		*inter |= (b->coll_shape[op->coll] & COLL_SPANS) != 0;
	}
	return bytes;
}

/* tags: call_tag of prev and next. */
static void push_compute(struct build *b, uint32_t r, uint64_t s, uint64_t e, const struct tc_call *prev,
			 const struct tc_call *next, uint32_t next_idx, uint64_t gap_sig, const uint64_t tags[2])
{
	uint32_t pr = rc_seg_region(prev), nr = rc_seg_region(next);
	uint64_t place = rc_place_key(pr, tags[0], nr, tags[1]), key = rc_compute_key(place, gap_sig);
	struct tc_act a = { .start = s, .end = e, .ready = s, .call = next_idx, .partner = TC_NONE,
			    .kind = TC_ACT_COMPUTE };
	size_t nctx = b->ctx.n;
	a.ctx = ctx_of(b, r, key, pr, gap_sig, place, TC_ACT_COMPUTE, nr, 0, 0);
	if (!prev || b->ctx.n != nctx) {  /* a first segment, or a new context: first_segments */
		uint64_t steady = rc_steady_key(nr, tags[1], gap_sig);
		if (!prev) {
			struct first_seg f = { (uint32_t)b->acts.n, steady };
			VEC_PUSH(b->firsts, f);
		} else if (u64map_get(&b->steady, steady) == U64MAP_NONE) {
			u64map_put(&b->steady, steady, a.ctx);
		}
	}
	push_act(&b->acts, &a);
	b->rank_bin[rc_size_bucket(e - s)] += e - s;
}

static void push_mpi(struct build *b, uint32_t r, uint64_t s, uint64_t e, uint32_t ci)
{
	const struct tc_trace *t = b->t;
	const struct tc_call *c = &t->ranks[r].calls[ci];
	uint8_t inter;
	uint8_t bucket = rc_size_bucket(call_bytes(b, r, ci, &inter));
	uint64_t key = rc_mpi_key(c->region, bucket, inter);
	struct tc_act a = { .start = s, .end = e, .ready = s, .call = ci, .partner = TC_NONE, .kind = TC_ACT_MPI,
			    .inter = inter };
	a.ctx = ctx_of(b, r, key, 0, 0, 0, TC_ACT_MPI, c->region, inter, bucket);
	rc_call_wait(t, &serial_ops, &b->src, r, &a);
	push_act(&b->acts, &a);
}

/* A rank's compute segment before its first MPI call has no previous call:
 * when its context is too thin to have a typical value (fewer than 3
 * segments: a rank that alone starts by computing, as the head of a
 * pipeline or the root of a tree), it joins the context of the segments with
 * the same user regions and the same next call (the context with the fewest
 * parts that still means the same work).  Without this, the wait its normal
 * length causes (the pipeline filling up) became its excess by the
 * thin-context rule of the delay costs. */
static void first_segments(struct build *b)
{
	for (size_t i = 0; i < b->firsts.n; i++) {
		uint32_t act = b->firsts.a[i].act, c = get_ctx(&b->acts, act);
		if (b->ctx.a[c].n >= 3) continue;
		uint32_t k = u64map_get(&b->steady, b->firsts.a[i].steady);
		if (k == U64MAP_NONE || k == c) continue;
		b->ctx.a[c].n--;
		b->ctx.a[k].n++;
		b->ctx.a[k].nranks++;  /* perhaps a new rank there: an upper bound */
		set_ctx(&b->acts, act, k);
	}
}

/* The activities of rank r in [t0, t1]. */
static void rank_activities(struct build *b, uint32_t r, uint64_t t0, uint64_t t1)
{
	const struct tc_trace *t = b->t;
	const struct tc_rank *R = &t->ranks[r];
	rank_receives(b, r);
	rc_rank_isends(t, R, t->msgs, 0, &b->nb);
	b->src.nbpos = 0;
	b->prev_ctx = TC_NONE;
	b->prev2_ctx = TC_NONE;
	b->coll_place = 0;
	uint64_t gap_sig = 0;
	const struct tc_call *prev = NULL;
	/* call_tag of prev and of the next call; prev's is known when a compute
	 * segment came before it (its next call) */
	uint64_t tags[2] = { call_tag(b, r, NULL), 0 };
	bool prev_tag = true;
	struct rc_walk w;
	rc_walk_begin(&w, t, R, b->is_bound, t0, t1);
	uint32_t i;
	uint64_t s, e;
	for (int k; (k = rc_walk_next(&w, &i, &s, &e)) != RC_WALK_END;) {
		const struct tc_call *c = &R->calls[i];
		if (k == RC_WALK_USER) {
			if (c->region < t->nregions && c->enter >= w.cur) gap_sig = rc_gap_add(gap_sig, c->region);
			continue;
		}
		if (s > w.cur) {
			if (!prev_tag) tags[0] = call_tag(b, r, prev);
			tags[1] = call_tag(b, r, c);
			push_compute(b, r, w.cur, s, prev, c, i, gap_sig, tags);
			tags[0] = tags[1];  /* c's: the next prev's */
		}
		prev_tag = s > w.cur;
		push_mpi(b, r, s, e, i);
		w.cur = e;
		prev = c;
		gap_sig = 0;
	}
	uint64_t cur = w.cur;
	if (cur < t1) {
		if (!prev_tag) tags[0] = call_tag(b, r, prev);
		tags[1] = call_tag(b, r, NULL);
		push_compute(b, r, cur, t1, prev, NULL, TC_NONE, gap_sig, tags);
	}
	for (int k = 0; k < 65; k++) {
		b->scale_bin[k] += (double)b->rank_bin[k];
		b->rank_bin[k] = 0;
	}
}

/* The arrays of the activities, sized for at most two activities per
 * outermost MPI call plus one per rank (pages never written are never faulted
 * in). */
static void acts_alloc(const struct tc_trace *t, struct acts *v)
{
	size_t cap = (size_t)t->nranks + 1, ncalls = 1;
	for (uint32_t r = 0; r < t->nranks; r++) ncalls += t->ranks[r].ncalls;
	cap += 2 * ncalls;
	v->end_off = tc_rc_big(cap * sizeof *v->end_off);
	v->end_block = tc_rc_big((cap / 64 + 1) * sizeof *v->end_block);
	v->cap = cap;
	v->ctx16 = tc_rc_big(cap * sizeof *v->ctx16);
	v->mpi_call = tc_rc_big(ncalls * sizeof *v->mpi_call);
	v->mpi_bits = tc_rc_big((cap / 64 + 1) * sizeof *v->mpi_bits);
	v->waits = tc_rc_big(ncalls * sizeof *v->waits);
	v->wait_bits = tc_rc_big((cap / 64 + 1) * sizeof *v->wait_bits);
}

/* Per 64-bit word of bits, the set bits before it (tc_rc_bit_rank). */
static uint32_t *bit_counts(const uint64_t *bits, size_t nw)
{
	uint32_t *base = xmalloc(nw * sizeof *base), k = 0;
	for (size_t w = 0; w < nw; w++) {
		base[w] = k;
		k += (uint32_t)__builtin_popcountll(bits[w]);
	}
	return base;
}

/* The activities into rc, with the index of the wait records and the (zero)
 * excess and outlier arrays the next passes fill. */
static void acts_keep(struct tc_rootcause *rc, struct acts *v)
{
	size_t n = v->n, nw = n / 64 + 1;
	if (n % 64) end_block(v, n / 64, n % 64);
	rc->nacts = n;
	rc->end_off = v->end_off;
	rc->end_block = v->end_block;
	rc->end_wide = v->wide.a;
	rc->act_ctx16 = v->ctx16;
	rc->act_ctx32 = v->ctx32;
	rc->mpi_call = v->mpi_call;
	rc->mpi_bits = v->mpi_bits;
	rc->mpi_base = bit_counts(v->mpi_bits, nw);
	rc->waits = v->waits;
	rc->nwaits = v->nwaits;
	rc->wait_bits = v->wait_bits;
	rc->wait_base = bit_counts(v->wait_bits, nw);
	rc->act_excess = tc_rc_big((n ? n : 1) * sizeof *rc->act_excess);
	rc->act_outlier = tc_rc_big(n ? n : 1);
}

/* --- 2. wait / own (the rules: rcwait_internal.h) ------------------------------------ */

bool *rc_bound_regions(const struct tc_trace *t)
{
	bool *b = xcalloc(t->nregions + 1, sizeof *b);
	for (uint32_t g = 0; g < t->nregions; g++) b[g] = tc_region_is_init(t, g) || tc_region_is_finalize(t, g);
	return b;
}

static int nbdone_cmp(const void *x, const void *y)
{
	const struct rc_nbdone *a = x, *b = y;
	if (a->call != b->call) return a->call < b->call ? -1 : 1;
	return a->msg < b->msg ? -1 : a->msg > b->msg;
}

/* Rank R's Isends completed inside a Wait, sorted, before its activity pass
 * (the late-receiver rule of its Waits reads them through a forward cursor):
 * its messages in order, each one's Wait found by a galloping search from the
 * previous message's call (a rank's messages come in time order), sorted only
 * when they are out of order.  Per rank, in a buffer reused from rank to
 * rank: one pass over all messages into an array of them was 24 MB of fresh
 * memory on the bench archive. */
void rc_rank_isends(const struct tc_trace *t, const struct tc_rank *R, const struct tc_msg *msgs, uint64_t first,
		    rc_nbvec *nb)
{
	uint32_t hint = 0;
	bool sorted = true;
	nb->n = 0;
	for (uint32_t k = 0; k < R->nsend_msgs; k++) {
		uint32_t i = R->send_msgs[k];
		const struct tc_msg *m = &msgs[i - first];
		if (!(m->flags & TC_MSG_NB_SEND)) continue;
		uint32_t c = tc_call_at_hint(R, &hint, m->send_done);
		while (c != TC_NONE && !tc_call_outermost_mpi(t, R, &R->calls[c])) c = R->calls[c].parent;
		if (c == TC_NONE || c == m->send_call) continue;
		if (t->regions[R->calls[c].region].kind != TC_RK_MPI_WAIT) continue;
		struct rc_nbdone x = { c, i };
		if (nb->n && nbdone_cmp(&nb->a[nb->n - 1], &x) > 0) sorted = false;
		VEC_PUSH(*nb, x);
	}
	if (nb->n && !sorted) qsort(nb->a, nb->n, sizeof *nb->a, nbdone_cmp);
}

#define PROGRESS_SCAN 64  /* calls of the receiver looked at, at most */

/* Late receiver by progress: a blocking send that returned before its
 * receive was posted (post ≥ its end) and still lasted, because the receiver
 * entered MPI only then, in another call (its own send, a barrier): MPI
 * libraries move incoming messages inside any call, and an eager send held by
 * flow control returns when the receiver's progress runs (a chain's 1 KiB
 * MPI_Send waited 25 ms for a delayed neighbour this way, and read as its
 * own MPI time).  The receiver was ready when it first entered an MPI call
 * in the send's interval; never when it was inside one at the send's start
 * (it was progressing).  Only the calls entered in the interval are looked
 * at, up to PROGRESS_SCAN. */
bool rc_progress_ready(const struct tc_trace *t, const struct tc_rank *R, uint32_t *hint, uint64_t start, uint64_t end,
		       uint64_t *enter)
{
	uint32_t lo = tc_call_first_after(R, hint, start);
	for (uint32_t c = lo ? lo - 1 : TC_NONE; c != TC_NONE; c = R->calls[c].parent)
		if (R->calls[c].leave >= start && tc_call_is_mpi(t, &R->calls[c])) return false;
	for (uint32_t c = lo; c < R->ncalls && c < lo + PROGRESS_SCAN && R->calls[c].enter < end; c++)
		if (tc_call_is_mpi(t, &R->calls[c])) {
			*enter = R->calls[c].enter;
			return true;
		}
	return false;
}

/* Per collective instance, computed once (not once per member: O(members)
 * instead of O(members²)): the last member's enter and, for rooted
 * collectives, every member's enter sorted (docs/rootcause.md, "Rooted
 * collectives"). */
static int coll_enter_cmp(const void *a, const void *b)
{
	const struct rc_coll_enter *x = a, *y = b;
	if (x->e != y->e) return x->e < y->e ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

void rc_coll_set(struct rc_coll *c, struct rc_coll_enter *m, uint32_t n, uint8_t op)
{
	enum tc_coll_class cc = tc_coll_class(op);
	*c = (struct rc_coll){ .who = TC_NONE, .n = n, .rooted = cc == TC_CC_ONE2ALL || cc == TC_CC_ALL2ONE, .done = true };
	for (uint32_t k = 0; k < n; k++)
		if (c->who == TC_NONE || m[k].e > c->latest) c->latest = m[k].e, c->who = m[k].rank;
	if (c->rooted) {
		qsort(m, n, sizeof *m, coll_enter_cmp);
		c->sorted = m;
	} else {
		free(m);
	}
}

/* Rooted collectives (1-N, N-1) run as trees in real MPI libraries: an inner
 * rank waits for its subtree (reduce, gather) or its parent (broadcast,
 * scatter), not only for the root.  The tree is not in the trace, so a member
 * may have waited for any other member that entered before it left: its
 * ready time is the latest such enter.  For the root of an N-1 collective
 * this is Scalasca's latest non-root; for a non-root of a 1-N collective it
 * is at least the root's enter. */
void rc_coll_candidate(const struct rc_coll *c, uint32_t r, uint64_t end, struct rc_ready *rd)
{
	if (c->n < 2) return;
	if (!c->rooted) {
		if (c->who != r) rc_candidate(rd, c->latest, c->who, TC_WE_COLLECTIVE);
		return;
	}
	size_t lo = 0, hi = c->n;    /* first member entering at or after our exit */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->sorted[mid].e < end) lo = mid + 1;
		else hi = mid;
	}
	while (lo > 0 && c->sorted[lo - 1].rank == r) lo--;
	if (lo > 0) rc_candidate(rd, c->sorted[lo - 1].e, c->sorted[lo - 1].rank, TC_WE_COLLECTIVE);
}

/* The serial sources (struct rc_src), over the whole model. */
static void serial_recv(const void *ctx, uint32_t r, const struct tc_op *op, struct rc_ready *rd)
{
	const struct build *b = ctx;
	const struct tc_recv *v = b->rx.a + op->first_recv;
	(void)r;
	for (uint32_t i = 0; i < op->nrecv; i++) rc_candidate(rd, v[i].send_enter, v[i].src, TC_WE_LATE_SENDER);
}

static const struct tc_msg *serial_msg(const void *ctx, uint32_t id)
{
	const struct build *b = ctx;
	return &b->t->msgs[id];
}

static void serial_progress(const void *ctx, const struct tc_msg *m, const struct tc_act *a, struct rc_ready *rd)
{
	const struct build *b = ctx;
	uint64_t e;
	if (rc_progress_ready(b->t, &b->t->ranks[m->dst], &b->progress_hint[m->dst], a->start, a->end, &e))
		rc_candidate(rd, e, m->dst, TC_WE_LATE_RECEIVER);
}

static void serial_coll(const void *ctx, uint32_t r, uint32_t ci, const struct tc_act *a, struct rc_ready *rd)
{
	const struct build *b = ctx;
	const struct tc_trace *t = b->t;
	struct rc_coll *c = &b->coll[ci];
	if (!c->done) {
		const struct tc_coll *co = &t->colls[ci];
		const struct tc_coll_member *m = &t->coll_members[co->first];
		struct rc_coll_enter *e = xmalloc(((size_t)co->n + 1) * sizeof *e);
		for (uint32_t k = 0; k < co->n; k++) e[k] = (struct rc_coll_enter){ t->ranks[m[k].rank].calls[m[k].call].enter, m[k].rank };
		rc_coll_set(c, e, co->n, co->op);
	}
	rc_coll_candidate(c, r, a->end, rd);
}

static const struct rc_ops serial_ops = { serial_recv, serial_msg, serial_progress, serial_coll };

/* The length of the compute segments that hold most of the compute time: the
 * time-weighted median, from a histogram of log2 durations (O(n); the
 * histogram is filled while building the activities). */
double rc_compute_scale(const struct tc_trace *t, const double *bin)
{
	double run = 0, tot = 0;
	for (int k = 0; k < 65; k++) tot += bin[k];
	for (int k = 0; k < 65; k++) {
		run += bin[k];
		if (run >= tot / 2 && tot > 0) return tc_dur(t, k ? 1ULL << (k - 1) : 0);
	}
	return 0;
}

void tc_rc_phase_done(struct tc_rootcause *rc, enum tc_rc_phase p, struct tc_usage *mark)
{
	struct tc_usage u = tc_usage();
	rc->phase_cpu[p] += u.cpu - mark->cpu;
	rc->phase_faults[p] += u.minflt - mark->minflt;
	*mark = u;
}

/* --- the compact activities (analysis_rootcause.h) -------------------------------------- */

struct tc_act tc_rc_act(const struct tc_rootcause *rc, uint32_t r, uint32_t i)
{
	const struct tc_rc_ctx *C = &rc->ctx[tc_rc_act_ctx(rc, i)];
	struct tc_act a = { .start = tc_rc_act_start(rc, r, i), .end = tc_rc_act_end(rc, i), .excess = rc->act_excess[i],
			    .call = tc_rc_act_call(rc, r, i), .partner = TC_NONE, .ctx = tc_rc_act_ctx(rc, i), .kind = C->kind,
			    .edge = TC_WE_NONE, .inter = C->inter, .outlier = rc->act_outlier[i] };
	a.ready = a.start;
	uint32_t w = tc_rc_wait_of(rc, i);
	if (w != TC_NONE) {
		a.ready = rc->waits[w].ready;
		a.partner = rc->waits[w].partner;
		a.edge = rc->waits[w].edge;
	}
	return a;
}

double tc_rc_act_delay_cost(const struct tc_rootcause *rc, uint32_t i)
{
	size_t lo = 0, hi = rc->nexcess;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rc->ex_act[mid] < i) lo = mid + 1;
		else hi = mid;
	}
	return lo < rc->nexcess && rc->ex_act[lo] == i ? rc->ex_delay[lo] : 0;
}

/* --- lookups ------------------------------------------------------------------------ */

uint32_t tc_rc_rank_of(const struct tc_rootcause *rc, uint32_t act)
{
	uint32_t lo = 0, hi = rc->nranks;
	while (lo + 1 < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (rc->act_first[mid] <= act) lo = mid;
		else hi = mid;
	}
	return lo;
}

uint32_t tc_rc_act_before(const struct tc_rootcause *rc, uint32_t rank, uint64_t t)
{
	return tc_rc_act_before_hint(rc, rank, t, NULL);
}

uint32_t tc_rc_act_before_hint(const struct tc_rootcause *rc, uint32_t rank, uint64_t t, uint32_t *hint)
{
	uint32_t j = tc_rc_act_at_hint(rc, rank, t, hint);
	if (j == TC_NONE) return TC_NONE;
	if (tc_rc_act_start(rc, rank, j) >= t) return j > rc->act_first[rank] ? j - 1 : TC_NONE;
	return j;
}

uint32_t tc_rc_act_at(const struct tc_rootcause *rc, uint32_t rank, uint64_t t)
{
	return tc_rc_act_at_hint(rc, rank, t, NULL);
}

uint32_t tc_rc_act_at_hint(const struct tc_rootcause *rc, uint32_t rank, uint64_t t, uint32_t *hint)
{
	uint32_t lo = rc->act_first[rank], hi = rc->act_first[rank + 1];
	if (lo == hi) return TC_NONE;
	/* the first activity with end >= t is in [a, b], b when none before it */
	uint32_t a = lo, b = hi;
	if (hint && *hint >= lo && *hint < hi) {
		uint32_t h = *hint;
		if (tc_rc_act_end(rc, h) < t) {  /* later: doubling steps forward from h */
			a = b = h + 1;
			for (uint32_t step = 1; b < hi && tc_rc_act_end(rc, b) < t; step *= 2) {
				a = b + 1;
				b = hi - b > step ? b + step : hi;
			}
		} else if (h == lo || tc_rc_act_end(rc, h - 1) < t) {
			a = b = h;
		} else {  /* earlier: doubling steps back from h - 1, whose end is >= t */
			b = h - 1;
			for (uint32_t step = 1;; step *= 2) {
				a = b - lo > step ? b - step : lo;
				if (a == lo || tc_rc_act_end(rc, a) < t) break;
				b = a;
			}
		}
	}
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		if (tc_rc_act_end(rc, mid) < t) a = mid + 1;
		else b = mid;
	}
	uint32_t j = a < hi ? a : hi - 1;
	if (hint) *hint = j;
	return j;
}

/* --- the whole analysis ---------------------------------------------------------------- */

struct tc_rootcause *tc_rc_activities(const struct tc_trace *t, const struct tc_span *sp, const struct tc_rc_opts *o,
				      double scale_bin[65], struct tc_usage *mark)
{
	struct tc_rootcause *rc = xcalloc(1, sizeof *rc);
	if (o) rc->opts = *o;
	else tc_rc_default_opts(&rc->opts);
	uint32_t N = t->nranks;
	rc->nranks = N;
	rc->t0 = sp ? sp->t0 : t->tmin;
	rc->t1 = sp ? sp->t1 : t->tmax;
	struct build b = { .t = t, .rc = rc };
	b.coll = xcalloc(t->ncolls ? t->ncolls : 1, sizeof *b.coll);
	b.src = (struct rc_src){ .ctx = &b, .nb = &b.nb };
	u64map_init(&b.keys);
	u64map_init(&b.steady);
	b.first_ctx = TC_NONE;
	b.coll_shape = xcalloc(t->ncolls ? t->ncolls : 1, 1);
	b.progress_hint = xcalloc(N ? N : 1, sizeof *b.progress_hint);
	b.is_bound = rc_bound_regions(t);
	rc->act_first = xcalloc((size_t)N + 1, sizeof *rc->act_first);
	rc->rank_t0 = xcalloc((size_t)N + 1, sizeof *rc->rank_t0);
	acts_alloc(t, &b.acts);
	b.numbered = rc_numbering(t, 0, N, t->msgs, 0, t->nmsgs);
	b.node = xmalloc(((size_t)N + 1) * sizeof *b.node);
	for (uint32_t r = 0; r < N; r++) b.node[r] = t->ranks[r].node;
	for (uint32_t r = 0; r < N; r++) {
		rc->act_first[r] = (uint32_t)b.acts.n;
		uint64_t a = sp ? sp->rank_t0[r] : rc->t0, z = sp ? sp->rank_t1[r] : rc->t1;
		rc->rank_t0[r] = a;
		if (!t->ranks[r].ncalls) continue;
		rank_activities(&b, r, a, z);
	}
	rc->act_first[N] = (uint32_t)b.acts.n;
	count_flush(&b);
	VEC_FREE(b.rx);
	free(b.numbered);
	free(b.node);
	free(b.coll_shape);
	free(b.progress_hint);
	first_segments(&b);
	u64map_free(&b.steady);
	VEC_FREE(b.firsts);
	acts_keep(rc, &b.acts);
	rc->ctx = b.ctx.a;
	rc->nctx = (uint32_t)b.ctx.n;
	u64map_free(&b.keys);
	free(b.is_bound);
	VEC_FREE(b.nb);
	for (uint32_t ci = 0; ci < t->ncolls; ci++) rc_coll_free(&b.coll[ci]);
	free(b.coll);
	memcpy(scale_bin, b.scale_bin, sizeof b.scale_bin);
	tc_rc_phase_done(rc, TC_RCP_ACTIVITIES, mark);
	return rc;
}

struct tc_rootcause *tc_rootcause_compute(const struct tc_trace *t, const struct tc_span *sp,
					  const struct tc_rc_opts *o)
{
	struct tc_usage mark = tc_usage();
	double scale_bin[65];
	struct tc_rootcause *rc = tc_rc_activities(t, sp, o, scale_bin, &mark);
	uint32_t N = rc->nranks;
	rc->wait_s = xcalloc(N ? N : 1, sizeof *rc->wait_s);
	tc_rc_excess(t, rc, rc_compute_scale(t, scale_bin), &mark);
	for (uint32_t r = 0; r < N; r++) rc->total_wait += rc->wait_s[r];
	/* delay costs first: they may give thin contexts their excess, which the
	 * path's pieces then carry */
	tc_rc_delay_costs(t, rc);
	tc_rc_phase_done(rc, TC_RCP_DELAY, &mark);
	tc_rc_critical_path(t, rc);
	tc_rc_scratch(rc, 0);
	tc_rc_phase_done(rc, TC_RCP_PATH, &mark);
	return rc;
}

void tc_rootcause_free(struct tc_rootcause *rc)
{
	if (!rc) return;
	free(rc->act_first);
	free(rc->rank_t0);
	tc_rc_big_free(rc->end_off);
	tc_rc_big_free(rc->end_block);
	free(rc->end_wide);
	tc_rc_big_free(rc->act_ctx16);
	tc_rc_big_free(rc->act_ctx32);
	tc_rc_big_free(rc->mpi_call);
	tc_rc_big_free(rc->mpi_bits);
	free(rc->mpi_base);
	tc_rc_big_free(rc->act_excess);
	tc_rc_big_free(rc->act_outlier);
	tc_rc_big_free(rc->wait_bits);
	free(rc->wait_base);
	tc_rc_big_free(rc->waits);
	free(rc->ex_act);
	free(rc->ex_delay);
	free(rc->ctx);
	free(rc->path);
	free(rc->path_compute_excess);
	free(rc->path_mpi_excess);
	free(rc->delay_cost);
	free(rc->wait_s);
	tc_rc_scratch(rc, 0);
	free(rc);
}

static int origin_cmp(const void *x, const void *y)
{
	const struct tc_rc_origin *a = x, *b = y;
	if (a->score != b->score) return a->score > b->score ? -1 : 1;
	return a->act < b->act ? -1 : a->act > b->act;
}

/* The path's excess per activity: (activity, excess) of each piece, by
 * activity and then path order (the sums add up in path order). */
struct onpath { uint32_t act; uint32_t piece; double excess; };

static int onpath_cmp(const void *x, const void *y)
{
	const struct onpath *a = x, *b = y;
	if (a->act != b->act) return a->act < b->act ? -1 : 1;
	return a->piece < b->piece ? -1 : a->piece > b->piece;
}

size_t tc_rc_origins(const struct tc_rootcause *rc, size_t k, struct tc_rc_origin *out)
{
	if (!k) return 0;
	/* sparse: the path is short, the activities are many */
	struct onpath *onp = xmalloc((rc->npath ? rc->npath : 1) * sizeof *onp);
	for (size_t i = 0; i < rc->npath; i++) onp[i] = (struct onpath){ rc->path[i].act, (uint32_t)i, rc->path[i].excess };
	if (rc->npath) qsort(onp, rc->npath, sizeof *onp, onpath_cmp);
	size_t pk = 0;
	uint32_t r = 0;
	VEC(struct tc_rc_origin) v = { 0 };
	for (size_t x = 0; x < rc->nexcess; x++) {
		uint32_t i = rc->ex_act[x];
		float excess = rc->act_excess[i], cost = rc->ex_delay[x];
		if (excess <= 0) continue;
		while (rc->act_first[r + 1] <= i) r++;
		double on = 0;
		while (pk < rc->npath && onp[pk].act < i) pk++;
		for (size_t q = pk; q < rc->npath && onp[q].act == i; q++) on += onp[q].excess;
		double score = cost + on;
		if (score <= 0) continue;
		struct tc_rc_origin o = { i, r, score, excess, cost, on };
		VEC_PUSH(v, o);
	}
	free(onp);
	if (v.n) qsort(v.a, v.n, sizeof *v.a, origin_cmp);
	size_t n = TC_MIN(k, v.n);
	if (n) memcpy(out, v.a, n * sizeof *out);
	VEC_FREE(v);
	return n;
}
