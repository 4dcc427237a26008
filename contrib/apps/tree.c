/* tree — the "merge tree": a k-ary gather towards rank 0 followed by a scatter
 * back down, both built from MPI_Send / MPI_Recv.  Children of rank r are
 * r*k+1 .. r*k+k.  The compute block of each iteration takes the common.h
 * corpus options (jitter, planted delays on a leaf, inner node or the root). */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--arity", "--iters", "--bytes", "--expect", CORPUS_OPTS, NULL };
	opt_check(argc, argv, known);
	long k = opt_long(argc, argv, "--arity", 2);
	long iters = opt_long(argc, argv, "--iters", 5);
	long bytes = opt_long(argc, argv, "--bytes", 1024);
	struct corpus cs;
	corpus_init(&cs, argc, argv, 1);
	if (k < 1 || iters < 1 || bytes < 1) app_die("%s", "tree: --arity, --iters and --bytes must be >= 1");
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	char *buf = calloc(1, (size_t)bytes), *in = calloc(1, (size_t)bytes);
	if (!buf || !in) app_die("%s", "tree: out of memory");
	struct app_counts c = { 0 };
	long first = (long)rank * k + 1;
	int parent = rank ? (int)((rank - 1) / k) : -1;
	for (long it = 0; it < iters; it++) {
		corpus_compute(&cs, it);
		buf[0] = (char)(rank + it);
		/* gather up: merge every child's block into ours */
		for (long ch = first; ch < first + k && ch < size; ch++) {
			MPI_Recv(in, (int)bytes, MPI_CHAR, (int)ch, corpus_tag(&cs, 1, it), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			c.recv++;
			for (long i = 0; i < bytes; i++) buf[i] = (char)(buf[i] ^ in[i]);
		}
		if (parent >= 0) {
			MPI_Send(buf, (int)bytes, MPI_CHAR, parent, corpus_tag(&cs, 1, it), MPI_COMM_WORLD);
			c.send++;
			c.bytes += (uint64_t)bytes;
			/* scatter down: the merged result comes back from the parent */
			MPI_Recv(buf, (int)bytes, MPI_CHAR, parent, corpus_tag(&cs, 2, it), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			c.recv++;
		}
		for (long ch = first; ch < first + k && ch < size; ch++) {
			MPI_Send(buf, (int)bytes, MPI_CHAR, (int)ch, corpus_tag(&cs, 2, it), MPI_COMM_WORLD);
			c.send++;
			c.bytes += (uint64_t)bytes;
		}
	}
	corpus_truth(&cs, argc, argv);
	FILE *f = expect_open(argc, argv, "tree", &c);
	if (f) {
		fprintf(f, "arity=%ld\niters=%ld\nmsg_bytes=%ld\n", k, iters, bytes);
		fclose(f);
	}
	free(buf);
	free(in);
	MPI_Finalize();
	return 0;
}
