/* ident.c — what a cache file belongs to (the archive's identity: its files'
 * sizes and mtimes, the options, the version and layout), where it lives by
 * default, and the model's size in memory.  docs/cache.md, "Identity". */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis_profile.h"
#include "analysis_span.h"
#include "analysis_steps.h"
#include "analysis_waitstate.h"
#include "format.h"

#define SIZES(X)                                                                          \
	X(struct tc_trace) X(struct tc_rank) X(struct tc_loc) X(struct tc_call) X(struct tc_op) \
	X(struct tc_msg) X(struct tc_coll) X(struct tc_coll_member) X(struct tc_sample)         \
	X(struct tc_xfer) X(struct tc_region) X(struct tc_comm) X(struct tc_metric_def)         \
	X(struct tc_node) X(struct tc_steps) X(struct tc_cev) X(struct tc_partition)            \
	X(struct tc_step_sum) X(struct tc_slot) X(struct tc_span) X(void *) X(struct tc_cache_header)   \
	X(struct tc_cache_blob_ent) X(struct tc_waitstates) X(struct tc_wait) X(struct tc_profile)     \
	X(struct tc_prof_region) X(struct tc_prof_cell) X(struct tc_rc_ctx) X(struct tc_cp_piece)       \
	X(struct tc_cache_rc)

void tc_cache_layout_text(char *buf, size_t n)
{
#define SZ(T) (unsigned)sizeof(T),
	unsigned sz[] = { SIZES(SZ) };
#undef SZ
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < TC_NELEM(sz) && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%u", i ? "," : "", sz[i]);
}

uint64_t tc_cache_layout(void)
{
	char buf[256];
	tc_cache_layout_text(buf, sizeof buf);
	return tc_hash64(buf, strlen(buf), TC_CACHE_FORMAT);
}

/* "key\tsize mtime_ns" of one file; false when it cannot be stat'ed. */
static bool file_line(struct strbuf *b, const char *key, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) return false;
	sb_printf(b, "%s\t%llu %lld%09ld\n", key, (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
		  st.st_mtim.tv_nsec);
	return true;
}

static int def_or_evt(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return n > 4 && (!strcmp(e->d_name + n - 4, ".def") || !strcmp(e->d_name + n - 4, ".evt"));
}

/* The archive's files: <name>.def beside the anchor, <name>/ *.def and *.evt, sorted. */
static void archive_lines(struct strbuf *b, const char *real_anchor)
{
	size_t n = strlen(real_anchor);
	char *stem = xstrdup(real_anchor);
	if (n > 5 && !strcmp(stem + n - 5, ".otf2")) stem[n - 5] = 0;
	const char *base = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
	char *gdef = xasprintf("%s.def", stem), *key = xasprintf("file %s.def", base);
	if (!file_line(b, key, gdef)) sb_printf(b, "file %s.def\tmissing\n", base);
	free(gdef), free(key);
	struct dirent **list = NULL;
	int k = scandir(stem, &list, def_or_evt, alphasort);
	for (int i = 0; i < k; i++) {
		char *path = xasprintf("%s/%s", stem, list[i]->d_name);
		key = xasprintf("file %s/%s", base, list[i]->d_name);
		if (!file_line(b, key, path)) sb_printf(b, "%s\tmissing\n", key);
		free(path), free(key), free(list[i]);
	}
	free(list);
	free(stem);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The options that change results, sorted, the last of a key kept, limit out. */
static void opts_line(struct strbuf *b, const char *const *opts, size_t nopts)
{
	const char **keep = xcalloc(nopts + 1, sizeof *keep);
	size_t n = 0;
	for (size_t i = nopts; i-- > 0;) {
		size_t klen = strcspn(opts[i], "=");
		bool seen = !strncmp(opts[i], "limit=", 6);
		for (size_t j = 0; j < n && !seen; j++) seen = !strncmp(keep[j], opts[i], klen) && keep[j][klen] == '=';
		if (!seen) keep[n++] = opts[i];
	}
	qsort(keep, n, sizeof *keep, cmp_str);
	sb_add(b, "opts\t");
	for (size_t i = 0; i < n; i++) sb_printf(b, "%s%s", i ? " " : "", keep[i]);
	sb_add(b, n ? "\n" : "(none)\n");
	free(keep);
}

char *tc_cache_identity(const char *anchor, const char *const *opts, size_t nopts, char **err)
{
	char real[PATH_MAX];
	if (!realpath(anchor, real)) {
		*err = xasprintf("%s: %s", anchor, strerror(errno));
		return NULL;
	}
	struct strbuf b = { 0 };
	char layout[256];
	tc_cache_layout_text(layout, sizeof layout);
	sb_printf(&b, "format\t%u\nversion\t%s\nlayout\t%s\n", TC_CACHE_FORMAT, TC_VERSION, layout);
	sb_printf(&b, "path\t%s\n", real);   /* first: another archive is said as such */
	if (!file_line(&b, "anchor", real)) sb_add(&b, "anchor\tmissing\n");
	archive_lines(&b, real);
	opts_line(&b, opts, nopts);
	return sb_detach(&b);
}

/* The line of s (NUL- or newline-terminated) at p, as a new string. */
static char *line_at(const char *p)
{
	size_t n = strcspn(p, "\n");
	char *l = xmalloc(n + 1);
	memcpy(l, p, n);
	l[n] = 0;
	return l;
}

/* The reason for the first line where old and now part: the same key with
 * another value ("traces/3.evt changed"), or a key only one side has. */
char *tc_cache_ident_diff(const char *old, const char *now)
{
	const char *a = old, *b = now;
	while (*a && *b) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
		if (la != lb || memcmp(a, b, la)) break;
		a += la + (a[la] == '\n'), b += lb + (b[lb] == '\n');
	}
	char *la = line_at(a), *lb = line_at(b), *why;
	char *ta = strchr(la, '\t'), *tb = strchr(lb, '\t');
	if (ta) *ta++ = 0;
	if (tb) *tb++ = 0;
	const char *ka = la, *kb = lb;
	bool file_a = !strncmp(ka, "file ", 5), file_b = !strncmp(kb, "file ", 5);
	if (!*ka && !*kb) why = xstrdup("identity differs");
	else if (!strcmp(ka, kb) && file_a) why = xasprintf("%s changed", ka + 5);
	else if (!strcmp(ka, kb) && !strcmp(ka, "opts"))
		why = xasprintf("other options: cache %s, now %s", ta ? ta : "?", tb ? tb : "?");
	else if (!strcmp(ka, kb) && !strcmp(ka, "path")) why = xasprintf("made for another archive, %s", ta ? ta : "?");
	else if (!strcmp(ka, kb)) why = xasprintf("%s changed", ka);
	else if (file_a && (!file_b || strcmp(ka, kb) < 0)) why = xasprintf("%s removed", ka + 5);
	else if (file_b) why = xasprintf("%s added", kb + 5);
	else why = xasprintf("%s differs", *ka ? ka : kb);
	free(la), free(lb);
	return why;
}

bool tc_cache_mkdir(const char *dir)
{
	char *p = xstrdup(dir);
	bool ok = true;
	for (char *s = p + 1; ok; s++) {
		bool end = !*s;
		if (*s != '/' && !end) continue;
		*s = 0;
		ok = mkdir(p, 0700) == 0 || errno == EEXIST;
		if (end) break;
		*s = '/';
	}
	struct stat st;
	if (ok && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
		ok = false;
		errno = ENOTDIR;
	}
	free(p);
	return ok;
}

char *tc_cache_default_path(const char *anchor, char **dir, char **err)
{
	char real[PATH_MAX];
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	*dir = NULL;
	if (!realpath(anchor, real)) {
		*err = xasprintf("%s: %s", anchor, strerror(errno));
		return NULL;
	}
	if (xdg && *xdg == '/') *dir = xasprintf("%s/tracecomb", xdg);
	else if (home && *home) *dir = xasprintf("%s/.cache/tracecomb", home);
	else {
		*err = xstrdup("neither XDG_CACHE_HOME nor HOME is set");
		return NULL;
	}
	/* <archive directory's name>-<hash of the real anchor path>.tcc */
	char *d = xstrdup(real), *slash = strrchr(d, '/');
	if (slash) *slash = 0;
	const char *name = strrchr(d, '/') ? strrchr(d, '/') + 1 : d;
	char *path = xasprintf("%s/%.40s-%016llx.tcc", *dir, *name ? name : "trace",
			       (unsigned long long)tc_hash64(real, strlen(real), 0));
	free(d);
	return path;
}

char *tc_cache_default_place(const char *anchor, char **err)
{
	char *dir = NULL, *path = tc_cache_default_path(anchor, &dir, err);
	if (path && !tc_cache_mkdir(dir)) {
		*err = xasprintf("cannot create the cache directory %s: %s", dir, strerror(errno));
		free(path);
		path = NULL;
	}
	free(dir);
	return path;
}

uint64_t tc_trace_bytes(const struct tc_trace *t)
{
	uint64_t b = sizeof *t + (uint64_t)t->nranks * sizeof *t->ranks + (uint64_t)t->nlocs * sizeof *t->locs;
	for (uint32_t i = 0; i < t->nlocs; i++) {
		const struct tc_loc *L = &t->locs[i];
		b += (uint64_t)L->ncalls * sizeof *L->calls + (uint64_t)L->nsamples * sizeof *L->samples +
		     (uint64_t)L->nxfers * sizeof *L->xfers + (L->name ? strlen(L->name) + 1 : 0);
	}
	for (uint32_t r = 0; r < t->nranks; r++) {
		const struct tc_rank *R = &t->ranks[r];
		b += (uint64_t)R->nops * sizeof *R->ops + ((uint64_t)R->nsend_msgs + R->nrecv_msgs) * sizeof(uint32_t);
	}
	b += (uint64_t)t->nmsgs * sizeof *t->msgs + (uint64_t)t->ncolls * sizeof *t->colls;
	for (size_t c = 0; c < t->ncolls; c++) b += (uint64_t)t->colls[c].n * sizeof *t->coll_members;
	for (uint32_t i = 0; i < t->nregions; i++) b += sizeof *t->regions + strlen(t->regions[i].name) + 1;
	for (uint32_t i = 0; i < t->ncomms; i++)
		b += sizeof *t->comms + (uint64_t)t->comms[i].size * 4 + (t->comms[i].name ? strlen(t->comms[i].name) + 1 : 0);
	for (uint32_t i = 0; i < t->nnodes; i++) b += sizeof *t->nodes + (t->nodes[i].name ? strlen(t->nodes[i].name) + 1 : 0);
	b += (uint64_t)t->nmetrics * sizeof *t->metrics;
	return b;
}

bool tc_cache_is_file(const char *path)
{
	char magic[8];
	FILE *f = fopen(path, "rb");
	bool yes = f && fread(magic, 1, 8, f) == 8 && !memcmp(magic, TC_CACHE_MAGIC, 8);
	if (f) fclose(f);
	return yes;
}
