/*
 * Variant selection: an interface with two CPU variants whose best choice
 * changes with the problem size (insertion sort wins on small arrays, merge
 * sort on large ones), called on a mixed sequence of sizes.  The same calls
 * run with the variant forced to insertion, forced to merge, and chosen by
 * dmda after a calibration pass; the oracle takes, per call, the faster of
 * the two forced runs.  Prints totals and the ratios
 *     dmda / oracle          (target <= 1.05)
 *     best single / dmda     (target >= 1.2)
 * PEPPHER_QUICK=1 makes fewer calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <peppher/runtime.h>

static void insertion_sort(void *buffers[], void *arg)
{
	int *v = PPH_VECTOR_PTR(buffers[0]);
	size_t n = PPH_VECTOR_N(buffers[0]), i, j;

	(void)arg;
	for (i = 1; i < n; i++) {
		int x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
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
	int *v = PPH_VECTOR_PTR(buffers[0]);
	size_t n = PPH_VECTOR_N(buffers[0]);
	int *tmp = malloc(n * sizeof(int) + 1);

	(void)arg;
	merge_rec(v, tmp, n);
	free(tmp);
}

static const struct pph_impl impls[] = {
	{ PPH_ARCH_CPU, insertion_sort, "insertion_sort" },
	{ PPH_ARCH_CPU, merge_sort, "merge_sort" },
};
static const struct pph_codelet sort_cl = { "bench_sort", 2, impls, PPH_MODEL_DEFAULT };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run every call of the sequence with the variant forced (or -1: dmda);
 * per-call times go to times[] when not NULL.  Returns the total. */
static double run(const size_t *sizes, unsigned ncalls, int impl, double *times)
{
	int *v = malloc(4096 * sizeof(int));
	unsigned c, seed = 7;
	double total = 0;
	size_t i;

	for (c = 0; c < ncalls; c++) {
		pph_data_handle h;
		struct pph_task *t;
		double t0;

		for (i = 0; i < sizes[c]; i++)
			v[i] = rand_r(&seed);
		pph_vector_register(&h, v, sizes[c], sizeof(int));
		t = pph_task_create(&sort_cl);
		pph_task_add_buffer(t, h, PPH_RW);
		if (impl >= 0)
			pph_task_force_impl(t, impl);
		t0 = now_s();
		pph_task_submit(t);
		pph_task_wait(t);
		t0 = now_s() - t0;
		total += t0;
		if (times)
			times[c] = t0;
		pph_task_destroy(t);
		pph_data_unregister(h);
	}
	free(v);
	return total;
}

int main(void)
{
	/* mostly small sorts, where insertion wins, and some large ones,
	 * where merge wins by far: neither variant alone is good */
	static const size_t choices[] = { 16, 32, 64, 96, 128, 192, 256,
					  16, 32, 64, 96, 128, 192, 256,
					  16, 32, 64, 96, 128, 192, 256,
					  1024, 2048 };
	const char *quick = getenv("PEPPHER_QUICK");
	unsigned ncalls = quick && *quick == '1' ? 600 : 3000, c, seed = 1;
	size_t *sizes = malloc(ncalls * sizeof(*sizes));
	double *ti = malloc(ncalls * sizeof(double)), *tm = malloc(ncalls * sizeof(double));
	double ins, mer, oracle = 0, dmda;

	for (c = 0; c < ncalls; c++)
		sizes[c] = choices[rand_r(&seed) % (sizeof(choices) / sizeof(choices[0]))];
	/* one worker: the comparison is about the variant, not about overlap */
	setenv("PEPPHER_NCPU", "1", 1);
	setenv("PEPPHER_SCHED", "dmda", 1);
	setenv("PEPPHER_CALIBRATE", "2", 1); /* fresh models */
	if (pph_init() != 0)
		return 1;
	ins = run(sizes, ncalls, 0, ti);
	mer = run(sizes, ncalls, 1, tm);
	for (c = 0; c < ncalls; c++)
		oracle += ti[c] < tm[c] ? ti[c] : tm[c];
	/* the forced runs above calibrated both variants at every size */
	dmda = run(sizes, ncalls, -1, NULL);
	pph_shutdown();

	printf("select: %u sort calls, sizes 16..2048, 1 CPU worker\n\n", ncalls);
	printf("  insertion only  %9.3f ms\n", ins * 1e3);
	printf("  merge only      %9.3f ms\n", mer * 1e3);
	printf("  per-size oracle %9.3f ms\n", oracle * 1e3);
	printf("  dmda            %9.3f ms\n\n", dmda * 1e3);
	printf("  dmda / oracle        %.3f   (target <= 1.05)\n", dmda / oracle);
	printf("  best single / dmda   %.3f   (target >= 1.2)\n",
	       (ins < mer ? ins : mer) / dmda);
	free(sizes);
	free(ti);
	free(tm);
	return 0;
}
