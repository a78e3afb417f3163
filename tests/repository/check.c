/*
 * Every variant of every component of the shipped repository, checked
 * against a sequential reference at several sizes (1, sizes that are not
 * multiples of the tiles and blocks, and a few larger ones).
 *
 * One composition holds all the variants.  Each variant is forced alone:
 * the test makes a codelet of that one variant from its composed backend
 * wrapper (IMPL_backend, declared in NAME_backends.h) and calls it as the
 * entry wrapper would, through pph_call_sync() on freshly registered data.
 * Backends are declared weak, so a variant that this composition left out
 * (CUDA without nvcc, CBLAS without libblas) is reported as not composed; a
 * variant whose workers are absent (no GPU, PEPPHER_NOPENCL=0) is skipped
 * with a message.  Then the composed entry (the call an application makes,
 * the scheduler choosing) is checked at each size too.
 *
 * Prints one line per component and size, "skip:" lines, and exits 1 on the
 * first wrong result, 0 otherwise.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peppher.h"
#include "axpy_double_backends.h"
#include "axpy_float_backends.h"
#include "dgemm_backends.h"
#include "scale_double_backends.h"
#include "scale_float_backends.h"
#include "sgemm_backends.h"
#include "sort_double_backends.h"
#include "sort_float_backends.h"
#include "sort_int_backends.h"
#include "spmv_backends.h"

/* ---- variants, forced one at a time ------------------------------------ */

struct variant {
	const char *name;
	enum pph_arch arch;
	pph_kernel_fn fn; /* NULL: not in this composition */
	struct pph_impl impl;
	struct pph_codelet cl; /* of this variant alone; the runtime keeps a pointer */
	int skipped; /* said so once */
};

#define V(name, arch) { #name, PPH_ARCH_##arch, name##_backend, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, 0 }
#define W(name) void name##_backend(void *buffers[], void *arg) __attribute__((weak));
#define VARIANTS(name, list) static struct variant name[] = list, *name##_end = name + sizeof(name) / sizeof(name[0]);
#define LIST(...) { __VA_ARGS__ }

W(sgemm_blocked) W(sgemm_cblas) W(sgemm_omp) W(sgemm_ocl) W(sgemm_cublas)
W(dgemm_blocked) W(dgemm_cblas) W(dgemm_omp) W(dgemm_ocl) W(dgemm_cublas)
W(spmv_cpu) W(spmv_omp) W(spmv_ocl) W(spmv_cusparse)
W(sort_cpu_float) W(sort_omp_float) W(sort_ocl_float)
W(sort_cpu_int) W(sort_omp_int) W(sort_ocl_int)
W(sort_cpu_double) W(sort_omp_double) W(sort_ocl_double)
W(axpy_cpu_float) W(axpy_omp_float) W(axpy_ocl_float)
W(axpy_cpu_double) W(axpy_omp_double) W(axpy_ocl_double)
W(scale_cpu_float) W(scale_omp_float) W(scale_ocl_float)
W(scale_cpu_double) W(scale_omp_double) W(scale_ocl_double)
W(dot_cpu_float) W(dot_omp_float) W(dot_ocl_float)
W(dot_cpu_double) W(dot_omp_double) W(dot_ocl_double)
W(nrm2_cpu_float) W(nrm2_omp_float) W(nrm2_ocl_float)
W(nrm2_cpu_double) W(nrm2_omp_double) W(nrm2_ocl_double)
W(potrf_lapacke) W(potrf_ocl) W(potrf_cusolver)
W(trsm_cblas) W(trsm_ocl) W(trsm_cublas)
W(syrk_cblas) W(syrk_ocl) W(syrk_cublas)
W(gemm_cblas) W(gemm_ocl) W(gemm_cublas)

#define BLAS1(c, T) LIST(V(c##_cpu_##T, CPU), V(c##_omp_##T, OPENMP), V(c##_ocl_##T, OPENCL))
VARIANTS(sgemm_v, LIST(V(sgemm_blocked, CPU), V(sgemm_cblas, CPU), V(sgemm_omp, OPENMP),
		       V(sgemm_ocl, OPENCL), V(sgemm_cublas, CUDA)))
VARIANTS(dgemm_v, LIST(V(dgemm_blocked, CPU), V(dgemm_cblas, CPU), V(dgemm_omp, OPENMP),
		       V(dgemm_ocl, OPENCL), V(dgemm_cublas, CUDA)))
VARIANTS(spmv_v, LIST(V(spmv_cpu, CPU), V(spmv_omp, OPENMP), V(spmv_ocl, OPENCL),
		      V(spmv_cusparse, CUDA)))
VARIANTS(sort_float_v, BLAS1(sort, float))
VARIANTS(sort_int_v, BLAS1(sort, int))
VARIANTS(sort_double_v, BLAS1(sort, double))
VARIANTS(axpy_float_v, BLAS1(axpy, float))
VARIANTS(axpy_double_v, BLAS1(axpy, double))
VARIANTS(scale_float_v, BLAS1(scale, float))
VARIANTS(scale_double_v, BLAS1(scale, double))
VARIANTS(dot_float_v, BLAS1(dot, float))
VARIANTS(dot_double_v, BLAS1(dot, double))
VARIANTS(nrm2_float_v, BLAS1(nrm2, float))
VARIANTS(nrm2_double_v, BLAS1(nrm2, double))
VARIANTS(potrf_v, LIST(V(potrf_lapacke, CPU), V(potrf_ocl, OPENCL), V(potrf_cusolver, CUDA)))
VARIANTS(trsm_v, LIST(V(trsm_cblas, CPU), V(trsm_ocl, OPENCL), V(trsm_cublas, CUDA)))
VARIANTS(syrk_v, LIST(V(syrk_cblas, CPU), V(syrk_ocl, OPENCL), V(syrk_cublas, CUDA)))
VARIANTS(gemm_v, LIST(V(gemm_cblas, CPU), V(gemm_ocl, OPENCL), V(gemm_cublas, CUDA)))

/* The data of one call, registered as the entry wrapper registers it. */
struct call {
	unsigned n;
	pph_data_handle h[8];
	enum pph_access mode[8];
	const void *arg;
	size_t arg_size;
};

static void vec(struct call *c, void *p, size_t n, size_t elemsize, enum pph_access mode)
{
	c->mode[c->n] = mode;
	if (pph_vector_register(&c->h[c->n++], p, n, elemsize) != 0)
		abort();
}

static void mat(struct call *c, void *p, size_t rows, size_t cols, size_t elemsize,
		enum pph_access mode)
{
	c->mode[c->n] = mode;
	if (pph_matrix_register(&c->h[c->n++], p, rows, cols, cols, elemsize) != 0)
		abort();
}

static void var(struct call *c, void *p, size_t size, enum pph_access mode)
{
	c->mode[c->n] = mode;
	if (pph_variable_register(&c->h[c->n++], p, size) != 0)
		abort();
}

/*
 * The result of dot or nrm2, a reduction with operator op, accessed with
 * mode: PPH_REDUX, the variant runs on an accumulator set to op's identity
 * (a copy of it on an OpenCL device), combined into *p when the call ends;
 * PPH_RW, the variant combines into *p itself, the contract that lets
 * StarPU give one accumulator to several tasks of a worker.
 */
static void result(struct call *c, void *p, size_t size, const struct pph_reduction *op,
		   enum pph_access mode)
{
	var(c, p, size, mode);
	if (pph_data_set_reduction(c->h[c->n - 1], op) != 0)
		abort();
}

#define TYPE_OF(T) _Generic((T)0, float: PPH_TYPE_FLOAT, double: PPH_TYPE_DOUBLE)

/* nrm2's operator (repository/common/nrm2_reduction.h, in the nrm2 variants) */
void nrm2_identity(void *elem);
void nrm2_combine(void *into, const void *from);
static const struct pph_reduction nrm2_op = { nrm2_identity, nrm2_combine };

/* Run the call on variant v alone: 1 when it ran, 0 when it was skipped. */
static int run(struct variant *v, struct call *c)
{
	int rc = -ENODEV;
	unsigned i;

	if (v->fn) {
		v->impl = (struct pph_impl){ v->arch, v->fn, v->name, 0 };
		v->cl = (struct pph_codelet){ v->name, 1, &v->impl, PPH_MODEL_DEFAULT };
		rc = pph_call_sync(&v->cl, PPH_ALL_IMPLS, c->n, c->h, c->mode, c->arg,
				   c->arg_size);
	}
	for (i = 0; i < c->n; i++)
		pph_data_unregister(c->h[i]);
	if (rc == 0)
		return 1;
	/* with workers of its kind, -ENODEV means the runtime disabled the variant
	 * after it failed (and a task whose only variant fails still returns 0:
	 * the results are what tells) */
	if (rc != -ENODEV || (v->fn && pph_worker_count_arch(v->arch) > 0)) {
		printf("FAIL: %s: pph_call_sync returned %d\n", v->name, rc);
		exit(1);
	}
	if (!v->skipped++)
		printf("skip: %s: %s\n", v->name,
		       !v->fn ? "not in this composition" :
		       v->arch == PPH_ARCH_CUDA ? "no CUDA device here" : "no worker of its kind");
	return 0;
}

/* ---- data and comparisons ------------------------------------------------ */

static unsigned long long seed = 12345;

static double rnd(void) /* in [-1, 1) */
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		abort();
	return p;
}

static int failed;

/* |got - want| <= tol * bound, else print and count a failure. */
static void near(const char *who, int size, long i, double got, double want, double bound,
		 double tol)
{
	if (fabs(got - want) <= tol * bound || (got == want))
		return;
	if (failed++ < 10)
		printf("FAIL: %s size %d: [%ld] = %.17g, expected %.17g (bound %g)\n", who, size, i,
		       got, want, tol * bound);
}

static void verdict(const char *what, const char *sizes, int ran)
{
	if (failed) {
		printf("FAIL: %s %s\n", what, sizes);
		exit(1);
	}
	printf("%s %s: %d variant runs correct\n", what, sizes, ran);
}

/* ---- sgemm, dgemm: C = alpha A B + beta C, row-major ------------------------ */

#define GEMM_CHECK(P, REAL, EPS)                                                            \
	static void check_##P(const REAL *A, const REAL *B, const REAL *C0, const REAL *C,     \
			      int m, int n, int k, REAL alpha, REAL beta, const char *who)       \
	{                                                                                       \
		for (int i = 0; i < m; i++)                                                     \
			for (int j = 0; j < n; j++) {                                           \
				double s = 0, bound = 0;                                        \
				/* alpha == 0: A and B are not read (NaNs there here) */        \
				for (int l = 0; alpha != 0 && l < k; l++) {                     \
					s += (double)A[i * k + l] * B[l * n + j];               \
					bound += fabs((double)A[i * k + l] * B[l * n + j]);     \
				}                                                               \
				double c0 = beta == 0 ? 0 : C0[i * n + j];                      \
				double want = alpha * s + beta * c0;                            \
				bound = fabs(alpha) * bound + fabs(beta * c0);                  \
				near(who, m, (long)i * n + j, C[i * n + j], want, bound,        \
				     4.0 * (k + 2) * EPS);                                       \
			}                                                                       \
	}                                                                                       \
                                                                                                \
	static void test_##P(void)                                                              \
	{                                                                                       \
		/* m, n, k, alpha == 0; empty products: BLAS's leading dimensions \
		 * are at least 1 (xerbla exited the process on ldc = n = 0) */ \
		static const int sz[][4] = { { 1, 1, 1, 0 },    { 2, 3, 4, 0 },    { 16, 16, 16, 0 },  \
					     { 17, 31, 5, 0 },  { 33, 40, 47, 0 }, { 64, 48, 80, 0 },   \
					     { 40, 530, 150, 0 }, /* past the CPU blocks */     \
					     { 5, 0, 3, 0 },    { 5, 3, 0, 0 },    { 0, 3, 4, 0 },      \
					     { 17, 20, 9, 1 } };                                  \
		int ran = 0;                                                                    \
                                                                                                \
		for (unsigned s = 0; s < sizeof(sz) / sizeof(sz[0]); s++) {                     \
			int m = sz[s][0], n = sz[s][1], k = sz[s][2];                           \
			REAL *A = xmalloc(sizeof(REAL) * m * k), *B = xmalloc(sizeof(REAL) * k * n); \
			REAL *C0 = xmalloc(sizeof(REAL) * m * n), *C = xmalloc(sizeof(REAL) * m * n); \
			struct P##_args args = { .m = m, .n = n, .k = k,                        \
						 .alpha = sz[s][3] ? 0 : 1.5,                    \
						 .beta = s == 2 ? 0 : -0.5 };                    \
                                                                                                \
			for (int i = 0; i < m * k; i++)                                         \
				A[i] = sz[s][3] ? (REAL)NAN : (REAL)rnd();                      \
			for (int i = 0; i < k * n; i++)                                         \
				B[i] = sz[s][3] ? (REAL)NAN : (REAL)rnd();                      \
			for (int i = 0; i < m * n; i++) /* beta = 0: C must not be read */     \
				C0[i] = args.beta == 0 ? (REAL)NAN : (REAL)rnd();               \
			for (struct variant *v = P##_v; v < P##_v_end; v++) {                   \
				struct call c = { .arg = &args, .arg_size = sizeof(args) };     \
				memcpy(C, C0, sizeof(REAL) * m * n);                            \
				mat(&c, A, m, k, sizeof(REAL), PPH_R);                          \
				mat(&c, B, k, n, sizeof(REAL), PPH_R);                          \
				mat(&c, C, m, n, sizeof(REAL), PPH_RW);                         \
				if (run(v, &c)) {                                               \
					check_##P(A, B, C0, C, m, n, k, args.alpha, args.beta,  \
						  v->name);                                     \
					ran++;                                                  \
				}                                                               \
			}                                                                       \
			memcpy(C, C0, sizeof(REAL) * m * n);                                    \
			P(m, n, k, args.alpha, A, B, args.beta, C); /* the composed call */     \
			check_##P(A, B, C0, C, m, n, k, args.alpha, args.beta, #P);             \
			free(A);                                                                \
			free(B);                                                                \
			free(C0);                                                               \
			free(C);                                                                \
		}                                                                               \
		verdict(#P, "m,n,k in 1,1,1 2,3,4 16,16,16 17,31,5 33,40,47 64,48,80 40,530,150 "  \
			"5,0,3 5,3,0 0,3,4; alpha 0 on NaN A, B 17,20,9", ran);                  \
	}

GEMM_CHECK(sgemm, float, FLT_EPSILON)
GEMM_CHECK(dgemm, double, DBL_EPSILON)

/* ---- spmv: y = A x, CSR ------------------------------------------------------- */

static void check_spmv(const int *rowptr, const int *colind, const double *val, const double *x,
		       const double *y, int m, const char *who)
{
	for (int i = 0; i < m; i++) {
		double s = 0, bound = 0;

		for (int j = rowptr[i]; j < rowptr[i + 1]; j++) {
			s += val[j] * x[colind[j]];
			bound += fabs(val[j] * x[colind[j]]);
		}
		near(who, m, i, y[i], s, bound, 4.0 * (rowptr[i + 1] - rowptr[i] + 1) * DBL_EPSILON);
	}
}

static void test_spmv(void)
{
	static const int sz[][2] = { { 1, 1 }, { 7, 5 }, { 100, 80 }, { 1000, 1000 } };
	int ran = 0;

	for (unsigned s = 0; s < sizeof(sz) / sizeof(sz[0]); s++) {
		int m = sz[s][0], n = sz[s][1], nnz = 0;
		int *rowptr = xmalloc(sizeof(int) * (m + 1)), *colind = xmalloc(sizeof(int) * m * 9);
		double *val = xmalloc(sizeof(double) * m * 9), *x = xmalloc(sizeof(double) * n);
		double *y = xmalloc(sizeof(double) * m);

		for (int i = 0; i < m; i++) { /* 0 to 8 nonzeros a row; the last row empty */
			int len = i == m - 1 && m > 1 ? 0 : (int)((rnd() + 1) * 4.5);

			rowptr[i] = nnz;
			for (int j = 0; j < len; j++) {
				colind[nnz] = (int)((rnd() + 1) / 2 * n);
				val[nnz++] = rnd();
			}
		}
		rowptr[m] = nnz;
		if (nnz == 0) { /* one nonzero at least: a vector of 0 elements is not registered */
			rowptr[m] = nnz = 1;
			colind[0] = 0;
			val[0] = 2;
		}
		for (int j = 0; j < n; j++)
			x[j] = rnd();
		for (struct variant *v = spmv_v; v < spmv_v_end; v++) {
			struct spmv_args a = { .m = m, .n = n, .nnz = nnz };
			struct call c = { .arg = &a, .arg_size = sizeof(a) };

			for (int i = 0; i < m; i++)
				y[i] = NAN; /* write only: y is not read */
			vec(&c, rowptr, m, sizeof(int), PPH_R);
			vec(&c, colind, nnz, sizeof(int), PPH_R);
			vec(&c, val, nnz, sizeof(double), PPH_R);
			vec(&c, x, n, sizeof(double), PPH_R);
			vec(&c, y, m, sizeof(double), PPH_W);
			if (run(v, &c)) {
				check_spmv(rowptr, colind, val, x, y, m, v->name);
				ran++;
			}
		}
		spmv(m, n, nnz, rowptr, colind, val, x, y);
		check_spmv(rowptr, colind, val, x, y, m, "spmv");
		free(rowptr);
		free(colind);
		free(val);
		free(x);
		free(y);
	}
	verdict("spmv", "m,n in 1,1 7,5 100,80 1000,1000", ran);
}

/* ---- sort: float, int, double; exact ------------------------------------------ */

#define SORT_CHECK(T)                                                                       \
	static int cmp_##T(const void *a, const void *b)                                        \
	{                                                                                       \
		T x = *(const T *)a, y = *(const T *)b;                                         \
		return (x > y) - (x < y);                                                       \
	}                                                                                       \
                                                                                                \
	static void check_sort_##T(const T *want, const T *got, int n, const char *who)         \
	{                                                                                       \
		for (int i = 0; i < n; i++)                                                     \
			if (got[i] != want[i]) {                                                \
				printf("FAIL: %s n=%d: [%d] = %g, expected %g\n", who, n, i,    \
				       (double)got[i], (double)want[i]);                        \
				failed++;                                                       \
				return;                                                         \
			}                                                                       \
	}                                                                                       \
                                                                                                \
	static void test_sort_##T(void)                                                         \
	{                                                                                       \
		static const int sz[] = { 1, 2, 7, 100, 1025, 5000 };                           \
		int ran = 0;                                                                    \
                                                                                                \
		for (unsigned s = 0; s < sizeof(sz) / sizeof(sz[0]); s++) {                     \
			int n = sz[s];                                                          \
			T *in = xmalloc(sizeof(T) * n), *want = xmalloc(sizeof(T) * n);         \
			T *v = xmalloc(sizeof(T) * n);                                          \
                                                                                                \
			for (int i = 0; i < n; i++) /* with repeated values */                  \
				in[i] = (T)(rnd() * n / 3);                                     \
			memcpy(want, in, sizeof(T) * n);                                        \
			qsort(want, n, sizeof(T), cmp_##T);                                     \
			for (struct variant *var_ = sort_##T##_v; var_ < sort_##T##_v_end; var_++) { \
				struct sort_##T##_args a = { .n = n };                          \
				struct call c = { .arg = &a, .arg_size = sizeof(a) };           \
				memcpy(v, in, sizeof(T) * n);                                   \
				vec(&c, v, n, sizeof(T), PPH_RW);                               \
				if (run(var_, &c)) {                                            \
					check_sort_##T(want, v, n, var_->name);                 \
					ran++;                                                  \
				}                                                               \
			}                                                                       \
			memcpy(v, in, sizeof(T) * n);                                           \
			sort(v, n);                                                             \
			check_sort_##T(want, v, n, "sort_" #T);                                 \
			free(in);                                                               \
			free(want);                                                             \
			free(v);                                                                \
		}                                                                               \
		verdict("sort_" #T, "n in 1 2 7 100 1025 5000", ran);                           \
	}

SORT_CHECK(float)
SORT_CHECK(int)
SORT_CHECK(double)

/* ---- axpy, scale; dot, nrm2 (reductions): float and double ----------------------- */

/*
 * Relative tolerance of a sum of n terms: the OpenCL variants add at most
 * n / 16384 terms in a row, then in trees of at most 14 levels; the CPU ones
 * add in double, whose error grows as sqrt(n) eps on such data (n eps is a
 * worst case far from reached).  Tighter than n eps, which at n = 40000 in
 * float would let a dropped term pass.
 */
#define SUM_TOL(n, eps) (2.0 * (sqrt((double)(n)) + 16) * (eps))

/* variant e of a list, NULL past its end: the composed entry */
#define NTH(list, e) (list + (e) < list##_end ? list + (e) : NULL)

#define BLAS1_SIZES { 1, 3, 100, 1000, 10007, 40000 }
#define BLAS1_SIZES_TEXT "n in 1 3 100 1000 10007 40000"

/* v NULL: the composed call, the scheduler choosing; else v alone.  1 when it ran. */
#define BLAS1_CHECK(T, EPS)                                                                 \
	static int do_axpy_##T(struct variant *v, int n, T *x, T *y, T alpha)                   \
	{                                                                                       \
		struct axpy_##T##_args a = { .n = n, .alpha = alpha };                           \
		struct call c = { .arg = &a, .arg_size = sizeof(a) };                            \
		if (!v)                                                                         \
			return axpy(n, x, y, alpha), 1;                                         \
		vec(&c, x, n > 0 ? n : 0, sizeof(T), PPH_R);                                                \
		vec(&c, y, n > 0 ? n : 0, sizeof(T), PPH_RW);                                               \
		return run(v, &c);                                                              \
	}                                                                                       \
	static int do_scale_##T(struct variant *v, int n, T *x, T alpha)                        \
	{                                                                                       \
		struct scale_##T##_args a = { .n = n, .alpha = alpha };                          \
		struct call c = { .arg = &a, .arg_size = sizeof(a) };                            \
		if (!v)                                                                         \
			return scale(n, x, alpha), 1;                                           \
		vec(&c, x, n > 0 ? n : 0, sizeof(T), PPH_RW);                                               \
		return run(v, &c);                                                              \
	}                                                                                       \
	static void test_blas1_##T(void)                                                        \
	{                                                                                       \
		static const int sz[] = BLAS1_SIZES;                                            \
		int ran = 0;                                                                    \
                                                                                                \
		for (unsigned s = 0; s < sizeof(sz) / sizeof(sz[0]); s++) {                     \
			int n = sz[s];                                                          \
			T *x = xmalloc(sizeof(T) * n), *y0 = xmalloc(sizeof(T) * n);            \
			T *y = xmalloc(sizeof(T) * n), alpha = (T)0.75, beta = (T)-1.25;        \
                                                                                                \
			for (int i = 0; i < n; i++) {                                           \
				x[i] = (T)rnd();                                                \
				y0[i] = (T)rnd();                                               \
			}                                                                       \
			for (int e = 0; e <= 3; e++) { /* 3 variants alone, then the entry */ \
				struct variant *av = NTH(axpy_##T##_v, e);                      \
				struct variant *sv = NTH(scale_##T##_v, e);                     \
                                                                                                \
				memcpy(y, y0, sizeof(T) * n);                                   \
				if (do_axpy_##T(av, n, x, y, alpha) && ++ran)                   \
					for (int i = 0; i < n; i++)                             \
						near(av ? av->name : "axpy", n, i, y[i],        \
						     alpha * x[i] + y0[i],                      \
						     fabs(alpha * x[i]) + fabs(y0[i]), 2 * EPS); \
				memcpy(y, y0, sizeof(T) * n);                                   \
				if (do_scale_##T(sv, n, y, beta) && ++ran)                      \
					for (int i = 0; i < n; i++)                             \
						near(sv ? sv->name : "scale", n, i, y[i],       \
						     beta * y0[i], fabs(beta * y0[i]), EPS);    \
			}                                                                       \
			free(x);                                                                \
			free(y0);                                                               \
			free(y);                                                                \
		}                                                                               \
		verdict("axpy, scale (" #T ")", BLAS1_SIZES_TEXT, ran);                         \
	}

BLAS1_CHECK(float, FLT_EPSILON)
BLAS1_CHECK(double, DBL_EPSILON)

/*
 * dot and nrm2 are reductions: they add to what the result held (0.5 for
 * dot, 3 for nrm2 here), each variant alone on an accumulator (PPH_REDUX)
 * and into the result itself (PPH_RW, see result()).
 */
#define REDUX_CHECK(T, EPS)                                                                 \
	static int do_dot_##T(struct variant *v, int n, T *x, T *y, T *r, enum pph_access m)    \
	{                                                                                       \
		struct call c = { 0 };                                                          \
		if (!v)                                                                         \
			return dot(n, x, y, r), 1;                                              \
		vec(&c, x, n > 0 ? n : 0, sizeof(T), PPH_R);                                                \
		vec(&c, y, n > 0 ? n : 0, sizeof(T), PPH_R);                                                \
		result(&c, r, sizeof(T), pph_reduction_builtin(PPH_REDUCTION_SUM, TYPE_OF(T)), m); \
		return run(v, &c);                                                              \
	}                                                                                       \
	static int do_nrm2_##T(struct variant *v, int n, T *x, double *r, enum pph_access m)    \
	{                                                                                       \
		struct call c = { 0 };                                                          \
		if (!v)                                                                         \
			return nrm2(n, x, r), 1;                                                \
		vec(&c, x, n > 0 ? n : 0, sizeof(T), PPH_R);                                                \
		result(&c, r, sizeof(double), &nrm2_op, m);                                     \
		return run(v, &c);                                                              \
	}                                                                                       \
	static void test_redux_##T(void)                                                        \
	{                                                                                       \
		static const int sz[] = BLAS1_SIZES;                                            \
		int ran = 0;                                                                    \
                                                                                                \
		for (unsigned s = 0; s < sizeof(sz) / sizeof(sz[0]); s++) {                     \
			int n = sz[s];                                                          \
			T *x = xmalloc(sizeof(T) * n), *y = xmalloc(sizeof(T) * n), r;          \
			double dotv = 0, dbound = 0, sq = 0, nr;                                \
                                                                                                \
			for (int i = 0; i < n; i++) {                                           \
				x[i] = (T)rnd();                                                \
				y[i] = (T)rnd();                                                \
				dotv += (double)x[i] * y[i];                                    \
				dbound += fabs((double)x[i] * y[i]);                            \
				sq += (double)x[i] * x[i];                                      \
			}                                                                       \
			/* 3 variants alone, each on an accumulator and on the result, \
			 * then the entry */                                            \
			for (int e = 0; e < 7; e++) {                                           \
				struct variant *dv = NTH(dot_##T##_v, e / 2);                   \
				struct variant *nv = NTH(nrm2_##T##_v, e / 2);                  \
				enum pph_access m = e % 2 ? PPH_RW : PPH_REDUX;                 \
                                                                                                \
				r = (T)0.5;                                                     \
				if (do_dot_##T(dv, n, x, y, &r, m) && ++ran)                    \
					near(dv ? dv->name : "dot", n, 0, r, 0.5 + dotv,        \
					     0.5 + dbound, SUM_TOL(n, EPS));                    \
				nr = 3;                                                         \
				if (do_nrm2_##T(nv, n, x, &nr, m) && ++ran)                     \
					near(nv ? nv->name : "nrm2", n, 0, nr, sqrt(9 + sq),    \
					     sqrt(9 + sq), SUM_TOL(n, EPS));                    \
			}                                                                       \
			free(x);                                                                \
			free(y);                                                                \
		}                                                                               \
		verdict("dot, nrm2 (" #T ")", BLAS1_SIZES_TEXT, ran);                           \
	}

REDUX_CHECK(float, FLT_EPSILON)
REDUX_CHECK(double, DBL_EPSILON)
/*
 * nrm2 of doubles whose squares overflow (1e200) or underflow (1e-200), and
 * of floats whose squares overflow a float (1e30): exact up to rounding,
 * the CPU and OpenMP variants' in double, the OpenCL one's in T (both
 * scaled by the largest |x_i|).
 */
static void test_nrm2_range(void)
{
	static const double scales[] = { 1e200, 1e-200 };
	int n = 1000, ran = 0;
	double *x = xmalloc(sizeof(double) * n), nr, sq;
	float *xf = xmalloc(sizeof(float) * n);

	for (unsigned s = 0; s < 2; s++) {
		sq = 0;
		for (int i = 0; i < n; i++) {
			double u = rnd();

			x[i] = u * scales[s];
			sq += u * u;
		}
		for (int e = 0; e <= 3; e++) {
			struct variant *v = NTH(nrm2_double_v, e);

			nr = 0;
			if (do_nrm2_double(v, n, x, &nr, PPH_REDUX) && ++ran)
				near(v ? v->name : "nrm2", n, 0, nr, scales[s] * sqrt(sq),
				     scales[s] * sqrt(sq), SUM_TOL(n, DBL_EPSILON));
		}
	}
	sq = 0;
	for (int i = 0; i < n; i++) {
		xf[i] = (float)(rnd() * 1e30);
		sq += ((double)xf[i] * 1e-30) * ((double)xf[i] * 1e-30);
	}
	for (int e = 0; e <= 3; e++) {
		struct variant *v = NTH(nrm2_float_v, e);

		/* in float on the device (the entry may choose it) */
		double eps = !v || v->arch == PPH_ARCH_OPENCL ? FLT_EPSILON : DBL_EPSILON;

		nr = 0;
		if (do_nrm2_float(v, n, xf, &nr, PPH_REDUX) && ++ran)
			near(v ? v->name : "nrm2", n, 0, nr, 1e30 * sqrt(sq), 1e30 * sqrt(sq),
			     SUM_TOL(n, eps));
	}
	free(x);
	free(xf);
	verdict("nrm2 scaled (double 1e200, 1e-200; float 1e30)", "n 1000", ran);
}

/*
 * Sizes of 0 and below do nothing (BLAS's quick return; the OpenCL variants
 * launched ranges of (size_t)n work-items, sort_cpu qsorted (size_t)-3
 * elements), as compose registers them: vectors of 0 elements, the
 * variants getting n itself.  And a norm with an infinite element is +inf
 * (nrm2_ocl computed Inf / Inf).
 */
#define SPECIAL_CHECK(T)                                                                    \
	static void test_special_##T(int *ran)                                                  \
	{                                                                                       \
		static const int ns[] = { 0, -3 };                                              \
		T x[4] = { 1, 2, 3, 4 }, y[4] = { 5, 6, 7, 8 }, r;                               \
		double nr;                                                                      \
                                                                                                \
		for (unsigned s = 0; s < 2; s++)                                                \
			for (int e = 0; e <= 3; e++) { /* 3 variants alone, then the entry */   \
				int n = ns[s];                                                  \
				struct variant *sv = NTH(sort_##T##_v, e);                      \
				struct sort_##T##_args a = { .n = n };                          \
				struct call c = { .arg = &a, .arg_size = sizeof(a) };           \
				const char *who = "sort";                                       \
                                                                                                \
				x[0] = 4, x[1] = 3, x[2] = 2, x[3] = 1;                         \
				if (sv) {                                                       \
					vec(&c, x, 0, sizeof(T), PPH_RW);                       \
					*ran += run(sv, &c);                                    \
					who = sv->name;                                         \
				} else {                                                        \
					sort(x, n);                                             \
				}                                                               \
				if (x[0] != 4 || x[3] != 1)                                     \
					near(who, n, 0, x[0], 4, 0, 0);                         \
				x[0] = 1, x[1] = 2, x[2] = 3, x[3] = 4;                         \
				if (do_axpy_##T(NTH(axpy_##T##_v, e), n, x, y, 2) && ++*ran)    \
					near("axpy", n, 0, y[0], 5, 0, 0);                      \
				if (do_scale_##T(NTH(scale_##T##_v, e), n, x, 2) && ++*ran)     \
					near("scale", n, 0, x[0], 1, 0, 0);                     \
				r = 0.5;                                                        \
				if (do_dot_##T(NTH(dot_##T##_v, e), n, x, y, &r, PPH_REDUX) && ++*ran) \
					near("dot", n, 0, r, 0.5, 0, 0);                        \
				nr = 3;                                                         \
				if (do_nrm2_##T(NTH(nrm2_##T##_v, e), n, x, &nr, PPH_REDUX) && ++*ran) \
					near("nrm2", n, 0, nr, 3, 0, 0);                        \
			}                                                                       \
		/* an infinite element among 1000 (several work-groups on a device) */  \
		T *big = xmalloc(sizeof(T) * 1000);                                             \
		for (int i = 0; i < 1000; i++)                                                  \
			big[i] = (T)rnd();                                                      \
		for (int inf = 0; inf < 2; inf++) {                                             \
			big[700] = inf ? (T)-INFINITY : (T)INFINITY;                            \
			for (int e = 0; e <= 3; e++) {                                          \
				struct variant *nv = NTH(nrm2_##T##_v, e);                      \
                                                                                                \
				nr = 3;                                                         \
				if (do_nrm2_##T(nv, 1000, big, &nr, PPH_REDUX) && ++*ran &&     \
				    nr != INFINITY)                                             \
					near(nv ? nv->name : "nrm2", 1000, 700, nr, INFINITY, 0, 0); \
			}                                                                       \
		}                                                                               \
		free(big);                                                                      \
	}

SPECIAL_CHECK(float)
SPECIAL_CHECK(double)

static void test_special(void)
{
	int ran = 0;

	test_special_float(&ran);
	test_special_double(&ran);
	verdict("sort, axpy, scale, dot, nrm2 (float, double)", "n in 0 -3; nrm2 with +-inf", ran);
}

/* ---- tile kernels: b x b, column-major, double ----------------------------------- */

#define AT(M, i, j) M[(i) + (long)(j) * b]

/* The lower Cholesky factor of A in L (upper part of L: A's), sequentially. */
static void ref_potrf(const double *A, double *L, int b)
{
	memcpy(L, A, sizeof(double) * b * b);
	for (int j = 0; j < b; j++) {
		for (int k = 0; k < j; k++)
			AT(L, j, j) -= AT(L, j, k) * AT(L, j, k);
		AT(L, j, j) = sqrt(AT(L, j, j));
		for (int i = j + 1; i < b; i++) {
			for (int k = 0; k < j; k++)
				AT(L, i, j) -= AT(L, i, k) * AT(L, j, k);
			AT(L, i, j) /= AT(L, j, j);
		}
	}
}

static void spd(double *A, int b) /* symmetric, diagonally dominant */
{
	for (int j = 0; j < b; j++)
		for (int i = j; i < b; i++)
			AT(A, i, j) = AT(A, j, i) = i == j ? b + 1 + rnd() : rnd();
}

static double maxabs(const double *M, int b)
{
	double m = 0;

	for (int i = 0; i < b * b; i++)
		m = fabs(M[i]) > m ? fabs(M[i]) : m;
	return m;
}

/* got against want: lower triangle within tol, the rest exactly as it was (orig). */
static void check_tile(const char *who, int b, const double *got, const double *want,
		       const double *orig, int lower_only, double bound)
{
	for (int j = 0; j < b; j++)
		for (int i = 0; i < b; i++) {
			if (lower_only && i < j)
				near(who, b, i + (long)j * b, AT(got, i, j), AT(orig, i, j), 0, 0);
			else
				near(who, b, i + (long)j * b, AT(got, i, j), AT(want, i, j), bound,
				     16.0 * (b + 2) * DBL_EPSILON);
		}
}

enum tile_op { POTRF, TRSM, SYRK, GEMM };

static void tile_call(enum tile_op op, struct variant *v, int b, double *L, double *A,
		      double *B, double *C, int *ran)
{
	struct call c = { 0 };
	size_t d = sizeof(double);

	switch (op) {
	case POTRF:
		mat(&c, A, b, b, d, PPH_RW);
		break;
	case TRSM:
		mat(&c, L, b, b, d, PPH_R);
		mat(&c, A, b, b, d, PPH_RW);
		break;
	case SYRK:
		mat(&c, A, b, b, d, PPH_R);
		mat(&c, C, b, b, d, PPH_RW);
		break;
	case GEMM:
		mat(&c, A, b, b, d, PPH_R);
		mat(&c, B, b, b, d, PPH_R);
		mat(&c, C, b, b, d, PPH_RW);
		break;
	}
	if (v) {
		*ran += run(v, &c);
		return;
	}
	for (unsigned i = 0; i < c.n; i++)
		pph_data_unregister(c.h[i]);
	/* the composed calls, on tiles wrapped in containers: they return at once,
	   destroying a container waits for its tasks and brings the data home */
	size_t e = sizeof(double);
	pph_matrix *tl = pph_matrix_wrap(L, b, b, e), *ta = pph_matrix_wrap(A, b, b, e);
	pph_matrix *tb = pph_matrix_wrap(B, b, b, e), *tc = pph_matrix_wrap(C, b, b, e);

	if (!tl || !ta || !tb || !tc) {
		perror("pph_matrix_wrap");
		exit(1);
	}
	switch (op) {
	case POTRF: potrf(b, ta, b); break;
	case TRSM: trsm(b, tl, b, ta, b); break;
	case SYRK: syrk(b, ta, b, tc, b); break;
	case GEMM: gemm(b, ta, b, tb, b, tc, b); break;
	}
	pph_matrix_destroy(tl);
	pph_matrix_destroy(ta);
	pph_matrix_destroy(tb);
	pph_matrix_destroy(tc);
	(*ran)++;
}

static void test_tiles(void)
{
	/* 0: an empty tile (BLAS's xerbla exited the process on leading dimensions of 0) */
	static const int sz[] = { 0, 1, 3, 16, 33, 64, 260 };
	static const char *const names[] = { "potrf", "trsm", "syrk", "gemm" };
	struct variant *lists[][2] = { { potrf_v, potrf_v_end }, { trsm_v, trsm_v_end },
				       { syrk_v, syrk_v_end }, { gemm_v, gemm_v_end } };
	int ran = 0;

	for (unsigned s = 0; s < sizeof(sz) / sizeof(sz[0]); s++) {
		int b = sz[s];
		size_t bytes = sizeof(double) * b * b;
		double *S = xmalloc(bytes), *L = xmalloc(bytes), *A0 = xmalloc(bytes);
		double *B = xmalloc(bytes), *C0 = xmalloc(bytes), *want = xmalloc(bytes);
		double *A = xmalloc(bytes), *C = xmalloc(bytes);

		spd(S, b);
		ref_potrf(S, L, b);
		for (int i = 0; i < b * b; i++) {
			A0[i] = rnd();
			B[i] = rnd();
			C0[i] = rnd();
		}
		for (int op = POTRF; op <= GEMM; op++) {
			double bound = 0;

			/* the reference and the scale of its terms */
			if (op == POTRF) {
				memcpy(want, L, bytes);
				bound = maxabs(L, b);
			} else if (op == TRSM) {
				memcpy(want, A0, bytes);
				for (int r = 0; r < b; r++)
					for (int j = 0; j < b; j++) {
						for (int k = 0; k < j; k++)
							AT(want, r, j) -= AT(want, r, k) * AT(L, j, k);
						AT(want, r, j) /= AT(L, j, j);
					}
				bound = maxabs(want, b) + 1;
			} else {
				const double *Y = op == SYRK ? A0 : B;

				memcpy(want, C0, bytes);
				for (int j = 0; j < b; j++)
					for (int i = op == SYRK ? j : 0; i < b; i++)
						for (int k = 0; k < b; k++)
							AT(want, i, j) -= AT(A0, i, k) * AT(Y, j, k);
				bound = b + 1;
			}
			for (struct variant *v = lists[op][0]; v <= lists[op][1]; v++) {
				int entry = v == lists[op][1];

				memcpy(A, op == POTRF ? S : A0, bytes);
				memcpy(C, C0, bytes);
				int before = ran;
				tile_call(op, entry ? NULL : v, b, L, A, B, C, &ran);
				if (ran == before)
					continue;
				check_tile(entry ? names[op] : v->name, b, op <= TRSM ? A : C, want,
					   op == POTRF ? S : C0, op == POTRF || op == SYRK, bound);
			}
		}
		free(S);
		free(L);
		free(A0);
		free(B);
		free(C0);
		free(want);
		free(A);
		free(C);
	}
	verdict("potrf, trsm, syrk, gemm", "b in 0 1 3 16 33 64 260", ran);
}

int main(void)
{
	PEPPHER_INITIALIZE();
	test_sgemm();
	test_dgemm();
	test_spmv();
	test_sort_float();
	test_sort_int();
	test_sort_double();
	test_blas1_float();
	test_blas1_double();
	test_redux_float();
	test_redux_double();
	test_nrm2_range();
	test_special();
	test_tiles();
	PEPPHER_SHUTDOWN();
	return 0;
}
