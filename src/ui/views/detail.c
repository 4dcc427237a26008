/* detail.c — the detail pane for the event under the cursor (Enter): rank,
 * node, step, partition, region, enter/exit, duration, the four metric
 * values (event and aggregate), its messages with partner rank, tag, bytes
 * and transfer time, its collective, and the call stack at the cursor time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

struct line { enum tc_role role; char *s; };
typedef VEC(struct line) lines_t;

static void add(lines_t *L, enum tc_role role, const char *fmt, ...) TC_PRINTF(3, 4);
static void add(lines_t *L, enum tc_role role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct line l = { role, xvasprintf(fmt, ap) };
	va_end(ap);
	VEC_PUSH(*L, l);
}

static const char *secs(char *buf, size_t n, double s)
{
	fmt_seconds(buf, n, s);
	return buf;
}

/* a point in time: microseconds shown, so enter and exit of a short call differ */
static const char *at(char *buf, size_t n, double s)
{
	fmt_time(buf, n, s);
	return buf;
}

static void event_lines(struct tc_app *a, lines_t *L, uint32_t ce)
{
	const struct tc_trace *t = a->t;
	const struct tc_steps *st = a->st;
	const struct tc_cev *e = &st->cevs[ce];
	char b1[32], b2[32], b3[32];
	if (e->op >= t->ranks[e->rank].nops) return;
	const struct tc_op *op0 = &t->ranks[e->rank].ops[e->op];
	const struct tc_call *call = &t->ranks[e->rank].calls[op0->call];
	add(L, TC_R_HEADING, "Event");
	add(L, TC_R_NORMAL, "  region     %s%s", tc_region_name(t, call->region), e->nops > 1 ? " (coalesced)" : "");
	add(L, TC_R_NORMAL, "  step       %u (aggregate block: step %lld)   partition %u", e->step, (long long)e->step - 1,
	    e->partition);
	add(L, TC_R_NORMAL, "  kind       %s%s%s", (e->flags & TC_CEV_SEND) ? "send " : "",
	    (e->flags & TC_CEV_RECV) ? "receive " : "", (e->flags & TC_CEV_COLL) ? "collective" : "");
	uint64_t enter = tc_cev_enter(st, ce), leave = tc_cev_leave(st, ce), agg_start = tc_cev_agg_start(st, ce);
	add(L, TC_R_NORMAL, "  enter      %s   exit %s   duration %s", at(b1, 32, tc_sec(t, enter)),
	    at(b2, 32, tc_sec(t, leave)), secs(b3, 32, tc_dur(t, leave - enter)));
	add(L, TC_R_NORMAL, "  aggregate  from %s, %s before the event", at(b1, 32, tc_sec(t, agg_start)),
	    secs(b2, 32, tc_dur(t, enter - agg_start)));
	add(L, TC_R_HEADING, "Metrics                event        aggregate");
	for (int m = 0; m < TC_M_COUNT; m++)
		add(L, m == (int)a->metric ? TC_R_HELP_KEY : TC_R_NORMAL, "  %-18s %-12s %s", app_metric_label((enum tc_metric)m),
		    secs(b1, 32, tc_cev_metric(st, ce, (enum tc_metric)m, false)),
		    secs(b2, 32, tc_cev_metric(st, ce, (enum tc_metric)m, true)));
	bool head = false;
	for (uint32_t k = 0; k < e->nops && e->op + k < t->ranks[e->rank].nops; k++) {
		const struct tc_op *op = &t->ranks[e->rank].ops[e->op + k];
		const uint32_t *sm = tc_op_sends(t, e->rank, op), *rm = tc_op_recvs(t, e->rank, op);
		for (uint32_t dir = 0; dir < 2; dir++) {
			uint32_t n = dir ? op->nrecv : op->nsend;
			for (uint32_t i = 0; i < n; i++) {
				if (!head) { add(L, TC_R_HEADING, "Messages"); head = true; }
				const struct tc_msg *m = &t->msgs[dir ? rm[i] : sm[i]];
				fmt_bytes(b1, sizeof b1, m->bytes);
				uint32_t pc = dir ? st->msg_send_cev[rm[i]] : st->msg_recv_cev[sm[i]];
				add(L, TC_R_NORMAL, "  %s rank %-5u tag %-5u %-10s transfer %s", dir ? "from" : "to  ",
				    dir ? m->src : m->dst, m->tag, b1,
				    secs(b2, 32, m->recv_time >= m->send_time ? tc_dur(t, m->recv_time - m->send_time)
									       : -tc_dur(t, m->send_time - m->recv_time)));
				if (pc != TC_NONE)
					add(L, TC_R_LABEL, "       partner event at step %u (%s)", st->cevs[pc].step,
					    at(b3, 32, tc_sec(t, tc_cev_enter(st, pc))));
			}
		}
		if (op->coll != TC_NONE && op->coll < t->ncolls) {
			const struct tc_coll *co = &t->colls[op->coll];
			add(L, TC_R_HEADING, "Collective");
			char root[24] = "none";
			if (co->root != TC_NONE) snprintf(root, sizeof root, "rank %u", co->root);
			add(L, TC_R_NORMAL, "  %s  root %s  %u members  span %s", tc_coll_op_name(co->op), root, co->n,
			    secs(b1, 32, tc_dur(t, co->end - co->begin)));
		}
	}
}

static void build(struct tc_app *a, lines_t *L)
{
	const struct tc_trace *t = a->t;
	char b1[32], b2[32], b3[32];
	const struct tc_rank *R = &t->ranks[a->rank];
	add(L, TC_R_HEADING, "Rank %u on node %s   step %lld   time %s", a->rank,
	    R->node < t->nnodes ? t->nodes[R->node].name : "?", (long long)a->step, at(b1, 32, tc_sec(t, a->time)));
	char cl[256];
	counter_line(a, cl, sizeof cl);   /* the counter picked in the physical view (#) */
	if (cl[0]) add(L, TC_R_NORMAL, "Counter %s", cl);
	uint32_t ce = app_cursor_cev(a);
	if (ce != TC_NONE && !(a->step & 1) && a->step >= 0) {
		event_lines(a, L, ce);
	} else if (ce != TC_NONE) {
		const struct tc_cev *e = &a->st->cevs[ce];
		add(L, TC_R_HEADING, "Aggregate block (non-communication time before step %u)", e->step);
		uint64_t enter = tc_cev_enter(a->st, ce), agg_start = tc_cev_agg_start(a->st, ce);
		add(L, TC_R_NORMAL, "  from %s to %s (%s)", at(b1, 32, tc_sec(t, agg_start)),
		    at(b2, 32, tc_sec(t, enter)), secs(b3, 32, tc_dur(t, enter - agg_start)));
		for (int m = 0; m < TC_M_COUNT; m++)
			add(L, m == (int)a->metric ? TC_R_HELP_KEY : TC_R_NORMAL, "  %-18s %s", app_metric_label((enum tc_metric)m),
			    secs(b1, 32, tc_cev_metric(a->st, ce, (enum tc_metric)m, true)));
		add(L, TC_R_LABEL, "  (Enter on the event at step %u for its messages)", e->step);
	} else {
		add(L, TC_R_LABEL, "No communication event of rank %u at step %lld.", a->rank, (long long)a->step);
	}
	/* the call stack of the physical view's thread or stream row, else of the rank's master */
	uint32_t loc = physical_cursor_loc(a);
	const struct tc_call *calls = R->calls;
	uint32_t c = tc_call_at(t, a->rank, a->time);
	if (loc != TC_NONE) {
		const struct tc_loc *Lc = &t->locs[loc];
		calls = Lc->calls;
		c = tc_loc_call_at(Lc, a->time);
		add(L, TC_R_HEADING, "Location %s of rank %u (%s %u)", Lc->name, a->rank,
		    Lc->type == TC_LOC_GPU ? "accelerator stream, thread number" : "CPU thread", Lc->thread);
	}
	if (c != TC_NONE) {
		add(L, TC_R_HEADING, "Call stack at %s", at(b1, 32, tc_sec(t, a->time)));
		for (int n = 0; c != TC_NONE && n < 64; c = calls[c].parent, n++) {
			const struct tc_call *cc = &calls[c];
			add(L, TC_R_NORMAL, "  %*s%s  %s", (int)TC_MIN(cc->depth, 20) * 2, "", tc_region_name(t, cc->region),
			    secs(b2, 32, tc_dur(t, cc->leave - cc->enter)));
		}
	}
}

static void draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	lines_t L = { 0 };
	build(a, &L);
	if (a->detail_scroll + (uint32_t)r.h > L.n) a->detail_scroll = L.n > (size_t)r.h ? (uint32_t)(L.n - (size_t)r.h) : 0;
	for (int y = 0; y < r.h && a->detail_scroll + (size_t)y < L.n; y++) {
		struct line *l = &L.a[a->detail_scroll + (size_t)y];
		grid_text(g, r.x, r.y + y, r.w, l->role, l->s);
	}
	for (size_t i = 0; i < L.n; i++) free(L.a[i].s);
	VEC_FREE(L);
}

static bool key(struct tc_app *a, int k, enum tc_action act)
{
	return app_scroll(&a->detail_scroll, act);
}

static const char *const help[] = {
	"Everything about the event under the cursor. Esc or q goes back.",
	NULL,
};

const struct view view_detail = {
	.name = "detail", .id = TC_V_DETAIL, .min_w = 20, .min_h = 2, .draw = draw, .key = key, .help = help,
};
