/* model_internal.h — builder state shared by model.c and finish.c only. */
#ifndef TC_MODEL_INTERNAL_H
#define TC_MODEL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "model.h"
#include "msgq.h"
#include "part.h"
#include "u64map.h"

/* A receive-completion record (MpiRecv, MpiIrecv) as read, before matching
 * (40 bytes).  An Irecv takes the time and call of its IrecvRequest while
 * reading.  Only records of a rank's master thread inside a call are kept. */
#define RECV_COMM_NONE 0x7fffffffu
struct raw_recv {
	uint64_t time;
	uint64_t post_time;   /* IrecvRequest time when post_call is set, else the enter of the call */
	uint32_t peer, tag;   /* comm-local sender rank, as read */
	uint32_t call;        /* innermost open call when the record was read */
	union {
		uint32_t post_call; /* until matched: call of its IrecvRequest, TC_NONE if none */
		uint32_t msg;       /* once matched: message id, TC_NONE if none */
	};
	uint32_t comm : 31;   /* model communicator, RECV_COMM_NONE if unknown */
	uint32_t nb : 1;      /* non-blocking: an MpiIrecv, or completed in a Wait/Test call */
	uint32_t bytes;       /* receiver's size, saturated at UINT32_MAX (only compared) */
};

/* Messages as their send records are read: one tc_msg each, the sender's side
 * filled in (send_done = UINT64_MAX until an IsendComplete; otherwise the send
 * call's leave, set when the ops are built), each key's FIFO queue linked.  A
 * block holds the messages of the master locations that append to it, one
 * location after the other: a reader thread's locations (tcb_loc_begin), or a
 * single location. */
struct sendblk {
	struct tc_pages m;      /* its messages (struct tc_msg) in their own mapping, so
	                         * that whole pages can become the model's array */
	size_t nm;              /* messages in it */
	struct qtab q;          /* key → queue head/tail (block-local ids) */
	/* per message (uint32_t): the next one of its key, TC_NONE at the tail;
	 * in a mapping of its own like the messages, grown by mremap: as a
	 * realloc'd array in the heap each doubling copied it into fresh pages */
	struct tc_pages next;
	size_t nnext;           /* links in it */
	size_t m_ready, next_ready; /* tc_pages_room marks */
};
static inline struct tc_msg *blk_msgs(const struct sendblk *k)
{
	return (struct tc_msg *)(void *)k->m.p;
}
static inline uint32_t *blk_next(const struct sendblk *k)
{
	return (uint32_t *)(void *)k->next.p;
}


struct pending_recv { uint64_t time; uint32_t call; };

/* A collective part as read. */
struct raw_coll {
	uint64_t begin, end, sent, recvd;
	uint32_t call, comm, root;
	uint8_t op;
};

struct locb {
	VEC(struct tc_call) calls;
	uint32_t top;          /* innermost open call, TC_NONE if none (open calls chain by parent) */
	VEC(struct raw_recv) recv;
	VEC(struct raw_coll) coll;
	size_t calls_ready, recv_ready; /* VEC_ROOM marks */
	uint64_t count[TC_EV_COUNT];
	uint64_t last_time;
	uint64_t coll_begin;   /* time of a pending CollectiveBegin, 0 if none */
	uint64_t bad_leaves;   /* Leave with no open call */
	uint64_t odd_regions;  /* Enter naming a region not (yet) defined: placeholder_regions looks */
	uint64_t mismatched_leaves; /* Leave whose region is not the open call's */
	uint64_t time_reversals;
	uint64_t unpaired_completes;
	uint64_t outside;      /* send/receive records outside any call */
	uint64_t badrank;      /* sends naming a rank outside their communicator */
	uint64_t other_p2p;    /* send/receive records on a thread that is not its rank's master */
	/* its messages: blk->m.a[blk_first .. blk_first + nsends) */
	struct sendblk *blk;   /* NULL until tcb_loc_begin or its first send */
	struct sendblk *own;   /* the block it allocated for itself, if any */
	uint32_t blk_first, nsends;
	/* ops numbered while reading: a master location's call gets the next op
	 * index at its first kept send, receive or collective record (while it is
	 * in cache).  That is the model's numbering unless a call got its index
	 * after a later call did (nested calls both communicating) or some op ends
	 * up empty (its receives unmatched, its sends never received, its
	 * collective invalid): then the ops pass renumbers. */
	uint32_t nops_read, last_op_call;
	bool ops_unordered;
	/* open requests while reading: Isend req → block-local message id; IrecvRequest req → pend index */
	struct u64map *isends, *irecvs;
	VEC(struct pending_recv) pend;
	/* metrics.c: METRIC samples, and the latest record no other tcb_* call saw */
	VEC(struct tc_sample) samples;
	uint64_t seen_time;
	/* xfers.c: RMA transfers and their matching ids while open */
	VEC(struct tc_xfer) xfers;
	VEC(uint64_t) xmatch;
};

struct tc_build {
	VEC(struct tc_loc) locs;
	VEC(struct locb) lb;
	VEC(struct tc_region) regions;
	VEC(struct tc_metric_def) metrics;  /* metrics.c */
	VEC(struct tc_node) nodes;
	VEC(struct tc_comm) comms;
	VEC(uint32_t) loc_node;  /* node of each location's process */
	int threads;             /* for tc_trace_finish (tcb_set_threads) */
	/* ranks, fixed by the definitions (tcb_ranks, at the first event that needs them) */
	atomic_bool ranks_ready;
	pthread_mutex_t mu;
	uint32_t nranks;
	uint32_t *master;        /* per rank: its master CPU location, TC_NONE if none */
	uint8_t *is_master;      /* per location */
	struct sendblk *slot[TC_MAX_THREADS]; /* blocks of tcb_loc_begin slots */
	/* a distributed finish (tcb_set_dist): this process read ranks [dist_lo, dist_hi) */
	const struct tc_dist *dist;
	uint32_t dist_lo, dist_hi;
};

/* World rank of comm-local rank `local` on communicator comm, TC_NONE if none. */
static inline uint32_t tcb_world_of(const struct tc_comm *comms, uint32_t ncomms, uint32_t nranks, uint32_t comm,
				    uint32_t local, uint32_t self_rank)
{
	if (comm >= ncomms || local == TC_NONE) return TC_NONE;
	const struct tc_comm *c = &comms[comm];
	if (c->self) return local == 0 ? self_rank : TC_NONE;
	if (c->global) return local < nranks ? local : TC_NONE;
	return local < c->size ? c->members[local] : TC_NONE;
}

/* Fix nranks and each rank's master location from the definitions (once). */
void tcb_ranks_init(struct tc_trace *t);
static inline void tcb_ranks(struct tc_trace *t)
{
	if (!atomic_load_explicit(&t->b->ranks_ready, memory_order_acquire)) tcb_ranks_init(t);
}
void tc_locb_free(struct locb *b);
void tc_sendblk_free(struct sendblk *s);
void tc_build_free(struct tc_build *B);
/* metrics.c, from tc_trace_finish once t->locs exist: samples and metrics
 * into the model, each location's last_record. */
void tc_finish_metrics(struct tc_trace *t);
void tc_finish_xfers(struct tc_trace *t);

/* --- the passes of tc_trace_finish (finish.c) that the distributed finish
 * (finish_dist.c) runs on its own ranks ------------------------------------ */
/* v[0..n) summed over the processes of a distributed finish (else kept). */
void tc_finish_sum(struct tc_trace *t, uint64_t *v, size_t n);
/* The distributed finish of messages and collectives (finish_dist.c). */
void tc_finish_dist(struct tc_trace *t);

/* Where each rank's messages are: in t->msgs, [first[r], first[r] + n[r]); the
 * block its sends were written to, and the offset from block-local ids. */
struct msgmap {
	uint32_t *first, *n;
	struct sendblk **blk;
	uint32_t *delta;      /* message id = block-local id + delta[r] (mod 2^32) */
};
/* The kept sends, in rank order, become t->msgs; returns how many. */
size_t fin_layout_messages(struct tc_trace *t, struct msgmap *mm, int threads);
void fin_msgmap_free(struct msgmap *mm);

/* Scratch of one thread: per call of the rank, its sends, receives, collective;
 * the list of the calls that have an op. */
struct ops_scratch { uint32_t *ns, *nr, *co, *oc; };
struct ops_pass {
	struct tc_trace *t;
	const struct msgmap *mm;
	uint32_t **coll_of_rec;
	uint32_t maxcalls;
	struct ops_scratch *sc;   /* per thread, allocated on first use */
};
/* Rank r's ops, from its sends (t->msgs by mm) and its matched receives
 * (raw_recv.msg: message ids); the receive records are spent. */
void fin_ops_rank(void *ctx, uint32_t r, int tid);
int fin_ops_threads(struct ops_pass *op, int threads);
void fin_ops_free(struct ops_pass *op, int threads);
void fin_ops_drop(struct tc_rank *R, const uint32_t *remap, const uint32_t *recv_remap);

/* Per-thread counters of the receive pass (padded apart). */
struct recv_acc { uint64_t unmatched, size_mismatch, matched, clock_bad, bytes; char pad[24]; };
struct recv_pass {
	struct tc_trace *t;
	const struct msgmap *mm;  /* the queues of each sender: mm->blk[src], ids + mm->delta[src] */
	struct tc_msg *msgs;      /* the messages the ids name (t->msgs when serial) */
	struct recv_acc *acc;
	struct qtab *bytag;      /* per thread: the per-tag queues of split queues */
	struct ops_pass *ops;    /* each rank's ops, built while its records are in cache */
};
/* Match rank r's receives (raw_recv.msg = the message id, TC_NONE if none). */
void fin_recv_rank(void *ctx, uint32_t r, int tid);
void fin_recv_acc_add(struct recv_acc *sum, const struct recv_acc *a);
/* Counters and warnings of the messages: nslots kept sends, acc the receive pass. */
void fin_messages_done(struct tc_trace *t, uint64_t nslots, const struct recv_acc *acc);

/* Collective instances as a scan of the ranks in order builds them. */
struct coll_memref { uint32_t inst; struct tc_coll_member m; };
struct coll_scan {
	VEC(uint32_t) *inst;      /* per comm: instance ids by sequence number */
	uint32_t *seq;
	VEC(uint32_t) touched;
	VEC(struct tc_coll) colls;
	VEC(struct coll_memref) mem;
	uint64_t bad, opmismatch;
};
void fin_coll_scan_init(struct tc_trace *t, struct coll_scan *cs);
void fin_coll_scan_rank(struct tc_trace *t, struct coll_scan *cs, uint32_t r, uint32_t **coll_of_rec);
void fin_coll_members(struct tc_trace *t, struct coll_scan *cs);
void fin_coll_scan_free(struct tc_trace *t, struct coll_scan *cs);
uint64_t fin_colls_incomplete(const struct tc_trace *t, const struct tc_coll *colls, size_t n);
void fin_colls_done(struct tc_trace *t, uint64_t v[3]);

/* Link message id of block k into its key's queue (model.c). */
void tc_sendblk_link(struct sendblk *k, uint32_t id, const struct qkey *key);

#endif
