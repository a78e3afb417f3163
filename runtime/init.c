/* Runtime start and stop, configured from the environment. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "launcher.h"
#include "perfmodel.h"
#include "thread_signals.h"

struct pph_runtime pph__rt = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.done_cond = PTHREAD_COND_INITIALIZER,
	.all_done_cond = PTHREAD_COND_INITIALIZER,
};

/*
 * pph_init and pph_shutdown, one at a time: two threads' pph_init both saw
 * the runtime stopped and started two sets of workers over one pph__rt,
 * and two pph_shutdown joined the same workers.  Never taken inside a task
 * (both return before it there: pph_shutdown waits for that task) nor by
 * the per-call path.
 */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* pph_shutdown ended the stopping: data calls waiting for that go on
 * (pph__wait_stopped) */
static pthread_mutex_t stopped_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stopped_cond = PTHREAD_COND_INITIALIZER;

void pph__wait_stopped(void)
{
	pthread_mutex_lock(&stopped_lock);
	while (atomic_load(&pph__rt.stopping))
		pthread_cond_wait(&stopped_cond, &stopped_lock);
	pthread_mutex_unlock(&stopped_lock);
}

/* Why the last pph_init failed ("" when it did not), for the calls that
 * follow it: they say that, not "No such device". */
static char init_error[256];

const char *pph__init_error(void)
{
	return init_error[0] ? init_error : NULL;
}

/* pph_init fails with rc: print why, and keep it. */
static __attribute__((format(printf, 2, 3))) int init_failed(int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(init_error, sizeof(init_error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "peppher: %s\n", init_error);
	return rc;
}

/*
 * fork() while the runtime runs: the child has only the thread that forked,
 * but the parent's workers' state (queues whose condition variables they
 * wait on, locks they may hold, tasks they run).  Destroying or waiting on
 * that hung the child's pph_shutdown about half the time.  In the child the
 * runtime is not running: calls fail as after pph_shutdown, saying why
 * (pph__not_running), pph_shutdown returns at once, and pph_init refuses,
 * since starting again would take over locks and queues the parent's
 * threads held at the fork.
 */
int pph__forked_child;

static void forked(void)
{
	/* another thread of the parent's may have held them at the fork */
	init_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	stopped_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	stopped_cond = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	if (!pph__rt.initialized)
		return; /* forked before pph_init or after pph_shutdown: nothing to hide */
	pph__forked_child = 1;
	pph__rt.initialized = 0;
	pph__rt.nworkers = 0;
	memset(pph__rt.arch_workers, 0, sizeof(pph__rt.arch_workers));
	/* nothing runs here: pph_task_wait_all must not wait for the parent's tasks */
	atomic_store(&pph__rt.pending, 0);
	atomic_store(&pph__rt.waiters, 0);
	atomic_store(&pph__rt.all_waiters, 0);
	atomic_store(&pph__rt.stopping, 0);
	atomic_store(&pph__rt.submitting, 0);
	/* the parent reports its own; PEPPHER_SHUTDOWN() here, the child's */
	atomic_store(&pph__rt.failed_calls, 0);
	/* a worker may have held it, or waited on them, at the fork */
	pph__rt.lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	pph__rt.done_cond = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	pph__rt.all_done_cond = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	/* the calls that follow say so once, even if the parent said "not running" */
	atomic_fetch_add(&pph__rt.generation, 1);
}

static void register_atfork(void)
{
	if (pthread_atfork(NULL, NULL, forked) != 0)
		fprintf(stderr, "peppher: pthread_atfork failed: a child forked while the runtime runs may hang in it\n");
}

int pph__refused_in_forked_child(const char *what)
{
	return pph__forked_child ? pph__not_running(what) : 0;
}

const char *pph_arch_name(enum pph_arch arch)
{
	static const char *const names[] = { "CPU", "OPENMP", "CUDA", "OPENCL" };

	return (unsigned)arch < PPH_ARCH_COUNT ? names[arch] : "?";
}

/* PEPPHER_NCPU: a positive count; unset, the program's conf_ncpu, or 0
 * (one per core) when that is -1. */
static int env_ncpu(int conf_ncpu, unsigned *ncpu)
{
	const char *s = getenv("PEPPHER_NCPU");
	char *end;
	long v;

	*ncpu = 0;
	if (!s || !*s) {
		if (conf_ncpu == 0 || conf_ncpu > PPH_MAX_WORKERS)
			return init_failed(-EINVAL,
					   "pph_conf: ncpu=%d: expected -1 (one per core) or a number of CPU workers from 1 to %d",
					   conf_ncpu, PPH_MAX_WORKERS);
		*ncpu = conf_ncpu > 0 ? (unsigned)conf_ncpu : 0;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	/* digits only: strtol takes " 2" and "+2", and "2 " not */
	if (errno || *end || *s < '0' || *s > '9' || v <= 0 || v > PPH_MAX_WORKERS)
		return init_failed(-EINVAL,
				   "PEPPHER_NCPU=%s: expected a number of CPU workers from 1 to %d",
				   s, PPH_MAX_WORKERS);
	*ncpu = (unsigned)v;
	return 0;
}

/* PEPPHER_NCUDA, PEPPHER_NOPENCL: how many devices to open, 0 or more;
 * unset, the program's conf (-1: all). */
static int env_devices(const char *var, int conf, int *max)
{
	const char *s = getenv(var);
	char *end;
	long v;

	*max = conf < 0 ? -1 : conf;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || *s < '0' || *s > '9' || v < 0 ||
	    v > PPH_MAX_NODES - 1) /* node 0 is the host's */
		return init_failed(-EINVAL, "%s=%s: expected a number of devices from 0 to %d", var,
				   s, PPH_MAX_NODES - 1);
	*max = (int)v;
	return 0;
}

/* PEPPHER_STATS: 1 prints the statistics at pph_shutdown, 0 (or unset) not. */
static int env_stats(int *on)
{
	const char *s = getenv("PEPPHER_STATS");

	*on = s && strcmp(s, "1") == 0;
	if (!s || !*s || strcmp(s, "0") == 0 || *on)
		return 0;
	return init_failed(-EINVAL, "PEPPHER_STATS=%s: expected 1 (print them at pph_shutdown) or 0",
			   s);
}

static int env_sched(const struct pph_sched_policy **policy)
{
	const char *name = getenv("PEPPHER_SCHED");

	*policy = name && *name ? pph__sched_find(name) : pph__sched_default();
	if (!*policy) {
		init_failed(-EINVAL, "PEPPHER_SCHED=%s: unknown scheduler; choose one of:", name);
		pph__sched_list(stderr);
		return -EINVAL;
	}
	return 0;
}

/* PEPPHER_UNDEFERRED: 1 (default) or 0 (see submit.c). */
static int env_undeferred(int *on)
{
	const char *s = getenv("PEPPHER_UNDEFERRED");

	*on = 1;
	if (!s || !*s || strcmp(s, "1") == 0)
		return 0;
	if (strcmp(s, "0") == 0) {
		*on = 0;
		return 0;
	}
	return init_failed(-EINVAL, "PEPPHER_UNDEFERRED=%s: expected 0 or 1", s);
}

/* PEPPHER_TINY_US: a non-negative number of microseconds (see submit.c). */
static int env_tiny_us(double *us)
{
	const char *s = getenv("PEPPHER_TINY_US");
	char *end;

	*us = PPH_TINY_US_DEFAULT;
	if (!s || !*s)
		return 0;
	errno = 0;
	*us = strtod(s, &end);
	if (errno || *end || end == s || !((*s >= '0' && *s <= '9') || *s == '.') ||
	    !(*us >= 0) || isinf(*us))
		return init_failed(-EINVAL, "PEPPHER_TINY_US=%s: expected microseconds, 0 or more", s);
	return 0;
}

/* PEPPHER_CUDA_WAIT: spin, yield or block; unset, CUDA's own choice
 * (driver_cuda.c).  Read whether this build has CUDA or not. */
static int env_cuda_wait(enum pph_cuda_wait *wait)
{
	static const char *const names[] = { "", "spin", "yield", "block" };
	const char *s = getenv("PEPPHER_CUDA_WAIT");
	unsigned i;

	*wait = PPH_CUDA_WAIT_AUTO;
	if (!s || !*s)
		return 0;
	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*wait = (enum pph_cuda_wait)i;
			return 0;
		}
	return init_failed(-EINVAL, "PEPPHER_CUDA_WAIT=%s: expected spin, yield or block", s);
}

/* Codelets declared by the program (pph_codelet_declare): their models
 * are loaded when the runtime starts. */
#define PPH_MAX_DECLARED 1024
static pthread_mutex_t declared_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct pph_codelet *declared[PPH_MAX_DECLARED];
static unsigned ndeclared;

void pph_codelet_declare(const struct pph_codelet *cl)
{
	pthread_mutex_lock(&declared_lock);
	if (cl && ndeclared < PPH_MAX_DECLARED)
		declared[ndeclared++] = cl;
	if (cl && pph__rt.initialized)
		pph__perfmodel_prepare(cl);
	pthread_mutex_unlock(&declared_lock);
}

static void prepare_declared(void)
{
	unsigned i;

	pthread_mutex_lock(&declared_lock);
	for (i = 0; i < ndeclared; i++)
		pph__perfmodel_prepare(declared[i]);
	pthread_mutex_unlock(&declared_lock);
}

void pph_conf_init(struct pph_conf *conf)
{
	conf->ncpu = -1;
	conf->ncuda = -1;
	conf->nopencl = -1;
	conf->openmp = -1;
}

int pph_init(void)
{
	return pph_init_conf(NULL);
}

static int init_locked(const struct pph_conf *conf);

int pph_init_conf(const struct pph_conf *conf)
{
	int rc;

	/* a task runs: the runtime does; and a pph_shutdown holding the
	 * lock would wait for this task */
	if (pph__running_task_here())
		return -EALREADY;
	pthread_mutex_lock(&init_lock);
	rc = init_locked(conf);
	pthread_mutex_unlock(&init_lock);
	return rc;
}

static int init_locked(const struct pph_conf *conf)
{
	static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
	struct pph_conf defaults;
	unsigned ncpu;
	int rc, ncuda = -1, nopencl = -1;
	sigset_t mask;

	if (pph__rt.initialized)
		return -EALREADY;
	if (pph__forked_child)
		return init_failed(-EPERM,
				   "pph_init: refused in a forked child: the runtime ran in the parent when it forked, and cannot start again in this process (its locks and queues were the parent's threads'); fork before pph_init() or after pph_shutdown(), or exec a program");
	pthread_once(&atfork_once, register_atfork);
	pph__say_not_distributed(0);
	if (!conf) {
		pph_conf_init(&defaults);
		conf = &defaults;
	}
	init_error[0] = '\0';
	rc = env_ncpu(conf->ncpu, &ncpu);
	if (rc == 0 && (conf->openmp < -1 || conf->openmp > 1))
		rc = init_failed(-EINVAL,
				 "pph_conf: openmp=%d: expected 1 (start the OpenMP teams at pph_init), 0 (at their first use) or -1 (1 where the program links OpenMP)",
				 conf->openmp);
	if (rc == 0)
		rc = env_devices("PEPPHER_NCUDA", conf->ncuda, &ncuda);
	if (rc == 0)
		rc = env_devices("PEPPHER_NOPENCL", conf->nopencl, &nopencl);
	if (rc == 0)
		rc = env_stats(&pph__rt.stats);
	if (rc == 0)
		rc = env_sched(&pph__rt.sched);
	if (rc == 0 && (rc = pph__mem_limits_init()) != 0)
		init_failed(rc, "%s", pph__mem_limits_error());
	if (rc == 0)
		rc = env_undeferred(&pph__rt.undeferred);
	if (rc == 0)
		rc = env_tiny_us(&pph__rt.tiny_us);
	if (rc == 0)
		rc = env_cuda_wait(&pph__rt.cuda_wait);
	if (rc == 0 && (rc = pph__stack_from_env(&pph__rt.stack_bytes)) != 0)
		init_failed(rc, "PEPPHER_STACKSIZE=%s: %s", getenv("PEPPHER_STACKSIZE"),
			    pph__stack_usage());
	if (rc == 0 && (rc = pph__trace_init()) != 0)
		init_failed(rc, "PEPPHER_TRACE=%s: cannot write it: %s", getenv("PEPPHER_TRACE"),
			    strerror(-rc));
	if (rc == 0 && (rc = pph__perfmodel_init()) != 0) {
		pph__trace_abandon();
		init_failed(rc, "PEPPHER_CALIBRATE=%s: expected 0 (keep), 1 (force) or 2 (reset)",
			    getenv("PEPPHER_CALIBRATE"));
	}
	if (rc == 0 && (rc = pph__rt.sched->init()) != 0) {
		pph__perfmodel_shutdown();
		pph__trace_abandon();
		init_failed(rc, "scheduler %s: %s", pph__rt.sched->name, strerror(-rc));
	}
	if (rc != 0)
		return rc;
	atomic_store(&pph__rt.pending, 0);
	atomic_store(&pph__rt.has_parallel, 0);
	atomic_fetch_add(&pph__rt.generation, 1);
	atomic_store(&pph__rt.handover_us, 0);
	pph__rt.nnodes = 1; /* host memory */
	pph__rt.nodes[0].arch = PPH_ARCH_CPU;
	pph__rt.nodes[0].ops = NULL;
	pph_transfer_stats_reset();
	memset(pph__rt.arch_workers, 0, sizeof(pph__rt.arch_workers));
	/* the workers and the drivers' threads take no signal meant for the
	 * program's threads (thread_signals.h) */
	pph__signals_hold(&mask);
	rc = pph__workers_start(ncpu, ncuda, nopencl, conf->openmp);
	pph__signals_restore(&mask);
	if (rc != 0) {
		pph__rt.sched->deinit();
		pph__perfmodel_shutdown();
		pph__trace_abandon();
		return pph__rt.stack_bytes ?
			       init_failed(rc, "cannot start the workers with PEPPHER_STACKSIZE=%s: %s",
					   getenv("PEPPHER_STACKSIZE"), strerror(-rc)) :
			       init_failed(rc, "cannot start the workers: %s", strerror(-rc));
	}
	pph__transfer_model_init();
	pph__rt.initialized = 1;
	prepare_declared();
	return 0;
}

static void shutdown_locked(void);

void pph_shutdown(void)
{
	if (!pph__rt.initialized)
		return;
	pph__here_left(__builtin_frame_address(0));
	if (pph__running_task_here()) {
		/* it would wait for the task it is called from; checked before
		 * the lock, which another thread's pph_shutdown may hold while
		 * it waits for that task */
		fprintf(stderr, "peppher: pph_shutdown() called inside a task: refused; call it from the application once its calls are done\n");
		return;
	}
	/* a second thread's waits for the first's, and finds it stopped */
	pthread_mutex_lock(&init_lock);
	if (pph__rt.initialized)
		shutdown_locked();
	pthread_mutex_unlock(&init_lock);
}

static void shutdown_locked(void)
{
	pph__say_not_distributed(1);
	/* from now on, application threads' submissions and calls are
	 * refused, and their data calls wait for the end of this (they go on
	 * with the runtime stopped); those under way go in, and are waited
	 * for: a thread unregistering its handle read the nodes torn down
	 * here (pph__enter).  At once: waiting for the tasks first, with
	 * submissions still accepted, never ended while another thread
	 * submitted faster than the workers ran them (the queue grew for
	 * good) */
	atomic_store(&pph__rt.stopping, 1);
	while (atomic_load(&pph__rt.submitting))
		sched_yield();
	pph_task_wait_all();
	pph__data_flush_all();
	pph__workers_stop();
	if (pph__rt.stats)
		pph_stats_print(stderr);
	pph__trace_shutdown();
	pph__stats_free();
	pph__perfmodel_shutdown();
	pph__transfer_model_shutdown();
	pph__impl_enable_all();
	pph__task_cache_free();
	pph__rt.nnodes = 1; /* the devices are gone */
	pph__rt.sched->deinit();
	free(pph__rt.workers);
	pph__rt.workers = NULL;
	pph__rt.nworkers = 0;
	pph__rt.initialized = 0;
	/* "not running" from now on: the data calls that waited go on */
	pthread_mutex_lock(&stopped_lock);
	atomic_store(&pph__rt.stopping, 0);
	pthread_cond_broadcast(&stopped_cond);
	pthread_mutex_unlock(&stopped_lock);
}

/*
 * exit() runs the atexit handlers before the libraries' destructors;
 * dlclose runs a library's destructors, then its atexit handlers
 * (__cxa_finalize, from the last of its destructors).  So unloaded() tells
 * dlclose from the process's exit, where nothing need be freed and other
 * threads may still be in the library.
 */
static int exiting;

static void process_exits(void)
{
	exiting = 1;
}

static void __attribute__((constructor)) loaded(void)
{
	atexit(process_exits);
}

/*
 * The library is unloaded (dlclose): what outlives pph_shutdown is freed
 * (the tasks cached by threads still alive or ended since, the handles'
 * slabs), and the pthread key whose destructor lies in this library
 * deleted, so that a thread that ends later calls nothing no longer mapped
 * (threads.c).  A runtime still running is left as it is: its workers run
 * this library's code (dlclose without pph_shutdown cannot be made safe);
 * so is the runtime of the parent a child was forked from (its threads'
 * state a copy).
 */
static void __attribute__((destructor)) unloaded(void)
{
	if (exiting || pph__rt.initialized || pph__forked_child)
		return;
	pph__threads_unload();
	pph__task_cache_free();
	pph__data_slabs_free();
}

unsigned long pph_failed_calls(void)
{
	return atomic_load(&pph__rt.failed_calls);
}

int pph_is_initialized(void)
{
	return pph__rt.initialized;
}

unsigned pph_worker_count_arch(enum pph_arch arch)
{
	if (arch == PPH_ARCH_OPENMP)
		arch = PPH_ARCH_CPU;
	return (unsigned)arch < PPH_ARCH_COUNT ? pph__rt.arch_workers[arch] : 0;
}

unsigned pph_worker_count(void)
{
	return pph__rt.nworkers;
}
