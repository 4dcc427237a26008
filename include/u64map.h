/* u64map.h — open-addressing hash map uint64 → uint32 (TC_NONE = absent),
 * with deletion and O(1) clear.  Lookups and updates are inline: the model
 * builder pairs every non-blocking request through one. */
#ifndef TC_U64MAP_H
#define TC_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map_entry { uint64_t key; uint32_t val, gen; };
struct u64map { struct u64map_entry *e; size_t cap, used, live; uint32_t gen; unsigned shift; };  /* used counts tombstones too; shift = 64 - log2(cap) */

#define U64MAP_NONE    UINT32_MAX   /* absent (== TC_NONE) */
#define U64MAP_DELETED UINT32_MAX   /* a tombstone's value: values are never UINT32_MAX */

void u64map_init(struct u64map *m);
void u64map_free(struct u64map *m);
void u64map_clear(struct u64map *m);            /* O(1) */
void u64map_rehash(struct u64map *m);           /* grow, or drop tombstones (put calls it) */

/* Fibonacci hashing: the top bits of key × 2^64/φ (request ids are mostly
 * sequential; this spreads them evenly and costs one multiply). */
static inline size_t u64map_slot(const struct u64map *m, uint64_t k)
{
	return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> m->shift);
}

static inline void u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	if ((m->used + 1) * 2 > m->cap) u64map_rehash(m);
	size_t mask = m->cap - 1, i = u64map_slot(m, key), tomb = SIZE_MAX;
	for (;; i = (i + 1) & mask) {
		struct u64map_entry *e = &m->e[i];
		if (e->gen != m->gen) break;
		if (e->val == U64MAP_DELETED) { if (tomb == SIZE_MAX) tomb = i; continue; }
		if (e->key == key) { e->val = val; return; }
	}
	if (tomb != SIZE_MAX) i = tomb;
	else m->used++;
	m->live++;
	m->e[i] = (struct u64map_entry){ key, val, m->gen };
}

static inline uint32_t u64map_get(const struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = u64map_slot(m, key);
	for (;; i = (i + 1) & mask) {
		const struct u64map_entry *e = &m->e[i];
		if (e->gen != m->gen) return U64MAP_NONE;
		if (e->val != U64MAP_DELETED && e->key == key) return e->val;
	}
}

/* Get and delete. */
static inline uint32_t u64map_take(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = u64map_slot(m, key);
	for (;; i = (i + 1) & mask) {
		struct u64map_entry *e = &m->e[i];
		if (e->gen != m->gen) return U64MAP_NONE;
		if (e->val != U64MAP_DELETED && e->key == key) {
			uint32_t v = e->val;
			e->val = U64MAP_DELETED;
			m->live--;
			return v;
		}
	}
}

#endif
