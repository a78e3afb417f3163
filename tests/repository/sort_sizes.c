/*
 * The size arithmetic of the sort variants (repository/common/sort_sizes.h)
 * at sizes too large to sort in a test: past 2^30 elements the bitonic
 * network of sort_ocl is 2^31 wide and sort_omp's runs double past
 * INT_MAX / 2, which overflowed an int (sort_ocl's loop never ended).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "sort_sizes.h"

static int failed;

static void expect(const char *what, size_t got, size_t want)
{
	if (got != want) {
		printf("FAIL: %s = %zu, expected %zu\n", what, got, want);
		failed = 1;
	}
}

int main(void)
{
	size_t launches = 0, N, k, j;

	expect("sort_pow2_at_least(-3)", sort_pow2_at_least(-3), 1);
	expect("sort_pow2_at_least(0)", sort_pow2_at_least(0), 1);
	expect("sort_pow2_at_least(5)", sort_pow2_at_least(5), 8);
	expect("sort_pow2_at_least(2^30)", sort_pow2_at_least(1 << 30), (size_t)1 << 30);
	expect("sort_pow2_at_least(2^30 + 1)", sort_pow2_at_least((1 << 30) + 1), (size_t)1 << 31);
	expect("sort_pow2_at_least(INT_MAX)", sort_pow2_at_least(INT_MAX), (size_t)1 << 31);
	/* sort_ocl's launches over INT_MAX elements: log2(N) (log2(N) + 1) / 2 = 496,
	 * every j it passes an int */
	N = sort_pow2_at_least(INT_MAX);
	for (k = 2; k <= N; k *= 2)
		for (j = k / 2; j > 0; j /= 2, launches++)
			if (j > INT_MAX)
				expect("a step's j", j, INT_MAX);
	expect("sort_ocl's launches for INT_MAX", launches, 31 * 32 / 2);
	/* sort_omp's last round over INT_MAX in runs of 2^30 + ...: one pair */
	expect("sort_merge_pairs(INT_MAX, 2^30)", sort_merge_pairs(INT_MAX, (size_t)1 << 30), 1);
	expect("sort_merge_pairs(INT_MAX, INT_MAX / 2 + 1)",
	       sort_merge_pairs(INT_MAX, (size_t)INT_MAX / 2 + 1), 1);
	expect("sort_merge_pairs(10, 3)", sort_merge_pairs(10, 3), 2);
	if (!failed)
		printf("sort sizes past 2^30: correct\n");
	return failed;
}
