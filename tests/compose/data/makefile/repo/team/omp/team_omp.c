/* The threads of this variant's parallel region, and the size of the team
 * the runtime gave it: the same, unless the region ran on another OpenMP
 * runtime than the one the runtime sized. */
#include <omp.h>
#include <peppher/runtime.h>

void team_omp(int *counts, int n)
{
	int threads = 0;

#pragma omp parallel
	{
#pragma omp single
		threads = omp_get_num_threads();
	}
	if (n > 0)
		counts[0] = threads;
	if (n > 1)
		counts[1] = pph_openmp_threads();
}
