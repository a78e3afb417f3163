/*
 * libpeppher loaded and unloaded with dlopen/dlclose, as a plugin or
 * Python's ctypes does (threads.c): the library loads without
 * GLIBC_TUNABLES (its initial-exec TLS fits glibc's static TLS surplus).
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#ifndef LIBPEPPHER_SO
#error LIBPEPPHER_SO: the built libpeppher.so.0 (Makefile.am)
#endif

/*
 * What libpeppher may take of static TLS.  glibc leaves a library loaded
 * by dlopen a surplus of about 1.7 KiB, shared with every other such
 * library (OpenMP runtimes, BLAS, a Python process's extension modules):
 * beyond this, data read on every task should go in struct pph_thread.
 */
#define TLS_BUDGET 256


static int loaded(void)
{
	void *h = dlopen("libpeppher.so.0", RTLD_NOW | RTLD_NOLOAD);

	if (h)
		dlclose(h);
	return h != NULL;
}

static int find_tls(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	if (!strstr(info->dlpi_name, "libpeppher.so"))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_TLS)
			*(size_t *)data = info->dlpi_phdr[i].p_memsz;
	return 1;
}

static void test_dlopen_library(void)
{
	int i;

	CU_ASSERT_FALSE_FATAL(loaded());
	for (i = 0; i < 3; i++) {
		void *h = dlopen(LIBPEPPHER_SO, RTLD_NOW | RTLD_LOCAL);
		int (*init)(void);
		void (*shutdown)(void);
		size_t tls = 0;

		if (!h)
			fprintf(stderr, "dlopen: %s\n", dlerror());
		CU_ASSERT_PTR_NOT_NULL_FATAL(h);
		dl_iterate_phdr(find_tls, &tls);
		if (tls > TLS_BUDGET)
			fprintf(stderr, "libpeppher's static TLS: %zu bytes, more than %d\n", tls,
				TLS_BUDGET);
		CU_ASSERT(tls > 0 && tls <= TLS_BUDGET);
		init = (int (*)(void))dlsym(h, "pph_init");
		shutdown = (void (*)(void))dlsym(h, "pph_shutdown");
		CU_ASSERT_PTR_NOT_NULL_FATAL(init);
		CU_ASSERT_PTR_NOT_NULL_FATAL(shutdown);
		CU_ASSERT_EQUAL(init(), 0);
		shutdown();
		CU_ASSERT_EQUAL(dlclose(h), 0);
		CU_ASSERT_FALSE(loaded());
	}
}

int main(int argc, char **argv)
{
	CU_pSuite s;
	unsigned failures;

	(void)argc;
	if (getenv("GLIBC_TUNABLES")) {
		/* they may enlarge the surplus; read at start: run again */
		unsetenv("GLIBC_TUNABLES");
		execv("/proc/self/exe", argv);
		return 1;
	}
	/* devices only where asked for: their drivers loaded and unloaded too */
	setenv("PEPPHER_NOPENCL", "0", 0);
	setenv("PEPPHER_NCUDA", "0", 0);
	setenv("PEPPHER_NCPU", "2", 0);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("dlopen and dlclose", NULL, NULL);
	CU_add_test(s, "libpeppher.so dlopened without tunables, its static TLS small",
		    test_dlopen_library);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
