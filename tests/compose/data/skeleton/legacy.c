/* The legacy library behind legacy.h: what the delegating CPU variants call. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "legacy.h"

struct legacy_db {
	int rows;
};

void saxpy(size_t n, float a, const float *x, float *y)
{
	for (size_t i = 0; i < n; i++)
		y[i] += a * x[i];
}

void scale(real *data, index_t len, real factor)
{
	for (index_t i = 0; i < len; i++)
		data[i] *= factor;
}

double norm2(const double *v, int v_len, enum legacy_mode mode)
{
	double s = 0;

	(void)mode;
	for (int i = 0; i < v_len; i++)
		s += v[i] * v[i];
	return s;
}

int count_until(const short *v, int len)
{
	int n = 0;

	while (len < 0 ? v[n] != 0 : n < len)
		n++;
	return n;
}

void transpose(const float *in, float *out, int nrows, int ncols)
{
	for (int i = 0; i < nrows; i++)
		for (int j = 0; j < ncols; j++)
			out[j * nrows + i] = in[i * ncols + j];
}

void matfill(double *A, int m, int n, double value)
{
	for (int i = 0; i < m * n; i++)
		A[i] = value;
}

void advance(struct particle *p, int count, double dt, double *energy)
{
	*energy = 0;
	for (int i = 0; i < count; i++) {
		p[i].x += p[i].vx * dt;
		p[i].y += p[i].vy * dt;
		*energy += 0.5 * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
	}
}

void reset_all(int flags)
{
	(void)flags;
}

void sort_keys(int *keys, int n, int (*cmp)(const void *, const void *))
{
	qsort(keys, (size_t)n, sizeof(*keys), cmp);
}

void free_rows(float **rows, int nrows)
{
	for (int i = 0; i < nrows; i++)
		free(rows[i]);
}

void dump(const void *buf, size_t size)
{
	fwrite(buf, 1, size, stdout);
}

void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int db_open(const char *path, legacy_db **db)
{
	*db = malloc(sizeof(**db));
	if (!*db)
		return -1;
	(*db)->rows = (int)strlen(path);
	return 0;
}

int db_count(legacy_db *db, const char *table)
{
	return db->rows + (int)strlen(table);
}

int stream_init(legacy_streamp strm, int level)
{
	strm->next = NULL;
	strm->avail = (size_t)level;
	return 0;
}

void write_table(FILE *out, const double *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%g\n", t[i]);
}

/* run-length pairs (count, byte); -1 when dest is too small */
int pack(unsigned char *dest, size_t *destLen, const unsigned char *source, size_t sourceLen)
{
	size_t out = 0;

	for (size_t i = 0; i < sourceLen;) {
		size_t run = 1;

		while (i + run < sourceLen && run < 255 && source[i + run] == source[i])
			run++;
		if (out + 2 > *destLen)
			return -1;
		dest[out++] = (unsigned char)run;
		dest[out++] = source[i];
		i += run;
	}
	*destLen = out;
	return 0;
}

void (vfill)(vecp v, int n, float value)
{
	for (int i = 0; i < n; i++)
		v[i] = value;
}

void gemm(int M, int N, int K, const float *A, const float *B, float *C)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;

			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}
