/*
 * hotspot written directly on libpeppher's task API: the variants' calls
 * from the task's buffers, the codelet, and the call that registers the
 * data, runs a task and waits for it.
 */
#include <omp.h>

#include "peppher.h"

struct hotspot_args {
	float sdc, rx1, ry1, rz1;
};

void hotspot_cpu(const float *, const float *, float *, int, int, float, float, float, float);
void hotspot_omp(const float *, const float *, float *, int, int, float, float, float, float);
void hotspot_ocl(const float *, const float *, float *, int, int, float, float, float, float);
void hotspot_cuda_task(void *buffers[], void *arg);

#define HOTSPOT_CALL(f, b, a)                                                                  \
	f((const float *)PPH_MATRIX_PTR(b[0]), (const float *)PPH_MATRIX_PTR(b[1]),            \
	  (float *)PPH_MATRIX_PTR(b[2]), (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_COLS(b[0]), \
	  (a)->sdc, (a)->rx1, (a)->ry1, (a)->rz1)

static void cpu_task(void *b[], void *arg)
{
	HOTSPOT_CALL(hotspot_cpu, b, (struct hotspot_args *)arg);
}

static void omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	HOTSPOT_CALL(hotspot_omp, b, (struct hotspot_args *)arg);
}

static void ocl_task(void *b[], void *arg)
{
	HOTSPOT_CALL(hotspot_ocl, b, (struct hotspot_args *)arg);
}

static const struct pph_impl impls[] = {
	{ PPH_ARCH_CPU, cpu_task, "hotspot_cpu", 0 },
	{ PPH_ARCH_OPENMP, omp_task, "hotspot_omp", 0 },
	{ PPH_ARCH_OPENCL, ocl_task, "hotspot_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, hotspot_cuda_task, "hotspot_cuda", 0 },
#endif
};
static const struct pph_codelet codelet = { "hotspot", sizeof(impls) / sizeof(impls[0]), impls,
					    PPH_MODEL_DEFAULT };

void hotspot(const float *temp, const float *power, float *result, int rows, int cols, float sdc,
	     float rx1, float ry1, float rz1)
{
	static const enum pph_access modes[3] = { PPH_R, PPH_R, PPH_W };
	struct hotspot_args args = { sdc, rx1, ry1, rz1 };
	pph_data_handle h[3] = { NULL, NULL, NULL };
	int rc, i;

	rc = pph_matrix_register(&h[0], (void *)temp, rows, cols, cols, sizeof(float));
	if (rc == 0)
		rc = pph_matrix_register(&h[1], (void *)power, rows, cols, cols, sizeof(float));
	if (rc == 0)
		rc = pph_matrix_register(&h[2], result, rows, cols, cols, sizeof(float));
	if (rc == 0)
		rc = pph_call_sync(&codelet, PPH_ALL_IMPLS, 3, h, modes, &args, sizeof(args));
	for (i = 0; i < 3; i++)
		pph_data_unregister(h[i]);
	if (rc != 0)
		pph_call_failed(&codelet, rc);
}
