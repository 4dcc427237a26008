/* analysis_replay.h — the per-event analyses replayed over the parts of a
 * distributed model (part.h, docs/scale.md "Replay"): every process computes
 * on its own ranks, exchanges with the others only the few partner fields
 * each analysis needs (through struct tc_dist), and the results reduced to
 * process 0 equal the serial ones bit for bit: floating-point sums are made
 * in the serial order (a fold passed along the processes, or at the owner of
 * a rank in the order the serial pass adds).  No MPI here. */
#ifndef TC_ANALYSIS_REPLAY_H
#define TC_ANALYSIS_REPLAY_H

#include "analysis_profile.h"
#include "analysis_waitstate.h"
#include "part.h"

/* How many of the longest waits a reduced result keeps: the report's list. */
#define TC_REPLAY_LONGEST 20

/* tc_profile_compute over the whole trace: on process 0, NULL elsewhere. */
struct tc_profile *tc_profile_dist(const struct tc_part *p, const struct tc_dist *d);
/* tc_profile_locations and tc_profile_ranks: on process 0 (*per_loc,
 * *per_rank), NULL elsewhere; each process computes its own cells. */
void tc_profile_tables_dist(const struct tc_part *p, const struct tc_dist *d, struct tc_prof_table **per_loc,
			    struct tc_prof_table **per_rank);
/* tc_waitstates_compute, reduced on process 0 (NULL elsewhere): every sum and
 * per-rank vector as the serial one; of the waits only the `longest` longest
 * of each part (the report's list: at, n_all in analysis_waitstate.h). */
struct tc_waitstates *tc_waitstates_dist(const struct tc_part *p, const struct tc_dist *d, size_t longest);

/* All of them: what `report` shows of the profile and wait states. */
struct tc_replay {
	struct tc_profile *profile;
	struct tc_prof_table *per_loc, *per_rank;
	struct tc_waitstates *waitstates;
};
void tc_replay_run(const struct tc_part *p, const struct tc_dist *d, size_t longest, struct tc_replay *out);
/* The same computed serially over a whole model (the reference). */
void tc_replay_serial(const struct tc_trace *t, struct tc_replay *out);
void tc_replay_free(struct tc_replay *r);
/* Canonical text of the results (process 0's, or the serial ones): every
 * double in hexadecimal (%a), the per-rank vectors, the tables and the
 * `longest` longest waits; equal text, equal bits.  t: the definitions (and,
 * for a serial result, the calls).  False on a write error. */
bool tc_replay_dump(FILE *f, const struct tc_trace *t, const struct tc_replay *r, size_t longest);

#endif
