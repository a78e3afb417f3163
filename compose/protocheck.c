#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "diag.h"
#include "emit.h"
#include "protocheck.h"
#include "util.h"

#ifndef PPH_HAVE_LIBCLANG
unsigned check_prototypes(const struct model *m, const char *outdir, char *const *args,
			  size_t nargs)
{
	(void)m;
	(void)outdir;
	(void)args;
	(void)nargs;
	diag_verbose(1, "implementation prototypes not checked: built without libclang");
	return 0;
}
#else
#include "cparse.h"

/* Split shell-quoted flags ("'-DT=unsigned int' -O2") into words. */
static void split_words(const char *s, char ***words, size_t *n)
{
	while (*s) {
		struct strbuf w = { 0 };
		char quote = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		strbuf_append(&w, "%s", "");
		for (; *s && (quote || (*s != ' ' && *s != '\t')); s++) {
			if (!quote && (*s == '\'' || *s == '"'))
				quote = *s;
			else if (quote && *s == quote)
				quote = 0;
			else
				strbuf_append(&w, "%c", *s);
		}
		*(char **)array_push(words, n, sizeof(char *)) = w.s;
	}
}

/* The preprocessor flags among words, relative -I made relative to cwd. */
static void keep_cpp_flags(char **words, size_t nwords, const char *outdir,
			   char ***args, size_t *nargs)
{
	size_t i;

	for (i = 0; i < nwords; i++) {
		const char *w = words[i];
		char *arg = NULL;

		if (strncmp(w, "-I", 2) == 0) {
			const char *dir = w[2] ? w + 2 : i + 1 < nwords ? words[++i] : "";
			char *joined = path_join(outdir, dir);

			arg = xasprintf("-I%s", joined);
			free(joined);
		} else if (strncmp(w, "-D", 2) == 0 || strncmp(w, "-U", 2) == 0) {
			arg = w[2] ? xstrdup(w) : i + 1 < nwords ?
				xasprintf("%.2s%s", w, words[++i]) : NULL;
		} else if (strncmp(w, "-std=", 5) == 0) {
			arg = xstrdup(w);
		}
		if (arg)
			*(char **)array_push(args, nargs, sizeof(char *)) = arg;
	}
}

static void free_words(char **words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

/* The parameters' C types as implementations see them, and the return type. */
static char **impl_types(const struct iface *ifc)
{
	char **types = xcalloc(ifc->nparams + 1, sizeof(char *));
	size_t i;

	/* the return type, if any, goes last */
	if (ifc->return_type)
		types[ifc->nparams] = xstrdup(ifc->return_type);
	for (i = 0; i < ifc->nparams; i++) {
		const struct param *p = &ifc->params[i];

		types[i] = PARAM_IS_CONTAINER(p) ? xasprintf("%s *", p->elem_type) :
						   xstrdup(p->type);
	}
	return types;
}

static bool is_pointer_shape(enum cshape s)
{
	return s != CSHAPE_VALUE;
}

static void compare_param(const struct impl *impl, const struct cfunc *fn, size_t i,
			  const struct param *p, const struct cparam *want, const char *want_type)
{
	const struct cparam *got = &fn->params[i];
	struct loc here = { fn->file, got->line };
	const char *name = got->name[0] ? got->name : p->name;
	bool same;

	if (!want->plain)
		return; /* the interface's type means nothing here: unchecked */
	if (is_pointer_shape(want->shape) && is_pointer_shape(got->shape))
		same = strcmp(want->pointee, got->pointee) == 0;
	else
		same = strcmp(want->plain, got->plain) == 0;
	if (!same) {
		char *have = c_decl(got->type, name), *want = c_decl(want_type, p->name);
		char *aka = strcmp(got->type, got->plain) != 0 ?
			xasprintf(" (aka '%s')", got->plain) : xstrdup("");

		diag_error(&here, "parameter %zu of '%s' is '%s'%s, but interface '%s' declares '%s'",
			   i + 1, impl->name, have, aka, impl->iface->name, want);
		diag_note(&p->loc, "declared here");
		free(aka);
		free(want);
		free(have);
		return;
	}
	if (!is_pointer_shape(got->shape) || p->kind == PARAM_VALUE)
		return;
	if (got->pointee_const && p->access != ACCESS_READ) {
		diag_error(&here, "parameter '%s' of '%s' points to const, but interface '%s' writes it (accessMode=\"%s\")",
			   name, impl->name, impl->iface->name, access_name(p->access));
		diag_note(&p->loc, "declared here");
	} else if (!got->pointee_const && p->access == ACCESS_READ) {
		diag_warning(&here, "parameter '%s' of '%s' is only read (accessMode=\"read\"): declare it 'const %s *'",
			     name, impl->name, got->pointee);
	}
}

static void check_signature(const struct impl *impl, const struct cfunc *fn,
			    const struct cparam *resolved, char *const *types)
{
	const struct iface *ifc = impl->iface;
	struct loc here = { fn->file, fn->line };
	size_t i;

	if (fn->nparams != ifc->nparams || fn->variadic) {
		diag_error(&here, "'%s' takes %zu parameter%s%s, but interface '%s' has %zu",
			   impl->name, fn->nparams, fn->nparams == 1 ? "" : "s",
			   fn->variadic ? " and '...'" : "", ifc->name, ifc->nparams);
		diag_note(&ifc->loc, "declared here");
		return;
	}
	if (!ifc->return_type && strcmp(fn->result_plain, "void") != 0) {
		diag_warning(&here, "'%s' returns '%s', which the runtime ignores", impl->name,
			     fn->result);
	} else if (ifc->return_type && resolved[ifc->nparams].plain &&
		   strcmp(fn->result_plain, resolved[ifc->nparams].plain) != 0) {
		diag_error(&here, "'%s' returns '%s', but interface '%s' returns '%s'",
			   impl->name, fn->result, ifc->name, ifc->return_type);
		diag_note(&ifc->loc, "declared here");
	}
	for (i = 0; i < fn->nparams; i++)
		compare_param(impl, fn, i, &ifc->params[i], &resolved[i], types[i]);
}

static void check_impl(const struct impl *impl, const char *outdir, char *const *extra,
		       size_t nextra)
{
	const struct iface *ifc = impl->iface;
	char **types = impl_types(ifc);
	size_t ntypes = ifc->nparams + (ifc->return_type != NULL);
	struct cparam *resolved = xcalloc(ntypes + 1, sizeof(*resolved));
	struct cfunc fn;
	size_t s, i;
	int found = 0;

	for (s = 0; s < impl->nsources && !found; s++) {
		const struct source_file *sf = &impl->sources[s];
		char **words = NULL, **args = NULL, *why = NULL;
		size_t nwords = 0, nargs = 0;

		if (impl->defines)
			split_words(impl->defines, &words, &nwords);
		if (sf->compile.flags)
			split_words(sf->compile.flags, &words, &nwords);
		keep_cpp_flags(words, nwords, outdir, &args, &nargs);
		for (i = 0; i < nextra; i++)
			*(char **)array_push(&args, &nargs, sizeof(char *)) = xstrdup(extra[i]);
		*(char **)array_push(&args, &nargs, sizeof(char *)) =
			xstrdup("-I" PPH_INCLUDE_DIR);
		diag_verbose(2, "checking the prototype of %s in %s", impl->name, sf->path);
		found = cparse_function(sf->path, sf->tool, args, nargs, impl->name, types,
					ntypes, &fn, resolved, &why);
		if (found < 0) {
			diag_warning(&sf->loc, "cannot check the prototype of '%s': %s",
				     impl->name, why);
			found = 2;
		} else if (found) {
			/* diagnostics name the source as the descriptor does */
			free(fn.file);
			fn.file = xstrdup(sf->path);
			check_signature(impl, &fn, resolved, types);
			cfunc_free(&fn);
		}
		free(why);
		free_words(words, nwords);
		free_words(args, nargs);
		for (i = 0; i < ntypes; i++)
			cparam_free(&resolved[i]);
	}
	if (!found)
		diag_warning(&impl->loc, "function '%s' not found in the sources of implementation '%s'",
			     impl->name, impl->name);
	free(resolved);
	for (i = 0; i < ntypes; i++)
		free(types[i]);
	free(types);
}

unsigned check_prototypes(const struct model *m, const char *outdir, char *const *args,
			  size_t nargs)
{
	unsigned errors = diag_error_count();
	size_t i, j;

	for (i = 0; i < m->nifaces; i++)
		for (j = 0; j < m->ifaces[i]->nimpls; j++)
			if (!m->ifaces[i]->impls[j]->excluded)
				check_impl(m->ifaces[i]->impls[j], outdir, args, nargs);
	return diag_error_count() - errors;
}
#endif
