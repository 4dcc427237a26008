/* degen — degenerate inputs for the analysis.  Every iteration a compute block
 * (common.h corpus options: jitter, planted delays), then
 *   --mode pair     rank 0 sends one message to rank 1 (run with 2 ranks and
 *                   --iters 1: a trace of one message);
 *   --mode anysrc   every rank > 0 sends to rank 0, which receives them with
 *                   MPI_ANY_SOURCE and answers each sender;
 *   --mode coll     collectives only: MPI_Allreduce, every 3rd iteration an
 *                   MPI_Barrier, then an MPI_Bcast from rank 0. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const modes[] = { "pair", "anysrc", "coll", NULL };
	struct corpus cs;
	struct corpus_run run = corpus_start(&cs, argc, argv, "degen", modes, 20);
	long iters = run.iters, bytes = run.bytes;
	int rank = run.rank, size = run.size, m = run.mode;
	char *buf = calloc(1, (size_t)bytes);
	if (!buf) app_die("%s", "degen: out of memory");
	struct app_counts c = { 0 };
	for (long it = 0; it < iters; it++) {
		corpus_compute(&cs, it);
		if (m == 0 && size > 1) {
			if (rank == 0) {
				MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
				c.send++; c.bytes += (uint64_t)bytes;
			} else if (rank == 1) {
				MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				c.recv++;
			}
		} else if (m == 1) {
			if (rank == 0) {
				for (int i = 1; i < size; i++) {
					MPI_Status st;
					MPI_Recv(buf, (int)bytes, MPI_CHAR, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
					MPI_Send(buf, (int)bytes, MPI_CHAR, st.MPI_SOURCE, 2, MPI_COMM_WORLD);
					c.recv++; c.send++; c.bytes += (uint64_t)bytes;
				}
			} else {
				MPI_Send(buf, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
				MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				c.recv++; c.send++; c.bytes += (uint64_t)bytes;
			}
		} else if (m == 2) {
			double v = rank + (double)it, s;
			MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			if (it % 3 == 2) MPI_Barrier(MPI_COMM_WORLD);
			MPI_Bcast(buf, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
		}
	}
	corpus_truth(&cs, argc, argv);
	FILE *f = expect_open(argc, argv, "degen", &c);
	if (f) {
		fprintf(f, "mode=%s\niters=%ld\nmsg_bytes=%ld\n", modes[m], iters, bytes);
		fclose(f);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
