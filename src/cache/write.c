/* write.c — the cache file written in one pass: the large arrays first (their
 * offsets known before the small structs that point at them), then the small
 * structs with offsets in place of pointers, the strings, and the header with
 * every section's checksum last, at offset 0.  docs/cache.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_span.h"
#include "analysis_steps.h"
#include "format.h"

struct writer {
	FILE *f;
	uint64_t off;              /* bytes written so far */
	struct tc_hash h;          /* of the open section */
	struct tc_cache_header hdr;
	int sec;                   /* the open section */
	bool bad;
	int err;                   /* errno of the first failed write */
	struct strbuf strings;     /* CS_STRINGS, built while the small structs are written */
};

static void put(struct writer *w, const void *p, size_t n)
{
	if (!n || w->bad) return;
	if (fwrite(p, 1, n, w->f) != n) w->bad = true, w->err = errno;
	tc_hash_add(&w->h, p, n);
	w->off += n;
}

static void pad(struct writer *w)
{
	static const char zeros[TC_CACHE_ALIGN];
	put(w, zeros, (TC_CACHE_ALIGN - w->off % TC_CACHE_ALIGN) % TC_CACHE_ALIGN);
}

static void sec_begin(struct writer *w, int sec)
{
	static const char zeros[TC_CACHE_ALIGN];
	size_t n = (TC_CACHE_ALIGN - w->off % TC_CACHE_ALIGN) % TC_CACHE_ALIGN;
	if (n && fwrite(zeros, 1, n, w->f) != n) w->bad = true, w->err = errno;   /* between sections: in none */
	w->off += n;
	w->sec = sec;
	w->hdr.sec[sec].off = w->off;
	tc_hash_init(&w->h, (uint64_t)sec);
}

static void sec_end(struct writer *w)
{
	w->hdr.sec[w->sec].size = w->off - w->hdr.sec[w->sec].off;
	w->hdr.sec[w->sec].sum = tc_hash_end(&w->h);
}

/* An array inside the open section, 64-byte aligned; its file offset (0 when empty). */
static uint64_t put_array(struct writer *w, const void *p, size_t n, size_t size)
{
	if (!n || !p) return 0;
	pad(w);
	uint64_t at = w->off;
	put(w, p, n * size);
	return at;
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
static uint64_t put_xfers(struct writer *w, const struct tc_xfer *a, size_t n)
{
	if (!n || !a) return 0;
	pad(w);
	uint64_t at = w->off;
	for (size_t i = 0; i < n; i++) {
		struct tc_xfer x;
		memset(&x, 0, sizeof x);
		x.begin = a[i].begin, x.end = a[i].end, x.bytes = a[i].bytes, x.flags = a[i].flags;
		put(w, &x, sizeof x);
	}
	return at;
}

/* The offsets of the per-rank and per-location arrays, written first. */
struct big { uint64_t *loc_calls, *loc_samples, *loc_xfers, *ops, *sends, *recvs, *members; };

static void write_big(struct writer *w, const struct tc_trace *t, struct big *B)
{
	sec_begin(w, CS_CALLS);
	for (uint32_t i = 0; i < t->nlocs; i++) B->loc_calls[i] = put_array(w, t->locs[i].calls, t->locs[i].ncalls, sizeof(struct tc_call));
	sec_end(w);
	sec_begin(w, CS_OPS);
	for (uint32_t r = 0; r < t->nranks; r++) B->ops[r] = put_array(w, t->ranks[r].ops, t->ranks[r].nops, sizeof(struct tc_op));
	sec_end(w);
	sec_begin(w, CS_SENDMSGS);
	for (uint32_t r = 0; r < t->nranks; r++) {
		B->sends[r] = put_array(w, t->ranks[r].send_msgs, t->ranks[r].nsend_msgs, sizeof(uint32_t));
		B->recvs[r] = put_array(w, t->ranks[r].recv_msgs, t->ranks[r].nrecv_msgs, sizeof(uint32_t));
	}
	sec_end(w);
	sec_begin(w, CS_SAMPLES);
	for (uint32_t i = 0; i < t->nlocs; i++) B->loc_samples[i] = put_array(w, t->locs[i].samples, t->locs[i].nsamples, sizeof(struct tc_sample));
	sec_end(w);
	sec_begin(w, CS_XFERS);
	for (uint32_t i = 0; i < t->nlocs; i++) B->loc_xfers[i] = put_xfers(w, t->locs[i].xfers, t->locs[i].nxfers);
	sec_end(w);
	sec_begin(w, CS_MSGS);
	put(w, t->msgs, t->nmsgs * sizeof *t->msgs);
	sec_end(w);
	sec_begin(w, CS_COLLS);
	for (size_t c = 0; c < t->ncolls; c++) {
		const struct tc_coll *o = &t->colls[c];
		struct tc_coll x;
		memset(&x, 0, sizeof x);   /* its padding zero in the file */
		x.begin = o->begin, x.end = o->end, x.comm = o->comm, x.root = o->root;
		x.first = o->first, x.n = o->n, x.op = o->op;
		put(w, &x, sizeof x);
	}
	sec_end(w);
	sec_begin(w, CS_COLLMEMB);
	size_t nmemb = 0;
	for (size_t c = 0; c < t->ncolls; c++) nmemb = TC_MAX(nmemb, (size_t)t->colls[c].first + t->colls[c].n);
	put(w, t->coll_members, nmemb * sizeof *t->coll_members);
	sec_end(w);
	sec_begin(w, CS_MEMBERS);
	for (uint32_t c = 0; c < t->ncomms; c++) B->members[c] = put_array(w, t->comms[c].members, t->comms[c].size, sizeof(uint32_t));
	sec_end(w);
}

/* The logical steps: their arrays, then the struct with offsets for pointers. */
static void write_steps(struct writer *w, const struct tc_steps *st, uint32_t nranks, size_t nmsgs)
{
	sec_begin(w, CS_CEVS);
	uint64_t cevs = st ? put_array(w, st->cevs, st->ncevs, sizeof *st->cevs) : 0;
	sec_end(w);
	sec_begin(w, CS_STEPARR);
	struct tc_steps img;
	memset(&img, 0, sizeof img);   /* field by field below: no stray padding bytes in the file */
	if (st) {
		img.opts = st->opts;
		img.ncevs = st->ncevs;
		img.npartitions = st->npartitions;
		img.max_step = st->max_step;
		img.cevs = (void *)(uintptr_t)cevs;
		img.rank_first = (void *)(uintptr_t)put_array(w, st->rank_first, (size_t)nranks + 1, sizeof(uint32_t));
		img.parts = (void *)(uintptr_t)put_array(w, st->parts, st->npartitions, sizeof *st->parts);
		img.steps = (void *)(uintptr_t)put_array(w, st->steps, (size_t)st->max_step + 1, sizeof *st->steps);
		img.msg_send_cev = (void *)(uintptr_t)put_array(w, st->msg_send_cev, nmsgs, sizeof(uint32_t));
		img.msg_recv_cev = (void *)(uintptr_t)put_array(w, st->msg_recv_cev, nmsgs, sizeof(uint32_t));
	}
	sec_end(w);
	sec_begin(w, CS_STEPS);
	if (st) put(w, &img, sizeof img);
	sec_end(w);
}

/* The application span: its struct (pointers zero), then both per-rank arrays. */
static void write_span(struct writer *w, const struct tc_span *sp, uint32_t nranks)
{
	sec_begin(w, CS_SPAN);
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

/* The blobs: a table of names and offsets, then each blob 64-byte aligned. */
static void write_blobs(struct writer *w, const struct tc_cache_blob *b, size_t n)
{
	sec_begin(w, CS_BLOBS);
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
		put(w, b[i].p, b[i].size);
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
	x.calls = OFF(R->loc < t->nlocs && R->calls == t->locs[R->loc].calls ? B->loc_calls[R->loc] : 0);
	x.ops = OFF(B->ops[r]), x.send_msgs = OFF(B->sends[r]), x.recv_msgs = OFF(B->recvs[r]);
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
	put(w, &x, sizeof x);
}

static void put_defs(struct writer *w, const struct tc_trace *t, const struct big *B)
{
	sec_begin(w, CS_NODES);
	for (uint32_t i = 0; i < t->nnodes; i++) {
		struct tc_node x = { OFF(str_ref(w, t->nodes[i].name)) };
		put(w, &x, sizeof x);
	}
	sec_end(w);
	sec_begin(w, CS_REGIONS);
	for (uint32_t i = 0; i < t->nregions; i++) {
		const struct tc_region *g = &t->regions[i];
		struct tc_region x;
		memset(&x, 0, sizeof x);
		x.name = OFF(str_ref(w, g->name)), x.kind = g->kind, x.paradigm = g->paradigm, x.role = g->role;
		put(w, &x, sizeof x);
	}
	sec_end(w);
	sec_begin(w, CS_COMMS);
	for (uint32_t i = 0; i < t->ncomms; i++) {
		const struct tc_comm *c = &t->comms[i];
		struct tc_comm x;
		memset(&x, 0, sizeof x);
		x.name = OFF(str_ref(w, c->name)), x.size = c->size, x.members = OFF(B->members[i]);
		x.self = c->self, x.global = c->global;
		put(w, &x, sizeof x);
	}
	sec_end(w);
	sec_begin(w, CS_METRICS);
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
	sec_begin(w, CS_RANKS);
	for (uint32_t r = 0; r < t->nranks; r++) put_rank(w, t, B, r);
	sec_end(w);
	sec_begin(w, CS_LOCS);
	for (uint32_t i = 0; i < t->nlocs; i++) put_loc(w, t, B, i);
	sec_end(w);
	put_defs(w, t, B);
	sec_begin(w, CS_WARNINGS);
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
	img.ranks = NULL, img.locs = NULL, img.nodes = NULL, img.regions = NULL;
	img.comms = NULL, img.metrics = NULL, img.msgs = NULL, img.colls = NULL, img.coll_members = NULL;
	memset(&img.msgs_map, 0, sizeof img.msgs_map);
	memset(&img.mapped, 0, sizeof img.mapped);
	memset(&img.warnings, 0, sizeof img.warnings);
	img.arena = NULL;
	img.b = NULL;
	sec_begin(w, CS_TRACE);
	put(w, &img, sizeof img);
	sec_end(w);
}

static void write_header(struct writer *w)
{
	struct tc_cache_header *h = &w->hdr;
	memcpy(h->magic, TC_CACHE_MAGIC, 8);
	h->format = TC_CACHE_FORMAT;
	h->endian = 0x01020304;
	snprintf(h->version, sizeof h->version, "%s", TC_VERSION);
	h->layout = tc_cache_layout();
	h->file_size = w->off;
	h->nsections = CS_COUNT;
	h->sum = tc_hash64(h, offsetof(struct tc_cache_header, sum), 0);
	if (!w->bad && (fseek(w->f, 0, SEEK_SET) != 0 || fwrite(h, sizeof *h, 1, w->f) != 1)) w->bad = true, w->err = errno;
}

bool tc_cache_write(FILE *f, const struct tc_trace *t, const struct tc_cache_results *res, const char *identity,
		    char **err)
{
	struct writer w = { .f = f };
	static const struct tc_cache_header zero;
	put(&w, &zero, sizeof zero);          /* the header's place, written last */
	sec_begin(&w, CS_IDENT);
	put(&w, identity, strlen(identity) + 1);
	sec_end(&w);
	struct big B;
	size_t nl = (size_t)t->nlocs + 1, nr = (size_t)t->nranks + 1;
	B.loc_calls = xcalloc(nl, 8), B.loc_samples = xcalloc(nl, 8), B.loc_xfers = xcalloc(nl, 8);
	B.ops = xcalloc(nr, 8), B.sends = xcalloc(nr, 8), B.recvs = xcalloc(nr, 8);
	B.members = xcalloc((size_t)t->ncomms + 1, 8);
	write_big(&w, t, &B);
	write_steps(&w, res->steps, t->nranks, t->nmsgs);
	write_span(&w, res->span, t->nranks);
	write_blobs(&w, res->blobs, res->nblobs);
	write_small(&w, t, &B);
	write_trace(&w, t);
	sec_begin(&w, CS_STRINGS);
	put(&w, w.strings.s ? w.strings.s : "", w.strings.len + 1);
	sec_end(&w);
	pad(&w);
	write_header(&w);
	free(B.loc_calls), free(B.loc_samples), free(B.loc_xfers);
	free(B.ops), free(B.sends), free(B.recvs), free(B.members);
	sb_free(&w.strings);
	if (!w.bad && (fflush(f) != 0 || ferror(f))) w.bad = true, w.err = errno;
	if (w.bad) {
		*err = xstrdup(w.err ? strerror(w.err) : "write error");
		return false;
	}
	return true;
}
