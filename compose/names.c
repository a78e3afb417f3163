/*
 * Names from the descriptors become C identifiers and file names in the
 * generated code, beside the ones compose makes from them (NAME_codelet,
 * IMPL_backend, IMPL_backend.c, ...).  A name that is a keyword, a name of
 * the C library or ours, or that two things would both use, composes
 * without a word and then fails to build, or builds a program that calls
 * itself: each is an error at the line of the name that came second.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diag.h"
#include "emit.h"
#include "names.h"
#include "util.h"

/* Declared by the headers generated files include (<stdio.h>, <string.h>,
 * <stddef.h>, <stdint.h>, <stdbool.h>, <pthread.h>, <omp.h>, OpenCL) or
 * standard macros that would replace the name (<peppher/runtime.h> brings
 * <errno.h> and <stdlib.h>; the entry wrapper writes EDOM and EINVAL). */
static const char *const library_names[] = {
	"BUFSIZ", "CHAR_BIT", "EDOM", "EILSEQ", "EINVAL", "EOF", "ERANGE",
	"EXIT_FAILURE", "EXIT_SUCCESS", "FILE", "FILENAME_MAX", "FOPEN_MAX",
	"INT_MAX", "INT_MIN", "L_tmpnam", "MB_CUR_MAX", "NULL", "RAND_MAX",
	"SEEK_CUR", "SEEK_END", "SEEK_SET", "SIZE_MAX", "TMP_MAX",
	"PTHREAD_MUTEX_INITIALIZER", "assert", "calloc", "cl_command_queue",
	"cl_kernel", "cl_mem", "cl_program", "clGetKernelInfo", "errno", "exit",
	"fclose", "feof", "ferror", "fflush", "fgetc", "fgets", "fopen", "fpos_t",
	"fprintf", "fputc", "fputs", "fread", "free", "freopen", "fscanf", "fseek",
	"fsetpos", "ftell", "fwrite", "getc", "getchar", "int16_t", "int32_t",
	"int64_t", "int8_t", "intmax_t", "intptr_t", "malloc", "max_align_t",
	"memchr", "memcmp", "memcpy", "memmove", "memset", "offsetof",
	"omp_get_num_threads", "omp_get_thread_num", "omp_set_num_threads",
	"perror", "printf", "pthread_mutex_lock", "pthread_mutex_t",
	"pthread_mutex_unlock", "ptrdiff_t", "putc", "putchar", "puts", "realloc",
	"remove", "rename", "rewind", "scanf", "setbuf", "setvbuf", "size_t",
	"snprintf", "sprintf", "sscanf", "ssize_t", "stderr", "stdin", "stdout",
	"strcat", "strchr", "strcmp", "strcoll", "strcpy", "strcspn", "strdup",
	"strerror", "strlen", "strncat", "strncmp", "strncpy", "strndup",
	"strpbrk", "strrchr", "strspn", "strstr", "strtok", "strxfrm", "tmpfile",
	"tmpnam", "uint16_t", "uint32_t", "uint64_t", "uint8_t", "uintmax_t",
	"uintptr_t", "ungetc", "va_list", "vfprintf", "vprintf", "vsnprintf",
	"vsprintf",
};

/* Macros of PEPPHER-C's headers (include/peppher/NAME.h) and of peppher.h,
 * besides those of the pph_ prefix: a name that is one is replaced
 * wherever generated code writes it.  PEPPHER_H is defined empty: a
 * parameter of that name left the argument block without its field, and
 * the backend read past the block.  The prefix PEPPHER_ is kept whole for
 * the macros to come. */
static bool is_peppher_macro(const char *name)
{
	return strncmp(name, "PEPPHER_", 8) == 0 || strcmp(name, "CL_TARGET_OPENCL_VERSION") == 0;
}

static bool is_library_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(library_names) / sizeof(library_names[0]); i++)
		if (strcmp(name, library_names[i]) == 0)
			return true;
	return false;
}

const char *names_problem(const char *name)
{
	if (!is_c_identifier(name))
		return " is not a valid C identifier";
	if (is_c_keyword(name))
		return " is a C or C++ keyword";
	if (strncasecmp(name, "pph_", 4) == 0)
		return ": the prefix pph_ is reserved for generated code";
	if (name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')))
		return " is reserved for the C implementation (__x, _X)";
	if (is_peppher_macro(name))
		return " is reserved for the macros of PEPPHER-C's headers (PEPPHER_x)";
	if (is_library_name(name))
		return " is a name of the C library or its headers";
	return NULL;
}

const char *names_function_problem(const char *name)
{
	if (strcmp(name, "main") == 0)
		return " is the program's entry point";
	return names_problem(name);
}

const char *names_param_problem(const char *iface, const char *name)
{
	size_t n = strlen(iface);

	/* the entry wrapper, where the parameters are in scope, passes
	 * &NAME_codelet to the runtime: a parameter of that name is what it
	 * would pass (the program crashed) */
	if (strncmp(name, iface, n) == 0 && strcmp(name + n, "_codelet") == 0)
		return " is the codelet its interface's entry function passes to the runtime";
	/* defined, empty, before the argument block that holds the parameter */
	if (strncmp(name, iface, n) == 0 && strcmp(name + n, "_BACKENDS_H") == 0)
		return " is the include guard of its interface's backend header";
	return names_problem(name);
}

const char *names_impl_problem(const char *name, bool opencl_kernel)
{
	static const char *const locals[] = { "arg", "args", "buffers" };
	size_t i;

	/* the backend wrapper calls the implementation where its own
	 * parameters and locals are in scope */
	for (i = 0; i < sizeof(locals) / sizeof(locals[0]); i++)
		if (strcmp(name, locals[i]) == 0)
			return " is a local of its backend wrapper (arg, args, buffers)";
	if (opencl_kernel && strcmp(name, "kernel") == 0)
		return " is a local of its backend wrapper (kernel)";
	return names_problem(name);
}

void names_check_identifier(const struct loc *loc, const char *what, const char *name)
{
	const char *why = names_problem(name);

	if (why)
		diag_error(loc, "%s '%s'%s", what, name, why);
}

/* One name that generated code uses, and what uses it. */
struct claim {
	const struct loc *loc;
	char *what;
};

struct names {
	struct strmap map; /* name -> struct claim */
	char **keys;
	size_t nkeys;
};

/* name (taken over) is used by what (taken over), from loc.  File names
 * are kept apart from identifiers by a leading '/'.  Returns false (reported)
 * when something else uses it. */
static bool claim(struct names *t, const struct loc *loc, char *name, char *what)
{
	struct claim *first = strmap_get(&t->map, name), *c;

	if (first) {
		diag_error(loc, "'%s', %s, clashes with %s (%s:%d)", name + (name[0] == '/'),
			   what, first->what,
			   first->loc->file ? path_basename(first->loc->file) : "?",
			   first->loc->line);
		free(name);
		free(what);
		return false;
	}
	c = xcalloc(1, sizeof(*c));
	c->loc = loc;
	c->what = what;
	*(char **)array_push(&t->keys, &t->nkeys, sizeof(char *)) = name;
	strmap_put(&t->map, name, c);
	return true;
}

static bool claim_file(struct names *t, const struct loc *loc, char *name, char *what)
{
	bool ok = claim(t, loc, xasprintf("/%s", name), what);

	free(name);
	return ok;
}

static void claim_sources(struct names *t, const struct impl *impl)
{
	size_t i;

	for (i = 0; i < impl->nsources; i++)
		if (!impl->sources[i].kernel)
			claim_file(t, &impl->sources[i].loc, object_file_name(impl, &impl->sources[i]),
				   xasprintf("the object file of '%s'", impl->sources[i].name));
}

static void claim_impl(struct names *t, const struct impl *impl)
{
	const char *n = impl->name;
	const char *const vars[] = { impl->cl_kernel_var, impl->cl_queue_var,
				     impl->cl_program_var };
	size_t i;

	/* the names made from a clashing name would only repeat the error */
	if (!claim(t, &impl->loc, xstrdup(n), xasprintf("the function of implementation '%s'", n)))
		return;
	claim(t, &impl->loc, xasprintf("%s_backend", n),
	      xasprintf("the backend wrapper of implementation '%s'", n));
	for (i = 0; i < 3; i++)
		if (vars[i])
			claim(t, &impl->loc, xstrdup(vars[i]),
			      xasprintf("an OpenCL global of implementation '%s'", n));
	claim_file(t, &impl->loc, backend_file_name(impl),
		   xasprintf("the backend file of implementation '%s'", n));
	claim_file(t, &impl->loc, xasprintf("%s_backend.o", n),
		   xasprintf("the backend object of implementation '%s'", n));
	if (impl_kernel(impl)) {
		claim(t, &impl->loc, xasprintf("%s_kernel_source", n),
		      xasprintf("the OpenCL kernel text of implementation '%s'", n));
		claim(t, &impl->loc, xasprintf("%s_globals", n),
		      xasprintf("the OpenCL globals' lock of implementation '%s'", n));
		claim_file(t, &impl->loc, kernel_c_file_name(impl),
			   xasprintf("the kernel file of implementation '%s'", n));
		claim_file(t, &impl->loc, xasprintf("%s__kernel.o", n),
			   xasprintf("the kernel object of implementation '%s'", n));
	}
	claim_sources(t, impl);
}

static void claim_iface(struct names *t, const struct iface *ifc)
{
	const char *n = ifc->name;
	char *who = ifc->generic_name ?
		xasprintf("instance '%s' of generic interface '%s'", n, ifc->generic_name) :
		xasprintf("interface '%s'", n);

	if (claim(t, &ifc->loc, xstrdup(n), xasprintf("the entry function of %s", who))) {
		claim(t, &ifc->loc, xasprintf("%s_impls", n),
		      xasprintf("the variant table of %s", who));
		claim(t, &ifc->loc, xasprintf("%s_codelet", n), xasprintf("the codelet of %s", who));
		/* not NAME_args: "struct NAME_args" is a tag, which no
		 * function or variable of that name hides, in C or C++ */
		claim(t, &ifc->loc, backend_header_guard(ifc),
		      xasprintf("the include guard of %s", who));
		/* (.c, or the C++ extension of --wrapper-ext) */
		claim_file(t, &ifc->loc, xasprintf("%s_entry.c", n), xasprintf("the entry file of %s", who));
		claim_file(t, &ifc->loc, xasprintf("%s_entry.o", n),
			   xasprintf("the entry object of %s", who));
		claim_file(t, &ifc->loc, backend_header_name(ifc),
			   xasprintf("the backend header of %s", who));
	}
	free(who);
}

unsigned names_check(const struct model *m)
{
	unsigned errors = diag_error_count();
	struct names t = { { NULL, 0, 0 }, NULL, 0 };
	struct strmap impls = { NULL, 0, 0 };
	size_t i, j;

	if (m->main) {
		claim(&t, &m->main->loc, xstrdup("main"), xstrdup("the program's main function"));
		claim_file(&t, &m->main->loc, xstrdup("peppher.h"), xstrdup("the generated header"));
		claim_file(&t, &m->main->loc, xstrdup("Makefile"), xstrdup("the generated Makefile"));
		if (m->main->link.output)
			claim_file(&t, &m->main->link.loc, xstrdup(m->main->link.output),
				   xstrdup("the program"));
		claim_sources(&t, m->main);
	}
	for (i = 0; i < m->ngenerics; i++)
		claim(&t, &m->generics[i]->loc, xstrdup(m->generics[i]->name),
		      xasprintf("the generic interface '%s'", m->generics[i]->name));
	for (i = 0; i < m->nifaces; i++)
		claim_iface(&t, m->ifaces[i]);
	for (i = 0; i < m->nifaces; i++)
		for (j = 0; j < m->ifaces[i]->nimpls; j++) {
			const struct impl *impl = m->ifaces[i]->impls[j];

			/* the same name twice is reported as such */
			if (strmap_get(&impls, impl->name))
				continue;
			strmap_put(&impls, impl->name, (void *)impl);
			claim_impl(&t, impl);
		}
	/* the map holds the keys, not copies: every claim is looked up before
	 * any key is freed (a lookup compares with the keys on its way) */
	for (i = 0; i < t.nkeys; i++) {
		struct claim *c = strmap_get(&t.map, t.keys[i]);

		free(c->what);
		free(c);
	}
	for (i = 0; i < t.nkeys; i++)
		free(t.keys[i]);
	free(t.keys);
	strmap_free(&t.map);
	strmap_free(&impls);
	return diag_error_count() - errors;
}
