/* otfw.h — a small OTF2 archive writer for tests and trace generators.
 *
 * Writes archives with the same definition structure Score-P writes for a
 * pure MPI program: one "MPI Rank N" process per rank, each with one
 * CPU_THREAD location "Master thread" whose location id is the rank, nodes
 * "node%u" (class "node", domain SHARED_MEMORY) under a "machine" root, an MPI
 * COMM_LOCATIONS group, a COMM_GROUP per communicator and MPI_COMM_SELF.
 *
 * Events are streamed to per-location OTF2 event writers as they are given
 * (OTF2 buffers at most OTFW_POOL_CHUNKS chunks per location before it flushes
 * to disk), so millions of events can be written in bounded memory.
 * Timestamps are raw ticks and must be non-decreasing per rank.  Peer ranks
 * and roots are ranks in the given communicator, as in OTF2.
 *
 * Errors (an OTF2 call failing, a timestamp going backwards, a bad rank,
 * region or communicator) are remembered; the first one is printed to stderr
 * and otfw_close() then returns -1. */
#ifndef TC_OTFW_H
#define TC_OTFW_H

#include <stdbool.h>
#include <stdint.h>

#include <otf2/otf2.h>

#define OTFW_COMM_WORLD 0u   /* created by otfw_open: "MPI_COMM_WORLD" */
#define OTFW_COMM_SELF  1u   /* created by otfw_open: "MPI_COMM_SELF" */
#define OTFW_POOL_CHUNKS 4u  /* event chunks OTF2 may hold per location before flushing */
#define OTFW_CHUNK_SIZE (256u * 1024u)      /* event chunk size (OTF2_CHUNK_SIZE_MIN) */
#define OTFW_DEF_CHUNK_SIZE (256u * 1024u)  /* definition chunk size: OTF2 clears every local def chunk, keep it small */

struct otfw;

/* Create DIR (and parents) and start the archive DIR/traces.otf2.
 * node_of_rank[r] < nnodes is the node of rank r (NULL: all on node 0).
 * Returns NULL (with a message on stderr) on failure, also when DIR already
 * holds traces.otf2, traces.def or traces/ (OTF2 never overwrites). */
struct otfw *otfw_open(const char *dir, uint32_t nranks, const uint32_t *node_of_rank,
		       uint32_t nnodes, uint64_t resolution);
/* The same with OTF2's event and definition chunk sizes (OTFW_CHUNK_SIZE and
 * OTFW_DEF_CHUNK_SIZE in otfw_open; OTF2_CHUNK_SIZE_EVENTS_DEFAULT and
 * OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT are what Score-P writes by default). */
struct otfw *otfw_open_chunks(const char *dir, uint32_t nranks, const uint32_t *node_of_rank, uint32_t nnodes,
			      uint64_t resolution, uint64_t evt_chunk, uint64_t def_chunk);

/* Define a region and return its id; the same name returns the same id.
 * "MPI_*" names get paradigm MPI and the role Score-P gives them
 * (POINT2POINT, BARRIER, COLL_ONE2ALL, ...), others paradigm USER, role FUNCTION. */
uint32_t otfw_region(struct otfw *w, const char *name);

/* Define a communicator of n world ranks (comm rank i = world_ranks[i]), parent
 * MPI_COMM_WORLD; returns its id for the event functions. */
uint32_t otfw_comm(struct otfw *w, const char *name, uint32_t n, const uint32_t *world_ranks);

/* Events of world rank `rank` at tick t. */
void otfw_enter(struct otfw *w, uint32_t rank, uint64_t t, uint32_t region);
void otfw_leave(struct otfw *w, uint32_t rank, uint64_t t, uint32_t region);
void otfw_send(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes);
void otfw_isend(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
		uint32_t tag, uint64_t bytes, uint64_t req);
void otfw_isend_complete(struct otfw *w, uint32_t rank, uint64_t t, uint64_t req);
void otfw_irecv_request(struct otfw *w, uint32_t rank, uint64_t t, uint64_t req);
void otfw_irecv(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
		uint32_t tag, uint64_t bytes, uint64_t req);
void otfw_recv(struct otfw *w, uint32_t rank, uint64_t t, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes);
void otfw_coll_begin(struct otfw *w, uint32_t rank, uint64_t t);
/* op: OTF2_CollectiveOp; root: comm rank, or OTF2_UNDEFINED_UINT32 (= OTF2_COLLECTIVE_ROOT_NONE)
 * when rootless, or OTF2_COLLECTIVE_ROOT_SELF / _THIS_GROUP. */
void otfw_coll_end(struct otfw *w, uint32_t rank, uint64_t t, uint8_t op, uint32_t comm,
		   uint32_t root, uint64_t sent, uint64_t recvd);
void otfw_measurement(struct otfw *w, uint32_t rank, uint64_t t, bool on);

/* Events written so far: in total, and by one rank. */
uint64_t otfw_events(const struct otfw *w);
uint64_t otfw_rank_events(const struct otfw *w, uint32_t rank);

/* Close the event files, write local and global definitions, free w.
 * Returns 0 on success, -1 if anything failed (then the archive is unusable). */
int otfw_close(struct otfw *w);

#endif
