/*
 * mandelbrot: escape times of an h x w grid over [-2.2, 0.8] x [-1.2, 1.2],
 * one composed call split into blocks of rows that run on the CPU workers
 * and the OpenCL device at once (partition in mandelbrot.xml and main.xml).
 * The blocks are of equal size; the scheduler places each one on the worker
 * it expects to finish it first, from each variant's history.
 *
 * Usage: mandelbrot [h w maxit calls] (default 480 640 400 6).  Compared
 * with a sequential computation: a few points on the set's edge may differ
 * by where the device rounds; more than 1 in 1000 is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "peppher.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int escape(float cr, float ci, int maxit)
{
	float zr = 0, zi = 0;
	int it = 0;

	while (it < maxit && zr * zr + zi * zi <= 4.0f) {
		float t = zr * zr - zi * zi + cr;

		zi = 2.0f * zr * zi + ci;
		zr = t;
		it++;
	}
	return it;
}

int main(int argc, char **argv)
{
	int h = 480, w = 640, maxit = 400, calls = 6;

	if (argc == 5) {
		h = atoi(argv[1]);
		w = atoi(argv[2]);
		maxit = atoi(argv[3]);
		calls = atoi(argv[4]);
	}
	if (h < 1 || w < 1 || maxit < 1 || calls < 1) {
		fprintf(stderr, "usage: mandelbrot [h w maxit calls]\n");
		return 2;
	}
	int *img = malloc(sizeof(int) * h * w);
	float *ci = malloc(sizeof(float) * h), x0 = -2.2f, dx = 3.0f / w;
	long differ = 0, inside = 0;

	if (!img || !ci)
		return 1;
	for (int r = 0; r < h; r++)
		ci[r] = -1.2f + r * (2.4f / h);
	PEPPHER_INITIALIZE();
	for (int c = 0; c < calls; c++) {
		double t0 = now();

		mandelbrot(img, ci, h, w, x0, dx, maxit);
		printf("call %d: %.2f ms\n", c, (now() - t0) * 1e3);
	}
	PEPPHER_SHUTDOWN();
	for (int r = 0; r < h; r++)
		for (int c = 0; c < w; c++) {
			int it = escape(x0 + c * dx, ci[r], maxit);

			differ += img[r * w + c] != it;
			inside += it == maxit;
		}
	int bad = differ * 1000 > (long)h * w;

	printf("mandelbrot %d x %d, %d iterations at most: %ld points inside, %ld differ: %s\n", h, w,
	       maxit, inside, differ, bad ? "WRONG" : "correct");
	free(img);
	free(ci);
	return bad;
}
