/* Small string and path helpers; allocation failure aborts the tool. */
#ifndef COMPOSE_UTIL_H
#define COMPOSE_UTIL_H

#include <stdbool.h>
#include <stddef.h>

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Append item to *array of *n elements of size bytes; returns the slot. */
void *array_push(void *array_ptr, size_t *n, size_t size);

/* A growing string: appends are amortized O(1). */
struct strbuf {
	char *s;
	size_t len, cap;
};

void strbuf_append(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append sep (when b holds something already), then the formatted text:
 * lists joined by ", " and such. */
void strbuf_join(struct strbuf *b, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The string, "" if empty (the caller frees it); b is empty again. */
char *strbuf_take(struct strbuf *b);

/* Strings to values, by hash: lookups by name in repositories of
 * thousands of components stay O(1).  Keys are not copied: they must
 * outlive the map.  Zero-initialised is empty. */
struct strmap {
	struct strmap_slot {
		const char *key;
		void *value;
	} *slots;
	size_t n, cap;
};

/* The value of key, or NULL. */
void *strmap_get(const struct strmap *m, const char *key);
/* Set key's value (value not NULL). */
void strmap_put(struct strmap *m, const char *key, void *value);
void strmap_free(struct strmap *m);

/* Copy of s with leading/trailing blanks removed and inner runs of blanks
 * collapsed to one space ("float  *" -> "float *"). */
char *normalize_space(const char *s);
/* Is word one of the words of type ("bool" in "const bool", not in "boolean")? */
bool type_has_word(const char *type, const char *word);
/* Is type (normalized) an unsigned integer by its name? */
bool type_is_unsigned_integer(const char *type);

/* normalize_space, and pointer stars spelt "T *" / "T **". */
char *normalize_type(const char *type);
/* normalize_type() for a function's result, less its own qualifiers
 * ("const int" is "int"): C ignores them in a function's type, and the
 * generated code stores the result in a variable of that type, which
 * const would make read-only. */
char *normalize_result_type(const char *type);
/* "type name" as a C declaration ("float *x", "int n"). */
char *c_decl(const char *type, const char *name);

bool is_c_identifier(const char *s);
/* Levenshtein distance: the fewest insertions, deletions and replacements
 * that make a into b (for "did you mean"). */
unsigned edit_distance(const char *a, const char *b);
/* C, C++ and GNU keywords (asm, typeof) and their alternative spellings. */
bool is_c_keyword(const char *s);
/* A C type as descriptors write it: words and stars ("const unsigned long *"),
 * no keyword but the type ones; with function pointers (allow_fnptr), also
 * "RET (*)(T1, T2)".  Anything else could leave its place in generated code. */
bool is_c_type(const char *type, bool allow_fnptr);

/* Split shell-quoted flags ("'-DT=unsigned int' -O2") into words, appended
 * to *words: as the compiler gets them from make and the shell (quotes taken
 * off, "$$" made "$"), or as written (raw).  free_words() frees
 * n of them and the array. */
void split_words(const char *s, bool raw, char ***words, size_t *n);
void free_words(char **words, size_t n);
/* Is w, unquoted, a preprocessor option (-I, -D, -U, -include, -isystem,
 * -iquote, -idirafter)?  *joined: its argument is in w ("-Idir"), else in
 * the next word. */
bool is_cpp_option(const char *w, bool *joined);

/* Copy of s for a diagnostic: line breaks and tabs spelt \n and \t, other control
 * characters '?', so that a message stays on its line. */
char *printable(const char *s);

/* Folder part of path ("." when none). */
char *path_dirname(const char *path);

/* The one way compose writes a file: file_stage() writes text into a new
 * temporary file beside path and returns its name (NULL, errno set, on
 * failure); file_commit() renames it to path (0, or -1 with errno set and
 * the temporary removed) and file_discard() removes it; both free it.
 * file_write_atomic() is the two in one. */
char *file_stage(const char *path, const char *text, size_t len);
int file_commit(char *tmp, const char *path);
void file_discard(char *tmp);
int file_write_atomic(const char *path, const char *text, size_t len);
/* So that a commit of many files can be undone when one rename fails:
 * before the renames, file_keep_old() gives what path holds a second name
 * beside it (a hard link; *had 1), or says path holds nothing (*had 0,
 * NULL) or could not be linked (*had -1, NULL, errno set).  After them,
 * file_drop_old() removes the second name and frees old, or
 * file_restore_old() puts the old file back (had 1) or removes the new one
 * (had 0): 0, old freed; or -1 with errno set (ENOTSUP for had -1: the
 * new file stays), old left as it is, file and name, for the caller to
 * name and free.  Neither allocates. */
char *file_keep_old(const char *path, int *had);
int file_restore_old(char *old, int had, const char *path);
void file_drop_old(char *old);
/* A signal that ends compose (SIGINT, SIGTERM, SIGHUP), or running out of
 * memory, removes the files staged and not yet renamed; between these two it waits, so that the
 * renames of one commit are done all or none.  They nest. */
void file_commit_begin(void);
void file_commit_end(void);
/* Make folder dir and those above it that are missing (mkdir -p): 0, or
 * -1 with errno set.  The folders it makes are listed: a signal, or
 * running out of memory, removes them after the temporaries (each when
 * empty); file_made_folders_done() keeps them (keep: they hold what was
 * renamed into them) or removes them (each when empty), and empties the
 * list. */
int file_make_folders(const char *dir);
void file_made_folders_done(int keep);
/* dir/name, or name itself when absolute. */
char *path_join(const char *dir, const char *name);
/* Path of target relative to the folder base_real, which realpath()
 * already resolved; target as given when it does not exist. */
char *path_relative(const char *base_real, const char *target);
/* Absolute form of path without "." and ".." components, done lexically
 * (path need not exist); NULL when the working folder is unknown. */
char *path_absolute(const char *path);
/* Last component of path. */
const char *path_basename(const char *path);

#endif
