/* Particle filter resampling in CUDA: one thread normalises the weights and
 * sums them up (in order, as on the CPU), then a thread per new particle
 * finds its parent. */
#include <peppher/cuda.h>

#include "../../pf_common.h"

PF_PARTICLE(static __device__, )

__global__ static void prefix(const double *x, const double *y, double *w, double *cdf,
			      double *ex, double *ey, int n)
{
	double sum = 0.0, sx = 0.0, sy = 0.0;
	int i;

	for (i = 0; i < n; i++)
		sum += w[i];
	for (i = 0; i < n; i++) {
		w[i] /= sum;
		sx += x[i] * w[i];
		sy += y[i] * w[i];
		cdf[i] = i > 0 ? cdf[i - 1] + w[i] : w[i];
	}
	*ex = sx;
	*ey = sy;
}

__global__ static void pick(const double *x, const double *y, double *w, const double *cdf,
			    double *nx, double *ny, int n, double u1)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x, i;

	if (j >= n)
		return;
	i = pf_find(cdf, n, (u1 + j) / n);
	nx[j] = x[i];
	ny[j] = y[i];
	w[j] = 1.0 / n;
}

void pf_resample_cuda(const double *x, const double *y, double *w, double *nx, double *ny,
		      double *ex, double *ey, int n, double u1)
{
	double *cdf;

	if (cudaMalloc(&cdf, (size_t)n * sizeof(double)) != cudaSuccess) {
		pph_variant_failed();
		return;
	}
	prefix<<<1, 1, 0, pph_cuda_stream()>>>(x, y, w, cdf, ex, ey, n);
	pick<<<(n + 127) / 128, 128, 0, pph_cuda_stream()>>>(x, y, w, cdf, nx, ny, n, u1);
	cudaStreamSynchronize(pph_cuda_stream());
	cudaFree(cdf);
}
