/* The anchor file's plausibility, checked before libotf2 opens it
 * (docs/model.md, "Reading").  libotf2 sizes allocations by counts in the
 * anchor while it parses it: the number of locations and of global
 * definitions, the chunk sizes, and the number of properties (2 × 8 bytes
 * each, allocated before the first one is read: a count of 1.4 G asked for
 * 22 GB).  Every such count is bounded by what the files can hold.
 *
 * The layout, as every OTF2 anchor of format 1-3 has it (OTF2 1.x-3.x):
 *   0  u8 chunk header (3)          1  u8 byte order: 0x42 little, 0x23 big endian
 *   2  "OTF2\0"                     7  u8 anchor format (≥ 1)
 *   8  u8 trace format, u8 × 3 OTF2 version
 *   12 u64 event chunk size         20 u64 definition chunk size
 *   28 u8 substrate                 29 u8 compression
 *   30 u64 locations                38 u64 global definitions
 *   46 three NUL-terminated strings: machine, creator, description
 *   format ≥ 2: u32 properties, then name and value (NUL-terminated) of each;
 *               u64 trace id
 *   format ≥ 3: u32 snapshots, u32 thumbnails; then an end-of-file byte (2). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "read.h"
#include "util.h"

#define ANCHOR_MAX_BYTES (16u << 20) /* an anchor holds a few strings; a larger one is refused */

struct anchor {
	const unsigned char *p;
	size_t n, at;
	bool big; /* big-endian numbers */
};

/* The next `bytes` bytes as an unsigned number; false past the end. */
static bool anchor_uint(struct anchor *a, unsigned bytes, uint64_t *v)
{
	if (a->n - a->at < bytes) return false;
	*v = 0;
	for (unsigned i = 0; i < bytes; i++) {
		unsigned k = a->big ? i : bytes - 1 - i;
		*v = *v << 8 | a->p[a->at + k];
	}
	a->at += bytes;
	return true;
}

/* Skips one NUL-terminated string; false when it has no end. */
static bool anchor_string(struct anchor *a)
{
	const unsigned char *z = memchr(a->p + a->at, 0, a->n - a->at);
	if (!z) return false;
	a->at = (size_t)(z - a->p) + 1;
	return true;
}

/* The fixed header: chunk sizes within OTF2's bounds, location and
 * definition counts the global definitions file can hold (a definition takes
 * at least 2 bytes).  NULL, or the error line. */
static char *check_header(struct anchor *a, const char *path, const char *archive_dir, uint64_t gdef_bytes)
{
	uint64_t evt, def, nlocs, ndefs;
	a->at = 12;
	anchor_uint(a, 8, &evt);
	anchor_uint(a, 8, &def);
	if (evt < OTF2_CHUNK_SIZE_MIN || evt > OTF2_CHUNK_SIZE_MAX || def < OTF2_CHUNK_SIZE_MIN ||
	    def > OTF2_CHUNK_SIZE_MAX)
		return xasprintf("%s: implausible anchor: chunk sizes %llu / %llu bytes (OTF2 allows %llu to %llu)",
				 path, (unsigned long long)evt, (unsigned long long)def,
				 (unsigned long long)OTF2_CHUNK_SIZE_MIN, (unsigned long long)OTF2_CHUNK_SIZE_MAX);
	a->at = 30;
	anchor_uint(a, 8, &nlocs);
	anchor_uint(a, 8, &ndefs);
	uint64_t most = gdef_bytes / 2 + 1;
	if (nlocs > most || ndefs > most)
		return xasprintf("%s.def: truncated or implausible: the anchor promises %llu locations and %llu global "
				 "definitions, this %llu-byte file cannot hold them", archive_dir,
				 (unsigned long long)nlocs, (unsigned long long)ndefs, (unsigned long long)gdef_bytes);
	return NULL;
}

/* The variable part: the property count must fit the bytes left (a property
 * is two strings of at least 1 byte each).  An anchor that ends early is left
 * to libotf2, which refuses it without allocating by a count. */
static char *check_properties(struct anchor *a, const char *path)
{
	unsigned format = a->p[7];
	a->at = 46;
	for (int i = 0; i < 3; i++)
		if (!anchor_string(a)) return NULL;
	uint64_t nprops;
	if (format < 2 || !anchor_uint(a, 4, &nprops)) return NULL;
	size_t left = a->n - a->at;
	if (nprops > left / 2)
		return xasprintf("%s: implausible anchor: %llu properties in the %zu bytes left of a %zu-byte file",
				 path, (unsigned long long)nprops, left, a->n);
	return NULL;
}

char *tc_otf2_check_anchor(const char *path, const char *archive_dir, uint64_t gdef_bytes)
{
	FILE *f = fopen(path, "rb");
	if (!f) return xasprintf("%s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) != 0) {
		char *e = xasprintf("%s: %s", path, strerror(errno));
		fclose(f);
		return e;
	}
	if (st.st_size > ANCHOR_MAX_BYTES) st.st_size = ANCHOR_MAX_BYTES; /* refused once read */
	size_t cap = (size_t)st.st_size + 1;
	unsigned char *buf = xmalloc(cap);
	size_t n = fread(buf, 1, cap, f);
	bool bad_read = ferror(f);
	fclose(f);
	char *err = NULL;
	struct anchor a = { .p = buf, .n = n, .big = n > 1 && buf[1] == 0x23 };
	if (bad_read)
		err = xasprintf("%s: cannot read the anchor file", path);
	else if (n < 6 || memcmp(buf + 2, "OTF2", 4) != 0)
		err = xasprintf("%s: not an OTF2 anchor file", path);
	else if (n > ANCHOR_MAX_BYTES)
		err = xasprintf("%s: implausible anchor: larger than %u bytes", path, ANCHOR_MAX_BYTES);
	else if (buf[1] != 0x42 && buf[1] != 0x23)
		err = xasprintf("%s: implausible anchor: unknown byte order mark 0x%02x", path, buf[1]);
	else if (n >= 46 && !(err = check_header(&a, path, archive_dir, gdef_bytes)))
		err = check_properties(&a, path);
	free(buf);
	return err;
}
