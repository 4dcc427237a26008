/* part.h — one process's part of the model, built by processes together
 * (tracecomb-mpi prep, docs/scale.md), and the canonical dump that compares a
 * part with the same ranks of the serial model.
 *
 * Process p of P reads the ranks [lo, hi) (whole ranks: every location of
 * them; locations of no rank go to process 0).  After the distributed finish
 * its struct tc_trace holds every definition (regions, locations, comms,
 * metrics) and the global counters and warnings, exactly as the serial
 * model, but calls, ops and messages only for its ranks and locations; the
 * global arrays (msgs, colls, coll_members) only in slices, each with its
 * place in the serial array, so that a writer can put every slice where the
 * serial model has it (pwrite at an offset) without any process holding all
 * of it (tc_cache_write_part does: docs/scale.md).  Not a model the
 * analyses can read: t->nmsgs and t->ncolls count the slices. */
#ifndef TC_PART_H
#define TC_PART_H

#include <stdio.h>

#include "model.h"

struct tc_part {
	struct tc_trace *t;
	int index, count;          /* this process, processes */
	uint32_t lo, hi;           /* its ranks */
	/* messages its ranks send (the serial msgs from msg_first on) */
	const struct tc_msg *msgs;
	size_t nmsgs;
	uint64_t msg_first, msgs_total;
	/* collective instances its ranks open (whose lowest member rank is one of
	 * its ranks): serial colls from coll_first on, coll->first global */
	const struct tc_coll *colls;
	size_t ncolls;
	uint64_t coll_first, colls_total;
	/* members of its ranks: members[i] is coll_members[member_at[i]] (increasing) */
	const struct tc_coll_member *members;
	const uint64_t *member_at;
	size_t nmembers;
	uint64_t members_total;
	uint64_t *own_at;          /* member_at, allocated for the part */
	struct tc_coll_member *own_members; /* members, when allocated for the part (tc_part_of_serial) */
};

/* The part of a serial (finished) model for ranks [lo, hi), as a process
 * of a distributed finish would hold it (locations of no rank with lo == 0). */
void tc_part_of_serial(struct tc_trace *t, uint32_t lo, uint32_t hi, int index, struct tc_part *p);
void tc_part_release(struct tc_part *p);
/* The part's event arrays freed (tc_trace_drop_events on its trace, its
 * message slice with them); its counts, definitions, collectives and
 * members stay: enough for the cache writer's second half, not for an
 * analysis. */
void tc_part_drop_events(struct tc_part *p);
/* Whether location l belongs to part `index`, of ranks [lo, hi): a location of
 * a rank goes with its rank, one of no rank to part 0. */
bool tc_part_has_loc(const struct tc_trace *t, uint32_t l, uint32_t lo, uint32_t hi, int index);
/* Canonical text of a part: a "global" block (definitions, counters,
 * warnings) equal on every part, then every rank, location, message,
 * instance and member of the part with its global index.  Deterministic:
 * the same for a serial model's part and a distributed one when they are
 * equal.  Returns false on a write error. */
bool tc_part_dump(FILE *f, const struct tc_part *p);
/* DIR/part-<index>.txt, where the dumps of parts go (caller frees). */
char *tc_part_dump_path(const char *dir, int index);

/* Shares: process `index` of `count` reads ranks [*lo, *hi), contiguous and
 * balanced by the definitions' event counts of each rank (events[r]). */
void tc_share_ranks(const uint64_t *events, uint32_t nranks, int index, int count, uint32_t *lo, uint32_t *hi);

/* --- the operations the distributed finish needs ---------------------------
 * Implemented over MPI by src/mpi/comm.c (the model knows no MPI); every
 * process calls them in the same order. */
enum tc_dist_op { TC_DIST_SUM, TC_DIST_MIN, TC_DIST_MAX };
struct tc_dist {
	void *ctx;
	int index, count;
	/* v[0..n) combined by op over every process, on every process */
	void (*reduce)(void *ctx, uint64_t *v, size_t n, enum tc_dist_op op);
	/* v[0..n) combined by op (SUM or MAX) over the processes before this one; 0 on the first */
	void (*exscan)(void *ctx, uint64_t *v, size_t n, enum tc_dist_op op);
	/* out[p] = v of process p */
	void (*allgather)(void *ctx, uint64_t v, uint64_t *out);
	/* Records of recsize bytes, grouped by destination process (scount[p]
	 * to p): returns those sent here grouped by source process in order,
	 * rcount[p] from p (caller frees; in bounded rounds). */
	void *(*exchange)(void *ctx, const void *send, const uint64_t *scount, size_t recsize, uint64_t *rcount);
	/* A left fold in process order: process p gets state[0..bytes) from
	 * p − 1 (process 0 starts from its own), calls step(arg, state) and hands
	 * it on; then every process holds the last one's.  Floating-point sums
	 * that must be made in the serial order go through it (the replay). */
	void (*chain)(void *ctx, void *state, size_t bytes, void (*step)(void *arg, void *state), void *arg);
	/* Point to point, for a token that one process at a time holds (the
	 * critical path's walk): send1 gives rec[0..bytes) to process `to`
	 * (another one); recv1 waits for the next such record from any process.
	 * Records from one sender arrive in the order sent. */
	void (*send1)(void *ctx, int to, const void *rec, size_t bytes);
	void (*recv1)(void *ctx, void *rec, size_t bytes);
	/* filled by the finish */
	struct tc_part *out;
};

/* Make tc_trace_finish distributed: this process read the ranks [lo, hi). */
void tcb_set_dist(struct tc_trace *t, const struct tc_dist *d, uint32_t lo, uint32_t hi);

#endif
