/* tc_trace.h — optional user regions for the tracecomb MPI tracer (libtctrace.so).
 *
 *   #include "tc_trace.h"
 *   tc_region_begin("compute");
 *   ...
 *   tc_region_end("compute");
 *
 * The functions look the tracer up at run time (dlsym on the global scope), so
 * a program using them runs unchanged without the tracer: the calls then do
 * nothing.  With LD_PRELOAD=libtctrace.so they become Enter/Leave events of a
 * user region (paradigm USER) on the calling rank.  Regions must nest properly;
 * calls before MPI_Init, after MPI_Finalize or from threads other than the one
 * that initialised MPI are ignored.  Link with -ldl on glibc older than 2.34. */
#ifndef TC_TRACE_H
#define TC_TRACE_H

#include <dlfcn.h>
#include <stddef.h>

typedef void (*tc_trace_region_fn)(const char *name);

static inline tc_trace_region_fn tc_trace_lookup_(const char *sym)
{
	tc_trace_region_fn fn = NULL;
	void *self = dlopen(NULL, RTLD_LAZY);
	if (self) {
		void *p = dlsym(self, sym);
		/* POSIX-sanctioned conversion of an object pointer to a function pointer */
		*(void **)(&fn) = p;
		dlclose(self);
	}
	return fn;
}

static inline void tc_region_begin(const char *name)
{
	static int looked;
	static tc_trace_region_fn fn;
	if (!looked) { fn = tc_trace_lookup_("tctrace_region_begin"); looked = 1; }
	if (fn) fn(name);
}

static inline void tc_region_end(const char *name)
{
	static int looked;
	static tc_trace_region_fn fn;
	if (!looked) { fn = tc_trace_lookup_("tctrace_region_end"); looked = 1; }
	if (fn) fn(name);
}

#endif
