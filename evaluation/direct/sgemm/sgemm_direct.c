/*
 * sgemm written directly on libpeppher's task API: the repository's
 * variants called from the task's buffers, the codelet, and the call that
 * registers the data, runs a task and waits for it.
 */
#include <omp.h>

#include "peppher.h"

struct sgemm_args {
	int m, n, k;
	float alpha, beta;
};

void sgemm_blocked(int, int, int, float, const float *, const float *, float, float *);
void sgemm_cblas(int, int, int, float, const float *, const float *, float, float *);
void sgemm_omp(int, int, int, float, const float *, const float *, float, float *);
void sgemm_ocl(int, int, int, float, const float *, const float *, float, float *);
void sgemm_cuda_task(void *buffers[], void *arg);

#define SGEMM_CALL(f, b, a)                                                                     \
	f((a)->m, (a)->n, (a)->k, (a)->alpha, (const float *)PPH_MATRIX_PTR(b[0]),              \
	  (const float *)PPH_MATRIX_PTR(b[1]), (a)->beta, (float *)PPH_MATRIX_PTR(b[2]))

static void blocked_task(void *b[], void *arg)
{
	SGEMM_CALL(sgemm_blocked, b, (struct sgemm_args *)arg);
}

static void cblas_task(void *b[], void *arg)
{
	SGEMM_CALL(sgemm_cblas, b, (struct sgemm_args *)arg);
}

static void omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	SGEMM_CALL(sgemm_omp, b, (struct sgemm_args *)arg);
}

static void ocl_task(void *b[], void *arg)
{
	SGEMM_CALL(sgemm_ocl, b, (struct sgemm_args *)arg);
}

static const struct pph_impl impls[] = {
	{ PPH_ARCH_CPU, blocked_task, "sgemm_blocked", 0 },
	{ PPH_ARCH_CPU, cblas_task, "sgemm_cblas", 0 },
	{ PPH_ARCH_OPENMP, omp_task, "sgemm_omp", 0 },
	{ PPH_ARCH_OPENCL, ocl_task, "sgemm_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, sgemm_cuda_task, "sgemm_cublas", 0 },
#endif
};
static const struct pph_codelet codelet = { "sgemm", sizeof(impls) / sizeof(impls[0]), impls,
					    PPH_MODEL_DEFAULT };

void sgemm(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C)
{
	static const enum pph_access modes[3] = { PPH_R, PPH_R, PPH_RW };
	struct sgemm_args args = { m, n, k, alpha, beta };
	pph_data_handle h[3] = { NULL, NULL, NULL };
	int rc, i;

	rc = pph_matrix_register(&h[0], (void *)A, m, k, k, sizeof(float));
	if (rc == 0)
		rc = pph_matrix_register(&h[1], (void *)B, k, n, n, sizeof(float));
	if (rc == 0)
		rc = pph_matrix_register(&h[2], C, m, n, n, sizeof(float));
	if (rc == 0)
		rc = pph_call_sync(&codelet, PPH_ALL_IMPLS, 3, h, modes, &args, sizeof(args));
	for (i = 0; i < 3; i++)
		pph_data_unregister(h[i]);
	if (rc != 0)
		pph_call_failed(&codelet, rc);
}
