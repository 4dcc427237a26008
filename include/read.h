/* read.h — OTF2 archive → model (layer 1). */
#ifndef TC_READ_H
#define TC_READ_H

#include "model.h"

/* An MPI-parallel read (src/mpi, include/part.h): this process reads only
 * the locations of its share of the ranks (tc_share_ranks), and the finish is
 * distributed over the processes (tcb_set_dist). */
struct tc_dist;
struct tc_read_share {
	const struct tc_dist *dist;   /* the processes and the finish's operations */
	void *ctx;
	/* right after libotf2 opened the anchor: the reader's collective
	 * callbacks (reader: an OTF2_Reader *) */
	void (*collectives)(void *ctx, void *reader);
	/* Called by every process at the same points of the load: true when
	 * some process failed; *err (this process's message or NULL) is then
	 * the message of the first process that failed. */
	bool (*agree)(void *ctx, char **err);
};

struct tc_read_opts {
	int threads;   /* worker threads for event reading; 0 = min(cores, 4) */
	/* Called between chunks from the reading threads (serialised); return
	 * false to cancel the load.  May be NULL. */
	bool (*progress)(void *ctx, uint64_t events_done, uint64_t events_total);
	void *progress_ctx;
	const struct tc_read_share *share;   /* NULL: the whole trace, serially */
};

/* Resolve PATH (an anchor file, or a directory holding exactly one *.otf2)
 * to the anchor path.  On failure returns NULL and sets *err to a message. */
char *tc_find_anchor(const char *path, char **err);

/* True when the local definitions file PATH holds no definition: byte for
 * byte what libotf2 writes for a location without local definitions (one
 * chunk header and the end markers, 20 bytes, either byte order).  Reading
 * such a file costs libotf2 a zeroed definition buffer (4 MiB by default) per
 * location; the loader skips them. */
bool tc_otf2_def_file_empty(const char *path);

/* The anchor file at path checked before libotf2 opens it
 * (src/read/otf2_anchor.c): chunk sizes, location, definition and property
 * counts the files can hold (gdef_bytes: size of <archive_dir>.def).  NULL,
 * or one line saying what is implausible. */
char *tc_otf2_check_anchor(const char *path, const char *archive_dir, uint64_t gdef_bytes);

/* Load an archive.  On failure returns NULL and sets *err to one line naming
 * the file and the problem (caller frees).  Warnings go to trace->warnings. */
struct tc_trace *tc_read_otf2(const char *path, const struct tc_read_opts *opts, char **err);

#endif
