/* cli.h — the user-facing commands.  Each returns the process exit code:
 * 0 success, 1 usage error, 2 bad input (trace cannot be read). */
#ifndef TC_CLI_H
#define TC_CLI_H

#include "model.h"
#include "read.h"

int cmd_info(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_remap(int argc, char **argv);
int cmd_tui(int argc, char **argv);

/* Shared option parsing: --threads N, --quiet.  Loads TRACE (anchor or directory)
 * or prints one line "tracecomb: PATH: problem" and returns NULL. */
struct tc_trace *cli_load(const char *path, const struct tc_read_opts *opts);
/* Parses "--threads N" / "--threads=N" at argv[*i]; returns true if consumed. */
bool cli_opt_threads(int argc, char **argv, int *i, struct tc_read_opts *opts);
/* Display name of a trace: the directory holding its anchor (caller frees). */
char *cli_trace_name(const char *anchor);

#endif
