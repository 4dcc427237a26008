/* info.c — the "info" section: what is in the archive. */
#include <stdlib.h>
#include <string.h>

#include "analysis_span.h"
#include "report.h"

/* Locations by type, and per rank its CPU threads and accelerator streams. */
struct loc_census {
	uint32_t by_type[TC_LOC_OTHER + 1];
	uint32_t *threads, *streams;   /* per rank */
	uint32_t max_threads;          /* most CPU threads of a rank */
	uint32_t nstreams, nmetric;    /* of ranks */
};

static void loc_census(const struct tc_trace *t, struct loc_census *c)
{
	memset(c, 0, sizeof *c);
	c->threads = xcalloc(t->nranks ? t->nranks : 1, sizeof *c->threads);
	c->streams = xcalloc(t->nranks ? t->nranks : 1, sizeof *c->streams);
	for (uint32_t l = 0; l < t->nlocs; l++) {
		const struct tc_loc *L = &t->locs[l];
		c->by_type[L->type <= TC_LOC_OTHER ? L->type : TC_LOC_OTHER]++;
		if (L->rank >= t->nranks) continue;
		if (L->type == TC_LOC_CPU) c->threads[L->rank]++;
		if (L->type == TC_LOC_GPU) c->streams[L->rank]++;
	}
	for (uint32_t r = 0; r < t->nranks; r++) c->max_threads = TC_MAX(c->max_threads, c->threads[r]);
}

static void loc_census_free(struct loc_census *c)
{
	free(c->threads);
	free(c->streams);
}

static const char *const metric_modes[] = { "accumulated", "absolute", "relative", "other" };
static const char *const metric_vtypes[] = { "int64", "uint64", "double" };

/* The fields issue 15 added: locations by type, threads and streams per rank, metrics. */
static void info_locations_json(const struct tc_trace *t, struct json *j)
{
	struct loc_census c;
	loc_census(t, &c);
	json_key(j, "locations_by_type");
	json_obj_begin(j);
	json_kuint(j, "cpu_thread", c.by_type[TC_LOC_CPU]);
	json_kuint(j, "gpu", c.by_type[TC_LOC_GPU]);
	json_kuint(j, "metric", c.by_type[TC_LOC_METRIC]);
	json_kuint(j, "other", c.by_type[TC_LOC_OTHER]);
	json_obj_end(j);
	json_kuint32s(j, "threads_per_rank", c.threads, t->nranks);
	json_kuint32s(j, "streams_per_rank", c.streams, t->nranks);
	json_key(j, "metrics");
	json_arr_begin(j);
	for (uint32_t m = 0; m < t->nmetrics; m++) {
		const struct tc_metric_def *M = &t->metrics[m];
		json_obj_begin(j);
		json_kstr(j, "name", M->name);
		json_kstr(j, "unit", M->unit);
		json_kstr(j, "mode", metric_modes[M->mode <= TC_MM_OTHER ? M->mode : TC_MM_OTHER]);
		json_kstr(j, "value_type", metric_vtypes[M->vtype <= TC_MV_DOUBLE ? M->vtype : TC_MV_UINT64]);
		json_kuint(j, "samples", M->nsamples);
		json_obj_end(j);
	}
	json_arr_end(j);
	loc_census_free(&c);
}

/* What the views show of each rank and what they fold (text info). */
static void info_locations_text(const struct tc_trace *t, FILE *f)
{
	struct loc_census c;
	loc_census(t, &c);
	fprintf(f, "locations   %u CPU threads, %u accelerator streams, %u metric, %u other\n", c.by_type[TC_LOC_CPU],
		c.by_type[TC_LOC_GPU], c.by_type[TC_LOC_METRIC], c.by_type[TC_LOC_OTHER]);
	uint32_t folded_threads = 0;
	for (uint32_t r = 0; r < t->nranks; r++) folded_threads += c.threads[r] > 1 ? c.threads[r] - 1 : 0;
	if (folded_threads || c.by_type[TC_LOC_GPU])
		fprintf(f, "views       one row per rank = its master thread (its calls, MPI messages; the flat profile too); "
			   "%u other CPU threads (up to %u per rank) and %u accelerator streams are folded until the "
			   "physical view opens a rank (e, E: every rank); the profile's table (t) sums every location "
			   "of a rank (w: each location), as report --section profile --json per_rank / per_location\n",
			folded_threads, c.max_threads ? c.max_threads - 1 : 0, c.by_type[TC_LOC_GPU]);
	else
		fprintf(f, "views       one row per rank = its only thread: nothing folded\n");
	for (uint32_t m = 0; m < t->nmetrics; m++)
		fprintf(f, "metric      %s [%s] %s, %llu samples%s\n", t->metrics[m].name,
			t->metrics[m].unit, metric_modes[t->metrics[m].mode <= TC_MM_OTHER ? t->metrics[m].mode : TC_MM_OTHER],
			(unsigned long long)t->metrics[m].nsamples,
			t->metrics[m].nsamples ? " (physical view: # draws it per rank)" : " (nothing to draw)");
	loc_census_free(&c);
}

void report_info_json(struct tc_session *s, struct json *j)
{
	const struct tc_trace *t = s->t;
	json_obj_begin(j);
	json_kstr(j, "trace", t->anchor);
	json_kuint(j, "ranks", t->nranks);
	json_kuint(j, "threads", t->nthreads);
	json_kuint(j, "nodes", t->nnodes);
	json_kuint(j, "locations", t->nlocs);
	json_kuint(j, "events", tc_trace_events(t));
	json_key(j, "events_by_kind");
	json_obj_begin(j);
	for (int k = 0; k < TC_EV_COUNT; k++) json_kuint(j, tc_ev_kind_names[k], t->ev_count[k]);
	json_obj_end(j);
	json_kuint(j, "calls", t->ncalls);
	json_key(j, "messages");
	json_obj_begin(j);
	json_kuint(j, "matched", t->nmsgs);
	json_kuint(j, "unmatched_sends", t->unmatched_sends);
	json_kuint(j, "unmatched_recvs", t->unmatched_recvs);
	json_kuint(j, "bytes", t->msg_bytes);
	json_kuint(j, "inter_node", tc_inter_node_msgs(t));
	json_obj_end(j);
	json_kuint(j, "collectives", t->ncolls);
	json_kuint(j, "incomplete_collectives", t->incomplete_colls);
	json_kuint(j, "clock_violations", t->clock_violations);
	json_knum(j, "duration_s", tc_dur(t, t->tmax - t->tmin));
	const struct tc_span *sp = session_span(s);
	static const char *const src_names[] = { "init_finalize", "communication", "all" };
	json_key(j, "application_span");
	json_obj_begin(j);
	report_time_json(j, "start_s", "start_ticks", t, sp->t0);
	report_time_json(j, "end_s", "end_ticks", t, sp->t1);
	json_knum(j, "length_s", tc_span_len(t, sp));
	json_knum(j, "init_s", sp->init_s);
	json_knum(j, "finalize_s", sp->finalize_s);
	json_kstr(j, "source", src_names[sp->source]);
	json_obj_end(j);
	json_key(j, "clock");
	json_obj_begin(j);
	json_kuint(j, "resolution", t->res);
	json_kuint(j, "offset", t->t0);
	json_kuint(j, "length", t->length);
	json_obj_end(j);
	json_kuint(j, "regions", t->nregions);
	json_key(j, "node_names");
	json_arr_begin(j);
	for (uint32_t n = 0; n < t->nnodes; n++) json_str(j, t->nodes[n].name);
	json_arr_end(j);
	json_key(j, "rank_node");
	json_arr_begin(j);
	for (uint32_t r = 0; r < t->nranks; r++) json_uint(j, t->ranks[r].node);
	json_arr_end(j);
	json_key(j, "warnings");
	json_arr_begin(j);
	for (size_t i = 0; i < t->warnings.n; i++) json_str(j, t->warnings.a[i]);
	json_arr_end(j);
	size_t mrows = report_limit(s, t->nranks, 64);   /* the matrix whole or not at all */
	if (mrows == t->nranks) {
		uint64_t *m = xcalloc((size_t)t->nranks * t->nranks + 1, sizeof *m);
		tc_comm_matrix(t, m, NULL);
		json_key(j, "comm_matrix_bytes");
		json_arr_begin(j);
		for (uint32_t src = 0; src < t->nranks; src++) {
			json_arr_begin(j);
			for (uint32_t d = 0; d < t->nranks; d++) json_uint(j, m[(size_t)src * t->nranks + d]);
			json_arr_end(j);
		}
		json_arr_end(j);
		free(m);
	}
	report_list_cut_json(j, "comm_matrix_bytes", t->nranks, mrows == t->nranks ? t->nranks : 0);
	info_locations_json(t, j);
	json_obj_end(j);
}

void report_info_text(struct tc_session *s, FILE *f)
{
	const struct tc_trace *t = s->t;
	char b1[32], b2[32];
	fprintf(f, "trace       %s\n", t->anchor);
	fprintf(f, "ranks       %u on %u node%s (%u CPU threads, %u locations)\n", t->nranks, t->nnodes,
		t->nnodes == 1 ? "" : "s", t->nthreads, t->nlocs);
	info_locations_text(t, f);
	fmt_seconds(b1, sizeof b1, tc_dur(t, t->tmax - t->tmin));
	fprintf(f, "duration    %s (clock %llu ticks/s)\n", b1, (unsigned long long)t->res);
	const struct tc_span *sp = session_span(s);
	fmt_seconds(b1, sizeof b1, tc_span_len(t, sp));
	fmt_seconds(b2, sizeof b2, sp->init_s);
	if (sp->source == TC_SPAN_INIT_FINALIZE)
		fprintf(f, "application %s from the end of MPI_Init to MPI_Finalize (MPI_Init took %s)\n", b1, b2);
	else if (sp->source == TC_SPAN_COMM)
		fprintf(f, "application %s from the first to the last MPI communication (no MPI_Init/Finalize)\n", b1);
	fprintf(f, "events      %llu\n", (unsigned long long)tc_trace_events(t));
	for (int k = 0; k < TC_EV_COUNT; k++)
		if (t->ev_count[k]) fprintf(f, "  %-20s %llu\n", tc_ev_kind_names[k], (unsigned long long)t->ev_count[k]);
	fprintf(f, "calls       %llu in %u regions\n", (unsigned long long)t->ncalls, t->nregions);
	fmt_bytes(b2, sizeof b2, t->msg_bytes);
	fprintf(f, "messages    %zu matched (%s, %llu inter-node); unmatched: %llu sends, %llu receives\n",
		t->nmsgs, b2, (unsigned long long)tc_inter_node_msgs(t), (unsigned long long)t->unmatched_sends,
		(unsigned long long)t->unmatched_recvs);
	fprintf(f, "collectives %zu instances\n", t->ncolls);
	if (t->clock_violations)
		fprintf(f, "clock       %llu messages violate the clock condition\n", (unsigned long long)t->clock_violations);
	for (uint32_t n = 0; n < t->nnodes && n < 16; n++) {
		VEC(uint32_t) rk = { 0 };
		for (uint32_t r = 0; r < t->nranks; r++) if (t->ranks[r].node == n) VEC_PUSH(rk, r);
		struct strbuf sb = { 0 };
		fmt_ranges(&sb, rk.a, rk.n);
		fprintf(f, "node        %-16s ranks %s\n", t->nodes[n].name, sb.s ? sb.s : "-");
		sb_free(&sb);
		VEC_FREE(rk);
	}
	if (t->nnodes > 16) fprintf(f, "node        ... %u more\n", t->nnodes - 16);
	for (size_t i = 0; i < t->warnings.n; i++) fprintf(f, "warning     %s\n", t->warnings.a[i]);
}

