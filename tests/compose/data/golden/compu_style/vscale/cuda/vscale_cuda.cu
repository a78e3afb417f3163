/* Left out here by its hardware constraint; compiled only on a machine that
 * has more than 100,000 cores and a GPU. */
static __global__ void vscale_kernel(float *x, int n, float factor)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] *= factor;
}

void vscale_cuda(float *arr, int size, float factor)
{
	vscale_kernel<<<(size + 255) / 256, 256>>>(arr, size, factor);
}
