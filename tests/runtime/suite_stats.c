/* Unit tests of runtime/stats.c: per-worker statistics. */
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

#include "suites.h"
#include "testutil.h"

static void test_stats(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	struct pph_task *t;

	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	t = pph_task_create(&two_cl);
	pph_task_force_impl(t, 1);
	pph_task_submit(t);
	pph_task_wait(t);
	pph_task_destroy(t);
	fp = open_memstream(&buf, &len);
	pph_stats_print(fp);
	fclose(fp);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "worker 0 (CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "worker 1 (CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    two/b: 1 tasks, "));
	CU_ASSERT_PTR_NULL(strstr(buf, "two/a"));
	free(buf);
}

void add_stats_suite(void)
{
	CU_pSuite s = CU_add_suite("stats", init_dmda, suite_clean);

	CU_add_test(s, "variants per worker", test_stats);
}
