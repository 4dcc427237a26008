/* u64map.c — open-addressing map uint64 → uint32 with deletion, O(1) clear. */
#include <stdlib.h>

#include "util.h"
#include "u64map.h"

#define DELETED UINT32_MAX

/* Fibonacci hashing: the top bits of key × 2^64/φ (request ids are mostly
 * sequential; this spreads them evenly and costs one multiply). */
static size_t slot_of(const struct u64map *m, uint64_t k)
{
	return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> m->shift);
}

static unsigned shift_for(size_t cap)
{
	unsigned s = 64;
	while (cap > 1) { cap >>= 1; s--; }
	return s;
}

void u64map_init(struct u64map *m)
{
	m->cap = 64;
	m->shift = shift_for(m->cap);
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

static void grow(struct u64map *m)
{
	struct u64map_entry *old = m->e;
	size_t oldcap = m->cap;
	uint32_t oldgen = m->gen;
	/* mostly tombstones: rehash at the same size instead of growing */
	if (m->live * 4 > oldcap) m->cap *= 2;
	m->shift = shift_for(m->cap);
	m->e = xcalloc(m->cap, sizeof *m->e);
	m->used = m->live = 0;
	m->gen = 1;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].gen == oldgen && old[i].val != DELETED) u64map_put(m, old[i].key, old[i].val);
	free(old);
}

void u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	if ((m->used + 1) * 2 > m->cap) grow(m);
	size_t mask = m->cap - 1, i = slot_of(m, key), tomb = SIZE_MAX;
	for (;; i = (i + 1) & mask) {
		struct u64map_entry *e = &m->e[i];
		if (e->gen != m->gen) break;
		if (e->val == DELETED) { if (tomb == SIZE_MAX) tomb = i; continue; }
		if (e->key == key) { e->val = val; return; }
	}
	if (tomb != SIZE_MAX) i = tomb;
	else m->used++;
	m->live++;
	m->e[i] = (struct u64map_entry){ key, val, m->gen };
}

uint32_t u64map_get(const struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = slot_of(m, key);
	for (;; i = (i + 1) & mask) {
		const struct u64map_entry *e = &m->e[i];
		if (e->gen != m->gen) return TC_NONE;
		if (e->val != DELETED && e->key == key) return e->val;
	}
}

uint32_t u64map_take(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = slot_of(m, key);
	for (;; i = (i + 1) & mask) {
		struct u64map_entry *e = &m->e[i];
		if (e->gen != m->gen) return TC_NONE;
		if (e->val != DELETED && e->key == key) {
			uint32_t v = e->val;
			e->val = DELETED;
			m->live--;
			return v;
		}
	}
}
