/* msgq.c — open-addressing table of message queues (see msgq.h). */
#include <stdlib.h>

#include "util.h"
#include "msgq.h"

static uint64_t qhash(const struct qkey *k)
{
	uint64_t h = ((uint64_t)k->comm << 32 | k->tag) * 0x9e3779b97f4a7c15ULL;
	h ^= ((uint64_t)k->src << 32 | k->dst) + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

static bool qeq(const struct qkey *a, const struct qkey *b)
{
	return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

struct qent *qtab_find(struct qtab *q, const struct qkey *k, bool create)
{
	if (create && (q->n + 1) * 2 > q->cap) {
		struct qent *old = q->e;
		size_t oc = q->cap;
		q->cap = oc ? oc * 2 : 256;
		q->e = xcalloc(q->cap, sizeof *q->e);
		for (size_t i = 0; i < oc; i++) {
			if (!old[i].used) continue;
			size_t j = qhash(&old[i].k) & (q->cap - 1);
			while (q->e[j].used) j = (j + 1) & (q->cap - 1);
			q->e[j] = old[i];
		}
		free(old);
	}
	if (!q->cap) return NULL;
	size_t j = qhash(k) & (q->cap - 1);
	for (; q->e[j].used; j = (j + 1) & (q->cap - 1))
		if (qeq(&q->e[j].k, k)) return &q->e[j];
	if (!create) return NULL;
	q->e[j] = (struct qent){ .k = *k, .head = TC_NONE, .tail = TC_NONE, .used = true };
	q->n++;
	return &q->e[j];
}

void qtab_free(struct qtab *q)
{
	free(q->e);
	q->e = NULL;
	q->cap = q->n = 0;
}
