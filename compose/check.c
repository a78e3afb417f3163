#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "config.h"
#include "check.h"
#include "classify.h"
#include "diag.h"
#include "names.h"
#include "util.h"

/* restrict qualifies a pointer, after its '*' ("float *restrict x"), where
 * the types compose reads drop it; one left is before a '*' or on no
 * pointer at all ("restrict float *"), which no compiler takes. */
static bool misplaced_restrict(const char *type)
{
	return type_has_word(type, "restrict") || type_has_word(type, "__restrict") ||
	       type_has_word(type, "__restrict__");
}

static void check_type(const struct param *p)
{
	if (!p->type[0])
		diag_error(&p->loc, "parameter '%s' has an empty type", p->name);
	else if (!is_c_type(p->type, true))
		diag_error(&p->loc, "parameter '%s' has type '%s', which is not a C type",
			   p->name, p->type);
	else if (misplaced_restrict(p->type))
		diag_error(&p->loc, "parameter '%s' has type '%s': restrict qualifies a pointer, after its '*' ('T *restrict')",
			   p->name, p->type);
	if (p->elem_type) { /* it goes into casts and sizeof: words and stars only */
		char *elem = normalize_type(p->elem_type);

		if (!is_c_type(elem, false))
			diag_error(&p->loc, "parameter '%s' has elemType '%s', which is not a C type",
				   p->name, elem);
		free(elem);
	}
}

/* Parameter p of ifc is in scope in ifc's entry wrapper, and in the C++
 * overloads of a generic one in peppher.h: no name those use. */
static void check_param_name(const struct iface *ifc, const struct param *p)
{
	const char *why = names_param_problem(ifc->name, p->name);
	size_t i;

	if (why) {
		diag_error(&p->loc, "parameter name '%s'%s", p->name, why);
		return;
	}
	if (ifc->generic_name && strcmp(p->name, ifc->name) == 0)
		diag_error(&p->loc, "parameter name '%s' is instance '%s' of generic interface '%s', which its C++ overload calls",
			   p->name, ifc->name, ifc->generic_name);
	for (i = 0; i < ifc->nparams; i++) {
		const struct param *q = &ifc->params[i];
		size_t n = strlen(ifc->name), m = strlen(q->name);

		/* the entry wrapper passes &NAME_Q_reduction, a reduction
		 * function's operator */
		if (q->reduction && reduction_builtin(q->reduction) < 0 &&
		    strncmp(p->name, ifc->name, n) == 0 && p->name[n] == '_' &&
		    strncmp(p->name + n + 1, q->name, m) == 0 &&
		    strcmp(p->name + n + 1 + m, "_reduction") == 0)
			diag_error(&p->loc, "parameter name '%s' is the reduction operator of parameter '%s', which its interface's entry function passes to the runtime",
				   p->name, q->name);
	}
}

/* Names and types of ifc's parameters and result. */
static void check_params(const struct iface *ifc)
{
	size_t i, j;

	for (i = 0; i < ifc->nparams; i++) {
		const struct param *p = &ifc->params[i];

		check_param_name(ifc, p);
		for (j = 0; j < i; j++)
			if (strcmp(ifc->params[j].name, p->name) == 0)
				diag_error(&p->loc, "parameter '%s' declared twice",
					   p->name);
		check_type(p);
	}
	if (ifc->return_type && !is_c_type(ifc->return_type, true))
		diag_error(&ifc->loc, "returnType '%s' of '%s' is not a C type",
			   ifc->return_type, ifc->name);
	else if (ifc->return_type && misplaced_restrict(ifc->return_type))
		diag_error(&ifc->loc, "returnType '%s' of '%s': restrict qualifies a pointer, after its '*' ('T *restrict')",
			   ifc->return_type, ifc->name);
}

/*
 * Compiler names, flags and the program's name go into the Makefile as they
 * are: none may end its line (a new rule), reach the shell as a command
 * separator, or make make expand something ($(shell ...)), nor the shell
 * ("$$(cmd)").  Flags may name make variables, $(LDFLAGS), and write a
 * literal '$' as "$$" where the shell takes it as one.
 */
static void check_command(const struct loc *loc, const char *what, const char *name)
{
	const char *s;

	for (s = name; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(" _.+-/", *s))
			break;
	if (*s) {
		char *p = printable(name);

		diag_error(loc, "%s '%s' is not a command name (letters, digits, spaces and _ . + - /)",
			   what, p);
		free(p);
	}
}

static void check_flags(const struct loc *loc, const char *what, const char *flags)
{
	const char *s, *bad = NULL;

	for (s = flags; *s && !bad; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f || strchr(";|&`<>#\\", *s)) {
			bad = s;
		} else if (*s == '$' && s[1] == '$') {
			/* make's "$$" is the shell's "$": "$$(cmd)" would run
			 * cmd, "$${...}" expand; a '$' before anything else
			 * (a -D value's "$5") stays a character */
			if (s[2] == '(' || s[2] == '{')
				bad = s;
			s++;
		} else if (*s == '$') {
			const char *name = s + 2, *end = name;

			while (isalnum((unsigned char)*end) || *end == '_')
				end++;
			if (s[1] != '(' || end == name || *end != ')')
				bad = s;
			else
				s = end;
		}
	}
	if (bad) {
		char *p = printable(flags);

		diag_error(loc, "%s '%s': %s at column %d; flags are compiler options, with $(VAR) for make variables and $$ for '$'",
			   what, p, *bad == '\n' ? "a line break" :
			   *bad == '$' && bad[1] == '$' ? "a \"$$\" the shell would expand" :
			   *bad == '$' ? "a '$' that is no $(VAR)" : "a character for the shell or make",
			   (int)(bad - flags) + 1);
		free(p);
	}
}

static void check_compiler(const struct compiler *c, bool link)
{
	if (c->name)
		check_command(&c->loc, link ? "linker" : "compiler", c->name);
	if (c->flags)
		check_flags(&c->loc, link ? "link flags" : "compiler flags", c->flags);
}

/* @symbol: the linker's name of the function the interface wraps, where
 * its header declares it under another name than the one its users write
 * (GMP's "#define mpz_add __gmpz_add").  It lands in generated code and in
 * the link's --wrap: an identifier, of an interface with @wrap. */
static void check_symbol(const struct iface *ifc)
{
	if (!ifc->symbol)
		return;
	if (!is_c_identifier(ifc->symbol))
		diag_error(&ifc->loc, "interface '%s': symbol '%s' is not a C identifier", ifc->name,
			   ifc->symbol);
	/* the C implementation's own names (__gmpz_add, __xpg_strerror_r)
	 * are what symbols name: not keywords, ours or the entry point */
	else if (is_c_keyword(ifc->symbol) || strncasecmp(ifc->symbol, "pph_", 4) == 0 ||
		 strcmp(ifc->symbol, "main") == 0)
		diag_error(&ifc->loc, "interface '%s': symbol '%s' is a keyword, the entry point or a name of generated code",
			   ifc->name, ifc->symbol);
	else if (!ifc->wrap || ifc->template_type)
		diag_error(&ifc->loc, "interface '%s': symbol names the function it wraps: it needs wrap=\"true\"%s",
			   ifc->name, ifc->template_type ? " and no templateTypes" : "");
}

/* @include: each a header name, <x.h>, "x.h" or x.h, that stays on its
 * #include line (line breaks are blanks by now: no blanks either). */
static void check_includes(const struct iface *ifc)
{
	size_t i;

	for (i = 0; i < ifc->nincludes; i++) {
		const char *inc = ifc->includes[i], *s;
		size_t len = strlen(inc);
		bool quoted = len >= 2 && ((inc[0] == '<' && inc[len - 1] == '>') ||
					   (inc[0] == '"' && inc[len - 1] == '"'));

		for (s = inc + quoted; s < inc + len - quoted; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f || strchr(" \"'<>\\", *s))
				break;
		if (len <= 2u * quoted || s < inc + len - quoted) {
			char *p = printable(inc);

			diag_error(&ifc->loc, "include '%s' of '%s' is not a header name (<x.h>, \"x.h\" or x.h)",
				   p, ifc->name);
			free(p);
		}
	}
}

/* Is path (resolved) in the folder tree of root (resolved)? */
static bool is_inside(const char *root, const char *path)
{
	size_t n = strlen(root);

	return strncmp(root, path, n) == 0 &&
	       (path[n] == '/' || path[n] == '\0' || strcmp(root, "/") == 0);
}

/* A source is a regular file in the component's folder tree (root, that
 * of the descriptor declaring the interface, or the main one): compose
 * never hands the compiler "../../etc/passwd".  It must be readable: the
 * prototype check would not find the function in it, and make would fail
 * later, neither saying why. */
static void check_source_file(const struct source_file *sf, const char *root,
			      const char *descriptor)
{
	struct stat st;
	char *real;
	int fd;

	if (stat(sf->path, &st) != 0) {
		if (errno == ENOENT)
			diag_error(&sf->loc, "source file '%s' not found", sf->path);
		else
			diag_error(&sf->loc, "cannot read source file '%s': %s", sf->path,
				   strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_error(&sf->loc, "source file '%s' is not a regular file", sf->path);
		return;
	}
	fd = open(sf->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		diag_error(&sf->loc, "cannot read source file '%s': %s", sf->path, strerror(errno));
		return;
	}
	close(fd);
	real = realpath(sf->path, NULL);
	if (real && root && !is_inside(root, real))
		diag_error(&sf->loc, "source file '%s' is outside the folder tree of '%s', its component",
			   sf->name, descriptor);
	free(real);
}

/* The resolved folder of descriptor path, or NULL. */
static char *descriptor_root(const char *path)
{
	char *dir = path_dirname(path), *real = realpath(dir, NULL);

	free(dir);
	return real;
}

static void check_sources(const struct impl *impl, const char *descriptor)
{
	size_t i, kernels = 0;
	char *root = descriptor_root(descriptor);

	for (i = 0; i < impl->nsources; i++) {
		const struct source_file *sf = &impl->sources[i];
		const char *ext = strrchr(sf->name, '.');

		check_source_file(sf, root, descriptor);
		if (sf->kernel && impl->platform != PLATFORM_OPENCL)
			diag_error(&sf->loc, "'%s' has a kernel attribute, but '%s' is no OpenCL implementation",
				   sf->name, impl->name);
		else if (!sf->kernel && ext && strcmp(ext, ".cl") == 0)
			diag_error(&sf->loc, "OpenCL kernel file '%s' names no kernel: add kernel=\"NAME\"",
				   sf->name);
		else if (sf->kernel && !is_c_identifier(sf->kernel))
			diag_error(&sf->loc, "kernel name '%s' is not a C identifier", sf->kernel);
		kernels += sf->kernel != NULL;
		check_compiler(&sf->compile, false);
	}
	free(root);
	if (kernels > 1)
		diag_error(&impl->loc, "'%s' has %zu kernel files; a ComPU-style OpenCL implementation has one",
			   impl->name, kernels);
	if (kernels && impl->platform == PLATFORM_OPENCL && !impl->cl_kernel_var)
		diag_error(&impl->loc, "'%s' has a kernel file but its host source names no cl_kernel variable (cl_kernel=\"NAME\" on its sourceFile)",
			   impl->name);
	{
		const char *const vars[] = { impl->cl_kernel_var, impl->cl_queue_var,
					     impl->cl_program_var };

		for (i = 0; i < 3; i++)
			if (vars[i])
				names_check_identifier(&impl->loc, "OpenCL global", vars[i]);
	}
}

/* Report impl if an implementation met before (names: those, by name)
 * has its name; else remember it. */
static void check_impl_name_unique(struct strmap *names, const struct impl *impl)
{
	const struct impl *first = strmap_get(names, impl->name);

	if (!first) {
		strmap_put(names, impl->name, (void *)impl);
		return;
	}
	diag_error(&impl->loc, "implementation '%s' defined twice", impl->name);
	diag_note(&first->loc, "first defined here");
}

/* A required interface comes from one descriptor: the first that named it
 * is loaded, so another @xmlFile for the same name would be ignored. */
static void check_required_files(const struct impl *impl)
{
	size_t i;

	for (i = 0; i < impl->nrequires; i++) {
		const struct required *r = &impl->requires[i];
		char *path, *real, *loaded;

		if (!r->xml_file || !r->iface)
			continue;
		path = path_join(impl->dir, r->xml_file);
		real = realpath(path, NULL);
		loaded = realpath(r->iface->path, NULL);
		if (real && loaded && strcmp(real, loaded) != 0)
			diag_error(&r->loc, "interface '%s' is required from '%s', but it was loaded from '%s'",
				   r->name, path, r->iface->path);
		free(loaded);
		free(real);
		free(path);
	}
}

/*
 * The program is built, removed by make clean and installed in the output
 * folder: a plain file name there, which no command takes for an option
 * ("-x"), no other folder ("../main.c", "/tmp/x"), none of make's targets
 * and none of the files compose writes.
 */
static void check_program_name(const struct compiler *c)
{
	static const char *const taken[] = { "all", "clean", "install", "Makefile", "peppher.h" };
	const char *s, *why = NULL;
	size_t i, len = strlen(c->output);

	for (s = c->output; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.+-", *s))
			break;
	if (*s)
		why = "is not a plain file name (letters, digits and _ . + -)";
	else if (c->output[0] == '-' || c->output[0] == '.')
		why = "starts with '-' or '.'";
	else if (len > 2 && c->output[len - 2] == '.' && strchr("och", c->output[len - 1]))
		why = "is named like a source or an object";
	for (i = 0; !why && i < sizeof(taken) / sizeof(taken[0]); i++)
		if (strcmp(c->output, taken[i]) == 0)
			why = "is a name the generated Makefile uses";
	if (why) {
		char *p = printable(c->output);

		diag_error(&c->loc, "output program '%s' %s", p, why);
		free(p);
	}
}

static void check_main(const struct model *m)
{
	const struct compiler *c = &m->main->link;

	check_sources(m->main, m->main_path);
	if (!m->main->has_link)
		diag_error(&m->main->loc, "the main module has no link step: add a <peppher:sourceFile> holding <peppher:compiler type=\"link\"> with <peppher:name>, <peppher:flags> and <peppher:output>PROGRAM</peppher:output>");
	else if (!c->output || !c->output[0])
		diag_error(&c->loc, "the link step names no output program (<peppher:output>)");
	else if (!c->name || !c->name[0])
		diag_error(&c->loc, "the link step names no linker (<peppher:name>)");
	else {
		check_compiler(c, true);
		check_program_name(c);
	}
}

/* A variant's link step adds the flags it needs (its libraries) to the
 * program's link line; the main module's names the linker and the program. */
static void check_variant_link(const struct impl *impl)
{
	if (!impl->has_link)
		return;
	if (impl->link.name || impl->link.output)
		diag_error(&impl->link.loc, "the link step of variant '%s' adds flags only (<peppher:flags>-lfoo</peppher:flags>): the main module's names the linker and the program",
			   impl->name);
	check_compiler(&impl->link, true);
}

static bool has_kernel(const struct impl *impl)
{
	size_t i;

	for (i = 0; i < impl->nsources; i++)
		if (impl->sources[i].kernel)
			return true;
	return false;
}

static void check_impls(const struct iface *ifc, struct strmap *impl_names)
{
	size_t i;

	for (i = 0; i < ifc->nimpls; i++) {
		const struct impl *impl = ifc->impls[i];
		const char *why = names_impl_problem(impl->name, has_kernel(impl));

		if (why)
			diag_error(&impl->loc, "implementation name '%s'%s", impl->name, why);
		check_impl_name_unique(impl_names, impl);
		check_sources(impl, ifc->path);
		check_variant_link(impl);
		/* an OpenMP variant's team, a device's worker: never the caller */
		if (impl->caller_thread && impl->platform != PLATFORM_CPU)
			diag_error(&impl->loc, "'%s' has callerThread=\"true\", but only a CPU implementation runs on the calling thread",
				   impl->name);
	}
}

unsigned check_model(const struct model *m)
{
	unsigned errors = diag_error_count();
	struct strmap impl_names = { 0 };
	size_t i, j;

	for (i = 0; i < m->nifaces; i++) {
		const struct iface *ifc = m->ifaces[i];

		names_check_identifier(&ifc->loc, "interface name", ifc->name);
		check_params(ifc);
		check_symbol(ifc);
		check_includes(ifc);
		check_impls(ifc, &impl_names);
	}
	strmap_free(&impl_names);
	if (m->main) {
		check_main(m);
		check_required_files(m->main);
	}
	for (i = 0; i < m->nifaces; i++)
		for (j = 0; j < m->ifaces[i]->nimpls && !m->ifaces[i]->generic_name; j++)
			check_required_files(m->ifaces[i]->impls[j]);
	for (i = 0; i < m->ngenerics; i++) /* once, not per instance */
		for (j = 0; j < m->generics[i]->nimpls; j++)
			check_required_files(m->generics[i]->impls[j]);
	names_check(m);
	return diag_error_count() - errors;
}
