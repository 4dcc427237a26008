/* test_otfw.c — the test archive writer produces archives otf2-print reads,
 * with exactly the events and definitions that were asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "otfw.h"
#include "util.h"

struct fixture {
	char dir[64];
	char *events;    /* otf2-print output */
	char *defs;      /* otf2-print -G output */
	int events_rc, defs_rc;
};

static char *run(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	if (!p) return NULL;
	struct strbuf b;
	sb_init(&b);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0) sb_addn(&b, buf, n);
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return sb_detach(&b);
}

/* Number of lines whose first word is exactly `kind`. */
static int count_kind(const char *out, const char *kind)
{
	int n = 0;
	size_t k = strlen(kind);
	for (const char *l = out; l && *l;) {
		if (strncmp(l, kind, k) == 0 && (l[k] == ' ' || l[k] == '\t')) n++;
		const char *nl = strchr(l, '\n');
		if (!nl) break;
		l = nl + 1;
	}
	return n;
}

/* The one line starting with `kind` that contains `needle`, or NULL. */
static int has_line(const char *out, const char *kind, const char *needle)
{
	int n = 0;
	size_t k = strlen(kind);
	for (const char *l = out; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (strncmp(l, kind, k) == 0 && l[k] == ' ') {
			char *line = xmalloc(len + 1);
			memcpy(line, l, len);
			line[len] = '\0';
			if (strstr(line, needle)) n++;
			free(line);
		}
		if (!nl) break;
		l = nl + 1;
	}
	return n;
}

/* 3 ranks: 0 and 1 on node 0, 2 on node 1; sub-communicator "pair" = {0, 2}. */
static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	*state = f;   /* teardown frees it even when setup fails */
	strcpy(f->dir, "/tmp/test_otfw.XXXXXX");
	if (!mkdtemp(f->dir)) return -1;
	static const uint32_t node_of[3] = { 0, 0, 1 };
	struct otfw *w = otfw_open(f->dir, 3, node_of, 2, 1000000000);
	if (!w) return -1;
	uint32_t main_r = otfw_region(w, "main");
	uint32_t send_r = otfw_region(w, "MPI_Send"), recv_r = otfw_region(w, "MPI_Recv");
	uint32_t isend_r = otfw_region(w, "MPI_Isend"), irecv_r = otfw_region(w, "MPI_Irecv");
	uint32_t waitall_r = otfw_region(w, "MPI_Waitall"), barrier_r = otfw_region(w, "MPI_Barrier");
	if (otfw_region(w, "MPI_Send") != send_r) return -1;
	static const uint32_t pair_members[2] = { 0, 2 };
	uint32_t pair = otfw_comm(w, "pair", 2, pair_members);

	/* rank 0: Send to 1 on world, Isend to comm rank 1 (= world 2) on pair, Waitall, Barrier */
	otfw_enter(w, 0, 10, main_r);
	otfw_enter(w, 0, 20, send_r);
	otfw_send(w, 0, 21, 1, OTFW_COMM_WORLD, 5, 100);
	otfw_leave(w, 0, 22, send_r);
	otfw_enter(w, 0, 30, isend_r);
	otfw_isend(w, 0, 31, 1, pair, 7, 2048, 1);
	otfw_leave(w, 0, 32, isend_r);
	otfw_enter(w, 0, 40, waitall_r);
	otfw_isend_complete(w, 0, 45, 1);
	otfw_leave(w, 0, 46, waitall_r);
	/* rank 1: Recv from 0 */
	otfw_enter(w, 1, 10, main_r);
	otfw_enter(w, 1, 15, recv_r);
	otfw_recv(w, 1, 25, 0, OTFW_COMM_WORLD, 5, 100);
	otfw_leave(w, 1, 26, recv_r);
	/* rank 2: Irecv from comm rank 0 of pair, completed in Waitall */
	otfw_enter(w, 2, 12, main_r);
	otfw_enter(w, 2, 20, irecv_r);
	otfw_irecv_request(w, 2, 21, 9);
	otfw_leave(w, 2, 22, irecv_r);
	otfw_enter(w, 2, 35, waitall_r);
	otfw_irecv(w, 2, 44, 0, pair, 7, 2048, 9);
	otfw_leave(w, 2, 45, waitall_r);
	for (uint32_t r = 0; r < 3; r++) {
		otfw_enter(w, r, 50, barrier_r);
		otfw_coll_begin(w, r, 51);
		otfw_coll_end(w, r, 60, OTF2_COLLECTIVE_OP_BARRIER, OTFW_COMM_WORLD, OTF2_UNDEFINED_UINT32, 0, 0);
		otfw_leave(w, r, 61, barrier_r);
	}
	/* MPI_Bcast on "pair" rooted at comm rank 1 (world rank 2) */
	uint32_t bcast_r = otfw_region(w, "MPI_Bcast");
	otfw_enter(w, 0, 62, bcast_r);
	otfw_coll_begin(w, 0, 62);
	otfw_coll_end(w, 0, 66, OTF2_COLLECTIVE_OP_BCAST, pair, 1, 0, 256);
	otfw_leave(w, 0, 67, bcast_r);
	otfw_enter(w, 2, 61, bcast_r);
	otfw_coll_begin(w, 2, 61);
	otfw_coll_end(w, 2, 61, OTF2_COLLECTIVE_OP_BCAST, pair, 1, 256, 0);
	otfw_leave(w, 2, 61, bcast_r);
	otfw_measurement(w, 2, 62, false);
	otfw_measurement(w, 2, 63, true);
	otfw_leave(w, 0, 70, main_r);
	otfw_leave(w, 1, 70, main_r);
	otfw_leave(w, 2, 80, main_r);
	if (otfw_events(w) != 46 || otfw_rank_events(w, 0) != 19 || otfw_rank_events(w, 1) != 9 ||
	    otfw_rank_events(w, 2) != 18)
		return -1;
	if (otfw_close(w) != 0) return -1;

	char *cmd = xasprintf("otf2-print %s/traces.otf2 2>&1", f->dir);
	f->events = run(cmd, &f->events_rc);
	free(cmd);
	cmd = xasprintf("otf2-print -G %s/traces.otf2 2>&1", f->dir);
	f->defs = run(cmd, &f->defs_rc);
	free(cmd);
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (!f) return 0;
	char *cmd = xasprintf("rm -rf '%s'", f->dir);
	int rc = system(cmd);
	free(cmd);
	free(f->events);
	free(f->defs);
	free(f);
	return rc == 0 ? 0 : -1;
}

static void test_otf2_print_ok(void **state)
{
	struct fixture *f = *state;
	assert_non_null(f->events);
	assert_non_null(f->defs);
	assert_int_equal(f->events_rc, 0);
	assert_int_equal(f->defs_rc, 0);
}

static void test_event_counts(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(count_kind(f->events, "ENTER"), 14);
	assert_int_equal(count_kind(f->events, "LEAVE"), 14);
	assert_int_equal(count_kind(f->events, "MPI_SEND"), 1);
	assert_int_equal(count_kind(f->events, "MPI_RECV"), 1);
	assert_int_equal(count_kind(f->events, "MPI_ISEND"), 1);
	assert_int_equal(count_kind(f->events, "MPI_ISEND_COMPLETE"), 1);
	assert_int_equal(count_kind(f->events, "MPI_IRECV_REQUEST"), 1);
	assert_int_equal(count_kind(f->events, "MPI_IRECV"), 1);
	assert_int_equal(count_kind(f->events, "MPI_COLLECTIVE_BEGIN"), 5);
	assert_int_equal(count_kind(f->events, "MPI_COLLECTIVE_END"), 5);
	assert_int_equal(count_kind(f->events, "MEASUREMENT_ON_OFF"), 2);
	assert_int_equal(count_kind(f->events, "BUFFER_FLUSH"), 0);
}

static void test_event_fields(void **state)
{
	struct fixture *f = *state;
	const char *e = f->events;
	/* location 0 at t=21: receiver 1 on world */
	assert_int_equal(has_line(e, "MPI_SEND", " 0 "), 1);
	assert_int_equal(has_line(e, "MPI_SEND", " 21  Receiver: 1 (\"Master thread\" <1>), "
					     "Communicator: \"MPI_COMM_WORLD\" <0>, Tag: 5, Length: 100"), 1);
	assert_int_equal(has_line(e, "MPI_RECV", " 25  Sender: 0 (\"Master thread\" <0>), "
					     "Communicator: \"MPI_COMM_WORLD\" <0>, Tag: 5, Length: 100"), 1);
	/* comm rank 1 of "pair" is world rank 2 */
	assert_int_equal(has_line(e, "MPI_ISEND", " 31  Receiver: 1 (\"Master thread\" <2>), "
					      "Communicator: \"pair\" <2>, Tag: 7, Length: 2048, Request: 1"), 1);
	assert_int_equal(has_line(e, "MPI_IRECV", " 44  Sender: 0 (\"Master thread\" <0>), "
					      "Communicator: \"pair\" <2>, Tag: 7, Length: 2048, Request: 9"), 1);
	assert_int_equal(has_line(e, "MPI_IRECV_REQUEST", " 21  Request: 9"), 1);
	assert_int_equal(has_line(e, "MPI_ISEND_COMPLETE", " 45  Request: 1"), 1);
	assert_int_equal(has_line(e, "MPI_COLLECTIVE_END", "Operation: BARRIER, Communicator: \"MPI_COMM_WORLD\""), 3);
	assert_int_equal(has_line(e, "MPI_COLLECTIVE_END", " 66  Operation: BCAST, Communicator: \"pair\" <2>, "
						       "Root: 1 (\"Master thread\" <2>), Sent: 0, Received: 256"), 1);
	assert_int_equal(has_line(e, "ENTER", "Region: \"MPI_Waitall\""), 2);
	assert_int_equal(has_line(e, "MEASUREMENT_ON_OFF", " 62  Mode: OFF"), 1);
	assert_int_equal(has_line(e, "MEASUREMENT_ON_OFF", " 63  Mode: ON"), 1);
}

static void test_definitions(void **state)
{
	struct fixture *f = *state;
	const char *d = f->defs;
	assert_int_equal(has_line(d, "CLOCK_PROPERTIES", "Ticks per Seconds: 1000000000, Global Offset: 10, Length: 70"), 1);
	assert_int_equal(count_kind(d, "SYSTEM_TREE_NODE"), 3);
	assert_int_equal(has_line(d, "SYSTEM_TREE_NODE", "Name: \"node0\""), 1);
	assert_int_equal(has_line(d, "SYSTEM_TREE_NODE", "Name: \"node1\""), 1);
	assert_int_equal(has_line(d, "SYSTEM_TREE_NODE_DOMAIN", "Domain: SHARED_MEMORY"), 2);
	assert_int_equal(has_line(d, "LOCATION_GROUP", "\"MPI Rank 1\" <"), 1);
	assert_int_equal(has_line(d, "LOCATION_GROUP", "Type: PROCESS, Parent: \"node::node0\""), 2);
	assert_int_equal(has_line(d, "LOCATION_GROUP", "Name: \"MPI Rank 2\""), 1);
	assert_int_equal(has_line(d, "LOCATION_GROUP", "Type: PROCESS, Parent: \"node::node1\""), 1);
	assert_int_equal(count_kind(d, "LOCATION"), 3);
	assert_int_equal(has_line(d, "LOCATION", "Type: CPU_THREAD, # Events: 19, Group: \"MPI Rank 0\""), 1);
	assert_int_equal(has_line(d, "LOCATION", "Type: CPU_THREAD, # Events: 9, Group: \"MPI Rank 1\""), 1);
	assert_int_equal(has_line(d, "LOCATION", "Type: CPU_THREAD, # Events: 18, Group: \"MPI Rank 2\""), 1);
	assert_int_equal(has_line(d, "GROUP", "Type: COMM_LOCATIONS, Paradigm: \"MPI\""), 1);
	assert_int_equal(has_line(d, "GROUP", "Type: COMM_SELF"), 1);
	assert_int_equal(has_line(d, "GROUP", "Type: COMM_GROUP, Paradigm: \"MPI\" <4>, Flags: NONE, 3 Members"), 1);
	assert_int_equal(has_line(d, "GROUP", "Type: COMM_GROUP, Paradigm: \"MPI\" <4>, Flags: NONE, 2 Members: "
					      "0 (\"Master thread\" <0>), 2 (\"Master thread\" <2>)"), 1);
	assert_int_equal(count_kind(d, "COMM"), 3);
	assert_int_equal(has_line(d, "COMM", "Name: \"MPI_COMM_WORLD\""), 1);
	assert_int_equal(has_line(d, "COMM", "Name: \"MPI_COMM_SELF\""), 1);
	assert_int_equal(has_line(d, "COMM", "Name: \"pair\" <"), 1);
	assert_int_equal(has_line(d, "COMM", "Parent: \"MPI_COMM_WORLD\" <0>"), 1);
	assert_int_equal(has_line(d, "REGION", "Name: \"MPI_Barrier\""), 1);
	assert_int_equal(has_line(d, "REGION", "Role: BARRIER, Paradigm: \"MPI\""), 1);
	assert_int_equal(has_line(d, "REGION", "Role: POINT2POINT, Paradigm: \"MPI\""), 4);
	assert_int_equal(has_line(d, "REGION", "Role: FUNCTION, Paradigm: USER"), 1);
	assert_int_equal(has_line(d, "REGION", "Name: \"MPI_Bcast\" <"), 1);
	assert_int_equal(has_line(d, "REGION", "Role: COLL_ONE2ALL, Paradigm: \"MPI\""), 1);
	assert_int_equal(has_line(d, "REGION", "Role: FUNCTION, Paradigm: \"MPI\""), 1);   /* MPI_Waitall */
	assert_int_equal(count_kind(d, "REGION"), 8);
}

static void test_errors(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_otfw_err.XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct otfw *w = otfw_open(dir, 2, NULL, 1, 1000);
	assert_non_null(w);
	uint32_t r = otfw_region(w, "compute");
	otfw_enter(w, 0, 100, r);
	otfw_leave(w, 0, 99, r);   /* time goes backwards: an error */
	assert_int_equal(otfw_rank_events(w, 0), 1);
	assert_int_equal(otfw_close(w), -1);
	/* an archive is never overwritten */
	assert_null(otfw_open(dir, 2, NULL, 1, 1000));
	/* a node index out of range */
	static const uint32_t bad_nodes[2] = { 0, 2 };
	assert_null(otfw_open("/tmp/test_otfw_never_created", 2, bad_nodes, 2, 1000));
	char *cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_otf2_print_ok),
		cmocka_unit_test(test_event_counts),
		cmocka_unit_test(test_event_fields),
		cmocka_unit_test(test_definitions),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
