/* pairs.c — the messages summed per (sender, receiver) pair (model.h). */
#include <stdlib.h>

#include "model.h"
#include "util.h"

size_t tc_msg_pairs(const struct tc_trace *t, struct tc_pair **out)
{
	uint32_t n = t->nranks;
	uint32_t *slot = xmalloc((n ? n : 1) * sizeof *slot);
	for (uint32_t v = 0; v < n; v++) slot[v] = TC_NONE;
	VEC(struct tc_pair) d = { 0 };
	size_t run = 0;   /* first pair of the current sender's run */
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tc_msg *m = &t->msgs[i];
		if (m->src == m->dst || m->src >= n || m->dst >= n) continue;
		if (d.n > run && d.a[run].src != m->src) {   /* a new run: clear the slots */
			for (size_t k = run; k < d.n; k++) slot[d.a[k].dst] = TC_NONE;
			run = d.n;
		}
		if (slot[m->dst] == TC_NONE) {
			slot[m->dst] = (uint32_t)d.n;
			VEC_PUSH(d, ((struct tc_pair){ .src = m->src, .dst = m->dst }));
		}
		struct tc_pair *p = &d.a[slot[m->dst]];
		p->msgs++;
		p->bytes += m->bytes;
		p->bytes1 += m->bytes ? m->bytes : 1;
	}
	free(slot);
	*out = d.a;
	return d.n;
}

void tc_comm_matrix(const struct tc_trace *t, uint64_t *bytes, uint64_t *msgs)
{
	size_t n = t->nranks, cells = n * n;
	for (size_t i = 0; i < cells; i++) {
		if (bytes) bytes[i] = 0;
		if (msgs) msgs[i] = 0;
	}
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tc_msg *m = &t->msgs[i];
		if (m->src >= n || m->dst >= n) continue;
		size_t k = (size_t)m->src * n + m->dst;
		if (bytes) bytes[k] += m->bytes;
		if (msgs) msgs[k]++;
	}
}
