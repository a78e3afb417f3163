/*
 * particlefilter written directly on libpeppher's task API, as hotspot_direct.c: for
 * each component, the variants' calls from the task's buffers, the codelet,
 * and the call that hands the data to a task.
 */
#include <omp.h>

#include "peppher.h"

void pf_likelihood_cpu(const int *, double *, double *, const double *, double *, int, int, int);
void pf_likelihood_omp(const int *, double *, double *, const double *, double *, int, int, int);
void pf_likelihood_ocl(const int *, double *, double *, const double *, double *, int, int, int);
void pf_likelihood_cuda_task(void *b[], void *arg);

#define PF_LIKELIHOOD_CALL(f, b, args)                                                             \
	f((const int *)PPH_MATRIX_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),                       \
	  (double *)PPH_VECTOR_PTR(b[2]), (const double *)PPH_VECTOR_PTR(b[3]),                    \
	  (double *)PPH_VECTOR_PTR(b[4]), (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_VECTOR_N(b[1]),     \
	  (int)PPH_VECTOR_N(b[3]))

static void pf_likelihood_cpu_task(void *b[], void *arg)
{
	PF_LIKELIHOOD_CALL(pf_likelihood_cpu, b, (void *)arg);
}

static void pf_likelihood_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	PF_LIKELIHOOD_CALL(pf_likelihood_omp, b, (void *)arg);
}

static void pf_likelihood_ocl_task(void *b[], void *arg)
{
	PF_LIKELIHOOD_CALL(pf_likelihood_ocl, b, (void *)arg);
}

static const struct pph_impl pf_likelihood_impls[] = {
	{ PPH_ARCH_CPU, pf_likelihood_cpu_task, "pf_likelihood_cpu", 0 },
	{ PPH_ARCH_OPENMP, pf_likelihood_omp_task, "pf_likelihood_omp", 0 },
	{ PPH_ARCH_OPENCL, pf_likelihood_ocl_task, "pf_likelihood_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, pf_likelihood_cuda_task, "pf_likelihood_cuda", 0 },
#endif
};
static const struct pph_codelet pf_likelihood_codelet = {
	"pf_likelihood", sizeof(pf_likelihood_impls) / sizeof(pf_likelihood_impls[0]),
	pf_likelihood_impls, PPH_MODEL_DEFAULT};

void pf_likelihood(const int *frame, double *x, double *y, const double *noise, double *w, int dim,
		   int n, int n2)
{
	static const enum pph_access modes[5] = {PPH_R, PPH_RW, PPH_RW, PPH_R, PPH_RW};
	pph_data_handle hd[5] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], (void *)frame, dim, dim, dim, sizeof(*frame));
	if (rc == 0)
		rc = pph_vector_register(&hd[1], x, n, sizeof(*x));
	if (rc == 0)
		rc = pph_vector_register(&hd[2], y, n, sizeof(*y));
	if (rc == 0)
		rc = pph_vector_register(&hd[3], (void *)noise, n2, sizeof(*noise));
	if (rc == 0)
		rc = pph_vector_register(&hd[4], w, n, sizeof(*w));
	if (rc == 0)
		rc = pph_call_sync(&pf_likelihood_codelet, PPH_ALL_IMPLS, 5, hd, modes, NULL, 0);
	for (i = 0; i < 5; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&pf_likelihood_codelet, rc);
}

struct pf_resample_args {
	double u1;
};

void pf_resample_cpu(const double *, const double *, double *, double *, double *, double *,
		     double *, int, double);
void pf_resample_omp(const double *, const double *, double *, double *, double *, double *,
		     double *, int, double);
void pf_resample_ocl(const double *, const double *, double *, double *, double *, double *,
		     double *, int, double);
void pf_resample_cuda_task(void *b[], void *arg);

#define PF_RESAMPLE_CALL(f, b, args)                                                               \
	f((const double *)PPH_VECTOR_PTR(b[0]), (const double *)PPH_VECTOR_PTR(b[1]),              \
	  (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]),                          \
	  (double *)PPH_VECTOR_PTR(b[4]), (double *)PPH_VARIABLE_PTR(b[5]),                        \
	  (double *)PPH_VARIABLE_PTR(b[6]), (int)PPH_VECTOR_N(b[0]), (args)->u1)

static void pf_resample_cpu_task(void *b[], void *arg)
{
	PF_RESAMPLE_CALL(pf_resample_cpu, b, (struct pf_resample_args *)arg);
}

static void pf_resample_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	PF_RESAMPLE_CALL(pf_resample_omp, b, (struct pf_resample_args *)arg);
}

static void pf_resample_ocl_task(void *b[], void *arg)
{
	PF_RESAMPLE_CALL(pf_resample_ocl, b, (struct pf_resample_args *)arg);
}

static const struct pph_impl pf_resample_impls[] = {
	{ PPH_ARCH_CPU, pf_resample_cpu_task, "pf_resample_cpu", 0 },
	{ PPH_ARCH_OPENMP, pf_resample_omp_task, "pf_resample_omp", 0 },
	{ PPH_ARCH_OPENCL, pf_resample_ocl_task, "pf_resample_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, pf_resample_cuda_task, "pf_resample_cuda", 0 },
#endif
};
static const struct pph_codelet pf_resample_codelet = {
	"pf_resample", sizeof(pf_resample_impls) / sizeof(pf_resample_impls[0]), pf_resample_impls,
	PPH_MODEL_DEFAULT};

void pf_resample(const double *x, const double *y, double *w, double *nx, double *ny, double *ex,
		 double *ey, int n, double u1)
{
	static const enum pph_access modes[7] = {PPH_R, PPH_R, PPH_RW, PPH_W, PPH_W, PPH_W, PPH_W};
	struct pf_resample_args args = {u1};
	pph_data_handle hd[7] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_vector_register(&hd[0], (void *)x, n, sizeof(*x));
	if (rc == 0)
		rc = pph_vector_register(&hd[1], (void *)y, n, sizeof(*y));
	if (rc == 0)
		rc = pph_vector_register(&hd[2], w, n, sizeof(*w));
	if (rc == 0)
		rc = pph_vector_register(&hd[3], nx, n, sizeof(*nx));
	if (rc == 0)
		rc = pph_vector_register(&hd[4], ny, n, sizeof(*ny));
	if (rc == 0)
		rc = pph_variable_register(&hd[5], ex, sizeof(*ex));
	if (rc == 0)
		rc = pph_variable_register(&hd[6], ey, sizeof(*ey));
	if (rc == 0)
		rc = pph_call_sync(&pf_resample_codelet, PPH_ALL_IMPLS, 7, hd, modes, &args,
				   sizeof(args));
	for (i = 0; i < 7; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&pf_resample_codelet, rc);
}
