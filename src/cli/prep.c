/* prep.c — `tracecomb prep TRACE [-o FILE]`: read the archive, compute what
 * the cache stores (the logical steps) and write the cache file, atomically
 * (a temporary file renamed into place), by default under
 * $XDG_CACHE_HOME/tracecomb/ and never into the trace directory.  docs/cache.md. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis_profile.h"
#include "analysis_rootcause.h"
#include "analysis_waitstate.h"
#include "cache.h"
#include "cli.h"
#include "report.h"
#include "ui.h"

#define PREP_USAGE "usage: tracecomb prep TRACE [-o FILE [--force]] [--opt KEY=VALUE] [--threads N]\n"

struct prep_args {
	struct tc_read_opts opts;
	const char *path, *out;
	bool force;
	VEC(const char *) kv;
};

static int parse_args(int argc, char **argv, struct prep_args *A)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) A->out = argv[++i];
		else if (!strcmp(argv[i], "--force")) A->force = true;
		else if (cli_opt_threads(argc, argv, &i, &A->opts)) continue;
		else if (!strcmp(argv[i], "--opt") && i + 1 < argc) {
			char *e = NULL;
			if (!report_opt_check(argv[++i], &e)) {
				fprintf(stderr, "tracecomb prep: %s\n", e);
				free(e);
				return 1;
			}
			VEC_PUSH(A->kv, argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "tracecomb prep: unknown option '%s'\n" PREP_USAGE, argv[i]);
			return 1;
		} else if (!A->path) A->path = argv[i];
		else {
			fprintf(stderr, PREP_USAGE);
			return 1;
		}
	}
	if (!A->path) fprintf(stderr, PREP_USAGE);
	return A->path ? 0 : 1;
}

/* Where the cache goes: -o FILE, else the default place (created).  NULL
 * after a message. */
static char *out_path(const struct prep_args *A, const char *anchor, bool *force)
{
	if (A->out) {
		*force = A->force || tc_cache_is_file(A->out);
		return xstrdup(A->out);
	}
	char *err = NULL, *path = tc_cache_default_place(anchor, &err);
	*force = true;
	if (!path) fprintf(stderr, "tracecomb prep: warning: %s; nothing written\n", err);
	free(err);
	return path;
}

/* The cache of the loaded session written to path.  0 or the exit code. */
static int write_cache(struct tc_session *s, const char *path, bool force, const char *anchor, const char *ident)
{
	struct cli_out o;
	int rc = cli_out_open(&o, path, force, anchor);
	if (rc) return rc;
	/* what the first frame needs: the steps, the span, the lateness summary */
	const struct tc_steps *st = session_steps(s);
	struct tc_lsum *sum = lsum_build(st, TC_M_LATENESS, true);
	struct strbuf blob = { 0 };
	lsum_pack(sum, &blob);
	lsum_free(sum);
	struct tc_cache_blob b = { .name = LSUM_CACHE_BLOB, .p = blob.s, .size = blob.len };
	struct tc_cache_results res = { .steps = st, .span = session_span(s), .blobs = &b, .nblobs = 1 };
	/* what report and the views would compute on every open: the wait states and the profile */
	const struct tc_waitstates *ws = session_waitstates(s);
	res.ws = ws, res.waits = ws->w, res.nwaits = ws->n;
	res.profile = session_profile(s);
	struct tc_prof_table *pl = tc_profile_locations(s->t), *pr = tc_profile_ranks(s->t, pl);
	res.per_loc = pl, res.per_rank = pr;
	/* and the root causes beyond their activities (format 5) */
	struct tc_rc_results *rcx = tc_rc_results_of(session_rootcause(s));
	res.rc = rcx;
	char *err = NULL;
	double t0 = tc_now();
	bool ok = tc_cache_write(o.f, s->t, &res, ident, &err);
	sb_free(&blob);
	tc_prof_table_free(pl), tc_prof_table_free(pr);
	tc_rc_results_free(rcx);
	long size = ok && fseek(o.f, 0, SEEK_END) == 0 ? ftell(o.f) : -1;
	if (!ok) {   /* a full disk: no file, no temporary left */
		fprintf(stderr, "tracecomb: %s: write failed: %s\n", path, err);
		free(err);
		cli_out_abort(&o);
		return TC_EXIT_OUTPUT;
	}
	rc = cli_out_close(&o);
	if (!rc) {
		char b1[32], b2[32];
		uint64_t model = tc_trace_bytes(s->t);
		fmt_bytes(b1, sizeof b1, (uint64_t)size);
		fmt_bytes(b2, sizeof b2, model);
		printf("prep: wrote %s: %s (the model %s in memory: %.2fx), the logical steps, span, lateness summary, wait states, profile and root causes stored; written in %.2f s\n",
		       path, b1, b2, model ? (double)size / (double)model : 0.0, tc_now() - t0);
	}
	return rc;
}

int cmd_prep(int argc, char **argv)
{
	struct prep_args A = { 0 };
	int rc = parse_args(argc, argv, &A);
	char *err = NULL, *anchor = rc ? NULL : tc_find_anchor(A.path, &err);
	if (!rc && !anchor) {
		fprintf(stderr, "tracecomb: %s\n", err ? err : A.path);
		rc = 2;
	}
	/* the identity before reading: a file changed meanwhile makes the cache stale, not wrong */
	char *ident = anchor ? tc_cache_identity(anchor, A.kv.a, A.kv.n, &err) : NULL;
	if (anchor && !ident) {
		fprintf(stderr, "tracecomb: %s\n", err);
		rc = 2;
	}
	bool force = false;
	char *path = ident ? out_path(&A, anchor, &force) : NULL;
	if (ident && !path) rc = TC_EXIT_OUTPUT;
	struct tc_trace *t = path ? cli_load(A.path, &A.opts) : NULL;
	if (path && !t) rc = 2;
	if (t) {
		struct tc_session *s = session_new(t);
		for (size_t i = 0; i < A.kv.n; i++) session_set_opt(s, A.kv.a[i]);
		rc = write_cache(s, path, force, anchor, ident);
		session_free(s);
	}
	free(err);
	free(path);
	free(ident);
	free(anchor);
	VEC_FREE(A.kv);
	return rc;
}
