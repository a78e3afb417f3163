/*
 * Unit tests of libpeppher, one suite file per runtime source file covered
 * (suite_FILE.c; what they share is in suites.c).  Every result is checked
 * against a sequential computation.
 */
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "suites.h"
#include "testutil.h"

/* The suites run under each scheduler: task.c, wrappers.c, workers.c,
 * data.c, deps.c and redux.c. */
static void add_scheduler_suites(const char *name, int (*init)(void))
{
	static const struct {
		const char *file;
		void (*add)(CU_pSuite);
	} files[] = {
		{ "task", add_task_tests },	  { "wrappers", add_wrappers_tests },
		{ "workers", add_workers_tests }, { "data", add_data_tests },
		{ "deps", add_deps_tests },	  { "redux", add_redux_tests },
	};
	static char titles[3 * sizeof(files) / sizeof(files[0])][32]; /* CUnit keeps the names */
	static unsigned ntitles;
	unsigned i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *title = titles[ntitles++];

		snprintf(title, sizeof(titles[0]), "%s [%s]", files[i].file, name);
		files[i].add(CU_add_suite(title, init, suite_clean));
	}
}

int main(void)
{
	int failed;

	/* performance models of this run only, whatever PEPPHER_HOME says */
	if (!test_home_begin("test"))
		return 1;
	setenv("PEPPHER_NOPENCL", "0", 1); /* CPU workers only: see test_data */
	setenv("PEPPHER_NCUDA", "0", 1);  /* and test_cuda */
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	add_scheduler_suites("eager", init_eager);
	add_scheduler_suites("ws", init_ws);
	add_scheduler_suites("dmda", init_dmda);
	add_sched_suites();
	add_submit_suite();
	add_init_suite();
	add_stats_suite();
	add_trace_suite();
	failed = test_run_registry();
	return test_home_end() != 0 || failed;
}
