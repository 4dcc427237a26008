/* part.c — a serial model's part, the shares of the ranks, and the
 * canonical dump of a part (include/part.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "part.h"

bool tc_part_has_loc(const struct tc_trace *t, uint32_t l, uint32_t lo, uint32_t hi, int index)
{
	uint32_t r = t->locs[l].rank;
	return r == TC_NONE || r >= t->nranks ? index == 0 : r >= lo && r < hi;
}

/* The first rank of part p: where the weights before it reach p/count of
 * the whole (weight of a rank: its events + 1, so that ranks without events
 * spread too). */
static uint32_t share_start(const uint64_t *events, uint32_t nranks, uint64_t whole, int p, int count)
{
	if (p <= 0) return 0;
	if (p >= count) return nranks;
	uint64_t acc = 0;
	unsigned __int128 goal = (unsigned __int128)whole * (unsigned)p;
	for (uint32_t r = 0; r < nranks; r++) {
		if ((unsigned __int128)acc * (unsigned)count >= goal) return r;
		acc += events[r] + 1;
	}
	return nranks;
}

void tc_share_ranks(const uint64_t *events, uint32_t nranks, int index, int count, uint32_t *lo, uint32_t *hi)
{
	uint64_t whole = 0;
	for (uint32_t r = 0; r < nranks; r++) whole += events[r] + 1;
	*lo = share_start(events, nranks, whole, index, count);
	*hi = share_start(events, nranks, whole, index + 1, count);
}

void tc_part_of_serial(struct tc_trace *t, uint32_t lo, uint32_t hi, int index, struct tc_part *p)
{
	*p = (struct tc_part){ .t = t, .index = index, .count = 0, .lo = lo, .hi = hi, .msgs_total = t->nmsgs,
			       .colls_total = t->ncolls };
	size_t a = 0;
	while (a < t->nmsgs && t->msgs[a].src < lo) a++;   /* messages are by sender rank */
	size_t b = a;
	while (b < t->nmsgs && t->msgs[b].src < hi) b++;
	p->msgs = t->msgs + a;
	p->nmsgs = b - a;
	p->msg_first = a;
	size_t c0 = 0, c1 = 0;   /* instances whose first (lowest-rank) member is here: contiguous */
	for (size_t i = 0; i < t->ncolls; i++) {
		uint32_t r = t->coll_members[t->colls[i].first].rank;
		if (r < lo) c0 = c1 = i + 1;
		else if (r < hi) c1 = i + 1;
	}
	p->colls = t->colls + c0;
	p->ncolls = c1 - c0;
	p->coll_first = c0;
	uint64_t nm = 0;
	for (size_t i = 0; i < t->ncolls; i++) nm += t->colls[i].n;
	p->members_total = nm;
	p->own_members = xmalloc((nm + 1) * sizeof *p->own_members);
	p->own_at = xmalloc((nm + 1) * sizeof *p->own_at);
	for (uint64_t j = 0; j < nm; j++) {
		if (t->coll_members[j].rank < lo || t->coll_members[j].rank >= hi) continue;
		p->own_members[p->nmembers] = t->coll_members[j];
		p->own_at[p->nmembers++] = j;
	}
	p->members = p->own_members;
	p->member_at = p->own_at;
}

void tc_part_release(struct tc_part *p)
{
	free(p->own_at);
	free(p->own_members);
	p->own_at = NULL;
	p->own_members = NULL;
}

void tc_part_drop_events(struct tc_part *p)
{
	tc_trace_drop_events(p->t);
	p->msgs = NULL;
}

/* --- the dump ------------------------------------------------------------------ */
#define U(x) ((unsigned long long)(x))

static void dump_defs(FILE *f, const struct tc_trace *t)
{
	for (uint32_t i = 0; i < t->nregions; i++)
		fprintf(f, "region %u %s kind=%u paradigm=%u role=%u\n", i, t->regions[i].name, t->regions[i].kind,
			t->regions[i].paradigm, t->regions[i].role);
	for (uint32_t i = 0; i < t->nnodes; i++) fprintf(f, "node %u %s\n", i, t->nodes[i].name);
	for (uint32_t i = 0; i < t->ncomms; i++) {
		const struct tc_comm *c = &t->comms[i];
		fprintf(f, "comm %u %s size=%u self=%d global=%d members", i, c->name, c->size, c->self, c->global);
		for (uint32_t k = 0; k < c->size; k++) fprintf(f, " %u", c->members[k]);
		fputc('\n', f);
	}
	for (uint32_t i = 0; i < t->nmetrics; i++) {
		const struct tc_metric_def *m = &t->metrics[i];
		fprintf(f, "metric %u %s [%s] mode=%u timing=%u vtype=%u samples=%llu\n", i, m->name, m->unit, m->mode,
			m->timing, m->vtype, U(m->nsamples));
	}
	for (uint32_t i = 0; i < t->nlocs; i++) {
		const struct tc_loc *L = &t->locs[i];
		fprintf(f, "locdef %u id=%llu %s rank=%u thread=%u type=%u events_def=%llu\n", i, U(L->id), L->name,
			L->rank, L->thread, L->type, U(L->nevents_def));
	}
	for (uint32_t r = 0; r < t->nranks; r++)
		fprintf(f, "rankdef %u loc=%u node=%u\n", r, t->ranks[r].loc, t->ranks[r].node);
}

static void dump_global(FILE *f, const struct tc_part *p)
{
	const struct tc_trace *t = p->t;
	fprintf(f, "global res=%llu t0=%llu length=%llu tmin=%llu tmax=%llu\n", U(t->res), U(t->t0), U(t->length),
		U(t->tmin), U(t->tmax));
	fprintf(f, "counts ranks=%u locs=%u nodes=%u regions=%u comms=%u metrics=%u world=%u threads=%u\n", t->nranks,
		t->nlocs, t->nnodes, t->nregions, t->ncomms, t->nmetrics, t->world, t->nthreads);
	fprintf(f, "totals msgs=%llu colls=%llu members=%llu calls=%llu\n", U(p->msgs_total), U(p->colls_total),
		U(p->members_total), U(t->ncalls));
	fprintf(f, "events");
	for (int k = 0; k < TC_EV_COUNT; k++) fprintf(f, " %s=%llu", tc_ev_kind_names[k], U(t->ev_count[k]));
	fprintf(f, "\nmatching unmatched_sends=%llu unmatched_recvs=%llu clock_violations=%llu incomplete_colls=%llu "
		   "msg_bytes=%llu\n",
		U(t->unmatched_sends), U(t->unmatched_recvs), U(t->clock_violations), U(t->incomplete_colls),
		U(t->msg_bytes));
	dump_defs(f, t);
	for (size_t i = 0; i < t->warnings.n; i++) fprintf(f, "warning %s\n", t->warnings.a[i]);
}

static void dump_calls(FILE *f, const struct tc_call *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, " call %u %llu %llu region=%u parent=%u op=%u depth=%u flags=%u\n", i, U(c[i].enter),
			U(c[i].leave), c[i].region, c[i].parent, c[i].op, c[i].depth, c[i].flags);
}

static void dump_rank(FILE *f, const struct tc_trace *t, uint32_t r)
{
	const struct tc_rank *R = &t->ranks[r];
	fprintf(f, "rank %u calls=%u ops=%u sends=%u recvs=%u first=%llu last=%llu\n", r, R->ncalls, R->nops,
		R->nsend_msgs, R->nrecv_msgs, U(R->first_time), U(R->last_time));
	dump_calls(f, R->calls, R->ncalls);
	for (uint32_t i = 0; i < R->nops; i++) {
		const struct tc_op *o = &R->ops[i];
		fprintf(f, " op %u call=%u send=%u+%u recv=%u+%u coll=%u\n", i, o->call, o->first_send, o->nsend,
			o->first_recv, o->nrecv, o->coll);
	}
	fprintf(f, " send_msgs");
	for (uint32_t i = 0; i < R->nsend_msgs; i++) fprintf(f, " %u", R->send_msgs[i]);
	fprintf(f, "\n recv_msgs");
	for (uint32_t i = 0; i < R->nrecv_msgs; i++) fprintf(f, " %u", R->recv_msgs[i]);
	fputc('\n', f);
}

static void dump_loc(FILE *f, const struct tc_trace *t, uint32_t l)
{
	const struct tc_loc *L = &t->locs[l];
	bool master = L->rank < t->nranks && t->ranks[L->rank].loc == l;
	fprintf(f, "loc %u events_read=%llu calls=%u samples=%u xfers=%u last_record=%llu%s\n", l, U(L->nevents_read),
		L->ncalls, L->nsamples, L->nxfers, U(L->last_record), master ? " (its rank's calls)" : "");
	if (!master) dump_calls(f, L->calls, L->ncalls);
	for (uint32_t i = 0; i < L->nsamples; i++) {
		const struct tc_sample *s = &L->samples[i];
		fprintf(f, " sample %llu metric=%u vtype=%u seq=%u v=%llu\n", U(s->time), (unsigned)s->metric,
			(unsigned)s->vtype, s->seq, U(s->v.u));
	}
	for (uint32_t i = 0; i < L->nxfers; i++)
		fprintf(f, " xfer %llu %llu bytes=%llu flags=%u\n", U(L->xfers[i].begin), U(L->xfers[i].end),
			U(L->xfers[i].bytes), L->xfers[i].flags);
}

static void dump_slices(FILE *f, const struct tc_part *p)
{
	for (size_t i = 0; i < p->nmsgs; i++) {
		const struct tc_msg *m = &p->msgs[i];
		fprintf(f, "msg %llu send=%llu recv=%llu post=%llu done=%llu bytes=%llu %u->%u calls=%u,%u,%u tag=%u "
			   "comm=%u flags=%u\n",
			U(p->msg_first + i), U(m->send_time), U(m->recv_time), U(m->post_time), U(m->send_done),
			U(m->bytes), m->src, m->dst, m->send_call, m->recv_call, m->post_call, m->tag, m->comm, m->flags);
	}
	for (size_t i = 0; i < p->ncolls; i++) {
		const struct tc_coll *c = &p->colls[i];
		fprintf(f, "coll %llu %llu %llu comm=%u root=%u first=%u n=%u op=%u\n", U(p->coll_first + i), U(c->begin),
			U(c->end), c->comm, c->root, c->first, c->n, c->op);
	}
	for (size_t i = 0; i < p->nmembers; i++) {
		const struct tc_coll_member *m = &p->members[i];
		fprintf(f, "member %llu rank=%u call=%u sent=%llu recvd=%llu\n", U(p->member_at[i]), m->rank, m->call,
			U(m->sent), U(m->recvd));
	}
}

bool tc_part_dump(FILE *f, const struct tc_part *p)
{
	const struct tc_trace *t = p->t;
	fprintf(f, "tracecomb-part 1\n");
	dump_global(f, p);
	fprintf(f, "part ranks=%u..%u\n", p->lo, p->hi);
	for (uint32_t r = p->lo; r < p->hi && r < t->nranks; r++) dump_rank(f, t, r);
	for (uint32_t l = 0; l < t->nlocs; l++)
		if (tc_part_has_loc(t, l, p->lo, p->hi, p->index)) dump_loc(f, t, l);
	dump_slices(f, p);
	return fflush(f) == 0 && !ferror(f);
}

char *tc_part_dump_path(const char *dir, int index)
{
	return xasprintf("%s/part-%d.txt", dir, index);
}
