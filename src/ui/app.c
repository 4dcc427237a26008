/* app.c — UI state shared by every view: one cursor {rank, step, time} and
 * one selection, the rank filter and search, the view stack (Enter pushes,
 * Esc pops), the `:` command line, and the frame around the views (title
 * bar, key bar, messages).  No curses: the same code draws `render` output. */
#include "analysis_origins.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis_span.h"
#include "ui.h"

void app_init(struct tc_app *a, struct tc_session *s, const char *trace_name, bool utf8, bool color)
{
	memset(a, 0, sizeof *a);
	a->sess = s;
	a->t = s->t;
	a->st = session_steps(s);
	session_span(s);   /* computed here, before any worker (src/ui/job.c) may run */
	a->trace_name = trace_name;
	a->utf8 = utf8;
	a->color = color;
	a->show_agg = true;
	a->metric = TC_M_LATENESS;
	a->vis = xmalloc(((size_t)a->t->nranks + 1) * sizeof *a->vis);
	for (uint32_t r = 0; r < a->t->nranks; r++) a->vis[r] = r;
	a->nvis = a->t->nranks;
	a->rank_sel = xcalloc((size_t)a->t->nranks + 1, 1);
	a->lv.xpc = a->lv.rpr = 1;
	a->ov.xpc = 1;
	app_fit_time(a);
	a->view = &view_logical;
	a->lat_region = TC_NONE;
	a->pt_at = a->pt_from = TC_NONE;
	a->counter = TC_NONE;
	theme_builtin(&a->theme);
	/* start on the first event of rank 0 */
	a->step = 0;
	if (a->t->nranks && a->st->rank_first[1] > a->st->rank_first[0]) a->step = a->st->cevs[0].step;
	app_set_step(a, a->step);
}

void app_free(struct tc_app *a)
{
	for (size_t i = 0; i < tc_nmain_views; i++)
		if (tc_main_views[i]->free_state) tc_main_views[i]->free_state(a);
	for (int m = 0; m < TC_M_COUNT; m++)
		for (int g = 0; g < 2; g++) lsum_free(a->sums[m][g]);
	free(a->vis);
	free(a->rank_sel);
	free(a->filter);
	free(a->search);
	regex_free(a->search_re);
	free(a->region_match);
	free(a->hits);
	free(a->err_caret);
	free(a->theme_request);
	latview_free(a->latv);
	free(a->latrows.ids);
	free(a->ov.xs);
}

const struct tc_lsum *app_sum(struct tc_app *a)
{
	struct tc_lsum **p = &a->sums[a->metric][a->show_agg];
	if (!*p) *p = lsum_build(a->st, a->metric, a->show_agg);
	return *p;
}

void app_message(struct tc_app *a, bool err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_err = err;
}

void app_select_ranks(struct tc_app *a, const uint32_t *ranks, uint32_t n)
{
	if (a->nrank_sel) memset(a->rank_sel, 0, a->t->nranks);
	a->nrank_sel = 0;
	if (ranks && n) a->filter_tick = ++a->ticks;
	for (uint32_t i = 0; ranks && i < n; i++)
		if (ranks[i] < a->t->nranks && !a->rank_sel[ranks[i]]) {
			a->rank_sel[ranks[i]] = 1;
			a->nrank_sel++;
		}
}

enum tc_role app_map_role(double v, double vmax)
{
	if (!(vmax > 0) || !(v > 0)) return TC_R_MAP0;
	int k = (int)(v / vmax * TC_NMAP);
	if (k >= TC_NMAP) k = TC_NMAP - 1;
	if (k < 0) k = 0;
	return (enum tc_role)(TC_R_MAP0 + k);
}

/* --- cursor --------------------------------------------------------------------- */
uint32_t app_vis_index(const struct tc_app *a, uint32_t rank)
{
	uint32_t lo = (uint32_t)tc_lower_bound_u32(a->vis, a->nvis, rank);
	return lo < a->nvis ? lo : (a->nvis ? a->nvis - 1 : 0);
}

bool app_rank_visible(const struct tc_app *a, uint32_t r)
{
	if (a->nvis == a->t->nranks) return r < a->t->nranks;
	size_t lo = tc_lower_bound_u32(a->vis, a->nvis, r);
	return lo < a->nvis && a->vis[lo] == r;
}

uint32_t app_cursor_cev(const struct tc_app *a)
{
	if (a->rank >= a->t->nranks) return TC_NONE;
	if (a->step < 0) {
		uint32_t f = a->st->rank_first[a->rank];
		return f < a->st->rank_first[a->rank + 1] && a->st->cevs[f].step == 0 ? f : TC_NONE;
	}
	return tc_steps_find(a->st, a->rank, (uint32_t)a->step);
}

void app_step_span(const struct tc_app *a, int64_t step, uint64_t *b, uint64_t *e)
{
	const struct tc_steps *st = a->st;
	*b = a->t->tmin;
	*e = a->t->tmax;
	if (step < 0) {   /* the aggregate before the first events */
		if (st->steps[0].ncevs) *e = st->steps[0].enter_min;
		return;
	}
	if ((uint64_t)step > st->max_step) return;
	const struct tc_step_sum *s = &st->steps[step];
	if (s->ncevs) {
		*b = s->enter_min;
		*e = s->leave_max;
		return;
	}
	/* an aggregate step: from the end of the previous step to the start of the next */
	if (step > 0 && st->steps[step - 1].ncevs) *b = st->steps[step - 1].leave_max;
	if ((uint64_t)step < st->max_step && st->steps[step + 1].ncevs) *e = st->steps[step + 1].enter_min;
	if (*e < *b) { uint64_t t = *b; *b = *e; *e = t; }
}

void app_set_step(struct tc_app *a, int64_t step)
{
	int64_t lo = a->show_agg ? -1 : 0, hi = a->st->max_step;
	if (step < lo) step = lo;
	if (step > hi) step = hi;
	if (!a->show_agg && (step & 1)) step++;
	if (step > hi) step = hi & ~1LL;
	a->step = step;
	uint32_t e = app_cursor_cev(a);
	if (e != TC_NONE) {
		a->time = (step & 1 || step < 0) ? tc_cev_agg_start(a->st, e) : tc_cev_enter(a->st, e);
	} else {
		uint64_t b, en;
		app_step_span(a, step, &b, &en);
		a->time = b;
	}
}

void app_set_time(struct tc_app *a, uint64_t time)
{
	const struct tc_trace *t = a->t;
	if (time < t->tmin) time = t->tmin;
	if (time > t->tmax) time = t->tmax;
	a->time = time;
	const struct tc_steps *st = a->st;
	if (a->rank >= t->nranks) return;
	uint32_t f = st->rank_first[a->rank], l = st->rank_first[a->rank + 1];
	if (f == l) return;
	uint32_t lo = f, hi = l;   /* first cev with enter > time */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (tc_cev_enter(st, mid) <= time) lo = mid + 1;
		else hi = mid;
	}
	int64_t step;
	if (lo > f && time <= tc_cev_leave(st, lo - 1)) step = st->cevs[lo - 1].step;   /* inside an event */
	else if (lo < l) step = (int64_t)st->cevs[lo].step - (a->show_agg ? 1 : 0);   /* its aggregate block */
	else step = st->cevs[l - 1].step;
	if (step < (a->show_agg ? -1 : 0)) step = a->show_agg ? -1 : 0;
	a->step = step;
}

void app_set_rank(struct tc_app *a, uint32_t rank)
{
	if (!a->nvis) return;
	a->rank = a->vis[app_vis_index(a, rank)];
}

/* The cursor went to another rank by itself (the filter hid its rank): one
 * cursor, so in the views along time (physical, calls) the time stays and the
 * step follows, elsewhere the step stays and the time follows (the new rank's
 * event at that step). */
void app_follow_rank(struct tc_app *a)
{
	const struct view *v = app_base_view(a);
	if (v == &view_physical || v == &view_calls) app_set_time(a, a->time);
	else app_set_step(a, a->step);
}

/* --- filter and search ------------------------------------------------------------ */
static bool compile(struct tc_app *a, char prompt, const char *pat, struct tc_regex **out)
{
	char *err = NULL;
	size_t off = 0;
	*out = regex_new(pat, a->utf8, &err, &off);
	if (*out) return true;
	char *full = regex_error_text(pat, err, off);
	char *nl = strchr(full, '\n');
	if (nl) *nl = 0;
	app_message(a, true, "%s", full);
	/* the pattern after its prompt, and a caret under the offset (counted in characters) */
	size_t col = 0;
	for (size_t i = 0; i < off && pat[i]; i++) col += ((unsigned char)pat[i] & 0xc0) != 0x80;
	const char *pr = prompt == 'f' ? "filter: " : prompt == '/' ? "/" : "";
	free(a->err_caret);
	a->err_caret = xasprintf("%s%s\n%*s^", pr, pat, (int)(strlen(pr) + col), "");
	free(full);
	free(err);
	return false;
}

bool app_set_rank_set(struct tc_app *a, const uint32_t *ranks, uint32_t n, const char *label)
{
	const struct tc_trace *t = a->t;
	if (ranks) {
		if (!n) return false;
		for (uint32_t i = 0; i < n; i++)
			if (ranks[i] >= t->nranks || (i && ranks[i] <= ranks[i - 1])) return false;
		memmove(a->vis, ranks, (size_t)n * sizeof *a->vis);
		a->nvis = n;
	} else {
		for (uint32_t r = 0; r < t->nranks; r++) a->vis[r] = r;
		a->nvis = t->nranks;
	}
	a->vis_gen++;
	a->filter_tick = ++a->ticks;
	char *l = ranks ? xstrdup(label && *label ? label : "ranks") : NULL;
	free(a->filter);
	a->filter = l;
	if (!ranks) return true;   /* all ranks again: the rows stay as they are */
	uint32_t was = a->rank;
	app_set_rank(a, a->rank);
	if (a->rank != was) app_follow_rank(a);
	a->lv.top = a->pv.top = 0;
	a->lv.fitted = false;   /* fit the rows to the new set */
	return true;
}

bool app_set_filter(struct tc_app *a, const char *pat)
{
	const struct tc_trace *t = a->t;
	if (!pat || !*pat) {
		app_set_rank_set(a, NULL, 0, NULL);
		app_message(a, false, "filter cleared");
		return true;
	}
	struct tc_regex *re;
	if (!compile(a, 'f', pat, &re)) return false;
	uint8_t *reg = xcalloc(t->nregions + 1, 1);
	for (uint32_t i = 0; i < t->nregions; i++) reg[i] = regex_match(re, tc_region_name(t, i));
	uint8_t *seen = xcalloc(t->nregions + 1, 1);
	uint32_t *keep = xmalloc(((size_t)t->nranks + 1) * sizeof *keep);
	uint32_t n = 0;
	for (uint32_t r = 0; r < t->nranks; r++) {
		char num[16];
		snprintf(num, sizeof num, "%u", r);
		bool match = regex_match(re, num);
		if (!match && t->ranks[r].node < t->nnodes) match = regex_match(re, t->nodes[t->ranks[r].node].name);
		const struct tc_rank *R = &t->ranks[r];
		for (uint32_t c = 0; !match && c < R->ncalls; c++) {
			uint32_t g = R->calls[c].region;
			if (g < t->nregions && !seen[g]) {
				seen[g] = 1;
				match = reg[g];
			}
		}
		for (uint32_t c = 0; c < R->ncalls; c++)
			if (R->calls[c].region < t->nregions) seen[R->calls[c].region] = 0;
		if (match) keep[n++] = r;
	}
	free(reg);
	free(seen);
	regex_free(re);
	bool set = app_set_rank_set(a, keep, n, pat);   /* n == 0: the old filter stays */
	free(keep);
	if (!set) {
		app_message(a, true, "no rank matches /%s/ (filter unchanged)", pat);
		return false;
	}
	app_message(a, false, "filter /%s/: %u of %u ranks", pat, n, t->nranks);
	return true;
}

static void build_hits(struct tc_app *a);

bool app_set_search(struct tc_app *a, const char *pat)
{
	struct tc_regex *re;
	if (!compile(a, '/', pat, &re)) return false;
	regex_free(a->search_re);
	a->search_re = re;
	free(a->search);
	a->search = xstrdup(pat);
	free(a->region_match);
	a->region_match = xcalloc(a->t->nregions + 1, 1);
	for (uint32_t i = 0; i < a->t->nregions; i++) a->region_match[i] = regex_match(re, tc_region_name(a->t, i));
	build_hits(a);
	return app_search_next(a, false);
}

/* Search hits: the calls of the visible ranks whose region matches, one hit
 * per logical step (the earliest of the step's matching calls: a collective
 * is one hit, not one per rank); calls without a step are hits of their own.
 * In time order, ties by rank.  O(calls of the visible ranks), once per
 * search and filter. */
struct hitkey { int64_t key; uint64_t time; uint32_t rank; };

static int hitkey_cmp(const void *p, const void *q)
{
	const struct hitkey *x = p, *y = q;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	if (x->time != y->time) return x->time < y->time ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int hit_cmp(const void *p, const void *q)
{
	const struct tc_hit *x = p, *y = q;
	if (x->time != y->time) return x->time < y->time ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static void build_hits(struct tc_app *a)
{
	const struct tc_trace *t = a->t;
	VEC(struct hitkey) k = { 0 };
	int64_t solo = -1;
	for (uint32_t i = 0; i < a->nvis; i++) {
		uint32_t r = a->vis[i];
		const struct tc_rank *R = &t->ranks[r];
		for (uint32_t c = 0; c < R->ncalls; c++) {
			if (R->calls[c].region >= t->nregions || !a->region_match[R->calls[c].region]) continue;
			uint32_t e = R->calls[c].op != TC_NONE ? tc_steps_cev_of_call(a->st, r, c) : TC_NONE;
			struct hitkey h = { e != TC_NONE ? (int64_t)a->st->cevs[e].step : solo--, R->calls[c].enter, r };
			VEC_PUSH(k, h);
		}
	}
	if (k.n) qsort(k.a, k.n, sizeof *k.a, hitkey_cmp);
	free(a->hits);
	a->hits = xmalloc((k.n + 1) * sizeof *a->hits);
	a->nhits = 0;
	for (size_t i = 0; i < k.n; i++)
		if (!i || k.a[i].key != k.a[i - 1].key)
			a->hits[a->nhits++] = (struct tc_hit){ k.a[i].time, k.a[i].rank, k.a[i].key };
	if (a->nhits) qsort(a->hits, a->nhits, sizeof *a->hits, hit_cmp);
	a->hits_gen = a->vis_gen;
	free(k.a);
}

/* The next (previous) hit strictly after (before) the cursor in time; ties by rank. */
bool app_search_next(struct tc_app *a, bool backward)
{
	if (!a->search_re) {
		app_message(a, true, "no search yet: press / first");
		return false;
	}
	if (!a->hits || a->hits_gen != a->vis_gen) build_hits(a);
	const struct tc_trace *t = a->t;
	size_t lo = 0, hi = a->nhits;   /* first hit after the cursor */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tc_hit *h = &a->hits[mid];
		if (h->time < a->time || (h->time == a->time && h->rank <= a->rank)) lo = mid + 1;
		else hi = mid;
	}
	size_t i = lo;
	if (backward) {   /* the last hit before the cursor */
		i = lo;
		while (i > 0 && a->hits[i - 1].time == a->time && a->hits[i - 1].rank == a->rank) i--;
		if (i == 0) i = a->nhits;
		else i--;
	}
	if (i >= a->nhits) {
		app_message(a, true, "/%s: no %s match (%zu in all)", a->search, backward ? "earlier" : "later", a->nhits);
		return false;
	}
	const struct tc_hit *h = &a->hits[i];
	a->rank = h->rank;
	if (h->step >= 0) {
		app_set_step(a, h->step);
		a->time = h->time;
	} else app_set_time(a, h->time);
	uint32_t c = tc_call_at(t, h->rank, h->time);
	char sl[24];
	app_message(a, false, "/%s: %s on rank %u, step %s: match %zu of %zu (n/N: next/previous)", a->search,
		    c != TC_NONE ? tc_region_name(t, t->ranks[h->rank].calls[c].region) : "?", h->rank,
		    tc_step_label(a->step, sl, sizeof sl), i + 1, a->nhits);
	return true;
}

const char *app_metric_label(enum tc_metric m)
{
	return m == TC_M_DURATION ? "excess_duration" : m < TC_M_COUNT ? tc_metric_names[m] : "?";
}

bool app_set_metric(struct tc_app *a, const char *name)
{
	static const struct { const char *alias; enum tc_metric m; } al[] = {
		{ "lateness", TC_M_LATENESS }, { "late", TC_M_LATENESS }, { "global_lateness", TC_M_GLATENESS },
		{ "global", TC_M_GLATENESS }, { "glateness", TC_M_GLATENESS }, { "diff_lateness", TC_M_DLATENESS },
		{ "differential", TC_M_DLATENESS }, { "dlateness", TC_M_DLATENESS }, { "duration", TC_M_DURATION },
		{ "excess_duration", TC_M_DURATION }, { "excess", TC_M_DURATION },
	};
	for (size_t i = 0; i < TC_NELEM(al); i++)
		if (!strcasecmp(name, al[i].alias)) {
			app_switch_summary(a, al[i].m, a->show_agg);
			return true;
		}
	return false;
}

/* Entering the physical view: on the first visit (the window still covers
 * the whole trace) show the application span (docs/span.md).  The cursor
 * keeps its step: switching views never moves it. */
static void enter_physical(struct tc_app *a)
{
	if (a->pv.t0 <= a->t->tmin && a->pv.t1 >= a->t->tmax) {
		const struct tc_span *sp = session_span(a->sess);
		if (sp->t1 > sp->t0) {
			a->pv.t0 = sp->t0;
			a->pv.t1 = sp->t1;
		}
	}
	app_follow_time(a);
}

bool app_set_view(struct tc_app *a, const char *name)
{
	const struct view *v = view_find(name);
	if (!v) return false;
	a->view = v;
	a->depth = 0;
	if (a->view == &view_physical) enter_physical(a);
	return true;
}

void app_push(struct tc_app *a, const struct view *v)
{
	if (a->depth < (int)TC_NELEM(a->stack)) a->stack[a->depth++] = a->view;
	a->view = v;
}

void app_pop(struct tc_app *a)
{
	if (a->depth > 0) a->view = a->stack[--a->depth];
}

void app_history_push(struct tc_app *a)
{
	const struct view *v = app_base_view(a);
	struct tc_place p = { v, a->rank, a->step, a->time, a->pv.t0, a->pv.t1, ++a->ticks };
	if (a->nhist == (int)TC_NELEM(a->hist)) {   /* full: forget the oldest */
		memmove(a->hist, a->hist + 1, sizeof a->hist - sizeof a->hist[0]);
		a->nhist--;
	}
	a->hist[a->nhist++] = p;
}

bool app_history_pop(struct tc_app *a)
{
	if (!a->nhist) return false;
	const struct tc_place *p = &a->hist[--a->nhist];
	a->view = p->view;
	a->depth = 0;
	app_set_rank(a, p->rank);
	a->step = p->step;
	a->time = p->time;
	a->pv.t0 = p->pv_t0;
	a->pv.t1 = p->pv_t1;
	char sl[24];
	app_message(a, false, "back to %s, rank %u step %s%s", a->view->name, a->rank, tc_step_label(a->step, sl, sizeof sl),
		    a->nhist ? " (Esc: further back)" : "");
	return true;
}

void app_show(struct tc_app *a, const struct view *v)
{
	a->view = v;
	a->depth = 0;
}

void app_command(struct tc_app *a, const char *cmd)
{
	while (*cmd == ' ') cmd++;
	char word[32] = "";
	size_t n = strcspn(cmd, " ");
	snprintf(word, sizeof word, "%.*s", (int)TC_MIN(n, sizeof word - 1), cmd);
	const char *arg = cmd + n;
	while (*arg == ' ') arg++;
	char *end;
	if (!*word) return;
	if (!strcmp(word, "q") || !strcmp(word, "quit") || !strcmp(word, "q!")) {
		a->quit = true;
	} else if (!strcmp(word, "step") || !strcmp(word, "s")) {
		long long v = strtoll(arg, &end, 10);
		if (!*arg || *end) { app_message(a, true, ":step takes a number (0-%u)", a->st->max_step); return; }
		app_set_step(a, v);
		app_message(a, false, "step %lld", (long long)a->step);
	} else if (!strcmp(word, "rank") || !strcmp(word, "r")) {
		unsigned long v = strtoul(arg, &end, 10);
		if (!*arg || *end || v >= a->t->nranks) {
			app_message(a, true, ":rank takes a rank from 0 to %u", a->t->nranks ? a->t->nranks - 1 : 0);
			return;
		}
		app_set_rank(a, (uint32_t)v);
		if (a->rank != v) app_message(a, true, "rank %lu is filtered out; at rank %u", v, a->rank);
		if (a->view == &view_physical) app_set_time(a, a->time);
		else app_set_step(a, a->step);
	} else if (!strcmp(word, "metric") || !strcmp(word, "m")) {
		if (!app_set_metric(a, arg))
			app_message(a, true, "metrics: lateness, global_lateness, diff_lateness, excess_duration (duration)");
	} else if (!strcmp(word, "theme")) {
		if (!*arg) { app_message(a, true, ":theme takes a name or a path"); return; }
		free(a->theme_request);
		a->theme_request = xstrdup(arg);
	} else if (!strcmp(word, "view")) {
		if (!app_set_view(a, arg)) {
			struct strbuf b = { 0 };
			view_names(&b, ", ");
			app_message(a, true, "views: %s", b.s);
			sb_free(&b);
		}
	} else if (!strcmp(word, "write") || !strcmp(word, "w") || !strcmp(word, "write!") || !strcmp(word, "w!") ||
		   !strcmp(word, "csv") || !strcmp(word, "csv!")) {
		char path[256];
		snprintf(path, sizeof path, "%s", arg);
		size_t pl = strlen(path);
		bool force = word[strlen(word) - 1] == '!' || (pl && path[pl - 1] == '!');
		if (pl && path[pl - 1] == '!') path[--pl] = 0;
		while (pl && path[pl - 1] == ' ') path[--pl] = 0;
		if (word[0] == 'c') export_csv(a, path, force);
		else export_write(a, path, force, a->last_w, a->last_h);
	} else if (!strcmp(word, "filter")) {
		app_set_filter(a, arg);
	} else if (!strcmp(word, "search")) {
		if (*arg) app_set_search(a, arg);
	} else if (!strcmp(word, "agg")) {
		app_switch_summary(a, a->metric, !(!strcmp(arg, "off") || !strcmp(arg, "0") || !strcmp(arg, "no")));
	} else {
		app_message(a, true, "unknown command ':%s' (step, rank, metric, theme, view, filter, search, agg, write, csv, q)", word);
	}
}

/* --- keys --------------------------------------------------------------------------- */
static void run_prompt(struct tc_app *a)
{
	char p = a->prompt;
	a->prompt = 0;
	a->line[a->linelen] = 0;
	if (p == ':') app_command(a, a->line);
	else if (p == '/') {
		app_history_push(a);
		bool moved = a->linelen ? app_set_search(a, a->line) : a->search && app_search_next(a, false);
		if (!moved) a->nhist--;
	} else if (p == 'f') app_set_filter(a, a->line);
}

static void prompt_key(struct tc_app *a, int key)
{
	if (key == TK_ESC || key == TK_INTERRUPT) {
		a->prompt = 0;
	} else if (key == TK_ENTER || key == '\n') {
		run_prompt(a);
	} else if (key == TK_BACKSPACE || key == 8) {
		if (!a->linelen) { a->prompt = 0; return; }
		do a->linelen--;   /* one UTF-8 character */
		while (a->linelen && ((unsigned char)a->line[a->linelen] & 0xc0) == 0x80);
	} else if (key == 21) {   /* Ctrl-U */
		a->linelen = 0;
	} else if (key >= 0x20 && key < 0x110000 && key != 0x7f) {
		char buf[4];
		size_t n;
		uint32_t c = (uint32_t)key;
		if (c < 0x80) { buf[0] = (char)c; n = 1; }
		else if (c < 0x800) { buf[0] = (char)(0xc0 | c >> 6); buf[1] = (char)(0x80 | (c & 0x3f)); n = 2; }
		else if (c < 0x10000) {
			buf[0] = (char)(0xe0 | c >> 12); buf[1] = (char)(0x80 | ((c >> 6) & 0x3f));
			buf[2] = (char)(0x80 | (c & 0x3f)); n = 3;
		} else {
			buf[0] = (char)(0xf0 | c >> 18); buf[1] = (char)(0x80 | ((c >> 12) & 0x3f));
			buf[2] = (char)(0x80 | ((c >> 6) & 0x3f)); buf[3] = (char)(0x80 | (c & 0x3f)); n = 4;
		}
		if (a->linelen + n < sizeof a->line - 1) {
			memcpy(a->line + a->linelen, buf, n);
			a->linelen += n;
		}
	}
}

/* Keys that answer an earlier key: the prompt's line, the letter of a mark,
 * "quit?".  True when the key was taken. */
static bool modal_key(struct tc_app *a, int key)
{
	if (a->prompt) {
		prompt_key(a, key);
		return true;
	}
	a->msg[0] = 0;
	free(a->err_caret);
	a->err_caret = NULL;
	if (key == TK_INTERRUPT) { a->quit = true; return true; }
	if (a->pending) {   /* the letter of a mark */
		char cmd = a->pending;
		a->pending = 0;
		marks_key(a, cmd, key);
		return true;
	}
	if (a->confirm_quit) {   /* answering "quit?" */
		a->confirm_quit = false;
		if (key == 'y' || key == 'Y' || key == 'q') { a->quit = true; return true; }
		if (key != TK_ESC && key != TK_BACKSPACE && key != 8) { app_message(a, false, "not quitting"); return true; }
	}
	return false;
}

/* A view still computing (src/ui/job.c) takes no keys of its own: q and Esc
 * leave it, Enter and unbound keys say why nothing happens.  True when the
 * key was taken. */
static bool computing_key(struct tc_app *a, int key, enum tc_action act)
{
	if ((act == ACT_QUIT && key != 'Q') || act == ACT_BACK) {
		if (a->depth) app_pop(a);
		else if (!app_history_pop(a)) a->view = &view_logical;
		app_message(a, false, "left the view while it computes; its result is kept");
		return true;
	}
	if (act == ACT_NONE || act == ACT_ENTER) {
		app_message(a, false, "computing %s: q goes back, digits and Tab switch views", a->view->name);
		return true;
	}
	return false;
}

static void quit_key(struct tc_app *a, int key)
{
	if (key == 'Q') a->quit = true;
	else if (a->depth > 0) app_pop(a);
	else if (a->nhist) {   /* after a jump: ask, so a slip does not cost a reload */
		a->confirm_quit = true;
		app_message(a, false, "quit? y: quit, Esc: back to where you jumped from, other keys: stay");
	} else a->quit = true;
}

/* Tab, Shift-Tab and the digits: the main views in registry order. */
static void switch_view(struct tc_app *a, int key, enum tc_action act)
{
	size_t n = tc_nmain_views, cur = 0;
	for (size_t i = 0; i < n; i++)
		if (tc_main_views[i] == a->view) cur = i;
	size_t next = act == ACT_NEXT_VIEW ? (cur + 1) % n : act == ACT_PREV_VIEW ? (cur + n - 1) % n : (size_t)(key - '1');
	if (next < n) a->view = tc_main_views[next];
	if (a->view == &view_physical) enter_physical(a);
}

/* Esc / Backspace: undo the most recent of a pushed pane, a range being
 * marked, a jump (when it came after the last filter or selection change),
 * the rank selection, the selection, the filter, an earlier jump. */
static void back_key(struct tc_app *a)
{
	if (a->depth > 0) app_pop(a);
	else if (a->ov.marking) a->ov.marking = false;
	else if (a->nhist && a->hist[a->nhist - 1].tick > a->filter_tick && app_history_pop(a)) {}   /* a jump came last */
	else if (a->nrank_sel) { app_select_ranks(a, NULL, 0); app_message(a, false, "rank selection cleared"); }
	else if (a->sel) { a->sel = false; app_message(a, false, "selection cleared"); }
	else if (a->filter) app_set_filter(a, NULL);   /* the filter or a rank set */
	else app_history_pop(a);
}

/* What the current view did not take: quitting, help, views, prompts,
 * search steps, metric, aggregates, detail, partners, marks, origins. */
/* `o`: the next origin, where we were pushed on the jump history (Esc comes
 * back); from a view that does not show ranks along time (verdicts, wait
 * states) the origin is shown in the logical view. */
static void go_origin(struct tc_app *a)
{
	app_history_push(a);
	if (!app_next_origin(a)) {
		a->nhist--;
		return;
	}
	if (a->depth == 0 && a->view != &view_logical && a->view != &view_physical && a->view != &view_overview &&
	    a->view != &view_clusters)
		a->view = &view_logical;
}

/* A pending `o` (pressed while the root causes were computing) goes once they
 * are there; another job first ends, then theirs starts. */
static void pending_origin(struct tc_app *a)
{
	if (!a->origin_pending || !app_data_ready(a, view_ready_rootcause, view_prepare_rootcause, "root causes")) return;
	a->origin_pending = false;
	go_origin(a);
}

static void global_key(struct tc_app *a, int key, enum tc_action act)
{
	switch (act) {
	case ACT_QUIT: quit_key(a, key); break;
	case ACT_HELP:
		a->help_of = a->view;
		a->help_scroll = 0;
		app_push(a, &view_help);
		break;
	case ACT_NEXT_VIEW:
	case ACT_PREV_VIEW:
	case ACT_VIEW_N: switch_view(a, key, act); break;
	case ACT_BACK: back_key(a); break;
	case ACT_SEARCH:
	case ACT_FILTER:
	case ACT_COMMAND:
		a->prompt = act == ACT_SEARCH ? '/' : act == ACT_FILTER ? 'f' : ':';
		a->linelen = 0;
		break;
	case ACT_NEXT:
	case ACT_PREV:   /* a jump, remembered only when it moved */
		app_history_push(a);
		if (!app_search_next(a, act == ACT_PREV)) a->nhist--;
		break;
	case ACT_METRIC:   /* the summary of the new metric is built in the worker if needed */
		app_switch_summary(a, (enum tc_metric)((a->metric + 1) % TC_M_COUNT), a->show_agg);
		break;
	case ACT_AGG:
		app_switch_summary(a, a->metric, !a->show_agg);
		break;
	case ACT_ENTER:
		a->detail_scroll = 0;
		app_push(a, &view_detail);
		break;
	case ACT_PARTNER: app_next_partner(a); break;
	case ACT_SET_MARK:
	case ACT_GOTO_MARK:
		a->pending = act == ACT_SET_MARK ? 'M' : '\'';
		app_message(a, false, "%s: a letter (a-z)", act == ACT_SET_MARK ? "mark" : "go to mark");
		break;
	case ACT_ORIGIN:
		if (!app_data_ready(a, view_ready_rootcause, view_prepare_rootcause, "root causes")) {
			/* computed off the UI thread; the first origin follows when they are there */
			a->origin_pending = true;
			app_message(a, false, "computing the root causes \u2026 the first origin follows (keys still work)");
			break;
		}
		go_origin(a);
		break;
	default: break;
	}
}

/* One key: a modal answer, else the current view's, else the app's. */
void app_key(struct tc_app *a, int key)
{
	if (modal_key(a, key)) return;
	const struct tc_keybind *b = keymap_find(key, a->view->id);
	enum tc_action act = b ? b->act : ACT_NONE;
	if (!app_view_ready(a, a->view)) {
		if (computing_key(a, key, act)) return;
	} else if (a->view->key && a->view->key(a, key, act)) return;
	global_key(a, key, act);
}

bool app_next_partner(struct tc_app *a)
{
	uint32_t ce = app_cursor_cev(a);
	if (ce == TC_NONE || ce != a->pt_at) {   /* a new event: walk its partners from the first */
		a->pt_from = ce;
		a->pt_next = 0;
	}
	if (a->pt_from == TC_NONE) {
		app_message(a, true, "no event under the cursor: no partner");
		return false;
	}
	uint32_t cur_rank = a->rank;
	int64_t cur_step = a->step;
	a->rank = a->st->cevs[a->pt_from].rank;   /* view_partners reads the cursor */
	a->step = a->st->cevs[a->pt_from].step;
	uint32_t pe[256], n = view_partners(a, pe, TC_NELEM(pe));
	a->rank = cur_rank;
	a->step = cur_step;
	if (!n) {
		app_message(a, false, "this event has no message partner or collective peer");
		return false;
	}
	uint32_t i = a->pt_next++ % n;
	const struct tc_cev *e = &a->st->cevs[pe[i]];
	app_history_push(a);
	app_set_rank(a, e->rank);
	if (a->rank != e->rank) {
		a->nhist--;
		app_message(a, true, "partner rank %u is filtered out (Esc clears the filter)", e->rank);
		return false;
	}
	app_set_step(a, e->step);
	a->pt_at = app_cursor_cev(a);
	app_message(a, false, "partner %u of %u: rank %u step %u (p: next, Esc: back)", i + 1, n, e->rank, e->step);
	return true;
}

bool app_next_origin(struct tc_app *a)
{
	if (!a->st) return false;
	if (!a->origins_done) {
		a->norigins = tc_origins(session_rootcause(a->sess), a->st, TC_NELEM(a->origins), a->origins);
		a->origins_done = true;
	}
	if (!a->norigins) {
		app_message(a, false, "no origin: no computation or MPI call took longer than typical");
		return false;
	}
	size_t i = a->origin_next++ % a->norigins;
	const struct tc_origin *o = &a->origins[i];
	const struct tc_rootcause *rc = session_rootcause(a->sess);
	const struct tc_act act = tc_rc_act(rc, o->rc.rank, o->rc.act);
	app_set_rank(a, o->rc.rank);
	if (o->have_block) {
		const struct tc_cev *e = &a->st->cevs[o->block.cev];
		app_set_step(a, o->block.agg ? (int64_t)e->step - 1 : (int64_t)e->step);
	}
	char x[32], c[32];
	fmt_seconds(x, sizeof x, o->rc.excess);
	fmt_seconds(c, sizeof c, o->rc.delay_cost);
	const char *what = act.kind == TC_ACT_COMPUTE ? "computation"
			   : tc_region_name(a->t, a->t->ranks[o->rc.rank].calls[act.call].region);
	app_message(a, false, "origin %zu/%zu: rank %u step %lld, %s %s longer than typical, made others wait %s (o: next)",
		    i + 1, a->norigins, o->rc.rank, (long long)a->step, what, x, c);
	return true;
}

/* --- frame ---------------------------------------------------------------------------- */
/* "init" for the aggregate before step 0 (the time before the first
 * communication event), else the number. */

/* The title: fields in order, dropped by priority (highest number first)
 * until the line fits; "N/M" is always "index / last index" (rank 5/63,
 * step 12/40).  Ranks and steps are counted from 0. */
static void draw_title(struct tc_app *a, struct tc_grid *g)
{
	char f[8][160], tbuf[32], sl[24];
	int prio[8], nf = 0;
#define FIELD(p, ...) do { snprintf(f[nf], sizeof f[nf], __VA_ARGS__); prio[nf++] = (p); } while (0)
	fmt_seconds(tbuf, sizeof tbuf, tc_sec(a->t, a->time));
	FIELD(0, "%s", a->view->name);
	FIELD(1, "rank %u/%u", a->rank, a->t->nranks ? a->t->nranks - 1 : 0);
	FIELD(2, "step %s/%u", tc_step_label(a->step, sl, sizeof sl), a->st->max_step);
	FIELD(5, "%s", tbuf);
	FIELD(6, "%s", app_metric_label(a->metric));
	/* a view that cannot restrict itself to the filter's ranks says so */
	const struct view *base = app_base_view(a);
	if (a->filter) FIELD(3, "f:%s%s", a->filter, base->filtered ? "" : " (all ranks here)");
	if (a->nrank_sel) FIELD(4, "sel %u", a->nrank_sel);
	FIELD(7, "%s", a->trace_name);
#undef FIELD
	bool keep[8];
	for (int i = 0; i < nf; i++) keep[i] = true;
	for (int drop = 7; drop > 0; drop--) {
		int len = 0;
		for (int i = 0; i < nf; i++)
			if (keep[i]) len += (int)grid_text_len(f[i]) + 3;
		if (len - 2 <= g->w) break;
		for (int i = 0; i < nf; i++)
			if (prio[i] == drop) keep[i] = false;
	}
	struct strbuf b;
	sb_init(&b);
	for (int i = 0; i < nf; i++)
		if (keep[i]) sb_printf(&b, "%s%s", b.len ? " | " : " ", f[i]);
	grid_fill(g, 0, 0, g->w, 1, ' ', TC_R_TITLE);
	grid_text_elide(g, 0, 0, g->w, TC_R_TITLE, b.s);
	sb_free(&b);
}

static void draw_bottom(struct tc_app *a, struct tc_grid *g)
{
	int y = g->h - 1;
	if (a->prompt) {
		grid_fill(g, 0, y, g->w, 1, ' ', TC_R_NORMAL);
		a->line[a->linelen] = 0;
		char p[2] = { a->prompt == 'f' ? 'f' : a->prompt, 0 };
		int x = grid_text(g, 0, y, g->w, TC_R_HINT_KEY, a->prompt == 'f' ? "filter: " : p);
		/* show the end of a long line */
		const char *s = a->line;
		int room = g->w - x - 1;
		size_t chars = 0;
		for (const char *q = s; *q; q++) chars += ((unsigned char)*q & 0xc0) != 0x80;
		while (room > 0 && chars > (size_t)room) {
			s++;
			while (((unsigned char)*s & 0xc0) == 0x80) s++;
			chars--;
		}
		x += grid_text(g, x, y, room > 0 ? room : 0, TC_R_NORMAL, s);
		grid_put(g, x, y, ' ', TC_R_CURSOR, TC_R_CURSOR, 0);
		return;
	}
	if (a->msg[0]) {
		grid_fill(g, 0, y, g->w, 1, ' ', a->msg_err ? TC_R_ERROR : TC_R_MESSAGE);
		grid_text_elide(g, 0, y, g->w, a->msg_err ? TC_R_ERROR : TC_R_MESSAGE, a->msg);
		if (a->err_caret && g->h >= 4) {
			char *nl = strchr(a->err_caret, '\n');
			if (nl) {
				grid_fill(g, 0, y - 2, g->w, 2, ' ', TC_R_NORMAL);
				*nl = 0;
				grid_text(g, 0, y - 2, g->w, TC_R_NORMAL, a->err_caret);
				grid_text(g, 0, y - 1, g->w, TC_R_ERROR, nl + 1);
				*nl = '\n';
			}
		}
		return;
	}
	keymap_hints(g, y, a->view->id);
}

/* The view strip under the title: every main view with its key (1..9; the rest
 * by Tab or :view), the current one in the cursor role.  Full names when they
 * fit, else four letters; false (not drawn) when even that does not fit. */
/* The view strip: every main view with its digit, names shortened to 4 then 3
 * letters when the full ones do not fit, "(Tab)" when there is room. */
static bool draw_strip(struct tc_app *a, struct tc_grid *g, int y)
{
	static const int widths[] = { 64, 4, 3 };
	const struct view *cur = app_base_view(a);
	for (size_t k = 0; k < TC_NELEM(widths); k++) {
		int wmax = widths[k], len = 0;
		for (size_t i = 0; i < tc_nmain_views; i++)
			len += (i < 9 ? 2 : 0) + TC_MIN(wmax, (int)strlen(tc_main_views[i]->name)) + 1;
		if (len > g->w) continue;
		grid_fill(g, 0, y, g->w, 1, ' ', TC_R_HINT);
		int x = 0;
		for (size_t i = 0; i < tc_nmain_views; i++) {
			const struct view *v = tc_main_views[i];
			enum tc_role r = v == cur ? TC_R_CURSOR : TC_R_HINT;
			if (i < 9) x += grid_printf(g, x, y, g->w - x, v == cur ? TC_R_CURSOR : TC_R_HINT_KEY, "%zu", i + 1);
			x += grid_printf(g, x, y, g->w - x, r, "%.*s", wmax, v->name);
			x++;
		}
		if (x + 5 <= g->w) grid_text(g, x, y, g->w - x, TC_R_HINT, "(Tab)");
		return true;
	}
	return false;
}

void app_draw(struct tc_app *a, struct tc_grid *g)
{
	grid_clear(g, TC_R_NORMAL);
	if (g->w != a->last_w || g->h != a->last_h) {   /* a new size: fit again unless the user zoomed */
		if (!a->lv.zoomed) a->lv.fitted = false;
		if (!a->ov.zoomed) a->ov.fitted = false;
	}
	a->last_w = g->w;
	a->last_h = g->h;
	struct tc_rect r = { 0, 1, g->w, g->h - 2 };
	if (g->w < a->view->min_w || r.h < a->view->min_h) {
		char need[48];
		snprintf(need, sizeof need, "(%dx%d, need %dx%d)", g->w, g->h, a->view->min_w, a->view->min_h + 2);
		/* `render` is not interactive: no "press q" there */
		const char *lines[] = { a->interactive ? "terminal too small" : "area too small", need,
					a->interactive ? "resize or press q" : "" };
		for (int y = 0; y < 3 && y < g->h; y++) grid_text(g, 0, y, g->w, TC_R_ERROR, lines[y]);
		return;
	}
	if (g->h >= 14 && r.h - 1 >= a->view->min_h && draw_strip(a, g, 1)) { r.y++; r.h--; }   /* room to spare */
	a->view_rect = r;
	pending_origin(a);
	if (app_view_ready(a, a->view)) a->view->draw(a, g, r);
	else app_draw_computing(a, g, r);
	draw_title(a, g);
	draw_bottom(a, g);
}

void app_event_line(struct tc_app *a, struct tc_grid *g, int y)
{
	const struct tc_trace *t = a->t;
	struct strbuf b;
	sb_init(&b);
	char v1[32], v2[32];
	uint32_t ce = app_cursor_cev(a);
	if (ce != TC_NONE && a->rank < t->nranks && a->st->cevs[ce].op < t->ranks[a->rank].nops) {
		const struct tc_cev *e = &a->st->cevs[ce];
		bool agg = a->step < 0 || (a->step & 1);
		const struct tc_op *op = &t->ranks[a->rank].ops[e->op];
		fmt_seconds(v1, sizeof v1, tc_cev_metric(a->st, ce, a->metric, agg));
		if (agg) {
			fmt_seconds(v2, sizeof v2, tc_dur(t, tc_cev_enter(a->st, ce) - tc_cev_agg_start(a->st, ce)));
			sb_printf(&b, "aggregate before %s: %s, %s %s", tc_region_name(t, t->ranks[a->rank].calls[op->call].region),
				  v2, app_metric_label(a->metric), v1);
		} else {
			fmt_seconds(v2, sizeof v2, tc_dur(t, tc_cev_leave(a->st, ce) - tc_cev_enter(a->st, ce)));
			sb_printf(&b, "%s %s, %s %s", tc_region_name(t, t->ranks[a->rank].calls[op->call].region), v2,
				  app_metric_label(a->metric), v1);
			const uint32_t *sm = tc_op_sends(t, a->rank, op), *rm = tc_op_recvs(t, a->rank, op);
			for (uint32_t i = 0; i < op->nsend && i < 4; i++) sb_printf(&b, "%s%u", i ? "," : " | to ", t->msgs[sm[i]].dst);
			if (op->nsend > 4) sb_printf(&b, ",+%u", op->nsend - 4);
			for (uint32_t i = 0; i < op->nrecv && i < 4; i++) sb_printf(&b, "%s%u", i ? "," : " | from ", t->msgs[rm[i]].src);
			if (op->nrecv > 4) sb_printf(&b, ",+%u", op->nrecv - 4);
			if (op->coll != TC_NONE && op->coll < t->ncolls)
				sb_printf(&b, " | %s of %u", tc_coll_op_name(t->colls[op->coll].op), t->colls[op->coll].n);
		}
	} else if (a->rank < t->nranks) {
		uint32_t c = tc_call_at(t, a->rank, a->time);
		if (c != TC_NONE) {
			const struct tc_call *cc = &t->ranks[a->rank].calls[c];
			fmt_seconds(v1, sizeof v1, tc_dur(t, cc->leave - cc->enter));
			sb_printf(&b, "%s %s (depth %u)", tc_region_name(t, cc->region), v1, cc->depth);
		} else {
			sb_add(&b, "no call here");
		}
	}
	app_status_line(g, y, b.s);
	sb_free(&b);
}

void app_axis_cursor(struct tc_grid *g, int x, int y)
{
	struct tc_cell *p = grid_at(g, x, y);
	if (!p) return;
	p->fg = p->bg = TC_R_CURSOR;
	p->attr = 0;
	if (p->ch == ' ' || p->ch == grid_glyph(g, TC_G_TICK) || p->ch == grid_glyph(g, TC_G_HLINE))
		p->ch = grid_glyph(g, TC_G_MARK);
}

void app_status_line(struct tc_grid *g, int y, const char *s)
{
	grid_fill(g, 0, y, g->w, 1, ' ', TC_R_STATUS);
	grid_text_elide(g, 0, y, g->w, TC_R_STATUS, s ? s : "");
}

bool app_scroll(uint32_t *scroll, enum tc_action act)
{
	switch (act) {
	case ACT_DOWN: (*scroll)++; return true;
	case ACT_UP: if (*scroll) (*scroll)--; return true;
	case ACT_PGDN: *scroll += 10; return true;
	case ACT_PGUP: *scroll = *scroll > 10 ? *scroll - 10 : 0; return true;
	case ACT_TOP: *scroll = 0; return true;
	case ACT_BOTTOM: *scroll = UINT32_MAX / 2; return true;   /* the view clamps it */
	default: return false;
	}
}

bool app_move_index(uint32_t *i, uint32_t n, uint32_t page, enum tc_action act)
{
	uint32_t last = n ? n - 1 : 0;
	switch (act) {
	case ACT_DOWN: if (*i < last) (*i)++; return true;
	case ACT_UP: if (*i) (*i)--; return true;
	case ACT_PGDN: *i = *i + page < last ? *i + page : last; return true;
	case ACT_PGUP: *i = *i > page ? *i - page : 0; return true;
	case ACT_TOP: *i = 0; return true;
	case ACT_BOTTOM: *i = last; return true;
	default: return false;
	}
}

bool app_list_move(uint32_t *i, uint32_t n, int rows, enum tc_action act)
{
	return app_move_index(i, n, (uint32_t)(rows > 1 ? rows - 1 : 1), act);
}

void app_list_top(uint32_t *top, uint32_t cur, uint32_t n, int rows)
{
	if (rows < 1) rows = 1;
	if (cur < *top) *top = cur;
	if (cur >= *top + (uint32_t)rows) *top = cur - (uint32_t)rows + 1;
	if (*top + (uint32_t)rows > n) *top = n > (uint32_t)rows ? n - (uint32_t)rows : 0;
}

void app_clamp_time_window(struct tc_app *a)
{
	const struct tc_trace *t = a->t;
	uint64_t full = t->tmax > t->tmin ? t->tmax - t->tmin : 1;
	uint64_t w = a->pv.t1 > a->pv.t0 ? a->pv.t1 - a->pv.t0 : 1;
	if (w > full) w = full;
	if (w < 8) w = TC_MIN(8, full);
	if (a->pv.t0 < t->tmin) a->pv.t0 = t->tmin;
	if (a->pv.t0 + w > t->tmin + full) a->pv.t0 = t->tmin + full - w;
	a->pv.t1 = a->pv.t0 + w;
}

void app_fit_time(struct tc_app *a)
{
	a->pv.t0 = a->t->tmin;
	a->pv.t1 = a->t->tmax;
	app_clamp_time_window(a);
}

void app_follow_time(struct tc_app *a)
{
	app_clamp_time_window(a);
	uint64_t w = a->pv.t1 - a->pv.t0;
	if (a->time < a->pv.t0 || a->time >= a->pv.t1) {
		a->pv.t0 = a->time > w / 2 ? a->time - w / 2 : 0;
		a->pv.t1 = a->pv.t0 + w;
		app_clamp_time_window(a);
	}
}

void app_zoom_time(struct tc_app *a, bool in)
{
	uint64_t w = a->pv.t1 > a->pv.t0 ? a->pv.t1 - a->pv.t0 : 1;
	uint64_t nw = in ? w / 2 : w * 2;
	if (nw < 8) nw = 8;
	/* keep the cursor at the same place on screen */
	double f = w ? (double)(a->time - TC_MIN(a->time, a->pv.t0)) / (double)w : 0.5;
	uint64_t off = (uint64_t)(f * (double)nw);
	a->pv.t0 = a->time > off ? a->time - off : 0;
	a->pv.t1 = a->pv.t0 + nw;
	app_clamp_time_window(a);
	char buf[32];
	fmt_seconds(buf, sizeof buf, tc_dur(a->t, a->pv.t1 - a->pv.t0));
	app_message(a, false, "window %s", buf);
}

void app_fit_logical(struct tc_app *a, int cols, int rows)
{
	const struct tc_lsum *s = app_sum(a);
	if (cols < 1) cols = 1;
	if (rows < 1) rows = 1;
	a->lv.xpc = (s->nx + (uint32_t)cols - 1) / (uint32_t)cols;
	if (!a->lv.xpc) a->lv.xpc = 1;
	a->lv.rpr = (a->nvis + (uint32_t)rows - 1) / (uint32_t)rows;
	if (!a->lv.rpr) a->lv.rpr = 1;
	a->lv.left = a->lv.top = 0;
	a->lv.fitted = true;
}

struct tc_band app_logical_xband(struct tc_app *a, int cols)
{
	const struct tc_lsum *s = app_sum(a);
	if (!a->lv.zoomed) return (struct tc_band){ 0, s->nx, cols };
	return (struct tc_band){ a->lv.left, a->lv.xpc * (uint32_t)(cols > 0 ? cols : 1), cols };
}

struct tc_band app_logical_rband(const struct tc_app *a, int rows)
{
	if (a->lv.rzoomed) return (struct tc_band){ a->lv.top, a->lv.rpr * (uint32_t)(rows > 0 ? rows : 1), rows };
	if (a->nvis <= (uint32_t)rows) return (struct tc_band){ 0, a->nvis, (int)a->nvis };   /* a rank per row */
	return (struct tc_band){ 0, a->nvis, rows };
}
