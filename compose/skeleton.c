#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include <peppher/runtime.h> /* PPH_MAX_BUFFERS */

#include "config.h"
#include "diag.h"
#include "emit.h"
#include "libsyms.h"
#include "names.h"
#include "skeleton.h"
#include "util.h"

#ifndef PPH_HAVE_LIBCLANG
int generate_skeletons(const struct skeleton_request *r)
{
	(void)r;
	diag_error(NULL, "--generate-comp-files needs libclang: rebuild compose with the Debian package libclang-dev installed");
	return -1;
}
#else
#include "commit.h"
#include "cparse.h"

/* One file to write: its text, made through struct out. */
struct file {
	char *path; /* under outdir */
	char *text;
	size_t len;
	char *to; /* outdir/path */
	struct commit_file c; /* to to */
};

struct skeleton {
	const struct skeleton_request *r;
	char *outdir_abs;
	struct file **files; /* in the order they were opened */
	size_t nfiles;
	char **names; /* functions done, against duplicates across headers */
	size_t nnames;
	char **left_out; /* per name: why main.xml leaves it out, or NULL */
	struct strmap declared; /* the functions the headers declare */
	struct strmap generated; /* identifier compose makes -> the function whose it is */
	char **generated_keys;
	size_t ngenerated;
	struct libsyms *libs; /* -l's libraries, where their symbols can be looked up */
	/* one of them opens OpenMP regions: the CPU variants that call them
	 * are fork-join ones, run on a team whose threads are pinned a core
	 * each (on one worker, the region's threads shared its one core) */
	bool libs_openmp;
	/* the CPU variants that run on the calling thread (callerThread):
	 * how many, and the first library that keeps state per thread */
	unsigned per_thread_variants;
	char *per_thread_lib;
	unsigned reserved; /* functions skipped for their names */
	const struct cfunc *kept; /* the last function given an interface */
	struct strbuf main_includes; /* main.c's includes of the headers */
	char *cpp_flags; /* " -I... -D..." the headers were read with, XML-escaped, or "" */
	const char *std; /* the C standard they were read with, where not the
			    parser's default (-std, or gnu2x where only it
			    parses them), or NULL: the C sources' flags have it */
	char *link_flags; /* "-L... -l...", XML-escaped, or NULL */
	unsigned errors; /* files that could not be made */
};

/* A parameter as the interface will declare it. */
struct sparam {
	const struct cparam *c;
	char *name;
	const char *access;
	char *num_elements;
	char *count; /* of a strided vector: its elements, not their span */
	char *elem_type;
	char *note; /* XML comment: a guess or a placeholder to fill */
	bool by_value; /* a pointer passed as itself (byValue="true") */
};

/* Descriptors indent by two spaces a level, stubs by a tab. */
#define XML_UNIT "  "
#define C_UNIT NULL

/* Open path (taken; under outdir) into memory, indented by unit.
 * Returns 0, or -1 (reported and counted). */
static int open_file(struct skeleton *s, struct out *o, char *path, const char *unit)
{
	struct file *f = xcalloc(1, sizeof(*f));

	f->path = path;
	*(struct file **)array_push(&s->files, &s->nfiles, sizeof(f)) = f;
	if (out_open_memory(o, &f->text, &f->len) != 0) {
		diag_error(NULL, "cannot write '%s': %s", path, strerror(errno));
		s->errors++;
		return -1;
	}
	o->unit = unit;
	return 0;
}

/* Close o, the file opened last. */
static void close_file(struct skeleton *s, struct out *o)
{
	if (out_close(o) != 0) {
		diag_error(NULL, "cannot write '%s': %s", s->files[s->nfiles - 1]->path,
			   strerror(errno));
		s->errors++;
	}
}

static char *xml_escape(const char *s)
{
	struct strbuf b = { 0 };

	strbuf_append(&b, "%s", "");
	for (; *s; s++)
		switch (*s) {
		case '&': strbuf_append(&b, "&amp;"); break;
		case '<': strbuf_append(&b, "&lt;"); break;
		case '>': strbuf_append(&b, "&gt;"); break;
		case '"': strbuf_append(&b, "&quot;"); break;
		default: strbuf_append(&b, "%c", *s);
		}
	return b.s;
}

/* ---- guessing sizes ------------------------------------------------------ */

static bool is_size_name(const char *n)
{
	static const char *const exact[] = {
		"n", "N", "size", "len", "length", "count", "num", "nelem", "nelems",
		"nitems", "nmemb", "cnt", "num_elements", "nb", "sz", "capacity",
	};
	static const char *const suffixes[] = { "_size", "_len", "_length", "_count", "_capacity",
						"Size", "Len", "Length", "Count", "Capacity",
						"size", "len" };
	size_t i, len = strlen(n);

	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(n, exact[i]) == 0)
			return true;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && strcmp(n + len - sl, suffixes[i]) == 0)
			return true;
	}
	return false;
}

/* "Len", "_size", "Count": a size in any case, after a name. */
static bool is_size_word(const char *rest)
{
	char *lower = xstrdup(rest + (rest[0] == '_')), *c;
	bool size;

	for (c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	size = lower[0] && is_size_name(lower);
	free(lower);
	return size;
}

/* Is size named for ptr, in any case ("x_len", "nx", "xsize", "len_x",
 * zstd's "srcSize" and "dstCapacity": the capacity of an output is its
 * size, however much the call then writes)? */
static bool sizes_by_name(const char *size, const char *ptr)
{
	static const char *const forms[] = { "%s_len",	     "%s_size",	   "%s_count", "%slen",
					     "%ssize",	     "%s_length",  "%slength", "%s_capacity",
					     "%scapacity",   "n%s",	   "n_%s",     "len_%s",
					     "size_%s",	     "%s_n" };
	size_t i;
	bool match = false;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]) && !match; i++) {
		char *want = xasprintf(forms[i], ptr);

		match = strcasecmp(want, size) == 0;
		free(want);
	}
	return match;
}

/* Is a pointer named name a size to read or write ("len", "destLen",
 * "srcSizePtr", "out_len_p")? */
static bool is_size_pointer_name(const char *name)
{
	static const char *const suffixes[] = { "Ptr", "_ptr", "_p" };
	size_t i, len = strlen(name);
	bool size = is_size_name(name);

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]) && !size; i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && strcmp(name + len - sl, suffixes[i]) == 0) {
			char *stem = xasprintf("%.*s", (int)(len - sl), name);

			size = is_size_name(stem);
			free(stem);
		}
	}
	return size;
}

static bool looks_like_matrix(const char *name)
{
	return (name[0] >= 'A' && name[0] <= 'Z' && !name[1]) || strstr(name, "mat") ||
	       strstr(name, "Mat") || strstr(name, "MAT");
}

static int find_size(const struct sparam *ps, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE &&
		    strcmp(ps[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* rows,cols for the matrix-like pointer at index k, or NULL. */
static char *guess_matrix(const struct sparam *ps, size_t n, size_t k)
{
	static const char *const pairs[][2] = {
		{ "nrows", "ncols" }, { "rows", "cols" }, { "nr", "nc" },
		{ "m", "n" }, { "M", "N" }, { "height", "width" },
	};
	size_t i;

	if (!looks_like_matrix(ps[k].name) && find_size(ps, n, "nrows") < 0 &&
	    find_size(ps, n, "rows") < 0 && find_size(ps, n, "height") < 0)
		return NULL;
	/* BLAS's gemm: C (M x N) = A (M x K) B (K x N) */
	for (i = 0; i < 2; i++) {
		const char *mnk = i ? "mnk" : "MNK";
		char m[2] = { mnk[0] }, nn[2] = { mnk[1] }, kk[2] = { mnk[2] };

		if (find_size(ps, n, m) < 0 || find_size(ps, n, nn) < 0 || find_size(ps, n, kk) < 0)
			continue;
		if (strcasecmp(ps[k].name, "A") == 0)
			return xasprintf("%s,%s", m, kk);
		if (strcasecmp(ps[k].name, "B") == 0)
			return xasprintf("%s,%s", kk, nn);
	}
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		int r = find_size(ps, n, pairs[i][0]), c = find_size(ps, n, pairs[i][1]);

		/* m and n only count after the pointer, or for a matrix-like name */
		if (r >= 0 && c >= 0 && (i < 3 || looks_like_matrix(ps[k].name) ||
					 (r > (int)k && c > (int)k)))
			return xasprintf("%s,%s", pairs[i][0], pairs[i][1]);
	}
	return NULL;
}

/* The by-value integer right after the pointer at index k, if its name
 * (in any case) is prefix and at most two more characters (BLAS's "incX"
 * after a vector, GSL's "stride1"), or the pointer's name and prefix
 * (GSL's "wstride" after "w"); else -1. */
static int spacing_after(const struct sparam *ps, size_t n, size_t k, const char *prefix)
{
	const struct sparam *next = k + 1 < n ? &ps[k + 1] : NULL;
	size_t own = strlen(ps[k].name);

	if (!next || !next->c->integer || next->c->shape != CSHAPE_VALUE)
		return -1;
	if (strncasecmp(next->name, prefix, strlen(prefix)) == 0 && strlen(next->name) <= strlen(prefix) + 2)
		return (int)(k + 1);
	return strncasecmp(next->name, ps[k].name, own) == 0 && strcasecmp(next->name + own, prefix) == 0 ?
		       (int)(k + 1) :
		       -1;
}

/* The by-value integer right after the count at index s of the void
 * pointer at k if it is the size of each element (qsort's "base, nmemb,
 * size", bsearch's, fwrite's "ptr, size, nmemb" read the other way: the
 * size first), named so; else -1. */
static int element_size_after(const struct sparam *ps, size_t n, size_t k, size_t s)
{
	static const char *const names[] = { "size", "elsize", "elemsize", "elem_size",
					     "element_size", "width", "membsize" };
	const struct sparam *next = s + 1 < n ? &ps[s + 1] : NULL;
	size_t i;

	if (!next || s + 1 == k || !next->c->integer || next->c->shape != CSHAPE_VALUE)
		return -1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(next->name, names[i]) == 0 && strcasecmp(ps[s].name, names[i]) != 0)
			return (int)(s + 1);
	return -1;
}

/* The by-value integer right after the pointer at index k if it is its
 * leading dimension, named as BLAS and LAPACK name them: "ld" and the
 * pointer's name ("lda" after "a", "LDVT" after "VT"); else -1. */
static int leading_dimension_after(const struct sparam *ps, size_t n, size_t k)
{
	const struct sparam *next = k + 1 < n ? &ps[k + 1] : NULL;

	return next && next->c->integer && next->c->shape == CSHAPE_VALUE &&
			       strncasecmp(next->name, "ld", 2) == 0 &&
			       strcasecmp(next->name + 2, ps[k].name) == 0 ?
		       (int)(k + 1) :
		       -1;
}

/* Is the parameter right after the pointer at index k a by-value integer
 * named as a count ("p, n"): then that is its count, not the rows and
 * columns other parameters name (push(pt *p, int n, ..., int rows, int cols)
 * guessed p a matrix of rows x cols). */
static bool count_follows(const struct sparam *ps, size_t n, size_t k)
{
	return k + 1 < n && ps[k + 1].c->integer && ps[k + 1].c->shape == CSHAPE_VALUE &&
	       is_size_name(ps[k + 1].name);
}

/* Is the parameter at index i named after a pointer parameter other than
 * the one at index k ("mlen" after "m")? */
static bool sizes_another(const struct sparam *ps, size_t n, size_t i, size_t k)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (j != k && ps[j].c->shape != CSHAPE_VALUE && sizes_by_name(ps[i].name, ps[j].name))
			return true;
	return false;
}

/* Does c point to bytes (void, or any char: zlib's Bytef, uint8_t)? */
static bool is_byte_buffer(const struct cparam *c)
{
	return c->shape == CSHAPE_VOIDPTR ||
	       (c->shape == CSHAPE_POINTER && c->pointee &&
		(strcmp(c->pointee, "char") == 0 || strcmp(c->pointee, "unsigned char") == 0 ||
		 strcmp(c->pointee, "signed char") == 0));
}

/* Is the parameter at index i right after a buffer of bytes, the pointer
 * at index k pointing to something else ("json_t *json, char *buf, size_t
 * size")?  Not where k points to bytes too: memcmp's and strncpy's two
 * buffers share their size. */
static bool follows_another_buffer(const struct sparam *ps, size_t i, size_t k)
{
	return i > 0 && i - 1 != k && is_byte_buffer(ps[i - 1].c) && !is_byte_buffer(ps[k].c);
}

/* Is the parameter at index i a size-like by-value integer that another
 * pointer than the one at index k does not own, by its name or by coming
 * right after a buffer of bytes (jansson's json_dumpb(json, buffer, size,
 * flags): size is the buffer's, not the JSON value's)? */
static bool free_size(const struct sparam *ps, size_t n, size_t i, size_t k)
{
	return ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE && is_size_name(ps[i].name) &&
	       !sizes_another(ps, n, i, k) && !follows_another_buffer(ps, i, k);
}

/* The size parameter of the pointer at index k: named for it, else the
 * nearest size-like name after it, else before it, but for one named for
 * another pointer (libsodium's crypto_secretbox_easy(c, m, mlen, n, k):
 * mlen is m's, and neither the nonce n's nor the key k's). */
static int guess_vector(const struct sparam *ps, size_t n, size_t k, const char **why)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE &&
		    sizes_by_name(ps[i].name, ps[k].name)) {
			*why = "named after it";
			return (int)i;
		}
	*why = "the nearest size-like name";
	for (i = k + 1; i < n; i++)
		if (free_size(ps, n, i, k))
			return (int)i;
	for (i = k; i-- > 0;)
		if (free_size(ps, n, i, k))
			return (int)i;
	return -1;
}

static void warn_at(const struct cfunc *fn, int line, const char *fmt, const char *a,
		    const char *b)
{
	struct loc loc = { fn->file, line };

	diag_warning(&loc, fmt, a, b);
}

/* Put note before p's note (a guess first, then what is to fix). */
static void prepend_note(struct sparam *p, char *note)
{
	if (p->note) {
		char *both = xasprintf("%s; %s", note, p->note);

		free(note);
		note = both;
	}
	free(p->note);
	p->note = note;
}

/* p is passed as the pointer itself: only its address reaches the variant. */
static void pass_address(struct sparam *p, char *note)
{
	p->access = "read";
	p->by_value = true;
	prepend_note(p, note);
}

/* A pointer parameter that holds the length of the one at k ("destLen"
 * for "dest"), or -1. */
static int length_pointer(const struct sparam *ps, size_t n, size_t k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (i != k && ps[i].c->shape == CSHAPE_POINTER && ps[i].c->pointee_integer &&
		    (sizes_by_name(ps[i].name, ps[k].name) ||
		     (strncmp(ps[i].name, ps[k].name, strlen(ps[k].name)) == 0 &&
		      is_size_word(ps[i].name + strlen(ps[k].name)))))
			return (int)i;
	return -1;
}

/*
 * Data the runtime cannot move: handles (gzFile, sqlite3 *, FILE *),
 * strings, void * without a size, and buffers whose length another
 * pointer holds.  Returns true when p is passed as an address.
 */
static bool plan_address(struct sparam *ps, size_t n, size_t k)
{
	struct sparam *p = &ps[k];
	const struct cparam *c = p->c;
	int len;

	if (c->handle) {
		pass_address(p, xasprintf("'%s' is a handle: the variant gets the pointer itself (host memory: CPU variants only)",
					  p->name));
	} else if (c->pointee_char && c->pointee_const) {
		pass_address(p, xasprintf("'%s' is a string: the variant gets the pointer itself (host memory: CPU variants only)",
					  p->name));
	} else if ((len = length_pointer(ps, n, k)) >= 0) {
		pass_address(p, xasprintf("'%s' holds *%s elements, which numElements cannot say: the variant gets the pointer itself (host memory: CPU variants only)",
					  p->name, ps[len].name));
	} else if (c->pointee_integer && is_size_pointer_name(p->name)) {
		prepend_note(p, xasprintf("guess: '%s' is one in/out length", p->name));
	} else {
		return false;
	}
	return true;
}

/* The parameter that counts the rows of the pointer at index k: one
 * named as row counts are, else guess_vector's. */
static int guess_row_count(const struct sparam *ps, size_t n, size_t k, const char **why)
{
	static const char *const names[] = { "nrows", "rows", "nr", "height" };
	size_t i;
	int r;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((r = find_size(ps, n, names[i])) >= 0) {
			*why = "named as row counts are";
			return r;
		}
	return guess_vector(ps, n, k, why);
}

/* dim ("3", "m") as a size over the interface's parameters: a number, or
 * a by-value integer parameter's name (as the interface names it); NULL
 * where it is neither. */
static char *size_of_dimension(const struct sparam *ps, size_t n, const char *dim)
{
	size_t i;

	if (strspn(dim, "0123456789") == strlen(dim))
		return xstrdup(dim);
	for (i = 0; i < n; i++)
		if (ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE &&
		    strcmp(ps[i].c->name, dim) == 0)
			return xstrdup(ps[i].name);
	return NULL;
}

/*
 * A parameter declared as rows ("double a[n][m]", "double a[][3]") is a
 * row-major matrix of their elements, rows by the row's length: the
 * rows as declared, else a size parameter's guess.  False where the
 * sizes are no parameters' (then it is passed as itself).
 */
static bool plan_rows(const struct cfunc *fn, struct sparam *ps, size_t n, size_t k)
{
	struct sparam *p = &ps[k];
	char *rows = p->c->rows ? size_of_dimension(ps, n, p->c->rows) : NULL;
	char *cols = size_of_dimension(ps, n, p->c->cols);
	const char *why;
	int s;

	if (!cols || (p->c->rows && !rows)) {
		free(rows);
		free(cols);
		return false;
	}
	if (rows) {
		prepend_note(p, xasprintf("'%s' is declared as %s rows of %s elements: a row-major matrix",
					  p->name, rows, cols));
	} else if ((s = guess_row_count(ps, n, k, &why)) >= 0) {
		rows = xstrdup(ps[s].name);
		prepend_note(p, xasprintf("guess: '%s' holds '%s' rows of %s elements (%s)", p->name,
					  rows, cols, why));
	} else {
		char *which = xasprintf("'%s' of '%s'", p->name, fn->name);

		rows = xstrdup("1");
		warn_at(fn, p->c->line, "parameter %s has rows of %s elements, but no parameter says how many: give them in numElements",
			which, cols);
		free(which);
		prepend_note(p, xasprintf("FIXME: '%s' holds rows of %s elements; how many rows?",
					  p->name, cols));
	}
	p->num_elements = xasprintf("%s,%s", rows, cols);
	free(rows);
	free(cols);
	return true;
}

static void plan_pointer(const struct cfunc *fn, struct sparam *ps, size_t n, size_t k)
{
	struct sparam *p = &ps[k];
	const char *why;
	int s, stride, ld, size;

	p->access = p->c->pointee_const ? "read" : "readwrite";
	if (p->c->flat && plan_rows(fn, ps, n, k))
		return;
	if (p->c->shape == CSHAPE_POINTER && p->c->pointee_array) {
		/* "double m[][3]": a pointer to arrays, which the data layer
		 * does not describe (not "_Atomic(int) *", whose spelling
		 * has a parenthesis too) */
		warn_at(fn, p->c->line, "parameter '%s' of '%s' points to arrays: passed as itself, so only CPU variants can use it; describe its data by hand",
			p->name, fn->name);
		pass_address(p, xasprintf("FIXME: '%s' points to arrays: the variant gets the pointer itself (host memory: CPU variants only)",
					  p->name));
		return;
	}
	switch (p->c->shape) {
	case CSHAPE_PTRPTR:
		if (strchr(p->c->type, '(')) { /* "int (**pinit)(void *)", openssl's */
			pass_address(p, xasprintf("'%s' is where a function pointer is written: the variant gets the address itself (host memory: CPU variants only)",
						  p->name));
			return;
		}
		if (p->c->handle_out) { /* the handle's pointer is all there is to move */
			prepend_note(p, xasprintf("'%s' is where a handle is written (or read): the runtime moves the one pointer it holds",
						  p->name));
			return;
		}
		warn_at(fn, p->c->line, "parameter '%s' of '%s' is a pointer to pointers: passed as one pointer value; describe the data it reaches by hand",
			p->name, fn->name);
		prepend_note(p, xstrdup("FIXME: a pointer to pointers; the runtime moves only the pointer value"));
		return;
	case CSHAPE_VOIDPTR:
		if (k > 0 && ps[k - 1].c->shape == CSHAPE_FUNCPTR) {
			/* pthread_create's arg, qsort_r's, sqlite3_exec's,
			 * zlib's inflateBack in_desc: what the function is
			 * called with, which it alone knows */
			pass_address(p, xasprintf("guess: '%s' is what the function '%s' is called with: the variant gets the pointer itself (host memory: CPU variants only)",
						  p->name, ps[k - 1].name));
			return;
		}
		if (guess_vector(ps, n, k, &why) < 0) {
			pass_address(p, xasprintf("'%s' points to void and no size goes with it: the variant gets the pointer itself (host memory: CPU variants only)",
						  p->name));
			return;
		}
		warn_at(fn, p->c->line, "parameter '%s' of '%s' points to void: give its element type in elemType",
			p->name, fn->name);
		p->elem_type = xstrdup("unsigned char");
		prepend_note(p, xstrdup("FIXME: points to void; elemType is a placeholder, and numElements counts elemType elements"));
		break;
	default:
		if (plan_address(ps, n, k))
			return;
		break;
	}
	if (p->c->array_len > 1) { /* what the header says: no guess */
		p->num_elements = xasprintf("%lld", p->c->array_len);
		prepend_note(p, xasprintf("'%s' is declared as an array of %lld elements", p->name,
					  p->c->array_len));
		return;
	}
	/* a pointer followed by its increment is a vector (BLAS's x in gemv,
	 * a capital like a matrix's); a leading dimension is not guessed: a
	 * column-major matrix's (lda >= rows) may be smaller than its
	 * columns, which a row-major view cannot have */
	stride = spacing_after(ps, n, k, "inc");
	p->num_elements = stride < 0 && !count_follows(ps, n, k) ? guess_matrix(ps, n, k) : NULL;
	/* GSL's "data, stride, n"; an image's "pixels, stride, width,
	 * height" stays the matrix its rows and columns guess */
	if (stride < 0 && !p->num_elements)
		stride = spacing_after(ps, n, k, "stride");
	if ((ld = leading_dimension_after(ps, n, k)) >= 0)
		/* which of rows and columns is the leading one depends on the
		 * call's layout and transpose arguments: a device variant needs
		 * the elements they span, which no guess made here can give */
		prepend_note(p, xasprintf("FIXME: '%s' is a matrix whose rows or columns are '%s' elements apart: before writing a device variant, make numElements span them ((rows - 1) * %s + cols elements row-major, (cols - 1) * %s + rows column-major, rows and cols as the layout and transpose arguments say)",
					  p->name, ps[ld].name, ps[ld].name, ps[ld].name));
	if (p->num_elements) {
		prepend_note(p, xasprintf("guess: '%s' is a row-major matrix of %s elements",
					  p->name, p->num_elements));
		return;
	}
	s = guess_vector(ps, n, k, &why);
	if (s >= 0 && stride >= 0) {
		/* BLAS's strided vectors: the elements used span this many */
		prepend_note(p, xasprintf("guess: '%s' holds '%s' elements (%s), '%s' apart", p->name,
					  ps[s].name, why, ps[stride].name));
		p->num_elements = xasprintf("1 + (%s - 1) * abs(%s)", ps[s].name, ps[stride].name);
		p->count = xstrdup(ps[s].name);
	} else if (s >= 0 && p->c->shape == CSHAPE_VOIDPTR && (size_t)s == k + 1 &&
		   (size = element_size_after(ps, n, k, (size_t)s)) >= 0) {
		/* bytes, which the placeholder elemType counts */
		prepend_note(p, xasprintf("guess: '%s' holds '%s' elements (%s) of '%s' bytes each",
					  p->name, ps[s].name, why, ps[size].name));
		p->num_elements = xasprintf("%s * %s", ps[s].name, ps[size].name);
	} else if (s >= 0 && p->c->shape == CSHAPE_VOIDPTR && s > 0 && (size_t)s - 1 != k &&
		   ps[s - 1].c->shape == CSHAPE_VOIDPTR &&
		   (size = element_size_after(ps, n, s - 1, (size_t)s)) >= 0) {
		/* bsearch's key: one element of those another pointer holds */
		prepend_note(p, xasprintf("guess: '%s' is one element of '%s' bytes, as '%s' holds",
					  p->name, ps[size].name, ps[s - 1].name));
		p->num_elements = xstrdup(ps[size].name);
	} else if (s >= 0) {
		prepend_note(p, xasprintf("guess: '%s' holds '%s' elements (%s)", p->name,
					  ps[s].name, why));
		p->num_elements = xstrdup(ps[s].name);
	} else if (!p->note) {
		prepend_note(p, xasprintf("guess: '%s' points to one element (no size parameter found)",
					  p->name));
	}
}

/* A name for parameter i that descriptors and generated code can use: the
 * header's, or the header's less its leading underscores (glibc's headers
 * name theirs __name), or by position (one named like a macro of ours, or
 * NAME_codelet); *note says why when not the header's. */
static char *usable_param_name(const struct cfunc *fn, size_t i, char **note)
{
	const char *given = fn->params[i].name, *bare = given, *why;
	bool taken;
	size_t k;

	*note = NULL;
	if (!given[0]) {
		*note = xstrdup("the header names no parameter here: named by position");
		return xasprintf("arg%zu", i + 1);
	}
	if (!(why = names_param_problem(fn->name, given)))
		return xstrdup(given);
	*note = xasprintf("the header's name '%s'%s: renamed", given, why);
	while (*bare == '_')
		bare++;
	taken = names_param_problem(fn->name, bare) != NULL;
	for (k = 0; !taken && k < fn->nparams; k++)
		taken = k != i && strcmp(fn->params[k].name, bare) == 0;
	return taken ? xasprintf("arg%zu", i + 1) : xstrdup(bare);
}

static struct sparam *plan_params(const struct cfunc *fn)
{
	struct sparam *ps = xcalloc(fn->nparams + 1, sizeof(*ps));
	size_t i;

	for (i = 0; i < fn->nparams; i++) {
		ps[i].c = &fn->params[i];
		ps[i].name = usable_param_name(fn, i, &ps[i].note);
		ps[i].access = "read";
	}
	for (i = 0; i < fn->nparams; i++) {
		if (ps[i].c->shape == CSHAPE_FUNCPTR) {
			warn_at(fn, ps[i].c->line, "parameter '%s' of '%s' is a function pointer: passed by value, so only CPU variants can call it",
				ps[i].name, fn->name);
			prepend_note(&ps[i], xstrdup("FIXME: a function pointer, passed by value: only meaningful on the CPU"));
			/* "MPI_Comm_errhandler_function *", a pointer to a
			 * typedef'd function type, reads as data: say it is not */
			ps[i].by_value = true;
		} else if (ps[i].c->shape != CSHAPE_VALUE) {
			plan_pointer(fn, ps, fn->nparams, i);
		}
	}
	return ps;
}

/* How many of ps become the call's data: pointers not passed by value. */
static size_t registered_pointers(const struct sparam *ps, size_t n)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		count += ps[i].c->shape != CSHAPE_VALUE && !ps[i].by_value;
	return count;
}

static void free_params(struct sparam *ps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(ps[i].name);
		free(ps[i].num_elements);
		free(ps[i].count);
		free(ps[i].elem_type);
		free(ps[i].note);
	}
	free(ps);
}

/* ---- writing descriptors and stubs -------------------------------------- */

struct stub;

/* A platform's variant: its descriptor, and its stub made by body() (and
 * a kernel file, by kernel()). */
struct platform_stub {
	const char *suffix, *platform, *ext, *language, *compiler, *flags;
	bool disabled; /* until the user fills it in: the stub computes nothing */
	void (*body)(struct out *, const struct stub *);
	void (*kernel)(struct out *, const struct stub *);
};

static char *absolute(const char *dir)
{
	char *real = realpath(dir, NULL), *cwd;

	if (real || dir[0] == '/')
		return real ? real : xstrdup(dir);
	cwd = getcwd(NULL, 0);
	real = xasprintf("%s/%s", cwd ? cwd : ".", dir);
	free(cwd);
	return real;
}

/* How stubs and descriptors refer to the header. */
struct header_ref {
	const char *path;
	bool system;	/* under a system include folder */
	char *name;	/* system: as in #include <name> */
	const char *const *prelude; /* the standard headers it needs first (jpeglib.h), or NULL */
};

/* path's name below folder root (which ends with '/'), else NULL:
 * /usr/include/x86_64-linux-gnu/cblas.h is <cblas.h> below /usr/include/. */
static const char *below_root(const char *path, const char *root)
{
	size_t len = strlen(root);
	const char *rest, *slash;

	if (strncmp(path, root, len) != 0)
		return NULL;
	rest = path + len;
	slash = strchr(rest, '/');
	if (slash && strstr(rest, "-linux-") && strstr(rest, "-linux-") < slash)
		rest = slash + 1;
	return rest;
}

/*
 * How the stubs include the header at path: <name> below a folder given
 * with -I (libxml2's tree.h read with -I /usr/include/libxml2 is
 * <libxml/tree.h>, as its own headers include each other), then below a
 * system include folder, else by its path.
 */
static void header_ref(struct header_ref *h, const char *path, const struct skeleton_request *r)
{
	static const char *const system_roots[] = { "/usr/local/include/", "/usr/include/" };
	/* the path as given first: cblas.h may be a link to cblas-netlib.h */
	char *cwd = getcwd(NULL, 0);
	char *given = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", cwd ? cwd : ".", path);
	char *real = realpath(path, NULL), **roots = NULL;
	const char *tries[2] = { given, real }, *rest;
	size_t i, t, nroots = 0;

	for (i = 0; i < r->nargs; i++)
		if (strncmp(r->clang_args[i], "-I", 2) == 0 && r->clang_args[i][2]) {
			char *dir = absolute(r->clang_args[i] + 2);

			*(char **)array_push(&roots, &nroots, sizeof(char *)) =
				xasprintf("%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
			free(dir);
		}
	for (i = 0; i < 2; i++)
		*(char **)array_push(&roots, &nroots, sizeof(char *)) = xstrdup(system_roots[i]);
	h->path = path;
	h->system = false;
	h->name = NULL;
	for (i = 0; i < nroots && !h->system; i++)
		for (t = 0; t < 2 && !h->system; t++)
			if (tries[t] && (rest = below_root(tries[t], roots[i]))) {
				h->system = true;
				h->name = xstrdup(rest);
			}
	for (i = 0; i < nroots; i++)
		free(roots[i]);
	free(roots);
	free(given);
	free(real);
	free(cwd);
}

/* The #include line for the header, from a file in folder from_dir
 * (relative to outdir). */
static char *include_line(const struct skeleton *s, const struct header_ref *h,
			  const char *from_dir)
{
	char *base, *rel, *line;

	if (h->system) {
		line = xasprintf("#include <%s>", h->name);
	} else {
		base = from_dir[0] ? xasprintf("%s/%s", s->outdir_abs, from_dir) :
				     xstrdup(s->outdir_abs);
		rel = path_relative(base, h->path);
		line = xasprintf("#include \"%s\"", rel);
		free(rel);
		free(base);
	}
	if (h->prelude) {
		struct strbuf with = { 0 };
		size_t i;

		for (i = 0; h->prelude[i]; i++)
			if (i)
				strbuf_append(&with, "#include <%s>\n", h->prelude[i]);
			else
				strbuf_append(&with, "#include <%s> /* %s needs %s first */\n",
					      h->prelude[0], path_basename(h->path),
					      h->prelude[1] ? "these" : "it");
		strbuf_append(&with, "%s", line);
		free(line);
		line = with.s;
	}
	return line;
}

/* Where a file comes from, for its comment. */
static char *stamp(const struct cfunc *fn)
{
	return xasprintf("Generated by compose %s from %s:%d", PACKAGE_VERSION,
			 path_basename(fn->file), fn->line);
}

/* ---- descriptors ---- */

/* <peppher:tag attrs>, attrs empty or starting with a blank; the lines
 * after it are nested until close_tag(). */
static void open_tag(struct out *o, const char *tag, const char *attrs)
{
	out_line(o, "<peppher:%s%s>", tag, attrs);
	o->indent++;
}

static void close_tag(struct out *o, const char *tag)
{
	o->indent--;
	out_line(o, "</peppher:%s>", tag);
}

/* The XML declaration, a comment, and the opened component element. */
static void open_component(struct out *o, const char *comment)
{
	out_line(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
	out_line(o, "<!-- %s -->", comment);
	open_tag(o, "component", " xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\"");
}

/* A sourceFile element with attrs, compiled by compiler (its element with
 * compiler_attrs) with one setting: <peppher:key>value</peppher:key>. */
/* A sourceFile element: its compiler's flags and output, each where not NULL. */
static void source_file(struct out *o, const char *attrs, const char *compiler_attrs,
			const char *compiler, const char *flags, const char *output)
{
	open_tag(o, "sourceFile", attrs);
	open_tag(o, "compilation", "");
	open_tag(o, "compiler", compiler_attrs);
	out_line(o, "<peppher:name>%s</peppher:name>", compiler);
	if (flags)
		out_line(o, "<peppher:flags>%s</peppher:flags>", flags);
	if (output)
		out_line(o, "<peppher:output>%s</peppher:output>", output);
	close_tag(o, "compiler");
	close_tag(o, "compilation");
	close_tag(o, "sourceFile");
}

/* Does fn's CPU variant call the original (its interface wrap="true")? */
static bool delegates(const struct skeleton *s, const struct cfunc *fn)
{
	return !s->r->empty && !fn->variadic && !fn->va_list;
}

/* The interface element's attributes. */
static char *interface_attrs(const struct skeleton *s, const struct cfunc *fn,
			     const struct header_ref *h)
{
	char *inc = h->system ? xstrdup(h->name) : path_relative(s->outdir_abs, h->path);
	char *inc_x, *result = xml_escape(fn->result);
	struct strbuf b = { 0 }, list = { 0 };
	size_t k;

	/* the standard headers it needs first, first (include is a list) */
	for (k = 0; h->prelude && h->prelude[k]; k++)
		strbuf_append(&list, "%s,", h->prelude[k]);
	strbuf_append(&list, "%s", inc);
	inc_x = xml_escape(list.s);
	free(list.s);

	strbuf_append(&b, " name=\"%s\" include=\"%s\"", fn->name, inc_x);
	if (strcmp(fn->result, "void") != 0)
		strbuf_append(&b, " returnType=\"%s\"", result);
	if (delegates(s, fn))
		strbuf_append(&b, " wrap=\"true\"");
	if (delegates(s, fn) && fn->symbol)
		strbuf_append(&b, " symbol=\"%s\"", fn->symbol);
	free(result);
	free(inc_x);
	free(inc);
	return strbuf_take(&b);
}

/* The type as the interface declares it: a pointer typedef that points to
 * data shows its '*', so that compose sees a pointer too. */
static const char *param_type(const struct sparam *p)
{
	if (p->c->flat && p->num_elements)
		return p->c->flat; /* rows, as a matrix of their elements */
	return p->c->spelled && !p->by_value ? p->c->spelled : p->c->type;
}

static bool ends_with_star(const char *type)
{
	size_t len = strlen(type);

	return len && type[len - 1] == '*';
}

static void parameter_element(struct out *o, const struct sparam *p)
{
	char *type = xml_escape(param_type(p));
	struct strbuf b = { 0 };

	if (p->note)
		out_line(o, "<!-- %s -->", p->note);
	strbuf_append(&b, "<peppher:parameter name=\"%s\" type=\"%s\" accessMode=\"%s\"", p->name,
		      type, p->access);
	if (p->num_elements)
		strbuf_append(&b, " numElements=\"%s\"", p->num_elements);
	if (p->elem_type)
		strbuf_append(&b, " elemType=\"%s\"", p->elem_type);
	if (p->by_value && ends_with_star(param_type(p)))
		strbuf_append(&b, " byValue=\"true\"");
	out_line(o, "%s/>", b.s);
	free(b.s);
	free(type);
}

static void interface_descriptor(struct out *o, const struct cfunc *fn,
				 const struct sparam *ps, const char *attrs)
{
	char *from = stamp(fn), *comment = xasprintf("%s: check every guess and FIXME below.", from);
	size_t i;

	open_component(o, comment);
	open_tag(o, "interface", attrs);
	if (fn->no_prototype)
		out_line(o, "<!-- FIXME: '%s' is declared without a prototype: give its parameters -->",
			 fn->name);
	else if (fn->variadic)
		out_line(o, "<!-- FIXME: '%s' is variadic; the interface takes its fixed parameters only -->",
			 fn->name);
	open_tag(o, "parameters", "");
	for (i = 0; i < fn->nparams; i++)
		parameter_element(o, &ps[i]);
	close_tag(o, "parameters");
	close_tag(o, "interface");
	close_tag(o, "component");
	free(comment);
	free(from);
}

static void write_interface(struct skeleton *s, const struct cfunc *fn,
			    const struct sparam *ps, const struct header_ref *h)
{
	char *attrs = interface_attrs(s, fn, h);
	struct out o;

	if (open_file(s, &o, xasprintf("%s.xml", fn->name), XML_UNIT) == 0) {
		interface_descriptor(&o, fn, ps, attrs);
		close_file(s, &o);
	}
	free(attrs);
}

/* " -std=STD" for a C source (nvcc takes no C standard), or "". */
static char *std_flag(const struct skeleton *s, const char *language)
{
	return s->std && strcmp(language, "C") == 0 ? xasprintf(" -std=%s", s->std) : xstrdup("");
}

/*
 * per_thread: the library the CPU variant calls, where it keeps state per
 * thread, else NULL.  Such a variant runs on the calling thread, and does
 * not fork-join: the state (TurboJPEG's last error, OpenSSL's error queue,
 * an interpreter's thread) is where the program's next call looks for it.
 */
static void impl_descriptor(struct out *o, const struct skeleton *s, const struct cfunc *fn,
			    const struct platform_stub *st, const char *per_thread)
{
	/* the CPU variant calls the library, which opens OpenMP regions */
	bool forks = !per_thread && s->libs_openmp && strcmp(st->suffix, "cpu") == 0;
	char *std = std_flag(s, st->language);
	char *flags = xasprintf("%s%s%s", st->flags, std, s->cpp_flags);
	char *from = stamp(fn), *name = xasprintf(" name=\"%s_%s\"%s%s", fn->name, st->suffix,
						  st->disabled ? " disable=\"true\"" : "",
						  per_thread ? " callerThread=\"true\"" : "");
	/* an OpenCL variant in ComPU's form: its kernel file is built into the
	 * program, and the kernel and queue reach the host source in globals */
	char *file = st->kernel ?
		xasprintf(" name=\"%s_%s.%s\" language=\"%s\" cl_kernel=\"%s_%s_kernel\" cl_command_queue=\"%s_%s_queue\"",
			  fn->name, st->suffix, st->ext, st->language, fn->name, st->suffix,
			  fn->name, st->suffix) :
		xasprintf(" name=\"%s_%s.%s\" language=\"%s\"", fn->name, st->suffix, st->ext,
			  st->language);

	open_component(o, from);
	if (st->disabled)
		out_line(o, "<!-- disabled until its stub computes: fill it in, then remove disable=\"true\" -->");
	if (forks)
		out_line(o, "<!-- a fork-join variant: the library (%s) opens OpenMP regions, whose threads the runtime pins a core each -->",
			 libsyms_names(s->libs));
	if (per_thread)
		out_line(o, "<!-- runs on the thread that made the call: the library (%s) keeps state per thread (its last error, say), which the program reads on its own -->",
			 per_thread);
	open_tag(o, "implementation", name);
	open_tag(o, "sourceFiles", "");
	source_file(o, file, "", st->compiler, flags, NULL);
	if (st->kernel)
		out_line(o, "<peppher:sourceFile name=\"%s_%s.cl\" kernel=\"%s_%s\" language=\"OpenCL\"/>",
			 fn->name, st->suffix, fn->name, st->suffix);
	close_tag(o, "sourceFiles");
	open_tag(o, "providedInterfaces", "");
	out_line(o, "<peppher:providedInterface name=\"%s\"/>", fn->name);
	close_tag(o, "providedInterfaces");
	out_line(o, "<peppher:targetPlatform name=\"%s\"/>", forks ? "OPENMP" : st->platform);
	close_tag(o, "implementation");
	close_tag(o, "component");
	free(file);
	free(name);
	free(from);
	free(flags);
	free(std);
}

static void write_impl_descriptor(struct skeleton *s, const struct cfunc *fn,
				  const struct platform_stub *st)
{
	char *path = xasprintf("%s/%s/%s_%s.xml", fn->name, st->suffix, fn->name, st->suffix);
	const char *per_thread = strcmp(st->suffix, "cpu") == 0 && s->libs && delegates(s, fn) ?
					 libsyms_thread_state(s->libs, cfunc_symbol(fn)) :
					 NULL;
	struct out o;

	if (per_thread) {
		s->per_thread_variants++;
		if (!s->per_thread_lib)
			s->per_thread_lib = xstrdup(per_thread);
	}
	if (open_file(s, &o, path, XML_UNIT) == 0) {
		impl_descriptor(&o, s, fn, st, per_thread);
		close_file(s, &o);
	}
}

/* ---- stubs ---- */

/* "a, b" of the parameters kept (keep NULL: all), each as each() spells
 * it, or "void" when none. */
static char *param_list(const struct cfunc *fn, const struct sparam *ps,
			char *(*each)(const struct sparam *), bool (*keep)(const struct sparam *))
{
	struct strbuf b = { 0 };
	size_t i;

	for (i = 0; i < fn->nparams; i++) {
		char *item;

		if (keep && !keep(&ps[i]))
			continue;
		item = each(&ps[i]);
		strbuf_join(&b, ", ", "%s", item);
		free(item);
	}
	if (!b.len)
		strbuf_append(&b, "void");
	return strbuf_take(&b);
}

static char *param_decl(const struct sparam *p)
{
	/* the original takes rows ("double (*a)[m]"): its __real_ name is
	 * declared with the pointer to their elements, the same pointer */
	return c_decl(p->c->flat && p->num_elements ? p->c->flat : p->c->type, p->name);
}

static char *param_name(const struct sparam *p)
{
	return xstrdup(p->name);
}

static char *signature(const struct cfunc *fn, const struct sparam *ps, const char *fname)
{
	char *params = param_list(fn, ps, param_decl, NULL);
	char *call = xasprintf("%s(%s)", fname, params);
	char *sig = c_decl(fn->result, call); /* see c_signature */

	free(params);
	free(call);
	return sig;
}

/* The loop bound of a stub: the first pointer's elements (a strided
 * vector's count, not its span), or 1. */
static const char *extent(const struct sparam *ps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ps[i].num_elements && !strchr(ps[i].num_elements, ','))
			return ps[i].count ? ps[i].count : ps[i].num_elements;
	return NULL;
}

/* A line at the left margin, whatever the indentation (#pragma, a label). */
static void out_flush_left(struct out *o, const char *line)
{
	int indent = o->indent;

	o->indent = 0;
	out_line(o, "%s", line);
	o->indent = indent;
}

/* head, then the function's body nested until close_function(). */
static void open_function(struct out *o, const char *head)
{
	out_line(o, "%s", head);
	out_line(o, "{");
	o->indent++;
}

static void close_function(struct out *o)
{
	o->indent--;
	out_line(o, "}");
}

/* The body of a block opened by "... {" on the line before. */
static void element_todo(struct out *o)
{
	o->indent++;
	out_line(o, "/* TODO: element i */");
	o->indent--;
	out_line(o, "}");
}

static void stub_head(struct out *o, const struct cfunc *fn, const char *what,
		      const char *include)
{
	char *from = stamp(fn);

	out_line(o, "/*");
	out_line(o, " * %s: %s", fn->name, what);
	out_line(o, " * %s as a skeleton: fill in the body.", from);
	out_line(o, " */");
	if (strcmp(fn->result, "void") != 0) {
		out_line(o, "#include <string.h>");
		out_blank(o);
	}
	out_line(o, "%s", include);
	out_blank(o);
	free(from);
}

static void stub_unused(struct out *o, const struct cfunc *fn, const struct sparam *ps)
{
	size_t i;

	for (i = 0; i < fn->nparams; i++)
		out_line(o, "(void)%s;", ps[i].name);
}

static void stub_return(struct out *o, const struct cfunc *fn)
{
	char *decl;

	if (strcmp(fn->result, "void") == 0)
		return;
	decl = c_decl(fn->result, "result");
	out_line(o, "%s;", decl);
	out_blank(o);
	out_line(o, "memset(&result, 0, sizeof(result)); /* TODO: the value */");
	out_line(o, "return result;");
	free(decl);
}

/* What a stub needs: the function, its parameters, its name and folder. */
struct stub {
	const struct cfunc *fn;
	const struct sparam *ps;
	char *dir;   /* under outdir */
	char *fname; /* the variant's function */
	char *sig;
	char *include;
	const char *n; /* extent() */
	bool delegate; /* the CPU variant calls the original function */
};

static void stub_begin(struct stub *t, const struct skeleton *s, const struct cfunc *fn,
		       const struct sparam *ps, const struct header_ref *h, const char *suffix)
{
	t->delegate = delegates(s, fn);
	t->fn = fn;
	t->ps = ps;
	t->dir = xasprintf("%s/%s", fn->name, suffix);
	t->fname = xasprintf("%s_%s", fn->name, suffix);
	t->sig = signature(fn, ps, t->fname);
	t->include = include_line(s, h, t->dir);
	t->n = extent(ps, fn->nparams);
}

static void stub_end(struct stub *t)
{
	free(t->include);
	free(t->sig);
	free(t->fname);
	free(t->dir);
}

/* Write the stub's file of extension ext with body(). */
static void write_stub(struct skeleton *s, const struct stub *t, const char *ext,
		       void (*body)(struct out *, const struct stub *))
{
	struct out o;

	if (open_file(s, &o, xasprintf("%s/%s.%s", t->dir, t->fname, ext), C_UNIT) == 0) {
		body(&o, t);
		close_file(s, &o);
	}
}

static void cpu_stub(struct out *o, const struct stub *t, bool openmp)
{
	stub_head(o, t->fn, openmp ? "the OpenMP variant (runs on a team of CPU cores)" :
				     "the sequential CPU variant", t->include);
	open_function(o, t->sig);
	stub_unused(o, t->fn, t->ps);
	if (openmp && t->n) {
		out_blank(o);
		out_flush_left(o, "#pragma omp parallel for");
		out_line(o, "for (long i = 0; i < (long)%s; i++) {", t->n);
		element_todo(o);
	} else {
		out_line(o, "/* TODO: the computation */");
	}
	stub_return(o, t->fn);
	close_function(o);
}

/* A CPU variant that calls the original function, which the program's
 * link (-Wl,--wrap=NAME) names __real_NAME (NAME: the name it is declared
 * with, which a macro of the header may give it). */
static void delegate_stub(struct out *o, const struct stub *t)
{
	const char *symbol = cfunc_symbol(t->fn);
	char *from = stamp(t->fn), *real = xasprintf("__real_%s", symbol);
	char *decl = signature(t->fn, t->ps, real);
	char *args = t->fn->nparams ? param_list(t->fn, t->ps, param_name, NULL) : xstrdup("");

	out_line(o, "/*");
	out_line(o, " * %s: the sequential CPU variant", t->fn->name);
	out_line(o, " * %s: it calls the original %s, so the program", from, t->fn->name);
	out_line(o, " * computes what it did before; write a body of your own to do better.");
	out_line(o, " */");
	out_line(o, "%s", t->include);
	out_blank(o);
	out_line(o, "/* The original %s: the program is linked with -Wl,--wrap=%s, which sends", t->fn->name,
		 symbol);
	out_line(o, " * the application's calls to PEPPHER and this name to the original. */");
	out_line(o, "%s;", decl);
	out_blank(o);
	open_function(o, t->sig);
	out_line(o, "%s%s(%s);", strcmp(t->fn->result, "void") != 0 ? "return " : "", real, args);
	close_function(o);
	free(args);
	free(decl);
	free(real);
	free(from);
}

static void sequential_stub(struct out *o, const struct stub *t)
{
	if (t->delegate)
		delegate_stub(o, t);
	else
		cpu_stub(o, t, false);
}

static void openmp_stub(struct out *o, const struct stub *t)
{
	cpu_stub(o, t, true);
}

static void cuda_kernel(struct out *o, const struct stub *t, const char *kname)
{
	char *params = param_list(t->fn, t->ps, param_decl, NULL);
	char *head = xasprintf("__global__ static void %s(%s)", kname, params);

	open_function(o, head);
	out_line(o, "long i = (long)blockIdx.x * blockDim.x + threadIdx.x;");
	out_blank(o);
	stub_unused(o, t->fn, t->ps);
	if (t->n) {
		out_line(o, "if (i < (long)%s) {", t->n);
		element_todo(o);
	} else {
		out_line(o, "(void)i; /* TODO: the computation */");
	}
	close_function(o);
	free(head);
	free(params);
}

static void cuda_stub(struct out *o, const struct stub *t)
{
	char *kname = xasprintf("%s_kernel", t->fn->name);
	char *args = t->fn->nparams ? param_list(t->fn, t->ps, param_name, NULL) : xstrdup("");

	stub_head(o, t->fn, "the CUDA variant; pointers are device memory on the task's GPU",
		  t->include);
	cuda_kernel(o, t, kname);
	out_blank(o);
	open_function(o, t->sig);
	out_line(o, "const long pph_threads = 256, pph_n = %s%s;", t->n ? "(long)" : "",
		 t->n ? t->n : "1");
	out_blank(o);
	out_line(o, "if (pph_n > 0)");
	o->indent++;
	out_line(o, "%s<<<(unsigned)((pph_n + pph_threads - 1) / pph_threads), (unsigned)pph_threads>>>(%s);",
		 kname, args);
	o->indent--;
	stub_return(o, t->fn);
	close_function(o);
	free(args);
	free(kname);
}

/* The OpenCL C spelling of a host scalar type, or NULL. */
static const char *cl_scalar(const char *plain)
{
	static const char *const map[][2] = {
		{ "char", "char" }, { "signed char", "char" }, { "unsigned char", "uchar" },
		{ "short", "short" }, { "unsigned short", "ushort" }, { "int", "int" },
		{ "unsigned int", "uint" }, { "long", "long" }, { "unsigned long", "ulong" },
		{ "long long", "long" }, { "unsigned long long", "ulong" },
		{ "float", "float" }, { "double", "double" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(plain, map[i][0]) == 0)
			return map[i][1];
	return strncmp(plain, "enum ", 5) == 0 ? "int" : NULL;
}

/* Which parameters reach the OpenCL kernel: data pointers and scalars. */
static bool cl_passes(const struct sparam *p)
{
	if (p->by_value && p->c->shape != CSHAPE_VALUE)
		return false; /* host memory */
	if (p->c->shape == CSHAPE_POINTER || p->c->shape == CSHAPE_VOIDPTR)
		return true;
	return p->c->shape == CSHAPE_VALUE && cl_scalar(p->c->plain);
}

/* A parameter as the OpenCL kernel declares it. */
static char *cl_param(const struct sparam *p)
{
	const char *t;

	if (p->c->shape == CSHAPE_VALUE)
		return xasprintf("%s %s", cl_scalar(p->c->plain), p->name);
	t = cl_scalar(p->c->pointee);
	return xasprintf("__global %s%s *%s", p->c->pointee_const ? "const " : "",
			 t ? t : "uchar", p->name);
}

/* clSetKernelArg for each parameter the kernel takes. */
static void opencl_args(struct out *o, const struct stub *t)
{
	size_t i;
	int arg = 0;

	for (i = 0; i < t->fn->nparams; i++) {
		const struct sparam *p = &t->ps[i];
		const char *var = p->c->shape == CSHAPE_VALUE ? "pph_v" : "pph_m";

		if (!cl_passes(p))
			continue;
		out_line(o, "{");
		o->indent++;
		if (p->c->shape == CSHAPE_VALUE)
			out_line(o, "cl_%s pph_v = (cl_%s)%s;", cl_scalar(p->c->plain),
				 cl_scalar(p->c->plain), p->name);
		else
			out_line(o, "cl_mem pph_m = (cl_mem)(void *)%s;", p->name);
		out_blank(o);
		/* a kernel that takes it otherwise (a float for a double)
		 * fails here: said, not a launch with arguments unset */
		out_line(o, "if (pph_err == CL_SUCCESS &&");
		out_line(o, "    (pph_err = clSetKernelArg(pph_k, %d, sizeof(%s), &%s)) != CL_SUCCESS)", arg++,
			 var, var);
		out_line(o, "\tpph_bad_arg = \"%s\";", p->name);
		o->indent--;
		out_line(o, "}");
	}
	out_line(o, "if (pph_err != CL_SUCCESS)");
	out_line(o, "\tfprintf(stderr, \"%s: clSetKernelArg of '%%s' failed (%%d): does %s in %s.cl take it as this function passes it?\\n\",",
		 t->fname, t->fname, t->fname);
	out_line(o, "\t\tpph_bad_arg, (int)pph_err);");
}

static void opencl_stub(struct out *o, const struct stub *t)
{
	stub_head(o, t->fn, "the OpenCL variant; each pointer is the cl_mem of its data on the worker's device (see peppher/opencl.h)",
		  t->include);
	out_line(o, "#include <stdio.h>");
	out_blank(o);
	out_line(o, "#include <peppher/opencl.h>");
	out_blank(o);
	out_line(o, "/* set before each call: the kernel of %s.cl (built into the program", t->fname);
	out_line(o, " * for the worker's device) and the worker's queue */");
	out_line(o, "extern cl_kernel %s_kernel;", t->fname);
	out_line(o, "extern cl_command_queue %s_queue;", t->fname);
	out_blank(o);
	open_function(o, t->sig);
	out_line(o, "cl_kernel pph_k = %s_kernel;", t->fname);
	out_line(o, "cl_int pph_err = CL_SUCCESS;");
	out_line(o, "const char *pph_bad_arg = NULL;");
	if (t->n) /* a negative count is none, as in the descriptors */
		out_line(o, "size_t pph_global = %s > 0 ? (size_t)(%s) : 0;", t->n, t->n);
	else
		out_line(o, "size_t pph_global = 1;");
	out_blank(o);
	stub_unused(o, t->fn, t->ps);
	out_line(o, "if (!pph_k || pph_global == 0)");
	o->indent++;
	out_line(o, "goto out;");
	o->indent--;
	opencl_args(o, t);
	out_line(o, "if (pph_err != CL_SUCCESS ||");
	out_line(o, "    clEnqueueNDRangeKernel(%s_queue, pph_k, 1, NULL, &pph_global, NULL, 0, NULL, NULL) != CL_SUCCESS)",
		 t->fname);
	o->indent++;
	/* its data untouched: the call runs on another variant */
	out_line(o, "pph_variant_failed();");
	o->indent--;
	out_flush_left(o, "out:;");
	stub_return(o, t->fn);
	close_function(o);
}

static void opencl_kernel(struct out *o, const struct stub *t)
{
	char *params = param_list(t->fn, t->ps, cl_param, cl_passes);
	/* named after the variant: a function's own name may be an OpenCL
	 * built-in (dot, normalize), which clCreateKernel refuses */
	char *head = xasprintf("__kernel void %s(%s)", t->fname, params);

	/* OpenCL may contract a * b + c into one rounding, C as compiled
	 * here does not: results then differ in the last bit */
	out_line(o, "/* a * b + c rounded twice, as the CPU variant does: remove for speed where");
	out_line(o, " * the last bit of a result may differ from it */");
	out_line(o, "#pragma OPENCL FP_CONTRACT OFF");
	out_blank(o);
	out_line(o, "/* %s: the OpenCL kernel of %s (skeleton: fill in). */", t->fn->name,
		 t->fname);
	open_function(o, head);
	out_line(o, "size_t i = get_global_id(0);");
	out_blank(o);
	out_line(o, "(void)i; /* TODO: element i */");
	close_function(o);
	free(head);
	free(params);
}

static const struct platform_stub stubs[] = {
	{ "cpu", "CPU", "c", "C", "gcc", "-O2", false, sequential_stub, NULL },
	{ "openmp", "OPENMP", "c", "C", "gcc", "-O2 -fopenmp", true, openmp_stub, NULL },
	{ "cuda", "CUDA", "cu", "CUDA", "nvcc", "-O2", true, cuda_stub, NULL },
	{ "opencl", "OPENCL", "c", "C", "gcc", "-O2", true, opencl_stub, opencl_kernel },
};

static void write_stubs(struct skeleton *s, const struct cfunc *fn, const struct sparam *ps,
			const struct header_ref *h, const struct platform_stub *st)
{
	struct stub t;

	stub_begin(&t, s, fn, ps, h, st->suffix);
	write_stub(s, &t, st->ext, st->body);
	if (st->kernel)
		write_stub(s, &t, "cl", st->kernel);
	stub_end(&t);
}

/* made[] of generated_names(): NAME, NAME_impls, ... */
static void push_made(char ***made, size_t *n, char *name)
{
	*(char **)array_push(made, n, sizeof(char *)) = name;
}

/* The identifiers compose makes of the interface of function name and of
 * its variants' names (those names.c claims), in *made. */
static void generated_names(const char *name, char ***made, size_t *n)
{
	size_t i;

	push_made(made, n, xstrdup(name));
	push_made(made, n, xasprintf("%s_impls", name));
	push_made(made, n, xasprintf("%s_codelet", name));
	push_made(made, n, xasprintf("%s_BACKENDS_H", name));
	for (i = 0; i < sizeof(stubs) / sizeof(stubs[0]); i++) {
		const char *v = stubs[i].suffix;

		push_made(made, n, xasprintf("%s_%s", name, v));
		push_made(made, n, xasprintf("%s_%s_backend", name, v));
		if (stubs[i].kernel) { /* a ComPU-style OpenCL variant's globals */
			push_made(made, n, xasprintf("%s_%s_kernel", name, v));
			push_made(made, n, xasprintf("%s_%s_queue", name, v));
			push_made(made, n, xasprintf("%s_%s_kernel_source", name, v));
			push_made(made, n, xasprintf("%s_%s_globals", name, v));
		}
	}
}

/*
 * Why main.xml leaves function name out for the identifiers compose makes
 * of it, or NULL: then they are name's.  Each is a symbol of the program:
 * foo's CPU variant foo_cpu beside a function foo_cpu of the headers (the
 * library's, which foo_cpu's interface would wrap) fails to compose, or
 * to link.
 */
static char *generated_clash(struct skeleton *s, const char *name)
{
	char **made = NULL, *why = NULL;
	size_t nmade = 0, i;
	const char *owner;

	generated_names(name, &made, &nmade);
	for (i = 1; i < nmade && !why; i++) /* made[0] is name */
		if (strmap_get(&s->declared, made[i]))
			why = xasprintf("compose would make '%s' of '%s' (its interface or a variant), and the headers declare a function '%s'",
					made[i], name, made[i]);
	for (i = 0; i < nmade && !why; i++)
		if ((owner = strmap_get(&s->generated, made[i])))
			why = xasprintf("compose would make '%s' of '%s' and of '%s' (their interfaces or variants)",
					made[i], name, owner);
	for (i = 0; i < nmade; i++) {
		if (why) {
			free(made[i]);
			continue;
		}
		strmap_put(&s->generated, made[i], (void *)name);
		*(char **)array_push(&s->generated_keys, &s->ngenerated, sizeof(char *)) = made[i];
	}
	free(made);
	return why;
}

/*
 * What of fn is of an _Atomic type (its own, or what it points to): "its
 * parameter 'c' ('_Atomic(int) *')", or NULL.  No descriptor takes such a
 * type (compose refused the one utility mode wrote), and a task's data is
 * plain memory that a device copies: the caller's other threads would no
 * longer share one atomic object.
 */
static char *atomic_part(const struct cfunc *fn)
{
	size_t i;

	for (i = 0; i < fn->nparams; i++)
		if (type_has_word(fn->params[i].plain, "_Atomic"))
			return fn->params[i].name[0] ?
				       xasprintf("its parameter '%s' ('%s')", fn->params[i].name,
						 fn->params[i].plain) :
				       xasprintf("its parameter %zu ('%s')", i + 1, fn->params[i].plain);
	if (type_has_word(fn->result_plain, "_Atomic"))
		return xasprintf("its result ('%s')", fn->result_plain);
	return NULL;
}

static void skeleton_function(struct skeleton *s, const struct cfunc *fn,
			      const struct header_ref *h)
{
	struct sparam *ps;
	size_t i;
	const char *why = names_function_problem(fn->name);
	char *clash = NULL, *atomic;

	/* the interface takes the function's name, which the wrapper
	 * replaces (-Wl,--wrap): glibc's __assert_fail, or malloc, would
	 * not compose */
	if (why) {
		/* not where one macro declared a function kept and, at the
		 * same place, its reserved alias: glibc's bits/mathcalls.h
		 * declares sin and __sin, sinf and __sinf... (204 of them) */
		if (!(s->kept && fn->name[0] == '_' && strcmp(s->kept->file, fn->file) == 0 &&
		      s->kept->line == fn->line))
			warn_at(fn, fn->line, "'%s'%s: skipped", fn->name, why);
		s->reserved++;
		return;
	}
	for (i = 0; i < s->nnames; i++)
		if (strcmp(s->names[i], fn->name) == 0) {
			warn_at(fn, fn->line, "'%s' already declared in an earlier header: skipped%s",
				fn->name, "");
			return;
		}
	s->left_out = xrealloc(s->left_out, s->nnames + 1, sizeof(char *));
	s->left_out[s->nnames] = NULL;
	atomic = atomic_part(fn);
	if (fn->variadic || fn->va_list)
		s->left_out[s->nnames] = xasprintf("'%s' is variadic or takes a va_list, which a task cannot carry; its interface conflicts with the header",
						   fn->name);
	else if (atomic)
		s->left_out[s->nnames] = xasprintf("'%s': %s is _Atomic, which no descriptor type is: the tree would not compose",
						   fn->name, atomic);
	else if (s->libs && delegates(s, fn) && !libsyms_defines(s->libs, cfunc_symbol(fn)))
		s->left_out[s->nnames] = xasprintf("'%s' is not in %s, whose function its CPU variant calls: the program would not link",
						   fn->name, libsyms_names(s->libs));
	*(char **)array_push(&s->names, &s->nnames, sizeof(char *)) = xstrdup(fn->name);
	if (!s->left_out[s->nnames - 1] &&
	    (clash = generated_clash(s, s->names[s->nnames - 1]))) {
		s->left_out[s->nnames - 1] = xasprintf("%s: the tree would not compose", clash);
		warn_at(fn, fn->line, "%s: main.xml leaves '%s' out", clash, fn->name);
	}
	if (fn->no_prototype)
		warn_at(fn, fn->line, "'%s' is declared without a prototype (its parameters are unknown): main.xml leaves it out%s",
			fn->name, "");
	else if (fn->variadic)
		warn_at(fn, fn->line, "'%s' is variadic: its interface takes the fixed parameters only, and main.xml leaves it out%s",
			fn->name, "");
	else if (fn->va_list)
		warn_at(fn, fn->line, "'%s' takes a va_list, which a task cannot carry: main.xml leaves it out%s",
			fn->name, "");
	else if (atomic)
		/* a device copies a task's data as plain memory: the caller's
		 * threads would no longer share one atomic object */
		warn_at(fn, fn->line, "'%s': %s is _Atomic, which a task's data cannot be: main.xml leaves it out",
			fn->name, atomic);
	else if (s->left_out[s->nnames - 1] && !clash)
		warn_at(fn, fn->line, "'%s' is not in %s: main.xml leaves it out (add the library that has it)",
			fn->name, libsyms_names(s->libs));
	else if (fn->defined_here && delegates(s, fn))
		/* --wrap reaches calls, not bodies the compiler copied in */
		warn_at(fn, fn->line, "'%s' is inline in the header: the calls the compiler inlines do not reach PEPPHER%s",
			fn->name, "");
	s->kept = fn;
	ps = plan_params(fn);
	if (!s->left_out[s->nnames - 1] && registered_pointers(ps, fn->nparams) > PPH_MAX_BUFFERS) {
		s->left_out[s->nnames - 1] = xasprintf("'%s' has %zu pointer parameters that a call registers, and a call takes at most %d: the tree would not compose",
						       fn->name, registered_pointers(ps, fn->nparams), PPH_MAX_BUFFERS);
		warn_at(fn, fn->line, "%s: main.xml leaves '%s' out", s->left_out[s->nnames - 1],
			fn->name);
	}
	write_interface(s, fn, ps, h);
	for (i = 0; i < sizeof(stubs) / sizeof(stubs[0]); i++)
		write_impl_descriptor(s, fn, &stubs[i]);
	for (i = 0; i < sizeof(stubs) / sizeof(stubs[0]); i++)
		write_stubs(s, fn, ps, h, &stubs[i]);
	free_params(ps, fn->nparams);
	free(atomic);
	free(clash);
}

/* ---- the application ---- */

/* Is every option of args writable into the descriptors' compiler flags?
 * check.c refuses there control characters and those the shell or make
 * would act on, quoted or not: else an error naming the first option that
 * holds one. */
static bool writable_options(char *const *args, size_t n)
{
	size_t i;
	const char *c;

	for (i = 0; i < n; i++)
		for (c = args[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f || strchr(";|&`<>#\\", *c)) {
				char *p = printable(args[i]);
				char what[] = "'?'";

				what[1] = *c;
				diag_error(NULL, "option '%s' holds %s: the descriptors' compiler flags cannot carry it (control characters and ; | & ` < > # \\ are refused there)",
					   p, isprint((unsigned char)*c) ? what : "a control character");
				free(p);
				return false;
			}
	return true;
}

/* Are the headers' paths writable where they go: #include "..." lines,
 * XML attributes and comments?  Else an error naming the first that is
 * not (a '"' would end the #include's string, a "--" the comment). */
static bool writable_headers(const struct skeleton_request *r)
{
	size_t i;
	const char *c;

	for (i = 0; i < r->nheaders; i++) {
		for (c = r->headers[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f || strchr("\"\\<>&", *c) ||
			    (c[0] == '-' && c[1] == '-'))
				break;
		if (*c) {
			char *p = printable(r->headers[i]);

			diag_error(NULL, "header '%s': its path holds %s, which the generated #include lines and descriptors cannot carry: rename or link it",
				   p, *c == '-' ? "\"--\"" : "a character among \" \\ < > & or a control character");
			free(p);
			return false;
		}
	}
	return true;
}

/* Compiler options (the -I and -D the headers were read with, the -L and
 * -l of their library) as one shell word each ('...' where not plain,
 * a '$' written "$$": flags are make's text), -I and -L folders absolute
 * (make runs in the output folder); NULL if none. */
static char *shell_options(char *const *args, size_t n)
{
	struct strbuf b = { 0 };
	size_t i;
	const char *c;

	for (i = 0; i < n; i++) {
		bool dir = (strncmp(args[i], "-I", 2) == 0 || strncmp(args[i], "-L", 2) == 0) &&
			   args[i][2];
		char *abs = dir ? absolute(args[i] + 2) : NULL;
		char *a = dir ? xasprintf("%.2s%s", args[i], abs) : xstrdup(args[i]);

		if (b.s)
			strbuf_append(&b, " ");
		if (a[strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-=./,+:")]) {
			strbuf_append(&b, "'");
			/* a quote as "'" between two quoted parts */
			for (c = a; *c; c++)
				strbuf_append(&b, "%s",
					      *c == '\'' ? "'\"'\"'" : *c == '$' ? "$$" : (char[2]){ *c });
			strbuf_append(&b, "'");
		} else {
			strbuf_append(&b, "%s", a);
		}
		free(abs);
		free(a);
	}
	return b.s;
}

static void main_descriptor(struct out *o, const struct skeleton *s, const char *header)
{
	char *comment = xasprintf("Generated by compose %s from %s.", PACKAGE_VERSION, header);
	char *stem = xstrdup(header), *dot = strrchr(stem, '.'), *program, *main_flags, *std;
	size_t i;

	if (dot)
		*dot = '\0';
	program = xasprintf("%s_app", stem);
	open_component(o, comment);
	open_tag(o, "implementation", " name=\"main\"");
	open_tag(o, "sourceFiles", "");
	/* the link step on a source file of its own, as ComPU writes it */
	if (!s->r->empty && !s->link_flags)
		out_line(o, "<!-- the CPU variants call the original functions: link their library (compose -lfoo when generating, or make LDLIBS=-lfoo) -->");
	source_file(o, "", " type=\"link\"", "gcc", s->link_flags, program);
	std = std_flag(s, "C");
	main_flags = xasprintf("-O2%s%s", std, s->cpp_flags);
	free(std);
	source_file(o, " name=\"main.c\" language=\"C\"", "", "gcc", main_flags, NULL);
	free(main_flags);
	close_tag(o, "sourceFiles");
	open_tag(o, "requiredInterfaces", "");
	for (i = 0; i < s->nnames; i++) {
		if (s->left_out[i])
			out_line(o, "<!-- FIXME: %s", s->left_out[i]);
		out_line(o, "<peppher:requiredInterface name=\"%s\" xmlFile=\"%s.xml\"/>%s",
			 s->names[i], s->names[i], s->left_out[i] ? " -->" : "");
	}
	close_tag(o, "requiredInterfaces");
	close_tag(o, "implementation");
	close_tag(o, "component");
	free(program);
	free(stem);
	free(comment);
}

static void main_source(struct out *o, const struct skeleton *s, const char *header)
{
	out_line(o, "/* The application's main: %s's functions are PEPPHER components now. */",
		 header);
	/* the headers declare the functions: peppher.h does not (the
	 * program's own includes come first, as they did) */
	out_line(o, "%s", s->main_includes.s);
	out_line(o, "#include \"peppher.h\"");
	out_blank(o);
	open_function(o, "int main(void)");
	out_line(o, "PEPPHER_INITIALIZE();");
	out_line(o, "/* TODO: the application; each call of a component runs on the best variant */");
	out_line(o, "PEPPHER_SHUTDOWN();");
	out_line(o, "return 0;");
	close_function(o);
}

static void write_main(struct skeleton *s)
{
	const char *header = path_basename(s->r->headers[0]);
	struct out o;

	if (open_file(s, &o, xstrdup("main.xml"), XML_UNIT) == 0) {
		main_descriptor(&o, s, header);
		close_file(s, &o);
	}
	if (open_file(s, &o, xstrdup("main.c"), C_UNIT) == 0) {
		main_source(&o, s, header);
		close_file(s, &o);
	}
}

/* ---- committing ----------------------------------------------------------- */

/* The folders above path made where missing (a failed commit, or a fatal
 * end, removes them), then the file staged beside its place. */
static int stage_file(const char *path, struct file *f)
{
	char *dir = path_dirname(path);
	int rc = file_make_folders(dir);

	free(dir);
	if (rc == 0)
		rc = commit_stage(&f->c, f->text, f->len);
	if (rc != 0)
		diag_error(NULL, "cannot write '%s': %s", path, strerror(errno));
	return rc;
}

/* Every file staged first, then renamed into place: a failure, or a
 * signal, before the renames leaves the files there were, and a rename
 * that fails puts back those renamed before it.  From the first rename to
 * the last nothing allocates or prints (out of memory, or a failed write
 * to a closed stdout, would stop them half way): what they did is said
 * after. */
static int commit(struct skeleton *s)
{
	struct commit_file **list = xcalloc(s->nfiles + 1, sizeof(*list));
	struct stat st;
	size_t i;
	int rc = s->errors ? -1 : 0;

	for (i = 0; i < s->nfiles; i++) {
		s->files[i]->to = path_join(s->r->outdir, s->files[i]->path);
		s->files[i]->c.to = s->files[i]->to;
		list[i] = &s->files[i]->c;
	}
	if (rc == 0 && !s->r->force)
		for (i = 0; i < s->nfiles; i++)
			if (stat(s->files[i]->to, &st) == 0) {
				diag_error(NULL, "'%s' exists: not overwritten (use --force)",
					   s->files[i]->to);
				rc = -1;
			}
	for (i = 0; rc == 0 && i < s->nfiles; i++) {
		if (s->r->dry_run)
			printf("%s\n", s->files[i]->to);
		else
			rc = stage_file(s->files[i]->to, s->files[i]);
	}
	file_commit_begin();
	if (commit_files(list, s->nfiles, rc != 0))
		rc = -1;
	free(list);
	file_made_folders_done(rc == 0); /* one still holding a file stays */
	for (i = 0; i < s->nfiles; i++) {
		struct file *f = s->files[i];

		if (f->c.renamed > 0)
			printf("wrote %s\n", f->to);
		else
			commit_said(&f->c);
		free(f->to);
		f->to = NULL;
	}
	file_commit_end();
	return rc;
}

int generate_skeletons(const struct skeleton_request *r)
{
	struct skeleton s = { .r = r, .outdir_abs = absolute(r->outdir) };
	struct parsed_header {
		struct cfunc *funcs;
		size_t nfuncs;
		struct header_ref h;
	} *hs;
	char *flags, *link;
	size_t i, j;
	int rc = 0;

	/* the generated tree includes the headers: without the options its
	 * sources would not compile (pcre2.h's PCRE2_CODE_UNIT_WIDTH) or
	 * find them, nor could compose check the stubs' prototypes; in each
	 * source's compiler flags, compose and make need none.  The library
	 * goes into the link step's. */
	if (!writable_options(r->clang_args, r->nargs) ||
	    !writable_options(r->link_args, r->nlink) || !writable_headers(r)) {
		free(s.outdir_abs);
		return -1;
	}
	flags = shell_options(r->clang_args, r->nargs);
	link = shell_options(r->link_args, r->nlink);
	if (flags) {
		char *escaped = xml_escape(flags);

		s.cpp_flags = xasprintf(" %s", escaped);
		free(escaped);
	} else {
		s.cpp_flags = xstrdup("");
	}
	s.link_flags = link ? xml_escape(link) : NULL;
	if (!r->empty) /* the CPU variants call the library's functions */
		s.libs = libsyms_open(r->link_args, r->nlink);
	s.libs_openmp = s.libs && libsyms_uses_openmp(s.libs);

	/* every header first: a function of a later one may have a name
	 * compose would make of an earlier one's */
	hs = xcalloc(r->nheaders + 1, sizeof(*hs));
	s.std = r->std;
	for (i = 0; i < r->nheaders; i++) {
		const char *const *prelude, *std_read;

		if (cparse_header(r->headers[i], r->clang_args, r->nargs, r->std, &hs[i].funcs,
				  &hs[i].nfuncs, &prelude, &std_read) != 0) {
			rc = -1;
		} else if (std_read && !r->dry_run) {
			/* main.c includes every header: all its C is of that standard */
			struct loc loc = { r->headers[i], 0 };

			diag_note(&loc, "parses as C23 (-std=%s), not as C11: read so, and the C sources' compiler flags have -std=%s, for compose and make",
				  std_read, std_read);
		}
		if (std_read)
			s.std = std_read;
		header_ref(&hs[i].h, r->headers[i], r);
		hs[i].h.prelude = prelude;
		for (j = 0; j < hs[i].nfuncs; j++)
			strmap_put(&s.declared, hs[i].funcs[j].name, &hs[i].funcs[j]);
	}
	for (i = 0; i < r->nheaders; i++) {
		if (rc == 0) {
			char *line = include_line(&s, &hs[i].h, "");

			strbuf_join(&s.main_includes, "\n", "%s", line);
			free(line);
		}
		for (j = 0; rc == 0 && j < hs[i].nfuncs; j++)
			skeleton_function(&s, &hs[i].funcs[j], &hs[i].h);
	}
	if (rc == 0 && !s.nnames) {
		if (s.reserved)
			diag_error(NULL, "every function the headers declare has a reserved name: nothing to generate");
		else
			diag_error(NULL, "no function declared in the headers: nothing to generate");
		rc = -1;
	}
	if (rc == 0) {
		write_main(&s);
		rc = commit(&s);
	}
	if (rc == 0 && flags && !r->dry_run)
		diag_note(NULL, "the headers were read with %s: the sources' compiler flags have them, for compose and make",
			  flags);
	if (rc == 0 && r->std && !r->dry_run)
		diag_note(NULL, "the headers were read with -std=%s: the C sources' compiler flags have it, for compose and make",
			  r->std);
	if (rc == 0 && link && !r->dry_run)
		diag_note(NULL, "the program is linked with %s: main.xml's link step has them, for make", link);
	if (rc == 0 && s.per_thread_variants && !r->dry_run)
		diag_note(NULL, "%s keeps state per thread: the %u CPU variants that call it run on the thread that made the call (callerThread=\"true\")",
			  s.per_thread_lib, s.per_thread_variants);
	free(s.per_thread_lib);
	for (i = 0; i < s.nfiles; i++) {
		free(s.files[i]->path);
		free(s.files[i]->text);
		free(s.files[i]);
	}
	free(s.files);
	for (i = 0; i < s.nnames; i++) {
		free(s.names[i]);
		free(s.left_out[i]);
	}
	free(s.names);
	free(s.left_out);
	strmap_free(&s.generated);
	strmap_free(&s.declared);
	for (i = 0; i < r->nheaders; i++) {
		for (j = 0; j < hs[i].nfuncs; j++)
			cfunc_free(&hs[i].funcs[j]);
		free(hs[i].funcs);
		free(hs[i].h.name);
	}
	free(hs);
	for (i = 0; i < s.ngenerated; i++)
		free(s.generated_keys[i]);
	free(s.generated_keys);
	libsyms_close(s.libs);
	free(s.outdir_abs);
	free(s.main_includes.s);
	free(s.cpp_flags);
	free(s.link_flags);
	free(flags);
	free(link);
	return rc;
}
#endif
