/*
 * A container shared by two threads (tests/runtime/suite_wrappers.c and
 * tests/starpu/test_starpu.c, the same test for both runtimes).  The
 * writer calls a component that fills the container with k, as an entry
 * wrapper does (pph_container_use, then the call), and reads an element
 * right after: README promises it sees k (calls on a container are
 * ordered by access mode whichever thread makes them; the element macros
 * make the host copy valid first).  The reader reads the container all the
 * while.  The host-access state was a plain field: the reader's read could
 * find it reset by pph_container_use before the task was submitted, wait
 * for nothing, and mark the host copy valid; the writer's read then
 * skipped pph_data_acquire and returned the value before its own call (1
 * in 20,000 calls on libpeppher, 5 in 5,000 on StarPU, in a composed
 * program).  Here the writer yields between pph_container_use and the
 * call, as a slower entry wrapper would, which makes the window wide.
 */
#ifndef TESTS_CONTAINER_RACE_H
#define TESTS_CONTAINER_RACE_H

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include <peppher/containers.h>
#include <peppher/wrappers.h>

#define RACE_N 256
#define RACE_CALLS 2000

static void race_fill_cpu(void *buffers[], void *arg)
{
	int *x = PPH_VECTOR_PTR(buffers[0]), k = *(const int *)arg;
	size_t i;

	usleep(20); /* not a tiny task: it is queued, not run at once */
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i] = k;
}

static const struct pph_impl race_fill_impls[] = { { PPH_ARCH_CPU, race_fill_cpu,
						       "race_fill_cpu", 0 } };
static const struct pph_codelet race_fill_cl = { "race_fill", 1, race_fill_impls,
						 PPH_MODEL_DEFAULT };

struct race {
	pph_vector *v;
	volatile int done;
	long reads;
};

static void *race_reader(void *arg)
{
	struct race *r = arg;
	volatile unsigned sink = 0; /* unsigned: a sum that wraps is no overflow */

	while (!r->done) {
		sink += (unsigned)PPH_VECTOR_GET(r->v, int, RACE_N - 1);
		r->reads++;
	}
	(void)sink;
	return NULL;
}

/* The number of the writer's reads that missed its own call's result. */
static int container_race(void)
{
	static const enum pph_access w = PPH_W;
	struct race r = { NULL, 0, 0 };
	pthread_t reader;
	int k, stale = 0;

	r.v = pph_vector_create(RACE_N, sizeof(int));
	if (!r.v || pthread_create(&reader, NULL, race_reader, &r) != 0)
		return -1;
	for (k = 1; k <= RACE_CALLS; k++) {
		pph_data_handle h = pph_container_use(&r.v->c, PPH_W);
		int got;

		sched_yield();
		if (pph_call_async(&race_fill_cl, PPH_ALL_IMPLS, 1, &h, &w, &k, sizeof(k)) != 0)
			stale++;
		got = PPH_VECTOR_GET(r.v, int, 0);
		if (got != k && stale++ < 5)
			fprintf(stderr, "container race: call %d: read %d after the writer's own call\n",
				k, got);
	}
	r.done = 1;
	pthread_join(reader, NULL);
	pph_vector_destroy(r.v);
	return stale;
}

#endif
