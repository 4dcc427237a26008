/* cache.h — the analysis cache (docs/cache.md): one file per archive that
 * holds the model and the logical steps, opened by mmap and pointer
 * fix-ups instead of decoding the archive.  Versioned, checksummed per
 * 1 MiB chunk of each section, little-endian (native layout: a build with other struct sizes
 * reads its caches as stale).  No curses, no CLI here. */
#ifndef TC_CACHE_H
#define TC_CACHE_H

#include "model.h"

struct tc_steps;
struct tc_span;

#define TC_CACHE_MAGIC "TCCACHE\n"
/* 6 (session 24): the layout of 5; the root causes it stores are those of the
 * persistent-excess bar that asks for 5 standard errors (docs/rootcause.md),
 * so a cache of 5 is stale, not read with the old rule's excess */
#define TC_CACHE_FORMAT 6u

/* The archive's identity as text, one "key\tvalue" line each: format,
 * tracecomb version, struct layout, the anchor's real path with size and
 * mtime (ns), every .def and .evt of the archive (sorted) likewise, and the
 * options that change results (opts: "key=value", sorted, the last of a key
 * kept, limit left out).  NULL and *err when the anchor cannot be resolved.
 * Caller frees. */
char *tc_cache_identity(const char *anchor, const char *const *opts, size_t nopts, char **err);
/* The default cache file of an archive:
 * $XDG_CACHE_HOME/tracecomb/<name>-<hash of its real anchor path>.tcc (or
 * ~/.cache/tracecomb/...); *dir gets the directory (both caller frees).
 * NULL and *err when there is no home for it. */
char *tc_cache_default_path(const char *anchor, char **dir, char **err);
/* Whether the file at path starts as a cache file does (prep -o replaces
 * one without --force). */
bool tc_cache_is_file(const char *path);
/* mkdir -p of dir (mode 0700 for the parts it creates); false with errno. */
bool tc_cache_mkdir(const char *dir);
/* Where prep writes a cache without -o: tc_cache_default_path with its
 * directory made (caller frees).  NULL and *err (caller frees) when there is
 * no home for it or the directory cannot be made. */
char *tc_cache_default_place(const char *anchor, char **err);

/* Bytes the model's arrays and strings take in memory (the cache-size budget's
 * denominator; docs/cache.md). */
uint64_t tc_trace_bytes(const struct tc_trace *t);

/* What a cache holds beside the model, each NULL / 0 when not stored: the
 * logical steps, the application span, and named blobs of the layers above
 * (e.g. the UI's lateness summary, src/ui/lsum.c), opaque here. */
struct tc_cache_hole;
struct tc_cache_blob {
	const char *name;
	const void *p;                        /* its bytes but the holes', in order */
	size_t size;                          /* the whole blob's, holes included */
	const struct tc_cache_hole *holes;    /* nholes, by offset: bytes other processes write */
	size_t nholes;
};
/* Bytes that the process holding them writes at their place in the file,
 * where process 0 lays out an array (or a blob's hole) without holding it
 * (tracecomb-mpi: the logical steps' per-event arrays and the lateness
 * summary's per-rank ones, each process its ranks'; docs/scale.md "The
 * steps in slices"): anchor names the array, off the bytes' offset in it. */
enum tc_cache_anchor {
	TC_ANCHOR_CEVS,        /* tc_steps.cevs */
	TC_ANCHOR_WIDE,        /* tc_steps.wide */
	TC_ANCHOR_SEND,        /* tc_steps.msg_send_cev */
	TC_ANCHOR_RECV,        /* tc_steps.msg_recv_cev */
	TC_ANCHOR_EX_ACT,      /* tc_rc_results.ex_act (CS_RCAUSE) */
	TC_ANCHOR_EX_EXCESS,   /* tc_rc_results.ex_excess */
	TC_ANCHOR_EX_DELAY,    /* tc_rc_results.ex_delay */
	TC_ANCHOR_EX_OUTLIER,  /* tc_rc_results.ex_outlier */
	TC_ANCHOR_BLOB0,       /* blob holes name these and the next ones */
	TC_ANCHOR_COUNT = TC_ANCHOR_BLOB0 + 4
};
struct tc_cache_piece { int anchor; uint64_t off; const void *p; uint64_t size; };
struct tc_cache_hole { uint64_t at, size; int anchor; };
/* A blob that says, in one NUL-terminated line, why the steps are not
 * stored (tracecomb-mpi over its bound); the opener shows it. */
#define TC_CACHE_NOTE_BLOB "cache.note"
/* The wait states and the profile (flat, per location, per rank), stored
 * since format 4: what `tracecomb report` and the TUI would otherwise
 * compute again on every open.  ws->w is not read: the waits come from
 * waits[0..nwaits), the writing process's slice of the whole list (its
 * ranks' waits, in (rank, call) order) starting at index waits_first;
 * serially the whole list (ws->w, ws->n, 0).  A reduced ws (tracecomb-mpi:
 * ws->at set) stores ws->n_all as the count. */
struct tc_waitstates;
struct tc_wait;
struct tc_profile;
struct tc_prof_table;
struct tc_rc_results;
struct tc_cache_results {
	const struct tc_steps *steps;
	const struct tc_span *span;
	const struct tc_cache_blob *blobs;
	size_t nblobs;
	const struct tc_waitstates *ws;
	const struct tc_wait *waits;
	size_t nwaits;
	uint64_t waits_first;
	const struct tc_profile *profile;
	const struct tc_prof_table *per_loc, *per_rank;
	const struct tc_rc_results *rc;   /* the root causes beyond the activities (format 5) */
	/* this process's bytes of the arrays and blob holes laid out without
	 * them (the steps' when steps->cevs is NULL: every process's cevs,
	 * wide values and message ends) */
	const struct tc_cache_piece *pieces;
	size_t npieces;
};
/* The pieces of the steps' per-event arrays a process holds in slices
 * (analysis_steps_dist.h: its cevs, wide values, message ends) into out;
 * how many (0 when process 0 holds the whole steps). */
struct tc_steps_slice;
size_t tc_cache_steps_pieces(const struct tc_steps_slice *sl, struct tc_cache_piece out[4]);
/* The same of the root causes' activities with excess a process holds
 * (analysis_replay.h, struct tc_replay's ex): their four arrays. */
struct tc_rc_exslice;
size_t tc_cache_ex_pieces(const struct tc_rc_exslice *e, struct tc_cache_piece out[4]);
/* Write the cache of t and r to f, a seekable file opened for writing,
 * positioned at 0.  false and *err on a write error (the caller removes the
 * file). */
bool tc_cache_write(FILE *f, const struct tc_trace *t, const struct tc_cache_results *r, const char *identity,
		    char **err);
/* tracecomb-mpi (docs/scale.md): every process of a distributed model (its
 * part p, d its operations) writes its own bytes of the one cache file into
 * fd, the same new file opened on every process; then each checksums its
 * share of the chunks, read back, and process 0 writes the checksum table
 * and the header.  r: what is stored beside the model (steps, span, blobs),
 * process 0's (the others' is ignored: they learn its sizes; NULL: nothing).
 * Collective: true on every process when every one succeeded, else false
 * and *err (this process's error; NULL when only another process failed). */
struct tc_part;
struct tc_dist;
bool tc_cache_write_part(int fd, const struct tc_part *p, const struct tc_dist *d, const struct tc_cache_results *r,
			 const char *identity, char **err);
/* The same in two collective halves: the begin writes the sections whose
 * places do not depend on r (the identity, the model's event arrays and
 * global arrays), the end the rest, the checksums and the header.  Between
 * them the part's event arrays may be dropped (tc_trace_drop_events) and r
 * computed: tracecomb-mpi computes the steps on process 0 only after its
 * part is in the file and gone (docs/scale.md, "Process 0's memory"). */
struct tc_cache_wpart;
struct tc_cache_wpart *tc_cache_write_begin(int fd, const struct tc_part *p, const struct tc_dist *d,
					    const char *identity);
bool tc_cache_write_end(struct tc_cache_wpart *c, const struct tc_cache_results *r, char **err);
/* The stored results of a trace opened from a cache, as copies the caller
 * owns (freed as computed ones are), each NULL when the file has none.
 * False when a stored one is malformed (nothing set). */
struct tc_cache_stored {
	struct tc_waitstates *ws;
	struct tc_profile *profile;
	struct tc_prof_table *per_loc, *per_rank;
	struct tc_rc_results *rc;
};
bool tc_cache_stored(const struct tc_trace *t, struct tc_cache_stored *out);
/* A blob of a trace opened from a cache: its bytes (8-byte aligned, inside the
 * mapping, valid as long as the trace) and *size, or NULL. */
const void *tc_cache_blob(const struct tc_trace *t, const char *name, size_t *size);

enum tc_cache_status {
	TC_CACHE_OK,       /* opened: *t (and *st when the file has steps) set */
	TC_CACHE_ABSENT,   /* no such file */
	TC_CACHE_STALE,    /* another archive state, other options, other version */
	TC_CACHE_CORRUPT,  /* truncated, a checksum that does not match, impossible offsets */
};
/* How much of the file tc_cache_open checks before anything is used: every
 * section (TC_VERIFY_ALL), or all but the model's large arrays, checked by
 * tc_cache_verify_rest before they are read (TC_VERIFY_SMALL).
 * docs/cache.md, "Checksums". */
enum tc_cache_verify { TC_VERIFY_ALL, TC_VERIFY_SMALL };
/* Open the cache file at path for the archive whose identity is `identity`;
 * the model's anchor becomes `anchor` (the path as the user gave it).  On
 * anything but TC_CACHE_OK, *why is one line (caller frees; NULL when
 * ABSENT).  The trace owns the mapping (tc_trace_free unmaps it); *st, when
 * set, is freed with tc_steps_free before the trace; *span (a copy, when
 * stored) with tc_span_free. */
enum tc_cache_status tc_cache_open(const char *path, const char *identity, const char *anchor,
				   enum tc_cache_verify verify, struct tc_trace **t, struct tc_steps **st,
				   struct tc_span **span, char **why);
/* After TC_VERIFY_SMALL: check the sections left; false and *why when one
 * does not match (the trace must then not be used). */
bool tc_cache_verify_rest(const struct tc_trace *t, char **why);

#endif
