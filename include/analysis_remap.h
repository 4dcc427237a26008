/* analysis_remap.h — a better rank → node placement (PCLVis advice O1): the
 * rank communication graph partitioned into node-sized parts with METIS, and
 * the inter-node traffic predicted before and after. */
#ifndef TC_ANALYSIS_REMAP_H
#define TC_ANALYSIS_REMAP_H

#include "model.h"

enum tc_remap_weight { TC_REMAP_BYTES, TC_REMAP_MESSAGES };

struct tc_remap {
	uint32_t nranks, nnodes;
	uint32_t capacity;          /* ranks per node allowed (the largest node of the run) */
	uint32_t *node_before;      /* nranks: node of each rank in the trace */
	uint32_t *node_after;       /* nranks: proposed node */
	uint64_t inter_msgs_before, inter_msgs_after;
	uint64_t inter_bytes_before, inter_bytes_after;
	uint64_t msgs, bytes;       /* all messages (point-to-point) */
	uint32_t moved;             /* ranks whose node changes */
	bool improved;              /* false: the trace's placement is kept (already as good) */
};

/* Partition the communication graph; never returns NULL. */
struct tc_remap *tc_remap_compute(const struct tc_trace *t, enum tc_remap_weight w);
void tc_remap_free(struct tc_remap *r);
/* Placement file: "openmpi" (rankfile), "mpich" (machinefile, one host:1 line
 * per rank in rank order) or "plain" ("rank node" lines).  False on an unknown
 * format. */
bool tc_remap_write(const struct tc_trace *t, const struct tc_remap *r, const char *format, FILE *f);

#endif
