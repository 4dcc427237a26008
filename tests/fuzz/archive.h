/* archive.h — one OTF2 archive in one byte buffer, for the reader fuzz target.
 *
 * The buffer is a list of files, each
 *     u8 kind | u64 ref (little endian) | u32 size (little endian) | size bytes
 * kind 0 = the anchor (traces.otf2), 1 = the global definitions (traces.def),
 * 2 = local definitions traces/<ref>.def, 3 = events traces/<ref>.evt.
 * At most FZ_MAX_FILES files; a truncated tail is dropped.  pack.c writes the
 * seed corpus in this form from a real archive; fuzz_reader.c unpacks it into
 * a private temporary directory. */
#ifndef TC_FUZZ_ARCHIVE_H
#define TC_FUZZ_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#define FZ_MAX_FILES 24
enum fz_kind { FZ_ANCHOR, FZ_GDEF, FZ_LDEF, FZ_EVT, FZ_NKINDS };

struct fz_file {
	uint8_t kind;
	uint64_t ref;
	const uint8_t *data;
	uint32_t size;
};

/* Splits buf into files; returns how many (≤ FZ_MAX_FILES). */
size_t fz_split(const uint8_t *buf, size_t len, struct fz_file *out);
/* Writes one file's header to f (the data follows). */
#include <stdio.h>
void fz_put_header(FILE *f, uint8_t kind, uint64_t ref, uint32_t size);
/* Path of a file inside an archive rooted at dir: dir/traces.otf2, dir/traces.def,
 * dir/traces/<ref>.def|evt (into buf of n bytes). */
void fz_path(char *buf, size_t n, const char *dir, const struct fz_file *f);

/* What both the reader and the option targets do with a session: every
 * report section, as one JSON object and as text, into f (/dev/null). */
struct tc_session;
void fz_report_all(struct tc_session *s, FILE *f);

/* The per-input CPU-time bound (every target): fz_cpu_begin before an input,
 * fz_cpu_end after it aborts (a finding, saved as a crash-* artifact) when
 * the process used more than FUZZ_CPU_SECONDS (default 10) of CPU time, all
 * threads counted.  CPU time, not wall time: on a shared 2-core machine a
 * niced fuzzer's wall time says more about the neighbours than about the
 * input; libFuzzer's wall -timeout stays as the backstop for real hangs. */
void fz_cpu_begin(void);
void fz_cpu_end(void);

#endif
