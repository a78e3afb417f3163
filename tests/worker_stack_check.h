/*
 * A worker's stack (runtime/worker_stack.h), checked on both runtimes
 * (tests/runtime/suite_init.c, tests/starpu/test_starpu.c): where the
 * program's stack is unlimited (ulimit -s unlimited, which HPC programs set
 * for their large automatic arrays) a worker's is PPH_STACK_UNLIMITED, not
 * glibc's 2 MiB, which a variant with 4 MiB of arrays on its stack
 * overflowed; PEPPHER_STACKSIZE sets it.  The variant uses 4 MiB of stack
 * and says how large its thread's stack is.
 */
#ifndef TESTS_WORKER_STACK_CHECK_H
#define TESTS_WORKER_STACK_CHECK_H

#include <pthread.h>
#include <string.h>

#include <sys/resource.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "../runtime/worker_stack.h"

static void big_frame(void *buffers[], void *arg)
{
	size_t *stack = (size_t *)PPH_VARIABLE_PTR(buffers[0]);
	volatile char frame[4 << 20];
	pthread_attr_t attr;

	(void)arg;
	memset((char *)frame, 1, sizeof(frame));
	*stack = 0;
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		pthread_attr_getstacksize(&attr, stack);
		pthread_attr_destroy(&attr);
	}
	*stack += (size_t)(frame[12345] - 1);
}

static const struct pph_impl big_frame_impls[] = { { PPH_ARCH_CPU, big_frame, "big_frame_cpu", 0 } };
static const struct pph_codelet big_frame_cl = { "big_frame", 1, big_frame_impls,
						 PPH_MODEL_DEFAULT };

/* The stack size of the thread that ran big_frame, 0 if the call failed. */
static size_t worker_stack_size(void)
{
	size_t stack = 0;
	pph_data_handle h;
	enum pph_access mode = PPH_W;

	if (pph_variable_register(&h, &stack, sizeof(stack)) != 0)
		return 0;
	if (pph_call_sync(&big_frame_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0) != 0)
		stack = 0;
	pph_data_unregister(h);
	return stack;
}

/* The runtime stopped: started where ulimit -s is unlimited (as the hard
 * limit allows: root, and most logins), its workers' stack into *stack,
 * and stopped again: 0; 1 where the limit cannot be lifted, -1 where
 * pph_init failed. */
static int unlimited_worker_stack(size_t *stack)
{
	struct rlimit old, unlimited;
	int rc = 0;

	*stack = 0;
	if (getrlimit(RLIMIT_STACK, &old) != 0)
		return 1;
	unlimited = old;
	unlimited.rlim_cur = RLIM_INFINITY;
	if (setrlimit(RLIMIT_STACK, &unlimited) != 0)
		return 1;
	if (pph_init() == 0) {
		*stack = worker_stack_size();
		pph_shutdown();
	} else {
		rc = -1;
	}
	setrlimit(RLIMIT_STACK, &old);
	return rc;
}

#endif
