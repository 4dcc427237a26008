/* masterworker — rank 0 hands out --tasks tasks; workers answer and rank 0
 * receives the results with MPI_ANY_SOURCE, then sends the next task to
 * whoever answered.  Imbalance: workers with rank % slow-every == 0 get tasks
 * slow-factor times longer (--slow-every 0: none); --ramp-ms R: worker w
 * takes (w-1)*R ms longer per task.  Tasks take the common.h corpus options
 * (jitter; --delay-rank W --delay-iter K: the K-th task of worker W is longer).
 * Tag 1 = task, 2 = result, 3 = stop. */
#include "common.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	static const char *const known[] = { "--tasks", "--task-ms", "--slow-every", "--slow-factor", "--ramp-ms", "--expect",
					     CORPUS_OPTS, NULL };
	opt_check(argc, argv, known);
	long tasks = opt_long(argc, argv, "--tasks", 40);
	long task_ms = opt_long(argc, argv, "--task-ms", 2);
	long slow_every = opt_long(argc, argv, "--slow-every", 3);
	long slow_factor = opt_long(argc, argv, "--slow-factor", 4);
	long ramp_ms = opt_long(argc, argv, "--ramp-ms", 0);
	struct corpus cs;
	corpus_init(&cs, argc, argv, 0);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || tasks < 0 || task_ms < 0 || slow_every < 0 || slow_factor < 1 || ramp_ms < 0)
		app_die("%s", "masterworker: needs >= 2 ranks, --tasks >= 0, --slow-every >= 0, --slow-factor >= 1, --ramp-ms >= 0");
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
			if (slow_every && st.MPI_SOURCE % slow_every == 0) done_by_slow++;
			long t = next < tasks ? next++ : -1;
			MPI_Send(&t, 1, MPI_LONG, st.MPI_SOURCE, t >= 0 ? 1 : 3, MPI_COMM_WORLD);
			c.send++; c.bytes += sizeof(long);
			if (t >= 0) outstanding++;
		}
	} else {
		double ms = (double)task_ms * (slow_every && rank % slow_every == 0 ? (double)slow_factor : 1.0) +
			    (double)((rank - 1) * ramp_ms);
		long done = 0;
		for (;;) {
			long t;
			MPI_Status st;
			MPI_Recv(&t, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			c.recv++;
			if (st.MPI_TAG == 3) break;
			corpus_work(&cs, done++, ms, "task");
			long res = t * t;
			MPI_Send(&res, 1, MPI_LONG, 0, 2, MPI_COMM_WORLD);
			c.send++; c.bytes += sizeof(long);
		}
	}
	corpus_truth(&cs, argc, argv);
	FILE *f = expect_open(argc, argv, "masterworker", &c);
	if (f) {
		fprintf(f, "tasks=%ld\ntask_ms=%ld\nslow_every=%ld\nslow_factor=%ld\ntasks_by_slow_workers=%ld\n", tasks,
			task_ms, slow_every, slow_factor, done_by_slow);
		fclose(f);
	}
	MPI_Finalize();
	return 0;
}
