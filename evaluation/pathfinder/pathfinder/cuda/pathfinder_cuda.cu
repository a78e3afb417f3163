/* PathFinder in CUDA: a kernel per row, a thread per column; the rows
 * alternate between dst and a scratch buffer so that the last lands in dst. */
#include <peppher/cuda.h>

__global__ static void row(const int *wall, const int *prev, int *next, int cols, int r)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j >= cols)
		return;
	int best = prev[j];
	if (j > 0)
		best = min(best, prev[j - 1]);
	if (j < cols - 1)
		best = min(best, prev[j + 1]);
	next[j] = wall[(long)r * cols + j] + best;
}

void pathfinder_cuda(const int *wall, const int *src, int *dst, int rows, int cols, int row0,
		     int height)
{
	const int *cur = src;
	int *tmp, r;

	(void)rows;
	if (cudaMalloc(&tmp, (size_t)cols * sizeof(int)) != cudaSuccess) {
		pph_variant_failed();
		return;
	}
	for (r = row0 + 1; r <= row0 + height; r++) {
		int *next = (row0 + height - r) % 2 == 0 ? dst : tmp;

		row<<<(cols + 255) / 256, 256, 0, pph_cuda_stream()>>>(wall, cur, next, cols, r);
		cur = next;
	}
	cudaStreamSynchronize(pph_cuda_stream());
	cudaFree(tmp);
}
