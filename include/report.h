/* report.h — text and JSON output of analysis results (layer 4).  Each
 * section lives in its own file under src/report/ and is listed once in
 * src/report/sections.c. */
#ifndef TC_REPORT_H
#define TC_REPORT_H

#include "session.h"

struct report_section {
	const char *name;
	const char *help;
	void (*text)(struct tc_session *s, FILE *f);
	/* writes the section's value (one JSON object) */
	void (*json)(struct tc_session *s, struct json *j);
	bool rootcause;  /* reads the root-cause analysis (session_rootcause) */
};

extern const struct report_section report_sections[];
/* After section i of secs[0..n) is written: the analyses no section after it
 * needs are released (a batch report's peak memory). */
void report_release(struct tc_session *s, const struct report_section *const *secs, size_t n, size_t i);
extern const size_t report_nsections;
const struct report_section *report_find(const char *name);
/* The sections secs[0..n) as one JSON object on f (`report --json`). */
void report_json(struct tc_session *s, const struct report_section *const *secs, size_t n, FILE *f);
/* Validates one --opt "KEY=VALUE" (src/report/options.c, docs/options.md):
 * false with a one-line *err (caller frees) for an unknown key, a missing or
 * mistyped value, or a number out of the key's bounds. */
bool report_opt_check(const char *kv, char **err);

/* A timestamp (src/report/timejson.c): key_s = seconds since the trace's first
 * timestamp (info.clock.offset), 9 significant digits as every JSON number, and
 * key_ticks = the same as exact integer ticks (seconds = ticks / clock.resolution):
 * a 9-digit double loses microseconds on a run of hours, the ticks never do. */
struct tc_trace;
void report_time_json(struct json *j, const char *key_s, const char *key_ticks, const struct tc_trace *t,
		      uint64_t ticks);

/* Lists cut for length (src/report/limit.c): report_limit gives how many of
 * total items to list: `--limit N` (--opt limit=N; 0 = all) when given, else
 * def (0 = all); report_list_cut_json writes "<name>_total" and
 * "<name>_truncated" after the list, so that nothing is cut silently. */
size_t report_limit(const struct tc_session *s, size_t total, size_t def);
void report_list_cut_json(struct json *j, const char *name, size_t total, size_t shown);
/* The indices of the n largest positive values of v[0..len) (n = 0: all of
 * them), largest first, ties by index; *out is allocated (caller frees),
 * *total = how many are positive.  Returns how many are in *out. */
size_t report_top_positive(const double *v, size_t len, size_t n, uint32_t **out, size_t *total);

/* `report --csv --section NAME[.LIST]` (src/report/csv.c): the list LIST of
 * section NAME (default its first list of objects) as CSV on out; false with
 * a one-line *err (caller frees) for an unknown section or no such table. */
bool report_csv(struct tc_session *s, const char *name, FILE *out, char **err);

/* sections */
void report_info_text(struct tc_session *s, FILE *f);
void report_info_json(struct tc_session *s, struct json *j);
void report_steps_text(struct tc_session *s, FILE *f);
void report_steps_json(struct tc_session *s, struct json *j);
void report_waitstates_text(struct tc_session *s, FILE *f);
void report_waitstates_json(struct tc_session *s, struct json *j);
void report_profile_text(struct tc_session *s, FILE *f);
void report_profile_json(struct tc_session *s, struct json *j);
void report_counters_text(struct tc_session *s, FILE *f);
void report_counters_json(struct tc_session *s, struct json *j);
void report_regions_text(struct tc_session *s, FILE *f);
void report_regions_json(struct tc_session *s, struct json *j);
void report_latency_text(struct tc_session *s, FILE *f);
void report_latency_json(struct tc_session *s, struct json *j);
void report_evolution_text(struct tc_session *s, FILE *f);
void report_evolution_json(struct tc_session *s, struct json *j);
void report_clusters_text(struct tc_session *s, FILE *f);
void report_clusters_json(struct tc_session *s, struct json *j);
void report_verdicts_text(struct tc_session *s, FILE *f);
void report_verdicts_json(struct tc_session *s, struct json *j);
void report_dag_text(struct tc_session *s, FILE *f);
void report_dag_json(struct tc_session *s, struct json *j);
void report_critpath_text(struct tc_session *s, FILE *f);
void report_critpath_json(struct tc_session *s, struct json *j);

#endif
