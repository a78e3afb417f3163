/* dladdr: _GNU_SOURCE, which AM_CPPFLAGS defines */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libsyms.h"
#include "util.h"

/* Debian's multiarch library folder */
#if defined(__x86_64__)
#define PPH_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define PPH_MULTIARCH "aarch64-linux-gnu"
#elif defined(__powerpc64__)
#define PPH_MULTIARCH "powerpc64le-linux-gnu"
#else
#define PPH_MULTIARCH "lib"
#endif

/* dir/file if it exists (fresh), else NULL. */
static char *file_in(const char *dir, const char *file)
{
	char *path = xasprintf("%s/%s", dir, file);

	if (access(path, F_OK) == 0)
		return path;
	free(path);
	return NULL;
}

static char *library_in(const char *dir, const char *name)
{
	char *so, *a, *found;

	if (name[0] == ':') /* -l:libfoo.so.1 */
		return file_in(dir, name + 1);
	so = xasprintf("lib%s.so", name);
	a = xasprintf("lib%s.a", name);
	found = file_in(dir, so);
	if (!found)
		found = file_in(dir, a);
	free(so);
	free(a);
	return found;
}

char *library_find(const char *name, char *const *dirs, size_t ndirs)
{
	/* ld's own, and the CUDA toolkit's (cublas, cusparse, ...) */
	static const char *const fixed[] = {
		"/usr/local/lib/" PPH_MULTIARCH, "/lib/" PPH_MULTIARCH, "/usr/lib/" PPH_MULTIARCH,
		"/usr/local/lib", "/lib", "/usr/lib", "/usr/local/cuda/lib64",
	};
	const char *env = getenv("LIBRARY_PATH");
	char *path_dirs = xstrdup(env ? env : ""), *save = NULL, *dir, *found = NULL;
	size_t i;

	for (i = 0; i < ndirs && !found; i++)
		found = library_in(dirs[i], name);
	for (dir = strtok_r(path_dirs, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save))
		found = library_in(dir, name);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && !found; i++)
		found = library_in(fixed[i], name);
	free(path_dirs);
	return found;
}

struct libsyms {
	void **handles;
	char **paths; /* real paths, to tell a library's symbols from its dependencies' */
	size_t n;
	struct strbuf names;
};

struct libsyms *libsyms_open(char *const *args, size_t nargs)
{
	struct libsyms *l = xcalloc(1, sizeof(*l));
	char **dirs = NULL;
	size_t ndirs = 0, i;
	bool usable = true;

	for (i = 0; i < nargs; i++) /* -L first: the linker searches them for every -l */
		if (strncmp(args[i], "-L", 2) == 0)
			*(char **)array_push(&dirs, &ndirs, sizeof(char *)) =
				xstrdup(args[i][2] ? args[i] + 2 : i + 1 < nargs ? args[i + 1] : "");
	for (i = 0; i < nargs && usable; i++) {
		const char *name = args[i][2] ? args[i] + 2 : i + 1 < nargs ? args[i + 1] : "";
		char *path, *real;
		void *h;

		if (strncmp(args[i], "-l", 2) != 0)
			continue;
		path = library_find(name, dirs, ndirs);
		/* RTLD_LAZY: nothing resolved that is not looked up; left open
		 * (an ICD's or OpenBLAS's threads may outlive a dlclose) */
		h = path ? dlopen(path, RTLD_LAZY | RTLD_LOCAL) : NULL;
		real = path ? realpath(path, NULL) : NULL;
		usable = h && real;
		if (usable) {
			size_t n = l->n;

			*(void **)array_push(&l->handles, &n, sizeof(void *)) = h;
			*(char **)array_push(&l->paths, &l->n, sizeof(char *)) = real;
			strbuf_join(&l->names, " ", "-l%s", name);
		} else {
			free(real);
		}
		free(path);
	}
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	if (!usable || !l->n) {
		libsyms_close(l);
		return NULL;
	}
	return l;
}

bool libsyms_defines(const struct libsyms *l, const char *symbol)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		void *p = dlsym(l->handles[i], symbol);
		Dl_info info;
		char *real;
		bool own;

		if (!p || !dladdr(p, &info) || !info.dli_fname)
			continue;
		real = realpath(info.dli_fname, NULL);
		own = real && strcmp(real, l->paths[i]) == 0;
		free(real);
		if (own)
			return true;
	}
	return false;
}

const char *libsyms_names(const struct libsyms *l)
{
	return l->names.s ? l->names.s : "";
}

void libsyms_close(struct libsyms *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	free(l->handles);
	free(l->names.s);
	free(l);
}
