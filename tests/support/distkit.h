/* distkit.h — the distributed model and its replays without MPI, for the
 * unit tests: a hand-built trace of DK_NR ranks with what the shared traces
 * lack (sends nobody receives, a receive without a send, a clock violation,
 * a size mismatch, a sub-communicator with comm-local peers, an operation
 * mismatch, an incomplete instance, COMM_SELF collectives, a location of no
 * rank, non-blocking messages (Isends in a row, which the steps coalesce, and
 * two apart), late senders and receivers, rooted and scan
 * collectives entered at different times, blocking sends held by their
 * receivers), and P threads joined by a struct
 * tc_dist of barriers, each a "process" holding only its share. */
#ifndef TC_DISTKIT_H
#define TC_DISTKIT_H

#include <pthread.h>

#include "part.h"

#define DK_NR 6
#define DK_MAXP 4

/* The trace with the events of ranks [lo, hi) (and of the location of no
 * rank with others), not finished. */
struct tc_trace *dk_trace(uint32_t lo, uint32_t hi, bool others);

struct dk_world;
struct dk_proc {
	struct dk_world *w;
	int p, P;
	struct tc_dist d;
	struct tc_part part;   /* the finish's */
	struct tc_trace *t;    /* the share's trace, finished by dk_finish */
	void *arg;             /* the test's */
};
/* Runs fn in P threads (process p gets x->p = p, x->arg = arg[p]). */
void dk_run(int P, void (*fn)(struct dk_proc *x), void **arg);
/* This process's share of the trace read and finished across the threads:
 * x->t and x->part (tc_part_release, tc_trace_free after). */
void dk_finish(struct dk_proc *x);

#endif
