/* One HotSpot step in CUDA: a thread per cell, 16 x 16 blocks. */
#include <peppher/cuda.h>

__global__ static void step(const float *temp, const float *power, float *result, int rows,
			    int cols, float sdc, float rx1, float ry1, float rz1)
{
	int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= rows || j >= cols)
		return;
	float x = temp[i * cols + j];
	float north = temp[(i > 0 ? i - 1 : i) * cols + j];
	float south = temp[(i < rows - 1 ? i + 1 : i) * cols + j];
	float west = temp[i * cols + (j > 0 ? j - 1 : j)];
	float east = temp[i * cols + (j < cols - 1 ? j + 1 : j)];

	result[i * cols + j] = x + sdc * (power[i * cols + j] + (north + south - 2.0f * x) * ry1 +
					  (east + west - 2.0f * x) * rx1 + (80.0f - x) * rz1);
}

void hotspot_cuda(const float *temp, const float *power, float *result, int rows, int cols,
		  float sdc, float rx1, float ry1, float rz1)
{
	dim3 block(16, 16), grid((cols + 15) / 16, (rows + 15) / 16);

	step<<<grid, block, 0, pph_cuda_stream()>>>(temp, power, result, rows, cols, sdc, rx1,
						     ry1, rz1);
}
