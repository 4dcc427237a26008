/* waitstates.c — the "waitstates" report section and its session getter. */
#include <stdlib.h>
#include <string.h>

#include "analysis_waitstate.h"
#include "report.h"

const struct tc_waitstates *session_waitstates(struct tc_session *s)
{
	if (!s->waitstates) s->waitstates = tc_waitstates_compute(s->t);
	return s->waitstates;
}

/* The n largest positive values' indices (report_top_positive) into out[n]. */
static size_t top_n(const double *v, size_t len, uint32_t *out, size_t n)
{
	uint32_t *idx;
	size_t total, k = report_top_positive(v, len, n, &idx, &total);
	memcpy(out, idx, k * sizeof *out);
	free(idx);
	return k;
}

/* One ranked list of JSON objects {idkey: index, valkey: value}, cut at --limit
 * (default def), with its _total and _truncated. */
static void ranked_json(struct tc_session *s, struct json *j, const char *key, const double *v, size_t len,
			const char *idkey, const char *valkey, size_t def)
{
	uint32_t *idx;
	size_t total, n = report_top_positive(v, len, report_limit(s, len, def), &idx, &total);
	json_key(j, key);
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		json_obj_begin(j);
		json_kuint(j, idkey, idx[i]);
		json_knum(j, valkey, v[idx[i]]);
		json_obj_end(j);
	}
	json_arr_end(j);
	report_list_cut_json(j, key, total, n);
	free(idx);
}

static double wait_sum(const struct tc_waitstates *w)
{
	double s = 0;
	for (int k = 0; k < TC_WS_COUNT; k++) s += w->total[k];
	return s;
}

void report_waitstates_text(struct tc_session *s, FILE *f)
{
	const struct tc_waitstates *w = session_waitstates(s);
	const struct tc_trace *t = s->t;
	char b1[32], b2[32];
	fmt_seconds(b1, sizeof b1, w->mpi_time);
	fmt_seconds(b2, sizeof b2, wait_sum(w));
	fprintf(f, "time in MPI %s, of which waiting %s (%.1f%%)\n", b1, b2,
		w->mpi_time > 0 ? 100.0 * wait_sum(w) / w->mpi_time : 0.0);
	for (int k = 0; k < TC_WS_COUNT; k++) {
		if (w->total[k] <= 0) continue;
		fmt_seconds(b1, sizeof b1, w->total[k]);
		fprintf(f, "  %-20s %10s  %5.1f%% of MPI  %s\n", tc_ws_names[k], b1,
			w->mpi_time > 0 ? 100.0 * w->total[k] / w->mpi_time : 0.0, tc_ws_advice[k]);
	}
	uint32_t top[10];
	size_t n = top_n(w->caused, t->nranks, top, 10);
	if (n) fprintf(f, "ranks that made others wait (short-term delay cost):\n");
	for (size_t i = 0; i < n; i++) {
		fmt_seconds(b1, sizeof b1, w->caused[top[i]]);
		fprintf(f, "  rank %-6u %10s  (node %s)\n", top[i], b1, t->nodes[t->ranks[top[i]].node].name);
	}
	n = top_n(w->waited, t->nranks, top, 10);
	if (n) fprintf(f, "ranks that waited most:\n");
	for (size_t i = 0; i < n; i++) {
		fmt_seconds(b1, sizeof b1, w->waited[top[i]]);
		fprintf(f, "  rank %-6u %10s\n", top[i], b1);
	}
	if (w->clamped) fprintf(f, "%llu waits clipped by clock-condition violations\n", (unsigned long long)w->clamped);
}

void report_waitstates_json(struct tc_session *s, struct json *j)
{
	const struct tc_waitstates *w = session_waitstates(s);
	const struct tc_trace *t = s->t;
	json_obj_begin(j);
	json_knum(j, "mpi_time_s", w->mpi_time);
	json_knum(j, "run_time_s", w->run_time);
	json_knum(j, "waiting_s", wait_sum(w));
	json_key(j, "total_s");
	json_obj_begin(j);
	for (int k = 0; k < TC_WS_COUNT; k++) json_knum(j, tc_ws_names[k], w->total[k]);
	json_obj_end(j);
	ranked_json(s, j, "causes", w->caused, t->nranks, "rank", "caused_s", 20);
	ranked_json(s, j, "waiters", w->waited, t->nranks, "rank", "waited_s", 20);
	/* the 20 longest single waits */
	double *sec = xmalloc((w->n ? w->n : 1) * sizeof *sec);
	for (size_t i = 0; i < w->n; i++) sec[i] = w->w[i].seconds;
	uint32_t *top;
	size_t all = tc_ws_count(w);   /* every wait is positive: all of them count */
	size_t total, n = report_top_positive(sec, w->n, report_limit(s, all, 20), &top, &total);
	if (w->at) total = all;
	json_key(j, "longest");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct tc_wait *x = &w->w[top[i]];
		const struct tc_call *c = w->at ? NULL : &t->ranks[x->rank].calls[x->call];
		json_obj_begin(j);
		json_kstr(j, "kind", tc_ws_names[x->kind]);
		json_kuint(j, "rank", x->rank);
		json_kstr(j, "region", tc_region_name(t, c ? c->region : w->at[top[i]].region));
		report_time_json(j, "enter_s", "enter_ticks", t, c ? c->enter : w->at[top[i]].enter);
		json_knum(j, "wait_s", x->seconds);
		json_key(j, "cause");
		if (x->cause == TC_NONE) json_null(j);
		else json_uint(j, x->cause);
		json_obj_end(j);
	}
	json_arr_end(j);
	report_list_cut_json(j, "longest", total, n);
	free(top);
	free(sec);
	json_kuint(j, "clock_clipped", w->clamped);
	json_obj_end(j);
}
