/* limit.c — how long the reports' lists are, and saying so when they are cut
 * (docs/options.md, "limit"). */
#include <stdio.h>
#include <stdlib.h>

#include "report.h"

size_t report_limit(const struct tc_session *s, size_t total, size_t def)
{
	double v = session_opt_num(s, "limit", -1);
	size_t lim = v >= 0 ? (size_t)v : def;
	return lim && lim < total ? lim : total;
}

void report_list_cut_json(struct json *j, const char *name, size_t total, size_t shown)
{
	char k[96];
	snprintf(k, sizeof k, "%s_total", name);
	json_kuint(j, k, total);
	snprintf(k, sizeof k, "%s_truncated", name);
	json_kbool(j, k, shown < total);
}

struct ranked { double v; uint32_t i; };

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->v != y->v) return x->v > y->v ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

size_t report_top_positive(const double *v, size_t len, size_t n, uint32_t **out, size_t *total)
{
	struct ranked *r = xmalloc((len ? len : 1) * sizeof *r);
	size_t k = 0;
	for (size_t i = 0; i < len; i++)
		if (v[i] > 0) r[k++] = (struct ranked){ v[i], (uint32_t)i };
	qsort(r, k, sizeof *r, ranked_cmp);
	*total = k;
	size_t m = n && n < k ? n : k;
	*out = xmalloc((m ? m : 1) * sizeof **out);
	for (size_t i = 0; i < m; i++) (*out)[i] = r[i].i;
	free(r);
	return m;
}
