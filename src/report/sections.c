/* sections.c — the list of report sections, in report order: what is in the
 * archive, then why it is slow (what a reader wants first), then the analyses
 * behind the verdicts. */
#include <string.h>

#include "report.h"

const struct report_section report_sections[] = {
	{ "info", "what is in the archive: ranks, nodes, events, messages, collectives",
	  report_info_text, report_info_json, false },
	{ "verdicts", "why: mapping, pattern, compute imbalance or background traffic, with evidence and advice",
	  report_verdicts_text, report_verdicts_json, true },
	{ "critical_path", "the critical path: compute, wait and own MPI time on it, the pieces with excess",
	  report_critpath_text, report_critpath_json, true },
	{ "steps", "logical structure: partitions, steps, lateness hot spots and origins", report_steps_text, report_steps_json,
	  true },
	{ "clusters", "per phase: process clusters at the default cut, exchange pattern, focus ranks", report_clusters_text, report_clusters_json, false },
	{ "waitstates", "Scalasca wait states: late sender/receiver, collectives, and who caused them",
	  report_waitstates_text, report_waitstates_json, false },
	{ "profile", "flat profile: time per region (inclusive, exclusive, imbalance), message sizes",
	  report_profile_text, report_profile_json, false },
	{ "counters", "hardware/software counters (METRIC): per rank, and per function (accumulated ones, diffed at enter/leave)",
	  report_counters_text, report_counters_json, false },
	{ "regions", "communication regions (free-energy distance) and their latency RL", report_regions_text, report_regions_json, false },
	{ "latency", "latency criteria per size and intra/inter node, highest message latencies", report_latency_text, report_latency_json, false },
	{ "evolution", "latency over time windows per region: growth and steady-high periods", report_evolution_text, report_evolution_json, false },
	{ "dag", "dependency DAG of the most latent region and window, with per-rank communication state",
	  report_dag_text, report_dag_json, false },
};
const size_t report_nsections = TC_NELEM(report_sections);

void report_json(struct tc_session *s, const struct report_section *const *secs, size_t n, FILE *f)
{
	struct json j;
	json_init(&j, f, 2);
	json_obj_begin(&j);
	for (size_t i = 0; i < n; i++) {
		json_key(&j, secs[i]->name);
		secs[i]->json(s, &j);
		report_release(s, secs, n, i);
	}
	json_obj_end(&j);
	json_finish(&j);
}

void report_release(struct tc_session *s, const struct report_section *const *secs, size_t n, size_t i)
{
	for (size_t k = i + 1; k < n; k++)
		if (secs[k]->rootcause) return;
	session_release_rootcause(s);
}

const struct report_section *report_find(const char *name)
{
	for (size_t i = 0; i < report_nsections; i++)
		if (!strcmp(report_sections[i].name, name)) return &report_sections[i];
	return NULL;
}
