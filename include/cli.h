/* cli.h — the user-facing commands.  Each returns the process exit code
 * (README.md, "Exit codes"): */
#ifndef TC_CLI_H
#define TC_CLI_H

#include "model.h"
#include "read.h"
#include "session.h"

enum tc_exit {
	TC_EXIT_OK = 0,
	TC_EXIT_USAGE = 1,   /* bad command line; a refused output place (-o) */
	TC_EXIT_TRACE = 2,   /* the trace cannot be read (missing, corrupt, implausible) */
	TC_EXIT_OOM = 3,     /* out of memory (tc_oom) */
	TC_EXIT_OUTPUT = 4,  /* the output cannot be written (stdout or -o FILE), errno's text */
};

int cmd_info(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_remap(int argc, char **argv);
int cmd_tui(int argc, char **argv);
int cmd_prep(int argc, char **argv);
int cmd_dump_model(int argc, char **argv);  /* hidden: src/cli/dump.c */

/* Shared option parsing: --threads N, --quiet.  Loads TRACE (anchor or directory)
 * or prints one line "tracecomb: PATH: problem" and returns NULL. */
struct tc_trace *cli_load(const char *path, const struct tc_read_opts *opts);
/* Parses "--threads N" / "--threads=N" at argv[*i]; returns true if consumed. */
bool cli_opt_threads(int argc, char **argv, int *i, struct tc_read_opts *opts);
/* The analysis cache (docs/cache.md): --no-cache, --cache FILE. */
struct cli_cache { bool off; const char *file; };
/* Parses "--no-cache", "--cache FILE" / "--cache=FILE" at argv[*i]; returns true if consumed. */
bool cli_opt_cache(int argc, char **argv, int *i, struct cli_cache *c);
/* The session of the archive at anchor from its cache (c->file, else the
 * default place), the options kv set, when the cache is valid; else NULL.
 * *note is one line for the user ("cache: PATH used", "cache: stale (why),
 * reading the trace", ...) or NULL (no cache file, --no-cache).  full: check
 * every section now (info, report, render) rather than the small ones
 * (docs/cache.md, "Checksums"). */
struct tc_session *cli_cache_session(const char *anchor, const struct cli_cache *c, const char *const *kv,
				     size_t nkv, bool full, char **note);
/* The first frame's lateness summary (ui.h) from the session's cache, NULL
 * when it has none (then lsum_build). */
struct tc_lsum *cli_cached_lsum(const struct tc_session *s);
/* TRACE as a session: from its cache when valid (saying so on stderr), else
 * read (cli_load), the options kv set; NULL after a message. */
struct tc_session *cli_open(const char *path, const struct tc_read_opts *ro, const struct cli_cache *c,
			    const char *const *kv, size_t nkv);
/* Keep file descriptors 0-2 open (on /dev/null when closed), noting a closed
 * stdout: call first in main. */
void cli_guard_std_fds(void);
/* Flush and close stdout; a write error (ENOSPC, EBADF, a closed stdout) is
 * one message and TC_EXIT_OUTPUT unless rc is already an error. */
int cli_finish_stdout(int rc);
/* A file written with -o (outfile.c): cli_out_open refuses a symlink, a
 * directory, an existing file without force and any place inside the trace's
 * (anchor's) directory or another OTF2 archive directory (TC_EXIT_USAGE), or
 * cannot create (TC_EXIT_OUTPUT), with one message; else 0 and o->f is a new
 * temporary file beside PATH.  cli_out_close moves it into place (0) or
 * removes it (TC_EXIT_OUTPUT, with errno's text). */
struct cli_out { const char *path; char *tmp; FILE *f; int fd; bool force; };
int cli_out_open(struct cli_out *o, const char *path, bool force, const char *anchor);
int cli_out_close(struct cli_out *o);
/* Give up a file opened with cli_out_open: the temporary file removed, nothing written. */
void cli_out_abort(struct cli_out *o);
/* Display name of a trace: the directory holding its anchor (caller frees). */
char *cli_trace_name(const char *anchor);

#endif
