/* replay_internal.h — what the replays over parts (profile_dist.c,
 * waitstate_dist.c) share: who owns a rank, and records to their owners. */
#ifndef TC_REPLAY_INTERNAL_H
#define TC_REPLAY_INTERNAL_H

#include "analysis_replay.h"

/* first[q] = the first of a sorted key range each process holds (first[0]
 * = 0), first[P] = the end: from the value v each process gives. */
uint64_t *replay_firsts(const struct tc_dist *d, uint64_t v, uint64_t end);
/* The process holding key k: the last q with first[q] <= k. */
int replay_owner(const uint64_t *first, int P, uint64_t k);

/* Records of recsize bytes, each to process to[i], sent in the order given
 * (a stable grouping by destination): returns those sent here, grouped by
 * source process in order (*n of them; caller frees). */
void *replay_send(const struct tc_dist *d, const void *rec, const int *to, size_t n, size_t recsize, size_t *nin);
/* replay_send, and rcount[q]: how many of those came from process q (P entries). */
void *replay_send_counted(const struct tc_dist *d, const void *rec, const int *to, size_t n, size_t recsize,
			  size_t *nin, uint64_t *rcount);
/* Requests rec[0..n) of recsize bytes, each to process to[i]; every process
 * answers each request it gets with answer(ctx, req, ans) (anssize bytes).
 * Returns the answers in the order of the requests (caller frees); got,
 * ngot: when got is not NULL, the requests this process answered, as
 * replay_send returns them (caller frees). */
void *replay_ask(const struct tc_dist *d, const void *rec, const int *to, size_t n, size_t recsize, size_t anssize,
		 void (*answer)(void *ctx, const void *req, void *ans), void *ctx, void **got, size_t *ngot);

/* A message as its receiver's process sees it. */
struct replay_rmsg {
	uint64_t id, send_enter;
	uint32_t src, send_call, dst, post_call;
};
/* The messages, exchanged once for every replay that reads them: each
 * message the part's ranks send (p->msgs) went to its receiver's process,
 * which answered with the enter of its posting call. */
struct replay_msgx {
	uint64_t *rank_first;     /* replay_firsts of the ranks */
	struct replay_rmsg *in;   /* the messages to this process's ranks, in id order */
	size_t nin;
	uint64_t *post;           /* per message of p->msgs: its posting call's enter (0: none known) */
	/* per receive of the process's ranks (each rank's recv_msgs, ranks in
	 * order; rank r's from rbase[r - lo]): its message's index into in,
	 * TC_NONE when absent (replay_rmsg_at); NULL until replay_msgx_index */
	uint32_t *rpos, *rbase, lo;
};
void replay_msgx_get(const struct tc_part *p, const struct tc_dist *d, struct replay_msgx *m);
/* Each receive's message found once (rpos, rbase): the root causes' replays
 * look them up per receive, the wait states' by id. */
void replay_msgx_index(const struct tc_part *p, struct replay_msgx *m);
void replay_msgx_free(struct replay_msgx *m);
/* Message id among in[0..n) (struct replay_msgx), NULL when absent. */
const struct replay_rmsg *replay_rmsg_find(const struct replay_rmsg *in, size_t n, uint64_t id);
/* The message of rank r's receive k (its recv_msgs[k], r one of the
 * process's ranks): its index into m->in, TC_NONE when absent. */
static inline uint32_t replay_rmsg_at(const struct replay_msgx *m, uint32_t r, uint32_t k)
{
	return m->rpos[m->rbase[r - m->lo] + k];
}

/* The members of the collective instances this process holds (p->colls),
 * each with its call's times, gathered from their ranks' processes: m[k] is
 * coll_members[*start + k] (caller frees). */
struct ws_member;
struct ws_member *replay_members(const struct tc_part *p, const struct tc_dist *d, uint64_t *start);

/* tc_waitstates_compute, reduced on process 0 (NULL elsewhere): every sum and
 * per-rank vector as the serial one; of the waits only the `longest` longest
 * of each part (the report's list: at, n_all in analysis_waitstate.h).
 * mine (not NULL): this process's ranks' waits, in (rank, call) order, kept
 * into *mine, *nmine (caller frees). */
struct tc_waitstates *replay_waitstates(const struct tc_part *p, const struct tc_dist *d, size_t longest,
					const struct replay_msgx *m, struct tc_wait **mine, size_t *nmine);

/* Process 0's records rec[0..n) on every process (*nout of them; caller frees). */
void *replay_bcast0(const struct tc_dist *d, const void *rec, size_t n, size_t recsize, size_t *nout);
/* Records to process 0 (NULL elsewhere). */
void *replay_gather0(const struct tc_dist *d, const void *rec, size_t n, size_t recsize, size_t *nin);
/* v[0..n) of doubles, each given by exactly one process (0 elsewhere): on every process. */
void replay_join(const struct tc_dist *d, double *v, size_t n);

#endif
