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
};

extern const struct report_section report_sections[];
extern const size_t report_nsections;
const struct report_section *report_find(const char *name);
/* Validates one --opt "KEY=VALUE" (src/report/options.c, docs/options.md):
 * false with a one-line *err (caller frees) for an unknown key, a missing or
 * mistyped value, or a number out of the key's bounds. */
bool report_opt_check(const char *kv, char **err);

/* sections */
void report_info_text(struct tc_session *s, FILE *f);
void report_info_json(struct tc_session *s, struct json *j);
void report_steps_text(struct tc_session *s, FILE *f);
void report_steps_json(struct tc_session *s, struct json *j);
void report_waitstates_text(struct tc_session *s, FILE *f);
void report_waitstates_json(struct tc_session *s, struct json *j);
void report_profile_text(struct tc_session *s, FILE *f);
void report_profile_json(struct tc_session *s, struct json *j);
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
