/* msgq.h — FIFO message queues keyed by (communicator, world sender, world
 * receiver): the table the builder links each send into while reading and
 * the receive pass takes from (model-internal); the tag is checked when a
 * receive takes its message (src/model/finish.c), and a queue whose scans get
 * long is split by tag into a table keyed by (communicator, sender, receiver,
 * tag).  Lookups are inline: they run once per send and once per receive. */
#ifndef TC_MSGQ_H
#define TC_MSGQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* tag is QTAG_ALL in a table of whole (comm, src, dst) queues. */
#define QTAG_ALL 0u
struct qkey { uint32_t comm, src, dst, tag; };
/* A key's queue: ids local to the table's owner; pf is the message the
 * receive pass last asked the memory for, a few ahead of head (a hint);
 * split: its messages were moved to per-tag queues (finish.c). */
struct qent { struct qkey k; uint32_t head, tail, pf; bool used, split; };
struct qtab { struct qent *e; size_t cap, n; unsigned shift; };   /* shift = 64 - log2(cap) */

/* Slot of k: two multiplies, the top bits (keys differ mostly in the low bits
 * of dst, src and tag). */
static inline size_t qtab_slot(const struct qtab *q, const struct qkey *k)
{
	uint64_t h = ((uint64_t)k->comm << 32 | k->tag) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ ((uint64_t)k->src << 32 | k->dst)) * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> q->shift);
}

static inline bool qkey_eq(const struct qkey *a, const struct qkey *b)
{
	return ((a->comm ^ b->comm) | (a->src ^ b->src) | (a->dst ^ b->dst) | (a->tag ^ b->tag)) == 0;
}

/* The entry of key k, NULL when absent. */
static inline struct qent *qtab_get(struct qtab *q, const struct qkey *k)
{
	if (!q->cap) return NULL;
	size_t mask = q->cap - 1;
	for (size_t j = qtab_slot(q, k);; j = (j + 1) & mask) {
		struct qent *e = &q->e[j];
		if (!e->used) return NULL;
		if (qkey_eq(&e->k, k)) return e;
	}
}

/* A new empty queue (head = tail = TC_NONE) for k, which must be absent. */
struct qent *qtab_add(struct qtab *q, const struct qkey *k);

/* The entry of k, created empty when absent. */
static inline struct qent *qtab_find_or_add(struct qtab *q, const struct qkey *k)
{
	struct qent *e = qtab_get(q, k);
	return e ? e : qtab_add(q, k);
}

void qtab_free(struct qtab *q);

#endif
