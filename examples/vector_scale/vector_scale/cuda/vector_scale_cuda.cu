/* The CUDA variant: x is device memory on the GPU the task runs on. */
__global__ static void scale_kernel(float *x, int n, float factor, float offset)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] = factor * x[i] + offset;
}

void vector_scale_cuda(float *x, int n, float factor, float offset)
{
	const int threads = 256;

	if (n > 0)
		scale_kernel<<<(n + threads - 1) / threads, threads>>>(x, n, factor, offset);
}
