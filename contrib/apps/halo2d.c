/* halo2d — 2-D halo exchange on a periodic px×py process grid.
 * Every iteration: user region "compute" (compute-ms plus the planted delays
 * of common.h: --delay-*, --delay2-*, --slow-*), then Irecv/Isend with the 4
 * neighbours and MPI_Waitall; every allreduce-every iterations an
 * MPI_Allreduce. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--iters", "--bytes", "--allreduce-every", "--expect", CORPUS_OPTS, NULL };
	opt_check(argc, argv, known);
	struct corpus cs;
	corpus_init(&cs, argc, argv, 1);
	long iters = opt_long(argc, argv, "--iters", 20);
	long bytes = opt_long(argc, argv, "--bytes", 4096);
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
		corpus_compute(&cs, it);
		MPI_Request rq[8];
		for (int d = 0; d < 4; d++) {
			/* a message travelling in direction d arrives from the opposite side */
			MPI_Irecv(rbuf + (size_t)d * (size_t)bytes, (int)bytes, MPI_CHAR, nb[d ^ 1], corpus_tag(&cs, d, it), MPI_COMM_WORLD, &rq[d]);
			c.irecv++;
		}
		for (int d = 0; d < 4; d++) {
			MPI_Isend(sbuf + (size_t)d * (size_t)bytes, (int)bytes, MPI_CHAR, nb[d], corpus_tag(&cs, d, it), MPI_COMM_WORLD, &rq[4 + d]);
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
	corpus_truth(&cs, argc, argv);
	FILE *f = expect_open(argc, argv, "halo2d", &c);
	if (f) {
		fprintf(f, "px=%d\npy=%d\niters=%ld\nmsg_bytes=%ld\ndelay_rank=%ld\ndelay_iter=%ld\ndelay_ms=%g\n"
			   "allreduces=%ld\n", px, py, iters, bytes, cs.drank[0], cs.diter[0], cs.dms[0], iters / every);
		fclose(f);
	}
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return sum < 0;
}
