/*
 * errno across component calls (tests/runtime/suite_wrappers.c and
 * tests/starpu/test_starpu.c, the same test for both runtimes).  A legacy
 * program reads errno after a library call (gzopen's ENOENT, log's EDOM):
 * composed, the call may run on a worker thread, whose errno is not the
 * caller's, and gzopen on a worker left the caller's errno 0.  So a
 * synchronous call's variant starts with the caller's errno and the caller
 * gets back what the variant left, wherever it ran; the unregistration an
 * entry wrapper makes after the call keeps it; an asynchronous call and a
 * split one leave the caller's errno as it was.
 */
#ifndef TESTS_CALL_ERRNO_H
#define TESTS_CALL_ERRNO_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define ERRNO_CALLS 40

static atomic_int errno_wrong_start, errno_elsewhere;
static pthread_t errno_caller;

/* arg: the errno it should start with, the one to leave */
static void errno_variant(void *buffers[], void *arg)
{
	const int *e = (const int *)arg;

	(void)buffers;
	if (errno != e[0])
		atomic_fetch_add(&errno_wrong_start, 1);
	if (!pthread_equal(pthread_self(), errno_caller))
		atomic_fetch_add(&errno_elsewhere, 1);
	errno = e[1];
}

static const struct pph_impl errno_impls[] = {
	{ PPH_ARCH_CPU, errno_variant, "errno_cpu", 0 },
};
static const struct pph_codelet errno_cl = { "call_errno", 1, errno_impls, PPH_MODEL_DEFAULT };

/* 0, or the number of wrong errno values seen; *elsewhere: the calls that
 * ran on another thread than the caller's */
static int call_errno(int *elsewhere)
{
	static const int parts[1] = { 0 };
	int v[64] = { 0 }, e[2], i, wrong = 0;
	pph_data_handle h;
	enum pph_access mode = PPH_RW;

	errno_caller = pthread_self();
	atomic_store(&errno_wrong_start, 0);
	atomic_store(&errno_elsewhere, 0);
	if (pph_vector_register(&h, v, 64, sizeof(int)) != 0)
		return -1;
	for (i = 0; i < ERRNO_CALLS; i++) {
		e[0] = 100 + i;
		e[1] = 200 + i;
		errno = e[0];
		if (pph_call_sync(&errno_cl, PPH_ALL_IMPLS, 1, &h, &mode, e, sizeof(e)) != 0 ||
		    errno != e[1]) {
			fprintf(stderr, "call_errno: synchronous call %d: errno %d, expected %d\n", i,
				errno, e[1]);
			wrong++;
		}
	}
	/* asynchronous and split calls: the caller's errno stays */
	e[0] = 7;
	e[1] = 300;
	errno = 7;
	if (pph_call_async(&errno_cl, PPH_ALL_IMPLS, 1, &h, &mode, e, sizeof(e)) != 0 ||
	    errno != 7) {
		fprintf(stderr, "call_errno: asynchronous call: errno %d, expected 7\n", errno);
		wrong++;
	}
	errno = 7;
	if (pph_call_partitioned(&errno_cl, PPH_ALL_IMPLS, 1, &h, &mode, parts, e, sizeof(e)) != 0 ||
	    errno != 7) {
		fprintf(stderr, "call_errno: split call: errno %d, expected 7\n", errno);
		wrong++;
	}
	/* the last synchronous call's errno through the unregistration */
	e[0] = 7;
	e[1] = 400;
	errno = 7;
	if (pph_call_sync(&errno_cl, PPH_ALL_IMPLS, 1, &h, &mode, e, sizeof(e)) != 0)
		wrong++;
	pph_data_unregister(h);
	if (errno != 400) {
		fprintf(stderr, "call_errno: after the unregistration: errno %d, expected 400\n",
			errno);
		wrong++;
	}
	if (atomic_load(&errno_wrong_start)) {
		fprintf(stderr, "call_errno: %d variants started with another errno than the caller's\n",
			atomic_load(&errno_wrong_start));
		wrong += atomic_load(&errno_wrong_start);
	}
	*elsewhere = atomic_load(&errno_elsewhere);
	return wrong;
}

#endif
