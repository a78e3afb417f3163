/*
 * test_runtime: one suite file per runtime source file (suite_FILE.c), and
 * what they share (suites.c): kernels and codelets, suite set-up.
 */
#ifndef TESTS_RUNTIME_SUITES_H
#define TESTS_RUNTIME_SUITES_H

#include <stdatomic.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>

/* runs of variants a and b of two_cl (k_mark_a also runs cuda_cl) */
extern atomic_int impl_a_runs, impl_b_runs;

/* the argument block of args_cl: out = a * b + strlen(c) */
struct args3 {
	double a;
	int b;
	char c[5];
};

extern const struct pph_codelet two_cl;	   /* a: CPU, b: OPENMP; count runs */
extern const struct pph_codelet affine_cl; /* x = 3x + i (a variable): order matters */
extern const struct pph_codelet fill_cl;   /* v[i] = arg after 2 ms (a vector) */
extern const struct pph_codelet args_cl;   /* struct args3 into a double variable */
extern const struct pph_codelet cuda_cl;   /* one CUDA variant */

/* Busy for us microseconds (a worker's core stays taken). */
void spin_us(double us);

/* The scheduler the last suite started with ("eager", "ws", "dmda"). */
extern const char *sched_name;
/* Suite set-up: the runtime with 2 CPU workers under a scheduler; fresh:
 * from empty performance models (PEPPHER_CALIBRATE=2). */
int init_eager(void);
int init_ws(void);
int init_dmda(void);
int init_fresh_dmda(void);
int suite_clean(void);
int clean_fresh(void);

/* Submit a task with one buffer and an int argument. */
struct pph_task *task1(const struct pph_codelet *cl, pph_data_handle h, enum pph_access mode,
		       int arg, int detached);

/* Tests run under each scheduler, a suite per file (test_runtime.c). */
void add_task_tests(CU_pSuite s);
void add_wrappers_tests(CU_pSuite s);
void add_workers_tests(CU_pSuite s);
void add_data_tests(CU_pSuite s);
void add_deps_tests(CU_pSuite s);
void add_redux_tests(CU_pSuite s);
/* Suites of their own. */
void add_sched_suites(void);
void add_init_suite(void);
void add_submit_suite(void);
void add_stats_suite(void);
void add_trace_suite(void);

#endif
