/* metrics.c — counters (OTF2 METRIC records) in the model: their definitions
 * and one time series per location (docs/model.md, "Metrics").  Kept apart
 * from the calls and messages: an archive without metrics pays nothing. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

uint32_t tc_def_metric(struct tc_trace *t, const char *name, const char *unit, enum tc_metric_mode mode,
		       uint8_t timing, enum tc_metric_vtype vtype)
{
	struct tc_metric_def m = {
		.name = arena_clean(t->arena, name ? name : ""),
		.unit = arena_clean(t->arena, unit ? unit : ""),
		.mode = (uint8_t)(mode <= TC_MM_OTHER ? mode : TC_MM_OTHER),
		.timing = timing,
		.vtype = (uint8_t)(vtype <= TC_MV_DOUBLE ? vtype : TC_MV_UINT64),
	};
	VEC_PUSH(t->b->metrics, m);
	return (uint32_t)t->b->metrics.n - 1;
}

void tcb_seen(struct tc_trace *t, uint32_t loc, uint64_t time)
{
	struct locb *b = &t->b->lb.a[loc];
	if (time > b->seen_time) b->seen_time = time;
}

void tcb_metric(struct tc_trace *t, uint32_t loc, uint64_t time, uint32_t metric, enum tc_metric_vtype vtype,
		union tc_mvalue v)
{
	struct locb *b = &t->b->lb.a[loc];
	tcb_seen(t, loc, time);
	if (metric == TC_NONE) return;
	if (metric >= (1u << 24)) metric = (1u << 24) - 1;   /* past any defined metric: dropped at finish */
	uint64_t seq = b->count[TC_EV_ENTER] + b->count[TC_EV_LEAVE];
	struct tc_sample s = { .time = time, .metric = metric, .vtype = (uint8_t)vtype,
			       .seq = (uint32_t)TC_MIN(seq, (uint64_t)UINT32_MAX), .v = v };
	VEC_PUSH(b->samples, s);
}

void tc_finish_metrics(struct tc_trace *t)
{
	struct tc_build *B = t->b;
	uint64_t bad = 0;
	for (uint32_t l = 0; l < t->nlocs; l++) {
		struct locb *b = &B->lb.a[l];
		struct tc_loc *L = &t->locs[l];
		L->last_record = TC_MAX(b->last_time, b->seen_time);
		size_t k = 0;
		for (size_t i = 0; i < b->samples.n; i++) {
			if (b->samples.a[i].metric >= B->metrics.n) { bad++; continue; }
			B->metrics.a[b->samples.a[i].metric].nsamples++;
			b->samples.a[k++] = b->samples.a[i];
		}
		L->samples = b->samples.a;
		L->nsamples = (uint32_t)k;
		b->samples.a = NULL;
		b->samples.n = b->samples.cap = 0;
	}
	t->metrics = B->metrics.a;
	t->nmetrics = (uint32_t)B->metrics.n;
	B->metrics.a = NULL;
	B->metrics.n = B->metrics.cap = 0;
	if (B->dist) { /* samples of the whole trace */
		uint64_t *v = xmalloc((t->nmetrics + 1) * sizeof *v);
		for (uint32_t m = 0; m < t->nmetrics; m++) v[m] = t->metrics[m].nsamples;
		tc_finish_sum(t, v, t->nmetrics);
		for (uint32_t m = 0; m < t->nmetrics; m++) t->metrics[m].nsamples = v[m];
		free(v);
	}
	tc_finish_sum(t, &bad, 1);
	if (bad) tc_warn(t, "%llu metric samples name a metric that is not defined: ignored", (unsigned long long)bad);
}
