/* Unit tests of runtime/workers.c: fork-join teams of CPU workers. */
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

/* Fork-join: an OPENMP variant has the CPU workers of its team to itself
 * (the suites run 2 CPU workers: a team of 2 is all of them). */
static atomic_int team_cpu_running, team_running, team_violations, team_cpu_runs, team_runs;

static void k_team_member(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&team_cpu_running, 1);
	if (atomic_load(&team_running))
		atomic_fetch_add(&team_violations, 1);
	spin_us(30);
	atomic_fetch_add(&team_cpu_runs, 1);
	atomic_fetch_sub(&team_cpu_running, 1);
}

static void k_team(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	int threads = pph_openmp_threads();

	if (threads < 1 || threads > 2)
		atomic_fetch_add(&team_violations, 1);
	if (threads == 2) {
		atomic_store(&team_running, 1);
		if (atomic_load(&team_cpu_running))
			atomic_fetch_add(&team_violations, 1);
	}
	spin_us(100);
	atomic_fetch_add(&team_runs, 1);
	atomic_store(&team_running, 0);
}

static const struct pph_impl team_impls[] = {
	{ PPH_ARCH_CPU, k_team_member, "member", 0 },
	{ PPH_ARCH_OPENMP, k_team, "team", 0 },
};
static const struct pph_codelet team_cl = { "team", 2, team_impls, PPH_MODEL_DEFAULT };

static void test_fork_join(void)
{
	int i;

	atomic_store(&team_violations, 0);
	atomic_store(&team_runs, 0);
	atomic_store(&team_cpu_runs, 0);
	for (i = 0; i < 300; i++) {
		struct pph_task *t = pph_task_create(&team_cl);

		pph_task_force_impl(t, i % 10 == 0);
		pph_task_set_detached(t, 1);
		CU_ASSERT_EQUAL_FATAL(pph_task_submit(t), 0);
	}
	pph_task_wait_all();
	CU_ASSERT_EQUAL(atomic_load(&team_runs), 30);
	CU_ASSERT_EQUAL(atomic_load(&team_cpu_runs), 270);
	CU_ASSERT_EQUAL(atomic_load(&team_violations), 0);
}

void add_workers_tests(CU_pSuite s)
{
	CU_add_test(s, "fork-join OpenMP variants", test_fork_join);
}
