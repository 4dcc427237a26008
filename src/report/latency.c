/* latency.c — the session getter for communication regions and message
 * latency, and the report sections "regions", "latency" and "evolution".
 * JSON layout: docs/latency.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "analysis_span.h"
#include "report.h"

const struct tc_latency *session_latency(struct tc_session *s)
{
	if (s->latency) return s->latency;
	struct tc_latency_opts o;
	tc_latency_default_opts(&o);
	o.threshold = session_opt_num(s, "region_threshold", o.threshold);
	o.margin = session_opt_num(s, "region_margin", o.margin);
	o.damping = session_opt_num(s, "region_damping", o.damping);
	o.depth = (uint32_t)session_opt_num(s, "region_depth", o.depth);
	o.ball_max = (uint32_t)session_opt_num(s, "region_ball", o.ball_max);
	o.balanced = strcmp(session_opt(s, "region_layers", "balanced"), "paper") != 0;
	const char *w = session_opt(s, "region_weight", "messages");
	o.weight = !strcmp(w, "bytes") ? TC_LAT_W_BYTES : !strcmp(w, "binary") ? TC_LAT_W_BINARY : TC_LAT_W_MESSAGES;
	const char *b = session_opt(s, "latency_buckets", "log2");
	o.buckets = !strcmp(b, "linear") ? TC_LAT_BUCKETS_LINEAR : TC_LAT_BUCKETS_LOG2;
	o.bucket_bytes = (uint64_t)session_opt_num(s, "latency_bucket_bytes", (double)o.bucket_bytes);
	o.min_count = (uint32_t)session_opt_num(s, "latency_min_count", o.min_count);
	o.high_l = session_opt_num(s, "latency_high", o.high_l);
	o.windows = (uint32_t)session_opt_num(s, "windows", o.windows);
	o.steady_level = session_opt_num(s, "steady_level", o.steady_level);
	o.steady_min = (uint32_t)session_opt_num(s, "steady_min", o.steady_min);
	o.growth_min = session_opt_num(s, "growth_min", o.growth_min);
	o.threads = (int)session_opt_num(s, "threads", o.threads);
	/* windows over the application span (docs/span.md); --opt span=all: the whole trace;
	 * --opt latency_span=off: the whole trace for these windows only (as before issue 14) */
	if (session_opt_bool(s, "latency_span", true)) {
		const struct tc_span *sp = session_span(s);
		o.win_t0 = sp->t0;
		o.win_t1 = sp->t1;
	}
	s->latency = tc_latency_compute(s->t, &o);
	return s->latency;
}

static const char *const class_names[TC_LAT_NCLASS] = { "intra", "inter" };

static void ranks_text(struct strbuf *sb, const struct tc_lat_region *R)
{
	sb_init(sb);
	fmt_ranges(sb, R->ranks, R->nranks);
	if (!sb->s) sb_add(sb, "-");
}

static void fmt_l(char *buf, size_t n, double l)
{
	if (isnan(l)) snprintf(buf, n, "-");
	else snprintf(buf, n, "%.2f", l);
}

/* --- regions ------------------------------------------------------------------ */
void report_regions_json(struct tc_session *s, struct json *j)
{
	const struct tc_latency *lat = session_latency(s);
	const struct tc_trace *t = s->t;
	json_obj_begin(j);
	json_knum(j, "threshold", lat->opts.threshold);
	json_knum(j, "margin", lat->opts.margin);
	json_knum(j, "nearest_median", lat->nearest_median);
	json_knum(j, "threshold_used", lat->threshold_used);
	json_knum(j, "damping", lat->opts.damping);
	json_kuint(j, "depth", lat->depth_used);
	json_kstr(j, "layers", lat->opts.balanced ? "balanced" : "paper");
	json_kuint(j, "ball", lat->opts.ball_max);
	json_kstr(j, "weight", lat->opts.weight == TC_LAT_W_BYTES ? "bytes"
			       : lat->opts.weight == TC_LAT_W_BINARY ? "binary" : "messages");
	json_kuint(j, "pairs", lat->npairs);
	json_knum(j, "seconds", lat->regions_seconds);
	json_key(j, "regions");
	json_arr_begin(j);
	for (uint32_t i = 0; i < lat->nregions; i++) {
		const struct tc_lat_region *R = &lat->regions[i];
		json_obj_begin(j);
		json_kuint(j, "id", i);
		json_kuint32s(j, "ranks", R->ranks, R->nranks);
		struct strbuf sb;
		ranks_text(&sb, R);
		json_kstr(j, "ranks_text", sb.s);
		sb_free(&sb);
		json_knum(j, "rl", R->rl);
		json_knum(j, "rl_touching", R->rl_touching);
		json_kuint(j, "messages_inside", R->messages_inside);
		json_kuint(j, "messages_crossing", R->messages_crossing);
		json_kuint(j, "inter_inside", R->inter_inside);
		json_kuint(j, "delayed", R->delayed);
		json_kuint(j, "high", R->high);
		json_kuint(j, "nodes", R->nnodes);
		json_knum(j, "max_merge", R->max_merge);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "rank_region");
	json_arr_begin(j);
	for (uint32_t r = 0; r < t->nranks; r++) json_uint(j, lat->rank_region[r]);
	json_arr_end(j);
	json_obj_end(j);
}

void report_regions_text(struct tc_session *s, FILE *f)
{
	const struct tc_latency *lat = session_latency(s);
	fprintf(f, "%u region%s (free-energy distance, single linkage up to %.2f; damping %.2f, depth %u, %zu pairs, %.3f s)\n",
		lat->nregions, lat->nregions == 1 ? "" : "s", lat->threshold_used, lat->opts.damping, lat->depth_used,
		lat->npairs, lat->regions_seconds);
	fprintf(f, "%4s %6s %6s %8s %9s %8s %8s %5s  %s\n", "id", "ranks", "nodes", "RL", "inside", "crossing",
		"delayed", "high", "members");
	uint32_t shown = 0;
	for (uint32_t i = 0; i < lat->nregions; i++) {
		const struct tc_lat_region *R = &lat->regions[i];
		if (lat->nregions > 40 && R->nranks == 1 && !R->messages_inside && !R->messages_crossing) continue;
		if (++shown > 200) { fprintf(f, "... %u more regions\n", lat->nregions - i); break; }
		char rl[32];
		fmt_l(rl, sizeof rl, R->rl);
		struct strbuf sb;
		ranks_text(&sb, R);
		if (sb.len > 60) { sb.s[57] = '.'; sb.s[58] = '.'; sb.s[59] = '.'; sb.s[60] = 0; }
		fprintf(f, "%4u %6u %6u %8s %9llu %8llu %8llu %5llu  %s\n", i, R->nranks, R->nnodes, rl,
			(unsigned long long)R->messages_inside, (unsigned long long)R->messages_crossing,
			(unsigned long long)R->delayed, (unsigned long long)R->high, sb.s);
		sb_free(&sb);
	}
}

/* --- latency -------------------------------------------------------------------- */
struct top { double l; uint32_t msg; };

static int cmp_top(const void *a, const void *b)
{
	const struct top *x = a, *y = b;
	if (x->l != y->l) return x->l > y->l ? -1 : 1;
	return x->msg < y->msg ? -1 : x->msg > y->msg;
}

static size_t top_messages(const struct tc_latency *lat, struct top *out, size_t k)
{
	size_t n = 0;
	if (k > 64) {   /* a long list (--limit): one sort instead of k-wide insertions */
		struct top *all = xmalloc((lat->t->nmsgs ? lat->t->nmsgs : 1) * sizeof *all);
		for (size_t i = 0; i < lat->t->nmsgs; i++) all[i] = (struct top){ lat->l[i], (uint32_t)i };
		qsort(all, lat->t->nmsgs, sizeof *all, cmp_top);
		n = TC_MIN(k, lat->t->nmsgs);
		memcpy(out, all, n * sizeof *out);
		free(all);
		return n;
	}
	for (size_t i = 0; i < lat->t->nmsgs; i++) {
		struct top x = { lat->l[i], (uint32_t)i };
		if (n < k) { out[n++] = x; qsort(out, n, sizeof *out, cmp_top); continue; }
		if (cmp_top(&x, &out[k - 1]) < 0) {
			out[k - 1] = x;
			qsort(out, n, sizeof *out, cmp_top);
		}
	}
	return n;
}

void report_latency_json(struct tc_session *s, struct json *j)
{
	const struct tc_latency *lat = session_latency(s);
	const struct tc_trace *t = s->t;
	json_obj_begin(j);
	json_kstr(j, "transfer", "recv_completion - max(send_start, recv_posted)");
	json_kstr(j, "buckets", lat->opts.buckets == TC_LAT_BUCKETS_LINEAR ? "linear" : "log2");
	if (lat->opts.buckets == TC_LAT_BUCKETS_LINEAR) json_kuint(j, "bucket_bytes", lat->opts.bucket_bytes);
	json_kuint(j, "min_count", lat->opts.min_count);
	json_knum(j, "high_l", lat->opts.high_l);
	json_kuint(j, "messages", t->nmsgs);
	json_kuint(j, "delayed", lat->delayed);
	json_kuint(j, "high", lat->high);
	json_knum(j, "mean_l", lat->mean_l);
	json_key(j, "criteria");
	json_arr_begin(j);
	for (int c = 0; c < TC_LAT_NCLASS; c++)
		for (uint32_t i = 0; i < lat->nbuckets[c]; i++) {
			const struct tc_lat_bucket *b = &lat->criteria[c][i];
			json_obj_begin(j);
			json_kstr(j, "class", class_names[c]);
			json_kuint(j, "lo", b->lo);
			json_kuint(j, "hi", b->hi);
			json_kuint(j, "count", b->count);
			json_knum(j, "median", b->median);
			json_knum(j, "criterion", b->criterion);
			json_kbool(j, "interpolated", b->interpolated);
			json_obj_end(j);
		}
	json_arr_end(j);
	size_t ntop = report_limit(s, t->nmsgs, 10);
	struct top *tp = xmalloc((ntop ? ntop : 1) * sizeof *tp);
	size_t n = top_messages(lat, tp, ntop);
	json_key(j, "top");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct tc_msg *m = &t->msgs[tp[i].msg];
		json_obj_begin(j);
		json_kuint(j, "msg", tp[i].msg);
		json_kuint(j, "src", m->src);
		json_kuint(j, "dst", m->dst);
		json_kuint(j, "bytes", m->bytes);
		json_kstr(j, "class", class_names[lat->cls[tp[i].msg]]);
		report_time_json(j, "send_s", "send_ticks", t, m->send_time);
		json_knum(j, "transfer_s", lat->transfer[tp[i].msg]);
		json_knum(j, "raw_s", tc_lat_raw(lat, tp[i].msg));
		json_knum(j, "l", lat->l[tp[i].msg]);
		json_obj_end(j);
	}
	json_arr_end(j);
	report_list_cut_json(j, "top", t->nmsgs, n);
	free(tp);
	json_obj_end(j);
}

void report_latency_text(struct tc_session *s, FILE *f)
{
	const struct tc_latency *lat = session_latency(s);
	const struct tc_trace *t = s->t;
	char ml[32];
	fmt_l(ml, sizeof ml, lat->mean_l);
	fprintf(f, "%zu messages: %llu delayed (L > 1), %llu high (L >= %.2f), mean L %s\n", t->nmsgs,
		(unsigned long long)lat->delayed, (unsigned long long)lat->high, lat->opts.high_l, ml);
	fprintf(f, "transfer = receive completion - max(send start, receive posted); criterion = median per %s bucket\n",
		lat->opts.buckets == TC_LAT_BUCKETS_LINEAR ? "fixed-width" : "power-of-two");
	fprintf(f, "%-6s %-23s %8s %12s %12s\n", "class", "size", "count", "median", "criterion");
	for (int c = 0; c < TC_LAT_NCLASS; c++)
		for (uint32_t i = 0; i < lat->nbuckets[c]; i++) {
			const struct tc_lat_bucket *b = &lat->criteria[c][i];
			char lo[32], hi[32], med[32], cr[32], range[64];
			fmt_bytes(lo, sizeof lo, b->lo);
			fmt_bytes(hi, sizeof hi, b->hi);
			snprintf(range, sizeof range, "%s-%s", lo, hi);
			fmt_seconds(med, sizeof med, b->median);
			fmt_seconds(cr, sizeof cr, b->criterion);
			fprintf(f, "%-6s %-23s %8u %12s %12s%s\n", class_names[c], range, b->count, med, cr,
				b->interpolated ? " (interpolated)" : "");
		}
	struct top tp[10];
	size_t n = top_messages(lat, tp, 10);
	if (n) fprintf(f, "highest L:\n%6s %6s %10s %6s %12s %12s %8s\n", "src", "dst", "bytes", "class", "send at",
		       "transfer", "L");
	for (size_t i = 0; i < n; i++) {
		const struct tc_msg *m = &t->msgs[tp[i].msg];
		char at[32], tr[32], by[32];
		fmt_seconds(at, sizeof at, tc_sec(t, m->send_time));
		fmt_seconds(tr, sizeof tr, lat->transfer[tp[i].msg]);
		fmt_bytes(by, sizeof by, m->bytes);
		fprintf(f, "%6u %6u %10s %6s %12s %12s %8.2f\n", m->src, m->dst, by, class_names[lat->cls[tp[i].msg]], at,
			tr, tp[i].l);
	}
}

/* --- evolution ------------------------------------------------------------------ */
static void json_windows(struct json *j, const struct tc_latency *lat, const struct tc_lat_win *w)
{
	const struct tc_trace *t = lat->t;
	json_key(j, "windows");
	json_arr_begin(j);
	for (uint32_t i = 0; i < lat->nwindows; i++) {
		json_obj_begin(j);
		report_time_json(j, "start", "start_ticks", t, tc_lat_win_start(lat, i));
		report_time_json(j, "end", "end_ticks", t, tc_lat_win_end(lat, i));
		json_kuint(j, "messages", w[i].n);
		json_kuint(j, "inter", w[i].n_inter);
		json_knum(j, "mean_l", w[i].mean_l);
		json_knum(j, "max_l", w[i].max_l);
		json_kuint(j, "delayed", w[i].delayed);
		json_kuint(j, "high", w[i].high);
		json_knum(j, "mean_transfer", w[i].mean_transfer);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_periods(struct json *j, const struct tc_latency *lat, const struct tc_period *p, uint32_t n)
{
	const struct tc_trace *t = lat->t;
	json_key(j, "periods");
	json_arr_begin(j);
	for (uint32_t i = 0; i < n; i++) {
		json_obj_begin(j);
		json_kstr(j, "kind", tc_period_kind_names[p[i].kind]);
		json_kuint(j, "first", p[i].first);
		json_kuint(j, "last", p[i].last);
		report_time_json(j, "start", "start_ticks", t, tc_lat_win_start(lat, p[i].first));
		report_time_json(j, "end", "end_ticks", t, tc_lat_win_end(lat, p[i].last));
		json_knum(j, "mean_l", p[i].mean_l);
		if (p[i].kind == TC_PERIOD_OTHER) {
			json_key(j, "keep");
			json_arr_begin(j);
			for (int k = 0; k < 3; k++) json_uint(j, p[i].keep[k]);
			json_arr_end(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

void report_evolution_json(struct tc_session *s, struct json *j)
{
	const struct tc_latency *lat = session_latency(s);
	json_obj_begin(j);
	json_kuint(j, "nwindows", lat->nwindows);
	json_knum(j, "window_s", tc_dur(s->t, lat->win_dt));
	json_knum(j, "steady_level", lat->opts.steady_level);
	json_kuint(j, "steady_min", lat->opts.steady_min);
	json_knum(j, "growth_min", lat->opts.growth_min);
	json_key(j, "all");
	json_obj_begin(j);
	json_windows(j, lat, lat->win_all);
	json_periods(j, lat, lat->periods_all, lat->nperiods_all);
	json_key(j, "by_class");
	json_obj_begin(j);
	for (int c = 0; c < TC_LAT_NCLASS; c++) {
		json_key(j, class_names[c]);
		json_arr_begin(j);
		for (uint32_t w = 0; w < lat->nwindows; w++) {
			const struct tc_lat_win *x = &lat->win_class[w * 2 + c];
			json_obj_begin(j);
			json_kuint(j, "messages", x->n);
			json_knum(j, "mean_l", x->mean_l);
			json_knum(j, "mean_transfer", x->mean_transfer);
			json_kuint(j, "delayed", x->delayed);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
	json_obj_end(j);
	json_key(j, "evolution");
	json_arr_begin(j);
	for (uint32_t i = 0; i < lat->nregions; i++) {
		const struct tc_lat_region *R = &lat->regions[i];
		if (!R->messages_inside) continue;
		json_obj_begin(j);
		json_kuint(j, "region", i);
		json_knum(j, "rl", R->rl);
		json_windows(j, lat, R->win);
		json_periods(j, lat, R->periods, R->nperiods);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void text_periods(FILE *f, const struct tc_latency *lat, const struct tc_lat_win *w, const struct tc_period *p,
			 uint32_t n)
{
	const struct tc_trace *t = lat->t;
	for (uint32_t i = 0; i < n; i++) {
		char a[32], b[32], ml[32];
		fmt_seconds(a, sizeof a, tc_sec(t, tc_lat_win_start(lat, p[i].first)));
		fmt_seconds(b, sizeof b, tc_sec(t, tc_lat_win_end(lat, p[i].last)));
		fmt_l(ml, sizeof ml, p[i].mean_l);
		fprintf(f, "  %-11s windows %3u-%-3u %10s - %-10s mean L %s", tc_period_kind_names[p[i].kind], p[i].first,
			p[i].last, a, b, ml);
		if (p[i].kind == TC_PERIOD_OTHER) {
			fputs("  (start/mid/end L", f);
			for (int k = 0; k < 3; k++) {
				fmt_l(ml, sizeof ml, w[p[i].keep[k]].mean_l);
				fprintf(f, " %s", ml);
			}
			fputc(')', f);
		} else {
			fputs("  L:", f);
			for (uint32_t k = p[i].first; k <= p[i].last && k < p[i].first + 12; k++) {
				fmt_l(ml, sizeof ml, w[k].mean_l);
				fprintf(f, " %s", ml);
			}
			if (p[i].last >= p[i].first + 12) fputs(" ...", f);
		}
		fputc('\n', f);
	}
}

void report_evolution_text(struct tc_session *s, FILE *f)
{
	const struct tc_latency *lat = session_latency(s);
	char dt[32];
	fmt_seconds(dt, sizeof dt, tc_dur(s->t, lat->win_dt));
	fprintf(f, "%u windows of %s; steady high: mean L >= %.2f for >= %u windows; growth: rise >= %.2f\n",
		lat->nwindows, dt, lat->opts.steady_level, lat->opts.steady_min, lat->opts.growth_min);
	fprintf(f, "all messages:\n");
	text_periods(f, lat, lat->win_all, lat->periods_all, lat->nperiods_all);
	uint32_t shown = 0;
	for (uint32_t i = 0; i < lat->nregions; i++) {
		const struct tc_lat_region *R = &lat->regions[i];
		if (!R->messages_inside) continue;
		if (++shown > 50) { fprintf(f, "... more regions (see --json)\n"); break; }
		char rl[32];
		fmt_l(rl, sizeof rl, R->rl);
		struct strbuf sb;
		ranks_text(&sb, R);
		if (sb.len > 40) { sb.s[37] = '.'; sb.s[38] = '.'; sb.s[39] = '.'; sb.s[40] = 0; }
		fprintf(f, "region %u (ranks %s, RL %s, %llu messages):\n", i, sb.s, rl,
			(unsigned long long)R->messages_inside);
		sb_free(&sb);
		text_periods(f, lat, R->win, R->periods, R->nperiods);
	}
}
