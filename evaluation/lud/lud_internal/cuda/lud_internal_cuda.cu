/* The LUD trailing update in CUDA: a thread per element, 16 x 16 blocks. */
#include <peppher/cuda.h>

__global__ static void internal(float *A, int n, int k0)
{
	int end = k0 + 16, p;
	int i = end + blockIdx.y * blockDim.y + threadIdx.y, j = end + blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0.0f;

	if (i >= n || j >= n)
		return;
	for (p = k0; p < end; p++)
		s += A[i * n + p] * A[p * n + j];
	A[i * n + j] -= s;
}

void lud_internal_cuda(float *A, int n, int k0)
{
	int side = (n - k0 - 16 + 15) / 16;
	dim3 block(16, 16), grid(side, side);

	internal<<<grid, block, 0, pph_cuda_stream()>>>(A, n, k0);
}
