/* pack.c — `pack DIR OUT [MAXEVT]`: one real OTF2 archive (DIR/traces.otf2,
 * DIR/traces.def, DIR/traces/N.def|evt) as one reader fuzz input (archive.h).
 * MAXEVT (default all) keeps only the first MAXEVT locations' files, so that
 * a large archive still gives a small seed. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"

static int put_file(FILE *out, uint8_t kind, uint64_t ref, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) return -1;
	static uint8_t buf[1 << 22];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	fz_put_header(out, kind, ref, (uint32_t)n);
	fwrite(buf, 1, n, out);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: pack DIR OUT [MAXLOCS]\n");
		return 1;
	}
	size_t maxlocs = argc > 3 ? strtoul(argv[3], NULL, 10) : (FZ_MAX_FILES - 2) / 2;
	char p[4096];
	FILE *out = fopen(argv[2], "wb");
	if (!out) { perror(argv[2]); return 1; }
	snprintf(p, sizeof p, "%s/traces.otf2", argv[1]);
	if (put_file(out, FZ_ANCHOR, 0, p)) { perror(p); return 1; }
	snprintf(p, sizeof p, "%s/traces.def", argv[1]);
	if (put_file(out, FZ_GDEF, 0, p)) { perror(p); return 1; }
	snprintf(p, sizeof p, "%s/traces", argv[1]);
	DIR *d = opendir(p);
	if (!d) { perror(p); return 1; }
	uint64_t refs[4096];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 4096) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".evt")) refs[n++] = strtoull(e->d_name, NULL, 10);
	}
	closedir(d);
	qsort(refs, n, sizeof *refs, cmp_u64);
	for (size_t i = 0; i < n && i < maxlocs; i++) {
		snprintf(p, sizeof p, "%s/traces/%llu.def", argv[1], (unsigned long long)refs[i]);
		put_file(out, FZ_LDEF, refs[i], p);
		snprintf(p, sizeof p, "%s/traces/%llu.evt", argv[1], (unsigned long long)refs[i]);
		put_file(out, FZ_EVT, refs[i], p);
	}
	return fclose(out) ? 1 : 0;
}
