/* counters.c — the "counters" report section: METRIC samples per rank and
 * per function (analysis_counters.h). */
#include "analysis_counters.h"
#include "report.h"

static const char *const modes[] = { "accumulated", "absolute", "relative", "other" };

static void value_json(struct json *j, const char *k, const struct tc_metric_def *m, int64_t i, double d)
{
	if (tc_metric_is_int(m)) json_kint(j, k, i);
	else json_knum(j, k, d);
}

void report_counters_json(struct tc_session *s, struct json *j)
{
	const struct tc_trace *t = s->t;
	struct tc_counters *C = tc_counters_compute(t);
	json_obj_begin(j);
	json_key(j, "metrics");
	json_arr_begin(j);
	for (uint32_t m = 0; m < t->nmetrics; m++) {
		json_obj_begin(j);
		json_kstr(j, "name", t->metrics[m].name);
		json_kstr(j, "unit", t->metrics[m].unit);
		json_kstr(j, "mode", modes[t->metrics[m].mode <= TC_MM_OTHER ? t->metrics[m].mode : TC_MM_OTHER]);
		json_kuint(j, "samples", t->metrics[m].nsamples);
		json_obj_end(j);
	}
	json_arr_end(j);
	size_t n = report_limit(s, C->nranks, 0);
	json_key(j, "per_rank");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct tc_counter_rank *x = &C->ranks[i];
		json_obj_begin(j);
		json_kstr(j, "metric", t->metrics[x->metric].name);
		json_kuint(j, "rank", x->rank);
		json_kuint(j, "samples", x->samples);
		json_knum(j, "min", x->min);
		json_knum(j, "max", x->max);
		json_knum(j, "increase", x->increase);
		json_obj_end(j);
	}
	json_arr_end(j);
	report_list_cut_json(j, "per_rank", C->nranks, n);
	n = report_limit(s, C->ncells, 0);
	json_key(j, "per_function");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct tc_counter_cell *x = &C->cells[i];
		const struct tc_metric_def *m = &t->metrics[x->metric];
		json_obj_begin(j);
		json_kstr(j, "metric", m->name);
		json_kstr(j, "name", tc_region_name(t, x->region));
		json_kuint(j, "rank", x->rank);
		json_kuint(j, "calls", x->calls);
		value_json(j, "exclusive", m, x->iexcl, x->dexcl);
		value_json(j, "inclusive", m, x->iincl, x->dincl);
		json_obj_end(j);
	}
	json_arr_end(j);
	report_list_cut_json(j, "per_function", C->ncells, n);
	json_obj_end(j);
	tc_counters_free(C);
}

void report_counters_text(struct tc_session *s, FILE *f)
{
	const struct tc_trace *t = s->t;
	if (!t->nmetrics) {
		fprintf(f, "no metrics in this trace\n");
		return;
	}
	struct tc_counters *C = tc_counters_compute(t);
	for (uint32_t m = 0; m < t->nmetrics; m++) {
		const struct tc_metric_def *M = &t->metrics[m];
		fprintf(f, "%s [%s] %s, %llu samples\n", M->name, M->unit, modes[M->mode <= TC_MM_OTHER ? M->mode : TC_MM_OTHER],
			(unsigned long long)M->nsamples);
		size_t shown = 0, lim = report_limit(s, C->ncells, 10), total = 0;
		for (size_t i = 0; i < C->ncells; i++) {
			const struct tc_counter_cell *x = &C->cells[i];
			if (x->metric != m) continue;
			total++;
			if (shown >= lim) continue;
			if (!shown++) fprintf(f, "  %-32s %6s %9s %16s %16s\n", "function", "rank", "calls", "exclusive", "inclusive");
			fprintf(f, "  %-32.32s %6u %9llu %16.0f %16.0f\n", tc_region_name(t, x->region), x->rank,
				(unsigned long long)x->calls, x->dexcl, x->dincl);
		}
		if (total > shown) fprintf(f, "  ... %zu more (--limit 0 lists all)\n", total - shown);
	}
	tc_counters_free(C);
}
