/* fuzz_reader.c — libFuzzer target: a whole OTF2 archive (anchor, global
 * definitions, local definitions and event files; format in archive.h) is
 * written into a private temporary directory, loaded with the reader, and
 * every report section is computed as text and as JSON (to /dev/null).
 * Any crash, sanitizer report, exit() (tc_oom, tc_fatal), more than 10 s of
 * CPU time (fz_cpu_end), a hang (libFuzzer's -timeout) or an allocation
 * beyond libFuzzer's -malloc_limit_mb is a finding. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "read.h"
#include "report.h"

static char dir[64];
static FILE *devnull;

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(p);
}

static void cleanup(void)
{
	if (dir[0]) nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcfuzz.XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(dir)) { perror("mkdtemp"); abort(); }
	atexit(cleanup);
	devnull = fopen("/dev/null", "w");
	return 0;
}

static void write_archive(const struct fz_file *f, size_t n)
{
	char p[256];
	snprintf(p, sizeof p, "%s/traces", dir);
	nftw(p, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	mkdir(p, 0700);
	for (int k = FZ_ANCHOR; k <= FZ_GDEF; k++) {
		struct fz_file g = { .kind = (uint8_t)k };
		fz_path(p, sizeof p, dir, &g);
		remove(p);
	}
	for (size_t i = 0; i < n; i++) {
		fz_path(p, sizeof p, dir, &f[i]);
		FILE *o = fopen(p, "wb");
		if (!o) continue;
		fwrite(f[i].data, 1, f[i].size, o);
		fclose(o);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_file f[FZ_MAX_FILES];
	size_t n = fz_split(data, size, f);
	write_archive(f, n);
	fz_cpu_begin();
	struct tc_read_opts o = { .threads = 2 };
	char *err = NULL;
	struct tc_trace *t = tc_read_otf2(dir, &o, &err);
	free(err);
	if (t) {
		struct tc_session *s = session_new(t);
		fz_report_all(s, devnull);
		session_free(s);
	}
	fz_cpu_end();
	return 0;
}
