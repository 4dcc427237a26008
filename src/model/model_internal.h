/* model_internal.h — builder state shared by model.c and finish.c only. */
#ifndef TC_MODEL_INTERNAL_H
#define TC_MODEL_INTERNAL_H

#include "model.h"

#include "u64map.h"

enum raw_kind { RAW_SEND, RAW_ISEND, RAW_IRECV, RAW_RECV };

/* A send or receive-completion record as read, before matching (48 bytes).
 * Requests are paired while reading: IsendComplete sets the Isend's aux_time;
 * an Irecv takes the time and call of its IrecvRequest. */
struct raw_p2p {
	uint64_t time, bytes;
	uint64_t aux_time;    /* send: completion time; receive: posted time */
	uint32_t peer, comm, tag;
	uint32_t call;        /* innermost open call when the record was read, TC_NONE if none */
	union {
		uint32_t aux_call; /* receive, until matched: call of its IrecvRequest */
		uint32_t msg;      /* once matched: message id, TC_NONE if none (both kinds) */
	};
	uint8_t kind;
	bool paired;          /* aux_* are set */
};

struct pending_recv { uint64_t time; uint32_t call; };

/* A collective part as read. */
struct raw_coll {
	uint64_t begin, end, sent, recvd;
	uint32_t call, comm, root;
	uint8_t op;
};

struct locb {
	VEC(struct tc_call) calls;
	VEC(uint32_t) stack;
	VEC(struct raw_p2p) p2p;
	VEC(struct raw_coll) coll;
	uint64_t count[TC_EV_COUNT];
	uint32_t send_slots;
	size_t calls_ready, p2p_ready; /* VEC_PREFAULT marks */   /* send records inside a call: message ids reserved for them */
	uint64_t last_time;
	uint64_t coll_begin;   /* time of a pending CollectiveBegin, 0 if none */
	uint64_t bad_leaves;   /* Leave with no open call */
	uint64_t mismatched_leaves; /* Leave whose region is not the open call's */
	uint64_t time_reversals;
	uint64_t unpaired_completes;
	/* open requests while reading: Isend req → p2p index; IrecvRequest req → pend index */
	struct u64map *isends, *irecvs;
	VEC(struct pending_recv) pend;
};

struct tc_build {
	VEC(struct tc_loc) locs;
	VEC(struct locb) lb;
	VEC(struct tc_region) regions;
	VEC(struct tc_node) nodes;
	VEC(struct tc_comm) comms;
	VEC(uint32_t) loc_node;  /* node of each location's process */
	int threads;             /* for tc_trace_finish (tcb_set_threads) */
};


void tc_locb_free(struct locb *b);

#endif
