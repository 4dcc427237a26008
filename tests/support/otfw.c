/* otfw.c — see otfw.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "otfw.h"
#include "util.h"

struct otfw_loc {
	OTF2_EvtWriter *ew;
	uint64_t nev;
	uint64_t last;
};

struct otfw_region {
	uint32_t name;       /* string id */
	uint8_t role;
	uint8_t paradigm;
	bool mpi;
};

struct otfw_comm {
	uint32_t name;       /* string id */
	uint32_t n;
	uint64_t *members;   /* world ranks */
};

/* Chunk pool of one OTF2 buffer: returning NULL from the allocator makes OTF2
 * flush the buffer to disk and release every chunk. */
struct otfw_pool {
	void **chunks;
	size_t n, cap;
};

struct otfw {
	OTF2_Archive *ar;
	uint32_t nranks, nnodes;
	uint32_t *node_of;
	uint64_t res;
	uint64_t tmin, tmax;
	bool any;
	int failed;
	struct otfw_loc *locs;
	VEC(char *) strings;
	VEC(struct otfw_region) regions;
	VEC(struct otfw_comm) comms;
};

static void fail(struct otfw *w, const char *fmt, ...) TC_PRINTF(2, 3);
static void fail(struct otfw *w, const char *fmt, ...)
{
	if (!w->failed) {
		va_list ap;
		va_start(ap, fmt);
		fputs("otfw: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		va_end(ap);
	}
	w->failed = 1;
}

#define OTFW_CHECK(w, call)                                                          \
	do {                                                                         \
		OTF2_ErrorCode rc_ = (call);                                         \
		if (rc_ != OTF2_SUCCESS)                                             \
			fail((w), "%s: %s", #call, OTF2_Error_GetName(rc_));         \
	} while (0)

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void *caller,
				bool final)
{
	(void)ud; (void)ft; (void)loc; (void)caller; (void)final;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_cbs = { .otf2_pre_flush = pre_flush, .otf2_post_flush = NULL };

static void *pool_alloc(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void **pbd, uint64_t size)
{
	(void)ud; (void)loc;
	struct otfw_pool *p = *pbd;
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		*pbd = p;
	}
	if (ft == OTF2_FILETYPE_EVENTS && p->n >= OTFW_POOL_CHUNKS) return NULL;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 8;
		p->chunks = xreallocarray(p->chunks, p->cap, sizeof(*p->chunks));
	}
	void *c = malloc(size);
	if (c) p->chunks[p->n++] = c;
	return c;
}

static void pool_free_all(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void **pbd, bool final)
{
	(void)ud; (void)ft; (void)loc;
	struct otfw_pool *p = *pbd;
	if (!p) return;
	for (size_t i = 0; i < p->n; i++) free(p->chunks[i]);
	p->n = 0;
	if (final) {
		free(p->chunks);
		free(p);
		*pbd = NULL;
	}
}

static const OTF2_MemoryCallbacks mem_cbs = { .otf2_allocate = pool_alloc, .otf2_free_all = pool_free_all };

static int mkdir_p(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/') continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) { free(p); return -1; }
		*s = '/';
	}
	struct stat st;
	int rc = (mkdir(p, 0777) != 0 && errno != EEXIST) ? -1 : 0;
	if (rc == 0 && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))) {
		errno = ENOTDIR;
		rc = -1;
	}
	free(p);
	return rc;
}

static uint32_t str_id(struct otfw *w, const char *s)
{
	for (size_t i = 0; i < w->strings.n; i++)
		if (strcmp(w->strings.a[i], s) == 0) return (uint32_t)i;
	VEC_PUSH(w->strings, xstrdup(s));
	return (uint32_t)(w->strings.n - 1);
}

/* A string known to be new (per-rank and per-node names): no search, so
 * defining many ranks stays linear. */
static uint32_t str_newf(struct otfw *w, const char *fmt, ...) TC_PRINTF(2, 3);
static uint32_t str_newf(struct otfw *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	VEC_PUSH(w->strings, xvasprintf(fmt, ap));
	va_end(ap);
	return (uint32_t)(w->strings.n - 1);
}

static void add_comm(struct otfw *w, const char *name, uint32_t n, const uint64_t *members)
{
	struct otfw_comm c = { .name = str_id(w, name), .n = n, .members = NULL };
	if (n) {
		c.members = xcalloc(n, sizeof(*c.members));
		memcpy(c.members, members, n * sizeof(*members));
	}
	VEC_PUSH(w->comms, c);
}

struct otfw *otfw_open(const char *dir, uint32_t nranks, const uint32_t *node_of_rank, uint32_t nnodes,
		       uint64_t resolution)
{
	return otfw_open_chunks(dir, nranks, node_of_rank, nnodes, resolution, OTFW_CHUNK_SIZE, OTFW_DEF_CHUNK_SIZE);
}

struct otfw *otfw_open_chunks(const char *dir, uint32_t nranks, const uint32_t *node_of_rank, uint32_t nnodes,
			      uint64_t resolution, uint64_t evt_chunk, uint64_t def_chunk)
{
	if (nranks == 0 || nnodes == 0 || resolution == 0) {
		fprintf(stderr, "otfw: need at least one rank, one node and a resolution\n");
		return NULL;
	}
	for (uint32_t r = 0; node_of_rank && r < nranks; r++)
		if (node_of_rank[r] >= nnodes) {
			fprintf(stderr, "otfw: rank %u on node %u of %u\n", r, node_of_rank[r], nnodes);
			return NULL;
		}
	if (mkdir_p(dir) != 0) {
		fprintf(stderr, "otfw: cannot create %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	static const char *const existing[] = { "traces.otf2", "traces.def", "traces" };
	for (size_t i = 0; i < TC_NELEM(existing); i++) {
		struct stat st;
		char *path = xasprintf("%s/%s", dir, existing[i]);
		int found = stat(path, &st) == 0;
		if (found) fprintf(stderr, "otfw: %s already exists; remove the old archive first\n", path);
		free(path);
		if (found) return NULL;
	}
	struct otfw *w = xcalloc(1, sizeof(*w));
	w->nranks = nranks;
	w->nnodes = nnodes;
	w->res = resolution;
	w->node_of = xcalloc(nranks, sizeof(*w->node_of));
	for (uint32_t r = 0; r < nranks; r++) w->node_of[r] = node_of_rank ? node_of_rank[r] : 0;
	w->ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, evt_chunk, def_chunk,
				  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!w->ar) {
		fprintf(stderr, "otfw: cannot open archive %s/traces.otf2\n", dir);
		free(w->node_of);
		free(w);
		return NULL;
	}
	OTFW_CHECK(w, OTF2_Archive_SetFlushCallbacks(w->ar, &flush_cbs, NULL));
	OTFW_CHECK(w, OTF2_Archive_SetMemoryCallbacks(w->ar, &mem_cbs, NULL));
	OTFW_CHECK(w, OTF2_Archive_SetSerialCollectiveCallbacks(w->ar));
	OTFW_CHECK(w, OTF2_Archive_SetCreator(w->ar, "tracecomb otfw"));
	OTFW_CHECK(w, OTF2_Archive_OpenEvtFiles(w->ar));
	w->locs = xcalloc(nranks, sizeof(*w->locs));
	for (uint32_t r = 0; r < nranks && !w->failed; r++) {
		w->locs[r].ew = OTF2_Archive_GetEvtWriter(w->ar, r);
		if (!w->locs[r].ew) fail(w, "no event writer for location %u", r);
	}
	if (w->failed) {
		OTF2_Archive_Close(w->ar);
		free(w->locs);
		free(w->node_of);
		free(w);
		return NULL;
	}
	str_id(w, "");  /* string 0: the empty string, as Score-P */
	uint64_t *all = xcalloc(nranks, sizeof(*all));
	for (uint32_t r = 0; r < nranks; r++) all[r] = r;
	add_comm(w, "MPI_COMM_WORLD", nranks, all);
	add_comm(w, "MPI_COMM_SELF", 0, NULL);
	free(all);
	return w;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0) return true;
	return false;
}

/* Region role of an MPI function as Score-P defines it. */
static OTF2_RegionRole mpi_role(const char *name)
{
	static const char *const barrier[] = { "MPI_Barrier", "MPI_Ibarrier", NULL };
	static const char *const one2all[] = { "MPI_Bcast", "MPI_Scatter", "MPI_Scatterv", "MPI_Ibcast",
					       "MPI_Iscatter", "MPI_Iscatterv", NULL };
	static const char *const all2one[] = { "MPI_Gather", "MPI_Gatherv", "MPI_Reduce", "MPI_Igather",
					       "MPI_Igatherv", "MPI_Ireduce", NULL };
	static const char *const all2all[] = {
		"MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv",
		"MPI_Alltoallw", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Iallreduce",
		"MPI_Iallgather", "MPI_Iallgatherv", "MPI_Ialltoall", "MPI_Ialltoallv", "MPI_Ialltoallw",
		"MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block", NULL };
	static const char *const other[] = { "MPI_Scan", "MPI_Exscan", "MPI_Iscan", "MPI_Iexscan", NULL };
	static const char *const p2p[] = {
		"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend", "MPI_Ibsend",
		"MPI_Irsend", "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Probe",
		"MPI_Iprobe", "MPI_Mprobe", "MPI_Improbe", "MPI_Mrecv", "MPI_Imrecv", "MPI_Send_init",
		"MPI_Ssend_init", "MPI_Bsend_init", "MPI_Rsend_init", "MPI_Recv_init", NULL };
	if (in_list(name, barrier)) return OTF2_REGION_ROLE_BARRIER;
	if (in_list(name, one2all)) return OTF2_REGION_ROLE_COLL_ONE2ALL;
	if (in_list(name, all2one)) return OTF2_REGION_ROLE_COLL_ALL2ONE;
	if (in_list(name, all2all)) return OTF2_REGION_ROLE_COLL_ALL2ALL;
	if (in_list(name, other)) return OTF2_REGION_ROLE_COLL_OTHER;
	if (in_list(name, p2p)) return OTF2_REGION_ROLE_POINT2POINT;
	return OTF2_REGION_ROLE_FUNCTION;
}

uint32_t otfw_region(struct otfw *w, const char *name)
{
	uint32_t sid = str_id(w, name);
	for (size_t i = 0; i < w->regions.n; i++)
		if (w->regions.a[i].name == sid) return (uint32_t)i;
	struct otfw_region r = { .name = sid };
	r.mpi = starts(name, "MPI_");
	r.paradigm = r.mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER;
	r.role = r.mpi ? mpi_role(name) : OTF2_REGION_ROLE_FUNCTION;
	VEC_PUSH(w->regions, r);
	return (uint32_t)(w->regions.n - 1);
}

uint32_t otfw_comm(struct otfw *w, const char *name, uint32_t n, const uint32_t *world_ranks)
{
	uint64_t *m = xcalloc(n ? n : 1, sizeof(*m));
	for (uint32_t i = 0; i < n; i++) {
		if (world_ranks[i] >= w->nranks)
			fail(w, "communicator %s: member %u is not a rank", name, world_ranks[i]);
		m[i] = world_ranks[i];
	}
	add_comm(w, name, n, m);
	free(m);
	return (uint32_t)(w->comms.n - 1);
}

/* Common checks of an event; returns its writer or NULL. */
static OTF2_EvtWriter *ev(struct otfw *w, uint32_t rank, uint64_t t)
{
	if (w->failed) return NULL;
	if (rank >= w->nranks) {
		fail(w, "event on rank %u of %u", rank, w->nranks);
		return NULL;
	}
	struct otfw_loc *l = &w->locs[rank];
	if (l->nev && t < l->last) {
		fail(w, "rank %u: time %llu before the previous event at %llu", rank,
		     (unsigned long long)t, (unsigned long long)l->last);
		return NULL;
	}
	l->last = t;
	l->nev++;
	if (!w->any || t < w->tmin) w->tmin = t;
	if (!w->any || t > w->tmax) w->tmax = t;
	w->any = true;
	return l->ew;
}

static bool comm_ok(struct otfw *w, uint32_t comm, uint32_t peer)
{
	if (comm >= w->comms.n) {
		fail(w, "unknown communicator %u", comm);
		return false;
	}
	const struct otfw_comm *c = &w->comms.a[comm];
	uint32_t size = comm == OTFW_COMM_SELF ? 1 : c->n;
	if (peer != OTF2_UNDEFINED_UINT32 && peer >= size) {
		fail(w, "rank %u outside communicator %u of size %u", peer, comm, size);
		return false;
	}
	return true;
}

static bool region_ok(struct otfw *w, uint32_t region)
{
	if (region < w->regions.n) return true;
	fail(w, "unknown region %u", region);
	return false;
}

void otfw_enter(struct otfw *w, uint32_t rank, uint64_t t, uint32_t region)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e && region_ok(w, region)) OTFW_CHECK(w, OTF2_EvtWriter_Enter(e, NULL, t, region));
}

void otfw_leave(struct otfw *w, uint32_t rank, uint64_t t, uint32_t region)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e && region_ok(w, region)) OTFW_CHECK(w, OTF2_EvtWriter_Leave(e, NULL, t, region));
}

void otfw_send(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e && comm_ok(w, comm, peer))
		OTFW_CHECK(w, OTF2_EvtWriter_MpiSend(e, NULL, t, peer, comm, tag, bytes));
}

void otfw_isend(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
		uint32_t tag, uint64_t bytes, uint64_t req)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e && comm_ok(w, comm, peer))
		OTFW_CHECK(w, OTF2_EvtWriter_MpiIsend(e, NULL, t, peer, comm, tag, bytes, req));
}

void otfw_isend_complete(struct otfw *w, uint32_t rank, uint64_t t, uint64_t req)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e) OTFW_CHECK(w, OTF2_EvtWriter_MpiIsendComplete(e, NULL, t, req));
}

void otfw_irecv_request(struct otfw *w, uint32_t rank, uint64_t t, uint64_t req)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e) OTFW_CHECK(w, OTF2_EvtWriter_MpiIrecvRequest(e, NULL, t, req));
}

void otfw_irecv(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
		uint32_t tag, uint64_t bytes, uint64_t req)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e && comm_ok(w, comm, peer))
		OTFW_CHECK(w, OTF2_EvtWriter_MpiIrecv(e, NULL, t, peer, comm, tag, bytes, req));
}

void otfw_recv(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e && comm_ok(w, comm, peer))
		OTFW_CHECK(w, OTF2_EvtWriter_MpiRecv(e, NULL, t, peer, comm, tag, bytes));
}

void otfw_coll_begin(struct otfw *w, uint32_t rank, uint64_t t)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e) OTFW_CHECK(w, OTF2_EvtWriter_MpiCollectiveBegin(e, NULL, t));
}

void otfw_coll_end(struct otfw *w, uint32_t rank, uint64_t t, uint8_t op, uint32_t comm,
		   uint32_t root, uint64_t sent, uint64_t recvd)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	/* OTF2_COLLECTIVE_ROOT_NONE / _SELF / _THIS_GROUP are not comm ranks */
	uint32_t check = root >= OTF2_COLLECTIVE_ROOT_THIS_GROUP ? OTF2_UNDEFINED_UINT32 : root;
	if (e && comm_ok(w, comm, check))
		OTFW_CHECK(w, OTF2_EvtWriter_MpiCollectiveEnd(e, NULL, t, op, comm, root, sent, recvd));
}

void otfw_measurement(struct otfw *w, uint32_t rank, uint64_t t, bool on)
{
	OTF2_EvtWriter *e = ev(w, rank, t);
	if (e)
		OTFW_CHECK(w, OTF2_EvtWriter_MeasurementOnOff(e, NULL, t,
							      on ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF));
}

uint64_t otfw_events(const struct otfw *w)
{
	uint64_t n = 0;
	for (uint32_t r = 0; r < w->nranks; r++) n += w->locs[r].nev;
	return n;
}

uint64_t otfw_rank_events(const struct otfw *w, uint32_t rank)
{
	return rank < w->nranks ? w->locs[rank].nev : 0;
}

/* Group ids, in the order Score-P writes them. */
enum { G_LOCATIONS = 0, G_WORLD = 1, G_SELF = 2, G_USER = 3 };

static void write_global_defs(struct otfw *w)
{
	/* Intern every string first so the String records come first. */
	uint32_t s_machine = str_id(w, "machine"), s_linux = str_id(w, "Linux");
	uint32_t s_node = str_id(w, "node"), s_mpi = str_id(w, "MPI");
	uint32_t s_master = str_id(w, "Master thread");
	uint32_t *s_nodes = xcalloc(w->nnodes, sizeof(*s_nodes));
	for (uint32_t n = 0; n < w->nnodes; n++) s_nodes[n] = str_newf(w, "node%u", n);
	uint32_t *s_ranks = xcalloc(w->nranks, sizeof(*s_ranks));
	for (uint32_t r = 0; r < w->nranks; r++) s_ranks[r] = str_newf(w, "MPI Rank %u", r);

	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->ar);
	if (!g) {
		fail(w, "no global definition writer");
		goto out;
	}
	uint64_t t0 = w->any ? w->tmin : 0, len = w->any ? w->tmax - w->tmin : 0;
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteClockProperties(g, w->res, t0, len, OTF2_UNDEFINED_TIMESTAMP));
	for (size_t i = 0; i < w->strings.n; i++)
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteString(g, (uint32_t)i, w->strings.a[i]));
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, s_mpi, OTF2_PARADIGM_CLASS_PROCESS));
	for (size_t i = 0; i < w->regions.n; i++) {
		const struct otfw_region *r = &w->regions.a[i];
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteRegion(g, (uint32_t)i, r->name, r->name, 0, r->role,
							       r->paradigm, OTF2_REGION_FLAG_NONE,
							       r->mpi ? s_mpi : OTF2_UNDEFINED_STRING, 0, 0));
	}
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_linux, s_machine,
							       OTF2_UNDEFINED_SYSTEM_TREE_NODE));
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(g, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE));
	for (uint32_t n = 0; n < w->nnodes; n++) {
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteSystemTreeNode(g, n + 1, s_nodes[n], s_node, 0));
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(g, n + 1,
									     OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY));
	}
	for (uint32_t r = 0; r < w->nranks; r++)
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteLocationGroup(g, r, s_ranks[r],
								      OTF2_LOCATION_GROUP_TYPE_PROCESS,
								      w->node_of[r] + 1,
								      OTF2_UNDEFINED_LOCATION_GROUP));
	for (uint32_t r = 0; r < w->nranks; r++)
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteLocation(g, r, s_master, OTF2_LOCATION_TYPE_CPU_THREAD,
								 w->locs[r].nev, r));
	/* COMM_LOCATIONS: members[i] = location of world rank i (= i). */
	const struct otfw_comm *world = &w->comms.a[OTFW_COMM_WORLD];
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteGroup(g, G_LOCATIONS, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, world->n,
						      world->members));
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteGroup(g, G_WORLD, 0, OTF2_GROUP_TYPE_COMM_GROUP,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, world->n,
						      world->members));
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteGroup(g, G_SELF, 0, OTF2_GROUP_TYPE_COMM_SELF,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL));
	for (size_t i = 2; i < w->comms.n; i++) {
		const struct otfw_comm *c = &w->comms.a[i];
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteGroup(g, (uint32_t)(G_USER + i - 2), 0,
							      OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
							      OTF2_GROUP_FLAG_NONE, c->n, c->members));
	}
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteComm(g, OTFW_COMM_WORLD, world->name, G_WORLD,
						     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
	OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteComm(g, OTFW_COMM_SELF, w->comms.a[OTFW_COMM_SELF].name, G_SELF,
						     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
	for (size_t i = 2; i < w->comms.n; i++)
		OTFW_CHECK(w, OTF2_GlobalDefWriter_WriteComm(g, (uint32_t)i, w->comms.a[i].name,
							     (uint32_t)(G_USER + i - 2), OTFW_COMM_WORLD,
							     OTF2_COMM_FLAG_NONE));
	OTFW_CHECK(w, OTF2_Archive_CloseGlobalDefWriter(w->ar, g));
out:
	free(s_nodes);
	free(s_ranks);
}

int otfw_close(struct otfw *w)
{
	if (!w) return -1;
	for (uint32_t r = 0; r < w->nranks; r++)
		if (w->locs[r].ew) OTFW_CHECK(w, OTF2_Archive_CloseEvtWriter(w->ar, w->locs[r].ew));
	OTFW_CHECK(w, OTF2_Archive_CloseEvtFiles(w->ar));
	/* Empty local definition files, so readers can open them as for Score-P traces. */
	OTFW_CHECK(w, OTF2_Archive_OpenDefFiles(w->ar));
	for (uint32_t r = 0; r < w->nranks; r++) {
		OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(w->ar, r);
		if (!d) {
			fail(w, "no definition writer for location %u", r);
			continue;
		}
		OTFW_CHECK(w, OTF2_Archive_CloseDefWriter(w->ar, d));
	}
	OTFW_CHECK(w, OTF2_Archive_CloseDefFiles(w->ar));
	write_global_defs(w);
	OTFW_CHECK(w, OTF2_Archive_Close(w->ar));
	int rc = w->failed ? -1 : 0;
	for (size_t i = 0; i < w->strings.n; i++) free(w->strings.a[i]);
	VEC_FREE(w->strings);
	VEC_FREE(w->regions);
	for (size_t i = 0; i < w->comms.n; i++) free(w->comms.a[i].members);
	VEC_FREE(w->comms);
	free(w->locs);
	free(w->node_of);
	free(w);
	return rc;
}
