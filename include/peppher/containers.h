/*
 * Smart containers: a vector, a matrix and a scalar that own (or wrap) host
 * memory and one runtime data handle for their whole life, so that component
 * calls reuse device copies and data moves only when needed.
 *
 * Host access goes through pph_*_read() (the host copy is made valid first,
 * after the tasks that write the data) and pph_*_write() (also waits for the
 * tasks that read it, and invalidates device copies).  The element macros
 * cost one branch when the host copy is already valid.  Passing a container
 * to a composed component makes the call asynchronous.
 *
 * Functions returning pointers return NULL on failure (errno is set);
 * destroy functions accept NULL.
 */
#ifndef PEPPHER_CONTAINERS_H
#define PEPPHER_CONTAINERS_H

#include <stddef.h>

#include <peppher/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the host may do with the data without asking the runtime. */
enum pph_host_access { PPH_HOST_NONE, PPH_HOST_READ, PPH_HOST_WRITE };

/** A container's shared part; fields are private to the runtime. */
struct pph_container {
	pph_data_handle handle;
	void *data;
	size_t elemsize;
	int owned;
	/* what the host may do (enum pph_host_access) in bits 0-1, valid
	 * until the next component call, and a count of the calls above:
	 * read and written atomically (another thread's call may reset it) */
	unsigned host;
};

typedef struct pph_vector {
	struct pph_container c;
	size_t n;
} pph_vector;

typedef struct pph_matrix {
	struct pph_container c;
	size_t rows, cols;
	size_t ld; /* elements from one row to the next: cols, or a tile's parent's */
} pph_matrix;

typedef struct pph_scalar {
	struct pph_container c;
} pph_scalar;

/** A zeroed vector of n elements of elemsize bytes, owning its memory.
 *  NULL with errno EINVAL (elemsize 0), EOVERFLOW (n * elemsize does not
 *  fit in a size_t) or ENOMEM; the same for the other constructors. */
pph_vector *pph_vector_create(size_t n, size_t elemsize);
/** A vector over existing memory, which the caller keeps owning. */
pph_vector *pph_vector_wrap(void *data, size_t n, size_t elemsize);
/** Wait for the tasks using it, free the container; wrapped memory is
 *  brought home, up to date, and memory created by pph_vector_create is
 *  freed without a copy home. */
void pph_vector_destroy(pph_vector *v);
size_t pph_vector_size(const pph_vector *v);

/** rows x cols, row major. */
pph_matrix *pph_matrix_create(size_t rows, size_t cols, size_t elemsize);
pph_matrix *pph_matrix_wrap(void *data, size_t rows, size_t cols, size_t elemsize);
/** rows x cols over existing memory whose rows start ld elements apart
 *  (ld >= cols, else NULL with errno EINVAL): a padded matrix, or a block
 *  of a larger one.  Calls neither read nor write the elements between
 *  (a device gets the rows packed); a component whose variants are to
 *  take it gives its leading dimension (numElements="rows,cols,ld"). */
pph_matrix *pph_matrix_wrap_ld(void *data, size_t rows, size_t cols, size_t ld,
			       size_t elemsize);
void pph_matrix_destroy(pph_matrix *m);

/**
 * A matrix split into a grid of tiles, each a pph_matrix of its own over the
 * parent's memory (a view: no copy), with its own dependencies and its own
 * copies on devices.  Calls on tiles run as a task graph ordered by the
 * tiles they use.  The parent must not be used while tiled.
 */
typedef struct pph_matrix_tiles {
	pph_matrix *parent;
	size_t nrows, ncols;	 /* tiles down and across */
	size_t tile_rows, tile_cols;
	pph_matrix *tiles;	 /* [i * ncols + j]: tile (i, j) */
	pph_data_handle *handles; /* their handles, for pph_data_unpartition */
} pph_matrix_tiles;

/**
 * Split m into tiles of tile_rows x tile_cols elements (those of the last
 * row and column of the grid are smaller when the sizes do not divide m's).
 * Waits for the tasks using m and brings its data home first.  Returns the
 * grid, or NULL with errno EINVAL (zero tile sizes), EBUSY (m is tiled or
 * partitioned already) or ENOMEM.  Undone by pph_matrix_untile().
 */
pph_matrix_tiles *pph_matrix_tile_grid(pph_matrix *m, size_t tile_rows, size_t tile_cols);
/** Tile (i, j) of the grid (NULL outside it).  It lives until untiled. */
pph_matrix *pph_matrix_tile(pph_matrix_tiles *t, size_t i, size_t j);
/** Wait for the tasks using the tiles, gather the tiles' data home into the
 *  parent, which is usable again, and free the grid (NULL is a no-op). */
void pph_matrix_untile(pph_matrix_tiles *t);

pph_scalar *pph_scalar_create(size_t elemsize);
void pph_scalar_destroy(pph_scalar *s);

/** Host data valid for reading (NULL on a failed transfer). */
const void *pph_container_read(struct pph_container *c);
/** Host data valid for reading and writing; device copies invalidated. */
void *pph_container_write(struct pph_container *c);

#define pph_vector_read(v) pph_container_read(&(v)->c)
#define pph_vector_write(v) pph_container_write(&(v)->c)
#define pph_matrix_read(m) pph_container_read(&(m)->c)
#define pph_matrix_write(m) pph_container_write(&(m)->c)
#define pph_scalar_read(s) pph_container_read(&(s)->c)
#define pph_scalar_write(s) pph_container_write(&(s)->c)

/* Element access: one branch when the host copy is already valid. */
/* What the host may do with container c now (enum pph_host_access): an
 * acquire load, which is a plain load on x86. */
#define PPH_HOST_ACCESS(c) (__atomic_load_n(&(c)->host, __ATOMIC_ACQUIRE) & 3u)
#define PPH_HOST_R(c)                                                                     \
	(PPH_HOST_ACCESS(c) != PPH_HOST_NONE ? PPH_CAST_(const void *, (c)->data) :         \
					       pph_container_read(c))
#define PPH_HOST_W(c) (PPH_HOST_ACCESS(c) == PPH_HOST_WRITE ? (c)->data : pph_container_write(c))
#define PPH_VECTOR_GET(v, T, i) (PPH_CAST_(const T *, PPH_HOST_R(&(v)->c))[i])
#define PPH_VECTOR_SET(v, T, i, x) (PPH_CAST_(T *, PPH_HOST_W(&(v)->c))[i] = (x))
#define PPH_MATRIX_GET(m, T, i, j) (PPH_CAST_(const T *, PPH_HOST_R(&(m)->c))[(i) * (m)->ld + (j)])
#define PPH_MATRIX_SET(m, T, i, j, x) \
	(PPH_CAST_(T *, PPH_HOST_W(&(m)->c))[(i) * (m)->ld + (j)] = (x))
#define PPH_SCALAR_GET(s, T) (*PPH_CAST_(const T *, PPH_HOST_R(&(s)->c)))
#define PPH_SCALAR_SET(s, T, x) (*PPH_CAST_(T *, PPH_HOST_W(&(s)->c)) = (x))

/* Typed conveniences. */
#define pph_vector_create_float(n) pph_vector_create((n), sizeof(float))
#define pph_vector_create_double(n) pph_vector_create((n), sizeof(double))
#define pph_vector_create_int(n) pph_vector_create((n), sizeof(int))
#define pph_matrix_create_float(r, c) pph_matrix_create((r), (c), sizeof(float))
#define pph_matrix_create_double(r, c) pph_matrix_create((r), (c), sizeof(double))
#define pph_matrix_create_int(r, c) pph_matrix_create((r), (c), sizeof(int))
#define pph_scalar_create_float() pph_scalar_create(sizeof(float))
#define pph_scalar_create_double() pph_scalar_create(sizeof(double))
#define pph_scalar_create_int() pph_scalar_create(sizeof(int))

#ifdef __cplusplus
}
#endif

#endif
