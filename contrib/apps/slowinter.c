/* slowinter — every iteration each rank exchanges msg-bytes with both ring
 * neighbours (Isend/Irecv/Waitall).  Nodes are emulated as in the tracer:
 * node = rank / TRACECOMB_RANKS_PER_NODE (all ranks on one node when unset).
 * In the second half of the run, a send to a rank on another node is preceded
 * by slow-ms of sleep, so inter-node transfers arrive late. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--iters", "--bytes", "--slow-ms", "--expect", NULL };
	opt_check(argc, argv, known);
	long iters = opt_long(argc, argv, "--iters", 10);
	long bytes = opt_long(argc, argv, "--bytes", 8192);
	long slow_ms = opt_long(argc, argv, "--slow-ms", 5);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (iters < 2 || bytes < 1 || slow_ms < 0) app_die("%s", "slowinter: --iters >= 2, --bytes >= 1, --slow-ms >= 0");
	const char *rpn_env = getenv("TRACECOMB_RANKS_PER_NODE");
	long rpn = rpn_env ? strtol(rpn_env, NULL, 10) : 0;
	if (rpn <= 0) rpn = size;
	int nb[2] = { (rank + size - 1) % size, (rank + 1) % size };
	char *sbuf = calloc(2, (size_t)bytes), *rbuf = calloc(2, (size_t)bytes);
	if (!sbuf || !rbuf) app_die("%s", "slowinter: out of memory");
	struct app_counts c = { 0 };
	uint64_t inter_slowed = 0;
	for (long it = 0; it < iters; it++) {
		tc_region_begin("compute");
		sleep_ms(1);
		tc_region_end("compute");
		MPI_Request rq[4];
		for (int d = 0; d < 2; d++) {
			MPI_Irecv(rbuf + (size_t)d * (size_t)bytes, (int)bytes, MPI_CHAR, nb[d], 1 - d, MPI_COMM_WORLD, &rq[d]);
			c.irecv++;
		}
		for (int d = 0; d < 2; d++) {
			if (it >= iters / 2 && nb[d] / rpn != rank / rpn) {
				tc_region_begin("slow_link");
				sleep_ms((double)slow_ms);
				tc_region_end("slow_link");
				inter_slowed++;
			}
			MPI_Isend(sbuf + (size_t)d * (size_t)bytes, (int)bytes, MPI_CHAR, nb[d], d, MPI_COMM_WORLD, &rq[2 + d]);
			c.isend++; c.bytes += (uint64_t)bytes;
		}
		MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
	}
	uint64_t tot_slowed = 0;
	MPI_Reduce(&inter_slowed, &tot_slowed, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	FILE *f = expect_open(argc, argv, "slowinter", &c);
	if (f) {
		fprintf(f, "iters=%ld\nmsg_bytes=%ld\nslow_ms=%ld\nranks_per_node=%ld\nslowed_sends=%llu\n", iters, bytes,
			slow_ms, rpn, (unsigned long long)tot_slowed);
		fclose(f);
	}
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
