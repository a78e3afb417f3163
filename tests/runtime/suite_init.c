/* Unit tests of runtime/init.c: starting and stopping the runtime. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "internal.h"
#include "suites.h"
#include "testutil.h"

static void test_init_twice(void)
{
	CU_ASSERT_EQUAL(pph_init(), -EALREADY);
	pph_shutdown();
	CU_ASSERT_FALSE(pph_is_initialized());
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_worker_count(), 2);
	pph_shutdown();
	setenv("PEPPHER_NCPU", "3", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_worker_count(), 3);
	pph_shutdown();
	setenv("PEPPHER_NCPU", "2", 1);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

static void test_bad_environment(void)
{
	struct pph_task *t;

	pph_shutdown();
	t = pph_task_create(&two_cl);
	CU_ASSERT_EQUAL(pph_task_submit(t), -ENODEV); /* not initialized */
	pph_task_destroy(t);
	setenv("PEPPHER_SCHED", "bogus", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	setenv("PEPPHER_SCHED", sched_name, 1);
	setenv("PEPPHER_NCPU", "zero", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	setenv("PEPPHER_NCPU", "2", 1);
	setenv("PEPPHER_UNDEFERRED", "maybe", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	unsetenv("PEPPHER_UNDEFERRED");
	{ /* refused as PEPPHER_NCPU is, not taken for "all devices" */
		const char *ocl = getenv("PEPPHER_NOPENCL");
		char *saved = ocl ? strdup(ocl) : NULL;

		setenv("PEPPHER_NOPENCL", "abc", 1);
		CU_ASSERT_EQUAL(pph_init(), -EINVAL);
		CU_ASSERT_STRING_EQUAL(pph__init_error(),
				       "PEPPHER_NOPENCL=abc: expected a number of devices from 0 to 7");
		if (saved)
			setenv("PEPPHER_NOPENCL", saved, 1);
		else
			unsetenv("PEPPHER_NOPENCL");
		free(saved);
	}
	setenv("PEPPHER_STATS", "yes", 1);
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	unsetenv("PEPPHER_STATS");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* A call made before pph_init() failed: PEPPHER_SHUTDOWN() must not exit 0
 * for it, so pph_init() keeps it counted. */
static void test_failed_before_init(void)
{
	unsigned long failed = pph_failed_calls();
	pph_data_handle h;
	int x = 0;

	pph_shutdown();
	pph_vector_register(&h, &x, 1, sizeof(x));
	CU_ASSERT_EQUAL(pph_call_sync(&two_cl, PPH_ALL_IMPLS, 1, &h, (enum pph_access[]){ PPH_RW },
				      NULL, 0), -ENODEV);
	pph_call_failed(&two_cl, -ENODEV); /* as an entry wrapper does */
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(pph_init(), 0);
	CU_ASSERT_EQUAL(pph_failed_calls(), failed + 1);
}

/*
 * pph_init_conf: the program's counts, the environment's where it sets
 * them (test_runtime sets PEPPHER_NOPENCL=0 and PEPPHER_NCUDA=0, so the
 * OpenCL device is looked at with them unset).
 */
static void test_conf(void)
{
	struct pph_conf conf;
	unsigned with_opencl;

	pph_shutdown();
	pph_conf_init(&conf);
	CU_ASSERT_TRUE(conf.ncpu == -1 && conf.ncuda == -1 && conf.nopencl == -1 && conf.openmp == -1);
	unsetenv("PEPPHER_NCPU");
	unsetenv("PEPPHER_NOPENCL");
	conf.ncpu = 3;
	CU_ASSERT_EQUAL_FATAL(pph_init_conf(&conf), 0);
	CU_ASSERT_EQUAL(pph_worker_count_arch(PPH_ARCH_CPU), 3);
	with_opencl = pph_worker_count_arch(PPH_ARCH_OPENCL); /* 1 with PoCL */
	pph_shutdown();
	conf.nopencl = 0;
	CU_ASSERT_EQUAL_FATAL(pph_init_conf(&conf), 0);
	CU_ASSERT_EQUAL(pph_worker_count_arch(PPH_ARCH_OPENCL), 0);
	CU_ASSERT_EQUAL(pph_worker_count(), 3);
	pph_shutdown();
	/* the environment wins */
	setenv("PEPPHER_NCPU", "2", 1);
	setenv("PEPPHER_NOPENCL", "1", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init_conf(&conf), 0);
	CU_ASSERT_EQUAL(pph_worker_count_arch(PPH_ARCH_CPU), 2);
	CU_ASSERT_EQUAL(pph_worker_count_arch(PPH_ARCH_OPENCL), with_opencl);
	pph_shutdown();
	setenv("PEPPHER_NOPENCL", "0", 1);
	unsetenv("PEPPHER_NCPU");
	conf.ncpu = 0;
	CU_ASSERT_EQUAL(pph_init_conf(&conf), -EINVAL);
	conf.ncpu = 2;
	conf.openmp = 2;
	CU_ASSERT_EQUAL(pph_init_conf(&conf), -EINVAL);
	CU_ASSERT_STRING_EQUAL(pph__init_error(),
			       "pph_conf: openmp=2: expected 1 (start the OpenMP teams at pph_init), 0 (at their first use) or -1 (1 where the program links OpenMP)");
	setenv("PEPPHER_NCPU", "2", 1);
	CU_ASSERT_EQUAL(pph_init_conf(NULL), 0);
	CU_ASSERT_EQUAL(pph_worker_count(), 2);
}

void add_init_suite(void)
{
	CU_pSuite s = CU_add_suite("init", init_dmda, suite_clean);

	CU_add_test(s, "init and shutdown again", test_init_twice);
	CU_add_test(s, "bad environment", test_bad_environment);
	CU_add_test(s, "a call before pph_init stays counted as failed", test_failed_before_init);
	CU_add_test(s, "a program's counts, the environment's first", test_conf);
}
