#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

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
