/* replay.c — tracecomb-mpi prep --replay FILE: the profile and wait states
 * replayed over the parts (analysis_replay.h, docs/scale.md "Replay"), and
 * process 0's report of them: the report code of `tracecomb report --json
 * --section profile,waitstates` over a session holding the reduced results
 * (and process 0's part of the trace: every definition, the global times). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_replay.h"
#include "cli.h"
#include "mpi_internal.h"
#include "report.h"

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Process 0: the two sections as one JSON object on f. */
static void write_json(struct tc_part *p, struct tc_replay *R, FILE *f)
{
	struct tc_session *s = session_new(p->t);
	s->profile = R->profile;
	s->prof_per_loc = R->per_loc;
	s->prof_per_rank = R->per_rank;
	s->waitstates = R->waitstates;
	const struct report_section *secs[2] = { report_find("profile"), report_find("waitstates") };
	report_json(s, secs, 2, f);
	s->t = NULL;   /* the part's: freed by its owner */
	session_free(s);
}

static double peak_mib(void) { return (double)tc_peak_rss() / 1048576.0; }

/* Process 0: the JSON to json_path, the canonical text to dump_dir/replay.txt (either NULL). */
static int write_results(struct tc_mpi *M, struct tc_replay *R, const char *json_path, const char *dump_dir)
{
	char *dump_path = dump_dir ? xasprintf("%s/replay.txt", dump_dir) : NULL;
	int rc = 0;
	if (dump_path) {
		FILE *f = fopen(dump_path, "w");
		if (!f || !tc_replay_dump(f, M->part.t, R, TC_REPLAY_LONGEST) || fclose(f) != 0) {
			fprintf(stderr, "tracecomb-mpi: %s: %s\n", dump_path, strerror(errno));
			rc = TC_EXIT_OUTPUT;
		}
	}
	FILE *f = json_path && !rc ? fopen(json_path, "w") : NULL;
	if (f) write_json(&M->part, R, f);   /* the session frees the results */
	else tc_replay_free(R);
	if (json_path && !rc && (!f || ferror(f) || fclose(f) != 0)) {
		fprintf(stderr, "tracecomb-mpi: %s: %s\n", json_path, strerror(errno));
		rc = TC_EXIT_OUTPUT;
	}
	free(dump_path);
	return rc;
}

int tc_mpi_replay(struct tc_mpi *M, const char *json_path, const char *dump_dir)
{
	double t0 = cpu_seconds(), peak0 = peak_mib();
	struct tc_replay R;
	tc_replay_run(&M->part, &M->dist, TC_REPLAY_LONGEST, &R);
	M->replay_seconds = cpu_seconds() - t0;
	M->replay_rss = peak_mib() - peak0;
	int rc = M->rank == 0 ? write_results(M, &R, json_path, dump_dir) : 0;
	MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, M->comm);
	return rc;
}
