/* y = A x, A in CSR form: one work-item per row (the last row ends at nnz). */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void spmv_csr(int m, int nnz, __global const int *rowptr, __global const int *colind,
		       __global const double *val, __global const double *x, __global double *y)
{
	int i = get_global_id(0);

	if (i < m) {
		int end = i + 1 < m ? rowptr[i + 1] : nnz;
		double s = 0;

		for (int j = rowptr[i]; j < end; j++)
			s += val[j] * x[colind[j]];
		y[i] = s;
	}
}
