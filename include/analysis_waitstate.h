/* analysis_waitstate.h — Scalasca's MPI wait-state patterns (ecosystem.md §2.2)
 * and their short-term delay costs: who waited, where, for how long, and which
 * rank was late.  Pure function of the model. */
#ifndef TC_ANALYSIS_WAITSTATE_H
#define TC_ANALYSIS_WAITSTATE_H

#include "model.h"

enum tc_ws_kind {
	TC_WS_LATE_SENDER,        /* blocking receive / wait entered before the (latest) sender */
	TC_WS_LATE_RECEIVER,      /* blocking send held until the receive was posted */
	TC_WS_WAIT_BARRIER,       /* MPI_Barrier: until the last rank arrived */
	TC_WS_BARRIER_COMPLETION, /* MPI_Barrier: after the first rank could leave */
	TC_WS_WAIT_NXN,           /* all-to-all collectives: until the last rank arrived */
	TC_WS_NXN_COMPLETION,
	TC_WS_LATE_BROADCAST,     /* 1-to-N: non-root entered before the root */
	TC_WS_EARLY_REDUCE,       /* N-to-1: root entered before the latest sender */
	TC_WS_EARLY_SCAN,         /* Scan/Exscan: before the latest lower rank */
	TC_WS_COUNT
};
extern const char *const tc_ws_names[TC_WS_COUNT];  /* "late_sender", ... */
extern const char *const tc_ws_advice[TC_WS_COUNT]; /* one-line diagnosis */

struct tc_wait {
	double seconds;     /* waiting time, > 0 */
	uint32_t rank;      /* the rank that waited */
	uint32_t call;      /* its MPI call */
	uint32_t cause;     /* the late rank (sender, receiver, root, last arriver); TC_NONE for completion */
	uint32_t cause_call;/* that rank's call of the same operation, TC_NONE if none */
	uint8_t kind;
};

struct tc_waitstates {
	size_t n;
	struct tc_wait *w;              /* in (rank, call) order */
	double total[TC_WS_COUNT];      /* seconds summed over ranks */
	double *waited;                 /* nranks: seconds each rank waited (all kinds) */
	double *caused;                 /* nranks: seconds of waiting each rank caused (short-term delay cost) */
	double mpi_time;                /* seconds spent in MPI calls over all ranks */
	double run_time;                /* seconds of all ranks' timelines summed */
	uint64_t clamped;               /* clock-condition cases clipped to the call */
	/* A result reduced over parts (replay_waitstates, src/analysis/replay_internal.h) holds
	 * in w only the longest waits of every part, n_all the waits in all, and
	 * at[i] the region and enter of w[i]'s call (a call of a rank whose calls
	 * process 0 may not hold).  NULL and 0 in a serial result. */
	struct tc_wait_at { uint64_t enter; uint32_t region; } *at;
	size_t n_all;
};

/* How many waits in all: w's, or n_all in a reduced result. */
static inline size_t tc_ws_count(const struct tc_waitstates *w) { return w->at ? w->n_all : w->n; }

struct tc_waitstates *tc_waitstates_compute(const struct tc_trace *t);
void tc_waitstates_free(struct tc_waitstates *w);

#endif
