/*
 * Compiled once per type T.  The team sorts one run per thread with qsort,
 * then merges pairs of runs in parallel, halving the runs each round, back
 * and forth between v and a scratch array.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "../../common/sort_sizes.h"

static int compare(const void *a, const void *b)
{
	T x = *(const T *)a, y = *(const T *)b;

	return (x > y) - (x < y);
}

static void merge(const T *a, size_t na, const T *b, size_t nb, T *out)
{
	size_t i = 0, j = 0, o = 0;

	while (i < na && j < nb)
		out[o++] = b[j] < a[i] ? b[j++] : a[i++]; /* stable: a first on ties */
	while (i < na)
		out[o++] = a[i++];
	while (j < nb)
		out[o++] = b[j++];
}

void sort_omp(T *v, int n)
{
	int runs = omp_get_max_threads(), r;
	size_t count, len; /* lengths in size_t: 2 * len may pass INT_MAX */
	T *src = v, *dst;

	if (n <= 1) /* n < 0 as (size_t) would be huge */
		return;
	count = (size_t)n;
	if (runs > n / 1024)
		runs = n / 1024; /* small arrays: one qsort */
	if (runs < 2 || !(dst = malloc(sizeof(T) * count))) {
		qsort(v, count, sizeof(T), compare);
		return;
	}
	len = (count + (size_t)runs - 1) / (size_t)runs;
#pragma omp parallel for
	for (r = 0; r < runs; r++) {
		size_t lo = (size_t)r * len, hi = lo + len < count ? lo + len : count;

		if (lo < hi)
			qsort(v + lo, hi - lo, sizeof(T), compare);
	}
	for (; len < count; len *= 2) {
		long pairs = (long)sort_merge_pairs(count, len), p;
		T *t;

#pragma omp parallel for
		for (p = 0; p < pairs; p++) {
			size_t lo = (size_t)p * 2 * len, mid = lo + len < count ? lo + len : count;
			size_t hi = mid + len < count ? mid + len : count;

			merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v) {
		memcpy(v, src, sizeof(T) * count);
		free(src);
	} else {
		free(dst);
	}
}
