/*
 * lud written directly on libpeppher's task API, as hotspot_direct.c: for
 * each component, the variants' calls from the task's buffers, the codelet,
 * and the call that hands the data to a task.
 */
#include <omp.h>

#include "peppher.h"

struct lud_panel_args {
	int k0;
};

void lud_panel_cpu(float *, int, int);
void lud_panel_omp(float *, int, int);
void lud_panel_ocl(float *, int, int);
void lud_panel_cuda_task(void *b[], void *arg);

#define LUD_PANEL_CALL(f, b, args)                                                                 \
	f((float *)PPH_MATRIX_PTR(b[0]), (int)PPH_MATRIX_ROWS(b[0]), (args)->k0)

static void lud_panel_cpu_task(void *b[], void *arg)
{
	LUD_PANEL_CALL(lud_panel_cpu, b, (struct lud_panel_args *)arg);
}

static void lud_panel_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	LUD_PANEL_CALL(lud_panel_omp, b, (struct lud_panel_args *)arg);
}

static void lud_panel_ocl_task(void *b[], void *arg)
{
	LUD_PANEL_CALL(lud_panel_ocl, b, (struct lud_panel_args *)arg);
}

static const struct pph_impl lud_panel_impls[] = {
	{ PPH_ARCH_CPU, lud_panel_cpu_task, "lud_panel_cpu", 0 },
	{ PPH_ARCH_OPENMP, lud_panel_omp_task, "lud_panel_omp", 0 },
	{ PPH_ARCH_OPENCL, lud_panel_ocl_task, "lud_panel_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, lud_panel_cuda_task, "lud_panel_cuda", 0 },
#endif
};
static const struct pph_codelet lud_panel_codelet = {
	"lud_panel", sizeof(lud_panel_impls) / sizeof(lud_panel_impls[0]), lud_panel_impls,
	PPH_MODEL_DEFAULT};

void lud_panel(float *A, int n, int k0)
{
	static const enum pph_access modes[1] = {PPH_RW};
	struct lud_panel_args args = {k0};
	pph_data_handle hd[1] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], A, n, n, n, sizeof(*A));
	if (rc == 0)
		rc = pph_call_sync(&lud_panel_codelet, PPH_ALL_IMPLS, 1, hd, modes, &args,
				   sizeof(args));
	for (i = 0; i < 1; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&lud_panel_codelet, rc);
}

struct lud_internal_args {
	int k0;
};

void lud_internal_cpu(float *, int, int);
void lud_internal_omp(float *, int, int);
void lud_internal_ocl(float *, int, int);
void lud_internal_cuda_task(void *b[], void *arg);

#define LUD_INTERNAL_CALL(f, b, args)                                                              \
	f((float *)PPH_MATRIX_PTR(b[0]), (int)PPH_MATRIX_ROWS(b[0]), (args)->k0)

static void lud_internal_cpu_task(void *b[], void *arg)
{
	LUD_INTERNAL_CALL(lud_internal_cpu, b, (struct lud_internal_args *)arg);
}

static void lud_internal_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	LUD_INTERNAL_CALL(lud_internal_omp, b, (struct lud_internal_args *)arg);
}

static void lud_internal_ocl_task(void *b[], void *arg)
{
	LUD_INTERNAL_CALL(lud_internal_ocl, b, (struct lud_internal_args *)arg);
}

static const struct pph_impl lud_internal_impls[] = {
	{ PPH_ARCH_CPU, lud_internal_cpu_task, "lud_internal_cpu", 0 },
	{ PPH_ARCH_OPENMP, lud_internal_omp_task, "lud_internal_omp", 0 },
	{ PPH_ARCH_OPENCL, lud_internal_ocl_task, "lud_internal_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, lud_internal_cuda_task, "lud_internal_cuda", 0 },
#endif
};
static const struct pph_codelet lud_internal_codelet = {
	"lud_internal", sizeof(lud_internal_impls) / sizeof(lud_internal_impls[0]),
	lud_internal_impls, PPH_MODEL_DEFAULT};

void lud_internal(float *A, int n, int k0)
{
	static const enum pph_access modes[1] = {PPH_RW};
	struct lud_internal_args args = {k0};
	pph_data_handle hd[1] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], A, n, n, n, sizeof(*A));
	if (rc == 0)
		rc = pph_call_sync(&lud_internal_codelet, PPH_ALL_IMPLS, 1, hd, modes, &args,
				   sizeof(args));
	for (i = 0; i < 1; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&lud_internal_codelet, rc);
}
