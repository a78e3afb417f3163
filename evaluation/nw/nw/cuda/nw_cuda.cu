/* Needleman-Wunsch in CUDA: a block of 16 threads per 16 x 16 block of
 * cells, which sweeps the block's own anti-diagonals, a cell per thread. */
#include <peppher/cuda.h>

__global__ static void blocks(int *score, const int *ref, int dim, int diag, int penalty,
			      int first)
{
	int bi = first + blockIdx.x, bj = diag - bi, t = threadIdx.x, k;

	for (k = 0; k < 31; k++) {
		int i = bi * 16 + 1 + t, j = bj * 16 + 1 + k - t;

		if (k - t >= 0 && k - t < 16) {
			int m = score[(i - 1) * dim + j - 1] + ref[i * dim + j];

			m = max(m, score[(i - 1) * dim + j] - penalty);
			score[i * dim + j] = max(m, score[i * dim + j - 1] - penalty);
		}
		__syncthreads();
	}
}

void nw_cuda(int *score, const int *ref, int dim, int diag, int penalty)
{
	int nb = (dim - 1) / 16, first = diag < nb ? 0 : diag - nb + 1;
	int last = diag < nb ? diag : nb - 1;

	blocks<<<last - first + 1, 16, 0, pph_cuda_stream()>>>(score, ref, dim, diag, penalty,
								first);
}
