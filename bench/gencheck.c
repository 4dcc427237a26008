/* gencheck.c — verify that an MPI OTF2 archive is consistent (used on the
 * generator's output):
 *   - timestamps never go backwards on a location, Enter/Leave nest properly
 *     and every region left is the one entered, nothing stays open;
 *   - every MPI record lies inside an MPI_* region;
 *   - every request is posted once and completed once (IrecvRequest → Irecv,
 *     Isend → IsendComplete);
 *   - point-to-point: the k-th send from A to B on (comm, tag) matches the
 *     k-th receive at B from A on (comm, tag) (MPI's non-overtaking rule);
 *     every send has a receive, the lengths agree and the receive completes
 *     no earlier than the send;
 *   - collectives: the k-th collective on a communicator has every member and
 *     ends on each member no earlier than the last member began it.
 *
 *   gencheck ARCHIVE     prints "ok events=N messages=M collectives=C" or the
 *                        first problems, exit status 1. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "util.h"

struct group { uint8_t type; uint32_t n; uint64_t *members; };
struct comm_def { uint32_t group; bool defined; };

struct defs {
	VEC(char *) strings;
	VEC(uint32_t) region_name;      /* region → string */
	VEC(uint64_t) locs;
	VEC(struct group) groups;
	VEC(struct comm_def) comms;
	int64_t locations_group;        /* COMM_LOCATIONS group of MPI, -1 if none */
};

struct p2p { uint32_t src, dst, comm, tag; uint64_t order, time, bytes; };
struct coll { uint32_t comm, rank; uint64_t k, begin, end; };

struct check {
	struct defs *d;
	uint32_t rank;                  /* world rank of the location being read */
	uint64_t order;                 /* event index in the location */
	uint64_t last;
	VEC(uint32_t) stack;            /* open regions */
	VEC(uint64_t) open_reqs;        /* posted, not yet completed */
	VEC(uint64_t) coll_k;           /* per comm: collectives done by this rank */
	uint64_t coll_begin;
	bool in_coll;
	VEC(struct p2p) sends, recvs;
	VEC(struct coll) colls;
	uint64_t events;
	int problems;
};

static void problem(struct check *c, const char *fmt, ...) TC_PRINTF(2, 3);
static void problem(struct check *c, const char *fmt, ...)
{
	if (c->problems++ < 20) {
		va_list ap;
		va_start(ap, fmt);
		fputs("gencheck: ", stdout);
		vprintf(fmt, ap);
		putchar('\n');
		va_end(ap);
	}
}

/* --- definitions --------------------------------------------------------- */
#define GROW(v, i) do { while ((v).n <= (size_t)(i)) { VEC_RESERVE(v, (v).n + 1); memset(&(v).a[(v).n], 0, sizeof((v).a[0])); (v).n++; } } while (0)

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self, const char *s)
{
	struct defs *d = ud;
	GROW(d->strings, self);
	d->strings.a[self] = xstrdup(s);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canon,
				    OTF2_StringRef descr, OTF2_RegionRole role, OTF2_Paradigm par,
				    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t b, uint32_t e)
{
	(void)canon; (void)descr; (void)role; (void)par; (void)flags; (void)file; (void)b; (void)e;
	struct defs *d = ud;
	GROW(d->region_name, self);
	d->region_name.a[self] = name;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
				      OTF2_LocationType type, uint64_t nev, OTF2_LocationGroupRef group)
{
	(void)name; (void)type; (void)nev; (void)group;
	struct defs *d = ud;
	VEC_PUSH(d->locs, self);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
				   OTF2_Paradigm par, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
	(void)name; (void)flags;
	struct defs *d = ud;
	GROW(d->groups, self);
	struct group *g = &d->groups.a[self];
	g->type = type;
	g->n = n;
	g->members = xcalloc(n ? n : 1, sizeof(*members));
	if (n) memcpy(g->members, members, n * sizeof(*members));
	if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && par == OTF2_PARADIGM_MPI) d->locations_group = self;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
				  OTF2_CommRef parent, OTF2_CommFlag flags)
{
	(void)name; (void)parent; (void)flags;
	struct defs *d = ud;
	GROW(d->comms, self);
	d->comms.a[self] = (struct comm_def){ group, true };
	return OTF2_CALLBACK_SUCCESS;
}

static const char *region_name(const struct defs *d, uint32_t region)
{
	if (region >= d->region_name.n || d->region_name.a[region] >= d->strings.n) return "?";
	const char *s = d->strings.a[d->region_name.a[region]];
	return s ? s : "?";
}

/* World rank of comm-local rank `local` in comm, or UINT32_MAX. */
static uint32_t world_of(struct check *c, uint32_t comm, uint32_t local)
{
	const struct defs *d = c->d;
	if (comm >= d->comms.n || !d->comms.a[comm].defined) return UINT32_MAX;
	uint32_t g = d->comms.a[comm].group;
	if (g >= d->groups.n) return UINT32_MAX;
	const struct group *gr = &d->groups.a[g];
	if (gr->type == OTF2_GROUP_TYPE_COMM_SELF) return local == 0 ? c->rank : UINT32_MAX;
	return local < gr->n ? (uint32_t)gr->members[local] : UINT32_MAX;
}

static uint32_t comm_size(const struct defs *d, uint32_t comm)
{
	if (comm >= d->comms.n || d->comms.a[comm].group >= d->groups.n) return 0;
	const struct group *g = &d->groups.a[d->comms.a[comm].group];
	return g->type == OTF2_GROUP_TYPE_COMM_SELF ? 1 : g->n;
}

/* --- events -------------------------------------------------------------- */
#define CB_ARGS OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud, OTF2_AttributeList *al

/* Common part of every event; returns the checker. */
static struct check *ev(void *ud, OTF2_LocationRef loc, OTF2_TimeStamp t, bool mpi)
{
	struct check *c = ud;
	c->events++;
	c->order++;
	if (t < c->last)
		problem(c, "location %llu: time %llu before the previous event at %llu", (unsigned long long)loc,
			(unsigned long long)t, (unsigned long long)c->last);
	c->last = t;
	if (mpi && (c->stack.n == 0 || strncmp(region_name(c->d, c->stack.a[c->stack.n - 1]), "MPI_", 4) != 0))
		problem(c, "location %llu: MPI record at %llu outside an MPI_* region", (unsigned long long)loc,
			(unsigned long long)t);
	return c;
}

static OTF2_CallbackCode cb_enter(CB_ARGS, OTF2_RegionRef r)
{
	(void)pos; (void)al;
	struct check *c = ev(ud, loc, t, false);
	VEC_PUSH(c->stack, r);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_leave(CB_ARGS, OTF2_RegionRef r)
{
	(void)pos; (void)al;
	struct check *c = ev(ud, loc, t, false);
	if (c->stack.n == 0 || c->stack.a[c->stack.n - 1] != r)
		problem(c, "location %llu: leave of %s at %llu does not match the open region",
			(unsigned long long)loc, region_name(c->d, r), (unsigned long long)t);
	else
		c->stack.n--;
	return OTF2_CALLBACK_SUCCESS;
}

static void add_p2p(struct check *c, bool send, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t t,
		    uint64_t bytes)
{
	uint32_t w = world_of(c, comm, peer);
	if (w == UINT32_MAX) {
		problem(c, "rank %u: peer %u not in communicator %u", c->rank, peer, comm);
		return;
	}
	struct p2p m = { send ? c->rank : w, send ? w : c->rank, comm, tag, c->order, t, bytes };
	if (send) VEC_PUSH(c->sends, m);
	else VEC_PUSH(c->recvs, m);
}

static void post_req(struct check *c, uint64_t req)
{
	for (size_t i = 0; i < c->open_reqs.n; i++)
		if (c->open_reqs.a[i] == req) problem(c, "rank %u: request %llu posted twice", c->rank, (unsigned long long)req);
	VEC_PUSH(c->open_reqs, req);
}

static void complete_req(struct check *c, uint64_t req)
{
	for (size_t i = 0; i < c->open_reqs.n; i++)
		if (c->open_reqs.a[i] == req) {
			c->open_reqs.a[i] = c->open_reqs.a[--c->open_reqs.n];
			return;
		}
	problem(c, "rank %u: request %llu completed but not pending", c->rank, (unsigned long long)req);
}

static OTF2_CallbackCode cb_send(CB_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	(void)pos; (void)al;
	add_p2p(ev(ud, loc, t, true), true, peer, comm, tag, t, len);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_isend(CB_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len,
				  uint64_t req)
{
	(void)pos; (void)al;
	struct check *c = ev(ud, loc, t, true);
	add_p2p(c, true, peer, comm, tag, t, len);
	post_req(c, req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_isend_complete(CB_ARGS, uint64_t req)
{
	(void)pos; (void)al;
	complete_req(ev(ud, loc, t, true), req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_irecv_request(CB_ARGS, uint64_t req)
{
	(void)pos; (void)al;
	post_req(ev(ud, loc, t, true), req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_irecv(CB_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len,
				  uint64_t req)
{
	(void)pos; (void)al;
	struct check *c = ev(ud, loc, t, true);
	add_p2p(c, false, peer, comm, tag, t, len);
	complete_req(c, req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_recv(CB_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	(void)pos; (void)al;
	add_p2p(ev(ud, loc, t, true), false, peer, comm, tag, t, len);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_coll_begin(CB_ARGS)
{
	(void)pos; (void)al;
	struct check *c = ev(ud, loc, t, true);
	if (c->in_coll) problem(c, "rank %u: collective begins at %llu inside another", c->rank, (unsigned long long)t);
	c->in_coll = true;
	c->coll_begin = t;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_coll_end(CB_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
				     uint64_t sent, uint64_t recvd)
{
	(void)pos; (void)al; (void)op; (void)root; (void)sent; (void)recvd;
	struct check *c = ev(ud, loc, t, true);
	if (!c->in_coll) {
		problem(c, "rank %u: collective end at %llu without a begin", c->rank, (unsigned long long)t);
		return OTF2_CALLBACK_SUCCESS;
	}
	c->in_coll = false;
	GROW(c->coll_k, comm);
	struct coll k = { comm, c->rank, c->coll_k.a[comm]++, c->coll_begin, t };
	VEC_PUSH(c->colls, k);
	return OTF2_CALLBACK_SUCCESS;
}

/* --- matching ------------------------------------------------------------ */
static int cmp_p2p(const void *a, const void *b)
{
	const struct p2p *x = a, *y = b;
	if (x->src != y->src) return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
	if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
	if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool same_key(const struct p2p *x, const struct p2p *y)
{
	return x->src == y->src && x->dst == y->dst && x->comm == y->comm && x->tag == y->tag;
}

static void match_p2p(struct check *c)
{
	if (c->sends.n > 1) qsort(c->sends.a, c->sends.n, sizeof(struct p2p), cmp_p2p);
	if (c->recvs.n > 1) qsort(c->recvs.a, c->recvs.n, sizeof(struct p2p), cmp_p2p);
	size_t i = 0, j = 0;
	while (i < c->sends.n || j < c->recvs.n) {
		const struct p2p *s = i < c->sends.n ? &c->sends.a[i] : NULL;
		const struct p2p *r = j < c->recvs.n ? &c->recvs.a[j] : NULL;
		if (s && r && same_key(s, r)) {
			if (r->time < s->time)
				problem(c, "message %u->%u tag %u: received at %llu before sent at %llu", s->src, s->dst,
					s->tag, (unsigned long long)r->time, (unsigned long long)s->time);
			if (r->bytes != s->bytes)
				problem(c, "message %u->%u tag %u: %llu bytes sent, %llu received", s->src, s->dst,
					s->tag, (unsigned long long)s->bytes, (unsigned long long)r->bytes);
			i++;
			j++;
		} else if (s && (!r || cmp_p2p(s, r) < 0)) {
			problem(c, "send %u->%u tag %u at %llu never received", s->src, s->dst, s->tag,
				(unsigned long long)s->time);
			i++;
		} else {
			problem(c, "receive %u<-%u tag %u at %llu has no send", r->dst, r->src, r->tag,
				(unsigned long long)r->time);
			j++;
		}
	}
}

static int cmp_coll(const void *a, const void *b)
{
	const struct coll *x = a, *y = b;
	if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
	if (x->k != y->k) return x->k < y->k ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static uint64_t match_colls(struct check *c)
{
	if (c->colls.n > 1) qsort(c->colls.a, c->colls.n, sizeof(struct coll), cmp_coll);
	uint64_t instances = 0;
	for (size_t i = 0; i < c->colls.n;) {
		size_t j = i;
		uint64_t max_begin = 0, min_end = UINT64_MAX;
		while (j < c->colls.n && c->colls.a[j].comm == c->colls.a[i].comm && c->colls.a[j].k == c->colls.a[i].k) {
			max_begin = TC_MAX(max_begin, c->colls.a[j].begin);
			min_end = TC_MIN(min_end, c->colls.a[j].end);
			j++;
		}
		uint32_t size = comm_size(c->d, c->colls.a[i].comm);
		if (j - i != size)
			problem(c, "collective %llu on comm %u: %zu of %u members", (unsigned long long)c->colls.a[i].k,
				c->colls.a[i].comm, j - i, size);
		if (min_end < max_begin)
			problem(c, "collective %llu on comm %u: a member ends at %llu before the last begins at %llu",
				(unsigned long long)c->colls.a[i].k, c->colls.a[i].comm, (unsigned long long)min_end,
				(unsigned long long)max_begin);
		instances++;
		i = j;
	}
	return instances;
}

static char *anchor_of(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return xasprintf("%s/traces.otf2", path);
	return xstrdup(path);
}

/* The global definitions into d; false (with a message) when they cannot
 * be read or there is no COMM_LOCATIONS group. */
static bool read_defs(OTF2_Reader *r, const char *anchor, struct defs *d)
{
	OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
	OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(gcb, def_string);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gcb, def_region);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, def_location);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(gcb, def_group);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(gcb, def_comm);
	uint64_t ndefs;
	bool ok = gdr && OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, gcb, d) == OTF2_SUCCESS &&
		  OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &ndefs) == OTF2_SUCCESS;
	OTF2_GlobalDefReaderCallbacks_Delete(gcb);
	if (!ok) {
		fprintf(stderr, "gencheck: cannot read the definitions of %s\n", anchor);
		return false;
	}
	OTF2_Reader_CloseGlobalDefReader(r, gdr);
	if (d->locations_group < 0) {
		fprintf(stderr, "gencheck: %s has no MPI COMM_LOCATIONS group\n", anchor);
		return false;
	}
	return true;
}

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *cbs = OTF2_EvtReaderCallbacks_New();
	OTF2_EvtReaderCallbacks_SetEnterCallback(cbs, cb_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cbs, cb_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cbs, cb_send);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cbs, cb_isend);
	OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cbs, cb_isend_complete);
	OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cbs, cb_irecv_request);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cbs, cb_irecv);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cbs, cb_recv);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cbs, cb_coll_begin);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cbs, cb_coll_end);
	return cbs;
}

/* Every rank's events checked in order (lg: the COMM_LOCATIONS group);
 * returns the records no callback counted. */
static uint64_t read_ranks(OTF2_Reader *r, const struct group *lg, struct check *c)
{
	OTF2_EvtReaderCallbacks *cbs = event_callbacks();
	for (uint32_t w = 0; w < lg->n; w++) OTF2_Reader_SelectLocation(r, lg->members[w]);
	OTF2_Reader_OpenEvtFiles(r);
	uint64_t other = 0;
	for (uint32_t w = 0; w < lg->n; w++) {
		OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(r, lg->members[w]);
		c->rank = w;
		c->order = 0;
		c->last = 0;
		c->stack.n = 0;
		c->open_reqs.n = 0;
		c->coll_k.n = 0;
		c->in_coll = false;
		uint64_t before = c->events, got = 0;
		if (!er || OTF2_Reader_RegisterEvtCallbacks(r, er, cbs, c) != OTF2_SUCCESS ||
		    OTF2_Reader_ReadAllLocalEvents(r, er, &got) != OTF2_SUCCESS) {
			problem(c, "cannot read the events of rank %u", w);
			continue;
		}
		other += got - (c->events - before);
		if (c->stack.n) problem(c, "rank %u: %zu regions never left", w, c->stack.n);
		if (c->open_reqs.n) problem(c, "rank %u: %zu requests never completed", w, c->open_reqs.n);
		if (c->in_coll) problem(c, "rank %u: a collective never ends", w);
		OTF2_Reader_CloseEvtReader(r, er);
	}
	OTF2_EvtReaderCallbacks_Delete(cbs);
	OTF2_Reader_CloseEvtFiles(r);
	return other;
}

static void free_all(struct defs *d, struct check *c)
{
	for (size_t i = 0; i < d->strings.n; i++) free(d->strings.a[i]);
	VEC_FREE(d->strings);
	VEC_FREE(d->region_name);
	VEC_FREE(d->locs);
	for (size_t i = 0; i < d->groups.n; i++) free(d->groups.a[i].members);
	VEC_FREE(d->groups);
	VEC_FREE(d->comms);
	VEC_FREE(c->stack);
	VEC_FREE(c->open_reqs);
	VEC_FREE(c->coll_k);
	VEC_FREE(c->sends);
	VEC_FREE(c->recvs);
	VEC_FREE(c->colls);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gencheck ARCHIVE\n");
		return 2;
	}
	char *anchor = anchor_of(argv[1]);
	OTF2_Reader *r = OTF2_Reader_Open(anchor);
	if (!r) {
		fprintf(stderr, "gencheck: cannot open %s\n", anchor);
		return 1;
	}
	OTF2_Reader_SetSerialCollectiveCallbacks(r);
	struct defs d = { .locations_group = -1 };
	if (!read_defs(r, anchor, &d)) return 1;
	struct check c = { .d = &d };
	uint64_t other = read_ranks(r, &d.groups.a[d.locations_group], &c);
	OTF2_Reader_Close(r);
	match_p2p(&c);
	uint64_t ncoll = match_colls(&c);
	int rc = 0;
	if (c.problems) {
		printf("gencheck: %d problems in %s\n", c.problems, anchor);
		rc = 1;
	} else {
		printf("ok events=%llu messages=%zu collectives=%llu\n", (unsigned long long)(c.events + other),
		       c.recvs.n, (unsigned long long)ncoll);
	}
	free_all(&d, &c);
	free(anchor);
	return rc;
}
