/*
 * C declarations as a compiler sees them, through libclang: the functions a
 * header declares (skeleton mode) and the prototype of one function in an
 * implementation's source (prototype checks).  Macros, typedefs, includes,
 * comments, extern "C" blocks and multi-line declarations are clang's job.
 */
#ifndef COMPOSE_CPARSE_H
#define COMPOSE_CPARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

enum cshape {
	CSHAPE_VALUE,	 /* arithmetic, enum, struct, typedef of those */
	CSHAPE_POINTER,	 /* pointer to data */
	CSHAPE_VOIDPTR,	 /* void * / const void *: element type unknown */
	CSHAPE_PTRPTR,	 /* pointer to pointer */
	CSHAPE_FUNCPTR,	 /* pointer to function */
};

struct cparam {
	char *name;	 /* "" when the declaration names none */
	char *type;	 /* as written, typedefs kept: "const float *" */
	char *plain;	 /* canonical, top-level qualifiers removed: "const float *" */
	char *pointee;	 /* pointers: canonical pointee without qualifiers: "float" */
	bool pointee_const;
	bool pointee_array; /* points to arrays written as such ("double (*m)[3]",
			       "double m[][3]"; not "const odd_block *", a typedef's) */
	bool integer;	 /* by-value integer (a size candidate) */
	/* header mode only: */
	char *spelled;	 /* a pointer typedef with its '*' shown ("z_stream *" for
			    z_streamp), or NULL when type shows it already */
	bool pointee_integer; /* points to an integer (an in/out length?) */
	bool pointee_char;    /* points to char: a string */
	long long array_len; /* declared as an array of that many elements
				("char out[29]"), else 0 */
	/* declared as rows of an array ("double a[n][m]", "double a[][3]"):
	 * the pointer to their elements ("double *"), the rows as written
	 * ("n", or NULL where not), and the elements of a row ("m", "3");
	 * else NULL */
	char *flat, *rows, *cols;
	bool handle;	 /* points to a struct or union that is incomplete or holds
			    pointers (gzFile, sqlite3 *, FILE *): only its address
			    means something to the caller */
	bool handle_out; /* points to a pointer to such a struct (sqlite3 **,
			    PETSc's KSP *): where a handle is written or read */
	enum cshape shape;
	int line;
};

struct cfunc {
	char *name;	/* as the header's users write it */
	char *symbol;	/* the linker's name, where a macro renames the function
			 * (GMP's mpz_add is __gmpz_add) or an asm label does
			 * (glibc's strerror_r is __xpg_strerror_r); else NULL */
	char *file;
	int line;
	char *result;	/* return type as written ("void" for none) */
	char *result_plain; /* canonical, unqualified */
	bool variadic;
	bool cxx_linkage; /* a C++ or CUDA source's, not extern "C" (source walks only) */
	bool no_prototype; /* "int f();": variadic too, its parameters unknown */
	bool va_list;	/* takes a va_list, which another thread cannot use */
	bool defined_here; /* the header declares it inline too (gmp.h's
			    * extern inline definitions): calls may be
			    * inlined (header walks only) */
	struct cparam *params;
	size_t nparams;
};

/* The name fn is declared with: the linker's. */
static inline const char *cfunc_symbol(const struct cfunc *fn)
{
	return fn->symbol ? fn->symbol : fn->name;
}

/* The libclang compose opens when it first parses (its soname). */
const char *cparse_library(void);

/*
 * Open libclang, once per process (later calls return the first answer).
 * Returns 0, or -1 with *why saying why it cannot be loaded (do not free).
 */
int cparse_load(const char **why);

/*
 * Every non-static function declared in the header at path itself or in
 * its private parts (headers it includes that refuse to be included
 * alone, or are in a folder named bits: glibc's math.h declares its
 * functions in <bits/mathcalls.h>), not in the other headers it includes,
 * in order, each once; for an umbrella header that declares none
 * (lzma.h), those of the headers it includes with quotes, and their
 * parts.  A header that declares none is warned about, with the headers
 * it includes that do (poll.h: <sys/poll.h>).  args are passed to clang
 * (-I, -D).  It is read as C of standard std ("c2x"), or when std is NULL
 * as gnu11, and where only C2x parses it (C23's [[nodiscard]]) as gnu2x,
 * and then *std_read is "gnu2x" (else NULL).  A
 * header that parses only after standard headers (jpeglib.h: <stdio.h>)
 * sets *prelude to their names (NULL-terminated), else to NULL.
 * Returns 0, or -1 when the header does not parse or libclang cannot be
 * loaded (reported).
 */
int cparse_header(const char *path, char *const *args, size_t nargs, const char *std,
		  struct cfunc **funcs, size_t *nfuncs, const char *const **prelude,
		  const char **std_read);

/*
 * A parser for prototype checks, one per thread: it keeps the last unit it
 * parsed, so that checking many sources with the same flags is cheap.
 * Only once cparse_load() succeeded.
 */
struct cparser;
struct cparser *cparser_new(void);
void cparser_free(struct cparser *p);

/*
 * The function fname as defined (or else declared) in the source at path,
 * compiled by tool with args; and, in the same context (after the source's
 * own includes and typedefs), each of the ntypes C types in types, as
 * struct cparam with only plain, pointee, pointee_const and shape set.
 * Returns 1 when found, 0 when the source has no such function, -1 when
 * it cannot be parsed; *why then says why (caller frees).
 */
int cparse_function(struct cparser *p, const char *path, enum toolchain tool,
		    char *const *args, size_t nargs, const char *fname, char *const *types,
		    size_t ntypes, struct cfunc *fn, struct cparam *resolved, char **why);

void cfunc_free(struct cfunc *fn);
void cparam_free(struct cparam *p);

#endif
