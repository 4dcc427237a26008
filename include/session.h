/* session.h — one loaded trace and the analysis results computed from it,
 * lazily, on first use.  Shared by `report`, `render` and the TUI (layers 4–5).
 * Analysis modules (include/analysis_*.h) stay pure functions over the model;
 * the session only caches their results and owns the options. */
#ifndef TC_SESSION_H
#define TC_SESSION_H

#include "model.h"

struct tc_steps;
struct tc_clusters;
struct tc_latency;
struct tc_verdicts;
struct tc_waitstates;
struct tc_profile;
struct tc_prof_table;
struct tc_span;
struct tc_rootcause;
struct tc_rc_results;

struct tc_session {
	struct tc_trace *t;
	/* cached results, NULL until first asked for */
	struct tc_steps *steps;
	struct tc_clusters *clusters;
	struct tc_latency *latency;
	struct tc_verdicts *verdicts;
	struct tc_waitstates *waitstates;
	struct tc_profile *profile;
	struct tc_span *span;
	struct tc_rootcause *rootcause;
	/* the root causes beyond the activities when given (a cache stores them
	 * since format 5): session_rootcause makes the activities and puts these
	 * in (tc_rootcause_from) instead of computing them */
	struct tc_rc_results *rc_stored;
	/* the profile's per-location and per-rank tables when given (a replay over
	 * parts, tracecomb-mpi); NULL: the report computes them from t */
	struct tc_prof_table *prof_per_loc, *prof_per_rank;
	/* options given on the command line as "name=value" strings, read by the
	 * modules' session getters (e.g. "caller_merge=off") */
	VEC(char *) opts;
};

struct tc_session *session_new(struct tc_trace *t);
void session_free(struct tc_session *s);
/* "key=value" options; session_opt returns the value or def. */
void session_set_opt(struct tc_session *s, const char *kv);
const char *session_opt(const struct tc_session *s, const char *key, const char *def);
bool session_opt_bool(const struct tc_session *s, const char *key, bool def);
/* A number; def when absent or not a number. */
double session_opt_num(const struct tc_session *s, const char *key, double def);

/* The application span (analysis_span.h): Init leave .. Finalize enter, or the
 * whole trace with --opt span=all.  Every view and report computes its windows,
 * shares and confidences over it. */
const struct tc_span *session_span(struct tc_session *s);
/* Lazily computed results (each implemented next to its report section). */
const struct tc_steps *session_steps(struct tc_session *s);
/* The steps' options the session's --opt values give (the defaults else). */
struct tc_steps_opts;
void session_steps_opts(const struct tc_session *s, struct tc_steps_opts *o);
const struct tc_waitstates *session_waitstates(struct tc_session *s);
const struct tc_profile *session_profile(struct tc_session *s);
const struct tc_latency *session_latency(struct tc_session *s);
const struct tc_verdicts *session_verdicts(struct tc_session *s);
/* Wait/own split, excess, critical path and delay costs (analysis_rootcause.h). */
const struct tc_rootcause *session_rootcause(struct tc_session *s);
/* Frees it (computed again when asked for): a batch report drops it once no
 * section left needs it (report_release), which keeps its activities out of
 * the peak of the sections after it. */
void session_release_rootcause(struct tc_session *s);
/* Clusters per phase, each phase computed when first asked for (analysis_cluster.h). */
struct tc_clusters *session_clusters(struct tc_session *s);

#endif
