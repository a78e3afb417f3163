/*
 * bench/apps: task graphs of tile kernels run three ways in one process,
 * side by side -- composed with PEPPHER-C (the calls of peppher.h on tile
 * containers), hand-written against StarPU 1.3 (starpu_task_insert, dmda)
 * and as OpenMP tasks with depend clauses (libgomp) -- on CPU workers only,
 * one per core, every runtime calling the same variant functions:
 *
 *   cholesky  tiled right-looking Cholesky: potrf, trsm, syrk, gemm (the
 *             repository's LAPACKE and CBLAS variants), n^3 / 3 flops, on
 *             tiles of one n x n column-major matrix, factored in place: its
 *             tile views for PEPPHER (pph_matrix_tile_grid), its sub-handles
 *             for StarPU (starpu_data_map_filters, block filters), pointers
 *             into it for OpenMP; every kernel gets leading dimension n
 *   sgemm     tiled C = C + A B in float: sgemm_tile (CBLAS), 2 n^3 flops
 *   spmv      y = A x, A the 5-point Laplacian of a g x g grid, in blocks
 *             of rows: spmv_rows, 2 nnz flops per product
 *
 * For each problem and tile size it prints GFLOP/s of each runtime, the
 * kernel-bound limit -- the same tasks run one after the other on one core
 * (the kernels' single-core times summed), divided by the cores -- and the
 * ratios peppher/starpu, peppher/openmp and peppher/limit.  Each figure is
 * the best of R rounds, the runtimes taking turns within each round, so a
 * slow spell of a shared machine does not fall on one of them only.  Every
 * result is checked.  Lines start with the problem's name, for scripts/plots.
 *
 * Usage: apps [-c cores] [-r rounds] [-n cholesky sizes] [-b tile sizes]
 *             [-s sgemm size] [-g spmv grid] [-k spmv block rows] [-p problems]
 *             [-t runtimes] [-v]
 * Lists are comma-separated; defaults: -n 2048,4096 -b 64,128,256,512
 * -s 2048 -g 1024 -k 4096,16384,65536,262144 -p cholesky,sgemm,spmv -r 3,
 * -t peppher,starpu,openmp,limit (those left out print nan: for profiling).
 * -q (or PEPPHER_QUICK=1): -n 1024 -s 512 -g 512 -r 1.
 * -v: also print, on stderr, the share of its cores each runtime's best
 * round got (the process's CPU time over wall time x cores, 1 core for the
 * limit; it counts the runtime's start and stop too): below 1, other
 * processes took cores from it, or its workers slept for want of work
 * (PEPPHER_TRACE tells which), and peppher/limit for equal shares; how long
 * PEPPHER and StarPU took to submit the tasks (their submitting thread is a
 * third one on the cores, where OpenMP's producer is one of the team); and
 * the task graph's critical path with the tasks' times alone, against the
 * limit's time: where it comes close, no schedule reaches the limit.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <starpu.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "peppher.h"

/* The composed variants, called directly by StarPU and OpenMP tasks. */
void potrf_lapacke(int b, double *A, int lda);
void trsm_cblas(int b, const double *L, int ldl, double *A, int lda);
void syrk_cblas(int b, const double *A, int lda, double *C, int ldc);
void gemm_cblas(int b, const double *A, int lda, const double *B, int ldb, double *C,
		int ldc);
void sgemm_tile_cblas(int b, const float *A, const float *B, float *C);
void spmv_rows_cpu(int m, int nnz, int n, const int *rowptr, const int *colind, const double *val,
		   const double *x, double *y);

enum runtime { PEPPHER, STARPU, OPENMP, SEQUENTIAL, NRUNTIMES };
static const char *const runtime_names[] = { "peppher", "starpu", "openmp", "limit" };

enum kind { POTRF, TRSM, SYRK, GEMM, SGEMM, SPMV, NKINDS };
static const char *const kind_names[] = { "potrf", "trsm", "syrk", "gemm", "sgemm_tile", "spmv_rows" };
/* buffers per kind, the last one written (read and written but by spmv) */
static const int kind_nbufs[] = { 1, 2, 2, 3, 3, 5 };

/* A tile (rows x cols, column-major) or a vector (cols == 0), in memory of
   its own or a tile view of a larger matrix (parent >= 0). */
struct buf {
	void *data;
	void *orig; /* the values before a run, for buffers that a run writes */
	size_t rows, cols, elemsize;
	size_t ld; /* elements from one column to the next: rows, or the parent's */
	int parent; /* the matrix this tile lies in, or -1 */
	int ti, tj; /* which tile of the parent (tiles of tile x tile) */
	int tiled; /* a parent: the runtimes split it into tiles */
};

struct task {
	enum kind kind;
	int buf[5]; /* spmv: rowptr, colind, val, x, y */
	int m, nnz, n; /* spmv's sizes */
	const struct problem *problem; /* for StarPU's tasks */
	int priority; /* PEPPHER's calls (pph_call_priority) */
	double seq; /* its shortest time alone (the limit's runs), s */
};

struct problem {
	const char *name;
	int size, tile; /* n (grid for spmv) and tile size (rows per block for spmv) */
	struct buf *bufs;
	int nbufs;
	struct task *tasks;
	int ntasks;
	double flops;
	double *ref; /* what the check compares with */
};

static int ncores, rounds = 3, verbose;
/* how long the latest run took to submit its tasks (PEPPHER, StarPU), s:
   the submitting thread shares the cores with the workers */
static double submit_time;
/* how many times the application's thread slept while PEPPHER's run ended
   (voluntary context switches in pph_task_wait_all) */
static long wait_sleeps;
static const char *runtimes = "peppher,starpu,openmp,limit";

static int has(const char *list, const char *name);

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* CPU time of the process, all threads */
static double cpu_time(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* voluntary context switches of the calling thread so far */
static long thread_sleeps(void)
{
	struct rusage u;

	getrusage(RUSAGE_THREAD, &u);
	return u.ru_nvcsw;
}

static void *xmalloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n ? n : 1)) {
		fprintf(stderr, "apps: out of memory\n");
		exit(1);
	}
	return p;
}

static unsigned seed = 12345;

static double rnd(void) /* in [-0.5, 0.5) */
{
	seed = seed * 1103515245u + 12345u;
	return (double)(seed >> 8) / (1u << 24) - 0.5;
}

static size_t buf_bytes(const struct buf *b)
{
	return (b->cols ? b->rows * b->cols : b->rows) * b->elemsize;
}

static int add_buf(struct problem *p, size_t rows, size_t cols, size_t elemsize, int written)
{
	struct buf *b = &p->bufs[p->nbufs];

	b->rows = rows;
	b->cols = cols;
	b->elemsize = elemsize;
	b->ld = rows;
	b->parent = -1;
	b->data = xmalloc(buf_bytes(b));
	b->orig = written ? xmalloc(buf_bytes(b)) : NULL;
	return p->nbufs++;
}

/* Tile (ti, tj) of buffer parent, p->tile square, in place. */
static int add_view(struct problem *p, int parent, int ti, int tj)
{
	struct buf *b = &p->bufs[p->nbufs], *m = &p->bufs[parent];
	size_t t = p->tile;

	*b = (struct buf){ (char *)m->data + (ti * t + tj * t * m->ld) * m->elemsize, NULL, t, t,
			   m->elemsize, m->ld, parent, ti, tj, 0 };
	m->tiled = 1;
	return p->nbufs++;
}

static void add_task(struct problem *p, enum kind k, int b0, int b1, int b2)
{
	p->tasks[p->ntasks++] = (struct task){ k, { b0, b1, b2, -1, -1 }, 0, 0, 0, NULL, 0 };
}

static void reset(struct problem *p)
{
	for (int i = 0; i < p->nbufs; i++)
		if (p->bufs[i].orig)
			memcpy(p->bufs[i].data, p->bufs[i].orig, buf_bytes(&p->bufs[i]));
}

static void problem_free(struct problem *p)
{
	for (int i = 0; i < p->nbufs; i++) {
		if (p->bufs[i].parent < 0)
			free(p->bufs[i].data);
		free(p->bufs[i].orig);
	}
	free(p->bufs);
	free(p->tasks);
	free(p->ref);
}

/* ---- the problems ------------------------------------------------------------ */

/* Tile (i, j) of nt x nt, i >= j: buffer index (buffer 0 is the matrix). */
#define LT(i, j) (1 + (i) * ((i) + 1) / 2 + (j))

static struct problem cholesky_make(int n, int b)
{
	int nt = n / b;
	struct problem p = { "cholesky", n, b, NULL, 0, NULL, 0, n * (double)n * n / 3, NULL };
	double *a;

	p.bufs = calloc(1 + nt * (nt + 1) / 2, sizeof(struct buf));
	p.tasks = calloc(nt + nt * (nt - 1) + (size_t)nt * (nt - 1) * (nt - 2) / 6, sizeof(struct task));
	/* A symmetric, diagonally dominant, column-major; the tiles of its lower triangle */
	add_buf(&p, n, n, sizeof(double), 1);
	a = p.bufs[0].orig;
	for (int c = 0; c < n; c++)
		for (int r = c; r < n; r++)
			a[r + (size_t)c * n] = a[c + (size_t)r * n] = r == c ? n + rnd() : rnd();
	for (int i = 0; i < nt; i++)
		for (int j = 0; j <= i; j++)
			add_view(&p, 0, i, j);
	/* priorities as examples/cholesky's: the panel, then the next
	 * panel's column, then the rest of the trailing updates */
	for (int k = 0; k < nt; k++) {
		add_task(&p, POTRF, LT(k, k), -1, -1);
		p.tasks[p.ntasks - 1].priority = 3;
		for (int i = k + 1; i < nt; i++) {
			add_task(&p, TRSM, LT(k, k), LT(i, k), -1);
			p.tasks[p.ntasks - 1].priority = 2;
		}
		for (int i = k + 1; i < nt; i++) {
			add_task(&p, SYRK, LT(i, k), LT(i, i), -1);
			p.tasks[p.ntasks - 1].priority = i == k + 1;
			for (int j = k + 1; j < i; j++) {
				add_task(&p, GEMM, LT(i, k), LT(j, k), LT(i, j));
				p.tasks[p.ntasks - 1].priority = j == k + 1;
			}
		}
	}
	return p;
}

/* element (r, c) of the lower triangle of the n x n matrix, before or after */
static double chol_at(const struct problem *p, int r, int c, int use_orig)
{
	const struct buf *m = &p->bufs[0];

	if (r < c)
		return 0;
	return ((const double *)(use_orig ? m->orig : m->data))[r + (size_t)c * m->ld];
}

/* |A x - L (L^T x)| / |A x| for a random x: O(n^2) */
static int cholesky_check(struct problem *p)
{
	int n = p->size;
	double *x = xmalloc(sizeof(double) * n), *y = xmalloc(sizeof(double) * n);
	double *z = xmalloc(sizeof(double) * n), num = 0, den = 0;

	for (int i = 0; i < n; i++) {
		x[i] = rnd();
		y[i] = z[i] = 0;
	}
	for (int r = 0; r < n; r++) /* y = A x, A symmetric from its lower triangle */
		for (int c = 0; c <= r; c++) {
			double a = chol_at(p, r, c, 1);

			y[r] += a * x[c];
			if (c != r)
				y[c] += a * x[r];
		}
	for (int c = 0; c < n; c++) { /* z = L^T x */
		double s = 0;

		for (int r = c; r < n; r++)
			s += chol_at(p, r, c, 0) * x[r];
		z[c] = s;
	}
	for (int r = n - 1; r >= 0; r--) { /* x = L z (in place, bottom up) */
		double s = 0;

		for (int c = 0; c <= r; c++)
			s += chol_at(p, r, c, 0) * z[c];
		x[r] = s;
	}
	for (int i = 0; i < n; i++) {
		num += (y[i] - x[i]) * (y[i] - x[i]);
		den += y[i] * y[i];
	}
	free(x);
	free(y);
	free(z);
	return sqrt(num / den) < 1e-12;
}

static struct problem sgemm_make(int n, int b)
{
	int nt = n / b;
	struct problem p = { "sgemm", n, b, NULL, 0, NULL, 0, 2 * (double)n * n * n, NULL };

	p.bufs = calloc(3 * nt * nt, sizeof(struct buf));
	p.tasks = calloc((size_t)nt * nt * nt, sizeof(struct task));
	for (int i = 0; i < 3 * nt * nt; i++) { /* A, B, then C, tile (i, j) at i + j nt */
		int bi = add_buf(&p, b, b, sizeof(float), i >= 2 * nt * nt);
		float *t = p.bufs[bi].orig ? p.bufs[bi].orig : p.bufs[bi].data;

		for (int e = 0; e < b * b; e++)
			t[e] = (float)rnd();
	}
	for (int k = 0; k < nt; k++)
		for (int j = 0; j < nt; j++)
			for (int i = 0; i < nt; i++)
				add_task(&p, SGEMM, i + k * nt, nt * nt + k + j * nt, 2 * nt * nt + i + j * nt);
	return p;
}

static float sgemm_elem(const struct problem *p, int part, int r, int c, int use_orig)
{
	int b = p->tile, nt = p->size / b;
	const struct buf *t = &p->bufs[part * nt * nt + r / b + (c / b) * nt];

	return ((const float *)(use_orig && t->orig ? t->orig : t->data))[r % b + (c % b) * b];
}

/* 256 entries of C against a sum in double */
static int sgemm_check(struct problem *p)
{
	int n = p->size;

	for (int e = 0; e < 256; e++) {
		int r = (int)((rnd() + 0.5) * n), c = (int)((rnd() + 0.5) * n);
		double s = sgemm_elem(p, 2, r, c, 1);

		for (int k = 0; k < n; k++)
			s += (double)sgemm_elem(p, 0, r, k, 0) * sgemm_elem(p, 1, k, c, 0);
		if (fabs(s - sgemm_elem(p, 2, r, c, 0)) > 1e-5 * n)
			return 0;
	}
	return 1;
}

#define SPMV_PRODUCTS 20

/* The 5-point Laplacian of a g x g grid in CSR, in blocks of rows rows,
   SPMV_PRODUCTS products y = A x of every block. */
static struct problem spmv_make(int g, int rows)
{
	int m = g * g, nblocks = (m + rows - 1) / rows, x;
	struct problem p = { "spmv", g, rows, NULL, 0, NULL, 0, 0, NULL };

	p.bufs = calloc(4 * nblocks + 1, sizeof(struct buf));
	p.tasks = calloc((size_t)SPMV_PRODUCTS * nblocks, sizeof(struct task));
	p.ref = xmalloc(sizeof(double) * m);
	x = add_buf(&p, m, 0, sizeof(double), 0);
	for (int i = 0; i < m; i++)
		((double *)p.bufs[x].data)[i] = rnd();
	for (int k = 0; k < nblocks; k++) {
		int r0 = k * rows, mb = r0 + rows <= m ? rows : m - r0, nnz = 0;
		int *rowptr = xmalloc(sizeof(int) * mb), *col = xmalloc(sizeof(int) * 5 * mb);
		double *val = xmalloc(sizeof(double) * 5 * mb);

		for (int r = r0; r < r0 + mb; r++) {
			int gx = r % g, gy = r / g;
			int cols[5] = { r - g, r - 1, r, r + 1, r + g };
			int ok[5] = { gy > 0, gx > 0, 1, gx < g - 1, gy < g - 1 };
			double s = 0;

			rowptr[r - r0] = nnz;
			for (int e = 0; e < 5; e++)
				if (ok[e]) {
					col[nnz] = cols[e];
					val[nnz] = e == 2 ? 4 : -1;
					s += val[nnz++] * ((double *)p.bufs[x].data)[cols[e]];
				}
			p.ref[r] = s;
		}
		int brow = add_buf(&p, mb, 0, sizeof(int), 0), bcol = add_buf(&p, nnz, 0, sizeof(int), 0);
		int bval = add_buf(&p, nnz, 0, sizeof(double), 0), by = add_buf(&p, mb, 0, sizeof(double), 0);

		memcpy(p.bufs[brow].data, rowptr, sizeof(int) * mb);
		memcpy(p.bufs[bcol].data, col, sizeof(int) * nnz);
		memcpy(p.bufs[bval].data, val, sizeof(double) * nnz);
		for (int it = 0; it < SPMV_PRODUCTS; it++)
			p.tasks[it * nblocks + k] = (struct task){ SPMV, { brow, bcol, bval, x, by }, mb, nnz, m, NULL };
		p.flops += 2.0 * nnz * SPMV_PRODUCTS;
		free(rowptr);
		free(col);
		free(val);
	}
	p.ntasks = SPMV_PRODUCTS * nblocks;
	return p;
}

static int spmv_check(struct problem *p)
{
	int rows = p->tile;

	for (int i = 0; i < p->size * p->size; i++) {
		const double *y = p->bufs[1 + 4 * (i / rows) + 3].data;

		if (fabs(y[i % rows] - p->ref[i]) > 1e-12 * 8)
			return 0;
	}
	/* the next run must write y again: NaNs that a missing block would leave */
	for (int b = 4; b < p->nbufs; b += 4)
		memset(p->bufs[b].data, 0xff, buf_bytes(&p->bufs[b]));
	return 1;
}

static int check(struct problem *p)
{
	if (!strcmp(p->name, "cholesky"))
		return cholesky_check(p);
	if (!strcmp(p->name, "sgemm"))
		return sgemm_check(p);
	return spmv_check(p);
}

/* ---- one task, called directly (sequential runs, OpenMP tasks) ----------------- */

static void run_direct(const struct problem *p, const struct task *t)
{
	void *d[5];
	int b = p->tile, ld[5];

	for (int i = 0; i < kind_nbufs[t->kind]; i++) {
		d[i] = p->bufs[t->buf[i]].data;
		ld[i] = (int)p->bufs[t->buf[i]].ld;
	}
	switch (t->kind) {
	case POTRF: potrf_lapacke(b, d[0], ld[0]); break;
	case TRSM: trsm_cblas(b, d[0], ld[0], d[1], ld[1]); break;
	case SYRK: syrk_cblas(b, d[0], ld[0], d[1], ld[1]); break;
	case GEMM: gemm_cblas(b, d[0], ld[0], d[1], ld[1], d[2], ld[2]); break;
	case SGEMM: sgemm_tile_cblas(b, d[0], d[1], d[2]); break;
	case SPMV: spmv_rows_cpu(t->m, t->nnz, t->n, d[0], d[1], d[2], d[3], d[4]); break;
	default: abort();
	}
}

static double run_sequential(struct problem *p)
{
	double t0 = now(), t = t0;

	for (int i = 0; i < p->ntasks; i++) {
		struct task *k = &p->tasks[i];
		double t1;

		run_direct(p, k);
		t1 = now();
		if (!k->seq || t1 - t < k->seq)
			k->seq = t1 - t;
		t = t1;
	}
	return now() - t0;
}

/*
 * The task graph's critical path with the tasks' times alone: no schedule
 * on any number of cores ends sooner.  A task waits for the last writer of
 * what it reads, and a writer also for the readers before it, as the
 * runtimes order them.
 */
static double critical_path(const struct problem *p)
{
	double *lastw = calloc(p->nbufs, sizeof(double)), *lastr = calloc(p->nbufs, sizeof(double));
	double end = 0;

	for (int i = 0; i < p->ntasks; i++) {
		const struct task *k = &p->tasks[i];
		int nb = kind_nbufs[k->kind], w = k->buf[nb - 1];
		double ready = fmax(lastw[w], lastr[w]), done;

		for (int j = 0; j < nb - 1; j++)
			ready = fmax(ready, lastw[k->buf[j]]);
		done = ready + k->seq;
		for (int j = 0; j < nb - 1; j++)
			lastr[k->buf[j]] = fmax(lastr[k->buf[j]], done);
		lastw[w] = lastr[w] = done;
		end = fmax(end, done);
	}
	free(lastw);
	free(lastr);
	return end;
}

/*
 * The shortest schedule of a small task graph on ncores cores, the tasks'
 * times alone: where even it stays below 0.9 of the limit, the graph (a
 * 4 x 4 tile Cholesky's last trsm, syrk and potrf, which nothing can run
 * beside), not the runtime, keeps peppher/limit under the target.  Branch
 * and bound: whenever cores are free, start as many ready tasks as fit (or
 * fewer, only when every core is free), then go to the next end.  At most
 * MAX_SEARCH_TASKS tasks and SEARCH_NODES nodes, else 0.
 */
#define MAX_SEARCH_TASKS 32
#define SEARCH_NODES 50000000L

struct search {
	int n, ncores;
	double dur[MAX_SEARCH_TASKS], bottom[MAX_SEARCH_TASKS], best;
	uint32_t pred[MAX_SEARCH_TASKS], all;
	long nodes;
};

static void branch(struct search *s, double now, uint32_t done, uint32_t started, int nrun,
		   const int *run, const double *end, double left);

/* To the next end of a running task: it is done. */
static void advance(struct search *s, uint32_t done, uint32_t started, int nrun, const int *run,
		    const double *end, double left)
{
	int run2[MAX_SEARCH_TASKS], k = 0, i;
	double end2[MAX_SEARCH_TASKS], first = INFINITY;

	for (i = 0; i < nrun; i++)
		first = fmin(first, end[i]);
	for (i = 0; i < nrun; i++)
		if (end[i] <= first) {
			done |= 1u << run[i];
		} else {
			run2[k] = run[i];
			end2[k++] = end[i];
		}
	branch(s, first, done, started, k, run2, end2, left);
}

/* Start k more of the ready tasks, from task i on, beside the nrun running. */
static void pick(struct search *s, double now, uint32_t done, uint32_t started, int nrun,
		 int *run, double *end, double left, uint32_t ready, int i, int k)
{
	if (k == 0) {
		advance(s, done, started, nrun, run, end, left);
		return;
	}
	for (; i < s->n; i++)
		if (ready >> i & 1u) {
			run[nrun] = i;
			end[nrun] = now + s->dur[i];
			pick(s, now, done, started | 1u << i, nrun + 1, run, end, left - s->dur[i],
			     ready, i + 1, k - 1);
		}
}

static void branch(struct search *s, double now, uint32_t done, uint32_t started, int nrun,
		   const int *run, const double *end, double left)
{
	int cur[MAX_SEARCH_TASKS], nready = 0, most, k, i;
	double ends[MAX_SEARCH_TASKS], lb = now, busy = 0;
	uint32_t ready = 0;

	if (done == s->all) {
		s->best = fmin(s->best, now);
		return;
	}
	if (++s->nodes > SEARCH_NODES)
		return;
	for (i = 0; i < nrun; i++) {
		lb = fmax(lb, end[i] - s->dur[run[i]] + s->bottom[run[i]]);
		busy += end[i] - now;
		cur[i] = run[i];
		ends[i] = end[i];
	}
	for (i = 0; i < s->n; i++)
		if (!(started >> i & 1u)) {
			lb = fmax(lb, now + s->bottom[i]);
			if ((s->pred[i] & done) == s->pred[i]) {
				ready |= 1u << i;
				nready++;
			}
		}
	if (fmax(lb, now + (busy + left) / s->ncores) >= s->best * (1 - 1e-9))
		return;
	most = nready < s->ncores - nrun ? nready : s->ncores - nrun;
	if (most == 0) {
		if (nrun)
			advance(s, done, started, nrun, cur, ends, left);
		return;
	}
	for (k = most; k >= (nrun ? most : 1); k--)
		pick(s, now, done, started, nrun, cur, ends, left, ready, 0, k);
}

static double best_schedule(const struct problem *p, int ncores)
{
	struct search s = { .n = p->ntasks, .ncores = ncores, .best = INFINITY };
	int *lastw, i, j;
	uint32_t *readers;
	double left = 0;

	if (p->ntasks > MAX_SEARCH_TASKS || ncores < 1 || ncores >= MAX_SEARCH_TASKS)
		return 0;
	lastw = malloc(p->nbufs * sizeof(int));
	readers = calloc(p->nbufs, sizeof(uint32_t));
	for (i = 0; i < p->nbufs; i++)
		lastw[i] = -1;
	/* as critical_path: the last buffer is written, the others read */
	for (i = 0; i < p->ntasks; i++) {
		const struct task *k = &p->tasks[i];
		int nb = kind_nbufs[k->kind], w = k->buf[nb - 1];

		for (j = 0; j < nb; j++)
			if (lastw[k->buf[j]] >= 0)
				s.pred[i] |= 1u << lastw[k->buf[j]];
		s.pred[i] |= readers[w];
		for (j = 0; j < nb - 1; j++)
			readers[k->buf[j]] |= 1u << i;
		lastw[w] = i;
		readers[w] = 0;
		s.dur[i] = k->seq;
		left += k->seq;
	}
	for (i = p->ntasks; i-- > 0;) { /* successors come later */
		s.bottom[i] = s.dur[i];
		for (j = i + 1; j < p->ntasks; j++)
			if (s.pred[j] >> i & 1u)
				s.bottom[i] = fmax(s.bottom[i], s.dur[i] + s.bottom[j]);
	}
	s.all = p->ntasks == 32 ? ~0u : (1u << p->ntasks) - 1;
	branch(&s, 0, 0, 0, 0, NULL, NULL, left);
	free(lastw);
	free(readers);
	return s.nodes > SEARCH_NODES ? 0 : s.best;
}

/* ---- PEPPHER-C: the composed calls on containers -------------------------------- */

/* The column-major matrix m is a row-major pph_matrix whose rows are its
   columns: its tile (ti, tj) is the view's tile (tj, ti). */
static double run_peppher(struct problem *p)
{
	void **c = calloc(p->nbufs, sizeof(void *));
	pph_matrix_tiles **grid = calloc(p->nbufs, sizeof(*grid));
	char cores[16];
	double t0, t;

	snprintf(cores, sizeof(cores), "%d", ncores);
	setenv("PEPPHER_NCPU", cores, 1);
	setenv("PEPPHER_NOPENCL", "0", 1); /* CPU workers only, as StarPU's and OpenMP's */
	setenv("PEPPHER_NCUDA", "0", 1);
	PEPPHER_INITIALIZE();
	for (int i = 0; i < p->nbufs; i++) {
		struct buf *b = &p->bufs[i];

		if (b->parent >= 0)
			c[i] = pph_matrix_tile(grid[b->parent], b->tj, b->ti);
		else if (b->cols)
			c[i] = pph_matrix_wrap(b->data, b->cols, b->rows, b->elemsize);
		else
			c[i] = pph_vector_wrap(b->data, b->rows, b->elemsize);
		if (b->tiled && c[i])
			grid[i] = pph_matrix_tile_grid(c[i], p->tile, p->tile);
		if (!c[i] || (b->tiled && !grid[i]))
			exit(1);
	}
	t0 = now();
	for (int i = 0; i < p->ntasks; i++) {
		const struct task *k = &p->tasks[i];
		void **a = c;
		int b = p->tile;
#define C(j) a[k->buf[j]]
#define LD(j) (int)p->bufs[k->buf[j]].ld
		pph_call_priority(k->priority);
		switch (k->kind) {
		case POTRF: potrf(b, C(0), LD(0)); break;
		case TRSM: trsm(b, C(0), LD(0), C(1), LD(1)); break;
		case SYRK: syrk(b, C(0), LD(0), C(1), LD(1)); break;
		case GEMM: gemm(b, C(0), LD(0), C(1), LD(1), C(2), LD(2)); break;
		case SGEMM: sgemm_tile(b, C(0), C(1), C(2)); break;
		case SPMV: spmv_rows(k->m, k->nnz, k->n, C(0), C(1), C(2), C(3), C(4)); break;
		default: abort();
		}
#undef C
#undef LD
	}
	pph_call_priority(0);
	submit_time = now() - t0;
	long sw0 = thread_sleeps();
	pph_task_wait_all();
	t = now() - t0;
	wait_sleeps = thread_sleeps() - sw0;
	for (int i = 0; i < p->nbufs; i++) {
		if (p->bufs[i].parent >= 0)
			continue; /* a tile: untiling ends it */
		if (grid[i]) {
			pph_matrix_untile(grid[i]); /* the tiles' data home */
			if (!pph_matrix_read((pph_matrix *)c[i]))
				exit(1);
		}
		if (p->bufs[i].cols)
			pph_matrix_destroy(c[i]);
		else
			pph_vector_destroy(c[i]);
	}
	PEPPHER_SHUTDOWN();
	free(grid);
	free(c);
	return t;
}

/* ---- StarPU 1.3 ------------------------------------------------------------------ */

static void starpu_kernel(void *buffers[], void *arg)
{
	const struct task *t = arg;
	const struct problem *p = t->problem;
	void *d[5];
	int b = p->tile, ld[5];

	for (int i = 0; i < kind_nbufs[t->kind]; i++) {
		d[i] = t->kind == SPMV ? (void *)STARPU_VECTOR_GET_PTR(buffers[i])
				       : (void *)STARPU_MATRIX_GET_PTR(buffers[i]);
		ld[i] = t->kind == SPMV ? 0 : (int)STARPU_MATRIX_GET_LD(buffers[i]);
	}
	switch (t->kind) {
	case POTRF: potrf_lapacke(b, d[0], ld[0]); break;
	case TRSM: trsm_cblas(b, d[0], ld[0], d[1], ld[1]); break;
	case SYRK: syrk_cblas(b, d[0], ld[0], d[1], ld[1]); break;
	case GEMM: gemm_cblas(b, d[0], ld[0], d[1], ld[1], d[2], ld[2]); break;
	case SGEMM: sgemm_tile_cblas(b, d[0], d[1], d[2]); break;
	case SPMV: spmv_rows_cpu(t->m, t->nnz, t->n, d[0], d[1], d[2], d[3], d[4]); break;
	default: abort();
	}
}

static struct starpu_perfmodel starpu_models[NKINDS];
static struct starpu_codelet starpu_codelets[NKINDS];

static void starpu_codelets_init(void)
{
	for (int k = 0; k < NKINDS; k++) {
		struct starpu_codelet *cl = &starpu_codelets[k];

		starpu_models[k].type = STARPU_HISTORY_BASED;
		starpu_models[k].symbol = kind_names[k];
		starpu_codelet_init(cl);
		cl->cpu_funcs[0] = starpu_kernel;
		cl->nbuffers = kind_nbufs[k];
		for (int i = 0; i < cl->nbuffers; i++)
			cl->modes[i] = STARPU_R;
		cl->modes[cl->nbuffers - 1] = k == SPMV ? STARPU_W : STARPU_RW;
		cl->model = &starpu_models[k];
	}
}

static double run_starpu(struct problem *p)
{
	starpu_data_handle_t *h = calloc(p->nbufs, sizeof(*h));
	struct starpu_conf conf;
	double t0, t;

	starpu_conf_init(&conf);
	conf.ncpus = ncores;
	conf.ncuda = 0;
	conf.nopencl = 0;
	conf.sched_policy_name = "dmda";
	if (starpu_init(&conf) != 0)
		exit(1);
	for (int i = 0; i < p->nbufs; i++) {
		struct buf *b = &p->bufs[i];

		if (b->parent >= 0) /* level 1: blocks of rows (nx), level 2: of columns */
			h[i] = starpu_data_get_sub_data(h[b->parent], 2, b->ti, b->tj);
		else if (b->cols)
			starpu_matrix_data_register(&h[i], STARPU_MAIN_RAM, (uintptr_t)b->data, b->ld,
						    b->rows, b->cols, b->elemsize);
		else
			starpu_vector_data_register(&h[i], STARPU_MAIN_RAM, (uintptr_t)b->data, b->rows,
						    b->elemsize);
		if (b->tiled) {
			struct starpu_data_filter rows = { .filter_func = starpu_matrix_filter_block,
							   .nchildren = b->rows / p->tile };
			struct starpu_data_filter cols = { .filter_func = starpu_matrix_filter_vertical_block,
							   .nchildren = b->cols / p->tile };

			starpu_data_map_filters(h[i], 2, &rows, &cols);
		}
	}
	for (int i = 0; i < p->ntasks; i++)
		p->tasks[i].problem = p;
	t0 = now();
	for (int i = 0; i < p->ntasks; i++) {
		struct task *k = &p->tasks[i];
		struct starpu_codelet *cl = &starpu_codelets[k->kind];
		int rc;

		switch (cl->nbuffers) {
		case 1:
			rc = starpu_task_insert(cl, STARPU_CL_ARGS_NFREE, k, sizeof(*k), cl->modes[0], h[k->buf[0]], 0);
			break;
		case 2:
			rc = starpu_task_insert(cl, STARPU_CL_ARGS_NFREE, k, sizeof(*k), cl->modes[0], h[k->buf[0]],
						cl->modes[1], h[k->buf[1]], 0);
			break;
		case 3:
			rc = starpu_task_insert(cl, STARPU_CL_ARGS_NFREE, k, sizeof(*k), cl->modes[0], h[k->buf[0]],
						cl->modes[1], h[k->buf[1]], cl->modes[2], h[k->buf[2]], 0);
			break;
		default:
			rc = starpu_task_insert(cl, STARPU_CL_ARGS_NFREE, k, sizeof(*k), cl->modes[0], h[k->buf[0]],
						cl->modes[1], h[k->buf[1]], cl->modes[2], h[k->buf[2]],
						cl->modes[3], h[k->buf[3]], cl->modes[4], h[k->buf[4]], 0);
		}
		if (rc != 0)
			exit(1);
	}
	submit_time = now() - t0;
	starpu_task_wait_for_all();
	t = now() - t0;
	for (int i = 0; i < p->nbufs; i++) {
		if (p->bufs[i].parent >= 0)
			continue;
		if (p->bufs[i].tiled)
			starpu_data_unpartition(h[i], STARPU_MAIN_RAM);
		starpu_data_unregister(h[i]);
	}
	starpu_shutdown();
	free(h);
	return t;
}

/* ---- OpenMP tasks (libgomp) -------------------------------------------------------- */

/* Tasks depend on a buffer's first element: a tile's, for the tiles of the
   Cholesky matrix, which are pointers into it (no two tiles share one). */
static double run_openmp(struct problem *p)
{
	double t0 = now();

#pragma omp parallel num_threads(ncores)
#pragma omp single
	for (int i = 0; i < p->ntasks; i++) {
		const struct task *k = &p->tasks[i];
		char *d0 = p->bufs[k->buf[0]].data, *d1 = k->buf[1] >= 0 ? p->bufs[k->buf[1]].data : NULL;
		char *d2 = k->buf[2] >= 0 ? p->bufs[k->buf[2]].data : NULL;

		switch (k->kind) {
		case POTRF:
#pragma omp task depend(inout: d0[0])
			run_direct(p, k);
			break;
		case TRSM:
		case SYRK:
#pragma omp task depend(in: d0[0]) depend(inout: d1[0])
			run_direct(p, k);
			break;
		case GEMM:
		case SGEMM:
#pragma omp task depend(in: d0[0], d1[0]) depend(inout: d2[0])
			run_direct(p, k);
			break;
		case SPMV: {
			char *x = p->bufs[k->buf[3]].data, *y = p->bufs[k->buf[4]].data;
#pragma omp task depend(in: x[0]) depend(out: y[0])
			run_direct(p, k);
			break;
		}
		default:
			abort();
		}
	}
	return now() - t0;
}

/* ---- the driver ---------------------------------------------------------------------- */

static double (*const runners[NRUNTIMES])(struct problem *) = {
	run_peppher, run_starpu, run_openmp, run_sequential
};

static void bench(struct problem p)
{
	double best[NRUNTIMES], share[NRUNTIMES], submit[NRUNTIMES];
	long sleeps = 0;
	const char *size_name = strcmp(p.name, "spmv") ? "n" : "grid";

	for (int r = 0; r < NRUNTIMES; r++)
		best[r] = INFINITY, share[r] = submit[r] = NAN;
	for (int round = -1; round < rounds; round++)
		for (int r = 0; r < NRUNTIMES; r++) {
			double t;

			if ((round < 0 && r == SEQUENTIAL) || !has(runtimes, runtime_names[r]))
				continue;
			reset(&p);
			double c0 = cpu_time();
			submit_time = NAN;
			t = runners[r](&p);
			double cpu = cpu_time() - c0;
			if (round < 0) { /* calibration of the performance models, untimed */
				if (!check(&p)) {
					printf("%s %s %d tile %d: %s gives a WRONG result\n", p.name, size_name,
					       p.size, p.tile, runtime_names[r]);
					exit(1);
				}
				continue;
			}
			if (t < best[r]) { /* cpu also counts the runtime's start and stop */
				share[r] = cpu / (t * (r == SEQUENTIAL ? 1 : ncores));
				submit[r] = submit_time;
				if (r == PEPPHER)
					sleeps = wait_sleeps;
			}
			best[r] = fmin(best[r], t);
		}
	double g[NRUNTIMES];

	for (int r = 0; r < NRUNTIMES; r++)
		g[r] = isinf(best[r]) ? NAN : p.flops / best[r] * 1e-9;
	g[SEQUENTIAL] *= ncores;
	printf("%-8s %4s %5d tile %6d %6d tasks %8.2f %8.2f %8.2f %8.2f   %5.2f %5.2f %5.2f\n", p.name,
	       size_name, p.size, p.tile, p.ntasks, g[PEPPHER], g[STARPU], g[OPENMP], g[SEQUENTIAL],
	       g[PEPPHER] / g[STARPU], g[PEPPHER] / g[OPENMP], g[PEPPHER] / g[SEQUENTIAL]);
	fflush(stdout);
	if (verbose) {
		fprintf(stderr, "  %s %d tile %d: cores' share got: peppher %.2f starpu %.2f openmp %.2f limit %.2f;"
				" peppher/limit for the same share %.2f\n",
			p.name, p.size, p.tile, share[PEPPHER], share[STARPU], share[OPENMP], share[SEQUENTIAL],
			g[PEPPHER] / g[SEQUENTIAL] * share[SEQUENTIAL] / share[PEPPHER]);
		fprintf(stderr, "  %s %d tile %d: submission took peppher %.1f ms, starpu %.1f ms of %.1f and %.1f;"
				" waiting for peppher's tasks, the program's thread slept %ld times\n",
			p.name, p.size, p.tile, 1e3 * submit[PEPPHER], 1e3 * submit[STARPU], 1e3 * best[PEPPHER],
			1e3 * best[STARPU], sleeps);
		if (has(runtimes, "limit")) {
			double shortest = best_schedule(&p, ncores);

			fprintf(stderr, "  %s %d tile %d: critical path %.0f ms, the limit's time %.0f ms\n",
				p.name, p.size, p.tile, 1e3 * critical_path(&p), 1e3 * best[SEQUENTIAL] / ncores);
			if (shortest > 0)
				fprintf(stderr, "  %s %d tile %d: the shortest %d-core schedule of the graph %.0f ms:"
						" no runtime passes peppher/limit %.2f\n",
					p.name, p.size, p.tile, ncores, 1e3 * shortest,
					best[SEQUENTIAL] / ncores / shortest);
		}
	}
	problem_free(&p);
}

static int parse_list(const char *s, int *v, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;

		v[n++] = (int)strtol(s, &end, 10);
		if (end == s || v[n - 1] < 1)
			return -1;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

static int has(const char *list, const char *name)
{
	const char *s = strstr(list, name);
	size_t l = strlen(name);

	return s && (s == list || s[-1] == ',') && (s[l] == 0 || s[l] == ',');
}

int main(int argc, char **argv)
{
	int ns[8] = { 2048, 4096 }, nn = 2, bs[8] = { 64, 128, 256, 512 }, nb = 4;
	int ks[8] = { 4096, 16384, 65536, 262144 }, nk = 4, sgemm_n = 2048, grid = 1024, opt;
	const char *problems = "cholesky,sgemm,spmv";
	int quick = getenv("PEPPHER_QUICK") && atoi(getenv("PEPPHER_QUICK")) > 0;

	ncores = (int)sysconf(_SC_NPROCESSORS_ONLN);
	while ((opt = getopt(argc, argv, "c:r:n:b:s:g:k:p:t:qv")) != -1) {
		switch (opt) {
		case 'c': ncores = atoi(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 'n': nn = parse_list(optarg, ns, 8); break;
		case 'b': nb = parse_list(optarg, bs, 8); break;
		case 's': sgemm_n = atoi(optarg); break;
		case 'g': grid = atoi(optarg); break;
		case 'k': nk = parse_list(optarg, ks, 8); break;
		case 'p': problems = optarg; break;
		case 't': runtimes = optarg; break;
		case 'q': quick = 1; break;
		case 'v': verbose = 1; break;
		default: nn = -1;
		}
	}
	if (quick) {
		ns[0] = 1024;
		nn = 1;
		sgemm_n = 512;
		grid = 512;
		rounds = 1;
	}
	if (nn < 1 || nb < 1 || nk < 1 || ncores < 1 || rounds < 1 || sgemm_n < 1 || grid < 2 ||
	    optind != argc) {
		fprintf(stderr, "usage: apps [-q] [-c cores] [-r rounds] [-n sizes] [-b tiles] [-s n] "
				"[-g grid] [-k block rows] [-p cholesky,sgemm,spmv] [-t runtimes] [-v]\n");
		return 2;
	}
	starpu_codelets_init();
	printf("apps: %d cores (one worker each, CPU only), best of %d rounds, GFLOP/s;\n"
	       "limit: the same tasks one after the other on one core, times %d\n\n", ncores,
	       rounds, ncores);
	printf("%-8s %4s %5s tile %6s %6s tasks %8s %8s %8s %8s   %5s %5s %5s\n", "problem", "", "size", "",
	       "", "peppher", "starpu", "openmp", "limit", "/stpu", "/omp", "/lim");
	for (int i = 0; has(problems, "cholesky") && i < nn; i++)
		for (int j = 0; j < nb; j++)
			if (ns[i] % bs[j] == 0 && bs[j] < ns[i])
				bench(cholesky_make(ns[i], bs[j]));
	for (int j = 0; has(problems, "sgemm") && j < nb; j++)
		if (sgemm_n % bs[j] == 0 && bs[j] <= sgemm_n)
			bench(sgemm_make(sgemm_n, bs[j]));
	for (int j = 0; has(problems, "spmv") && j < nk; j++)
		if (ks[j] < grid * grid)
			bench(spmv_make(grid, ks[j]));
	printf("\ntargets: peppher/starpu >= 1.0 and peppher/openmp >= 0.95 at every tile size,\n"
	       "peppher/limit >= 0.9 at the largest tiles\n");
	return 0;
}
