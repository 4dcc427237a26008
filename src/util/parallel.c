/* parallel.c — a parallel loop over [0, n): worker threads take indices from a
 * shared counter; the calling thread works too.  Falls back to a plain loop
 * when threads ≤ 1 or a thread cannot be started. */
#include <pthread.h>
#include <stdatomic.h>

#include "util.h"

struct pfor {
	void (*fn)(void *ctx, uint32_t i, int tid);
	void *ctx;
	uint32_t n;
	atomic_uint next;
};

struct pfor_arg { struct pfor *p; int tid; };

static void *pfor_run(void *arg)
{
	struct pfor_arg *a = arg;
	for (;;) {
		unsigned i = atomic_fetch_add(&a->p->next, 1);
		if (i >= a->p->n) break;
		a->p->fn(a->p->ctx, i, a->tid);
	}
	return NULL;
}

void tc_parallel_for(uint32_t n, int threads, void (*fn)(void *ctx, uint32_t i, int tid), void *ctx)
{
	if (threads > TC_MAX_THREADS) threads = TC_MAX_THREADS;
	if (threads > (int)n) threads = (int)n;
	struct pfor p = { .fn = fn, .ctx = ctx, .n = n };
	atomic_init(&p.next, 0);
	pthread_t th[TC_MAX_THREADS];
	struct pfor_arg args[TC_MAX_THREADS];
	int started = 0;
	for (int k = 1; k < threads; k++) {
		args[k] = (struct pfor_arg){ &p, k };
		if (pthread_create(&th[started], NULL, pfor_run, &args[k]) != 0) break;
		started++;
	}
	args[0] = (struct pfor_arg){ &p, 0 };
	pfor_run(&args[0]);
	for (int k = 0; k < started; k++) pthread_join(th[k], NULL);
}
