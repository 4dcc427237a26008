/* results.c — what tracecomb-mpi prep -o stores beside the model, as a
 * serial `tracecomb prep` does (docs/scale.md "The logical steps in the
 * cache"): the application span (each process marks its ranks, a few
 * reductions), the profile, wait states and root causes replayed over the
 * parts (each process its activities with excess), the logical steps
 * computed by the processes together and kept in slices (steps_parts.c;
 * with --opt leap_merge=on the communication skeleton gathered to process
 * 0, the serial code run there) and the logical view's lateness summary
 * made over them (lsum_parts.c).  Every process gives the writer its
 * pieces of them.  Over --steps-bound the steps and the summary, or the
 * root causes, are not stored, and a note in the cache says why. */
#include <stdlib.h>
#include <string.h>

#include "analysis_span.h"
#include "cache.h"
#include "mpi_internal.h"
#include "session.h"
#include "ui.h"

/* What the --opt values make of the stored results: the steps' options,
 * whether the span is the whole trace (as a session given them computes)
 * and whether the root causes take the default options (the replay's: else
 * they are not stored, and the opener computes them with the options). */
static void stored_opts(struct tc_mpi *M, const char *const *kv, size_t n, struct tc_steps_opts *o, bool *span_all,
			bool *rc_default)
{
	struct tc_session *s = session_new(M->part.t);
	for (size_t i = 0; i < n; i++) session_set_opt(s, kv[i]);
	session_steps_opts(s, o);
	*span_all = !strcmp(session_opt(s, "span", "app"), "all");
	*rc_default = !session_opt(s, "rc_mad_k", NULL) && !session_opt(s, "rc_median_frac", NULL) &&
		      !session_opt(s, "rc_floor_s", NULL);
	s->t = NULL;   /* the part's */
	session_free(s);
}

/* The lateness summary blob, as `tracecomb prep` packs it: from the whole
 * steps at process 0, or made over the slices (lsum_parts.h) into process
 * 0's blob with holes and every process's pieces. */
static void pack_lsum(struct tc_mpi *M, struct tc_mpi_results *R)
{
	struct tc_steps_slice *sl = &R->steps;
	struct tc_cache_blob *b = &R->blobs[R->res.nblobs];
	if (sl->whole) {
		if (!sl->s0) return;
		struct tc_lsum *sum = lsum_build(sl->s0, TC_M_LATENESS, true);
		lsum_pack(sum, &R->lsum);
		lsum_free(sum);
		*b = (struct tc_cache_blob){ .name = LSUM_CACHE_BLOB, .p = R->lsum.s, .size = R->lsum.len };
		R->res.nblobs++;
		return;
	}
	lsum_pack_parts(sl, &M->dist, M->part.t->nranks, true, &R->lparts);
	for (int k = 0; k < 3; k++) R->pieces[R->res.npieces++] = R->lparts.pieces[k];
	if (!sl->s0) return;
	*b = (struct tc_cache_blob){ .name = LSUM_CACHE_BLOB, .p = R->lparts.blob.s, .size = R->lparts.size,
				     .holes = R->lparts.holes, .nholes = 3 };
	R->res.nblobs++;
}

/* Why the steps are not stored: one line (also the cache's note). */
static char *not_stored(const struct tc_steps_dist *g)
{
	char need[32], bound[32];
	if (g->calls_needed)
		return xstrdup("the logical steps not stored by tracecomb-mpi: --opt caller_merge=on reads every call, "
			       "which is not gathered");
	if (g->parts_failed)
		return xstrdup("the logical steps not stored by tracecomb-mpi: a partition's owner could not step it "
			       "(a bug: please report it)");
	fmt_bytes(need, sizeof need, g->need);
	fmt_bytes(bound, sizeof bound, g->bound);
	return xasprintf("the logical steps not stored by tracecomb-mpi: %s %s on one process, over --steps-bound %s",
			 g->skeleton ? "their communication skeleton needs" : "they need", need, bound);
}

/* The profile, wait states and root causes replayed over the parts while
 * they are whole, for the file: process 0 stores the reduced results, every
 * process its own ranks' waits (docs/scale.md, "Replayed results in the
 * cache"). */
static void store_replay(struct tc_mpi *M, struct tc_mpi_results *R, uint64_t rc_bound)
{
	double t0 = tc_usage().cpu, peak = (double)tc_peak_rss();
	tc_replay_for_cache(&M->part, &M->dist, R->span, rc_bound, &R->rep);
	R->res.rc = R->rep.rc;
	if (rc_bound && R->rep.rc_need > rc_bound) {
		char need[32], bound[32];
		fmt_bytes(need, sizeof need, R->rep.rc_need);
		fmt_bytes(bound, sizeof bound, rc_bound);
		R->rc_note = xasprintf("the root causes not stored by tracecomb-mpi: their records per rank and context need %s on "
				       "one process, over --steps-bound %s", need, bound);
	}
	R->res.npieces += tc_cache_ex_pieces(&R->rep.ex, R->pieces + R->res.npieces);   /* every process its own */
	R->res.ws = R->rep.waitstates;
	R->res.waits = R->rep.mine, R->res.nwaits = R->rep.nmine, R->res.waits_first = R->rep.mine_first;
	R->res.profile = R->rep.profile;
	R->res.per_loc = R->rep.per_loc, R->res.per_rank = R->rep.per_rank;
	M->replay_seconds += tc_usage().cpu - t0;   /* after --replay's, if it ran */
	M->replay_rss = TC_MAX(M->replay_rss, ((double)tc_peak_rss() - peak) / 1048576.0);
}

void tc_mpi_results_begin(struct tc_mpi *M, uint64_t bound, const char *const *opts, size_t nopts,
			  struct tc_mpi_results *R)
{
	*R = (struct tc_mpi_results){ .res.blobs = R->blobs };
	bool span_all, rc;
	stored_opts(M, opts, nopts, &R->o, &span_all, &rc);
	R->span = tc_span_dist(&M->part, &M->dist, span_all);
	R->res.span = R->span;
	store_replay(M, R, rc ? bound : 0);   /* first but for the span: its CPU and peak are the replay's */
	double t0 = tc_usage().cpu;
	R->peak0 = (double)tc_peak_rss();
	R->skel = tc_steps_dist_pack(&M->part, &M->dist, &R->o, bound, &R->g);
	R->cpu = tc_usage().cpu - t0;
}

void tc_mpi_results_end(struct tc_mpi *M, struct tc_mpi_results *R)
{
	double t0 = tc_usage().cpu;
	tc_steps_dist_gather(&M->part, &M->dist, &R->o, R->skel, &R->g, &R->steps);
	R->skel = NULL;
	R->res.pieces = R->pieces;
	if (R->g.stored) {
		R->res.steps = R->steps.s0;
		R->res.npieces += tc_cache_steps_pieces(&R->steps, R->pieces + R->res.npieces);
		pack_lsum(M, R);
	}
	if (R->g.stored && R->steps.whole) tc_mpi_wait_quietly(M);   /* the others wait for process 0's steps */
	if (!R->g.stored) {
		R->note = not_stored(&R->g);
		R->blobs[R->res.nblobs++] = (struct tc_cache_blob){ .name = TC_CACHE_NOTE_BLOB, .p = R->note, .size = strlen(R->note) + 1 };
	}
	M->steps = R->g;
	M->steps.skel = NULL;
	M->steps.skel_msgs = NULL;
	M->steps_seconds = R->cpu + tc_usage().cpu - t0;
	M->steps_rss = ((double)tc_peak_rss() - R->peak0) / 1048576.0;
}

void tc_mpi_results_free(struct tc_mpi_results *R)
{
	tc_skel_free(R->skel);
	tc_steps_dist_free(R->steps.s0, &R->g);
	R->steps.s0 = NULL;
	tc_steps_slice_free(&R->steps);
	lsum_parts_free(&R->lparts);
	tc_span_free(R->span);
	tc_replay_free(&R->rep);
	sb_free(&R->lsum);
	free(R->note);
	free(R->rc_note);
	*R = (struct tc_mpi_results){ 0 };
}
