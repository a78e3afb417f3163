/*
 * cfd written directly on libpeppher's task API, as hotspot_direct.c: for
 * each component, the variants' calls from the task's buffers, the codelet,
 * and the call that hands the data to a task.
 */
#include <omp.h>

#include "peppher.h"

void cfd_step_factor_cpu(const float *, const float *, float *, int, int);
void cfd_step_factor_omp(const float *, const float *, float *, int, int);
void cfd_step_factor_ocl(const float *, const float *, float *, int, int);
void cfd_step_factor_cuda_task(void *b[], void *arg);

#define CFD_STEP_FACTOR_CALL(f, b, args)                                                           \
	f((const float *)PPH_MATRIX_PTR(b[0]), (const float *)PPH_VECTOR_PTR(b[1]),                \
	  (float *)PPH_VECTOR_PTR(b[2]), (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_COLS(b[0]))

static void cfd_step_factor_cpu_task(void *b[], void *arg)
{
	CFD_STEP_FACTOR_CALL(cfd_step_factor_cpu, b, (void *)arg);
}

static void cfd_step_factor_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	CFD_STEP_FACTOR_CALL(cfd_step_factor_omp, b, (void *)arg);
}

static void cfd_step_factor_ocl_task(void *b[], void *arg)
{
	CFD_STEP_FACTOR_CALL(cfd_step_factor_ocl, b, (void *)arg);
}

static const struct pph_impl cfd_step_factor_impls[] = {
	{ PPH_ARCH_CPU, cfd_step_factor_cpu_task, "cfd_step_factor_cpu", 0 },
	{ PPH_ARCH_OPENMP, cfd_step_factor_omp_task, "cfd_step_factor_omp", 0 },
	{ PPH_ARCH_OPENCL, cfd_step_factor_ocl_task, "cfd_step_factor_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, cfd_step_factor_cuda_task, "cfd_step_factor_cuda", 0 },
#endif
};
static const struct pph_codelet cfd_step_factor_codelet = {
	"cfd_step_factor", sizeof(cfd_step_factor_impls) / sizeof(cfd_step_factor_impls[0]),
	cfd_step_factor_impls, PPH_MODEL_DEFAULT};

void cfd_step_factor(const float *vars, const float *areas, float *sf, int nvar, int nel)
{
	static const enum pph_access modes[3] = {PPH_R, PPH_R, PPH_W};
	pph_data_handle hd[3] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], (void *)vars, nvar, nel, nel, sizeof(*vars));
	if (rc == 0)
		rc = pph_vector_register(&hd[1], (void *)areas, nel, sizeof(*areas));
	if (rc == 0)
		rc = pph_vector_register(&hd[2], sf, nel, sizeof(*sf));
	if (rc == 0)
		rc = pph_call_sync(&cfd_step_factor_codelet, PPH_ALL_IMPLS, 3, hd, modes, NULL, 0);
	for (i = 0; i < 3; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&cfd_step_factor_codelet, rc);
}

void cfd_flux_cpu(const float *, const int *, const float *, float *, int, int, int, int);
void cfd_flux_omp(const float *, const int *, const float *, float *, int, int, int, int);
void cfd_flux_ocl(const float *, const int *, const float *, float *, int, int, int, int);
void cfd_flux_cuda_task(void *b[], void *arg);

#define CFD_FLUX_CALL(f, b, args)                                                                  \
	f((const float *)PPH_MATRIX_PTR(b[0]), (const int *)PPH_MATRIX_PTR(b[1]),                  \
	  (const float *)PPH_MATRIX_PTR(b[2]), (float *)PPH_MATRIX_PTR(b[3]),                      \
	  (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_ROWS(b[1]), (int)PPH_MATRIX_ROWS(b[2]),      \
	  (int)PPH_MATRIX_COLS(b[0]))

static void cfd_flux_cpu_task(void *b[], void *arg)
{
	CFD_FLUX_CALL(cfd_flux_cpu, b, (void *)arg);
}

static void cfd_flux_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	CFD_FLUX_CALL(cfd_flux_omp, b, (void *)arg);
}

static void cfd_flux_ocl_task(void *b[], void *arg)
{
	CFD_FLUX_CALL(cfd_flux_ocl, b, (void *)arg);
}

static const struct pph_impl cfd_flux_impls[] = {
	{ PPH_ARCH_CPU, cfd_flux_cpu_task, "cfd_flux_cpu", 0 },
	{ PPH_ARCH_OPENMP, cfd_flux_omp_task, "cfd_flux_omp", 0 },
	{ PPH_ARCH_OPENCL, cfd_flux_ocl_task, "cfd_flux_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, cfd_flux_cuda_task, "cfd_flux_cuda", 0 },
#endif
};
static const struct pph_codelet cfd_flux_codelet = {
	"cfd_flux", sizeof(cfd_flux_impls) / sizeof(cfd_flux_impls[0]), cfd_flux_impls,
	PPH_MODEL_DEFAULT};

void cfd_flux(const float *vars, const int *nbs, const float *normals, float *fluxes, int nvar,
	      int nnb, int nnrm, int nel)
{
	static const enum pph_access modes[4] = {PPH_R, PPH_R, PPH_R, PPH_W};
	pph_data_handle hd[4] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], (void *)vars, nvar, nel, nel, sizeof(*vars));
	if (rc == 0)
		rc = pph_matrix_register(&hd[1], (void *)nbs, nnb, nel, nel, sizeof(*nbs));
	if (rc == 0)
		rc = pph_matrix_register(&hd[2], (void *)normals, nnrm, nel, nel, sizeof(*normals));
	if (rc == 0)
		rc = pph_matrix_register(&hd[3], fluxes, nvar, nel, nel, sizeof(*fluxes));
	if (rc == 0)
		rc = pph_call_sync(&cfd_flux_codelet, PPH_ALL_IMPLS, 4, hd, modes, NULL, 0);
	for (i = 0; i < 4; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&cfd_flux_codelet, rc);
}

struct cfd_time_step_args {
	int j;
};

void cfd_time_step_cpu(const float *, float *, const float *, const float *, int, int, int);
void cfd_time_step_omp(const float *, float *, const float *, const float *, int, int, int);
void cfd_time_step_ocl(const float *, float *, const float *, const float *, int, int, int);
void cfd_time_step_cuda_task(void *b[], void *arg);

#define CFD_TIME_STEP_CALL(f, b, args)                                                             \
	f((const float *)PPH_MATRIX_PTR(b[0]), (float *)PPH_MATRIX_PTR(b[1]),                      \
	  (const float *)PPH_VECTOR_PTR(b[2]), (const float *)PPH_MATRIX_PTR(b[3]), (args)->j,     \
	  (int)PPH_MATRIX_ROWS(b[0]), (int)PPH_MATRIX_COLS(b[0]))

static void cfd_time_step_cpu_task(void *b[], void *arg)
{
	CFD_TIME_STEP_CALL(cfd_time_step_cpu, b, (struct cfd_time_step_args *)arg);
}

static void cfd_time_step_omp_task(void *b[], void *arg)
{
	omp_set_num_threads(pph_openmp_threads());
	CFD_TIME_STEP_CALL(cfd_time_step_omp, b, (struct cfd_time_step_args *)arg);
}

static void cfd_time_step_ocl_task(void *b[], void *arg)
{
	CFD_TIME_STEP_CALL(cfd_time_step_ocl, b, (struct cfd_time_step_args *)arg);
}

static const struct pph_impl cfd_time_step_impls[] = {
	{ PPH_ARCH_CPU, cfd_time_step_cpu_task, "cfd_time_step_cpu", 0 },
	{ PPH_ARCH_OPENMP, cfd_time_step_omp_task, "cfd_time_step_omp", 0 },
	{ PPH_ARCH_OPENCL, cfd_time_step_ocl_task, "cfd_time_step_ocl", 0 },
#ifdef DIRECT_CUDA
	{ PPH_ARCH_CUDA, cfd_time_step_cuda_task, "cfd_time_step_cuda", 0 },
#endif
};
static const struct pph_codelet cfd_time_step_codelet = {
	"cfd_time_step", sizeof(cfd_time_step_impls) / sizeof(cfd_time_step_impls[0]),
	cfd_time_step_impls, PPH_MODEL_DEFAULT};

void cfd_time_step(const float *old, float *vars, const float *sf, const float *fluxes, int j,
		   int nvar, int nel)
{
	static const enum pph_access modes[4] = {PPH_R, PPH_W, PPH_R, PPH_R};
	struct cfd_time_step_args args = {j};
	pph_data_handle hd[4] = {NULL};
	int rc = 0, i;

	if (rc == 0)
		rc = pph_matrix_register(&hd[0], (void *)old, nvar, nel, nel, sizeof(*old));
	if (rc == 0)
		rc = pph_matrix_register(&hd[1], vars, nvar, nel, nel, sizeof(*vars));
	if (rc == 0)
		rc = pph_vector_register(&hd[2], (void *)sf, nel, sizeof(*sf));
	if (rc == 0)
		rc = pph_matrix_register(&hd[3], (void *)fluxes, nvar, nel, nel, sizeof(*fluxes));
	if (rc == 0)
		rc = pph_call_sync(&cfd_time_step_codelet, PPH_ALL_IMPLS, 4, hd, modes, &args,
				   sizeof(args));
	for (i = 0; i < 4; i++)
		pph_data_unregister(hd[i]);
	if (rc != 0)
		pph_call_failed(&cfd_time_step_codelet, rc);
}
