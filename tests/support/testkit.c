/* testkit.c — helpers shared by the unit tests. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read.h"
#include "testkit.h"

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tk_traces_dir(void)
{
	static char found[PATH_MAX];
	const char *d = getenv("TRACES");
	if (d && *d && is_dir(d)) return d;
	if (found[0]) return found;
	char cwd[PATH_MAX - 32];
	if (!getcwd(cwd, sizeof cwd)) return "../shared/traces";
	for (;;) {
		snprintf(found, sizeof found, "%s/../shared/traces", cwd);
		if (is_dir(found)) return found;
		char *slash = strrchr(cwd, '/');
		if (!slash || slash == cwd) break;
		*slash = '\0';
	}
	snprintf(found, sizeof found, "../shared/traces");
	return found;
}

char *tk_trace_path(const char *name)
{
	return xasprintf("%s/%s", tk_traces_dir(), name);
}

struct tc_trace *tk_load(const char *name, int threads)
{
	char *p = tk_trace_path(name), *err = NULL;
	struct tc_read_opts o = { .threads = threads };
	struct tc_trace *t = tc_read_otf2(p, &o, &err);
	if (!t) fprintf(stderr, "%s: %s\n", p, err ? err : "cannot load");
	free(p);
	free(err);
	return t;
}

char *tk_node_ranks(const struct tc_phase_clusters *ph, uint32_t node)
{
	uint32_t *v = tc_clusters_node_ranks(ph, node);
	struct strbuf b = { 0 };
	fmt_ranges(&b, v, ph->nodes[node].size);
	free(v);
	return sb_detach(&b);
}
