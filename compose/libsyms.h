/*
 * The libraries of -L and -l options as the linker finds them, and which
 * functions they define: utility mode leaves out of main.xml a function
 * its header declares but its library lacks (OpenBLAS's cblas.h declares
 * bf16 routines Debian's libopenblas does not have; fftw3.h the fftwf_
 * ones of another library), whose call would not link.
 */
#ifndef COMPOSE_LIBSYMS_H
#define COMPOSE_LIBSYMS_H

#include <stdbool.h>
#include <stddef.h>

/* The file the linker takes for -lname: the first folder of dirs, then of
 * $LIBRARY_PATH and the system's, holding libname.so or libname.a (.so
 * first); "-l:file" names the file.  NULL when none; free it. */
char *library_find(const char *name, char *const *dirs, size_t ndirs);

struct libsyms;

/* The libraries of args (-L DIR, -LDIR, -l NAME, -lNAME), opened to look
 * their symbols up (a GNU ld script, as Debian's libm.so, by the files it
 * names), and the C library; NULL when there is none, or when one cannot
 * be opened (a static library): then no function is known missing. */
struct libsyms *libsyms_open(char *const *args, size_t nargs);

/* Does one of the libraries itself (not one it loads), or the C library,
 * define symbol? */
bool libsyms_defines(const struct libsyms *l, const char *symbol);

/* Does one of the libraries open OpenMP regions: does it import libgomp's
 * GOMP_parallel or LLVM's __kmpc_fork_call itself (not a library it
 * loads)? */
bool libsyms_uses_openmp(const struct libsyms *l);

/* The library of the options (not the C library, whose per-thread state,
 * errno and the floating-point environment, the runtime carries) that
 * defines symbol, where it keeps state per thread (thread-local storage,
 * POSIX keys): its path; else NULL.  A call that runs on a worker leaves
 * that state there, where the program's next call on its own thread does
 * not find it. */
const char *libsyms_thread_state(const struct libsyms *l, const char *symbol);

/* "-lblas -lm", as the options named them. */
const char *libsyms_names(const struct libsyms *l);

void libsyms_close(struct libsyms *l);

#endif
