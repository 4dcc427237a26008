/* verdicts.c — the session getter of the attribution verdicts and the report
 * sections "verdicts" and "dag".  JSON layout: docs/verdicts.md.  Options
 * (--opt KEY=VALUE): verdict_min_confidence, dag_region, dag_window,
 * dag_max_msgs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "analysis_remap.h"
#include "analysis_verdict.h"
#include "report.h"

const struct tc_verdicts *session_verdicts(struct tc_session *s)
{
	if (s->verdicts) return s->verdicts;
	/* the root causes first: their passes' scratch (the contexts' values and
	 * runs) is the largest transient memory of a batch report, and with the
	 * latency and the steps not yet alive beside it the report's peak is lower
	 * (bench archive: 719 → 682 MiB); the results do not depend on the order */
	const struct tc_rootcause *rc = session_rootcause(s);
	const struct tc_latency *lat = session_latency(s);
	const struct tc_steps *st = session_steps(s);
	const struct tc_waitstates *ws = session_waitstates(s);
	struct tc_remap *rm = tc_remap_compute(s->t, TC_REMAP_BYTES);
	struct tc_verdict_opts o;
	tc_verdict_default_opts(&o);
	o.min_confidence = session_opt_num(s, "verdict_min_confidence", o.min_confidence);
	s->verdicts = tc_verdicts_compute(s->t, lat, st, ws, rm, rc, &o);
	tc_remap_free(rm);
	return s->verdicts;
}

static void fmt_num(char *b, size_t n, double x)
{
	if (isnan(x)) snprintf(b, n, "-");
	else if (x == floor(x) && fabs(x) < 1e15) snprintf(b, n, "%.0f", x);
	else if (fabs(x) >= 100) snprintf(b, n, "%.1f", x);
	else snprintf(b, n, "%.3g", x);
}

static void scope_text(char *b, size_t n, const struct tc_verdict *v)
{
	char w[64] = "";
	if (v->windowed) snprintf(w, sizeof w, ", %.4f-%.4f s", v->start, v->end);
	if (v->scope == TC_NONE) snprintf(b, n, "run%s", w);
	else snprintf(b, n, "region %u%s", v->scope, w);
}

void report_verdicts_text(struct tc_session *s, FILE *f)
{
	const struct tc_verdicts *V = session_verdicts(s);
	/* what a user reads first: cause, confidence, blamed ranks, advice */
	for (uint32_t i = 0; i < V->n; i++) {
		const struct tc_verdict *v = &V->v[i];
		char sc[96];
		scope_text(sc, sizeof sc, v);
		fprintf(f, "%-10s %.2f  [%s]  %s\n", tc_cause_names[v->cause], v->confidence, sc, v->summary);
		fprintf(f, "%16s-> %s\n", "", v->advice);
	}
	fprintf(f, "\nevidence:\n");
	for (uint32_t i = 0; i < V->n; i++) {
		const struct tc_verdict *v = &V->v[i];
		struct strbuf rb;
		sb_init(&rb);
		fmt_ranges(&rb, v->ranks, v->nranks);
		char sc[96];
		scope_text(sc, sizeof sc, v);
		if (rb.len > 160) {
			rb.s[150] = 0;
			char *cut = strrchr(rb.s, ',');
			if (cut) *cut = 0;
			rb.len = strlen(rb.s);
			sb_printf(&rb, ",... (%u ranks)", v->nranks);
		}
		fprintf(f, "  %s [%s] ranks %s\n   ", tc_cause_names[v->cause], sc, rb.s ? rb.s : "-");
		sb_free(&rb);
		for (uint32_t k = 0; k < v->nev; k++) {
			char nb[32];
			fmt_num(nb, sizeof nb, v->ev[k].value);
			fprintf(f, " %s=%s", v->ev[k].key, nb);
		}
		fprintf(f, "\n");
		for (uint32_t k = 0; k < v->nsteps; k++) {
			char b1[32];
			fmt_seconds(b1, sizeof b1, v->steps[k].seconds);
			fprintf(f, "    rank %u step %u at %.4f s: own lateness +%s\n", v->steps[k].rank, v->steps[k].step,
				v->steps[k].at, b1);
		}
	}
	char b1[32], b2[32];
	fmt_bytes(b1, sizeof b1, V->remap_bytes_before);
	fmt_bytes(b2, sizeof b2, V->remap_bytes_after);
	fprintf(f, "remap (O1): inter-node messages %llu -> %llu, bytes %s -> %s%s\n",
		(unsigned long long)V->remap_msgs_before, (unsigned long long)V->remap_msgs_after, b1, b2,
		V->remap_improved ? "" : " (the trace's placement is already as good)");
	fprintf(f, "run: %llu messages, %.1f%% inter-node, inter/intra cost %.2f, span %.4f s, waiting %.1f%% of rank time\n",
		(unsigned long long)V->msgs, V->msgs ? 100.0 * (double)V->inter / (double)V->msgs : 0.0, V->inter_cost,
		V->span, V->span > 0 && V->nranks ? 100.0 * V->waiting / (V->span * V->nranks) : 0.0);
}

static void json_numarr_win(struct json *j, const char *key, const struct tc_verdicts *V, int which)
{
	json_key(j, key);
	json_arr_begin(j);
	for (uint32_t w = 0; w < V->nwindows; w++) {
		const struct tc_verdict_win *x = &V->win[w];
		switch (which) {
		case 0: json_uint(j, x->msgs); break;
		case 1: json_uint(j, x->inter); break;
		case 2: json_uint(j, x->bytes); break;
		case 3: json_uint(j, x->bytes_inter); break;
		case 4: json_num(j, x->lb_max); break;
		case 5: json_num(j, x->ad_rel); break;
		case 6: json_num(j, x->max_mean); break;
		case 7: if (x->busiest == TC_NONE) json_null(j); else json_uint(j, x->busiest); break;
		case 8: json_uint(j, x->n_bg); break;
		case 9: json_num(j, x->bg_level); break;
		case 10: json_num(j, x->bg_cv); break;
		case 11: json_num(j, x->bg_score); break;
		default: json_bool(j, x->disturbed); break;
		}
	}
	json_arr_end(j);
}

static void json_verdict(struct json *j, const struct tc_verdict *v)
{
	json_obj_begin(j);
	json_key(j, "scope");
	if (v->scope == TC_NONE) json_str(j, "run");
	else json_uint(j, v->scope);
	json_key(j, "window");
	if (!v->windowed) {
		json_null(j);
	} else {
		json_obj_begin(j);
		json_knum(j, "start", v->start);
		json_knum(j, "end", v->end);
		json_kuint(j, "first", v->win_first);
		json_kuint(j, "last", v->win_last);
		json_obj_end(j);
	}
	json_kstr(j, "cause", tc_cause_names[v->cause]);
	json_knum(j, "confidence", v->confidence);
	json_kuint32s(j, "ranks", v->ranks, v->nranks);
	json_key(j, "evidence");
	json_obj_begin(j);
	for (uint32_t k = 0; k < v->nev; k++) json_knum(j, v->ev[k].key, v->ev[k].value);
	json_obj_end(j);
	if (v->nsteps) {
		json_key(j, "steps");
		json_arr_begin(j);
		for (uint32_t k = 0; k < v->nsteps; k++) {
			json_obj_begin(j);
			json_kuint(j, "rank", v->steps[k].rank);
			json_kuint(j, "step", v->steps[k].step);
			json_knum(j, "seconds", v->steps[k].seconds);
			json_knum(j, "at", v->steps[k].at);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_kstr(j, "summary", v->summary);
	json_kstr(j, "advice", v->advice);
	json_obj_end(j);
}

static void json_remap(struct json *j, const struct tc_verdicts *V)
{
	json_obj_begin(j);
	json_kuint(j, "inter_node_messages_before", V->remap_msgs_before);
	json_kuint(j, "inter_node_messages_after", V->remap_msgs_after);
	json_kuint(j, "inter_node_bytes_before", V->remap_bytes_before);
	json_kuint(j, "inter_node_bytes_after", V->remap_bytes_after);
	json_kuint(j, "ranks_moved", V->remap_moved);
	json_kbool(j, "improved", V->remap_improved);
	json_obj_end(j);
}

static void json_run(struct json *j, const struct tc_verdicts *V)
{
	json_obj_begin(j);
	json_knum(j, "span_s", V->span);
	json_kuint(j, "messages", V->msgs);
	json_kuint(j, "inter_messages", V->inter);
	json_kuint(j, "bytes", V->bytes);
	json_kuint(j, "inter_bytes", V->bytes_inter);
	json_knum(j, "inter_cost", V->inter_cost);
	json_knum(j, "high_inter_share", V->high_inter_share);
	json_knum(j, "high_l_inter_share", V->high_l_inter_share);
	json_knum(j, "bg_quiet", V->bg_quiet);
	json_knum(j, "bg_spread", V->bg_spread);
	json_knum(j, "own_late_median_s", V->own_late_median);
	json_knum(j, "own_late_ref_s", V->own_late_ref);
	json_knum(j, "waiting_s", V->waiting);
	json_knum(j, "path_s", V->path_len);
	json_key(j, "path_shares");
	json_obj_begin(j);
	static const char *const kinds[4] = { "compute", "wait", "mpi_own_intra", "mpi_own_inter" };
	for (int k = 0; k < 4; k++) json_knum(j, kinds[k], V->path_share[k]);
	json_obj_end(j);
	json_knum(j, "mpi_stall_rate", V->mpi_stall_rate);
	json_knum(j, "compute_stall_rate", V->compute_stall_rate);
	json_obj_end(j);
}

/* The panels: one array per series, one entry per latency window (the
 * series in the order of the verdicts' window table). */
static void json_windows(struct json *j, const struct tc_verdicts *V, double window_s)
{
	static const char *const series[] = { "messages", "inter", "bytes", "inter_bytes", "lb_max",
					      "ad_over_mean", "max_over_mean", "busiest", "bg_messages",
					      "bg_level", "bg_cv", "bg_score", "disturbed" };
	json_obj_begin(j);
	json_kuint(j, "count", V->nwindows);
	json_knum(j, "window_s", window_s);
	for (int k = 0; k < (int)TC_NELEM(series); k++) json_numarr_win(j, series[k], V, k);
	json_obj_end(j);
}

static void json_ranks(struct json *j, const struct tc_trace *t, const struct tc_verdicts *V)
{
	json_arr_begin(j);
	for (uint32_t r = 0; r < V->nranks; r++) {
		const struct tc_verdict_rank *x = &V->rank[r];
		json_obj_begin(j);
		json_kuint(j, "rank", r);
		json_kstr(j, "node", t->nodes[t->ranks[r].node].name);
		json_kuint(j, "msgs_in", x->msgs_in);
		json_kuint(j, "msgs_out", x->msgs_out);
		json_kuint(j, "bytes_in", x->bytes_in);
		json_kuint(j, "bytes_out", x->bytes_out);
		json_knum(j, "lb", x->lb);
		json_knum(j, "lb_bytes", x->lb_bytes);
		json_knum(j, "mean_l", x->mean_l);
		json_knum(j, "own_late_s", x->own_late);
		json_knum(j, "caused_s", x->caused);
		json_knum(j, "waited_s", x->waited);
		json_kuint(j, "partners", x->partners);
		json_knum(j, "delay_cost_s", x->delay_cost);
		json_knum(j, "path_compute_excess_s", x->path_compute_excess);
		json_knum(j, "path_mpi_excess_s", x->path_mpi_excess);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void report_verdicts_json(struct tc_session *s, struct json *j)
{
	const struct tc_verdicts *V = session_verdicts(s);
	const struct tc_latency *lat = session_latency(s);
	const struct tc_trace *t = s->t;
	json_obj_begin(j);
	json_key(j, "verdicts");
	json_arr_begin(j);
	for (uint32_t i = 0; i < V->n; i++) json_verdict(j, &V->v[i]);
	json_arr_end(j);
	json_key(j, "remap");
	json_remap(j, V);
	json_key(j, "run");
	json_run(j, V);
	json_key(j, "windows");
	json_windows(j, V, tc_dur(t, lat->win_dt));
	json_key(j, "ranks");
	json_ranks(j, t, V);
	json_obj_end(j);
}

/* --- dag ------------------------------------------------------------------------------ */
/* The DAG of --opt dag_region / dag_window, else of the most latent region and window. */
static struct tc_dag *session_dag(struct tc_session *s, uint32_t def_max)
{
	double mm = session_opt_num(s, "dag_max_msgs", def_max);
	uint32_t max_msgs = mm >= 0 && mm < 4e9 ? (uint32_t)mm : def_max;
	const struct tc_verdicts *V = session_verdicts(s);
	const struct tc_latency *lat = session_latency(s);
	uint32_t g = V->hot_region, w = V->hot_window;
	double og = session_opt_num(s, "dag_region", NAN), ow = session_opt_num(s, "dag_window", NAN);
	if (og >= 0 && og < lat->nregions) g = (uint32_t)og;
	if (ow >= 0 && ow < lat->nwindows) w = (uint32_t)ow;
	return tc_dag_region(s->t, lat, g, w == TC_NONE ? 0 : w, max_msgs);
}

void report_dag_text(struct tc_session *s, FILE *f)
{
	const struct tc_trace *t = s->t;
	struct tc_dag *d = session_dag(s, 200);
	char rg[32] = "all ranks";
	if (d->region != TC_NONE) snprintf(rg, sizeof rg, "region %u", d->region);
	fprintf(f, "DAG of %s, %.4f-%.4f s: %u messages%s, %u nodes, %u levels, mean L %.2f\n", rg, tc_sec(t, d->t0),
		tc_sec(t, d->t1), d->nmsgs, d->truncated ? " (first ones only)" : "", d->nnodes, d->nlevels, d->mean_l);
	/* levels top-down; per node: rank, compute node, receives/sends, then its
	 * outgoing messages as ->rank (L), "*" marking an inter-node one */
	uint32_t lv_shown = 0;
	for (uint32_t lv = 0; lv < d->nlevels && lv_shown < 40; lv++, lv_shown++) {
		uint32_t cnt = 0;
		for (uint32_t v = 0; v < d->nnodes; v++) cnt += d->nodes[v].level == lv;
		fprintf(f, "level %u (%u node%s)\n", lv, cnt, cnt == 1 ? "" : "s");
		uint32_t k = 0;
		for (uint32_t v = 0; v < d->nnodes; v++) {
			const struct tc_dag_node *n = &d->nodes[v];
			if (n->level != lv) continue;
			if (++k > 16) { fprintf(f, "  ... %u more nodes\n", cnt - 16); break; }
			fprintf(f, "  r%-5u %-8s %2ur %2us", n->rank, t->nodes[t->ranks[n->rank].node].name, n->nrecv, n->nsend);
			for (uint32_t e = 0; e < n->nout && e < 8; e++) {
				const struct tc_dag_edge *x = &d->edges[d->out_edges[n->first_out + e]];
				fprintf(f, " ->%u%s(%.1f)", d->nodes[x->to].rank, x->inter ? "*" : "", x->l);
			}
			if (n->nout > 8) fprintf(f, " +%u", n->nout - 8);
			fprintf(f, "\n");
		}
	}
	if (d->nlevels > lv_shown) fprintf(f, "... %u more levels\n", d->nlevels - lv_shown);
	fprintf(f, "per rank (CS-glyph rows): LB = |C - mean| / AD of the messages in the window; * = inter-node\n");
	fprintf(f, "%6s %-12s %6s %6s %6s %10s %10s %8s\n", "rank", "node", "LB", "in", "out", "t_in", "t_out", "L");
	for (uint32_t i = 0; i < d->nranks; i++) {
		const struct tc_dag_rank *x = &d->ranks[i];
		if (i == 64) { fprintf(f, "... %u more ranks\n", d->nranks - 64); break; }
		char a[32], b[32];
		fmt_seconds(a, sizeof a, x->transfer_in);
		fmt_seconds(b, sizeof b, x->transfer_out);
		fprintf(f, "%6u %-12s %6.2f %6u %6u %10s %10s %8.2f\n", x->rank, t->nodes[x->node].name, x->lb, x->msgs_in,
			x->msgs_out, x->msgs_in ? a : "-", x->msgs_out ? b : "-", x->mean_l);
	}
	tc_dag_free(d);
}

void report_dag_json(struct tc_session *s, struct json *j)
{
	const struct tc_trace *t = s->t;
	struct tc_dag *d = session_dag(s, 2000);
	json_obj_begin(j);
	json_key(j, "region");
	if (d->region == TC_NONE) json_null(j);
	else json_uint(j, d->region);
	report_time_json(j, "start", "start_ticks", t, d->t0);
	report_time_json(j, "end", "end_ticks", t, d->t1);
	json_kuint(j, "messages", d->nmsgs);
	json_kuint(j, "messages_window", d->nmsgs_window);
	json_kbool(j, "truncated", d->truncated);
	json_kuint(j, "levels", d->nlevels);
	json_knum(j, "mean_l", d->mean_l);
	json_key(j, "nodes");
	json_arr_begin(j);
	for (uint32_t v = 0; v < d->nnodes; v++) {
		const struct tc_dag_node *n = &d->nodes[v];
		json_obj_begin(j);
		json_kuint(j, "id", v);
		json_kuint(j, "rank", n->rank);
		json_kuint(j, "level", n->level);
		json_key(j, "prev");
		if (n->prev == TC_NONE) json_null(j);
		else json_uint(j, n->prev);
		json_kuint(j, "recv", n->nrecv);
		json_kuint(j, "send", n->nsend);
		json_kuint(j, "bytes_in", n->bytes_in);
		json_kuint(j, "bytes_out", n->bytes_out);
		report_time_json(j, "first", "first_ticks", t, n->first);
		report_time_json(j, "last", "last_ticks", t, n->last);
		json_knum(j, "max_l", n->max_l);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "edges");
	json_arr_begin(j);
	for (uint32_t e = 0; e < d->nedges; e++) {
		const struct tc_dag_edge *x = &d->edges[e];
		json_obj_begin(j);
		json_kuint(j, "from", x->from);
		json_kuint(j, "to", x->to);
		json_kuint(j, "msg", x->msg);
		json_kuint(j, "bytes", x->bytes);
		json_knum(j, "transfer", x->transfer);
		json_knum(j, "l", x->l);
		json_kbool(j, "inter", x->inter);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "ranks");
	json_arr_begin(j);
	for (uint32_t i = 0; i < d->nranks; i++) {
		const struct tc_dag_rank *x = &d->ranks[i];
		json_obj_begin(j);
		json_kuint(j, "rank", x->rank);
		json_kstr(j, "node", t->nodes[x->node].name);
		json_knum(j, "lb", x->lb);
		json_knum(j, "lb_bytes", x->lb_bytes);
		json_kuint(j, "msgs_in", x->msgs_in);
		json_kuint(j, "msgs_out", x->msgs_out);
		json_kuint(j, "bytes_in", x->bytes_in);
		json_kuint(j, "bytes_out", x->bytes_out);
		json_knum(j, "transfer_in", x->transfer_in);
		json_knum(j, "transfer_out", x->transfer_out);
		json_knum(j, "mean_l", x->mean_l);
		json_knum(j, "node_l", x->node_l);
		json_kuint(j, "inter", x->inter);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	tc_dag_free(d);
}
