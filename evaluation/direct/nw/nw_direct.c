/*
 * nw written directly on libpeppher's task API, as hotspot_direct.c: for
 * each component, the variants' calls from the task's buffers, the codelet,
 * and the call that hands the data to a task.
 */
#include <omp.h>

#include "peppher.h"

struct nw_args {
	int diag;
	int penalty;
};

void nw_cpu(int *, const int *, int, int, int);
void nw_omp(int *, const int *, int, int, int);
void nw_ocl(int *, const int *, int, int, int);
void nw_cuda_task(void *b[], void *arg);

#define NW_CALL(f, b, args)                                                                        \
	f((int *)PPH_MATRIX_PTR(b[0]), (const int *)PPH_MATRIX_PTR(b[1]),                          \
	  (int)PPH_MATRIX_ROWS(b[0]), (args)->diag, (args)->penalty)

static void nw_cpu_task(void *b[], void *arg)
{
	NW_CALL(nw_cpu, b, (struct nw_args *)arg);
}

static void nw_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	NW_CALL(nw_omp, b, (struct nw_args *)arg);
}

static void nw_ocl_task(void *b[], void *arg)
{
	NW_CALL(nw_ocl, b, (struct nw_args *)arg);
}

static const struct pph_impl nw_impls[] = {
	{ PPH_ARCH_CPU, nw_cpu_task, "nw_cpu", 0 },
	{ PPH_ARCH_OPENMP, nw_omp_task, "nw_omp", 0 },
	{ PPH_ARCH_OPENCL, nw_ocl_task, "nw_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, nw_cuda_task, "nw_cuda", 0 },
#endif
};
static const struct pph_codelet nw_codelet = {"nw", sizeof(nw_impls) / sizeof(nw_impls[0]),
					      nw_impls, PPH_MODEL_DEFAULT};

void nw(int *score, const int *ref, int dim, int diag, int penalty)
{
	static const enum pph_access modes[2] = {PPH_RW, PPH_R};
	struct nw_args args = {diag, penalty};
	pph_data_handle hd[2] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], score, dim, dim, dim, sizeof(*score));
	if (rc == 0)
		rc = pph_matrix_register(&hd[1], (void *)ref, dim, dim, dim, sizeof(*ref));
	if (rc == 0)
		rc = pph_call_sync(&nw_codelet, PPH_ALL_IMPLS, 2, hd, modes, &args, sizeof(args));
	for (i = 0; i < 2; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&nw_codelet, rc);
}
