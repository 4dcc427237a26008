/* critpath.c — the "critical_path" report section and the session getter of
 * the root-cause analysis (analysis_rootcause.h, docs/rootcause.md). */
#include <stdlib.h>

#include "analysis_rootcause.h"
#include "analysis_span.h"
#include "report.h"

#define CP_TEXT_SEGMENTS 20
#define CP_JSON_SEGMENTS 2000

const struct tc_rootcause *session_rootcause(struct tc_session *s)
{
	if (!s->rootcause) {
		struct tc_rc_opts o;
		tc_rc_default_opts(&o);
		o.mad_k = session_opt_num(s, "rc_mad_k", o.mad_k);
		o.median_frac = session_opt_num(s, "rc_median_frac", o.median_frac);
		o.floor_min = session_opt_num(s, "rc_floor_s", o.floor_min);
		/* stored (a cache): the activities made again, the rest put in; one
		 * that does not fit them is dropped and the rest computed */
		if (s->rc_stored) s->rootcause = tc_rootcause_from(s->t, session_span(s), &o, s->rc_stored);
		if (!s->rootcause) {
			tc_rc_results_free(s->rc_stored);
			s->rc_stored = NULL;
			s->rootcause = tc_rootcause_compute(s->t, session_span(s), &o);
		}
	}
	return s->rootcause;
}

void session_release_rootcause(struct tc_session *s)
{
	tc_rootcause_free(s->rootcause);
	s->rootcause = NULL;
}

static const char *act_region(const struct tc_trace *t, const struct tc_rootcause *rc, uint32_t rank, uint32_t i)
{
	if (tc_rc_act_kind(rc, i) == TC_ACT_COMPUTE) return "compute";
	uint32_t call = tc_rc_act_call(rc, rank, i);
	return call == TC_NONE ? "?" : tc_region_name(t, t->ranks[rank].calls[call].region);
}

/* The longest pieces first would hide the order; the path is listed in time
 * order, limited to the pieces with the most excess when it is long. */
static size_t pick(const struct tc_rootcause *rc, size_t limit, uint32_t **out)
{
	uint32_t *idx = xmalloc((rc->npath ? rc->npath : 1) * sizeof *idx);
	for (size_t i = 0; i < rc->npath; i++) idx[i] = (uint32_t)i;
	*out = idx;
	if (rc->npath <= limit) return rc->npath;
	/* keep the `limit` pieces with the largest excess (then length), in time order */
	double *key = xmalloc(rc->npath * sizeof *key);
	for (size_t i = 0; i < rc->npath; i++)
		key[i] = rc->path[i].excess * 1e6 + (double)(rc->path[i].end - rc->path[i].start) * 1e-12;
	double *tmp = xmalloc(rc->npath * sizeof *tmp);
	for (size_t i = 0; i < rc->npath; i++) tmp[i] = -key[i];
	double cut = -tc_kth(tmp, rc->npath, limit - 1);
	size_t n = 0;
	for (size_t i = 0; i < rc->npath && n < limit; i++)
		if (key[i] > cut) idx[n++] = (uint32_t)i;
	for (size_t i = 0; i < rc->npath && n < limit; i++)
		if (key[i] == cut) idx[n++] = (uint32_t)i;
	/* back to time order */
	qsort(idx, n, sizeof *idx, tc_cmp_u32);
	free(tmp);
	free(key);
	return n;
}

void report_critpath_json(struct tc_session *s, struct json *j)
{
	const struct tc_rootcause *rc = session_rootcause(s);
	const struct tc_trace *t = s->t;
	json_obj_begin(j);
	json_knum(j, "length_s", rc->path_len);
	json_knum(j, "span_s", tc_dur(t, rc->t1 - rc->t0));
	json_kuint(j, "end_rank", rc->path_end_rank == TC_NONE ? 0 : rc->path_end_rank);
	json_key(j, "shares");
	json_obj_begin(j);
	for (int k = 0; k < TC_CP_NKINDS; k++) json_knum(j, tc_cp_kind_names[k], rc->share[k]);
	json_obj_end(j);
	uint32_t limit = (uint32_t)session_opt_num(s, "cp_max_segments", CP_JSON_SEGMENTS);
	uint32_t *idx;
	size_t n = pick(rc, limit, &idx);
	json_kuint(j, "segments_total", rc->npath);
	json_kbool(j, "segments_truncated", n < rc->npath);
	json_key(j, "segments");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct tc_cp_piece *p = &rc->path[idx[i]];
		json_obj_begin(j);
		json_kuint(j, "rank", p->rank);
		report_time_json(j, "start_s", "start_ticks", t, p->start);
		report_time_json(j, "end_s", "end_ticks", t, p->end);
		json_kstr(j, "kind", tc_cp_kind_names[p->kind]);
		json_kstr(j, "region", act_region(t, rc, p->rank, p->act));
		json_knum(j, "excess_s", p->excess);
		json_obj_end(j);
	}
	json_arr_end(j);
	free(idx);
	json_obj_end(j);
}

void report_critpath_text(struct tc_session *s, FILE *f)
{
	const struct tc_rootcause *rc = session_rootcause(s);
	const struct tc_trace *t = s->t;
	char b1[32], b2[32], b3[32];
	fmt_seconds(b1, sizeof b1, rc->path_len);
	fprintf(f, "critical path %s over the application span, %zu pieces, ending on rank %u\n", b1, rc->npath,
		rc->path_end_rank == TC_NONE ? 0 : rc->path_end_rank);
	fprintf(f, "  ");
	for (int k = 0; k < TC_CP_NKINDS; k++) fprintf(f, "%s %.1f%%%s", tc_cp_kind_names[k], 100 * rc->share[k],
						    k + 1 < TC_CP_NKINDS ? ", " : "\n");
	uint32_t *idx;
	size_t n = pick(rc, CP_TEXT_SEGMENTS, &idx);
	if (n < rc->npath) fprintf(f, "the %zu pieces with the most excess (of %zu), in time order:\n", n, rc->npath);
	fprintf(f, "  %6s %12s %12s  %-14s %-20s %10s\n", "rank", "start", "end", "kind", "region", "excess");
	for (size_t i = 0; i < n; i++) {
		const struct tc_cp_piece *p = &rc->path[idx[i]];
		fmt_seconds(b1, sizeof b1, tc_sec(t, p->start));
		fmt_seconds(b2, sizeof b2, tc_sec(t, p->end));
		fmt_seconds(b3, sizeof b3, p->excess);
		fprintf(f, "  %6u %12s %12s  %-14s %-20.20s %10s\n", p->rank, b1, b2, tc_cp_kind_names[p->kind],
			act_region(t, rc, p->rank, p->act), p->excess > 0 ? b3 : "-");
	}
	free(idx);
}
