/* testkit.h — helpers shared by the unit tests: where the shared Score-P
 * traces are, and loading one of them. */
#ifndef TC_TESTKIT_H
#define TC_TESTKIT_H

#include "analysis_cluster.h"
#include "model.h"

/* $TRACES (tests/run.sh sets it) when it is a directory, else the first
 * shared/traces found beside the working directory or one of its parents. */
const char *tk_traces_dir(void);
/* "<traces dir>/<name>" (caller frees). */
char *tk_trace_path(const char *name);
/* Load a shared trace with the reader; NULL (and a line on stderr) on failure. */
struct tc_trace *tk_load(const char *name, int threads);

/* The member ranks of a dendrogram node, sorted, as ranges ("0-3,8"); caller frees. */
char *tk_node_ranks(const struct tc_phase_clusters *ph, uint32_t node);

/* Whether two root-cause results (analysis_rootcause.h) are equal: every
 * figure and array, doubles bitwise, the contexts field by field (their
 * padding is undefined); the first difference on stderr. */
struct tc_rc_results;
bool tk_same_rc_results(const struct tc_rc_results *a, const struct tc_rc_results *b);
/* Whether two contexts are equal field by field (doubles bitwise). */
struct tc_rc_ctx;
bool tk_same_rc_ctx(const struct tc_rc_ctx *x, const struct tc_rc_ctx *y);

#endif
