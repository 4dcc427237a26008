/* msgq.c — open-addressing table of message queues (see msgq.h). */
#include <stdlib.h>

#include "util.h"
#include "msgq.h"

static struct qent *slot_for_new(struct qtab *q, const struct qkey *k)
{
	size_t mask = q->cap - 1, j = qtab_slot(q, k);
	while (q->e[j].used) j = (j + 1) & mask;
	return &q->e[j];
}

struct qent *qtab_add(struct qtab *q, const struct qkey *k)
{
	if ((q->n + 1) * 2 > q->cap) {
		struct qent *old = q->e;
		size_t oc = q->cap;
		q->cap = oc ? oc * 2 : 256;
		q->shift = tc_hash_shift(q->cap);
		q->e = xcalloc(q->cap, sizeof *q->e);
		for (size_t i = 0; i < oc; i++)
			if (old[i].used) *slot_for_new(q, &old[i].k) = old[i];
		free(old);
	}
	struct qent *e = slot_for_new(q, k);
	*e = (struct qent){ .k = *k, .head = TC_NONE, .tail = TC_NONE, .pf = TC_NONE, .used = true };
	q->n++;
	return e;
}

void qtab_free(struct qtab *q)
{
	free(q->e);
	q->e = NULL;
	q->cap = q->n = 0;
}
