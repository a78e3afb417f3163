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
	int i;

	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	for (i = 0; i < 64; i++) {
		t = pph_task_create(&two_cl);
		pph_task_force_impl(t, 1);
		pph_task_submit(t);
		pph_task_wait(t);
		pph_task_destroy(t);
	}
	fp = open_memstream(&buf, &len);
	pph_stats_print(fp);
	fclose(fp);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "worker 0 (CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "worker 1 (CPU"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    two/b: "));
	CU_ASSERT_PTR_NULL(strstr(buf, "two/a"));
	/* some of 64 pushes are timed (one in 16 on average, never more than 21
	 * apart): their choices, and their waits for the worker */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "scheduler dmda: a choice "));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " us after its push ("));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " pushes timed, one in 16)\n"));
	free(buf);
}

/* A fork-join variant's runs are counted per team size: its line names the
 * team the variant saw (pph_openmp_threads); a CPU variant's names none. */
static atomic_int seen_threads;

static void k_fork_join(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_store(&seen_threads, pph_openmp_threads());
}

static const struct pph_impl fork_join_impls[] = { { PPH_ARCH_OPENMP, k_fork_join, "omp", 0 } };
static const struct pph_codelet fork_join_cl = { "fj", 1, fork_join_impls, PPH_MODEL_DEFAULT };

/* The line of buf that starts with prefix, into line (without its newline). */
static int line_of(const char *buf, const char *prefix, char *line, size_t size)
{
	const char *at = strstr(buf, prefix), *end;

	if (!at)
		return 0;
	end = strchr(at, '\n');
	snprintf(line, size, "%.*s", (int)(end ? end - at : (long)strlen(at)), at);
	return 1;
}

static void test_stats_team(void)
{
	char *buf = NULL, line[128], want[64];
	size_t len = 0;
	FILE *fp;
	struct pph_task *t;

	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	atomic_store(&seen_threads, 0);
	t = pph_task_create(&fork_join_cl);
	CU_ASSERT_EQUAL_FATAL(pph_task_submit(t), 0);
	pph_task_wait(t);
	pph_task_destroy(t);
	t = pph_task_create(&two_cl); /* its variant a runs on the CPU */
	pph_task_force_impl(t, 0);
	CU_ASSERT_EQUAL_FATAL(pph_task_submit(t), 0);
	pph_task_wait(t);
	pph_task_destroy(t);
	CU_ASSERT_FATAL(atomic_load(&seen_threads) >= 1);
	fp = open_memstream(&buf, &len);
	pph_stats_print(fp);
	fclose(fp);
	CU_ASSERT_FATAL(line_of(buf, "    fj/omp: 1 tasks, ", line, sizeof(line)));
	snprintf(want, sizeof(want), " ms, team of %d", atomic_load(&seen_threads));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, want));
	CU_ASSERT_FATAL(line_of(buf, "    two/a: 1 tasks, ", line, sizeof(line)));
	CU_ASSERT_PTR_NULL(strstr(line, "team"));
	free(buf);
}

void add_stats_suite(void)
{
	CU_pSuite s = CU_add_suite("stats", init_dmda, suite_clean);

	CU_add_test(s, "variants per worker", test_stats);
	CU_add_test(s, "a fork-join variant's team", test_stats_team);
}
