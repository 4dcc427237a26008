/* hash.c — the cache's 64-bit checksum (docs/cache.md, "Checksums"), one-shot
 * and streaming.  Built like XXH3's long-input loop, written here from its
 * public description (not XXH3's output: other constants, a simpler end):
 * eight 64-bit lanes over 64-byte stripes, each 8-byte word d added to the
 * neighbouring lane and the product of the low and high halves of d ^ key
 * added to its own (one 32x32->64 multiply: vectorisable, pmuludq), every
 * 16 stripes a scramble (xorshift, key, multiply), at the end the lanes merged
 * and avalanched as XXH64 does.  The same C compiled for AVX2 and for the
 * baseline (target_clones, chosen once at load time) gives the same value; the
 * AVX2 one reads at about the memory bandwidth.  Not a cryptographic hash. */
#include <string.h>

#include "util.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL
#define SCRAMBLE_EVERY 16   /* stripes */

static const uint64_t key[8] = { 0xbe4ba423396cfeb8ULL, 0x1cad21f72c81017cULL, 0xdb979083e96dd4deULL,
				 0x1f67b3b7a4a44072ULL, 0x78e5c0cc4ee679cbULL, 0x2172ffcc7dd05a82ULL,
				 0x8e2443f7744608b8ULL, 0x4c263a81e69035e0ULL };

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

#if defined(TC_HASH_NO_CLONES)
#define TC_CLONES
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TC_CLONES __attribute__((target_clones("avx2", "default"), optimize("O3")))
#elif defined(__x86_64__) && defined(__clang__)
#define TC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TC_CLONES
#endif

#if defined(__GNUC__)
typedef uint64_t u64_unaligned __attribute__((aligned(1), may_alias));
#else
typedef uint64_t u64_unaligned;
#endif

/* n whole stripes of p into the lanes; *count stripes since the last scramble. */
TC_CLONES static void stripes(uint64_t lanes[8], const unsigned char *p, size_t n, unsigned *count)
{
	uint64_t acc[8];   /* local: no aliasing with p, kept in registers */
	unsigned c = *count;
	memcpy(acc, lanes, sizeof acc);
	const u64_unaligned *w = (const u64_unaligned *)p;
	for (size_t s = 0; s < n; s++, w += 8) {
		for (int k = 0; k < 8; k++) {
			uint64_t x = w[k] ^ key[k];
			acc[k ^ 1] += w[k];
			acc[k] += (x & 0xffffffffu) * (x >> 32);
		}
		if (++c == SCRAMBLE_EVERY) {
			c = 0;
			for (int k = 0; k < 8; k++) acc[k] = (acc[k] ^ (acc[k] >> 47) ^ key[7 - k]) * 0x9E3779B1u;
		}
	}
	memcpy(lanes, acc, sizeof acc);
	*count = c;
}

void tc_hash_init(struct tc_hash *h, uint64_t seed)
{
	memset(h, 0, sizeof *h);
	static const uint64_t init[8] = { P3, P1, P2, P4, P5, P3 ^ P1, P2 ^ P4, P5 ^ P1 };
	for (int k = 0; k < 8; k++) h->acc[k] = init[k] + (k & 1 ? seed : -seed);
	h->seed = seed;
}

void tc_hash_add(struct tc_hash *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	h->total += n;
	if (h->nbuf) {
		size_t k = TC_MIN(n, 64 - h->nbuf);
		memcpy(h->buf + h->nbuf, p, k);
		h->nbuf += k, p += k, n -= k;
		if (h->nbuf < 64) return;
		stripes(h->acc, h->buf, 1, &h->count);
		h->nbuf = 0;
	}
	stripes(h->acc, p, n / 64, &h->count);
	memcpy(h->buf, p + n / 64 * 64, n % 64);
	h->nbuf = n % 64;
}

uint64_t tc_hash_end(const struct tc_hash *h)
{
	uint64_t acc[8];
	unsigned count = h->count;
	memcpy(acc, h->acc, sizeof acc);
	if (h->nbuf) {   /* the last partial stripe, zero-filled (the length below tells it apart) */
		unsigned char last[64] = { 0 };
		memcpy(last, h->buf, h->nbuf);
		stripes(acc, last, 1, &count);
	}
	uint64_t v = h->total * P1 ^ h->seed;
	for (int k = 0; k < 8; k++) v = rotl(v ^ rotl(acc[k] * P2, 31) * P1, 27) * P1 + P4;
	v ^= v >> 33;
	v *= P2;
	v ^= v >> 29;
	v *= P3;
	return v ^ (v >> 32);
}

uint64_t tc_hash64(const void *data, size_t n, uint64_t seed)
{
	struct tc_hash h;
	tc_hash_init(&h, seed);
	tc_hash_add(&h, data, n);
	return tc_hash_end(&h);
}
