/* The LUD panel in CUDA: one thread factors the diagonal block, then a
 * thread per column of U's blocks and row of L's blocks. */
#include <peppher/cuda.h>

__global__ static void diagonal(float *A, int n, int k0)
{
	int i, j, p, end = k0 + 16;

	for (i = k0; i < end; i++) {
		for (j = i; j < end; j++)
			for (p = k0; p < i; p++)
				A[i * n + j] -= A[i * n + p] * A[p * n + j];
		for (j = i + 1; j < end; j++) {
			for (p = k0; p < i; p++)
				A[j * n + i] -= A[j * n + p] * A[p * n + i];
			A[j * n + i] /= A[i * n + i];
		}
	}
}

__global__ static void perimeter(float *A, int n, int k0)
{
	int i, p, end = k0 + 16, j = end + blockIdx.x * blockDim.x + threadIdx.x;

	if (j >= n)
		return;
	for (i = k0; i < end; i++)
		for (p = k0; p < i; p++)
			A[i * n + j] -= A[i * n + p] * A[p * n + j];
	for (i = k0; i < end; i++) {
		for (p = k0; p < i; p++)
			A[j * n + i] -= A[j * n + p] * A[p * n + i];
		A[j * n + i] /= A[i * n + i];
	}
}

void lud_panel_cuda(float *A, int n, int k0)
{
	int rest = n - k0 - 16;

	diagonal<<<1, 1, 0, pph_cuda_stream()>>>(A, n, k0);
	if (rest > 0)
		perimeter<<<(rest + 63) / 64, 64, 0, pph_cuda_stream()>>>(A, n, k0);
}
