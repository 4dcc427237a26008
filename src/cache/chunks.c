/* chunks.c — the cache's checksums per 1 MiB chunk of each section
 * (docs/cache.md, "Checksums"): the table's plan, a range of chunks
 * checksummed from a written file, mapped (by the serial writer, or by each process
 * of tracecomb-mpi for its share of the chunks), and the table and header
 * put in place.  The opener checks the same chunks from its mapping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
	/* each chunk mapped, not read into a buffer: its pages are in the page
	 * cache (just written, here or by another process), no copy; one chunk
	 * at a time, so that they do not add up in this process's RSS */
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	for (uint64_t i = c0; i < c1; i++) {
		int s = sec_of(h, i);
		uint64_t k = i - h->sec[s].chunk0, at = h->sec[s].off + k * TC_CACHE_CHUNK;
		uint64_t n = TC_MIN(TC_CACHE_CHUNK, h->sec[s].off + h->sec[s].size - at), lead = at % page;
		const unsigned char *m = mmap(NULL, n + lead, PROT_READ, MAP_SHARED, fd, (off_t)(at - lead));
		if (m == MAP_FAILED) return false;
		sums[i] = tc_cache_chunk_sum(m + lead, (size_t)n, s, k);
		munmap((void *)m, n + lead);
	}
	return true;
}

bool tc_cache_finish_file(int fd, struct tc_cache_header *h, const uint64_t *sums)
{
	h->sums_sum = tc_hash64(sums, 8 * h->nchunks, CS_COUNT);
	h->sum = tc_hash64(h, offsetof(struct tc_cache_header, sum), 0);
	return tc_cache_pwrite(fd, sums, 8 * h->nchunks, h->sums_off) && tc_cache_pwrite(fd, h, sizeof *h, 0) &&
	       ftruncate(fd, (off_t)h->file_size) == 0;
}
