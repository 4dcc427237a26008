/* sections.c — where `report --json` spends its CPU: the archive loaded with
 * one thread, then each report section written (to /dev/null) in the
 * report's order, each section's process CPU time printed with its ratio to
 * the floor's CPU.  The session's lazy analyses are computed first, one at
 * a time in the order the report's first section (verdicts) asks for them,
 * so that each section's line is its own writing (and the analyses only it
 * needs: clusters, profile, dag).
 *
 *   sections ARCHIVE --floor CPU_SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_remap.h"
#include "read.h"
#include "report.h"
#include "session.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void line(const char *what, double c0, double floor_cpu, double *total)
{
	double c = cpu_now() - c0;
	*total += c;
	printf("  %-14s %7.3f s  %5.2f x\n", what, c, c / floor_cpu);
}

/* The analyses the verdicts need, each timed alone (the remap is computed
 * and freed by the verdicts' getter: timed here on its own copy). */
static void analyses(struct tc_session *s, double floor_cpu, double *total)
{
	double c0 = cpu_now();
	session_latency(s);
	line("latency", c0, floor_cpu, total);
	c0 = cpu_now();
	session_steps(s);
	line("steps", c0, floor_cpu, total);
	c0 = cpu_now();
	session_waitstates(s);
	line("waitstates", c0, floor_cpu, total);
	c0 = cpu_now();
	tc_remap_free(tc_remap_compute(s->t, TC_REMAP_BYTES));
	line("remap", c0, floor_cpu, total);
	c0 = cpu_now();
	session_rootcause(s);
	line("rootcause", c0, floor_cpu, total);
	c0 = cpu_now();
	session_verdicts(s);
	line("verdicts(+remap)", c0, floor_cpu, total);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	double floor_cpu = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--floor") && i + 1 < argc) floor_cpu = atof(argv[++i]);
		else path = argv[i];
	}
	if (!path || floor_cpu <= 0) {
		fprintf(stderr, "usage: sections ARCHIVE --floor CPU_SECONDS\n");
		return 2;
	}
	struct tc_read_opts ro = { .threads = 1 };
	char *err = NULL;
	double c0 = cpu_now();
	struct tc_trace *t = tc_read_otf2(path, &ro, &err);
	if (!t) {
		fprintf(stderr, "sections: %s\n", err);
		return 2;
	}
	double total = 0;
	printf("report sections (CPU s, x the floor's %.3f s): %s\n", floor_cpu, path);
	line("load", c0, floor_cpu, &total);
	struct tc_session *s = session_new(t);
	analyses(s, floor_cpu, &total);
	FILE *null = fopen("/dev/null", "w");
	/* each section written as report_json writes it, the root causes kept
	 * until the last section that reads them (report_release over the whole
	 * list: released after every section, they were computed three times) */
	const struct report_section *all[64];
	size_t n = report_nsections < 64 ? report_nsections : 64;
	for (size_t i = 0; i < n; i++) all[i] = &report_sections[i];
	for (size_t i = 0; i < n; i++) {
		struct json j;
		c0 = cpu_now();
		json_init(&j, null, 2);
		json_obj_begin(&j);
		json_key(&j, all[i]->name);
		all[i]->json(s, &j);
		json_obj_end(&j);
		json_finish(&j);
		report_release(s, all, n, i);
		line(all[i]->name, c0, floor_cpu, &total);
	}
	c0 = cpu_now();
	session_free(s);
	fclose(null);
	line("free", c0, floor_cpu, &total);
	printf("  %-14s %7.3f s  %5.2f x (the remap counted twice)\n", "total", total, total / floor_cpu);
	return 0;
}
