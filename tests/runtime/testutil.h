/* What every runtime test program does around its CUnit suites. */
#ifndef TESTS_RUNTIME_TESTUTIL_H
#define TESTS_RUNTIME_TESTUTIL_H

#include <peppher/runtime.h>

/*
 * Make a fresh folder /tmp/peppher-NAME-XXXXXX and set PEPPHER_HOME to it:
 * the performance models of this run only, whatever the environment says.
 * Returns its path (valid until test_home_end()), or NULL.
 */
const char *test_home_begin(const char *name);

/* Remove that folder and everything in it.  Returns 0 or -1. */
int test_home_end(void);

/* Run the registered suites verbosely and clean the registry up.
 * Returns 1 when a test failed or CUnit reported an error, else 0. */
int test_run_registry(void);

/* Assert this run's transfer counts and bytes since the last
 * pph_transfer_stats_reset(), saying them with line where they differ. */
void expect_transfers(unsigned long to_dev, unsigned long long bytes_to_dev,
		      unsigned long to_host, unsigned long long bytes_to_host, int line);

/* K calls of cl contributing to a sum over a vector of K ints, call k
 * given k as its argument and writing (k + 1) into its accumulator's
 * element k alone, on a device: the other elements must hold the identity
 * (0) there, set on the host and copied in.  Asserts the sums, and the
 * accumulators' copies: each in and home. */
void test_contributions_from_identity(const struct pph_codelet *cl);

/* Run fn with stderr going to a file; return how many lines of what it
 * printed hold needle (the lines are shown on stderr afterwards). */
int test_stderr_count(void (*fn)(void), const char *needle);

#endif
