/* exchange.c — the events and message ends of every partition (passes over
 * the trace's events and messages in order, on the clustering threads), the
 * events of one partition by rank, its message graph, exchange ("gnome")
 * detection with its three flavours, and focus ranks (breadth-first over the
 * message graph). */
#include <stdlib.h>
#include <string.h>

#include "cluster_internal.h"

const char *const tc_exchange_names[TC_EX_COUNT] = {
	"none", "exchange", "exchange_alternating", "exchange_sends_receives", "exchange_waitall",
};

/* cl_index_init's work in chunks of events and of messages, one chunk per
 * tc_parallel_for index: chunks of messages are contiguous ranges, so the
 * edges of a partition stay in message order. */
enum { IX_CHUNKS = 16 };
struct ixbuild {
	const struct tc_steps *s;
	struct cl_index *ix;
	uint32_t np;
	uint32_t maxp[IX_CHUNKS];   /* largest partition named in an event chunk */
	uint32_t *ecnt;             /* [chunk][partition < npartitions]: events counted, then the fill cursor */
	uint32_t *cnt;              /* [chunk][partition]: edges counted, then the fill cursor */
};

static void chunk_range(size_t n, uint32_t c, size_t *lo, size_t *hi)
{
	*lo = n * c / IX_CHUNKS;
	*hi = n * (c + 1) / IX_CHUNKS;
}

/* Per cev its partition and rank; the cevs of each partition counted. */
static void ix_events(void *ctx, uint32_t c, int tid)
{
	(void)tid;
	struct ixbuild *b = ctx;
	size_t lo, hi;
	chunk_range(b->s->ncevs, c, &lo, &hi);
	uint32_t mp = 0, np = b->s->npartitions, *cnt = b->ecnt + (size_t)c * np;
	for (size_t i = lo; i < hi; i++) {
		const struct tc_cev *e = &b->s->cevs[i];
		b->ix->info[i].part = e->partition;
		b->ix->info[i].rank = e->rank;
		atomic_init(&b->ix->info[i].flags, 0);
		if (e->partition != TC_NONE) mp = TC_MAX(mp, e->partition + 1);
		if (e->partition < np) cnt[e->partition]++;
	}
	b->maxp[c] = mp;
}

/* The cevs by partition, in cev order within a partition. */
static void ix_events_fill(void *ctx, uint32_t c, int tid)
{
	(void)tid;
	struct ixbuild *b = ctx;
	uint32_t np = b->s->npartitions, *cur = b->ecnt + (size_t)c * np;
	size_t lo, hi;
	chunk_range(b->s->ncevs, c, &lo, &hi);
	for (size_t i = lo; i < hi; i++)
		if (b->ix->info[i].part < np) b->ix->pcev[cur[b->ix->info[i].part]++] = (uint32_t)i;
}

/* Counts per chunk and group → the start of each chunk's part of each group
 * (groups in order, chunks in order within a group) in cnt, group starts in
 * first (ng + 1); returns the total. */
static uint32_t chunk_offsets(uint32_t *cnt, uint32_t ng, uint32_t *first)
{
	uint32_t n = 0;
	for (uint32_t g = 0; g < ng; g++) {
		first[g] = n;
		for (uint32_t c = 0; c < IX_CHUNKS; c++) {
			uint32_t k = cnt[(size_t)c * ng + g];
			cnt[(size_t)c * ng + g] = n;
			n += k;
		}
	}
	first[ng] = n;
	return n;
}

/* The partition holding both ends of message m, TC_NONE if none. */
static uint32_t msg_part(const struct tc_steps *s, const struct cl_cevinfo *info, uint32_t np, size_t m)
{
	uint32_t es = s->msg_send_cev[m], er = s->msg_recv_cev[m];
	if (es >= s->ncevs || er >= s->ncevs || info[es].part != info[er].part || info[er].part >= np) return TC_NONE;
	return info[er].part;
}

/* What the messages of a cev are, and the edges of a message chunk counted.
 * Messages of one receiving cev fall in different chunks: its flags are set
 * atomically (once per cev and bit, after a plain look). */
static void ix_count(void *ctx, uint32_t c, int tid)
{
	(void)tid;
	struct ixbuild *b = ctx;
	const struct tc_steps *s = b->s;
	struct cl_cevinfo *info = b->ix->info;
	uint32_t *cnt = b->cnt + (size_t)c * b->np;
	size_t lo, hi;
	chunk_range(s->t->nmsgs, c, &lo, &hi);
	for (size_t m = lo; m < hi; m++) {
		uint32_t er = s->msg_recv_cev[m];
		if (er >= s->ncevs) continue;
		uint32_t bits = CL_RECV | (s->t->msgs[m].flags & TC_MSG_NB_RECV ? 0 : CL_BLOCKING);
		if ((atomic_load_explicit(&info[er].flags, memory_order_relaxed) & bits) != bits)
			atomic_fetch_or_explicit(&info[er].flags, bits, memory_order_relaxed);
		uint32_t p = msg_part(s, info, b->np, m);
		if (p != TC_NONE) cnt[p]++;
	}
}

/* The edges by partition, in message order within a partition. */
static void ix_fill(void *ctx, uint32_t c, int tid)
{
	(void)tid;
	struct ixbuild *b = ctx;
	const struct tc_steps *s = b->s;
	const struct cl_cevinfo *info = b->ix->info;
	uint32_t *cur = b->cnt + (size_t)c * b->np;
	size_t lo, hi;
	chunk_range(s->t->nmsgs, c, &lo, &hi);
	for (size_t m = lo; m < hi; m++) {
		uint32_t p = msg_part(s, info, b->np, m);
		if (p == TC_NONE) continue;
		uint32_t *E = b->ix->edge[cur[p]++];
		E[0] = info[s->msg_send_cev[m]].rank;
		E[1] = info[s->msg_recv_cev[m]].rank;
	}
}

void cl_index_init(struct cl_index *ix, const struct tc_steps *s, int threads)
{
	struct ixbuild b = { .s = s, .ix = ix };
	ix->info = xmalloc((s->ncevs + 1) * sizeof *ix->info);
	b.ecnt = xcalloc((size_t)IX_CHUNKS * s->npartitions + 1, sizeof *b.ecnt);
	tc_parallel_for(IX_CHUNKS, threads, ix_events, &b);
	ix->pfirst = xmalloc(((size_t)s->npartitions + 1) * sizeof *ix->pfirst);
	ix->pcev = xmalloc(((size_t)chunk_offsets(b.ecnt, s->npartitions, ix->pfirst) + 1) * sizeof *ix->pcev);
	tc_parallel_for(IX_CHUNKS, threads, ix_events_fill, &b);
	free(b.ecnt);
	uint32_t np = s->npartitions;   /* or more: any partition an event names */
	for (uint32_t c = 0; c < IX_CHUNKS; c++) np = TC_MAX(np, b.maxp[c]);
	ix->npart = b.np = np;
	ix->eoff = xcalloc((size_t)np + 1, sizeof *ix->eoff);
	ix->edge = xmalloc(sizeof *ix->edge);
	const struct tc_trace *t = s->t;
	if (!t || !s->msg_send_cev || !s->msg_recv_cev) return;
	b.cnt = xcalloc((size_t)IX_CHUNKS * np + 1, sizeof *b.cnt);
	tc_parallel_for(IX_CHUNKS, threads, ix_count, &b);
	ix->edge = xreallocarray(ix->edge, (size_t)chunk_offsets(b.cnt, np, ix->eoff) + 1, sizeof *ix->edge);
	tc_parallel_for(IX_CHUNKS, threads, ix_fill, &b);
	free(b.cnt);
}

void cl_index_free(struct cl_index *ix)
{
	free(ix->info);
	free(ix->pcev);
	free(ix->pfirst);
	free(ix->eoff);
	free(ix->edge);
}

void cl_events_init(struct cl_events *pe, uint32_t p, const struct cl_index *ix, const uint32_t *cev, uint32_t n)
{
	memset(pe, 0, sizeof *pe);
	pe->p = p;
	pe->ix = ix;
	pe->cev = cev;
	pe->n = n;
	uint32_t nr = 0;
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || ix->info[cev[i]].rank != ix->info[cev[i - 1]].rank) nr++;
	pe->nranks = nr;
	pe->ranks = xmalloc(((size_t)nr + 1) * sizeof *pe->ranks);
	pe->off = xmalloc(((size_t)nr + 1) * sizeof *pe->off);
	nr = 0;
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || ix->info[cev[i]].rank != ix->info[cev[i - 1]].rank) {
			pe->ranks[nr] = ix->info[cev[i]].rank;
			pe->off[nr++] = i;
		}
	pe->off[nr] = n;
}

void cl_events_scan(struct cl_events *pe, uint32_t p, const struct tc_steps *s, const struct cl_index *ix,
		    uint32_t **owned)
{
	VEC(uint32_t) v = { 0 };
	for (size_t i = 0; i < s->ncevs; i++)
		if (ix->info[i].part == p) VEC_PUSH(v, (uint32_t)i);
	*owned = v.a;
	cl_events_init(pe, p, ix, v.a, (uint32_t)v.n);
}

void cl_events_free(struct cl_events *pe)
{
	free(pe->ranks);
	free(pe->off);
	pe->ranks = pe->off = NULL;
}

uint32_t cl_rank_index(const struct cl_events *pe, uint32_t rank)
{
	uint32_t lo = (uint32_t)tc_lower_bound_u32(pe->ranks, pe->nranks, rank);
	return lo < pe->nranks && pe->ranks[lo] == rank ? lo : TC_NONE;
}

/* The ops of a cev, when the model has them. */
static const struct tc_op *cev_ops(const struct tc_steps *s, const struct tc_cev *e, uint32_t *nops)
{
	*nops = 0;
	if (!s->t || e->rank >= s->t->nranks) return NULL;
	const struct tc_rank *R = &s->t->ranks[e->rank];
	if (e->op >= R->nops) return NULL;
	*nops = TC_MIN(e->nops ? e->nops : 1, R->nops - e->op);
	return &R->ops[e->op];
}

uint32_t cl_cev_recv_msgs(const struct tc_steps *s, const struct tc_cev *e)
{
	uint32_t nops, n = 0;
	const struct tc_op *op = cev_ops(s, e, &nops);
	for (uint32_t i = 0; i < nops; i++) n += op[i].nrecv;
	return n;
}

static size_t sort_unique(uint32_t *a, size_t n)
{
	if (n < 2) return n;
	if (n <= 16) {   /* a rank's peers: a handful, insertion sort beats qsort's call overhead */
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
				uint32_t x = a[j];
				a[j] = a[j - 1];
				a[j - 1] = x;
			}
	} else {
		qsort(a, n, sizeof *a, tc_cmp_u32);
	}
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (a[i] != a[k - 1]) a[k++] = a[i];
	return k;
}

/* Stable counting sort of the pairs (k[i], v[i]) by k (< nr), keeping the
 * values: vo holds group k at off[k] .. off[k + 1] (off: nr + 2, zeroed). */
static void group_by(const uint32_t *k, const uint32_t *v, uint32_t n, uint32_t nr, uint32_t *off, uint32_t *vo)
{
	for (uint32_t i = 0; i < n; i++) off[k[i] + 2]++;
	for (uint32_t r = 0; r < nr; r++) off[r + 2] += off[r + 1];
	for (uint32_t i = 0; i < n; i++) vo[off[k[i] + 1]++] = v[i];
}

void cl_peers_init(struct cl_peers *g, const struct cl_events *pe)
{
	const struct cl_index *ix = pe->ix;
	uint32_t e0 = pe->p < ix->npart ? ix->eoff[pe->p] : 0, ne = pe->p < ix->npart ? ix->eoff[pe->p + 1] - e0 : 0;
	const uint32_t (*E)[2] = (const uint32_t (*)[2])ix->edge + e0;
	/* world rank → rank index: both ends of an edge are ranks of the partition */
	uint32_t nw = pe->nranks ? pe->ranks[pe->nranks - 1] + 1 : 0, nr = pe->nranks;
	uint32_t *idx = xmalloc(((size_t)nw + 1) * sizeof *idx);
	for (uint32_t r = 0; r < nr; r++) idx[pe->ranks[r]] = r;
	uint32_t *from = xmalloc(((size_t)ne + 1) * sizeof *from), *to = xmalloc(((size_t)ne + 1) * sizeof *to);
	for (uint32_t k = 0; k < ne; k++) {
		from[k] = idx[E[k][0]];
		to[k] = idx[E[k][1]];
	}
	g->ooff = xcalloc((size_t)nr + 2, sizeof *g->ooff);
	g->ioff = xcalloc((size_t)nr + 2, sizeof *g->ioff);
	g->out = xmalloc(((size_t)ne + 1) * sizeof *g->out);
	g->in = xmalloc(((size_t)ne + 1) * sizeof *g->in);
	group_by(from, to, ne, nr, g->ooff, g->out);
	group_by(to, from, ne, nr, g->ioff, g->in);
	free(idx); free(from); free(to);
}

void cl_peers_free(struct cl_peers *g)
{
	free(g->ooff); free(g->out);
	free(g->ioff); free(g->in);
}

/* Does every rank send to and receive from the same non-empty set of peers?
 * Per rank, its receivers are stamped, then each sender must be one of them
 * and they must be as many (distinct). */
static bool same_peers(const struct cl_peers *g, uint32_t nr)
{
	uint32_t *mark = xcalloc((size_t)nr + 1, sizeof *mark);
	bool ok = true;
	for (uint32_t r = 0; r < nr && ok; r++) {
		uint32_t nout = 0, nin = 0, sent = 2 * r + 1, both = 2 * r + 2;
		for (uint32_t k = g->ooff[r]; k < g->ooff[r + 1]; k++)
			if (mark[g->out[k]] != sent) { mark[g->out[k]] = sent; nout++; }
		for (uint32_t k = g->ioff[r]; k < g->ioff[r + 1] && ok; k++) {
			uint32_t x = g->in[k];
			if (mark[x] == sent) { mark[x] = both; nin++; }
			else ok = mark[x] == both;
		}
		ok = ok && nout && nin == nout;
	}
	free(mark);
	return ok;
}

/* Per-rank flavour votes; AMBIG is a lone send followed by a lone blocking
 * receive, which fits both "alternating" and "sends then receives". */
enum vote { V_ALT, V_SR, V_WAIT, V_UNKNOWN, V_AMBIG, V_COUNT };

static enum vote rank_flavour(const struct tc_steps *s, const struct cl_events *pe, uint32_t ri)
{
	/* the rank's send/receive events in time order: 'S', 'R' or 'X' (both) */
	uint32_t nS = 0, nR = 0, nX = 0, n = 0, last_s = 0, first_r = UINT32_MAX, r_at = 0;
	bool alternates = true;
	char prev = 0;
	for (uint32_t i = pe->off[ri]; i < pe->off[ri + 1]; i++) {
		const struct tc_cev *e = &s->cevs[pe->cev[i]];
		bool snd = e->flags & TC_CEV_SEND, rcv = e->flags & TC_CEV_RECV;
		if (!snd && !rcv) continue;
		char c = snd && rcv ? 'X' : snd ? 'S' : 'R';
		if (c == 'X') nX++;
		else if (c == 'S') { nS++; last_s = n; }
		else {
			nR++;
			if (first_r == UINT32_MAX) first_r = n;
			r_at = pe->cev[i];
		}
		if (prev && c == prev) alternates = false;
		prev = c;
		n++;
	}
	if (nX && !nS && !nR) return V_ALT;         /* Sendrecv exchange */
	if (nX || !nS || !nR) return V_UNKNOWN;
	bool sends_first = last_s < first_r;
	/* waitall: all the messages the receive completes come from
	 * non-blocking receives (Irecv + Wait*), and there is one */
	if (sends_first && nR == 1 &&
	    (atomic_load_explicit(&pe->ix->info[r_at].flags, memory_order_relaxed) & (CL_RECV | CL_BLOCKING)) == CL_RECV)
		return V_WAIT;
	if (sends_first && nS == 1 && nR == 1) return V_AMBIG;
	if (sends_first) return V_SR;
	if (alternates) return V_ALT;
	return V_UNKNOWN;
}

enum tc_exchange cl_exchange(const struct tc_steps *s, const struct cl_events *pe, const struct cl_peers *g)
{
	if (!s->t || !pe->nranks || !same_peers(g, pe->nranks)) return TC_EX_NONE;
	uint32_t votes[V_COUNT] = { 0 };
	for (uint32_t ri = 0; ri < pe->nranks; ri++) votes[rank_flavour(s, pe, ri)]++;
	if (votes[V_AMBIG] == pe->nranks) return TC_EX_ALTERNATING;
	/* plurality; ties in the order alternating, sends-receives, waitall, unknown */
	static const enum tc_exchange as[] = { TC_EX_ALTERNATING, TC_EX_SENDS_RECVS, TC_EX_WAITALL, TC_EX_UNKNOWN };
	uint32_t best = 0;
	for (uint32_t v = 1; v < V_AMBIG; v++)
		if (votes[v] > votes[best]) best = v;
	return as[best];
}

/* One partition on its own, for the single-phase entry points below (the
 * clusterer shares one index over all phases instead). */
struct cl_alone { struct cl_index ix; struct cl_events pe; struct cl_peers g; uint32_t *owned; };

static void alone_open(struct cl_alone *a, const struct tc_steps *s, uint32_t partition)
{
	cl_index_init(&a->ix, s, 1);
	cl_events_scan(&a->pe, partition, s, &a->ix, &a->owned);
	cl_peers_init(&a->g, &a->pe);
}

static void alone_close(struct cl_alone *a)
{
	cl_peers_free(&a->g);
	cl_events_free(&a->pe);
	cl_index_free(&a->ix);
	free(a->owned);
}

enum tc_exchange tc_exchange_detect(const struct tc_steps *s, uint32_t partition)
{
	struct cl_alone a;
	alone_open(&a, s, partition);
	enum tc_exchange r = cl_exchange(s, &a.pe, &a.g);
	alone_close(&a);
	return r;
}

/* Breadth-first from seed.  Ravel's version put the receiver instead of the
 * sender on the frontier for receive-side neighbours, so a second hop along a
 * received message never happened; here every neighbour found is expanded. */
uint32_t cl_focus(const struct cl_events *pe, const struct cl_peers *g, uint32_t seed, uint32_t radius, uint32_t max,
		  uint32_t *out)
{
	uint32_t si = cl_rank_index(pe, seed);
	if (si == TC_NONE || !max) return 0;
	uint8_t *seen = xcalloc(pe->nranks, 1);
	uint32_t *queue = xmalloc(TC_MIN(max, pe->nranks) * sizeof *queue);
	VEC(uint32_t) nb = { 0 };
	uint32_t head = 0, tail = 0, level_end;
	queue[tail++] = si;
	seen[si] = 1;
	for (uint32_t hop = 0; hop < radius && head < tail && tail < max; hop++) {
		level_end = tail;
		for (; head < level_end && tail < max; head++) {
			uint32_t ri = queue[head];
			nb.n = 0;
			for (uint32_t k = g->ooff[ri]; k < g->ooff[ri + 1]; k++) VEC_PUSH(nb, g->out[k]);
			for (uint32_t k = g->ioff[ri]; k < g->ioff[ri + 1]; k++) VEC_PUSH(nb, g->in[k]);
			size_t k = sort_unique(nb.a, nb.n);
			for (size_t j = 0; j < k && tail < max; j++) {
				uint32_t x = nb.a[j];
				if (seen[x]) continue;
				seen[x] = 1;
				queue[tail++] = x;
			}
		}
		head = level_end;
	}
	for (uint32_t i = 0; i < tail; i++) out[i] = pe->ranks[queue[i]];
	qsort(out, tail, sizeof *out, tc_cmp_u32);
	free(seen);
	free(queue);
	VEC_FREE(nb);
	return tail;
}

uint32_t tc_focus_ranks(const struct tc_steps *s, uint32_t partition, uint32_t seed, uint32_t radius,
			uint32_t max, uint32_t *out)
{
	struct cl_alone a;
	alone_open(&a, s, partition);
	uint32_t n = cl_focus(&a.pe, &a.g, seed, radius, max, out);
	alone_close(&a);
	return n;
}
