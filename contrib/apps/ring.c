/* ring — every iteration: a compute block (common.h corpus options: jitter,
 * planted delays), then each rank passes --bytes to its right neighbour and
 * gets the left one's, with
 *   --mode sendrecv   one blocking MPI_Sendrecv (default);
 *   --mode parity     MPI_Send/MPI_Recv, even ranks send first, odd ranks receive first;
 *   --mode nb         MPI_Irecv + MPI_Isend + MPI_Waitall.
 * Large messages (e.g. 262144 bytes) go by rendezvous: a blocked send then
 * waits for its receiver, so a delay also runs backwards round the ring. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const modes[] = { "sendrecv", "parity", "nb", NULL };
	struct corpus cs;
	struct corpus_run run = corpus_start(&cs, argc, argv, "ring", modes, 30);
	long iters = run.iters, bytes = run.bytes;
	int rank = run.rank, size = run.size, m = run.mode;
	if (size < 2) app_die("%s", "ring: needs >= 2 ranks");
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	char *sbuf = calloc(1, (size_t)bytes), *rbuf = calloc(1, (size_t)bytes);
	if (!sbuf || !rbuf) app_die("%s", "ring: out of memory");
	struct app_counts c = { 0 };
	for (long it = 0; it < iters; it++) {
		corpus_compute(&cs, it);
		sbuf[0] = (char)(rank + it);
		if (m == 0) {
			MPI_Sendrecv(sbuf, (int)bytes, MPI_CHAR, right, corpus_tag(&cs, 1, it), rbuf, (int)bytes, MPI_CHAR, left, corpus_tag(&cs, 1, it), MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
			c.send++; c.recv++;
		} else if (m == 1) {
			for (int half = 0; half < 2; half++) {
				if ((rank % 2 == 0) == (half == 0)) {
					MPI_Send(sbuf, (int)bytes, MPI_CHAR, right, corpus_tag(&cs, 1, it), MPI_COMM_WORLD);
					c.send++;
				} else {
					MPI_Recv(rbuf, (int)bytes, MPI_CHAR, left, corpus_tag(&cs, 1, it), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
					c.recv++;
				}
			}
		} else {
			MPI_Request rq[2];
			MPI_Irecv(rbuf, (int)bytes, MPI_CHAR, left, corpus_tag(&cs, 1, it), MPI_COMM_WORLD, &rq[0]);
			MPI_Isend(sbuf, (int)bytes, MPI_CHAR, right, corpus_tag(&cs, 1, it), MPI_COMM_WORLD, &rq[1]);
			MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
			c.isend++; c.irecv++;
		}
		c.bytes += (uint64_t)bytes;
	}
	corpus_truth(&cs, argc, argv);
	FILE *f = expect_open(argc, argv, "ring", &c);
	if (f) {
		fprintf(f, "mode=%s\niters=%ld\nmsg_bytes=%ld\n", modes[m], iters, bytes);
		fclose(f);
	}
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
