/* archive.c — see archive.h (the archive format, and the report pass the targets share). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive.h"
#include "report.h"

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
	return v;
}

size_t fz_split(const uint8_t *buf, size_t len, struct fz_file *out)
{
	size_t n = 0, at = 0;
	while (n < FZ_MAX_FILES && len - at >= 13) {
		struct fz_file f = { .kind = (uint8_t)(buf[at] % FZ_NKINDS), .ref = get_le(buf + at + 1, 8),
				     .size = (uint32_t)get_le(buf + at + 9, 4) };
		at += 13;
		if (f.size > len - at) f.size = (uint32_t)(len - at);
		f.data = buf + at;
		at += f.size;
		out[n++] = f;
	}
	return n;
}

void fz_put_header(FILE *f, uint8_t kind, uint64_t ref, uint32_t size)
{
	uint8_t h[13];
	h[0] = kind;
	for (int i = 0; i < 8; i++) h[1 + i] = (uint8_t)(ref >> (8 * i));
	for (int i = 0; i < 4; i++) h[9 + i] = (uint8_t)(size >> (8 * i));
	fwrite(h, 1, sizeof h, f);
}

void fz_path(char *buf, size_t n, const char *dir, const struct fz_file *f)
{
	switch (f->kind) {
	case FZ_ANCHOR: snprintf(buf, n, "%s/traces.otf2", dir); break;
	case FZ_GDEF: snprintf(buf, n, "%s/traces.def", dir); break;
	default:
		snprintf(buf, n, "%s/traces/%llu.%s", dir, (unsigned long long)f->ref, f->kind == FZ_LDEF ? "def" : "evt");
	}
}

void fz_report_all(struct tc_session *s, FILE *f)
{
	struct json j;
	json_init(&j, f, 0);
	json_obj_begin(&j);
	for (size_t i = 0; i < report_nsections; i++) {
		json_key(&j, report_sections[i].name);
		report_sections[i].json(s, &j);
	}
	json_obj_end(&j);
	json_finish(&j);
	for (size_t i = 0; i < report_nsections; i++) report_sections[i].text(s, f);
}

static double cpu_start;

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void fz_cpu_begin(void)
{
	cpu_start = cpu_now();
}

void fz_cpu_end(void)
{
	static double limit;
	if (!limit) {
		const char *e = getenv("FUZZ_CPU_SECONDS");
		limit = e && atof(e) > 0 ? atof(e) : 10;
	}
	double used = cpu_now() - cpu_start;
	if (used > limit) {
		fprintf(stderr, "fuzz: one input took %.1f s of CPU time (limit %g s)\n", used, limit);
		abort();
	}
}
