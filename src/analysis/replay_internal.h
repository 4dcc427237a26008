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
/* Records to process 0 (NULL elsewhere). */
void *replay_gather0(const struct tc_dist *d, const void *rec, size_t n, size_t recsize, size_t *nin);
/* v[0..n) of doubles, each given by exactly one process (0 elsewhere): on every process. */
void replay_join(const struct tc_dist *d, double *v, size_t n);

#endif
