/* analysis_steps_dist.h — the logical steps of a distributed model (part.h,
 * docs/scale.md "The logical steps in the cache", "The steps over parts").
 * By default the processes compute them together (steps_parts.c): the
 * partitions over parts, each stepped by an owner, the metrics at the
 * owners, the results kept in slices, equal to the serial steps bit for
 * bit.  With the leap merge (its rounds read the whole partition graph)
 * the communication skeleton (what tc_steps_compute reads: every rank's
 * MPI calls that communicate and their ops, the message ids of the ops,
 * three fields of each message, the collective instances and members) is
 * gathered to process 0 when it fits in a stated bound, rebuilt there as a
 * model the serial code reads, and the serial tc_steps_compute runs on it.
 * Over the bound nothing is gathered or routed.  No MPI here. */
#ifndef TC_ANALYSIS_STEPS_DIST_H
#define TC_ANALYSIS_STEPS_DIST_H

#include "analysis_steps.h"
#include "part.h"

/* What process 0 may need, at most, per item of the whole trace to gather
 * the skeleton and compute the steps on it (the receive buffers, the
 * skeleton model, the steps and their working arrays; measured on
 * halo-256-unique, docs/scale.md). */
#define TC_SKEL_OP_BYTES     256u   /* per op: one MPI call that communicates */
#define TC_SKEL_MSG_BYTES    128u   /* per message */
#define TC_SKEL_MEMBER_BYTES  48u   /* per collective member (and instance) */

/* The same for the steps over parts (steps_parts.c), where no process
 * holds the steps of the whole trace: an owner holds its partitions' records
 * as routed to it and rebuilt as a skeleton, per op and per message end
 * (a send or a receive) among them (measured on halo-256-unique at P = 1
 * and 2, docs/scale.md), and process 0 each partition's records (its
 * place, graph edges and figures).  The need is known once the partitions
 * and their owners are: the largest of the owners' and process 0's. */
#define TC_PARTS_OP_BYTES     96u
#define TC_PARTS_END_BYTES    48u
#define TC_PARTS_PART_BYTES  160u

/* The default bound on that memory (tracecomb-mpi --steps-bound). */
#define TC_SKEL_BOUND_DEFAULT ((uint64_t)4 << 30)

struct tc_steps_dist {
	uint64_t ops, msgs, colls, members;  /* of the whole trace */
	uint64_t need, bound;                /* bytes process 0 would need; the bound */
	bool skeleton;                       /* the whole skeleton to process 0 (the leap merge), not the steps over parts */
	bool calls_needed;                   /* the options read every call (caller_merge): not gathered */
	bool stored;                         /* gathered and computed: need <= bound, calls not needed */
	bool parts_failed;                   /* the steps over parts failed (never): not stored */
	struct tc_trace *skel;               /* process 0: the skeleton the steps point at */
	struct tc_step_msg *skel_msgs;       /* process 0: its messages' fields (it has no msgs) */
};

/* Collective.  Every process gets *g (the same on all); process 0 returns
 * the logical steps of the whole trace with options o (NULL: the defaults)
 * when they fit the bound, NULL elsewhere, over the bound, and with the
 * caller merge (it reads every call's parent and region: 12 bytes per call,
 * not gathered).  Free with tc_steps_dist_free. */
struct tc_steps *tc_steps_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
			       uint64_t bound, struct tc_steps_dist *g);

/* tc_steps_dist in two halves, so that a process may drop its part's event
 * arrays between them (tc_trace_drop_events; tracecomb-mpi does, once its
 * bytes of the cache file are written, docs/scale.md "Process 0's memory").
 * The pack (collective) sets *g on every process and copies this process's
 * skeleton records out of the part when they are to be gathered; the
 * gather (collective, takes in) brings them to process 0, which builds the
 * skeleton and computes the steps: of the part it reads only the
 * definitions, scalars and per-rank counts.  The steps over parts need no
 * skeleton: the pack runs their first half, the gather their second.  The
 * gather leaves the steps in slices (*sl, struct tc_steps_slice below: over
 * parts each process holds its own; from the skeleton process 0's is the
 * whole); all empty when they are not stored. */
struct tc_skel;
struct tc_steps_slice;
struct tc_skel *tc_steps_dist_pack(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
				   uint64_t bound, struct tc_steps_dist *g);
void tc_steps_dist_gather(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
			  struct tc_skel *in, struct tc_steps_dist *g, struct tc_steps_slice *sl);
/* A process's communication events (cevs): its ranks', in order, made as
 * the serial steps make them, with their times (enter, leave, the
 * aggregate block's start) and their place in the whole trace.  Made once
 * for the partitions and the steps over parts (collective: base). */
struct tc_pcevs {
	struct tc_cev *cev;
	uint32_t n;
	uint32_t nmine, *rfirst;      /* per rank of the part (nmine + 1): its first cev */
	uint32_t *opbase, *op2cev;    /* op k of rank lo + j is cev op2cev[opbase[j] + k] */
	struct tc_cev_times *tm;
	uint64_t base;                /* the index of cev 0 in the whole trace */
};
void tc_pcevs_make(const struct tc_part *p, const struct tc_dist *d, bool coalesce, struct tc_pcevs *c);
void tc_pcevs_free(struct tc_pcevs *c);
/* The steps' fields of a message the part's ranks send (zeros for another). */
struct tc_step_msg tc_part_step_msg(const struct tc_part *p, uint32_t id);

/* Ravel's partitions over parts (collective; not with the leap merge, whose
 * rounds read the whole partition graph, nor the caller merge): each of
 * this process's cevs c (tc_pcevs_make) with its
 * partition, numbered as steps_partition numbers them (the order of each
 * partition's first cev in the whole trace); *np, their number, on every
 * process.  docs/scale.md "The partitions over parts". */
struct tc_pdag {
	uint64_t *first;     /* per partition: its first cev's index in the whole trace */
	uint32_t *edge;      /* nedge pairs: an edge partition → partition of the partition graph, each once */
	size_t nedge;
};
/* dag (not NULL): process 0 keeps the partition graph there (tc_pdag_free).
 * cut (not NULL, P + 1 entries): on every process, the partitions' owners,
 * process q taking partitions cut[q] .. cut[q + 1] − 1: contiguous ranges
 * of about a P-th of the cevs each. */
uint32_t *tc_partition_dist(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
			    const struct tc_pcevs *c, uint32_t *np, struct tc_pdag *dag, uint64_t *cut);
void tc_pdag_free(struct tc_pdag *dag);

/* The logical steps as the processes hold them after the steps over parts
 * (docs/scale.md "The steps in slices"): no process has the cevs of the
 * whole trace.  Each has its ranks' cevs, finished as the serial ones,
 * with their times and lateness, its share of the wide differential
 * lateness values, and each of its part's messages' two ends (p->msgs:
 * the messages its ranks send).  Process 0 has, in s0, the steps of the
 * whole trace but for those arrays (cevs, times, wide, msg_send_cev,
 * msg_recv_cev NULL; ncevs and nwide the whole trace's): the partitions,
 * the per-step sums, the slots and every rank's first cev.  The cache
 * writer puts each process's arrays at their places (tc_cache_piece).
 * From the skeleton gathered (the leap merge) or a serial run, process 0's
 * slice is the whole (whole: s0 has every array, the slices' are s0's). */
struct tc_steps_slice {
	struct tc_steps *s0;          /* process 0 (NULL elsewhere) */
	bool whole;                   /* s0 holds every array; the others' slices are empty */
	uint32_t lo, hi;              /* this process's ranks */
	uint32_t *rfirst;             /* hi - lo + 1: each of them's first cev, from 0 */
	struct tc_cev *cevs;          /* ncevs: cevs first .. first + ncevs - 1 of the whole trace */
	uint32_t ncevs;
	uint64_t first;
	struct tc_cev_times *times;   /* per cev */
	double *late;                 /* per cev: the lateness of its event, then of its aggregate block */
	double *wide;                 /* nwide: values wide_first .. of tc_steps.wide */
	size_t nwide;
	uint64_t wide_first;
	uint32_t *send, *recv;        /* nmsgs: messages msg_first .. (p->msgs): the cev of the send, of the receive */
	size_t nmsgs;
	uint64_t msg_first;
};
void tc_steps_slice_free(struct tc_steps_slice *sl);
/* Collective: process 0's steps of the whole trace, assembled from the
 * slices (the tests compare them with the serial ones; NULL elsewhere).
 * The slices are taken. */
struct tc_steps *tc_steps_slice_whole(struct tc_steps_slice *sl, const struct tc_dist *d);

/* The logical steps computed by the processes together (collective;
 * steps_parts.c, docs/scale.md "The steps over parts"): the partitions
 * (tc_partition_dist), each partition stepped by an owner, their order at
 * process 0, the metrics at the owners, the per-step sums in rank order;
 * process 0 returns the steps of the whole trace (tc_steps_slice_whole:
 * every cev's times travel with it), equal to the serial ones; NULL
 * elsewhere.  Not with the leap merge nor the caller merge.  The part's
 * events must be there. */
struct tc_steps *tc_steps_parts(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o);
/* tc_steps_parts in two halves (collective both): the first reads the
 * part's events (the cevs, partitions, each partition's skeleton to its
 * owner, each message's receive end to its sender's process), the second
 * only what the first kept, so that the part's events may be dropped
 * between them; the second leaves the steps in slices (*sl).  false (on
 * every process): an owner's skeleton did not give the cevs it was sent
 * (never; then no steps, *sl empty). */
struct tc_sparts;
/* *need (on every process): the bytes the process that holds most would
 * hold (TC_PARTS_*); over bound nothing is routed and NULL is returned (on
 * every process). */
struct tc_sparts *tc_steps_parts_pack(const struct tc_part *p, const struct tc_dist *d, const struct tc_steps_opts *o,
				      uint64_t bound, uint64_t *need);
bool tc_steps_parts_finish(struct tc_sparts *x, const struct tc_dist *d, const struct tc_steps_opts *o,
			   struct tc_steps_slice *sl);
void tc_sparts_free(struct tc_sparts *x);
/* What a process sends to the partitions' owners in one round, at most
 * (32 MiB; the tests make it small to take many rounds). */
extern size_t tc_steps_route_bytes;

/* A pack not gathered (an error between the halves). */
void tc_skel_free(struct tc_skel *k);
void tc_steps_dist_free(struct tc_steps *s, struct tc_steps_dist *g);

#endif
