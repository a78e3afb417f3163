/* One BFS level in CUDA: two kernels, a thread per node each; the second
 * counts the next frontier. */
#include <peppher/cuda.h>

__global__ static void expand(const int *starts, const int *degrees, const int *edges,
			      int *mask, int *updating, const int *visited, int *cost, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, k;

	if (i >= n || !mask[i])
		return;
	mask[i] = 0;
	for (k = starts[i]; k < starts[i] + degrees[i]; k++)
		if (!visited[edges[k]]) {
			cost[edges[k]] = cost[i] + 1;
			updating[edges[k]] = 1;
		}
}

__global__ static void update(int *mask, int *updating, int *visited, int *next, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n || !updating[i])
		return;
	mask[i] = visited[i] = 1;
	updating[i] = 0;
	atomicAdd(next, 1);
}

void bfs_cuda(const int *starts, const int *degrees, const int *edges, int *mask, int *updating,
	      int *visited, int *cost, int *next, int frontier, int n, int m)
{
	int blocks = (n + 255) / 256;

	(void)frontier;
	(void)m;
	cudaMemsetAsync(next, 0, sizeof(int), pph_cuda_stream());
	expand<<<blocks, 256, 0, pph_cuda_stream()>>>(starts, degrees, edges, mask, updating,
						       visited, cost, n);
	update<<<blocks, 256, 0, pph_cuda_stream()>>>(mask, updating, visited, next, n);
}
