/* gen.c — generator of realistic MPI OTF2 traces with planted behaviour.
 *
 *   gen -o DIR [options]      writes DIR/traces.otf2 through otfw
 *
 * It simulates an MPI program consistently: a receive completes at
 * max(receive posted, send time + transfer time), a Waitall leaves when all
 * its requests completed, a blocking collective leaves at max(member enters) +
 * cost.  Transfer time = latency + bytes / bandwidth, different within a node
 * and across nodes.  Deterministic for a given --seed.  Times are ns ticks. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "otfw.h"
#include "util.h"

#define RES 1000000000ull          /* ticks per second */
#define NS(sec) ((uint64_t)llround((sec) * 1e9))

/* Machine model (seconds, bytes per second). */
#define LAT_INTRA 0.5e-6
#define BW_INTRA  8e9
#define LAT_INTER 2.0e-6
#define BW_INTER  3e9
#define BW_COPY   20e9              /* local copy of an eager blocking send */

enum pattern { P_HALO2D, P_HALO1D, P_GROUPS, P_MASTERWORKER, P_TREE, P_RING };
static const char *const pattern_names[] = { "halo2d", "halo1d", "groups", "masterworker", "tree", "ring" };

struct delay { uint32_t rank, iter; double sec; };

struct opts {
	const char *out;
	uint32_t ranks, iters, rpn, groups, fanout;
	bool roundrobin, imbalance, force;
	bool unique_tags;       /* exchange tags: the iteration number instead of the direction */
	bool default_chunks;    /* libotf2's default chunk sizes (what Score-P writes) */
	enum pattern pattern;
	uint32_t allreduce_every;
	uint64_t bytes;
	double compute_us, jitter;
	uint64_t seed;
	VEC(struct delay) delays;
	uint32_t slow_every; double slow_every_f;
	double slow_inter_from, slow_inter_f;
	double noise_from, noise_to, noise_ampl;
	uint32_t link_a, link_b; double link_p, link_sec;   /* --noise-link */
};

struct sim {
	const struct opts *o;
	struct otfw *w;
	uint32_t n, nnodes;
	uint32_t *node;
	uint64_t *now;          /* per rank: time of its next event */
	uint64_t rng;
	uint64_t messages;
	uint32_t it;            /* current iteration */
	/* regions */
	uint32_t r_main, r_init, r_fin, r_compute, r_irecv, r_isend, r_waitall, r_allreduce;
	uint32_t r_send, r_recv, r_sendrecv;
	uint64_t *req;          /* per rank request id counter */
	/* halo2d grid */
	uint32_t px, py;
};

/* --- deterministic random numbers (splitmix64) ------------------------- */
static uint64_t rnd64(struct sim *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static double rnd01(struct sim *s) { return (double)(rnd64(s) >> 11) * (1.0 / 9007199254740992.0); }

/* --- model ------------------------------------------------------------- */
static double compute_sec(struct sim *s, uint32_t r)
{
	const struct opts *o = s->o;
	double c = o->compute_us * 1e-6;
	if (o->slow_every && r % o->slow_every == 0) c *= o->slow_every_f;
	if (o->imbalance && r >= 1 && r <= TC_MAX(1u, s->n / 8)) c *= 3.0;
	c *= 1.0 + o->jitter * (2.0 * rnd01(s) - 1.0);
	for (size_t i = 0; i < o->delays.n; i++)
		if (o->delays.a[i].rank == r && o->delays.a[i].iter == s->it) c += o->delays.a[i].sec;
	return c > 0 ? c : 0;
}

static uint64_t transfer(struct sim *s, uint32_t src, uint32_t dst, uint64_t bytes)
{
	const struct opts *o = s->o;
	double extra = 0;   /* background on one link: drawn only for its messages, so other runs keep their draws */
	if (o->link_p > 0 && ((src == o->link_a && dst == o->link_b) || (src == o->link_b && dst == o->link_a)) &&
	    rnd01(s) < o->link_p)
		extra = o->link_sec;
	if (s->node[src] == s->node[dst]) return NS(LAT_INTRA + (double)bytes / BW_INTRA + extra);
	double t = LAT_INTER + (double)bytes / BW_INTER;
	double frac = (double)s->it / (double)o->iters;
	if (o->slow_inter_f > 0 && frac >= o->slow_inter_from) t *= o->slow_inter_f;
	if (o->noise_ampl > 0 && frac >= o->noise_from && frac < o->noise_to) t += rnd01(s) * o->noise_ampl;
	return NS(t + extra);
}

static uint64_t copy_time(uint64_t bytes) { return NS(0.3e-6 + (double)bytes / BW_COPY); }

static void compute(struct sim *s, uint32_t r)
{
	otfw_enter(s->w, r, s->now[r], s->r_compute);
	s->now[r] += NS(compute_sec(s, r));
	otfw_leave(s->w, r, s->now[r], s->r_compute);
	s->now[r] += 80;
}

/* --- exchange patterns (halo2d, halo1d, groups): Irecv/Isend/Waitall ----
 * Direction d is a permutation of the ranks: rank r sends to dest(r, d) with
 * tag d and receives tag d from src(r, d), where dest(src(r, d), d) = r. */
#define MAXDIR 6

static uint32_t ndirs(const struct sim *s)
{
	switch (s->o->pattern) {
	case P_HALO2D: return 4;
	case P_HALO1D: return 2;
	default: return 6;
	}
}

/* Shift r by delta inside the block [start, start + size). */
static uint32_t shift_in(uint32_t r, uint32_t start, uint32_t size, int64_t delta)
{
	int64_t i = ((int64_t)(r - start) + delta) % (int64_t)size;
	if (i < 0) i += size;
	return start + (uint32_t)i;
}

static void group_of(const struct sim *s, uint32_t r, uint32_t *start, uint32_t *size)
{
	uint64_t n = s->n, g = s->o->groups;
	uint32_t gi = (uint32_t)((uint64_t)r * g / n);
	uint32_t a = (uint32_t)((gi * n + g - 1) / g), b = (uint32_t)(((gi + 1) * n + g - 1) / g);
	*start = a;
	*size = b - a;
}

/* Peer of r in direction d; inverse = the source instead of the destination. */
static uint32_t peer(const struct sim *s, uint32_t r, uint32_t d, bool inverse)
{
	int64_t sign = inverse ? -1 : 1;
	switch (s->o->pattern) {
	case P_HALO2D: {
		uint32_t x = r % s->px, y = r / s->px;
		int64_t dir = (d % 2 == 0 ? 1 : -1) * sign;
		if (d < 2) x = shift_in(x, 0, s->px, dir);
		else y = shift_in(y, 0, s->py, dir);
		return y * s->px + x;
	}
	case P_HALO1D:
		return shift_in(r, 0, s->n, (d == 0 ? 1 : -1) * sign);
	default: {
		static const int64_t shifts[4] = { 1, -1, 2, -2 };
		if (d < 4) {
			uint32_t start, size;
			group_of(s, r, &start, &size);
			return shift_in(r, start, size, shifts[d] * sign);
		}
		int64_t stride = (s->n + s->o->groups - 1) / s->o->groups;
		return shift_in(r, 0, s->n, (d == 4 ? stride : -stride) * sign);
	}
	}
}

static uint64_t dir_bytes(const struct sim *s, uint32_t d)
{
	if (s->o->pattern != P_GROUPS) return s->o->bytes;
	return d < 4 ? s->o->bytes * 4 : TC_MAX(s->o->bytes / 64, 8);
}

static bool dir_active(const struct sim *s, uint32_t r, uint32_t d)
{
	if (peer(s, r, d, false) == r) return false;  /* also then peer(r, d, true) == r */
	if (s->o->pattern == P_GROUPS && d >= 4) return s->it % 10 == 0;
	return true;
}

/* Tag of direction d's messages: d, or with --tags unique the iteration
 * number (as many real codes do; then every message between two ranks has a
 * tag of its own). */
static uint32_t exchange_tag(const struct sim *s, uint32_t d)
{
	return s->o->unique_tags ? s->it : d;
}

struct completion { uint64_t t; uint32_t d; bool recv; };

static int cmp_completion(const void *a, const void *b)
{
	const struct completion *x = a, *y = b;
	if (x->t != y->t) return x->t < y->t ? -1 : 1;
	if (x->recv != y->recv) return x->recv ? -1 : 1;
	return x->d < y->d ? -1 : x->d > y->d;
}

static void exchange_iteration(struct sim *s, uint64_t *post, uint64_t *sendt, uint64_t *rreq, uint64_t *sreq)
{
	uint32_t nd = ndirs(s);
	for (uint32_t r = 0; r < s->n; r++) {
		compute(s, r);
		uint64_t t = s->now[r];
		for (uint32_t d = 0; d < nd; d++) {
			if (!dir_active(s, r, d)) continue;
			otfw_enter(s->w, r, t, s->r_irecv);
			rreq[r * MAXDIR + d] = s->req[r]++;
			post[r * MAXDIR + d] = t + 60;
			otfw_irecv_request(s->w, r, t + 60, rreq[r * MAXDIR + d]);
			otfw_leave(s->w, r, t + 250, s->r_irecv);
			t += 300;
		}
		for (uint32_t d = 0; d < nd; d++) {
			if (!dir_active(s, r, d)) continue;
			otfw_enter(s->w, r, t, s->r_isend);
			sreq[r * MAXDIR + d] = s->req[r]++;
			sendt[r * MAXDIR + d] = t + 80;
			otfw_isend(s->w, r, t + 80, peer(s, r, d, false), OTFW_COMM_WORLD, exchange_tag(s, d), dir_bytes(s, d),
				   sreq[r * MAXDIR + d]);
			otfw_leave(s->w, r, t + 400, s->r_isend);
			t += 450;
		}
		s->now[r] = t;
	}
	for (uint32_t r = 0; r < s->n; r++) {
		uint64_t tw = s->now[r];
		struct completion c[2 * MAXDIR];
		uint32_t nc = 0;
		for (uint32_t d = 0; d < nd; d++) {
			if (!dir_active(s, r, d)) continue;
			uint32_t src = peer(s, r, d, true), dst = peer(s, r, d, false);
			uint64_t arrive = sendt[src * MAXDIR + d] + transfer(s, src, r, dir_bytes(s, d));
			arrive = TC_MAX(arrive, post[r * MAXDIR + d]);
			s->messages++;
			c[nc++] = (struct completion){ TC_MAX(tw + 150, arrive), d, true };
			/* the outgoing data has left when it could reach the peer */
			uint64_t gone = sendt[r * MAXDIR + d] + transfer(s, r, dst, dir_bytes(s, d));
			c[nc++] = (struct completion){ TC_MAX(tw + 150, gone), d, false };
		}
		if (nc == 0) continue;
		qsort(c, nc, sizeof(c[0]), cmp_completion);
		otfw_enter(s->w, r, tw, s->r_waitall);
		uint64_t last = tw;
		for (uint32_t i = 0; i < nc; i++) {
			uint32_t d = c[i].d;
			last = TC_MAX(last, c[i].t);
			if (c[i].recv)
				otfw_irecv(s->w, r, last, peer(s, r, d, true), OTFW_COMM_WORLD, exchange_tag(s, d), dir_bytes(s, d),
					   rreq[r * MAXDIR + d]);
			else
				otfw_isend_complete(s->w, r, last, sreq[r * MAXDIR + d]);
			last += 30;
		}
		otfw_leave(s->w, r, last + 200, s->r_waitall);
		s->now[r] = last + 300;
	}
}

/* --- blocking point-to-point helpers ------------------------------------ */
/* MPI_Send from r to dst at r's current time; returns the time the data is sent. */
static uint64_t blocking_send(struct sim *s, uint32_t r, uint32_t dst, uint32_t tag, uint64_t bytes)
{
	uint64_t t = s->now[r];
	otfw_enter(s->w, r, t, s->r_send);
	otfw_send(s->w, r, t + 50, dst, OTFW_COMM_WORLD, tag, bytes);
	otfw_leave(s->w, r, t + 50 + copy_time(bytes), s->r_send);
	s->now[r] = t + 50 + copy_time(bytes) + 60;
	return t + 50;
}

/* MPI_Recv on r of a message from src sent at sent. */
static void blocking_recv(struct sim *s, uint32_t r, uint32_t src, uint32_t tag, uint64_t bytes, uint64_t sent)
{
	uint64_t t = s->now[r];
	otfw_enter(s->w, r, t, s->r_recv);
	uint64_t arrive = sent + transfer(s, src, r, bytes);  /* once: TC_MAX evaluates twice */
	uint64_t done = TC_MAX(t + 100, arrive);
	s->messages++;
	otfw_recv(s->w, r, done, src, OTFW_COMM_WORLD, tag, bytes);
	otfw_leave(s->w, r, done + 80, s->r_recv);
	s->now[r] = done + 150;
}

/* --- master/worker ------------------------------------------------------ */
struct arrival { uint64_t t; uint32_t w; };
static int cmp_arrival(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;
	if (x->t != y->t) return x->t < y->t ? -1 : 1;
	return x->w < y->w ? -1 : x->w > y->w;
}

static void masterworker_iteration(struct sim *s, uint64_t *sent, struct arrival *arr)
{
	uint32_t n = s->n;
	uint64_t task = s->o->bytes, result = TC_MAX(s->o->bytes / 4, 8);
	for (uint32_t w = 1; w < n; w++) sent[w] = blocking_send(s, 0, w, 1, task);
	for (uint32_t w = 1; w < n; w++) {
		blocking_recv(s, w, 0, 1, task, sent[w]);
		compute(s, w);
		arr[w - 1].t = blocking_send(s, w, 0, 2, result);
		arr[w - 1].t += transfer(s, w, 0, result);
		arr[w - 1].w = w;
	}
	/* The master receives with MPI_ANY_SOURCE: results in arrival order. */
	qsort(arr, n - 1, sizeof(arr[0]), cmp_arrival);
	for (uint32_t i = 0; i + 1 < n; i++) {
		uint64_t t = s->now[0];
		otfw_enter(s->w, 0, t, s->r_recv);
		uint64_t done = TC_MAX(t + 100, arr[i].t);
		otfw_recv(s->w, 0, done, arr[i].w, OTFW_COMM_WORLD, 2, result);
		s->messages++;
		otfw_leave(s->w, 0, done + 80, s->r_recv);
		s->now[0] = done + 150;
	}
}

/* --- k-ary tree: gather to rank 0, then scatter ------------------------ */
static void tree_iteration(struct sim *s, uint64_t *sent)
{
	uint32_t n = s->n, k = s->o->fanout;
	uint64_t b = s->o->bytes;
	for (uint32_t r = 0; r < n; r++) compute(s, r);
	/* gather: children have larger ranks, so go from the leaves up */
	for (uint32_t r = n; r-- > 0;) {
		for (uint64_t c = (uint64_t)r * k + 1; c <= (uint64_t)r * k + k && c < n; c++)
			blocking_recv(s, r, (uint32_t)c, 3, b, sent[c]);
		if (r > 0) sent[r] = blocking_send(s, r, (r - 1) / k, 3, b);
	}
	/* scatter: from the root down */
	for (uint32_t r = 0; r < n; r++) {
		if (r > 0) blocking_recv(s, r, (r - 1) / k, 4, b, sent[r]);
		for (uint64_t c = (uint64_t)r * k + 1; c <= (uint64_t)r * k + k && c < n; c++)
			sent[c] = blocking_send(s, r, (uint32_t)c, 4, b);
	}
}

/* --- ring: MPI_Sendrecv to r+1, from r-1 -------------------------------- */
static void ring_iteration(struct sim *s, uint64_t *sent)
{
	uint32_t n = s->n;
	uint64_t b = s->o->bytes;
	for (uint32_t r = 0; r < n; r++) {
		compute(s, r);
		sent[r] = s->now[r] + 60;
	}
	for (uint32_t r = 0; r < n; r++) {
		uint64_t t = s->now[r];
		uint32_t left = (r + n - 1) % n, right = (r + 1) % n;
		otfw_enter(s->w, r, t, s->r_sendrecv);
		otfw_send(s->w, r, sent[r], right, OTFW_COMM_WORLD, 5, b);
		uint64_t arrive = sent[left] + transfer(s, left, r, b);
		uint64_t done = TC_MAX(sent[r] + 100, arrive);
		otfw_recv(s->w, r, done, left, OTFW_COMM_WORLD, 5, b);
		s->messages++;
		uint64_t leave = TC_MAX(done + 80, sent[r] + copy_time(b));
		otfw_leave(s->w, r, leave, s->r_sendrecv);
		s->now[r] = leave + 100;
	}
}

/* --- collectives -------------------------------------------------------- */
static void allreduce(struct sim *s)
{
	uint64_t tmax = 0;
	for (uint32_t r = 0; r < s->n; r++) tmax = TC_MAX(tmax, s->now[r] + 50);
	double steps = ceil(log2((double)TC_MAX(s->n, 2u)));
	bool multi = s->nnodes > 1;
	uint64_t cost = NS(steps * ((multi ? LAT_INTER : LAT_INTRA) + 8.0 / (multi ? BW_INTER : BW_INTRA)) + 1e-6);
	uint64_t end = tmax + cost;
	for (uint32_t r = 0; r < s->n; r++) {
		uint64_t t = s->now[r];
		otfw_enter(s->w, r, t, s->r_allreduce);
		otfw_coll_begin(s->w, r, t + 50);
		uint64_t e = end + (r % 7) * 20;
		otfw_coll_end(s->w, r, e, OTF2_COLLECTIVE_OP_ALLREDUCE, OTFW_COMM_WORLD, OTF2_UNDEFINED_UINT32, 8, 8);
		otfw_leave(s->w, r, e + 100, s->r_allreduce);
		s->now[r] = e + 200;
	}
}

/* MPI_Init / MPI_Finalize synchronise everyone. */
static void sync_call(struct sim *s, uint32_t region, double cost)
{
	uint64_t tmax = 0;
	for (uint32_t r = 0; r < s->n; r++) {
		otfw_enter(s->w, r, s->now[r], region);
		tmax = TC_MAX(tmax, s->now[r]);
	}
	for (uint32_t r = 0; r < s->n; r++) {
		uint64_t t = tmax + NS(cost) + (r % 13) * 40;
		otfw_leave(s->w, r, t, region);
		s->now[r] = t + 500;
	}
}

/* --- options ------------------------------------------------------------ */
static TC_NORETURN void usage(int rc)
{
	fprintf(rc ? stderr : stdout,
		"usage: gen -o DIR [options]    writes DIR/traces.otf2\n"
		"  --ranks N              MPI ranks (256)\n"
		"  --iters N              iterations (2000)\n"
		"  --ranks-per-node K     (16)\n"
		"  --mapping block|roundrobin   rank r on node r/K, or r %% nnodes (block)\n"
		"  --pattern halo2d|halo1d|groups|masterworker|tree|ring   (halo2d)\n"
		"  --groups G             planted groups for --pattern groups (4)\n"
		"  --fanout K             tree fan-out for --pattern tree (2)\n"
		"  --imbalance            ranks 1..N/8 compute 3x longer\n"
		"  --allreduce-every K    MPI_Allreduce every K iterations, 0 = none (10)\n"
		"  --bytes B              message size (32768)\n"
		"  --compute-us U         base compute per iteration in us (100)\n"
		"  --delay RANK:ITER:SEC  one rank computes SEC longer at one iteration (repeatable)\n"
		"  --slow-every K:F       ranks r with r %% K == 0 compute F times longer\n"
		"  --slow-inter FROM:F    inter-node transfers F times slower from fraction FROM of the run\n"
		"  --noise-inter FROM:TO:AMPL  inter-node transfers get uniform extra 0..AMPL seconds\n"
		"  --noise-link A:B:P:SEC  transfers between ranks A and B (either way) take SEC seconds\n"
		"                         more with probability P (background traffic on one link)\n"
		"                         in the fraction window [FROM, TO)\n"
		"  --jitter FRACTION      compute jitter (0.02)\n"
		"  --seed S               random seed (1)\n"
		"  --tags few|unique      exchange tags: the direction (few) or the iteration number; default few\n"
		"  --chunks small|default OTF2 chunk sizes: 256 KiB (small) or libotf2's defaults,\n"
		"                         1 MiB events / 4 MiB definitions, as Score-P writes; default small\n"
		"  --force                replace an existing archive in DIR\n");
	exit(rc);
}

static TC_NORETURN void bad(const char *opt, const char *val)
{
	fprintf(stderr, "gen: bad value for %s: '%s'\n", opt, val ? val : "");
	exit(2);
}

static uint64_t parse_u64(const char *opt, const char *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-') bad(opt, v);
	return x;
}

static uint32_t parse_u32(const char *opt, const char *v)
{
	uint64_t x = parse_u64(opt, v);
	if (x > UINT32_MAX) bad(opt, v);
	return (uint32_t)x;
}

/* Parse "a:b:c" into n doubles. */
static void parse_tuple(const char *opt, const char *v, double *out, int n)
{
	const char *p = v;
	for (int i = 0; i < n; i++) {
		char *end;
		errno = 0;
		out[i] = strtod(p, &end);
		if (errno || end == p || !isfinite(out[i])) bad(opt, v);
		if (i + 1 < n) {
			if (*end != ':') bad(opt, v);
			p = end + 1;
		} else if (*end) {
			bad(opt, v);
		}
	}
}

enum { O_RANKS = 256, O_ITERS, O_RPN, O_MAPPING, O_PATTERN, O_GROUPS, O_FANOUT, O_IMBALANCE,
       O_ALLRED, O_BYTES, O_COMPUTE, O_DELAY, O_SLOW_EVERY, O_SLOW_INTER, O_NOISE, O_LINK, O_JITTER,
       O_SEED, O_FORCE, O_TAGS, O_CHUNKS };

/* The options whose value is a colon-separated tuple of numbers. */
static void parse_tuple_opt(struct opts *o, int c, const char *v)
{
	double t[4];
	switch (c) {
	case O_COMPUTE:
		parse_tuple("--compute-us", v, t, 1);
		if (t[0] < 0) bad("--compute-us", v);
		o->compute_us = t[0];
		break;
	case O_DELAY: {
		parse_tuple("--delay", v, t, 3);
		if (t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] != floor(t[0]) || t[1] != floor(t[1]) ||
		    t[0] > UINT32_MAX || t[1] > UINT32_MAX)
			bad("--delay", v);
		struct delay d = { (uint32_t)t[0], (uint32_t)t[1], t[2] };
		VEC_PUSH(o->delays, d);
		break;
	}
	case O_SLOW_EVERY:
		parse_tuple("--slow-every", v, t, 2);
		if (t[0] < 1 || t[0] != floor(t[0]) || t[0] > UINT32_MAX || t[1] < 0) bad("--slow-every", v);
		o->slow_every = (uint32_t)t[0];
		o->slow_every_f = t[1];
		break;
	case O_SLOW_INTER:
		parse_tuple("--slow-inter", v, t, 2);
		if (t[0] < 0 || t[0] > 1 || t[1] <= 0) bad("--slow-inter", v);
		o->slow_inter_from = t[0];
		o->slow_inter_f = t[1];
		break;
	case O_NOISE:
		parse_tuple("--noise-inter", v, t, 3);
		if (t[0] < 0 || t[1] > 1 || t[0] > t[1] || t[2] < 0) bad("--noise-inter", v);
		o->noise_from = t[0];
		o->noise_to = t[1];
		o->noise_ampl = t[2];
		break;
	case O_LINK:
		parse_tuple("--noise-link", v, t, 4);
		if (t[0] < 0 || t[1] < 0 || t[0] != floor(t[0]) || t[1] != floor(t[1]) || t[0] > UINT32_MAX ||
		    t[1] > UINT32_MAX || t[0] == t[1] || t[2] <= 0 || t[2] > 1 || t[3] < 0)
			bad("--noise-link", v);
		o->link_a = (uint32_t)t[0], o->link_b = (uint32_t)t[1], o->link_p = t[2], o->link_sec = t[3];
		break;
	case O_JITTER:
		parse_tuple("--jitter", v, t, 1);
		if (t[0] < 0 || t[0] >= 1) bad("--jitter", v);
		o->jitter = t[0];
		break;
	}
}

/* What the options must satisfy together. */
static void check_opts(const struct opts *o)
{
	if (!o->out) {
		fprintf(stderr, "gen: -o DIR is required\n");
		usage(2);
	}
	if (o->ranks < 2) bad("--ranks", "need at least 2");
	if (o->iters < 1) bad("--iters", "need at least 1");
	if (o->rpn < 1) bad("--ranks-per-node", "need at least 1");
	if (o->groups < 1 || o->groups > o->ranks) bad("--groups", "1..ranks");
	if (o->fanout < 1) bad("--fanout", "need at least 1");
	for (size_t i = 0; i < o->delays.n; i++)
		if (o->delays.a[i].rank >= o->ranks || o->delays.a[i].iter >= o->iters)
			bad("--delay", "rank or iteration out of range");
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "ranks", required_argument, NULL, O_RANKS },
		{ "iters", required_argument, NULL, O_ITERS },
		{ "ranks-per-node", required_argument, NULL, O_RPN },
		{ "mapping", required_argument, NULL, O_MAPPING },
		{ "pattern", required_argument, NULL, O_PATTERN },
		{ "groups", required_argument, NULL, O_GROUPS },
		{ "fanout", required_argument, NULL, O_FANOUT },
		{ "imbalance", no_argument, NULL, O_IMBALANCE },
		{ "allreduce-every", required_argument, NULL, O_ALLRED },
		{ "bytes", required_argument, NULL, O_BYTES },
		{ "compute-us", required_argument, NULL, O_COMPUTE },
		{ "delay", required_argument, NULL, O_DELAY },
		{ "slow-every", required_argument, NULL, O_SLOW_EVERY },
		{ "slow-inter", required_argument, NULL, O_SLOW_INTER },
		{ "noise-inter", required_argument, NULL, O_NOISE },
		{ "noise-link", required_argument, NULL, O_LINK },
		{ "jitter", required_argument, NULL, O_JITTER },
		{ "seed", required_argument, NULL, O_SEED },
		{ "force", no_argument, NULL, O_FORCE },
		{ "tags", required_argument, NULL, O_TAGS },
		{ "chunks", required_argument, NULL, O_CHUNKS },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; break;
		case 'h': usage(0);
		case O_RANKS: o->ranks = parse_u32("--ranks", optarg); break;
		case O_ITERS: o->iters = parse_u32("--iters", optarg); break;
		case O_RPN: o->rpn = parse_u32("--ranks-per-node", optarg); break;
		case O_MAPPING:
			if (strcmp(optarg, "block") == 0) o->roundrobin = false;
			else if (strcmp(optarg, "roundrobin") == 0) o->roundrobin = true;
			else bad("--mapping", optarg);
			break;
		case O_PATTERN: {
			size_t i;
			for (i = 0; i < TC_NELEM(pattern_names); i++)
				if (strcmp(optarg, pattern_names[i]) == 0) break;
			if (i == TC_NELEM(pattern_names)) bad("--pattern", optarg);
			o->pattern = (enum pattern)i;
			break;
		}
		case O_GROUPS: o->groups = parse_u32("--groups", optarg); break;
		case O_FANOUT: o->fanout = parse_u32("--fanout", optarg); break;
		case O_IMBALANCE: o->imbalance = true; break;
		case O_ALLRED: o->allreduce_every = parse_u32("--allreduce-every", optarg); break;
		case O_BYTES: o->bytes = parse_u64("--bytes", optarg); break;
		case O_COMPUTE: case O_DELAY: case O_SLOW_EVERY: case O_SLOW_INTER: case O_NOISE: case O_LINK:
		case O_JITTER:
			parse_tuple_opt(o, c, optarg);
			break;
		case O_SEED: o->seed = parse_u64("--seed", optarg); break;
		case O_TAGS:
			if (strcmp(optarg, "few") && strcmp(optarg, "unique")) bad("--tags", optarg);
			o->unique_tags = strcmp(optarg, "unique") == 0;
			break;
		case O_CHUNKS:
			if (strcmp(optarg, "small") && strcmp(optarg, "default")) bad("--chunks", optarg);
			o->default_chunks = strcmp(optarg, "default") == 0;
			break;
		case O_FORCE: o->force = true; break;
		default: usage(2);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "gen: unexpected argument '%s'\n", argv[optind]);
		usage(2);
	}
	check_opts(o);
}

/* Remove an archive written by otfw (or Score-P) in dir: traces.otf2,
 * traces.def and traces/ with its *.evt / *.def files. */
static int remove_archive(const char *dir)
{
	char *p = xasprintf("%s/traces", dir);
	DIR *d = opendir(p);
	int rc = 0;
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			if (l > 4 && (strcmp(e->d_name + l - 4, ".evt") == 0 || strcmp(e->d_name + l - 4, ".def") == 0)) {
				char *f = xasprintf("%s/%s", p, e->d_name);
				if (unlink(f) != 0) rc = -1;
				free(f);
			}
		}
		closedir(d);
		if (rmdir(p) != 0) rc = -1;
	}
	free(p);
	static const char *const files[] = { "traces.otf2", "traces.def" };
	for (size_t i = 0; i < TC_NELEM(files); i++) {
		p = xasprintf("%s/%s", dir, files[i]);
		if (unlink(p) != 0 && errno != ENOENT) rc = -1;
		free(p);
	}
	return rc;
}

/* The simulation's ranks, nodes, process grid and archive writer with its
 * regions; every rank entered main and MPI_Init.  False when the archive
 * cannot be opened. */
static bool sim_open(struct sim *s)
{
	const struct opts *o = s->o;
	s->rng = o->seed * 0x2545f4914f6cdd1dull + 0x1234567;
	s->nnodes = (o->ranks + o->rpn - 1) / o->rpn;
	s->node = xcalloc(s->n, sizeof(*s->node));
	for (uint32_t r = 0; r < s->n; r++) s->node[r] = o->roundrobin ? r % s->nnodes : r / o->rpn;
	for (s->px = (uint32_t)sqrt((double)s->n); s->n % s->px; s->px--) {}
	s->py = s->n / s->px;

	s->w = o->default_chunks ? otfw_open_chunks(o->out, s->n, s->node, s->nnodes, RES, OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
						    OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT)
				 : otfw_open(o->out, s->n, s->node, s->nnodes, RES);
	if (!s->w) return false;
	s->r_main = otfw_region(s->w, "main");
	s->r_init = otfw_region(s->w, "MPI_Init");
	s->r_fin = otfw_region(s->w, "MPI_Finalize");
	s->r_compute = otfw_region(s->w, "compute");
	s->r_irecv = otfw_region(s->w, "MPI_Irecv");
	s->r_isend = otfw_region(s->w, "MPI_Isend");
	s->r_waitall = otfw_region(s->w, "MPI_Waitall");
	s->r_allreduce = otfw_region(s->w, "MPI_Allreduce");
	s->r_send = otfw_region(s->w, "MPI_Send");
	s->r_recv = otfw_region(s->w, "MPI_Recv");
	s->r_sendrecv = otfw_region(s->w, "MPI_Sendrecv");

	s->now = xcalloc(s->n, sizeof(*s->now));
	s->req = xcalloc(s->n, sizeof(*s->req));
	for (uint32_t r = 0; r < s->n; r++) {
		s->now[r] = RES + (rnd64(s) % 20000);   /* processes start within 20 us */
		s->req[r] = 1;
		otfw_enter(s->w, r, s->now[r], s->r_main);
		s->now[r] += 1000;
	}
	sync_call(s, s->r_init, 50e-6);
	return true;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.ranks = 256, .iters = 2000, .rpn = 16, .groups = 4, .fanout = 2, .pattern = P_HALO2D,
		.allreduce_every = 10, .bytes = 32768, .compute_us = 100, .jitter = 0.02, .seed = 1,
	};
	parse_args(&o, argc, argv);
	double t_start = tc_now();
	if (o.force && remove_archive(o.out) != 0) {
		fprintf(stderr, "gen: cannot remove the old archive in %s\n", o.out);
		return 1;
	}

	struct sim s = { .o = &o, .n = o.ranks };
	if (!sim_open(&s)) return 1;
	uint64_t *post = xcalloc((size_t)s.n * MAXDIR, sizeof(uint64_t));
	uint64_t *sendt = xcalloc((size_t)s.n * MAXDIR, sizeof(uint64_t));
	uint64_t *rreq = xcalloc((size_t)s.n * MAXDIR, sizeof(uint64_t));
	uint64_t *sreq = xcalloc((size_t)s.n * MAXDIR, sizeof(uint64_t));
	struct arrival *arr = xcalloc(s.n, sizeof(*arr));
	for (s.it = 0; s.it < o.iters; s.it++) {
		switch (o.pattern) {
		case P_HALO2D: case P_HALO1D: case P_GROUPS:
			exchange_iteration(&s, post, sendt, rreq, sreq);
			break;
		case P_MASTERWORKER: masterworker_iteration(&s, sendt, arr); break;
		case P_TREE: tree_iteration(&s, sendt); break;
		case P_RING: ring_iteration(&s, sendt); break;
		}
		if (o.allreduce_every && (s.it + 1) % o.allreduce_every == 0) allreduce(&s);
	}
	sync_call(&s, s.r_fin, 20e-6);
	for (uint32_t r = 0; r < s.n; r++) otfw_leave(s.w, r, s.now[r], s.r_main);

	uint64_t events = otfw_events(s.w);
	uint64_t tmax = 0;
	for (uint32_t r = 0; r < s.n; r++) tmax = TC_MAX(tmax, s.now[r]);
	int rc = otfw_close(s.w);
	if (rc != 0) {
		fprintf(stderr, "gen: writing %s failed\n", o.out);
		return 1;
	}
	printf("gen: %s/traces.otf2 pattern=%s tags=%s chunks=%s ranks=%u nodes=%u mapping=%s iters=%u events=%llu messages=%llu "
	       "simulated=%.6gs wrote_in=%.2fs\n",
	       o.out, pattern_names[o.pattern], o.unique_tags ? "unique" : "few", o.default_chunks ? "default" : "small", s.n, s.nnodes, o.roundrobin ? "roundrobin" : "block", o.iters,
	       (unsigned long long)events, (unsigned long long)s.messages, (double)(tmax - RES) / 1e9,
	       tc_now() - t_start);
	free(post); free(sendt); free(rreq); free(sreq); free(arr);
	free(s.now); free(s.req); free(s.node);
	VEC_FREE(o.delays);
	return 0;
}
