/* cluster_internal.h — shared by cluster.c and exchange.c: the events of one
 * partition grouped by rank. */
#ifndef TC_CLUSTER_INTERNAL_H
#define TC_CLUSTER_INTERNAL_H

#include "analysis_cluster.h"

struct cl_events {
	uint32_t p;             /* partition */
	const uint32_t *cev;    /* n cev indices of the partition, by rank ascending, time order */
	uint32_t n;
	uint32_t nranks;
	uint32_t *ranks;        /* ascending */
	uint32_t *off;          /* nranks + 1 offsets into cev */
	const uint32_t *part;   /* partition of every cev of the trace, a compact copy of
				 * cevs[].partition for the message ends (NULL: read the cevs) */
};

/* cev must be grouped by rank (ascending) and in time order within a rank. */
void cl_events_init(struct cl_events *pe, uint32_t p, const struct tc_steps *s, const uint32_t *cev, uint32_t n);
/* The partition's events found by one scan over all events (for the public
 * single-partition functions); *owned must be freed by the caller. */
void cl_events_scan(struct cl_events *pe, uint32_t p, const struct tc_steps *s, uint32_t **owned);
void cl_events_free(struct cl_events *pe);
uint32_t cl_rank_index(const struct cl_events *pe, uint32_t rank);

enum tc_exchange cl_exchange(const struct tc_steps *s, const struct cl_events *pe);
uint32_t cl_focus(const struct tc_steps *s, const struct cl_events *pe, uint32_t seed, uint32_t radius,
		  uint32_t max, uint32_t *out);
/* Messages a cev completes (sum of its ops' receives), 0 without a model. */
uint32_t cl_cev_recv_msgs(const struct tc_steps *s, const struct tc_cev *e);
/* The metric of an event read from its fields, as tc_cev_metric defines it. */

#endif
