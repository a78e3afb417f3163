/*
 * Particle filter (Rodinia): tracks a disk through a noisy video.  Per
 * frame, pf_likelihood moves the particles and weighs them by the frame,
 * and pf_resample estimates the position and resamples.  The estimates are
 * checked against particlefilter_seq.c.
 */
#include <stdlib.h>

#include "peppher.h"
#include "../common/eval.h"
#include "pf_common.h"
#include "particlefilter_seq.h"

int main(int argc, char **argv)
{
	int n = eval_size(argc, argv, 10000), f, i;
	int *video = malloc((size_t)PF_FRAMES * PF_DIM * PF_DIM * sizeof(int));
	double *noise = malloc((size_t)PF_FRAMES * 2 * n * sizeof(double)), u1[PF_FRAMES];
	double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
	double *nx = malloc(n * sizeof(double)), *ny = malloc(n * sizeof(double));
	double *w = malloc(n * sizeof(double)), est[2 * PF_FRAMES], ref[2 * PF_FRAMES];
	double t0;

	/* the runtime first, as an application starts it (eval.h) */
	PEPPHER_INITIALIZE();
	pf_generate(video, noise, u1, n);
	for (i = 0; i < n; i++) {
		x[i] = y[i] = PF_DIM / 2;
		w[i] = 1.0 / n;
	}

	t0 = eval_now();
	for (f = 0; f < PF_FRAMES; f++) {
		double *t;

		pf_likelihood(video + (size_t)f * PF_DIM * PF_DIM, x, y, noise + (size_t)f * 2 * n, w,
			      PF_DIM, n, 2 * n);
		pf_resample(x, y, w, nx, ny, &est[2 * f], &est[2 * f + 1], n, u1[f]);
		t = x, x = nx, nx = t;
		t = y, y = ny, ny = t;
	}
	t0 = eval_now() - t0;
	PEPPHER_SHUTDOWN();

	pf_reference(video, noise, u1, n, ref);
	return eval_report("particlefilter", n, t0, eval_diff_double(est, ref, 2 * PF_FRAMES, 1e-6));
}
