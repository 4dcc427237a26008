/* exchange.c — the events of one partition by rank, exchange ("gnome")
 * detection with its three flavours, and focus ranks (breadth-first over the
 * message graph of a partition). */
#include <stdlib.h>
#include <string.h>

#include "cluster_internal.h"

const char *const tc_exchange_names[TC_EX_COUNT] = {
	"none", "exchange", "exchange_alternating", "exchange_sends_receives", "exchange_waitall",
};

void cl_events_init(struct cl_events *pe, uint32_t p, const struct tc_steps *s, const uint32_t *cev, uint32_t n)
{
	memset(pe, 0, sizeof *pe);
	pe->p = p;
	pe->cev = cev;
	pe->n = n;
	uint32_t nr = 0;
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || s->cevs[cev[i]].rank != s->cevs[cev[i - 1]].rank) nr++;
	pe->nranks = nr;
	pe->ranks = xmalloc(((size_t)nr + 1) * sizeof *pe->ranks);
	pe->off = xmalloc(((size_t)nr + 1) * sizeof *pe->off);
	nr = 0;
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || s->cevs[cev[i]].rank != s->cevs[cev[i - 1]].rank) {
			pe->ranks[nr] = s->cevs[cev[i]].rank;
			pe->off[nr++] = i;
		}
	pe->off[nr] = n;
}

void cl_events_scan(struct cl_events *pe, uint32_t p, const struct tc_steps *s, uint32_t **owned)
{
	VEC(uint32_t) v = { 0 };
	for (size_t i = 0; i < s->ncevs; i++)
		if (s->cevs[i].partition == p) VEC_PUSH(v, (uint32_t)i);
	*owned = v.a;
	cl_events_init(pe, p, s, v.a, (uint32_t)v.n);
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

/* Is the other end of message m (the receive when send is true) an event of the partition? */
static bool other_end_in(const struct tc_steps *s, const struct cl_events *pe, uint32_t m, bool send)
{
	const uint32_t *map = send ? s->msg_recv_cev : s->msg_send_cev;
	if (!map) return false;
	uint32_t e = map[m];
	return e < s->ncevs && (pe->part ? pe->part[e] : s->cevs[e].partition) == pe->p;
}

/* Peers of a cev's messages within the partition: sends go to *snd, receives to *rcv. */
typedef VEC(uint32_t) u32vec;
static void cev_peers(const struct tc_steps *s, const struct cl_events *pe, const struct tc_cev *e, u32vec *snd,
		      u32vec *rcv)
{
	uint32_t nops;
	const struct tc_op *op = cev_ops(s, e, &nops);
	for (uint32_t i = 0; i < nops; i++) {
		const uint32_t *sm = tc_op_sends(s->t, e->rank, &op[i]);
		for (uint32_t k = 0; k < op[i].nsend; k++)
			if (other_end_in(s, pe, sm[k], true)) VEC_PUSH(*snd, s->t->msgs[sm[k]].dst);
		const uint32_t *rm = tc_op_recvs(s->t, e->rank, &op[i]);
		for (uint32_t k = 0; k < op[i].nrecv; k++)
			if (other_end_in(s, pe, rm[k], false)) VEC_PUSH(*rcv, s->t->msgs[rm[k]].src);
	}
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

/* Do all messages a cev completes come from non-blocking receives (Irecv + Wait*)? */
static bool cev_nb_recvs(const struct tc_steps *s, const struct tc_cev *e)
{
	uint32_t nops, n = 0;
	const struct tc_op *op = cev_ops(s, e, &nops);
	for (uint32_t i = 0; i < nops; i++) {
		const uint32_t *rm = tc_op_recvs(s->t, e->rank, &op[i]);
		for (uint32_t k = 0; k < op[i].nrecv; k++, n++)
			if (!(s->t->msgs[rm[k]].flags & TC_MSG_NB_RECV)) return false;
	}
	return n > 0;
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
	if (sends_first && nR == 1 && cev_nb_recvs(s, &s->cevs[r_at])) return V_WAIT;
	if (sends_first && nS == 1 && nR == 1) return V_AMBIG;
	if (sends_first) return V_SR;
	if (alternates) return V_ALT;
	return V_UNKNOWN;
}

enum tc_exchange cl_exchange(const struct tc_steps *s, const struct cl_events *pe)
{
	if (!s->t || !pe->nranks) return TC_EX_NONE;
	u32vec snd = { 0 }, rcv = { 0 };
	uint32_t votes[V_COUNT] = { 0 };
	enum tc_exchange res = TC_EX_NONE;
	for (uint32_t ri = 0; ri < pe->nranks; ri++) {
		snd.n = rcv.n = 0;
		for (uint32_t i = pe->off[ri]; i < pe->off[ri + 1]; i++)
			cev_peers(s, pe, &s->cevs[pe->cev[i]], &snd, &rcv);
		size_t ns = sort_unique(snd.a, snd.n), nr = sort_unique(rcv.a, rcv.n);
		if (!ns || ns != nr || memcmp(snd.a, rcv.a, ns * sizeof *snd.a)) goto out;
		votes[rank_flavour(s, pe, ri)]++;
	}
	if (votes[V_AMBIG] == pe->nranks) { res = TC_EX_ALTERNATING; goto out; }
	/* plurality; ties in the order alternating, sends-receives, waitall, unknown */
	static const enum tc_exchange as[] = { TC_EX_ALTERNATING, TC_EX_SENDS_RECVS, TC_EX_WAITALL, TC_EX_UNKNOWN };
	uint32_t best = 0;
	for (uint32_t v = 1; v < V_AMBIG; v++)
		if (votes[v] > votes[best]) best = v;
	res = as[best];
out:
	VEC_FREE(snd);
	VEC_FREE(rcv);
	return res;
}

enum tc_exchange tc_exchange_detect(const struct tc_steps *s, uint32_t partition)
{
	struct cl_events pe;
	uint32_t *owned;
	cl_events_scan(&pe, partition, s, &owned);
	enum tc_exchange r = cl_exchange(s, &pe);
	cl_events_free(&pe);
	free(owned);
	return r;
}

/* Breadth-first from seed.  Ravel's version put the receiver instead of the
 * sender on the frontier for receive-side neighbours, so a second hop along a
 * received message never happened; here every neighbour found is expanded. */
uint32_t cl_focus(const struct tc_steps *s, const struct cl_events *pe, uint32_t seed, uint32_t radius,
		  uint32_t max, uint32_t *out)
{
	uint32_t si = cl_rank_index(pe, seed);
	if (si == TC_NONE || !max) return 0;
	uint8_t *seen = xcalloc(pe->nranks, 1);
	uint32_t *queue = xmalloc(TC_MIN(max, pe->nranks) * sizeof *queue);
	u32vec nb = { 0 };
	uint32_t head = 0, tail = 0, level_end;
	queue[tail++] = si;
	seen[si] = 1;
	for (uint32_t hop = 0; hop < radius && head < tail && tail < max; hop++) {
		level_end = tail;
		for (; head < level_end && tail < max; head++) {
			uint32_t ri = queue[head];
			nb.n = 0;
			for (uint32_t i = pe->off[ri]; i < pe->off[ri + 1]; i++)
				cev_peers(s, pe, &s->cevs[pe->cev[i]], &nb, &nb);
			size_t k = sort_unique(nb.a, nb.n);
			for (size_t j = 0; j < k && tail < max; j++) {
				uint32_t x = cl_rank_index(pe, nb.a[j]);
				if (x == TC_NONE || seen[x]) continue;
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
	struct cl_events pe;
	uint32_t *owned;
	cl_events_scan(&pe, partition, s, &owned);
	uint32_t n = cl_focus(s, &pe, seed, radius, max, out);
	cl_events_free(&pe);
	free(owned);
	return n;
}
