/* job.c — slow analyses off the UI thread.  A view whose data come from a
 * lazily computed session result (wait states, regions, verdicts, clusters,
 * ...) names it with two hooks: ready (is it there?) and prepare (compute
 * it: pure session calls).  The first time such a view is shown, prepare runs
 * in one worker thread while the view says "computing …, q cancels" and the
 * UI keeps answering keys; q leaves the view (the result is still computed
 * and kept for the next visit).  While the worker runs, no view with a
 * prepare hook draws (they could touch the session the worker fills), the
 * others (timelines, overview, calls, detail) use only what was computed
 * before the UI opened.  `render` (not interactive) computes in place. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "ui.h"

struct tc_job {
	pthread_t tid;
	void (*fn)(void *ctx);  /* what runs: a prepare hook (run_prepare), or another caller's */
	void *ctx;
	void (*finish)(struct tc_app *a, void *ctx);   /* on the UI thread once it ran (NULL: nothing) */
	const struct view *v;   /* whose data it computes (NULL: data for a key, app_data_ready) */
	char what[64];          /* its name in the messages */
	double t0;
	int done;               /* set by the worker (atomic) */
};

static void *run(void *arg)
{
	struct tc_job *j = arg;
	j->fn(j->ctx);
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Start fn(ctx) in a worker on behalf of v; false (nothing started) when a worker runs
 * already or no thread can be made. */
bool app_job_start(struct tc_app *a, const struct view *v, const char *what, void (*fn)(void *), void *ctx,
		   void (*done)(struct tc_app *a, void *ctx))
{
	if (a->job) return false;
	struct tc_job *j = xcalloc(1, sizeof *j);
	*j = (struct tc_job){ .fn = fn, .ctx = ctx, .finish = done, .v = v, .t0 = tc_now() };
	snprintf(j->what, sizeof j->what, "%s", what ? what : v ? v->name : "");
	if (pthread_create(&j->tid, NULL, run, j) != 0) {
		free(j);
		return false;
	}
	a->job = j;
	return true;
}

/* A prepare hook as a job function. */
struct prep {
	void (*prepare)(struct tc_session *);
	struct tc_session *s;
};
static void run_prepare(void *ctx)
{
	struct prep *p = ctx;
	p->prepare(p->s);
	free(p);
}

void app_job_poll(struct tc_app *a)
{
	struct tc_job *j = a->job;
	if (!j || !__atomic_load_n(&j->done, __ATOMIC_ACQUIRE)) return;
	pthread_join(j->tid, NULL);
	a->job = NULL;
	if (j->finish) j->finish(a, j->ctx);
	free(j);
}

bool app_busy(const struct tc_app *a)
{
	return a->job != NULL;
}

/* ready or started: true when the data are there now (computed in place
 * when not interactive or when no thread can be had) */
static bool ready_or_start(struct tc_app *a, bool (*ready)(const struct tc_session *),
			   void (*prepare)(struct tc_session *), const struct view *v, const char *what)
{
	if (ready(a->sess)) return true;
	if (a->job) return false;
	if (!a->interactive) {   /* render: in place */
		prepare(a->sess);
		return true;
	}
	struct prep *p = xmalloc(sizeof *p);
	*p = (struct prep){ prepare, a->sess };
	if (!app_job_start(a, v, what, run_prepare, p, NULL)) {   /* no thread: compute here */
		free(p);
		prepare(a->sess);
		return true;
	}
	return false;
}

bool app_view_ready(struct tc_app *a, const struct view *v)
{
	app_job_poll(a);
	if (!v->prepare) return true;
	if (a->job) return false;
	return ready_or_start(a, v->ready, v->prepare, v, v->name);
}

bool app_data_ready(struct tc_app *a, bool (*ready)(const struct tc_session *), void (*prepare)(struct tc_session *),
		    const char *what)
{
	app_job_poll(a);
	return ready_or_start(a, ready, prepare, NULL, what);
}

void app_draw_computing(struct tc_app *a, struct tc_grid *g, struct tc_rect r)
{
	const struct tc_job *j = a->job;
	char line[160];
	if (j && j->v == a->view)
		snprintf(line, sizeof line, "computing %s \u2026 %.1f s (q cancels: back; the result is kept)", j->what,
			 tc_now() - j->t0);
	else if (j)
		snprintf(line, sizeof line, "waiting for %s to finish computing \u2026 (q: back)", j->what);
	else
		snprintf(line, sizeof line, "computing %s \u2026", a->view->name);
	grid_text_elide(g, r.x + 1, r.y + 1, r.w - 1, TC_R_MESSAGE, line);
	grid_text_elide(g, r.x + 1, r.y + 3, r.w - 1, TC_R_LABEL,
			"the timelines (1, 2), overview (3) and calls views answer meanwhile");
}

/* --- the slow data of the views (their ready / prepare hooks) ------------------ */
#define HAS(s, f) (__atomic_load_n(&(s)->f, __ATOMIC_ACQUIRE) != NULL)

bool view_ready_latency(const struct tc_session *s) { return HAS(s, latency); }
bool view_ready_rootcause(const struct tc_session *s) { return HAS(s, rootcause); }
void view_prepare_rootcause(struct tc_session *s) { session_rootcause(s); }
void view_prepare_latency(struct tc_session *s) { session_latency(s); }
bool view_ready_waitstates(const struct tc_session *s) { return HAS(s, waitstates) && HAS(s, rootcause); }
void view_prepare_waitstates(struct tc_session *s)
{
	session_waitstates(s);
	session_rootcause(s);   /* the causing ranks: long-term delay costs */
}
bool view_ready_profile(const struct tc_session *s) { return HAS(s, profile); }
void view_prepare_profile(struct tc_session *s) { session_profile(s); }
bool view_ready_verdicts(const struct tc_session *s) { return HAS(s, latency) && HAS(s, verdicts); }
void view_prepare_verdicts(struct tc_session *s)
{
	session_latency(s);
	session_verdicts(s);
}
bool view_ready_clusters(const struct tc_session *s) { return HAS(s, clusters); }
void view_prepare_clusters(struct tc_session *s) { session_clusters(s); }
