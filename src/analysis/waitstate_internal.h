/* waitstate_internal.h — the pieces of the wait-state analysis
 * (waitstate.c) that the serial pass and the replay over parts
 * (waitstate_dist.c) share: the waits of one rank's point-to-point calls and
 * of one collective instance, from the partners' times however they are
 * found, and the sums in the order the serial pass makes them. */
#ifndef TC_WAITSTATE_INTERNAL_H
#define TC_WAITSTATE_INTERNAL_H

#include "analysis_waitstate.h"

/* What a message's waits need of the other side: the send call's enter on
 * the sender (late sender), the posting call's enter on the receiver (late
 * receiver; post_call TC_NONE: unknown). */
struct ws_msg {
	uint64_t send_enter, post_enter;
	uint32_t src, send_call, dst, post_call;
};
typedef void (*ws_msg_fn)(const void *ctx, uint32_t id, struct ws_msg *m);

/* One member of a collective instance: its rank's call and the call's times. */
struct ws_member {
	uint64_t enter, leave;
	uint32_t rank, call;
};

/* Waits in the order found (not yet summed), and the clipped cases; rx and
 * recv: scratch, the rank at hand's receives (ws_p2p_rank; the caller frees
 * them). */
struct ws_acc {
	VEC(struct tc_wait) w;
	uint64_t clamped;
	VEC(struct ws_msg) rx;
	VEC(struct tc_recv) recv;
};

/* The late-sender and late-receiver waits of rank r's calls, in op order. */
void ws_p2p_rank(const struct tc_trace *t, uint32_t r, ws_msg_fn msg, const void *ctx, struct ws_acc *a);
/* The waits of instance co, its members m[0..co->n) in member order;
 * member_of: nranks entries of TC_NONE (scratch, left so). */
void ws_coll(const struct tc_trace *t, const struct tc_coll *co, const struct ws_member *m, uint32_t *member_of,
	     struct ws_acc *a);
/* A result with zeroed per-rank vectors. */
struct tc_waitstates *ws_new(uint32_t nranks);
/* Adds the time of ranks [lo, hi) to *run and their outermost MPI calls' to *mpi, in rank order. */
void ws_times(const struct tc_trace *t, uint32_t lo, uint32_t hi, double *run, double *mpi);
/* The `longest` longest of w[0..n) (0: all; ties: the earlier), their
 * indices in list order in *idx (caller frees).  Returns how many. */
size_t ws_longest(const struct tc_wait *w, size_t n, size_t longest, uint32_t **idx);
/* (rank, call, kind) order of the waits list. */
int ws_wait_cmp(const void *x, const void *y);

#endif
