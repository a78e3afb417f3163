#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "check.h"
#include "constraint.h"
#include "diag.h"
#include "names.h"
#include "platform.h"
#include "util.h"

unsigned check_build_platforms(void)
{
	unsigned p = 1u << PLATFORM_CPU | 1u << PLATFORM_OPENMP;

#ifdef PPH_HAVE_CUDA
	p |= 1u << PLATFORM_CUDA;
#endif
#ifdef PPH_HAVE_OPENCL
	p |= 1u << PLATFORM_OPENCL;
#endif
	return p;
}

static bool is_pointer(const char *type)
{
	size_t len = strlen(type);

	return len && type[len - 1] == '*';
}

static void check_type(const struct param *p)
{
	if (!p->type[0])
		diag_error(&p->loc, "parameter '%s' has an empty type", p->name);
	else if (!is_c_type(p->type, true))
		diag_error(&p->loc, "parameter '%s' has type '%s', which is not a C type",
			   p->name, p->type);
	if (p->elem_type) { /* it goes into casts and sizeof: words and stars only */
		char *elem = normalize_type(p->elem_type);

		if (!is_c_type(elem, false))
			diag_error(&p->loc, "parameter '%s' has elemType '%s', which is not a C type",
				   p->name, elem);
		free(elem);
	}
}

/* "const T *", "T const *": what the pointer points to is const. */
static bool is_const_pointee(const char *type)
{
	size_t len = strlen(type);

	if (len < 2 || strcmp(type + len - 2, "**") == 0)
		return false; /* const T **: the pointers it points to can change */
	return strncmp(type, "const ", 6) == 0 ||
	       (len > 8 && strcmp(type + len - 8, " const *") == 0);
}

static struct param *find_param(struct iface *ifc, const char *name)
{
	size_t i;

	for (i = 0; i < ifc->nparams; i++)
		if (strcmp(ifc->params[i].name, name) == 0)
			return &ifc->params[i];
	return NULL;
}

/* Pointee type: @elemType when given, else the type less its last '*'. */
static char *pointee(const struct param *p)
{
	char *base, *elem;

	if (p->elem_type)
		return normalize_space(p->elem_type);
	base = xstrdup(p->type);
	base[strlen(base) - 1] = '\0';
	elem = normalize_space(base);
	free(base);
	return elem;
}

/* "pph_vector *" (or "struct pph_vector *"): which container, if any. */
static enum param_kind container_kind(const char *type)
{
	static const struct { const char *type; enum param_kind kind; } map[] = {
		{ "pph_vector *", PARAM_CVECTOR }, { "struct pph_vector *", PARAM_CVECTOR },
		{ "pph_matrix *", PARAM_CMATRIX }, { "struct pph_matrix *", PARAM_CMATRIX },
		{ "pph_scalar *", PARAM_CSCALAR }, { "struct pph_scalar *", PARAM_CSCALAR },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(type, map[i].type) == 0)
			return map[i].kind;
	return PARAM_VALUE;
}

static void classify_container(struct iface *ifc, struct param *p, enum param_kind kind)
{
	p->kind = kind;
	p->buffer = (int)ifc->nbuffers++;
	if (!p->elem_type)
		diag_error(&p->loc, "container parameter '%s' needs elemType (its element type)",
			   p->name);
	else {
		char *e = normalize_type(p->elem_type);

		free(p->elem_type);
		p->elem_type = e;
	}
	if (kind == PARAM_CSCALAR && p->num_elements)
		diag_error(&p->loc, "scalar container '%s' cannot have numElements", p->name);
}

static void classify_pointer(struct iface *ifc, struct param *p)
{
	enum param_kind ck = container_kind(p->type);
	char *elem;

	if (ck != PARAM_VALUE) {
		classify_container(ifc, p, ck);
		return;
	}
	elem = pointee(p);

	free(p->elem_type);
	p->elem_type = elem;
	if (strcmp(elem, "void") == 0 || strcmp(elem, "const void") == 0)
		diag_error(&p->loc, "parameter '%s' points to void: give its element type in elemType",
			   p->name);
	p->buffer = (int)ifc->nbuffers++;
	p->kind = p->num_elements ? PARAM_VECTOR : PARAM_VARIABLE;
}

/* Mark the by-value parameter named name as dimension dim of p. */
static void bind_size(struct iface *ifc, struct param *p, const char *name, int dim)
{
	struct param *size = find_param(ifc, name);

	if (!size) {
		diag_error(&p->loc, "numElements of '%s' names '%s', which is not a parameter of '%s'",
			   p->name, name, ifc->name);
	} else if (size == p || size->buffer >= 0) {
		diag_error(&p->loc, "numElements of '%s' names '%s', which is not a by-value size parameter",
			   p->name, name);
	} else if (size->kind != PARAM_SIZE) {
		/* the first pointer it sizes gives its value inside the backend */
		size->kind = PARAM_SIZE;
		size->size_of = (int)(p - ifc->params);
		size->size_dim = dim;
	}
}

static void check_num_elements(struct iface *ifc, struct param *p)
{
	char *comma = strchr(p->num_elements, ',');

	if (!comma || p->kind == PARAM_CVECTOR) {
		if (comma)
			diag_error(&p->loc, "vector container '%s' has one size, not \"%s\"",
				   p->name, p->num_elements);
		else
			bind_size(ifc, p, p->num_elements, 0);
		return;
	}
	if (p->kind == PARAM_VECTOR)
		p->kind = PARAM_MATRIX;
	p->dims[0] = xasprintf("%.*s", (int)(comma - p->num_elements), p->num_elements);
	p->dims[1] = xstrdup(comma + 1);
	{
		char *rows = normalize_space(p->dims[0]), *cols = normalize_space(p->dims[1]);

		free(p->dims[0]);
		free(p->dims[1]);
		p->dims[0] = rows;
		p->dims[1] = cols;
	}
	if (strchr(p->dims[1], ',')) {
		diag_error(&p->loc, "numElements of '%s' is \"%s\": give one size (vector) or rows,cols (matrix)",
			   p->name, p->num_elements);
		return;
	}
	bind_size(ifc, p, p->dims[0], 0);
	bind_size(ifc, p, p->dims[1], 1);
}

/* "auto" -> 0, "N" -> N in 1..256, else -1. */
static int parse_parts(const char *s)
{
	char *end;
	long n;

	if (strcmp(s, "auto") == 0)
		return 0;
	n = strtol(s, &end, 10);
	return *end || end == s || n < 1 || n > 256 ? -1 : (int)n;
}

/* @partition: how many blocks one call is split into along p. */
static void check_partition(struct iface *ifc, struct param *p)
{
	p->parts = -1;
	if (!p->partition)
		return;
	if (p->kind != PARAM_VECTOR && p->kind != PARAM_MATRIX &&
	    p->kind != PARAM_CVECTOR && p->kind != PARAM_CMATRIX) {
		diag_error(&p->loc, "only vectors and matrices can be partitioned, not '%s'",
			   p->name);
		return;
	}
	p->parts = parse_parts(p->partition);
	if (p->parts < 0)
		diag_error(&p->loc, "partition of '%s' is \"%s\": give a block count from 1 to 256, or \"auto\"",
			   p->name, p->partition);
	else
		ifc->partitioned = true;
}

/* requiredInterface@partition in the main descriptor: the block count of
 * every partitioned parameter of that interface (its instances, if generic). */
static void apply_main_partition(const struct required *r, struct iface *ifc)
{
	int parts = parse_parts(r->partition);
	size_t i;

	if (ifc->instances) {
		for (i = 0; i < ifc->ninstances; i++)
			apply_main_partition(r, ifc->instances[i]);
		return;
	}
	if (parts < 0) {
		diag_error(&r->loc, "partition of '%s' is \"%s\": give a block count from 1 to 256, or \"auto\"",
			   r->name, r->partition);
	} else if (!ifc->partitioned) {
		diag_error(&r->loc, "'%s' has no parameter with partition: there is nothing to split",
			   r->name);
	} else {
		for (i = 0; i < ifc->nparams; i++)
			if (ifc->params[i].parts >= 0)
				ifc->params[i].parts = parts;
	}
}

static void check_params(struct iface *ifc)
{
	size_t i, j;

	for (i = 0; i < ifc->nparams; i++) {
		struct param *p = &ifc->params[i];

		names_check_identifier(&p->loc, "parameter name", p->name);
		for (j = 0; j < i; j++)
			if (strcmp(ifc->params[j].name, p->name) == 0)
				diag_error(&p->loc, "parameter '%s' declared twice",
					   p->name);
		check_type(p);
		if (is_pointer(p->type)) {
			classify_pointer(ifc, p);
			if (is_const_pointee(p->type) && p->access != ACCESS_READ)
				diag_error(&p->loc, "parameter '%s' is '%s', but its accessMode is '%s': a const pointee is only read",
					   p->name, p->type, access_name(p->access));
		} else {
			p->kind = PARAM_VALUE;
			if (p->num_elements)
				diag_error(&p->loc, "parameter '%s' has numElements but is not a pointer",
					   p->name);
			if (p->access != ACCESS_READ)
				diag_error(&p->loc, "by-value parameter '%s' cannot be '%s'",
					   p->name, access_name(p->access));
		}
	}
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].num_elements && ifc->params[i].buffer >= 0 &&
		    ifc->params[i].kind != PARAM_CSCALAR)
			check_num_elements(ifc, &ifc->params[i]);
	for (i = 0; i < ifc->nparams; i++)
		check_partition(ifc, &ifc->params[i]);
	/* a partitioned call waits to gather its blocks */
	ifc->async = ifc->nbuffers > 0 && !ifc->partitioned;
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].buffer >= 0 && !PARAM_IS_CONTAINER(&ifc->params[i]))
			ifc->async = false;
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].kind == PARAM_VALUE)
			ifc->has_args = true;
	if (ifc->return_type) {
		/* the value comes back through a pointer in the argument block */
		if (!is_c_type(ifc->return_type, false))
			diag_error(&ifc->loc, "returnType '%s' of '%s' is not a C type",
				   ifc->return_type, ifc->name);
		if (ifc->partitioned)
			diag_error(&ifc->loc, "'%s' returns a value, so its calls cannot be partitioned",
				   ifc->name);
		ifc->has_args = true;
		ifc->async = false;
	}
}

/*
 * Compiler names, flags and the program's name go into the Makefile as they
 * are: none may end its line (a new rule), reach the shell as a command
 * separator, or make make expand something ($(shell ...)).  Flags may name
 * make variables, $(LDFLAGS), and write a literal '$' as "$$".
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
 * never hands the compiler "../../etc/passwd". */
static void check_source_file(const struct source_file *sf, const char *root,
			      const char *descriptor)
{
	struct stat st;
	char *real;

	if (stat(sf->path, &st) != 0) {
		diag_error(&sf->loc, "source file '%s' not found", sf->path);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_error(&sf->loc, "source file '%s' is not a regular file", sf->path);
		return;
	}
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

/* ---- constraints ---- */

/* The runtime's resources a dynamic constraint may use. */
static const char *const resources[] = {
	"num_cpus", "num_gpus", "num_cuda_devices", "num_opencl_devices", "num_workers",
	"true", "false",
};

bool check_is_resource(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(resources) / sizeof(resources[0]); i++)
		if (strcmp(name, resources[i]) == 0)
			return true;
	return false;
}

struct name_check {
	const struct model *m;
	const struct iface *ifc;
	const struct constraint *k;
};

static int check_dynamic_name(void *ctx, const char *name)
{
	struct name_check *nc = ctx;
	const struct param *p = find_param((struct iface *)nc->ifc, name);

	if (p && (p->kind == PARAM_VALUE || p->kind == PARAM_SIZE) && !strchr(p->type, '('))
		return 0;
	if (p)
		diag_error(&nc->k->loc, "constraint \"%s\": '%s' is not a by-value number (constraints can use by-value parameters)",
			   nc->k->text, name);
	else if (!check_is_resource(name))
		diag_error(&nc->k->loc, "constraint \"%s\": '%s' is neither a parameter of '%s' nor a runtime resource (num_cpus, num_gpus, num_cuda_devices, num_opencl_devices, num_workers)",
			   nc->k->text, name, nc->ifc->name);
	else
		return 0;
	return 1;
}

static int check_static_name(void *ctx, const char *name)
{
	struct name_check *nc = ctx;
	double v;

	if (platform_fact(nc->m, name, &v))
		return 0;
	if (find_param((struct iface *)nc->ifc, name))
		diag_error(&nc->k->loc, "constraint \"%s\" uses parameter '%s': only a dynamic constraint (type=\"dynamic\") can",
			   nc->k->text, name);
	else
		diag_error(&nc->k->loc, "constraint \"%s\": '%s' is not a platform fact (num_cores, num_pus, num_cuda_devices, num_opencl_devices, has_cpu, has_openmp, has_cuda, has_opencl, or one from --platform)",
			   nc->k->text, name);
	return 1;
}

static double fact_value(void *ctx, const char *name)
{
	double v = 0;

	platform_fact(ctx, name, &v);
	return v;
}

/* A fresh "name = value, ..." of the facts e uses, for notes. */
static int list_fact(void *ctx, const char *name)
{
	void **c = ctx;
	struct strbuf *b = c[0];
	double v = 0;

	if (!strstr(b->s ? b->s : "", name)) {
		platform_fact(c[1], name, &v);
		strbuf_append(b, "%s%s = %g", b->len ? ", " : "", name, v);
	}
	return 0;
}

/* Parse impl's constraints, check their names; returns why a static one
 * excludes impl on this platform (a fresh string), or NULL. */
static char *check_constraints(const struct model *m, const struct iface *ifc, struct impl *impl)
{
	char *why = NULL;
	size_t i;

	for (i = 0; i < impl->nconstraints; i++) {
		struct constraint *k = &impl->constraints[i];
		struct name_check nc = { m, ifc, k };

		k->expr = cexpr_parse(k->text, &k->loc);
		if (!k->expr)
			continue;
		if (k->dynamic) {
			cexpr_names(k->expr, check_dynamic_name, &nc);
			impl->dynamic = true;
		} else if (cexpr_names(k->expr, check_static_name, &nc) == 0 && !why &&
			   cexpr_eval(k->expr, fact_value, (void *)m) == 0) {
			struct strbuf facts = { 0 };
			void *ctx[2] = { &facts, (void *)m };

			cexpr_names(k->expr, list_fact, ctx);
			why = xasprintf("static constraint \"%s\" is false here (%s)", k->text,
					facts.s ? facts.s : "no facts");
			free(facts.s);
		}
	}
	return why;
}

/* Why impl takes no part in the build (a fresh string), or NULL. */
static char *exclusion(const struct iface *ifc, const struct impl *impl,
		       const struct narrowing *nw)
{
	const char *p = platform_name(impl->platform);
	size_t i;

	if (impl->disabled)
		return xstrdup("disabled in its descriptor");
	for (i = 0; i < nw->ndisabled_impls; i++)
		if (strcmp(nw->disabled_impls[i], impl->name) == 0)
			return xstrdup("disabled by --disable-impls");
	if (ifc->disabled_platforms & 1u << impl->platform)
		return xasprintf("%s disabled by interface '%s'", p, ifc->name);
	if (nw->disabled_platforms & 1u << impl->platform)
		return xasprintf("%s disabled on the command line", p);
	if (!(nw->build_platforms & 1u << impl->platform))
		return xasprintf("this build has no %s", p);
	return NULL;
}

static void check_impls(struct model *m, struct iface *ifc,
			const struct narrowing *nw, struct strmap *impl_names)
{
	size_t i, enabled = 0;

	for (i = 0; i < ifc->nimpls; i++) {
		struct impl *impl = ifc->impls[i];

		names_check_identifier(&impl->loc, "implementation name", impl->name);
		check_impl_name_unique(impl_names, impl);
		check_sources(impl, ifc->path);
		impl->excluded = exclusion(ifc, impl, nw);
		{
			char *why = check_constraints(m, ifc, impl);

			if (why && !impl->excluded)
				impl->excluded = why;
			else
				free(why);
		}
		if (!impl->excluded && impl->dynamic && enabled >= 32)
			diag_error(&impl->loc, "'%s' has dynamic constraints but comes after the 32nd variant of '%s'",
				   impl->name, ifc->name);
		if (impl->excluded)
			diag_note(&impl->loc, "skipping '%s': %s", impl->name,
				  impl->excluded);
		else
			enabled++;
	}
	if (!enabled)
		diag_error(&ifc->loc, "interface '%s' has no enabled implementation%s",
			   ifc->name, ifc->nimpls ? " (see the notes above)" : "");
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
		const char *s;

		check_compiler(c, true);
		for (s = c->output; *s; s++)
			if (!isalnum((unsigned char)*s) && !strchr("_.+-/", *s))
				break;
		if (*s) {
			char *p = printable(c->output);

			diag_error(&c->loc, "output program '%s' is not a plain file name (letters, digits and _ . + - /)",
				   p);
			free(p);
		}
	}
}

/*
 * Depth-first walk of the required-interfaces graph: an interface is
 * appended after everything it requires (bottom-up).  mark: 0 unvisited,
 * 1 on the current path, 2 done.
 */
static void visit(struct iface *ifc, struct iface **order, size_t *n,
		  struct iface **path, size_t depth)
{
	size_t i, j;

	if (ifc->template_type && !ifc->generic_name) {
		/* a generic interface stands for its instances */
		for (i = 0; i < ifc->ninstances; i++)
			visit(ifc->instances[i], order, n, path, depth);
		return;
	}
	if (ifc->mark == 2)
		return;
	if (ifc->mark == 1) {
		char *cycle = xstrdup(ifc->name);

		for (i = depth; path[i - 1] != ifc; i--)
			;
		for (; i < depth; i++) {
			char *longer = xasprintf("%s -> %s", cycle, path[i]->name);

			free(cycle);
			cycle = longer;
		}
		diag_error(&ifc->loc, "required interfaces form a cycle: %s -> %s",
			   cycle, ifc->name);
		free(cycle);
		return;
	}
	ifc->mark = 1;
	path[depth] = ifc;
	for (i = 0; i < ifc->nimpls; i++)
		for (j = 0; j < ifc->impls[i]->nrequires; j++)
			if (ifc->impls[i]->requires[j].iface)
				visit(ifc->impls[i]->requires[j].iface, order, n,
				      path, depth + 1);
	ifc->mark = 2;
	order[(*n)++] = ifc;
}

static void order_interfaces(struct model *m)
{
	struct iface **order = xcalloc(m->nifaces, sizeof(*order));
	struct iface **path = xcalloc(m->nifaces + m->ngenerics + 1, sizeof(*path));
	size_t i, n = 0;

	for (i = 0; i < m->nifaces; i++)
		m->ifaces[i]->mark = 0;
	for (i = 0; i < m->nifaces; i++)
		visit(m->ifaces[i], order, &n, path, 0);
	free(m->ifaces);
	free(path);
	m->ifaces = order;
}

unsigned check_model(struct model *m, const struct narrowing *nw)
{
	unsigned errors = diag_error_count();
	struct strmap impl_names = { 0 };
	size_t i, j;

	for (i = 0; i < m->nifaces; i++) {
		struct iface *ifc = m->ifaces[i];

		names_check_identifier(&ifc->loc, "interface name", ifc->name);
		if (ifc->model == MODEL_DEFAULT)
			ifc->model = nw->model;
		check_params(ifc);
		check_includes(ifc);
		check_impls(m, ifc, nw, &impl_names);
	}
	strmap_free(&impl_names);
	if (m->main) {
		check_main(m);
		for (i = 0; i < m->main->nrequires; i++)
			if (m->main->requires[i].partition && m->main->requires[i].iface)
				apply_main_partition(&m->main->requires[i],
						     m->main->requires[i].iface);
	}
	if (m->main)
		check_required_files(m->main);
	for (i = 0; i < m->nifaces; i++)
		for (j = 0; j < m->ifaces[i]->nimpls && !m->ifaces[i]->generic_name; j++)
			check_required_files(m->ifaces[i]->impls[j]);
	for (i = 0; i < m->ngenerics; i++) /* once, not per instance */
		for (j = 0; j < m->generics[i]->nimpls; j++)
			check_required_files(m->generics[i]->impls[j]);
	names_check(m);
	order_interfaces(m);
	return diag_error_count() - errors;
}
