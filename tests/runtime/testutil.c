#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "testutil.h"

static char home[64];

const char *test_home_begin(const char *name)
{
	snprintf(home, sizeof(home), "/tmp/peppher-%s-XXXXXX", name);
	if (!mkdtemp(home) || setenv("PEPPHER_HOME", home, 1) != 0)
		return NULL;
	return home;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int test_home_end(void)
{
	return home[0] && nftw(home, remove_entry, 8, FTW_DEPTH | FTW_PHYS) != 0 ? -1 : 0;
}

int test_run_registry(void)
{
	int failed;

	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() != 0 || CU_get_error() != CUE_SUCCESS;
	CU_cleanup_registry();
	return failed;
}

int test_stderr_count(void (*fn)(void), const char *needle)
{
	char path[] = "/tmp/peppher-stderr-XXXXXX", line[1024];
	int fd = mkstemp(path), saved = dup(2), n = 0;
	FILE *fp;

	CU_ASSERT_FATAL(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		n += strstr(line, needle) != NULL;
		fputs(line, stderr); /* still shown */
	}
	if (fp)
		fclose(fp);
	unlink(path);
	return n;
}

void expect_transfers(unsigned long to_dev, unsigned long long bytes_to_dev,
		      unsigned long to_host, unsigned long long bytes_to_host, int line)
{
	struct pph_transfer_stats s;

	pph_transfer_stats_get(&s);
	if (s.to_device != to_dev || s.bytes_to_device != bytes_to_dev ||
	    s.to_host != to_host || s.bytes_to_host != bytes_to_host)
		fprintf(stderr, "line %d: transfers %lu (%llu B) to device, %lu (%llu B) to host\n",
			line, s.to_device, s.bytes_to_device, s.to_host, s.bytes_to_host);
	CU_ASSERT_EQUAL(s.to_device, to_dev);
	CU_ASSERT_EQUAL(s.bytes_to_device, bytes_to_dev);
	CU_ASSERT_EQUAL(s.to_host, to_host);
	CU_ASSERT_EQUAL(s.bytes_to_host, bytes_to_host);
}

void test_contributions_from_identity(const struct pph_codelet *cl)
{
	enum { K = 16 };
	int v[K], k;
	pph_data_handle h;
	enum pph_access redux = PPH_REDUX;

	for (k = 0; k < K; k++)
		v[k] = 1000 + k;
	pph_vector_register(&h, v, K, sizeof(int));
	pph_data_set_reduction(h, pph_reduction_builtin(PPH_REDUCTION_SUM, PPH_TYPE_INT));
	pph_transfer_stats_reset();
	for (k = 0; k < K; k++)
		CU_ASSERT_EQUAL(pph_call_async(cl, PPH_ALL_IMPLS, 1, &h, &redux, &k, sizeof(k)), 0);
	pph_data_unregister(h);
	for (k = 0; k < K; k++)
		CU_ASSERT_EQUAL(v[k], 1000 + k + k + 1);
	expect_transfers(K, K * sizeof(v), K, K * sizeof(v), __LINE__);
}
