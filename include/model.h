/* model.h — the trace in memory (layer 2).
 *
 * A trace is built through the builder functions below (tcb_*), by the OTF2
 * reader and equally by unit tests that want an exact hand-made trace without
 * writing an archive.  After tc_trace_finish() the model is read-only: calls
 * are paired, messages matched, collectives grouped and every MPI call that
 * communicates has a tc_op.
 *
 * Times are raw clock ticks (uint64); tc_sec() converts to seconds from the
 * start of the trace.  Ranks are MPI world ranks; one rank = one MPI process,
 * whose master CPU thread holds the calls analysed. */
#ifndef TC_MODEL_H
#define TC_MODEL_H

#include "util.h"

enum tc_region_kind {
	TC_RK_USER = 0,     /* not MPI (user code, OpenMP, CUDA, ...) */
	TC_RK_MPI_SEND,     /* MPI_Send, Ssend, Bsend, Rsend */
	TC_RK_MPI_ISEND,    /* MPI_Isend, Issend, Ibsend, Irsend */
	TC_RK_MPI_RECV,     /* MPI_Recv */
	TC_RK_MPI_IRECV,    /* MPI_Irecv */
	TC_RK_MPI_SENDRECV, /* MPI_Sendrecv, MPI_Sendrecv_replace */
	TC_RK_MPI_WAIT,     /* MPI_Wait, Waitall, Waitany, Waitsome */
	TC_RK_MPI_TEST,     /* MPI_Test, Testall, Testany, Testsome */
	TC_RK_MPI_COLL,     /* blocking collectives: Barrier, Bcast, Allreduce, ... */
	TC_RK_MPI_ICOLL,    /* non-blocking collectives: Ibarrier, Iallreduce, ... */
	TC_RK_MPI_OTHER,    /* any other MPI_* (Init, Finalize, Comm_rank, ...) */
	TC_RK_COUNT
};
#define TC_RK_IS_MPI(k) ((k) != TC_RK_USER)

/* The name of the one region tc_trace_finish adds for calls whose region is
 * not defined (docs/model.md, "Bounds"): after finish every call's region is
 * < nregions. */
#define TC_UNDEFINED_REGION "<undefined region>"
struct tc_region {
	const char *name;
	uint8_t kind;       /* enum tc_region_kind */
	uint8_t paradigm;   /* OTF2_Paradigm value as read, 0 when unknown */
	uint8_t role;       /* OTF2_RegionRole value as read */
};

/* One Enter/Leave pair.  32 bytes.  Calls of a rank are stored in enter order
 * (pre-order), so a call's children follow it and its subtree is contiguous. */
#define TC_CALL_UNCLOSED 0x1   /* no Leave in the trace: closed at its location's last record */
/* Only in a model that keeps some of a rank's calls (tracecomb-mpi's skeleton,
 * analysis_steps_dist.h): the call before this one in the array was not the
 * one before it in the trace.  The steps coalesce two Isends only when their
 * calls are neighbours in the trace. */
#define TC_CALL_APART 0x2
struct tc_call {
	uint64_t enter, leave;
	uint32_t region;
	uint32_t parent;    /* call index on the same rank, TC_NONE for a root */
	uint32_t op;        /* index into rank->ops when this call communicates, else TC_NONE */
	uint16_t depth;     /* 0 for roots */
	uint16_t flags;
};

/* An MPI call that communicates (Ravel's comm event before coalescing): the
 * messages it initiates, the receives it completes, and/or its part in a
 * collective.  A Waitall may complete k receives; an MPI_Sendrecv has both a
 * send and a receive. */
struct tc_op {
	uint32_t call;       /* index into rank->calls */
	uint32_t first_send; /* into rank->send_msgs[] */
	uint32_t nsend;
	uint32_t first_recv; /* into rank->recv_msgs[] */
	uint32_t nrecv;
	uint32_t coll;       /* index into trace->colls or TC_NONE */
};

#define TC_MSG_NB_SEND   0x1  /* initiated by a non-blocking call (by region, not record) */
#define TC_MSG_NB_RECV   0x2  /* completed by a Wait/Test after an Irecv */
#define TC_MSG_CLOCK_BAD 0x4  /* receive completed before the send started */
struct tc_msg {
	uint64_t send_time;  /* MpiSend / MpiIsend record */
	uint64_t recv_time;  /* MpiRecv / MpiIrecv record: the receive completes */
	uint64_t post_time;  /* receive posted: IrecvRequest record, else enter of the receiving call */
	uint64_t send_done;  /* IsendComplete record, else leave of the send call */
	uint64_t bytes;
	uint32_t src, dst;   /* world ranks */
	uint32_t send_call;  /* call index on src enclosing the send record */
	uint32_t recv_call;  /* call index on dst enclosing the receive-completion record */
	uint32_t post_call;  /* call index on dst of the MPI_Irecv, TC_NONE if unknown */
	uint32_t tag;
	uint32_t comm;       /* index into trace->comms */
	uint32_t flags;
};

/* OTF2 collective operations (values as OTF2_CollectiveOp). */
enum tc_coll_class { TC_CC_BARRIER, TC_CC_ONE2ALL, TC_CC_ALL2ONE, TC_CC_ALL2ALL, TC_CC_SCAN, TC_CC_OTHER };
struct tc_coll {
	uint64_t begin, end; /* min enter, max leave of the member calls */
	uint32_t comm;
	uint32_t root;       /* world rank, TC_NONE when rootless */
	uint32_t first;      /* into trace->coll_members */
	uint32_t n;          /* members that took part (== comm size when complete) */
	uint8_t op;          /* OTF2_CollectiveOp */
};
struct tc_coll_member {
	uint32_t rank, call;
	uint64_t sent, recvd;
};

struct tc_rank {
	uint32_t loc;        /* index into trace->locs of the master thread */
	uint32_t node;       /* index into trace->nodes */
	uint32_t ncalls;
	struct tc_call *calls;
	uint32_t nops;
	struct tc_op *ops;
	uint32_t *send_msgs; /* message indices, grouped by op (see tc_op) */
	uint32_t *recv_msgs;
	uint32_t nsend_msgs, nrecv_msgs;
	uint64_t first_time, last_time;
};

/* Hardware and software counters (OTF2 MetricMember definitions, docs/model.md
 * "Metrics").  A METRIC record on a location gives one sample per member of
 * its metric class; each becomes one tc_sample of that location. */
enum tc_metric_mode { TC_MM_ACCUMULATED = 0, TC_MM_ABSOLUTE, TC_MM_RELATIVE, TC_MM_OTHER };
enum tc_metric_vtype { TC_MV_INT64 = 0, TC_MV_UINT64, TC_MV_DOUBLE };
struct tc_metric_def {
	const char *name;
	const char *unit;
	uint8_t mode;        /* enum tc_metric_mode */
	uint8_t timing;      /* OTF2 timing bits (start, point, last, next) >> 4 */
	uint8_t vtype;       /* enum tc_metric_vtype of the definition */
	uint64_t nsamples;   /* samples of it in the whole trace */
};
union tc_mvalue { int64_t i; uint64_t u; double d; };
struct tc_sample {        /* 24 bytes */
	uint64_t time;
	uint32_t metric : 24; /* index into trace->metrics */
	uint32_t vtype : 8;  /* enum tc_metric_vtype of this value, as recorded */
	uint32_t seq;        /* Enter and Leave records on its location before it: a
	                      * sample with seq k was recorded just before the k-th
	                      * (from 0) Enter/Leave, which is where Score-P writes them */
	union tc_mvalue v;
};
/* A sample's value as a double (counters above 2^53 lose their low bits). */
static inline double tc_sample_value(const struct tc_sample *s)
{
	return s->vtype == TC_MV_DOUBLE ? s->v.d : s->vtype == TC_MV_INT64 ? (double)s->v.i : (double)s->v.u;
}

/* A memory transfer of an accelerator stream (src/model/xfers.c): Score-P writes a
 * CUDA/OpenCL/MIC memcpy as an RMA put or get record on the stream's location,
 * completed by an RMA op-complete record with the same matching id.  Kept in
 * record order; the views draw them, no analysis reads them. */
#define TC_XFER_GET 0x1    /* an RmaGet record (else RmaPut) */
#define TC_XFER_OPEN 0x2   /* no completion record: end = begin */
struct tc_xfer { uint64_t begin, end, bytes; uint32_t flags; };

enum tc_loc_type { TC_LOC_CPU = 0, TC_LOC_GPU, TC_LOC_METRIC, TC_LOC_OTHER };
struct tc_loc {
	uint64_t id;         /* OTF2 location ref */
	const char *name;
	uint32_t rank;       /* world rank of its process, TC_NONE if not an MPI process */
	uint32_t thread;     /* 0 = master thread */
	uint8_t type;        /* enum tc_loc_type */
	uint64_t nevents_def;   /* numberOfEvents from the definitions */
	uint64_t nevents_read;
	uint32_t ncalls;
	struct tc_call *calls;  /* every location's own Enter/Leave pairs, as tc_rank's */
	uint32_t nsamples;
	struct tc_sample *samples; /* its METRIC records' values, in record order */
	uint32_t nxfers;
	struct tc_xfer *xfers;     /* its RMA transfers (memcpy of a stream), in record order */
	uint64_t last_record;   /* timestamp of its last record of any kind (0: none) */
};

struct tc_node { const char *name; };

struct tc_comm {
	const char *name;
	uint32_t size;
	uint32_t *members;   /* members[i] = world rank of comm-local rank i */
	bool self;           /* MPI_COMM_SELF-like: every rank alone */
	bool global;         /* ranks in events are already world ranks */
};

enum tc_ev_kind {
	TC_EV_ENTER, TC_EV_LEAVE, TC_EV_MPI_SEND, TC_EV_MPI_ISEND, TC_EV_MPI_ISEND_COMPLETE,
	TC_EV_MPI_IRECV_REQUEST, TC_EV_MPI_IRECV, TC_EV_MPI_RECV, TC_EV_COLL_BEGIN, TC_EV_COLL_END,
	TC_EV_OTHER, TC_EV_COUNT
};
extern const char *const tc_ev_kind_names[TC_EV_COUNT]; /* "enter", "leave", "mpi_send", ... */

struct tc_trace {
	char *anchor;        /* path of the .otf2 anchor file ("" for built traces) */
	uint64_t res;        /* ticks per second */
	uint64_t t0;         /* global offset: time 0 in ticks */
	uint64_t length;     /* trace length in ticks from the clock properties */
	uint64_t tmin, tmax; /* first and last timestamp seen on analysed ranks */

	uint32_t nranks;
	struct tc_rank *ranks;
	uint32_t nlocs;
	struct tc_loc *locs;
	uint32_t nnodes;
	struct tc_node *nodes;
	uint32_t nregions;
	struct tc_region *regions;
	uint32_t ncomms;
	struct tc_comm *comms;
	uint32_t nmetrics;
	struct tc_metric_def *metrics;
	uint32_t world;      /* comm index of MPI_COMM_WORLD (or the largest comm), TC_NONE if none */

	size_t nmsgs;
	struct tc_msg *msgs;    /* matched messages, in send order (by sender rank, then time) */
	struct tc_pages msgs_map; /* the mapping msgs lives in (msgs == (void *)msgs_map.p) */
	size_t ncolls;
	struct tc_coll *colls;
	struct tc_coll_member *coll_members;

	uint64_t ev_count[TC_EV_COUNT];
	uint64_t ncalls;
	uint64_t unmatched_sends, unmatched_recvs;
	uint64_t clock_violations;
	uint64_t incomplete_colls;
	uint64_t msg_bytes;
	uint32_t nthreads;   /* CPU-thread locations */
	double read_seconds, finish_seconds; /* load phases, wall clock (reader only) */

	VEC(char *) warnings;
	/* Opened from a cache file (src/cache, docs/cache.md): its private
	 * mapping, which holds every array above (the warnings are copies);
	 * tc_trace_free unmaps it instead of freeing them.  Else empty. */
	struct tc_pages mapped;
	struct arena *arena;
	struct tc_build *b;  /* builder state, NULL after finish */
};

/* --- reading the model ------------------------------------------------ */
static inline double tc_sec(const struct tc_trace *t, uint64_t ticks)
{
	return ticks >= t->t0 ? (double)(ticks - t->t0) / (double)t->res
			      : -(double)(t->t0 - ticks) / (double)t->res;
}
static inline double tc_dur(const struct tc_trace *t, uint64_t ticks)
{
	return (double)ticks / (double)t->res;
}
static inline const char *tc_region_name(const struct tc_trace *t, uint32_t region)
{
	return region < t->nregions ? t->regions[region].name : "?";
}
static inline const struct tc_call *tc_call_of(const struct tc_trace *t, uint32_t rank, uint32_t call)
{
	return &t->ranks[rank].calls[call];
}
/* Messages of an op. */
static inline const uint32_t *tc_op_sends(const struct tc_trace *t, uint32_t rank, const struct tc_op *op)
{
	return t->ranks[rank].send_msgs + op->first_send;
}
static inline const uint32_t *tc_op_recvs(const struct tc_trace *t, uint32_t rank, const struct tc_op *op)
{
	return t->ranks[rank].recv_msgs + op->first_recv;
}
/* When message m's send began: the enter of its send call (0 when it has none). */
static inline uint64_t tc_msg_send_enter(const struct tc_trace *t, const struct tc_msg *m)
{
	return m->send_call != TC_NONE ? t->ranks[m->src].calls[m->send_call].enter : 0;
}
/* What passes over a rank's receives read of each message, with the enter
 * time of the call that sent it (0 when the sender or its call is unknown). */
struct tc_recv { uint64_t send_enter, bytes; uint32_t src, tag, send_call, post_call; };
/* The messages R receives, in R's receive order, into out[0..R->nrecv_msgs).
 * They come from other ranks, scattered over the message array, and each
 * needs its sender's call: two tight loops, the messages fetched ahead in the
 * first, their senders' calls (whose addresses the first left in out) in the
 * second, so that the misses of each loop overlap.  Fetched one at a time
 * they were most of a pass over the receives (rootcause.c, waitstate.c), and
 * one loop needing each message before its call could fetch that call only a
 * few receives ahead. */
void tc_rank_receives(const struct tc_trace *t, const struct tc_rank *R, struct tc_recv *out);
bool tc_same_node(const struct tc_trace *t, uint32_t rank_a, uint32_t rank_b);
/* Event records of every kind; matched messages that cross compute nodes. */
uint64_t tc_trace_events(const struct tc_trace *t);

/* The messages summed per (sender, receiver) pair, sender != receiver: the
 * rank graph the analyses build on instead of an array per message.  Linear:
 * each run of messages of one sender (the model keeps them by sender) is
 * summed through a per-rank slot table; one entry per pair when the messages
 * are by sender (always, from the builder), never more than one per message.
 * Returns the number of pairs in *out (caller frees). */
struct tc_pair { uint32_t src, dst; uint64_t msgs, bytes, bytes1; };  /* bytes1: sum of max(bytes, 1) */
size_t tc_msg_pairs(const struct tc_trace *t, struct tc_pair **out);
uint64_t tc_inter_node_msgs(const struct tc_trace *t);
/* The rank × rank communication matrix (docs/tui.md, matrix view; info --json
 * comm_matrix_bytes): bytes[src * nranks + dst] and msgs[...] summed over every
 * matched message, messages to self on the diagonal.  Either array may be NULL;
 * each one the caller's, nranks² long, zeroed here. */
void tc_comm_matrix(const struct tc_trace *t, uint64_t *bytes, uint64_t *msgs);
enum tc_coll_class tc_coll_class(uint8_t op);
const char *tc_coll_op_name(uint8_t op);
/* Classify an MPI function name ("MPI_Isend" → TC_RK_MPI_ISEND); non-MPI → TC_RK_USER. */
enum tc_region_kind tc_classify_region(const char *name, bool mpi_paradigm);
/* Whether call c is an MPI call (a region of the MPI paradigm). */
static inline bool tc_call_is_mpi(const struct tc_trace *t, const struct tc_call *c)
{
	return c->region < t->nregions && TC_RK_IS_MPI(t->regions[c->region].kind);
}
/* Whether call c of R is an MPI call inside another one (a wrapper's inner
 * call, MPI_Init_thread inside MPI_Init): counted once, as the outer call. */
static inline bool tc_call_in_mpi(const struct tc_trace *t, const struct tc_rank *R, const struct tc_call *c)
{
	return c->parent != TC_NONE && tc_call_is_mpi(t, &R->calls[c->parent]);
}
/* An MPI call not inside another one. */
static inline bool tc_call_outermost_mpi(const struct tc_trace *t, const struct tc_rank *R, const struct tc_call *c)
{
	return tc_call_is_mpi(t, c) && !tc_call_in_mpi(t, R, c);
}
/* Index of the innermost call on rank that contains time t, TC_NONE if none. */
uint32_t tc_call_at_hint(const struct tc_rank *R, uint32_t *hint, uint64_t time);
/* The first of R's calls entered after time (R->ncalls: none): a galloping
 * search forward from *hint when the hint's call entered at or before time,
 * else a bisection; *hint becomes the call before it. */
uint32_t tc_call_first_after(const struct tc_rank *R, uint32_t *hint, uint64_t time);
uint32_t tc_call_at(const struct tc_trace *t, uint32_t rank, uint64_t time);
/* The same over a location's own calls (a thread or stream; the master's are its rank's). */
uint32_t tc_loc_call_at(const struct tc_loc *L, uint64_t time);
void tc_warn(struct tc_trace *t, const char *fmt, ...) TC_PRINTF(2, 3);
void tc_trace_free(struct tc_trace *t);
/* Frees the event arrays (every location's calls, samples and transfers,
 * every rank's ops and message ids, the messages) and sets their pointers to
 * NULL; the counts, definitions, collectives and scalars stay.  What is left
 * can be laid out (the cache writer's counts) but not analysed: tracecomb-mpi
 * drops its part once that part's bytes are in the cache file. */
void tc_trace_drop_events(struct tc_trace *t);

/* --- building the model ------------------------------------------------
 * Definitions first, then events per location (locations are independent:
 * tcb_* calls on different locations may run concurrently in threads), then
 * tc_trace_finish().  Peer ranks in events are comm-local, as in OTF2. */
struct tc_trace *tc_trace_new(uint64_t res, uint64_t t0, uint64_t length);
uint32_t tc_def_region(struct tc_trace *t, const char *name, uint8_t paradigm, uint8_t role, bool mpi);
uint32_t tc_def_node(struct tc_trace *t, const char *name);
/* rank = world rank of the process, TC_NONE if not part of MPI; thread 0 = master. */
uint32_t tc_def_loc(struct tc_trace *t, uint64_t id, const char *name, enum tc_loc_type type,
		    uint32_t rank, uint32_t thread, uint32_t node, uint64_t nevents);
/* members = world ranks; n = 0 with self = true for COMM_SELF-like communicators. */
uint32_t tc_def_comm(struct tc_trace *t, const char *name, uint32_t n, const uint32_t *members,
		     bool self, bool global);
/* Convenience for tests: nranks processes with one CPU location each (loc i = rank i),
 * on nodes node_of[i] (NULL: all on node 0), regions not included, and comm 0 = world. */
void tc_def_simple(struct tc_trace *t, uint32_t nranks, const uint32_t *node_of, uint32_t nnodes);

void tcb_enter(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t region);
void tcb_leave(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t region);
void tcb_send(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	      uint32_t tag, uint64_t bytes);
void tcb_isend(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes, uint64_t req);
void tcb_isend_complete(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t req);
void tcb_irecv_request(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t req);
void tcb_irecv(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes, uint64_t req);
void tcb_recv(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t peer, uint32_t comm,
	      uint32_t tag, uint64_t bytes);
void tcb_request_cancelled(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t req);
void tcb_coll_begin(struct tc_trace *t, uint32_t loc, uint64_t time);
void tcb_coll_end(struct tc_trace *t, uint32_t loc, uint64_t time, uint8_t op, uint32_t comm,
		  uint32_t root, uint64_t sent, uint64_t recvd);
void tcb_other(struct tc_trace *t, uint32_t loc, uint64_t time); /* any other record: counted */
/* Metrics (src/model/metrics.c): a counter definition, and one sample of it on
 * loc (counted as an "other" record).  tcb_seen: loc has a record at time
 * that no other tcb_* call gives (thread, RMA, metric...): loc->last_record
 * is the latest record of any kind, where regions still open are closed. */
uint32_t tc_def_metric(struct tc_trace *t, const char *name, const char *unit, enum tc_metric_mode mode,
		       uint8_t timing, enum tc_metric_vtype vtype);
void tcb_metric(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t metric, enum tc_metric_vtype vtype,
		union tc_mvalue v);
void tcb_seen(struct tc_trace *t, uint32_t loc, uint64_t time);
/* An RMA put or get record (a stream's memcpy) and the op-complete record with its
 * matching id (src/model/xfers.c); both also count as tcb_seen. */
void tcb_xfer_begin(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t bytes, uint64_t match, bool get);
void tcb_xfer_end(struct tc_trace *t, uint32_t loc, uint64_t time, uint64_t match);
/* The transfer of loc running at time (the latest begun at or before it), TC_NONE if none. */
uint32_t tc_xfer_at(const struct tc_loc *L, uint64_t time);
/* Whether loc is its rank's master location (its CPU thread with the lowest
 * thread number), the one whose send and receive records are matched; valid
 * once all locations are defined. */
bool tcb_loc_is_master(struct tc_trace *t, uint32_t loc);
/* Optional, before the first record of loc: the caller reads loc's records
 * next, in one thread, and the locations it gives the same slot (0 ..
 * TC_MAX_THREADS-1) one after another, in rank order where it can: their
 * messages are then kept in one array that becomes (part of) the model's
 * without being copied. */
void tcb_loc_begin(struct tc_trace *t, uint32_t loc, int slot);
/* The reader read n records on loc in all: those without a tcb_* call count as "other". */
void tcb_read_total(struct tc_trace *t, uint32_t loc, uint64_t n);
/* All records of loc were given: release reading state, trim arrays to size (optional). */
void tcb_loc_done(struct tc_trace *t, uint32_t loc);
/* Threads tc_trace_finish may use (default 1). */
void tcb_set_threads(struct tc_trace *t, int threads);
/* Pair, match and index everything; warnings go to t->warnings. */
void tc_trace_finish(struct tc_trace *t);

#endif
