/*
 * Submission when memory runs out: a dependency edge that cannot be
 * allocated makes the submitting thread wait for the task it depends on
 * instead, and the order still holds.  This program's malloc fails, on the
 * submitting thread only, while `failing` is set (the runtime's calls
 * reach it: malloc is not one of libpeppher's own functions).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>

#include "perfmodel.h"
#include "testutil.h"

extern void *__libc_malloc(size_t size);

extern void *__libc_calloc(size_t n, size_t size);

static __thread int failing;
static __thread unsigned failed;
/* else, the allocation of this thread to fail: 1 the next, 0 none */
static __thread unsigned fail_in;

static int fails(void)
{
	if (failing || (fail_in && --fail_in == 0)) {
		failed++;
		errno = ENOMEM; /* as malloc sets it */
		return 1;
	}
	return 0;
}

void *malloc(size_t size)
{
	return fails() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fails() ? NULL : __libc_calloc(n, size);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* slow writer: 0 -> 1, after a while */
static void slow_write(void *b[], void *arg)
{
	long *v = PPH_VARIABLE_PTR(b[0]);

	(void)arg;
	sleep_ms(30);
	*v = *v == 0 ? 1 : -1;
}

/* writer: records what it found, writes 2 */
static long seen;
static void then_write(void *b[], void *arg)
{
	long *v = PPH_VARIABLE_PTR(b[0]);

	(void)arg;
	seen = *v;
	*v = 2;
}

/* slow reader: says when it is done */
static atomic_int reader_done;
static void slow_read(void *b[], void *arg)
{
	(void)b;
	(void)arg;
	sleep_ms(30);
	atomic_store(&reader_done, 1);
}

/* writer after the reader: records whether the reader was done */
static int reader_was_done;
static void write_after_read(void *b[], void *arg)
{
	(void)arg;
	reader_was_done = atomic_load(&reader_done);
	*(long *)PPH_VARIABLE_PTR(b[0]) = 3;
}

static const struct pph_impl slow_write_impls[] = { { PPH_ARCH_CPU, slow_write, "c", 0 } };
static const struct pph_codelet slow_write_cl = { "oom_slow_write", 1, slow_write_impls,
						  PPH_MODEL_DEFAULT };
static const struct pph_impl then_write_impls[] = { { PPH_ARCH_CPU, then_write, "c", 0 } };
static const struct pph_codelet then_write_cl = { "oom_then_write", 1, then_write_impls,
						  PPH_MODEL_DEFAULT };
static const struct pph_impl slow_read_impls[] = { { PPH_ARCH_CPU, slow_read, "c", 0 } };
static const struct pph_codelet slow_read_cl = { "oom_slow_read", 1, slow_read_impls,
						 PPH_MODEL_DEFAULT };
static const struct pph_impl war_impls[] = { { PPH_ARCH_CPU, write_after_read, "c", 0 } };
static const struct pph_codelet war_cl = { "oom_write_after_read", 1, war_impls,
					   PPH_MODEL_DEFAULT };

/* Submit a detached task on h with every malloc of this thread failing;
 * returns how many failed. */
static unsigned submit_failing(const struct pph_codelet *cl, pph_data_handle h,
			       enum pph_access mode)
{
	struct pph_task *t = pph_task_create(cl);
	unsigned n;
	int rc;

	pph_task_add_buffer(t, h, mode);
	pph_task_set_detached(t, 1);
	failed = 0;
	failing = 1;
	rc = pph_task_submit(t);
	failing = 0;
	n = failed;
	CU_ASSERT_EQUAL(rc, 0);
	return n;
}

static void submit(const struct pph_codelet *cl, pph_data_handle h, enum pph_access mode)
{
	struct pph_task *t = pph_task_create(cl);

	pph_task_add_buffer(t, h, mode);
	pph_task_set_detached(t, 1);
	CU_ASSERT_EQUAL(pph_task_submit(t), 0);
}

/* The edge to the last writer cannot be allocated. */
static void test_writer_after_writer(void)
{
	long v = 0;
	pph_data_handle h;

	pph_variable_register(&h, &v, sizeof(v));
	seen = -1;
	submit(&slow_write_cl, h, PPH_RW);
	CU_ASSERT(submit_failing(&then_write_cl, h, PPH_RW) >= 1);
	pph_task_wait_all();
	CU_ASSERT_EQUAL(seen, 1);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(v, 2);
}

/* The edge to an unfinished reader cannot be allocated. */
static void test_writer_after_reader(void)
{
	long v = 0;
	pph_data_handle h;

	pph_variable_register(&h, &v, sizeof(v));
	atomic_store(&reader_done, 0);
	reader_was_done = -1;
	submit(&slow_read_cl, h, PPH_R);
	CU_ASSERT(submit_failing(&war_cl, h, PPH_W) >= 1);
	pph_task_wait_all();
	CU_ASSERT_EQUAL(reader_was_done, 1);
	pph_data_unregister(h);
	CU_ASSERT_EQUAL(v, 3);
}

/*
 * Memory that runs out while a valid stored model is read says so, not
 * that the file is corrupt (a fresh model started over a good file was
 * blamed on the file).  Each allocation of the read fails in turn.
 */
static const char *model_path = "oom_read.model";
static unsigned read_failing_at;
static int read_whole, none_failed;

static void read_failing(void)
{
	struct pph_pm_model *m;

	fail_in = read_failing_at;
	m = pph__perfmodel_read(model_path);
	none_failed = fail_in != 0; /* fewer allocations than that */
	fail_in = 0;
	read_whole = m != NULL;
	pph__perfmodel_free(m);
}

static void test_model_read_oom(void)
{
	FILE *fp = fopen(model_path, "w");
	unsigned said = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs("peppher-perfmodel 1\ncodelet oom\nvariant a CPU\nentry 1 8 3 2 1 0 1\n"
	      "entry 2 16 3 2 1 0 1\nvariant b OPENCL\nsetup 5\nentry 1 8 3 2 1 0 1\n",
	      fp);
	fclose(fp);
	for (read_failing_at = 1; read_failing_at < 1000; read_failing_at++) {
		int n = test_stderr_count(read_failing, "out of memory") +
			test_stderr_count(read_failing, "Cannot allocate memory");

		CU_ASSERT_EQUAL(test_stderr_count(read_failing, "corrupt"), 0);
		if (none_failed)
			break;
		/* a failure the read gets over (stdio's buffer) or said */
		CU_ASSERT(read_whole || n == 1);
		said += n;
	}
	CU_ASSERT_TRUE(none_failed && read_whole); /* the file is fine */
	CU_ASSERT(said >= 4); /* the file opened, the model, a variant, an entry */
	unlink(model_path);
}

int main(void)
{
	CU_pSuite s;
	unsigned failures;

	setenv("PEPPHER_NOPENCL", "0", 1);
	setenv("PEPPHER_NCUDA", "0", 1);
	setenv("PEPPHER_NCPU", "2", 0);
	if (pph_init() != 0)
		return 1;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("out of memory at submission", NULL, NULL);
	CU_add_test(s, "writer after a writer", test_writer_after_writer);
	CU_add_test(s, "writer after a reader", test_writer_after_reader);
	CU_add_test(s, "a model read when memory runs out is not called corrupt",
		    test_model_read_oom);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures();
	CU_cleanup_registry();
	pph_shutdown();
	return failures ? 1 : 0;
}
