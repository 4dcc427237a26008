/* tctrace.c — an LD_PRELOAD PMPI tracer that writes an OTF2 archive.
 *
 * Every wrapped MPI call records Enter/Leave of its region and the MPI records
 * Score-P writes with extended non-blocking events (MpiSend, MpiIsend,
 * MpiIsendComplete, MpiIrecvRequest, MpiIrecv, MpiRecv, MpiCollectiveBegin/End)
 * into an in-memory buffer per rank.  Nothing touches the file system until
 * MPI_Finalize: there the ranks unify their definitions (user regions and
 * communicators) on rank 0 with PMPI collectives, every rank writes its own
 * event file through OTF2 with the MPI collective callbacks of
 * <otf2/OTF2_MPI_Collectives.h> (PMPI variant), and rank 0 writes the global
 * definitions.  Timestamps are CLOCK_MONOTONIC nanoseconds; ranks on another
 * host than rank 0 get an offset measured by ping-pong at MPI_Init.
 *
 * Environment:
 *   TRACECOMB_TRACE_DIR        archive directory (anchor <dir>/traces.otf2);
 *                              default ./tctrace-<prog>-<YYYYmmdd-HHMMSS>
 *   TRACECOMB_RANKS_PER_NODE   k > 0: emulate nodes, node = rank / k
 *   TRACECOMB_NODE_MAP         block (default) or cyclic: node = rank % nnodes
 *   TRACECOMB_INIT_PAD_MS, TRACECOMB_EMU_*  planted behaviour (see "emulation")
 *   TRACECOMB_QUIET            set: no "wrote ..." line on stderr */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <otf2/otf2.h>
#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

#define TCT_EXPORT __attribute__((visibility("default")))

/* ---------------------------------------------------------------- regions */
#define MPI_REGIONS(X)                                                   \
	X(INIT, "MPI_Init", FUNCTION)                                    \
	X(INIT_THREAD, "MPI_Init_thread", FUNCTION)                      \
	X(FINALIZE, "MPI_Finalize", FUNCTION)                            \
	X(SEND, "MPI_Send", POINT2POINT)                                 \
	X(SSEND, "MPI_Ssend", POINT2POINT)                               \
	X(BSEND, "MPI_Bsend", POINT2POINT)                               \
	X(RSEND, "MPI_Rsend", POINT2POINT)                               \
	X(RECV, "MPI_Recv", POINT2POINT)                                 \
	X(ISEND, "MPI_Isend", POINT2POINT)                               \
	X(ISSEND, "MPI_Issend", POINT2POINT)                             \
	X(IBSEND, "MPI_Ibsend", POINT2POINT)                             \
	X(IRSEND, "MPI_Irsend", POINT2POINT)                             \
	X(IRECV, "MPI_Irecv", POINT2POINT)                               \
	X(SENDRECV, "MPI_Sendrecv", POINT2POINT)                         \
	X(SENDRECV_REPLACE, "MPI_Sendrecv_replace", POINT2POINT)         \
	X(WAIT, "MPI_Wait", POINT2POINT)                                 \
	X(WAITALL, "MPI_Waitall", POINT2POINT)                           \
	X(WAITANY, "MPI_Waitany", POINT2POINT)                           \
	X(WAITSOME, "MPI_Waitsome", POINT2POINT)                         \
	X(TEST, "MPI_Test", POINT2POINT)                                 \
	X(TESTALL, "MPI_Testall", POINT2POINT)                           \
	X(TESTANY, "MPI_Testany", POINT2POINT)                           \
	X(TESTSOME, "MPI_Testsome", POINT2POINT)                         \
	X(BARRIER, "MPI_Barrier", BARRIER)                               \
	X(BCAST, "MPI_Bcast", COLL_ONE2ALL)                              \
	X(REDUCE, "MPI_Reduce", COLL_ALL2ONE)                            \
	X(ALLREDUCE, "MPI_Allreduce", COLL_ALL2ALL)                      \
	X(GATHER, "MPI_Gather", COLL_ALL2ONE)                            \
	X(GATHERV, "MPI_Gatherv", COLL_ALL2ONE)                          \
	X(SCATTER, "MPI_Scatter", COLL_ONE2ALL)                          \
	X(SCATTERV, "MPI_Scatterv", COLL_ONE2ALL)                        \
	X(ALLGATHER, "MPI_Allgather", COLL_ALL2ALL)                      \
	X(ALLGATHERV, "MPI_Allgatherv", COLL_ALL2ALL)                    \
	X(ALLTOALL, "MPI_Alltoall", COLL_ALL2ALL)                        \
	X(ALLTOALLV, "MPI_Alltoallv", COLL_ALL2ALL)                      \
	X(COMM_SPLIT, "MPI_Comm_split", FUNCTION)                        \
	X(COMM_DUP, "MPI_Comm_dup", FUNCTION)                            \
	X(COMM_FREE, "MPI_Comm_free", FUNCTION)

#define X_ENUM(id, name, role) R_##id,
enum { MPI_REGIONS(X_ENUM) R_NMPI };
#define X_NAME(id, name, role) name,
static const char *const region_names[R_NMPI] = { MPI_REGIONS(X_NAME) };
#define X_ROLE(id, name, role) OTF2_REGION_ROLE_##role,
static const OTF2_RegionRole region_roles[R_NMPI] = { MPI_REGIONS(X_ROLE) };

/* ----------------------------------------------------------------- events */
enum { E_ENTER, E_LEAVE, E_SEND, E_ISEND, E_ISEND_DONE, E_IRECV_REQ, E_IRECV, E_RECV,
       E_CBEGIN, E_CEND, E_CANCELLED };
/* a: region / peer / op   b: comm   c: tag / root   x: bytes / sent   y: request / received */
struct ev {
	uint64_t t, x, y;
	uint32_t a, b, c;
	uint8_t k;
};

struct comm {
	MPI_Comm h;
	int live;
	uint64_t key;        /* identical on every member, unique per communicator */
	uint64_t parent_key;
	uint32_t n;
	int32_t *members;    /* world rank of comm-local rank i */
};

struct req {
	uint64_t key;        /* the MPI_Request handle's bytes; 0 = empty */
	uint64_t id;
	uint32_t peer, comm, tag;
	uint64_t bytes;
	uint8_t kind;        /* 1 send, 2 recv, 3 tombstone */
};

static struct {
	int on;              /* between MPI_Init and MPI_Finalize */
	int rank, size;
	MPI_Comm icomm;      /* private duplicate of MPI_COMM_WORLD */
	struct ev *ev;
	size_t nev, cap;
	struct comm *comms;
	uint32_t ncomms, capcomms;
	uint64_t comm_counter;
	char **uregs;        /* user region names, local id R_NMPI + i */
	uint32_t nuregs, capuregs;
	struct req *reqs;
	size_t reqcap, reqused;
	uint64_t next_req;
	int64_t offset;      /* added to raw monotonic ns */
	uint64_t init_enter; /* raw time of the MPI_Init enter */
	uint64_t real0, mono0; /* CLOCK_REALTIME / CLOCK_MONOTONIC at init (rank 0) */
	char host[64];
	char *hosts;         /* size * 64, all host names */
	char prog[64];
	char stamp[32];
} T;
static _Thread_local int tl_main;

static void warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warnx(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tctrace (rank %d): ", T.rank);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void *xalloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		warnx("out of memory (%zu bytes); aborting", n);
		abort();
	}
	return q;
}

static inline uint64_t raw_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int active(void) { return T.on && tl_main; }

static inline struct ev *push(uint8_t k)
{
	if (T.nev == T.cap) {
		T.cap = T.cap ? T.cap * 2 : 1u << 14;
		T.ev = xalloc(T.ev, T.cap * sizeof *T.ev);
	}
	struct ev *e = &T.ev[T.nev++];
	memset(e, 0, sizeof *e);
	e->k = k;
	e->t = raw_now();
	return e;
}
static inline void ev_enter(uint32_t region) { push(E_ENTER)->a = region; }
static inline void ev_leave(uint32_t region) { push(E_LEAVE)->a = region; }
static void ev_msg(uint8_t k, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req)
{
	struct ev *e = push(k);
	e->a = peer; e->b = comm; e->c = tag; e->x = bytes; e->y = req;
}
static void ev_req(uint8_t k, uint64_t req) { push(k)->y = req; }
static void ev_cend(OTF2_CollectiveOp op, uint32_t comm, uint32_t root, uint64_t sent, uint64_t recvd)
{
	struct ev *e = push(E_CEND);
	e->a = op; e->b = comm; e->c = root; e->x = sent; e->y = recvd;
}

static uint64_t tsize(MPI_Datatype dt)
{
	int s = 0;
	if (dt == MPI_DATATYPE_NULL || PMPI_Type_size(dt, &s) != MPI_SUCCESS || s < 0) return 0;
	return (uint64_t)s;
}
static uint64_t status_bytes(const MPI_Status *st)
{
	int n = 0;
	if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0) return 0;
	return (uint64_t)n;
}

/* ------------------------------------------------------------ communicators */
static uint64_t hash_members(const int32_t *m, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (uint32_t i = 0; i < n; i++) {
		h ^= (uint32_t)m[i];
		h *= 1099511628211ull;
	}
	return h | (1ull << 63);  /* never collides with created keys (< 2^63) */
}

static int32_t *world_members(MPI_Comm c, uint32_t *n_out)
{
	int n = 0;
	MPI_Group g, wg;
	PMPI_Comm_size(c, &n);
	PMPI_Comm_group(c, &g);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	int *in = xalloc(NULL, (size_t)n * sizeof *in);
	int32_t *out = xalloc(NULL, (size_t)n * sizeof *out);
	for (int i = 0; i < n; i++) in[i] = i;
	PMPI_Group_translate_ranks(g, n, in, wg, out);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	free(in);
	*n_out = (uint32_t)n;
	return out;
}

static uint32_t comm_add(MPI_Comm h, uint64_t key, uint64_t parent_key)
{
	if (T.ncomms == T.capcomms) {
		T.capcomms = T.capcomms ? T.capcomms * 2 : 16;
		T.comms = xalloc(T.comms, T.capcomms * sizeof *T.comms);
	}
	struct comm *c = &T.comms[T.ncomms];
	c->h = h;
	c->live = 1;
	c->members = world_members(h, &c->n);
	c->key = key ? key : hash_members(c->members, c->n);
	c->parent_key = parent_key;
	return T.ncomms++;
}

/* Local index of a communicator; intra-communicators the tracer did not see
 * created (MPI_Comm_create, Cart_create, MPI_COMM_SELF, ...) are registered on
 * first use, identified by their member list.  TC_NOCOMM for inter-comms. */
#define TC_NOCOMM UINT32_MAX
static uint32_t comm_id(MPI_Comm h)
{
	if (h == MPI_COMM_WORLD) return 0;
	for (uint32_t i = T.ncomms; i-- > 1;)
		if (T.comms[i].live && T.comms[i].h == h) return i;
	int inter = 0;
	if (h == MPI_COMM_NULL || PMPI_Comm_test_inter(h, &inter) != MPI_SUCCESS || inter) return TC_NOCOMM;
	return comm_add(h, 0, 0);
}

/* After a communicator was created collectively: agree on a key (rank 0 of the
 * new comm proposes (worldrank+1)<<32 | counter; key 1 is MPI_COMM_WORLD, keys
 * with the top bit set are member-list hashes) and register it. */
static void comm_created(MPI_Comm parent, MPI_Comm nc)
{
	if (nc == MPI_COMM_NULL) return;
	int inter = 0;
	PMPI_Comm_test_inter(nc, &inter);
	if (inter) return;
	uint64_t key = ((uint64_t)(uint32_t)T.rank + 1) << 32 | ++T.comm_counter;
	PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, nc);
	uint32_t p = comm_id(parent);
	comm_add(nc, key, p == TC_NOCOMM ? 0 : T.comms[p].key);
}

/* ------------------------------------------------------------ emulation */
/* Planted behaviour for test corpora (all off unless the variables are set;
 * see contrib/README.md "Emulation"): nodes on one machine
 * (TRACECOMB_RANKS_PER_NODE, TRACECOMB_NODE_MAP), a sleep inside MPI_Init
 * (TRACECOMB_INIT_PAD_MS), inter-node latency inside sends, Isends or Waits
 * (TRACECOMB_EMU_INTER_US, TRACECOMB_EMU_INTER_IN) and background stalls
 * inside sends (TRACECOMB_EMU_BG_*).  Every sleep happens between the call's
 * Enter and Leave; for sends before the PMPI call, so the data leaves late. */
enum { EMU_SEND = 1, EMU_ISEND = 2, EMU_WAIT = 4 };
static struct {
	long rpn;            /* ranks per emulated node; 0 = nodes are real hosts */
	int cyclic;          /* node = rank % nnodes instead of rank / rpn */
	long nnodes;
	uint64_t inter_ns;   /* latency added to calls with a peer on another node */
	unsigned inter_in;   /* EMU_* mask: where that latency is spent */
	double bg_p;         /* probability of a stall per eligible send */
	uint64_t bg_ns;
	int bg_scope;        /* 1 intra-node, 2 inter-node, 3 both */
	uint64_t win0, win1; /* raw ns; stalls only inside [win0, win1) when win1 */
	long pair_a, pair_b; /* stalls only between these two world ranks (-1 = any) */
	long bg_node;        /* stalls only on transfers touching this node (-1 = any) */
	uint64_t rng;
	int wait_inter;      /* a Wait completed a request with an inter-node peer */
} E = { .pair_a = -1, .pair_b = -1, .bg_node = -1 };

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);
	if (!s || !*s) return def;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || v < 0) {
		warnx("ignoring %s=%s (want a non-negative integer)", name, s);
		return def;
	}
	return v;
}

/* Emulated node of a world rank (real hosts: index of the first rank on the
 * same host). */
static long emu_node(long r)
{
	if (E.rpn > 0) return E.cyclic ? r % E.nnodes : r / E.rpn;
	for (long q = 0; q < r; q++)
		if (!strcmp(T.hosts + (size_t)q * 64, T.hosts + (size_t)r * 64)) return q;
	return r;
}

static uint64_t emu_rand(void)  /* splitmix64 */
{
	uint64_t z = (E.rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void emu_sleep(uint64_t ns)
{
	if (!ns) return;
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) && errno == EINTR) {}
}

/* Called at the end of MPI_Init (before its Leave): reads the variables and
 * spends the Init pad.  The background window counts from after the pad. */
static void emu_setup(void)
{
	E.rpn = env_long("TRACECOMB_RANKS_PER_NODE", 0);
	const char *map = getenv("TRACECOMB_NODE_MAP");
	E.cyclic = map && !strcmp(map, "cyclic");
	if (map && !E.cyclic && strcmp(map, "block")) warnx("ignoring TRACECOMB_NODE_MAP=%s (want block or cyclic)", map);
	E.nnodes = E.rpn > 0 ? (T.size + E.rpn - 1) / E.rpn : 0;
	E.inter_ns = (uint64_t)env_long("TRACECOMB_EMU_INTER_US", 0) * 1000u;
	const char *in = getenv("TRACECOMB_EMU_INTER_IN");
	if (!in) in = "send,isend";
	E.inter_in = (strstr(in, "isend") ? EMU_ISEND : 0) | (strstr(in, "wait") ? EMU_WAIT : 0);
	for (const char *p = in; (p = strstr(p, "send")); p += 4)
		if (p == in || p[-1] == ',') E.inter_in |= EMU_SEND;
	E.bg_p = (double)env_long("TRACECOMB_EMU_BG_PCT", 0) / 100.0;
	E.bg_ns = (uint64_t)env_long("TRACECOMB_EMU_BG_US", 0) * 1000u;
	const char *scope = getenv("TRACECOMB_EMU_BG_SCOPE");
	E.bg_scope = !scope || !strcmp(scope, "both") ? 3 : !strcmp(scope, "intra") ? 1 : !strcmp(scope, "inter") ? 2 : 3;
	E.rng = (uint64_t)env_long("TRACECOMB_EMU_BG_SEED", 1) * 1000003u + (uint64_t)T.rank;
	E.bg_node = env_long("TRACECOMB_EMU_BG_NODE", -1);
	const char *pair = getenv("TRACECOMB_EMU_BG_PAIR");
	if (pair && sscanf(pair, "%ld:%ld", &E.pair_a, &E.pair_b) != 2) {
		warnx("ignoring TRACECOMB_EMU_BG_PAIR=%s (want A:B)", pair);
		E.pair_a = E.pair_b = -1;
	}
	emu_sleep((uint64_t)env_long("TRACECOMB_INIT_PAD_MS", 0) * 1000000u);
	const char *win = getenv("TRACECOMB_EMU_BG_WINDOW_MS");
	long a, b;
	if (win && sscanf(win, "%ld:%ld", &a, &b) == 2 && b > a && a >= 0) {
		uint64_t t = raw_now();
		E.win0 = t + (uint64_t)a * 1000000u;
		E.win1 = t + (uint64_t)b * 1000000u;
	} else if (win) warnx("ignoring TRACECOMB_EMU_BG_WINDOW_MS=%s (want A:B milliseconds, A < B)", win);
}

/* World rank of comm-local rank r of communicator index c (-1 if unknown). */
static long emu_world(uint32_t c, int r)
{
	if (c == TC_NOCOMM || r < 0 || (uint32_t)r >= T.comms[c].n) return -1;
	return T.comms[c].members[r];
}

/* A send (where = EMU_SEND or EMU_ISEND) to comm-local rank dest: sleeps the
 * emulated inter-node latency and, when drawn, a background stall. */
static void emu_send(unsigned where, MPI_Comm comm, int dest)
{
	if (!E.inter_ns && !E.bg_ns) return;
	long peer = emu_world(comm_id(comm), dest);
	if (peer < 0) return;
	long me = T.rank, nm = emu_node(me), np = emu_node(peer);
	int inter = nm != np;
	uint64_t ns = inter && (E.inter_in & where) ? E.inter_ns : 0;
	if (E.bg_ns && (E.bg_scope & (inter ? 2 : 1))) {
		uint64_t t = raw_now();
		int ok = !E.win1 || (t >= E.win0 && t < E.win1);
		if (E.pair_a >= 0) ok = ok && ((me == E.pair_a && peer == E.pair_b) || (me == E.pair_b && peer == E.pair_a));
		if (E.bg_node >= 0) ok = ok && (nm == E.bg_node || np == E.bg_node);
		/* draw for every eligible send, so the sequence depends on the seed only */
		if (ok && (double)(emu_rand() >> 11) * 0x1.0p-53 < E.bg_p) ns += E.bg_ns;
	}
	emu_sleep(ns);
}

/* A completed receive or send request with comm-local peer r of comm c. */
static void emu_completed(uint32_t c, int r)
{
	long peer = emu_world(c, r);
	if (E.inter_ns && (E.inter_in & EMU_WAIT) && peer >= 0 && emu_node(peer) != emu_node(T.rank)) E.wait_inter = 1;
}

/* End of a Wait/Test call: the latency, once, when it completed an inter-node request. */
static void emu_wait_done(void)
{
	if (E.wait_inter) emu_sleep(E.inter_ns);
	E.wait_inter = 0;
}

/* --------------------------------------------------------------- requests */
static uint64_t req_key(MPI_Request r)
{
	uint64_t k = 0;
	memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
	return k;
}
static size_t req_slot(uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (T.reqcap - 1);
}
static void req_grow(void)
{
	struct req *old = T.reqs;
	size_t oldcap = T.reqcap;
	T.reqcap = oldcap ? oldcap * 2 : 1024;
	T.reqs = xalloc(NULL, T.reqcap * sizeof *T.reqs);
	memset(T.reqs, 0, T.reqcap * sizeof *T.reqs);
	T.reqused = 0;
	for (size_t i = 0; i < oldcap; i++) {
		if (old[i].kind != 1 && old[i].kind != 2) continue;
		size_t s = req_slot(old[i].key);
		while (T.reqs[s].kind) s = (s + 1) & (T.reqcap - 1);
		T.reqs[s] = old[i];
		T.reqused++;
	}
	free(old);
}
static struct req *req_find(uint64_t key)
{
	if (!T.reqcap || !key) return NULL;
	for (size_t s = req_slot(key);; s = (s + 1) & (T.reqcap - 1)) {
		if (!T.reqs[s].kind) return NULL;
		if ((T.reqs[s].kind == 1 || T.reqs[s].kind == 2) && T.reqs[s].key == key) return &T.reqs[s];
	}
}
static uint64_t req_add(MPI_Request r, uint8_t kind, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes)
{
	uint64_t key = req_key(r);
	struct req *old = req_find(key);
	if (old) old->kind = 3;  /* handle reused (request freed by the app): forget the old one */
	if ((T.reqused + 1) * 2 > T.reqcap) req_grow();
	size_t s = req_slot(key);
	while (T.reqs[s].kind == 1 || T.reqs[s].kind == 2) s = (s + 1) & (T.reqcap - 1);
	if (!T.reqs[s].kind) T.reqused++;
	struct req *q = &T.reqs[s];
	q->key = key;
	q->id = ++T.next_req;
	q->peer = peer; q->comm = comm; q->tag = tag; q->bytes = bytes;
	q->kind = kind;
	return q->id;
}

/* A request that the app handed to a Wait/Test completed with status st. */
static void req_completed(uint64_t key, const MPI_Status *st)
{
	struct req *q = req_find(key);
	if (!q) return;
	int cancelled = 0;
	if (st) PMPI_Test_cancelled(st, &cancelled);
	if (!cancelled) emu_completed(q->comm, q->kind == 1 ? (int)q->peer : st ? st->MPI_SOURCE : -1);
	if (cancelled) ev_req(E_CANCELLED, q->id);
	else if (q->kind == 1) ev_req(E_ISEND_DONE, q->id);
	else if (st && st->MPI_SOURCE != MPI_PROC_NULL)
		ev_msg(E_IRECV, (uint32_t)st->MPI_SOURCE, q->comm, (uint32_t)st->MPI_TAG, status_bytes(st), q->id);
	q->kind = 3;
}

/* ------------------------------------------------------------- user regions */
static uint32_t ureg_id(const char *name)
{
	for (uint32_t i = 0; i < T.nuregs; i++)
		if (!strcmp(T.uregs[i], name)) return R_NMPI + i;
	if (T.nuregs == T.capuregs) {
		T.capuregs = T.capuregs ? T.capuregs * 2 : 16;
		T.uregs = xalloc(T.uregs, T.capuregs * sizeof *T.uregs);
	}
	size_t l = strlen(name);
	T.uregs[T.nuregs] = memcpy(xalloc(NULL, l + 1), name, l + 1);
	return R_NMPI + T.nuregs++;
}
TCT_EXPORT void tctrace_region_begin(const char *name)
{
	if (active() && name) ev_enter(ureg_id(name));
}
TCT_EXPORT void tctrace_region_end(const char *name)
{
	if (active() && name) ev_leave(ureg_id(name));
}

/* ------------------------------------------------------------------- init */
static void clock_sync(void)
{
	/* Ranks on rank 0's host share its CLOCK_MONOTONIC: offset 0.  Others
	 * measure it with a few ping-pongs and keep the one of least round trip. */
	enum { ROUNDS = 8 };
	for (int r = 1; r < T.size; r++) {
		if (!strcmp(T.hosts + (size_t)r * 64, T.hosts)) continue;
		if (T.rank == 0) {
			for (int i = 0; i < ROUNDS; i++) {
				char c;
				PMPI_Recv(&c, 1, MPI_CHAR, r, 1, T.icomm, MPI_STATUS_IGNORE);
				uint64_t t = raw_now();
				PMPI_Send(&t, 1, MPI_UINT64_T, r, 2, T.icomm);
			}
		} else if (T.rank == r) {
			uint64_t best = UINT64_MAX;
			for (int i = 0; i < ROUNDS; i++) {
				char c = 0;
				uint64_t t0 = raw_now(), tr;
				PMPI_Send(&c, 1, MPI_CHAR, 0, 1, T.icomm);
				PMPI_Recv(&tr, 1, MPI_UINT64_T, 0, 2, T.icomm, MPI_STATUS_IGNORE);
				uint64_t t1 = raw_now();
				if (t1 - t0 < best) {
					best = t1 - t0;
					T.offset = (int64_t)tr - (int64_t)(t0 + (t1 - t0) / 2);
				}
			}
		}
	}
}

static void after_init(void)
{
	tl_main = 1;
	PMPI_Comm_rank(MPI_COMM_WORLD, &T.rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &T.size);
	PMPI_Comm_dup(MPI_COMM_WORLD, &T.icomm);
	comm_add(MPI_COMM_WORLD, 1, 0);  /* key 1 = MPI_COMM_WORLD everywhere */
	gethostname(T.host, sizeof T.host - 1);
	T.hosts = xalloc(NULL, (size_t)T.size * 64);
	PMPI_Allgather(T.host, 64, MPI_CHAR, T.hosts, 64, MPI_CHAR, T.icomm);
	PMPI_Barrier(T.icomm);
	clock_sync();
	if (T.rank == 0) {
		struct timespec rt;
		clock_gettime(CLOCK_REALTIME, &rt);
		T.mono0 = raw_now();
		T.real0 = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
		struct tm tm;
		time_t now = rt.tv_sec;
		localtime_r(&now, &tm);
		strftime(T.stamp, sizeof T.stamp, "%Y%m%d-%H%M%S", &tm);
		snprintf(T.prog, sizeof T.prog, "%s", program_invocation_short_name);
		for (char *p = T.prog; *p; p++)
			if (*p == '/' || *p == ' ') *p = '_';
	}
	T.on = 1;
}

TCT_EXPORT int MPI_Init(int *argc, char ***argv)
{
	uint64_t t = raw_now();
	int rc = PMPI_Init(argc, argv);
	if (rc != MPI_SUCCESS) return rc;
	after_init();
	ev_enter(R_INIT);
	T.ev[T.nev - 1].t = t;
	emu_setup();
	ev_leave(R_INIT);
	return rc;
}

TCT_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	uint64_t t = raw_now();
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc != MPI_SUCCESS) return rc;
	after_init();
	ev_enter(R_INIT_THREAD);
	T.ev[T.nev - 1].t = t;
	emu_setup();
	ev_leave(R_INIT_THREAD);
	return rc;
}

/* --------------------------------------------------------- point-to-point */
static int blocking_send(uint32_t region, const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
			 int (*fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm))
{
	if (!active()) return fn(buf, count, dt, dest, tag, comm);
	ev_enter(region);
	uint32_t c = comm_id(comm);
	if (dest != MPI_PROC_NULL && c != TC_NOCOMM)
		ev_msg(E_SEND, (uint32_t)dest, c, (uint32_t)tag, (uint64_t)count * tsize(dt), 0);
	emu_send(EMU_SEND, comm, dest);
	int rc = fn(buf, count, dt, dest, tag, comm);
	ev_leave(region);
	return rc;
}
TCT_EXPORT int MPI_Send(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c)
{ return blocking_send(R_SEND, b, n, d, dst, tag, c, PMPI_Send); }
TCT_EXPORT int MPI_Ssend(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c)
{ return blocking_send(R_SSEND, b, n, d, dst, tag, c, PMPI_Ssend); }
TCT_EXPORT int MPI_Bsend(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c)
{ return blocking_send(R_BSEND, b, n, d, dst, tag, c, PMPI_Bsend); }
TCT_EXPORT int MPI_Rsend(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c)
{ return blocking_send(R_RSEND, b, n, d, dst, tag, c, PMPI_Rsend); }

TCT_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
	if (!active()) return PMPI_Recv(buf, count, dt, src, tag, comm, st);
	ev_enter(R_RECV);
	MPI_Status local;
	if (st == MPI_STATUS_IGNORE) st = &local;
	int rc = PMPI_Recv(buf, count, dt, src, tag, comm, st);
	uint32_t c = comm_id(comm);
	if (rc == MPI_SUCCESS && st->MPI_SOURCE != MPI_PROC_NULL && c != TC_NOCOMM)
		ev_msg(E_RECV, (uint32_t)st->MPI_SOURCE, c, (uint32_t)st->MPI_TAG, status_bytes(st), 0);
	ev_leave(R_RECV);
	return rc;
}

static int nb_send(uint32_t region, const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
		   MPI_Request *req, int (*fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *))
{
	if (!active()) return fn(buf, count, dt, dest, tag, comm, req);
	ev_enter(region);
	uint64_t t = raw_now();
	emu_send(EMU_ISEND, comm, dest);
	int rc = fn(buf, count, dt, dest, tag, comm, req);
	uint32_t c = comm_id(comm);
	if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL && c != TC_NOCOMM) {
		uint64_t bytes = (uint64_t)count * tsize(dt);
		uint64_t id = req_add(*req, 1, (uint32_t)dest, c, (uint32_t)tag, bytes);
		ev_msg(E_ISEND, (uint32_t)dest, c, (uint32_t)tag, bytes, id);
		T.ev[T.nev - 1].t = t;
	}
	ev_leave(region);
	return rc;
}
TCT_EXPORT int MPI_Isend(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c, MPI_Request *r)
{ return nb_send(R_ISEND, b, n, d, dst, tag, c, r, PMPI_Isend); }
TCT_EXPORT int MPI_Issend(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c, MPI_Request *r)
{ return nb_send(R_ISSEND, b, n, d, dst, tag, c, r, PMPI_Issend); }
TCT_EXPORT int MPI_Ibsend(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c, MPI_Request *r)
{ return nb_send(R_IBSEND, b, n, d, dst, tag, c, r, PMPI_Ibsend); }
TCT_EXPORT int MPI_Irsend(const void *b, int n, MPI_Datatype d, int dst, int tag, MPI_Comm c, MPI_Request *r)
{ return nb_send(R_IRSEND, b, n, d, dst, tag, c, r, PMPI_Irsend); }

TCT_EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
	if (!active()) return PMPI_Irecv(buf, count, dt, src, tag, comm, req);
	ev_enter(R_IRECV);
	int rc = PMPI_Irecv(buf, count, dt, src, tag, comm, req);
	uint32_t c = comm_id(comm);
	if (rc == MPI_SUCCESS && src != MPI_PROC_NULL && c != TC_NOCOMM)
		ev_req(E_IRECV_REQ, req_add(*req, 2, (uint32_t)src, c, (uint32_t)tag, 0));
	ev_leave(R_IRECV);
	return rc;
}

TCT_EXPORT int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf, int rcount,
			    MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
	if (!active()) return PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st);
	ev_enter(R_SENDRECV);
	uint32_t c = comm_id(comm);
	if (dest != MPI_PROC_NULL && c != TC_NOCOMM)
		ev_msg(E_SEND, (uint32_t)dest, c, (uint32_t)stag, (uint64_t)scount * tsize(sdt), 0);
	MPI_Status local;
	if (st == MPI_STATUS_IGNORE) st = &local;
	emu_send(EMU_SEND, comm, dest);
	int rc = PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st);
	if (rc == MPI_SUCCESS && st->MPI_SOURCE != MPI_PROC_NULL && c != TC_NOCOMM)
		ev_msg(E_RECV, (uint32_t)st->MPI_SOURCE, c, (uint32_t)st->MPI_TAG, status_bytes(st), 0);
	ev_leave(R_SENDRECV);
	return rc;
}

TCT_EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag, int src, int rtag,
				    MPI_Comm comm, MPI_Status *st)
{
	if (!active()) return PMPI_Sendrecv_replace(buf, count, dt, dest, stag, src, rtag, comm, st);
	ev_enter(R_SENDRECV_REPLACE);
	uint32_t c = comm_id(comm);
	if (dest != MPI_PROC_NULL && c != TC_NOCOMM)
		ev_msg(E_SEND, (uint32_t)dest, c, (uint32_t)stag, (uint64_t)count * tsize(dt), 0);
	MPI_Status local;
	if (st == MPI_STATUS_IGNORE) st = &local;
	emu_send(EMU_SEND, comm, dest);
	int rc = PMPI_Sendrecv_replace(buf, count, dt, dest, stag, src, rtag, comm, st);
	if (rc == MPI_SUCCESS && st->MPI_SOURCE != MPI_PROC_NULL && c != TC_NOCOMM)
		ev_msg(E_RECV, (uint32_t)st->MPI_SOURCE, c, (uint32_t)st->MPI_TAG, status_bytes(st), 0);
	ev_leave(R_SENDRECV_REPLACE);
	return rc;
}

/* ------------------------------------------------------------- completion */
/* Keys of the requests before the call (PMPI sets completed ones to NULL) and a
 * status array the app may not have supplied. */
struct wait_ctx {
	uint64_t keys_small[32];
	MPI_Status st_small[32];
	uint64_t *keys;
	MPI_Status *st;
};
static void wait_begin(struct wait_ctx *w, int n, const MPI_Request *reqs, MPI_Status *user_st)
{
	size_t un = n > 0 ? (size_t)n : 0;
	w->keys = un <= 32 ? w->keys_small : xalloc(NULL, un * sizeof *w->keys);
	for (size_t i = 0; i < un; i++) w->keys[i] = req_key(reqs[i]);
	if (user_st != MPI_STATUSES_IGNORE) w->st = user_st;
	else w->st = un <= 32 ? w->st_small : xalloc(NULL, un * sizeof *w->st);
}
static void wait_end(struct wait_ctx *w, MPI_Status *user_st)
{
	if (w->keys != w->keys_small) free(w->keys);
	if (w->st != user_st && w->st != w->st_small) free(w->st);
}

TCT_EXPORT int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
	if (!active()) return PMPI_Wait(req, st);
	ev_enter(R_WAIT);
	uint64_t key = req_key(*req);
	MPI_Status local;
	if (st == MPI_STATUS_IGNORE) st = &local;
	int rc = PMPI_Wait(req, st);
	if (rc == MPI_SUCCESS) req_completed(key, st);
	emu_wait_done();
	ev_leave(R_WAIT);
	return rc;
}

TCT_EXPORT int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
	if (!active()) return PMPI_Test(req, flag, st);
	ev_enter(R_TEST);
	uint64_t key = req_key(*req);
	MPI_Status local;
	if (st == MPI_STATUS_IGNORE) st = &local;
	int rc = PMPI_Test(req, flag, st);
	if (rc == MPI_SUCCESS && *flag) req_completed(key, st);
	emu_wait_done();
	ev_leave(R_TEST);
	return rc;
}

TCT_EXPORT int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	if (!active()) return PMPI_Waitall(n, reqs, sts);
	ev_enter(R_WAITALL);
	struct wait_ctx w;
	wait_begin(&w, n, reqs, sts);
	int rc = PMPI_Waitall(n, reqs, w.st);
	if (rc == MPI_SUCCESS)
		for (int i = 0; i < n; i++) req_completed(w.keys[i], &w.st[i]);
	wait_end(&w, sts);
	emu_wait_done();
	ev_leave(R_WAITALL);
	return rc;
}

TCT_EXPORT int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	if (!active()) return PMPI_Testall(n, reqs, flag, sts);
	ev_enter(R_TESTALL);
	struct wait_ctx w;
	wait_begin(&w, n, reqs, sts);
	int rc = PMPI_Testall(n, reqs, flag, w.st);
	if (rc == MPI_SUCCESS && *flag)
		for (int i = 0; i < n; i++) req_completed(w.keys[i], &w.st[i]);
	wait_end(&w, sts);
	emu_wait_done();
	ev_leave(R_TESTALL);
	return rc;
}

static int any_common(uint32_t region, int n, MPI_Request reqs[], int *idx, int *flag, MPI_Status *st)
{
	ev_enter(region);
	struct wait_ctx w;
	wait_begin(&w, n, reqs, MPI_STATUSES_IGNORE);
	MPI_Status local;
	if (st == MPI_STATUS_IGNORE) st = &local;
	int rc = flag ? PMPI_Testany(n, reqs, idx, flag, st) : PMPI_Waitany(n, reqs, idx, st);
	if (rc == MPI_SUCCESS && (!flag || *flag) && *idx != MPI_UNDEFINED && *idx >= 0 && *idx < n)
		req_completed(w.keys[*idx], st);
	wait_end(&w, MPI_STATUSES_IGNORE);
	emu_wait_done();
	ev_leave(region);
	return rc;
}
TCT_EXPORT int MPI_Waitany(int n, MPI_Request reqs[], int *idx, MPI_Status *st)
{
	if (!active()) return PMPI_Waitany(n, reqs, idx, st);
	return any_common(R_WAITANY, n, reqs, idx, NULL, st);
}
TCT_EXPORT int MPI_Testany(int n, MPI_Request reqs[], int *idx, int *flag, MPI_Status *st)
{
	if (!active()) return PMPI_Testany(n, reqs, idx, flag, st);
	return any_common(R_TESTANY, n, reqs, idx, flag, st);
}

static int some_common(uint32_t region, int n, MPI_Request reqs[], int *outcount, int idx[], MPI_Status sts[], int test)
{
	ev_enter(region);
	struct wait_ctx w;
	wait_begin(&w, n, reqs, sts);
	int rc = test ? PMPI_Testsome(n, reqs, outcount, idx, w.st) : PMPI_Waitsome(n, reqs, outcount, idx, w.st);
	if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
		for (int i = 0; i < *outcount; i++)
			if (idx[i] >= 0 && idx[i] < n) req_completed(w.keys[idx[i]], &w.st[i]);
	wait_end(&w, sts);
	emu_wait_done();
	ev_leave(region);
	return rc;
}
TCT_EXPORT int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int idx[], MPI_Status sts[])
{
	if (!active()) return PMPI_Waitsome(n, reqs, outcount, idx, sts);
	return some_common(R_WAITSOME, n, reqs, outcount, idx, sts, 0);
}
TCT_EXPORT int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int idx[], MPI_Status sts[])
{
	if (!active()) return PMPI_Testsome(n, reqs, outcount, idx, sts);
	return some_common(R_TESTSOME, n, reqs, outcount, idx, sts, 1);
}

/* A freed request can no longer be completed by a Wait/Test: forget it, so a
 * later request reusing the handle is not mistaken for it. */
TCT_EXPORT int MPI_Request_free(MPI_Request *req)
{
	if (active()) {
		struct req *q = req_find(req_key(*req));
		if (q) q->kind = 3;
	}
	return PMPI_Request_free(req);
}

/* ------------------------------------------------------------ collectives */
/* sizeSent / sizeReceived are the bytes this rank hands to / obtains from the
 * operation: its send buffer (per destination summed) and its receive buffer. */
static int csize(MPI_Comm comm)
{
	int n = 1;
	PMPI_Comm_size(comm, &n);
	return n;
}
static int crank(MPI_Comm comm)
{
	int r = 0;
	PMPI_Comm_rank(comm, &r);
	return r;
}
static uint64_t sum_counts(const int *c, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++) s += c[i] > 0 ? (uint64_t)c[i] : 0;
	return s;
}

/* Collectives on inter-communicators pass through untraced. */
#define COLL_BEGIN(region)                                  \
	if (!active() || comm_id(comm) == TC_NOCOMM) goto untraced; \
	ev_enter(region);                                   \
	push(E_CBEGIN)
#define COLL_END(region, op, comm, root, sent, recvd)       \
	do {                                                \
		uint32_t c_ = comm_id(comm);                \
		if (c_ != TC_NOCOMM) ev_cend(op, c_, root, sent, recvd); \
		ev_leave(region);                           \
	} while (0)

TCT_EXPORT int MPI_Barrier(MPI_Comm comm)
{
	COLL_BEGIN(R_BARRIER);
	int rc = PMPI_Barrier(comm);
	COLL_END(R_BARRIER, OTF2_COLLECTIVE_OP_BARRIER, comm, OTF2_COLLECTIVE_ROOT_NONE, 0, 0);
	return rc;
untraced:
	return PMPI_Barrier(comm);
}

TCT_EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
	COLL_BEGIN(R_BCAST);
	int rc = PMPI_Bcast(buf, count, dt, root, comm);
	uint64_t b = (uint64_t)count * tsize(dt);
	int me = crank(comm) == root;
	COLL_END(R_BCAST, OTF2_COLLECTIVE_OP_BCAST, comm, (uint32_t)root, me ? b * (uint64_t)csize(comm) : 0, b);
	return rc;
untraced:
	return PMPI_Bcast(buf, count, dt, root, comm);
}

TCT_EXPORT int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
	COLL_BEGIN(R_REDUCE);
	int rc = PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
	uint64_t b = (uint64_t)count * tsize(dt);
	int me = crank(comm) == root;
	COLL_END(R_REDUCE, OTF2_COLLECTIVE_OP_REDUCE, comm, (uint32_t)root, b, me ? b * (uint64_t)csize(comm) : 0);
	return rc;
untraced:
	return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
}

TCT_EXPORT int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
	COLL_BEGIN(R_ALLREDUCE);
	int rc = PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
	uint64_t b = (uint64_t)count * tsize(dt);
	COLL_END(R_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, comm, OTF2_COLLECTIVE_ROOT_NONE, b, b);
	return rc;
untraced:
	return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
}

TCT_EXPORT int MPI_Gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
			  int root, MPI_Comm comm)
{
	COLL_BEGIN(R_GATHER);
	int rc = PMPI_Gather(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
	int me = crank(comm) == root;
	uint64_t rb = (uint64_t)rcount * tsize(rdt);
	uint64_t sent = sbuf == MPI_IN_PLACE ? rb : (uint64_t)scount * tsize(sdt);
	COLL_END(R_GATHER, OTF2_COLLECTIVE_OP_GATHER, comm, (uint32_t)root, sent, me ? rb * (uint64_t)csize(comm) : 0);
	return rc;
untraced:
	return PMPI_Gather(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
}

TCT_EXPORT int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
			   const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm)
{
	COLL_BEGIN(R_GATHERV);
	int rc = PMPI_Gatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm);
	int r = crank(comm), me = r == root;
	uint64_t recvd = me ? sum_counts(rcounts, csize(comm)) * tsize(rdt) : 0;
	uint64_t sent = sbuf == MPI_IN_PLACE ? (uint64_t)(rcounts[r] > 0 ? rcounts[r] : 0) * tsize(rdt)
					     : (uint64_t)scount * tsize(sdt);
	COLL_END(R_GATHERV, OTF2_COLLECTIVE_OP_GATHERV, comm, (uint32_t)root, sent, recvd);
	return rc;
untraced:
	return PMPI_Gatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm);
}

TCT_EXPORT int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
			   int root, MPI_Comm comm)
{
	COLL_BEGIN(R_SCATTER);
	int rc = PMPI_Scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
	int me = crank(comm) == root;
	uint64_t sb = (uint64_t)scount * tsize(sdt);
	uint64_t recvd = rbuf == MPI_IN_PLACE ? sb : (uint64_t)rcount * tsize(rdt);
	COLL_END(R_SCATTER, OTF2_COLLECTIVE_OP_SCATTER, comm, (uint32_t)root, me ? sb * (uint64_t)csize(comm) : 0, recvd);
	return rc;
untraced:
	return PMPI_Scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
}

TCT_EXPORT int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
			    int rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
{
	COLL_BEGIN(R_SCATTERV);
	int rc = PMPI_Scatterv(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm);
	int r = crank(comm), me = r == root;
	uint64_t sent = me ? sum_counts(scounts, csize(comm)) * tsize(sdt) : 0;
	uint64_t recvd = rbuf == MPI_IN_PLACE ? (uint64_t)(scounts[r] > 0 ? scounts[r] : 0) * tsize(sdt)
					      : (uint64_t)rcount * tsize(rdt);
	COLL_END(R_SCATTERV, OTF2_COLLECTIVE_OP_SCATTERV, comm, (uint32_t)root, sent, recvd);
	return rc;
untraced:
	return PMPI_Scatterv(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm);
}

TCT_EXPORT int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
			     MPI_Comm comm)
{
	COLL_BEGIN(R_ALLGATHER);
	int rc = PMPI_Allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
	uint64_t rb = (uint64_t)rcount * tsize(rdt);
	uint64_t sent = sbuf == MPI_IN_PLACE ? rb : (uint64_t)scount * tsize(sdt);
	COLL_END(R_ALLGATHER, OTF2_COLLECTIVE_OP_ALLGATHER, comm, OTF2_COLLECTIVE_ROOT_NONE, sent,
		 rb * (uint64_t)csize(comm));
	return rc;
untraced:
	return PMPI_Allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
}

TCT_EXPORT int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
			      const int displs[], MPI_Datatype rdt, MPI_Comm comm)
{
	COLL_BEGIN(R_ALLGATHERV);
	int rc = PMPI_Allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm);
	int r = crank(comm);
	uint64_t sent = sbuf == MPI_IN_PLACE ? (uint64_t)(rcounts[r] > 0 ? rcounts[r] : 0) * tsize(rdt)
					     : (uint64_t)scount * tsize(sdt);
	COLL_END(R_ALLGATHERV, OTF2_COLLECTIVE_OP_ALLGATHERV, comm, OTF2_COLLECTIVE_ROOT_NONE, sent,
		 sum_counts(rcounts, csize(comm)) * tsize(rdt));
	return rc;
untraced:
	return PMPI_Allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm);
}

TCT_EXPORT int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
			    MPI_Comm comm)
{
	COLL_BEGIN(R_ALLTOALL);
	int rc = PMPI_Alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
	uint64_t n = (uint64_t)csize(comm);
	uint64_t rb = (uint64_t)rcount * tsize(rdt) * n;
	uint64_t sent = sbuf == MPI_IN_PLACE ? rb : (uint64_t)scount * tsize(sdt) * n;
	COLL_END(R_ALLTOALL, OTF2_COLLECTIVE_OP_ALLTOALL, comm, OTF2_COLLECTIVE_ROOT_NONE, sent, rb);
	return rc;
untraced:
	return PMPI_Alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
}

TCT_EXPORT int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf,
			     const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm)
{
	COLL_BEGIN(R_ALLTOALLV);
	int rc = PMPI_Alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm);
	int n = csize(comm);
	uint64_t rb = sum_counts(rcounts, n) * tsize(rdt);
	uint64_t sent = sbuf == MPI_IN_PLACE ? rb : sum_counts(scounts, n) * tsize(sdt);
	COLL_END(R_ALLTOALLV, OTF2_COLLECTIVE_OP_ALLTOALLV, comm, OTF2_COLLECTIVE_ROOT_NONE, sent, rb);
	return rc;
untraced:
	return PMPI_Alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm);
}

/* ----------------------------------------------------------- communicators */
TCT_EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	if (!active()) return PMPI_Comm_split(comm, color, key, newcomm);
	ev_enter(R_COMM_SPLIT);
	int rc = PMPI_Comm_split(comm, color, key, newcomm);
	if (rc == MPI_SUCCESS) comm_created(comm, *newcomm);
	ev_leave(R_COMM_SPLIT);
	return rc;
}

TCT_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	if (!active()) return PMPI_Comm_dup(comm, newcomm);
	ev_enter(R_COMM_DUP);
	int rc = PMPI_Comm_dup(comm, newcomm);
	if (rc == MPI_SUCCESS) comm_created(comm, *newcomm);
	ev_leave(R_COMM_DUP);
	return rc;
}

TCT_EXPORT int MPI_Comm_free(MPI_Comm *comm)
{
	if (!active()) return PMPI_Comm_free(comm);
	ev_enter(R_COMM_FREE);
	MPI_Comm h = *comm;
	int rc = PMPI_Comm_free(comm);
	if (rc == MPI_SUCCESS)
		for (uint32_t i = 1; i < T.ncomms; i++)
			if (T.comms[i].live && T.comms[i].h == h) T.comms[i].live = 0;
	ev_leave(R_COMM_FREE);
	return rc;
}

/* ---------------------------------------------------------------- writing */
struct buf { char *p; size_t n, cap; };
static void b_put(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		while (b->n + n > b->cap) b->cap = b->cap ? b->cap * 2 : 4096;
		b->p = xalloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}
static void b_u64(struct buf *b, uint64_t v) { b_put(b, &v, sizeof v); }
static uint64_t r_u64(const char **p)
{
	uint64_t v;
	memcpy(&v, *p, sizeof v);
	*p += sizeof v;
	return v;
}

static OTF2_TimeStamp flush_time;
static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void *cd, bool final)
{
	return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc) { return flush_time; }
static OTF2_FlushCallbacks flush_cbs = { .otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush };

/* Gathered at rank 0: per rank its user region names and communicators. */
struct gcomm { uint64_t key, parent_key; uint32_t n; const int32_t *members; };

static int mkdir_p(const char *path)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/') continue;
		*p = 0;
		if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
	return 0;
}

static void choose_dir(char *out, size_t n)
{
	const char *env = getenv("TRACECOMB_TRACE_DIR");
	char base[3500];
	if (env && *env) snprintf(base, sizeof base, "%s", env);
	else snprintf(base, sizeof base, "tctrace-%s-%s", T.prog, T.stamp);
	snprintf(out, n, "%s", base);
	for (int i = 2;; i++) {
		struct stat sb;
		char anchor[4200], sub[4200];
		snprintf(anchor, sizeof anchor, "%s/traces.otf2", out);
		snprintf(sub, sizeof sub, "%s/traces", out);
		if (stat(anchor, &sb) != 0 && stat(sub, &sb) != 0) return;
		snprintf(out, n, "%s-%d", base, i);
	}
}

static uint32_t def_string(OTF2_GlobalDefWriter *g, uint32_t *next, const char *text)
{
	OTF2_GlobalDefWriter_WriteString(g, *next, text);
	return (*next)++;
}

/* The local definitions gathered on rank 0 and unified there: global region
 * ids (MPI's fixed, then user names) and communicator ids (by key), and each
 * rank's local→global map (maps, cut by mlens/mdispls). */
struct unified {
	char *all;                /* every rank's serialized definitions (rank 0) */
	int *lens, *displs;
	char **gregs;             /* user region names, pointing into all */
	uint32_t ngregs;
	struct gcomm *gc;
	uint32_t ngc;
	int *mlens, *mdispls;
	uint32_t *maps;
};

/* 1. this rank's user regions and communicators, serialized and gathered on
 * rank 0 (into u->all). */
static void gather_local_defs(struct unified *u)
{
	struct buf lb = { 0 };
	b_u64(&lb, T.nuregs);
	b_u64(&lb, T.ncomms);
	for (uint32_t i = 0; i < T.nuregs; i++) b_put(&lb, T.uregs[i], strlen(T.uregs[i]) + 1);
	while (lb.n % 8) b_put(&lb, "", 1);
	for (uint32_t i = 0; i < T.ncomms; i++) {
		b_u64(&lb, T.comms[i].key);
		b_u64(&lb, T.comms[i].parent_key);
		b_u64(&lb, T.comms[i].n);
		b_put(&lb, T.comms[i].members, T.comms[i].n * sizeof(int32_t));
		while (lb.n % 8) b_put(&lb, "", 1);
	}
	int mylen = (int)lb.n;
	if (T.rank == 0) {
		u->lens = xalloc(NULL, (size_t)T.size * sizeof *u->lens);
		u->displs = xalloc(NULL, (size_t)T.size * sizeof *u->displs);
	}
	PMPI_Gather(&mylen, 1, MPI_INT, u->lens, 1, MPI_INT, 0, T.icomm);
	if (T.rank == 0) {
		size_t tot = 0;
		for (int r = 0; r < T.size; r++) {
			u->displs[r] = (int)tot;
			tot += (size_t)u->lens[r];
		}
		u->all = xalloc(NULL, tot);
	}
	PMPI_Gatherv(lb.p, mylen, MPI_BYTE, u->all, u->lens, u->displs, MPI_BYTE, 0, T.icomm);
	free(lb.p);
}

/* The global id of user region name p (added when new). */
static uint32_t unify_region(struct unified *u, const char *p)
{
	uint32_t g;
	for (g = 0; g < u->ngregs; g++)
		if (!strcmp(u->gregs[g], p)) break;
	if (g == u->ngregs) {
		u->gregs = xalloc(u->gregs, (u->ngregs + 1) * sizeof *u->gregs);
		u->gregs[u->ngregs++] = (char *)p;
	}
	return R_NMPI + g;
}

/* The global id of the communicator of key (added when new). */
static uint32_t unify_comm(struct unified *u, uint64_t key, uint64_t pkey, uint64_t n, const int32_t *mem)
{
	uint32_t g;
	for (g = 0; g < u->ngc; g++)
		if (u->gc[g].key == key) break;
	if (g == u->ngc) {
		u->gc = xalloc(u->gc, (u->ngc + 1) * sizeof *u->gc);
		u->gc[u->ngc++] = (struct gcomm){ key, pkey, (uint32_t)n, mem };
	}
	return g;
}

/* 2. rank 0 unifies the gathered definitions and builds each rank's map. */
static void unify_defs(struct unified *u)
{
	u->mlens = xalloc(NULL, (size_t)T.size * sizeof *u->mlens);
	u->mdispls = xalloc(NULL, (size_t)T.size * sizeof *u->mdispls);
	struct buf mb = { 0 };
	for (int r = 0; r < T.size; r++) {
		const char *base = u->all + u->displs[r], *p = base;
		uint64_t nu = r_u64(&p), nc = r_u64(&p);
		size_t start = mb.n;
		u->mdispls[r] = (int)(start / 4);
		for (uint64_t i = 0; i < nu; i++) {
			uint32_t id = unify_region(u, p);
			b_put(&mb, &id, 4);
			p += strlen(p) + 1;
		}
		while ((size_t)(p - base) % 8) p++;
		for (uint64_t i = 0; i < nc; i++) {
			uint64_t key = r_u64(&p), pkey = r_u64(&p), n = r_u64(&p);
			const int32_t *mem = (const int32_t *)p;
			p += n * 4;
			while ((size_t)(p - base) % 8) p++;
			uint32_t g = unify_comm(u, key, pkey, n, mem);
			b_put(&mb, &g, 4);
		}
		u->mlens[r] = (int)((mb.n - start) / 4);
	}
	u->maps = (uint32_t *)mb.p;
}

/* 3. the archive's directory, chosen by rank 0 and told to all; false when
 * it cannot be made (then no rank writes). */
static bool archive_path(char *path, size_t n)
{
	if (T.rank == 0) {
		choose_dir(path, n);
		const char *env = getenv("TRACECOMB_TRACE_DIR");
		if (env && *env && strcmp(path, env))
			warnx("%s already holds a trace; writing to %s instead", env, path);
		if (mkdir_p(path)) {
			warnx("cannot create trace directory %s: %s; no trace written", path, strerror(errno));
			path[0] = 0;
		}
	}
	PMPI_Bcast(path, (int)n, MPI_CHAR, 0, T.icomm);
	return path[0] != 0;
}

/* One recorded event through w, its region and communicator mapped to their
 * global ids. */
static OTF2_ErrorCode write_event(OTF2_EvtWriter *w, const struct ev *e, const uint32_t *mymap)
{
	uint32_t comm = e->b < T.ncomms ? mymap[T.nuregs + e->b] : OTF2_UNDEFINED_COMM;
	uint32_t region = e->a < R_NMPI ? e->a : (e->a - R_NMPI < T.nuregs ? mymap[e->a - R_NMPI] : 0);
	switch (e->k) {
	case E_ENTER: return OTF2_EvtWriter_Enter(w, NULL, e->t, region);
	case E_LEAVE: return OTF2_EvtWriter_Leave(w, NULL, e->t, region);
	case E_SEND: return OTF2_EvtWriter_MpiSend(w, NULL, e->t, e->a, comm, e->c, e->x);
	case E_ISEND: return OTF2_EvtWriter_MpiIsend(w, NULL, e->t, e->a, comm, e->c, e->x, e->y);
	case E_ISEND_DONE: return OTF2_EvtWriter_MpiIsendComplete(w, NULL, e->t, e->y);
	case E_IRECV_REQ: return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, e->t, e->y);
	case E_IRECV: return OTF2_EvtWriter_MpiIrecv(w, NULL, e->t, e->a, comm, e->c, e->x, e->y);
	case E_RECV: return OTF2_EvtWriter_MpiRecv(w, NULL, e->t, e->a, comm, e->c, e->x);
	case E_CBEGIN: return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, e->t);
	case E_CEND:
		return OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, e->t, (OTF2_CollectiveOp)e->a, comm, e->c, e->x, e->y);
	case E_CANCELLED: return OTF2_EvtWriter_MpiRequestCancelled(w, NULL, e->t, e->y);
	}
	return OTF2_SUCCESS;
}

/* 4. this rank's events (and its empty local definitions); returns how many
 * were written. */
static uint64_t write_events(OTF2_Archive *ar, const uint32_t *mymap)
{
	OTF2_Archive_OpenEvtFiles(ar);
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)T.rank);
	OTF2_ErrorCode err = OTF2_SUCCESS;
	for (size_t i = 0; i < T.nev && err == OTF2_SUCCESS; i++) err = write_event(w, &T.ev[i], mymap);
	if (err != OTF2_SUCCESS) warnx("writing events failed: %s", OTF2_Error_GetDescription(err));
	uint64_t nevents = 0;
	OTF2_EvtWriter_GetNumberOfEvents(w, &nevents);
	OTF2_Archive_CloseEvtWriter(ar, w);
	OTF2_Archive_CloseEvtFiles(ar);
	OTF2_Archive_OpenDefFiles(ar);
	OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)T.rank);
	OTF2_Archive_CloseDefWriter(ar, dw);
	OTF2_Archive_CloseDefFiles(ar);
	return nevents;
}

#define STR(text) def_string(g, s, (text))

/* The system tree: the machine, then one node per emulated node (in index
 * order) or per real host (in order of its first rank); node_of[r] = the
 * node of rank r. */
static void write_system_tree(OTF2_GlobalDefWriter *g, uint32_t *s, uint32_t *node_of)
{
	struct utsname un;
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, STR(uname(&un) == 0 ? un.sysname : "machine"), STR("machine"),
						 OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(g, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE);
	uint32_t s_node = STR("node");
	uint32_t nnodes = 0;
	char nname[160];
	for (long i = 0; E.rpn > 0 && i < E.nnodes; i++) {
		snprintf(nname, sizeof nname, "%s-n%ld", T.host, i);
		OTF2_GlobalDefWriter_WriteSystemTreeNode(g, ++nnodes, STR(nname), s_node, 0);
		OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(g, nnodes, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
	}
	for (int r = 0; r < T.size; r++) {
		long q = emu_node(r);
		if (E.rpn > 0) { node_of[r] = (uint32_t)q + 1; continue; }
		if (q < r) { node_of[r] = node_of[q]; continue; }
		snprintf(nname, sizeof nname, "%s", T.hosts + (size_t)r * 64);
		node_of[r] = ++nnodes;
		OTF2_GlobalDefWriter_WriteSystemTreeNode(g, nnodes, STR(nname), s_node, 0);
		OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(g, nnodes, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
	}
}

/* The groups (COMM_LOCATIONS, one per communicator) and the communicators. */
static void write_comms(OTF2_GlobalDefWriter *g, uint32_t *s, const struct unified *u, uint32_t s_empty)
{
	uint64_t *mem = xalloc(NULL, (size_t)T.size * sizeof *mem);
	for (int r = 0; r < T.size; r++) mem[r] = (uint64_t)r;
	OTF2_GlobalDefWriter_WriteGroup(g, 0, STR("MPI_COMM_WORLD locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
					OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)T.size, mem);
	const struct gcomm *gc = u->gc;
	for (uint32_t i = 0; i < u->ngc; i++) {
		for (uint32_t j = 0; j < gc[i].n; j++) mem[j] = (uint64_t)gc[i].members[j];
		OTF2_GlobalDefWriter_WriteGroup(g, i + 1, s_empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
						OTF2_GROUP_FLAG_NONE, gc[i].n, mem);
	}
	for (uint32_t i = 0; i < u->ngc; i++) {
		char name[64];
		if (gc[i].key == 1) snprintf(name, sizeof name, "MPI_COMM_WORLD");
		else if (gc[i].n == 1 && gc[i].key >> 63) snprintf(name, sizeof name, "MPI_COMM_SELF (rank %d)", (int)gc[i].members[0]);
		else snprintf(name, sizeof name, "MPI Communicator %u", i);
		uint32_t parent = OTF2_UNDEFINED_COMM;
		for (uint32_t j = 0; j < u->ngc && gc[i].parent_key; j++)
			if (gc[j].key == gc[i].parent_key) parent = j;
		OTF2_GlobalDefWriter_WriteComm(g, i, STR(name), i + 1, parent, OTF2_COMM_FLAG_NONE);
	}
	free(mem);
}

/* 5. the global definitions, by rank 0: clock, regions, system tree,
 * locations (counts[r]: rank r's events), groups and communicators. */
static void write_global_defs(OTF2_Archive *ar, const struct unified *u, const uint64_t *counts, uint64_t gfirst,
			      uint64_t glast)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
	uint32_t next = 0, *s = &next;
	uint64_t real = T.real0 - (T.mono0 - gfirst);
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000u, gfirst, glast - gfirst + 1, real);
	uint32_t s_empty = STR(""), s_mpi = STR("MPI");
	OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, s_mpi, OTF2_PARADIGM_CLASS_PROCESS);
	for (uint32_t i = 0; i < R_NMPI; i++) {
		uint32_t nm = STR(region_names[i]);
		OTF2_GlobalDefWriter_WriteRegion(g, i, nm, nm, s_empty, region_roles[i], OTF2_PARADIGM_MPI,
						 OTF2_REGION_FLAG_NONE, s_mpi, 0, 0);
	}
	for (uint32_t i = 0; i < u->ngregs; i++) {
		uint32_t nm = STR(u->gregs[i]);
		OTF2_GlobalDefWriter_WriteRegion(g, R_NMPI + i, nm, nm, s_empty, OTF2_REGION_ROLE_FUNCTION,
						 OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, s_empty, 0, 0);
	}
	uint32_t *node_of = xalloc(NULL, (size_t)T.size * sizeof *node_of);
	write_system_tree(g, s, node_of);
	uint32_t s_thread = STR("Master thread");
	for (int r = 0; r < T.size; r++) {
		char name[64];
		snprintf(name, sizeof name, "MPI Rank %d", r);
		OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)r, STR(name),
							OTF2_LOCATION_GROUP_TYPE_PROCESS, node_of[r],
							OTF2_UNDEFINED_LOCATION_GROUP);
	}
	for (int r = 0; r < T.size; r++)
		OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)r, s_thread, OTF2_LOCATION_TYPE_CPU_THREAD,
						   counts[r], (OTF2_LocationGroupRef)r);
	write_comms(g, s, u, s_empty);
	OTF2_Archive_CloseGlobalDefWriter(ar, g);
	free(node_of);
}
#undef STR

static void unified_free(struct unified *u)
{
	free(u->maps);
	free(u->mlens);
	free(u->mdispls);
	free(u->gregs);
	free(u->gc);
	free(u->all);
	free(u->lens);
	free(u->displs);
}

/* This rank's times on the common clock; *first and *last: its earliest and
 * latest. */
static void shift_times(uint64_t *first, uint64_t *last)
{
	*first = UINT64_MAX;
	*last = 0;
	for (size_t i = 0; i < T.nev; i++) {
		uint64_t t = (uint64_t)((int64_t)T.ev[i].t + T.offset);
		T.ev[i].t = t;
		if (t < *first) *first = t;
		if (t > *last) *last = t;
	}
}

static void write_archive(void)
{
	struct unified u = { 0 };
	gather_local_defs(&u);
	if (T.rank == 0) unify_defs(&u);
	uint32_t nmap = T.nuregs + T.ncomms;
	uint32_t *mymap = xalloc(NULL, (nmap ? nmap : 1) * sizeof *mymap);
	PMPI_Scatterv(u.maps, u.mlens, u.mdispls, MPI_UINT32_T, mymap, (int)nmap, MPI_UINT32_T, 0, T.icomm);
	char path[4096];
	uint64_t first, last;
	OTF2_Archive *ar = NULL;
	if (archive_path(path, sizeof path)) {
		shift_times(&first, &last);
		flush_time = last;
		ar = OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
				       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
		if (!ar) warnx("cannot open OTF2 archive in %s; no trace written", path);
	}
	if (!ar) {
		free(mymap);
		unified_free(&u);
		return;
	}
	OTF2_Archive_SetFlushCallbacks(ar, &flush_cbs, NULL);
	OTF2_MPI_Archive_SetCollectiveCallbacks(ar, T.icomm, MPI_COMM_NULL);
	OTF2_Archive_SetCreator(ar, "tracecomb tctrace");
	uint64_t nevents = write_events(ar, mymap);
	uint64_t *counts = NULL, gfirst = 0, glast = 0;
	if (T.rank == 0) counts = xalloc(NULL, (size_t)T.size * sizeof *counts);
	PMPI_Gather(&nevents, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, 0, T.icomm);
	PMPI_Reduce(&first, &gfirst, 1, MPI_UINT64_T, MPI_MIN, 0, T.icomm);
	PMPI_Reduce(&last, &glast, 1, MPI_UINT64_T, MPI_MAX, 0, T.icomm);
	if (T.rank == 0) write_global_defs(ar, &u, counts, gfirst, glast);
	OTF2_ErrorCode cerr = OTF2_Archive_Close(ar);
	if (T.rank == 0) {
		if (cerr != OTF2_SUCCESS) warnx("closing the archive failed: %s", OTF2_Error_GetDescription(cerr));
		else if (!getenv("TRACECOMB_QUIET")) {
			uint64_t tot = 0;
			for (int r = 0; r < T.size; r++) tot += counts[r];
			fprintf(stderr, "tctrace: wrote %s/traces.otf2 (%d ranks, %llu events)\n", path, T.size,
				(unsigned long long)tot);
		}
	}
	free(counts);
	free(mymap);
	unified_free(&u);
}

TCT_EXPORT int MPI_Finalize(void)
{
	if (!T.on) return PMPI_Finalize();
	if (tl_main) {
		ev_enter(R_FINALIZE);
		PMPI_Barrier(T.icomm);
		ev_leave(R_FINALIZE);
	}
	T.on = 0;
	write_archive();
	PMPI_Comm_free(&T.icomm);
	return PMPI_Finalize();
}
