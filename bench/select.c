/*
 * Variant selection: an interface with two CPU variants whose best choice
 * changes with the problem size (segmented sort of a matrix's rows:
 * insertion sort wins on short rows, merge sort on long ones), called on a
 * mixed sequence of row lengths.  After an untimed calibration pass, each
 * call runs three times in a row: insertion forced, merge forced, and the
 * variant dmda chooses; the oracle takes, per call, the faster of the two
 * forced runs.  Prints totals and the ratios
 *     dmda / oracle          (target <= 1.05)
 *     best single / dmda     (target >= 1.2)
 * PEPPHER_QUICK=1 makes fewer calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <peppher/runtime.h>

/* Untimed runs of each variant per length before measuring: more than
 * the history needs before dmda trusts it. */
#define PPH_BENCH_CALIBRATION 12

/* Both variants sort every row of a matrix of ints on its own: segmented
 * sorting, as in bucketing or per-cell particle lists. */
static void insertion_row(int *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		int x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void insertion_sort(void *buffers[], void *arg)
{
	int *m = PPH_MATRIX_PTR(buffers[0]);
	size_t rows = PPH_MATRIX_ROWS(buffers[0]), r;

	(void)arg;
	for (r = 0; r < rows; r++)
		insertion_row(m + r * PPH_MATRIX_LD(buffers[0]), PPH_MATRIX_COLS(buffers[0]));
}

static void merge_rec(int *v, int *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	merge_rec(v, tmp, h);
	merge_rec(v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = v[i] <= v[j] ? v[i++] : v[j++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(int));
}

static void merge_sort(void *buffers[], void *arg)
{
	int *m = PPH_MATRIX_PTR(buffers[0]);
	size_t rows = PPH_MATRIX_ROWS(buffers[0]), cols = PPH_MATRIX_COLS(buffers[0]), r;
	int *tmp = malloc(cols * sizeof(int) + 1);

	(void)arg;
	for (r = 0; r < rows; r++)
		merge_rec(m + r * PPH_MATRIX_LD(buffers[0]), tmp, cols);
	free(tmp);
}

static const struct pph_impl impls[] = {
	{ PPH_ARCH_CPU, insertion_sort, "insertion_sort", 0 },
	{ PPH_ARCH_CPU, merge_sort, "merge_sort", 0 },
};
static const struct pph_codelet sort_cl = { "bench_sort", 2, impls, PPH_MODEL_DEFAULT };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every call sorts ELEMS ints, as rows of the call's length. */
#define ELEMS 16384

/* One call on fresh random rows of length len, the variant forced (or -1:
 * dmda's choice).  Returns its time from submission to completion. */
static double call(int *m, size_t len, int impl, unsigned *seed)
{
	pph_data_handle h;
	struct pph_task *t;
	double t0;
	size_t i;

	for (i = 0; i < ELEMS; i++)
		m[i] = rand_r(seed);
	pph_matrix_register(&h, m, ELEMS / len, len, len, sizeof(int));
	t = pph_task_create(&sort_cl);
	pph_task_add_buffer(t, h, PPH_RW);
	if (impl >= 0)
		pph_task_force_impl(t, impl);
	t0 = now_s();
	pph_task_submit(t);
	pph_task_wait(t);
	t0 = now_s() - t0;
	pph_task_destroy(t);
	pph_data_unregister(h);
	return t0;
}

int main(void)
{
	/* short rows, where insertion wins by 1.5-2x, and now and then long
	 * ones, where merge wins by 3x: mixed so that each variant alone
	 * loses about as much as the other */
	static const size_t choices[] = { 4, 8, 16, 32, 4, 8, 16, 32,
					  4, 8, 16, 32, 16, 1024 };
	const unsigned nchoices = sizeof(choices) / sizeof(choices[0]);
	const char *quick = getenv("PEPPHER_QUICK");
	unsigned ncalls = quick && *quick == '1' ? 300 : 1500, c, k, seed = 1, data_seed = 7;
	int *m = malloc(ELEMS * sizeof(int));
	double ins = 0, mer = 0, oracle = 0, dmda = 0;

	/* one worker: the comparison is about the variant, not about overlap */
	setenv("PEPPHER_NCPU", "1", 1);
	setenv("PEPPHER_SCHED", "dmda", 1);
	setenv("PEPPHER_CALIBRATE", "2", 1); /* fresh models */
	if (pph_init() != 0)
		return 1;
	/* calibration: both variants at every length, untimed */
	for (k = 0; k < 2 * PPH_BENCH_CALIBRATION; k++)
		for (c = 0; c < nchoices; c++)
			call(m, choices[c], (int)(k % 2), &data_seed);
	/* each call three ways in a row, so that the machine's drifts hit
	 * all three alike; the oracle takes the faster forced variant */
	for (c = 0; c < ncalls; c++) {
		size_t len = choices[rand_r(&seed) % nchoices];
		double ti = call(m, len, 0, &data_seed);
		double tm = call(m, len, 1, &data_seed);

		ins += ti;
		mer += tm;
		oracle += ti < tm ? ti : tm;
		dmda += call(m, len, -1, &data_seed);
	}
	pph_shutdown();
	free(m);

	printf("select: %u calls sorting %d ints in rows of 4..1024, 1 CPU worker\n\n",
	       ncalls, ELEMS);
	printf("  insertion only  %9.3f ms\n", ins * 1e3);
	printf("  merge only      %9.3f ms\n", mer * 1e3);
	printf("  per-size oracle %9.3f ms\n", oracle * 1e3);
	printf("  dmda            %9.3f ms\n\n", dmda * 1e3);
	printf("  dmda / oracle        %.3f   (target <= 1.05)\n", dmda / oracle);
	printf("  best single / dmda   %.3f   (target >= 1.2)\n",
	       (ins < mer ? ins : mer) / dmda);
	return 0;
}
