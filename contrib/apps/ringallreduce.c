/* ringallreduce — ring allreduce of a vector of size*chunk doubles built from
 * MPI_Sendrecv: size-1 reduce-scatter steps, then size-1 allgather steps.
 * Verifies the result against the closed form and exits 1 when it is wrong. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--iters", "--chunk", "--expect", NULL };
	opt_check(argc, argv, known);
	long iters = opt_long(argc, argv, "--iters", 3);
	long chunk = opt_long(argc, argv, "--chunk", 256);
	if (iters < 1 || chunk < 1) app_die("%s", "ringallreduce: --iters and --chunk must be >= 1");
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	size_t n = (size_t)size * (size_t)chunk;
	double *v = malloc(n * sizeof *v), *tmp = malloc((size_t)chunk * sizeof *tmp);
	if (!v || !tmp) app_die("%s", "ringallreduce: out of memory");
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	struct app_counts c = { 0 };
	int bad = 0;
	uint64_t cb = (uint64_t)chunk * sizeof(double);
	for (long it = 0; it < iters; it++) {
		for (size_t i = 0; i < n; i++) v[i] = rank + (double)it;
		tc_region_begin("reduce_scatter");
		for (int s = 0; s < size - 1; s++) {
			int send_blk = (rank - s + size) % size, recv_blk = (rank - s - 1 + 2 * size) % size;
			MPI_Sendrecv(v + (size_t)send_blk * (size_t)chunk, (int)chunk, MPI_DOUBLE, right, 7, tmp, (int)chunk,
				     MPI_DOUBLE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (long i = 0; i < chunk; i++) v[(size_t)recv_blk * (size_t)chunk + (size_t)i] += tmp[i];
			c.send++; c.recv++; c.bytes += cb;
		}
		tc_region_end("reduce_scatter");
		tc_region_begin("allgather");
		for (int s = 0; s < size - 1; s++) {
			int send_blk = (rank + 1 - s + size) % size, recv_blk = (rank - s + size) % size;
			MPI_Sendrecv(v + (size_t)send_blk * (size_t)chunk, (int)chunk, MPI_DOUBLE, right, 8,
				     v + (size_t)recv_blk * (size_t)chunk, (int)chunk, MPI_DOUBLE, left, 8, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
			c.send++; c.recv++; c.bytes += cb;
		}
		tc_region_end("allgather");
		double want = (double)size * (double)(size - 1) / 2 + (double)size * (double)it;
		for (size_t i = 0; i < n; i++)
			if (v[i] != want) bad = 1;
	}
	FILE *f = expect_open(argc, argv, "ringallreduce", &c);
	if (f) {
		fprintf(f, "iters=%ld\nmsg_bytes=%llu\n", iters, (unsigned long long)cb);
		fclose(f);
	}
	if (bad) fprintf(stderr, "ringallreduce: rank %d: wrong result\n", rank);
	free(v);
	free(tmp);
	MPI_Finalize();
	return bad;
}
