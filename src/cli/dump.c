/* dump.c — the hidden command `tracecomb dump-model TRACE --parts P --out DIR`:
 * the serial model cut into the P parts tracecomb-mpi would build (shares of
 * the ranks balanced by the definitions' event counts), each written as its
 * canonical dump DIR/part-<i>.txt (include/part.h; DIR made when missing),
 * and the profile, the wait states, the root causes' wait/own rows and the
 * critical path as DIR/replay.txt (tc_replay_dump: doubles in hexadecimal); the reference the MPI tests compare tracecomb-mpi's parts
 * and replay with.  Not in --help: a test tool. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis_replay.h"
#include "cli.h"
#include "part.h"

static int dump_parts(struct tc_trace *t, int nparts, const char *dir)
{
	uint64_t *ev = xcalloc(t->nranks + 1, sizeof *ev);
	for (uint32_t l = 0; l < t->nlocs; l++)
		if (t->locs[l].rank < t->nranks) ev[t->locs[l].rank] += t->locs[l].nevents_def;
	int rc = TC_EXIT_OK;
	for (int i = 0; i < nparts && rc == TC_EXIT_OK; i++) {
		struct tc_part p;
		uint32_t lo, hi;
		tc_share_ranks(ev, t->nranks, i, nparts, &lo, &hi);
		tc_part_of_serial(t, lo, hi, i, &p);
		char *path = tc_part_dump_path(dir, i);
		FILE *f = fopen(path, "w");
		if (!f || !tc_part_dump(f, &p)) {
			fprintf(stderr, "tracecomb: %s: %s\n", path, strerror(errno));
			rc = TC_EXIT_OUTPUT;
		}
		if (f && fclose(f) != 0 && rc == TC_EXIT_OK) rc = TC_EXIT_OUTPUT;
		free(path);
		tc_part_release(&p);
	}
	free(ev);
	return rc;
}

/* DIR/replay.txt: the serial results the replay must equal. */
static int dump_replay(struct tc_trace *t, const char *dir)
{
	char *path = xasprintf("%s/replay.txt", dir);
	struct tc_replay r;
	tc_replay_serial(t, &r);
	FILE *f = fopen(path, "w");
	int rc = f && tc_replay_dump(f, t, &r, TC_REPLAY_LONGEST) && fclose(f) == 0 ? TC_EXIT_OK : TC_EXIT_OUTPUT;
	if (rc) fprintf(stderr, "tracecomb: %s: %s\n", path, strerror(errno));
	tc_replay_free(&r);
	free(path);
	return rc;
}

int cmd_dump_model(int argc, char **argv)
{
	const char *path = NULL, *dir = NULL;
	int nparts = 1;
	struct tc_read_opts opts = { 0 };
	for (int i = 1; i < argc; i++) {
		if (cli_opt_threads(argc, argv, &i, &opts)) continue;
		if (!strcmp(argv[i], "--parts") && i + 1 < argc) nparts = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--out") && i + 1 < argc) dir = argv[++i];
		else if (!path && argv[i][0] != '-') path = argv[i];
		else {
			fprintf(stderr, "usage: tracecomb dump-model TRACE --parts P --out DIR\n");
			return TC_EXIT_USAGE;
		}
	}
	if (!path || !dir || nparts < 1 || nparts > 100000) {
		fprintf(stderr, "usage: tracecomb dump-model TRACE --parts P --out DIR\n");
		return TC_EXIT_USAGE;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "tracecomb: %s: %s\n", dir, strerror(errno));
		return TC_EXIT_OUTPUT;
	}
	struct tc_trace *t = cli_load(path, &opts);
	if (!t) return TC_EXIT_TRACE;
	int rc = dump_parts(t, nparts, dir);
	if (rc == TC_EXIT_OK) rc = dump_replay(t, dir);
	tc_trace_free(t);
	return rc;
}
