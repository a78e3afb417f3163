/*
 * y = A x through cuSPARSE's generic SpMV (link with -lcusparse).  cuSPARSE
 * wants the m + 1 row offsets; the interface passes m (the last is nnz), so
 * they are completed in a scratch array on the device.
 *
 * A row may name a column more than once (the entries add up, as in the
 * other variants); cuSPARSE refuses a matrix with more entries than m x n
 * (a 1 x 1 matrix given as 7 entries), so that one is summed row by row here.
 */
#include "../../common/cuda_handles.h"

/* y[i] = sum of val[j] x[colind[j]] over row i; offsets has m + 1 entries */
static __global__ void spmv_rows(int m, const int *offsets, const int *colind,
				 const double *val, const double *x, double *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	double s = 0;

	if (i >= m)
		return;
	for (int j = offsets[i]; j < offsets[i + 1]; j++)
		s += val[j] * x[colind[j]];
	y[i] = s;
}

static int spmv_repeated(int m, const int *offsets, const int *colind, const double *val,
			 const double *x, double *y)
{
	spmv_rows<<<(m + 127) / 128, 128, 0, pph_cuda_stream()>>>(m, offsets, colind, val, x, y);
	return cudaGetLastError() == cudaSuccess;
}

static int spmv_run(cusparseHandle_t h, int m, int n, int nnz, int *offsets, const int *colind,
		    const double *val, const double *x, double *y)
{
	cusparseSpMatDescr_t A = NULL;
	cusparseDnVecDescr_t vx = NULL, vy = NULL;
	double one = 1, zero = 0;
	size_t size = 0;
	void *work = NULL;
	int ok;

	ok = cusparseCreateCsr(&A, m, n, nnz, offsets, (void *)colind, (void *)val,
			       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
			       CUDA_R_64F) == CUSPARSE_STATUS_SUCCESS &&
	     cusparseCreateDnVec(&vx, n, (void *)x, CUDA_R_64F) == CUSPARSE_STATUS_SUCCESS &&
	     cusparseCreateDnVec(&vy, m, y, CUDA_R_64F) == CUSPARSE_STATUS_SUCCESS &&
	     cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy,
				     CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT,
				     &size) == CUSPARSE_STATUS_SUCCESS &&
	     (size == 0 || cudaMalloc(&work, size) == cudaSuccess) &&
	     cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, CUDA_R_64F,
			  CUSPARSE_SPMV_ALG_DEFAULT, work) == CUSPARSE_STATUS_SUCCESS;
	cudaStreamSynchronize(pph_cuda_stream()); /* before work is freed */
	cudaFree(work);
	if (vy)
		cusparseDestroyDnVec(vy);
	if (vx)
		cusparseDestroyDnVec(vx);
	if (A)
		cusparseDestroySpMat(A);
	return ok;
}

void spmv_cusparse(int m, int n, int nnz, const int *rowptr, const int *colind,
		   const double *val, const double *x, double *y)
{
	cusparseHandle_t h = repo_cusparse();
	cudaStream_t s = pph_cuda_stream();
	int *offsets = NULL, ok;

	/* no rows: no y to write, as in the CPU variants (and a launch of
	 * spmv_rows with no blocks would be an error) */
	if (m <= 0)
		return;
	ok = h && cudaMalloc((void **)&offsets, sizeof(int) * ((size_t)m + 1)) == cudaSuccess &&
	     cudaMemcpyAsync(offsets, rowptr, sizeof(int) * (size_t)m, cudaMemcpyDeviceToDevice,
			     s) == cudaSuccess &&
	     cudaMemcpyAsync(offsets + m, &nnz, sizeof(int), cudaMemcpyHostToDevice,
			     s) == cudaSuccess &&
	     ((long long)nnz > (long long)m * n ?
		      spmv_repeated(m, offsets, colind, val, x, y) :
		      spmv_run(h, m, n, nnz, offsets, colind, val, x, y));
	cudaStreamSynchronize(s); /* before offsets is freed */
	cudaFree(offsets);
	if (!ok)
		repo_cuda_failed("spmv_cusparse");
}
