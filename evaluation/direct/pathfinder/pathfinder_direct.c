/*
 * pathfinder written directly on libpeppher's task API, as hotspot_direct.c: for
 * each component, the variants' calls from the task's buffers, the codelet,
 * and the call that hands the data to a task.
 */
#include <omp.h>

#include "peppher.h"

struct pathfinder_args {
	int row0;
	int height;
};

void pathfinder_cpu(const int *, const int *, int *, int, int, int, int);
void pathfinder_omp(const int *, const int *, int *, int, int, int, int);
void pathfinder_ocl(const int *, const int *, int *, int, int, int, int);
void pathfinder_cuda_task(void *b[], void *arg);

#define PATHFINDER_CALL(f, b, args)                                                                \
	f((const int *)PPH_MATRIX_PTR(b[0]), (const int *)PPH_VECTOR_PTR(b[1]),                    \
	  (int *)PPH_VECTOR_PTR(b[2]), (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_COLS(b[0]),     \
	  (args)->row0, (args)->height)

static void pathfinder_cpu_task(void *b[], void *arg)
{
	PATHFINDER_CALL(pathfinder_cpu, b, (struct pathfinder_args *)arg);
}

static void pathfinder_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	PATHFINDER_CALL(pathfinder_omp, b, (struct pathfinder_args *)arg);
}

static void pathfinder_ocl_task(void *b[], void *arg)
{
	PATHFINDER_CALL(pathfinder_ocl, b, (struct pathfinder_args *)arg);
}

static const struct pph_impl pathfinder_impls[] = {
	{ PPH_ARCH_CPU, pathfinder_cpu_task, "pathfinder_cpu", 0 },
	{ PPH_ARCH_OPENMP, pathfinder_omp_task, "pathfinder_omp", 0 },
	{ PPH_ARCH_OPENCL, pathfinder_ocl_task, "pathfinder_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, pathfinder_cuda_task, "pathfinder_cuda", 0 },
#endif
};
static const struct pph_codelet pathfinder_codelet = {
	"pathfinder", sizeof(pathfinder_impls) / sizeof(pathfinder_impls[0]), pathfinder_impls,
	PPH_MODEL_DEFAULT};

void pathfinder(const int *wall, const int *src, int *dst, int rows, int cols, int row0, int height)
{
	static const enum pph_access modes[3] = {PPH_R, PPH_R, PPH_W};
	struct pathfinder_args args = {row0, height};
	pph_data_handle hd[3] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], (void *)wall, rows, cols, cols, sizeof(*wall));
	if (rc == 0)
		rc = pph_vector_register(&hd[1], (void *)src, cols, sizeof(*src));
	if (rc == 0)
		rc = pph_vector_register(&hd[2], dst, cols, sizeof(*dst));
	if (rc == 0)
		rc = pph_call_sync(&pathfinder_codelet, PPH_ALL_IMPLS, 3, hd, modes, &args,
				   sizeof(args));
	for (i = 0; i < 3; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&pathfinder_codelet, rc);
}
