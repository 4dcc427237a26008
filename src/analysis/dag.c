/* dag.c — the dependency DAG of a rank set and time window (PCLVis §5.2,
 * §5.3.1, Algorithm 2) with the per-rank communication state (CS-glyph rows).
 *
 * Happened-before order: instead of N-wide vector clocks per event we give
 * every event a Lamport clock over program order and messages.  Sorting by it
 * (ties by physical time) is a linear extension of happened-before, which is
 * all Algorithm 2 needs: it walks the events once in that order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "analysis_verdict.h"

struct ev {
	uint64_t time;
	uint64_t clock;
	uint32_t rank;
	uint32_t sel;   /* index into the selected messages */
	bool recv;
};

struct sel { uint64_t time; uint32_t msg; };

static int cmp_sel(const void *a, const void *b)
{
	const struct sel *x = a, *y = b;
	if (x->time != y->time) return x->time < y->time ? -1 : 1;
	return x->msg < y->msg ? -1 : x->msg > y->msg;
}

/* program order on a rank: time, then sends before receives (an MPI_Sendrecv
 * records its send first), then message order */
static int cmp_prog(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
	if (x->time != y->time) return x->time < y->time ? -1 : 1;
	if (x->recv != y->recv) return x->recv ? 1 : -1;
	return x->sel < y->sel ? -1 : x->sel > y->sel;
}

static int cmp_clock(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	if (x->clock != y->clock) return x->clock < y->clock ? -1 : 1;
	if (x->time != y->time) return x->time < y->time ? -1 : 1;
	if (x->recv != y->recv) return x->recv ? 1 : -1;
	if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
	return x->sel < y->sel ? -1 : x->sel > y->sel;
}

/* Lamport clocks over ev[] grouped by rank slot in program order
 * (first[k]..first[k+1]); send_ev/recv_ev: event index of each message's
 * send and receive.  A receive waits for the clock of its send; a cycle
 * (clock-condition violations) is broken by releasing the earliest blocked
 * receive. */
static void lamport(struct ev *ev, size_t nev, const uint32_t *first, uint32_t nslot, const uint32_t *slot_of,
		    const uint32_t *send_ev, const uint32_t *recv_ev)
{
	uint32_t n1 = nslot ? nslot : 1;
	uint32_t *pos = xmalloc(n1 * sizeof *pos);
	uint64_t *last = xcalloc(n1, sizeof *last);
	bool *assigned = xcalloc(nev ? nev : 1, sizeof *assigned);
	uint32_t *stack = xmalloc(n1 * sizeof *stack);
	bool *queued = xcalloc(n1, sizeof *queued);
	size_t sp = 0, done = 0;
	for (uint32_t k = 0; k < nslot; k++) {
		pos[k] = first[k];
		if (first[k] < first[k + 1]) { stack[sp++] = k; queued[k] = true; }
	}
	while (done < nev) {
		while (sp) {
			uint32_t k = stack[--sp];
			queued[k] = false;
			while (pos[k] < first[k + 1]) {
				struct ev *e = &ev[pos[k]];
				uint64_t c = last[k] + 1;
				if (e->recv) {
					uint32_t s = send_ev[e->sel];
					if (!assigned[s]) break;  /* woken when the send gets its clock */
					if (ev[s].clock + 1 > c) c = ev[s].clock + 1;
				}
				e->clock = last[k] = c;
				assigned[pos[k]] = true;
				pos[k]++;
				done++;
				if (!e->recv) {
					uint32_t re = recv_ev[e->sel], d = slot_of[ev[re].rank];
					if (pos[d] == re && !queued[d]) { stack[sp++] = d; queued[d] = true; }
				}
			}
		}
		if (done == nev) break;
		/* a cycle: release the earliest blocked receive without its send */
		uint32_t best = TC_NONE;
		for (uint32_t k = 0; k < nslot; k++)
			if (pos[k] < first[k + 1] && (best == TC_NONE || ev[pos[k]].time < ev[pos[best]].time)) best = k;
		struct ev *e = &ev[pos[best]];
		e->clock = last[best] = last[best] + 1;
		assigned[pos[best]] = true;
		pos[best]++;
		done++;
		stack[sp++] = best;
		queued[best] = true;
	}
	free(pos); free(last); free(assigned); free(stack); free(queued);
}

struct dag_build {
	VEC(struct tc_dag_node) nodes;
	VEC(struct tc_dag_edge) edges;
};

static uint32_t new_node(struct dag_build *b, uint32_t rank, uint32_t prev, const struct tc_dag_node *nodes_prev)
{
	struct tc_dag_node n = { .rank = rank, .prev = prev, .max_l = NAN };
	n.level = prev == TC_NONE ? 0 : nodes_prev[prev].level + 1;
	VEC_PUSH(b->nodes, n);
	return (uint32_t)(b->nodes.n - 1);
}

/* The state of one build: the window's messages, their events in
 * happened-before order, and the rank slots. */
struct dag_in {
	const struct tc_trace *t;
	const struct tc_latency *lat;
	VEC(struct sel) sel;     /* messages of the set completing in the window, by receive completion */
	struct ev *ev;           /* 2 per message, in Lamport order once ordered */
	size_t nm, nev;
	uint32_t *slot_of;       /* rank → slot (the set's ranks that take part), TC_NONE */
	uint32_t nslot;
};

static void select_msgs(struct dag_in *in, const bool *inset, uint64_t t0, uint64_t t1, uint32_t max_msgs,
			struct tc_dag *d)
{
	const struct tc_trace *t = in->t;
	for (size_t i = 0; i < t->nmsgs; i++) {
		const struct tc_msg *m = &t->msgs[i];
		if (m->recv_time < t0 || m->recv_time >= t1 || !inset[m->src] || !inset[m->dst]) continue;
		struct sel s = { m->recv_time, (uint32_t)i };
		VEC_PUSH(in->sel, s);
	}
	if (in->sel.n > 1) qsort(in->sel.a, in->sel.n, sizeof *in->sel.a, cmp_sel);
	d->nmsgs_window = (uint32_t)in->sel.n;
	if (max_msgs && in->sel.n > max_msgs) { in->sel.n = max_msgs; d->truncated = true; }
	d->nmsgs = (uint32_t)in->sel.n;
	in->nm = in->sel.n;
	in->nev = 2 * in->nm;
}

/* The send and receive event of every message, in a linear extension of
 * happened-before (Lamport clock, ties by physical time). */
static void order_events(struct dag_in *in)
{
	const struct tc_trace *t = in->t;
	uint32_t N = t->nranks;
	size_t nm = in->nm, nev = in->nev;
	in->slot_of = xmalloc((N ? N : 1) * sizeof *in->slot_of);
	for (uint32_t r = 0; r < N; r++) in->slot_of[r] = TC_NONE;
	struct ev *ev = in->ev = xmalloc((nev ? nev : 1) * sizeof *ev);
	for (size_t i = 0; i < nm; i++) {
		const struct tc_msg *m = &t->msgs[in->sel.a[i].msg];
		ev[2 * i] = (struct ev){ .time = m->send_time, .rank = m->src, .sel = (uint32_t)i, .recv = false };
		ev[2 * i + 1] = (struct ev){ .time = m->recv_time, .rank = m->dst, .sel = (uint32_t)i, .recv = true };
	}
	qsort(ev, nev, sizeof *ev, cmp_prog);
	VEC(uint32_t) first = { 0 };
	for (size_t i = 0; i < nev; i++)
		if (in->slot_of[ev[i].rank] == TC_NONE) {
			in->slot_of[ev[i].rank] = in->nslot++;
			VEC_PUSH(first, (uint32_t)i);
		}
	VEC_PUSH(first, (uint32_t)nev);
	uint32_t *send_ev = xmalloc((nm ? nm : 1) * sizeof *send_ev);
	uint32_t *recv_ev = xmalloc((nm ? nm : 1) * sizeof *recv_ev);
	for (size_t i = 0; i < nev; i++) (ev[i].recv ? recv_ev : send_ev)[ev[i].sel] = (uint32_t)i;
	lamport(ev, nev, first.a, in->nslot, in->slot_of, send_ev, recv_ev);
	qsort(ev, nev, sizeof *ev, cmp_clock);
	free(send_ev);
	free(recv_ev);
	VEC_FREE(first);
}

/* One event of Algorithm 2 placed: a new node when the rank has none or a
 * receive follows a send; the edge once both ends of its message are placed. */
static void place_event(const struct dag_in *in, struct dag_build *b, const struct ev *e, uint32_t *newest,
			bool *has_send, uint32_t *send_node, uint32_t *recv_node)
{
	const struct tc_trace *t = in->t;
	uint32_t k = in->slot_of[e->rank];
	const struct tc_msg *m = &t->msgs[in->sel.a[e->sel].msg];
	uint32_t v = newest[k];
	if (v == TC_NONE || (e->recv && has_send[k])) {
		v = newest[k] = new_node(b, e->rank, v, b->nodes.a);
		has_send[k] = false;
	}
	struct tc_dag_node *n = &b->nodes.a[v];
	if (n->nrecv + n->nsend == 0) n->first = e->time;
	if (e->time < n->first) n->first = e->time;
	if (e->time > n->last) n->last = e->time;
	if (e->recv) {
		n->nrecv++;
		n->bytes_in += m->bytes;
		recv_node[e->sel] = v;
	} else {
		n->nsend++;
		n->bytes_out += m->bytes;
		has_send[k] = true;
		send_node[e->sel] = v;
	}
	uint32_t from = send_node[e->sel], to = recv_node[e->sel];
	if (from == TC_NONE || to == TC_NONE) return;
	/* both ends placed: the edge (normally at the receive) */
	uint32_t mi = in->sel.a[e->sel].msg;
	const struct tc_latency *lat = in->lat;
	struct tc_dag_edge ed = { .msg = mi, .from = from, .to = to, .bytes = m->bytes,
				  .transfer = lat ? lat->transfer[mi] : NAN, .l = lat ? lat->l[mi] : NAN,
				  .inter = !tc_same_node(t, m->src, m->dst) };
	VEC_PUSH(b->edges, ed);
	struct tc_dag_node *tn = &b->nodes.a[to];
	if (b->nodes.a[from].level + 1 > tn->level) tn->level = b->nodes.a[from].level + 1;
	if (!(tn->max_l >= ed.l)) tn->max_l = isnan(ed.l) ? tn->max_l : ed.l;
}

/* Algorithm 2 over the ordered events: nodes and edges into d. */
static void algorithm2(const struct dag_in *in, struct tc_dag *d)
{
	size_t nm = in->nm;
	uint32_t ns = in->nslot ? in->nslot : 1;
	struct dag_build b = { 0 };
	uint32_t *newest = xmalloc(ns * sizeof *newest);
	bool *has_send = xcalloc(ns, sizeof *has_send);
	for (uint32_t k = 0; k < in->nslot; k++) newest[k] = TC_NONE;
	uint32_t *send_node = xmalloc((nm ? nm : 1) * sizeof *send_node);
	uint32_t *recv_node = xmalloc((nm ? nm : 1) * sizeof *recv_node);
	for (size_t i = 0; i < nm; i++) send_node[i] = recv_node[i] = TC_NONE;
	for (size_t i = 0; i < in->nev; i++) place_event(in, &b, &in->ev[i], newest, has_send, send_node, recv_node);
	/* program order keeps levels increasing along a rank (edges may have raised a node) */
	for (size_t v = 0; v < b.nodes.n; v++) {
		struct tc_dag_node *n = &b.nodes.a[v];
		if (n->prev != TC_NONE && n->level <= b.nodes.a[n->prev].level) n->level = b.nodes.a[n->prev].level + 1;
	}
	d->nnodes = (uint32_t)b.nodes.n;
	d->nodes = b.nodes.a;
	d->nedges = (uint32_t)b.edges.n;
	d->edges = b.edges.a;
	for (uint32_t v = 0; v < d->nnodes; v++)
		if (d->nodes[v].level + 1 > d->nlevels) d->nlevels = d->nodes[v].level + 1;
	free(newest); free(has_send); free(send_node); free(recv_node);
}

/* In and out adjacency of the nodes, edges in their order (receive completion). */
static void adjacency(struct tc_dag *d)
{
	d->in_edges = xmalloc((d->nedges ? d->nedges : 1) * sizeof *d->in_edges);
	d->out_edges = xmalloc((d->nedges ? d->nedges : 1) * sizeof *d->out_edges);
	for (uint32_t e = 0; e < d->nedges; e++) {
		d->nodes[d->edges[e].to].nin++;
		d->nodes[d->edges[e].from].nout++;
	}
	uint32_t ai = 0, ao = 0;
	for (uint32_t v = 0; v < d->nnodes; v++) {
		d->nodes[v].first_in = ai;
		d->nodes[v].first_out = ao;
		ai += d->nodes[v].nin;
		ao += d->nodes[v].nout;
		d->nodes[v].nin = d->nodes[v].nout = 0;
	}
	for (uint32_t e = 0; e < d->nedges; e++) {
		struct tc_dag_node *to = &d->nodes[d->edges[e].to], *fr = &d->nodes[d->edges[e].from];
		d->in_edges[to->first_in + to->nin++] = e;
		d->out_edges[fr->first_out + fr->nout++] = e;
	}
}

/* The per-rank state rows: the explicit set (nranks > 0), or every rank with
 * a message; row_of: rank → row. */
static void state_rows(const struct dag_in *in, const bool *inset, uint32_t nranks, uint32_t *row_of,
		       struct tc_dag *d)
{
	const struct tc_trace *t = in->t;
	uint32_t N = t->nranks;
	VEC(struct tc_dag_rank) rows = { 0 };
	bool *seen = NULL;
	const bool *take = inset;
	if (!nranks) {
		take = seen = xcalloc(N ? N : 1, sizeof *seen);
		for (size_t i = 0; i < in->nm; i++) {
			const struct tc_msg *m = &t->msgs[in->sel.a[i].msg];
			seen[m->src] = seen[m->dst] = true;
		}
	}
	for (uint32_t r = 0; r < N; r++) {
		row_of[r] = TC_NONE;
		if (!take[r]) continue;
		struct tc_dag_rank x = { .rank = r, .node = t->ranks[r].node };
		row_of[r] = (uint32_t)rows.n;
		VEC_PUSH(rows, x);
	}
	free(seen);
	d->nranks = (uint32_t)rows.n;
	d->ranks = rows.a;
}

/* Sums per row of the window's messages: counts, bytes, transfer times and
 * latency (per row and per compute node); the mean latency into d. */
struct row_sums { double *lsum, *tin, *tout, *node_sum; uint32_t *node_cnt; };

static void sum_rows(const struct dag_in *in, const uint32_t *row_of, struct tc_dag *d, struct row_sums *rs)
{
	const struct tc_trace *t = in->t;
	const struct tc_latency *lat = in->lat;
	double suml = 0;
	uint32_t nl = 0;
	for (size_t i = 0; i < in->nm; i++) {
		uint32_t mi = in->sel.a[i].msg;
		const struct tc_msg *m = &t->msgs[mi];
		double l = lat ? lat->l[mi] : NAN, tr = lat ? lat->transfer[mi] : NAN;
		bool inter = !tc_same_node(t, m->src, m->dst);
		uint32_t ks = row_of[m->src], kr = row_of[m->dst];
		struct tc_dag_rank *s = &d->ranks[ks], *r = &d->ranks[kr];
		s->msgs_out++;
		s->bytes_out += m->bytes;
		s->inter += inter;
		r->msgs_in++;
		r->bytes_in += m->bytes;
		r->inter += inter;
		rs->tout[ks] += tr;
		rs->tin[kr] += tr;
		rs->lsum[ks] += l;
		rs->lsum[kr] += l;
		if (!isnan(l)) {
			suml += l;
			nl++;
			uint32_t a = t->ranks[m->src].node, c = t->ranks[m->dst].node;
			rs->node_sum[a] += l;
			rs->node_cnt[a]++;
			if (c != a) { rs->node_sum[c] += l; rs->node_cnt[c]++; }
		}
	}
	d->mean_l = nl ? suml / nl : NAN;
}

/* The rows' statistics: load balance of messages and bytes, mean transfer
 * times and latencies. */
static void row_stats(const struct dag_in *in, const uint32_t *row_of, struct tc_dag *d)
{
	uint32_t nr = d->nranks ? d->nranks : 1, nn = in->t->nnodes ? in->t->nnodes : 1;
	struct row_sums rs = { xcalloc(nr, sizeof(double)), xcalloc(nr, sizeof(double)), xcalloc(nr, sizeof(double)),
			       xcalloc(nn, sizeof(double)), xcalloc(nn, sizeof(uint32_t)) };
	sum_rows(in, row_of, d, &rs);
	double *load = xmalloc(nr * sizeof *load), *lb = xmalloc(nr * sizeof *lb);
	for (uint32_t i = 0; i < d->nranks; i++) load[i] = d->ranks[i].msgs_in + d->ranks[i].msgs_out;
	tc_load_balance(load, d->nranks, lb, NULL);
	for (uint32_t i = 0; i < d->nranks; i++) d->ranks[i].lb = lb[i];
	for (uint32_t i = 0; i < d->nranks; i++) load[i] = (double)(d->ranks[i].bytes_in + d->ranks[i].bytes_out);
	tc_load_balance(load, d->nranks, lb, NULL);
	for (uint32_t i = 0; i < d->nranks; i++) {
		struct tc_dag_rank *x = &d->ranks[i];
		x->lb_bytes = lb[i];
		x->transfer_in = x->msgs_in ? rs.tin[i] / x->msgs_in : NAN;
		x->transfer_out = x->msgs_out ? rs.tout[i] / x->msgs_out : NAN;
		uint32_t k = x->msgs_in + x->msgs_out;
		x->mean_l = k && in->lat ? rs.lsum[i] / k : NAN;
		x->node_l = rs.node_cnt[x->node] ? rs.node_sum[x->node] / rs.node_cnt[x->node] : NAN;
	}
	free(load); free(lb);
	free(rs.lsum); free(rs.tin); free(rs.tout); free(rs.node_sum); free(rs.node_cnt);
}

struct tc_dag *tc_dag_build(const struct tc_trace *t, const struct tc_latency *lat, const uint32_t *ranks,
			    uint32_t nranks, uint64_t t0, uint64_t t1, uint32_t max_msgs)
{
	struct tc_dag *d = xcalloc(1, sizeof *d);
	d->t0 = t0;
	d->t1 = t1;
	d->region = TC_NONE;
	uint32_t N = t->nranks;
	bool *inset = xcalloc(N ? N : 1, sizeof *inset);
	if (nranks == 0)
		for (uint32_t r = 0; r < N; r++) inset[r] = true;
	for (uint32_t i = 0; i < nranks; i++)
		if (ranks[i] < N) inset[ranks[i]] = true;
	struct dag_in in = { .t = t, .lat = lat };
	select_msgs(&in, inset, t0, t1, max_msgs, d);
	order_events(&in);
	algorithm2(&in, d);
	adjacency(d);
	uint32_t *row_of = in.slot_of; /* reuse: rank → row */
	state_rows(&in, inset, nranks, row_of, d);
	row_stats(&in, row_of, d);
	free(in.ev); free(in.slot_of); free(inset);
	VEC_FREE(in.sel);
	return d;
}

struct tc_dag *tc_dag_region(const struct tc_trace *t, const struct tc_latency *lat, uint32_t region, uint32_t w,
			     uint32_t max_msgs)
{
	uint64_t t0 = 0, t1 = UINT64_MAX;
	if (w != TC_NONE && w < lat->nwindows) {
		t0 = tc_lat_win_start(lat, w);
		t1 = tc_lat_win_end(lat, w);
	}
	const uint32_t *rk = NULL;
	uint32_t nr = 0;
	if (region != TC_NONE && region < lat->nregions) {
		rk = lat->regions[region].ranks;
		nr = lat->regions[region].nranks;
	} else {
		region = TC_NONE;
	}
	struct tc_dag *d = tc_dag_build(t, lat, rk, nr, t0, t1, max_msgs);
	d->region = region;
	return d;
}

void tc_dag_free(struct tc_dag *d)
{
	if (!d) return;
	free(d->nodes);
	free(d->edges);
	free(d->in_edges);
	free(d->out_edges);
	free(d->ranks);
	free(d);
}
