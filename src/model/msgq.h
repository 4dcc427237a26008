/* msgq.h — FIFO message queues keyed by (communicator, world sender, world
 * receiver, tag): the table the builder links each send into while reading and
 * the receive pass pops from (model-internal). */
#ifndef TC_MSGQ_H
#define TC_MSGQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct qkey { uint32_t comm, src, dst, tag; };
struct qent { struct qkey k; uint32_t head, tail; bool used; };  /* ids local to the table's owner */
struct qtab { struct qent *e; size_t cap, n; };

/* The entry of key k; with create, a new empty queue (head = tail = TC_NONE)
 * when absent, else NULL.  Lookups without create never change the table. */
struct qent *qtab_find(struct qtab *q, const struct qkey *k, bool create);
void qtab_free(struct qtab *q);

#endif
