/* common.c — loading a trace for a command, shared option parsing. */
#include <stdlib.h>
#include <string.h>

#include "analysis_profile.h"
#include "analysis_span.h"
#include "analysis_steps.h"
#include "analysis_waitstate.h"
#include "cache.h"
#include "cli.h"
#include "session.h"
#include "ui.h"

struct tc_trace *cli_load(const char *path, const struct tc_read_opts *opts)
{
	char *err = NULL;
	struct tc_trace *t = tc_read_otf2(path, opts, &err);
	if (!t) {
		fprintf(stderr, "tracecomb: %s\n", err ? err : "cannot load trace");
		free(err);
	}
	return t;
}

bool cli_opt_threads(int argc, char **argv, int *i, struct tc_read_opts *opts)
{
	const char *v = NULL;
	if (!strcmp(argv[*i], "--threads") && *i + 1 < argc) v = argv[++*i];
	else if (!strncmp(argv[*i], "--threads=", 10)) v = argv[*i] + 10;
	else return false;
	char *end;
	long n = strtol(v, &end, 10);
	if (*end || n < 1 || n > 256) {
		fprintf(stderr, "tracecomb: --threads takes a number from 1 to 256\n");
		exit(1);
	}
	opts->threads = (int)n;
	return true;
}

bool cli_opt_cache(int argc, char **argv, int *i, struct cli_cache *c)
{
	if (!strcmp(argv[*i], "--no-cache")) c->off = true;
	else if (!strcmp(argv[*i], "--cache") && *i + 1 < argc) c->file = argv[++*i];
	else if (!strncmp(argv[*i], "--cache=", 8)) c->file = argv[*i] + 8;
	else return false;
	return true;
}

struct tc_session *cli_cache_session(const char *anchor, const struct cli_cache *c, const char *const *kv,
				     size_t nkv, bool full, char **note)
{
	*note = NULL;
	if (c->off) return NULL;
	char *err = NULL, *dir = NULL, *path = c->file ? xstrdup(c->file) : tc_cache_default_path(anchor, &dir, &err);
	free(dir);
	char *ident = path ? tc_cache_identity(anchor, kv, nkv, &err) : NULL;
	struct tc_trace *t = NULL;
	struct tc_steps *st = NULL;
	struct tc_span *span = NULL;
	enum tc_cache_verify v = full ? TC_VERIFY_ALL : TC_VERIFY_SMALL;
	enum tc_cache_status rc = ident ? tc_cache_open(path, ident, anchor, v, &t, &st, &span, &err) : TC_CACHE_ABSENT;
	static const char *const what[] = { "", "no such file", "stale", "corrupt" };
	struct tc_session *s = NULL;
	struct tc_cache_stored got = { 0 };
	if (rc == TC_CACHE_OK && !tc_cache_stored(t, &got)) {
		tc_steps_free(st);
		tc_span_free(span);
		tc_trace_free(t);
		rc = TC_CACHE_CORRUPT;
		err = xstrdup("a stored result out of bounds");
	}
	char *why = err ? xasprintf(" (%s)", err) : xstrdup("");
	if (rc == TC_CACHE_OK) {
		s = session_new(t);
		s->steps = st;
		s->span = span;
		s->waitstates = got.ws;   /* stored since format 4: not computed again */
		s->profile = got.profile;
		s->prof_per_loc = got.per_loc;
		s->prof_per_rank = got.per_rank;
		s->rc_stored = got.rc;    /* since format 5 */
		for (size_t i = 0; i < nkv; i++) session_set_opt(s, kv[i]);
		size_t n = 0;   /* a cache without the steps says so, and why when it knows (tracecomb-mpi over its bound) */
		const char *no = st ? NULL : tc_cache_blob(t, TC_CACHE_NOTE_BLOB, &n);
		if (st) *note = xasprintf("cache: %s used", path);
		else *note = xasprintf("cache: %s used (%s: computed when needed)", path,
				       no && n && memchr(no, 0, n) ? no : "the logical steps not stored");
	} else if (rc != TC_CACHE_ABSENT || c->file)
		*note = xasprintf("cache: %s%s%s%s, reading the trace", c->file ? c->file : "", c->file ? ": " : "",
				  what[rc], why);
	free(why);
	free(err);
	free(ident);
	free(path);
	return s;
}

struct tc_session *cli_open(const char *path, const struct tc_read_opts *ro, const struct cli_cache *c,
			    const char *const *kv, size_t nkv)
{
	char *err = NULL, *note = NULL, *anchor = c->off ? NULL : tc_find_anchor(path, &err);
	free(err);
	struct tc_session *s = anchor ? cli_cache_session(anchor, c, kv, nkv, true, &note) : NULL;
	if (note) fprintf(stderr, "%s\n", note);
	free(note);
	free(anchor);
	if (s) return s;
	struct tc_trace *t = cli_load(path, ro);
	if (!t) return NULL;
	s = session_new(t);
	for (size_t i = 0; i < nkv; i++) session_set_opt(s, kv[i]);
	return s;
}

struct tc_lsum *cli_cached_lsum(const struct tc_session *s)
{
	size_t n = 0;
	const void *blob = s->steps ? tc_cache_blob(s->t, LSUM_CACHE_BLOB, &n) : NULL;
	return blob ? lsum_unpack(blob, n, s->steps) : NULL;
}
