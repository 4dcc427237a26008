/* evolution.c — temporal evolution of message latency (paper §5.1): window
 * statistics and the abstraction of a window series into growth periods
 * (sustained rise of mean L), steady-high periods (mean L stays high) and
 * other periods, which keep only their start, mid and end windows. */
#include <math.h>
#include <stdlib.h>

#include "analysis_latency.h"
#include "latency_internal.h"

const char *const tc_period_kind_names[3] = { "other", "growth", "steady_high" };

void lat_win_add(struct tc_lat_win *w, double l, double transfer, bool inter, double high_l)
{
	if (w->n == 0) {
		w->mean_l = 0;
		w->mean_transfer = 0;
		w->max_l = l;
	}
	w->n++;
	w->n_inter += inter;
	w->delayed += l > 1.0;
	w->high += l >= high_l;
	w->mean_l += l;          /* sums until lat_win_finish */
	w->mean_transfer += transfer;
	if (l > w->max_l) w->max_l = l;
}

void lat_win_finish(struct tc_lat_win *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (w[i].n == 0) {
			w[i].mean_l = w[i].mean_transfer = w[i].max_l = NAN;
			continue;
		}
		w[i].mean_l /= w[i].n;
		w[i].mean_transfer /= w[i].n;
	}
}

static void push_period(struct tc_period **v, uint32_t *n, uint32_t *cap, const struct tc_lat_win *w,
			uint8_t kind, uint32_t first, uint32_t last)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	double sum = 0;
	uint64_t cnt = 0;
	for (uint32_t i = first; i <= last; i++)
		if (w[i].n) { sum += w[i].mean_l * w[i].n; cnt += w[i].n; }
	struct tc_period p = { .kind = kind, .first = first, .last = last, .mean_l = cnt ? sum / (double)cnt : NAN };
	/* start, mid, end: the first, middle-most and last windows that have messages */
	p.keep[0] = first;
	p.keep[1] = first + (last - first) / 2;
	p.keep[2] = last;
	if (cnt) {
		uint32_t mid = p.keep[1], best = TC_NONE;
		while (!w[p.keep[0]].n) p.keep[0]++;
		while (!w[p.keep[2]].n) p.keep[2]--;
		for (uint32_t i = p.keep[0]; i <= p.keep[2]; i++)
			if (w[i].n && (best == TC_NONE || (i > mid ? i - mid : mid - i) < (best > mid ? best - mid : mid - best)))
				best = i;
		p.keep[1] = best;
	}
	(*v)[(*n)++] = p;
}

uint32_t tc_lat_periods(const struct tc_lat_win *w, uint32_t nwin, const struct tc_latency_opts *o,
			struct tc_period **out)
{
	uint8_t *kind = xcalloc(nwin ? nwin : 1, 1);
	uint32_t *ne = xmalloc((nwin ? nwin : 1) * sizeof *ne);   /* non-empty windows, in order */
	uint32_t nne = 0;
	for (uint32_t i = 0; i < nwin; i++)
		if (w[i].n) ne[nne++] = i;
	uint32_t smin = o->steady_min ? o->steady_min : 1;

	/* steady high: runs of non-empty windows at or above the level */
	for (uint32_t a = 0; a < nne;) {
		if (!(w[ne[a]].mean_l >= o->steady_level)) { a++; continue; }
		uint32_t b = a;
		while (b + 1 < nne && w[ne[b + 1]].mean_l >= o->steady_level) b++;
		if (b - a + 1 >= smin)
			for (uint32_t i = ne[a]; i <= ne[b]; i++) kind[i] = TC_PERIOD_STEADY_HIGH;
		a = b + 1;
	}
	/* growth: outside steady-high, runs where no step falls by more than eps,
	 * starting where the rise starts, at least two steps, rising ≥ growth_min */
	double eps = o->growth_min / 4;
	for (uint32_t a = 0; a < nne;) {
		if (kind[ne[a]]) { a++; continue; }
		uint32_t b = a;
		while (b + 1 < nne && !kind[ne[b + 1]] && w[ne[b + 1]].mean_l - w[ne[b]].mean_l > -eps) b++;
		uint32_t s = a;
		while (s < b && w[ne[s + 1]].mean_l <= w[ne[s]].mean_l) s++;
		uint32_t e = b;
		while (e > s && w[ne[e]].mean_l <= w[ne[e - 1]].mean_l) e--;
		if (e >= s + 2 && w[ne[e]].mean_l - w[ne[s]].mean_l >= o->growth_min)
			for (uint32_t i = ne[s]; i <= ne[e]; i++) kind[i] = TC_PERIOD_GROWTH;
		a = b + 1;
	}
	/* empty windows between two windows of one period belong to it */
	for (uint32_t j = 0; j + 1 < nne; j++)
		if (kind[ne[j]] && kind[ne[j]] == kind[ne[j + 1]])
			for (uint32_t i = ne[j] + 1; i < ne[j + 1]; i++) kind[i] = kind[ne[j]];

	struct tc_period *v = NULL;
	uint32_t n = 0, cap = 0;
	for (uint32_t a = 0; a < nwin;) {
		uint32_t b = a;
		while (b + 1 < nwin && kind[b + 1] == kind[a]) b++;
		push_period(&v, &n, &cap, w, kind[a], a, b);
		a = b + 1;
	}
	free(kind);
	free(ne);
	*out = v;
	return n;
}
