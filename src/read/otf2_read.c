/* otf2_read.c — OTF2 archive → model, with per-location local event readers
 * (the global reader is 3–6× slower and keeps every file open), optionally in
 * worker threads sharing one reader under OTF2's pthread locking callbacks.
 *
 * Order (ecosystem.md §1.2): error callback first; global definitions; select
 * every location; open local def/evt files; per location read the local
 * definitions (mapping tables, clock offsets) before its events. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>
#include <otf2/OTF2_Pthread_Locks.h>

#include "part.h"
#include "read.h"
#include "u64map.h"

#define CHUNK 65536

/* --- OTF2 error messages: kept, never printed behind the UI's back ---------- */
static _Thread_local char otf2_msg[512];

static OTF2_ErrorCode on_otf2_error(void *ud, const char *file, uint64_t line, const char *fn,
				    OTF2_ErrorCode code, const char *fmt, va_list va)
{
	(void)ud; (void)file; (void)line; (void)fn;
	/* libotf2 names a POSIX failure by the bare errno ("5"): print its text */
	const char *name = OTF2_Error_GetName(code);
	char *end = NULL;
	long e = name && *name ? strtol(name, &end, 10) : -1;
	if (end && !*end && e > 0) name = strerror((int)e);
	int n = snprintf(otf2_msg, sizeof otf2_msg, "%s", name ? name : "OTF2 error");
	if (fmt && n > 0 && (size_t)n < sizeof otf2_msg - 3) {
		strcpy(otf2_msg + n, ": ");
		vsnprintf(otf2_msg + n + 2, sizeof otf2_msg - (size_t)n - 2, fmt, va);
	}
	return code;
}

static void install(void)
{
	OTF2_Error_RegisterCallback(on_otf2_error, NULL);
}

static void install_error_callback(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, install);
}

/* --- raw global definitions --------------------------------------------------- */
struct stn { uint32_t name, cls, parent; bool shm, present; };
struct lgroup { uint32_t name, parent; uint8_t type; bool present; };
struct rloc { uint64_t ref; uint32_t name, group; uint8_t type; bool def_empty; uint64_t nevents; };
struct rregion { uint32_t name; uint8_t role, paradigm; bool present; };
struct rgroup { uint8_t type, paradigm; uint32_t flags, n; uint64_t *members; bool present; };
struct rcomm { uint32_t name, group; bool present; };
struct rmember { uint32_t name, unit; uint8_t mode, vtype; bool present; };
/* a metric class (its members) or instance (cls: its class ref) */
struct rmetric { uint32_t n, cls; uint64_t *members; bool present, instance; };

struct defs {
	VEC(const char *) str;
	VEC(struct stn) stn;
	VEC(struct lgroup) lg;
	VEC(struct rloc) loc;
	VEC(struct rregion) reg;
	VEC(struct rgroup) grp;
	VEC(struct rcomm) comm;
	VEC(struct rmember) mmember;
	VEC(struct rmetric) metric;
	uint64_t res, offset, length;
	bool have_clock;
	struct arena *arena;
	/* hostile input (docs/model.md, "Bounds"): refs above ref_bound are dropped
	 * (a dense ref space cannot exceed the definitions file), duplicate
	 * location refs are ignored; each counted and warned about once */
	uint64_t ref_bound;
	uint64_t dropped_refs, max_dropped_ref;
	struct u64map loc_index;    /* location ref → index into loc */
	uint64_t dup_locs, first_dup_loc;
};

#define DEF_AT(vec, ref)                                                              \
	(__extension__({                                                              \
		if ((ref) >= (vec).n) {                                               \
			VEC_RESERVE(vec, (size_t)(ref) + 1);                          \
			memset((vec).a + (vec).n, 0, ((size_t)(ref) + 1 - (vec).n) * sizeof(*(vec).a)); \
			(vec).n = (size_t)(ref) + 1;                                  \
		}                                                                     \
		&(vec).a[ref];                                                        \
	}))

#define REF_LIMIT 50000000u  /* refuse absurd refs instead of allocating for them */

/* Definition tables are indexed by ref and zero-filled up to the largest one.
 * A definition record takes at least 2 bytes of the global definitions file,
 * so refs of a real (dense) ref space stay below half its size: refs beyond
 * that bound are dropped instead of costing memory and time (a 781-byte file
 * with refs near REF_LIMIT used to allocate 3.9 GB). */
static bool def_ref_ok(struct defs *d, uint64_t ref)
{
	if (ref <= d->ref_bound && ref <= REF_LIMIT) return true;
	d->dropped_refs++;
	d->max_dropped_ref = TC_MAX(d->max_dropped_ref, ref);
	return false;
}

static uint64_t def_ref_bound(uint64_t gdef_bytes)
{
	return gdef_bytes / 2 + 1024;
}

static const char *dstr(const struct defs *d, uint32_t ref)
{
	return ref < d->str.n && d->str.a[ref] ? d->str.a[ref] : "";
}

static OTF2_CallbackCode d_string(void *ud, OTF2_StringRef self, const char *s)
{
	struct defs *d = ud;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	*DEF_AT(d->str, self) = arena_strdup(d->arena, s ? s : "");
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_clock(void *ud, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
	struct defs *d = ud;
	(void)rt;
	d->res = res;
	d->offset = off;
	d->length = len;
	d->have_clock = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_stn(void *ud, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
			       OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent)
{
	struct defs *d = ud;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	struct stn *s = DEF_AT(d->stn, self);
	s->name = name;
	s->cls = cls;
	s->parent = parent;
	s->present = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_stn_domain(void *ud, OTF2_SystemTreeNodeRef node, OTF2_SystemTreeDomain dom)
{
	struct defs *d = ud;
	if (!def_ref_ok(d, node)) return OTF2_CALLBACK_SUCCESS;
	if (dom == OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY) DEF_AT(d->stn, node)->shm = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_lgroup(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name,
				  OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
				  OTF2_LocationGroupRef creator)
{
	struct defs *d = ud;
	(void)creator;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	struct lgroup *g = DEF_AT(d->lg, self);
	g->name = name;
	g->parent = parent;
	g->type = type;
	g->present = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_loc(void *ud, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
			       uint64_t nevents, OTF2_LocationGroupRef group)
{
	struct defs *d = ud;
	struct rloc l = { .ref = self, .name = name, .group = group, .type = type, .nevents = nevents };
	if (u64map_get(&d->loc_index, self) != U64MAP_NONE) {
		/* two readers on one location would share a libotf2 file object */
		if (!d->dup_locs++) d->first_dup_loc = self;
		return OTF2_CALLBACK_SUCCESS;
	}
	u64map_put(&d->loc_index, self, (uint32_t)d->loc.n);
	VEC_PUSH(d->loc, l);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canon,
				  OTF2_StringRef desc, OTF2_RegionRole role, OTF2_Paradigm paradigm,
				  OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t b, uint32_t e)
{
	struct defs *d = ud;
	(void)canon; (void)desc; (void)flags; (void)file; (void)b; (void)e;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	struct rregion *r = DEF_AT(d->reg, self);
	r->name = name;
	r->role = role;
	r->paradigm = paradigm;
	r->present = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
				 OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
	struct defs *d = ud;
	(void)name;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	struct rgroup *g = DEF_AT(d->grp, self);
	g->type = type;
	g->paradigm = paradigm;
	g->flags = flags;
	g->n = n;
	g->members = arena_alloc(d->arena, (n ? n : 1) * sizeof(uint64_t));
	if (n) memcpy(g->members, members, n * sizeof(uint64_t));
	g->present = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
				OTF2_CommRef parent, OTF2_CommFlag flags)
{
	struct defs *d = ud;
	(void)parent; (void)flags;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	struct rcomm *c = DEF_AT(d->comm, self);
	c->name = name;
	c->group = group;
	c->present = true;
	return OTF2_CALLBACK_SUCCESS;
}

/* --- metric definitions (docs/model.md, "Metrics") ----------------------------------- */
static OTF2_CallbackCode d_metric_member(void *ud, OTF2_MetricMemberRef self, OTF2_StringRef name,
					 OTF2_StringRef desc, OTF2_MetricType type, OTF2_MetricMode mode,
					 OTF2_Type vtype, OTF2_Base base, int64_t exponent, OTF2_StringRef unit)
{
	struct defs *d = ud;
	(void)desc; (void)type; (void)base; (void)exponent;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	struct rmember *m = DEF_AT(d->mmember, self);
	*m = (struct rmember){ .name = name, .unit = unit, .mode = mode, .vtype = vtype, .present = true };
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_metric_class(void *ud, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef *members,
					OTF2_MetricOccurrence occ, OTF2_RecorderKind kind)
{
	struct defs *d = ud;
	(void)occ; (void)kind;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	struct rmetric *m = DEF_AT(d->metric, self);
	*m = (struct rmetric){ .n = n, .cls = TC_NONE, .present = true };
	m->members = arena_alloc(d->arena, (n ? n : 1) * sizeof(uint64_t));
	for (uint8_t i = 0; i < n; i++) m->members[i] = members[i];
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_metric_instance(void *ud, OTF2_MetricRef self, OTF2_MetricRef cls, OTF2_LocationRef recorder,
					   OTF2_MetricScope scope_type, uint64_t scope)
{
	struct defs *d = ud;
	(void)recorder; (void)scope_type; (void)scope;
	if (!def_ref_ok(d, self)) return OTF2_CALLBACK_SUCCESS;
	*DEF_AT(d->metric, self) = (struct rmetric){ .cls = cls, .present = true, .instance = true };
	return OTF2_CALLBACK_SUCCESS;
}

static void register_metric_defs(OTF2_GlobalDefReaderCallbacks *gcb)
{
	OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(gcb, d_metric_member);
	OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(gcb, d_metric_class);
	OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(gcb, d_metric_instance);
}

/* --- the load ------------------------------------------------------------------- */
struct loadctx;
struct locctx {
	struct loadctx *L;
	uint32_t loc;        /* model location index */
	uint32_t rank;       /* world rank, TC_NONE if none */
	bool master;         /* the rank's master location (the builder's choice, tcb_loc_is_master) */
	uint64_t ref;
	uint64_t nevents;    /* as defined */
	uint64_t nread;
	bool def_empty;      /* its local .def holds nothing (tc_otf2_def_file_empty): not read */
	bool evt, local_def; /* its .evt / .def file exists */
	bool other;          /* another process's (an MPI-parallel read): not read here */
};

/* The local files of d->loc.a[i] (check_local_files). */
struct locfiles { uint64_t evt_bytes; bool evt, def; };

/* Which thread reads which location.  The ranks' master locations, in rank
 * order, are cut into one run per thread of about equal event counts; a thread
 * reads its run front to back, as tcb_loc_begin slot = its number, so its
 * messages land in one array in rank order (the model keeps thread 0's without
 * a copy).  Then the other locations from a shared queue, then it steals from
 * the back of the runs still going (a stolen location keeps its messages apart;
 * they are copied into place at the end). */
struct run { _Atomic uint64_t fe; };   /* front << 32 | end, indices into plan.order */
struct plan {
	uint32_t *order;     /* lc indices: masters by rank, then the other locations */
	uint32_t nmaster, n;
	struct run run[TC_MAX_THREADS];
	int nruns;
	atomic_uint rest;    /* next of order[nmaster .. n) */
};

struct loadctx {
	OTF2_Reader *rd;
	struct tc_trace *t;
	const struct tc_read_opts *opts;
	struct defs d;
	char *anchor, *archive_dir; /* archive_dir: <dir>/<name>/ holding the local files */
	uint32_t *region_map;       /* OTF2 region ref → model region */
	uint32_t nregion_map;
	uint32_t *comm_map;         /* OTF2 comm ref → model comm */
	uint32_t ncomm_map;
	struct mmap { uint32_t n; uint32_t *m; } *metric_map; /* OTF2 metric ref → model metric of each value */
	uint32_t nmetric_map;
	struct locctx *lc;
	uint32_t nlc;
	struct locfiles *files;     /* per d->loc entry */
	uint64_t def_bytes;         /* anchor + global definitions, in bytes */
	bool have_local_defs;
	/* local definitions that could not be used: counted by the reading
	 * threads, one warning after the load (first_* guarded by mu) */
	atomic_uint no_local_defs, bad_local_defs;
	uint64_t first_no_local_def, first_bad_local_def;
	char first_bad_local_def_msg[sizeof otf2_msg]; /* libotf2's message for it, taken on the reading thread */
	struct plan plan;
	bool *other;                /* an MPI-parallel read: per d->loc entry, another process's */
	uint32_t lo, hi;            /* ... and the ranks of this process's share */
	atomic_bool cancel;
	atomic_uint_fast64_t done;
	uint64_t total;
	pthread_mutex_t mu;
	char *err;                  /* first error, guarded by mu */
};

static void set_err(struct loadctx *L, char *msg)
{
	pthread_mutex_lock(&L->mu);
	if (!L->err) L->err = msg;
	else free(msg);
	pthread_mutex_unlock(&L->mu);
	atomic_store(&L->cancel, true);
}

static inline uint32_t region_of(const struct loadctx *L, OTF2_RegionRef r)
{
	return r < L->nregion_map ? L->region_map[r] : TC_NONE;
}

static inline uint32_t comm_of(const struct loadctx *L, OTF2_CommRef c)
{
	return c < L->ncomm_map ? L->comm_map[c] : TC_NONE;
}

#define EV_ARGS OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t pos, void *ud, OTF2_AttributeList *al
#define EV_CTX struct locctx *c = ud; (void)location; (void)pos; (void)al

static OTF2_CallbackCode e_enter(EV_ARGS, OTF2_RegionRef region)
{
	EV_CTX;
	tcb_enter(c->L->t, c->loc, time, region_of(c->L, region));
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_leave(EV_ARGS, OTF2_RegionRef region)
{
	EV_CTX;
	tcb_leave(c->L->t, c->loc, time, region_of(c->L, region));
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_send(EV_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EV_CTX;
	tcb_send(c->L->t, c->loc, time, receiver, comm_of(c->L, comm), tag, len);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_isend(EV_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len,
				 uint64_t req)
{
	EV_CTX;
	tcb_isend(c->L->t, c->loc, time, receiver, comm_of(c->L, comm), tag, len, req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_isend_complete(EV_ARGS, uint64_t req)
{
	EV_CTX;
	tcb_isend_complete(c->L->t, c->loc, time, req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_irecv_request(EV_ARGS, uint64_t req)
{
	EV_CTX;
	tcb_irecv_request(c->L->t, c->loc, time, req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_irecv(EV_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len,
				 uint64_t req)
{
	EV_CTX;
	tcb_irecv(c->L->t, c->loc, time, sender, comm_of(c->L, comm), tag, len, req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_recv(EV_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EV_CTX;
	tcb_recv(c->L->t, c->loc, time, sender, comm_of(c->L, comm), tag, len);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_cancelled(EV_ARGS, uint64_t req)
{
	EV_CTX;
	tcb_request_cancelled(c->L->t, c->loc, time, req);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_coll_begin(EV_ARGS)
{
	EV_CTX;
	tcb_coll_begin(c->L->t, c->loc, time);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_coll_end(EV_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
				    uint64_t sent, uint64_t recvd)
{
	EV_CTX;
	uint32_t r = (root == OTF2_UNDEFINED_UINT32 || root >= 0xFFFFFF00u) ? TC_NONE : root;
	tcb_coll_end(c->L->t, c->loc, time, (uint8_t)op, comm_of(c->L, comm), r, sent, recvd);
	return OTF2_CALLBACK_SUCCESS;
}

/* --- metrics and the records no analysis reads yet ----------------------------------
 * A METRIC record gives one sample per member of its class; every other record
 * kind below only tells the model that the location was alive at that time
 * (tc_loc.last_record), e.g. to close its open regions there. */
static enum tc_metric_vtype metric_vtype(OTF2_Type ty)
{
	return ty == OTF2_TYPE_INT64 ? TC_MV_INT64 : ty == OTF2_TYPE_DOUBLE ? TC_MV_DOUBLE : TC_MV_UINT64;
}

static OTF2_CallbackCode e_metric(EV_ARGS, OTF2_MetricRef metric, uint8_t n, const OTF2_Type *types,
				  const OTF2_MetricValue *values)
{
	EV_CTX;
	const struct mmap *m = metric < c->L->nmetric_map ? &c->L->metric_map[metric] : NULL;
	tcb_seen(c->L->t, c->loc, time);
	for (uint8_t i = 0; i < n; i++) {
		union tc_mvalue v;
		memcpy(&v, &values[i], sizeof v);
		tcb_metric(c->L->t, c->loc, time, m && i < m->n ? m->m[i] : TC_NONE, metric_vtype(types[i]), v);
	}
	return OTF2_CALLBACK_SUCCESS;
}

#define SEEN(kind, ...)                                                        \
	static OTF2_CallbackCode e_seen_##kind(EV_ARGS, __VA_ARGS__)           \
	{                                                                      \
		EV_CTX;                                                        \
		tcb_seen(c->L->t, c->loc, time);                               \
		return OTF2_CALLBACK_SUCCESS;                                  \
	}
SEEN(MeasurementOnOff, OTF2_MeasurementMode a)
SEEN(ProgramBegin, OTF2_StringRef a, uint32_t b, const OTF2_StringRef *e)
SEEN(ProgramEnd, int64_t a)
SEEN(ThreadFork, OTF2_Paradigm a, uint32_t b)
SEEN(ThreadJoin, OTF2_Paradigm a)
SEEN(ThreadTeamBegin, OTF2_CommRef a)
SEEN(ThreadTeamEnd, OTF2_CommRef a)
SEEN(ThreadAcquireLock, OTF2_Paradigm a, uint32_t b, uint32_t e)
SEEN(ThreadReleaseLock, OTF2_Paradigm a, uint32_t b, uint32_t e)
SEEN(ThreadTaskCreate, OTF2_CommRef a, uint32_t b, uint32_t e)
SEEN(ThreadTaskSwitch, OTF2_CommRef a, uint32_t b, uint32_t e)
SEEN(ThreadTaskComplete, OTF2_CommRef a, uint32_t b, uint32_t e)
SEEN(ThreadCreate, OTF2_CommRef a, uint64_t b)
SEEN(ThreadBegin, OTF2_CommRef a, uint64_t b)
SEEN(ThreadWait, OTF2_CommRef a, uint64_t b)
SEEN(ThreadEnd, OTF2_CommRef a, uint64_t b)
SEEN(RmaWinCreate, OTF2_RmaWinRef a)
SEEN(RmaWinDestroy, OTF2_RmaWinRef a)
SEEN(RmaOpTest, OTF2_RmaWinRef a, uint64_t b)
SEEN(RmaSync, OTF2_RmaWinRef a, uint32_t b, OTF2_RmaSyncType e)
SEEN(RmaWaitChange, OTF2_RmaWinRef a)
SEEN(ParameterString, OTF2_ParameterRef a, OTF2_StringRef b)
SEEN(ParameterInt, OTF2_ParameterRef a, int64_t b)
SEEN(ParameterUnsignedInt, OTF2_ParameterRef a, uint64_t b)
SEEN(CommCreate, OTF2_CommRef a)
SEEN(CommDestroy, OTF2_CommRef a)
#undef SEEN

/* RMA puts and gets and their completions: a stream's memcpy (src/model/xfers.c). */
#define XFER(kind, get)                                                                              \
	static OTF2_CallbackCode e_xfer_##kind(EV_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, \
					       uint64_t match)                                       \
	{                                                                                            \
		EV_CTX;                                                                              \
		(void)win; (void)remote;                                                             \
		tcb_xfer_begin(c->L->t, c->loc, time, bytes, match, get);                            \
		return OTF2_CALLBACK_SUCCESS;                                                        \
	}
XFER(RmaPut, false)
XFER(RmaGet, true)
#undef XFER
#define XFER_DONE(kind)                                                                     \
	static OTF2_CallbackCode e_xfer_##kind(EV_ARGS, OTF2_RmaWinRef win, uint64_t match) \
	{                                                                                   \
		EV_CTX;                                                                     \
		(void)win;                                                                  \
		tcb_xfer_end(c->L->t, c->loc, time, match);                                 \
		return OTF2_CALLBACK_SUCCESS;                                               \
	}
XFER_DONE(RmaOpCompleteBlocking)
XFER_DONE(RmaOpCompleteNonBlocking)
XFER_DONE(RmaOpCompleteRemote)
#undef XFER_DONE

static void register_seen(OTF2_EvtReaderCallbacks *cb)
{
#define R(kind) OTF2_EvtReaderCallbacks_Set##kind##Callback(cb, e_seen_##kind)
	R(MeasurementOnOff); R(ProgramBegin); R(ProgramEnd); R(ThreadFork); R(ThreadJoin);
	R(ThreadTeamBegin); R(ThreadTeamEnd); R(ThreadAcquireLock); R(ThreadReleaseLock);
	R(ThreadTaskCreate); R(ThreadTaskSwitch); R(ThreadTaskComplete); R(ThreadCreate);
	R(ThreadBegin); R(ThreadWait); R(ThreadEnd); R(RmaWinCreate); R(RmaWinDestroy);
	R(RmaOpTest); R(RmaSync); R(RmaWaitChange); R(ParameterString); R(ParameterInt);
	R(ParameterUnsignedInt); R(CommCreate); R(CommDestroy);
#undef R
#define R(kind) OTF2_EvtReaderCallbacks_Set##kind##Callback(cb, e_xfer_##kind)
	R(RmaPut); R(RmaGet); R(RmaOpCompleteBlocking); R(RmaOpCompleteNonBlocking); R(RmaOpCompleteRemote);
#undef R
	OTF2_EvtReaderCallbacks_SetMetricCallback(cb, e_metric);
}

/* Model metrics: one per MetricMember; each metric ref (class or instance)
 * maps its values, in order, to the models' metrics of its class's members. */
static void define_metrics(struct loadctx *L)
{
	struct defs *d = &L->d;
	uint32_t *member = xmalloc((d->mmember.n ? d->mmember.n : 1) * sizeof *member);
	for (size_t i = 0; i < d->mmember.n; i++) {
		const struct rmember *M = &d->mmember.a[i];
		static const uint8_t modes[] = { TC_MM_ACCUMULATED, TC_MM_ABSOLUTE, TC_MM_RELATIVE };
		uint8_t v = M->mode & OTF2_METRIC_VALUE_MASK;
		member[i] = M->present ? tc_def_metric(L->t, dstr(d, M->name), dstr(d, M->unit),
						       v < 3 ? modes[v] : TC_MM_OTHER, (M->mode & OTF2_METRIC_TIMING_MASK) >> 4,
						       metric_vtype(M->vtype))
				       : TC_NONE;
	}
	L->nmetric_map = (uint32_t)d->metric.n;
	L->metric_map = xcalloc(d->metric.n ? d->metric.n : 1, sizeof *L->metric_map);
	for (size_t i = 0; i < d->metric.n; i++) {
		const struct rmetric *C = &d->metric.a[i];
		if (C->instance) C = C->cls < d->metric.n && !d->metric.a[C->cls].instance ? &d->metric.a[C->cls] : NULL;
		if (!C || !C->present) continue;
		struct mmap *m = &L->metric_map[i];
		m->n = C->n;
		m->m = xmalloc((C->n ? C->n : 1) * sizeof *m->m);
		for (uint32_t k = 0; k < C->n; k++) m->m[k] = C->members[k] < d->mmember.n ? member[C->members[k]] : TC_NONE;
	}
	free(member);
}

static OTF2_EvtReaderCallbacks *make_callbacks(void)
{
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, e_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, e_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, e_send);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, e_isend);
	OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, e_isend_complete);
	OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, e_irecv_request);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, e_irecv);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, e_recv);
	OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, e_cancelled);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, e_coll_begin);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, e_coll_end);
	register_seen(cb);
	return cb;
}

static char *loc_file(const struct loadctx *L, uint64_t ref, const char *ext)
{
	return xasprintf("%s/%llu.%s", L->archive_dir, (unsigned long long)ref, ext);
}

static bool file_exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

bool tc_otf2_def_file_empty(const char *path)
{
	/* chunk header (type 3, byte order 'B'/'#', first and last event 0, compressed), end of chunk, end of file */
	static const unsigned char empty[20] = { 0x03, 0x42, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
						 0, 0, 0, 0, 0, 0, 0x02, 0x01 };
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != (off_t)sizeof empty) return false;
	FILE *f = fopen(path, "rb");
	if (!f) return false;
	unsigned char b[sizeof empty + 1];
	size_t n = fread(b, 1, sizeof b, f);
	fclose(f);
	if (n != sizeof empty || (b[1] != 0x42 && b[1] != 0x23)) return false;
	b[1] = 0x42;   /* either byte order: 'B' big, '#' little endian */
	return memcmp(b, empty, sizeof empty) == 0;
}

/* The load's error "<archive>/<ref>.<ext>: message". */
static void set_file_err(struct loadctx *L, uint64_t ref, const char *ext, const char *fmt, ...) TC_PRINTF(4, 5);
static void set_file_err(struct loadctx *L, uint64_t ref, const char *ext, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	char *f = loc_file(L, ref, ext);
	set_err(L, xasprintf("%s: %s", f, msg));
	free(f);
	free(msg);
}

/* A location's local definitions are missing or unreadable: count it, keep the
 * first, and for an unreadable one (keep_msg) libotf2's message: this thread's
 * otf2_msg, which the thread that warns later cannot see. */
static void note_local_def(struct loadctx *L, atomic_uint *count, uint64_t *first, uint64_t ref, bool keep_msg)
{
	pthread_mutex_lock(&L->mu);
	if (!atomic_fetch_add(count, 1)) {
		*first = ref;
		if (keep_msg) snprintf(L->first_bad_local_def_msg, sizeof L->first_bad_local_def_msg, "%s", otf2_msg);
	}
	pthread_mutex_unlock(&L->mu);
}

/* An MPI-parallel read: *count summed over the processes, *first the first
 * process's that has any. */
static void share_first(struct loadctx *L, unsigned *count, uint64_t *first)
{
	const struct tc_dist *d = L->opts->share->dist;
	uint64_t n = *count, who = *count ? (uint64_t)d->index : UINT64_MAX;
	d->reduce(d->ctx, &n, 1, TC_DIST_SUM);
	d->reduce(d->ctx, &who, 1, TC_DIST_MIN);
	uint64_t f = who == (uint64_t)d->index ? *first : UINT64_MAX;
	d->reduce(d->ctx, &f, 1, TC_DIST_MIN);
	*count = (unsigned)n;
	*first = f;
}

static void warn_local_defs(struct loadctx *L)
{
	unsigned n = atomic_load(&L->no_local_defs), u = atomic_load(&L->bad_local_defs);
	if (L->opts && L->opts->share) {
		share_first(L, &n, &L->first_no_local_def);
		share_first(L, &u, &L->first_bad_local_def);
	}
	if (n) {
		char *f = loc_file(L, L->first_no_local_def, "def");
		tc_warn(L->t, "%u locations have no local definitions file (first: %s): their events are read without mapping tables", n, f);
		free(f);
	}
	if (u) {
		char *f = loc_file(L, L->first_bad_local_def, "def");
		const char *m = L->first_bad_local_def_msg;
		tc_warn(L->t, "%u local definitions files cannot be read (first: %s%s%s): skipped", u, f,
			m[0] ? ": " : "", m);
		free(f);
	}
}

/* Read one location: local definitions first, then its events in chunks. */
static void read_location(struct loadctx *L, struct locctx *c, OTF2_EvtReaderCallbacks *cb)
{
	if (L->have_local_defs && !c->local_def) note_local_def(L, &L->no_local_defs, &L->first_no_local_def, c->ref, false);
	if (L->have_local_defs && c->local_def && !c->def_empty) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(L->rd, c->ref);
		if (!dr) note_local_def(L, &L->bad_local_defs, &L->first_bad_local_def, c->ref, true);
		if (dr) {
			uint64_t n;
			OTF2_ErrorCode rc;
			do rc = OTF2_Reader_ReadAllLocalDefinitions(L->rd, dr, &n);
			while (rc == OTF2_ERROR_DUPLICATE_MAPPING_TABLE);
			OTF2_Reader_CloseDefReader(L->rd, dr);
			if (rc != OTF2_SUCCESS) {
				set_file_err(L, c->ref, "def", "cannot read local definitions (%s)",
					     otf2_msg[0] ? otf2_msg : OTF2_Error_GetDescription(rc));
				return;
			}
		}
	}
	if (!c->evt) { /* a location without events need not have an event file */
		tcb_read_total(L->t, c->loc, 0);
		tcb_loc_done(L->t, c->loc);
		return;
	}
	OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(L->rd, c->ref);
	if (!er) {
		set_file_err(L, c->ref, "evt", "cannot open event file (%s)", otf2_msg[0] ? otf2_msg : "unknown error");
		return;
	}
	OTF2_Reader_RegisterEvtCallbacks(L->rd, er, cb, c);
	for (;;) {
		uint64_t n = 0;
		OTF2_ErrorCode rc = OTF2_Reader_ReadLocalEvents(L->rd, er, CHUNK, &n);
		c->nread += n;
		uint64_t done = atomic_fetch_add(&L->done, n) + n;
		if (rc != OTF2_SUCCESS) {
			set_file_err(L, c->ref, "evt", "truncated or corrupt event file after %llu events (%s)",
				     (unsigned long long)c->nread, otf2_msg[0] ? otf2_msg : OTF2_Error_GetDescription(rc));
			break;
		}
		if (L->opts && L->opts->progress) {
			pthread_mutex_lock(&L->mu);
			bool go = L->opts->progress(L->opts->progress_ctx, done, L->total);
			pthread_mutex_unlock(&L->mu);
			if (!go) {
				set_err(L, xstrdup("loading cancelled"));
				break;
			}
		}
		if (n < CHUNK || atomic_load(&L->cancel)) break;
	}
	OTF2_Reader_CloseEvtReader(L->rd, er);
	if (atomic_load(&L->cancel)) return;
	uint64_t want = c->nevents;
	if (want && c->nread < want) {
		set_file_err(L, c->ref, "evt", "truncated event file: %llu of %llu events", (unsigned long long)c->nread,
			     (unsigned long long)want);
		return;
	}
	tcb_read_total(L->t, c->loc, c->nread);
	tcb_loc_done(L->t, c->loc);
}

static uint32_t run_take(struct run *r, bool back)
{
	uint64_t v = atomic_load(&r->fe);
	for (;;) {
		uint32_t f = (uint32_t)(v >> 32), e = (uint32_t)v;
		if (f >= e) return TC_NONE;
		uint64_t w = back ? ((uint64_t)f << 32 | (e - 1)) : ((uint64_t)(f + 1) << 32 | e);
		if (atomic_compare_exchange_weak(&r->fe, &v, w)) return back ? e - 1 : f;
	}
}

static int cmp_master(const void *a, const void *b, void *ctx)
{
	const struct locctx *lc = ctx;
	uint32_t ra = lc[*(const uint32_t *)a].rank, rb = lc[*(const uint32_t *)b].rank;
	return ra < rb ? -1 : ra > rb;
}

static void make_plan(struct loadctx *L, int nthreads)
{
	struct plan *P = &L->plan;
	P->order = xmalloc((L->nlc ? L->nlc : 1) * sizeof *P->order);
	uint64_t master_events = 0;
	for (uint32_t i = 0; i < L->nlc; i++) L->lc[i].master = tcb_loc_is_master(L->t, L->lc[i].loc);
	for (uint32_t i = 0; i < L->nlc; i++)
		if (L->lc[i].master && !L->lc[i].other) {
			P->order[P->nmaster++] = i;
			master_events += L->lc[i].nevents;
		}
	qsort_r(P->order, P->nmaster, sizeof *P->order, cmp_master, L->lc);
	P->n = P->nmaster;
	for (uint32_t i = 0; i < L->nlc; i++)
		if (!L->lc[i].master && !L->lc[i].other) P->order[P->n++] = i;
	P->nruns = TC_MAX(nthreads, 1);
	uint64_t acc = 0;
	uint32_t start = 0;
	for (int k = 0; k < P->nruns; k++) {
		uint32_t end = start;
		uint64_t goal = master_events / (uint64_t)P->nruns * (uint64_t)(k + 1);
		if (k == P->nruns - 1) end = P->nmaster;
		else
			while (end < P->nmaster && acc < goal) acc += L->lc[P->order[end++]].nevents;
		atomic_init(&P->run[k].fe, (uint64_t)start << 32 | end);
		start = end;
	}
	atomic_init(&P->rest, P->nmaster);
}

struct worker_arg { struct loadctx *L; int k; };

static void *worker(void *arg)
{
	struct loadctx *L = ((struct worker_arg *)arg)->L;
	int k = ((struct worker_arg *)arg)->k;
	struct plan *P = &L->plan;
	OTF2_EvtReaderCallbacks *cb = make_callbacks();
	uint32_t i;
	while (!atomic_load(&L->cancel) && (i = run_take(&P->run[k], false)) != TC_NONE) {
		tcb_loc_begin(L->t, L->lc[P->order[i]].loc, k);
		read_location(L, &L->lc[P->order[i]], cb);
	}
	while (!atomic_load(&L->cancel) && (i = atomic_fetch_add(&P->rest, 1)) < P->n)
		read_location(L, &L->lc[P->order[i]], cb);
	for (int j = (k + 1) % P->nruns; j != k && !atomic_load(&L->cancel);) {
		if ((i = run_take(&P->run[j], true)) != TC_NONE) read_location(L, &L->lc[P->order[i]], cb);
		else j = (j + 1) % P->nruns;
	}
	OTF2_EvtReaderCallbacks_Delete(cb);
	return NULL;
}

/* --- definitions → model ---------------------------------------------------------- */
static uint32_t node_of_stn(struct loadctx *L, uint32_t stn, uint32_t *stn_node)
{
	const struct defs *d = &L->d;
	/* walk up to the shared-memory domain node; else a node of class "node" */
	uint32_t pick = TC_NONE, s = stn;
	for (int guard = 0; s < d->stn.n && d->stn.a[s].present && guard < 64; guard++) {
		if (d->stn.a[s].shm) { pick = s; break; }
		s = d->stn.a[s].parent;
	}
	if (pick == TC_NONE) {
		s = stn;
		for (int guard = 0; s < d->stn.n && d->stn.a[s].present && guard < 64; guard++) {
			if (!strcmp(dstr(d, d->stn.a[s].cls), "node")) { pick = s; break; }
			s = d->stn.a[s].parent;
		}
	}
	if (pick == TC_NONE) pick = stn;
	if (pick >= d->stn.n || !d->stn.a[pick].present) return 0;
	if (stn_node[pick] == TC_NONE) stn_node[pick] = tc_def_node(L->t, dstr(d, d->stn.a[pick].name));
	return stn_node[pick];
}

static enum tc_loc_type loc_type(uint8_t otf2_type)
{
	switch (otf2_type) {
	case OTF2_LOCATION_TYPE_CPU_THREAD: return TC_LOC_CPU;
	case OTF2_LOCATION_TYPE_ACCELERATOR_STREAM: return TC_LOC_GPU;
	case OTF2_LOCATION_TYPE_METRIC: return TC_LOC_METRIC;
	default: return TC_LOC_OTHER;
	}
}

/* One warning per kind of definition problem the callbacks counted. */
static void warn_definitions(struct loadctx *L)
{
	const struct defs *d = &L->d;
	if (d->dropped_refs)
		tc_warn(L->t, "%llu definitions with implausible refs (up to %llu, beyond what %s.def can hold) ignored",
			(unsigned long long)d->dropped_refs, (unsigned long long)d->max_dropped_ref, L->archive_dir);
	if (d->dup_locs)
		tc_warn(L->t, "%llu duplicate location definitions (first: location %llu) ignored; the first definition is used",
			(unsigned long long)d->dup_locs, (unsigned long long)d->first_dup_loc);
}

/* The world rank of each location group: through the MPI COMM_LOCATIONS
 * group (members[i] = the location of rank i, its master), else the process
 * groups in definition order (*by_order).  *master: per group, its master
 * location's ref when COMM_LOCATIONS names it, else UINT64_MAX. */
static uint32_t *group_ranks(const struct loadctx *L, uint64_t **master, bool *by_order)
{
	const struct defs *d = &L->d;
	const struct rgroup *cl = NULL;
	for (size_t g = 0; g < d->grp.n; g++) {
		const struct rgroup *G = &d->grp.a[g];
		if (!G->present || G->type != OTF2_GROUP_TYPE_COMM_LOCATIONS) continue;
		if (G->paradigm == OTF2_PARADIGM_MPI) { cl = G; break; }
		if (!cl && G->paradigm == OTF2_PARADIGM_UNKNOWN) cl = G;
	}
	uint32_t *lg_rank = xmalloc((d->lg.n ? d->lg.n : 1) * sizeof *lg_rank);
	*master = xmalloc((d->lg.n ? d->lg.n : 1) * sizeof **master);
	for (size_t g = 0; g < d->lg.n; g++) { lg_rank[g] = TC_NONE; (*master)[g] = UINT64_MAX; }
	*by_order = false;
	if (cl) {
		for (uint32_t i = 0; i < cl->n; i++) {
			uint32_t l = u64map_get(&d->loc_index, cl->members[i]);
			if (l != U64MAP_NONE && d->loc.a[l].group < d->lg.n) {
				lg_rank[d->loc.a[l].group] = i;
				(*master)[d->loc.a[l].group] = d->loc.a[l].ref;
			}
		}
	} else {
		uint32_t r = 0;
		for (size_t g = 0; g < d->lg.n; g++)
			if (d->lg.a[g].present && d->lg.a[g].type == OTF2_LOCATION_GROUP_TYPE_PROCESS) lg_rank[g] = r++;
		*by_order = r > 0;
	}
	return lg_rank;
}

/* The world rank of location d->loc.a[l] (lg_rank from group_ranks), TC_NONE if none. */
static uint32_t loc_rank(const struct defs *d, const uint32_t *lg_rank, size_t l)
{
	uint32_t g = d->loc.a[l].group;
	return g < d->lg.n && d->lg.a[g].present ? lg_rank[g] : TC_NONE;
}

/* Locations, in definition order: type, rank, node, thread (0 = the group's
 * master CPU location, the first one defined unless group_ranks found one). */
static void define_locations(struct loadctx *L, const uint32_t *lg_rank, uint64_t *master)
{
	struct defs *d = &L->d;
	uint32_t *stn_node = xmalloc((d->stn.n ? d->stn.n : 1) * sizeof *stn_node);
	for (size_t s = 0; s < d->stn.n; s++) stn_node[s] = TC_NONE;
	uint32_t *thread_of = xcalloc(d->lg.n ? d->lg.n : 1, sizeof *thread_of);
	L->lc = xcalloc(d->loc.n ? d->loc.n : 1, sizeof *L->lc);
	L->nlc = (uint32_t)d->loc.n;
	for (size_t l = 0; l < d->loc.n; l++) {
		const struct rloc *R = &d->loc.a[l];
		uint32_t g = R->group, rank = loc_rank(d, lg_rank, l), node = 0, thread = 0;
		enum tc_loc_type ty = loc_type(R->type);
		if (g < d->lg.n && d->lg.a[g].present) {
			node = node_of_stn(L, d->lg.a[g].parent, stn_node);
			if (ty == TC_LOC_CPU) {
				if (master[g] == UINT64_MAX) master[g] = R->ref;
				thread = R->ref == master[g] ? 0 : ++thread_of[g];
			}
		}
		struct locctx *C = &L->lc[l];
		C->L = L;
		C->other = L->other && L->other[l];
		C->ref = R->ref;
		C->rank = rank;
		C->nevents = R->nevents;
		C->def_empty = R->def_empty;
		C->loc = tc_def_loc(L->t, R->ref, dstr(d, R->name), ty, rank, thread, node, R->nevents);
		C->evt = L->files[l].evt;
		C->local_def = L->files[l].def;
		L->total += R->nevents;
	}
	free(stn_node);
	free(thread_of);
}

/* Regions, in ref order. */
static void define_regions(struct loadctx *L)
{
	struct defs *d = &L->d;
	L->nregion_map = (uint32_t)d->reg.n;
	L->region_map = xmalloc((d->reg.n ? d->reg.n : 1) * sizeof *L->region_map);
	for (size_t r = 0; r < d->reg.n; r++) {
		const struct rregion *R = &d->reg.a[r];
		L->region_map[r] = R->present ? tc_def_region(L->t, dstr(d, R->name), R->paradigm, R->role,
								  R->paradigm == OTF2_PARADIGM_MPI)
					      : TC_NONE;
	}
}

/* Communicators: COMM_GROUP members are indices into the paradigm's
 * COMM_LOCATIONS group, i.e. world ranks for MPI. */
static void define_comms(struct loadctx *L)
{
	struct defs *d = &L->d;
	struct tc_trace *t = L->t;
	L->ncomm_map = (uint32_t)d->comm.n;
	L->comm_map = xmalloc((d->comm.n ? d->comm.n : 1) * sizeof *L->comm_map);
	for (size_t c = 0; c < d->comm.n; c++) {
		const struct rcomm *C = &d->comm.a[c];
		L->comm_map[c] = TC_NONE;
		if (!C->present) continue;
		const struct rgroup *G = C->group < d->grp.n && d->grp.a[C->group].present ? &d->grp.a[C->group] : NULL;
		bool self = G && G->type == OTF2_GROUP_TYPE_COMM_SELF;
		bool global = G && (G->flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS);
		uint32_t n = G && !self ? G->n : 0;
		uint32_t *m = xmalloc((n ? n : 1) * sizeof *m);
		for (uint32_t i = 0; i < n; i++) m[i] = G->members[i] < UINT32_MAX ? (uint32_t)G->members[i] : TC_NONE;
		if (!G) tc_warn(t, "communicator %zu has no group definition", c);
		L->comm_map[c] = tc_def_comm(t, dstr(d, C->name), n, m, self, global);
		free(m);
	}
}

static void define_model(struct loadctx *L)
{
	warn_definitions(L);
	uint64_t *master;
	bool by_order;
	uint32_t *lg_rank = group_ranks(L, &master, &by_order);
	if (by_order) tc_warn(L->t, "no MPI location group: ranks numbered by process definition order");
	define_locations(L, lg_rank, master);
	define_regions(L);
	define_comms(L);
	define_metrics(L);
	free(lg_rank);
	free(master);
}

/* --- paths ------------------------------------------------------------------------- */
static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

char *tc_find_anchor(const char *path, char **err)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		DIR *dir = opendir(path);
		if (!dir) {
			*err = xasprintf("%s: %s", path, strerror(errno));
			return NULL;
		}
		char *found = NULL, *dirp = xstrdup(path);
		for (size_t k = strlen(dirp); k > 1 && dirp[k - 1] == '/'; k--) dirp[k - 1] = '\0';
		int n = 0;
		struct dirent *e;
		while ((e = readdir(dir))) {
			if (!has_suffix(e->d_name, ".otf2")) continue;
			n++;
			if (!found || !strcmp(e->d_name, "traces.otf2")) {
				free(found);
				found = xasprintf("%s/%s", dirp, e->d_name);
			}
		}
		closedir(dir);
		free(dirp);
		if (!found) {
			*err = xasprintf("%s: no OTF2 anchor file (*.otf2) in this directory", path);
			return NULL;
		}
		if (n > 1 && !has_suffix(found, "/traces.otf2")) {
			*err = xasprintf("%s: %d anchor files (*.otf2) here; name one", path, n);
			free(found);
			return NULL;
		}
		return found;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = xasprintf("%s: not a regular file", path);
		return NULL;
	}
	return xstrdup(path);
}

/* Checks that turn OTF2's generic failures into a line naming the file. */
static char *check_archive(struct loadctx *L)
{
	const char *a = L->anchor;
	struct stat st;
	if (stat(a, &st) != 0) return xasprintf("%s: %s", a, strerror(errno));
	if (st.st_size == 0) return xasprintf("%s: empty file, not an OTF2 anchor", a);
	size_t len = strlen(a);
	char *base = xstrdup(a);
	if (has_suffix(base, ".otf2")) base[len - 5] = '\0';
	char *gdef = xasprintf("%s.def", base);
	L->archive_dir = base;
	struct stat gs;
	bool have_gdef = stat(gdef, &gs) == 0 && S_ISREG(gs.st_mode);
	char *e = tc_otf2_check_anchor(a, L->archive_dir, have_gdef ? (uint64_t)gs.st_size : UINT64_MAX);
	if (!e && !have_gdef) e = xasprintf("%s: missing global definitions file", gdef);
	free(gdef);
	if (e) return e;
	L->d.ref_bound = def_ref_bound((uint64_t)gs.st_size);
	L->def_bytes = (uint64_t)gs.st_size + (uint64_t)st.st_size;
	struct stat ds;
	if (stat(L->archive_dir, &ds) != 0 || !S_ISDIR(ds.st_mode))
		return xasprintf("%s/: missing archive directory with the event files", L->archive_dir);
	return NULL;
}

/* After the global definitions, what each location has on disk (L->files).
 * A location with events needs its .evt, and no more events than the file has
 * bytes (a record takes at least one: a larger count is a lie that would size
 * the model's reservations); a location without events may lack it.  Local
 * .def files are optional; a location missing one while others have theirs is
 * warned about when it is read. */
static char *check_local_files(struct loadctx *L)
{
	uint32_t nonempty = 0;
	L->files = xcalloc(L->d.loc.n ? L->d.loc.n : 1, sizeof *L->files);
	for (size_t l = 0; l < L->d.loc.n; l++) {
		if (L->other && L->other[l]) continue;
		const struct rloc *R = &L->d.loc.a[l];
		struct locfiles *F = &L->files[l];
		char *p = loc_file(L, R->ref, "def");
		F->def = file_exists(p);
		/* an empty local .def (written for every location by libotf2) is not read */
		L->d.loc.a[l].def_empty = F->def && tc_otf2_def_file_empty(p);
		nonempty += F->def && !L->d.loc.a[l].def_empty;
		free(p);
		p = loc_file(L, R->ref, "evt");
		struct stat st;
		F->evt = stat(p, &st) == 0 && S_ISREG(st.st_mode);
		F->evt_bytes = F->evt ? (uint64_t)st.st_size : 0;
		char *e = NULL;
		if (R->nevents && !F->evt)
			e = xasprintf("%s: missing event file (%llu events defined for location %llu)", p,
				      (unsigned long long)R->nevents, (unsigned long long)R->ref);
		else if (R->nevents > F->evt_bytes)
			e = xasprintf("%s: implausible trace: %llu events defined for location %llu in a %llu-byte event file",
				      p, (unsigned long long)R->nevents, (unsigned long long)R->ref,
				      (unsigned long long)F->evt_bytes);
		free(p);
		if (e) return e;
	}
	L->have_local_defs = nonempty > 0;
	return NULL;
}

/* Reader threads when the user named none: min(CPUs, 4); one under an
 * address-space limit (`ulimit -v`, common on login nodes): every thread
 * grows its own message block, and two blocks growing at once reserve more
 * address space than one (docs/model.md, "Memory").  The results do not
 * depend on the thread count. */
static int default_threads(void)
{
	struct rlimit r;
	if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) return 1;
	return TC_MIN(tc_ncpus(), 4);
}

/* --- amplification guard ---------------------------------------------------------
 * A few changed bytes in an anchor can make libotf2 allocate (and touch) tens
 * of GB before it fails.  While libotf2 opens the anchor and reads the global
 * definitions, the address space may grow by at most 1 GiB plus 32 times the
 * size of those files (a temporary, lower RLIMIT_AS soft limit; never above
 * the user's own): a bad file then fails with a message instead of pushing a
 * login node into the OOM killer.  Not under AddressSanitizer, whose shadow
 * mappings an address-space limit breaks (the fuzzer has its malloc limit). */
#if defined(__SANITIZE_ADDRESS__)
#define TC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TC_ASAN 1
#endif
#endif

struct as_guard { struct rlimit saved; bool set; };

#ifndef TC_ASAN
static uint64_t address_space_now(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%llu", &pages) != 1) pages = 0;
		fclose(f);
	}
	return pages * tc_page_size();
}
#endif

static void as_guard_begin(struct as_guard *g, uint64_t input_bytes)
{
	g->set = false;
#ifndef TC_ASAN
	uint64_t now = address_space_now();
	if (!now || getrlimit(RLIMIT_AS, &g->saved) != 0) return;
	uint64_t budget = ((uint64_t)1 << 30) + 32 * TC_MIN(input_bytes, (uint64_t)1 << 35);
	struct rlimit r = g->saved;
	if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur <= now + budget) return;
	r.rlim_cur = now + budget;
	g->set = setrlimit(RLIMIT_AS, &r) == 0;
#else
	(void)input_bytes;
#endif
}

static void as_guard_end(struct as_guard *g)
{
	if (g->set) setrlimit(RLIMIT_AS, &g->saved);
	g->set = false;
}

static void free_load(struct loadctx *L)
{
	free(L->anchor);
	free(L->archive_dir);
	free(L->region_map);
	free(L->comm_map);
	for (uint32_t i = 0; i < L->nmetric_map; i++) free(L->metric_map[i].m);
	free(L->metric_map);
	free(L->lc);
	free(L->files);
	free(L->other);
	u64map_free(&L->d.loc_index);
	free(L->plan.order);
	VEC_FREE(L->d.str); VEC_FREE(L->d.stn); VEC_FREE(L->d.lg); VEC_FREE(L->d.loc);
	VEC_FREE(L->d.reg); VEC_FREE(L->d.grp); VEC_FREE(L->d.comm);
	VEC_FREE(L->d.mmember); VEC_FREE(L->d.metric);
	arena_free(L->d.arena);
	pthread_mutex_destroy(&L->mu);
}

/* Open the archive and read the global definitions, both under the
 * address-space guard; NULL, or the error line. */
static char *open_and_read_global_defs(struct loadctx *L)
{
	struct as_guard guard;
	as_guard_begin(&guard, L->def_bytes);
	char *err = NULL;
	L->rd = OTF2_Reader_Open(L->anchor);
	if (!L->rd)
		err = xasprintf("%s: cannot open OTF2 archive (%s)", L->anchor, otf2_msg[0] ? otf2_msg : "unreadable anchor");
	OTF2_GlobalDefReader *gdr = NULL;
	if (!err) {
		OTF2_Pthread_Reader_SetLockingCallbacks(L->rd, NULL);
		if (L->opts && L->opts->share) L->opts->share->collectives(L->opts->share->ctx, L->rd);
		else OTF2_Reader_SetSerialCollectiveCallbacks(L->rd);
		if (!(gdr = OTF2_Reader_GetGlobalDefReader(L->rd)))
			err = xasprintf("%s.def: cannot read global definitions (%s)", L->archive_dir, otf2_msg);
	}
	if (!err) {
		OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
		OTF2_GlobalDefReaderCallbacks_SetStringCallback(gcb, d_string);
		OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gcb, d_clock);
		OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(gcb, d_stn);
		OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeDomainCallback(gcb, d_stn_domain);
		OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(gcb, d_lgroup);
		OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, d_loc);
		OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gcb, d_region);
		OTF2_GlobalDefReaderCallbacks_SetGroupCallback(gcb, d_group);
		OTF2_GlobalDefReaderCallbacks_SetCommCallback(gcb, d_comm);
		register_metric_defs(gcb);
		OTF2_Reader_RegisterGlobalDefCallbacks(L->rd, gdr, gcb, &L->d);
		OTF2_GlobalDefReaderCallbacks_Delete(gcb);
		uint64_t ndefs = 0;
		OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(L->rd, gdr, &ndefs);
		OTF2_Reader_CloseGlobalDefReader(L->rd, gdr);
		if (rc != OTF2_SUCCESS)
			err = xasprintf("%s.def: corrupt global definitions (%s)", L->archive_dir,
					otf2_msg[0] ? otf2_msg : OTF2_Error_GetDescription(rc));
	}
	as_guard_end(&guard);
	return err;
}

/* An MPI-parallel read: the ranks [lo, hi) of this process's share, balanced
 * by the definitions' event counts (every process computes the same cut);
 * L->other marks the locations of other ranks (those of no rank are
 * process 0's), which this process neither checks nor reads. */
static void share_pick(struct loadctx *L)
{
	const struct tc_dist *dist = L->opts->share->dist;
	const struct defs *d = &L->d;
	uint64_t *master;
	bool by_order;
	uint32_t *lg_rank = group_ranks(L, &master, &by_order), nranks = 0;
	for (size_t l = 0; l < d->loc.n; l++) {
		uint32_t r = loc_rank(d, lg_rank, l);
		if (r != TC_NONE) nranks = TC_MAX(nranks, r + 1);
	}
	uint64_t *ev = xcalloc(nranks + 1, sizeof *ev);
	for (size_t l = 0; l < d->loc.n; l++) {
		uint32_t r = loc_rank(d, lg_rank, l);
		if (r != TC_NONE) ev[r] += d->loc.a[l].nevents;
	}
	tc_share_ranks(ev, nranks, dist->index, dist->count, &L->lo, &L->hi);
	L->other = xcalloc(d->loc.n + 1, sizeof *L->other);
	for (size_t l = 0; l < d->loc.n; l++) {
		uint32_t r = loc_rank(d, lg_rank, l);
		L->other[l] = r == TC_NONE ? dist->index != 0 : r < L->lo || r >= L->hi;
	}
	free(ev);
	free(lg_rank);
	free(master);
}

/* After the global definitions: a clock, locations, their files (in an
 * MPI-parallel read, those of this process's share). */
static char *check_definitions(struct loadctx *L)
{
	if (!L->d.have_clock) return xasprintf("%s.def: no clock properties in the global definitions", L->archive_dir);
	if (!L->d.loc.n) return xasprintf("%s.def: no locations defined", L->archive_dir);
	const struct tc_read_share *sh = L->opts ? L->opts->share : NULL;
	if (!sh) return check_local_files(L);
	share_pick(L);
	char *err = check_local_files(L);
	uint64_t any = L->have_local_defs;   /* libotf2 opens the local definitions on every process or none */
	sh->dist->reduce(sh->dist->ctx, &any, 1, TC_DIST_MAX);
	L->have_local_defs = any != 0;
	return err;
}

/* Whether the load failed (*err); in an MPI-parallel read, whether any
 * process did, every process then holding the first one's message. */
static bool failed(struct loadctx *L, char **err)
{
	const struct tc_read_share *sh = L->opts ? L->opts->share : NULL;
	return sh ? sh->agree(sh->ctx, err) : *err != NULL;
}

struct tc_trace *tc_read_otf2(const char *path, const struct tc_read_opts *opts, char **err)
{
	install_error_callback();
	otf2_msg[0] = '\0';
	struct loadctx L = { .opts = opts };
	pthread_mutex_init(&L.mu, NULL);
	L.d.arena = arena_new(1 << 16);
	u64map_init(&L.d.loc_index);
	*err = NULL;
	L.anchor = tc_find_anchor(path, err);
	if (L.anchor) *err = check_archive(&L);
	/* in an MPI-parallel read, every process agrees that the files look
	 * right before libotf2's collective open: a process that saw a bad
	 * anchor (its own view of the file system) while the others were in
	 * that open left them waiting for it forever */
	if (opts && opts->share && failed(&L, err)) goto fail;
	if (!*err && !(*err = open_and_read_global_defs(&L))) *err = check_definitions(&L);
	if (failed(&L, err)) goto fail;

	L.t = tc_trace_new(L.d.res, L.d.offset, L.d.length);
	free(L.t->anchor);
	L.t->anchor = xstrdup(L.anchor);
	define_model(&L);
	if (L.other) {   /* progress counts this process's events */
		L.total = 0;
		for (uint32_t i = 0; i < L.nlc; i++) L.total += L.lc[i].other ? 0 : L.lc[i].nevents;
	}

	for (uint32_t i = 0; i < L.nlc; i++)
		if (!L.lc[i].other) OTF2_Reader_SelectLocation(L.rd, L.lc[i].ref);
	if (L.have_local_defs && OTF2_Reader_OpenDefFiles(L.rd) != OTF2_SUCCESS) {
		tc_warn(L.t, "%s/: cannot open the local definitions files (%s): events are read without mapping tables", L.archive_dir,
			otf2_msg);
		L.have_local_defs = false;
	}
	if (OTF2_Reader_OpenEvtFiles(L.rd) != OTF2_SUCCESS) /* read nothing, close, fail */
		set_err(&L, xasprintf("%s/: cannot open the event files (%s)", L.archive_dir, otf2_msg));
	double t_read = tc_now();
	int nthreads = opts && opts->threads > 0 ? opts->threads : default_threads();
	if ((uint32_t)nthreads > L.nlc) nthreads = (int)L.nlc;
	if (nthreads < 1) nthreads = 1;
	if (nthreads > TC_MAX_THREADS) nthreads = TC_MAX_THREADS;
	make_plan(&L, nthreads);
	struct worker_arg wa[TC_MAX_THREADS];
	pthread_t th[TC_MAX_THREADS];
	int started = 1;
	for (int i = 0; i < nthreads; i++) wa[i] = (struct worker_arg){ &L, i };
	for (int i = 1; i < nthreads && pthread_create(&th[i], NULL, worker, &wa[i]) == 0; i++) started++;
	worker(&wa[0]); /* the calling thread reads run 0; runs of threads not started are stolen */
	for (int i = 1; i < started; i++) pthread_join(th[i], NULL);
	if (L.have_local_defs) OTF2_Reader_CloseDefFiles(L.rd);
	warn_local_defs(&L);
	OTF2_Reader_CloseEvtFiles(L.rd);
	OTF2_Reader_Close(L.rd);
	L.rd = NULL;
	*err = L.err;
	L.err = NULL;
	if (failed(&L, err)) goto fail;
	double t_finish = tc_now();
	tcb_set_threads(L.t, nthreads);
	if (opts && opts->share) tcb_set_dist(L.t, opts->share->dist, L.lo, L.hi);
	tc_trace_finish(L.t);
	L.t->read_seconds = t_finish - t_read;
	L.t->finish_seconds = tc_now() - t_finish;
	struct tc_trace *t = L.t;
	L.t = NULL;
	free_load(&L);
	return t;
fail:
	if (L.rd) OTF2_Reader_Close(L.rd);
	tc_trace_free(L.t);
	free(L.err);
	free_load(&L);
	return NULL;
}
