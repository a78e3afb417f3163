/*
 * Unit tests of runtime/perfmodel.c: the file format, corrupt files,
 * concurrent writers, outliers and regression.
 */
#include <math.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "internal.h"
#include "perfmodel.h"

#include "testutil.h"

static const char *home; /* PEPPHER_HOME of this run */

static void k_noop(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static const struct pph_impl impls[] = {
	{ PPH_ARCH_CPU, k_noop, "noop_a", 0 },
	{ PPH_ARCH_CPU, k_noop, "noop_b", 0 },
};
static const struct pph_codelet cl = { "pm_test", 2, impls, PPH_MODEL_DEFAULT };

static char *model_file(const char *codelet)
{
	char *dir = pph__perfmodel_dir(), *path;

	CU_ASSERT_FATAL(asprintf(&path, "%s/%s.model", dir, codelet) > 0);
	free(dir);
	return path;
}

/* Words on the first line of the file at path that starts with prefix. */
static int words_of_line(const char *path, const char *prefix)
{
	FILE *fp = fopen(path, "r");
	char line[1024], *w, *save;
	int n = -1;

	while (fp && n < 0 && fgets(line, sizeof(line), fp))
		if (strncmp(line, prefix, strlen(prefix)) == 0)
			for (n = 0, w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
				n++;
	if (fp)
		fclose(fp);
	return n;
}

/* What the written file's comment names of an entry line (without its
 * '#'), and what an entry line holds: the same fields. */
static int header_fields(const char *path)
{
	return words_of_line(path, "# entry ") - 1;
}

static int entry_fields(const char *path)
{
	return words_of_line(path, "entry ");
}

static void test_round_trip(void)
{
	const char *path = "pm_round_trip.model";
	struct pph_pm_model m = { .codelet = (char *)"rt" }, *back;
	const struct pph_pm_variant *team, *alone;
	/* the same variant alone and as a fork-join team of 4 */
	struct pph_pm_variant v1 = { .name = (char *)"rt_cpu", .arch = PPH_ARCH_CPU, .threads = 1 };
	struct pph_pm_variant v = { .name = (char *)"rt_cpu", .arch = PPH_ARCH_CPU, .threads = 4,
				    .next = &v1 };
	struct pph_pm_entry e1 = { .footprint = 0xdeadbeef, .size = 4096, .count = 12,
				   .mean = 33.25, .m2 = 7.5, .outliers = 2, .firsts = 5,
				   .slowest = 41.125 };
	/* the largest size a call's data may have: read back as written */
	struct pph_pm_entry e2 = { .footprint = 0x1, .size = 2.0 * (double)SIZE_MAX, .count = 3,
				   .mean = 1.0 / 3.0, .m2 = 0.125, .next = &e1 };
	FILE *fp = fopen(path, "w");

	v.entries = &e2;
	v.setup_us = 31234.5;
	m.variants = &v;
	pph__perfmodel_write(fp, &m);
	fclose(fp);
	CU_ASSERT_EQUAL(header_fields(path), entry_fields(path));
	back = pph__perfmodel_read(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(back);
	CU_ASSERT_STRING_EQUAL(back->codelet, "rt");
	CU_ASSERT_PTR_NOT_NULL_FATAL(back->variants);
	CU_ASSERT_STRING_EQUAL(back->variants->name, "rt_cpu");
	CU_ASSERT_EQUAL(back->variants->arch, PPH_ARCH_CPU);
	CU_ASSERT_PTR_NOT_NULL_FATAL(back->variants->next);
	CU_ASSERT_PTR_NULL(back->variants->next->next);
	/* each team size is a variant of its own; only the team has entries */
	team = back->variants->threads == 4 ? back->variants : back->variants->next;
	alone = team == back->variants ? back->variants->next : back->variants;
	CU_ASSERT_EQUAL(team->threads, 4);
	CU_ASSERT_EQUAL(alone->threads, 1);
	CU_ASSERT_PTR_NULL(alone->entries);
	CU_ASSERT_EQUAL(team->setup_us, 31234.5);
	CU_ASSERT_EQUAL(alone->setup_us, 0);
	{
		const struct pph_pm_entry *e;
		int seen = 0;

		for (e = team->entries; e; e = e->next) {
			if (e->footprint == 0xdeadbeef) {
				seen |= 1;
				CU_ASSERT_EQUAL(e->count, 12);
				CU_ASSERT_EQUAL(e->mean, 33.25);
				CU_ASSERT_EQUAL(e->m2, 7.5);
				CU_ASSERT_EQUAL(e->outliers, 2);
				CU_ASSERT_EQUAL(e->firsts, 5);
				CU_ASSERT_EQUAL(e->slowest, 41.125);
				CU_ASSERT_EQUAL(e->size, 4096);
			} else if (e->footprint == 1) {
				seen |= 2;
				CU_ASSERT_EQUAL(e->mean, 1.0 / 3.0); /* exact: %.17g */
				CU_ASSERT_EQUAL(e->size, 2.0 * (double)SIZE_MAX);
			}
		}
		CU_ASSERT_EQUAL(seen, 3);
	}
	pph__perfmodel_free(back);
	unlink(path);
}

static void test_corrupt(void)
{
	static const char *const bad[] = {
		"garbage\n",
		"peppher-perfmodel 1\ncodelet x\nentry 1 2 3 4 5 6\n", /* entry before variant */
		"peppher-perfmodel 1\ncodelet x\nvariant v GPU9\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry zz 1 1 1 1 0\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 1 1 nan 1 0\n",
		"peppher-perfmodel 1\nvariant v CPU\n", /* no codelet */
		"peppher-perfmodel 2\ncodelet x\n",
		/* no header line: a comment or a blank line first */
		"# peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 3 2 1 0\n",
		"\npeppher-perfmodel 1\ncodelet x\n",
		"# a comment\npeppher-perfmodel 1\ncodelet x\n",
		/* values no history has: the scheduler must never see them */
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 -1 1 1 0\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 3 1e308 1 0\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 3 inf 1 0\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 3 -2 1 0\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 3 2 inf 0\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 nan 3 2 1 0\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 3 2 1 -1\n",
		/* more first runs than samples */
		"peppher-perfmodel 1\ncodelet x\nvariant v CPU\nentry 1 8 3 2 1 0 4\n",
		"peppher-perfmodel 1\ncodelet x\ncodelet y\n",
		"peppher-perfmodel 1\ncodelet x\nsetup 5\n", /* setup before variant */
		"peppher-perfmodel 1\ncodelet x\nvariant v OPENCL\nsetup -5\n",
		"peppher-perfmodel 1\ncodelet x\nvariant v OPENCL\nsetup nan\n",
	};
	const char *path = "pm_corrupt.model";
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *fp = fopen(path, "w");

		fputs(bad[i], fp);
		fclose(fp);
		CU_ASSERT_PTR_NULL(pph__perfmodel_read(path));
	}
	unlink(path);
	CU_ASSERT_PTR_NULL(pph__perfmodel_read("no-such-file.model"));
}

/* A corrupt stored model gives a warning and a fresh model, never a crash. */
static void test_corrupt_at_init(void)
{
	char *path = model_file("pm_test");
	FILE *fp;
	struct pph_task *t;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0); /* creates the folder */
	pph_shutdown();
	fp = fopen(path, "w");
	fputs("peppher-perfmodel 1\ncodelet pm_test\nvariant noop_a CPU\nentry 12 oops\n", fp);
	fclose(fp);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	t = pph_task_create(&cl);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	pph_task_wait(t);
	pph_task_destroy(t);
	pph_shutdown();
	/* the corrupt file was replaced by a valid one */
	{
		struct pph_pm_model *m = pph__perfmodel_read(path);

		CU_ASSERT_PTR_NOT_NULL(m);
		pph__perfmodel_free(m);
	}
	unlink(path);
	free(path);
}

/* Samples stored for variant, outliers included. */
static unsigned long total_count(const char *path, const char *variant)
{
	struct pph_pm_model *m = pph__perfmodel_read(path);
	const struct pph_pm_variant *v;
	const struct pph_pm_entry *e;
	unsigned long n = 0;

	for (v = m ? m->variants : NULL; v; v = v->next)
		if (strcmp(v->name, variant) == 0)
			for (e = v->entries; e; e = e->next)
				n += e->count + e->outliers;
	pph__perfmodel_free(m);
	return n;
}

static void run_calls(int n, int impl)
{
	int i;

	if (pph_init() != 0)
		_exit(2);
	for (i = 0; i < n; i++) {
		struct pph_task *t = pph_task_create(&cl);

		pph_task_force_impl(t, impl);
		pph_task_submit(t);
		pph_task_wait(t);
		pph_task_destroy(t);
	}
	pph_shutdown();
}

/* Two processes writing the same model at once: every sample is kept. */
static void test_concurrent_writers(void)
{
	char *path = model_file("pm_test");
	pid_t pids[2];
	int i, status;

	unlink(path);
	/* every run timed: tiny tasks run at submission are timed 1 in 64 */
	setenv("PEPPHER_TINY_US", "0", 1);
	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			run_calls(200, i);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(waitpid(pids[i], &status, 0), pids[i]);
		CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	/* each process's first run is a warm-up, left out */
	if (total_count(path, "noop_a") != 199 || total_count(path, "noop_b") != 199)
		fprintf(stderr, "concurrent writers: %lu and %lu samples\n",
			total_count(path, "noop_a"), total_count(path, "noop_b"));
	CU_ASSERT_EQUAL(total_count(path, "noop_a"), 199);
	CU_ASSERT_EQUAL(total_count(path, "noop_b"), 199);
	/* a later run adds to both */
	run_calls(10, 0);
	CU_ASSERT_EQUAL(total_count(path, "noop_a"), 208);
	CU_ASSERT_EQUAL(total_count(path, "noop_b"), 199);
	unsetenv("PEPPHER_TINY_US");
	free(path);
}

/* A call made once per run is calibrated across runs: a process's only
 * run of an entry, its warm-up, is saved; with two runs, only the second. */
static void test_once_per_run(void)
{
	char *path = model_file("pm_test");
	int i;

	unlink(path);
	setenv("PEPPHER_TINY_US", "0", 1);
	for (i = 0; i < 3; i++)
		run_calls(1, 0);
	CU_ASSERT_EQUAL(total_count(path, "noop_a"), 3);
	CU_ASSERT_EQUAL(total_count(path, "noop_b"), 0);
	run_calls(2, 0);
	CU_ASSERT_EQUAL(total_count(path, "noop_a"), 4);
	unsetenv("PEPPHER_TINY_US");
	free(path);
}

static void test_outliers(void)
{
	int i;

	for (i = 0; i < 20; i++)
		pph__perfmodel_record(&cl, 0, PPH_ARCH_CPU, 1, 42, 100, 10.0 + (i % 2));
	pph__perfmodel_record(&cl, 0, PPH_ARCH_CPU, 1, 42, 100, 5000.0);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&cl, 0, PPH_ARCH_CPU, 1, 42, 100),
			       10.5, 1e-9);
	/* a variant that became slower: its slow runs are outliers, one then
	 * one in ten at most, and the mean follows them (20 runs of 350 us
	 * after 20 of 10: 4 left out, 16 kept) */
	for (i = 0; i < 40; i++)
		pph__perfmodel_record(&cl, 0, PPH_ARCH_CPU, 1, 44, 100, i < 20 ? 10.0 : 350.0);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&cl, 0, PPH_ARCH_CPU, 1, 44, 100),
			       (20 * 10.0 + 16 * 350.0) / 36, 1e-9);
	/* not calibrated: another variant, another footprint */
	CU_ASSERT_TRUE(pph__perfmodel_predict(&cl, 1, PPH_ARCH_CPU, 1, 42, 100) < 0);
	CU_ASSERT_TRUE(pph__perfmodel_predict(&cl, 0, PPH_ARCH_CPU, 1, 43, 100) < 0 ||
		       pph__perfmodel_predict(&cl, 0, PPH_ARCH_CPU, 1, 43, 100) > 0);
}

/* Among the samples that calibrate an entry, one 3 times above their
 * median is left out, and the next run takes its place; a variant whose
 * runs are just spread, or take two values, keeps them all. */
static void test_early_outlier(void)
{
	static const struct pph_impl ei[] = { { PPH_ARCH_CPU, k_noop, "early", 0 } };
	static const struct pph_codelet ec = { "pm_early", 1, ei, PPH_MODEL_HISTORY };
	const double slowed[] = { 5000, 20, 22 }, spread[] = { 20, 25, 70 },
		     two[] = { 100, 400, 410 };
	unsigned i;

	for (i = 0; i < 3; i++)
		pph__perfmodel_record(&ec, 0, PPH_ARCH_CPU, 1, 50, 100, slowed[i]);
	CU_ASSERT_TRUE(pph__perfmodel_predict(&ec, 0, PPH_ARCH_CPU, 1, 50, 100) < 0);
	CU_ASSERT_EQUAL(pph__perfmodel_samples(&ec, 0, PPH_ARCH_CPU, 1, 50, 100), 3);
	pph__perfmodel_record(&ec, 0, PPH_ARCH_CPU, 1, 50, 100, 24);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&ec, 0, PPH_ARCH_CPU, 1, 50, 100), 22, 1e-9);
	/* one, then one in ten at most: a second such run is left out too,
	 * a third stays */
	pph__perfmodel_record(&ec, 0, PPH_ARCH_CPU, 1, 50, 100, 5000);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&ec, 0, PPH_ARCH_CPU, 1, 50, 100), 22, 1e-9);
	pph__perfmodel_record(&ec, 0, PPH_ARCH_CPU, 1, 50, 100, 5000);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&ec, 0, PPH_ARCH_CPU, 1, 50, 100),
			       (20 + 22 + 24 + 5000) / 4.0, 1e-9);
	for (i = 0; i < 3; i++) {
		pph__perfmodel_record(&ec, 0, PPH_ARCH_CPU, 1, 51, 100, spread[i]);
		pph__perfmodel_record(&ec, 0, PPH_ARCH_CPU, 1, 52, 100, two[i]);
	}
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&ec, 0, PPH_ARCH_CPU, 1, 51, 100), 115 / 3.0,
			       1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&ec, 0, PPH_ARCH_CPU, 1, 52, 100), 910 / 3.0,
			       1e-9);
}

/*
 * One slowed run never decides, whichever sample it is: work_fast (130 us
 * a run) had a run of 20 ms as its 5th sample, kept (the outlier rule
 * needed 10 samples), a mean of 4.1 ms, and dmda never ran it again.
 * Each of 12 footprints has the slowed run at another place among 12
 * samples; then a history whose slowest was left out at its calibration
 * leaves out the next slowed run too.
 */
static void test_slowed_sample_any_count(void)
{
	static const struct pph_impl si[] = { { PPH_ARCH_CPU, k_noop, "hiccup", 0 } };
	static const struct pph_codelet sc = { "pm_hiccup", 1, si, PPH_MODEL_HISTORY };
	unsigned at, k;

	for (at = 0; at < 12; at++) {
		for (k = 0; k < 12; k++)
			pph__perfmodel_record(&sc, 0, PPH_ARCH_CPU, 1, 600 + at, 100,
					      k == at ? 20000 : 130);
		if (fabs(pph__perfmodel_predict(&sc, 0, PPH_ARCH_CPU, 1, 600 + at, 100) - 130) > 1e-6)
			fprintf(stderr, "slowed sample %u of 12: predicted %.1f us\n", at + 1,
				pph__perfmodel_predict(&sc, 0, PPH_ARCH_CPU, 1, 600 + at, 100));
		CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&sc, 0, PPH_ARCH_CPU, 1, 600 + at, 100),
				       130, 1e-6);
		CU_ASSERT_EQUAL(pph__perfmodel_samples(&sc, 0, PPH_ARCH_CPU, 1, 600 + at, 100), 12);
	}
	for (k = 0; k < 8; k++)
		pph__perfmodel_record(&sc, 0, PPH_ARCH_CPU, 1, 650, 100,
				      k == 0 || k == 4 ? 20000 : 130);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&sc, 0, PPH_ARCH_CPU, 1, 650, 100), 130, 1e-6);
}

static void test_regression(void)
{
	static const struct pph_impl ri[] = { { PPH_ARCH_CPU, k_noop, "reg", 0 } };
	static const struct pph_codelet rc = { "pm_regression", 1, ri, PPH_MODEL_DEFAULT };
	static const struct pph_impl di[] = { { PPH_ARCH_OPENCL, k_noop, "reg_device", 0 } };
	static const struct pph_codelet dc = { "pm_regression_device", 1, di, PPH_MODEL_DEFAULT };
	double sizes[] = { 1e3, 4e3, 1.6e4, 6.4e4, 2.56e5 };
	unsigned i, k;
	double want, got;

	/* t = 0.02 * s^1.1 + 5 */
	for (i = 0; i < 5; i++)
		for (k = 0; k < PPH_CALIBRATION_MIN; k++)
			pph__perfmodel_record(&rc, 0, PPH_ARCH_CPU, 1, 100 + i, sizes[i],
					      0.02 * pow(sizes[i], 1.1) + 5);
	want = 0.02 * pow(5e5, 1.1) + 5;
	got = pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 999, 5e5);
	CU_ASSERT_TRUE(fabs(got - want) < 0.05 * want);
	want = 0.02 * pow(2e3, 1.1) + 5;
	got = pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 998, 2e3);
	CU_ASSERT_TRUE(fabs(got - want) < 0.05 * want);
	/* beyond twice the sizes it ran at, on either side: explored */
	CU_ASSERT_EQUAL(pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 997, 5.2e5), -1);
	CU_ASSERT_EQUAL(pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 996, 4.9e2), -1);
	/* a run there widens the range at once, its warm-up too */
	pph__perfmodel_record_run(&rc, 0, PPH_ARCH_CPU, 1, 997, 5.2e5, 0.02 * pow(5.2e5, 1.1) + 5,
				  0, 0);
	want = 0.02 * pow(1e6, 1.1) + 5;
	got = pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 995, 1e6);
	CU_ASSERT_TRUE(fabs(got - want) < 0.05 * want);
	/* a device variant's regression predicts out of range too: dmda
	 * weighs its setup and copies against the call (worth_its_setup) */
	for (i = 0; i < 5; i++)
		for (k = 0; k < PPH_CALIBRATION_MIN; k++)
			pph__perfmodel_record(&dc, 0, PPH_ARCH_OPENCL, 1, 100 + i, sizes[i],
					      0.02 * pow(sizes[i], 1.1) + 5);
	want = 0.02 * pow(4e6, 1.1) + 5;
	got = pph__perfmodel_predict(&dc, 0, PPH_ARCH_OPENCL, 1, 999, 4e6);
	CU_ASSERT_TRUE(fabs(got - want) < 0.05 * want);
}

/*
 * A fork-join variant keeps a history per team size, apart from its runs on
 * one thread: the scheduler finds those through a table by team size (up to
 * 64 threads; a larger team by name), and each size must find its own.
 */
static void test_team_sizes_apart(void)
{
	static const struct pph_impl ti[] = { { PPH_ARCH_OPENMP, k_noop, "team", 0 } };
	static const struct pph_codelet tc = { "pm_teams", 1, ti, PPH_MODEL_HISTORY };
	static const unsigned threads[] = { 1, 2, 3, 64, 65, 200 };
	unsigned i, k;
	unsigned long n;

	for (i = 0; i < 6; i++)
		CU_ASSERT_TRUE(pph__perfmodel_predict(&tc, 0, PPH_ARCH_CPU, threads[i], 7, 1e3) < 0);
	for (i = 0; i < 6; i++)
		for (k = 0; k < PPH_CALIBRATION_MIN + i; k++)
			pph__perfmodel_record(&tc, 0, PPH_ARCH_CPU, threads[i], 7, 1e3, 100.0 + i);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict_n(&tc, 0, PPH_ARCH_CPU, threads[i], 7,
								1e3, &n),
				       100.0 + i, 1e-9);
		CU_ASSERT_EQUAL(n, PPH_CALIBRATION_MIN + i);
		CU_ASSERT_EQUAL(pph__perfmodel_samples(&tc, 0, PPH_ARCH_CPU, threads[i], 7, 1e3),
				PPH_CALIBRATION_MIN + i);
	}
	/* another footprint: nothing yet, whatever the team */
	CU_ASSERT_TRUE(pph__perfmodel_predict_n(&tc, 0, PPH_ARCH_CPU, 2, 8, 1e3, &n) < 0);
	CU_ASSERT_EQUAL(n, 0);
}

/*
 * pph_call_work: a task's footprint and size come from the work it was made
 * with, not its data; a work measured once at each of three works is
 * enough for a regression, which then predicts the works measured fewer
 * than three times too (a trailing update's work changes at each call).
 */
static void test_work(void)
{
	static const struct pph_impl wi[] = { { PPH_ARCH_CPU, k_noop, "work", 0 } };
	static const struct pph_codelet wc = { "pm_work", 1, wi, PPH_MODEL_DEFAULT };
	static float a[64];
	pph_data_handle h;
	struct pph_task *t[4];
	double size[4], works[] = { 0, 1e4, 1e4, 4e4 }, want, got;
	uint32_t fp[4];
	unsigned i;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	CU_ASSERT_EQUAL_FATAL(pph_vector_register(&h, a, 64, sizeof(float)), 0);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(pph_call_work(works[i]), i ? works[i - 1] : 0);
		t[i] = pph_task_create(&wc);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t[i]);
		CU_ASSERT_EQUAL(pph_task_add_buffer(t[i], h, PPH_R), 0);
		fp[i] = pph__task_footprint(t[i], &size[i]);
	}
	CU_ASSERT_EQUAL(pph_call_work(-5), 4e4);
	CU_ASSERT_EQUAL(pph_call_work(0), 0); /* negative: none */
	CU_ASSERT_EQUAL(size[0], 64 * sizeof(float));
	CU_ASSERT_EQUAL(size[1], 1e4);
	CU_ASSERT_EQUAL(size[3], 4e4);
	CU_ASSERT_EQUAL(fp[1], fp[2]);
	CU_ASSERT_NOT_EQUAL(fp[0], fp[1]);
	CU_ASSERT_NOT_EQUAL(fp[1], fp[3]);
	for (i = 0; i < 4; i++)
		pph_task_destroy(t[i]);
	pph_data_unregister(h);
	pph_shutdown();

	/* t = 0.5 * w: once at each of three works, and twice at a fourth */
	for (i = 0; i < 3; i++)
		pph__perfmodel_record(&wc, 0, PPH_ARCH_CPU, 1, 300 + i, 1e4 * (i + 1),
				      0.5 * 1e4 * (i + 1));
	pph__perfmodel_record(&wc, 0, PPH_ARCH_CPU, 1, 303, 5e4, 0.5 * 5e4);
	pph__perfmodel_record(&wc, 0, PPH_ARCH_CPU, 1, 303, 5e4, 0.5 * 5e4);
	want = 0.5 * 1e5;
	got = pph__perfmodel_predict(&wc, 0, PPH_ARCH_CPU, 1, 999, 1e5);
	CU_ASSERT_TRUE(fabs(got - want) < 0.05 * want);
	got = pph__perfmodel_predict(&wc, 0, PPH_ARCH_CPU, 1, 303, 5e4);
	CU_ASSERT_TRUE(fabs(got - 0.5 * 5e4) < 0.05 * 0.5 * 5e4);
}

/*
 * Once a regression holds, a size measured fewer than 3 times is predicted
 * by what it measured where that is below the regression, else by the
 * regression (a call whose work changes each time, or a size met once a
 * run, would else be explored forever; one slowed run would keep it from
 * being chosen again), but not one this process runs again: it is
 * calibrated like any other.  On 2 cores, sgemm at 256 ran sgemm_blocked
 * once, 3.3 ms where it takes 1.7, and dmda never ran it again.
 */
static void test_recurring_size_calibrated(void)
{
	static const struct pph_impl ri[] = { { PPH_ARCH_CPU, k_noop, "recurring", 0 } };
	static const struct pph_codelet rc = { "pm_recurring", 1, ri, PPH_MODEL_DEFAULT };
	unsigned i, k;

	for (i = 0; i < 3; i++)
		for (k = 0; k < PPH_CALIBRATION_MIN; k++)
			pph__perfmodel_record(&rc, 0, PPH_ARCH_CPU, 1, 400 + i, 1e4 * (i + 1),
					      0.5 * 1e4 * (i + 1));
	/* run twice in this process: its warm-up, then one sample */
	pph__perfmodel_record_run(&rc, 0, PPH_ARCH_CPU, 1, 403, 5e4, 0.5 * 5e4, 0, 0);
	pph__perfmodel_record_run(&rc, 0, PPH_ARCH_CPU, 1, 403, 5e4, 2 * 0.5 * 5e4, 0, 0);
	CU_ASSERT_TRUE(pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 403, 5e4) < 0);
	/* measured once, in another process (not run in this one), faster
	 * than the regression says: what it measured */
	pph__perfmodel_record(&rc, 0, PPH_ARCH_CPU, 1, 404, 6e4, 0.4 * 6e4);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 404, 6e4),
			       0.4 * 6e4, 1e-9);
	/* the recurring size's next samples calibrate it */
	pph__perfmodel_record_run(&rc, 0, PPH_ARCH_CPU, 1, 403, 5e4, 0.5 * 5e4, 0, 0);
	pph__perfmodel_record_run(&rc, 0, PPH_ARCH_CPU, 1, 403, 5e4, 0.5 * 5e4, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 403, 5e4),
			       (2 + 1 + 1) * 0.5 * 5e4 / 3, 1e-6);
}

/*
 * A size measured once, twice as slow as the regression of the others says
 * (a slowed run), is predicted by the regression, so that the choice is
 * made again there.  nw's work of 9 blocks ran nw_cpu once, 17.8 us where
 * the works of 8 and 10 blocks took 8.5 and 11.8, and dmda ran the slower
 * nw_omp there ever after.
 */
static void test_slowed_run_not_kept(void)
{
	static const struct pph_impl si[] = { { PPH_ARCH_CPU, k_noop, "slowed", 0 } };
	static const struct pph_codelet sc = { "pm_slowed", 1, si, PPH_MODEL_DEFAULT };
	double got;
	unsigned i, k;

	/* works of 1 to 16 blocks, 1 us a block */
	for (i = 1; i <= 16; i++)
		for (k = 0; k < PPH_CALIBRATION_MIN; k++)
			if (i != 9)
				pph__perfmodel_record(&sc, 0, PPH_ARCH_CPU, 1, 500 + i, i, i);
	pph__perfmodel_record(&sc, 0, PPH_ARCH_CPU, 1, 509, 9, 2 * 9);
	got = pph__perfmodel_predict(&sc, 0, PPH_ARCH_CPU, 1, 509, 9);
	CU_ASSERT_TRUE(got > 0 && fabs(got - 9) < 0.1 * 9);
}

/* Feed t(size) at five calibrated sizes; footprints 200+i. */
static void feed(const struct pph_codelet *c, double (*t)(double))
{
	static const double sizes[] = { 1e3, 4e3, 1.6e4, 6.4e4, 2.56e5 };
	unsigned i, k;

	for (i = 0; i < 5; i++)
		for (k = 0; k < PPH_CALIBRATION_MIN; k++)
			pph__perfmodel_record(c, 0, PPH_ARCH_CPU, 1, 200 + i, sizes[i], t(sizes[i]));
}

static double power_law(double s)
{
	return 3 * pow(s, 1.2);
}

static double with_overhead(double s)
{
	return 0.02 * pow(s, 1.1) + 500;
}

static int near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * want;
}

/* -useHistoryModels, -useRegressionModels, -useNLRegressionModels */
static void test_model_kinds(void)
{
	static const struct pph_impl mi[] = { { PPH_ARCH_CPU, k_noop, "v", 0 } };
	static const struct pph_codelet hist = { "pm_kind_history", 1, mi, PPH_MODEL_HISTORY };
	static const struct pph_codelet reg = { "pm_kind_reg", 1, mi, PPH_MODEL_REGRESSION };
	static const struct pph_codelet nl = { "pm_kind_nl", 1, mi, PPH_MODEL_NL_REGRESSION };
	static const struct pph_codelet reg_off = { "pm_kind_reg_off", 1, mi, PPH_MODEL_REGRESSION };

	/* history only: measured sizes known, others to calibrate */
	feed(&hist, power_law);
	CU_ASSERT_TRUE(near(pph__perfmodel_predict(&hist, 0, PPH_ARCH_CPU, 1, 201, 4e3),
			    power_law(4e3), 1e-9));
	CU_ASSERT_TRUE(pph__perfmodel_predict(&hist, 0, PPH_ARCH_CPU, 1, 999, 1e6) < 0);
	/* a*n^b: exact on a power law, at unseen and measured sizes */
	feed(&reg, power_law);
	CU_ASSERT_TRUE(near(pph__perfmodel_predict(&reg, 0, PPH_ARCH_CPU, 1, 999, 1e6),
			    power_law(1e6), 0.01));
	CU_ASSERT_TRUE(near(pph__perfmodel_predict(&reg, 0, PPH_ARCH_CPU, 1, 202, 1.6e4),
			    power_law(1.6e4), 0.01));
	/* a*n^b+c follows a constant overhead that a*n^b cannot */
	feed(&nl, with_overhead);
	feed(&reg_off, with_overhead);
	CU_ASSERT_TRUE(near(pph__perfmodel_predict(&nl, 0, PPH_ARCH_CPU, 1, 998, 2e3),
			    with_overhead(2e3), 0.05));
	CU_ASSERT_FALSE(near(pph__perfmodel_predict(&reg_off, 0, PPH_ARCH_CPU, 1, 998, 2e3),
			     with_overhead(2e3), 0.05));
}

/* Footprints tell shapes apart: same bytes, other rows, other footprint. */
static uint32_t footprint_of(pph_data_handle h, double *size)
{
	struct pph_task *t = pph_task_create(&cl);
	uint32_t fp;

	pph_task_add_buffer(t, h, PPH_R);
	fp = pph__task_footprint(t, size);
	pph_task_destroy(t);
	return fp;
}

/* Submission takes a task without data to have this footprint. */
static void test_footprint_no_data(void)
{
	struct pph_task *t = pph_task_create(&cl);
	double size = -1;

	CU_ASSERT_EQUAL(pph__task_footprint(t, &size), PPH_FOOTPRINT_NO_DATA);
	CU_ASSERT_EQUAL(size, 0);
	pph_task_destroy(t);
}

static void test_footprint_shapes(void)
{
	static int m[16 * 1024];
	pph_data_handle wide, tall, tall2, vec;
	double s_wide, s_tall, s_tall2, s_vec;
	uint32_t f_wide, f_tall, f_tall2, f_vec;

	pph_matrix_register(&wide, m, 16, 1024, 1024, sizeof(int));
	pph_matrix_register(&tall, m, 1024, 16, 16, sizeof(int));
	pph_matrix_register(&tall2, m, 1024, 16, 16, sizeof(int));
	pph_vector_register(&vec, m, 16 * 1024, sizeof(int));
	f_wide = footprint_of(wide, &s_wide);
	f_tall = footprint_of(tall, &s_tall);
	f_tall2 = footprint_of(tall2, &s_tall2);
	f_vec = footprint_of(vec, &s_vec);
	CU_ASSERT_EQUAL(s_wide, sizeof(m));
	CU_ASSERT_EQUAL(s_tall, sizeof(m));
	CU_ASSERT_EQUAL(s_vec, sizeof(m));
	CU_ASSERT_NOT_EQUAL(f_wide, f_tall);
	CU_ASSERT_NOT_EQUAL(f_vec, f_tall);
	CU_ASSERT_EQUAL(f_tall, f_tall2);
	pph_data_unregister(wide);
	pph_data_unregister(tall);
	pph_data_unregister(tall2);
	pph_data_unregister(vec);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs(text, fp);
	fclose(fp);
}

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void run_one(const struct pph_codelet *c, int *impl_ran)
{
	struct pph_task *t;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	t = pph_task_create(c);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
	CU_ASSERT_EQUAL(pph_task_wait(t), 0);
	if (impl_ran)
		*impl_ran = pph_task_impl_ran(t);
	pph_task_destroy(t);
	pph_shutdown();
}

static void run_pm_test(void)
{
	run_one(&cl, NULL);
}

/* A corrupt model is reported once: when read, not again when written back. */
static void test_corrupt_warned_once(void)
{
	char *path = model_file("pm_test");

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_shutdown();
	write_file(path, "peppher-perfmodel 1\ncodelet pm_test\nvariant noop_a CPU\nentry 12 oops\n");
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test, "corrupt performance model"), 1);
	unlink(path);
	free(path);
}

/* A model that is a directory, or holds a NUL byte, says so, not that it
 * is corrupt or has a line too long. */
static void test_model_cause_said(void)
{
	char *path = model_file("pm_test"), *aside;
	FILE *fp;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0777), 0);
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test, "is a directory, not a performance model"), 1);
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test, "corrupt"), 0);
	rmdir(path);
	fp = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fwrite("peppher-perfmodel 1\ncodelet pm\0test\n", 1, 37, fp);
	fclose(fp);
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test, ":2: holds a NUL byte; kept as "), 1);
	unlink(path);
	CU_ASSERT_FATAL(asprintf(&aside, "%s.corrupt", path) > 0);
	unlink(aside);
	free(aside);
	free(path);
}

/* The text of the file at path (malloc'ed), or NULL. */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *text = calloc(1, 1 << 16);

	if (fp && text)
		fread(text, 1, (1 << 16) - 1, fp);
	if (fp)
		fclose(fp);
	return text;
}

static const char bad_model[] = "peppher-perfmodel 1\ncodelet pm_test\nvariant noop_a CPU\n"
				"entry 00000001 8 5 2 0 0\nvariant noop_b CPU\nentry 12 oops\n";

static void run_pm_test_corrupted_meanwhile(void)
{
	char *path = model_file("pm_test");

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_call_sync(&cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0); /* read: fine */
	write_file(path, bad_model);
	pph_shutdown();
	free(path);
}

/*
 * One bad line in a model file lost every variant's history at the next
 * save: the file was replaced by a fresh model, with no copy.  It is kept
 * aside as NAME.model.corrupt, said, before a fresh one is started: when
 * read, or when saving where it became corrupt meanwhile.  A model of
 * another codelet (a file copied by hand) is kept aside as well.
 */
static void test_corrupt_kept_aside(void)
{
	char *path = model_file("pm_test"), *aside, *needle, *text;
	struct pph_pm_model *m;

	CU_ASSERT_FATAL(asprintf(&aside, "%s.corrupt", path) > 0);
	CU_ASSERT_FATAL(asprintf(&needle, ":6: corrupt performance model; kept as %s, starting a fresh one",
				 aside) > 0);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0); /* creates the folder */
	pph_shutdown();
	unlink(aside);
	write_file(path, bad_model);
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test, needle), 1);
	text = slurp(aside);
	CU_ASSERT_STRING_EQUAL(text, bad_model);
	free(text);
	m = pph__perfmodel_read(path); /* a fresh model in its place */
	CU_ASSERT_PTR_NOT_NULL(m);
	pph__perfmodel_free(m);
	/* corrupt by the time this process saves its samples */
	unlink(aside);
	free(needle);
	CU_ASSERT_FATAL(asprintf(&needle, ":6: corrupt performance model; kept as %s, replaced by this process's samples",
				 aside) > 0);
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test_corrupted_meanwhile, needle), 1);
	text = slurp(aside);
	CU_ASSERT_STRING_EQUAL(text, bad_model);
	free(text);
	CU_ASSERT_EQUAL(total_count(path, "noop_a") + total_count(path, "noop_b"), 1);
	/* another codelet's model */
	unlink(aside);
	write_file(path, "peppher-perfmodel 1\ncodelet pm_other\nvariant noop_a CPU\n");
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test, "model of codelet 'pm_other', not 'pm_test'; kept as "),
			1);
	CU_ASSERT_TRUE(exists(aside));
	unlink(aside);
	unlink(path);
	free(needle);
	free(aside);
	free(path);
}

/* A lock file that cannot be made (a directory there) is said: the model
 * is merged, written, without it (two processes at once lose samples). */
static void test_lock_unusable_said(void)
{
	char *path = model_file("pm_test"), *lock;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_shutdown();
	CU_ASSERT_FATAL(asprintf(&lock, "%.*s.lock", (int)strlen(path) - 6, path) > 0);
	unlink(lock);
	CU_ASSERT_EQUAL_FATAL(mkdir(lock, 0777), 0);
	CU_ASSERT_EQUAL(test_stderr_count(run_pm_test, "the model is merged without its lock"), 1);
	CU_ASSERT_EQUAL(access(path, F_OK), 0); /* written all the same */
	rmdir(lock);
	unlink(path);
	free(lock);
	free(path);
}

/* A declared codelet's model is read by pph_init, before any call: its
 * corruption is reported by a run that makes none. */
static const struct pph_codelet declared_cl = { "pm_declared", 2, impls, PPH_MODEL_DEFAULT };

static void init_and_shutdown(void)
{
	CU_ASSERT_EQUAL(pph_init(), 0);
	pph_shutdown();
}

static void test_declared_loads_at_init(void)
{
	char *path = model_file("pm_declared");

	write_file(path, "peppher-perfmodel 1\ncodelet pm_declared\nvariant noop_a CPU\nentry 12 oops\n");
	CU_ASSERT_EQUAL(test_stderr_count(init_and_shutdown, "corrupt performance model"), 0);
	pph_codelet_declare(&declared_cl);
	CU_ASSERT_EQUAL(test_stderr_count(init_and_shutdown, "corrupt performance model"), 1);
	unlink(path);
	free(path);
}

static void k_mark(void *buffers[], void *arg)
{
	(void)arg;
	*(int *)PPH_VARIABLE_PTR(buffers[0]) += 1;
}

/*
 * Predictions of inf, 1e300, or from a regression pushed to inf, are
 * capped: dmda still picks a worker and a variant, and the task runs
 * (before, it picked worker -1 and wrote before its queues).
 */
static void test_absurd_predictions(void)
{
	static const struct pph_impl ai[] = {
		{ PPH_ARCH_CPU, k_mark, "absurd_inf", 0 },
		{ PPH_ARCH_CPU, k_mark, "absurd_huge", 0 },
	};
	static const struct pph_codelet ac = { "pm_absurd", 2, ai, PPH_MODEL_DEFAULT };
	static const struct pph_codelet rc = { "pm_absurd_reg", 2, ai, PPH_MODEL_DEFAULT };
	static const struct pph_codelet xc = { "pm_absurd_xreg", 2, ai, PPH_MODEL_NL_REGRESSION };
	int x = 0, round;
	pph_data_handle h;
	double size;
	uint32_t fp;
	struct pph_task *t;

	setenv("PEPPHER_SCHED", "dmda", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_variable_register(&h, &x, sizeof(x));
	t = pph_task_create(&ac);
	pph_task_add_buffer(t, h, PPH_RW);
	fp = pph__task_footprint(t, &size);
	pph_task_destroy(t);
	for (round = 0; round < PPH_CALIBRATION_MIN; round++) {
		unsigned k;

		/* a sample of inf or NaN is no run time: left out */
		pph__perfmodel_record(&ac, 0, PPH_ARCH_CPU, 1, fp, size, INFINITY);
		pph__perfmodel_record(&ac, 0, PPH_ARCH_CPU, 1, fp, size, NAN);
		pph__perfmodel_record(&ac, 0, PPH_ARCH_CPU, 1, fp, size, 1e300);
		pph__perfmodel_record(&ac, 1, PPH_ARCH_CPU, 1, fp, size, 1e250);
		/* t = s^2 at five sizes: its regression overflows at 1e200 */
		for (k = 0; k < 5; k++) {
			pph__perfmodel_record(&rc, 0, PPH_ARCH_CPU, 1, 1000 + k, 1e3 * (k + 1),
					      1e6 * (k + 1) * (k + 1));
			pph__perfmodel_record(&xc, 0, PPH_ARCH_CPU, 1, 1000 + k, 1e3 * (k + 1),
					      1e6 * (k + 1) * (k + 1));
		}
	}
	CU_ASSERT_EQUAL(pph__perfmodel_predict(&ac, 0, PPH_ARCH_CPU, 1, fp, size), PPH_PM_MAX_US);
	CU_ASSERT_EQUAL(pph__perfmodel_predict(&ac, 1, PPH_ARCH_CPU, 1, fp, size), PPH_PM_MAX_US);
	/* far beyond its sizes a regression is not used (explored instead),
	 * so its overflow is met through a codelet that asks for one */
	CU_ASSERT_EQUAL(pph__perfmodel_predict(&rc, 0, PPH_ARCH_CPU, 1, 999, 1e200), -1);
	CU_ASSERT_EQUAL(pph__perfmodel_predict(&xc, 0, PPH_ARCH_CPU, 1, 999, 1e200), PPH_PM_MAX_US);
	for (round = 0; round < 10; round++) {
		t = pph_task_create(&ac);
		pph_task_add_buffer(t, h, PPH_RW);
		CU_ASSERT_EQUAL(pph_task_submit(t), 0);
		CU_ASSERT_EQUAL(pph_task_wait(t), 0);
		CU_ASSERT_TRUE(pph_task_impl_ran(t) == 0 || pph_task_impl_ran(t) == 1);
		CU_ASSERT_TRUE(pph_task_worker_ran(t) >= 0 ||
			       pph_task_worker_ran(t) == PPH_WORKER_APPLICATION);
		pph_task_destroy(t);
	}
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(x, 10);
	pph_shutdown();
	unsetenv("PEPPHER_SCHED");
}

/* "../" in a codelet's name, given by the program or read from a model's
 * codelet line, never writes outside the models folder. */
static void test_path_escape(void)
{
	static const struct pph_impl ei[] = { { PPH_ARCH_CPU, k_noop, "escape_v", 0 } };
	static const struct pph_codelet climber = { "../../pm_climbed", 1, ei, PPH_MODEL_DEFAULT };
	static const struct pph_codelet victim = { "pm_victim", 1, ei, PPH_MODEL_DEFAULT };
	char *dir = pph__perfmodel_dir(), *out, *outlock, *escaped, *vpath, *evil, *path;
	struct pph_pm_model *m;

	CU_ASSERT_FATAL(asprintf(&out, "%s/../../pm_climbed.model", dir) > 0);
	CU_ASSERT_FATAL(asprintf(&outlock, "%s/../../pm_climbed.lock", dir) > 0);
	CU_ASSERT_FATAL(asprintf(&escaped, "%s/%%2e%%2e%%2f%%2e%%2e%%2fpm_climbed.model", dir) > 0);
	CU_ASSERT_FATAL(asprintf(&evil, "%s/../../pm_evil.model", dir) > 0);
	vpath = model_file("pm_victim");
	run_one(&climber, NULL);
	CU_ASSERT_FALSE(exists(out));
	CU_ASSERT_FALSE(exists(outlock));
	CU_ASSERT_TRUE(exists(escaped));
	path = pph__perfmodel_path(dir, "a/../b", "x");
	CU_ASSERT_STRING_EQUAL(strrchr(path, '/'), "/a%2f%2e%2e%2fb.x");
	free(path);
	/* a model file whose codelet line climbs: written back as pm_victim */
	write_file(vpath, "peppher-perfmodel 1\ncodelet ../../pm_evil\nvariant escape_v CPU\n");
	run_one(&victim, NULL);
	CU_ASSERT_FALSE(exists(evil));
	m = pph__perfmodel_read(vpath);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_STRING_EQUAL(m->codelet, "pm_victim");
	pph__perfmodel_free(m);
	unlink(out);
	unlink(outlock);
	unlink(evil);
	free(out);
	free(outlock);
	free(escaped);
	free(evil);
	free(vpath);
	free(dir);
}

/* What the load of test_big_model may take: a sanitizer's build is
 * several times slower (5.3 s under ThreadSanitizer on 2 loaded cores),
 * and a quadratic read took 78 s in a plain one. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define BIG_MODEL_US 25e6
#else
#define BIG_MODEL_US 5e6
#endif

/* 200,000 entries: read in linear time (a quadratic read took 78 s), and
 * a run with that model starts, predicts and writes it back. */
static void test_big_model(void)
{
	static const struct pph_impl bi[] = { { PPH_ARCH_CPU, k_noop, "big_v", 0 } };
	static const struct pph_codelet big = { "pm_big", 1, bi, PPH_MODEL_HISTORY };
	char *path = model_file("pm_big");
	FILE *fp = fopen(path, "w");
	struct pph_pm_model *m;
	const struct pph_pm_entry *e;
	double t0;
	unsigned i, n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fprintf(fp, "peppher-perfmodel 1\ncodelet pm_big\nvariant big_v CPU\n");
	for (i = 0; i < 200000; i++)
		fprintf(fp, "entry %08x %u 3 %u.5 0.25 0\n", i * 2654435761u, 8 * i, i);
	fclose(fp);
	t0 = pph__now_us();
	m = pph__perfmodel_read(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (e = m->variants->entries; e; e = e->next)
		n++;
	CU_ASSERT_EQUAL(n, 200000);
	pph__perfmodel_free(m);
	t0 = pph__now_us();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	/* entry 77777 as the run sees it */
	CU_ASSERT_EQUAL(pph__perfmodel_predict(&big, 0, PPH_ARCH_CPU, 1, 77777u * 2654435761u,
					       8 * 77777), 77777.5);
	CU_ASSERT_TRUE(pph__perfmodel_predict(&big, 0, PPH_ARCH_CPU, 1, 1u, 1) < 0);
	pph__perfmodel_record(&big, 0, PPH_ARCH_CPU, 1, 1u, 1, 2.0);
	pph_shutdown();
	if (pph__now_us() - t0 > BIG_MODEL_US)
		fprintf(stderr, "big model: %.1f s\n", (pph__now_us() - t0) / 1e6);
	CU_ASSERT_TRUE(pph__now_us() - t0 < BIG_MODEL_US);
	CU_ASSERT_EQUAL(total_count(path, "big_v"), 3ul * 200000 + 1);
	unlink(path);
	free(path);
}

/* NAME.tmp.PID of a process that died is removed at start; that of a
 * living one stays. */
static void test_stale_tmp(void)
{
	char *dir = pph__perfmodel_dir(), *dead, *alive, *other;
	pid_t pid = fork();
	int status;

	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	CU_ASSERT_FATAL(asprintf(&dead, "%s/pm_test.model.tmp.%ld", dir, (long)pid) > 0);
	CU_ASSERT_FATAL(asprintf(&alive, "%s/pm_test.model.tmp.%ld", dir, (long)getppid()) > 0);
	CU_ASSERT_FATAL(asprintf(&other, "%s/notes.tmp.txt", dir) > 0);
	write_file(dead, "x");
	write_file(alive, "x");
	write_file(other, "x");
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph_shutdown();
	CU_ASSERT_FALSE(exists(dead));
	CU_ASSERT_TRUE(exists(alive));
	CU_ASSERT_TRUE(exists(other));
	unlink(alive);
	unlink(other);
	free(dead);
	free(alive);
	free(other);
	free(dir);
}

/* Without PEPPHER_HOME, a HOME that is no existing absolute folder makes
 * no folder (models are not saved); the run goes on. */
static void test_bogus_home(void)
{
	char *saved = strdup(getenv("PEPPHER_HOME")), *bogus, cwd[4096];
	const char *old_home = getenv("HOME");
	char *home_copy = old_home ? strdup(old_home) : NULL;
	int x;

	CU_ASSERT_FATAL(asprintf(&bogus, "%s/no/such/home", home) > 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof(cwd)));
	unsetenv("PEPPHER_HOME");
	setenv("HOME", bogus, 1);
	run_one(&cl, &x);
	CU_ASSERT_EQUAL(x >= 0, 1);
	CU_ASSERT_FALSE(exists(bogus));
	/* a relative HOME: nothing made in the working directory */
	CU_ASSERT_EQUAL_FATAL(chdir(home), 0);
	setenv("HOME", "relative-home", 1);
	run_one(&cl, NULL);
	CU_ASSERT_FALSE(exists("relative-home"));
	CU_ASSERT_FALSE(exists(".peppher"));
	CU_ASSERT_EQUAL(chdir(cwd), 0);
	if (home_copy)
		setenv("HOME", home_copy, 1);
	else
		unsetenv("HOME");
	setenv("PEPPHER_HOME", saved, 1);
	free(home_copy);
	free(saved);
	free(bogus);
}

/* A stored transfer model with NaN or inf is measured again, not used. */
static void count_calls_run(void)
{
	run_one(&cl, NULL);
}

/*
 * A PEPPHER_HOME through a file is said once, with why: the transfer
 * model, stored beside the performance models, said it again ("cannot
 * write .../transfers: Not a directory"), where a device is measured.
 */
static void test_home_through_file_said_once(void)
{
	char *saved = strdup(getenv("PEPPHER_HOME")), *file, *under;

	CU_ASSERT_FATAL(asprintf(&file, "%s/a-file", home) > 0);
	CU_ASSERT_FATAL(asprintf(&under, "%s/under", file) > 0);
	write_file(file, "");
	setenv("PEPPHER_HOME", under, 1);
	CU_ASSERT_EQUAL(test_stderr_count(count_calls_run, "warning"), 1);
	CU_ASSERT_EQUAL(test_stderr_count(count_calls_run, ": Not a directory: performance models will not be saved"), 1);
	setenv("PEPPHER_HOME", saved, 1);
	unlink(file);
	free(under);
	free(file);
	free(saved);
}

/* The folder of a model home that cannot be written (a read-only file
 * system, another user's folder), the models there: run as a user that
 * may not write it (root: as nobody, in a child). */
static char *ro_home;
static int ro_skipped; /* root, and no user nobody to run as */

static void run_where_read_only(void)
{
	pid_t pid;
	int status;

	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		struct passwd *nobody = getpwnam("nobody");

		if (geteuid() == 0 &&
		    (!nobody || setgid(nobody->pw_gid) != 0 || setuid(nobody->pw_uid) != 0))
			_exit(77);
		setenv("PEPPHER_HOME", ro_home, 1);
		if (pph_init() != 0)
			_exit(1);
		pph_call_sync(&cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0);
		pph_shutdown();
		_exit(0);
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	CU_ASSERT_TRUE(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77));
	ro_skipped = WIFEXITED(status) && WEXITSTATUS(status) == 77;
}

/*
 * A home that cannot be written says that the model cannot be written,
 * not first that it is "merged without its lock": nothing is merged.
 */
static void test_read_only_home(void)
{
	char *saved = strdup(getenv("PEPPHER_HOME")), *dir;

	CU_ASSERT_FATAL(asprintf(&ro_home, "%s/read-only", home) > 0);
	setenv("PEPPHER_HOME", ro_home, 1);
	init_and_shutdown(); /* creates the folder */
	dir = pph__perfmodel_dir();
	setenv("PEPPHER_HOME", saved, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	/* nobody may reach it: the test's home is made 0700 */
	chmod(home, 0755);
	chmod(dir, 0555);
	CU_ASSERT_EQUAL(test_stderr_count(run_where_read_only, "cannot lock"), 0);
	/* pm_test's model and pm_declared's */
	if (test_stderr_count(run_where_read_only, "cannot write ") != 2 && !ro_skipped)
		CU_FAIL("a read-only home: cannot write, said for each model");
	if (ro_skipped)
		fprintf(stderr, "read-only home: skipped (root, and no user nobody)\n");
	chmod(dir, 0755);
	chmod(home, 0700);
	free(dir);
	free(ro_home);
	free(saved);
}

static void test_corrupt_transfers(void)
{
	char *dir = pph__perfmodel_dir(), *path;
	double lat[2], bw[2];

	CU_ASSERT_FATAL(asprintf(&path, "%s/transfers", dir) > 0);
	write_file(path, "peppher-transfers 1\nlink OPENCL 0 nan 5000 10 inf\n");
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	if (pph_worker_count_arch(PPH_ARCH_OPENCL)) {
		pph__transfer_model_get(1, lat, bw);
		CU_ASSERT_TRUE(isfinite(lat[0]) && isfinite(lat[1]));
		CU_ASSERT_TRUE(isfinite(bw[0]) && isfinite(bw[1]) && bw[0] > 0 && bw[1] > 0);
		CU_ASSERT_TRUE(isfinite(pph__transfer_time(1, 0, 1 << 20)));
	}
	pph_shutdown();
	free(path);
	free(dir);
}

/*
 * A device variant that builds a program (100 ms, counted as a one-time
 * cost) at its first run after each pph_init, then runs in 20 us, beside a
 * CPU variant of 300 us.  Once both are calibrated, a new "process" (pph_init
 * again) runs a call on the CPU: the device would gain 280 us and pay
 * 100 ms first.  Once the device has run, calls go there.
 */
static int setup_built;
static double setup_cost_us = 100000; /* what the build takes */
static atomic_int setup_device_runs;

static void spin_us(double us)
{
	double end = pph__now_us() + us;

	while (pph__now_us() < end)
		;
}

/*
 * A thread keeps the predictions it asked until their variant records
 * (struct pph_pm_ask's version): a sample or a setup recorded makes that
 * variant's answer stale and no other's, and dmda's next push sees it.
 * kept_a takes 50 us, kept_b 100; once kept_b's history says 10 us, the
 * next call runs kept_b: with the prediction kept it would run kept_a.
 */
static atomic_int kept_runs[2];

static void k_kept_a(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&kept_runs[0], 1);
	spin_us(50);
}

static void k_kept_b(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&kept_runs[1], 1);
	spin_us(100);
}

static const struct pph_impl kept_impls[] = {
	{ PPH_ARCH_CPU, k_kept_a, "kept_a", 0 },
	{ PPH_ARCH_CPU, k_kept_b, "kept_b", 0 },
};
static const struct pph_codelet kept_cl = { "pm_kept", 2, kept_impls, PPH_MODEL_HISTORY };

static void test_kept_predictions(void)
{
	struct pph_pm_ask asks[2] = { { 0, PPH_ARCH_CPU, 1, 0, 0, 0, 0, NULL, 0 },
				      { 1, PPH_ARCH_CPU, 1, 0, 0, 0, 0, NULL, 0 } };
	const uint32_t fp = PPH_FOOTPRINT_NO_DATA;
	char *path = model_file("pm_kept");
	double b_before;
	int i, a_runs;

	unlink(path);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	/* the mechanism: answers kept until their own variant changes */
	for (i = 0; i < 3; i++) {
		pph__perfmodel_record(&kept_cl, 0, PPH_ARCH_CPU, 1, fp, 0, 50);
		pph__perfmodel_record(&kept_cl, 1, PPH_ARCH_CPU, 1, fp, 0, 100);
	}
	pph__perfmodel_predict_all(&kept_cl, fp, 0, asks, 2);
	CU_ASSERT_TRUE(pph__perfmodel_ask_fresh(&asks[0]) && pph__perfmodel_ask_fresh(&asks[1]));
	CU_ASSERT_DOUBLE_EQUAL(asks[0].us, 50, 1e-9);
	pph__perfmodel_record(&kept_cl, 0, PPH_ARCH_CPU, 1, fp, 0, 56);
	CU_ASSERT_FALSE(pph__perfmodel_ask_fresh(&asks[0]));
	CU_ASSERT_TRUE(pph__perfmodel_ask_fresh(&asks[1]));
	b_before = asks[1].us;
	pph__perfmodel_predict_all(&kept_cl, fp, 0, asks, 2);
	CU_ASSERT_DOUBLE_EQUAL(asks[0].us, 51.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(asks[1].us, b_before, 1e-9);
	pph__perfmodel_record_setup(&kept_cl, 1, PPH_ARCH_CPU, 1, 0, 10);
	CU_ASSERT_FALSE(pph__perfmodel_ask_fresh(&asks[1]));
	CU_ASSERT_TRUE(pph__perfmodel_ask_fresh(&asks[0]));
	pph_shutdown();

	/* dmda: calibrated by runs, then one variant's history changes */
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	for (i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&kept_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	a_runs = atomic_load(&kept_runs[0]);
	for (i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&kept_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(atomic_load(&kept_runs[0]) - a_runs, 5);
	for (i = 0; i < 200; i++)
		pph__perfmodel_record(&kept_cl, 1, PPH_ARCH_CPU, 1, fp, 0, 1);
	CU_ASSERT_TRUE(pph__perfmodel_predict(&kept_cl, 1, PPH_ARCH_CPU, 1, fp, 0) < 25);
	a_runs = atomic_load(&kept_runs[1]);
	CU_ASSERT_EQUAL(pph_call_sync(&kept_cl, PPH_ALL_IMPLS, 0, NULL, NULL, NULL, 0), 0);
	CU_ASSERT_EQUAL(atomic_load(&kept_runs[1]) - a_runs, 1);
	pph_shutdown();
	unlink(path);
	free(path);
}

static void k_setup_cpu(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	spin_us(300);
}

static void k_setup_device(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	if (!setup_built) {
		setup_built = 1;
		pph__one_time_us += setup_cost_us; /* as if a build took that */
	}
	atomic_fetch_add(&setup_device_runs, 1);
	spin_us(20);
}

static const struct pph_impl setup_impls[] = {
	{ PPH_ARCH_CPU, k_setup_cpu, "setup_cpu", 0 },
	{ PPH_ARCH_OPENCL, k_setup_device, "setup_device", 0 },
};
static const struct pph_codelet setup_cl = { "pm_setup", 2, setup_impls, PPH_MODEL_HISTORY };

/* n synchronous calls of setup_cl under mask; returns how many ran on the device */
static int setup_calls(int n, unsigned mask)
{
	int i, before = atomic_load(&setup_device_runs);

	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(pph_call_sync(&setup_cl, mask, 0, NULL, NULL, NULL, 0), 0);
	return atomic_load(&setup_device_runs) - before;
}

static void test_device_setup(void)
{
	char *path = model_file("pm_setup");

	unlink(path);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	if (!pph_worker_count_arch(PPH_ARCH_OPENCL)) {
		pph_shutdown();
		free(path);
		return; /* no OpenCL device: nothing pays a setup */
	}
	setup_built = 0;
	CU_ASSERT_EQUAL(setup_calls(6, 1u << 0), 0);
	CU_ASSERT_EQUAL(setup_calls(6, 1u << 1), 6);
	/* built in this process: the device is the faster */
	CU_ASSERT_EQUAL(setup_calls(3, PPH_ALL_IMPLS), 3);
	pph_shutdown();
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	setup_built = 0;
	CU_ASSERT_EQUAL(setup_calls(3, PPH_ALL_IMPLS), 0);
	CU_ASSERT_EQUAL(setup_calls(1, 1u << 1), 1); /* pays it */
	CU_ASSERT_EQUAL(setup_calls(3, PPH_ALL_IMPLS), 3);
	pph_shutdown();
	free(path);
}

/*
 * A device variant whose setup is known (its program built in an earlier
 * process), not calibrated, is not tried where a call takes less than its
 * setup on a calibrated choice: it could not be chosen at a process's
 * first call (the setup is charged then), and each try would pay the setup
 * again, process after process (the ODE solver's ode_sum, 15 us once a
 * run, paid a 25 ms build in each of its first timed runs).  With a setup
 * below a call's 300 us on the CPU, it is tried.
 */
static void test_setup_not_paid_to_try(void)
{
	char *path = model_file("pm_setup");
	double costs[2] = { 100000, 100 };
	int k, n;

	for (k = 0; k < 2; k++) {
		unlink(path);
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		if (!pph_worker_count_arch(PPH_ARCH_OPENCL)) {
			pph_shutdown();
			break; /* no OpenCL device: nothing pays a setup */
		}
		setup_cost_us = costs[k];
		setup_built = 0;
		/* built once: its setup is known, its run a warm-up */
		CU_ASSERT_EQUAL(setup_calls(1, 1u << 1), 1);
		CU_ASSERT_EQUAL(setup_calls(6, 1u << 0), 0);
		pph_shutdown();
		CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
		setup_built = 0;
		n = setup_calls(6, PPH_ALL_IMPLS);
		CU_ASSERT_TRUE(k == 0 ? n == 0 : n >= 1);
		pph_shutdown();
	}
	setup_cost_us = 100000;
	free(path);
}

/*
 * Short runs calibrate on the runs after a process's first.  "lazy" pays
 * 3 ms at its first run of a process (a library's lazy start), then takes
 * 20 us; three others take 300 us.  Each process makes 3 calls, fewer than
 * there are variants: trying each once per run, as dmda used to, saved
 * lazy's first runs alone, 3 ms, and dmda never chose it again.
 */
static int lazy_started; /* in this process */
static atomic_int lazy_runs;

static void k_lazy(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&lazy_runs, 1);
	spin_us(lazy_started++ ? 20 : 3000);
}

static void k_steady(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	spin_us(300);
}

static const struct pph_impl lazy_impls[] = {
	{ PPH_ARCH_CPU, k_lazy, "lazy", 0 },
	{ PPH_ARCH_CPU, k_steady, "steady_b", 0 },
	{ PPH_ARCH_CPU, k_steady, "steady_c", 0 },
	{ PPH_ARCH_CPU, k_steady, "steady_d", 0 },
};
static const struct pph_codelet lazy_cl = { "pm_lazy_start", 4, lazy_impls,
					    PPH_MODEL_HISTORY };

/* A process making n calls of the variants in mask; its exit status: how
 * many ran lazy. */
static int lazy_process(int n, unsigned mask)
{
	pid_t pid = fork();
	int i, status;

	if (pid == 0) {
		if (pph_init() != 0)
			_exit(255);
		for (i = 0; i < n; i++)
			if (pph_call_sync(&lazy_cl, mask, 0, NULL, NULL, NULL, 0) != 0)
				_exit(255);
		pph_shutdown();
		_exit(atomic_load(&lazy_runs));
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The stored history of variant (its one entry); count 0 if none. */
static struct pph_pm_entry stored(const char *path, const char *variant)
{
	struct pph_pm_model *m = pph__perfmodel_read(path);
	const struct pph_pm_variant *v;
	struct pph_pm_entry e = { 0 };

	for (v = m ? m->variants : NULL; v; v = v->next)
		if (strcmp(v->name, variant) == 0 && v->entries)
			e = *v->entries;
	pph__perfmodel_free(m);
	return e;
}

/* The stored mean of variant, or -1 while it has fewer than 3 samples. */
static double stored_mean(const char *path, const char *variant)
{
	struct pph_pm_entry e = stored(path, variant);

	return e.count >= PPH_CALIBRATION_MIN ? e.mean : -1;
}

static void test_short_runs_calibrate(void)
{
	char *path = model_file("pm_lazy_start");
	int runs;

	unlink(path);
	setenv("PEPPHER_TINY_US", "0", 1);
	for (runs = 0; runs < 24; runs++) {
		if (stored_mean(path, "lazy") >= 0 && stored_mean(path, "steady_b") >= 0 &&
		    stored_mean(path, "steady_c") >= 0 && stored_mean(path, "steady_d") >= 0)
			break;
		CU_ASSERT_NOT_EQUAL(lazy_process(3, PPH_ALL_IMPLS), 255);
	}
	CU_ASSERT_TRUE(runs < 24);
	/* its later runs: 20 us and the machine's jitter, not 3 ms */
	CU_ASSERT_TRUE(stored_mean(path, "lazy") >= 0 && stored_mean(path, "lazy") < 300);
	if (stored_mean(path, "lazy") >= 300)
		fprintf(stderr, "lazy start: calibrated at %.0f us\n", stored_mean(path, "lazy"));
	/* and it is chosen: its first run is slow, but no other is */
	CU_ASSERT_EQUAL(lazy_process(6, PPH_ALL_IMPLS), 6);
	unsetenv("PEPPHER_TINY_US");
	free(path);
}

/*
 * A slowed run among a history's first samples, each a process's only run
 * (a call made once per run), is left out when a later such run comes: 20
 * ms and 130 us stored, then a process's only run of 130 us.  Kept, it
 * gave a mean of 6.8 ms over 3 samples: calibrated, and shut out.
 */
static void test_slowed_first_run_merged(void)
{
	static const struct pph_impl li[] = { { PPH_ARCH_CPU, k_noop, "lone", 0 } };
	static const struct pph_codelet lc = { "pm_lone", 1, li, PPH_MODEL_HISTORY };
	char *path = model_file("pm_lone");
	struct pph_pm_entry e;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0); /* creates the folder */
	pph_shutdown();
	/* samples 20000 and 130: mean 10065, M2 2 * 9935^2 */
	write_file(path, "peppher-perfmodel 1\ncodelet pm_lone\nvariant lone CPU\n"
			 "entry 00000001 100 2 10065 197408450 0 2 20000\n");
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	pph__perfmodel_record_run(&lc, 0, PPH_ARCH_CPU, 1, 1, 100, 130, 0, 0);
	pph_shutdown();
	e = stored(path, "lone");
	CU_ASSERT_EQUAL(e.count, 2);
	CU_ASSERT_EQUAL(e.outliers, 1);
	CU_ASSERT_EQUAL(e.firsts, 2);
	CU_ASSERT_DOUBLE_EQUAL(e.mean, 130, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(e.slowest, 130, 1e-6);
	unlink(path);
	free(path);
}

/* A process's only run is kept apart from a history of later runs: lazy
 * run once (3 ms, the history's only sample), then 3 times (a warm-up,
 * then two runs of 20 us, which replace it), then once again (left out,
 * counted as an outlier). */
static void test_first_runs_apart(void)
{
	char *path = model_file("pm_lazy_start");
	struct pph_pm_entry e;

	unlink(path);
	setenv("PEPPHER_TINY_US", "0", 1);
	CU_ASSERT_EQUAL(lazy_process(1, 1u << 0), 1);
	e = stored(path, "lazy");
	CU_ASSERT_TRUE(e.count == 1 && e.firsts == 1 && e.mean >= 3000);
	CU_ASSERT_EQUAL(lazy_process(3, 1u << 0), 3);
	e = stored(path, "lazy");
	CU_ASSERT_TRUE(e.count == 2 && e.firsts == 0 && e.mean < 300);
	CU_ASSERT_EQUAL(lazy_process(1, 1u << 0), 1);
	e = stored(path, "lazy");
	CU_ASSERT_TRUE(e.count == 2 && e.firsts == 0 && e.outliers == 1 && e.mean < 300);
	/* a call made once per run keeps its first runs: they are alike */
	CU_ASSERT_EQUAL(lazy_process(1, 1u << 1), 0);
	CU_ASSERT_EQUAL(lazy_process(1, 1u << 1), 0);
	e = stored(path, "steady_b");
	CU_ASSERT_TRUE(e.count == 2 && e.firsts == 2 && e.mean >= 300);
	unsetenv("PEPPHER_TINY_US");
	free(path);
}

/* Two sizes whose 32-bit footprints collide (n = 4191 and 549660 floats of
 * one buffer) keep their own histories: they were one, mixing 30 us runs
 * with 4 ms ones. */
static void test_footprint_collision(void)
{
	static const struct pph_impl ci[] = { { PPH_ARCH_CPU, k_noop, "collide", 0 } };
	static const struct pph_codelet cc = { "pm_collide", 1, ci, PPH_MODEL_HISTORY };
	const uint32_t fp = 0x8880b79a;
	unsigned k;

	for (k = 0; k < PPH_CALIBRATION_MIN + 2; k++) {
		pph__perfmodel_record(&cc, 0, PPH_ARCH_CPU, 1, fp, 16764, 30);
		pph__perfmodel_record(&cc, 0, PPH_ARCH_CPU, 1, fp, 2198640, 4000);
	}
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&cc, 0, PPH_ARCH_CPU, 1, fp, 16764), 30, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(pph__perfmodel_predict(&cc, 0, PPH_ARCH_CPU, 1, fp, 2198640), 4000,
			       1e-9);
	CU_ASSERT_EQUAL(pph__perfmodel_samples(&cc, 0, PPH_ARCH_CPU, 1, fp, 16764),
			PPH_CALIBRATION_MIN + 2);
	CU_ASSERT_EQUAL(pph__perfmodel_tries(&cc, 0, PPH_ARCH_CPU, 1, fp, 2198640, NULL, NULL),
			PPH_CALIBRATION_MIN + 2);
}

static void read_cut_short(void)
{
	CU_ASSERT_PTR_NULL(pph__perfmodel_read("pm_cut.model"));
}

/* A file edited elsewhere (CRLF, blanks at ends of lines, an entry written
 * twice) keeps its samples; one cut short is said to be. */
static void test_edited_files(void)
{
	struct pph_pm_model *m;

	write_file("pm_crlf.model", "peppher-perfmodel 1\r\ncodelet pm_crlf \r\nvariant v CPU\r\n"
				    "entry 1 8 3 2 0 0 1\r\nentry 1 8 2 4 0 1  \r\n");
	m = pph__perfmodel_read("pm_crlf.model");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_STRING_EQUAL(m->codelet, "pm_crlf");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->variants);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->variants->entries);
	CU_ASSERT_PTR_NULL(m->variants->entries->next);
	CU_ASSERT_EQUAL(m->variants->entries->count, 5);
	CU_ASSERT_DOUBLE_EQUAL(m->variants->entries->mean, 2.8, 1e-12);
	CU_ASSERT_EQUAL(m->variants->entries->outliers, 1);
	CU_ASSERT_EQUAL(m->variants->entries->firsts, 1);
	pph__perfmodel_free(m);
	unlink("pm_crlf.model");
	write_file("pm_cut.model", "peppher-perfmodel 1\ncodelet pm_cut\nvariant v CPU\nentry 1 8 3 2 0");
	CU_ASSERT_EQUAL(test_stderr_count(read_cut_short, "pm_cut.model:4: cut short"), 1);
	unlink("pm_cut.model");
}

/* PEPPHER_CALIBRATE=2 drops what was stored before the process, not what
 * other processes store while it runs (it wrote its own samples over
 * theirs). */
static void test_reset_keeps_others(void)
{
	static const struct pph_impl ri[] = { { PPH_ARCH_CPU, k_noop, "reset_v", 0 } };
	static const struct pph_codelet rc = { "pm_reset", 1, ri, PPH_MODEL_HISTORY };
	char *path = model_file("pm_reset");
	unsigned k;

	CU_ASSERT_EQUAL_FATAL(pph_init(), 0); /* creates the folder */
	pph_shutdown();
	write_file(path, "peppher-perfmodel 1\ncodelet pm_reset\nvariant reset_v CPU\n"
			 "entry 1 8 10 2 0 0\n");
	setenv("PEPPHER_CALIBRATE", "2", 1);
	CU_ASSERT_EQUAL_FATAL(pph_init(), 0);
	for (k = 0; k < 3; k++)
		pph__perfmodel_record(&rc, 0, PPH_ARCH_CPU, 1, 1, 8, 5);
	CU_ASSERT_FALSE(exists(path)); /* reset at its first use */
	/* another process stores 4 samples meanwhile */
	write_file(path, "peppher-perfmodel 1\ncodelet pm_reset\nvariant reset_v CPU\n"
			 "entry 1 8 4 5 0 0\n");
	pph_shutdown();
	unsetenv("PEPPHER_CALIBRATE");
	CU_ASSERT_EQUAL(total_count(path, "reset_v"), 3 + 4);
	unlink(path);
	free(path);
}

int main(void)
{
	CU_pSuite s;
	int failed;

	if (!(home = test_home_begin("pm")))
		return 1;
	setenv("PEPPHER_NCPU", "2", 1);
	unsetenv("PEPPHER_CALIBRATE");
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("perfmodel", NULL, NULL);
	CU_add_test(s, "model kinds", test_model_kinds);
	CU_add_test(s, "file round trip", test_round_trip);
	CU_add_test(s, "corrupt files are refused", test_corrupt);
	CU_add_test(s, "corrupt stored model at init", test_corrupt_at_init);
	CU_add_test(s, "concurrent writers", test_concurrent_writers);
	CU_add_test(s, "a call made once per run is calibrated", test_once_per_run);
	CU_add_test(s, "outliers leave the mean alone", test_outliers);
	CU_add_test(s, "a slowed run among the first is left out", test_early_outlier);
	CU_add_test(s, "one slowed run never decides, at any count", test_slowed_sample_any_count);
	CU_add_test(s, "short runs calibrate on later runs", test_short_runs_calibrate);
	CU_add_test(s, "first runs are kept apart from later ones", test_first_runs_apart);
	CU_add_test(s, "a slowed first run is left out of those merged",
		    test_slowed_first_run_merged);
	CU_add_test(s, "regression predicts unseen sizes", test_regression);
	CU_add_test(s, "a slowed run at a size measured once is not kept", test_slowed_run_not_kept);
	CU_add_test(s, "a call's work keys its model", test_work);
	CU_add_test(s, "team sizes keep their own histories", test_team_sizes_apart);
	CU_add_test(s, "a size run again is calibrated", test_recurring_size_calibrated);
	CU_add_test(s, "footprints tell shapes apart", test_footprint_shapes);
	CU_add_test(s, "sizes whose footprints collide keep apart", test_footprint_collision);
	CU_add_test(s, "edited model files keep their samples", test_edited_files);
	CU_add_test(s, "PEPPHER_CALIBRATE=2 keeps what others store meanwhile",
		    test_reset_keeps_others);
	CU_add_test(s, "footprint of a task without data", test_footprint_no_data);
	CU_add_test(s, "predictions kept until their variant records", test_kept_predictions);
	CU_add_test(s, "a corrupt model is reported once", test_corrupt_warned_once);
	CU_add_test(s, "a corrupt model is kept aside", test_corrupt_kept_aside);
	CU_add_test(s, "a model that is a directory or holds a NUL says so",
		    test_model_cause_said);
	CU_add_test(s, "a lock that cannot be made is said", test_lock_unusable_said);
	CU_add_test(s, "a declared codelet's model loads at init", test_declared_loads_at_init);
	CU_add_test(s, "absurd predictions still place tasks", test_absurd_predictions);
	CU_add_test(s, "codelet names stay in the models folder", test_path_escape);
	CU_add_test(s, "a model of 200,000 sizes loads quickly", test_big_model);
	CU_add_test(s, "stale temporary files are removed", test_stale_tmp);
	CU_add_test(s, "a bogus HOME creates no folder", test_bogus_home);
	CU_add_test(s, "corrupt transfer model", test_corrupt_transfers);
	CU_add_test(s, "a PEPPHER_HOME through a file is said once",
		    test_home_through_file_said_once);
	CU_add_test(s, "a read-only home says what it cannot do", test_read_only_home);
	CU_add_test(s, "a device's setup is predicted", test_device_setup);
	CU_add_test(s, "a device's setup is not paid to try a short call",
		    test_setup_not_paid_to_try);
	failed = test_run_registry();
	pph__perfmodel_shutdown();
	if (test_home_end() != 0)
		failed = 1;
	return failed;
}
