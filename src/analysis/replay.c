/* replay.c — the replay's helpers (replay_internal.h) and tc_replay_run:
 * the analyses of `report`'s profile and wait-state sections over parts. */
#include <stdlib.h>
#include <string.h>

#include "rcdist_internal.h"
#include "replay_internal.h"
#include "waitstate_internal.h"

uint64_t *replay_firsts(const struct tc_dist *d, uint64_t v, uint64_t end)
{
	uint64_t *first = xcalloc((size_t)d->count + 1, sizeof *first);
	d->allgather(d->ctx, v, first);
	first[d->count] = end;
	return first;
}

int replay_owner(const uint64_t *first, int P, uint64_t k)
{
	int a = 0, b = P;   /* the last q with first[q] <= k: first[a] <= k < first[b] */
	while (b - a > 1) {
		int m = a + (b - a) / 2;
		if (first[m] <= k) a = m;
		else b = m;
	}
	return a;
}

void *replay_send_counted(const struct tc_dist *d, const void *rec, const int *to, size_t n, size_t rs, size_t *nin,
			  uint64_t *rcount)
{
	int P = d->count;
	uint64_t *cnt = xcalloc((size_t)P, sizeof *cnt), *at = xcalloc((size_t)P, sizeof *at);
	for (size_t i = 0; i < n; i++) cnt[to[i]]++;
	for (int q = 1; q < P; q++) at[q] = at[q - 1] + cnt[q - 1];
	char *sb = xmalloc(n * rs + 1);
	for (size_t i = 0; i < n; i++) memcpy(sb + at[to[i]]++ * rs, (const char *)rec + i * rs, rs);
	char *in = d->exchange(d->ctx, sb, cnt, rs, rcount);
	*nin = 0;
	for (int q = 0; q < P; q++) *nin += rcount[q];
	free(sb);
	free(at);
	free(cnt);
	return in;
}

void *replay_send(const struct tc_dist *d, const void *rec, const int *to, size_t n, size_t rs, size_t *nin)
{
	uint64_t *rcount = xcalloc((size_t)d->count, sizeof *rcount);
	void *in = replay_send_counted(d, rec, to, n, rs, nin, rcount);
	free(rcount);
	return in;
}

void *replay_ask(const struct tc_dist *d, const void *rec, const int *to, size_t n, size_t rs, size_t as,
		 void (*answer)(void *ctx, const void *req, void *ans), void *ctx, void **got, size_t *ngot)
{
	int P = d->count;
	uint64_t *rcount = xcalloc((size_t)P, sizeof *rcount);
	size_t nin;
	char *in = replay_send_counted(d, rec, to, n, rs, &nin, rcount);
	char *ans = xmalloc(nin * as + 1);
	int *back = xmalloc((nin ? nin : 1) * sizeof *back);
	size_t j = 0;
	for (int q = 0; q < P; q++)
		for (uint64_t k = 0; k < rcount[q]; k++, j++) {
			answer(ctx, in + j * rs, ans + j * as);
			back[j] = q;
		}
	size_t nback;
	char *reply = replay_send(d, ans, back, nin, as, &nback);
	/* the answers come grouped by answering process, each group in our order */
	uint64_t *at = xcalloc((size_t)P + 1, sizeof *at);
	for (size_t i = 0; i < n; i++) at[to[i] + 1]++;
	for (int q = 0; q < P; q++) at[q + 1] += at[q];
	char *out = xmalloc(n * as + 1);
	for (size_t i = 0; i < n; i++) memcpy(out + i * as, reply + at[to[i]]++ * as, as);
	if (got) {
		*got = in;
		*ngot = nin;
	} else {
		free(in);
	}
	free(at), free(reply), free(back), free(ans), free(rcount);
	return out;
}

/* The posting call's enter of a message received here (replay_msgx_get). */
static void post_enter(void *ctx, const void *req, void *ans)
{
	const struct tc_trace *t = ctx;
	const struct replay_rmsg *m = req;
	uint64_t e = m->post_call != TC_NONE ? t->ranks[m->dst].calls[m->post_call].enter : 0;
	memcpy(ans, &e, sizeof e);
}

void replay_msgx_get(const struct tc_part *p, const struct tc_dist *d, struct replay_msgx *x)
{
	const struct tc_trace *t = p->t;
	size_t n = p->nmsgs;
	x->rank_first = replay_firsts(d, p->lo, t->nranks);
	struct replay_rmsg *out = xmalloc((n ? n : 1) * sizeof *out);
	int *to = xmalloc((n ? n : 1) * sizeof *to);
	for (size_t i = 0; i < n; i++) {
		const struct tc_msg *m = &p->msgs[i];
		out[i] = (struct replay_rmsg){ p->msg_first + i, tc_msg_send_enter(t, m), m->src, m->send_call, m->dst,
					       m->post_call };
		to[i] = replay_owner(x->rank_first, d->count, m->dst);
	}
	/* grouped by sending process in order, each group in id order: in id order */
	void *in;
	x->post = replay_ask(d, out, to, n, sizeof *out, sizeof(uint64_t), post_enter, (void *)t, &in, &x->nin);
	x->in = in;
	free(out), free(to);
}

void replay_msgx_index(const struct tc_part *p, struct replay_msgx *x)
{
	const struct tc_trace *t = p->t;
	uint32_t mine = p->hi - p->lo;
	x->lo = p->lo;
	x->rbase = xmalloc(((size_t)mine + 1) * sizeof *x->rbase);
	size_t nr = 0;
	for (uint32_t q = 0; q < mine; q++) x->rbase[q] = (uint32_t)nr, nr += t->ranks[p->lo + q].nrecv_msgs;
	x->rbase[mine] = (uint32_t)nr;
	x->rpos = xmalloc((nr + 1) * sizeof *x->rpos);
	for (uint32_t q = 0; q < mine; q++) {
		const struct tc_rank *R = &t->ranks[p->lo + q];
		for (uint32_t k = 0; k < R->nrecv_msgs; k++) {
			const struct replay_rmsg *r = replay_rmsg_find(x->in, x->nin, R->recv_msgs[k]);
			x->rpos[x->rbase[q] + k] = r ? (uint32_t)(r - x->in) : TC_NONE;
		}
	}
}

void replay_msgx_free(struct replay_msgx *m)
{
	free(m->rank_first), free(m->in), free(m->post), free(m->rpos), free(m->rbase);
	*m = (struct replay_msgx){ 0 };
}

const struct replay_rmsg *replay_rmsg_find(const struct replay_rmsg *in, size_t n, uint64_t id)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t k = a + (b - a) / 2;
		if (in[k].id < id) a = k + 1;
		else b = k;
	}
	return a < n && in[a].id == id ? &in[a] : NULL;
}

/* A member and its global index in coll_members. */
struct rmem {
	uint64_t j;
	struct ws_member m;
};

struct ws_member *replay_members(const struct tc_part *p, const struct tc_dist *d, uint64_t *start)
{
	uint64_t mine = 0;
	for (size_t i = 0; i < p->ncolls; i++) mine += p->colls[i].n;
	*start = mine;
	d->exscan(d->ctx, start, 1, TC_DIST_SUM);
	uint64_t *first = replay_firsts(d, *start, p->members_total);
	struct rmem *out = xmalloc((p->nmembers ? p->nmembers : 1) * sizeof *out);
	int *to = xmalloc((p->nmembers ? p->nmembers : 1) * sizeof *to);
	for (size_t i = 0; i < p->nmembers; i++) {
		const struct tc_coll_member *cm = &p->members[i];
		const struct tc_call *c = &p->t->ranks[cm->rank].calls[cm->call];
		out[i] = (struct rmem){ p->member_at[i], { c->enter, c->leave, cm->rank, cm->call } };
		to[i] = replay_owner(first, d->count, p->member_at[i]);
	}
	size_t nin;
	struct rmem *in = replay_send(d, out, to, p->nmembers, sizeof *out, &nin);
	struct ws_member *m = xmalloc((mine ? mine : 1) * sizeof *m);
	for (size_t k = 0; k < nin; k++) m[in[k].j - *start] = in[k].m;
	free(in), free(out), free(to), free(first);
	return m;
}

void *replay_gather0(const struct tc_dist *d, const void *rec, size_t n, size_t rs, size_t *nin)
{
	int *to = xcalloc(n ? n : 1, sizeof *to);
	void *in = replay_send(d, rec, to, n, rs, nin);
	free(to);
	if (d->index == 0) return in;
	free(in);
	return NULL;
}

void *replay_bcast0(const struct tc_dist *d, const void *rec, size_t n, size_t rs, size_t *nout)
{
	int P = d->count;
	size_t m = d->index == 0 ? n * (size_t)P : 0;
	char *out = xmalloc(m * rs + 1);
	int *to = xmalloc((m ? m : 1) * sizeof *to);
	for (size_t k = 0; k < m; k++) {
		memcpy(out + k * rs, (const char *)rec + k % n * rs, rs);
		to[k] = (int)(k / n);
	}
	void *in = replay_send(d, out, to, m, rs, nout);
	free(out), free(to);
	return in;
}

void replay_join(const struct tc_dist *d, double *v, size_t n)
{
	_Static_assert(sizeof(double) == sizeof(uint64_t), "a double is a word");
	d->reduce(d->ctx, (uint64_t *)(void *)v, n, TC_DIST_SUM);   /* x + 0 of the bits is x */
}

/* The root causes as tc_rootcause_compute leaves them beyond the
 * activities, from the replayed figures (process 0). */
static struct tc_rc_results *results_of(const struct tc_rcexcess *X, const struct tc_rcdelay *D,
					const struct tc_cpath *C)
{
	struct tc_rc_results *x = xcalloc(1, sizeof *x);
	uint32_t N = X->nranks;
	size_t arr = ((size_t)N + 1) * sizeof(double);
	x->nranks = N, x->nctx = X->nctx;
	x->ctx = xmalloc(((size_t)X->nctx + 1) * sizeof *x->ctx);
	memcpy(x->ctx, X->ctx, (size_t)X->nctx * sizeof *x->ctx);
	x->fig = X->fig;   /* the excess pass's; then the delay costs' and the path's */
	x->fig.unattributed = D->unattributed, x->fig.path_len = C->length, x->fig.path_end_rank = C->end_rank;
	memcpy(x->fig.share, C->share, sizeof x->fig.share);
	x->wait_s = xmalloc(arr), x->delay_cost = xmalloc(arr);
	for (uint32_t r = 0; r < N; r++) x->wait_s[r] = X->rank[r].wait_s, x->delay_cost[r] = D->rank[r].delay_cost;
	x->path_compute_excess = xmalloc(arr), x->path_mpi_excess = xmalloc(arr);
	memcpy(x->path_compute_excess, C->compute_excess, (size_t)N * sizeof(double));
	memcpy(x->path_mpi_excess, C->mpi_excess, (size_t)N * sizeof(double));
	x->nexcess = D->nexcess;   /* the activities themselves are every process's (tc_replay.ex) */
	x->npath = C->n;
	x->path = xmalloc((C->n + 1) * sizeof *x->path);
	memcpy(x->path, C->piece, C->n * sizeof *x->path);
	return x;
}

/* The root causes replayed within span sp, the messages exchanged in m:
 * the wait/own rows, contexts, typical values and excess, delay costs and
 * path into out (process 0's), and out->rc assembled from them (every
 * process's activities with excess in out->ex); when what process 0 would
 * hold exceeds bound, nothing (out->rc_need says how much). */
static void replay_rootcause(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp,
			     struct replay_msgx *m, uint64_t bound, struct tc_replay *out)
{
	replay_msgx_index(p, m);
	struct rc_dacts acts;
	struct rc_dkeys *keys = rc_dkeys_new(p, d, m);
	out->rcwait = rc_wait_dist(p, d, sp, m, &acts, keys);
	struct tc_rc_ctx *table;
	uint32_t nctx;
	double scale_bin[TC_RC_SCALE_BINS];
	out->rcctx = rc_dkeys_finish(keys, d, &acts, &table, &nctx, scale_bin);
	struct rc_dexcess dx;
	out->rcexcess = rc_excess_dist(p, d, sp, m, &acts, table, nctx, scale_bin, bound, &out->rc_need, &dx);
	free(table);
	if (out->rc_need > bound) {
		rc_dacts_free(&acts);
		return;
	}
	out->rcdelay = rc_delay_dist(p, d, &acts, &dx, &out->ex);
	out->cpath = rc_cpath_dist(p, d, sp, m->rank_first, &acts, dx.excess);
	rc_dexcess_free(&dx);
	rc_dacts_free(&acts);
	if (out->rcexcess) out->rc = results_of(out->rcexcess, out->rcdelay, out->cpath);
}

void tc_replay_run(const struct tc_part *p, const struct tc_dist *d, size_t longest, struct tc_replay *out)
{
	*out = (struct tc_replay){ 0 };
	out->profile = tc_profile_dist(p, d);
	tc_profile_tables_dist(p, d, &out->per_loc, &out->per_rank);
	struct replay_msgx m;
	replay_msgx_get(p, d, &m);
	out->waitstates = replay_waitstates(p, d, longest, &m, NULL, NULL);
	struct tc_span *sp = tc_span_dist(p, d, false);
	replay_rootcause(p, d, sp, &m, UINT64_MAX, out);
	replay_msgx_free(&m);
	tc_span_free(sp);
}

void tc_replay_for_cache(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp, uint64_t rc_bound,
			 struct tc_replay *out)
{
	*out = (struct tc_replay){ 0 };
	out->profile = tc_profile_dist(p, d);
	tc_profile_tables_dist(p, d, &out->per_loc, &out->per_rank);
	struct replay_msgx m;
	replay_msgx_get(p, d, &m);
	out->waitstates = replay_waitstates(p, d, TC_REPLAY_LONGEST, &m, &out->mine, &out->nmine);
	if (rc_bound) {
		replay_rootcause(p, d, sp, &m, rc_bound, out);
		tc_rcwait_free(out->rcwait), tc_rcctx_free(out->rcctx), tc_rcexcess_free(out->rcexcess);
		tc_rcdelay_free(out->rcdelay), tc_cpath_free(out->cpath);
		out->rcwait = NULL, out->rcctx = NULL, out->rcexcess = NULL, out->rcdelay = NULL, out->cpath = NULL;
	}
	replay_msgx_free(&m);
	out->mine_first = out->nmine;
	d->exscan(d->ctx, &out->mine_first, 1, TC_DIST_SUM);
}

void tc_replay_ex_whole(struct tc_replay *r, const struct tc_dist *d)
{
	struct tc_rc_exslice *e = &r->ex;
	size_t n[4];
	uint32_t *act = replay_gather0(d, e->act, e->n, sizeof *e->act, &n[0]);
	float *excess = replay_gather0(d, e->excess, e->n, sizeof *e->excess, &n[1]);
	float *delay = replay_gather0(d, e->delay, e->n, sizeof *e->delay, &n[2]);
	uint8_t *outlier = replay_gather0(d, e->outlier, e->n, 1, &n[3]);
	free(e->act), free(e->excess), free(e->delay), free(e->outlier);   /* taken */
	*e = (struct tc_rc_exslice){ 0 };
	if (!r->rc) {
		free(act), free(excess), free(delay), free(outlier);
		return;
	}
	free(r->rc->ex_act), free(r->rc->ex_excess), free(r->rc->ex_delay), free(r->rc->ex_outlier);
	r->rc->ex_act = act, r->rc->ex_excess = excess, r->rc->ex_delay = delay, r->rc->ex_outlier = outlier;
	r->rc->nexcess = n[0];
}
