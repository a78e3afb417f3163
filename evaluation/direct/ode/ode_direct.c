/*
 * ode written directly on libpeppher's task API, as hotspot_direct.c: for
 * each component, the variants' calls from the task's buffers, the codelet,
 * and the call that hands the data to a task.
 */
#include <omp.h>

#include "peppher.h"

struct ode_init_args {
	int grid;
};

void ode_init_cpu(double *, int, int);
void ode_init_omp(double *, int, int);
void ode_init_ocl(double *, int, int);
void ode_init_cuda_task(void *b[], void *arg);

#define ODE_INIT_CALL(f, b, args)                                                                  \
	f((double *)PPH_VECTOR_PTR(b[0]), (int)PPH_VECTOR_N(b[0]), (args)->grid)

static void ode_init_cpu_task(void *b[], void *arg)
{
	ODE_INIT_CALL(ode_init_cpu, b, (struct ode_init_args *)arg);
}

static void ode_init_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_INIT_CALL(ode_init_omp, b, (struct ode_init_args *)arg);
}

static void ode_init_ocl_task(void *b[], void *arg)
{
	ODE_INIT_CALL(ode_init_ocl, b, (struct ode_init_args *)arg);
}

static const struct pph_impl ode_init_impls[] = {
	{ PPH_ARCH_CPU, ode_init_cpu_task, "ode_init_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_init_omp_task, "ode_init_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_init_ocl_task, "ode_init_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_init_cuda_task, "ode_init_cuda", 0 },
#endif
};
static const struct pph_codelet ode_init_codelet = {
	"ode_init", sizeof(ode_init_impls) / sizeof(ode_init_impls[0]), ode_init_impls,
	PPH_MODEL_DEFAULT};

void ode_init(pph_vector *y, int n, int grid)
{
	static const enum pph_access modes[1] = {PPH_W};
	struct ode_init_args args = {grid};
	pph_data_handle hd[1] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&y->c, PPH_W);
	(void)n;
	rc = pph_call_async(&ode_init_codelet, PPH_ALL_IMPLS, 1, hd, modes, &args, sizeof(args));
	if (rc != 0)
		pph_call_failed(&ode_init_codelet, rc);
}

struct ode_rhs_args {
	int grid;
};

void ode_rhs_cpu(double *, double *, int, int);
void ode_rhs_omp(double *, double *, int, int);
void ode_rhs_ocl(double *, double *, int, int);
void ode_rhs_cuda_task(void *b[], void *arg);

#define ODE_RHS_CALL(f, b, args)                                                                   \
	f((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]), (int)PPH_VECTOR_N(b[0]), \
	  (args)->grid)

static void ode_rhs_cpu_task(void *b[], void *arg)
{
	ODE_RHS_CALL(ode_rhs_cpu, b, (struct ode_rhs_args *)arg);
}

static void ode_rhs_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_RHS_CALL(ode_rhs_omp, b, (struct ode_rhs_args *)arg);
}

static void ode_rhs_ocl_task(void *b[], void *arg)
{
	ODE_RHS_CALL(ode_rhs_ocl, b, (struct ode_rhs_args *)arg);
}

static const struct pph_impl ode_rhs_impls[] = {
	{ PPH_ARCH_CPU, ode_rhs_cpu_task, "ode_rhs_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_rhs_omp_task, "ode_rhs_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_rhs_ocl_task, "ode_rhs_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_rhs_cuda_task, "ode_rhs_cuda", 0 },
#endif
};
static const struct pph_codelet ode_rhs_codelet = {"ode_rhs",
						   sizeof(ode_rhs_impls) / sizeof(ode_rhs_impls[0]),
						   ode_rhs_impls, PPH_MODEL_DEFAULT};

void ode_rhs(pph_vector *y, pph_vector *f, int n, int grid)
{
	static const enum pph_access modes[2] = {PPH_R, PPH_W};
	struct ode_rhs_args args = {grid};
	pph_data_handle hd[2] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&y->c, PPH_R);
	hd[1] = pph_container_use(&f->c, PPH_W);
	(void)n;
	rc = pph_call_async(&ode_rhs_codelet, PPH_ALL_IMPLS, 2, hd, modes, &args, sizeof(args));
	if (rc != 0)
		pph_call_failed(&ode_rhs_codelet, rc);
}

struct ode_stage_args {
	double h;
	double a1;
	double a2;
	double a3;
	double a4;
	double a5;
	double a6;
};

void ode_stage_cpu(double *, double *, double *, double *, double *, double *, double *, double *,
		   int, double, double, double, double, double, double, double);
void ode_stage_omp(double *, double *, double *, double *, double *, double *, double *, double *,
		   int, double, double, double, double, double, double, double);
void ode_stage_ocl(double *, double *, double *, double *, double *, double *, double *, double *,
		   int, double, double, double, double, double, double, double);
void ode_stage_cuda_task(void *b[], void *arg);

#define ODE_STAGE_CALL(f, b, args)                                                                 \
	f((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),                          \
	  (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]),                          \
	  (double *)PPH_VECTOR_PTR(b[4]), (double *)PPH_VECTOR_PTR(b[5]),                          \
	  (double *)PPH_VECTOR_PTR(b[6]), (double *)PPH_VECTOR_PTR(b[7]), (int)PPH_VECTOR_N(b[0]), \
	  (args)->h, (args)->a1, (args)->a2, (args)->a3, (args)->a4, (args)->a5, (args)->a6)

static void ode_stage_cpu_task(void *b[], void *arg)
{
	ODE_STAGE_CALL(ode_stage_cpu, b, (struct ode_stage_args *)arg);
}

static void ode_stage_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_STAGE_CALL(ode_stage_omp, b, (struct ode_stage_args *)arg);
}

static void ode_stage_ocl_task(void *b[], void *arg)
{
	ODE_STAGE_CALL(ode_stage_ocl, b, (struct ode_stage_args *)arg);
}

static const struct pph_impl ode_stage_impls[] = {
	{ PPH_ARCH_CPU, ode_stage_cpu_task, "ode_stage_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_stage_omp_task, "ode_stage_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_stage_ocl_task, "ode_stage_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_stage_cuda_task, "ode_stage_cuda", 0 },
#endif
};
static const struct pph_codelet ode_stage_codelet = {
	"ode_stage", sizeof(ode_stage_impls) / sizeof(ode_stage_impls[0]), ode_stage_impls,
	PPH_MODEL_DEFAULT};

void ode_stage(pph_vector *w, pph_vector *y, pph_vector *k1, pph_vector *k2, pph_vector *k3,
	       pph_vector *k4, pph_vector *k5, pph_vector *k6, int n, double h, double a1,
	       double a2, double a3, double a4, double a5, double a6)
{
	static const enum pph_access modes[8] = {PPH_W, PPH_R, PPH_R, PPH_R,
						 PPH_R, PPH_R, PPH_R, PPH_R};
	struct ode_stage_args args = {h, a1, a2, a3, a4, a5, a6};
	pph_data_handle hd[8] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&w->c, PPH_W);
	hd[1] = pph_container_use(&y->c, PPH_R);
	hd[2] = pph_container_use(&k1->c, PPH_R);
	hd[3] = pph_container_use(&k2->c, PPH_R);
	hd[4] = pph_container_use(&k3->c, PPH_R);
	hd[5] = pph_container_use(&k4->c, PPH_R);
	hd[6] = pph_container_use(&k5->c, PPH_R);
	hd[7] = pph_container_use(&k6->c, PPH_R);
	(void)n;
	rc = pph_call_async(&ode_stage_codelet, PPH_ALL_IMPLS, 8, hd, modes, &args, sizeof(args));
	if (rc != 0)
		pph_call_failed(&ode_stage_codelet, rc);
}

struct ode_error_args {
	double h;
	double e1;
	double e3;
	double e4;
	double e5;
	double e6;
	double e7;
};

void ode_error_cpu(double *, double *, double *, double *, double *, double *, double *, int,
		   double, double, double, double, double, double, double);
void ode_error_omp(double *, double *, double *, double *, double *, double *, double *, int,
		   double, double, double, double, double, double, double);
void ode_error_ocl(double *, double *, double *, double *, double *, double *, double *, int,
		   double, double, double, double, double, double, double);
void ode_error_cuda_task(void *b[], void *arg);

#define ODE_ERROR_CALL(f, b, args)                                                                 \
	f((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),                          \
	  (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]),                          \
	  (double *)PPH_VECTOR_PTR(b[4]), (double *)PPH_VECTOR_PTR(b[5]),                          \
	  (double *)PPH_VECTOR_PTR(b[6]), (int)PPH_VECTOR_N(b[0]), (args)->h, (args)->e1,          \
	  (args)->e3, (args)->e4, (args)->e5, (args)->e6, (args)->e7)

static void ode_error_cpu_task(void *b[], void *arg)
{
	ODE_ERROR_CALL(ode_error_cpu, b, (struct ode_error_args *)arg);
}

static void ode_error_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_ERROR_CALL(ode_error_omp, b, (struct ode_error_args *)arg);
}

static void ode_error_ocl_task(void *b[], void *arg)
{
	ODE_ERROR_CALL(ode_error_ocl, b, (struct ode_error_args *)arg);
}

static const struct pph_impl ode_error_impls[] = {
	{ PPH_ARCH_CPU, ode_error_cpu_task, "ode_error_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_error_omp_task, "ode_error_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_error_ocl_task, "ode_error_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_error_cuda_task, "ode_error_cuda", 0 },
#endif
};
static const struct pph_codelet ode_error_codelet = {
	"ode_error", sizeof(ode_error_impls) / sizeof(ode_error_impls[0]), ode_error_impls,
	PPH_MODEL_DEFAULT};

void ode_error(pph_vector *err, pph_vector *k1, pph_vector *k3, pph_vector *k4, pph_vector *k5,
	       pph_vector *k6, pph_vector *k7, int n, double h, double e1, double e3, double e4,
	       double e5, double e6, double e7)
{
	static const enum pph_access modes[7] = {PPH_W, PPH_R, PPH_R, PPH_R, PPH_R, PPH_R, PPH_R};
	struct ode_error_args args = {h, e1, e3, e4, e5, e6, e7};
	pph_data_handle hd[7] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&err->c, PPH_W);
	hd[1] = pph_container_use(&k1->c, PPH_R);
	hd[2] = pph_container_use(&k3->c, PPH_R);
	hd[3] = pph_container_use(&k4->c, PPH_R);
	hd[4] = pph_container_use(&k5->c, PPH_R);
	hd[5] = pph_container_use(&k6->c, PPH_R);
	hd[6] = pph_container_use(&k7->c, PPH_R);
	(void)n;
	rc = pph_call_async(&ode_error_codelet, PPH_ALL_IMPLS, 7, hd, modes, &args, sizeof(args));
	if (rc != 0)
		pph_call_failed(&ode_error_codelet, rc);
}

struct ode_errnorm_args {
	double atol;
	double rtol;
};

void ode_errnorm_cpu(double *, double *, double *, double *, int, double, double);
void ode_errnorm_omp(double *, double *, double *, double *, int, double, double);
void ode_errnorm_ocl(double *, double *, double *, double *, int, double, double);
void ode_errnorm_cuda_task(void *b[], void *arg);

#define ODE_ERRNORM_CALL(f, b, args)                                                               \
	f((double *)PPH_VARIABLE_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),                        \
	  (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]), (int)PPH_VECTOR_N(b[1]), \
	  (args)->atol, (args)->rtol)

static void ode_errnorm_cpu_task(void *b[], void *arg)
{
	ODE_ERRNORM_CALL(ode_errnorm_cpu, b, (struct ode_errnorm_args *)arg);
}

static void ode_errnorm_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_ERRNORM_CALL(ode_errnorm_omp, b, (struct ode_errnorm_args *)arg);
}

static void ode_errnorm_ocl_task(void *b[], void *arg)
{
	ODE_ERRNORM_CALL(ode_errnorm_ocl, b, (struct ode_errnorm_args *)arg);
}

static const struct pph_impl ode_errnorm_impls[] = {
	{ PPH_ARCH_CPU, ode_errnorm_cpu_task, "ode_errnorm_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_errnorm_omp_task, "ode_errnorm_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_errnorm_ocl_task, "ode_errnorm_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_errnorm_cuda_task, "ode_errnorm_cuda", 0 },
#endif
};
static const struct pph_codelet ode_errnorm_codelet = {
	"ode_errnorm", sizeof(ode_errnorm_impls) / sizeof(ode_errnorm_impls[0]), ode_errnorm_impls,
	PPH_MODEL_DEFAULT};

void ode_errnorm(pph_scalar *res, pph_vector *err, pph_vector *y, pph_vector *ynew, int n,
		 double atol, double rtol)
{
	static const enum pph_access modes[4] = {PPH_W, PPH_R, PPH_R, PPH_R};
	struct ode_errnorm_args args = {atol, rtol};
	pph_data_handle hd[4] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&res->c, PPH_W);
	hd[1] = pph_container_use(&err->c, PPH_R);
	hd[2] = pph_container_use(&y->c, PPH_R);
	hd[3] = pph_container_use(&ynew->c, PPH_R);
	(void)n;
	rc = pph_call_async(&ode_errnorm_codelet, PPH_ALL_IMPLS, 4, hd, modes, &args, sizeof(args));
	if (rc != 0)
		pph_call_failed(&ode_errnorm_codelet, rc);
}

struct ode_wrms_args {
	double atol;
	double rtol;
};

void ode_wrms_cpu(double *, double *, double *, int, double, double);
void ode_wrms_omp(double *, double *, double *, int, double, double);
void ode_wrms_ocl(double *, double *, double *, int, double, double);
void ode_wrms_cuda_task(void *b[], void *arg);

#define ODE_WRMS_CALL(f, b, args)                                                                  \
	f((double *)PPH_VARIABLE_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),                        \
	  (double *)PPH_VECTOR_PTR(b[2]), (int)PPH_VECTOR_N(b[1]), (args)->atol, (args)->rtol)

static void ode_wrms_cpu_task(void *b[], void *arg)
{
	ODE_WRMS_CALL(ode_wrms_cpu, b, (struct ode_wrms_args *)arg);
}

static void ode_wrms_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_WRMS_CALL(ode_wrms_omp, b, (struct ode_wrms_args *)arg);
}

static void ode_wrms_ocl_task(void *b[], void *arg)
{
	ODE_WRMS_CALL(ode_wrms_ocl, b, (struct ode_wrms_args *)arg);
}

static const struct pph_impl ode_wrms_impls[] = {
	{ PPH_ARCH_CPU, ode_wrms_cpu_task, "ode_wrms_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_wrms_omp_task, "ode_wrms_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_wrms_ocl_task, "ode_wrms_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_wrms_cuda_task, "ode_wrms_cuda", 0 },
#endif
};
static const struct pph_codelet ode_wrms_codelet = {
	"ode_wrms", sizeof(ode_wrms_impls) / sizeof(ode_wrms_impls[0]), ode_wrms_impls,
	PPH_MODEL_DEFAULT};

void ode_wrms(pph_scalar *res, pph_vector *x, pph_vector *y, int n, double atol, double rtol)
{
	static const enum pph_access modes[3] = {PPH_W, PPH_R, PPH_R};
	struct ode_wrms_args args = {atol, rtol};
	pph_data_handle hd[3] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&res->c, PPH_W);
	hd[1] = pph_container_use(&x->c, PPH_R);
	hd[2] = pph_container_use(&y->c, PPH_R);
	(void)n;
	rc = pph_call_async(&ode_wrms_codelet, PPH_ALL_IMPLS, 3, hd, modes, &args, sizeof(args));
	if (rc != 0)
		pph_call_failed(&ode_wrms_codelet, rc);
}

void ode_copy_cpu(double *, double *, int);
void ode_copy_omp(double *, double *, int);
void ode_copy_ocl(double *, double *, int);
void ode_copy_cuda_task(void *b[], void *arg);

#define ODE_COPY_CALL(f, b, args)                                                                  \
	f((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]), (int)PPH_VECTOR_N(b[0]))

static void ode_copy_cpu_task(void *b[], void *arg)
{
	ODE_COPY_CALL(ode_copy_cpu, b, (void *)arg);
}

static void ode_copy_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_COPY_CALL(ode_copy_omp, b, (void *)arg);
}

static void ode_copy_ocl_task(void *b[], void *arg)
{
	ODE_COPY_CALL(ode_copy_ocl, b, (void *)arg);
}

static const struct pph_impl ode_copy_impls[] = {
	{ PPH_ARCH_CPU, ode_copy_cpu_task, "ode_copy_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_copy_omp_task, "ode_copy_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_copy_ocl_task, "ode_copy_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_copy_cuda_task, "ode_copy_cuda", 0 },
#endif
};
static const struct pph_codelet ode_copy_codelet = {
	"ode_copy", sizeof(ode_copy_impls) / sizeof(ode_copy_impls[0]), ode_copy_impls,
	PPH_MODEL_DEFAULT};

void ode_copy(pph_vector *dst, pph_vector *src, int n)
{
	static const enum pph_access modes[2] = {PPH_W, PPH_R};
	pph_data_handle hd[2] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&dst->c, PPH_W);
	hd[1] = pph_container_use(&src->c, PPH_R);
	(void)n;
	rc = pph_call_async(&ode_copy_codelet, PPH_ALL_IMPLS, 2, hd, modes, NULL, 0);
	if (rc != 0)
		pph_call_failed(&ode_copy_codelet, rc);
}

struct ode_axpy_args {
	double a;
};

void ode_axpy_cpu(double *, double *, double *, int, double);
void ode_axpy_omp(double *, double *, double *, int, double);
void ode_axpy_ocl(double *, double *, double *, int, double);
void ode_axpy_cuda_task(void *b[], void *arg);

#define ODE_AXPY_CALL(f, b, args)                                                                  \
	f((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),                          \
	  (double *)PPH_VECTOR_PTR(b[2]), (int)PPH_VECTOR_N(b[0]), (args)->a)

static void ode_axpy_cpu_task(void *b[], void *arg)
{
	ODE_AXPY_CALL(ode_axpy_cpu, b, (struct ode_axpy_args *)arg);
}

static void ode_axpy_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_AXPY_CALL(ode_axpy_omp, b, (struct ode_axpy_args *)arg);
}

static void ode_axpy_ocl_task(void *b[], void *arg)
{
	ODE_AXPY_CALL(ode_axpy_ocl, b, (struct ode_axpy_args *)arg);
}

static const struct pph_impl ode_axpy_impls[] = {
	{ PPH_ARCH_CPU, ode_axpy_cpu_task, "ode_axpy_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_axpy_omp_task, "ode_axpy_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_axpy_ocl_task, "ode_axpy_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_axpy_cuda_task, "ode_axpy_cuda", 0 },
#endif
};
static const struct pph_codelet ode_axpy_codelet = {
	"ode_axpy", sizeof(ode_axpy_impls) / sizeof(ode_axpy_impls[0]), ode_axpy_impls,
	PPH_MODEL_DEFAULT};

void ode_axpy(pph_vector *z, pph_vector *x, pph_vector *y, int n, double a)
{
	static const enum pph_access modes[3] = {PPH_W, PPH_R, PPH_R};
	struct ode_axpy_args args = {a};
	pph_data_handle hd[3] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&z->c, PPH_W);
	hd[1] = pph_container_use(&x->c, PPH_R);
	hd[2] = pph_container_use(&y->c, PPH_R);
	(void)n;
	rc = pph_call_async(&ode_axpy_codelet, PPH_ALL_IMPLS, 3, hd, modes, &args, sizeof(args));
	if (rc != 0)
		pph_call_failed(&ode_axpy_codelet, rc);
}

void ode_sum_cpu(double *, double *, int);
void ode_sum_omp(double *, double *, int);
void ode_sum_ocl(double *, double *, int);
void ode_sum_cuda_task(void *b[], void *arg);

#define ODE_SUM_CALL(f, b, args)                                                                   \
	f((double *)PPH_VARIABLE_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]), (int)PPH_VECTOR_N(b[1]))

static void ode_sum_cpu_task(void *b[], void *arg)
{
	ODE_SUM_CALL(ode_sum_cpu, b, (void *)arg);
}

static void ode_sum_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	ODE_SUM_CALL(ode_sum_omp, b, (void *)arg);
}

static void ode_sum_ocl_task(void *b[], void *arg)
{
	ODE_SUM_CALL(ode_sum_ocl, b, (void *)arg);
}

static const struct pph_impl ode_sum_impls[] = {
	{ PPH_ARCH_CPU, ode_sum_cpu_task, "ode_sum_cpu", 0 },
	{ PPH_ARCH_OPENMP, ode_sum_omp_task, "ode_sum_omp", 0 },
	{ PPH_ARCH_OPENCL, ode_sum_ocl_task, "ode_sum_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, ode_sum_cuda_task, "ode_sum_cuda", 0 },
#endif
};
static const struct pph_codelet ode_sum_codelet = {"ode_sum",
						   sizeof(ode_sum_impls) / sizeof(ode_sum_impls[0]),
						   ode_sum_impls, PPH_MODEL_DEFAULT};

void ode_sum(pph_scalar *res, pph_vector *x, int n)
{
	static const enum pph_access modes[2] = {PPH_W, PPH_R};
	pph_data_handle hd[2] = {NULL};
	int rc = 0;

	hd[0] = pph_container_use(&res->c, PPH_W);
	hd[1] = pph_container_use(&x->c, PPH_R);
	(void)n;
	rc = pph_call_async(&ode_sum_codelet, PPH_ALL_IMPLS, 2, hd, modes, NULL, 0);
	if (rc != 0)
		pph_call_failed(&ode_sum_codelet, rc);
}

/* The models load at PEPPHER_INITIALIZE(), as the composed version's do. */
__attribute__((constructor)) static void declare_codelets(void)
{
	static const struct pph_codelet *const all[] = {
		&ode_init_codelet, &ode_rhs_codelet,	&ode_stage_codelet,
		&ode_error_codelet, &ode_errnorm_codelet, &ode_wrms_codelet,
		&ode_copy_codelet, &ode_axpy_codelet,	&ode_sum_codelet,
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		pph_codelet_declare(all[i]);
}
