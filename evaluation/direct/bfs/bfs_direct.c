/*
 * bfs written directly on libpeppher's task API, as hotspot_direct.c: for
 * each component, the variants' calls from the task's buffers, the codelet,
 * and the call that hands the data to a task.
 */
#include <omp.h>

#include "peppher.h"

void bfs_cpu(const int *, const int *, const int *, int *, int *, int *, int *, int *, int, int,
	     int);
void bfs_omp(const int *, const int *, const int *, int *, int *, int *, int *, int *, int, int,
	     int);
void bfs_ocl(const int *, const int *, const int *, int *, int *, int *, int *, int *, int, int,
	     int);
void bfs_cuda_task(void *b[], void *arg);

struct bfs_args {
	int frontier;
};

#define BFS_CALL(f, b, args)                                                                       \
	f((const int *)PPH_VECTOR_PTR(b[0]), (const int *)PPH_VECTOR_PTR(b[1]),                    \
	  (const int *)PPH_VECTOR_PTR(b[2]), (int *)PPH_VECTOR_PTR(b[3]),                          \
	  (int *)PPH_VECTOR_PTR(b[4]), (int *)PPH_VECTOR_PTR(b[5]), (int *)PPH_VECTOR_PTR(b[6]),   \
	  (int *)PPH_VARIABLE_PTR(b[7]), (args)->frontier, (int)PPH_VECTOR_N(b[0]),               \
	  (int)PPH_VECTOR_N(b[2]))

static void bfs_cpu_task(void *b[], void *arg)
{
	BFS_CALL(bfs_cpu, b, (struct bfs_args *)arg);
}

static void bfs_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	BFS_CALL(bfs_omp, b, (struct bfs_args *)arg);
}

static void bfs_ocl_task(void *b[], void *arg)
{
	BFS_CALL(bfs_ocl, b, (struct bfs_args *)arg);
}

static const struct pph_impl bfs_impls[] = {
	{ PPH_ARCH_CPU, bfs_cpu_task, "bfs_cpu", 0 },
	{ PPH_ARCH_OPENMP, bfs_omp_task, "bfs_omp", 0 },
	{ PPH_ARCH_OPENCL, bfs_ocl_task, "bfs_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, bfs_cuda_task, "bfs_cuda", 0 },
#endif
};
static const struct pph_codelet bfs_codelet = {"bfs", sizeof(bfs_impls) / sizeof(bfs_impls[0]),
					       bfs_impls, PPH_MODEL_DEFAULT};

void bfs(const int *starts, const int *degrees, const int *edges, int *mask, int *updating,
	 int *visited, int *cost, int *next, int frontier, int n, int m)
{
	static const enum pph_access modes[8] = {PPH_R,	 PPH_R,	 PPH_R,	 PPH_RW,
						 PPH_RW, PPH_RW, PPH_RW, PPH_W};
	struct bfs_args args = {frontier};
	pph_data_handle hd[8] = {NULL};
	double work = pph_call_work(n + 16.0 * frontier);
	int rc = 0, i;

	if (rc == 0)
		rc = pph_vector_register(&hd[0], (void *)starts, n, sizeof(*starts));
	if (rc == 0)
		rc = pph_vector_register(&hd[1], (void *)degrees, n, sizeof(*degrees));
	if (rc == 0)
		rc = pph_vector_register(&hd[2], (void *)edges, m, sizeof(*edges));
	if (rc == 0)
		rc = pph_vector_register(&hd[3], mask, n, sizeof(*mask));
	if (rc == 0)
		rc = pph_vector_register(&hd[4], updating, n, sizeof(*updating));
	if (rc == 0)
		rc = pph_vector_register(&hd[5], visited, n, sizeof(*visited));
	if (rc == 0)
		rc = pph_vector_register(&hd[6], cost, n, sizeof(*cost));
	if (rc == 0)
		rc = pph_variable_register(&hd[7], next, sizeof(*next));
	if (rc == 0)
		rc = pph_call_sync(&bfs_codelet, PPH_ALL_IMPLS, 8, hd, modes, &args, sizeof(args));
	pph_call_work(work);
	for (i = 0; i < 8; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&bfs_codelet, rc);
}
