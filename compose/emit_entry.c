/*
 * Entry wrappers: one per interface, with the interface's exact C signature.
 * A call registers each pointer argument as a data handle, packs by-value
 * arguments, and runs one task synchronously, so host data is valid again
 * when the call returns.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "constraint.h"
#include "emit.h"
#include "util.h"

static const char *arch_enum(enum platform p)
{
	static const char *const names[] = { "PPH_ARCH_CPU", "PPH_ARCH_OPENMP",
					     "PPH_ARCH_CUDA", "PPH_ARCH_OPENCL" };
	return names[p];
}

static const char *model_enum(enum model_kind k)
{
	static const char *const names[] = { "PPH_MODEL_DEFAULT", "PPH_MODEL_HISTORY",
					     "PPH_MODEL_REGRESSION", "PPH_MODEL_NL_REGRESSION" };
	return names[k];
}

static const char *access_enum(enum access a)
{
	return a == ACCESS_READ		? "PPH_R" :
	       a == ACCESS_WRITE	? "PPH_W" :
	       a == ACCESS_REDUCTION	? "PPH_REDUX" :
					  "PPH_RW";
}

/*
 * The entry wrapper is C, or C++ (--wrapper-ext=cpp): C++ gets its casts
 * as C++ writes them (emit_cast), none where the value has the type
 * already, and nullptr, so that it builds quietly with -Wold-style-cast,
 * -Wuseless-cast and -Wzero-as-null-pointer-constant.
 */

static const char *null_c(bool cxx)
{
	return cxx ? "nullptr" : "NULL";
}

static const struct param *find_param(const struct iface *ifc, const char *name)
{
	size_t i;

	for (i = 0; i < ifc->nparams; i++)
		if (strcmp(ifc->params[i].name, name) == 0)
			return &ifc->params[i];
	return NULL;
}

/* Is p's type, less its qualifiers, one of names (its spellings)? */
static bool param_type_is(const struct param *p, const char *const names[])
{
	char *type;
	bool is = false;
	size_t i;

	if (!p || !p->type)
		return false;
	type = normalize_result_type(p->type);
	for (i = 0; names[i] && !is; i++)
		is = strcmp(type, names[i]) == 0;
	free(type);
	return is;
}

/* Is parameter p of an unsigned type by its name (a size_t can hold it)? */
/* What the names of an expression in the constraint language are. */
struct names_c {
	const struct iface *ifc;
	bool cxx;
};

/* A by-value parameter as a double, the constraint language's values. */
static char *param_name_c(void *ctx, const char *name)
{
	static const char *const doubles[] = { "double", NULL };
	const struct names_c *n = ctx;

	if (n->cxx && param_type_is(find_param(n->ifc, name), doubles))
		return xstrdup(name);
	return emit_cast(n->cxx, "double", name);
}

static void emit_codelet(struct out *o, const struct iface *ifc)
{
	size_t i;

	out_line(o, "static const struct pph_impl %s_impls[] = {", ifc->name);
	o->indent++;
	for (i = 0; i < ifc->nchosen; i++) {
		const struct impl *impl = ifc->chosen[i];

		out_line(o, "{ %s, %s_backend, \"%s\", %s },", arch_enum(impl->platform),
			 impl->name, impl->name, impl->caller_thread ? "PPH_IMPL_CALLER_THREAD" : "0");
	}
	o->indent--;
	out_line(o, "};");
	out_blank(o);
	out_line(o, "static const struct pph_codelet %s_codelet = {", ifc->name);
	out_line(o, "\t\"%s\", %zu, %s_impls, %s", ifc->name, ifc->nchosen, ifc->name,
		 model_enum(ifc->model));
	out_line(o, "};");
	out_blank(o);
	/* its model loads at PEPPHER_INITIALIZE(), not in the first call */
	out_line(o, "__attribute__((constructor)) static void pph_declare_%s(void)", ifc->name);
	out_line(o, "{");
	out_line(o, "\tpph_codelet_declare(&%s_codelet);", ifc->name);
	out_line(o, "}");
}

/* A name of a dynamic constraint as C: a parameter or a runtime resource. */
static char *constraint_name_c(void *ctx, const char *name)
{
	static const char *const resources[][2] = {
		{ "num_cpus", "pph_worker_count_arch(PPH_ARCH_CPU)" },
		{ "num_gpus", "pph_worker_count_arch(PPH_ARCH_CUDA)" },
		{ "num_cuda_devices", "pph_worker_count_arch(PPH_ARCH_CUDA)" },
		{ "num_opencl_devices", "pph_worker_count_arch(PPH_ARCH_OPENCL)" },
		{ "num_workers", "pph_worker_count()" },
		{ "true", "1" },
		{ "false", "0" },
	};
	const struct names_c *n = ctx;
	size_t i;

	for (i = 0; i < sizeof(resources) / sizeof(resources[0]); i++)
		if (strcmp(name, resources[i][0]) == 0)
			return emit_cast(n->cxx, "double", resources[i][1]);
	return param_name_c(ctx, name); /* a by-value parameter */
}

static bool has_dynamic(const struct iface *ifc)
{
	size_t i;

	for (i = 0; i < ifc->nchosen; i++)
		if (ifc->chosen[i]->dynamic)
			return true;
	return false;
}

/* pph_mask: the variants whose dynamic constraints hold for this call. */
static void emit_mask(struct out *o, const struct iface *ifc, bool cxx)
{
	struct names_c names = { ifc, cxx };
	size_t i, j;

	/* bit i of the mask is the codelet's variant i: both index chosen[] */
	out_line(o, "/* dynamic constraints: the variants this call may run */");
	for (i = 0; i < ifc->nchosen; i++) {
		const struct impl *impl = ifc->chosen[i];
		struct strbuf cond = { 0 };

		for (j = 0; j < impl->nconstraints; j++) {
			char *c;

			if (!impl->constraints[j].dynamic || !impl->constraints[j].expr)
				continue;
			c = cexpr_to_c(impl->constraints[j].expr, constraint_name_c, &names, cxx);
			strbuf_join(&cond, " && ", "%s", c);
			free(c);
		}
		if (cond.len)
			out_line(o, "if (%s) /* %s */", cond.s, impl->name);
		out_line(o, "%spph_mask |= 1u << %zu;", cond.len ? "\t" : "", i);
		free(cond.s);
	}
	out_line(o, "if (pph_mask == 0) {");
	out_line(o, "\tpph_call_failed(&%s_codelet, -EDOM); /* no variant's constraints hold */",
		 ifc->name);
	out_line(o, "\treturn%s;", ifc->return_type ? " pph_result" : "");
	out_line(o, "}");
}

/* A reduction parameter's operator as C: built in, or the static struct
 * emit_reduction_ops writes. */
static char *reduction_op(const struct iface *ifc, const struct param *p)
{
	static const char *const ops[] = { "PPH_REDUCTION_SUM", "PPH_REDUCTION_MIN",
					   "PPH_REDUCTION_MAX" };
	static const char *const types[] = {
		"PPH_TYPE_CHAR",	  "PPH_TYPE_SIGNED_CHAR",	 "PPH_TYPE_UNSIGNED_CHAR",
		"PPH_TYPE_SHORT",	  "PPH_TYPE_UNSIGNED_SHORT",	 "PPH_TYPE_INT",
		"PPH_TYPE_UNSIGNED",	  "PPH_TYPE_LONG",		 "PPH_TYPE_UNSIGNED_LONG",
		"PPH_TYPE_LONG_LONG",	  "PPH_TYPE_UNSIGNED_LONG_LONG", "PPH_TYPE_FLOAT",
		"PPH_TYPE_DOUBLE",
	};
	int op = reduction_builtin(p->reduction);

	if (op < 0)
		return xasprintf("&%s_%s_reduction", ifc->name, p->name);
	return xasprintf("pph_reduction_builtin(%s, %s)", ops[op],
			 types[reduction_type(p->elem_type)]);
}

/* The handle of a reduction parameter gets its operator. */
static void emit_reduction(struct out *o, const struct iface *ifc, const struct param *p)
{
	char *op;

	if (p->access != ACCESS_REDUCTION)
		return;
	op = reduction_op(ifc, p);
	out_line(o, "if (pph_rc == 0)");
	out_line(o, "\tpph_rc = pph_data_set_reduction(pph_handles[%d], %s);", p->buffer, op);
	free(op);
}

/* The user's reduction functions, declared, and their operator.  They are
 * C functions, as the runtime calls them: a C++ entry wrapper
 * (--wrapper-ext=cpp) declared them with C++ linkage, and the program
 * failed to link ("undefined reference to `amax_identity(void*)'"). */
static void emit_reduction_ops(struct out *o, const struct iface *ifc)
{
	size_t i;

	for (i = 0; i < ifc->nparams; i++) {
		const struct param *p = &ifc->params[i];

		if (p->access != ACCESS_REDUCTION || p->buffer < 0 ||
		    reduction_builtin(p->reduction) >= 0)
			continue;
		out_line(o, "#ifdef __cplusplus");
		out_line(o, "extern \"C\" {");
		out_line(o, "#endif");
		out_line(o, "void %s(void *into, const void *from);", p->reduction);
		out_line(o, "void %s(void *elem);", p->reduction_identity);
		out_line(o, "#ifdef __cplusplus");
		out_line(o, "}");
		out_line(o, "#endif");
		out_line(o, "static const struct pph_reduction %s_%s_reduction = { %s, %s };",
			 ifc->name, p->name, p->reduction_identity, p->reduction);
		out_blank(o);
	}
}

/* Dimension d of the raw pointer p as a size_t: a size parameter of a
 * signed type that is negative counts as no element (a partitioned call's
 * "int n" of -1 registered 2^64 - 1 of them), and so does a size
 * expression's negative value.  In C++ an unsigned parameter is converted
 * by the call it is passed to: a cast to size_t may be one to its own type
 * (-Wuseless-cast). */
static char *dimension_c(const struct iface *ifc, const struct param *p, int d, bool cxx)
{
	char *value, *size, *c;

	if (p->dim_exprs[d]) {
		struct names_c names = { ifc, cxx };

		value = cexpr_to_c(p->dim_exprs[d], param_name_c, &names, cxx);
	} else if (param_unsigned(find_param(ifc, p->dims[d]))) {
		return cxx ? xstrdup(p->dims[d]) : emit_cast(cxx, "size_t", p->dims[d]);
	} else {
		value = xstrdup(p->dims[d]);
	}
	size = emit_cast(cxx, "size_t", value);
	c = xasprintf("(%s > 0 ? %s : 0)", value, size);
	free(size);
	free(value);
	return c;
}

/* The pointer argument p as the void * the runtime registers.  It never
 * writes a read-only one, but a cast dropping const warns (-Wcast-qual):
 * C goes through uintptr_t, C++ through const_cast. */
static char *data_pointer(const struct param *p, bool cxx)
{
	bool is_volatile = type_has_word(p->elem_type, "volatile");

	if (!type_has_word(p->elem_type, "const") && !is_volatile)
		return cxx ? xstrdup(p->name) : emit_cast(cxx, "void *", p->name);
	if (cxx)
		return xasprintf("const_cast<void *>(static_cast<const %svoid *>(%s))",
				 is_volatile ? "volatile " : "", p->name);
	return xasprintf("(void *)(uintptr_t)%s", p->name);
}

/*
 * A container's sizes are its own, and a size parameter naming one of them
 * is rebuilt from it for the variants; the caller's value must be that
 * size, and so must every container's that names the same parameter (an
 * 8 x 6 matrix and a vector of 4 both of "r" elements: the variant wrote 8
 * into the 4).  Else the call fails, saying which.
 */
static void emit_container_sizes(struct out *o, const struct iface *ifc, const struct param *p,
				 bool cxx)
{
	static const char *const long_longs[] = { "long long", "long long int", "signed long long",
						  "signed long long int", NULL };
	static const char *const fields[][3] = { { "n" }, { "rows", "cols", "ld" } };
	static const char *const what[][3] = { { "elements" }, { "rows", "columns", "elements from row to row" } };
	int matrix = p->kind == PARAM_CMATRIX, d;

	if (!PARAM_IS_CONTAINER(p) || p->kind == PARAM_CSCALAR)
		return;
	for (d = 0; d < (matrix ? 3 : 1); d++) {
		const struct param *size = p->dims[d] ? find_param(ifc, p->dims[d]) : NULL;
		char *given, *shown;

		if (!size || size->buffer >= 0)
			continue;
		given = cxx && param_unsigned(size) ? xstrdup(size->name) :
						      emit_cast(cxx, "size_t", size->name);
		shown = cxx && param_type_is(size, long_longs) ? xstrdup(size->name) :
								 emit_cast(cxx, "long long", size->name);
		out_line(o, "if (pph_rc == 0 && %s && %s != %s->%s) {", p->name, given, p->name,
			 fields[matrix][d]);
		out_line(o, "	fprintf(stderr, \"peppher: %s: '%s' is %%lld, but %s '%s' has %%zu %s\\n\", %s, %s->%s);",
			 ifc->name, size->name, matrix ? "matrix" : "vector", p->name, what[matrix][d],
			 shown, p->name, fields[matrix][d]);
		out_line(o, "	pph_rc = -EINVAL;");
		out_line(o, "}");
		free(shown);
		free(given);
	}
}

static void emit_register(struct out *o, const struct iface *ifc,
			  const struct param *p, bool cxx)
{
	char *d0, *d1, *d2, *ptr;

	if (PARAM_IS_CONTAINER(p)) {
		/* the container's own handle: device copies live across calls */
		out_line(o, "pph_handles[%d] = pph_container_use(&%s->c, %s);", p->buffer,
			 p->name, access_enum(p->access));
		/* a padded matrix or a tile: its rows are ld apart, which
		 * variants given no leading dimension cannot know on the
		 * host (a device gets a packed copy) */
		if (p->kind == PARAM_CMATRIX && !p->dims[2]) {
			out_line(o, "if (%s->ld != %s->cols) {", p->name, p->name);
			out_line(o, "	fprintf(stderr, \"peppher: %s: matrix '%s' has its rows %%zu elements apart, not %%zu: give the interface its leading dimension (numElements=\\\"rows,cols,ld\\\")\\n\", %s->ld, %s->cols);",
				 ifc->name, p->name, p->name, p->name);
			out_line(o, "	pph_rc = -EINVAL;");
			out_line(o, "}");
		}
		emit_reduction(o, ifc, p);
		return;
	}
	out_line(o, "if (pph_rc == 0)");
	o->indent++;
	d0 = p->dims[0] ? dimension_c(ifc, p, 0, cxx) : NULL;
	d1 = p->dims[1] ? dimension_c(ifc, p, 1, cxx) : NULL;
	d2 = p->dims[2] ? dimension_c(ifc, p, 2, cxx) : NULL;
	ptr = data_pointer(p, cxx);
	if (p->kind == PARAM_VECTOR)
		out_line(o, "pph_rc = pph_vector_register(&pph_handles[%d], %s, %s, sizeof(%s));",
			 p->buffer, ptr, d0, p->elem_type);
	else if (p->kind == PARAM_MATRIX)
		out_line(o, "pph_rc = pph_matrix_register(&pph_handles[%d], %s, %s, %s, %s, sizeof(%s));",
			 p->buffer, ptr, d0, d1, d2 ? d2 : d1, p->elem_type);
	else
		out_line(o, "pph_rc = pph_variable_register(&pph_handles[%d], %s, sizeof(%s));",
			 p->buffer, ptr, p->elem_type);
	free(ptr);
	free(d0);
	free(d1);
	free(d2);
	o->indent--;
	/* the caller reads a result as soon as the call returns: placing its
	 * writer on a device costs the copy home too */
	if (p->access != ACCESS_READ && !ifc->partitioned) {
		out_line(o, "if (pph_rc == 0)");
		out_line(o, "	pph_data_set_host_reads(pph_handles[%d], 1);", p->buffer);
	}
	emit_reduction(o, ifc, p);
}

static void emit_args(struct out *o, const struct iface *ifc)
{
	struct strbuf init = { 0 };
	size_t i;

	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].kind == PARAM_VALUE)
			strbuf_join(&init, ", ", "%s", ifc->params[i].name);
	if (ifc->return_type)
		strbuf_join(&init, ", ", "&pph_result");
	out_line(o, "struct %s_args pph_args = { %s };", ifc->name, init.s ? init.s : "");
	free(init.s);
}

/* Blocks per buffer for pph_call_partitioned: -1 whole, 0 auto, n. */
static void emit_parts(struct out *o, const struct iface *ifc)
{
	struct strbuf parts = { 0 };
	size_t i;

	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].buffer >= 0)
			strbuf_join(&parts, ", ", "%d", ifc->params[i].parts);
	out_line(o, "static const int pph_parts[%zu] = { %s };", ifc->nbuffers,
		 parts.s ? parts.s : "");
	free(parts.s);
}

/*
 * An interface that wraps a function of the same name is defined as
 * __wrap_NAME: the program is linked with -Wl,--wrap=NAME, so that the
 * application's calls of NAME come here while variants reach the original
 * as __real_NAME.  NAME is @symbol where the header renames the function
 * (GMP's mpz_add, a macro for __gmpz_add, is __wrap___gmpz_add here).
 * Declared first, so that C++ gives it C linkage too.
 */
static char *entry_name(struct out *o, const struct iface *ifc)
{
	char *name, *sig, *real, *real_sig;

	if (!ifc->wrap)
		return xstrdup(ifc->name);
	name = xasprintf("__wrap_%s", IFACE_SYMBOL(ifc));
	sig = c_signature(ifc, name, 0);
	real = xasprintf("__real_%s", IFACE_SYMBOL(ifc));
	real_sig = c_signature(ifc, real, 0);
	out_line(o, "/* linked with -Wl,--wrap=%s: the application's calls of %s come here;",
		 IFACE_SYMBOL(ifc), ifc->name);
	out_line(o, " * __real_%s is the library's */", IFACE_SYMBOL(ifc));
	out_line(o, "#ifdef __cplusplus");
	out_line(o, "extern \"C\" {");
	out_line(o, "#endif");
	out_line(o, "%s;", sig);
	out_line(o, "%s;", real_sig);
	out_line(o, "#ifdef __cplusplus");
	out_line(o, "}");
	out_line(o, "#endif");
	out_blank(o);
	free(real_sig);
	free(real);
	free(sig);
	return name;
}

/* A wrapped function called while the runtime is not running (before
 * PEPPHER_INITIALIZE(), after PEPPHER_SHUTDOWN(), in an atexit handler)
 * is the library's own, as the program called it before composing. */
static void emit_unwrapped_call(struct out *o, const struct iface *ifc)
{
	struct strbuf args = { 0 };
	size_t i;

	for (i = 0; i < ifc->nparams; i++)
		strbuf_join(&args, ", ", "%s", ifc->params[i].name);
	if (ifc->return_type) {
		out_line(o, "if (!pph_is_initialized())");
		out_line(o, "\treturn __real_%s(%s);", IFACE_SYMBOL(ifc), args.s ? args.s : "");
	} else {
		out_line(o, "if (!pph_is_initialized()) {");
		out_line(o, "\t__real_%s(%s);", IFACE_SYMBOL(ifc), args.s ? args.s : "");
		out_line(o, "\treturn;");
		out_line(o, "}");
	}
	free(args.s);
}

static void emit_function(struct out *o, const struct iface *ifc, bool cxx)
{
	const char *null = null_c(cxx);
	char *name = entry_name(o, ifc), *sig = c_signature(ifc, name, 0);
	bool dynamic = has_dynamic(ifc);
	const char *mask = dynamic ? "pph_mask" : "PPH_ALL_IMPLS";
	size_t i;

	out_line(o, "%s", sig);
	out_line(o, "{");
	o->indent++;
	if (ifc->nbuffers) {
		struct strbuf modes = { 0 };

		for (i = 0; i < ifc->nparams; i++)
			if (ifc->params[i].buffer >= 0)
				strbuf_join(&modes, ", ", "%s", access_enum(ifc->params[i].access));
		out_line(o, "static const enum pph_access pph_modes[%zu] = { %s };",
			 ifc->nbuffers, modes.s);
		if (ifc->partitioned)
			emit_parts(o, ifc);
		out_line(o, "pph_data_handle pph_handles[%zu] = { %s };", ifc->nbuffers, null);
		free(modes.s);
	}
	if (ifc->return_type) {
		char *decl = c_decl(ifc->return_type, "pph_result");

		out_line(o, "%s;", decl);
		free(decl);
	}
	if (ifc->has_args)
		emit_args(o, ifc);
	out_line(o, "int pph_rc = 0;");
	for (i = 0; i < ifc->nparams; i++) /* a container knows its own size */
		if (ifc->params[i].kind == PARAM_SIZE &&
		    PARAM_IS_CONTAINER(&ifc->params[ifc->params[i].size_of]))
			out_line(o, "(void)%s;", ifc->params[i].name);
	if (dynamic)
		out_line(o, "unsigned pph_mask = 0;");
	out_blank(o);
	if (ifc->wrap)
		emit_unwrapped_call(o, ifc);
	if (ifc->return_type) /* defined even when the call fails */
		out_line(o, "memset(&pph_result, 0, sizeof(pph_result));");
	if (dynamic)
		emit_mask(o, ifc, cxx);
	for (i = 0; i < ifc->nparams; i++)
		emit_container_sizes(o, ifc, &ifc->params[i], cxx);
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].buffer >= 0)
			emit_register(o, ifc, &ifc->params[i], cxx);
	/* the models key the call on its work (@workSize), not its bytes */
	if (ifc->work_size_expr) {
		struct names_c names = { ifc, cxx };
		char *work = cexpr_to_c(ifc->work_size_expr, param_name_c, &names, cxx);

		out_line(o, "double pph_work = pph_call_work(%s);", work);
		free(work);
	}
	/* containers only: return at once; raw pointers: wait, copy back */
	out_line(o, "if (pph_rc == 0)");
	if (ifc->partitioned)
		out_line(o, "\tpph_rc = pph_call_partitioned%s(&%s_codelet, %s, %zu, pph_handles, pph_modes, pph_parts, %s, %s);",
			 ifc->async ? "_async" : "", ifc->name, mask, ifc->nbuffers,
			 ifc->has_args ? "&pph_args" : null,
			 ifc->has_args ? "sizeof(pph_args)" : "0");
	else
		out_line(o, "\tpph_rc = pph_call_%s(&%s_codelet, %s, %zu, %s, %s, %s, %s);",
			 ifc->async ? "async" : "sync", ifc->name, mask, ifc->nbuffers,
			 ifc->nbuffers ? "pph_handles" : null, ifc->nbuffers ? "pph_modes" : null,
			 ifc->has_args ? "&pph_args" : null, ifc->has_args ? "sizeof(pph_args)" : "0");
	if (ifc->work_size_expr)
		out_line(o, "pph_call_work(pph_work);");
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].buffer >= 0 && !PARAM_IS_CONTAINER(&ifc->params[i]))
			out_line(o, "pph_data_unregister(pph_handles[%d]);", ifc->params[i].buffer);
	out_line(o, "if (pph_rc != 0)");
	out_line(o, "\tpph_call_failed(&%s_codelet, pph_rc);", ifc->name);
	if (ifc->return_type)
		out_line(o, "return pph_result;");
	o->indent--;
	out_line(o, "}");
	free(sig);
	free(name);
}

void emit_entry(struct gen *g, const struct iface *ifc)
{
	char *name = entry_file_name(g, ifc), *backends = backend_header_name(ifc);
	bool cxx = strcmp(g->entry_ext, ".c") != 0;
	struct out o;

	if (gen_open(g, &o, name, "/*") == 0) {
		out_line(&o, "#include <stddef.h>");
		if (!cxx)
			out_line(&o, "#include <stdint.h> /* uintptr_t */");
		out_blank(&o);
		out_line(&o, "#include \"peppher.h\"");
		out_line(&o, "#include \"%s\"", backends);
		out_blank(&o);
		emit_codelet(&o, ifc);
		out_blank(&o);
		emit_reduction_ops(&o, ifc);
		emit_function(&o, ifc, cxx);
		gen_close(g, &o, name);
	}
	free(name);
	free(backends);
}
