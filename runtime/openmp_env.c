/*
 * The OpenMP wait policy of a program that runs OPENMP variants under the
 * runtime.  Shared by libpeppher and the StarPU libraries.
 *
 * The runtime shares the cores out among its workers and the teams of
 * OPENMP variants.  libgomp's threads spin for milliseconds after their
 * region by default: they keep a core that a worker or the application
 * thread now needs, and the kernel may leave that thread queued behind them
 * until a timer tick (measured: 8 calls of a 256 x 256 SGEMM on a team of
 * 2 took 9.4 ms, or 20 to 46 ms one run in two; passive, 10.0-14.3 ms).
 * libgomp reads OMP_WAIT_POLICY once, from its constructor, so this one
 * must run before it: it does when the program's link line names libgomp
 * before libpeppher (the dynamic loader initialises libraries that do not
 * depend on each other in the reverse of that order; the Makefiles compose
 * writes do so).  A setting of the user's (OMP_WAIT_POLICY or
 * GOMP_SPINCOUNT, even empty) is kept.  The variable stays in the
 * program's environment, as if the user had set it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

__attribute__((constructor)) static void openmp_passive_wait(void)
{
	if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT"))
		return;
	(void)setenv("OMP_WAIT_POLICY", "passive", 0);
}
