/* rawdecode.c — the floor for load benchmarks: the best libotf2 can do to
 * decode every event of an OTF2 archive, with callbacks that only count
 * records by kind.
 *
 *   rawdecode [--threads N] [--kinds] ARCHIVE      (anchor file or its directory)
 *   prints:   events=N seconds=S cpu=C minflt=F    (wall, user+system seconds, minor page faults)
 *
 * Per location, one after the other: its local definitions (skipped when the
 * file holds none, tc_otf2_def_file_empty, as our loader does), then its event
 * reader opened, read to the end, closed.  Opening every location's reader
 * before reading any keeps every chunk buffer alive at once (on archives with
 * libotf2's default 1 MiB chunks: +68 k page faults, +264 MB, 3.8x slower at
 * 256 ranks).  One buffer is reused: glibc would otherwise return each freed
 * chunk buffer (above its mmap threshold) to the kernel and fault a fresh one
 * in for the next location, so the mmap threshold is raised above OTF2's
 * chunk sizes.  With --threads N > 1 one shared reader is used with the
 * pthread locking callbacks and each thread takes whole locations from a
 * shared counter. */
#include <dirent.h>
#include <malloc.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>
#include <otf2/OTF2_Pthread_Locks.h>

#include "read.h"
#include "util.h"

enum kind { K_ENTER, K_LEAVE, K_SEND, K_ISEND, K_ISEND_COMPLETE, K_IRECV_REQUEST, K_IRECV, K_RECV,
	    K_COLL_BEGIN, K_COLL_END, K_MEASUREMENT, K_OTHER, K_COUNT };
static const char *const kind_names[K_COUNT] = {
	"enter", "leave", "mpi_send", "mpi_isend", "mpi_isend_complete", "mpi_irecv_request",
	"mpi_irecv", "mpi_recv", "coll_begin", "coll_end", "measurement_on_off", "other",
};

struct counts { uint64_t n[K_COUNT]; uint64_t total; uint64_t tsum; };

#define CB_PROLOGUE OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud, OTF2_AttributeList *al
#define COUNT(k) do { struct counts *c_ = ud; c_->n[k]++; c_->tsum += t; (void)loc; (void)pos; (void)al; \
		      return OTF2_CALLBACK_SUCCESS; } while (0)

static OTF2_CallbackCode cb_enter(CB_PROLOGUE, OTF2_RegionRef r) { (void)r; COUNT(K_ENTER); }
static OTF2_CallbackCode cb_leave(CB_PROLOGUE, OTF2_RegionRef r) { (void)r; COUNT(K_LEAVE); }
static OTF2_CallbackCode cb_send(CB_PROLOGUE, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	(void)peer; (void)comm; (void)tag; (void)len;
	COUNT(K_SEND);
}
static OTF2_CallbackCode cb_isend(CB_PROLOGUE, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len,
				  uint64_t req)
{
	(void)peer; (void)comm; (void)tag; (void)len; (void)req;
	COUNT(K_ISEND);
}
static OTF2_CallbackCode cb_isend_complete(CB_PROLOGUE, uint64_t req) { (void)req; COUNT(K_ISEND_COMPLETE); }
static OTF2_CallbackCode cb_irecv_request(CB_PROLOGUE, uint64_t req) { (void)req; COUNT(K_IRECV_REQUEST); }
static OTF2_CallbackCode cb_irecv(CB_PROLOGUE, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len,
				  uint64_t req)
{
	(void)peer; (void)comm; (void)tag; (void)len; (void)req;
	COUNT(K_IRECV);
}
static OTF2_CallbackCode cb_recv(CB_PROLOGUE, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	(void)peer; (void)comm; (void)tag; (void)len;
	COUNT(K_RECV);
}
static OTF2_CallbackCode cb_coll_begin(CB_PROLOGUE) { COUNT(K_COLL_BEGIN); }
static OTF2_CallbackCode cb_coll_end(CB_PROLOGUE, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
				     uint64_t sent, uint64_t recvd)
{
	(void)op; (void)comm; (void)root; (void)sent; (void)recvd;
	COUNT(K_COLL_END);
}
static OTF2_CallbackCode cb_measurement(CB_PROLOGUE, OTF2_MeasurementMode m) { (void)m; COUNT(K_MEASUREMENT); }

struct defs { VEC(uint64_t) locs; };

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
				      OTF2_LocationType type, uint64_t nev, OTF2_LocationGroupRef group)
{
	(void)name; (void)type; (void)nev; (void)group;
	struct defs *d = ud;
	VEC_PUSH(d->locs, self);
	return OTF2_CALLBACK_SUCCESS;
}

struct worker {
	OTF2_Reader *r;
	const struct defs *defs;
	const bool *def_empty;   /* per location: its local .def holds nothing */
	bool have_defs;
	atomic_size_t *next;     /* next location to take */
	struct counts c;
	int failed;
};

static OTF2_EvtReaderCallbacks *counting_callbacks(void)
{
	OTF2_EvtReaderCallbacks *cbs = OTF2_EvtReaderCallbacks_New();
	OTF2_EvtReaderCallbacks_SetEnterCallback(cbs, cb_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cbs, cb_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cbs, cb_send);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cbs, cb_isend);
	OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cbs, cb_isend_complete);
	OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cbs, cb_irecv_request);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cbs, cb_irecv);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cbs, cb_recv);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cbs, cb_coll_begin);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cbs, cb_coll_end);
	OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cbs, cb_measurement);
	return cbs;
}

/* One location: local definitions, then every event; its readers closed. */
static void read_one(struct worker *w, OTF2_EvtReaderCallbacks *cbs, size_t i)
{
	uint64_t ref = w->defs->locs.a[i];
	if (w->have_defs && !w->def_empty[i]) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(w->r, ref);
		if (dr) {
			uint64_t n = 0;
			OTF2_ErrorCode rc;
			do rc = OTF2_Reader_ReadAllLocalDefinitions(w->r, dr, &n);
			while (rc == OTF2_ERROR_DUPLICATE_MAPPING_TABLE);
			OTF2_Reader_CloseDefReader(w->r, dr);
		}
	}
	OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(w->r, ref);
	if (!er) return;
	uint64_t got = 0;
	if (OTF2_Reader_RegisterEvtCallbacks(w->r, er, cbs, &w->c) != OTF2_SUCCESS ||
	    OTF2_Reader_ReadAllLocalEvents(w->r, er, &got) != OTF2_SUCCESS)
		w->failed = 1;
	w->c.total += got;
	OTF2_Reader_CloseEvtReader(w->r, er);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	OTF2_EvtReaderCallbacks *cbs = counting_callbacks();
	for (size_t i; (i = atomic_fetch_add(w->next, 1)) < w->defs->locs.n;) read_one(w, cbs, i);
	OTF2_EvtReaderCallbacks_Delete(cbs);
	return NULL;
}

/* ARCHIVE may be the anchor or a directory holding exactly one *.otf2. */
static char *anchor_of(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return xstrdup(path);
	DIR *d = opendir(path);
	if (!d) return xstrdup(path);
	char *found = NULL;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l > 5 && strcmp(e->d_name + l - 5, ".otf2") == 0) {
			if (!found) found = xasprintf("%s/%s", path, e->d_name);
			n++;
		}
	}
	closedir(d);
	if (n != 1) {
		fprintf(stderr, "rawdecode: %s holds %d *.otf2 files, need exactly one\n", path, n);
		exit(1);
	}
	return found;
}

#define CHECK(call)                                                                              \
	do {                                                                                     \
		OTF2_ErrorCode rc_ = (call);                                                     \
		if (rc_ != OTF2_SUCCESS) {                                                       \
			fprintf(stderr, "rawdecode: %s: %s\n", #call, OTF2_Error_GetDescription(rc_)); \
			return 1;                                                                \
		}                                                                                \
	} while (0)

static void usage_exit(void)
{
	fprintf(stderr, "usage: rawdecode [--threads N] [--kinds] ARCHIVE\n");
	exit(2);
}

/* The options; exits 2 on a bad command line. */
static const char *parse_args(int argc, char **argv, int *threads, bool *kinds)
{
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
			*threads = atoi(argv[++i]);
			if (*threads < 1 || *threads > 256) {
				fprintf(stderr, "rawdecode: bad --threads\n");
				exit(2);
			}
		} else if (strcmp(argv[i], "--kinds") == 0) {
			*kinds = true;
		} else if (argv[i][0] == '-' || path) {
			usage_exit();
		} else {
			path = argv[i];
		}
	}
	if (!path) usage_exit();
	return path;
}

/* The global definitions' locations into defs; non-zero on failure. */
static int read_global_defs(OTF2_Reader *r, const char *anchor, struct defs *defs)
{
	OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
	if (!gdr) {
		fprintf(stderr, "rawdecode: no global definitions in %s\n", anchor);
		return 1;
	}
	OTF2_GlobalDefReaderCallbacks *gcbs = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcbs, def_location);
	CHECK(OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, gcbs, defs));
	OTF2_GlobalDefReaderCallbacks_Delete(gcbs);
	uint64_t ndefs = 0;
	CHECK(OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &ndefs));
	CHECK(OTF2_Reader_CloseGlobalDefReader(r, gdr));
	return 0;
}

/* Which local .def files hold nothing (skipped, as our loader does);
 * *nonempty: how many do. */
static bool *empty_def_files(const char *anchor, const struct defs *defs, size_t *nonempty)
{
	bool *def_empty = xcalloc(defs->locs.n ? defs->locs.n : 1, sizeof *def_empty);
	*nonempty = 0;
	char *dir = xstrdup(anchor);
	if (strlen(dir) > 5) dir[strlen(dir) - 5] = '\0';   /* <dir>/<name>.otf2 → <dir>/<name> */
	for (size_t i = 0; i < defs->locs.n; i++) {
		char *p = xasprintf("%s/%llu.def", dir, (unsigned long long)defs->locs.a[i]);
		def_empty[i] = tc_otf2_def_file_empty(p);
		*nonempty += !def_empty[i];
		free(p);
	}
	free(dir);
	return def_empty;
}

/* Every location read by `threads` workers (the caller's thread alone when
 * 1), their counts summed into *total; non-zero when a thread could not
 * start or a read failed (*failed). */
static int run_workers(struct worker *proto, int threads, struct counts *total, int *failed)
{
	struct worker *ws = xcalloc((size_t)threads, sizeof(*ws));
	pthread_t *tids = xcalloc((size_t)threads, sizeof(*tids));
	int started = 0, rc = 0;
	for (int i = 0; i < threads; i++, started++) {
		ws[i] = *proto;
		if (threads == 1) work(&ws[i]);
		else if (pthread_create(&tids[i], NULL, work, &ws[i]) != 0) {
			fprintf(stderr, "rawdecode: cannot start a thread\n");
			rc = 1;
			break;
		}
	}
	*total = (struct counts){ 0 };
	*failed = 0;
	for (int i = 0; i < started; i++) {
		if (threads > 1) pthread_join(tids[i], NULL);
		for (int k = 0; k < K_COUNT; k++) total->n[k] += ws[i].c.n[k];
		total->total += ws[i].c.total;
		total->tsum += ws[i].c.tsum;
		*failed |= ws[i].failed;
	}
	free(ws);
	free(tids);
	return rc;
}

int main(int argc, char **argv)
{
	int threads = 1;
	bool kinds = false;
	const char *path = parse_args(argc, argv, &threads, &kinds);
	char *anchor = anchor_of(path);
	/* freed chunk buffers stay in the heap and are reused (see the top) */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	double t0 = tc_now();
	struct tc_usage u0 = tc_usage();
	OTF2_Reader *r = OTF2_Reader_Open(anchor);
	if (!r) {
		fprintf(stderr, "rawdecode: cannot open %s\n", anchor);
		return 1;
	}
	CHECK(OTF2_Reader_SetSerialCollectiveCallbacks(r));
	if (threads > 1) CHECK(OTF2_Pthread_Reader_SetLockingCallbacks(r, NULL));
	struct defs defs = { 0 };
	if (read_global_defs(r, anchor, &defs)) return 1;
	size_t nonempty;
	bool *def_empty = empty_def_files(anchor, &defs, &nonempty);
	for (size_t i = 0; i < defs.locs.n; i++) CHECK(OTF2_Reader_SelectLocation(r, defs.locs.a[i]));
	bool have_defs = nonempty && OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS;
	CHECK(OTF2_Reader_OpenEvtFiles(r));

	atomic_size_t next = 0;
	struct worker proto = { .r = r, .defs = &defs, .def_empty = def_empty, .have_defs = have_defs, .next = &next };
	struct counts total;
	int failed;
	if (run_workers(&proto, threads, &total, &failed)) return 1;
	if (have_defs) CHECK(OTF2_Reader_CloseDefFiles(r));
	CHECK(OTF2_Reader_CloseEvtFiles(r));
	CHECK(OTF2_Reader_Close(r));
	double secs = tc_now() - t0;
	struct tc_usage u1 = tc_usage();
	if (failed) {
		fprintf(stderr, "rawdecode: reading events of %s failed\n", anchor);
		return 1;
	}
	uint64_t counted = 0;
	for (int k = 0; k < K_OTHER; k++) counted += total.n[k];
	total.n[K_OTHER] = total.total - counted;
	printf("events=%llu seconds=%.3f cpu=%.3f minflt=%llu\n", (unsigned long long)total.total, secs,
	       u1.cpu - u0.cpu, (unsigned long long)(u1.minflt - u0.minflt));
	if (kinds) {
		for (int k = 0; k < K_COUNT; k++)
			printf("%s=%llu\n", kind_names[k], (unsigned long long)total.n[k]);
		printf("locations=%zu threads=%d\n", defs.locs.n, threads);
	}
	free(def_empty);
	VEC_FREE(defs.locs);
	free(anchor);
	return 0;
}
