/* replay.c — tracecomb-mpi prep --replay FILE: the profile and wait states
 * replayed over the parts (analysis_replay.h, docs/scale.md "Replay"), and
 * process 0's report of them: the report code of `tracecomb report --json
 * --section profile,waitstates` over a session holding the reduced results
 * (and process 0's part of the trace: every definition, the global times). */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
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

static double peak_mib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

int tc_mpi_replay(struct tc_mpi *M, const char *path)
{
	double t0 = cpu_seconds(), peak0 = peak_mib();
	struct tc_replay R;
	tc_replay_run(&M->part, &M->dist, 20, &R);   /* 20: the report's default list */
	M->replay_seconds = cpu_seconds() - t0;
	M->replay_rss = peak_mib() - peak0;
	int rc = 0;
	if (M->rank == 0) {
		FILE *f = fopen(path, "w");
		if (f) write_json(&M->part, &R, f);
		if (!f || ferror(f) || fclose(f) != 0) {
			fprintf(stderr, "tracecomb-mpi: %s: %s\n", path, strerror(errno));
			rc = TC_EXIT_OUTPUT;
		}
		if (!f) {
			tc_profile_free(R.profile);
			tc_prof_table_free(R.per_loc);
			tc_prof_table_free(R.per_rank);
			tc_waitstates_free(R.waitstates);
		}
	}
	MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, M->comm);
	return rc;
}
