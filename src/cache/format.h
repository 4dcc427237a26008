/* format.h — the cache file's layout (docs/cache.md, "Format"), shared by the
 * writer (write.c) and the reader (open.c).  Little-endian, native struct
 * layout; every section starts on a 64-byte boundary. */
#ifndef TC_CACHE_FORMAT_H
#define TC_CACHE_FORMAT_H

#include <stdbool.h>

#include "analysis_rootcause.h"
#include "cache.h"

#define TC_CACHE_ALIGN 64

/* The sections, in file order.  Model arrays hold file offsets where the
 * model has pointers (0 = NULL) and string-section offsets + 1 for strings. */
enum tc_cache_sec {
	CS_IDENT,       /* the identity text (tc_cache_identity), NUL-terminated */
	CS_CALLS,       /* every location's calls, one array after another */
	CS_OPS,         /* every rank's ops */
	CS_SENDMSGS,    /* every rank's send_msgs, then recv_msgs */
	CS_SAMPLES,     /* every location's samples */
	CS_XFERS,       /* every location's transfers */
	CS_MSGS,        /* trace->msgs */
	CS_COLLS,       /* trace->colls */
	CS_COLLMEMB,    /* trace->coll_members */
	CS_MEMBERS,     /* every comm's members */
	CS_CEVS,        /* steps->cevs */
	CS_STEPARR,     /* steps->rank_first, parts, steps, slots, wide, msg_send_cev, msg_recv_cev */
	CS_STEPS,       /* struct tc_steps (pointers as offsets); empty when not stored */
	CS_SPAN,        /* struct tc_span (pointers zero), rank_t0[nranks], rank_t1[nranks]; or empty */
	CS_WSTATS,      /* struct tc_waitstates (pointers zero, n = every wait), waited[nranks], caused[nranks]; or empty */
	CS_WAITS,       /* the waits, packed: uint32_t count[nranks] (64-byte padded), then n records of
			 * TC_WAIT_REC bytes in (rank, call) order; each process writes its ranks' counts and records */
	CS_PROFILE,     /* struct tc_profile (pointers zero), its regions, then the per-location and
			 * per-rank tables (uint64_t n, struct tc_prof_cell[n] each); or empty */
	CS_RCAUSE,      /* the root causes beyond the activities (struct tc_rc_results): struct
	                   tc_cache_rc, the contexts (struct tc_rc_ctx[nctx], padding zero), wait_s,
	                   delay_cost, path_compute_excess, path_mpi_excess (double[nranks] each),
	                   the activities with excess (uint32_t act[n], float excess[n], float
	                   delay[n], uint8_t outlier[n]), the path (TC_PIECE_REC bytes per
	                   piece: act, kind, start, end); or empty */
	CS_BLOBS,       /* the layers above's own results: struct tc_cache_blob_ent[n], then the bytes */
	CS_RANKS,       /* struct tc_rank[nranks] */
	CS_LOCS,        /* struct tc_loc[nlocs] */
	CS_NODES,
	CS_REGIONS,
	CS_COMMS,
	CS_METRICS,
	CS_WARNINGS,    /* uint64_t string offset + 1 per warning */
	CS_TRACE,       /* struct tc_trace, every pointer zero */
	CS_STRINGS,     /* every string, NUL-terminated */
	CS_COUNT
};
extern const char *const tc_cache_sec_names[CS_COUNT];
/* The large sections TC_VERIFY_SMALL leaves to tc_cache_verify_rest. */
#define CS_IS_LARGE(s) ((s) >= CS_CALLS && (s) <= CS_MEMBERS)

/* Checksums per chunk: chunk k of section s is the section's bytes
 * [k * TC_CACHE_CHUNK, (k + 1) * TC_CACHE_CHUNK) (the last one shorter), its
 * checksum tc_hash64(bytes, seed = s << 32 | k), stored at index
 * sec[s].chunk0 + k of the checksum table (uint64_t[nchunks] at sums_off,
 * after the last section).  Any process can checksum the bytes it wrote or
 * read back, independently of the others (docs/cache.md, "Checksums"). */
#define TC_CACHE_CHUNK ((uint64_t)1 << 20)

struct tc_cache_section {
	uint64_t off, size;     /* bytes from the file's start; size without padding */
	uint64_t chunk0;        /* its first chunk's index in the checksum table */
};

struct tc_cache_header {
	char magic[8];          /* TC_CACHE_MAGIC */
	uint32_t format;        /* TC_CACHE_FORMAT */
	uint32_t endian;        /* 0x01020304 as written */
	char version[16];       /* TC_VERSION, NUL-padded */
	uint64_t layout;        /* tc_cache_layout() */
	uint64_t file_size;
	uint64_t nsections;     /* CS_COUNT */
	struct tc_cache_section sec[CS_COUNT];
	uint64_t sums_off;      /* the checksum table: 64-byte aligned, after every section */
	uint64_t nchunks;       /* its entries (file_size == sums_off + 8 * nchunks) */
	uint64_t sums_sum;      /* tc_hash64 of the table, seed CS_COUNT */
	uint64_t sum;           /* tc_hash64 of every byte of the header before this field */
};

/* The chunk table's plan from the sections' offsets and sizes: every
 * sec[].chunk0, nchunks, sums_off (after `end`, the end of the last
 * section) and file_size. */
void tc_cache_plan_chunks(struct tc_cache_header *h, uint64_t end);
/* Chunks of a section, and the section and chunk of table index i. */
uint64_t tc_cache_sec_chunks(const struct tc_cache_section *s);
/* The checksum of chunk k of section s, whose bytes are p[0..n). */
uint64_t tc_cache_chunk_sum(const void *p, size_t n, int s, uint64_t k);
/* Checksums of the table entries [c0, c1) read back from fd (mapped) into
 * sums[c0..c1); false with errno when it cannot be mapped. */
bool tc_cache_sum_range(int fd, const struct tc_cache_header *h, uint64_t c0, uint64_t c1, uint64_t *sums);
/* n bytes of buf written at off (all of them, EINTR retried): false with errno. */
bool tc_cache_pwrite(int fd, const void *buf, size_t n, uint64_t off);
/* The table written at sums_off and the header (its sums_sum and sum
 * computed here) at 0, the file cut to file_size: false with errno. */
bool tc_cache_finish_file(int fd, struct tc_cache_header *h, const uint64_t *sums);

/* A wait in CS_WAITS: call, cause, cause_call (uint32_t each), kind (one
 * byte), seconds (the double's bytes), no padding; its rank is given by the
 * counts before the records (the cache-size budget: 21 bytes, not the 32
 * of struct tc_wait).  Written by write.c put_waits, read by open.c copy_ws. */
#define TC_WAIT_REC 21
#define TC_WAITS_HEAD(nranks) (((uint64_t)(nranks) * 4 + TC_CACHE_ALIGN - 1) / TC_CACHE_ALIGN * TC_CACHE_ALIGN)

/* CS_RCAUSE's head: the counts and run-level figures of struct
 * tc_rc_results, every field 8 bytes. */
struct tc_cache_rc {
	uint64_t nranks, nctx, nexcess, npath;
	struct tc_rc_figures fig;
};

/* A path piece in CS_RCAUSE: act (uint32_t), kind (one byte), start, end
 * (uint64_t), no padding: its rank and excess follow from the activities
 * (tc_rootcause_from; the cache-size budget). */
#define TC_PIECE_REC 21

/* One named blob of CS_BLOBS (tc_cache_blob). */
struct tc_cache_blob_ent { char name[48]; uint64_t off, size; };   /* off: from the section's start */

/* A hash of the sizes of every stored struct and of the pointer size. */
uint64_t tc_cache_layout(void);
/* The layout line of the identity ("sizes ..."), into buf. */
void tc_cache_layout_text(char *buf, size_t n);

/* Why identity `now` differs from `old`, the stored one: one phrase such as
 * "traces/3.evt changed" (caller frees). */
char *tc_cache_ident_diff(const char *old, const char *now);

#endif
