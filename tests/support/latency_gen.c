/* latency_gen.c — generated message traces for the latency/region tests. */
#include <stdlib.h>
#include <string.h>

#include "latency_gen.h"

struct item { uint64_t key; uint32_t msg; uint8_t recv; };

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	if (x->recv != y->recv) return x->recv < y->recv ? -1 : 1;
	return x->msg < y->msg ? -1 : x->msg > y->msg;
}

struct tc_trace *gen_trace(uint32_t nranks, const uint32_t *node_of, uint32_t nnodes, const struct gen_msg *m,
			   size_t nmsgs)
{
	struct tc_trace *t = tc_trace_new(1000000000ULL, 0, 0);
	tc_def_simple(t, nranks, node_of, nnodes);
	uint32_t rsend = tc_def_region(t, "MPI_Send", 5, 0, true);
	uint32_t rrecv = tc_def_region(t, "MPI_Recv", 5, 0, true);
	struct item *it = xmalloc((2 * nmsgs + 1) * sizeof *it);
	for (size_t i = 0; i < nmsgs; i++) {
		it[2 * i] = (struct item){ m[i].send, (uint32_t)i, 0 };
		it[2 * i + 1] = (struct item){ m[i].send, (uint32_t)i, 1 };
	}
	qsort(it, 2 * nmsgs, sizeof *it, cmp_item);
	uint64_t *now = xcalloc(nranks ? nranks : 1, sizeof *now);
	uint64_t *sent = xmalloc((nmsgs ? nmsgs : 1) * sizeof *sent);
	for (size_t i = 0; i < 2 * nmsgs; i++) {
		const struct gen_msg *g = &m[it[i].msg];
		if (!it[i].recv) {
			uint64_t s = TC_MAX(now[g->src], g->send);
			tcb_enter(t, g->src, s, rsend);
			tcb_send(t, g->src, s, g->dst, 0, 0, g->bytes);
			tcb_leave(t, g->src, s + 1, rsend);
			now[g->src] = s + 2;
			sent[it[i].msg] = s;
		} else {
			uint64_t e = TC_MAX(now[g->dst], g->send);
			uint64_t c = TC_MAX(e, sent[it[i].msg]) + g->transfer;
			tcb_enter(t, g->dst, e, rrecv);
			tcb_recv(t, g->dst, c, g->src, 0, 0, g->bytes);
			tcb_leave(t, g->dst, c + 1, rrecv);
			now[g->dst] = c + 2;
		}
	}
	free(it);
	free(now);
	free(sent);
	tc_trace_finish(t);
	return t;
}

size_t gen_groups_msgs(uint32_t n, uint32_t G, uint32_t rounds, uint32_t heavy, struct gen_msg **out)
{
	uint32_t m = n / G;   /* members per group (n a multiple of G) */
	VEC(struct gen_msg) v = { 0 };
	for (uint32_t r = 0; r < rounds; r++) {
		uint64_t base = (uint64_t)r * 10000000ULL + 1000;
		for (uint32_t src = 0; src < n; src++) {
			uint32_t g = src % G, k = src / G;
			static const int d[4] = { -2, -1, 1, 2 };
			uint32_t part[4];
			int np = 0;
			for (int j = 0; j < 4 && m > 1; j++) {
				uint32_t k2 = (uint32_t)(((int64_t)k + d[j] + 2 * (int64_t)m) % (int64_t)m);
				bool dup = k2 == k;
				for (int i = 0; i < np; i++) dup |= part[i] == k2;
				if (!dup) part[np++] = k2;
			}
			for (int j = 0; j < np; j++) {
				uint32_t dst = part[j] * G + g;
				for (uint32_t h = 0; h < heavy; h++) {
					struct gen_msg x = { src, dst, 1024, base + (uint64_t)(j * heavy + h) * 100, 0 };
					VEC_PUSH(v, x);
				}
			}
			if (G > 1) {
				uint32_t dst = k * G + (g + 1) % G;
				struct gen_msg x = { src, dst, 64, base + 5000, 0 };
				VEC_PUSH(v, x);
			}
		}
	}
	*out = v.a;
	return v.n;
}

struct tc_trace *gen_groups(uint32_t n, uint32_t G, uint32_t rounds, uint32_t heavy, uint32_t ranks_per_node,
			    uint32_t *group_of)
{
	struct gen_msg *m;
	size_t nm = gen_groups_msgs(n, G, rounds, heavy, &m);
	if (!ranks_per_node) ranks_per_node = 1;
	uint32_t *node = xmalloc(n * sizeof *node);
	for (uint32_t r = 0; r < n; r++) {
		node[r] = r / ranks_per_node;
		if (group_of) group_of[r] = r % G;
	}
	for (size_t i = 0; i < nm; i++) {
		bool same = node[m[i].src] == node[m[i].dst];
		m[i].transfer = (same ? 1000 : 4000) + m[i].bytes / (same ? 8 : 2) + (i * 7919) % 97;
	}
	struct tc_trace *t = gen_trace(n, node, (n + ranks_per_node - 1) / ranks_per_node, m, nm);
	free(node);
	free(m);
	return t;
}

static uint64_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

struct tc_trace *gen_groups_random(uint32_t n, uint32_t G, uint32_t deg, uint32_t heavy, uint32_t ranks_per_node,
				   uint64_t seed, uint32_t *group_of)
{
	uint32_t m = n / G;
	VEC(struct gen_msg) v = { 0 };
	uint64_t st = seed * 2 + 1;
	for (uint32_t src = 0; src < n; src++) {
		uint32_t g = src % G;
		for (uint32_t j = 0; j < deg; j++) {
			uint32_t dst = (uint32_t)(next_rand(&st) % m) * G + g;
			if (dst == src) continue;
			for (uint32_t h = 0; h < heavy; h++) {
				struct gen_msg x = { src, dst, 1024, 1000 + (uint64_t)(j * heavy + h) * 100, 0 };
				VEC_PUSH(v, x);
			}
		}
		if (G > 1) {
			uint32_t g2 = (g + 1 + (uint32_t)(next_rand(&st) % (G - 1))) % G;
			uint32_t dst = (uint32_t)(next_rand(&st) % m) * G + g2;
			struct gen_msg x = { src, dst, 64, 1000 + (uint64_t)deg * heavy * 100 + 50, 0 };
			VEC_PUSH(v, x);
		}
	}
	if (!ranks_per_node) ranks_per_node = 1;
	uint32_t *node = xmalloc(n * sizeof *node);
	for (uint32_t r = 0; r < n; r++) {
		node[r] = r / ranks_per_node;
		if (group_of) group_of[r] = r % G;
	}
	for (size_t i = 0; i < v.n; i++) {
		bool same = node[v.a[i].src] == node[v.a[i].dst];
		v.a[i].transfer = (same ? 1000 : 4000) + v.a[i].bytes / (same ? 8 : 2) + (i * 7919) % 97;
	}
	struct tc_trace *t = gen_trace(n, node, (n + ranks_per_node - 1) / ranks_per_node, v.a, v.n);
	free(node);
	VEC_FREE(v);
	return t;
}

struct pr { uint32_t a, b; };

static int cmp_pr(const void *x, const void *y)
{
	const struct pr *p = x, *q = y;
	if (p->a != q->a) return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

static double c2(double x) { return x * (x - 1) / 2; }

double gen_ari(const uint32_t *a, const uint32_t *b, uint32_t n)
{
	struct pr *p = xmalloc((n ? n : 1) * sizeof *p);
	uint32_t maxa = 0, maxb = 0;
	for (uint32_t i = 0; i < n; i++) {
		p[i] = (struct pr){ a[i], b[i] };
		maxa = TC_MAX(maxa, a[i]);
		maxb = TC_MAX(maxb, b[i]);
	}
	qsort(p, n, sizeof *p, cmp_pr);
	double sij = 0;
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i;
		while (j < n && p[j].a == p[i].a && p[j].b == p[i].b) j++;
		sij += c2(j - i);
		i = j;
	}
	double *ca = xcalloc((size_t)maxa + 1, sizeof *ca), *cb = xcalloc((size_t)maxb + 1, sizeof *cb);
	for (uint32_t i = 0; i < n; i++) { ca[a[i]]++; cb[b[i]]++; }
	double sa = 0, sb = 0;
	for (uint32_t i = 0; i <= maxa; i++) sa += c2(ca[i]);
	for (uint32_t i = 0; i <= maxb; i++) sb += c2(cb[i]);
	free(ca);
	free(cb);
	free(p);
	double expected = sa * sb / c2(n);
	double maxi = (sa + sb) / 2;
	if (maxi == expected) return 1.0;
	return (sij - expected) / (maxi - expected);
}
