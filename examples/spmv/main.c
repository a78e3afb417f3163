/*
 * spmv: y = A x through the repository's spmv component, A read from a
 * Matrix Market file (coordinate; real, integer or pattern; general or
 * symmetric) into CSR, and checked against a sequential product.
 *
 *	spmv FILE.mtx [calls]          read A, compute y = A x calls times
 *	spmv --generate KIND N FILE    write a matrix: lap2d (the 5-point
 *	                               Laplacian of an N x N grid), lap3d (7
 *	                               points, N x N x N) or powerlaw (N rows
 *	                               whose lengths follow a power law, random
 *	                               columns)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "peppher.h"

/* one entry of A, as read from the file */
struct entry {
	int i, j;
	double v;
};

struct csr {
	int m, n, nnz;
	int *rowptr, *colind; /* rowptr: m + 1 offsets */
	double *val;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static unsigned rnd_state = 2463534242u;

static unsigned rnd(void) /* xorshift32: the same matrices everywhere */
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* ---- generators: write a general coordinate real file -------------------- */

static void put(FILE *fp, long i, long j, double v)
{
	fprintf(fp, "%ld %ld %.17g\n", i + 1, j + 1, v);
}

static int generate(const char *kind, long N, const char *path)
{
	FILE *fp = fopen(path, "w");
	long m = 0, nnz = 0;

	if (!fp) {
		perror(path);
		return 1;
	}
	if (!strcmp(kind, "lap2d")) {
		m = N * N;
		nnz = 5 * m - 4 * N;
	} else if (!strcmp(kind, "lap3d")) {
		m = N * N * N;
		nnz = 7 * m - 6 * N * N;
	} else if (!strcmp(kind, "powerlaw")) {
		m = N;
	} else {
		fprintf(stderr, "spmv: unknown kind '%s' (lap2d, lap3d, powerlaw)\n", kind);
		fclose(fp);
		return 2;
	}
	fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n%% %s %ld\n", kind, N);
	if (strcmp(kind, "powerlaw")) {
		int d3 = !strcmp(kind, "lap3d");
		long nz = d3 ? N : 1;

		fprintf(fp, "%ld %ld %ld\n", m, m, nnz);
		for (long z = 0; z < nz; z++)
			for (long y = 0; y < N; y++)
				for (long x = 0; x < N; x++) {
					long r = (z * N + y) * N + x;

					put(fp, r, r, d3 ? 6.0 : 4.0);
					if (x > 0) put(fp, r, r - 1, -1);
					if (x < N - 1) put(fp, r, r + 1, -1);
					if (y > 0) put(fp, r, r - N, -1);
					if (y < N - 1) put(fp, r, r + N, -1);
					if (d3 && z > 0) put(fp, r, r - N * N, -1);
					if (d3 && z < N - 1) put(fp, r, r + N * N, -1);
				}
	} else {
		/* row lengths 1 + floor(1 / u^(1/alpha)) - 1 with alpha 1.5: most rows
		   short, a few very long (capped at the row count) */
		long *len = malloc(sizeof(long) * m);

		if (!len) {
			fclose(fp);
			return 1;
		}
		for (long r = 0; r < m; r++) {
			double u = (rnd() + 1.0) / 4294967297.0;
			double l = floor(pow(u, -1 / 1.5));

			len[r] = l < m ? (long)l : m;
			nnz += len[r];
		}
		fprintf(fp, "%ld %ld %ld\n", m, m, nnz);
		for (long r = 0; r < m; r++)
			for (long e = 0; e < len[r]; e++)
				put(fp, r, rnd() % m, (double)(rnd() % 2001) / 1000 - 1);
		free(len);
	}
	if (fclose(fp)) {
		perror(path);
		return 1;
	}
	printf("spmv: wrote %s: %s %ld, %ld x %ld, %ld entries\n", path, kind, N, m, m, nnz);
	return 0;
}

/* ---- Matrix Market reader -------------------------------------------------- */

static int by_row(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->i != y->i ? (x->i > y->i) - (x->i < y->i) : (x->j > y->j) - (x->j < y->j);
}

/* A read into CSR, entries of a row sorted by column; 0 or -1 with a message. */
static int mm_read(const char *path, struct csr *A)
{
	FILE *fp = fopen(path, "r");
	char line[1024], object[64], format[64], field[64], symmetry[64];
	long m, n, count, k = 0;
	struct entry *e = NULL;
	int rc = -1;

	if (!fp) {
		perror(path);
		return -1;
	}
	if (!fgets(line, sizeof(line), fp) ||
	    sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", object, format, field, symmetry) != 4 ||
	    strcasecmp(object, "matrix") || strcasecmp(format, "coordinate")) {
		fprintf(stderr, "%s: not a Matrix Market coordinate matrix\n", path);
		goto out;
	}
	int pattern = !strcasecmp(field, "pattern"), sym = !strcasecmp(symmetry, "symmetric");

	if (!pattern && strcasecmp(field, "real") && strcasecmp(field, "integer")) {
		fprintf(stderr, "%s: field '%s' not handled (real, integer, pattern)\n", path, field);
		goto out;
	}
	if (!sym && strcasecmp(symmetry, "general")) {
		fprintf(stderr, "%s: symmetry '%s' not handled (general, symmetric)\n", path, symmetry);
		goto out;
	}
	do
		if (!fgets(line, sizeof(line), fp)) {
			fprintf(stderr, "%s: no size line\n", path);
			goto out;
		}
	while (line[0] == '%');
	if (sscanf(line, "%ld %ld %ld", &m, &n, &count) != 3 || m < 1 || n < 1 || count < 1 ||
	    m > 1L << 30 || n > 1L << 30 || count > (1L << 30) / (sym + 1)) {
		fprintf(stderr, "%s: bad size line '%s'\n", path, line);
		goto out;
	}
	e = malloc(sizeof(*e) * count * (sym + 1));
	if (!e) {
		perror("spmv");
		goto out;
	}
	for (long c = 0; c < count; c++) {
		long i, j;
		double v = 1;

		if (fscanf(fp, "%ld %ld", &i, &j) != 2 || (!pattern && fscanf(fp, "%lf", &v) != 1) ||
		    i < 1 || i > m || j < 1 || j > n) {
			fprintf(stderr, "%s: entry %ld missing or out of range\n", path, c + 1);
			goto out;
		}
		e[k++] = (struct entry){ (int)i - 1, (int)j - 1, v };
		if (sym && i != j)
			e[k++] = (struct entry){ (int)j - 1, (int)i - 1, v };
	}
	qsort(e, k, sizeof(*e), by_row);
	A->m = (int)m;
	A->n = (int)n;
	A->nnz = (int)k;
	A->rowptr = calloc(m + 1, sizeof(int));
	A->colind = malloc(sizeof(int) * k);
	A->val = malloc(sizeof(double) * k);
	if (!A->rowptr || !A->colind || !A->val) {
		perror("spmv");
		goto out;
	}
	for (long c = 0; c < k; c++) {
		A->rowptr[e[c].i + 1]++;
		A->colind[c] = e[c].j;
		A->val[c] = e[c].v;
	}
	for (long r = 0; r < m; r++)
		A->rowptr[r + 1] += A->rowptr[r];
	rc = 0;
out:
	free(e);
	fclose(fp);
	return rc;
}

/* ---- the product, checked ------------------------------------------------------ */

static int run(const char *path, int calls)
{
	struct csr A = { 0 };
	int bad = 0;

	if (mm_read(path, &A))
		return 1;
	double *x = malloc(sizeof(double) * A.n), *y = malloc(sizeof(double) * A.m);
	double *want = malloc(sizeof(double) * A.m);

	if (!x || !y || !want)
		return 1;
	for (int j = 0; j < A.n; j++)
		x[j] = (double)(rnd() % 2001) / 1000 - 1;
	for (int i = 0; i < A.m; i++) {
		double s = 0;

		for (int p = A.rowptr[i]; p < A.rowptr[i + 1]; p++)
			s += A.val[p] * x[A.colind[p]];
		want[i] = s;
	}
	double best = INFINITY;

	for (int c = 0; c < calls; c++) {
		double t0 = now();

		memset(y, 0xff, sizeof(double) * A.m); /* NaNs: every row must be written */
		spmv(A.m, A.n, A.nnz, A.rowptr, A.colind, A.val, x, y);
		best = fmin(best, now() - t0);
		for (int i = 0; i < A.m; i++) {
			double scale = 0;

			for (int p = A.rowptr[i]; p < A.rowptr[i + 1]; p++)
				scale += fabs(A.val[p] * x[A.colind[p]]);
			bad += !(fabs(y[i] - want[i]) <= 1e-14 * scale + 1e-300);
		}
	}
	printf("spmv %s: %d x %d, %d nonzeros, %d calls, best %.3f ms (%.2f GFLOP/s): %s\n", path,
	       A.m, A.n, A.nnz, calls, best * 1e3, 2.0 * A.nnz / best * 1e-9, bad ? "WRONG" : "correct");
	free(x);
	free(y);
	free(want);
	free(A.rowptr);
	free(A.colind);
	free(A.val);
	return bad != 0;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc == 5 && !strcmp(argv[1], "--generate"))
		return generate(argv[2], atol(argv[3]), argv[4]);
	if (argc < 2 || argc > 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: spmv FILE.mtx [calls] | spmv --generate lap2d|lap3d|powerlaw N FILE\n");
		return 2;
	}
	PEPPHER_INITIALIZE();
	rc = run(argv[1], argc == 3 ? atoi(argv[2]) : 10);
	PEPPHER_SHUTDOWN();
	return rc;
}
