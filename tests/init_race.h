/*
 * pph_init and pph_shutdown from two threads at once, the same tests for
 * both runtimes (tests/runtime/suite_init.c, tests/starpu/test_starpu.c).
 * Define INIT_RACE_PROGRAM (the program's name, for a hang's message) and,
 * where the worker count is known, INIT_RACE_WORKERS before including.
 */
#ifndef TESTS_INIT_RACE_H
#define TESTS_INIT_RACE_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include <peppher/runtime.h>

/* A test that hangs fails: SIGALRM ends the program, saying so. */
static void hung(int sig)
{
	static const char msg[] = INIT_RACE_PROGRAM ": the test hung (SIGALRM): pph_init/pph_shutdown from several threads\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static void alarm_set(unsigned s)
{
	signal(SIGALRM, hung);
	alarm(s);
}

#define CYCLES 20

static pthread_barrier_t two_bar;
static int init_rc[2];

static void *init_thread(void *arg)
{
	pthread_barrier_wait(&two_bar);
	init_rc[(long)arg] = pph_init();
	return NULL;
}

static void *shutdown_thread(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&two_bar);
	pph_shutdown();
	return NULL;
}

/* Two threads call pph_init at once: one starts the runtime, the other
 * gets -EALREADY (libpeppher: both started workers over one runtime, with
 * OpenCL crashes; StarPU: both got 0, StarPU counted two starts, and the
 * next pph_shutdown left it running). */
static void test_init_concurrent(void)
{
	pthread_t a, b;
	int c;

	alarm_set(60);
	pph_shutdown();
	pthread_barrier_init(&two_bar, NULL, 2);
	for (c = 0; c < CYCLES; c++) {
		pthread_create(&a, NULL, init_thread, (void *)0L);
		pthread_create(&b, NULL, init_thread, (void *)1L);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		CU_ASSERT_TRUE((init_rc[0] == 0 && init_rc[1] == -EALREADY) ||
			       (init_rc[1] == 0 && init_rc[0] == -EALREADY));
#ifdef INIT_RACE_WORKERS
		CU_ASSERT_EQUAL(pph_worker_count(), INIT_RACE_WORKERS);
#endif
		pph_shutdown();
		CU_ASSERT_FALSE(pph_is_initialized());
	}
	pthread_barrier_destroy(&two_bar);
	alarm(0);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

/* Two threads call pph_shutdown at once: both return, the runtime
 * stopped (libpeppher: both joined the same workers, and hung; StarPU
 * aborted: init_count >= 0). */
static void test_shutdown_concurrent(void)
{
	pthread_t a, b;
	int c;

	alarm_set(60);
	pph_shutdown();
	pthread_barrier_init(&two_bar, NULL, 2);
	for (c = 0; c < CYCLES; c++) {
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		pthread_create(&a, NULL, shutdown_thread, NULL);
		pthread_create(&b, NULL, shutdown_thread, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		CU_ASSERT_FALSE(pph_is_initialized());
	}
	pthread_barrier_destroy(&two_bar);
	alarm(0);
	CU_ASSERT_EQUAL(pph_init(), 0);
}

#endif
