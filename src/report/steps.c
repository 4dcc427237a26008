/* steps.c — the "steps" section (logical structure and lateness hot spots)
 * and the session getter of the steps analysis.  Options, as --opt KEY=on|off:
 * coalesce_isends, waitall_merge, caller_merge, leap_merge, lamport. */
#include <stdlib.h>
#include <string.h>

#include "analysis_steps.h"
#include "analysis_origins.h"
#include "report.h"

static const char *const opt_names[] = { "coalesce_isends", "waitall_merge", "caller_merge", "leap_merge", "lamport" };

static bool *opt_field(struct tc_steps_opts *o, size_t k)
{
	bool *f[] = { &o->coalesce_isends, &o->waitall_merge, &o->caller_merge, &o->leap_merge, &o->lamport };
	return f[k];
}

void session_steps_opts(const struct tc_session *s, struct tc_steps_opts *o)
{
	tc_steps_default_opts(o);
	for (size_t k = 0; k < TC_NELEM(opt_names); k++)
		*opt_field(o, k) = session_opt_bool(s, opt_names[k], *opt_field(o, k));
}

const struct tc_steps *session_steps(struct tc_session *s)
{
	if (!s->steps) {
		struct tc_steps_opts o;
		session_steps_opts(s, &o);
		s->steps = tc_steps_compute(s->t, &o);
	}
	return s->steps;
}

#define TOP_N 20

static const char *cev_kind(const struct tc_cev *e)
{
	if (e->flags & TC_CEV_COLL) return "collective";
	if ((e->flags & TC_CEV_SEND) && (e->flags & TC_CEV_RECV)) return "send+recv";
	return (e->flags & TC_CEV_SEND) ? "send" : "recv";
}

static const char *cev_region(const struct tc_steps *st, const struct tc_cev *e)
{
	const struct tc_rank *R = &st->t->ranks[e->rank];
	return tc_region_name(st->t, R->calls[R->ops[e->op].call].region);
}

/* One block: a communication event, or (aggregate) the computation before it,
 * which sits on the step before; region names the event either way. */
static void json_block_fields(struct json *j, const struct tc_steps *st, struct tc_block b)
{
	const struct tc_trace *t = st->t;
	const struct tc_cev *e = &st->cevs[b.cev];
	json_kuint(j, "rank", e->rank);
	char sl[24];
	json_kint(j, "step", (int64_t)e->step - (b.agg ? 1 : 0));
	json_kstr(j, "step_label", tc_step_label((int64_t)e->step - (b.agg ? 1 : 0), sl, sizeof sl));
	json_kuint(j, "partition", e->partition);
	json_kstr(j, "region", cev_region(st, e));
	json_kbool(j, "aggregate", b.agg);
	json_kstr(j, "kind", cev_kind(e));
	json_kuint(j, "calls", e->nops);
	report_time_json(j, "enter_s", "enter_ticks", t, b.agg ? tc_cev_agg_start(st, b.cev) : tc_cev_enter(st, b.cev));
	report_time_json(j, "exit_s", "exit_ticks", t, b.agg ? tc_cev_enter(st, b.cev) : tc_cev_leave(st, b.cev));
	for (int m = 0; m < TC_M_COUNT; m++) {
		char key[40];
		snprintf(key, sizeof key, "%s_s", tc_metric_names[m]);
		json_knum(j, key, tc_cev_metric(st, b.cev, (enum tc_metric)m, b.agg));
	}
}

static void json_block(struct json *j, const struct tc_steps *st, struct tc_block b)
{
	json_obj_begin(j);
	json_block_fields(j, st, b);
	json_obj_end(j);
}

/* An origin: its logical block's fields, then the root cause's own times
 * (enter_s / exit_s of the activity replace the block's), excess and delay cost. */
static void json_origin(struct json *j, const struct tc_steps *st, const struct tc_rootcause *rc,
			const struct tc_origin *o)
{
	const struct tc_trace *t = st->t;
	const struct tc_act act = tc_rc_act(rc, o->rc.rank, o->rc.act), *a = &act;
	json_obj_begin(j);
	if (o->have_block) {
		json_block_fields(j, st, o->block);
	} else {
		json_kuint(j, "rank", o->rc.rank);
		json_key(j, "step");
		json_null(j);
		json_key(j, "partition");
		json_null(j);
	}
	report_time_json(j, "enter_s", "enter_ticks", t, a->start);
	report_time_json(j, "exit_s", "exit_ticks", t, a->end);
	json_kstr(j, "activity", a->kind == TC_ACT_COMPUTE ? "compute" : "mpi_own");
	json_knum(j, "excess_s", o->rc.excess);
	json_knum(j, "delay_cost_s", o->rc.delay_cost);
	json_knum(j, "path_excess_s", o->rc.on_path);
	json_obj_end(j);
}

#define MAX_LISTED_PARTS 1000
#define MAX_SHAPES 8

/* Phase shapes: partitions grouped by (events, ranks, steps spanned), most
 * frequent first — a regular code shows one shape per kind of iteration. */
struct shape { uint32_t ncevs, nranks, nsteps, count, first; };

static int shape_key_cmp(const void *a, const void *b)
{
	const struct shape *x = a, *y = b;
	if (x->ncevs != y->ncevs) return x->ncevs < y->ncevs ? -1 : 1;
	if (x->nranks != y->nranks) return x->nranks < y->nranks ? -1 : 1;
	if (x->nsteps != y->nsteps) return x->nsteps < y->nsteps ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int shape_count_cmp(const void *a, const void *b)
{
	const struct shape *x = a, *y = b;
	if (x->count != y->count) return x->count > y->count ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* Fills out[] (at most max); returns the number of distinct shapes. */
static size_t phase_shapes(const struct tc_steps *st, size_t max, struct shape *out, size_t *nout)
{
	uint32_t np = st->npartitions;
	struct shape *a = xmalloc(((size_t)np + 1) * sizeof *a);
	for (uint32_t p = 0; p < np; p++) {
		const struct tc_partition *P = &st->parts[p];
		a[p] = (struct shape){ P->ncevs, P->nranks, (P->last_step - P->first_step) / 2 + 1, 1, p };
	}
	qsort(a, np, sizeof *a, shape_key_cmp);
	size_t n = 0;
	for (uint32_t p = 0; p < np; p++) {
		if (n && a[n - 1].ncevs == a[p].ncevs && a[n - 1].nranks == a[p].nranks && a[n - 1].nsteps == a[p].nsteps)
			a[n - 1].count++;
		else a[n++] = a[p];
	}
	qsort(a, n, sizeof *a, shape_count_cmp);
	*nout = TC_MIN(n, max);
	memcpy(out, a, *nout * sizeof *a);
	free(a);
	return n;
}

/* Options, counts, events by kind, lateness totals. */
static void steps_summary_json(const struct tc_steps *st, struct json *j)
{
	json_key(j, "options");
	json_obj_begin(j);
	struct tc_steps_opts o = st->opts;
	for (size_t k = 0; k < TC_NELEM(opt_names); k++) json_kbool(j, opt_names[k], *opt_field(&o, k));
	json_obj_end(j);
	json_kuint(j, "partitions", st->npartitions);
	json_kuint(j, "max_step", st->max_step);
	json_kuint(j, "events", st->ncevs);
	uint64_t kinds[4] = { 0 };
	for (size_t i = 0; i < st->ncevs; i++) {
		uint32_t f = st->cevs[i].flags;
		kinds[(f & TC_CEV_COLL) ? 3 : (f & TC_CEV_SEND) && (f & TC_CEV_RECV) ? 2 : (f & TC_CEV_SEND) ? 0 : 1]++;
	}
	json_key(j, "events_by_kind");
	json_obj_begin(j);
	json_kuint(j, "send", kinds[0]);
	json_kuint(j, "recv", kinds[1]);
	json_kuint(j, "send_recv", kinds[2]);
	json_kuint(j, "collective", kinds[3]);
	json_obj_end(j);
	double lsum = 0, dsum = 0;
	for (size_t g = 0; g <= st->max_step && st->steps; g++) {
		lsum += st->steps[g].lateness_sum;
		dsum += st->steps[g].dlateness_sum;
	}
	json_knum(j, "lateness_total_s", lsum);
	json_knum(j, "diff_lateness_total_s", dsum);
}

/* The phases (at most the report's limit) and their distinct shapes. */
static void steps_phases_json(struct tc_session *s, const struct tc_steps *st, struct json *j)
{
	const struct tc_trace *t = s->t;
	json_key(j, "partition_list");
	json_arr_begin(j);
	size_t nparts = report_limit(s, st->npartitions, MAX_LISTED_PARTS);
	for (uint32_t p = 0; p < nparts; p++) {
		const struct tc_partition *P = &st->parts[p];
		json_obj_begin(j);
		json_kuint(j, "first_step", P->first_step);
		json_kuint(j, "last_step", P->last_step);
		json_kuint(j, "events", P->ncevs);
		json_kuint(j, "ranks", P->nranks);
		json_kuint(j, "leap", P->leap);
		report_time_json(j, "enter_s", "enter_ticks", t, P->enter);
		report_time_json(j, "exit_s", "exit_ticks", t, P->leave);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_kbool(j, "partition_list_truncated", nparts < st->npartitions);
	json_kuint(j, "partition_list_total", st->npartitions);
	size_t nsh, max_sh = report_limit(s, st->npartitions, MAX_SHAPES);
	struct shape *sh = xmalloc((max_sh ? max_sh : 1) * sizeof *sh);
	size_t nshapes = phase_shapes(st, max_sh, sh, &nsh);
	json_kuint(j, "phase_shapes_distinct", nshapes);
	json_key(j, "phase_shapes");
	json_arr_begin(j);
	for (size_t k = 0; k < nsh; k++) {
		json_obj_begin(j);
		json_kuint(j, "count", sh[k].count);
		json_kuint(j, "events", sh[k].ncevs);
		json_kuint(j, "ranks", sh[k].nranks);
		json_kuint(j, "steps", sh[k].nsteps);
		json_kuint(j, "first_partition", sh[k].first);
		json_obj_end(j);
	}
	json_arr_end(j);
	report_list_cut_json(j, "phase_shapes", nshapes, nsh);
	free(sh);
}

void report_steps_json(struct tc_session *s, struct json *j)
{
	const struct tc_steps *st = session_steps(s);
	json_obj_begin(j);
	steps_summary_json(st, j);
	steps_phases_json(s, st, j);
	/* hot spots: the latest blocks (Ravel's lateness, a view metric).  Both rank
	 * events and the computation blocks before them ("aggregate"): a delay in
	 * computation shows on the block, not on an MPI call */
	struct tc_block top[TOP_N];
	size_t nt = tc_steps_top(st, TC_M_LATENESS, true, TOP_N, top);
	json_key(j, "hotspots");
	json_arr_begin(j);
	for (size_t i = 0; i < nt; i++) json_block(j, st, top[i]);
	json_arr_end(j);
	/* origins: the root causes (critical path, delay costs), at their steps */
	const struct tc_rootcause *rc = session_rootcause(s);
	struct tc_origin og[TOP_N];
	size_t no = tc_origins(rc, st, TOP_N, og);
	json_key(j, "origins");
	json_arr_begin(j);
	for (size_t i = 0; i < no; i++) json_origin(j, st, rc, &og[i]);
	json_arr_end(j);
	json_obj_end(j);
}

static void text_blocks(FILE *f, const struct tc_steps *st, const char *title, enum tc_metric m, bool aggs)
{
	struct tc_block top[10];
	size_t nt = tc_steps_top(st, m, aggs, 10, top);
	if (!nt) {
		fprintf(f, "%s: none\n", title);
		return;
	}
	fprintf(f, "%s:\n  %6s %7s %5s  %-20s %10s %10s %10s\n", title, "rank", "step", "part", "block", "end",
		"lateness", "diff");
	for (size_t i = 0; i < nt; i++) {
		uint32_t c = top[i].cev;
		const struct tc_cev *e = &st->cevs[c];
		bool agg = top[i].agg;
		char x[32], l[32], d[32], name[64];
		fmt_seconds(x, sizeof x, tc_sec(st->t, agg ? tc_cev_enter(st, c) : tc_cev_leave(st, c)));
		fmt_seconds(l, sizeof l, tc_cev_metric(st, c, TC_M_LATENESS, agg));
		fmt_seconds(d, sizeof d, tc_cev_metric(st, c, TC_M_DLATENESS, agg));
		snprintf(name, sizeof name, "%s%.16s", agg ? "before " : "", cev_region(st, e));
		char sl[24];
		fprintf(f, "  %6u %7s %5u  %-20s %10s %10s %10s\n", e->rank,
			tc_step_label((int64_t)e->step - (agg ? 1 : 0), sl, sizeof sl), e->partition, name, x, l, d);
	}
}

static void text_origins(FILE *f, struct tc_session *s)
{
	const struct tc_steps *st = session_steps(s);
	const struct tc_rootcause *rc = session_rootcause(s);
	struct tc_origin og[10];
	size_t n = tc_origins(rc, st, 10, og);
	if (!n) {
		fprintf(f, "origins (root causes): none\n");
		return;
	}
	fprintf(f, "origins (root causes: excess ranked by delay cost and critical path):\n  %6s %7s %5s  %-20s %10s %10s %10s\n",
		"rank", "step", "part", "activity", "start", "excess", "cost");
	for (size_t i = 0; i < n; i++) {
		const struct tc_act act = tc_rc_act(rc, og[i].rc.rank, og[i].rc.act), *a = &act;
		char x[32], e[32], c[32], name[64], stp[16] = "-", prt[16] = "-";
		fmt_seconds(x, sizeof x, tc_sec(s->t, a->start));
		fmt_seconds(e, sizeof e, og[i].rc.excess);
		fmt_seconds(c, sizeof c, og[i].rc.delay_cost);
		if (og[i].have_block) {
			const struct tc_cev *ev = &st->cevs[og[i].block.cev];
			tc_step_label((int64_t)ev->step - (og[i].block.agg ? 1 : 0), stp, sizeof stp);
			snprintf(prt, sizeof prt, "%u", ev->partition);
		}
		if (a->kind == TC_ACT_COMPUTE) snprintf(name, sizeof name, "compute");
		else snprintf(name, sizeof name, "in %.17s", tc_region_name(s->t, s->t->ranks[og[i].rc.rank].calls[a->call].region));
		fprintf(f, "  %6u %7s %5s  %-20s %10s %10s %10s\n", og[i].rc.rank, stp, prt, name, x, e, c);
	}
}

void report_steps_text(struct tc_session *s, FILE *f)
{
	const struct tc_steps *st = session_steps(s);
	struct tc_steps_opts o = st->opts;
	fprintf(f, "events      %zu communication events on %u ranks\n", st->ncevs, s->t->nranks);
	fprintf(f, "partitions  %u, global steps 0-%u\n", st->npartitions, st->max_step);
	fprintf(f, "options    ");
	for (size_t k = 0; k < TC_NELEM(opt_names); k++)
		fprintf(f, " %s=%s", opt_names[k], *opt_field(&o, k) ? "on" : "off");
	fputc('\n', f);
	uint32_t shown = TC_MIN(st->npartitions, 8);
	if (shown) fprintf(f, "  %5s %15s %8s %6s  %s\n", "part", "steps", "events", "ranks", "time");
	for (uint32_t p = 0; p < shown; p++) {
		const struct tc_partition *P = &st->parts[p];
		char a[32], z[32], sp[32];
		fmt_seconds(a, sizeof a, tc_sec(s->t, P->enter));
		fmt_seconds(z, sizeof z, tc_sec(s->t, P->leave));
		snprintf(sp, sizeof sp, "%u-%u", P->first_step, P->last_step);
		fprintf(f, "  %5u %15s %8u %6u  %s - %s\n", p, sp, P->ncevs, P->nranks, a, z);
	}
	if (st->npartitions > shown) fprintf(f, "  ... %u more partitions\n", st->npartitions - shown);
	struct shape sh[MAX_SHAPES];
	size_t nsh, distinct = phase_shapes(st, MAX_SHAPES, sh, &nsh);
	if (distinct) fprintf(f, "phase shapes (%zu distinct):\n  %8s %8s %6s %6s  %s\n", distinct, "count", "events", "ranks",
			      "steps", "first");
	for (size_t k = 0; k < nsh; k++)
		fprintf(f, "  %8u %8u %6u %6u  %u\n", sh[k].count, sh[k].ncevs, sh[k].nranks, sh[k].nsteps, sh[k].first);
	if (distinct > nsh) fprintf(f, "  ... %zu more shapes\n", distinct - nsh);
	text_blocks(f, st, "hot spots (lateness of MPI calls and of the computation before them)", TC_M_LATENESS, true);
	text_origins(f, s);
}
