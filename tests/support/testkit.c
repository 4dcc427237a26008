/* testkit.c — helpers shared by the unit tests. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_rootcause.h"
#include "read.h"
#include "testkit.h"

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tk_traces_dir(void)
{
	static char found[PATH_MAX];
	const char *d = getenv("TRACES");
	if (d && *d && is_dir(d)) return d;
	if (found[0]) return found;
	char cwd[PATH_MAX - 32];
	if (!getcwd(cwd, sizeof cwd)) return "../shared/traces";
	for (;;) {
		snprintf(found, sizeof found, "%s/../shared/traces", cwd);
		if (is_dir(found)) return found;
		char *slash = strrchr(cwd, '/');
		if (!slash || slash == cwd) break;
		*slash = '\0';
	}
	snprintf(found, sizeof found, "../shared/traces");
	return found;
}

char *tk_trace_path(const char *name)
{
	return xasprintf("%s/%s", tk_traces_dir(), name);
}

struct tc_trace *tk_load(const char *name, int threads)
{
	char *p = tk_trace_path(name), *err = NULL;
	struct tc_read_opts o = { .threads = threads };
	struct tc_trace *t = tc_read_otf2(p, &o, &err);
	if (!t) fprintf(stderr, "%s: %s\n", p, err ? err : "cannot load");
	free(p);
	free(err);
	return t;
}

char *tk_node_ranks(const struct tc_phase_clusters *ph, uint32_t node)
{
	uint32_t *v = tc_clusters_node_ranks(ph, node);
	struct strbuf b = { 0 };
	fmt_ranges(&b, v, ph->nodes[node].size);
	free(v);
	return sb_detach(&b);
}

#define DIFF(what)                                              \
	do {                                                    \
		fprintf(stderr, "rc results differ: %s\n", what); \
		return false;                                   \
	} while (0)

bool tk_same_rc_ctx(const struct tc_rc_ctx *x, const struct tc_rc_ctx *y)
{
	return x->key == y->key && x->coarse == y->coarse && x->place == y->place && x->work == y->work &&
	       x->n == y->n && x->nranks == y->nranks && x->region == y->region && x->kind == y->kind &&
	       x->inter == y->inter && x->size_bucket == y->size_bucket && x->quiet == y->quiet &&
	       x->typical == y->typical && !memcmp(&x->median, &y->median, 8) && !memcmp(&x->mad, &y->mad, 8) &&
	       !memcmp(&x->threshold, &y->threshold, 8) && !memcmp(&x->full_median, &y->full_median, 8) &&
	       !memcmp(&x->full_threshold, &y->full_threshold, 8);
}

bool tk_same_rc_results(const struct tc_rc_results *a, const struct tc_rc_results *b)
{
	if (a->nranks != b->nranks || a->nctx != b->nctx || a->nexcess != b->nexcess || a->npath != b->npath)
		DIFF("counts");
	for (uint32_t c = 0; c < a->nctx; c++)
		if (!tk_same_rc_ctx(&a->ctx[c], &b->ctx[c])) DIFF("a context");
	if (memcmp(&a->fig, &b->fig, sizeof a->fig)) DIFF("a run-level figure");   /* 8-byte fields: no padding */
	size_t arr = a->nranks * sizeof(double);
	if (memcmp(a->wait_s, b->wait_s, arr) || memcmp(a->delay_cost, b->delay_cost, arr) ||
	    memcmp(a->path_compute_excess, b->path_compute_excess, arr) || memcmp(a->path_mpi_excess, b->path_mpi_excess, arr))
		DIFF("a per-rank sum");
	size_t n = a->nexcess;
	if (memcmp(a->ex_act, b->ex_act, n * 4) || memcmp(a->ex_excess, b->ex_excess, n * 4) ||
	    memcmp(a->ex_delay, b->ex_delay, n * 4) || memcmp(a->ex_outlier, b->ex_outlier, n))
		DIFF("an activity with excess");
	for (size_t k = 0; k < a->npath; k++) {
		const struct tc_cp_piece *x = &a->path[k], *y = &b->path[k];
		if (x->start != y->start || x->end != y->end || x->rank != y->rank || x->act != y->act || x->kind != y->kind ||
		    memcmp(&x->excess, &y->excess, 8))
			DIFF("a path piece");
	}
	return true;
}
