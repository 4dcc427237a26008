/* mpi_internal.h — tracecomb-mpi (src/mpi): the MPI side of the parallel
 * read and finish, shared by its files only. */
#ifndef TC_MPI_INTERNAL_H
#define TC_MPI_INTERNAL_H

#include <mpi.h>

#include "analysis_replay.h"
#include "analysis_steps_dist.h"
#include "cache.h"
#include "lsum_parts.h"
#include "part.h"
#include "read.h"

/* Bytes a process sends, and receives, at most in one round of an exchange
 * (TC_MPI_ROUND_BYTES in the environment overrides it: tests make it small). */
#define TC_MPI_ROUND_BYTES ((size_t)16 << 20)

struct tc_mpi {
	MPI_Comm comm;
	int rank, size;
	size_t round_bytes;
	uint64_t exchanges, rounds, bytes_sent;  /* what the exchanges did */
	uint64_t chains;                         /* folds passed along the processes */
	double replay_seconds;                   /* CPU of the replays: --replay's and the file's (-o), summed */
	double replay_rss;                       /* MiB the larger of them raised the peak RSS by */
	double steps_seconds, steps_rss;         /* the same for the span, steps and summary (-o) */
	struct tc_steps_dist steps;              /* the skeleton's counts and bound (-o; no pointers kept) */
	struct tc_dist dist;
	struct tc_read_share share;
	struct tc_part part;         /* the finish's result */
};

void tc_mpi_setup(struct tc_mpi *M, MPI_Comm comm, size_t round_bytes);
/* A barrier that sleeps (1 ms steps) instead of spinning: for processes
 * that wait while one works alone (process 0 computing the steps), so that
 * they leave it the cores they share. */
void tc_mpi_wait_quietly(struct tc_mpi *M);
/* True when some process has an error; *err becomes the first one's message. */
bool tc_mpi_agree(struct tc_mpi *M, char **err);
/* --replay FILE, --dump DIR (src/mpi/replay.c): the profile and wait states
 * over the parts, written by process 0 as report JSON to json_path and as
 * canonical text to dump_dir/replay.txt (either NULL); every process
 * returns the same status. */
int tc_mpi_replay(struct tc_mpi *M, const char *json_path, const char *dump_dir);

/* What prep -o stores beside the model (src/mpi/results.c), as the --opt
 * values opts[0..nopts) make it: the span on every process; the logical
 * steps and the lateness summary on process 0 when the skeleton fits
 * `bound` bytes there, else a note (every process) saying why not; res: all
 * of it for tc_cache_write_end.  In two collective halves: the begin (the
 * span, the skeleton's counts and this process's records packed) reads the
 * part; the end (the skeleton gathered, the steps computed) reads only its
 * definitions and counts, so the part's events may be dropped between. */
struct tc_mpi_results {
	struct tc_span *span;
	struct tc_steps_slice steps; /* the steps in slices (process 0's whole from the skeleton) */
	struct tc_steps_dist g;
	struct tc_steps_opts o;
	struct tc_skel *skel;        /* packed, until the end gathers it */
	struct strbuf lsum;          /* the lateness summary from the whole steps */
	struct lsum_parts lparts;    /* or made over the slices */
	struct tc_cache_piece pieces[16];  /* this process's: its cevs, wide values, message ends, summary's,
	                                      activities with excess */
	char *note;
	char *rc_note;               /* why the root causes are not stored (process 0), NULL when they are */
	struct tc_cache_blob blobs[2];
	struct tc_replay rep;        /* the profile, wait states and root causes (tc_replay_for_cache) */
	struct tc_cache_results res;
	double cpu, peak0;           /* the begin's CPU seconds; the peak RSS before it */
};
void tc_mpi_results_begin(struct tc_mpi *M, uint64_t bound, const char *const *opts, size_t nopts,
			  struct tc_mpi_results *R);
void tc_mpi_results_end(struct tc_mpi *M, struct tc_mpi_results *R);
void tc_mpi_results_free(struct tc_mpi_results *R);

#endif
