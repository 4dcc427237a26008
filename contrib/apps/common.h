/* common.h — shared helpers of the tracecomb MPI mini-apps: flag parsing,
 * sleeping, and the expectation file (what the app planted, as key=value lines
 * written by rank 0 when the app is given --expect FILE). */
#ifndef TC_APPS_COMMON_H
#define TC_APPS_COMMON_H

#include <errno.h>
#include <mpi.h>
#include <stdbool.h>
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

/* --mode NAME as the index of NAME in modes (NULL-terminated; the first is the
 * default); exits on an unknown name. */
static inline int opt_mode(int argc, char **argv, const char *app, const char *const *modes)
{
	const char *m = opt_str(argc, argv, "--mode", modes[0]);
	for (int i = 0; modes[i]; i++)
		if (!strcmp(m, modes[i])) return i;
	char msg[256];
	snprintf(msg, sizeof msg, "%s: unknown --mode %s", app, m);
	app_die("%s", msg);
	return -1;
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

/* ---------------------------------------------------- planted-cause corpus
 * The options every corpus app shares (add CORPUS_OPTS to its known list):
 *   --compute-ms M   compute per iteration (user region, see --regions)
 *   --jitter-us J    plus a uniform random 0..J us on every compute, seeded
 *   --seed S         seeds the jitter (and the case's tracer background)
 *   --delay-rank R --delay-iter I --delay-ms D     one planted delay: rank R
 *                    computes D ms longer in iteration I
 *   --delay2-rank, --delay2-iter, --delay2-ms      a second one
 *   --slow-rank R --slow-ms D   rank R computes D ms longer in every iteration
 *   --slow-ranks A,B,...        these ranks too (a slow group; at most 16)
 *   --extra-rank R --extra-every K --extra-ms D   rank R also runs D ms of
 *                    work in a user region of its own ("extra_work") in every
 *                    K-th iteration (a checkpoint written by one rank, a
 *                    boundary routine: code the others do not run)
 *   --regions 0|1    0: no user regions at all (default 1)
 *   --tags const|iter  const (default): each message kind keeps one tag;
 *                    iter: the tag numbers the iteration too (corpus_tag:
 *                    a tag per message between two ranks, as many real codes
 *                    tag by iteration)
 *   --truth FILE     rank 0 appends what was planted, with CLOCK_MONOTONIC
 *                    times, as key=value lines (contrib/README.md, "Corpus") */
#define CORPUS_OPTS "--seed", "--jitter-us", "--compute-ms", "--delay-rank", "--delay-iter", "--delay-ms", \
	"--delay2-rank", "--delay2-iter", "--delay2-ms", "--slow-rank", "--slow-ranks", "--slow-ms", "--regions", \
	"--extra-rank", "--extra-every", "--extra-ms", "--tags", "--truth"

struct corpus {
	int rank;
	long seed, jitter_us, regions, slow_rank;
	long slow_more[16];     /* --slow-ranks */
	int nslow_more;
	double compute_ms, slow_ms, extra_ms;
	long extra_rank, extra_every;
	bool tag_iter;          /* --tags iter */
	long drank[2], diter[2];
	double dms[2];
	uint64_t rng;
	uint64_t t0[3], t1[3];  /* this rank's planted sleeps: delay, delay2, slow (first start, last end) */
	uint64_t init_ns;       /* CLOCK_MONOTONIC right after MPI_Init */
	uint64_t blocks, late_blocks, max_over_ns;  /* machine noise: compute sleeps that overran by > 1 ms */
	uint64_t busy_blocks;  /* ... by more than max(0.2 ms, a tenth of the sleep): a wake-up the machine held back */
	double added_ns;       /* what the machine added to this rank's compute: overruns beyond 0.2 ms, summed */
};

static inline uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Call right after MPI_Init; def_compute_ms is the app's default --compute-ms. */
static inline void corpus_init(struct corpus *cs, int argc, char **argv, double def_compute_ms)
{
	memset(cs, 0, sizeof *cs);
	cs->init_ns = mono_ns();
	MPI_Comm_rank(MPI_COMM_WORLD, &cs->rank);
	cs->seed = opt_long(argc, argv, "--seed", 1);
	cs->jitter_us = opt_long(argc, argv, "--jitter-us", 0);
	cs->regions = opt_long(argc, argv, "--regions", 1);
	cs->compute_ms = (double)opt_long(argc, argv, "--compute-ms", (long)def_compute_ms);
	static const char *const names[2][3] = { { "--delay-rank", "--delay-iter", "--delay-ms" },
						  { "--delay2-rank", "--delay2-iter", "--delay2-ms" } };
	for (int k = 0; k < 2; k++) {
		cs->drank[k] = opt_long(argc, argv, names[k][0], -1);
		cs->diter[k] = opt_long(argc, argv, names[k][1], 0);
		cs->dms[k] = (double)opt_long(argc, argv, names[k][2], 0);
	}
	cs->slow_rank = opt_long(argc, argv, "--slow-rank", -1);
	cs->slow_ms = (double)opt_long(argc, argv, "--slow-ms", 0);
	cs->extra_rank = opt_long(argc, argv, "--extra-rank", -1);
	cs->extra_every = opt_long(argc, argv, "--extra-every", 1);
	cs->extra_ms = (double)opt_long(argc, argv, "--extra-ms", 0);
	if (cs->extra_every < 1) app_die("%s", "--extra-every must be >= 1");
	const char *tags = opt_str(argc, argv, "--tags", "const");
	if (strcmp(tags, "const") && strcmp(tags, "iter")) app_die("%s", "--tags wants const or iter");
	cs->tag_iter = !strcmp(tags, "iter");
	const char *more = opt_str(argc, argv, "--slow-ranks", NULL);
	for (const char *p = more; p && *p && cs->nslow_more < 16;) {
		char *end;
		long r = strtol(p, &end, 10);
		if (end == p || r < 0) app_die("%s", "--slow-ranks wants ranks separated by commas");
		cs->slow_more[cs->nslow_more++] = r;
		p = *end == ',' ? end + 1 : end;
	}
	if (cs->slow_rank < 0 && cs->nslow_more) cs->slow_rank = cs->slow_more[0];
	if (cs->jitter_us < 0 || cs->compute_ms < 0) app_die("%s", "--jitter-us and --compute-ms must be >= 0");
	cs->rng = (uint64_t)cs->seed * 7919u + (uint64_t)cs->rank + 1;
}

/* The start of the corpus-only apps (ring, chain, degen): their options are
 * --mode (from modes, NULL-terminated, the first is the default; NULL: no
 * --mode), --iters (default def_iters), --bytes (default 1024), --expect and
 * the corpus options, with 3 ms of compute by default. */
struct corpus_run {
	int rank, size, mode;
	long iters, bytes;
};
static inline struct corpus_run corpus_start(struct corpus *cs, int argc, char **argv, const char *app,
					     const char *const *modes, long def_iters)
{
	static const char *const known[] = { "--mode", "--iters", "--bytes", "--expect", CORPUS_OPTS, NULL };
	opt_check(argc, argv, known);
	corpus_init(cs, argc, argv, 3);
	static const char *const none[] = { "", NULL };
	struct corpus_run r;
	r.mode = opt_mode(argc, argv, app, modes ? modes : none);
	r.iters = opt_long(argc, argv, "--iters", def_iters);
	r.bytes = opt_long(argc, argv, "--bytes", 1024);
	if (r.iters < 1 || r.bytes < 1) app_die("%s: --iters and --bytes must be >= 1", app);
	MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &r.size);
	return r;
}

static inline double corpus_rand(struct corpus *cs)  /* uniform [0, 1), splitmix64 */
{
	uint64_t z = (cs->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

/* This rank is slow every iteration (--slow-rank, --slow-ranks). */
static inline bool corpus_is_slow(const struct corpus *cs)
{
	if (cs->rank == cs->slow_rank) return true;
	for (int k = 0; k < cs->nslow_more; k++)
		if (cs->rank == cs->slow_more[k]) return true;
	return false;
}

/* One compute block of iteration it: base_ms plus jitter, plus the planted
 * delays of this rank and iteration, inside user region `region` (none when
 * --regions 0).  Records when the planted sleeps ran. */
static inline void corpus_work(struct corpus *cs, long it, double base_ms, const char *region)
{
	if (cs->regions) tc_region_begin(region);
	double want = base_ms + (double)cs->jitter_us / 1000.0 * corpus_rand(cs);
	uint64_t s0 = mono_ns();
	sleep_ms(want);
	double over = (double)(mono_ns() - s0) - want * 1e6;
	cs->blocks++;
	if (over > 1e6) cs->late_blocks++;
	if (over > 2e5 && over > 0.1 * want * 1e6) cs->busy_blocks++;
	if (over > 2e5) cs->added_ns += over - 2e5;
	if (over > (double)cs->max_over_ns) cs->max_over_ns = (uint64_t)over;
	for (int k = 0; k < 2; k++)
		if (cs->rank == cs->drank[k] && it == cs->diter[k] && cs->dms[k] > 0) {
			cs->t0[k] = mono_ns();
			sleep_ms(cs->dms[k]);
			cs->t1[k] = mono_ns();
		}
	if (corpus_is_slow(cs) && cs->slow_ms > 0) {
		uint64_t t = mono_ns();
		sleep_ms(cs->slow_ms);
		if (!cs->t0[2]) cs->t0[2] = t;
		cs->t1[2] = mono_ns();
	}
	if (cs->regions) tc_region_end(region);
	if (cs->rank == cs->extra_rank && cs->extra_ms > 0 && it % cs->extra_every == cs->extra_every - 1) {
		if (cs->regions) tc_region_begin("extra_work");
		sleep_ms(cs->extra_ms);
		if (cs->regions) tc_region_end("extra_work");
	}
}

/* The tag of a message of kind base (0..15) sent in iteration it: base, or
 * with --tags iter base + 16 * (it mod 2000), below MPI's least tag bound
 * (32767). */
static inline int corpus_tag(const struct corpus *cs, int base, long it)
{
	return cs->tag_iter ? base + 16 * (int)(it % 2000) : base;
}

static inline void corpus_compute(struct corpus *cs, long it) { corpus_work(cs, it, cs->compute_ms, "compute"); }

static inline void truth_delay(FILE *f, const char *pfx, long rank, const char *iter, uint64_t t0, uint64_t t1)
{
	fprintf(f, "%s_rank=%ld\n%s_iter=%s\n%s_t0_ns=%llu\n%s_t1_ns=%llu\n", pfx, rank, pfx, iter, pfx,
		(unsigned long long)t0, pfx, (unsigned long long)t1);
}

/* Collective (call before MPI_Finalize): rank 0 appends the planted delays
 * (delay_*, delay2_*; a --slow-rank as delay_* with delay_iter=all spanning
 * its first to last slow block when no --delay-rank is set, and as slow_*),
 * the seed, and the tracer's background window (TRACECOMB_EMU_BG_WINDOW_MS,
 * counted from the end of MPI_Init) as window_t0_ns / window_t1_ns. */
static inline void corpus_truth(struct corpus *cs, int argc, char **argv)
{
	uint64_t mine[6] = { cs->t0[0], cs->t1[0], cs->t0[1], cs->t1[1], cs->t0[2], cs->t1[2] }, t[6];
	MPI_Reduce(mine, t, 6, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
	/* a slow group's first slow block: the earliest of its ranks' */
	uint64_t first = cs->t0[2] ? cs->t0[2] : UINT64_MAX, earliest;
	MPI_Reduce(&first, &earliest, 1, MPI_UINT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
	if (cs->rank == 0 && earliest != UINT64_MAX) t[4] = earliest;
	uint64_t nz[3] = { cs->blocks, cs->late_blocks, cs->busy_blocks }, nzs[3], mo;
	MPI_Reduce(nz, nzs, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&cs->max_over_ns, &mo, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
	int size;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	double *added = cs->rank == 0 ? calloc((size_t)size, sizeof *added) : NULL;
	MPI_Gather(&cs->added_ns, 1, MPI_DOUBLE, added, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	const char *path = opt_str(argc, argv, "--truth", NULL);
	FILE *f = cs->rank == 0 && path ? fopen(path, "a") : NULL;
	if (!f) {
		if (cs->rank == 0 && path) fprintf(stderr, "cannot append to %s: %s\n", path, strerror(errno));
		free(added);
		return;
	}
	fprintf(f, "seed=%ld\njitter_us=%ld\ncompute_ms=%g\n", cs->seed, cs->jitter_us, cs->compute_ms);
	/* how noisy the machine was: compute blocks whose sleep overran by more than 1 ms */
	fprintf(f, "noise_busy_blocks=%llu\n", (unsigned long long)nzs[2]);
	/* per rank, what the machine added to its compute (ms): a machine-made imbalance */
	fprintf(f, "noise_rank_added_ms=");
	for (int r = 0; r < size && added; r++) fprintf(f, "%s%.1f", r ? "," : "", added[r] / 1e6);
	fprintf(f, "\n");
	free(added);
	fprintf(f, "noise_late_blocks=%llu\nnoise_blocks=%llu\nnoise_max_overrun_ms=%.1f\n", (unsigned long long)nzs[1],
		(unsigned long long)nzs[0], (double)mo / 1e6);
	char it[32];
	for (int k = 0; k < 2; k++)
		if (t[2 * k]) {
			snprintf(it, sizeof it, "%ld", cs->diter[k]);
			truth_delay(f, k ? "delay2" : "delay", cs->drank[k], it, t[2 * k], t[2 * k + 1]);
			fprintf(f, "%s_ms=%g\n", k ? "delay2" : "delay", cs->dms[k]);
		}
	if (t[4]) {
		if (!t[0]) truth_delay(f, "delay", cs->slow_rank, "all", t[4], t[5]);
		truth_delay(f, "slow", cs->slow_rank, "all", t[4], t[5]);
		fprintf(f, "slow_ms=%g\n", cs->slow_ms);
		if (cs->nslow_more) {  /* the whole slow group: every one must be named */
			fprintf(f, "slow_ranks=%ld", cs->slow_rank);
			for (int k = 0; k < cs->nslow_more; k++)
				if (cs->slow_more[k] != cs->slow_rank) fprintf(f, ",%ld", cs->slow_more[k]);
			fprintf(f, "\n");
		}
	}
	const char *win = getenv("TRACECOMB_EMU_BG_WINDOW_MS");
	long a, b;
	if (win && sscanf(win, "%ld:%ld", &a, &b) == 2)
		fprintf(f, "window_t0_ns=%llu\nwindow_t1_ns=%llu\n", (unsigned long long)(cs->init_ns + (uint64_t)a * 1000000u),
			(unsigned long long)(cs->init_ns + (uint64_t)b * 1000000u));
	fclose(f);
}

#endif
