/* Unit tests of runtime/trace.c: Chrome trace events. */
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

static unsigned count_substr(const char *s, const char *sub)
{
	unsigned n = 0;

	while ((s = strstr(s, sub))) {
		n++;
		s += strlen(sub);
	}
	return n;
}

static void test_trace(void)
{
	char path[] = "/tmp/peppher-trace-XXXXXX";
	int fd = mkstemp(path), i;
	char buf[65536];
	size_t len;
	FILE *fp;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	pph_shutdown();
	setenv("PEPPHER_TRACE", path, 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	for (i = 0; i < 5; i++) {
		struct pph_task *t = pph_task_create(&two_cl);

		pph_task_force_impl(t, 1);
		pph_task_set_detached(t, 1);
		pph_task_submit(t);
	}
	pph_shutdown();
	unsetenv("PEPPHER_TRACE");
	fp = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	len = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[len] = '\0';
	fclose(fp);
	unlink(path);
	CU_ASSERT_EQUAL(strncmp(buf, "{\"traceEvents\":[\n", 17), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n],\"displayTimeUnit\":\"ms\"}\n"));
	CU_ASSERT_EQUAL(count_substr(buf, "\"ph\":\"X\""), 5);
	CU_ASSERT_EQUAL(count_substr(buf, "\"name\":\"two/b\""), 5);
	CU_ASSERT_EQUAL(count_substr(buf, "\"name\":\"thread_name\""), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"args\":{\"name\":\"worker 1 (CPU)\"}"));
	CU_ASSERT_EQUAL(pph_init(), 0);
}

static void init_unwritable(void)
{
	CU_ASSERT_EQUAL(pph_init(), -ENOENT);
}

/* A trace that cannot be written fails pph_init, saying so: it was said
 * after the whole run, the trace lost and the exit status 0. */
static void test_trace_unwritable(void)
{
	pph_shutdown();
	setenv("PEPPHER_TRACE", "/nonexistent-folder/x.json", 1);
	CU_ASSERT_EQUAL(test_stderr_count(init_unwritable,
					  "PEPPHER_TRACE=/nonexistent-folder/x.json: cannot write it: No such file or directory"),
			1);
	unsetenv("PEPPHER_TRACE");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

static void init_bad_calibrate(void)
{
	CU_ASSERT_EQUAL(pph_init(), -EINVAL);
}

/*
 * A pph_init that fails after looking at PEPPHER_TRACE (here a bad
 * PEPPHER_CALIBRATE, checked after it; or workers that cannot start)
 * leaves the file there as it was: an earlier run's trace was truncated
 * to 0 bytes by a run that never ran.  A file that was not there is not
 * left behind, empty.
 */
static void test_trace_kept_when_init_fails(void)
{
	static const char earlier[] = "{\"traceEvents\":[]}\n";
	char path[] = "/tmp/peppher-trace-XXXXXX", buf[64] = "";
	int fd = mkstemp(path);
	FILE *fp;
	size_t len;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, earlier, strlen(earlier)), (ssize_t)strlen(earlier));
	close(fd);
	pph_shutdown();
	setenv("PEPPHER_TRACE", path, 1);
	setenv("PEPPHER_CALIBRATE", "bogus", 1);
	CU_ASSERT_EQUAL(test_stderr_count(init_bad_calibrate, "PEPPHER_CALIBRATE=bogus"), 1);
	fp = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	len = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	CU_ASSERT_EQUAL(len, strlen(earlier));
	CU_ASSERT_STRING_EQUAL(buf, earlier);
	/* not there before: not there after */
	unlink(path);
	CU_ASSERT_EQUAL(test_stderr_count(init_bad_calibrate, "PEPPHER_CALIBRATE=bogus"), 1);
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	unsetenv("PEPPHER_CALIBRATE");
	unsetenv("PEPPHER_TRACE");
	unlink(path);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

static void init_ok(void)
{
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/*
 * Under an MPI launcher that started several ranks (its environment
 * here), each rank writes a file of its own, its rank before the name's
 * extension: every rank wrote the same file, their traces one after the
 * other (no JSON).  A dot in a folder's name is no extension.
 */
static void test_trace_per_rank(void)
{
	static const char *const names[][2] = { { "t.json", "t.2.json" }, { "t", "t.2" }, { ".t", ".t.2" } };
	char dir[] = "/tmp/peppher-trace.d-XXXXXX", path[256], want[256];
	unsigned i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	pph_shutdown();
	setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
	setenv("OMPI_COMM_WORLD_RANK", "2", 1);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i][0]);
		snprintf(want, sizeof(want), "%s/%s", dir, names[i][1]);
		setenv("PEPPHER_TRACE", path, 1);
		/* the program links no MPI: warned, once a process */
		CU_ASSERT_EQUAL(test_stderr_count(init_ok, "started as one of 3 MPI ranks"), i == 0);
		pph_shutdown();
		CU_ASSERT_EQUAL(access(want, F_OK), 0);
		CU_ASSERT_EQUAL(access(path, F_OK), -1);
		unlink(want);
	}
	rmdir(dir);
	unsetenv("PEPPHER_TRACE");
	unsetenv("OMPI_COMM_WORLD_SIZE");
	unsetenv("OMPI_COMM_WORLD_RANK");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

void add_trace_suite(void)
{
	CU_pSuite s = CU_add_suite("trace", init_dmda, suite_clean);

	CU_add_test(s, "Chrome trace events", test_trace);
	CU_add_test(s, "a trace that cannot be written fails pph_init", test_trace_unwritable);
	CU_add_test(s, "a pph_init that fails leaves an earlier trace as it was",
		    test_trace_kept_when_init_fails);
	CU_add_test(s, "a trace per rank under an MPI launcher", test_trace_per_rank);
}
