/*
 * Signals on the runtime's threads (runtime/thread_signals.h), checked on
 * both runtimes (tests/runtime/suite_init.c, tests/starpu/test_starpu.c):
 * a program that blocks a signal to take it with sigtimedwait gets every
 * one sent to the process, none taken by a worker (before: 10 of 10 ran
 * the program's handler on a worker); a variant on a worker blocks the
 * signals from outside and keeps a thread's own (a fault, a trap, a
 * write's SIGPIPE) and the profiler's; pph_init leaves the caller's mask
 * as it was.
 */
#ifndef TESTS_THREAD_SIGNALS_CHECK_H
#define TESTS_THREAD_SIGNALS_CHECK_H

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#define SIGNAL_ROUNDS 10

static pthread_t signals_caller;
static volatile sig_atomic_t signals_elsewhere;

static void signals_count_elsewhere(int sig)
{
	(void)sig;
	if (!pthread_equal(pthread_self(), signals_caller))
		signals_elsewhere++;
}

/* SIGUSR1 sent SIGNAL_ROUNDS times 10 ms apart to the process, blocked on
 * this thread and taken with sigtimedwait: how many it took; how many ran
 * the handler on another thread into *elsewhere. */
static int signals_taken(int *elsewhere)
{
	struct sigaction sa, old_sa;
	struct timespec pause = { 0, 10000000 }, limit = { 1, 0 };
	sigset_t usr1, old_mask;
	int i, taken = 0;

	signals_caller = pthread_self();
	signals_elsewhere = 0;
	sa.sa_handler = signals_count_elsewhere;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old_sa);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, &old_mask);
	for (i = 0; i < SIGNAL_ROUNDS; i++) {
		kill(getpid(), SIGUSR1);
		nanosleep(&pause, NULL); /* the idle workers would have it by now */
		if (sigtimedwait(&usr1, NULL, signals_elsewhere ? &pause : &limit) == SIGUSR1)
			taken++;
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGUSR1, &old_sa, NULL);
	*elsewhere = (int)signals_elsewhere;
	return taken;
}

/* The variant's thread: its mask, and whether it was signals_caller. */
struct signals_seen {
	int on_caller, term, intr, alrm, chld, segv, fpe, pipe, prof;
};

static void signals_report(void *buffers[], void *arg)
{
	struct signals_seen *s = (struct signals_seen *)PPH_VARIABLE_PTR(buffers[0]);
	sigset_t mask;

	(void)arg;
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	s->on_caller = pthread_equal(pthread_self(), signals_caller);
	s->term = sigismember(&mask, SIGTERM);
	s->intr = sigismember(&mask, SIGINT);
	s->alrm = sigismember(&mask, SIGALRM);
	s->chld = sigismember(&mask, SIGCHLD);
	s->segv = sigismember(&mask, SIGSEGV);
	s->fpe = sigismember(&mask, SIGFPE);
	s->pipe = sigismember(&mask, SIGPIPE);
	s->prof = sigismember(&mask, SIGPROF);
}

static const struct pph_impl signals_report_impls[] = {
	{ PPH_ARCH_CPU, signals_report, "signals_report_cpu", 0 }
};
static const struct pph_codelet signals_report_cl = { "signals_report", 1, signals_report_impls,
						      PPH_MODEL_DEFAULT };

/* What a synchronous call's variant saw of its thread's signals: 0, or -1
 * where the call failed. */
static int signals_seen_by_variant(struct signals_seen *s)
{
	pph_data_handle h;
	enum pph_access mode = PPH_W;
	int rc;

	signals_caller = pthread_self();
	if (pph_variable_register(&h, s, sizeof(*s)) != 0)
		return -1;
	rc = pph_call_sync(&signals_report_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0);
	pph_data_unregister(h);
	return rc ? -1 : 0;
}

/* The checks both suites make, with the runtime running and every call on
 * a worker. */
static void check_thread_signals(void)
{
	struct signals_seen s;
	sigset_t mask;
	int elsewhere = -1;

	CU_ASSERT_EQUAL(signals_taken(&elsewhere), SIGNAL_ROUNDS);
	CU_ASSERT_EQUAL(elsewhere, 0);
	CU_ASSERT_EQUAL_FATAL(signals_seen_by_variant(&s), 0);
	CU_ASSERT_FALSE(s.on_caller);
	CU_ASSERT(s.term && s.intr && s.alrm && s.chld);
	CU_ASSERT(!s.segv && !s.fpe && !s.pipe && !s.prof);
	/* pph_init put the caller's mask back */
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	CU_ASSERT_FALSE(sigismember(&mask, SIGTERM));
	CU_ASSERT_FALSE(sigismember(&mask, SIGINT));
}

#endif
