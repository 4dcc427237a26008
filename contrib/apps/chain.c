/* chain — a pipeline of blocking MPI_Send/MPI_Recv: every iteration rank 0
 * computes and sends --bytes to rank 1; rank r receives from r-1, computes and
 * sends to r+1; the last rank receives and computes.  The compute blocks take
 * the common.h corpus options (jitter, planted delays, e.g. in the middle). */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	struct corpus cs;
	struct corpus_run run = corpus_start(&cs, argc, argv, "chain", NULL, 30);
	long iters = run.iters, bytes = run.bytes;
	int rank = run.rank, size = run.size;
	char *buf = calloc(1, (size_t)bytes);
	if (!buf) app_die("%s", "chain: out of memory");
	struct app_counts c = { 0 };
	for (long it = 0; it < iters; it++) {
		if (rank > 0) {
			MPI_Recv(buf, (int)bytes, MPI_CHAR, rank - 1, corpus_tag(&cs, 1, it), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			c.recv++;
		}
		corpus_compute(&cs, it);
		if (rank + 1 < size) {
			MPI_Send(buf, (int)bytes, MPI_CHAR, rank + 1, corpus_tag(&cs, 1, it), MPI_COMM_WORLD);
			c.send++;
			c.bytes += (uint64_t)bytes;
		}
	}
	corpus_truth(&cs, argc, argv);
	FILE *f = expect_open(argc, argv, "chain", &c);
	if (f) {
		fprintf(f, "iters=%ld\nmsg_bytes=%ld\n", iters, bytes);
		fclose(f);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
