/*
 * Backend wrappers: one per implementation, compiled with that
 * implementation's compiler so that C, C++ and CUDA variants keep their own
 * linkage.  Each has the task-function signature the runtime calls and
 * rebuilds the implementation's arguments from the task's data handles (on
 * the memory node the task runs on) and its argument block.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "emit.h"
#include "util.h"

void emit_backend_header(struct gen *g, const struct iface *ifc)
{
	char *name = backend_header_name(ifc), *guard = backend_header_guard(ifc);
	struct out o;
	size_t i;

	if (gen_open(g, &o, name, "/*") == 0) {
		out_line(&o, "#ifndef %s", guard);
		out_line(&o, "#define %s", guard);
		out_blank(&o);
		out_line(&o, "#include <peppher/runtime.h>");
		emit_includes(g, &o, ifc);
		if (ifc->has_args) {
			out_blank(&o);
			out_line(&o, "/* By-value arguments of one %s call. */", ifc->name);
			out_line(&o, "struct %s_args {", ifc->name);
			o.indent++;
			for (i = 0; i < ifc->nparams; i++) {
				const struct param *p = &ifc->params[i];
				char *decl;

				if (p->kind != PARAM_VALUE)
					continue;
				decl = c_decl(p->type, p->name);
				out_line(&o, "%s;", decl);
				free(decl);
			}
			if (ifc->return_type) {
				char *decl = c_decl(ifc->return_type, "*pph_result");

				out_line(&o, "%s; /* where the call's value goes */", decl);
				free(decl);
			}
			o.indent--;
			out_line(&o, "};");
		}
		out_blank(&o);
		out_line(&o, "#ifdef __cplusplus");
		out_line(&o, "extern \"C\" {");
		out_line(&o, "#endif");
		out_blank(&o);
		for (i = 0; i < ifc->nchosen; i++)
			out_line(&o, "void %s_backend(void *buffers[], void *arg);",
				 ifc->chosen[i]->name);
		out_blank(&o);
		out_line(&o, "#ifdef __cplusplus");
		out_line(&o, "}");
		out_line(&o, "#endif");
		out_blank(&o);
		out_line(&o, "#endif");
		gen_close(g, &o, name);
	}
	free(guard);
	free(name);
}

/* The expression that gives parameter p inside the backend wrapper; in
 * C++ (a .cpp variant, CUDA's host code) with C++'s casts, and none where
 * the call converts a size_t itself (emit_cast, param_unsigned). */
static char *argument(const struct iface *ifc, const struct param *p, bool cxx)
{
	const char *macro;
	char *from, *type = NULL, *a;
	int buffer = p->buffer;

	switch (p->kind) {
	case PARAM_VECTOR:
	case PARAM_CVECTOR:
		macro = "PPH_VECTOR_PTR";
		break;
	case PARAM_VARIABLE:
	case PARAM_CSCALAR:
		macro = "PPH_VARIABLE_PTR";
		break;
	case PARAM_MATRIX:
	case PARAM_CMATRIX:
		macro = "PPH_MATRIX_PTR";
		break;
	case PARAM_SIZE:
		/* from the handle, so it stays right for a sub-task's block */
		buffer = ifc->params[p->size_of].buffer;
		if (ifc->params[p->size_of].kind != PARAM_MATRIX &&
		    ifc->params[p->size_of].kind != PARAM_CMATRIX)
			macro = "PPH_VECTOR_N";
		else
			macro = p->size_dim == 2 ? "PPH_MATRIX_LD" :
				p->size_dim	 ? "PPH_MATRIX_COLS" :
						   "PPH_MATRIX_ROWS";
		break;
	case PARAM_VALUE:
	default:
		return xasprintf("args->%s", p->name);
	}
	from = xasprintf("%s(buffers[%d])", macro, buffer);
	if (p->kind == PARAM_CVECTOR || p->kind == PARAM_CMATRIX || p->kind == PARAM_CSCALAR)
		type = xasprintf("%s *", p->elem_type);
	if (p->kind == PARAM_SIZE && cxx && param_unsigned(p))
		return from;
	a = emit_cast(cxx, type ? type : p->type, from);
	free(type);
	free(from);
	return a;
}

/* The backend's locals: its argument block, and nothing left unused. */
static void emit_locals(struct out *o, const struct impl *impl, bool cxx)
{
	const struct iface *ifc = impl->iface;

	if (ifc->has_args && cxx)
		out_line(o, "struct %s_args *args = static_cast<struct %s_args *>(arg);",
			 ifc->name, ifc->name);
	else if (ifc->has_args)
		out_line(o, "struct %s_args *args = (struct %s_args *)arg;",
			 ifc->name, ifc->name);
	else
		out_line(o, "(void)arg;");
	if (!ifc->nbuffers)
		out_line(o, "(void)buffers;");
}

/* The call; a C++ one catches what it throws, which would unwind
 * through the runtime's C: its call fails (pph_variant_error).  Only where
 * the compiler has exceptions on: with -fno-exceptions a try is an error
 * (g++, clang++, nvcc -Xcompiler), and nothing can be caught anyway. */
static void emit_call(struct out *o, const struct impl *impl, bool cxx)
{
	const struct iface *ifc = impl->iface;
	struct strbuf args = { 0 };
	char *call;
	size_t i;

	if (impl->platform == PLATFORM_OPENMP) {
		/* a fork-join task: as many threads as the CPU workers it holds */
		out_line(o, "#ifdef _OPENMP");
		out_line(o, "omp_set_num_threads(pph_openmp_threads());");
		out_line(o, "#endif");
	}
	out_blank(o);
	for (i = 0; i < ifc->nparams; i++) {
		char *a = argument(ifc, &ifc->params[i], cxx);

		strbuf_join(&args, ", ", "%s", a);
		free(a);
	}
	call = xasprintf("%s%s(%s);", ifc->return_type ? "*args->pph_result = " : "", impl->name,
			 args.s ? args.s : "");
	if (cxx) {
		out_line(o, "#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)");
		out_line(o, "try {");
		out_line(o, "\t%s", call);
		out_line(o, "} catch (const std::exception &e) {");
		out_line(o, "\tpph_variant_error(e.what());");
		out_line(o, "} catch (...) {");
		out_line(o, "\tpph_variant_error(\"an exception that is no std::exception\");");
		out_line(o, "}");
		out_line(o, "#else");
		out_line(o, "%s /* no exceptions: one thrown ends the program */", call);
		out_line(o, "#endif");
	} else {
		out_line(o, "%s", call);
	}
	free(call);
	free(args.s);
}

/*
 * A ComPU-style OpenCL variant receives its kernel and queue through
 * globals its host source declares extern: they are defined here and set
 * before each call.  Two OpenCL workers would set them at once, so the
 * calls of one such variant take turns.
 */
static void emit_opencl_globals(struct out *o, const struct impl *impl)
{
	char *symbol = kernel_symbol(impl);

	/* the base name: a path could hold the end of a comment */
	out_line(o, "extern const char %s[]; /* %s, built into the program */", symbol,
		 path_basename(impl_kernel(impl)->name));
	out_line(o, "cl_kernel %s;", impl->cl_kernel_var);
	if (impl->cl_queue_var)
		out_line(o, "cl_command_queue %s;", impl->cl_queue_var);
	if (impl->cl_program_var)
		out_line(o, "struct starpu_opencl_program { cl_program program; } %s;",
			 impl->cl_program_var);
	out_line(o, "static pthread_mutex_t %s_globals = PTHREAD_MUTEX_INITIALIZER;",
		 impl->name);
	free(symbol);
}

static void emit_opencl_prologue(struct out *o, const struct impl *impl)
{
	char *symbol = kernel_symbol(impl);

	out_line(o, "cl_kernel kernel = pph_opencl_kernel_source(%s, \"%s\");", symbol,
		 impl_kernel(impl)->kernel);
	out_blank(o);
	out_line(o, "if (!kernel) {");
	out_line(o, "\tpph_variant_failed(); /* reported; another variant runs the task */");
	out_line(o, "\treturn;");
	out_line(o, "}");
	out_line(o, "pthread_mutex_lock(&%s_globals);", impl->name);
	out_line(o, "%s = kernel;", impl->cl_kernel_var);
	if (impl->cl_queue_var)
		out_line(o, "%s = pph_opencl_queue();", impl->cl_queue_var);
	if (impl->cl_program_var) {
		out_line(o, "clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof(cl_program),");
		out_line(o, "\t\t&%s.program, NULL);", impl->cl_program_var);
	}
	free(symbol);
}

void emit_backend(struct gen *g, const struct impl *impl)
{
	char *name = backend_file_name(impl);
	char *header = backend_header_name(impl->iface);
	char *sig = c_signature(impl->iface, impl->name, 1);
	bool compu_opencl = impl_kernel(impl) != NULL;
	bool cxx = impl->backend_tool != TOOL_CC; /* C++ or CUDA's host C++ */
	struct out o;

	if (gen_open(g, &o, name, "/*") == 0) {
		if (cxx)
			out_line(&o, "#include <exception>");
		if (impl->platform == PLATFORM_OPENMP) {
			out_line(&o, "#ifdef _OPENMP");
			out_line(&o, "#include <omp.h>");
			out_line(&o, "#endif");
		}
		if (compu_opencl) {
			out_line(&o, "#include <pthread.h>");
			out_line(&o, "#include <peppher/opencl.h>");
		}
		out_line(&o, "#include \"%s\"", header);
		out_blank(&o);
		if (compu_opencl) {
			emit_opencl_globals(&o, impl);
			out_blank(&o);
		}
		out_line(&o, "/* %s, %s variant of %s */", impl->name,
			 platform_name(impl->platform), impl->iface->name);
		out_line(&o, "%s%s;", impl->extern_c ? "extern \"C\" " : "", sig);
		out_blank(&o);
		out_line(&o, "void %s_backend(void *buffers[], void *arg)", impl->name);
		out_line(&o, "{");
		o.indent++;
		emit_locals(&o, impl, cxx);
		if (compu_opencl)
			emit_opencl_prologue(&o, impl);
		emit_call(&o, impl, cxx);
		if (compu_opencl)
			out_line(&o, "pthread_mutex_unlock(&%s_globals);", impl->name);
		o.indent--;
		out_line(&o, "}");
		gen_close(g, &o, name);
	}
	free(sig);
	free(header);
	free(name);
}
