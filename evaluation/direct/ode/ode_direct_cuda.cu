/* ode's CUDA variants called from their tasks (compiled by nvcc: C++). */
#include <peppher/runtime.h>
#include <peppher/containers.h>

struct ode_init_args {
	int grid;
};

void ode_init_cuda(double *, int, int);

extern "C" void ode_init_cuda_task(void *b[], void *arg)
{
	struct ode_init_args *a = (struct ode_init_args *)arg;

	ode_init_cuda((double *)PPH_VECTOR_PTR(b[0]), (int)PPH_VECTOR_N(b[0]), a->grid);
}

struct ode_rhs_args {
	int grid;
};

void ode_rhs_cuda(const double *, double *, int, int);

extern "C" void ode_rhs_cuda_task(void *b[], void *arg)
{
	struct ode_rhs_args *a = (struct ode_rhs_args *)arg;

	ode_rhs_cuda((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
		     (int)PPH_VECTOR_N(b[0]), a->grid);
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

void ode_stage_cuda(double *, const double *, const double *, const double *, const double *,
		    const double *, const double *, const double *, int, double, double, double,
		    double, double, double, double);

extern "C" void ode_stage_cuda_task(void *b[], void *arg)
{
	struct ode_stage_args *a = (struct ode_stage_args *)arg;

	ode_stage_cuda((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
		       (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]),
		       (double *)PPH_VECTOR_PTR(b[4]), (double *)PPH_VECTOR_PTR(b[5]),
		       (double *)PPH_VECTOR_PTR(b[6]), (double *)PPH_VECTOR_PTR(b[7]),
		       (int)PPH_VECTOR_N(b[0]), a->h, a->a1, a->a2, a->a3, a->a4, a->a5, a->a6);
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

void ode_error_cuda(double *, const double *, const double *, const double *, const double *,
		    const double *, const double *, int, double, double, double, double, double, double,
		    double);

extern "C" void ode_error_cuda_task(void *b[], void *arg)
{
	struct ode_error_args *a = (struct ode_error_args *)arg;

	ode_error_cuda((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
		       (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]),
		       (double *)PPH_VECTOR_PTR(b[4]), (double *)PPH_VECTOR_PTR(b[5]),
		       (double *)PPH_VECTOR_PTR(b[6]), (int)PPH_VECTOR_N(b[0]), a->h, a->e1, a->e3,
		       a->e4, a->e5, a->e6, a->e7);
}

struct ode_errnorm_args {
	double atol;
	double rtol;
};

void ode_errnorm_cuda(double *, const double *, const double *, const double *, int, double,
		      double);

extern "C" void ode_errnorm_cuda_task(void *b[], void *arg)
{
	struct ode_errnorm_args *a = (struct ode_errnorm_args *)arg;

	ode_errnorm_cuda((double *)PPH_VARIABLE_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
			 (double *)PPH_VECTOR_PTR(b[2]), (double *)PPH_VECTOR_PTR(b[3]),
			 (int)PPH_VECTOR_N(b[1]), a->atol, a->rtol);
}

struct ode_wrms_args {
	double atol;
	double rtol;
};

void ode_wrms_cuda(double *, const double *, const double *, int, double, double);

extern "C" void ode_wrms_cuda_task(void *b[], void *arg)
{
	struct ode_wrms_args *a = (struct ode_wrms_args *)arg;

	ode_wrms_cuda((double *)PPH_VARIABLE_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
		      (double *)PPH_VECTOR_PTR(b[2]), (int)PPH_VECTOR_N(b[1]), a->atol, a->rtol);
}

void ode_copy_cuda(double *, const double *, int);

extern "C" void ode_copy_cuda_task(void *b[], void *arg)
{
	(void)arg;
	ode_copy_cuda((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
		      (int)PPH_VECTOR_N(b[0]));
}

struct ode_axpy_args {
	double a;
};

void ode_axpy_cuda(double *, const double *, const double *, int, double);

extern "C" void ode_axpy_cuda_task(void *b[], void *arg)
{
	struct ode_axpy_args *a = (struct ode_axpy_args *)arg;

	ode_axpy_cuda((double *)PPH_VECTOR_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
		      (double *)PPH_VECTOR_PTR(b[2]), (int)PPH_VECTOR_N(b[0]), a->a);
}

void ode_sum_cuda(double *, const double *, int);

extern "C" void ode_sum_cuda_task(void *b[], void *arg)
{
	(void)arg;
	ode_sum_cuda((double *)PPH_VARIABLE_PTR(b[0]), (double *)PPH_VECTOR_PTR(b[1]),
		     (int)PPH_VECTOR_N(b[1]));
}
