/* steps_halo.h — an exact, in-memory 1-D ring halo exchange built with the
 * model builder (no OTF2): for tests and benchmarks of the logical-time engine.
 *
 * Every rank r, iteration i: compute [T, T+work(+delay)]; MPI_Irecv ×2 (1 tick
 * each); MPI_Isend to r-1 (tag 0) and to r+1 (tag 1), 1 tick each; MPI_Waitall
 * from c+4 until 1 tick after the later of its own entry and its neighbours'
 * sends to it.  The next iteration starts at the Waitall's end.  All of it sits
 * in "main".  The clock has res ticks per second.  With init > 0 the ranks
 * start with an MPI_Init of that many ticks and end with a 1-tick MPI_Finalize. */
#ifndef TC_STEPS_HALO_H
#define TC_STEPS_HALO_H

#include "model.h"

struct halo_spec {
	uint32_t nranks, iters;
	uint64_t res, work;
	uint32_t delay_rank, delay_iter;  /* delay added to that compute block */
	uint64_t delay;
	uint64_t init;     /* > 0: MPI_Init [1, 1 + init] first and MPI_Finalize (1 tick) last on every rank */
	const uint32_t *node_of;  /* node of each rank (NULL: all on node 0) */
	uint32_t nnodes;
	/* up to two MPI stalls: that rank's Waitall of that iteration lasts that
	 * many ticks longer (own time: the OS or the network held it) */
	uint32_t mpi_stall_rank[2], mpi_stall_iter[2];
	uint64_t mpi_stall[2];
	/* NULL, or iters × nranks ticks added to each compute block (iteration
	 * major): the machine holding ranks */
	const uint64_t *extra;
	/* side > 0: rank side_rank runs a user region "side" of that many ticks
	 * right after its compute block in every side_every-th iteration (i %
	 * side_every == side_every - 1): work only that rank does */
	uint32_t side_rank, side_every;
	uint64_t side;
};

struct tc_trace *halo_trace(const struct halo_spec *h);

#endif
