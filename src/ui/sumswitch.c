/* sumswitch.c — changing the metric (m, :metric) or the aggregate blocks (a,
 * :agg) needs the logical summary of the new (metric, aggregates) pair
 * (lsum_build: one pass over the events, 20-30 ms at 15 M events, seconds at
 * 64k ranks × 10⁶ steps).  In the terminal a summary not built yet is built in
 * the worker (src/ui/job.c) while the views keep drawing the current one; the
 * switch happens when it is there.  `render` (not interactive), or no worker
 * free, builds it in place and switches at once. */
#include <stdio.h>
#include <stdlib.h>

#include "ui.h"

struct sum_job {
	const struct tc_steps *st;
	enum tc_metric m;
	bool agg;
	struct tc_lsum *out;
};

static void build(void *ctx)
{
	struct sum_job *j = ctx;
	j->out = lsum_build(j->st, j->m, j->agg);
}

/* The switch itself, on the UI thread: the summary is in the cache. */
static void apply(struct tc_app *a, enum tc_metric m, bool agg)
{
	bool agg_changed = a->show_agg != agg;
	a->metric = m;
	a->show_agg = agg;
	if (agg_changed) {
		app_set_step(a, a->step);
		a->lv.fitted = a->ov.fitted = false;
		app_message(a, false, "aggregate steps %s", agg ? "shown" : "hidden");
	} else {
		app_message(a, false, "metric: %s", app_metric_label(m));
	}
}

static void done(struct tc_app *a, void *ctx)
{
	struct sum_job *j = ctx;
	if (!a->sums[j->m][j->agg]) a->sums[j->m][j->agg] = j->out;
	else lsum_free(j->out);
	a->sum_pending = false;
	apply(a, j->m, j->agg);
	free(j);
}

bool app_switch_summary(struct tc_app *a, enum tc_metric m, bool agg)
{
	if (a->sum_pending) {
		app_message(a, false, "still computing the summary for the last change \u2026");
		return false;
	}
	if (a->sums[m][agg] || !a->interactive) {
		apply(a, m, agg);   /* app_sum builds it on first use when not interactive */
		return true;
	}
	struct sum_job *j = xcalloc(1, sizeof *j);
	*j = (struct sum_job){ .st = a->st, .m = m, .agg = agg };
	char what[64];
	snprintf(what, sizeof what, "the %s summary", app_metric_label(m));
	if (!app_job_start(a, NULL, what, build, j, done)) {   /* a worker runs already: here */
		free(j);
		apply(a, m, agg);
		return true;
	}
	a->sum_pending = true;
	app_message(a, false, "computing %s \u2026 (the views switch when it is ready)", what);
	return false;
}
