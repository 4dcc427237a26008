/* util.h — the one internal header of the utility layer: allocation that never
 * fails, growable arrays, arenas, string buffers, a streaming JSON writer and
 * small helpers shared by every other layer. Nothing here knows about traces. */
#ifndef TC_UTIL_H
#define TC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TC_NONE UINT32_MAX
/* The tool's version (--version, cache files). */
#define TC_VERSION "0.1.0"

#if defined(__GNUC__)
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define TC_NORETURN __attribute__((noreturn))
#else
#define TC_PRINTF(a, b)
#define TC_NORETURN
#endif

#define TC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TC_MAX(a, b) ((a) > (b) ? (a) : (b))
#define TC_NELEM(x) (sizeof(x) / sizeof((x)[0]))
/* The number of bits of x, 0 for 0 (x in [2^(k-1), 2^k − 1] → k): one
 * instruction instead of a shift per bit. */
static inline unsigned tc_bit_width(uint64_t x)
{
	return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

/* Allocation: these never return NULL; on exhaustion they print one line and exit(3). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) TC_PRINTF(1, 2);
char *xvasprintf(const char *fmt, va_list ap);
TC_NORETURN void tc_fatal(const char *fmt, ...) TC_PRINTF(1, 2);
TC_NORETURN void tc_oom(size_t n);  /* "out of memory (allocating n bytes)", exit 3 */
/* Fuzz builds (make fuzz passes -DTC_FUZZ_ALLOC_LIMIT=bytes): one allocation
 * of ours (the x*alloc above, tc_pages, the root causes' big arrays) larger
 * than the limit aborts, which libFuzzer saves as a finding
 * (tests/fuzz/README.md, "Limits"); a no-op in every other build. */
#ifdef TC_FUZZ_ALLOC_LIMIT
void tc_alloc_check(size_t n);
#else
static inline void tc_alloc_check(size_t n) { (void)n; }
#endif
/* Called once by tc_oom and tc_fatal before their message (the UI puts the
 * terminal back there, so that the message is seen); NULL to clear. */
void tc_on_fatal(void (*restore)(void));

/* 64 - log2(cap) for a power-of-two cap: the shift that takes a 64-bit hash's
 * top bits as a slot (Fibonacci hashing). */
static inline unsigned tc_hash_shift(size_t cap)
{
	unsigned s = 64;
	while (cap > 1) { cap >>= 1; s--; }
	return s;
}

/* A 64-bit checksum (src/util/hash.c: XXH3-like lanes, near the memory
 * bandwidth), one-shot or streaming (init, add any number of times, end); the
 * same bytes give the same value however they are split between adds. */
struct tc_hash { uint64_t acc[8], total, seed; unsigned char buf[64]; size_t nbuf; unsigned count; };
void tc_hash_init(struct tc_hash *h, uint64_t seed);
void tc_hash_add(struct tc_hash *h, const void *data, size_t n);
uint64_t tc_hash_end(const struct tc_hash *h);
uint64_t tc_hash64(const void *data, size_t n, uint64_t seed);

/* Growable array of fixed-size items: VEC(T) v = {0}; VEC_PUSH(v, x); v.n, v.a[i]. */
#define VEC(T) struct { T *a; size_t n, cap; }
#define VEC_RESERVE(v, want)                                                  \
	do {                                                                  \
		if ((want) > (v).cap) {                                       \
			size_t nc_ = (v).cap ? (v).cap * 2 : 16;              \
			while (nc_ < (want)) nc_ *= 2;                        \
			(v).a = xreallocarray((v).a, nc_, sizeof(*(v).a));    \
			(v).cap = nc_;                                        \
		}                                                             \
	} while (0)
/* Room for exactly want items (a size known in advance: no rounding up to a power of two). */
#define VEC_RESERVE_EXACT(v, want)                                            \
	do {                                                                  \
		if ((want) > (v).cap) {                                       \
			(v).a = xreallocarray((v).a, (want), sizeof(*(v).a)); \
			(v).cap = (want);                                     \
		}                                                             \
	} while (0)
#define VEC_PUSH(v, x)                                                        \
	do {                                                                  \
		VEC_RESERVE(v, (v).n + 1);                                    \
		(v).a[(v).n++] = (x);                                         \
	} while (0)
#define VEC_FREE(v) do { free((v).a); (v).a = NULL; (v).n = (v).cap = 0; } while (0)

/* Arena: bump allocator in large blocks, freed all at once. */
struct arena;
struct arena *arena_new(size_t block);
void *arena_alloc(struct arena *a, size_t n);  /* 16-byte aligned, zeroed */
char *arena_strdup(struct arena *a, const char *s);

/* Text from a trace (src/util/text.c): the length of the valid UTF-8 sequence
 * at p (1-4), 0 when the byte there starts none; a copy of s (caller frees)
 * with every byte of an invalid sequence and of a control character (C0, DEL,
 * C1) written as the four characters \xNN; the same copy in an arena. */
size_t tc_utf8_len(const unsigned char *p);
char *tc_clean_text(const char *s);
char *arena_clean(struct arena *a, const char *s);
/* Line k (from 0) of UTF-8 text s wrapped at spaces to w columns, a word
 * longer than w cut: where it starts and its bytes; returns the number of
 * lines.  The spaces at a break belong to no line. */
int tc_wrap(const char *s, int w, int k, const char **line, int *bytes);
size_t arena_used(const struct arena *a);
void arena_free(struct arena *a);

/* String buffer. */
struct strbuf { char *s; size_t len, cap; };
void sb_init(struct strbuf *b);
void sb_add(struct strbuf *b, const char *s);
void sb_addn(struct strbuf *b, const char *s, size_t n);
void sb_addc(struct strbuf *b, char c);
void sb_printf(struct strbuf *b, const char *fmt, ...) TC_PRINTF(2, 3);
char *sb_detach(struct strbuf *b);
void sb_free(struct strbuf *b);

/* Streaming JSON writer with correct commas, escaping and finite numbers. */
struct json {
	FILE *f;
	int depth;
	bool first[64];   /* per nesting level: no element written yet */
	bool after_key;
	int indent;       /* 0 = compact, else spaces per level */
};
void json_init(struct json *j, FILE *f, int indent);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_int(struct json *j, int64_t v);
void json_uint(struct json *j, uint64_t v);
void json_num(struct json *j, double v);   /* non-finite → null */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
void json_finish(struct json *j);          /* newline at the end */
/* key + value shorthands */
void json_kstr(struct json *j, const char *k, const char *s);
void json_kint(struct json *j, const char *k, int64_t v);
void json_kuint(struct json *j, const char *k, uint64_t v);
void json_knum(struct json *j, const char *k, double v);
void json_kbool(struct json *j, const char *k, bool v);
/* "k": [a[0], ..., a[n-1]] */
void json_kuint32s(struct json *j, const char *k, const uint32_t *a, size_t n);

/* qsort comparison of uint32_t, ascending. */
int tc_cmp_u32(const void *a, const void *b);
/* a[0..n) in ascending order (tc_cmp_u32's), by radix. */
void tc_sort_u32(uint32_t *a, size_t n);
/* First index of sorted a[0..n) whose value is >= key (n if none). */
size_t tc_lower_bound_u32(const uint32_t *a, size_t n, uint32_t key);
/* The same for uint64_t. */
int tc_cmp_u64(const void *a, const void *b);
size_t tc_lower_bound_u64(const uint64_t *a, size_t n, uint64_t key);
/* qsort comparator of doubles, ascending. */
int tc_cmp_double(const void *a, const void *b);
/* The median of v[0..n) (the mean of the two middle values when n is even) by
 * selection, in linear time; reorders v.  NAN when n = 0. */
double tc_median(double *v, size_t n);
/* The k-th smallest of v[0..n) (k clipped to n - 1) by selection; reorders v.
 * NAN when n = 0.  The lower quartile is tc_kth(v, n, n / 4). */
double tc_kth(double *v, size_t n, size_t k);

/* Rank sets printed as compressed ranges: "0-3,8,10-12". */
void fmt_ranges(struct strbuf *b, const uint32_t *sorted, size_t n);

/* Human-readable durations and sizes: "12.3 ms", "4.0 MiB". */
void fmt_seconds(char *buf, size_t n, double s);
/* A point in time (seconds from the trace start) to the microsecond: "1.549712 s". */
void fmt_time(char *buf, size_t n, double s);
void fmt_bytes(char *buf, size_t n, uint64_t bytes);

/* Parallel loop: fn(ctx, i, tid) for every i in [0, n), on up to `threads`
 * threads (tid in [0, threads), the caller is tid 0); order is not defined,
 * so fn must only write what index i owns or what thread tid owns. */
#define TC_MAX_THREADS 64
void tc_parallel_for(uint32_t n, int threads, void (*fn)(void *ctx, uint32_t i, int tid), void *ctx);

/* Number of online CPUs (≥ 1). Monotonic wall clock in seconds. */
int tc_ncpus(void);
double tc_now(void);
void tc_sleep(double secs);   /* the whole time, a signal or not */
/* Peak resident set size of this process in bytes (getrusage). */
uint64_t tc_peak_rss(void);
/* This process's CPU time so far (user + system, every thread) and its minor
 * page faults (getrusage). */
struct tc_usage { double cpu; uint64_t minflt; };
struct tc_usage tc_usage(void);
/* Fault in the pages of [p, p + len) for writing in one system call
 * (MADV_POPULATE_WRITE, Linux >= 5.14), cheaper than a page fault per page on
 * first touch; a no-op where unsupported.  Only for memory about to be written. */
void tc_prefault(void *p, size_t len);
size_t tc_page_size(void);
/* Fault in items [n, min(n + batch, cap)) of `size` bytes at base; returns
 * that end (the mark up to which items are ready). */
size_t tc_prefault_ahead(void *base, size_t n, size_t cap, size_t size, size_t batch);
/* An array in its own anonymous mapping: page-aligned, grown by mremap (no
 * copy), so that its pages can be handed to another such array whole.  Zero
 * = empty.  cap is in bytes (a multiple of the page size). */
struct tc_pages { char *p; size_t cap; };
/* Transparent huge pages only when TRACECOMB_HUGE_PAGES=1 is set: then a
 * tc_pages array of TC_HUGE_PAGE or more is aligned to it and advised
 * MADV_HUGEPAGE, and so is every xmalloc/xcalloc/xrealloc block of twice that
 * (ordinary pages where the kernel refuses).  Off by default: on a virtual
 * machine that reports free memory to its host, a fresh huge page is memory
 * the host must back again; after a few idle seconds their best runs were
 * up to 8 % faster, but about one run in three took 20-100 % more CPU
 * (docs/model.md, "Memory", session 23). */
#define TC_HUGE_PAGE ((size_t)2 << 20)
bool tc_huge_pages(void);
void tc_set_huge_pages(bool on);   /* instead of the variable (tests) */
void tc_pages_reserve(struct tc_pages *a, size_t bytes);      /* contents kept */
void tc_pages_shrink(struct tc_pages *a, size_t bytes);       /* unmaps whole pages past bytes */
void tc_pages_free(struct tc_pages *a);
/* Room for item `used` of `size` bytes, the next `batch` items faulted in
 * (*ready = index up to which they are); returns a->p. */
void *tc_pages_room(struct tc_pages *a, size_t used, size_t size, size_t batch, size_t *ready);
/* Move the first len bytes of src to byte off of dst (off + len <= dst->cap):
 * src's pages are remapped into dst after shifting them to off's place in its
 * page (in parallel on `threads`), so nothing is faulted in anew; short
 * arrays are copied.  src is left empty.  Afterwards dst may span several
 * mappings: it is only shrunk or freed (tc_pages_shrink, tc_pages_free). */
bool tc_pages_move(struct tc_pages *dst, size_t off, struct tc_pages *src, size_t len, int threads);

/* Room for one more item at v.a[v.n] of a growing VEC whose next `batch`
 * items are kept faulted in: `ready` (size_t, 0 at first) is the index up to
 * which that was done (<= v.cap), so the common case is one compare.  The
 * caller then writes v.a[v.n] and increments v.n. */
void *tc_vec_room(void *a, size_t *cap, size_t n, size_t size, size_t batch, size_t *ready);
#define VEC_ROOM(v, ready, batch)                                                   \
	do {                                                                        \
		if ((v).n >= (ready))                                               \
			(v).a = tc_vec_room((v).a, &(v).cap, (v).n, sizeof(*(v).a), (batch), &(ready)); \
	} while (0)

#endif
