/* common.h — shared helpers of the tracecomb MPI mini-apps: flag parsing,
 * sleeping, and the expectation file (what the app planted, as key=value lines
 * written by rank 0 when the app is given --expect FILE). */
#ifndef TC_APPS_COMMON_H
#define TC_APPS_COMMON_H

#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tc_trace.h"

/* Message counters each rank keeps for what it sends and receives. */
struct app_counts {
	uint64_t send, isend, recv, irecv, bytes;  /* bytes: sum of the lengths of sent messages */
};

static inline void app_die(const char *fmt, const char *arg)
{
	int rank = 0;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		fprintf(stderr, fmt, arg);
		fputc('\n', stderr);
	}
	MPI_Abort(MPI_COMM_WORLD, 2);
	exit(2);
}

/* --name VALUE as a long; def when absent; exits on a malformed value. */
static inline long opt_long(int argc, char **argv, const char *name, long def)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], name)) continue;
		if (i + 1 >= argc) app_die("missing value after %s", name);
		char *end;
		errno = 0;
		long v = strtol(argv[i + 1], &end, 10);
		if (errno || *end || end == argv[i + 1]) app_die("bad number after %s", name);
		return v;
	}
	return def;
}

static inline const char *opt_str(int argc, char **argv, const char *name, const char *def)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name)) {
			if (i + 1 >= argc) app_die("missing value after %s", name);
			return argv[i + 1];
		}
	return def;
}

/* Rejects flags the app does not know (each takes one value). */
static inline void opt_check(int argc, char **argv, const char *const *known)
{
	for (int i = 1; i < argc; i += 2) {
		int ok = 0;
		for (const char *const *k = known; *k; k++)
			if (!strcmp(argv[i], *k)) ok = 1;
		if (!ok) app_die("unknown option %s", argv[i]);
	}
}

static inline void sleep_ms(double ms)
{
	if (ms <= 0) return;
	struct timespec ts;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000) * 1e6);
	while (nanosleep(&ts, &ts) && errno == EINTR) {}
}

/* Sums the counters over all ranks; rank 0 opens the expectation file (NULL
 * when no --expect was given) with the counts already written, so the app can
 * add its own keys and fclose() it. */
static inline FILE *expect_open(int argc, char **argv, const char *app, const struct app_counts *c)
{
	uint64_t mine[5] = { c->send, c->isend, c->recv, c->irecv, c->bytes }, tot[5];
	MPI_Reduce(mine, tot, 5, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const char *path = opt_str(argc, argv, "--expect", NULL);
	if (rank != 0 || !path) return NULL;
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: cannot write %s: %s\n", app, path, strerror(errno));
		return NULL;
	}
	fprintf(f, "app=%s\nranks=%d\nmpi_send=%llu\nmpi_isend=%llu\nmpi_recv=%llu\nmpi_irecv=%llu\n", app, size,
		(unsigned long long)tot[0], (unsigned long long)tot[1], (unsigned long long)tot[2],
		(unsigned long long)tot[3]);
	fprintf(f, "messages=%llu\nbytes=%llu\n", (unsigned long long)(tot[0] + tot[1]), (unsigned long long)tot[4]);
	return f;
}

#endif
