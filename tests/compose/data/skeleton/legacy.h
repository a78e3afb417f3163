/*
 * A legacy library header, as found in the wild: comments, macros, typedefs,
 * const and non-const pointers, structs, enums, multi-line declarations,
 * an extern "C" block, and parameters the tool cannot describe alone.
 */
#ifndef LEGACY_H
#define LEGACY_H

#include <stddef.h>
#include <stdio.h>

#define LEGACY_API extern
#define LEGACY_DECL(name, arg) void name(arg)

typedef double real;
typedef int index_t;

enum legacy_mode { LEGACY_FAST, LEGACY_ACCURATE };

struct particle {
	double x, y, vx, vy;
};

#ifdef __cplusplus
extern "C" {
#endif

/* y = a*x + y, n elements */
LEGACY_API void saxpy(size_t n, float a, const float *x, float *y);

/* a declaration spread over lines, with a typedef'd element type */
void scale(real *data,
	   index_t len,
	   real factor);

/* the size is named after the pointer */
double norm2(const double *v, int v_len, enum legacy_mode mode);

/* a row-major matrix followed by its dimensions */
void transpose(const float *in, float *out, int nrows, int ncols);

/* m and n after a matrix pointer */
void matfill(double *A, int m, int n, double value);

/* a struct array and an output scalar */
void advance(struct particle *p, int count, double dt, double *energy);

/* a macro expands into this declaration */
LEGACY_DECL(reset_all, int flags);

/* not describable alone: the tool warns and leaves a placeholder */
void sort_keys(int *keys, int n, int (*cmp)(const void *, const void *));
void free_rows(float **rows, int nrows);
void dump(const void *buf, size_t size);
void report(const char *fmt, ...);

/* handles, strings and files: only their address means something */
typedef struct legacy_db legacy_db; /* opaque */
typedef struct legacy_stream {
	unsigned char *next;
	size_t avail;
} *legacy_streamp;
int db_open(const char *path, legacy_db **db);
int db_count(legacy_db *db, const char *table);
int stream_init(legacy_streamp strm, int level);
void write_table(FILE *out, const double *t, size_t n);

/* the output's capacity in, its length out, as zlib's compress */
int pack(unsigned char *dest, size_t *destLen, const unsigned char *source, size_t sourceLen);

/* a pointer typedef to data, and a macro of the function's own name */
typedef float *vecp;
void vfill(vecp v, int n, float value);
#define vfill(v, n, value) (vfill)(v, n, value)

/* C (M x N) = A (M x K) B (K x N) */
void gemm(int M, int N, int K, const float *A, const float *B, float *C);

/* a negative length: up to the first zero, as libyaml's -1 "up to the NUL" */
int count_until(const short *v, int len);

/* static: not part of the interface */
static inline int legacy_helper(int v) { return v + 1; }

#ifdef __cplusplus
}
#endif

#endif
