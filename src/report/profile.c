/* profile.c — the "profile" report section and its session getter. */
#include "analysis_profile.h"
#include "report.h"

const struct tc_profile *session_profile(struct tc_session *s)
{
	if (!s->profile) s->profile = tc_profile_compute(s->t);
	return s->profile;
}

void report_profile_text(struct tc_session *s, FILE *f)
{
	const struct tc_profile *p = session_profile(s);
	const struct tc_trace *t = s->t;
	char a[32], b[32], c[32];
	fmt_seconds(a, sizeof a, p->total);
	fmt_seconds(b, sizeof b, p->mpi);
	fprintf(f, "rank time %s, in MPI %s (%.1f%%)\n", a, b, p->total > 0 ? 100.0 * p->mpi / p->total : 0.0);
	fprintf(f, "%-32s %9s %10s %6s %10s %5s %s\n", "region", "calls", "exclusive", "%", "inclusive", "imbal", "slowest rank");
	size_t nshown = report_limit(s, p->n, 20);
	for (uint32_t i = 0; i < nshown; i++) {
		const struct tc_prof_region *r = &p->regions[i];
		fmt_seconds(a, sizeof a, r->excl);
		fmt_seconds(b, sizeof b, r->incl);
		fmt_seconds(c, sizeof c, r->excl_max);
		fprintf(f, "%-32.32s %9llu %10s %5.1f%% %10s %4.0f%% %u (%s)\n", tc_region_name(t, r->region),
			(unsigned long long)r->calls, a, p->total > 0 ? 100.0 * r->excl / p->total : 0.0, b,
			100.0 * r->imbalance, r->rank_max, c);
	}
	if (p->n > nshown) fprintf(f, "... %zu more regions (--limit 0 lists all)\n", p->n - nshown);
	bool any = false;
	for (int k = 0; k < TC_PROF_HIST; k++) {
		if (!p->hist_count[k]) continue;
		if (!any) fprintf(f, "message sizes:\n");
		any = true;
		fmt_bytes(a, sizeof a, k ? 1ULL << (k - 1) : 0);
		fmt_bytes(b, sizeof b, p->hist_bytes[k]);
		fprintf(f, "  >= %-10s %10llu messages  %s\n", a, (unsigned long long)p->hist_count[k], b);
	}
}

static const char *const loc_types[] = { "cpu_thread", "gpu", "metric", "other" };

/* One per-rank or per-location record: the region, who, and the sums. */
static void cell_json(const struct tc_trace *t, const struct tc_prof_cell *c, bool by_loc, struct json *j)
{
	json_obj_begin(j);
	json_kstr(j, "name", tc_region_name(t, c->region));
	if (by_loc) {
		const struct tc_loc *L = &t->locs[c->who];
		json_kuint(j, "location", L->id);
		json_kstr(j, "location_name", L->name);
		json_kstr(j, "location_type", loc_types[L->type <= TC_LOC_OTHER ? L->type : TC_LOC_OTHER]);
		if (L->rank != TC_NONE) json_kuint(j, "rank", L->rank);
		json_kuint(j, "thread", L->thread);
	} else json_kuint(j, "rank", c->who);
	json_kuint(j, "calls", c->calls);
	json_knum(j, "exclusive_s", tc_dur(t, c->excl));
	json_knum(j, "inclusive_s", tc_dur(t, c->incl));
	json_kuint(j, "exclusive_ticks", c->excl);
	json_kuint(j, "inclusive_ticks", c->incl);
	json_obj_end(j);
}

/* Whether some rank has calls on a location other than its master thread. */
static bool has_threads(const struct tc_trace *t, const struct tc_prof_table *per_loc)
{
	for (size_t i = 0; i < per_loc->n; i++) {
		const struct tc_loc *L = &t->locs[per_loc->cells[i].who];
		if (L->rank < t->nranks && t->ranks[L->rank].loc != per_loc->cells[i].who) return true;
	}
	return false;
}

/* per_rank always, per_location when threads or streams have calls; each
 * list cut at --limit (default: all) with its _total and _truncated. */
static void profile_tables_json(struct tc_session *s, struct json *j)
{
	const struct tc_trace *t = s->t;
	bool given = s->prof_per_loc && s->prof_per_rank;
	struct tc_prof_table *pl = given ? s->prof_per_loc : tc_profile_locations(t);
	struct tc_prof_table *pr = given ? s->prof_per_rank : tc_profile_ranks(t, pl);
	size_t n = report_limit(s, pr->n, 0);
	json_key(j, "per_rank");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) cell_json(t, &pr->cells[i], false, j);
	json_arr_end(j);
	report_list_cut_json(j, "per_rank", pr->n, n);
	if (has_threads(t, pl)) {
		n = report_limit(s, pl->n, 0);
		json_key(j, "per_location");
		json_arr_begin(j);
		for (size_t i = 0; i < n; i++) cell_json(t, &pl->cells[i], true, j);
		json_arr_end(j);
		report_list_cut_json(j, "per_location", pl->n, n);
	}
	if (given) return;
	tc_prof_table_free(pr);
	tc_prof_table_free(pl);
}

void report_profile_json(struct tc_session *s, struct json *j)
{
	const struct tc_profile *p = session_profile(s);
	const struct tc_trace *t = s->t;
	json_obj_begin(j);
	json_knum(j, "total_s", p->total);
	json_knum(j, "mpi_s", p->mpi);
	json_key(j, "regions");
	json_arr_begin(j);
	size_t nshown = report_limit(s, p->n, 100);
	for (uint32_t i = 0; i < nshown; i++) {
		const struct tc_prof_region *r = &p->regions[i];
		json_obj_begin(j);
		json_kstr(j, "name", tc_region_name(t, r->region));
		json_kuint(j, "calls", r->calls);
		json_knum(j, "exclusive_s", r->excl);
		json_knum(j, "inclusive_s", r->incl);
		json_knum(j, "exclusive_min_s", r->excl_min);
		json_knum(j, "exclusive_max_s", r->excl_max);
		json_kuint(j, "ranks", r->nranks);
		json_kuint(j, "rank_max", r->rank_max);
		json_knum(j, "imbalance", r->imbalance);
		json_obj_end(j);
	}
	json_arr_end(j);
	report_list_cut_json(j, "regions", p->n, nshown);
	json_key(j, "message_sizes");
	json_arr_begin(j);
	for (int k = 0; k < TC_PROF_HIST; k++) {
		if (!p->hist_count[k]) continue;
		json_obj_begin(j);
		json_kuint(j, "min_bytes", k ? 1ULL << (k - 1) : 0);
		json_kuint(j, "max_bytes", k ? (1ULL << k) - 1 : 0);
		json_kuint(j, "count", p->hist_count[k]);
		json_kuint(j, "bytes", p->hist_bytes[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	profile_tables_json(s, j);
	json_obj_end(j);
}
