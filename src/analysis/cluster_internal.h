/* cluster_internal.h — shared by cluster.c and exchange.c: the events and
 * message ends of every partition, the events of one partition grouped by
 * rank, its message graph. */
#ifndef TC_CLUSTER_INTERNAL_H
#define TC_CLUSTER_INTERNAL_H

#include <stdatomic.h>

#include "analysis_cluster.h"

/* The events and message ends of every partition: per cev its partition and
 * rank (a compact copy: the events themselves are 112 bytes each) and what
 * the messages it completes are; per partition its cevs, and the messages
 * with both ends in it. */
#define CL_RECV 1       /* the cev completes a message */
#define CL_BLOCKING 2   /* ... one of them from a blocking receive (not Irecv + Wait*) */
struct cl_cevinfo {
	uint32_t part, rank;
	atomic_uint flags;        /* set by concurrent passes over the messages */
};
struct cl_index {
	struct cl_cevinfo *info;  /* per cev */
	uint32_t *pcev;           /* cev indices by partition (< npartitions), then rank, then time */
	uint32_t *pfirst;         /* npartitions + 1 offsets into pcev */
	uint32_t npart;           /* partitions the events name */
	uint32_t *eoff;           /* npart + 1 offsets into edge */
	uint32_t (*edge)[2];      /* (sender, receiver) ranks, by partition, in message order */
};
/* Two passes over the events (the cevs by partition: a stable counting
 * sort) and two over the messages (in order, so the large message array
 * streams through the cache rather than being read at random phase by
 * phase), each on up to `threads` threads. */
void cl_index_init(struct cl_index *ix, const struct tc_steps *s, int threads);
void cl_index_free(struct cl_index *ix);

struct cl_events {
	uint32_t p;             /* partition */
	const struct cl_index *ix;
	const uint32_t *cev;    /* n cev indices of the partition, by rank ascending, time order */
	uint32_t n;
	uint32_t nranks;
	uint32_t *ranks;        /* ascending */
	uint32_t *off;          /* nranks + 1 offsets into cev */
};

/* cev must be grouped by rank (ascending) and in time order within a rank. */
void cl_events_init(struct cl_events *pe, uint32_t p, const struct cl_index *ix, const uint32_t *cev, uint32_t n);
/* The partition's events found by one scan over all events (for the public
 * single-partition functions); *owned must be freed by the caller. */
void cl_events_scan(struct cl_events *pe, uint32_t p, const struct tc_steps *s, const struct cl_index *ix,
		    uint32_t **owned);
void cl_events_free(struct cl_events *pe);
uint32_t cl_rank_index(const struct cl_events *pe, uint32_t rank);

/* The message graph of a partition by rank index: the receivers of each
 * rank's messages (out[ooff[r] .. ooff[r+1]]) and the senders of the
 * messages it receives (in), once per message. */
struct cl_peers {
	uint32_t *ooff, *out;
	uint32_t *ioff, *in;
};
void cl_peers_init(struct cl_peers *g, const struct cl_events *pe);
void cl_peers_free(struct cl_peers *g);

enum tc_exchange cl_exchange(const struct tc_steps *s, const struct cl_events *pe, const struct cl_peers *g);
uint32_t cl_focus(const struct cl_events *pe, const struct cl_peers *g, uint32_t seed, uint32_t radius, uint32_t max,
		  uint32_t *out);
/* Messages a cev completes (sum of its ops' receives), 0 without a model. */
uint32_t cl_cev_recv_msgs(const struct tc_steps *s, const struct tc_cev *e);

#endif
