/* Unit tests of runtime/wrappers.c: the calls generated entry wrappers make. */
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

static void test_sync_call(void)
{
	double out = 0;
	struct args3 a = { 1.5, 4, "abc" };
	pph_data_handle h;
	enum pph_access mode = PPH_W;

	CU_ASSERT_EQUAL_FATAL(pph_variable_register(&h, &out, sizeof(out)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&args_cl, PPH_ALL_IMPLS, 1, &h, &mode, &a, sizeof(a)), 0);
	CU_ASSERT_DOUBLE_EQUAL(out, 9.0, 1e-12);
	pph_data_unregister(h);
}

void add_wrappers_tests(CU_pSuite s)
{
	CU_add_test(s, "synchronous call", test_sync_call);
}
