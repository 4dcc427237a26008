/* counters.c — a counter (OTF2 METRIC, docs/model.md "Metrics") in the UI:
 * the metric picked with `#` (a->counter) as one time series per rank, drawn
 * by the physical timeline as a strip of sparkline glyphs under its rows and
 * named with its value and rate at the cursor (event line, detail pane).
 *
 * A rank's series is the samples of the metric on the rank's location that
 * has most of them (the master thread for PAPI counters, the "per process
 * metrics" location for Score-P's process metrics), in record (time) order.
 * An accumulated counter is drawn as its rate: its value interpolated
 * linearly between samples, differenced over each column.  Any other counter
 * is drawn as its value: the largest sample in the column, else the last one
 * before it.  Built once per picked metric: O(samples of the trace). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

struct tc_ctrack {
	uint32_t metric;
	bool rate;           /* accumulated: drawn as per-second rate */
	uint32_t *first;     /* nranks + 1 offsets into time, val */
	uint64_t *time;
	double *val;
};

void counter_free(struct tc_app *a)
{
	struct tc_ctrack *c = a->ctr;
	if (!c) return;
	free(c->first);
	free(c->time);
	free(c->val);
	free(c);
	a->ctr = NULL;
}

/* Samples of metric m on location L. */
static uint32_t count_on(const struct tc_loc *L, uint32_t m)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < L->nsamples; i++) n += L->samples[i].metric == m;
	return n;
}

static struct tc_ctrack *build(const struct tc_trace *t, uint32_t m)
{
	struct tc_ctrack *c = xcalloc(1, sizeof *c);
	c->metric = m;
	c->rate = t->metrics[m].mode == TC_MM_ACCUMULATED;
	uint32_t *best = xmalloc(((size_t)t->nranks + 1) * sizeof *best), *bestn = xcalloc((size_t)t->nranks + 1, sizeof *bestn);
	for (uint32_t r = 0; r < t->nranks; r++) best[r] = TC_NONE;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		uint32_t r = t->locs[l].rank;
		if (r >= t->nranks || !t->locs[l].nsamples) continue;
		uint32_t n = count_on(&t->locs[l], m);
		if (n > bestn[r]) { bestn[r] = n; best[r] = l; }
	}
	c->first = xmalloc(((size_t)t->nranks + 1) * sizeof *c->first);
	size_t total = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		c->first[r] = (uint32_t)total;
		total += bestn[r];
	}
	c->first[t->nranks] = (uint32_t)total;
	c->time = xmalloc((total + 1) * sizeof *c->time);
	c->val = xmalloc((total + 1) * sizeof *c->val);
	for (uint32_t r = 0; r < t->nranks; r++) {
		if (best[r] == TC_NONE) continue;
		const struct tc_loc *L = &t->locs[best[r]];
		size_t k = c->first[r];
		for (uint32_t i = 0; i < L->nsamples; i++) {
			if (L->samples[i].metric != m) continue;
			c->time[k] = L->samples[i].time;
			c->val[k++] = tc_sample_value(&L->samples[i]);
		}
	}
	free(best);
	free(bestn);
	return c;
}

static const struct tc_ctrack *track(struct tc_app *a)
{
	if (a->counter == TC_NONE || a->counter >= a->t->nmetrics) return NULL;
	if (a->ctr && a->ctr->metric == a->counter) return a->ctr;
	counter_free(a);
	a->ctr = build(a->t, a->counter);
	return a->ctr;
}

bool counter_next(struct tc_app *a)
{
	const struct tc_trace *t = a->t;
	uint32_t m = a->counter == TC_NONE ? 0 : a->counter + 1;
	while (m < t->nmetrics && !t->metrics[m].nsamples) m++;
	a->counter = m < t->nmetrics ? m : TC_NONE;
	return a->counter != TC_NONE;
}

/* Index of the last sample of rank r at or before time (first[r] − 1 when none). */
static int64_t last_at(const struct tc_ctrack *c, uint32_t r, uint64_t time)
{
	uint32_t lo = c->first[r], hi = c->first[r + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->time[mid] <= time) lo = mid + 1;
		else hi = mid;
	}
	return (int64_t)lo - 1;
}

bool counter_at(struct tc_app *a, uint32_t rank, uint64_t time, double *value, double *rate)
{
	const struct tc_ctrack *c = track(a);
	if (!c || rank >= a->t->nranks || c->first[rank] == c->first[rank + 1]) return false;
	int64_t i = last_at(c, rank, time);
	int64_t f = c->first[rank], e = c->first[rank + 1];
	if (i < f) return false;   /* before its first sample */
	*value = c->val[i];
	/* the rate between the samples around time (the last two at the end) */
	int64_t j = i + 1 < e ? i + 1 : i, k = j - 1;
	*rate = 0;
	if (k >= f && c->time[j] > c->time[k])
		*rate = (c->val[j] - c->val[k]) / ((double)(c->time[j] - c->time[k]) / (double)a->t->res);
	return true;
}

/* The value interpolated at time on rank r (clamped to the first and last sample). */
static double interp(const struct tc_ctrack *c, uint32_t r, uint64_t time)
{
	int64_t i = last_at(c, r, time), f = c->first[r], e = c->first[r + 1];
	if (i < f) return c->val[f];
	if (i + 1 >= e || c->time[i + 1] == c->time[i]) return c->val[i];
	double u = (double)(time - c->time[i]) / (double)(c->time[i + 1] - c->time[i]);
	return c->val[i] + u * (c->val[i + 1] - c->val[i]);
}

/* The cell's value over [lo, hi); false outside the rank's samples. */
static bool cell_value(const struct tc_ctrack *c, const struct tc_trace *t, uint32_t r, uint64_t lo, uint64_t hi,
		       double *v)
{
	uint32_t f = c->first[r], e = c->first[r + 1];
	if (f == e || hi <= c->time[f] || lo > c->time[e - 1]) return false;
	if (c->rate) {
		*v = (interp(c, r, hi) - interp(c, r, lo)) / ((double)(hi - lo) / (double)t->res);
		return true;
	}
	int64_t i = last_at(c, r, lo);
	int64_t j = i < (int64_t)f ? f : i;
	*v = c->val[j];
	for (int64_t k = j + 1; k < e && c->time[k] < hi; k++) *v = TC_MAX(*v, c->val[k]);
	return true;
}

/* 1.23k, 4.56M, 7.8G: three significant digits. */
static void fmt_si(char *buf, size_t n, double v)
{
	static const char *const suf[] = { "", "k", "M", "G", "T", "P" };
	double a = fabs(v);
	int k = 0;
	while (a >= 1000 && k < 5) { a /= 1000; v /= 1000; k++; }
	snprintf(buf, n, a >= 100 || k == 0 ? "%.0f%s" : a >= 10 ? "%.1f%s" : "%.2f%s", v, suf[k]);
}

static const char ascii_ramp[] = "._-=+*#@";

void counter_strip(struct tc_app *a, struct tc_grid *g, int x0, int lw, int y, const uint32_t *ranks, int n,
		   int cols, uint64_t t0, uint64_t t1)
{
	const struct tc_trace *t = a->t;
	const struct tc_ctrack *c = track(a);
	if (!c || cols < 1) return;
	double *v = xmalloc(((size_t)n * (size_t)cols + 1) * sizeof *v);
	uint8_t *has = xcalloc((size_t)n * (size_t)cols + 1, 1);
	double vmin = 0, vmax = 0, dt = (double)(t1 - t0) / cols;
	for (int i = 0; i < n; i++)
		for (int x = 0; x < cols; x++) {
			uint64_t lo = t0 + (uint64_t)(x * dt), hi = t0 + (uint64_t)((x + 1) * dt);
			if (hi <= lo) hi = lo + 1;
			size_t k = (size_t)i * cols + x;
			if (!(has[k] = cell_value(c, t, ranks[i], lo, hi, &v[k]))) continue;
			vmin = TC_MIN(vmin, v[k]);
			vmax = TC_MAX(vmax, v[k]);
		}
	const struct tc_metric_def *m = &t->metrics[c->metric];
	char hi[32], lo[32];
	fmt_si(hi, sizeof hi, vmax);
	fmt_si(lo, sizeof lo, vmin);
	char here[64] = "";
	double cv, cr;
	if (counter_at(a, a->rank, a->time, &cv, &cr)) {
		char b[32];
		fmt_si(b, sizeof b, c->rate ? cr : cv);
		snprintf(here, sizeof here, ", cursor %s", b);
	}
	grid_fill(g, x0 - lw, y, cols + lw, 1, ' ', TC_R_HEADING);
	grid_printf(g, x0 - lw, y, cols + lw, TC_R_HEADING, "%s %s [%s%s] %s .. %s%s (#: next counter)", m->name,
		    c->rate ? "rate" : "value", m->unit, c->rate ? "/s" : "", lo, hi, here);
	for (int i = 0; i < n; i++) {
		grid_printf(g, x0 - lw, y + 1 + i, lw - 1, ranks[i] == a->rank ? TC_R_CURSOR : TC_R_LABEL, "%*u", lw - 1,
			    ranks[i]);
		for (int x = 0; x < cols; x++) {
			size_t k = (size_t)i * cols + x;
			if (!has[k]) continue;
			int lev = vmax > vmin ? (int)ceil(8 * (v[k] - vmin) / (vmax - vmin)) : 8;
			lev = TC_MAX(1, TC_MIN(8, lev));
			uint32_t ch = g->ascii ? (uint32_t)ascii_ramp[lev - 1] : grid_lower_eighth(g, lev);
			grid_put(g, x0 + x, y + 1 + i, ch, TC_R_COUNTER, TC_R_NORMAL, 0);
		}
	}
	free(v);
	free(has);
}

void counter_line(struct tc_app *a, char *buf, size_t n)
{
	buf[0] = 0;
	double v, r;
	if (!counter_at(a, a->rank, a->time, &v, &r)) {
		if (a->counter != TC_NONE && a->counter < a->t->nmetrics)
			snprintf(buf, n, "%s: no sample on rank %u at or before the cursor", a->t->metrics[a->counter].name,
				 a->rank);
		return;
	}
	const struct tc_metric_def *m = &a->t->metrics[a->counter];
	char vs[32], rs[32];
	fmt_si(vs, sizeof vs, v);
	fmt_si(rs, sizeof rs, r);
	snprintf(buf, n, "%s = %s %s (%.17g), rate %s %s/s on rank %u", m->name, vs, m->unit, v, rs, m->unit, a->rank);
}
