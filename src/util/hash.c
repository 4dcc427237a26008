/* hash.c — a 64-bit checksum: the XXH64 algorithm (Yann Collet's public
 * design: four lanes of multiply-rotate over 32-byte stripes, then a merge
 * and an avalanche), written here from its description, one-shot and
 * streaming.  Used to check cache files (docs/cache.md, "Checksums"); not
 * a cryptographic hash. */
#include <string.h>

#include "util.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static inline uint64_t rd64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t rd32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t round1(uint64_t acc, uint64_t in) { return rotl(acc + in * P2, 31) * P1; }
static inline uint64_t merge(uint64_t acc, uint64_t v) { return (acc ^ round1(0, v)) * P1 + P4; }

/* Whole 32-byte stripes of p[0..n) into the lanes; returns the bytes taken. */
static size_t stripes(uint64_t v[4], const unsigned char *p, size_t n)
{
	size_t done = 0;
	uint64_t a = v[0], b = v[1], c = v[2], d = v[3];
	for (; done + 32 <= n; done += 32) {
		a = round1(a, rd64(p + done));
		b = round1(b, rd64(p + done + 8));
		c = round1(c, rd64(p + done + 16));
		d = round1(d, rd64(p + done + 24));
	}
	v[0] = a, v[1] = b, v[2] = c, v[3] = d;
	return done;
}

void tc_hash_init(struct tc_hash *h, uint64_t seed)
{
	memset(h, 0, sizeof *h);
	h->v[0] = seed + P1 + P2;
	h->v[1] = seed + P2;
	h->v[2] = seed;
	h->v[3] = seed - P1;
	h->seed = seed;
}

void tc_hash_add(struct tc_hash *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	h->total += n;
	if (h->nbuf) {
		size_t k = TC_MIN(n, 32 - h->nbuf);
		memcpy(h->buf + h->nbuf, p, k);
		h->nbuf += k, p += k, n -= k;
		if (h->nbuf < 32) return;
		stripes(h->v, h->buf, 32);
		h->nbuf = 0;
	}
	size_t done = stripes(h->v, p, n);
	memcpy(h->buf, p + done, n - done);
	h->nbuf = n - done;
}

uint64_t tc_hash_end(const struct tc_hash *h)
{
	uint64_t acc;
	if (h->total >= 32) {
		acc = rotl(h->v[0], 1) + rotl(h->v[1], 7) + rotl(h->v[2], 12) + rotl(h->v[3], 18);
		for (int i = 0; i < 4; i++) acc = merge(acc, h->v[i]);
	} else acc = h->seed + P5;
	acc += h->total;
	const unsigned char *p = h->buf;
	size_t n = h->nbuf;
	for (; n >= 8; p += 8, n -= 8) acc = rotl(acc ^ round1(0, rd64(p)), 27) * P1 + P4;
	if (n >= 4) { acc = rotl(acc ^ (uint64_t)rd32(p) * P1, 23) * P2 + P3; p += 4; n -= 4; }
	for (; n; p++, n--) acc = rotl(acc ^ *p * P5, 11) * P1;
	acc ^= acc >> 33;
	acc *= P2;
	acc ^= acc >> 29;
	acc *= P3;
	return acc ^ (acc >> 32);
}

uint64_t tc_hash64(const void *data, size_t n, uint64_t seed)
{
	struct tc_hash h;
	tc_hash_init(&h, seed);
	tc_hash_add(&h, data, n);
	return tc_hash_end(&h);
}
