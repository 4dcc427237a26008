/* overhead — per-call cost of MPI calls, for comparing a run without and with
 * LD_PRELOAD=libtctrace.so.  Needs exactly 2 ranks.  Rank 0 prints one line
 * per kind: "<kind> <calls per rank> <ns per call>" (ns per call = loop time
 * divided by the MPI calls one rank makes in it). */
#include "../apps/common.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--iters", NULL };
	opt_check(argc, argv, known);
	long iters = opt_long(argc, argv, "--iters", 20000);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2 || iters < 1) app_die("%s", "overhead: run with exactly 2 ranks and --iters >= 1");
	int peer = 1 - rank;
	char a[8] = { 0 }, b[8];
	double t0, dt;
	struct { const char *name; int calls; } kind[4] = {
		{ "send_recv", 2 }, { "isend_irecv_waitall", 3 }, { "allreduce", 1 }, { "barrier", 1 } };
	for (int k = 0; k < 4; k++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = now_ns();
		for (long i = 0; i < iters; i++) {
			switch (k) {
			case 0:
				if (rank == 0) {
					MPI_Send(a, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
					MPI_Recv(b, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				} else {
					MPI_Recv(b, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
					MPI_Send(a, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
				}
				break;
			case 1: {
				MPI_Request rq[2];
				MPI_Irecv(b, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &rq[0]);
				MPI_Isend(a, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &rq[1]);
				MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
				break;
			}
			case 2: {
				double x = 1, y;
				MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
				break;
			}
			default: MPI_Barrier(MPI_COMM_WORLD); break;
			}
		}
		dt = now_ns() - t0;
		if (rank == 0)
			printf("%s %ld %.0f\n", kind[k].name, iters * kind[k].calls, dt / (double)(iters * kind[k].calls));
	}
	MPI_Finalize();
	return 0;
}
