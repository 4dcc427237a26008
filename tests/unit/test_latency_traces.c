/* test_latency_traces.c — every real trace in $TRACES goes through the
 * latency analysis and its three report sections without error, with the
 * invariants that tie messages, regions and windows together, and a few
 * exact values of the small traces. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "analysis_latency.h"
#include "read.h"
#include "report.h"
#include "testkit.h"


static void check_invariants(const struct tc_latency *lat)
{
	const struct tc_trace *t = lat->t;
	uint64_t inside = 0, crossing = 0, ranks = 0;
	for (uint32_t i = 0; i < lat->nregions; i++) {
		const struct tc_lat_region *R = &lat->regions[i];
		assert_true(R->nranks > 0);
		for (uint32_t k = 0; k < R->nranks; k++) {
			assert_int_equal(lat->rank_region[R->ranks[k]], i);
			if (k) assert_true(R->ranks[k] > R->ranks[k - 1]);
		}
		if (i) assert_true(R->ranks[0] > lat->regions[i - 1].ranks[0]);
		inside += R->messages_inside;
		crossing += R->messages_crossing;
		ranks += R->nranks;
		uint64_t wn = 0;
		for (uint32_t w = 0; w < lat->nwindows; w++) wn += R->win[w].n;
		assert_int_equal(wn, R->messages_inside);
		assert_true(R->messages_inside ? isfinite(R->rl) && R->rl >= 0 : isnan(R->rl));
		/* periods cover the windows in order */
		uint32_t next = 0;
		for (uint32_t p = 0; p < R->nperiods; p++) {
			assert_int_equal(R->periods[p].first, next);
			assert_true(R->periods[p].last >= R->periods[p].first);
			next = R->periods[p].last + 1;
		}
		assert_int_equal(next, lat->nwindows);
	}
	assert_int_equal(ranks, t->nranks);
	assert_int_equal(inside + crossing / 2, t->nmsgs);
	assert_int_equal(crossing % 2, 0);
	uint64_t wn = 0, wc = 0;
	for (uint32_t w = 0; w < lat->nwindows; w++) {
		wn += lat->win_all[w].n;
		wc += lat->win_class[2 * w].n + lat->win_class[2 * w + 1].n;
	}
	assert_int_equal(wn, t->nmsgs);
	assert_int_equal(wc, t->nmsgs);
	uint64_t delayed = 0;
	for (size_t i = 0; i < t->nmsgs; i++) {
		assert_true(lat->transfer[i] >= 0 && isfinite(lat->transfer[i]));
		assert_true(lat->l[i] >= 0 && isfinite(lat->l[i]));
		assert_true(lat->bucket[i] < lat->nbuckets[lat->cls[i]]);
		assert_true(lat->window[i] < lat->nwindows);
		assert_int_equal(lat->cls[i], tc_same_node(t, t->msgs[i].src, t->msgs[i].dst) ? TC_LAT_INTRA : TC_LAT_INTER);
		delayed += lat->l[i] > 1;
	}
	assert_int_equal(delayed, lat->delayed);
	for (int c = 0; c < TC_LAT_NCLASS; c++)
		for (uint32_t b = 0; b < lat->nbuckets[c]; b++) {
			const struct tc_lat_bucket *k = &lat->criteria[c][b];
			assert_true(k->count > 0 && k->lo <= k->hi && k->criterion >= 0);
			if (b) assert_true(k->lo > lat->criteria[c][b - 1].hi);
		}
}

static void test_all_traces(void **state)
{
	(void)state;
	DIR *d = opendir(tk_traces_dir());
	if (!d) skip();
	struct dirent *e;
	int n = 0;
	FILE *null = fopen("/dev/null", "w");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.') continue;
		char *path = xasprintf("%s/%s", tk_traces_dir(), e->d_name);
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) { free(path); continue; }
		char *err = NULL;
		struct tc_trace *t = tc_read_otf2(path, NULL, &err);
		if (!t) fail_msg("%s: %s", path, err ? err : "?");
		struct tc_session *s = session_new(t);
		const struct tc_latency *lat = session_latency(s);
		assert_non_null(lat);
		assert_ptr_equal(lat, session_latency(s));   /* cached */
		check_invariants(lat);
		const char *sec[] = { "regions", "latency", "evolution" };
		for (int i = 0; i < 3; i++) {
			const struct report_section *r = report_find(sec[i]);
			assert_non_null(r);
			struct json j;
			json_init(&j, null, 0);
			r->json(s, &j);
			r->text(s, null);
		}
		print_message("%-40s %5u ranks %6zu msgs %3u regions %2u windows\n", e->d_name, t->nranks, t->nmsgs,
			      lat->nregions, lat->nwindows);
		session_free(s);
		free(path);
		n++;
	}
	closedir(d);
	fclose(null);
	assert_int_equal(n, 15);
}

static struct tc_trace *load(const char *name)
{
	return tk_load(name, 0);
}

/* Exact values of small traces (checked against `tracecomb info` and by hand). */
static void test_known_traces(void **state)
{
	(void)state;
	struct tc_trace *t = load("pipit-ping-pong-2p");
	if (!t) skip();
	struct tc_latency *lat = tc_latency_compute(t, NULL);
	assert_int_equal(t->nmsgs, 16);
	assert_int_equal(lat->nregions, 1);
	assert_int_equal(lat->regions[0].nranks, 2);
	assert_int_equal(lat->regions[0].messages_inside, 16);
	assert_int_equal(lat->nbuckets[TC_LAT_INTER], 0);
	/* median criterion: half the messages of a full bucket are above it */
	tc_latency_free(lat);
	tc_trace_free(t);

	t = load("tracer-stencil4d-64p");
	assert_non_null(t);
	lat = tc_latency_compute(t, NULL);
	assert_int_equal(t->nmsgs, 1024);
	/* 2×2 blocks of the heavier pairs: 16 regions of 4 consecutive ranks, 2 nodes each */
	assert_int_equal(lat->nregions, 16);
	for (uint32_t i = 0; i < 16; i++) {
		assert_int_equal(lat->regions[i].nranks, 4);
		assert_int_equal(lat->regions[i].ranks[0], 4 * i);
		assert_int_equal(lat->regions[i].nnodes, 2);
		assert_int_equal(lat->regions[i].messages_inside, 32);
		assert_int_equal(lat->regions[i].messages_crossing, 64);
	}
	assert_int_equal(lat->criteria[TC_LAT_INTRA][0].count, 768);
	assert_int_equal(lat->criteria[TC_LAT_INTER][0].count, 256);
	/* every message in one size bucket per class: exactly half above each median */
	assert_int_equal(lat->delayed, 512);
	tc_latency_free(lat);
	tc_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_traces),
		cmocka_unit_test(test_known_traces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
