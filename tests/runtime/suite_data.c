/* Unit tests of runtime/data.c: handles and their partitions. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include <CUnit/Basic.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

#include "suites.h"
#include "testutil.h"

/* m[i][j] += 100 * i + j over the rows x cols block */
static void k_matrix(void *buffers[], void *arg)
{
	int *m = PPH_MATRIX_PTR(buffers[0]);
	size_t i, j, ld = PPH_MATRIX_LD(buffers[0]);

	(void)arg;
	for (i = 0; i < PPH_MATRIX_ROWS(buffers[0]); i++)
		for (j = 0; j < PPH_MATRIX_COLS(buffers[0]); j++)
			m[i * ld + j] += (int)(100 * i + j);
}

static const struct pph_impl matrix_impls[] = { { PPH_ARCH_CPU, k_matrix, "matrix" } };
static const struct pph_codelet matrix_cl = { "matrix", 1, matrix_impls, PPH_MODEL_DEFAULT };

static void test_matrix_block(void)
{
	int m[6][8] = { { 0 } }, ok = 1;
	pph_data_handle h;
	enum pph_access mode = PPH_RW;
	size_t i, j;

	CU_ASSERT_EQUAL(pph_matrix_register(&h, m, 3, 9, 8, sizeof(int)), -EINVAL);
	/* the 3 x 4 block at row 2, column 3 of a 6 x 8 matrix */
	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&h, &m[2][3], 3, 4, 8, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_call_sync(&matrix_cl, PPH_ALL_IMPLS, 1, &h, &mode, NULL, 0), 0);
	pph_data_unregister(h);
	for (i = 0; i < 6; i++)
		for (j = 0; j < 8; j++) {
			int in = i >= 2 && i < 5 && j >= 3 && j < 7;

			ok &= m[i][j] == (in ? (int)(100 * (i - 2) + (j - 3)) : 0);
		}
	CU_ASSERT_TRUE(ok);
}

void add_data_tests(CU_pSuite s)
{
	CU_add_test(s, "matrix block with a leading dimension", test_matrix_block);
}
