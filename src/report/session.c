/* session.c — the loaded trace plus lazily computed analysis results. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis_cluster.h"
#include "analysis_latency.h"
#include "analysis_profile.h"
#include "analysis_rootcause.h"
#include "analysis_span.h"
#include "analysis_steps.h"
#include "analysis_verdict.h"
#include "analysis_waitstate.h"
#include "session.h"

struct tc_session *session_new(struct tc_trace *t)
{
	struct tc_session *s = xcalloc(1, sizeof *s);
	s->t = t;
	return s;
}

void session_set_opt(struct tc_session *s, const char *kv)
{
	VEC_PUSH(s->opts, xstrdup(kv));
}

const char *session_opt(const struct tc_session *s, const char *key, const char *def)
{
	size_t n = strlen(key);
	for (size_t i = s->opts.n; i-- > 0;)
		if (!strncmp(s->opts.a[i], key, n) && s->opts.a[i][n] == '=') return s->opts.a[i] + n + 1;
	return def;
}

bool session_opt_bool(const struct tc_session *s, const char *key, bool def)
{
	const char *v = session_opt(s, key, NULL);
	if (!v) return def;
	return !strcasecmp(v, "on") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1");
}

double session_opt_num(const struct tc_session *s, const char *key, double def)
{
	const char *v = session_opt(s, key, NULL);
	if (!v || !*v) return def;
	char *end;
	double x = strtod(v, &end);
	return *end ? def : x;
}

const struct tc_span *session_span(struct tc_session *s)
{
	if (!s->span) {
		const char *v = session_opt(s, "span", "app");
		s->span = tc_span_compute(s->t, !strcmp(v, "all"));
	}
	return s->span;
}

void session_free(struct tc_session *s)
{
	if (!s) return;
	/* analysis results: each module frees its own */
	tc_clusters_free(s->clusters); /* before the steps it points into */
	tc_steps_free(s->steps);
	tc_waitstates_free(s->waitstates);
	tc_profile_free(s->profile);
	tc_prof_table_free(s->prof_per_loc);
	tc_prof_table_free(s->prof_per_rank);
	tc_latency_free(s->latency);
	tc_verdicts_free(s->verdicts);
	tc_rootcause_free(s->rootcause);
	tc_rc_results_free(s->rc_stored);
	tc_span_free(s->span);
	for (size_t i = 0; i < s->opts.n; i++) free(s->opts.a[i]);
	VEC_FREE(s->opts);
	tc_trace_free(s->t);
	free(s);
}
