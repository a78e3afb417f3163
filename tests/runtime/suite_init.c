/* Unit tests of runtime/init.c: starting and stopping the runtime. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "internal.h"
#include "../worker_stack_check.h"
#include "../thread_signals_check.h"
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

/* See worker_stack_check.h. */
static void test_worker_stack(void)
{
	static const char *const bad[] = { "12X", "1K", "63", "abc", "-5M", "99999999999G", "8MB" };
	size_t stack;
	int rc;
	unsigned i;

	pph_shutdown();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("PEPPHER_STACKSIZE", bad[i], 1);
		CU_ASSERT_EQUAL(pph_init(), -EINVAL);
	}
	CU_ASSERT_STRING_EQUAL(pph__init_error(),
			       "PEPPHER_STACKSIZE=8MB: expected a worker's stack size, at least 64 KiB: KiB, or a number and B, K, M or G");
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	setenv("PEPPHER_STACKSIZE", "16M", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(worker_stack_size(), (size_t)16 << 20);
	pph_shutdown();
	setenv("PEPPHER_STACKSIZE", "20480", 1); /* KiB */
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL(worker_stack_size(), (size_t)20 << 20);
	pph_shutdown();
	unsetenv("PEPPHER_STACKSIZE");
	rc = unlimited_worker_stack(&stack);
	CU_ASSERT(rc == 1 || (rc == 0 && stack == PPH_STACK_UNLIMITED));
	unsetenv("PEPPHER_UNDEFERRED");
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* See thread_signals_check.h: every call on a worker. */
static void test_thread_signals(void)
{
	pph_shutdown();
	setenv("PEPPHER_UNDEFERRED", "0", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	check_thread_signals();
	pph_shutdown();
	unsetenv("PEPPHER_UNDEFERRED");
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


#define INIT_RACE_PROGRAM "suite_init"
#define INIT_RACE_WORKERS 2
#include "../init_race.h"
#include "../affinity.h"

static void k_inc(void *buffers[], void *arg)
{
	int *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i;

	(void)arg;
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		x[i]++;
}

static const struct pph_impl inc_impls[] = { { PPH_ARCH_CPU, k_inc, "inc", 0 } };
static const struct pph_codelet inc_cl = { "sd_inc", 1, inc_impls, PPH_MODEL_DEFAULT };

#define CALLERS 4
#define CALLER_N 64

struct caller {
	int x[CALLER_N];
	long ok, refused;
};

static atomic_int callers_stop;

/* What an entry wrapper does, again and again: register, call, unregister. */
static void *caller(void *arg)
{
	static const enum pph_access rw = PPH_RW;
	struct caller *c = arg;

	while (!atomic_load(&callers_stop)) {
		pph_data_handle h;
		int rc;

		if (pph_vector_register(&h, c->x, CALLER_N, sizeof(int)) != 0)
			continue;
		rc = pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0);
		if (rc == 0)
			c->ok++;
		else if (rc == -ENODEV)
			c->refused++;
		pph_data_unregister(h);
	}
	return NULL;
}

/*
 * pph_shutdown while other threads still make calls: the calls accepted
 * ran, their data home (each element counts them), the others refused;
 * nothing crashes or hangs.  Under ThreadSanitizer (a build with
 * -fsanitize=thread), it showed pph_shutdown clearing the nodes as a
 * thread unregistered its handle after its call.
 */
static void test_shutdown_while_calling(void)
{
	static struct caller callers[CALLERS];
	pthread_t th[CALLERS];
	long refused = 0;
	int c, t, i;

	alarm_set(60);
	pph_shutdown();
	for (c = 0; c < CYCLES / 2; c++) {
		memset(callers, 0, sizeof(callers));
		atomic_store(&callers_stop, 0);
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		for (t = 0; t < CALLERS; t++)
			pthread_create(&th[t], NULL, caller, &callers[t]);
		usleep(1000 + 700 * (useconds_t)c);
		pph_shutdown();
		usleep(1000);
		atomic_store(&callers_stop, 1);
		for (t = 0; t < CALLERS; t++) {
			pthread_join(th[t], NULL);
			for (i = 0; i < CALLER_N; i++)
				if (callers[t].x[i] != callers[t].ok)
					break;
			CU_ASSERT_EQUAL(i, CALLER_N);
			refused += callers[t].refused;
		}
	}
	alarm(0);
	CU_ASSERT_TRUE(refused > 0);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/*
 * An OpenCL ICD listed whose platform cannot be opened (the loader out
 * of file descriptors) is said, naming the call, not dropped without a
 * word.  In children: the ICD loader opens its platforms once a process,
 * and this must come before any OpenCL use here (test_conf's).  Skipped
 * where no OpenCL device opens.
 */
static int opencl_child(int nofile, const char *log)
{
	struct rlimit rl = { (rlim_t)nofile, (rlim_t)nofile };
	int fd, n;

	unsetenv("PEPPHER_NOPENCL");
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || dup2(fd, 2) < 0)
		return 100;
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	if (nofile && setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 101;
	if (pph_init() != 0)
		return 102;
	n = (int)pph_worker_count_arch(PPH_ARCH_OPENCL);
	pph_shutdown();
	return n;
}

static int opencl_run(int nofile, const char *log)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(opencl_child(nofile, log));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_opencl_not_opened(void)
{
	char log[] = "/tmp/peppher-ocl-XXXXXX", line[512];
	int fd = mkstemp(log), said = 0, n;
	FILE *f;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	pph_shutdown(); /* a child forked while it runs refuses pph_init */
	n = opencl_run(0, log);
	if (n <= 0 || n >= 100) {
		fprintf(stderr, "(no OpenCL device here (%d): skipped) ", n);
	} else {
		CU_ASSERT_EQUAL(opencl_run(4, log), 0); /* no OpenCL worker, the runtime ran */
		f = fopen(log, "r");
		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, "peppher: OpenCL: clGetPlatformIDs failed")) {
				said++;
				fputs(line, stderr);
			}
		if (f)
			fclose(f);
		CU_ASSERT_EQUAL(said, 1);
	}
	unlink(log);
	CU_ASSERT_EQUAL(pph_init(), 0);
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
	CU_add_test(s, "a worker's stack: PEPPHER_STACKSIZE, or large where ulimit -s is unlimited",
		    test_worker_stack);
	CU_add_test(s, "signals sent to the process reach the program's threads, not the workers",
		    test_thread_signals);
	CU_add_test(s, "a call before pph_init stays counted as failed", test_failed_before_init);
	CU_add_test(s, "pph_init from two threads at once", test_init_concurrent);
	CU_add_test(s, "pph_shutdown from two threads at once", test_shutdown_concurrent);
	CU_add_test(s, "pph_shutdown while other threads make calls", test_shutdown_while_calling);
	/* before any OpenCL use in this process (test_conf's) */
	CU_add_test(s, "an OpenCL platform listed but not opened is said", test_opencl_not_opened);
	CU_add_test(s, "a program's counts, the environment's first", test_conf);
	CU_add_test(s, "workers on the CPUs pph_init's thread is bound to", test_bound_thread);
}
