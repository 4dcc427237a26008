/* halo2d — 2-D halo exchange on a periodic px×py process grid.
 * Every iteration: user region "compute" (compute-ms, plus delay-ms on
 * delay-rank at delay-iter), then Irecv/Isend with the 4 neighbours and
 * MPI_Waitall; every allreduce-every iterations an MPI_Allreduce. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--iters", "--bytes", "--delay-rank", "--delay-iter", "--delay-ms",
					     "--compute-ms", "--allreduce-every", "--expect", NULL };
	opt_check(argc, argv, known);
	long iters = opt_long(argc, argv, "--iters", 20);
	long bytes = opt_long(argc, argv, "--bytes", 4096);
	long delay_rank = opt_long(argc, argv, "--delay-rank", -1);
	long delay_iter = opt_long(argc, argv, "--delay-iter", 0);
	long delay_ms = opt_long(argc, argv, "--delay-ms", 0);
	long compute_ms = opt_long(argc, argv, "--compute-ms", 1);
	long every = opt_long(argc, argv, "--allreduce-every", 5);
	if (iters < 1 || bytes < 0 || every < 1) app_die("%s", "halo2d: --iters and --allreduce-every must be >= 1, --bytes >= 0");

	int rank, size, dims[2] = { 0, 0 };
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Dims_create(size, 2, dims);
	int px = dims[0], py = dims[1];
	int x = rank % px, y = rank / px;
	/* neighbours: 0 left, 1 right, 2 down, 3 up; tag = direction of travel */
	int nb[4] = { y * px + (x + px - 1) % px, y * px + (x + 1) % px, ((y + py - 1) % py) * px + x,
		      ((y + 1) % py) * px + x };
	char *sbuf = calloc(4, (size_t)bytes + 1), *rbuf = calloc(4, (size_t)bytes + 1);
	if (!sbuf || !rbuf) app_die("%s", "halo2d: out of memory");
	struct app_counts c = { 0 };
	double sum = 0;
	for (long it = 0; it < iters; it++) {
		tc_region_begin("compute");
		sleep_ms((double)compute_ms + (rank == delay_rank && it == delay_iter ? (double)delay_ms : 0));
		tc_region_end("compute");
		MPI_Request rq[8];
		for (int d = 0; d < 4; d++) {
			/* a message travelling in direction d arrives from the opposite side */
			MPI_Irecv(rbuf + (size_t)d * (size_t)bytes, (int)bytes, MPI_CHAR, nb[d ^ 1], d, MPI_COMM_WORLD, &rq[d]);
			c.irecv++;
		}
		for (int d = 0; d < 4; d++) {
			MPI_Isend(sbuf + (size_t)d * (size_t)bytes, (int)bytes, MPI_CHAR, nb[d], d, MPI_COMM_WORLD, &rq[4 + d]);
			c.isend++;
			c.bytes += (uint64_t)bytes;
		}
		MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
		if ((it + 1) % every == 0) {
			double v = rank + it, r;
			MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			sum += r;
		}
	}
	FILE *f = expect_open(argc, argv, "halo2d", &c);
	if (f) {
		fprintf(f, "px=%d\npy=%d\niters=%ld\nmsg_bytes=%ld\ndelay_rank=%ld\ndelay_iter=%ld\ndelay_ms=%ld\n"
			   "allreduces=%ld\n", px, py, iters, bytes, delay_rank, delay_iter, delay_ms, iters / every);
		fclose(f);
	}
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return sum < 0;
}
