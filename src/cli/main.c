/* main.c — command dispatch and --help. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ui.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "info", cmd_info, "info TRACE [--json] [--threads N] [--no-cache | --cache FILE]\n"
	  "      what is in the archive: ranks, nodes, events by kind, messages, collectives, clock" },
	{ "report", cmd_report, "report TRACE [--json | --csv] [--section NAME[,NAME...]] [--opt KEY=VALUE] [--limit N]\n"
	  "         [--no-cache | --cache FILE]\n"
	  "      every analysis as text or one JSON object (a key per section); --limit N: at most N\n"
	  "      items per long list (0 = all), JSON says <list>_total and <list>_truncated; every\n"
	  "      timestamp X_s has X_ticks beside it; --csv --section NAME[.LIST]: one table as CSV" },
	{ "remap", cmd_remap, "remap TRACE [-o FILE [--force]] [--format openmpi|mpich|plain] [--weight bytes|messages]\n"
	  "      a rank-to-node placement (METIS) that cuts inter-node traffic; writes only with -o" },
	{ "render", cmd_render, "render TRACE --view VIEW --size WxH [--step N] [--rank R]\n"
	  "         [--metric M] [--color] [--ascii] [--theme NAME|PATH] [--no-agg] [--filter REGEX]\n"
	  "         [--search REGEX] [--keys KEYS] [--no-cache | --cache FILE]\n"
	  "      one view drawn exactly as the terminal UI draws it, as text (ANSI with --color);\n"
	  "      --keys: typed in the view first (e.g. E, #, t; \\r is Enter)" },
	{ "prep", cmd_prep, "prep TRACE [-o FILE [--force]] [--opt KEY=VALUE] [--threads N]\n"
	  "      read the archive once and write its analysis cache (the model and the logical steps;\n"
	  "      default: $XDG_CACHE_HOME/tracecomb/, else ~/.cache/tracecomb/), used from then on by\n"
	  "      the UI, info, report and render (--no-cache: not; --cache FILE: that file)" },
	{ "tui", cmd_tui, "tui TRACE [--theme NAME|PATH] [--ascii] [--color=auto|always|never] [--threads N] [--no-mouse]\n"
	  "         [--no-cache | --cache FILE]\n"
	  "      the terminal UI (the same as `tracecomb TRACE`); keys: ? inside" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tracecomb TRACE [--theme NAME|PATH] [--ascii] [--color=auto|always|never] [--threads N] [--no-mouse]\n"
		   "                 [--no-cache | --cache FILE]\n"
		   "      open the terminal UI (press ? inside for the keys)\n");
	for (size_t i = 0; i < TC_NELEM(commands); i++)
		fprintf(f, "       tracecomb %s\n", commands[i].usage);
	struct strbuf views = { 0 };
	view_names(&views, ", ");
	fprintf(f, "\nVIEW is one of %s, detail.\n", views.s);
	sb_free(&views);
	fprintf(f, "TRACE is an OTF2 anchor file (traces.otf2) or the directory holding it.\n"
		   "A valid cache written by `tracecomb prep TRACE` is used automatically (the UI's status line\n"
		   "and stderr say so; a stale or corrupt one is ignored with one line why); --no-cache skips it,\n"
		   "--cache FILE names one.\n"
		   "Exit codes: 0 ok; 1 usage error (or an output place refused: -o on an existing file\n"
		   "without --force, a symlink, a directory, a trace directory); 2 the trace cannot be read\n"
		   "(missing, corrupt, implausible); 3 out of memory; 4 the output cannot be written\n"
		   "(stdout or -o FILE: full disk, closed stdout, no permission). Killed by a signal\n"
		   "(ulimit -t: SIGXCPU, ...): the terminal is restored, one line, then status 128+signal.\n");
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	cli_guard_std_fds();
	return cli_finish_stdout(run(argc, argv));
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tracecomb %s\n", TC_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "dump-model")) return cmd_dump_model(argc - 1, argv + 1); /* tests only: not in --help */
	for (size_t i = 0; i < TC_NELEM(commands); i++) {
		if (strcmp(argv[1], commands[i].name) != 0) continue;
		for (int a = 2; a < argc; a++)
			if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
				printf("usage: tracecomb %s\n", commands[i].usage);
				return 0;
			}
		return commands[i].run(argc - 1, argv + 1);
	}
	/* no command: a trace (or a TUI option) opens the terminal UI */
	if (argv[1][0] == '-' || strchr(argv[1], '/') || strchr(argv[1], '.'))
		return cmd_tui(argc, argv);
	{
		FILE *f = fopen(argv[1], "r");
		if (f) {
			fclose(f);
			return cmd_tui(argc, argv);
		}
	}
	fprintf(stderr, "tracecomb: unknown command '%s' (try --help)\n", argv[1]);
	return 1;
}
