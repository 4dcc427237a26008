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
#include "analysis_rootcause.h"
#include "analysis_span.h"
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

/* The root causes' wait/own split (docs/rootcause.md §2) per rank: what the
 * serial tc_rootcause holds of each rank's MPI activities, summed. */
struct tc_rc_rankstat {
	uint64_t mpi;                 /* MPI activities */
	uint64_t edge[TC_WE_COUNT];   /* of them per wait edge (TC_WE_NONE: no partner, or ready at the start) */
	uint64_t mpi_ticks;           /* sum of end - start */
	uint64_t wait_ticks;          /* sum of ready - start */
	uint64_t digest;              /* of every MPI activity's call, start, end, ready, partner, edge, in order */
	double wait_s;                /* tc_rootcause.wait_s: the seconds of ready - start, summed in order */
};
struct tc_rcwait {
	uint32_t nranks;
	struct tc_rc_rankstat *rank;  /* nranks */
	double total_wait;            /* tc_rootcause.total_wait: wait_s summed in rank order */
};
/* From a serial result.  Replayed (tc_replay_run): every process walks its
 * ranks' MPI activities; the receives' send enters, the progress of a
 * blocking send's receiver and the collective candidates come from the
 * processes that hold them. */
struct tc_rcwait *tc_rcwait_of(const struct tc_trace *t, const struct tc_rootcause *rc);
void tc_rcwait_free(struct tc_rcwait *w);

/* The critical path (docs/rootcause.md §4) as tc_rootcause holds it: its
 * pieces in time order (each with its activity's excess, at most the
 * piece's length), length, shares per kind, end rank (TC_NONE: no path),
 * and per rank the excess on it (compute, MPI: path_compute_excess,
 * path_mpi_excess, summed in time order).  Replayed by a backward walk that
 * moves between the processes; the excess from the replayed excess and
 * thin-context delays. */
struct tc_cpath {
	uint32_t end_rank, nranks;
	double length;
	double share[TC_CP_NKINDS];
	size_t n;
	struct tc_cp_piece *piece;
	double *compute_excess, *mpi_excess;  /* nranks */
};
struct tc_cpath *tc_cpath_of(const struct tc_rootcause *rc);
void tc_cpath_free(struct tc_cpath *c);

/* The root causes' contexts as the activity pass makes them, before their
 * typical values (docs/rootcause.md §3, "Contexts"; docs/scale.md "The
 * contexts"): the table in the serial order (key and parts, n, nranks; the
 * rest of each struct tc_rc_ctx 0), per rank its activities and a digest of
 * their contexts in order, and the compute time per log2 length bin (the
 * compute scale's input).  Replayed: every process keys its ranks'
 * activities; process 0 numbers the contexts in rank order and joins the
 * first segments. */
struct tc_rc_ctxrank { uint64_t acts, digest; };
#define TC_RC_SCALE_BINS 65
struct tc_rcctx {
	uint32_t nctx, nranks;
	struct tc_rc_ctx *ctx;
	struct tc_rc_ctxrank *rank;          /* nranks */
	double scale_bin[TC_RC_SCALE_BINS];
};
/* From the serial activity pass over the whole model within span sp. */
struct tc_rcctx *tc_rcctx_serial(const struct tc_trace *t, const struct tc_span *sp);
void tc_rcctx_free(struct tc_rcctx *c);

/* The root causes' typical values and excess (docs/rootcause.md §3), before
 * the delay costs (which may give thin contexts some): the contexts with
 * their typical values, the noise floor, the run-level figures the excess
 * pass counts, and per rank its waiting and its activities with excess (how
 * many; a digest of each one's place among the rank's activities, excess
 * and kind of excess).  Replayed (docs/scale.md "Typical values and
 * excess"): every process picks its ranks' values (sampled as serially) and
 * sends them to process 0, which types the contexts as the serial pass does;
 * every process then measures its ranks' activities against them. */
struct tc_rc_xrank { double wait_s; uint64_t nexcess, digest; };
struct tc_rcexcess {
	uint32_t nctx, nranks;
	struct tc_rc_ctx *ctx;
	struct tc_rc_figures fig;            /* the excess pass's (those of the delay costs and path 0) */
	struct tc_rc_xrank *rank;            /* nranks */
};
/* From the serial passes over the whole model within span sp. */
struct tc_rcexcess *tc_rcexcess_serial(const struct tc_trace *t, const struct tc_span *sp);
void tc_rcexcess_free(struct tc_rcexcess *x);

/* The long-term delay costs (docs/rootcause.md, "Delay costs"): per rank
 * its activities with excess after the thin-context delays (how many; a
 * digest of each one's place, excess, kind of excess and delay cost) and its
 * delay cost; the waiting no excess explains.  Replayed (docs/scale.md,
 * "Delay costs"): the thin-context delays at the partners' processes, the
 * sweep by a backward replay (each wait's cost handed on at its partner's
 * process once every later wait passing into it is handled). */
struct tc_rc_drank { double delay_cost; uint64_t nexcess, digest; };
struct tc_rcdelay {
	uint32_t nranks;
	struct tc_rc_drank *rank;            /* nranks */
	double unattributed;
	/* replayed: the activities with excess (serial numbering, in order) */
	size_t nexcess;
	uint32_t *ex_act;
	float *ex_excess, *ex_delay;
	uint8_t *ex_outlier;
};
struct tc_rcdelay *tc_rcdelay_of(const struct tc_rootcause *rc);
void tc_rcdelay_free(struct tc_rcdelay *x);

/* All of them: what `report` shows of the profile and wait states, and the
 * root causes' wait/own split and critical path over the default span. */
struct tc_replay {
	struct tc_profile *profile;
	struct tc_prof_table *per_loc, *per_rank;
	struct tc_waitstates *waitstates;
	struct tc_rcwait *rcwait;
	struct tc_rcctx *rcctx;
	struct tc_rcexcess *rcexcess;
	struct tc_rcdelay *rcdelay;
	struct tc_cpath *cpath;
	/* the root causes as a cache stores them (process 0's; tc_replay_for_cache
	 * when asked for, tc_replay_run), assembled from the four above; NULL when
	 * rc_need, the bytes process 0 would hold for them (its records per rank
	 * and per context), exceeded the bound */
	struct tc_rc_results *rc;
	uint64_t rc_need;
	/* every process: its ranks' activities with excess (tc_rc_results'
	 * arrays' slice from first on); rc (process 0) has their count but not
	 * them (its ex_* arrays NULL): the processes write their own into the
	 * file (tc_replay_ex_pieces), tc_replay_ex_whole gathers them into rc */
	struct tc_rc_exslice { uint64_t first; size_t n; uint32_t *act; float *excess, *delay; uint8_t *outlier; } ex;
	/* tc_replay_for_cache only: this process's ranks' waits in (rank, call)
	 * order, and the index of the first in the whole list */
	struct tc_wait *mine;
	size_t nmine;
	uint64_t mine_first;
};
void tc_replay_run(const struct tc_part *p, const struct tc_dist *d, size_t longest, struct tc_replay *out);
/* What the cache file stores of them (tracecomb-mpi prep -o, docs/scale.md
 * "Replayed results in the cache"): the profile, its tables and the wait
 * states as tc_replay_run makes them, and every process's own waits (mine,
 * nmine, mine_first), which it writes into the file itself; with rc_bound
 * (0: not) the root causes over span sp when process 0's gathers for them
 * fit rc_bound bytes (out->rc at process 0; the verification figures freed
 * as they are used). */
void tc_replay_for_cache(const struct tc_part *p, const struct tc_dist *d, const struct tc_span *sp, uint64_t rc_bound,
			 struct tc_replay *out);
/* The same computed serially over a whole model (the reference). */
void tc_replay_serial(const struct tc_trace *t, struct tc_replay *out);
void tc_replay_free(struct tc_replay *r);
/* Collective: the activities with excess of every process (r->ex, taken)
 * into process 0's r->rc, whole (the tests compare it with the serial one). */
void tc_replay_ex_whole(struct tc_replay *r, const struct tc_dist *d);
/* Canonical text of the results (process 0's, or the serial ones): every
 * double in hexadecimal (%a), the per-rank vectors, the tables and the
 * `longest` longest waits; equal text, equal bits.  t: the definitions (and,
 * for a serial result, the calls).  False on a write error. */
bool tc_replay_dump(FILE *f, const struct tc_trace *t, const struct tc_replay *r, size_t longest);

#endif
