/* clusters.c — the "clusters" section (per phase: the clusters at the default
 * cut, the exchange pattern and the focus ranks) and the session getter of
 * the clustering.  Options, as --opt KEY=VALUE: cluster_metric (lateness,
 * global_lateness, diff_lateness, duration), cluster_seed, cluster_k,
 * focus_radius. */
#include <stdlib.h>
#include <string.h>

#include "analysis_cluster.h"
#include "report.h"

struct tc_clusters *session_clusters(struct tc_session *s)
{
	if (!s->clusters) {
		const struct tc_steps *st = session_steps(s);
		if (!st) return NULL;
		struct tc_cluster_opts o;
		tc_cluster_default_opts(&o);
		const char *m = session_opt(s, "cluster_metric", NULL);
		for (int k = 0; m && k < TC_M_COUNT; k++)
			if (!strcmp(m, tc_metric_names[k])) o.metric = (enum tc_metric)k;
		const char *v;
		if ((v = session_opt(s, "cluster_seed", NULL))) o.seed = strtoull(v, NULL, 0);
		if ((v = session_opt(s, "cluster_k", NULL)) && strtoul(v, NULL, 10) > 0) o.k = (uint32_t)strtoul(v, NULL, 10);
		if ((v = session_opt(s, "focus_radius", NULL))) o.radius = (uint32_t)strtoul(v, NULL, 10);
		if ((v = session_opt(s, "cluster_direct_max", NULL))) o.direct_max = (uint32_t)strtoul(v, NULL, 10);
		o.min_sep = session_opt_num(s, "cluster_min_sep", o.min_sep);
		s->clusters = tc_clusters_new(st, &o);
	}
	return s->clusters;
}

#define TEXT_PHASES 40

void report_clusters_text(struct tc_session *s, FILE *f)
{
	struct tc_clusters *c = session_clusters(s);
	if (!c) { fprintf(f, "no logical structure\n"); return; }
	const struct tc_steps *st = session_steps(s);
	const struct tc_cluster_opts *o = tc_clusters_opts(c);
	fprintf(f, "metric %s; %u phases; CLARA (k = %u, seed %#llx) above %u ranks, then single linkage\n",
		tc_metric_names[o->metric], st->npartitions, o->k, (unsigned long long)o->seed, o->direct_max);
	uint32_t shown = 0;
	for (uint32_t p = 0; p < st->npartitions; p++) {
		const struct tc_phase_clusters *ph = tc_clusters_phase(c, p);
		if (!ph->nranks) continue;
		if (shown++ == TEXT_PHASES) {
			fprintf(f, "... %u more phases (--json lists all)\n", st->npartitions - p);
			break;
		}
		char mx[32];
		fmt_seconds(mx, sizeof mx, ph->max);
		struct strbuf b = { 0 };
		fmt_ranges(&b, ph->focus, ph->nfocus);
		fprintf(f, "\nphase %u  steps %u-%u  %u rank%s  %s  max %s on rank %u\n", p, ph->first_step, ph->last_step,
			ph->nranks, ph->nranks == 1 ? "" : "s", tc_exchange_names[ph->pattern], mx, ph->max_rank);
		fprintf(f, "  focus %s (rank %u and %u hop%s)\n", b.s, ph->focus_seed, ph->radius, ph->radius == 1 ? "" : "s");
		sb_free(&b);
		fprintf(f, "  %-7s %6s %10s %10s %7s  %s\n", "cluster", "size", "mean", "max", "medoid", "ranks");
		for (uint32_t i = 0; i < ph->nvisible; i++) {
			const struct tc_cnode *N = &ph->nodes[ph->visible[i]];
			uint32_t *v = tc_clusters_node_ranks(ph, ph->visible[i]);
			char mean[32], max[32];
			fmt_seconds(mean, sizeof mean, N->mean);
			fmt_seconds(max, sizeof max, N->max);
			sb_init(&b);
			fmt_ranges(&b, v, N->size);
			fprintf(f, "  %-7u %6u %10s %10s %7u  %s\n", i, N->size, mean, max, N->medoid, b.s);
			sb_free(&b);
			free(v);
		}
	}
	if (!shown) fprintf(f, "no phases with events\n");
}

/* One phase's entry of the JSON "phases" list. */
static void phase_json(struct json *j, uint32_t p, const struct tc_phase_clusters *ph)
{
	json_obj_begin(j);
	json_kuint(j, "partition", p);
	json_kuint(j, "first_step", ph->first_step);
	json_kuint(j, "last_step", ph->last_step);
	json_kuint(j, "nranks", ph->nranks);
	json_kbool(j, "clara", ph->clara);
	json_kstr(j, "pattern", tc_exchange_names[ph->pattern]);
	json_knum(j, "max", ph->max);
	json_knum(j, "min_separation_s", ph->min_sep);
	json_kuint(j, "max_rank", ph->max_rank);
	json_kuint(j, "radius", ph->radius);
	json_kuint32s(j, "focus", ph->focus, ph->nfocus);
	json_key(j, "clusters");
	json_arr_begin(j);
	for (uint32_t i = 0; i < ph->nvisible; i++) {
		const struct tc_cnode *N = &ph->nodes[ph->visible[i]];
		uint32_t *v = tc_clusters_node_ranks(ph, ph->visible[i]);
		json_obj_begin(j);
		json_kuint32s(j, "ranks", v, N->size);
		json_kuint(j, "size", N->size);
		json_knum(j, "mean", N->mean);
		json_knum(j, "max", N->max);
		json_kuint(j, "medoid", N->medoid);
		json_kuint(j, "max_rank", N->max_rank);
		json_knum(j, "height", N->height);
		json_obj_end(j);
		free(v);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* Phases are clustered a batch at a time (in parallel) and written; the ones
 * this section computed are then released, so that the next batch reuses
 * their memory: all of a trace's clusters kept at once would be fresh memory
 * (~100 MB for halo-256's 2200 phases), each page faulted in and zeroed. */
#define JSON_BATCH 64

void report_clusters_json(struct tc_session *s, struct json *j)
{
	struct tc_clusters *c = session_clusters(s);
	json_obj_begin(j);
	if (!c) { json_obj_end(j); return; }
	const struct tc_steps *st = session_steps(s);
	const struct tc_cluster_opts *o = tc_clusters_opts(c);
	json_kstr(j, "metric", tc_metric_names[o->metric]);
	json_kuint(j, "seed", o->seed);
	json_kuint(j, "k", o->k);
	json_kuint(j, "direct_max", o->direct_max);
	json_key(j, "phases");
	json_arr_begin(j);
	bool had[JSON_BATCH];
	for (uint32_t p0 = 0; p0 < st->npartitions; p0 += JSON_BATCH) {
		uint32_t n = TC_MIN((uint32_t)JSON_BATCH, st->npartitions - p0);
		for (uint32_t i = 0; i < n; i++) had[i] = tc_clusters_phase_ready(c, p0 + i);
		tc_clusters_compute_range(c, p0, n, 0);
		for (uint32_t i = 0; i < n; i++) {
			const struct tc_phase_clusters *ph = tc_clusters_phase(c, p0 + i);
			if (ph->nranks) phase_json(j, p0 + i, ph);
			if (!had[i]) tc_clusters_release(c, p0 + i);
		}
	}
	json_arr_end(j);
	json_obj_end(j);
}
