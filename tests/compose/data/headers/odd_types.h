/* Types real headers write that descriptors once could not (X11's
 * Xresource.h and Intrinsic.h, valgrind's libvex.h, openssl's modes.h,
 * numerical code's fixed-width matrices). */
#ifndef ODD_TYPES_H
#define ODD_TYPES_H
/* a tag named by its typedef only: clang spells a pointer to it
 * "enum odd_binding *", a tag that does not exist */
typedef enum { ODD_TIGHT, ODD_LOOSE } odd_binding, *odd_binding_list;
/* a function pointer that does not return */
typedef void (*odd_handler)(const char *) __attribute__((noreturn));
/* rows of three, and rows of m: row-major matrices */
double odd_rows(int n, double m[][3]);
void odd_scale(int n, int m, double a[n][m], double s);
/* an array of arrays a typedef names (openssl's DES_cblock output[]):
 * a vector of them */
typedef unsigned char odd_block[4];
int odd_sum_blocks(const odd_block in[], int n);
/* blocks of 2 x 2: a pointer to arrays, passed as itself */
double odd_blocks(int n, const double b[][2][2]);
/* a callback taking a pointer to arrays */
int odd_each(int (*f)(const unsigned char (*)[4], int), int x);
int odd_bind(const char *s, odd_binding_list b, int *n);
odd_handler odd_set(odd_handler h);
int odd_exit_with(void (*leave)(void) __attribute__((noreturn)), int now);
/* a pointer to a typedef'd function type (mpi.h's
 * MPI_Comm_errhandler_function *): a function pointer, not data */
typedef int(odd_visit_fn)(int);
int odd_visit(odd_visit_fn *f, int x);
/* pointers kept in a union of structs (libyaml's yaml_event_t) or in an
 * array: the structure is a handle, as one with a pointer member is */
typedef struct {
	int type;
	union {
		struct {
			const char *value;
			int length;
		} scalar;
		int depth;
	} data;
} odd_event;
int odd_event_length(odd_event *e);
typedef struct {
	const char *names[2];
} odd_names;
int odd_names_length(const odd_names *n);
/* p's count right after it; rows and columns are u's */
void odd_push(double *p, int n, const double *u, int rows, int cols);
/* types written with typeof (GNU's __typeof__): the types they name */
__typeof__(int) odd_typeof_sum(const __typeof__(float) *x, int n);
/* atomic data, which no task's data can be: left out of main.xml */
void odd_atomic_add(_Atomic int *c, int n);
/* a const array typedef (libuuid's "const uuid_t uu"): const elements,
 * which the function reads (clang qualifies the array, not its element:
 * they were "unsigned char *", readwrite) */
typedef unsigned char odd_id[4];
int odd_id_cmp(const odd_id a, const odd_id b);
void odd_id_copy(odd_id dst, const odd_id src);
typedef double odd_row[3];
double odd_first(int n, const odd_row *r);
/* a callback taking a va_list (libtiff's TIFFErrorHandler) is a function
 * pointer, passed by value: its function was left out as taking a
 * va_list, which odd_vcount does */
#include <stdarg.h>
typedef void (*odd_report)(const char *fmt, va_list ap);
odd_report odd_set_report(odd_report r);
int odd_say(int n);
int odd_vcount(const char *fmt, va_list ap);
/* GSL's strided vectors: "data, stride, n", "w, wstride", "data1,
 * stride1" span 1 + (n - 1) * stride elements (they were guessed n) */
#include <stddef.h>
double odd_wmean(const double *w, size_t wstride, const double *data, size_t stride, size_t n);
void odd_swap(double *data1, size_t stride1, double *data2, size_t stride2, size_t n);
/* an image's rows, "stride" apart: the matrix its height and width guess */
void odd_fill(unsigned char *pixels, int stride, int width, int height);
/* rows a typedef declares: a matrix of 2 x 3 (it was one row, "no parameter
 * says how many") */
typedef double odd_mat[2][3];
double odd_trace(const odd_mat m);
/* a size named after one pointer is not another's (libsodium's
 * crypto_secretbox_easy(c, m, mlen, n, k): the nonce held mlen elements),
 * nor is one right after a buffer of bytes a record's (jansson's
 * json_dumpb(json, buffer, size, flags): json held size elements) */
int odd_seal(unsigned char *c, const unsigned char *m, unsigned long long mlen,
	     const unsigned char *n, const unsigned char *k);
typedef struct {
	int id;
	double value;
} odd_record;
size_t odd_dump(const odd_record *r, char *buffer, size_t size);
/* what a function pointer is called with (pthread_create's arg, qsort_r's,
 * sqlite3_exec's): the pointer itself, not data (user held n bytes); and
 * qsort's "base, nmemb, size": nmemb elements of size bytes (base held
 * nmemb bytes) */
typedef void (*odd_each_fn)(double *x, void *user);
void odd_apply(double *x, int n, odd_each_fn fn, void *user);
void odd_reverse(void *base, size_t nmemb, size_t size);
/* bsearch's key: one element of the size base's elements have (it held
 * nmemb elements) */
const void *odd_find(const void *key, const void *base, size_t nmemb, size_t size);
/* a pointer typedef qualified restrict (hwloc.h's "hwloc_topology_t
 * __hwloc_restrict topology"): clang spells it "restrict odd_ctx_t", which
 * was written into descriptors compose refuses */
typedef struct odd_ctx *odd_ctx_t;
odd_ctx_t odd_ctx_new(int depth);
int odd_ctx_depth(odd_ctx_t __restrict ctx);
void odd_ctx_free(odd_ctx_t restrict ctx);
#endif
