/* u64map.c — open-addressing map uint64 → uint32: allocation, clear, rehash
 * (the lookups are inline, in u64map.h). */
#include <stdlib.h>

#include "util.h"
#include "u64map.h"

void u64map_init(struct u64map *m)
{
	m->cap = 64;
	m->shift = tc_hash_shift(m->cap);
	m->used = m->live = 0;
	m->gen = 1;
	m->e = xcalloc(m->cap, sizeof *m->e);
}

void u64map_free(struct u64map *m)
{
	free(m->e);
	m->e = NULL;
}

void u64map_clear(struct u64map *m)
{
	m->used = m->live = 0;
	if (++m->gen == 0) { /* wrapped: really clear */
		for (size_t i = 0; i < m->cap; i++) m->e[i].gen = 0;
		m->gen = 1;
	}
}

void u64map_rehash(struct u64map *m)
{
	struct u64map_entry *old = m->e;
	size_t oldcap = m->cap;
	uint32_t oldgen = m->gen;
	/* mostly tombstones: rehash at the same size instead of growing */
	if (m->live * 4 > oldcap) m->cap *= 2;
	m->shift = tc_hash_shift(m->cap);
	m->e = xcalloc(m->cap, sizeof *m->e);
	m->used = m->live = 0;
	m->gen = 1;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].gen == oldgen && old[i].val != U64MAP_DELETED) u64map_put(m, old[i].key, old[i].val);
	free(old);
}
