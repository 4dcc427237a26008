/* info.c — the "info" section: what is in the archive. */
#include <stdlib.h>

#include "analysis_span.h"
#include "report.h"

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
	json_knum(j, "start_s", tc_sec(t, sp->t0));
	json_knum(j, "end_s", tc_sec(t, sp->t1));
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
	if (t->nranks <= 64) {
		uint64_t *m = xcalloc((size_t)t->nranks * t->nranks + 1, sizeof *m);
		for (size_t i = 0; i < t->nmsgs; i++) m[(size_t)t->msgs[i].src * t->nranks + t->msgs[i].dst] += t->msgs[i].bytes;
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
	json_obj_end(j);
}

void report_info_text(struct tc_session *s, FILE *f)
{
	const struct tc_trace *t = s->t;
	char b1[32], b2[32];
	fprintf(f, "trace       %s\n", t->anchor);
	fprintf(f, "ranks       %u on %u node%s (%u CPU threads, %u locations)\n", t->nranks, t->nnodes,
		t->nnodes == 1 ? "" : "s", t->nthreads, t->nlocs);
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

