/*
 * Compiled once per type T.  The team sorts one run per thread with qsort,
 * then merges pairs of runs in parallel, halving the runs each round, back
 * and forth between v and a scratch array.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

static int compare(const void *a, const void *b)
{
	T x = *(const T *)a, y = *(const T *)b;

	return (x > y) - (x < y);
}

static void merge(const T *a, int na, const T *b, int nb, T *out)
{
	int i = 0, j = 0, o = 0;

	while (i < na && j < nb)
		out[o++] = b[j] < a[i] ? b[j++] : a[i++]; /* stable: a first on ties */
	while (i < na)
		out[o++] = a[i++];
	while (j < nb)
		out[o++] = b[j++];
}

void sort_omp(T *v, int n)
{
	int runs = omp_get_max_threads(), len, r;
	T *src = v, *dst;

	if (runs > n / 1024)
		runs = n / 1024; /* small arrays: one qsort */
	if (runs < 2 || !(dst = malloc(sizeof(T) * (size_t)n))) {
		qsort(v, (size_t)n, sizeof(T), compare);
		return;
	}
	len = (n + runs - 1) / runs;
#pragma omp parallel for
	for (r = 0; r < runs; r++) {
		int lo = r * len, hi = lo + len < n ? lo + len : n;

		if (lo < hi)
			qsort(v + lo, (size_t)(hi - lo), sizeof(T), compare);
	}
	for (; len < n; len *= 2) {
		int pairs = (n + 2 * len - 1) / (2 * len), p;
		T *t;

#pragma omp parallel for
		for (p = 0; p < pairs; p++) {
			int lo = p * 2 * len, mid = lo + len < n ? lo + len : n;
			int hi = mid + len < n ? mid + len : n;

			merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v) {
		memcpy(v, src, sizeof(T) * (size_t)n);
		free(src);
	} else {
		free(dst);
	}
}
