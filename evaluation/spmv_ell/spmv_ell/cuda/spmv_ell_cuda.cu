/* y = A x, A in ELLPACK form, on a CUDA device: a thread per row. */
#include <peppher/cuda.h>

__global__ static void row(const int *colind, const float *val, const float *x, float *y, int m,
			   int w)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= m)
		return;
	float s = 0;

	for (int k = 0; k < w; k++)
		s += val[(long)i * w + k] * x[colind[(long)i * w + k]];
	y[i] = s;
}

void spmv_ell_cuda(const int *colind, const float *val, const float *x, float *y, int m, int w,
		   int n)
{
	(void)n;
	row<<<(m + 127) / 128, 128, 0, pph_cuda_stream()>>>(colind, val, x, y, m, w);
}
