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

#include "internal.h"
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

static const struct pph_impl matrix_impls[] = { { PPH_ARCH_CPU, k_matrix, "matrix", 0 } };
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

/* A 7 x 10 matrix in 3 x 4 tiles: a 3 x 3 grid whose last row and column
 * are smaller; each tile changed by its own task, gathered on untiling. */
static void test_matrix_tiles(void)
{
	int m[7][10] = { { 0 } }, ok = 1;
	pph_data_handle h, t[9], extra[9];
	enum pph_access mode = PPH_RW;
	size_t i, j, k;

	CU_ASSERT_EQUAL_FATAL(pph_matrix_register(&h, m, 7, 10, 10, sizeof(int)), 0);
	CU_ASSERT_EQUAL(pph_data_partition_tiles(h, 0, 4, t), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(pph_data_partition_tiles(h, 3, 4, t), 0);
	CU_ASSERT_EQUAL(pph_data_partition_tiles(h, 3, 4, extra), -EBUSY);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), -EBUSY); /* the tiles hold it */
	for (k = 0; k < 9; k++)
		CU_ASSERT_EQUAL(pph_call_async(&matrix_cl, PPH_ALL_IMPLS, 1, &t[k], &mode, NULL, 0), 0);
	pph_data_unpartition(h, 9, t);
	CU_ASSERT_EQUAL(pph_data_acquire(h, PPH_R), 0);
	for (i = 0; i < 7; i++)
		for (j = 0; j < 10; j++)
			ok &= m[i][j] == (int)(100 * (i % 3) + j % 4);
	CU_ASSERT_TRUE(ok);
	pph_data_unregister(h);
}

/* Blocks of given sizes: a vector in 3, 1, 6 and matrix rows in 2, 5. */
static void test_partition_sizes(void)
{
	int v[10], m[7][2] = { { 0 } };
	size_t sizes[] = { 3, 1, 6 }, bad[] = { 3, 0, 7 }, rows[] = { 2, 5 };
	pph_data_handle h, b[3];

	pph_vector_register(&h, v, 10, sizeof(int));
	CU_ASSERT_EQUAL(pph_data_partition_sizes(h, 3, bad, b), -EINVAL);
	CU_ASSERT_EQUAL(pph_data_partition_sizes(h, 2, sizes, b), -EINVAL); /* 4 of 10 */
	CU_ASSERT_EQUAL_FATAL(pph_data_partition_sizes(h, 3, sizes, b), 0);
	CU_ASSERT_EQUAL(b[0]->host.iface.vector.n, 3);
	CU_ASSERT_PTR_EQUAL(b[1]->host.iface.vector.ptr, &v[3]);
	CU_ASSERT_EQUAL(b[2]->host.iface.vector.n, 6);
	pph_data_unpartition(h, 3, b);
	pph_data_unregister(h);
	pph_matrix_register(&h, m, 7, 2, 2, sizeof(int));
	CU_ASSERT_EQUAL_FATAL(pph_data_partition_sizes(h, 2, rows, b), 0);
	CU_ASSERT_PTR_EQUAL(b[1]->host.iface.matrix.ptr, &m[2][0]);
	CU_ASSERT_EQUAL(b[1]->host.iface.matrix.rows, 5);
	pph_data_unpartition(h, 2, b);
	pph_data_unregister(h);
}

void add_data_tests(CU_pSuite s)
{
	CU_add_test(s, "matrix tiles: a grid of sub-handles", test_matrix_tiles);
	CU_add_test(s, "blocks of given sizes", test_partition_sizes);
	CU_add_test(s, "matrix block with a leading dimension", test_matrix_block);
}
