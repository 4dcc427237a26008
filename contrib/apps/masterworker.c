/* masterworker — rank 0 hands out --tasks tasks; workers answer and rank 0
 * receives the results with MPI_ANY_SOURCE, then sends the next task to
 * whoever answered.  Imbalance: workers with rank % slow-every == 0 get tasks
 * slow-factor times longer.  Tag 1 = task, 2 = result, 3 = stop. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--tasks", "--task-ms", "--slow-every", "--slow-factor", "--expect", NULL };
	opt_check(argc, argv, known);
	long tasks = opt_long(argc, argv, "--tasks", 40);
	long task_ms = opt_long(argc, argv, "--task-ms", 2);
	long slow_every = opt_long(argc, argv, "--slow-every", 3);
	long slow_factor = opt_long(argc, argv, "--slow-factor", 4);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || tasks < 0 || task_ms < 0 || slow_every < 1 || slow_factor < 1)
		app_die("%s", "masterworker: needs >= 2 ranks, --tasks >= 0, --slow-every >= 1, --slow-factor >= 1");
	struct app_counts c = { 0 };
	long done_by_slow = 0;
	if (rank == 0) {
		long next = 0, outstanding = 0;
		for (int w = 1; w < size; w++) {
			if (next < tasks) {
				long t = next++;
				MPI_Send(&t, 1, MPI_LONG, w, 1, MPI_COMM_WORLD);
				outstanding++;
			} else {
				long t = -1;
				MPI_Send(&t, 1, MPI_LONG, w, 3, MPI_COMM_WORLD);
			}
			c.send++; c.bytes += sizeof(long);
		}
		while (outstanding > 0) {
			long res;
			MPI_Status st;
			MPI_Recv(&res, 1, MPI_LONG, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
			c.recv++;
			outstanding--;
			if (st.MPI_SOURCE % slow_every == 0) done_by_slow++;
			long t = next < tasks ? next++ : -1;
			MPI_Send(&t, 1, MPI_LONG, st.MPI_SOURCE, t >= 0 ? 1 : 3, MPI_COMM_WORLD);
			c.send++; c.bytes += sizeof(long);
			if (t >= 0) outstanding++;
		}
	} else {
		double ms = (double)task_ms * (rank % slow_every == 0 ? (double)slow_factor : 1.0);
		for (;;) {
			long t;
			MPI_Status st;
			MPI_Recv(&t, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			c.recv++;
			if (st.MPI_TAG == 3) break;
			tc_region_begin("task");
			sleep_ms(ms);
			tc_region_end("task");
			long res = t * t;
			MPI_Send(&res, 1, MPI_LONG, 0, 2, MPI_COMM_WORLD);
			c.send++; c.bytes += sizeof(long);
		}
	}
	FILE *f = expect_open(argc, argv, "masterworker", &c);
	if (f) {
		fprintf(f, "tasks=%ld\ntask_ms=%ld\nslow_every=%ld\nslow_factor=%ld\ntasks_by_slow_workers=%ld\n", tasks,
			task_ms, slow_every, slow_factor, done_by_slow);
		fclose(f);
	}
	MPI_Finalize();
	return 0;
}
