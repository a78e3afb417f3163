/*
 * spmv written directly on libpeppher's task API: the repository's
 * variants called from the task's buffers, the OpenCL kernel built and
 * handed to spmv_ocl as compose's backend wrapper would, the codelet, and
 * the call that registers the data, runs a task and waits for it.
 */
#include <omp.h>
#include <peppher/opencl.h>

#include "peppher.h"

struct spmv_args {
	int m, n, nnz;
};

void spmv_cpu(int, int, int, const int *, const int *, const double *, const double *, double *);
void spmv_omp(int, int, int, const int *, const int *, const double *, const double *, double *);
void spmv_ocl(int, int, int, const int *, const int *, const double *, const double *, double *);
void spmv_cuda_task(void *buffers[], void *arg);

/* what spmv_ocl reads: the kernel of spmv.cl and the worker's queue */
cl_kernel spmv_kernel;
cl_command_queue spmv_queue;

#define SPMV_CALL(f, b, a)                                                                      \
	f((a)->m, (a)->n, (a)->nnz, (const int *)PPH_VECTOR_PTR(b[0]),                          \
	  (const int *)PPH_VECTOR_PTR(b[1]), (const double *)PPH_VECTOR_PTR(b[2]),              \
	  (const double *)PPH_VECTOR_PTR(b[3]), (double *)PPH_VECTOR_PTR(b[4]))

static void cpu_task(void *b[], void *arg)
{
	SPMV_CALL(spmv_cpu, b, (struct spmv_args *)arg);
}

static void omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	SPMV_CALL(spmv_omp, b, (struct spmv_args *)arg);
}

static void ocl_task(void *b[], void *arg)
{
	spmv_kernel = pph_opencl_kernel(VARIANTS_DIR "/opencl/spmv.cl", "spmv_csr");
	spmv_queue = pph_opencl_queue();
	if (!spmv_kernel) {
		pph_variant_failed();
		return;
	}
	SPMV_CALL(spmv_ocl, b, (struct spmv_args *)arg);
}

static const struct pph_impl impls[] = {
	{ PPH_ARCH_CPU, cpu_task, "spmv_cpu", 0 },
	{ PPH_ARCH_OPENMP, omp_task, "spmv_omp", 0 },
	{ PPH_ARCH_OPENCL, ocl_task, "spmv_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, spmv_cuda_task, "spmv_cusparse", 0 },
#endif
};
static const struct pph_codelet codelet = { "spmv", sizeof(impls) / sizeof(impls[0]), impls,
					    PPH_MODEL_DEFAULT };

void spmv(int m, int n, int nnz, const int *rowptr, const int *colind, const double *val,
	  const double *x, double *y)
{
	static const enum pph_access modes[5] = { PPH_R, PPH_R, PPH_R, PPH_R, PPH_W };
	struct spmv_args args = { m, n, nnz };
	pph_data_handle h[5] = { NULL, NULL, NULL, NULL, NULL };
	int rc, i;

	rc = pph_vector_register(&h[0], (void *)rowptr, m, sizeof(int));
	if (rc == 0)
		rc = pph_vector_register(&h[1], (void *)colind, nnz, sizeof(int));
	if (rc == 0)
		rc = pph_vector_register(&h[2], (void *)val, nnz, sizeof(double));
	if (rc == 0)
		rc = pph_vector_register(&h[3], (void *)x, n, sizeof(double));
	if (rc == 0)
		rc = pph_vector_register(&h[4], y, m, sizeof(double));
	if (rc == 0)
		rc = pph_call_sync(&codelet, PPH_ALL_IMPLS, 5, h, modes, &args, sizeof(args));
	for (i = 0; i < 5; i++)
		pph_data_unregister(h[i]);
	if (rc != 0)
		pph_call_failed(&codelet, rc);
}
