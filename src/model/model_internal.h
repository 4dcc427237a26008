/* model_internal.h — builder state shared by model.c and finish.c only. */
#ifndef TC_MODEL_INTERNAL_H
#define TC_MODEL_INTERNAL_H

#include "model.h"

enum raw_kind { RAW_SEND, RAW_ISEND, RAW_ISEND_COMPLETE, RAW_IRECV_REQUEST, RAW_IRECV, RAW_RECV, RAW_CANCEL };

/* A point-to-point record as read, before matching. */
struct raw_p2p {
	uint64_t time, bytes, req;
	uint32_t peer, comm, tag;
	uint32_t call;        /* innermost open call when the record was read, TC_NONE if none */
	uint8_t kind;
	/* filled when requests are paired: send completion / receive post */
	uint64_t aux_time;
	uint32_t aux_call;
	bool paired;
};

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
	uint64_t last_time;
	uint64_t coll_begin;   /* time of a pending CollectiveBegin, 0 if none */
	uint64_t bad_leaves;   /* Leave with no open call */
	uint64_t mismatched_leaves; /* Leave whose region is not the open call's */
	uint64_t time_reversals;
};

struct tc_build {
	VEC(struct tc_loc) locs;
	VEC(struct locb) lb;
	VEC(struct tc_region) regions;
	VEC(struct tc_node) nodes;
	VEC(struct tc_comm) comms;
	VEC(uint32_t) loc_node;  /* node of each location's process */
};


#endif
