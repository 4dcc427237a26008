/* replay.c — the replay's helpers (replay_internal.h) and tc_replay_run:
 * the analyses of `report`'s profile and wait-state sections over parts. */
#include <stdlib.h>
#include <string.h>

#include "replay_internal.h"

uint64_t *replay_firsts(const struct tc_dist *d, uint64_t v, uint64_t end)
{
	uint64_t *first = xcalloc((size_t)d->count + 1, sizeof *first);
	d->allgather(d->ctx, v, first);
	first[d->count] = end;
	return first;
}

int replay_owner(const uint64_t *first, int P, uint64_t k)
{
	int a = 0, b = P;   /* the last q with first[q] <= k: first[a] <= k < first[b] */
	while (b - a > 1) {
		int m = a + (b - a) / 2;
		if (first[m] <= k) a = m;
		else b = m;
	}
	return a;
}

void *replay_send(const struct tc_dist *d, const void *rec, const int *to, size_t n, size_t rs, size_t *nin)
{
	int P = d->count;
	uint64_t *cnt = xcalloc((size_t)P * 2 + 1, sizeof *cnt), *rcount = cnt + P, *at = xcalloc((size_t)P, sizeof *at);
	for (size_t i = 0; i < n; i++) cnt[to[i]]++;
	for (int q = 1; q < P; q++) at[q] = at[q - 1] + cnt[q - 1];
	char *sb = xmalloc(n * rs + 1);
	for (size_t i = 0; i < n; i++) memcpy(sb + at[to[i]]++ * rs, (const char *)rec + i * rs, rs);
	char *in = d->exchange(d->ctx, sb, cnt, rs, rcount);
	*nin = 0;
	for (int q = 0; q < P; q++) *nin += rcount[q];
	free(sb);
	free(at);
	free(cnt);
	return in;
}

void *replay_gather0(const struct tc_dist *d, const void *rec, size_t n, size_t rs, size_t *nin)
{
	int *to = xcalloc(n ? n : 1, sizeof *to);
	void *in = replay_send(d, rec, to, n, rs, nin);
	free(to);
	if (d->index == 0) return in;
	free(in);
	return NULL;
}

void replay_join(const struct tc_dist *d, double *v, size_t n)
{
	_Static_assert(sizeof(double) == sizeof(uint64_t), "a double is a word");
	d->reduce(d->ctx, (uint64_t *)(void *)v, n, TC_DIST_SUM);   /* x + 0 of the bits is x */
}

void tc_replay_run(const struct tc_part *p, const struct tc_dist *d, size_t longest, struct tc_replay *out)
{
	*out = (struct tc_replay){ 0 };
	out->profile = tc_profile_dist(p, d);
	tc_profile_tables_dist(p, d, &out->per_loc, &out->per_rank);
	out->waitstates = tc_waitstates_dist(p, d, longest);
}
