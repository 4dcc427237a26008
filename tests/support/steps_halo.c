/* steps_halo.c — see steps_halo.h. */
#include <stdlib.h>

#include "steps_halo.h"

struct tc_trace *halo_trace(const struct halo_spec *h)
{
	struct tc_trace *t = tc_trace_new(h->res, 0, 0);
	uint32_t n = h->nranks;
	tc_def_simple(t, n, h->node_of, h->node_of ? h->nnodes : 1);
	uint32_t r_main = tc_def_region(t, "main", 0, 0, false);
	uint32_t r_comp = tc_def_region(t, "compute", 0, 0, false);
	uint32_t r_irecv = tc_def_region(t, "MPI_Irecv", 0, 0, true);
	uint32_t r_isend = tc_def_region(t, "MPI_Isend", 0, 0, true);
	uint32_t r_wait = tc_def_region(t, "MPI_Waitall", 0, 0, true);
	uint32_t r_side = h->side ? tc_def_region(t, "side", 0, 0, false) : 0;
	uint64_t *T = xmalloc((n ? n : 1) * sizeof *T), *c = xmalloc((n ? n : 1) * sizeof *c);
	uint32_t r_init = h->init ? tc_def_region(t, "MPI_Init", 0, 0, true) : 0;
	uint32_t r_fin = h->init ? tc_def_region(t, "MPI_Finalize", 0, 0, true) : 0;
	for (uint32_t r = 0; r < n; r++) {
		tcb_enter(t, r, 0, r_main);
		T[r] = 1;
		if (h->init) {
			tcb_enter(t, r, 1, r_init);
			tcb_leave(t, r, 1 + h->init, r_init);
			T[r] = 1 + h->init;
		}
	}
	for (uint32_t i = 0; i < h->iters; i++) {
		bool side_now = h->side && h->side_every && i % h->side_every == h->side_every - 1;
		for (uint32_t r = 0; r < n; r++)
			c[r] = T[r] + h->work + (r == h->delay_rank && i == h->delay_iter ? h->delay : 0) +
			       (h->extra ? h->extra[(size_t)i * n + r] : 0) + (side_now && r == h->side_rank ? h->side : 0);
		for (uint32_t r = 0; r < n; r++) {
			uint32_t left = (r + n - 1) % n, right = (r + 1) % n;
			uint64_t e = c[r];
			uint64_t side = side_now && r == h->side_rank ? h->side : 0;
			tcb_enter(t, r, T[r], r_comp);
			tcb_leave(t, r, e - side, r_comp);
			if (side) {
				tcb_enter(t, r, e - side, r_side);
				tcb_leave(t, r, e, r_side);
			}
			tcb_enter(t, r, e, r_irecv);
			tcb_irecv_request(t, r, e, 1);
			tcb_leave(t, r, e + 1, r_irecv);
			tcb_enter(t, r, e + 1, r_irecv);
			tcb_irecv_request(t, r, e + 1, 2);
			tcb_leave(t, r, e + 2, r_irecv);
			tcb_enter(t, r, e + 2, r_isend);
			tcb_isend(t, r, e + 2, left, 0, 0, 64, 3);
			tcb_leave(t, r, e + 3, r_isend);
			tcb_enter(t, r, e + 3, r_isend);
			tcb_isend(t, r, e + 3, right, 0, 1, 64, 4);
			tcb_leave(t, r, e + 4, r_isend);
			uint64_t w = TC_MAX(e + 4, TC_MAX(c[left] + 3, c[right] + 2)) + 1;
			for (int k = 0; k < 2; k++)
				if (r == h->mpi_stall_rank[k] && i == h->mpi_stall_iter[k]) w += h->mpi_stall[k];
			tcb_enter(t, r, e + 4, r_wait);
			tcb_isend_complete(t, r, w, 3);
			tcb_isend_complete(t, r, w, 4);
			tcb_irecv(t, r, w, left, 0, 1, 64, 1);
			tcb_irecv(t, r, w, right, 0, 0, 64, 2);
			tcb_leave(t, r, w, r_wait);
			T[r] = w;
		}
	}
	for (uint32_t r = 0; r < n; r++) {
		if (h->init) {
			tcb_enter(t, r, T[r], r_fin);
			tcb_leave(t, r, T[r] + 1, r_fin);
			T[r]++;
		}
		tcb_leave(t, r, T[r] + 1, r_main);
	}
	free(T);
	free(c);
	tc_trace_finish(t);
	return t;
}
