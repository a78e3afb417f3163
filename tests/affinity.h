/*
 * The CPU workers follow the binding of the thread that calls pph_init
 * (taskset, mpirun's --bind-to): the same test for both runtimes
 * (tests/runtime/suite_init.c, tests/starpu/test_starpu.c).  The runtime
 * runs when the test starts and when it ends.
 */
#ifndef TESTS_AFFINITY_H
#define TESTS_AFFINITY_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include <peppher/runtime.h>

static cpu_set_t affinity_seen; /* the variant's thread's, as it ran */

static void k_affinity(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	CPU_ZERO(&affinity_seen);
	(void)sched_getaffinity(0, sizeof(affinity_seen), &affinity_seen);
}

static const struct pph_impl affinity_impls[] = { { PPH_ARCH_CPU, k_affinity, "affinity", 0 } };
static const struct pph_codelet affinity_cl = { "affinity", 1, affinity_impls, PPH_MODEL_DEFAULT };

/*
 * Bound to one CPU, pph_init starts one CPU worker (PEPPHER_NCPU unset),
 * with or without OpenCL workers, and its variants run on that CPU: both runtimes started one worker per
 * core of the machine and bound them all over it (two MPI ranks bound to
 * a core each shared both cores with four workers).  PEPPHER_NCPU still
 * says how many: they share the CPU.
 */
static void test_bound_thread(void)
{
	const char *ncpu = getenv("PEPPHER_NCPU"), *nopencl;
	char *saved_ncpu = ncpu ? strdup(ncpu) : NULL, *saved_nopencl;
	cpu_set_t all, one;
	int last = -1, i;

	if (sched_getaffinity(0, sizeof(all), &all) != 0 || CPU_COUNT(&all) < 2) {
		fprintf(stderr, "(skipped: this thread may run on one CPU only) ");
		free(saved_ncpu);
		return;
	}
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &all))
			last = i;
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(sched_setaffinity(0, sizeof(one), &one), 0);
	unsetenv("PEPPHER_NCPU");
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_worker_count_arch(PPH_ARCH_CPU), 1);
	CU_ASSERT_EQUAL(pph_call_sync(&affinity_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	CU_ASSERT_TRUE(CPU_EQUAL(&affinity_seen, &one));
	pph_shutdown();
	/* with the OpenCL devices (PoCL's CPU device), still a CPU worker:
	 * StarPU's default, a core less per device worker, left none */
	nopencl = getenv("PEPPHER_NOPENCL");
	saved_nopencl = nopencl ? strdup(nopencl) : NULL;
	unsetenv("PEPPHER_NOPENCL");
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_worker_count_arch(PPH_ARCH_CPU), 1);
	CU_ASSERT_EQUAL(pph_call_sync(&affinity_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	pph_shutdown();
	if (saved_nopencl)
		setenv("PEPPHER_NOPENCL", saved_nopencl, 1);
	free(saved_nopencl);
	setenv("PEPPHER_NCPU", "2", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_worker_count_arch(PPH_ARCH_CPU), 2);
	CU_ASSERT_EQUAL(pph_call_sync(&affinity_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	CU_ASSERT_TRUE(CPU_EQUAL(&affinity_seen, &one));
	pph_shutdown();
	CU_ASSERT_EQUAL(sched_setaffinity(0, sizeof(all), &all), 0);
	if (saved_ncpu)
		setenv("PEPPHER_NCPU", saved_ncpu, 1);
	else
		unsetenv("PEPPHER_NCPU");
	free(saved_ncpu);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

#endif
