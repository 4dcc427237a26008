/* u64map.c — open-addressing map uint64 → uint32 with deletion, O(1) clear. */
#include <stdlib.h>

#include "util.h"
#include "u64map.h"

#define DELETED UINT32_MAX

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

void u64map_init(struct u64map *m)
{
	m->cap = 64;
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
	size_t mask = m->cap - 1, i = mix(key) & mask, tomb = SIZE_MAX;
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
	size_t mask = m->cap - 1, i = mix(key) & mask;
	for (;; i = (i + 1) & mask) {
		const struct u64map_entry *e = &m->e[i];
		if (e->gen != m->gen) return TC_NONE;
		if (e->val != DELETED && e->key == key) return e->val;
	}
}

uint32_t u64map_take(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = mix(key) & mask;
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
