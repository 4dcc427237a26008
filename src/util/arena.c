/* arena.c — bump allocator in large blocks, freed all at once. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct arena_block *head;
	size_t block, total;
};

struct arena *arena_new(size_t block)
{
	struct arena *a = xcalloc(1, sizeof *a);
	a->block = block ? block : 1 << 20;
	return a;
}

void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > a->block ? n : a->block;
		b = xmalloc(sizeof *b + size);
		b->size = size;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(arena_alloc(a, n), s, n);
}

size_t arena_used(const struct arena *a)
{
	return a->total;
}

void arena_free(struct arena *a)
{
	if (!a) return;
	for (struct arena_block *b = a->head, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	free(a);
}
