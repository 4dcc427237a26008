/* groups — G contiguous rank groups (MPI_Comm_split, color = rank*G/size)
 * with heavy traffic inside a group (ring exchange on the sub-communicator,
 * msg-bytes per message, plus an MPI_Allreduce on it) and light traffic
 * across groups (group leader → next group's leader, 8 bytes, on
 * MPI_COMM_WORLD).  --sync-every N > 0: instead of the leaders' exchange, the
 * groups meet only in a world MPI_Allreduce every N iterations.  The compute
 * block takes the common.h corpus options (jitter, planted delays). */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--groups", "--iters", "--bytes", "--sync-every", "--expect", CORPUS_OPTS, NULL };
	opt_check(argc, argv, known);
	long G = opt_long(argc, argv, "--groups", 2);
	long iters = opt_long(argc, argv, "--iters", 10);
	long bytes = opt_long(argc, argv, "--bytes", 32768);
	long sync_every = opt_long(argc, argv, "--sync-every", 0);
	struct corpus cs;
	corpus_init(&cs, argc, argv, 1);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (G < 1 || G > size || iters < 1 || bytes < 1 || sync_every < 0)
		app_die("%s", "groups: need 1 <= --groups <= ranks, --iters >= 1, --bytes >= 1, --sync-every >= 0");
	int color = (int)((long)rank * G / size);
	MPI_Comm sub;
	MPI_Comm_split(MPI_COMM_WORLD, color, rank, &sub);
	int lr, ls;
	MPI_Comm_rank(sub, &lr);
	MPI_Comm_size(sub, &ls);
	/* world ranks of the group leaders (comm-local rank 0 of each group) */
	int *leader = malloc((size_t)G * sizeof *leader);
	char *sbuf = calloc(2, (size_t)bytes), *rbuf = calloc(2, (size_t)bytes);
	if (!leader || !sbuf || !rbuf) app_die("%s", "groups: out of memory");
	for (long g = 0; g < G; g++) {
		int r = 0;
		while ((long)r * G / size != g) r++;
		leader[g] = r;
	}
	struct app_counts c = { 0 };
	for (long it = 0; it < iters; it++) {
		corpus_compute(&cs, it);
		if (ls > 1) {
			MPI_Request rq[4];
			int right = (lr + 1) % ls, left = (lr + ls - 1) % ls;
			MPI_Irecv(rbuf, (int)bytes, MPI_CHAR, left, corpus_tag(&cs, 1, it), sub, &rq[0]);
			MPI_Irecv(rbuf + bytes, (int)bytes, MPI_CHAR, right, corpus_tag(&cs, 2, it), sub, &rq[1]);
			MPI_Isend(sbuf, (int)bytes, MPI_CHAR, right, corpus_tag(&cs, 1, it), sub, &rq[2]);
			MPI_Isend(sbuf + bytes, (int)bytes, MPI_CHAR, left, corpus_tag(&cs, 2, it), sub, &rq[3]);
			MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
			c.irecv += 2; c.isend += 2; c.bytes += 2 * (uint64_t)bytes;
		}
		double v = rank, s;
		MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, sub);
		if (sync_every > 0) {
			if ((it + 1) % sync_every == 0) MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		} else if (G > 1 && lr == 0) {
			int to = leader[(color + 1) % G], from = leader[(color + G - 1) % G];
			long tok = it, got;
			MPI_Sendrecv(&tok, 1, MPI_LONG, to, corpus_tag(&cs, 3, it), &got, 1, MPI_LONG, from, corpus_tag(&cs, 3, it), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			c.send++; c.recv++; c.bytes += sizeof(long);
		}
	}
	MPI_Comm_free(&sub);
	corpus_truth(&cs, argc, argv);
	FILE *f = expect_open(argc, argv, "groups", &c);
	if (f) {
		fprintf(f, "groups=%ld\niters=%ld\nmsg_bytes=%ld\n", G, iters, bytes);
		for (long g = 0; g < G; g++) {
			fprintf(f, "group.%ld=", g);
			for (int r = 0, first = 1; r < size; r++)
				if ((long)r * G / size == g) {
					fprintf(f, "%s%d", first ? "" : ",", r);
					first = 0;
				}
			fputc('\n', f);
		}
		fclose(f);
	}
	free(leader);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
