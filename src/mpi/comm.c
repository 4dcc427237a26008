/* comm.c — the operations of the distributed finish (struct tc_dist,
 * include/part.h) and of the parallel read (struct tc_read_share) over MPI.
 *
 * exchange() moves records in bounded rounds (docs/scale.md, "Rounds"): in a
 * round every process sends at most round_bytes and receives at most
 * round_bytes.  Each round: the counts each process still has for each
 * other (MPI_Alltoall), the receivers' grants (first come, up to
 * round_bytes each), what each sender sends within its own round_bytes, and
 * the data (MPI_Alltoallv).  The lowest process with data left always sends
 * some to its lowest destination, so every round makes progress. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>
#include <otf2/otf2.h>
#include <otf2/OTF2_MPI_Collectives.h>

#include "mpi_internal.h"

static MPI_Op op_of(enum tc_dist_op op)
{
	return op == TC_DIST_SUM ? MPI_SUM : op == TC_DIST_MIN ? MPI_MIN : MPI_MAX;
}

/* Vectors go in chunks of at most round_bytes too. */
static size_t chunk_of(const struct tc_mpi *M)
{
	size_t c = M->round_bytes / sizeof(uint64_t);
	return c ? c : 1;
}

static void m_reduce(void *ctx, uint64_t *v, size_t n, enum tc_dist_op op)
{
	struct tc_mpi *M = ctx;
	for (size_t i = 0, c = chunk_of(M); i < n; i += c)
		MPI_Allreduce(MPI_IN_PLACE, v + i, (int)TC_MIN(c, n - i), MPI_UINT64_T, op_of(op), M->comm);
}

static void m_exscan(void *ctx, uint64_t *v, size_t n, enum tc_dist_op op)
{
	struct tc_mpi *M = ctx;
	for (size_t i = 0, c = chunk_of(M); i < n; i += c)
		MPI_Exscan(MPI_IN_PLACE, v + i, (int)TC_MIN(c, n - i), MPI_UINT64_T, op_of(op), M->comm);
	if (M->rank == 0) memset(v, 0, n * sizeof *v);   /* undefined on the first process */
}

static void m_allgather(void *ctx, uint64_t v, uint64_t *out)
{
	struct tc_mpi *M = ctx;
	MPI_Allgather(&v, 1, MPI_UINT64_T, out, 1, MPI_UINT64_T, M->comm);
}

/* One round's plan: grant[q] records from q may come here; n[p] records go to p. */
struct round {
	uint64_t *want, *wanted, *grant, *granted, *n, *in;
	int *sc, *sd, *rc, *rd;
};

static void round_plan(struct tc_mpi *M, struct round *R, uint64_t cap)
{
	int P = M->size;
	MPI_Alltoall(R->want, 1, MPI_UINT64_T, R->wanted, 1, MPI_UINT64_T, M->comm);
	uint64_t budget = cap;
	for (int q = 0; q < P; q++) {
		R->grant[q] = TC_MIN(R->wanted[q], budget);
		budget -= R->grant[q];
	}
	MPI_Alltoall(R->grant, 1, MPI_UINT64_T, R->granted, 1, MPI_UINT64_T, M->comm);
	budget = cap;
	for (int p = 0; p < P; p++) {
		R->n[p] = TC_MIN(R->granted[p], budget);
		budget -= R->n[p];
	}
	MPI_Alltoall(R->n, 1, MPI_UINT64_T, R->in, 1, MPI_UINT64_T, M->comm);
}

static void *m_exchange(void *ctx, const void *send, const uint64_t *scount, size_t rs, uint64_t *rcount)
{
	struct tc_mpi *M = ctx;
	int P = M->size;
	MPI_Alltoall(scount, 1, MPI_UINT64_T, rcount, 1, MPI_UINT64_T, M->comm);
	uint64_t *soff = xcalloc((size_t)P + 1, sizeof *soff), *roff = xcalloc((size_t)P + 1, sizeof *roff);
	uint64_t *sdone = xcalloc((size_t)P, sizeof *sdone), *rdone = xcalloc((size_t)P, sizeof *rdone);
	for (int p = 0; p < P; p++) {
		soff[p + 1] = soff[p] + scount[p];
		roff[p + 1] = roff[p] + rcount[p];
	}
	char *out = xmalloc(roff[P] * rs + 1);
	uint64_t cap = TC_MAX(M->round_bytes / rs, 1);
	cap = TC_MIN(cap, (uint64_t)INT_MAX / rs);
	struct round R;
	uint64_t *u = xcalloc(6 * (size_t)P, sizeof *u);
	R.want = u, R.wanted = u + P, R.grant = u + 2 * P, R.granted = u + 3 * P, R.n = u + 4 * P, R.in = u + 5 * P;
	int *iv = xcalloc(4 * (size_t)P, sizeof *iv);
	R.sc = iv, R.sd = iv + P, R.rc = iv + 2 * P, R.rd = iv + 3 * P;
	char *sb = xmalloc(cap * rs), *rb = xmalloc(cap * rs);
	for (;;) {
		uint64_t left = 0;
		for (int p = 0; p < P; p++) left += R.want[p] = scount[p] - sdone[p];
		MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPI_UINT64_T, MPI_MAX, M->comm);
		if (!left) break;
		round_plan(M, &R, cap);
		for (int p = 0, pos = 0; p < P; p++) {
			memcpy(sb + (size_t)pos * rs, (const char *)send + (soff[p] + sdone[p]) * rs, R.n[p] * rs);
			R.sc[p] = (int)(R.n[p] * rs);
			R.sd[p] = (int)((size_t)pos * rs);
			pos += (int)R.n[p];
			sdone[p] += R.n[p];
		}
		for (int q = 0, pos = 0; q < P; q++) {
			R.rc[q] = (int)(R.in[q] * rs);
			R.rd[q] = (int)((size_t)pos * rs);
			pos += (int)R.in[q];
		}
		MPI_Alltoallv(sb, R.sc, R.sd, MPI_BYTE, rb, R.rc, R.rd, MPI_BYTE, M->comm);
		for (int q = 0; q < P; q++) {
			memcpy(out + (roff[q] + rdone[q]) * rs, rb + R.rd[q], (size_t)R.rc[q]);
			rdone[q] += R.in[q];
		}
		M->rounds++;
	}
	M->exchanges++;
	M->bytes_sent += soff[P] * rs;
	free(sb), free(rb), free(u), free(iv), free(soff), free(roff), free(sdone), free(rdone);
	return out;
}

/* Messages of up to 1 GiB: count fits an int. */
#define CHAIN_PIECE ((size_t)1 << 30)

static void m_chain(void *ctx, void *state, size_t bytes, void (*step)(void *arg, void *state), void *arg)
{
	struct tc_mpi *M = ctx;
	char *b = state;
	for (size_t i = 0; M->rank > 0 && i < bytes; i += CHAIN_PIECE)
		MPI_Recv(b + i, (int)TC_MIN(CHAIN_PIECE, bytes - i), MPI_BYTE, M->rank - 1, 1, M->comm, MPI_STATUS_IGNORE);
	step(arg, state);
	for (size_t i = 0; M->rank + 1 < M->size && i < bytes; i += CHAIN_PIECE)
		MPI_Send(b + i, (int)TC_MIN(CHAIN_PIECE, bytes - i), MPI_BYTE, M->rank + 1, 1, M->comm);
	for (size_t i = 0; i < bytes; i += CHAIN_PIECE)
		MPI_Bcast(b + i, (int)TC_MIN(CHAIN_PIECE, bytes - i), MPI_BYTE, M->size - 1, M->comm);
	M->chains++;
}

#define TAG_TOKEN 2   /* send1 / recv1 (m_chain's are tag 1) */

static void m_send1(void *ctx, int to, const void *rec, size_t bytes)
{
	struct tc_mpi *M = ctx;
	MPI_Send(rec, (int)bytes, MPI_BYTE, to, TAG_TOKEN, M->comm);
	M->bytes_sent += bytes;
}

static void m_recv1(void *ctx, void *rec, size_t bytes)
{
	struct tc_mpi *M = ctx;
	MPI_Recv(rec, (int)bytes, MPI_BYTE, MPI_ANY_SOURCE, TAG_TOKEN, M->comm, MPI_STATUS_IGNORE);
}

static void m_collectives(void *ctx, void *reader)
{
	struct tc_mpi *M = ctx;
	OTF2_MPI_Reader_SetCollectiveCallbacks((OTF2_Reader *)reader, M->comm);
}

/* The first failing process's message to every process. */
static bool m_agree(void *ctx, char **err)
{
	struct tc_mpi *M = ctx;
	int mine = *err ? M->rank : INT_MAX, first = INT_MAX;
	MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, M->comm);
	if (first == INT_MAX) return false;
	int len = M->rank == first ? (int)strlen(*err) + 1 : 0;
	MPI_Bcast(&len, 1, MPI_INT, first, M->comm);
	char *msg = xmalloc((size_t)len + 1);
	if (M->rank == first) memcpy(msg, *err, (size_t)len);
	MPI_Bcast(msg, len, MPI_CHAR, first, M->comm);
	msg[len] = '\0';
	free(*err);
	*err = msg;
	return true;
}

bool tc_mpi_agree(struct tc_mpi *M, char **err)
{
	return m_agree(M, err);
}

void tc_mpi_wait_quietly(struct tc_mpi *M)
{
	MPI_Request rq;
	int done = 0;
	MPI_Ibarrier(M->comm, &rq);
	for (MPI_Test(&rq, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&rq, &done, MPI_STATUS_IGNORE))
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
}

void tc_mpi_setup(struct tc_mpi *M, MPI_Comm comm, size_t round_bytes)
{
	M->comm = comm;
	MPI_Comm_rank(comm, &M->rank);
	MPI_Comm_size(comm, &M->size);
	M->round_bytes = round_bytes ? round_bytes : TC_MPI_ROUND_BYTES;
	M->dist = (struct tc_dist){ .ctx = M, .index = M->rank, .count = M->size, .reduce = m_reduce,
				    .exscan = m_exscan, .allgather = m_allgather, .exchange = m_exchange,
				    .chain = m_chain, .send1 = m_send1, .recv1 = m_recv1,
				    .out = &M->part };
	M->share = (struct tc_read_share){ .dist = &M->dist, .ctx = M, .collectives = m_collectives, .agree = m_agree };
}
