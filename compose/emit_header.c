/* peppher.h: the one header the application includes. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "util.h"

/* C11: NAME(...) picks NAME_X by the type of the dispatching argument. */
static void emit_generic_macro(struct out *o, const struct iface *generic)
{
	/* expand_generics() refused a generic with no parameter to dispatch on */
	size_t d = (size_t)generic_dispatch_param(generic), i;
	struct strbuf assoc = { 0 };

	for (i = 0; i < generic->ninstances; i++) {
		const struct iface *inst = generic->instances[i];
		const char *type = inst->params[d].type;

		/* a const T * parameter also takes a T * argument */
		if (strncmp(type, "const ", 6) == 0 && strchr(type, '*'))
			strbuf_join(&assoc, ", ", "%s: %s", type + 6, inst->name);
		strbuf_join(&assoc, ", ", "%s: %s", type, inst->name);
	}
	if (generic->nparams == 1)
		out_line(o, "#define %s(a) _Generic((a), %s)(a)", generic->name, assoc.s);
	else
		out_line(o, "#define %s(...) _Generic((PPH_ARG%zu_(__VA_ARGS__, 0)), %s)(__VA_ARGS__)",
			 generic->name, d, assoc.s);
	free(assoc.s);
}

/* C++: NAME overloads that forward to the instances. */
static void emit_generic_overloads(struct out *o, const struct iface *generic)
{
	size_t i, j;

	for (i = 0; i < generic->ninstances; i++) {
		const struct iface *inst = generic->instances[i];
		char *sig = c_signature(inst, generic->name, 0);
		struct strbuf args = { 0 };

		for (j = 0; j < inst->nparams; j++)
			strbuf_join(&args, ", ", "%s", inst->params[j].name);
		out_line(o, "static inline %s", sig);
		out_line(o, "{");
		out_line(o, "\t%s%s(%s);", inst->return_type ? "return " : "", inst->name,
			 args.s ? args.s : "");
		out_line(o, "}");
		free(args.s);
		free(sig);
	}
}

static void emit_generics(struct out *o, const struct model *m)
{
	size_t i, k;

	if (!m->ngenerics)
		return;
	out_blank(o);
	out_line(o, "/* Generic interfaces: one name for every instance. */");
	out_line(o, "#ifdef __cplusplus");
	for (i = 0; i < m->ngenerics; i++)
		emit_generic_overloads(o, m->generics[i]);
	out_line(o, "#else");
	/* PPH_ARGk_(...): the k-th argument, to dispatch on */
	for (k = 0; k < 8; k++) {
		struct strbuf params = { 0 };
		size_t j;

		for (j = 0; j < k; j++)
			strbuf_append(&params, "_%zu, ", j);
		out_line(o, "#define PPH_ARG%zu_(%sa, ...) a", k, params.s ? params.s : "");
		free(params.s);
	}
	for (i = 0; i < m->ngenerics; i++)
		emit_generic_macro(o, m->generics[i]);
	out_line(o, "#endif");
}

/* Is ifc's function declared in peppher.h?  Not one it wraps whose header
 * it includes: the header declares it, as the library wrote it. */
static bool declared_here(const struct iface *ifc)
{
	return !(ifc->wrap && ifc->nincludes);
}

/* The @include headers of the interfaces peppher.h declares, each once:
 * a program that includes a library's header, then peppher.h, does not
 * get the header twice (pcre2posix.h has no include guard). */
static void emit_all_includes(struct gen *g, struct out *o)
{
	const struct model *m = g->m;
	size_t i, k, j, l;

	for (i = 0; i < m->nifaces; i++)
		for (k = 0; k < m->ifaces[i]->nincludes && declared_here(m->ifaces[i]); k++) {
			const char *inc = m->ifaces[i]->includes[k];
			bool seen = false;

			for (j = 0; j <= i && !seen; j++)
				for (l = 0; l < m->ifaces[j]->nincludes && !seen && declared_here(m->ifaces[j]); l++) {
					if (j == i && l == k)
						break;
					seen = strcmp(m->ifaces[j]->includes[l], inc) == 0;
				}
			if (!seen)
				emit_include(g, o, m->ifaces[i], k);
		}
}

/* Whether a variant of platform p takes part in the program. */
static bool composes_platform(const struct model *m, enum platform p)
{
	size_t i, j, k;

	for (i = 0; i < m->nifaces; i++) {
		const struct iface *ifc = m->ifaces[i];

		for (j = 0; j < ifc->nchosen; j++)
			if (ifc->chosen[j]->platform == p)
				return true;
		for (k = 0; k < ifc->ninstances; k++)
			for (j = 0; j < ifc->instances[k]->nchosen; j++)
				if (ifc->instances[k]->chosen[j]->platform == p)
					return true;
	}
	return false;
}

/* PEPPHER_INITIALIZE(): the runtime starts no device that no variant of
 * the program runs on (loading PoCL's OpenCL platform alone costs some
 * 40 ms and 70 MB); the environment still decides where it says.  It
 * starts the OpenMP threads of its fork-join teams only for OPENMP
 * variants (pph_conf.openmp: else the program would start them wherever
 * it links OpenMP for its own use). */
static void emit_initialize(struct out *o, const struct model *m)
{
	bool cuda = composes_platform(m, PLATFORM_CUDA), opencl = composes_platform(m, PLATFORM_OPENCL);
	bool openmp = composes_platform(m, PLATFORM_OPENMP);

	out_line(o, "/* Start the runtime, or stop the program with the reason and exit status 1.%s",
		 cuda && opencl && openmp ? " */" : "");
	if (!cuda || !opencl)
		out_line(o, " * No %s variant here: no %s is started (unless %s says).%s",
			 cuda ? "OpenCL" : opencl ? "CUDA" : "device",
			 cuda ? "OpenCL device" : opencl ? "CUDA device" : "device",
			 cuda ? "PEPPHER_NOPENCL" : opencl ? "PEPPHER_NCUDA" : "PEPPHER_NCUDA or PEPPHER_NOPENCL",
			 openmp ? " */" : "");
	if (!openmp)
		out_line(o, " * No OpenMP variant here: the runtime starts no OpenMP thread. */");
	if (cuda && opencl && openmp) {
		out_line(o, "#define PEPPHER_INITIALIZE() PPH_INITIALIZE_OR_EXIT()");
		return;
	}
	out_line(o, "#define PEPPHER_INITIALIZE() \\");
	out_line(o, "\tdo { \\");
	out_line(o, "\t\tstruct pph_conf pph_conf_; \\");
	out_line(o, "\t\tpph_conf_init(&pph_conf_); \\");
	if (!cuda)
		out_line(o, "\t\tpph_conf_.ncuda = 0; \\");
	if (!opencl)
		out_line(o, "\t\tpph_conf_.nopencl = 0; \\");
	if (!openmp)
		out_line(o, "\t\tpph_conf_.openmp = 0; \\");
	out_line(o, "\t\tPPH_INITIALIZE_CONF_OR_EXIT(&pph_conf_); \\");
	out_line(o, "\t} while (0)");
}

void emit_header(struct gen *g)
{
	struct out o;
	size_t i;

	if (gen_open(g, &o, "peppher.h", "/*") != 0)
		return;
	out_line(&o, "#ifndef PEPPHER_H");
	out_line(&o, "#define PEPPHER_H");
	out_blank(&o);
	out_line(&o, "#include <stdio.h>");
	out_line(&o, "#include <string.h>");
	out_blank(&o);
	out_line(&o, "#include <peppher/runtime.h>");
	out_line(&o, "#include <peppher/containers.h>");
	out_line(&o, "#include <peppher/wrappers.h>");
	emit_all_includes(g, &o);
	out_blank(&o);
	out_line(&o, "#ifdef __cplusplus");
	out_line(&o, "extern \"C\" {");
	out_line(&o, "#endif");
	for (i = 0; i < g->m->nifaces; i++) {
		const struct iface *ifc = g->m->ifaces[i];
		char *name, *sig;

		/* a function it wraps is its header's, declared there as the
		 * library wrote it: rows ("double a[n][m]") that the interface
		 * takes as a matrix ("double *") would conflict */
		if (!declared_here(ifc))
			continue;
		/* a header may define a macro of the name (zlib's gzgetc):
		 * "(name)" is no macro call */
		name = ifc->wrap ? xasprintf("(%s)", ifc->name) : xstrdup(ifc->name);
		sig = c_signature(ifc, name, 0);

		out_blank(&o);
		out_line(&o, "/* %s */", path_basename(ifc->path));
		out_line(&o, "%s;", sig);
		free(sig);
		free(name);
	}
	out_blank(&o);
	out_line(&o, "#ifdef __cplusplus");
	out_line(&o, "}");
	out_line(&o, "#endif");
	emit_generics(&o, g->m);
	out_blank(&o);
	emit_initialize(&o, g->m);
	out_blank(&o);
	out_line(&o, "/* Wait for every component call and stop the runtime; should a call");
	out_line(&o, " * have failed, stop the program (exit status 1). */");
	out_line(&o, "#define PEPPHER_SHUTDOWN() PPH_SHUTDOWN_OR_EXIT()");
	out_blank(&o);
	out_line(&o, "#endif /* PEPPHER_H */");
	gen_close(g, &o, "peppher.h");
}
