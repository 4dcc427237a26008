/* options.c — every `--opt KEY=VALUE` the analyses read, with its type and
 * bounds (docs/options.md lists them).  report_opt_check refuses an unknown
 * key (naming the valid ones), a value of the wrong type and a number out of
 * its bounds, so that no option value reaches an analysis unchecked. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"

enum opt_type { OPT_BOOL, OPT_INT, OPT_NUM, OPT_CHOICE, OPT_SEED };
static const struct report_opt {
	const char *name;
	enum opt_type type;
	double lo, hi;          /* OPT_INT, OPT_NUM: the closed range allowed */
	const char *choices;    /* OPT_CHOICE: "a|b|c" */
} opts[] = {
	{ "coalesce_isends", OPT_BOOL, 0, 0, NULL },
	{ "waitall_merge", OPT_BOOL, 0, 0, NULL },
	{ "caller_merge", OPT_BOOL, 0, 0, NULL },
	{ "leap_merge", OPT_BOOL, 0, 0, NULL },
	{ "lamport", OPT_BOOL, 0, 0, NULL },
	{ "cluster_metric", OPT_CHOICE, 0, 0, "lateness|global_lateness|diff_lateness|duration" },
	{ "cluster_seed", OPT_SEED, 0, 0, NULL },
	{ "cluster_k", OPT_INT, 1, 4096, NULL },
	{ "focus_radius", OPT_INT, 0, 4096, NULL },
	{ "cluster_direct_max", OPT_INT, 2, 16384, NULL },
	{ "cluster_min_sep", OPT_NUM, 0, 1, NULL },
	{ "region_threshold", OPT_NUM, 0, 1e6, NULL },
	{ "region_margin", OPT_NUM, 0, 1e6, NULL },
	{ "region_damping", OPT_NUM, 1e-6, 0.999999, NULL },
	{ "region_depth", OPT_INT, 1, 3, NULL },
	{ "region_ball", OPT_INT, 2, 1e6, NULL },
	{ "region_layers", OPT_CHOICE, 0, 0, "balanced|paper" },
	{ "region_weight", OPT_CHOICE, 0, 0, "messages|bytes|binary" },
	{ "latency_buckets", OPT_CHOICE, 0, 0, "log2|linear" },
	{ "latency_bucket_bytes", OPT_INT, 1, 1e12, NULL },
	{ "latency_min_count", OPT_INT, 1, 1e9, NULL },
	{ "latency_high", OPT_NUM, 1e-9, 1e9, NULL },
	{ "windows", OPT_INT, 0, 10000, NULL },
	{ "steady_level", OPT_NUM, 0, 1e6, NULL },
	{ "steady_min", OPT_INT, 1, 1e6, NULL },
	{ "growth_min", OPT_NUM, 0, 1e6, NULL },
	{ "threads", OPT_INT, 0, 256, NULL },
	{ "verdict_min_confidence", OPT_NUM, 0, 1, NULL },
	{ "dag_max_msgs", OPT_INT, 0, 1e7, NULL },
	{ "dag_region", OPT_INT, 0, 4e9, NULL },
	{ "dag_window", OPT_INT, 0, 10000, NULL },
	{ "span", OPT_CHOICE, 0, 0, "app|all" },
	{ "latency_span", OPT_BOOL, 0, 0, NULL },
	{ "rc_mad_k", OPT_NUM, 0, 1e6, NULL },
	{ "rc_median_frac", OPT_NUM, 0, 1e6, NULL },
	{ "rc_floor_s", OPT_NUM, 0, 1e6, NULL },
	{ "cp_max_segments", OPT_INT, 1, 1e9, NULL },
	{ "limit", OPT_INT, 0, 1e9, NULL },
};

static bool is_bool(const char *v)
{
	static const char *const words[] = { "on", "off", "yes", "no", "true", "false", "1", "0" };
	for (size_t i = 0; i < TC_NELEM(words); i++)
		if (!strcasecmp(v, words[i])) return true;
	return false;
}

static bool is_choice(const char *v, const char *choices)
{
	size_t n = strlen(v);
	for (const char *c = choices; *c;) {
		size_t k = strcspn(c, "|");
		if (k == n && !strncmp(c, v, n)) return true;
		c += k + (c[k] == '|');
	}
	return false;
}

/* Why VALUE is not a valid value of o, or NULL. */
static char *bad_value(const struct report_opt *o, const char *v)
{
	char *end;
	switch (o->type) {
	case OPT_BOOL:
		return is_bool(v) ? NULL : xasprintf("takes on or off");
	case OPT_CHOICE:
		return is_choice(v, o->choices) ? NULL : xasprintf("takes one of %s", o->choices);
	case OPT_SEED:
		errno = 0;
		if (*v && *v != '-' && (strtoull(v, &end, 0), !*end && !errno)) return NULL;
		return xasprintf("takes a non-negative integer below 2^64");
	case OPT_INT:
	case OPT_NUM: {
		errno = 0;
		double x = *v ? strtod(v, &end) : NAN;
		bool ok = *v && !*end && !errno && isfinite(x) && x >= o->lo && x <= o->hi &&
			  (o->type == OPT_NUM || x == floor(x));
		return ok ? NULL : xasprintf("takes %s from %g to %g", o->type == OPT_INT ? "an integer" : "a number",
					    o->lo, o->hi);
	}
	}
	return NULL;
}

bool report_opt_check(const char *kv, char **err)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : strlen(kv);
	for (size_t i = 0; i < TC_NELEM(opts); i++) {
		if (strlen(opts[i].name) != n || strncmp(opts[i].name, kv, n)) continue;
		if (!eq) {
			*err = xasprintf("--opt %s: no value (KEY=VALUE)", opts[i].name);
			return false;
		}
		char *why = bad_value(&opts[i], eq + 1);
		if (!why) return true;
		*err = xasprintf("--opt %s=%s: %s %s", opts[i].name, eq + 1, opts[i].name, why);
		free(why);
		return false;
	}
	struct strbuf b;
	sb_init(&b);
	for (size_t i = 0; i < TC_NELEM(opts); i++) sb_printf(&b, "%s%s", i ? ", " : "", opts[i].name);
	*err = xasprintf("--opt %.*s: unknown option; valid: %s", (int)TC_MIN(n, 200), kv, b.s);
	sb_free(&b);
	return false;
}
