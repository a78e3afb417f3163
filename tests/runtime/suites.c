/* What the suites of test_runtime share (suites.h): kernels, codelets, set-up. */
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

atomic_int impl_a_runs, impl_b_runs;

static void k_mark_a(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&impl_a_runs, 1);
}

static void k_mark_b(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&impl_b_runs, 1);
}

/* x = 3x + i: the result depends on the order of the calls */
static void k_affine(void *buffers[], void *arg)
{
	long *x = PPH_VARIABLE_PTR(buffers[0]);

	*x = *x * 3 + *(int *)arg;
	*x %= 1000003;
}

/* v[i] = value, after a pause so that a bad schedule would show */
static void k_fill_slow(void *buffers[], void *arg)
{
	int *v = PPH_VECTOR_PTR(buffers[0]);
	struct timespec ts = { 0, 2000000 };
	size_t i;

	nanosleep(&ts, NULL);
	for (i = 0; i < PPH_VECTOR_N(buffers[0]); i++)
		v[i] = *(int *)arg;
}

static void k_args(void *buffers[], void *arg)
{
	struct args3 *a = arg;
	double *out = PPH_VARIABLE_PTR(buffers[0]);

	*out = a->a * a->b + (double)strlen(a->c);
}

static const struct pph_impl two_impls[] = {
	{ PPH_ARCH_CPU, k_mark_a, "a", 0 },
	{ PPH_ARCH_OPENMP, k_mark_b, "b", 0 },
};
const struct pph_codelet two_cl = { "two", 2, two_impls, PPH_MODEL_DEFAULT };

static const struct pph_impl affine_impls[] = { { PPH_ARCH_CPU, k_affine, "affine", 0 } };
const struct pph_codelet affine_cl = { "affine", 1, affine_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl fill_impls[] = { { PPH_ARCH_CPU, k_fill_slow, "fill", 0 } };
const struct pph_codelet fill_cl = { "fill", 1, fill_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl args_impls[] = { { PPH_ARCH_CPU, k_args, "args", 0 } };
const struct pph_codelet args_cl = { "args", 1, args_impls, PPH_MODEL_DEFAULT };
static const struct pph_impl cuda_impls[] = { { PPH_ARCH_CUDA, k_mark_a, "cuda_only", 0 } };
const struct pph_codelet cuda_cl = { "cuda_only", 1, cuda_impls, PPH_MODEL_DEFAULT };

/* Busy for us microseconds (a worker's core stays taken). */
void spin_us(double us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3 < us);
}

const char *sched_name = "dmda";

static int suite_init(void)
{
	setenv("PEPPHER_NCPU", "2", 1);
	setenv("PEPPHER_SCHED", sched_name, 1);
	return pph_init();
}

int suite_clean(void)
{
	pph_shutdown();
	return 0;
}

/* submit a task with one buffer and an int argument */
struct pph_task *task1(const struct pph_codelet *cl, pph_data_handle h,
		       enum pph_access mode, int arg, int detached)
{
	struct pph_task *t = pph_task_create(cl);

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(pph_task_add_buffer(t, h, mode), 0);
	CU_ASSERT_EQUAL(pph_task_set_arg(t, &arg, sizeof(arg)), 0);
	pph_task_set_detached(t, detached);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	return t;
}

int init_eager(void) { sched_name = "eager"; return suite_init(); }
int init_ws(void) { sched_name = "ws"; return suite_init(); }
int init_dmda(void) { sched_name = "dmda"; return suite_init(); }

/* PEPPHER_CALIBRATE=2: start from empty performance models */
int init_fresh_dmda(void)
{
	setenv("PEPPHER_CALIBRATE", "2", 1);
	sched_name = "dmda";
	return suite_init();
}

int clean_fresh(void)
{
	pph_shutdown();
	unsetenv("PEPPHER_CALIBRATE");
	return 0;
}
