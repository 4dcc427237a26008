/* main.c — tracecomb-mpi: `mpirun -np P tracecomb-mpi prep TRACE -o FILE`.
 * Every process reads its share of the ranks with the OTF2 MPI collective
 * callbacks and the model is finished across the processes (part.h,
 * docs/scale.md); no process holds the whole trace.  Failure anywhere (an
 * unreadable file on one share, out of memory) ends every process with one
 * message and leaves no output. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_replay.h"
#include "analysis_steps_dist.h"
#include "cache.h"
#include "cli.h"
#include "mpi_internal.h"
#include "report.h"

#define TC_VERSION "0.1.0"

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun -np P tracecomb-mpi prep TRACE [-o FILE] [--force] [--opt KEY=VALUE]...\n"
		   "                 [--steps-bound SIZE] [--dump DIR] [--replay FILE] [--stats]\n"
		   "      every process reads its share of the ranks (whole ranks, balanced by the\n"
		   "      definitions' event counts) and the model is built across the processes:\n"
		   "      messages matched and numbered, collectives grouped, exactly as `tracecomb`\n"
		   "      builds it alone (docs/scale.md); no process holds the whole trace.\n"
		   "      -o FILE: the analysis cache file, written by every process together (each\n"
		   "      its own ranks' bytes) and opened by `tracecomb TRACE --cache FILE`, `info`,\n"
		   "      `report`, `render` as a serial `tracecomb prep` cache (docs/cache.md), with\n"
		   "      what a serial cache stores: the model, the application span, the logical\n"
		   "      steps, the lateness summary, the wait states, the profile and the root\n"
		   "      causes (replayed over the parts). An existing FILE is replaced when it is a\n"
		   "      cache file, else only with --force. Without -o (and without --dump and\n"
		   "      --replay) the file goes where `tracecomb prep` puts it and `tracecomb TRACE`\n"
		   "      finds it: $XDG_CACHE_HOME/tracecomb/, else ~/.cache/tracecomb/.\n"
		   "      --opt KEY=VALUE as `tracecomb prep`'s: the\n"
		   "      cache matches the commands given the same options (but caller_merge=on: the\n"
		   "      steps are then not stored; rc_* values: the root causes are not stored).\n"
		   "      --steps-bound SIZE: the memory one process may take for the logical steps,\n"
		   "      which the processes compute together and keep in slices (the owner of most\n"
		   "      partitions' events, or process 0 with the partitions' records; with --opt\n"
		   "      leap_merge=on: process 0, to gather the communication skeleton and compute\n"
		   "      them), and (apart) process 0 to hold the root causes' records per rank and\n"
		   "      per context\n"
		   "      (bytes, or with K, M, G; default 4G; docs/scale.md); over it\n"
		   "      those are not stored (prep says so, the cache for the steps) and are computed\n"
		   "      when the file is opened.\n"
		   "      --dump DIR: each process's part as text, DIR/part-<i>.txt, and the replay's\n"
		   "      results as text, DIR/replay.txt: the profile, the wait states, the root\n"
		   "      causes' wait/own split per rank, contexts, typical values and excess,\n"
		   "      delay costs and critical path (for tests);\n"
		   "      --replay FILE: the profile and wait states replayed over the parts (every\n"
		   "      process its ranks, docs/scale.md \"Replay\"), written by process 0 as\n"
		   "      `tracecomb report --json --section profile,waitstates` writes them;\n"
		   "      --stats: per process: its ranks and their events, read and finish time, replay and\n"
		   "      steps CPU time, peak RSS (also per event of the trace / P, and how much each\n"
		   "      raised it), exchange rounds, bytes sent, CPU time;\n"
		   "      with -o the steps' counts and bytes against --steps-bound\n"
		   "       tracecomb-mpi --help | --version\n"
		   "Exit codes as tracecomb's: 1 usage or a refused -o place, 2 the trace cannot be read\n"
		   "(on any process: one message, from the first that failed), 3 out of memory, 4 the\n"
		   "output cannot be written. TC_MPI_ROUND_BYTES: bytes a process sends (and receives)\n"
		   "at most per exchange round (default 16 MiB) and per round of the logical steps'\n"
		   "routing to the partitions' owners (default 32 MiB).\n");
}

/* --- cleanup when a process dies ---------------------------------------------- */
static char *tmp_path;           /* the temporary cache file (process 0) */
static volatile sig_atomic_t mpi_up;

static void unlink_tmps(void)
{
	if (tmp_path) unlink(tmp_path);
}

static void on_signal(int sig)
{
	unlink_tmps();
	_exit(128 + sig);
}

/* exit() without MPI_Finalize (out of memory, a fatal error): end every process */
static void at_exit(void)
{
	unlink_tmps();
	if (mpi_up) MPI_Abort(MPI_COMM_WORLD, 3);
}

static void guard(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(at_exit);
}

/* --- prep ------------------------------------------------------------------------- */
struct prep {
	const char *trace, *out, *dump, *replay;
	bool force, stats;
	uint64_t steps_bound;
	const char **opts;   /* --opt values */
	size_t nopts;
};

/* SIZE: a number of bytes, or with K, M or G (binary); false when not one. */
static bool parse_size(const char *v, uint64_t *out)
{
	char *end;
	unsigned long long n = strtoull(v, &end, 10);
	int shift = !*end ? 0 : !strcmp(end, "K") ? 10 : !strcmp(end, "M") ? 20 : !strcmp(end, "G") ? 30 : -1;
	if (end == v || *v == '-' || shift < 0 || n > (UINT64_MAX >> shift)) return false;
	*out = (uint64_t)n << shift;
	return true;
}

static int parse(int argc, char **argv, struct prep *o, bool talk)
{
	*o = (struct prep){ .steps_bound = TC_SKEL_BOUND_DEFAULT, .opts = xcalloc((size_t)argc + 1, sizeof *o->opts) };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) o->out = argv[++i];
		else if (!strcmp(argv[i], "--opt") && i + 1 < argc) {
			char *e = NULL;
			if (!report_opt_check(argv[++i], &e)) {
				if (talk) fprintf(stderr, "tracecomb-mpi: prep: %s\n", e);
				free(e);
				return TC_EXIT_USAGE;
			}
			o->opts[o->nopts++] = argv[i];
		} else if (!strcmp(argv[i], "--steps-bound") && i + 1 < argc) {
			if (!parse_size(argv[++i], &o->steps_bound)) {
				if (talk) fprintf(stderr, "tracecomb-mpi: prep: --steps-bound takes a size (bytes, or with K, M, G)\n");
				return TC_EXIT_USAGE;
			}
		}
		else if (!strcmp(argv[i], "--dump") && i + 1 < argc) o->dump = argv[++i];
		else if (!strcmp(argv[i], "--replay") && i + 1 < argc) o->replay = argv[++i];
		else if (!strcmp(argv[i], "--force")) o->force = true;
		else if (!strcmp(argv[i], "--stats")) o->stats = true;
		else if (argv[i][0] != '-' && !o->trace) o->trace = argv[i];
		else {
			if (talk) fprintf(stderr, "tracecomb-mpi: prep: unexpected '%s' (try --help)\n", argv[i]);
			return TC_EXIT_USAGE;
		}
	}
	if (!o->trace) {
		if (talk) fprintf(stderr, "tracecomb-mpi: prep: no TRACE (try --help)\n");
		return TC_EXIT_USAGE;
	}
	if (talk) o->force = o->force || (o->out && tc_cache_is_file(o->out));   /* as tracecomb prep; process 0's */
	return 0;
}

/* All processes agree on rc (the largest); 0 when every one had 0. */
static int agree_rc(struct tc_mpi *M, int rc)
{
	MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, M->comm);
	return rc;
}

static void out_discard(struct cli_out *o)
{
	if (o->f) fclose(o->f);
	if (o->tmp) unlink(o->tmp);
	free(o->tmp);
	o->f = NULL;
	o->tmp = NULL;
	tmp_path = NULL;
}

/* The temporary file beside FILE, opened by process 0, its name told to
 * the others, which open it too; the identity told to all (its length
 * places every section).  *fd, *id: this process's (id freed by the
 * caller); the status agreed on every process. */
static int open_output(struct tc_mpi *M, const struct prep *o, struct cli_out *out, const char *ident, int *fd,
		       char **id, char **err)
{
	char name[4096] = "";
	int rc = M->rank == 0 ? cli_out_open(out, o->out, o->force, M->part.t->anchor) : 0;
	if (M->rank == 0 && !rc) tmp_path = out->tmp, snprintf(name, sizeof name, "%s", out->tmp);
	if ((rc = agree_rc(M, rc))) return rc;
	MPI_Bcast(name, sizeof name, MPI_CHAR, 0, M->comm);
	int len = M->rank == 0 ? (int)strlen(ident) + 1 : 0;
	MPI_Bcast(&len, 1, MPI_INT, 0, M->comm);
	*id = xmalloc((size_t)len);
	if (M->rank == 0) memcpy(*id, ident, (size_t)len);
	MPI_Bcast(*id, len, MPI_CHAR, 0, M->comm);
	*fd = M->rank == 0 ? out->fd : open(name, O_RDWR | O_CLOEXEC);
	*err = *fd < 0 ? xasprintf("%s: %s", name, strerror(errno)) : NULL;
	return 0;
}

/* The cache file (docs/scale.md, "The parallel write", "Process 0's
 * memory"): the span and the replayed results computed and the steps'
 * first half run while the parts are whole; every process writes its
 * part's event arrays and drops them; then the steps' second half (or,
 * with the leap merge, process 0's skeleton steps), and every process
 * writes the rest, its slices among it.  Process 0 renames the file into
 * place only when every process succeeded; else it is removed, one
 * message. */
static int write_output(struct tc_mpi *M, const struct prep *o, struct cli_out *out, const char *ident)
{
	struct tc_mpi_results R;
	tc_mpi_results_begin(M, o->steps_bound, o->opts, o->nopts, &R);
	int fd = -1;
	char *id = NULL, *err = NULL;
	int rc = open_output(M, o, out, ident, &fd, &id, &err);
	if (rc) {
		tc_mpi_results_free(&R);
		return rc;
	}
	if (!tc_mpi_agree(M, &err)) {   /* collective from here on */
		struct tc_cache_wpart *c = tc_cache_write_begin(fd, &M->part, &M->dist, id);
		tc_part_drop_events(&M->part);
		tc_mpi_results_end(M, &R);
		tc_cache_write_end(c, &R.res, &err);
	}
	free(id);
	if (M->rank != 0 && fd >= 0) close(fd);
	if (tc_mpi_agree(M, &err)) rc = TC_EXIT_OUTPUT;
	if (rc && M->rank == 0) fprintf(stderr, "tracecomb-mpi: %s: write failed: %s\n", o->out, err);
	free(err);
	if (M->rank == 0 && rc) out_discard(out);
	if (M->rank == 0 && !rc) {
		tmp_path = NULL;
		const char *what = R.res.rc ? "wait states, profile and root causes" : "wait states and profile";
		char *notes = R.note && R.rc_note ? xasprintf("%s; %s", R.note, R.rc_note)
						  : xstrdup(R.note ? R.note : R.rc_note ? R.rc_note : "");
		if (!(rc = cli_out_close(out)))
			printf("prep: wrote %s (%d processes): the model, span, %s%s stored%s%s%s\n", o->out, M->size,
			       R.g.stored ? "logical steps, lateness summary, " : "", what, *notes ? "; " : "", notes,
			       *notes ? ": computed when it is opened" : "");
		free(notes);
	}
	tc_mpi_results_free(&R);
	return rc;
}

static void print_stats(struct tc_mpi *M, const struct tc_trace *t)
{
	enum { NV = 15 };
	uint64_t mine = 0;   /* the events of this process's share, as read */
	for (uint32_t l = 0; l < t->nlocs; l++)
		if (tc_part_has_loc(t, l, M->part.lo, M->part.hi, M->rank)) mine += t->locs[l].nevents_read;
	double rss = (double)tc_peak_rss();
	double v[NV] = { M->part.lo, M->part.hi, t->read_seconds, t->finish_seconds, rss / 1048576.0,
			 (double)M->exchanges, (double)M->rounds, (double)M->bytes_sent / 1048576.0, M->replay_seconds,
			 M->replay_rss, tc_usage().cpu, M->steps_seconds, M->steps_rss, (double)mine,
			 rss / ((double)tc_trace_events(t) / M->size + 1) };
	double *all = M->rank == 0 ? xmalloc(sizeof v * (size_t)M->size) : NULL;
	MPI_Gather(v, NV, MPI_DOUBLE, all, NV, MPI_DOUBLE, 0, M->comm);
	for (int p = 0; M->rank == 0 && p < M->size; p++) {
		const double *w = all + NV * p;
		printf("process %d/%d ranks %.0f..%.0f (%.0f events) read %.3f s finish %.3f s replay %.3f s steps %.3f s peak "
		       "RSS %.1f MiB = %.1f B per event of the trace / P (replay +%.1f, steps +%.1f) exchanges %.0f rounds "
		       "%.0f sent %.1f MiB CPU %.3f s (all, the write included)\n",
		       p, M->size, w[0], w[1], w[13], w[2], w[3], w[8], w[11], w[4], w[14], w[9], w[12], w[5], w[6], w[7],
		       w[10]);
	}
	const struct tc_steps_dist *g = &M->steps;
	if (M->rank == 0 && g->bound) {
		char need[32], bound[32];
		fmt_bytes(need, sizeof need, g->need);
		fmt_bytes(bound, sizeof bound, g->bound);
		printf("steps %s (%s): %llu ops, %llu messages, %llu instances, %llu members: %s of --steps-bound %s\n",
		       g->stored ? "stored" : "not stored",
		       g->skeleton ? "the skeleton on process 0" : "over the parts, kept in slices; the largest share",
		       (unsigned long long)g->ops, (unsigned long long)g->msgs,
		       (unsigned long long)g->colls, (unsigned long long)g->members, need, bound);
	}
	free(all);
}

static int prep_loaded(struct tc_mpi *M, const struct prep *o, struct cli_out *out, const char *ident)
{
	int rc = 0;
	if (o->dump) {
		if (M->rank == 0 && mkdir(o->dump, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "tracecomb-mpi: %s: %s\n", o->dump, strerror(errno));
			rc = TC_EXIT_OUTPUT;
		}
		if ((rc = agree_rc(M, rc))) return rc;
		char *path = tc_part_dump_path(o->dump, M->rank);
		FILE *f = fopen(path, "w");
		if (!f || !tc_part_dump(f, &M->part) || fclose(f) != 0) {
			fprintf(stderr, "tracecomb-mpi: %s: %s\n", path, strerror(errno));
			rc = TC_EXIT_OUTPUT;
		}
		free(path);
		rc = agree_rc(M, rc);
	}
	if (!rc && (o->replay || o->dump)) rc = tc_mpi_replay(M, o->replay, o->dump);
	if (!rc && o->out) rc = write_output(M, o, out, ident);
	if (o->stats) print_stats(M, M->part.t);
	return rc;
}

static int prep_run(struct tc_mpi *M, const struct prep *o)
{
	int rc = 0;
	struct cli_out idx = { 0 };
	char *ident = NULL;
	if (o->out && M->rank == 0) {   /* the place is checked once before the load, opened after it */
		char *e = NULL, *anchor = tc_find_anchor(o->trace, &e);
		rc = cli_out_open(&idx, o->out, o->force, anchor);
		out_discard(&idx);
		/* the identity before reading, as serial prep: a file changed meanwhile makes the cache stale */
		if (!rc && anchor && !(ident = tc_cache_identity(anchor, o->opts, o->nopts, &e))) {
			fprintf(stderr, "tracecomb-mpi: %s\n", e);
			rc = TC_EXIT_TRACE;
		}
		free(anchor);
		free(e);
	}
	if ((rc = agree_rc(M, rc))) {
		free(ident);
		return rc;
	}
	struct tc_read_opts ro = { .threads = 1, .share = &M->share };
	char *err = NULL;
	struct tc_trace *t = tc_read_otf2(o->trace, &ro, &err);
	if (!t) {
		if (M->rank == 0) fprintf(stderr, "tracecomb-mpi: %s\n", err ? err : "cannot load trace");
		free(err);
		free(ident);
		return TC_EXIT_TRACE;
	}
	rc = prep_loaded(M, o, &idx, ident);
	if (rc && tmp_path) out_discard(&idx);
	free(ident);
	tc_part_release(&M->part);
	tc_trace_free(t);
	return rc;
}

/* With neither -o nor --dump / --replay: the cache goes where `tracecomb
 * prep` puts it and `tracecomb TRACE` looks for it, $XDG_CACHE_HOME/tracecomb/
 * (else ~/.cache/tracecomb/), named from the archive's identity; process 0
 * decides (and creates the directory) and tells the others.  *path: the
 * place (the caller frees), NULL when it cannot be had (one message). */
static int default_out(struct tc_mpi *M, const struct prep *o, char **path)
{
	char *p = NULL;
	int rc = 0;
	if (M->rank == 0) {
		char *e = NULL, *anchor = tc_find_anchor(o->trace, &e);
		if (!anchor) {
			fprintf(stderr, "tracecomb-mpi: %s\n", e ? e : o->trace);
			rc = TC_EXIT_TRACE;
		} else if (!(p = tc_cache_default_place(anchor, &e))) {
			fprintf(stderr, "tracecomb-mpi: prep: %s; give -o FILE\n", e);
			rc = TC_EXIT_OUTPUT;
		}
		free(anchor);
		free(e);
	}
	if ((rc = agree_rc(M, rc))) {
		free(p);
		return rc;
	}
	int len = M->rank == 0 ? (int)strlen(p) + 1 : 0;
	MPI_Bcast(&len, 1, MPI_INT, 0, M->comm);
	if (M->rank != 0) p = xmalloc((size_t)len);
	MPI_Bcast(p, len, MPI_CHAR, 0, M->comm);
	*path = p;
	return 0;
}

static int prep(struct tc_mpi *M, int argc, char **argv)
{
	struct prep o;
	char *dflt = NULL;
	int rc = parse(argc, argv, &o, M->rank == 0);
	if (!rc && !o.out && !o.dump && !o.replay && !(rc = default_out(M, &o, &dflt))) {
		o.out = dflt;
		o.force = true;  /* the default place holds caches only, as for `tracecomb prep` */
	}
	if (!rc) rc = prep_run(M, &o);
	free(dflt);
	free(o.opts);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return TC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tracecomb-mpi %s\n", TC_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "prep") != 0) {
		fprintf(stderr, "tracecomb-mpi: unknown command '%s' (try --help)\n", argv[1]);
		return TC_EXIT_USAGE;
	}
	for (int a = 2; a < argc; a++)
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			usage(stdout);
			return 0;
		}
	guard();
	MPI_Init(&argc, &argv);
	mpi_up = 1;
	struct tc_mpi M = { 0 };
	const char *rb = getenv("TC_MPI_ROUND_BYTES");
	tc_mpi_setup(&M, MPI_COMM_WORLD, rb ? strtoull(rb, NULL, 10) : 0);
	if (rb && strtoull(rb, NULL, 10)) tc_steps_route_bytes = strtoull(rb, NULL, 10);   /* the steps' routing too */
	int rc = prep(&M, argc - 1, argv + 1);
	fflush(stdout);
	mpi_up = 0;
	MPI_Finalize();
	return rc;
}
