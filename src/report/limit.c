/* limit.c — how long the reports' lists are, and saying so when they are cut
 * (docs/options.md, "limit"). */
#include <stdbool.h>
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

/* Is x after y in ranked order (larger value first, then lower index)?  The
 * indices differ, so the order is total. */
static bool ranked_after(const struct ranked *x, const struct ranked *y)
{
	return ranked_cmp(x, y) > 0;
}

/* Heap of the m first in ranked order seen so far, the last of them at the
 * top (h[0]); x replaces it when x comes before it. */
static void heap_offer(struct ranked *h, size_t m, size_t *nh, struct ranked x)
{
	size_t i;
	if (*nh < m) {
		for (i = (*nh)++; i && ranked_after(&x, &h[(i - 1) / 2]); i = (i - 1) / 2) h[i] = h[(i - 1) / 2];
		h[i] = x;
		return;
	}
	if (!ranked_after(&h[0], &x)) return;
	for (i = 0;;) {
		size_t c = 2 * i + 1;
		if (c >= m) break;
		if (c + 1 < m && ranked_after(&h[c + 1], &h[c])) c++;
		if (!ranked_after(&h[c], &x)) break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* The positive values' indices in ranked order, the first n of them (0: all):
 * a heap of n when it cuts the list (one pass, O(len log n), rather than
 * sorting every positive value to keep a few), else one sort. */
size_t report_top_positive(const double *v, size_t len, size_t n, uint32_t **out, size_t *total)
{
	size_t k = 0;
	for (size_t i = 0; i < len; i++) k += v[i] > 0;
	size_t m = n && n < k ? n : k, nh = 0;
	struct ranked *r = xmalloc((m ? m : 1) * sizeof *r);
	for (size_t i = 0; i < len; i++)
		if (v[i] > 0) {
			struct ranked x = { v[i], (uint32_t)i };
			if (m < k) heap_offer(r, m, &nh, x);
			else r[nh++] = x;
		}
	qsort(r, m, sizeof *r, ranked_cmp);
	*total = k;
	*out = xmalloc((m ? m : 1) * sizeof **out);
	for (size_t i = 0; i < m; i++) (*out)[i] = r[i].i;
	free(r);
	return m;
}
