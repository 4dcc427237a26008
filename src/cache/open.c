/* open.c — a cache file opened: mapped privately (writes, if any, stay in
 * this process), the header, the identity and the checksums checked, then
 * the model's pointers fixed up to point into the mapping.  Nothing of a
 * file that fails a check is used.  docs/cache.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_profile.h"
#include "analysis_span.h"
#include "analysis_steps.h"
#include "analysis_waitstate.h"
#include "format.h"

const char *const tc_cache_sec_names[CS_COUNT] = {
	"identity", "calls", "ops", "messages of ops", "samples", "transfers", "messages", "collectives",
	"collective members", "comm members", "steps events", "steps arrays", "steps", "span", "wait states", "waits", "profile", "root causes", "blobs", "ranks", "locations",
	"nodes", "regions", "comms", "metrics", "warnings", "trace", "strings",
};

struct reader {
	char *base;
	uint64_t size;
	const struct tc_cache_header *h;
	bool bad;              /* an offset or count out of bounds */
};

/* The pointer a stored offset stands for: n items of size bytes inside
 * section sec, 8-byte aligned; NULL for offset 0 (then n must be 0). */
static void *fix(struct reader *r, const void *stored, uint64_t n, size_t size, int sec)
{
	uint64_t off = (uint64_t)(uintptr_t)stored;
	const struct tc_cache_section *s = &r->h->sec[sec];
	if (!off) {
		if (n) r->bad = true;
		return NULL;
	}
	if (off % 8 || off < s->off || off > s->off + s->size || n > (s->off + s->size - off) / size) {
		r->bad = true;
		return NULL;
	}
	return r->base + off;
}

static char *fix_str(struct reader *r, const void *stored)
{
	uint64_t ref = (uint64_t)(uintptr_t)stored;
	const struct tc_cache_section *s = &r->h->sec[CS_STRINGS];
	if (!ref) return NULL;
	if (ref > s->size) {
		r->bad = true;
		return NULL;
	}
	return r->base + s->off + ref - 1;
}

/* The whole-section array of n items (its size must be exactly n * size). */
static void *whole(struct reader *r, int sec, uint64_t n, size_t size)
{
	const struct tc_cache_section *s = &r->h->sec[sec];
	if (n > s->size / size || s->size != n * size) r->bad = true;
	return r->bad || !n ? NULL : r->base + s->off;
}

static void fix_ranks_locs(struct reader *r, struct tc_trace *t)
{
	t->ranks = whole(r, CS_RANKS, t->nranks, sizeof *t->ranks);
	t->locs = whole(r, CS_LOCS, t->nlocs, sizeof *t->locs);
	for (uint32_t i = 0; i < t->nlocs && !r->bad; i++) {
		struct tc_loc *L = &t->locs[i];
		L->name = fix_str(r, L->name);
		L->calls = fix(r, L->calls, L->ncalls, sizeof *L->calls, CS_CALLS);
		L->samples = fix(r, L->samples, L->nsamples, sizeof *L->samples, CS_SAMPLES);
		L->xfers = fix(r, L->xfers, L->nxfers, sizeof *L->xfers, CS_XFERS);
	}
	for (uint32_t i = 0; i < t->nranks && !r->bad; i++) {
		struct tc_rank *R = &t->ranks[i];
		if (R->loc >= t->nlocs && R->calls) r->bad = true;
		R->calls = fix(r, R->calls, R->ncalls, sizeof *R->calls, CS_CALLS);
		R->ops = fix(r, R->ops, R->nops, sizeof *R->ops, CS_OPS);
		R->send_msgs = fix(r, R->send_msgs, R->nsend_msgs, sizeof(uint32_t), CS_SENDMSGS);
		R->recv_msgs = fix(r, R->recv_msgs, R->nrecv_msgs, sizeof(uint32_t), CS_SENDMSGS);
	}
}

static void fix_defs(struct reader *r, struct tc_trace *t)
{
	t->nodes = whole(r, CS_NODES, t->nnodes, sizeof *t->nodes);
	for (uint32_t i = 0; i < t->nnodes && !r->bad; i++) t->nodes[i].name = fix_str(r, t->nodes[i].name);
	t->regions = whole(r, CS_REGIONS, t->nregions, sizeof *t->regions);
	for (uint32_t i = 0; i < t->nregions && !r->bad; i++) t->regions[i].name = fix_str(r, t->regions[i].name);
	t->comms = whole(r, CS_COMMS, t->ncomms, sizeof *t->comms);
	for (uint32_t i = 0; i < t->ncomms && !r->bad; i++) {
		struct tc_comm *c = &t->comms[i];
		c->name = fix_str(r, c->name);
		c->members = fix(r, c->members, c->size, sizeof(uint32_t), CS_MEMBERS);
	}
	t->metrics = whole(r, CS_METRICS, t->nmetrics, sizeof *t->metrics);
	for (uint32_t i = 0; i < t->nmetrics && !r->bad; i++) {
		t->metrics[i].name = fix_str(r, t->metrics[i].name);
		t->metrics[i].unit = fix_str(r, t->metrics[i].unit);
	}
	t->msgs = whole(r, CS_MSGS, t->nmsgs, sizeof *t->msgs);
	t->colls = whole(r, CS_COLLS, t->ncolls, sizeof *t->colls);
	const struct tc_cache_section *m = &r->h->sec[CS_COLLMEMB];
	uint64_t nmemb = m->size / sizeof *t->coll_members;
	for (size_t c = 0; c < t->ncolls && !r->bad; c++)
		if ((uint64_t)t->colls[c].first + t->colls[c].n > nmemb) r->bad = true;
	t->coll_members = nmemb && !r->bad ? (void *)(r->base + m->off) : NULL;
	const struct tc_cache_section *w = &r->h->sec[CS_WARNINGS];
	const uint64_t *refs = (const void *)(r->base + w->off);
	for (uint64_t i = 0; i < w->size / 8 && !r->bad; i++) {
		const char *s = fix_str(r, (const void *)(uintptr_t)refs[i]);
		if (s) VEC_PUSH(t->warnings, xstrdup(s));
	}
}

/* The model from the mapping; NULL when an offset or count is out of bounds. */
static struct tc_trace *fix_trace(struct reader *r, const char *anchor)
{
	const struct tc_cache_section *s = &r->h->sec[CS_TRACE];
	const struct tc_cache_section *str = &r->h->sec[CS_STRINGS];
	if (s->size != sizeof(struct tc_trace) || !str->size || r->base[str->off + str->size - 1]) return NULL;
	struct tc_trace *t = xcalloc(1, sizeof *t);
	memcpy(t, r->base + s->off, sizeof *t);
	memset(&t->warnings, 0, sizeof t->warnings);
	fix_ranks_locs(r, t);
	if (!r->bad) fix_defs(r, t);
	t->anchor = xstrdup(anchor);
	t->mapped = (struct tc_pages){ r->base, r->size };
	t->msgs_map = (struct tc_pages){ 0 };
	t->arena = NULL;
	t->b = NULL;
	if (r->bad) {
		for (size_t i = 0; i < t->warnings.n; i++) free(t->warnings.a[i]);
		VEC_FREE(t->warnings);
		free(t->anchor);
		free(t);       /* the caller unmaps */
		return NULL;
	}
	return t;
}

static struct tc_steps *fix_steps(struct reader *r, const struct tc_trace *t)
{
	const struct tc_cache_section *s = &r->h->sec[CS_STEPS];
	if (!s->size) return NULL;
	if (s->size != sizeof(struct tc_steps)) {
		r->bad = true;
		return NULL;
	}
	struct tc_steps *st = xmalloc(sizeof *st);
	memcpy(st, r->base + s->off, sizeof *st);
	st->t = t;
	st->mapped = true;
	st->cevs = fix(r, st->cevs, st->ncevs, sizeof *st->cevs, CS_CEVS);
	st->rank_first = fix(r, st->rank_first, (uint64_t)t->nranks + 1, sizeof(uint32_t), CS_STEPARR);
	st->parts = fix(r, st->parts, st->npartitions, sizeof *st->parts, CS_STEPARR);
	st->steps = fix(r, st->steps, (uint64_t)st->max_step + 1, sizeof *st->steps, CS_STEPARR);
	st->slots = fix(r, st->slots, st->nslots, sizeof *st->slots, CS_STEPARR);
	st->wide = fix(r, st->wide, st->nwide, sizeof *st->wide, CS_STEPARR);
	st->times = NULL;
	st->given = NULL;
	st->msg_send_cev = fix(r, st->msg_send_cev, t->nmsgs, sizeof(uint32_t), CS_STEPARR);
	st->msg_recv_cev = fix(r, st->msg_recv_cev, t->nmsgs, sizeof(uint32_t), CS_STEPARR);
	if (!r->bad && st->rank_first[t->nranks] != st->ncevs) r->bad = true;
	/* the metrics index the slots and steps through the partitions */
	for (uint32_t p = 0; !r->bad && p < st->npartitions; p++) {
		const struct tc_partition *P = &st->parts[p];
		if (P->first_step > P->last_step || P->last_step > st->max_step ||
		    P->slot0 + (uint64_t)(P->last_step - P->first_step) / 2 >= st->nslots)
			r->bad = true;
	}
	if (r->bad) {
		free(st);
		return NULL;
	}
	return st;
}

/* A copy of the stored span (its arrays are the caller's to free), or NULL. */
static struct tc_span *copy_span(struct reader *r, uint32_t nranks)
{
	const struct tc_cache_section *s = &r->h->sec[CS_SPAN];
	size_t arr = (size_t)nranks * sizeof(uint64_t);
	if (!s->size) return NULL;
	if (s->size != sizeof(struct tc_span) + 2 * arr) {
		r->bad = true;
		return NULL;
	}
	struct tc_span *sp = xmalloc(sizeof *sp);
	memcpy(sp, r->base + s->off, sizeof *sp);
	sp->rank_t0 = xmalloc(arr + 1);
	sp->rank_t1 = xmalloc(arr + 1);
	memcpy(sp->rank_t0, r->base + s->off + sizeof *sp, arr);
	memcpy(sp->rank_t1, r->base + s->off + sizeof *sp + arr, arr);
	return sp;
}

/* The reader of a trace opened from a cache (its header checked then). */
static bool mapped_reader(const struct tc_trace *t, struct reader *r)
{
	*r = (struct reader){ .base = t->mapped.p, .size = t->mapped.cap, .h = (const void *)t->mapped.p };
	return t->mapped.p != NULL;
}

/* The stored wait states: copies of the section's struct, per-rank times
 * and every wait (unpacked: format.h, CS_WAITS); NULL when absent or
 * malformed (*bad). */
static struct tc_waitstates *copy_ws(const struct reader *r, const struct tc_trace *t, bool *bad)
{
	const struct tc_cache_section *s = &r->h->sec[CS_WSTATS], *sw = &r->h->sec[CS_WAITS];
	uint32_t nranks = t->nranks;
	size_t arr = (size_t)nranks * sizeof(double);
	if (!s->size) return NULL;
	const struct tc_waitstates *img = (const void *)(r->base + s->off);
	if (s->size != sizeof *img + 2 * arr || sw->size < TC_WAITS_HEAD(nranks) ||
	    (sw->size - TC_WAITS_HEAD(nranks)) / TC_WAIT_REC != img->n || (sw->size - TC_WAITS_HEAD(nranks)) % TC_WAIT_REC) {
		*bad = true;
		return NULL;
	}
	struct tc_waitstates *ws = xmalloc(sizeof *ws);
	*ws = *img;
	ws->at = NULL, ws->n_all = 0;
	ws->waited = xmalloc(arr + 1), ws->caused = xmalloc(arr + 1);
	memcpy(ws->waited, r->base + s->off + sizeof *img, arr);
	memcpy(ws->caused, r->base + s->off + sizeof *img + arr, arr);
	ws->w = xmalloc(ws->n * sizeof *ws->w + 1);
	tc_prefault(ws->w, ws->n * sizeof *ws->w);   /* written whole: one call, not a fault per page */
	const uint32_t *cnt = (const void *)(r->base + sw->off);
	const unsigned char *x = (const unsigned char *)r->base + sw->off + TC_WAITS_HEAD(nranks);
	size_t i = 0;
	for (uint32_t rk = 0; rk < nranks && !*bad; rk++) {
		if (cnt[rk] > ws->n - i) *bad = true;
		for (uint32_t k = 0; !*bad && k < cnt[rk]; k++, i++, x += TC_WAIT_REC) {
			struct tc_wait *w = &ws->w[i];
			memset(w, 0, sizeof *w);
			w->rank = rk;
			memcpy(&w->call, x, 4), memcpy(&w->cause, x + 4, 4), memcpy(&w->cause_call, x + 8, 4);
			w->kind = x[12];
			memcpy(&w->seconds, x + 13, 8);
			if (w->call >= t->ranks[rk].ncalls || (w->cause != TC_NONE && w->cause >= nranks) || w->kind >= TC_WS_COUNT)
				*bad = true;
		}
	}
	if (i != ws->n) *bad = true;
	return ws;
}

/* A stored table at *at (advanced past it), whose cells index `who` below
 * nwho and regions below nregions; NULL and *bad when it overruns end. */
static struct tc_prof_table *copy_cells(const char **at, const char *end, uint32_t nwho, uint32_t nregions, bool *bad)
{
	uint64_t n;
	if (end - *at < (ptrdiff_t)sizeof n) return *bad = true, NULL;
	memcpy(&n, *at, sizeof n);
	*at += sizeof n;
	if (n > (uint64_t)(end - *at) / sizeof(struct tc_prof_cell)) return *bad = true, NULL;
	struct tc_prof_table *pt = xmalloc(sizeof *pt);
	pt->n = n;
	pt->cells = xmalloc(n * sizeof *pt->cells + 1);
	memcpy(pt->cells, *at, n * sizeof *pt->cells);
	*at += n * sizeof *pt->cells;
	for (size_t i = 0; i < n; i++)
		if (pt->cells[i].who >= nwho || pt->cells[i].region >= nregions) *bad = true;
	return pt;
}

/* n items of size bytes at *at (advanced past them), copied; NULL and *bad
 * when they overrun end. */
static void *take(const char **at, const char *end, uint64_t n, size_t size, bool *bad)
{
	if (n > (uint64_t)(end - *at) / size) return *bad = true, NULL;
	void *p = xmalloc((size_t)n * size + 1);
	memcpy(p, *at, (size_t)n * size);
	*at += (size_t)n * size;
	return p;
}

/* The stored root causes (format.h, CS_RCAUSE): NULL when absent or
 * malformed (*bad); their activity indices are checked against the
 * activities when they are put in (tc_rootcause_from), which also gives the
 * path pieces their ranks and excess. */
static struct tc_rc_results *copy_rc(const struct reader *r, const struct tc_trace *t, bool *bad)
{
	const struct tc_cache_section *s = &r->h->sec[CS_RCAUSE];
	if (!s->size) return NULL;
	const char *at = r->base + s->off, *end = at + s->size;
	struct tc_cache_rc h;
	if (s->size < sizeof h) return *bad = true, NULL;
	memcpy(&h, at, sizeof h);
	at += sizeof h;
	uint64_t end_rank = h.fig.path_end_rank;
	if (h.nranks != t->nranks || h.nctx > UINT32_MAX || (end_rank >= t->nranks && end_rank != TC_NONE))
		return *bad = true, NULL;
	struct tc_rc_results *x = xcalloc(1, sizeof *x);
	x->nranks = (uint32_t)h.nranks, x->nctx = (uint32_t)h.nctx, x->nexcess = h.nexcess, x->npath = h.npath;
	x->fig = h.fig;
	x->ctx = take(&at, end, h.nctx, sizeof *x->ctx, bad);
	x->wait_s = take(&at, end, h.nranks, sizeof(double), bad);
	x->delay_cost = take(&at, end, h.nranks, sizeof(double), bad);
	x->path_compute_excess = take(&at, end, h.nranks, sizeof(double), bad);
	x->path_mpi_excess = take(&at, end, h.nranks, sizeof(double), bad);
	x->ex_act = take(&at, end, h.nexcess, sizeof *x->ex_act, bad);
	x->ex_excess = take(&at, end, h.nexcess, sizeof *x->ex_excess, bad);
	x->ex_delay = take(&at, end, h.nexcess, sizeof *x->ex_delay, bad);
	x->ex_outlier = take(&at, end, h.nexcess, 1, bad);
	unsigned char *pk = take(&at, end, h.npath, TC_PIECE_REC, bad);
	if (!*bad && at != end) *bad = true;
	x->path = xcalloc((size_t)(*bad ? 0 : h.npath) + 1, sizeof *x->path);
	for (size_t k = 0; !*bad && k < x->npath; k++) {
		struct tc_cp_piece *p = &x->path[k];
		const unsigned char *z = pk + k * TC_PIECE_REC;
		memcpy(&p->act, z, 4), p->kind = z[4], memcpy(&p->start, z + 5, 8), memcpy(&p->end, z + 13, 8);
		p->rank = TC_NONE;   /* tc_rootcause_from: from the activities, with the excess */
		if (p->kind >= TC_CP_NKINDS || p->end < p->start) *bad = true;
	}
	free(pk);
	if (*bad) {
		tc_rc_results_free(x);
		return NULL;
	}
	return x;
}

bool tc_cache_stored(const struct tc_trace *t, struct tc_cache_stored *out)
{
	struct reader r;
	*out = (struct tc_cache_stored){ 0 };
	if (!mapped_reader(t, &r)) return true;
	bool bad = false;
	struct tc_waitstates *w = copy_ws(&r, t, &bad);
	const struct tc_cache_section *s = &r.h->sec[CS_PROFILE];
	const char *at = r.base + s->off, *end = at + s->size;
	struct tc_profile *p = NULL;
	struct tc_prof_table *pl = NULL, *pr = NULL;
	if (s->size >= sizeof *p) {
		p = xmalloc(sizeof *p);
		memcpy(p, at, sizeof *p);
		at += sizeof *p;
		p->regions = NULL;
		if (p->n > (uint64_t)(end - at) / sizeof *p->regions) bad = true;
		else {
			p->regions = xmalloc((size_t)p->n * sizeof *p->regions + 1);
			memcpy(p->regions, at, (size_t)p->n * sizeof *p->regions);
			at += (size_t)p->n * sizeof *p->regions;
			for (uint32_t i = 0; i < p->n; i++)
				if (p->regions[i].region >= t->nregions ||
				    (p->regions[i].rank_max >= t->nranks && p->regions[i].rank_max != TC_NONE))
					bad = true;
			pl = bad ? NULL : copy_cells(&at, end, t->nlocs, t->nregions, &bad);
			pr = bad ? NULL : copy_cells(&at, end, t->nranks, t->nregions, &bad);
		}
	} else if (s->size) bad = true;
	struct tc_rc_results *rc = bad ? NULL : copy_rc(&r, t, &bad);
	if (bad) {
		tc_waitstates_free(w), tc_profile_free(p), tc_prof_table_free(pl), tc_prof_table_free(pr);
		tc_rc_results_free(rc);
		return false;
	}
	*out = (struct tc_cache_stored){ w, p, pl, pr, rc };
	return true;
}

/* The blob table of a mapping, checked: every entry inside the section. */
static const struct tc_cache_blob_ent *blob_table(const struct reader *r, size_t *n)
{
	const struct tc_cache_section *s = &r->h->sec[CS_BLOBS];
	const struct tc_cache_blob_ent *e = (const void *)(r->base + s->off);
	*n = 0;
	if (!s->size) return NULL;
	size_t k = 0;
	while ((k + 1) * sizeof *e <= s->size && e[k].name[0] && memchr(e[k].name, 0, sizeof e[k].name) &&
	       e[k].off >= (k + 1) * sizeof *e && e[k].off <= s->size && e[k].size <= s->size - e[k].off)
		k++;
	*n = k;
	return e;
}

const void *tc_cache_blob(const struct tc_trace *t, const char *name, size_t *size)
{
	struct reader r;
	if (!mapped_reader(t, &r)) return NULL;
	size_t n;
	const struct tc_cache_blob_ent *e = blob_table(&r, &n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(e[i].name, name)) {
			*size = e[i].size;
			return r.base + r.h->sec[CS_BLOBS].off + e[i].off;
		}
	return NULL;
}

/* The first chunk of section sec whose checksum does not match (the
 * table checked in check_header), or -1. */
static int64_t sec_bad_chunk(const struct reader *r, int sec)
{
	const struct tc_cache_section *s = &r->h->sec[sec];
	const uint64_t *sums = (const void *)(r->base + r->h->sums_off);
	for (uint64_t k = 0, at = 0; at < s->size; k++, at += TC_CACHE_CHUNK)
		if (tc_cache_chunk_sum(r->base + s->off + at, (size_t)TC_MIN(TC_CACHE_CHUNK, s->size - at), sec, k) !=
		    sums[s->chunk0 + k])
			return (int64_t)k;
	return -1;
}

/* Every section's chunks (large ones too with all): the first section whose
 * chunk fails with *chunk, or -1. */
static int verify_sections(const struct reader *r, bool all, bool large, int64_t *chunk)
{
	for (int s = 0; s < CS_COUNT; s++)
		if ((all || CS_IS_LARGE(s) == large) && (*chunk = sec_bad_chunk(r, s)) >= 0) return s;
	return -1;
}

static char *chunk_why(int sec, int64_t chunk)
{
	return xasprintf("section %s, chunk %lld: checksum mismatch", tc_cache_sec_names[sec], (long long)chunk);
}

/* The chunk table as planned from the sections, and its checksum. */
static bool table_ok(const struct reader *r)
{
	struct tc_cache_header plan = *r->h;
	tc_cache_plan_chunks(&plan, plan.sums_off);
	for (int s = 0; s < CS_COUNT; s++)
		if (plan.sec[s].chunk0 != r->h->sec[s].chunk0) return false;
	return plan.nchunks == r->h->nchunks && plan.file_size == r->size && r->h->sums_off % TC_CACHE_ALIGN == 0 &&
	       tc_hash64(r->base + r->h->sums_off, 8 * r->h->nchunks, CS_COUNT) == r->h->sums_sum;
}

/* The header: magic, format, checksum, version, layout, size and section
 * bounds.  TC_CACHE_OK or the status with *why. */
static enum tc_cache_status check_header(const struct reader *r, char **why)
{
	const struct tc_cache_header *h = r->h;
	if (r->size < 16 || memcmp(h->magic, TC_CACHE_MAGIC, 8)) {
		*why = xstrdup(r->size < 16 ? "truncated: no header" : "not a tracecomb cache file");
		return TC_CACHE_CORRUPT;
	}
	if (h->format != TC_CACHE_FORMAT || h->endian != 0x01020304) {
		*why = h->endian != 0x01020304 ? xstrdup("written on a machine of the other byte order")
					       : xasprintf("cache format %u, this tracecomb reads %u", h->format, TC_CACHE_FORMAT);
		return TC_CACHE_STALE;
	}
	if (r->size < sizeof *h) {
		*why = xasprintf("truncated: %llu bytes, no whole header", (unsigned long long)r->size);
		return TC_CACHE_CORRUPT;
	}
	if (tc_hash64(h, offsetof(struct tc_cache_header, sum), 0) != h->sum) {
		*why = xstrdup("header checksum mismatch");
		return TC_CACHE_CORRUPT;
	}
	if (strncmp(h->version, TC_VERSION, sizeof h->version) || h->layout != tc_cache_layout()) {
		*why = strncmp(h->version, TC_VERSION, sizeof h->version)
			       ? xasprintf("written by tracecomb %.16s, this is %s", h->version, TC_VERSION)
			       : xstrdup("written by a build with other struct layouts");
		return TC_CACHE_STALE;
	}
	if (h->file_size != r->size || h->nsections != CS_COUNT) {
		*why = xasprintf("truncated or extended: %llu bytes, the header says %llu", (unsigned long long)r->size,
				 (unsigned long long)h->file_size);
		return TC_CACHE_CORRUPT;
	}
	for (int s = 0; s < CS_COUNT; s++)
		if (h->sec[s].off < sizeof *h || h->sec[s].off % TC_CACHE_ALIGN || h->sec[s].off > h->sums_off ||
		    h->sec[s].size > h->sums_off - h->sec[s].off) {
			*why = xasprintf("section %s out of the file", tc_cache_sec_names[s]);
			return TC_CACHE_CORRUPT;
		}
	if (h->sums_off > r->size || !table_ok(r)) {
		*why = xstrdup("checksum table mismatch");
		return TC_CACHE_CORRUPT;
	}
	return TC_CACHE_OK;
}

/* The file mapped privately into r (populated when it will be read whole). */
static enum tc_cache_status map_file(const char *path, struct reader *r, bool populate, char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR) return TC_CACHE_ABSENT;
		*why = xasprintf("cannot open %s: %s", path, strerror(errno));
		return TC_CACHE_CORRUPT;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 1) {
		*why = xstrdup(S_ISREG(st.st_mode) ? "empty file" : "not a regular file");
		close(fd);
		return TC_CACHE_CORRUPT;
	}
	r->size = (uint64_t)st.st_size;
	r->base = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (r->base != MAP_FAILED && populate) madvise(r->base, r->size, MADV_WILLNEED);
	close(fd);
	if (r->base == MAP_FAILED) {
		*why = xasprintf("cannot map %s: %s", path, strerror(errno));
		return TC_CACHE_CORRUPT;
	}
	r->h = (const void *)r->base;
	return TC_CACHE_OK;
}

/* The stored identity against the archive's: TC_CACHE_OK or STALE/CORRUPT with *why. */
static enum tc_cache_status check_identity(const struct reader *r, const char *identity, char **why)
{
	const struct tc_cache_section *s = &r->h->sec[CS_IDENT];
	int64_t k = sec_bad_chunk(r, CS_IDENT);
	if (k >= 0 || !s->size || r->base[s->off + s->size - 1]) {
		*why = chunk_why(CS_IDENT, k < 0 ? 0 : k);
		return TC_CACHE_CORRUPT;
	}
	const char *old = r->base + s->off;
	if (!strcmp(old, identity)) return TC_CACHE_OK;
	*why = tc_cache_ident_diff(old, identity);
	return TC_CACHE_STALE;
}

enum tc_cache_status tc_cache_open(const char *path, const char *identity, const char *anchor,
				   enum tc_cache_verify verify, struct tc_trace **t, struct tc_steps **st,
				   struct tc_span **span, char **why)
{
	struct reader r = { 0 };
	*t = NULL, *st = NULL, *span = NULL, *why = NULL;
	enum tc_cache_status rc = map_file(path, &r, verify == TC_VERIFY_ALL, why);
	if (rc != TC_CACHE_OK) return rc;
	rc = check_header(&r, why);
	if (rc == TC_CACHE_OK) rc = check_identity(&r, identity, why);
	int64_t chunk = 0;
	int bad = rc == TC_CACHE_OK ? verify_sections(&r, verify == TC_VERIFY_ALL, false, &chunk) : -1;
	if (bad >= 0) {
		*why = chunk_why(bad, chunk);
		rc = TC_CACHE_CORRUPT;
	}
	if (rc == TC_CACHE_OK && !(*t = fix_trace(&r, anchor))) r.bad = true;
	if (rc == TC_CACHE_OK && !r.bad) *st = fix_steps(&r, *t);
	if (rc == TC_CACHE_OK && !r.bad) *span = copy_span(&r, (*t)->nranks);
	if (rc == TC_CACHE_OK && r.bad) {
		tc_steps_free(*st);
		*st = NULL;
		*why = xstrdup("an offset or a count out of bounds");
		rc = TC_CACHE_CORRUPT;
		if (*t) tc_trace_free(*t);   /* unmaps */
		else munmap(r.base, r.size);
		*t = NULL;
		return rc;
	}
	if (rc != TC_CACHE_OK) munmap(r.base, r.size);
	return rc;
}

bool tc_cache_verify_rest(const struct tc_trace *t, char **why)
{
	struct reader r = { .base = t->mapped.p, .size = t->mapped.cap, .h = (const void *)t->mapped.p };
	int64_t chunk = 0;
	int bad = verify_sections(&r, false, true, &chunk);
	if (bad >= 0) *why = chunk_why(bad, chunk);
	return bad < 0;
}
