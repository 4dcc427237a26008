/* chunks.c — the cache's checksums per 1 MiB chunk of each section
 * (docs/cache.md, "Checksums"): the table's plan, a range of chunks
 * checksummed from a written file (by the serial writer, or by each process
 * of tracecomb-mpi for its share of the chunks), and the table and header
 * put in place.  The opener checks the same chunks from its mapping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"

uint64_t tc_cache_sec_chunks(const struct tc_cache_section *s)
{
	return (s->size + TC_CACHE_CHUNK - 1) / TC_CACHE_CHUNK;
}

void tc_cache_plan_chunks(struct tc_cache_header *h, uint64_t end)
{
	uint64_t n = 0;
	for (int s = 0; s < CS_COUNT; s++) {
		h->sec[s].chunk0 = n;
		n += tc_cache_sec_chunks(&h->sec[s]);
	}
	h->nchunks = n;
	h->sums_off = (end + TC_CACHE_ALIGN - 1) / TC_CACHE_ALIGN * TC_CACHE_ALIGN;
	h->file_size = h->sums_off + 8 * n;
}

uint64_t tc_cache_chunk_sum(const void *p, size_t n, int s, uint64_t k)
{
	return tc_hash64(p, n, (uint64_t)s << 32 | k);
}

/* The section of table index i (planned). */
static int sec_of(const struct tc_cache_header *h, uint64_t i)
{
	int s = 0;
	while (s + 1 < CS_COUNT && h->sec[s + 1].chunk0 <= i) s++;   /* the last such is never empty */
	return s;
}

static bool pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	char *p = buf;
	while (n) {
		ssize_t k = pread(fd, p, n, (off_t)off);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) {
			if (k == 0) errno = EIO;
			return false;
		}
		p += k, n -= (size_t)k, off += (uint64_t)k;
	}
	return true;
}

bool tc_cache_pwrite(int fd, const void *buf, size_t n, uint64_t off)
{
	const char *p = buf;
	while (n) {
		ssize_t k = pwrite(fd, p, n, (off_t)off);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) {
			if (k == 0) errno = EIO;
			return false;
		}
		p += k, n -= (size_t)k, off += (uint64_t)k;
	}
	return true;
}

bool tc_cache_sum_range(int fd, const struct tc_cache_header *h, uint64_t c0, uint64_t c1, uint64_t *sums)
{
	char *buf = c0 < c1 ? xmalloc(TC_CACHE_CHUNK) : NULL;
	bool ok = true;
	for (uint64_t i = c0; i < c1 && ok; i++) {
		int s = sec_of(h, i);
		uint64_t k = i - h->sec[s].chunk0, at = k * TC_CACHE_CHUNK;
		size_t n = (size_t)TC_MIN(TC_CACHE_CHUNK, h->sec[s].size - at);
		ok = pread_all(fd, buf, n, h->sec[s].off + at);
		if (ok) sums[i] = tc_cache_chunk_sum(buf, n, s, k);
	}
	free(buf);
	return ok;
}

bool tc_cache_finish_file(int fd, struct tc_cache_header *h, const uint64_t *sums)
{
	h->sums_sum = tc_hash64(sums, 8 * h->nchunks, CS_COUNT);
	h->sum = tc_hash64(h, offsetof(struct tc_cache_header, sum), 0);
	return tc_cache_pwrite(fd, sums, 8 * h->nchunks, h->sums_off) && tc_cache_pwrite(fd, h, sizeof *h, 0) &&
	       ftruncate(fd, (off_t)h->file_size) == 0;
}
