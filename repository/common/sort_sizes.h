/*
 * Size arithmetic of the sort variants, in size_t: for n past 2^30 the
 * next power of two (2^31) and twice a run's length no longer fit an int,
 * where they overflowed and the loops that doubled them never ended.
 * Checked by tests/repository/sort_sizes.c.
 */
#include <stddef.h>

/* The width of sort_ocl's bitonic network: the next power of two >= n (1 for n <= 1). */
static inline size_t sort_pow2_at_least(int n)
{
	size_t N = 1;

	while (N < (size_t)(n > 0 ? n : 0))
		N *= 2;
	return N;
}

/* The number of pairs of runs of len elements that sort_omp merges in a round over n. */
static inline size_t sort_merge_pairs(size_t n, size_t len)
{
	return (n + 2 * len - 1) / (2 * len);
}
