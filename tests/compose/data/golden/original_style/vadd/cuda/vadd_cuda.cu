__global__ static void vadd_kernel(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

void vadd_cuda(const float *a, const float *b, float *c, int n)
{
	if (n > 0)
		vadd_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
