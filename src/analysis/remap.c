/* remap.c — partition the rank communication graph into node-sized parts
 * with METIS and predict inter-node traffic before and after.
 *
 * Graph: one vertex per rank, an undirected edge u–v weighted by the bytes
 * (or messages) exchanged both ways.  METIS k-way with k = number of nodes and
 * a small imbalance tolerance; then a repair pass enforces the node capacity
 * exactly (moves the ranks that lose least from overfull to underfull parts),
 * parts are assigned to the trace's nodes to keep as many ranks in place as
 * possible, and the result is kept only if it lowers the inter-node weight. */
#include <metis.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_remap.h"

/* CSR adjacency with summed weights, both directions, neighbours in ascending
 * order.  Linear, and no array per message: the messages summed per
 * sender-receiver pair (tc_msg_pairs), the pairs' ends bucketed by rank
 * (counting sort), repeats of a neighbour summed through a per-rank slot
 * table, then each rank's few distinct neighbours sorted. */
struct graph { uint32_t n; uint32_t *xadj, *adj; uint64_t *w; };

struct nb { uint32_t v; uint64_t w; };

static int nb_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct nb *)a)->v, y = ((const struct nb *)b)->v;
	return x < y ? -1 : x > y;
}

static void build_graph(const struct tc_trace *t, enum tc_remap_weight wk, struct graph *g)
{
	uint32_t n = t->nranks;
	uint32_t *slot = xmalloc((n ? n : 1) * sizeof *slot);
	for (uint32_t v = 0; v < n; v++) slot[v] = TC_NONE;
	struct tc_pair *de = NULL;
	size_t nde = tc_msg_pairs(t, &de);
	uint32_t *at = xcalloc((size_t)n + 2, sizeof *at);
	for (size_t i = 0; i < nde; i++) {
		at[de[i].src + 2]++;
		at[de[i].dst + 2]++;
	}
	for (uint32_t u = 0; u < n; u++) at[u + 2] += at[u + 1];
	size_t ne = at[n + 1];
	struct nb *e = xmalloc((ne + 1) * sizeof *e);
	for (size_t i = 0; i < nde; i++) {
		uint64_t w = wk == TC_REMAP_BYTES ? de[i].bytes : de[i].msgs;
		e[at[de[i].src + 1]++] = (struct nb){ de[i].dst, w };
		e[at[de[i].dst + 1]++] = (struct nb){ de[i].src, w };
	}
	free(de);
	/* now rank u's ends are e[at[u] .. at[u + 1]): sum repeats in place, sort the distinct */
	g->n = n;
	g->xadj = xcalloc((size_t)n + 1, sizeof *g->xadj);
	size_t k = 0;
	for (uint32_t u = 0; u < n; u++) {
		size_t first = k;
		for (size_t i = at[u]; i < at[u + 1]; i++) {
			uint32_t v = e[i].v;
			if (slot[v] != TC_NONE) { e[slot[v]].w += e[i].w; continue; }
			slot[v] = (uint32_t)k;
			e[k++] = e[i];
		}
		for (size_t i = first; i < k; i++) slot[e[i].v] = TC_NONE;
		qsort(e + first, k - first, sizeof *e, nb_cmp);
		g->xadj[u + 1] = (uint32_t)k;
	}
	g->adj = xmalloc((k + 1) * sizeof *g->adj);
	g->w = xmalloc((k + 1) * sizeof *g->w);
	for (size_t i = 0; i < k; i++) {
		g->adj[i] = e[i].v;
		g->w[i] = e[i].w;
	}
	free(slot);
	free(at);
	free(e);
}

static void free_graph(struct graph *g)
{
	free(g->xadj);
	free(g->adj);
	free(g->w);
}

/* Inter-node weight of a placement (each undirected edge counted once). */
static uint64_t cut(const struct graph *g, const uint32_t *part)
{
	uint64_t c = 0;
	for (uint32_t u = 0; u < g->n; u++)
		for (uint32_t i = g->xadj[u]; i < g->xadj[u + 1]; i++)
			if (g->adj[i] > u && part[u] != part[g->adj[i]]) c += g->w[i];
	return c;
}

/* Ranks by part (ascending within each): part p's are rk[start[p] .. start[p+1]). */
static void ranks_by_part(const uint32_t *part, uint32_t n, uint32_t nparts, uint32_t **start, uint32_t **rk)
{
	uint32_t *st = xcalloc((size_t)nparts + 2, sizeof *st), *r = xmalloc(((size_t)n + 1) * sizeof *r);
	for (uint32_t u = 0; u < n; u++) st[part[u] + 2]++;
	for (uint32_t p = 0; p < nparts; p++) st[p + 2] += st[p + 1];
	for (uint32_t u = 0; u < n; u++) r[st[part[u] + 1]++] = u;
	*start = st;
	*rk = r;
}

/* Rank u's best move: the part with room (room0 the first of them) it is most
 * linked to, the lowest among equals — a part it has no link to counts 0, so
 * room0 stands for all of those.  Its gain (that link minus the link to its
 * own part) into *gain.  lw: per part scratch, zero on entry and on return. */
static uint32_t best_move(const struct graph *g, uint32_t u, const uint32_t *part, const uint32_t *size,
			  uint32_t cap, uint32_t room0, uint64_t *lw, int64_t *gain)
{
	uint32_t e0 = g->xadj[u], e1 = g->xadj[u + 1], bp = room0;
	for (uint32_t i = e0; i < e1; i++) lw[part[g->adj[i]]] += g->w[i];
	for (uint32_t i = e0; i < e1; i++) {
		uint32_t p = part[g->adj[i]];
		if (size[p] < cap && (lw[p] > lw[bp] || (lw[p] == lw[bp] && p < bp))) bp = p;
	}
	*gain = (int64_t)lw[bp] - (int64_t)lw[part[u]];
	for (uint32_t i = e0; i < e1; i++) lw[part[g->adj[i]]] = 0;
	return bp;
}

/* Move ranks out of parts over capacity, each time the rank and target part
 * that lose the least weight (ranks in order, then parts in order, the first
 * among equals).  A part over capacity only loses ranks and one with room
 * only gains them, so the first part over capacity and the first with room
 * only move forward, and the ranks of a part over capacity are among its
 * first ones.  Each move looks at that part's ranks' links once:
 * O(n + moves · capacity · degree) rather than a pass over all ranks and all
 * parts per move. */
static void repair(const struct graph *g, uint32_t *part, uint32_t nparts, uint32_t cap)
{
	uint32_t *size = xcalloc(nparts, sizeof *size), *start, *rk, over = 0, room0 = 0;
	uint64_t *lw = xcalloc(nparts, sizeof *lw);
	for (uint32_t u = 0; u < g->n; u++) size[part[u]]++;
	ranks_by_part(part, g->n, nparts, &start, &rk);
	for (;;) {
		while (over < nparts && size[over] <= cap) over++;
		while (room0 < nparts && size[room0] >= cap) room0++;
		if (over == nparts || room0 == nparts) break;   /* done, or no room anywhere */
		uint32_t best_u = TC_NONE, best_p = TC_NONE;
		int64_t best = INT64_MIN;
		for (uint32_t q = start[over]; q < start[over + 1]; q++) {
			uint32_t u = rk[q];
			if (part[u] != over) continue;   /* moved already */
			int64_t gain;
			uint32_t p = best_move(g, u, part, size, cap, room0, lw, &gain);
			if (gain > best) { best = gain; best_u = u; best_p = p; }
		}
		if (best_u == TC_NONE) break;
		part[best_u] = best_p;
		size[over]--;
		size[best_p]++;
	}
	free(size); free(start); free(rk); free(lw);
}

/* Relabel parts onto nodes so that as many ranks as possible stay where they are:
 * greedy on the overlaps (ranks of part p on node q), the largest first, ties
 * by smaller p then smaller q; parts left without any overlap get the nodes
 * left, in order.  Only the non-zero overlaps (at most n) are listed and
 * sorted: O(n log n), where the overlap matrix would be O(nparts^2) memory and
 * the repeated search for its maximum O(nparts^3). */
struct overlap { uint32_t p, q, v; };

static int cmp_overlap(const void *a, const void *b)
{
	const struct overlap *x = a, *y = b;
	if (x->v != y->v) return x->v > y->v ? -1 : 1;
	if (x->p != y->p) return x->p < y->p ? -1 : 1;
	return x->q < y->q ? -1 : x->q > y->q;
}

static void relabel(uint32_t n, uint32_t *part, const uint32_t *before, uint32_t nparts)
{
	uint64_t *key = xmalloc((n ? n : 1) * sizeof *key);
	for (uint32_t u = 0; u < n; u++) key[u] = (uint64_t)part[u] << 32 | before[u];
	qsort(key, n, sizeof *key, tc_cmp_u64);
	struct overlap *ov = xmalloc((n ? n : 1) * sizeof *ov);
	size_t nov = 0;
	for (uint32_t u = 0; u < n; u++) {
		if (nov && ((uint64_t)ov[nov - 1].p << 32 | ov[nov - 1].q) == key[u]) ov[nov - 1].v++;
		else ov[nov++] = (struct overlap){ (uint32_t)(key[u] >> 32), (uint32_t)key[u], 1 };
	}
	qsort(ov, nov, sizeof *ov, cmp_overlap);
	uint32_t *map = xmalloc((nparts ? nparts : 1) * sizeof *map);
	bool *pused = xcalloc(nparts ? nparts : 1, sizeof *pused), *nused = xcalloc(nparts ? nparts : 1, sizeof *nused);
	for (size_t k = 0; k < nov; k++) {
		if (pused[ov[k].p] || nused[ov[k].q]) continue;
		map[ov[k].p] = ov[k].q;
		pused[ov[k].p] = nused[ov[k].q] = true;
	}
	for (uint32_t p = 0, q = 0; p < nparts; p++) {   /* no overlap left: the free nodes in order */
		if (pused[p]) continue;
		while (nused[q]) q++;
		map[p] = q;
		nused[q] = true;
	}
	for (uint32_t u = 0; u < n; u++) part[u] = map[part[u]];
	free(key);
	free(ov);
	free(map);
	free(pused);
	free(nused);
}

/* The messages and bytes between nodes under a placement; *all_bytes (when
 * not NULL) every message's bytes, summed in the same pass over the messages. */
static void count_inter(const struct tc_trace *t, const uint32_t *node, uint64_t *msgs, uint64_t *bytes,
			uint64_t *all_bytes)
{
	uint64_t all = 0;
	*msgs = *bytes = 0;
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tc_msg *m = &t->msgs[i];
		all += m->bytes;
		if (node[m->src] != node[m->dst]) {
			(*msgs)++;
			*bytes += m->bytes;
		}
	}
	if (all_bytes) *all_bytes = all;
}

struct tc_remap *tc_remap_compute(const struct tc_trace *t, enum tc_remap_weight wk)
{
	struct tc_remap *r = xcalloc(1, sizeof *r);
	r->nranks = t->nranks;
	r->nnodes = t->nnodes;
	r->node_before = xmalloc((t->nranks ? t->nranks : 1) * sizeof(uint32_t));
	r->node_after = xmalloc((t->nranks ? t->nranks : 1) * sizeof(uint32_t));
	uint32_t *per = xcalloc(t->nnodes ? t->nnodes : 1, sizeof *per);
	for (uint32_t u = 0; u < t->nranks; u++) {
		r->node_before[u] = r->node_after[u] = t->ranks[u].node;
		per[t->ranks[u].node]++;
	}
	for (uint32_t p = 0; p < t->nnodes; p++) r->capacity = TC_MAX(r->capacity, per[p]);
	free(per);
	r->msgs = t->nmsgs;
	count_inter(t, r->node_before, &r->inter_msgs_before, &r->inter_bytes_before, &r->bytes);
	r->inter_msgs_after = r->inter_msgs_before;
	r->inter_bytes_after = r->inter_bytes_before;
	if (t->nnodes < 2 || t->nranks < 2 || !t->nmsgs) return r;

	struct graph g;
	build_graph(t, wk, &g);
	/* METIS takes 32-bit weights: scale so the total stays far below 2^31 */
	uint64_t total = 0;
	for (uint32_t i = 0; i < g.xadj[g.n]; i++) total += g.w[i];
	uint64_t scale = total / 500000000u + 1;
	idx_t nv = (idx_t)g.n, ncon = 1, nparts = (idx_t)t->nnodes, objval = 0;
	idx_t *xadj = xmalloc((g.n + 1) * sizeof *xadj), *adj = xmalloc((g.xadj[g.n] + 1) * sizeof *adj);
	idx_t *adjw = xmalloc((g.xadj[g.n] + 1) * sizeof *adjw), *part = xmalloc(g.n * sizeof *part);
	for (uint32_t v = 0; v <= g.n; v++) xadj[v] = (idx_t)g.xadj[v];
	for (uint32_t i = 0; i < g.xadj[g.n]; i++) {
		adj[i] = (idx_t)g.adj[i];
		adjw[i] = (idx_t)(g.w[i] / scale + 1);
	}
	idx_t options[METIS_NOPTIONS];
	METIS_SetDefaultOptions(options);
	options[METIS_OPTION_SEED] = 1;
	options[METIS_OPTION_NUMBERING] = 0;
	real_t ub = 1.03f;
	int rc = METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, adjw, &nparts, NULL, &ub, options,
				     &objval, part);
	uint32_t *cand = xmalloc(g.n * sizeof *cand);
	if (rc == METIS_OK) {
		for (uint32_t v = 0; v < g.n; v++) cand[v] = (uint32_t)part[v];
		repair(&g, cand, t->nnodes, r->capacity);
		relabel(g.n, cand, r->node_before, t->nnodes);
		if (cut(&g, cand) < cut(&g, r->node_before)) {
			memcpy(r->node_after, cand, g.n * sizeof *cand);
			r->improved = true;
		}
	}
	for (uint32_t v = 0; v < g.n; v++) r->moved += r->node_after[v] != r->node_before[v];
	if (r->improved)   /* else the placement is the trace's: the counts before */
		count_inter(t, r->node_after, &r->inter_msgs_after, &r->inter_bytes_after, NULL);
	free(cand);
	free(xadj);
	free(adj);
	free(adjw);
	free(part);
	free_graph(&g);
	return r;
}

void tc_remap_free(struct tc_remap *r)
{
	if (!r) return;
	free(r->node_before);
	free(r->node_after);
	free(r);
}

bool tc_remap_write(const struct tc_trace *t, const struct tc_remap *r, const char *format, FILE *f)
{
	if (!strcmp(format, "openmpi")) {
		uint32_t *slot = xcalloc(r->nnodes ? r->nnodes : 1, sizeof *slot);
		fprintf(f, "# tracecomb remap of %s: inter-node messages %llu -> %llu\n", t->anchor,
			(unsigned long long)r->inter_msgs_before, (unsigned long long)r->inter_msgs_after);
		for (uint32_t u = 0; u < r->nranks; u++)
			fprintf(f, "rank %u=%s slot=%u\n", u, t->nodes[r->node_after[u]].name, slot[r->node_after[u]]++);
		free(slot);
	} else if (!strcmp(format, "mpich")) {
		for (uint32_t u = 0; u < r->nranks; u++) fprintf(f, "%s:1\n", t->nodes[r->node_after[u]].name);
	} else if (!strcmp(format, "plain")) {
		for (uint32_t u = 0; u < r->nranks; u++) fprintf(f, "%u %s\n", u, t->nodes[r->node_after[u]].name);
	} else {
		return false;
	}
	return true;
}
