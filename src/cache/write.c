/* write.c — the cache file written in one pass over the layout: the large
 * arrays first (their offsets known before the small structs that point at
 * them), then the small structs with offsets in place of pointers, the
 * strings, and the checksum table and header last.  The same pass serves
 * the serial writer (every byte is its own) and each process of
 * tracecomb-mpi (tc_cache_write_part: the layout from the global counts,
 * only its own ranks' and slices' bytes written, with pwrite at their
 * offsets; the gaps are other processes' bytes or zero padding).
 * docs/cache.md, docs/scale.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis_profile.h"
#include "analysis_replay.h"
#include "analysis_span.h"
#include "analysis_steps_dist.h"
#include "analysis_steps.h"
#include "analysis_waitstate.h"
#include "format.h"
#include "part.h"

#define WBUF ((size_t)1 << 20)

/* Global counts of the per-location and per-rank arrays (every process
 * computes the same layout from them). */
struct counts { uint64_t *calls, *samples, *xfers, *ops, *sends, *recvs; };

struct writer {
	int fd;
	uint64_t off;              /* the layout's position */
	struct tc_cache_header hdr;
	int sec;                   /* the open section */
	uint64_t opened;           /* bit s: section s was begun */
	bool mine;                 /* the bytes being put are this process's to write */
	bool dry;                  /* lay out only: nothing is written */
	bool bad;
	int err;                   /* errno of the first failed write */
	char *buf;                 /* bytes to write at buf_off */
	uint64_t buf_off;
	size_t nbuf;
	const struct tc_part *p;   /* what this process holds (the whole model when serial) */
	struct counts n;
	struct strbuf strings;     /* CS_STRINGS, built while the small structs are written (on every process) */
	uint64_t anchor[TC_ANCHOR_COUNT];   /* + 1: the places of the arrays pieces go to (0: none) */
};

static void flush(struct writer *w)
{
	if (w->nbuf && !w->bad && !tc_cache_pwrite(w->fd, w->buf, w->nbuf, w->buf_off)) w->bad = true, w->err = errno;
	w->nbuf = 0;
}

/* n bytes at the layout's position: written when they are this process's. */
static void put(struct writer *w, const void *p, size_t n)
{
	if (!n) return;
	if (w->mine && !w->bad && !w->dry) {
		if (w->nbuf && (w->buf_off + w->nbuf != w->off || w->nbuf + n > WBUF)) flush(w);
		if (!w->nbuf) w->buf_off = w->off;
		if (n > WBUF) {
			if (!tc_cache_pwrite(w->fd, p, n, w->off)) w->bad = true, w->err = errno;
		} else {
			memcpy(w->buf + w->nbuf, p, n);
			w->nbuf += n;
		}
	}
	w->off += n;
}

static void pad(struct writer *w)
{
	w->off = (w->off + TC_CACHE_ALIGN - 1) / TC_CACHE_ALIGN * TC_CACHE_ALIGN;   /* zeros: the file's holes */
}

static bool root(const struct writer *w) { return w->p->index == 0; }
static bool own_rank(const struct writer *w, uint32_t r) { return r >= w->p->lo && r < w->p->hi; }
static bool own_loc(const struct writer *w, uint32_t l)
{
	return tc_part_has_loc(w->p->t, l, w->p->lo, w->p->hi, w->p->index);
}

static void sec_begin(struct writer *w, int sec, bool mine)
{
	pad(w);   /* between sections: in none */
	w->sec = sec;
	w->opened |= (uint64_t)1 << sec;
	w->mine = mine;
	w->hdr.sec[sec].off = w->off;
}

static void sec_end(struct writer *w)
{
	w->hdr.sec[w->sec].size = w->off - w->hdr.sec[w->sec].off;
}

/* An array of n items (a global count) inside the open section, 64-byte
 * aligned, written when mine; its file offset (0 when empty). */
static uint64_t put_array(struct writer *w, const void *p, uint64_t n, size_t size, bool mine)
{
	if (!n) return 0;
	pad(w);
	uint64_t at = w->off;
	bool was = w->mine;
	w->mine = mine && p;
	put(w, p, n * size);
	w->off = at + n * size;
	w->mine = was;
	return at;
}

/* n bytes at the layout's position (not aligned), named (anchor) for the
 * pieces that fill them; written here when p holds them. */
static void put_or_hold(struct writer *w, int anchor, const void *p, size_t n)
{
	w->anchor[anchor] = n ? w->off + 1 : 0;
	if (p) put(w, p, n);
	else w->off += n;
}

/* The same for an array of n items, 64-byte aligned as put_array lays it
 * out; its offset (0 when empty). */
static uint64_t put_held(struct writer *w, int anchor, const void *p, uint64_t n, size_t size)
{
	if (!n) {
		w->anchor[anchor] = 0;
		return 0;
	}
	pad(w);
	uint64_t at = w->off;
	put_or_hold(w, anchor, p, n * size);
	return at;
}

/* A global array of total items of which this process holds n from first on. */
static void put_slice(struct writer *w, const void *p, uint64_t first, size_t n, uint64_t total, size_t size)
{
	uint64_t start = w->off;
	w->off = start + first * size;
	put(w, p, n * size);
	w->off = start + total * size;
}

/* A string as its offset in CS_STRINGS plus one (0 = NULL). */
static uintptr_t str_ref(struct writer *w, const char *s)
{
	if (!s) return 0;
	uintptr_t at = w->strings.len + 1;
	sb_addn(&w->strings, s, strlen(s) + 1);
	return at;
}

/* A location's transfers (structs with padding: zeroed in the file). */
static uint64_t put_xfers(struct writer *w, const struct tc_xfer *a, uint64_t n, bool mine)
{
	if (!n) return 0;
	pad(w);
	uint64_t at = w->off;
	for (size_t i = 0; mine && a && i < n; i++) {
		struct tc_xfer x;
		memset(&x, 0, sizeof x);
		x.begin = a[i].begin, x.end = a[i].end, x.bytes = a[i].bytes, x.flags = a[i].flags;
		put(w, &x, sizeof x);
	}
	w->off = at + n * sizeof(struct tc_xfer);
	return at;
}

/* The offsets of the per-rank and per-location arrays, written first. */
struct big { uint64_t *loc_calls, *loc_samples, *loc_xfers, *ops, *sends, *recvs, *rank_calls, *members; };

static void write_rank_arrays(struct writer *w, const struct tc_trace *t, struct big *B)
{
	sec_begin(w, CS_CALLS, true);
	for (uint32_t i = 0; i < t->nlocs; i++)
		B->loc_calls[i] = put_array(w, t->locs[i].calls, w->n.calls[i], sizeof(struct tc_call), own_loc(w, i));
	sec_end(w);
	sec_begin(w, CS_OPS, true);
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		B->ops[r] = put_array(w, R->ops, w->n.ops[r], sizeof(struct tc_op), own_rank(w, r));
		/* a rank's calls are its location's: their offset, kept for put_rank */
		B->rank_calls[r] = R->loc < t->nlocs && R->calls == t->locs[R->loc].calls ? B->loc_calls[R->loc] : 0;
	}
	sec_end(w);
	sec_begin(w, CS_SENDMSGS, true);
	for (uint32_t r = 0; r < t->nranks; r++) {
		B->sends[r] = put_array(w, t->ranks[r].send_msgs, w->n.sends[r], sizeof(uint32_t), own_rank(w, r));
		B->recvs[r] = put_array(w, t->ranks[r].recv_msgs, w->n.recvs[r], sizeof(uint32_t), own_rank(w, r));
	}
	sec_end(w);
	sec_begin(w, CS_SAMPLES, true);
	for (uint32_t i = 0; i < t->nlocs; i++)
		B->loc_samples[i] = put_array(w, t->locs[i].samples, w->n.samples[i], sizeof(struct tc_sample), own_loc(w, i));
	sec_end(w);
	sec_begin(w, CS_XFERS, true);
	for (uint32_t i = 0; i < t->nlocs; i++) B->loc_xfers[i] = put_xfers(w, t->locs[i].xfers, w->n.xfers[i], own_loc(w, i));
	sec_end(w);
}

/* The global arrays: messages, collectives, their members (this process's
 * slices at their places), comm members (definitions: process 0). */
static void write_globals(struct writer *w, const struct tc_trace *t, struct big *B)
{
	const struct tc_part *p = w->p;
	sec_begin(w, CS_MSGS, true);
	put_slice(w, p->msgs, p->msg_first, p->nmsgs, p->msgs_total, sizeof *p->msgs);
	sec_end(w);
	sec_begin(w, CS_COLLS, true);
	uint64_t start = w->off;
	w->off += p->coll_first * sizeof(struct tc_coll);
	for (size_t c = 0; c < p->ncolls; c++) {
		const struct tc_coll *o = &p->colls[c];
		struct tc_coll x;
		memset(&x, 0, sizeof x);   /* its padding zero in the file */
		x.begin = o->begin, x.end = o->end, x.comm = o->comm, x.root = o->root;
		x.first = o->first, x.n = o->n, x.op = o->op;
		put(w, &x, sizeof x);
	}
	w->off = start + p->colls_total * sizeof(struct tc_coll);
	sec_end(w);
	sec_begin(w, CS_COLLMEMB, true);
	start = w->off;
	size_t size = sizeof *p->members;
	if (!p->member_at) put(w, p->members, p->nmembers * size);   /* serial: the whole array */
	for (size_t i = 0; p->member_at && i < p->nmembers; i++) {
		w->off = start + p->member_at[i] * size;
		put(w, &p->members[i], size);
	}
	w->off = start + p->members_total * size;
	sec_end(w);
	sec_begin(w, CS_MEMBERS, root(w));
	for (uint32_t c = 0; c < t->ncomms; c++)
		B->members[c] = put_array(w, t->comms[c].members, t->comms[c].size, sizeof(uint32_t), root(w));
	sec_end(w);
}

/* The logical steps: their arrays, then the struct with offsets for pointers.
 * The per-event arrays (cevs, wide values, message ends) are written from
 * st when it holds them, else laid out for the processes' pieces. */
static void write_steps(struct writer *w, const struct tc_steps *st, uint32_t nranks, size_t nmsgs)
{
	sec_begin(w, CS_CEVS, root(w));
	uint64_t cevs = st ? put_held(w, TC_ANCHOR_CEVS, st->cevs, st->ncevs, sizeof *st->cevs) : 0;
	sec_end(w);
	sec_begin(w, CS_STEPARR, root(w));
	struct tc_steps img;
	memset(&img, 0, sizeof img);   /* field by field below: no stray padding bytes in the file */
	if (st) {
		img.opts = st->opts;
		img.ncevs = st->ncevs;
		img.npartitions = st->npartitions;
		img.max_step = st->max_step;
		img.cevs = (void *)(uintptr_t)cevs;
		img.rank_first = (void *)(uintptr_t)put_array(w, st->rank_first, (size_t)nranks + 1, sizeof(uint32_t), true);
		img.parts = (void *)(uintptr_t)put_array(w, st->parts, st->npartitions, sizeof *st->parts, true);
		img.steps = (void *)(uintptr_t)put_array(w, st->steps, (size_t)st->max_step + 1, sizeof *st->steps, true);
		img.nslots = st->nslots;
		img.slots = (void *)(uintptr_t)put_array(w, st->slots, st->nslots, sizeof *st->slots, true);
		img.nwide = st->nwide;
		img.wide = (void *)(uintptr_t)put_held(w, TC_ANCHOR_WIDE, st->wide, st->nwide, sizeof *st->wide);
		img.msg_send_cev = (void *)(uintptr_t)put_held(w, TC_ANCHOR_SEND, st->msg_send_cev, nmsgs, sizeof(uint32_t));
		img.msg_recv_cev = (void *)(uintptr_t)put_held(w, TC_ANCHOR_RECV, st->msg_recv_cev, nmsgs, sizeof(uint32_t));
	}
	sec_end(w);
	sec_begin(w, CS_STEPS, root(w));
	if (st) put(w, &img, sizeof img);
	sec_end(w);
}

/* The application span: its struct (pointers zero), then both per-rank arrays. */
static void write_span(struct writer *w, const struct tc_span *sp, uint32_t nranks)
{
	sec_begin(w, CS_SPAN, root(w));
	if (sp) {
		struct tc_span img;
		memcpy(&img, sp, sizeof img);
		img.rank_t0 = img.rank_t1 = NULL;
		put(w, &img, sizeof img);
		put(w, sp->rank_t0, (size_t)nranks * sizeof *sp->rank_t0);
		put(w, sp->rank_t1, (size_t)nranks * sizeof *sp->rank_t1);
	}
	sec_end(w);
}

/* The wait states' totals and per-rank times (the struct with its pointers
 * zero and n the count of every wait), and the place of the whole list of
 * waits, packed (format.h, CS_WAITS): each process writes its own ranks'
 * counts and records there (put_waits). */
static void write_ws(struct writer *w, const struct tc_waitstates *ws, uint32_t nranks)
{
	uint64_t n = ws ? tc_ws_count(ws) : 0;
	sec_begin(w, CS_WSTATS, root(w));
	if (ws) {
		struct tc_waitstates img;
		memset(&img, 0, sizeof img);
		img.n = n;
		memcpy(img.total, ws->total, sizeof img.total);
		img.mpi_time = ws->mpi_time, img.run_time = ws->run_time, img.clamped = ws->clamped;
		put(w, &img, sizeof img);
		put(w, ws->waited, (size_t)nranks * sizeof *ws->waited);
		put(w, ws->caused, (size_t)nranks * sizeof *ws->caused);
	}
	sec_end(w);
	sec_begin(w, CS_WAITS, false);
	if (ws) w->off += TC_WAITS_HEAD(nranks) + n * TC_WAIT_REC;
	sec_end(w);
}

/* This process's ranks' wait counts and waits at their places in CS_WAITS
 * (laid out before). */
static void put_waits(struct writer *w, const struct tc_cache_results *res)
{
	if (!w->hdr.sec[CS_WAITS].size) return;   /* none stored (process 0's results decide) */
	uint64_t end = w->off, base = w->hdr.sec[CS_WAITS].off;
	uint32_t lo = w->p->lo, hi = w->p->hi;
	uint32_t *cnt = xcalloc((size_t)(hi - lo) + 1, sizeof *cnt);
	for (size_t i = 0; i < res->nwaits; i++) cnt[res->waits[i].rank - lo]++;
	w->mine = true;
	w->off = base + (uint64_t)lo * sizeof *cnt;
	put(w, cnt, (size_t)(hi - lo) * sizeof *cnt);
	w->off = base + TC_WAITS_HEAD(w->p->t->nranks) + res->waits_first * TC_WAIT_REC;
	for (size_t i = 0; i < res->nwaits; i++) {
		const struct tc_wait *a = &res->waits[i];
		unsigned char x[TC_WAIT_REC];
		memcpy(x, &a->call, 4), memcpy(x + 4, &a->cause, 4), memcpy(x + 8, &a->cause_call, 4);
		x[12] = a->kind;
		memcpy(x + 13, &a->seconds, 8);
		put(w, x, sizeof x);
	}
	free(cnt);
	w->off = end;
}

/* This process's pieces at their places (laid out before: put_held, the
 * blobs' holes). */
static void put_pieces(struct writer *w, const struct tc_cache_results *res)
{
	uint64_t end = w->off;
	w->mine = true;
	for (size_t i = 0; i < res->npieces; i++) {
		const struct tc_cache_piece *x = &res->pieces[i];
		if (!x->size || x->anchor < 0 || x->anchor >= TC_ANCHOR_COUNT || !w->anchor[x->anchor]) continue;
		w->off = w->anchor[x->anchor] - 1 + x->off;
		put(w, x->p, x->size);
	}
	w->off = end;
}

size_t tc_cache_ex_pieces(const struct tc_rc_exslice *e, struct tc_cache_piece out[4])
{
	out[0] = (struct tc_cache_piece){ TC_ANCHOR_EX_ACT, e->first * sizeof *e->act, e->act, e->n * sizeof *e->act };
	out[1] = (struct tc_cache_piece){ TC_ANCHOR_EX_EXCESS, e->first * sizeof *e->excess, e->excess,
					  e->n * sizeof *e->excess };
	out[2] = (struct tc_cache_piece){ TC_ANCHOR_EX_DELAY, e->first * sizeof *e->delay, e->delay, e->n * sizeof *e->delay };
	out[3] = (struct tc_cache_piece){ TC_ANCHOR_EX_OUTLIER, e->first, e->outlier, e->n };
	return 4;
}

size_t tc_cache_steps_pieces(const struct tc_steps_slice *sl, struct tc_cache_piece out[4])
{
	if (sl->whole) return 0;
	out[0] = (struct tc_cache_piece){ TC_ANCHOR_CEVS, sl->first * sizeof *sl->cevs, sl->cevs,
					  (uint64_t)sl->ncevs * sizeof *sl->cevs };
	out[1] = (struct tc_cache_piece){ TC_ANCHOR_WIDE, sl->wide_first * sizeof *sl->wide, sl->wide,
					  sl->nwide * sizeof *sl->wide };
	out[2] = (struct tc_cache_piece){ TC_ANCHOR_SEND, sl->msg_first * sizeof *sl->send, sl->send,
					  sl->nmsgs * sizeof *sl->send };
	out[3] = (struct tc_cache_piece){ TC_ANCHOR_RECV, sl->msg_first * sizeof *sl->recv, sl->recv,
					  sl->nmsgs * sizeof *sl->recv };
	return 4;
}

static void put_cells(struct writer *w, const struct tc_prof_table *pt)
{
	uint64_t n = pt ? pt->n : 0;
	put(w, &n, sizeof n);
	for (uint64_t i = 0; i < n; i++) {
		struct tc_prof_cell x;
		memset(&x, 0, sizeof x);
		x.region = pt->cells[i].region, x.who = pt->cells[i].who, x.calls = pt->cells[i].calls;
		x.excl = pt->cells[i].excl, x.incl = pt->cells[i].incl;
		put(w, &x, sizeof x);
	}
}

/* The flat profile (the struct, pointers zero, then its regions) and the
 * per-location and per-rank tables. */
static void write_profile(struct writer *w, const struct tc_cache_results *res)
{
	const struct tc_profile *p = res->profile;
	sec_begin(w, CS_PROFILE, root(w));
	if (p) {
		struct tc_profile img;
		memset(&img, 0, sizeof img);
		img.n = p->n, img.total = p->total, img.mpi = p->mpi;
		memcpy(img.hist_count, p->hist_count, sizeof img.hist_count);
		memcpy(img.hist_bytes, p->hist_bytes, sizeof img.hist_bytes);
		put(w, &img, sizeof img);
		for (uint32_t i = 0; i < p->n; i++) {
			const struct tc_prof_region *a = &p->regions[i];
			struct tc_prof_region x;
			memset(&x, 0, sizeof x);
			x.region = a->region, x.calls = a->calls, x.incl = a->incl, x.excl = a->excl;
			x.excl_min = a->excl_min, x.excl_max = a->excl_max, x.rank_max = a->rank_max;
			x.nranks = a->nranks, x.imbalance = a->imbalance;
			put(w, &x, sizeof x);
		}
		put_cells(w, res->per_loc);
		put_cells(w, res->per_rank);
	}
	sec_end(w);
}

/* The root causes beyond the activities (format.h, CS_RCAUSE): the head,
 * the contexts with their padding zero, the per-rank sums, the activities
 * with excess (from x, or laid out for the processes' pieces when x has
 * only their count), the path pieces packed. */
static void write_rcause(struct writer *w, const struct tc_rc_results *x)
{
	sec_begin(w, CS_RCAUSE, root(w));
	if (x) {
		struct tc_cache_rc h = { x->nranks, x->nctx, x->nexcess, x->npath, x->fig };
		put(w, &h, sizeof h);
		for (uint32_t c = 0; c < x->nctx; c++) {
			const struct tc_rc_ctx *a = &x->ctx[c];
			struct tc_rc_ctx z;
			memset(&z, 0, sizeof z);
			z.key = a->key, z.coarse = a->coarse, z.place = a->place, z.work = a->work, z.n = a->n;
			z.nranks = a->nranks, z.region = a->region, z.kind = a->kind, z.inter = a->inter;
			z.size_bucket = a->size_bucket, z.quiet = a->quiet, z.typical = a->typical, z.median = a->median;
			z.mad = a->mad, z.threshold = a->threshold, z.full_median = a->full_median;
			z.full_threshold = a->full_threshold;
			put(w, &z, sizeof z);
		}
		size_t arr = (size_t)x->nranks * sizeof(double);
		put(w, x->wait_s, arr), put(w, x->delay_cost, arr);
		put(w, x->path_compute_excess, arr), put(w, x->path_mpi_excess, arr);
		put_or_hold(w, TC_ANCHOR_EX_ACT, x->ex_act, x->nexcess * sizeof *x->ex_act);
		put_or_hold(w, TC_ANCHOR_EX_EXCESS, x->ex_excess, x->nexcess * sizeof *x->ex_excess);
		put_or_hold(w, TC_ANCHOR_EX_DELAY, x->ex_delay, x->nexcess * sizeof *x->ex_delay);
		put_or_hold(w, TC_ANCHOR_EX_OUTLIER, x->ex_outlier, x->nexcess);
		for (size_t k = 0; k < x->npath; k++) {
			const struct tc_cp_piece *a = &x->path[k];
			unsigned char z[TC_PIECE_REC];
			memcpy(z, &a->act, 4), z[4] = a->kind, memcpy(z + 5, &a->start, 8), memcpy(z + 13, &a->end, 8);
			put(w, z, sizeof z);
		}
	}
	sec_end(w);
}

/* The blobs: a table of names and offsets, then each blob 64-byte aligned
 * (its holes laid out for the pieces). */
static void write_blobs(struct writer *w, const struct tc_cache_blob *b, size_t n)
{
	sec_begin(w, CS_BLOBS, root(w));
	struct tc_cache_blob_ent *ents = xcalloc(n + 1, sizeof *ents);
	uint64_t at = n * sizeof *ents;
	for (size_t i = 0; i < n; i++) {
		at = (at + TC_CACHE_ALIGN - 1) / TC_CACHE_ALIGN * TC_CACHE_ALIGN;
		snprintf(ents[i].name, sizeof ents[i].name, "%s", b[i].name);
		ents[i].off = at;
		ents[i].size = b[i].size;
		at += b[i].size;
	}
	put(w, ents, n * sizeof *ents);
	for (size_t i = 0; i < n; i++) {
		pad(w);
		uint64_t start = w->off, done = 0;
		const char *q = b[i].p;
		for (size_t k = 0; k < b[i].nholes; k++) {   /* the bytes between the holes */
			const struct tc_cache_hole *h = &b[i].holes[k];
			put(w, q, h->at - done);
			q += h->at - done;
			w->anchor[h->anchor] = start + h->at + 1;
			w->off = start + h->at + h->size;
			done = h->at + h->size;
		}
		put(w, q, b[i].size - done);
	}
	free(ents);
	sec_end(w);
}

/* The small structs as they go into the file: every field copied into a
 * zeroed struct (no stray padding bytes from the heap in the file),
 * offsets in place of pointers. */
#define OFF(x) ((void *)(uintptr_t)(x))

static void put_rank(struct writer *w, const struct tc_trace *t, const struct big *B, uint32_t r)
{
	const struct tc_rank *R = &t->ranks[r];
	struct tc_rank x;
	memset(&x, 0, sizeof x);
	x.loc = R->loc, x.node = R->node, x.ncalls = R->ncalls, x.nops = R->nops;
	x.nsend_msgs = R->nsend_msgs, x.nrecv_msgs = R->nrecv_msgs;
	x.first_time = R->first_time, x.last_time = R->last_time;
	x.calls = OFF(B->rank_calls[r]);
	x.ops = OFF(B->ops[r]), x.send_msgs = OFF(B->sends[r]), x.recv_msgs = OFF(B->recvs[r]);
	w->mine = own_rank(w, r);
	put(w, &x, sizeof x);
}

static void put_loc(struct writer *w, const struct tc_trace *t, const struct big *B, uint32_t i)
{
	const struct tc_loc *L = &t->locs[i];
	struct tc_loc x;
	memset(&x, 0, sizeof x);
	x.id = L->id, x.rank = L->rank, x.thread = L->thread, x.type = L->type;
	x.nevents_def = L->nevents_def, x.nevents_read = L->nevents_read, x.last_record = L->last_record;
	x.ncalls = L->ncalls, x.nsamples = L->nsamples, x.nxfers = L->nxfers;
	x.name = OFF(str_ref(w, L->name));
	x.calls = OFF(B->loc_calls[i]), x.samples = OFF(B->loc_samples[i]), x.xfers = OFF(B->loc_xfers[i]);
	w->mine = own_loc(w, i);
	put(w, &x, sizeof x);
}

static void put_defs(struct writer *w, const struct tc_trace *t, const struct big *B)
{
	sec_begin(w, CS_NODES, root(w));
	for (uint32_t i = 0; i < t->nnodes; i++) {
		struct tc_node x = { OFF(str_ref(w, t->nodes[i].name)) };
		put(w, &x, sizeof x);
	}
	sec_end(w);
	sec_begin(w, CS_REGIONS, root(w));
	for (uint32_t i = 0; i < t->nregions; i++) {
		const struct tc_region *g = &t->regions[i];
		struct tc_region x;
		memset(&x, 0, sizeof x);
		x.name = OFF(str_ref(w, g->name)), x.kind = g->kind, x.paradigm = g->paradigm, x.role = g->role;
		put(w, &x, sizeof x);
	}
	sec_end(w);
	sec_begin(w, CS_COMMS, root(w));
	for (uint32_t i = 0; i < t->ncomms; i++) {
		const struct tc_comm *c = &t->comms[i];
		struct tc_comm x;
		memset(&x, 0, sizeof x);
		x.name = OFF(str_ref(w, c->name)), x.size = c->size, x.members = OFF(B->members[i]);
		x.self = c->self, x.global = c->global;
		put(w, &x, sizeof x);
	}
	sec_end(w);
	sec_begin(w, CS_METRICS, root(w));
	for (uint32_t i = 0; i < t->nmetrics; i++) {
		const struct tc_metric_def *m = &t->metrics[i];
		struct tc_metric_def x;
		memset(&x, 0, sizeof x);
		x.name = OFF(str_ref(w, m->name)), x.unit = OFF(str_ref(w, m->unit));
		x.mode = m->mode, x.timing = m->timing, x.vtype = m->vtype, x.nsamples = m->nsamples;
		put(w, &x, sizeof x);
	}
	sec_end(w);
}

static void write_small(struct writer *w, const struct tc_trace *t, const struct big *B)
{
	sec_begin(w, CS_RANKS, false);
	for (uint32_t r = 0; r < t->nranks; r++) put_rank(w, t, B, r);
	sec_end(w);
	sec_begin(w, CS_LOCS, false);
	for (uint32_t i = 0; i < t->nlocs; i++) put_loc(w, t, B, i);
	sec_end(w);
	put_defs(w, t, B);
	sec_begin(w, CS_WARNINGS, root(w));
	for (size_t i = 0; i < t->warnings.n; i++) {
		uint64_t ref = str_ref(w, t->warnings.a[i]);
		put(w, &ref, sizeof ref);
	}
	sec_end(w);
}

/* The trace's own struct with every pointer (and the builder state) zero. */
static void write_trace(struct writer *w, const struct tc_trace *t)
{
	struct tc_trace img;
	memcpy(&img, t, sizeof img);
	img.anchor = NULL;
	img.nmsgs = w->p->msgs_total, img.ncolls = w->p->colls_total;   /* a part holds slices */
	img.ranks = NULL, img.locs = NULL, img.nodes = NULL, img.regions = NULL;
	img.comms = NULL, img.metrics = NULL, img.msgs = NULL, img.colls = NULL, img.coll_members = NULL;
	memset(&img.msgs_map, 0, sizeof img.msgs_map);
	memset(&img.mapped, 0, sizeof img.mapped);
	memset(&img.warnings, 0, sizeof img.warnings);
	img.arena = NULL;
	img.b = NULL;
	sec_begin(w, CS_TRACE, root(w));
	put(w, &img, sizeof img);
	sec_end(w);
}

static void fill_header(struct writer *w)
{
	struct tc_cache_header *h = &w->hdr;
	memcpy(h->magic, TC_CACHE_MAGIC, 8);
	h->format = TC_CACHE_FORMAT;
	h->endian = 0x01020304;
	snprintf(h->version, sizeof h->version, "%s", TC_VERSION);
	h->layout = tc_cache_layout();
	h->nsections = CS_COUNT;
	tc_cache_plan_chunks(h, w->off);
}

/* What is stored beside the model: the steps, the span, the blobs. */
static void write_results(struct writer *w, const struct tc_cache_results *res)
{
	write_steps(w, res->steps, w->p->t->nranks, w->p->msgs_total);
	write_span(w, res->span, w->p->t->nranks);
	write_ws(w, res->ws, w->p->t->nranks);
	write_profile(w, res);
	write_rcause(w, res->rc);
	write_blobs(w, res->blobs, res->nblobs);
}

/* Those sections are process 0's alone to write (but the waits, whose
 * slices every process writes after: put_waits); the other processes take
 * their places from its dry run (laid out from offset 0, nothing written):
 * v[0] bit s for each section it opened, v[1 + 2s] and v[2 + 2s] the
 * section's offset and size, v[RES_END] the end.  So they never read the
 * results, whatever their serialisation. */
#define RES_END (1 + 2 * CS_COUNT)
#define RES_ANCHOR (RES_END + 1)   /* then the anchors (+ 1; 0: none) */
#define RES_LEN (RES_ANCHOR + TC_ANCHOR_COUNT)
_Static_assert(CS_COUNT <= 64, "a bit per section");

static void results_layout(const struct writer *w, const struct tc_cache_results *res, uint64_t *v)
{
	struct writer dry = { .p = w->p, .dry = true };
	write_results(&dry, res);
	v[0] = dry.opened;
	for (int s = 0; s < CS_COUNT; s++) v[1 + 2 * s] = dry.hdr.sec[s].off, v[2 + 2 * s] = dry.hdr.sec[s].size;
	v[RES_END] = dry.off;
	memcpy(v + RES_ANCHOR, dry.anchor, sizeof dry.anchor);
}

static void place_results(struct writer *w, const uint64_t *v)
{
	pad(w);
	uint64_t base = w->off;
	for (int s = 0; s < CS_COUNT; s++)
		if (v[0] >> s & 1) w->hdr.sec[s].off = base + v[1 + 2 * s], w->hdr.sec[s].size = v[2 + 2 * s];
	for (int a = 0; a < TC_ANCHOR_COUNT; a++) w->anchor[a] = v[RES_ANCHOR + a] ? base + v[RES_ANCHOR + a] : 0;
	w->off = base + v[RES_END];
}

/* The sections whose places do not depend on what is stored beside the
 * model, this process's bytes of them written: the identity, the per-rank
 * and per-location arrays, the global arrays (their offsets into *B). */
static void write_head(struct writer *w, const char *identity, struct big *B)
{
	const struct tc_trace *t = w->p->t;
	w->off = sizeof(struct tc_cache_header);   /* the header's place, written last */
	sec_begin(w, CS_IDENT, root(w));
	put(w, identity, strlen(identity) + 1);
	sec_end(w);
	size_t nl = (size_t)t->nlocs + 1, nr = (size_t)t->nranks + 1;
	B->loc_calls = xcalloc(nl, 8), B->loc_samples = xcalloc(nl, 8), B->loc_xfers = xcalloc(nl, 8);
	B->ops = xcalloc(nr, 8), B->sends = xcalloc(nr, 8), B->recvs = xcalloc(nr, 8), B->rank_calls = xcalloc(nr, 8);
	B->members = xcalloc((size_t)t->ncomms + 1, 8);
	write_rank_arrays(w, t, B);
	write_globals(w, t, B);
	flush(w);
}

/* The rest in layout order, this process's bytes of it written (the header
 * and checksum table not yet); the header planned in w->hdr.  The results
 * are written from res, or only placed (placed: results_layout's).  Reads
 * of the model only counts, definitions and scalars: the event arrays may
 * be gone since write_head (tc_trace_drop_events). */
static void write_tail(struct writer *w, const struct tc_cache_results *res, const uint64_t *placed, struct big *B)
{
	const struct tc_trace *t = w->p->t;
	if (placed) place_results(w, placed);
	else write_results(w, res);
	put_waits(w, res);   /* every process its slice */
	put_pieces(w, res);
	write_small(w, t, B);
	write_trace(w, t);
	sec_begin(w, CS_STRINGS, root(w));
	put(w, w->strings.s ? w->strings.s : "", w->strings.len + 1);
	sec_end(w);
	flush(w);
	fill_header(w);
	free(B->loc_calls), free(B->loc_samples), free(B->loc_xfers);
	free(B->ops), free(B->sends), free(B->recvs), free(B->rank_calls), free(B->members);
	sb_free(&w->strings);
}

/* The counts of every location's and rank's arrays: this process's, then
 * (d) summed over the processes. */
static uint64_t *count_arrays(struct writer *w, const struct tc_dist *d)
{
	const struct tc_trace *t = w->p->t;
	size_t nl = t->nlocs, nr = t->nranks, n = 3 * nl + 3 * nr;
	uint64_t *c = xcalloc(n + 1, sizeof *c);
	w->n = (struct counts){ c, c + nl, c + 2 * nl, c + 3 * nl, c + 3 * nl + nr, c + 3 * nl + 2 * nr };
	for (uint32_t i = 0; i < nl; i++)
		if (own_loc(w, i))
			w->n.calls[i] = t->locs[i].ncalls, w->n.samples[i] = t->locs[i].nsamples, w->n.xfers[i] = t->locs[i].nxfers;
	for (uint32_t r = 0; r < nr; r++)
		if (own_rank(w, r))
			w->n.ops[r] = t->ranks[r].nops, w->n.sends[r] = t->ranks[r].nsend_msgs, w->n.recvs[r] = t->ranks[r].nrecv_msgs;
	if (d) d->reduce(d->ctx, c, n, TC_DIST_SUM);
	return c;
}

static bool fail(struct writer *w, char **err)
{
	*err = xstrdup(w->err ? strerror(w->err) : "write error");
	return false;
}

bool tc_cache_write(FILE *f, const struct tc_trace *t, const struct tc_cache_results *res, const char *identity,
		    char **err)
{
	/* the whole model as the one part: every byte this process's */
	size_t nmemb = 0;
	for (size_t c = 0; c < t->ncolls; c++) nmemb = TC_MAX(nmemb, (size_t)t->colls[c].first + t->colls[c].n);
	struct tc_part whole = { .t = (struct tc_trace *)t, .count = 1, .hi = t->nranks, .msgs = t->msgs,
				 .nmsgs = t->nmsgs, .msgs_total = t->nmsgs, .colls = t->colls, .ncolls = t->ncolls,
				 .colls_total = t->ncolls, .members = t->coll_members, .nmembers = nmemb,
				 .members_total = nmemb };
	struct writer w = { .p = &whole, .buf = xmalloc(WBUF) };
	if (fflush(f) != 0) w.bad = true, w.err = errno;
	w.fd = fileno(f);
	uint64_t *counts = count_arrays(&w, NULL);
	struct big B;
	if (!w.bad) write_head(&w, identity, &B), write_tail(&w, res, NULL, &B);
	uint64_t *sums = xcalloc(w.hdr.nchunks + 1, sizeof *sums);
	if (!w.bad && (!tc_cache_sum_range(w.fd, &w.hdr, 0, w.hdr.nchunks, sums) || !tc_cache_finish_file(w.fd, &w.hdr, sums)))
		w.bad = true, w.err = errno;
	free(sums), free(counts), free(w.buf);
	return w.bad ? fail(&w, err) : true;
}

struct tc_cache_wpart {
	struct writer w;
	struct big B;
	uint64_t *counts;
	const struct tc_dist *d;
};

struct tc_cache_wpart *tc_cache_write_begin(int fd, const struct tc_part *p, const struct tc_dist *d,
					    const char *identity)
{
	struct tc_cache_wpart *c = xcalloc(1, sizeof *c);
	c->w = (struct writer){ .fd = fd, .p = p, .buf = xmalloc(WBUF) };
	c->d = d;
	c->counts = count_arrays(&c->w, d);
	write_head(&c->w, identity, &c->B);
	return c;
}

/* The checksums of chunks [c0, c1), read through a new open of the file:
 * the chunks were written by other processes, maybe on other nodes, and a
 * network file system (NFS: close-to-open consistency) shows their bytes to
 * an open made after their fsync, not to a descriptor opened before
 * (docs/scale.md, "The parallel write").  The descriptor itself where the
 * file cannot be opened again. */
static bool sum_fresh(int fd, const struct tc_cache_header *h, uint64_t c0, uint64_t c1, uint64_t *sums)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int again = open(path, O_RDONLY | O_CLOEXEC);
	bool ok = tc_cache_sum_range(again >= 0 ? again : fd, h, c0, c1, sums);
	int e = errno;
	if (again >= 0) close(again);
	errno = e;
	return ok;
}

bool tc_cache_write_end(struct tc_cache_wpart *c, const struct tc_cache_results *res, char **err)
{
	struct writer w = c->w;
	const struct tc_part *p = w.p;
	const struct tc_dist *d = c->d;
	struct tc_cache_results none = { 0 };
	uint64_t placed[RES_LEN] = { 0 };
	if (root(&w)) results_layout(&w, res ? res : &none, placed);
	d->reduce(d->ctx, placed, RES_LEN, TC_DIST_MAX);   /* process 0's, to all */
	write_tail(&w, res ? res : &none, root(&w) ? NULL : placed, &c->B);
	if (!w.bad && fsync(w.fd) != 0) w.bad = true, w.err = errno;
	/* every process's bytes are in the file: each checksums its share of the chunks */
	uint64_t bad = w.bad, c0 = w.hdr.nchunks * (uint64_t)p->index / (uint64_t)p->count;
	uint64_t c1 = w.hdr.nchunks * (uint64_t)(p->index + 1) / (uint64_t)p->count;
	d->reduce(d->ctx, &bad, 1, TC_DIST_MAX);
	uint64_t *sums = xcalloc(w.hdr.nchunks + 1, sizeof *sums);
	if (!bad && !sum_fresh(w.fd, &w.hdr, c0, c1, sums)) w.bad = true, w.err = errno;
	bad = w.bad;
	d->reduce(d->ctx, &bad, 1, TC_DIST_MAX);
	if (!bad) d->reduce(d->ctx, sums, w.hdr.nchunks, TC_DIST_SUM);
	if (!bad && root(&w) && (!tc_cache_finish_file(w.fd, &w.hdr, sums) || fsync(w.fd) != 0)) w.bad = true, w.err = errno;
	free(sums), free(c->counts), free(w.buf);
	free(c);
	if (w.bad) return fail(&w, err);
	*err = NULL;   /* when another process failed */
	return !bad;
}

bool tc_cache_write_part(int fd, const struct tc_part *p, const struct tc_dist *d, const struct tc_cache_results *res,
			 const char *identity, char **err)
{
	return tc_cache_write_end(tc_cache_write_begin(fd, p, d, identity), res, err);
}
