/*
 * pph_init and pph_shutdown over starpu_init and starpu_shutdown: the
 * PEPPHER_ environment mapped onto StarPU's configuration.
 */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "../runtime/thread_signals.h"

/* StarPU counts transfers only with its profiling on: PEPPHER_STATS=1
 * turns it on (it times every task too); reading its counters resets
 * them, so they add up here. */
static struct pph_transfer_stats transfers;

/* Why the runtime does not run, said again by the calls that fail. */
static char why_not[256];

/* calls that failed since pph_init: kept after pph_shutdown */
static unsigned long failed_calls;

void sp__init_failed(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why_not, sizeof(why_not), fmt, ap);
	va_end(ap);
	fprintf(stderr, "peppher: %s\n", why_not);
}

/* said once until the next pph_init, as libpeppher does: a loop of calls
 * after pph_shutdown printed a line each (40,000) */
static atomic_bool not_running_said;

int sp__not_running(const char *what)
{
	if (!atomic_exchange(&not_running_said, true))
		fprintf(stderr, "peppher: %s: the runtime is not running (%s)\n", what,
			why_not[0] ? why_not : "pph_init() was not called");
	return -ENODEV;
}

/*
 * pph_init and pph_shutdown one at a time: two threads' pph_init both
 * started StarPU (its init count 2, so the next pph_shutdown did not stop
 * it), and two pph_shutdown failed StarPU's init_count assertion.  Not
 * taken inside a variant (pph_shutdown returns before it there).
 */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Application threads inside a function that uses StarPU (sp__enter):
 * pph_shutdown called while others still called components crashed in
 * starpu_task_submit or failed StarPU's assertions, those threads using
 * StarPU as starpu_shutdown freed it.  As libpeppher's pph__rt.submitting
 * and stopping: pph_shutdown sets the gate to FINISHING (new work
 * refused, unregistering and waits let in), waits for the users to leave,
 * sets it to STOPPING (only variants' calls let in; data calls wait for
 * CLOSED), waits again, then stops StarPU.  Each is an atomic add and load
 * at a thread's outermost entry, a sub at its leave.
 */
enum { GATE_CLOSED, GATE_OPEN, GATE_FINISHING, GATE_STOPPING };
static atomic_int gate = GATE_CLOSED;
static atomic_int users;
static __thread unsigned inside; /* entries of this thread, nested */
static __thread int counted;	 /* its outermost is counted in users */

/*
 * An asynchronous split call's window (wrappers.c): between StarPU's
 * partition of its handles and their unpartition, submitted one after
 * the other, a task or host access another thread submitted on a handle
 * found it invalid (StarPU asserted "is not initialized" and aborted the
 * process).  So each outermost entry reads this lock, and a split call
 * holds it for writing; readers first (glibc's default), so that a
 * variant's own call is never held behind a waiting split while another
 * thread's wait, holding the lock, waits for that variant.
 */
static pthread_rwlock_t split_window = PTHREAD_RWLOCK_INITIALIZER;
static __thread int window_held, window_read;

void sp__split_window(int open)
{
	if (open)
		pthread_rwlock_wrlock(&split_window);
	else
		pthread_rwlock_unlock(&split_window);
	window_held = open;
}

/* The thread's outermost entry: reads the window, unless it holds it. */
static void entered(void)
{
	inside = 1;
	if (!window_held) {
		pthread_rwlock_rdlock(&split_window);
		window_read = 1;
	}
}
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;

static void gate_set(int to)
{
	pthread_mutex_lock(&gate_lock);
	atomic_store(&gate, to);
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
}

/* pph_shutdown calls that stopped StarPU */
static atomic_uint shutdowns;

/* Refused while pph_shutdown stops StarPU: said once a shutdown, as
 * libpeppher says it. */
static int shutting_down(void)
{
	static atomic_uint said; /* shutdowns + 1 once said */
	unsigned n = atomic_load(&shutdowns) + 1;

	if (atomic_exchange(&said, n) != n)
		fprintf(stderr, "peppher: pph_shutdown() is stopping the runtime: calls and tasks submitted now are refused\n");
	return -ENODEV;
}

int sp__enter(const char *what, int finishing)
{
	int g;

	if (inside) {
		inside++;
		return 0;
	}
	for (;;) {
		atomic_fetch_add(&users, 1);
		/* seq_cst with pph_shutdown's store of the gate and load of
		 * users: it sees this thread counted, or this thread sees
		 * the gate it set */
		g = atomic_load(&gate);
		if (!sp__forked_child &&
		    (g == GATE_OPEN || (g == GATE_FINISHING && finishing))) {
			counted = 1;
			entered();
			return 0;
		}
		atomic_fetch_sub(&users, 1);
		/* a variant's own calls: pph_shutdown waits for its task */
		if (!sp__forked_child && g != GATE_CLOSED && sp__running_variant()) {
			entered();
			return 0;
		}
		if (g == GATE_STOPPING && finishing && !sp__forked_child) {
			pthread_mutex_lock(&gate_lock);
			while (atomic_load(&gate) == GATE_STOPPING)
				pthread_cond_wait(&gate_cond, &gate_lock);
			pthread_mutex_unlock(&gate_lock);
			continue;
		}
		if (!what)
			return -ENODEV;
		if (g == GATE_FINISHING || g == GATE_STOPPING)
			return shutting_down();
		return sp__not_running(what);
	}
}

void sp__leave(void)
{
	if (!inside || --inside)
		return;
	if (window_read) {
		window_read = 0;
		pthread_rwlock_unlock(&split_window);
	}
	sp__thread_left();
	if (counted) {
		counted = 0;
		atomic_fetch_sub(&users, 1);
	}
}

int sp__inside(void)
{
	return inside != 0;
}

int sp__stopping(void)
{
	int g = atomic_load(&gate);

	return g == GATE_FINISHING || g == GATE_STOPPING;
}

/*
 * fork() while StarPU runs: StarPU is not fork-safe (the child has its
 * state, not its threads), so in the child the runtime is not running:
 * calls fail saying why, pph_shutdown returns at once, pph_init refuses
 * (starpu_init would only count a second start of the copied state).
 */
int sp__forked_child;

static void forked(void)
{
	/* another thread of the parent's may have held them at the fork */
	init_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	gate_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	gate_cond = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	if (!(starpu_is_initialized)())
		return;
	sp__forked_child = 1;
	snprintf(why_not, sizeof(why_not),
		 "refused in a forked child: the runtime runs in the parent process, not in this one; fork before pph_init() or after pph_shutdown(), or exec a program");
	/* the parent reports its own; PEPPHER_SHUTDOWN() here, the child's */
	__atomic_store_n(&failed_calls, 0, __ATOMIC_RELAXED);
}

static void register_atfork(void)
{
	if (pthread_atfork(NULL, NULL, forked) != 0)
		fprintf(stderr, "peppher: pthread_atfork failed: a child forked while the runtime runs may hang in it\n");
}

/* PEPPHER_SCHED's names are StarPU's own policies of the same behaviour. */
static int scheduler(const char **name)
{
	static const char *const known[] = { "dmda", "eager", "ws" };
	const char *s = getenv("PEPPHER_SCHED");
	unsigned i;

	if (!s || !*s) {
		*name = getenv("STARPU_SCHED") ? NULL : "dmda";
		return 0;
	}
	for (i = 0; i < 3; i++)
		if (strcmp(s, known[i]) == 0) {
			*name = known[i];
			return 0;
		}
	snprintf(why_not, sizeof(why_not), "PEPPHER_SCHED=%s: expected dmda, eager or ws", s);
	return -EINVAL;
}

/* A count from the environment: -1 when unset, -2 when malformed. */
static int env_count(const char *var)
{
	const char *s = getenv(var);
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	v = strtol(s, &end, 10);
	if (*end || *s < '0' || *s > '9' || v < 0 || v > 4096) {
		snprintf(why_not, sizeof(why_not), "%s=%s: expected a number of workers", var, s);
		return -2;
	}
	return (int)v;
}

/*
 * StarPU's performance models and bus calibration go where libpeppher's
 * models do: under $PEPPHER_HOME/starpu, else $HOME/.peppher/starpu
 * (STARPU_HOME, set, wins).  StarPU itself would use $HOME/.starpu and
 * create a HOME that does not exist; with no such folder, a temporary
 * one holds them for the run (nothing is kept), removed at pph_shutdown.
 * So does a folder StarPU could not write in (a read-only or full file
 * system, a PEPPHER_HOME that is a file): starpu_initialize aborted the
 * process there (its bus calibration asserts that its files were
 * written), where libpeppher warns and runs.
 */
static char temp_home[] = "/tmp/peppher-starpu-XXXXXX";
static int temp_home_made;
/* what the temporary folder replaced, put back at pph_shutdown: a
 * STARPU_HOME or STARPU_PERF_MODEL_DIR of the environment's */
static char *saved_home, *saved_model_dir;

static int is_folder(const char *path)
{
	struct stat st;

	return path && path[0] == '/' && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir -p path: 0, or -1 with errno. */
static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/*
 * Can StarPU write its models under dir: made (mkdir -p) and a file
 * written in it, some bytes, as StarPU's bus calibration writes (a full
 * file system takes an empty file).  0, or -errno.
 */
static int writable(const char *dir)
{
	static const char probe[256];
	char path[4096];
	int fd, rc = 0;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path) - 24)
		return -ENAMETOOLONG;
	if (mkdir_p(path) != 0)
		return -errno;
	strcat(path, "/.peppher-probe-XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		return -errno;
	errno = ENOSPC; /* a short write sets none */
	if (write(fd, probe, sizeof(probe)) != (ssize_t)sizeof(probe))
		rc = -errno;
	if (close(fd) != 0 && !rc)
		rc = -errno;
	unlink(path);
	return rc;
}

/* The folder StarPU 1.3 writes its models in, from its home:
 * STARPU_PERF_MODEL_DIR, else HOME/.starpu/sampling.  0, or -1: too long. */
static int models_dir(const char *home, char *dir, size_t size)
{
	const char *own = getenv("STARPU_PERF_MODEL_DIR");
	int n = own && *own ? snprintf(dir, size, "%s", own) :
			      snprintf(dir, size, "%s/.starpu/sampling", home);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* A temporary folder for StarPU's models, for this run: 0, or -errno. */
static int use_temp_home(void)
{
	const char *home = getenv("STARPU_HOME"), *dir = getenv("STARPU_PERF_MODEL_DIR");

	strcpy(temp_home, "/tmp/peppher-starpu-XXXXXX");
	if (!mkdtemp(temp_home))
		return -errno;
	temp_home_made = 1;
	free(saved_home);
	free(saved_model_dir);
	saved_home = home ? strdup(home) : NULL;
	saved_model_dir = dir ? strdup(dir) : NULL;
	setenv("STARPU_HOME", temp_home, 1);
	unsetenv("STARPU_PERF_MODEL_DIR");
	return 0;
}

static int set_home(void)
{
	const char *home = getenv("PEPPHER_HOME"), *user = getenv("HOME");
	char path[4096], dir[4096];
	int rc;

	if (getenv("STARPU_HOME")) {
		snprintf(path, sizeof(path), "%s", getenv("STARPU_HOME"));
	} else if (home && *home) {
		snprintf(path, sizeof(path), "%s/starpu", home);
	} else if (is_folder(user)) {
		snprintf(path, sizeof(path), "%s/.peppher/starpu", user);
	} else {
		fprintf(stderr, "peppher: warning: HOME=%s is not an absolute path to an existing folder and PEPPHER_HOME is not set: performance models will not be saved\n",
			user ? user : "(unset)");
		return use_temp_home();
	}
	if (models_dir(path, dir, sizeof(dir)) != 0)
		rc = -ENAMETOOLONG;
	else
		rc = writable(dir);
	if (rc != 0) {
		/* as libpeppher's perfmodel.c says it */
		fprintf(stderr, "peppher: warning: cannot create %s: %s: performance models will not be saved\n",
			dir, strerror(-rc));
		return use_temp_home();
	}
	if (!getenv("STARPU_HOME"))
		setenv("STARPU_HOME", path, 1);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* The temporary folder set_home made, and STARPU_HOME naming it. */
static void remove_temp_home(void)
{
	if (!temp_home_made)
		return;
	nftw(temp_home, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (saved_home)
		setenv("STARPU_HOME", saved_home, 1);
	else
		unsetenv("STARPU_HOME");
	if (saved_model_dir)
		setenv("STARPU_PERF_MODEL_DIR", saved_model_dir, 1);
	free(saved_home);
	free(saved_model_dir);
	saved_home = saved_model_dir = NULL;
	temp_home_made = 0;
}

/*
 * starpu_init, with at least one CPU worker where the count is left to
 * StarPU (conf->ncpus -1: no PEPPHER_NCPU, pph_conf ncpu or STARPU_NCPU).
 * StarPU's default is the cores it may use, less a core per device worker
 * and the cores conf->reserve_ncpus keeps (reserved of them for the
 * engine's own thread: StarPU-MPI's), clamped at 0: on 2 cores with PoCL,
 * StarPU-MPI's core and the OpenCL worker's left no CPU worker, as did 1
 * core (taskset -c 0, STARPU_WORKERS_GETBIND) with PoCL on either library,
 * and a component with CPU variants only failed every call ("no worker
 * can run any variant the call allows"); without a device, StarPU did
 * not start (-ENODEV, no worker at all).  StarPU computes that count
 * inside starpu_init, from the devices it found, so a start that made no
 * CPU worker is stopped and started again with one, the reserved cores
 * given back (a core has no other to give).  Only then does StarPU-MPI
 * start (mpi.c): the restart is this process's alone.
 */
int sp__starpu_init(struct starpu_conf *conf, int reserved)
{
	int rc = starpu_init(conf);

	if (conf->ncpus != -1 || (rc == 0 && starpu_cpu_worker_get_count() > 0))
		return rc;
	if (rc == 0)
		starpu_shutdown();
	else if (rc != -ENODEV) /* -ENODEV: no worker at all */
		return rc;
	conf->ncpus = 1;
	conf->reserve_ncpus -= reserved;
	return starpu_init(conf);
}

void pph_conf_init(struct pph_conf *conf)
{
	conf->ncpu = -1;
	conf->ncuda = -1;
	conf->nopencl = -1;
	conf->openmp = -1; /* not used: a variant here runs on one CPU worker, no team */
}

int pph_init(void)
{
	return pph_init_conf(NULL);
}

/* The environment's count where set, else the program's (pph_conf). */
static int count_or(int env, int conf_value)
{
	return env >= 0 ? env : conf_value >= 0 ? conf_value : -1;
}

void sp__count_failed_call(void)
{
	__atomic_add_fetch(&failed_calls, 1, __ATOMIC_RELAXED);
}

unsigned long pph_failed_calls(void)
{
	return __atomic_load_n(&failed_calls, __ATOMIC_RELAXED);
}

/* libpeppher's settings this runtime does not read, said once a process
 * where set (StarPU's own, named, do the same), rather than ignored as if
 * they had taken effect: a PEPPHER_TRACE that writes no file. */
static void say_unread(void)
{
	static const char *const unread[][2] = {
		{ "PEPPHER_TRACE", "StarPU's FxT traces" },
		{ "PEPPHER_CALIBRATE", "STARPU_CALIBRATE" },
		{ "PEPPHER_LIMIT_OPENCL_MEM", "STARPU_LIMIT_OPENCL_MEM" },
		{ "PEPPHER_LIMIT_CUDA_MEM", "STARPU_LIMIT_CUDA_MEM" },
		{ "PEPPHER_UNDEFERRED", NULL },
		{ "PEPPHER_TINY_US", NULL },
		{ "PEPPHER_CUDA_WAIT", NULL },
	};
	static int said;
	size_t i;

	if (said++)
		return;
	for (i = 0; i < sizeof(unread) / sizeof(unread[0]); i++)
		if (getenv(unread[i][0]))
			fprintf(stderr, "peppher: warning: %s is not read over StarPU%s%s\n", unread[i][0],
				unread[i][1] ? ": see " : "", unread[i][1] ? unread[i][1] : "");
}

static int init_locked(const struct pph_conf *pconf);

/*
 * StarPU (and StarPU-MPI) started with its threads' stacks stack bytes
 * (worker_stack.h; 0: the defaults): StarPU has no setting of its own, so
 * the process's default thread attributes say it while StarPU creates its
 * workers, and are put back after.  Its threads inherit the signals this
 * thread blocks meanwhile (thread_signals.h).
 */
static int engine_start(struct starpu_conf *conf, size_t stack)
{
	pthread_attr_t old, attr;
	sigset_t mask;
	int rc, set = 0;

	if (stack && pthread_getattr_default_np(&old) == 0) {
		if (pthread_attr_init(&attr) == 0) {
			set = pthread_attr_setstacksize(&attr, stack) == 0 &&
			      pthread_setattr_default_np(&attr) == 0;
			pthread_attr_destroy(&attr);
		}
		if (!set)
			pthread_attr_destroy(&old);
	}
	pph__signals_hold(&mask); /* StarPU's, MPI's and the drivers' threads too */
	rc = sp__engine_start(conf);
	pph__signals_restore(&mask);
	if (set) {
		pthread_setattr_default_np(&old);
		pthread_attr_destroy(&old);
	}
	return rc;
}

int pph_init_conf(const struct pph_conf *pconf)
{
	int rc;

	if (sp__running_variant()) /* StarPU runs it; a pph_shutdown holding the lock waits for it */
		return -EALREADY;
	pthread_mutex_lock(&init_lock);
	rc = init_locked(pconf);
	if (rc == 0)
		gate_set(GATE_OPEN);
	pthread_mutex_unlock(&init_lock);
	return rc;
}

static int init_locked(const struct pph_conf *pconf)
{
	static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
	struct starpu_conf conf;
	struct pph_conf defaults;
	int ncpu = -1, nopencl = -1, ncuda = -1, rc;
	const char *sched = NULL;
	size_t stack = 0;

	if (starpu_is_initialized())
		return -EALREADY;
	if (sp__forked_child) {
		fprintf(stderr, "peppher: pph_init: %s\n", why_not);
		return -EPERM;
	}
	pthread_once(&atfork_once, register_atfork);
	if (!pconf) {
		pph_conf_init(&defaults);
		pconf = &defaults;
	}
	why_not[0] = 0;
	atomic_store(&not_running_said, false);
	if (pconf->ncpu == 0) {
		snprintf(why_not, sizeof(why_not),
			 "pph_conf: ncpu=0: expected -1 (one per core) or a number of CPU workers");
		fprintf(stderr, "peppher: %s\n", why_not);
		return -EINVAL;
	}
	starpu_conf_init(&conf);
	rc = scheduler(&sched);
	if (rc == 0 && ((ncpu = env_count("PEPPHER_NCPU")) == -2 ||
			(nopencl = env_count("PEPPHER_NOPENCL")) == -2 ||
			(ncuda = env_count("PEPPHER_NCUDA")) == -2))
		rc = -EINVAL;
	/* as libpeppher: at least one CPU worker, and no more than this
	 * StarPU takes (it would take fewer without a word: Debian's 4) */
	if (rc == 0 && (ncpu == 0 || ncpu > STARPU_MAXCPUS)) {
		snprintf(why_not, sizeof(why_not),
			 "PEPPHER_NCPU=%s: expected a number of CPU workers from 1 to %d (this StarPU's STARPU_MAXCPUS)",
			 getenv("PEPPHER_NCPU"), STARPU_MAXCPUS);
		rc = -EINVAL;
	}
	if (rc == 0 && pph__stack_from_env(&stack) != 0) {
		snprintf(why_not, sizeof(why_not), "PEPPHER_STACKSIZE=%s: %s",
			 getenv("PEPPHER_STACKSIZE"), pph__stack_usage());
		rc = -EINVAL;
	}
	if (rc == 0 && getenv("PEPPHER_STATS") && *getenv("PEPPHER_STATS") &&
	    strcmp(getenv("PEPPHER_STATS"), "0") != 0 && strcmp(getenv("PEPPHER_STATS"), "1") != 0) {
		snprintf(why_not, sizeof(why_not),
			 "PEPPHER_STATS=%s: expected 1 (print them at pph_shutdown) or 0",
			 getenv("PEPPHER_STATS"));
		rc = -EINVAL;
	}
	if (rc != 0) {
		fprintf(stderr, "peppher: %s\n", why_not);
		return rc;
	}
	ncpu = count_or(ncpu, pconf->ncpu);
	nopencl = count_or(nopencl, pconf->nopencl);
	ncuda = count_or(ncuda, pconf->ncuda);
	if (sched)
		conf.sched_policy_name = sched;
	/* models always calibrated, as libpeppher's always learn (unless the
	 * user says otherwise): at StarPU's default, a prediction asked for a
	 * size not calibrated turns the model's calibration on while tasks of
	 * it run, and one that started uncalibrated ends calibrated, its start
	 * time never taken: StarPU asserted "measured >= 0" and aborted,
	 * within a few pph_init/pph_shutdown cycles under dmda */
	if (!getenv("STARPU_CALIBRATE"))
		conf.calibrate = 1;
	if (ncpu >= 0)
		conf.ncpus = ncpu;
	if (nopencl >= 0)
		conf.nopencl = nopencl;
#ifndef SP_USE_OPENCL
	conf.nopencl = 0; /* this build has no OpenCL: its variants cannot run */
#endif
	if (ncuda >= 0)
		conf.ncuda = ncuda;
	say_unread();
	if ((rc = set_home()) != 0) {
		/* StarPU would abort the process */
		sp__init_failed("no folder StarPU can write its models in: a temporary folder in /tmp: %s",
				strerror(-rc));
		return rc;
	}
	setenv("STARPU_SILENT", "1", 0);
	/* libpeppher runs on every OpenCL device, PoCL's CPU device included */
	setenv("STARPU_OPENCL_ON_CPUS", "1", 0);
	/* workers on the cores the process is bound to (taskset, mpirun's
	 * --bind-to), as libpeppher's; StarPU 1.3 used every core */
	setenv("STARPU_WORKERS_GETBIND", "1", 0);
	rc = engine_start(&conf, pph__stack_bytes(stack));
	if (rc != 0) {
		remove_temp_home();
		if (!why_not[0]) /* else the engine said why (sp__init_failed) */
			sp__init_failed("starpu_init failed: %s", strerror(-rc));
		return rc;
	}
	memset(&transfers, 0, sizeof(transfers));
	if (getenv("PEPPHER_STATS") && strcmp(getenv("PEPPHER_STATS"), "1") == 0)
		starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	return 0;
}

void pph_shutdown(void)
{
	const char *stats = getenv("PEPPHER_STATS");

	if (!starpu_is_initialized())
		return;
	/* before the lock: another thread's pph_shutdown holding it waits
	 * for this variant's task */
	if (sp__running_variant() || starpu_task_get_current()) {
		fprintf(stderr, "peppher: pph_shutdown called from a variant: ignored\n");
		return;
	}
	/* a second thread's waits for the first's, and finds StarPU stopped */
	pthread_mutex_lock(&init_lock);
	if (!starpu_is_initialized()) {
		pthread_mutex_unlock(&init_lock);
		return;
	}
	/* new calls, tasks and registrations refused; those under way, and
	 * unregistering and waits, let in until the users are out */
	gate_set(GATE_FINISHING);
	while (atomic_load(&users))
		sched_yield();
	/* then nothing but variants' own calls: data calls wait for the end */
	gate_set(GATE_STOPPING);
	while (atomic_load(&users))
		sched_yield();
	sp__engine_wait_all();
	sp__data_home_all();
	if (stats && strcmp(stats, "1") == 0)
		pph_stats_print(stderr);
	sp__opencl_free(); /* before StarPU releases the OpenCL contexts */
	sp__engine_stop();
	remove_temp_home();
	sp__codelets_free();
	snprintf(why_not, sizeof(why_not), "pph_shutdown() was called");
	atomic_fetch_add(&shutdowns, 1);
	gate_set(GATE_CLOSED);
	pthread_mutex_unlock(&init_lock);
}

int pph_is_initialized(void)
{
	return starpu_is_initialized();
}

unsigned pph_worker_count(void)
{
	return starpu_is_initialized() ? starpu_worker_get_count() : 0;
}

unsigned pph_worker_count_arch(enum pph_arch arch)
{
	if (!starpu_is_initialized())
		return 0;
	switch (arch) {
	case PPH_ARCH_CPU:
	case PPH_ARCH_OPENMP: return starpu_cpu_worker_get_count();
	case PPH_ARCH_OPENCL: return starpu_opencl_worker_get_count();
	case PPH_ARCH_CUDA: return starpu_cuda_worker_get_count();
	default: return 0;
	}
}

const char *pph_arch_name(enum pph_arch arch)
{
	static const char *const names[] = { "CPU", "OPENMP", "CUDA", "OPENCL" };

	return (unsigned)arch < PPH_ARCH_COUNT ? names[arch] : "?";
}


static void transfers_collect(void)
{
	int bus, nbus = starpu_bus_get_count();

	for (bus = 0; bus < nbus; bus++) {
		struct starpu_profiling_bus_info info;

		if (starpu_bus_get_profiling_info(bus, &info) != 0)
			continue;
		if (starpu_bus_get_src(bus) == STARPU_MAIN_RAM) {
			transfers.to_device += (unsigned long)info.transfer_count;
			transfers.bytes_to_device += (unsigned long long)info.transferred_bytes;
		} else if (starpu_bus_get_dst(bus) == STARPU_MAIN_RAM) {
			transfers.to_host += (unsigned long)info.transfer_count;
			transfers.bytes_to_host += (unsigned long long)info.transferred_bytes;
		}
	}
}

void pph_transfer_stats_get(struct pph_transfer_stats *stats)
{
	if (starpu_is_initialized())
		transfers_collect();
	if (stats)
		*stats = transfers;
}

void pph_transfer_stats_reset(void)
{
	if (starpu_is_initialized())
		transfers_collect();
	memset(&transfers, 0, sizeof(transfers));
}

void pph_stats_print(FILE *fp)
{
	struct pph_transfer_stats t;

	if (!fp)
		fp = stderr;
	fprintf(fp, "runtime: StarPU %d.%d (%s)\n", STARPU_MAJOR_VERSION, STARPU_MINOR_VERSION,
		sp__library);
	sp__dist_stats_print(fp);
	sp__stats_print(fp);
	pph_transfer_stats_get(&t);
	fprintf(fp, "transfers: %lu to devices (%llu bytes), %lu to host (%llu bytes)%s\n", t.to_device,
		t.bytes_to_device, t.to_host, t.bytes_to_host,
		starpu_profiling_status_get() ? "" : " (counted with PEPPHER_STATS=1 only)");
}

/* Host memory of the containers (containers/containers.c): StarPU pins
 * what starpu_malloc gives where CUDA is in use. */
void *pph__host_alloc(size_t bytes, int *pinned)
{
	void *p = NULL;

	*pinned = 0;
	if (sp__enter(NULL, 0) != 0) /* StarPU stopped, or stopping */
		return calloc(1, bytes ? bytes : 1);
	if (starpu_malloc(&p, bytes ? bytes : 1) == 0) {
		memset(p, 0, bytes);
		*pinned = 1;
	}
	sp__leave();
	return p ? p : calloc(1, bytes ? bytes : 1);
}

void pph__host_free(void *p, int pinned)
{
	if (pinned)
		starpu_free(p);
	else
		free(p);
}
