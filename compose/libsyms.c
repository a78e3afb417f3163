/* dladdr: _GNU_SOURCE, which AM_CPPFLAGS defines */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

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
	size_t nown; /* the libraries of the options; the C library after them */
	bool *per_thread; /* [nown]: keeps state per thread (libsyms_thread_state) */
	struct strbuf names;
};

/* A library file opened, with its real path; false if it cannot be. */
static bool add_library(struct libsyms *l, const char *path, char *const *dirs, size_t ndirs,
			int depth);

/*
 * The files a GNU ld script names in its INPUT and GROUP commands, as ld
 * takes them: Debian's libm.so is "GROUP ( /lib/.../libm.so.6 AS_NEEDED (
 * /lib/.../libmvec.so.1 ) )", libncurses.so "INPUT(libncurses.so.6
 * -ltinfo)": a name without a folder beside the script, then in the
 * search folders; -lNAME as the option.  Each is added; false if the text
 * is no such script, or one of them cannot be added.
 */
static bool add_script(struct libsyms *l, const char *path, char *const *dirs, size_t ndirs,
		       int depth)
{
	static const char *const space = " \t\n\r,";
	char text[16384], word[4096], *p, *end, *dir;
	size_t len, n;
	bool usable = true, any = false;
	int inside = 0; /* parentheses open inside INPUT or GROUP */
	FILE *fp = fopen(path, "r");

	if (!fp)
		return false;
	len = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[len] = '\0';
	if (memchr(text, '\0', len))
		return false; /* binary: an ELF file dlopen refused, an archive */
	for (p = strstr(text, "/*"); p; p = strstr(p, "/*")) { /* comments blanked */
		end = strstr(p + 2, "*/");
		len = end ? (size_t)(end + 2 - p) : strlen(p);
		memset(p, ' ', len);
		p += len;
	}
	dir = path_dirname(path);
	for (p = text + strspn(text, space); *p; p += strspn(p, space)) {
		/* a word, or a parenthesis alone */
		n = *p == '(' || *p == ')' ? 1 : strcspn(p, " \t\n\r,()");
		if (n >= sizeof(word))
			n = sizeof(word) - 1;
		memcpy(word, p, n);
		word[n] = '\0';
		p += n;
		if (word[0] == '(' || word[0] == ')') {
			inside += !inside ? 0 : word[0] == '(' ? 1 : -1;
		} else if (!inside) {
			/* INPUT ( and GROUP ( open the files */
			if (strcmp(word, "INPUT") == 0 || strcmp(word, "GROUP") == 0) {
				p += strspn(p, space);
				if (*p == '(') {
					p++;
					inside = 1;
				}
			}
		} else if (strcmp(word, "AS_NEEDED") != 0) {
			char *member = NULL;
			size_t i;

			if (strncmp(word, "-l", 2) == 0)
				member = library_find(word + 2, dirs, ndirs);
			else if (word[0] == '/')
				member = xstrdup(word);
			else if (!(member = file_in(dir, word)))
				for (i = 0; i < ndirs && !member; i++)
					member = file_in(dirs[i], word);
			usable = usable && member && add_library(l, member, dirs, ndirs, depth + 1);
			any = true;
			free(member);
		}
	}
	free(dir);
	return usable && any;
}

static bool add_library(struct libsyms *l, const char *path, char *const *dirs, size_t ndirs,
			int depth)
{
	/* RTLD_LAZY: nothing resolved that is not looked up; left open (an
	 * ICD's or OpenBLAS's threads may outlive a dlclose) */
	void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
	char *real = realpath(path, NULL);
	size_t n = l->n;

	if (!real)
		return false;
	if (!h) {
		free(real);
		return depth < 4 && add_script(l, path, dirs, ndirs, depth);
	}
	*(void **)array_push(&l->handles, &n, sizeof(void *)) = h;
	*(char **)array_push(&l->paths, &l->n, sizeof(char *)) = real;
	return true;
}

/*
 * The C library, which every program links: a function of a library's
 * header that it defines links too (glibc's isinf and isnan, which math.h
 * declares, are in libc.so.6, not in libm).  Found as compose itself
 * loaded it; left out where that fails (another C library's name).
 */
static void add_libc(struct libsyms *l)
{
	void *h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	struct link_map *map = NULL;
	char *real;
	size_t n = l->n;

	if (!h)
		return;
	if (dlinfo(h, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name ||
	    !(real = realpath(map->l_name, NULL))) {
		dlclose(h);
		return;
	}
	*(void **)array_push(&l->handles, &n, sizeof(void *)) = h;
	*(char **)array_push(&l->paths, &l->n, sizeof(char *)) = real;
}

static bool library_looked_into(const char *path,
				bool (*look)(const unsigned char *image, size_t size));
static bool elf_per_thread(const unsigned char *image, size_t size);
static bool elf_opens_regions(const unsigned char *image, size_t size);

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
		char *path;

		if (strncmp(args[i], "-l", 2) != 0)
			continue;
		path = library_find(name, dirs, ndirs);
		usable = path && add_library(l, path, dirs, ndirs, 0);
		if (usable)
			strbuf_join(&l->names, " ", "-l%s", name);
		free(path);
	}
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	if (!usable || !l->n) {
		libsyms_close(l);
		return NULL;
	}
	l->nown = l->n;
	l->per_thread = xcalloc(l->nown, sizeof(*l->per_thread));
	for (i = 0; i < l->nown; i++)
		l->per_thread[i] = library_looked_into(l->paths[i], elf_per_thread);
	add_libc(l);
	return l;
}

/* The index of the library of l that defines symbol itself, or l->n. */
static size_t defining_library(const struct libsyms *l, const char *symbol)
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
			return i;
	}
	return l->n;
}

bool libsyms_defines(const struct libsyms *l, const char *symbol)
{
	return defining_library(l, symbol) < l->n;
}

const char *libsyms_thread_state(const struct libsyms *l, const char *symbol)
{
	size_t i = defining_library(l, symbol);

	return i < l->nown && l->per_thread[i] ? l->paths[i] : NULL;
}

/* Does the 64-bit ELF shared object image (size bytes) import one of
 * names (an undefined symbol of its .dynsym)?  Every offset is checked:
 * the file is anyone's. */
static bool elf_imports(const unsigned char *image, size_t size, const char *const *names)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	size_t i, j, k;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr))
		return false;
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = (const Elf64_Shdr *)(image + eh->e_shoff) + i, *strs;

		if (sh->sh_type != SHT_DYNSYM || sh->sh_link >= eh->e_shnum ||
		    sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
			continue;
		strs = (const Elf64_Shdr *)(image + eh->e_shoff) + sh->sh_link;
		if (strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
			continue;
		for (j = 0; j < sh->sh_size / sizeof(Elf64_Sym); j++) {
			const Elf64_Sym *sym = (const Elf64_Sym *)(image + sh->sh_offset) + j;
			const char *name = (const char *)image + strs->sh_offset + sym->st_name;
			size_t room = strs->sh_size > sym->st_name ? strs->sh_size - sym->st_name : 0;

			/* a name that ends inside its string table */
			if (sym->st_shndx != SHN_UNDEF || strnlen(name, room) == room)
				continue;
			for (k = 0; names[k]; k++)
				if (strcmp(name, names[k]) == 0)
					return true;
		}
	}
	return false;
}

bool libsyms_uses_openmp(const struct libsyms *l)
{
	size_t i;

	/* the library's own imports, not its dependencies': PETSc loads
	 * libgomp for CHOLMOD and SuperLU_dist, and opens no region itself */
	for (i = 0; i < l->n; i++)
		if (library_looked_into(l->paths[i], elf_opens_regions))
			return true;
	return false;
}

/* Does the image open OpenMP regions: libgomp's, LLVM's libomp's? */
static bool elf_opens_regions(const unsigned char *image, size_t size)
{
	static const char *const forks[] = { "GOMP_parallel", "GOMP_parallel_start",
					     "__kmpc_fork_call", NULL };

	return elf_imports(image, size, forks);
}

/* Does the image keep state per thread: thread-local storage of its own
 * (a PT_TLS segment: TurboJPEG's last error), or POSIX keys (OpenSSL's
 * error queue, libxml2's and Python's per-thread state), or another's
 * thread-local storage reached through __tls_get_addr? */
static bool elf_per_thread(const unsigned char *image, size_t size)
{
	static const char *const keys[] = { "pthread_key_create", "pthread_getspecific",
					    "pthread_setspecific", "__tls_get_addr", NULL };
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	size_t i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return false;
	if (eh->e_phentsize == sizeof(Elf64_Phdr) && eh->e_phoff <= size &&
	    eh->e_phnum <= (size - eh->e_phoff) / sizeof(Elf64_Phdr))
		for (i = 0; i < eh->e_phnum; i++)
			if (((const Elf64_Phdr *)(image + eh->e_phoff))[i].p_type == PT_TLS)
				return true;
	return elf_imports(image, size, keys);
}

/* What look says of the library file at path, mapped; false where it
 * cannot be read. */
static bool library_looked_into(const char *path,
				bool (*look)(const unsigned char *image, size_t size))
{
	struct stat st;
	void *image = MAP_FAILED;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool found = false;

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0)
		image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (image != MAP_FAILED) {
		found = look(image, (size_t)st.st_size);
		munmap(image, (size_t)st.st_size);
	}
	if (fd >= 0)
		close(fd);
	return found;
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
	free(l->per_thread);
	free(l->handles);
	free(l->names.s);
	free(l);
}
