/*
 * A variant that fails on libpeppher-starpu-mpi (fail.sh).
 *
 * test_fail abort failed|error: under mpirun, a call on each rank's own
 * data (a raw pointer: every rank runs it) whose variant fails on rank 1
 * only, with pph_variant_failed() or pph_variant_error().  The ranks would
 * disagree from there on: the job must end, every rank with a non-zero
 * status, rank 1 saying which call failed; "rank R: went on" is printed
 * by a rank that was not stopped.
 *
 * test_fail single: started without mpirun (one rank), a failure is the
 * call's as on libpeppher-starpu: counted, the variant disabled, the next
 * one runs; two asynchronous calls that fail are both counted by the time
 * a host read of their data returns.  Prints "single: N checks, F failed".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <peppher/containers.h>
#include <peppher/distributed.h>
#include <peppher/wrappers.h>

static int failures, checks;
static int fail_rank; /* the rank whose "flaky" variant fails */
static const char *fail_how = "failed";

#define CHECK(cond)                                                                         \
	do {                                                                                \
		checks++;                                                                   \
		if (!(cond)) {                                                              \
			failures++;                                                         \
			printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
		}                                                                           \
	} while (0)

static void flaky(void *buffers[], void *arg)
{
	double *x = PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	if (pph_mpi_rank() == fail_rank) {
		if (strcmp(fail_how, "error") == 0)
			pph_variant_error("test: fails on this rank");
		else
			pph_variant_failed();
		return;
	}
	x[0] += 1;
}

static void steady(void *buffers[], void *arg)
{
	double *x = PPH_VECTOR_PTR(buffers[0]);

	(void)arg;
	x[0] += 10;
}

static void erring(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	pph_variant_error("test: this call fails");
}

static const struct pph_impl flaky_impls[] = {
	{ PPH_ARCH_CPU, flaky, "flaky", 0 },
	{ PPH_ARCH_CPU, steady, "steady", 0 },
};
static const struct pph_codelet flaky_cl = { "test_flaky", 2, flaky_impls, PPH_MODEL_HISTORY };
static const struct pph_impl erring_impls[] = { { PPH_ARCH_CPU, erring, "erring", 0 } };
static const struct pph_codelet erring_cl = { "test_erring", 1, erring_impls, PPH_MODEL_HISTORY };

static const enum pph_access rw[1] = { PPH_RW };

static void abort_job(void)
{
	double x[2] = { 0, 0 };
	pph_vector *v = pph_vector_create_double(4);
	pph_data_handle h, hv = v ? pph_container_use(&v->c, PPH_RW) : NULL;

	fail_rank = 1;
	CHECK(pph_vector_register(&h, x, 2, sizeof(double)) == 0);
	/* flaky only: every rank runs it, rank 1's fails */
	pph_call_sync(&flaky_cl, 1u, 1, &h, rw, NULL, 0);
	/* what the job hung in: calls on data owned by one rank, host reads */
	pph_call_async(&flaky_cl, PPH_ALL_IMPLS, 1, &hv, rw, NULL, 0);
	CHECK(v && PPH_VECTOR_GET(v, double, 0) >= 0);
	pph_data_unregister(h);
	pph_vector_destroy(v);
	printf("rank %d: went on\n", pph_mpi_rank());
}

static void single(void)
{
	double x[2] = { 0, 0 };
	pph_vector *v = pph_vector_create_double(4);
	pph_data_handle h, hv = v ? pph_container_use(&v->c, PPH_RW) : NULL;
	unsigned long failed = pph_failed_calls();
	int round;

	fail_rank = 0;
	CHECK(pph_mpi_size() == 1);
	CHECK(pph_vector_register(&h, x, 2, sizeof(double)) == 0);
	/* flaky fails: disabled, no other variant allowed: the call fails */
	CHECK(pph_call_sync(&flaky_cl, 1u, 1, &h, rw, NULL, 0) != 0);
	CHECK(x[0] == 0);
	/* the next variant runs */
	CHECK(pph_call_sync(&flaky_cl, PPH_ALL_IMPLS, 1, &h, rw, NULL, 0) == 0);
	CHECK(x[0] == 10);
	pph_data_unregister(h);
	/* asynchronous failures, counted before the host read returns */
	for (round = 0; v && round < 50; round++) {
		failed = pph_failed_calls();
		CHECK(pph_call_async(&erring_cl, PPH_ALL_IMPLS, 1, &hv, rw, NULL, 0) == 0);
		CHECK(pph_call_async(&erring_cl, PPH_ALL_IMPLS, 1, &hv, rw, NULL, 0) == 0);
		CHECK(PPH_VECTOR_GET(v, double, 0) == 0);
		CHECK(pph_failed_calls() - failed == 2);
		hv = pph_container_use(&v->c, PPH_RW);
	}
	pph_vector_destroy(v);
	printf("single: %d checks, %d failed\n", checks, failures);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "single";

	if (argc > 2)
		fail_how = argv[2];
	if (pph_init() != 0)
		return 2;
	if (strcmp(mode, "abort") == 0)
		abort_job();
	else
		single();
	pph_shutdown();
	return failures ? 1 : 0;
}
