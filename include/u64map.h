/* u64map.h — open-addressing hash map uint64 → uint32 (TC_NONE = absent). */
#ifndef TC_U64MAP_H
#define TC_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map_entry { uint64_t key; uint32_t val, gen; };
struct u64map { struct u64map_entry *e; size_t cap, used, live; uint32_t gen; unsigned shift; };  /* used counts tombstones too; shift = 64 - log2(cap) */

void u64map_init(struct u64map *m);
void u64map_free(struct u64map *m);
void u64map_clear(struct u64map *m);            /* O(1) */
void u64map_put(struct u64map *m, uint64_t key, uint32_t val);
uint32_t u64map_get(const struct u64map *m, uint64_t key);
uint32_t u64map_take(struct u64map *m, uint64_t key); /* get and delete */

#endif
