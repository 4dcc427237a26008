/* latency_gen.h — generated traces for the latency and region tests and the
 * regions benchmark: point-to-point messages with exact send times and
 * transfer times, built through the model builder (no OTF2). */
#ifndef TC_LATENCY_GEN_H
#define TC_LATENCY_GEN_H

#include "model.h"

struct gen_msg {
	uint32_t src, dst;
	uint64_t bytes;
	uint64_t send;      /* ticks: when the sender would like to send */
	uint64_t transfer;  /* ticks: completion − max(send, posted) the analysis must find */
};

/* A trace (1 tick = 1 ns) where every message is an MPI_Send on src and an
 * MPI_Recv on dst.  Each rank does its operations in the order of the
 * messages' send times (sends before receives at equal times); a receive is
 * posted at that time or when the rank is free, and completes `transfer`
 * ticks after both the send and the post happened.  node_of may be NULL. */
struct tc_trace *gen_trace(uint32_t nranks, const uint32_t *node_of, uint32_t nnodes, const struct gen_msg *m,
			   size_t nmsgs);

/* G planted groups over n ranks: rank r is in group r % G.  Inside a group
 * (members in rank order, as a ring) each member exchanges `heavy` messages
 * per round with its ring neighbours at distance 1 and 2; across groups each
 * rank sends one message per round to the member with the same index in the
 * next group.  `rounds` rounds; ranks_per_node consecutive ranks share a
 * node.  group_of (n entries, may be NULL) receives the planted group. */
struct tc_trace *gen_groups(uint32_t n, uint32_t G, uint32_t rounds, uint32_t heavy, uint32_t ranks_per_node,
			    uint32_t *group_of);

/* Planted groups with random partners: rank r (group r % G) sends `heavy`
 * messages to each of `deg` members of its group drawn at random, and one
 * message to a random rank of another group; seeded, deterministic. */
struct tc_trace *gen_groups_random(uint32_t n, uint32_t G, uint32_t deg, uint32_t heavy, uint32_t ranks_per_node,
				   uint64_t seed, uint32_t *group_of);

/* The message list gen_groups uses (for callers that change transfer times). */
size_t gen_groups_msgs(uint32_t n, uint32_t G, uint32_t rounds, uint32_t heavy, struct gen_msg **out);

/* Adjusted Rand index of two labelings of n items. */
double gen_ari(const uint32_t *a, const uint32_t *b, uint32_t n);

#endif
