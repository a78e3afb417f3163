#include <stdlib.h>
#include <stdint.h>
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
#include <pthread.h>
#include <unistd.h>

#include "cparse.h"

/* parsing threads: beyond this, the file system is the limit */
#define PPH_CHECK_THREADS_MAX 16
/* the stack clang wants for deeply nested code, as its own threads have */
#define PPH_CHECK_STACK (8u << 20)

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
	if (got->shape == CSHAPE_FUNCPTR) { /* "fn_type *f": no data, no const */
		diag_warning(&here, "parameter '%s' of '%s' is a function pointer: give it byValue=\"true\" (as data, the runtime would register and move the function's code)",
			     name, impl->name);
		diag_note(&p->loc, "declared here");
		return;
	}
	if (got->pointee_const && p->access != ACCESS_READ) {
		/* parameters match by position: name the interface's, where
		 * the variant names it otherwise (its x is the interface's y) */
		if (strcmp(name, p->name) != 0)
			diag_error(&here, "parameter '%s' of '%s' points to const, but interface '%s' writes parameter %zu, '%s', there (accessMode=\"%s\")",
				   name, impl->name, impl->iface->name, i + 1, p->name,
				   access_name(p->access));
		else
			diag_error(&here, "parameter '%s' of '%s' points to const, but interface '%s' writes it (accessMode=\"%s\")",
				   name, impl->name, impl->iface->name, access_name(p->access));
		diag_note(&p->loc, "declared here");
	} else if (!got->pointee_const && p->access == ACCESS_READ) {
		/* either may be wrong: a variant that writes it needs another
		 * accessMode, or what it writes is lost on a device */
		diag_warning(&here, "parameter '%s' of '%s' is only read (accessMode=\"read\"): declare it 'const %s *', or, if the variant writes it, make its accessMode \"readwrite\" or \"write\"",
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

/* What parsing found for one implementation, reported in order afterwards. */
struct impl_check {
	struct impl *impl; /* its backend follows the source found */
	char **types;	/* impl_types() */
	size_t ntypes;
	struct cparam *resolved;
	size_t tried;	/* sources parsed: the last one decided */
	int found;	/* of the last source: 1 found, 0 not, -1 cannot parse */
	struct cfunc fn;
	char *why;
};

struct check_run {
	struct impl_check *checks;
	size_t n;
	size_t next; /* the next check to take, atomically */
	const char *outdir;
	char *const *extra;
	size_t nextra;
};

/* Parse the sources of c->impl until one has its function. */
static void parse_impl(struct cparser *parser, struct impl_check *c, const char *outdir,
		       char *const *extra, size_t nextra)
{
	const struct impl *impl = c->impl;
	size_t i;

	c->types = impl_types(impl->iface);
	c->ntypes = impl->iface->nparams + (impl->iface->return_type != NULL);
	c->resolved = xcalloc(c->ntypes + 1, sizeof(*c->resolved));
	for (c->tried = 0; c->tried < impl->nsources && c->found == 0; c->tried++) {
		const struct source_file *sf = &impl->sources[c->tried];
		char **words = NULL, **args = NULL;
		size_t nwords = 0, nargs = 0;

		if (sf->kernel) /* OpenCL C, not the host's language */
			continue;
		for (i = 0; i < c->ntypes; i++) /* of the previous source */
			cparam_free(&c->resolved[i]);
		if (impl->defines)
			split_words(impl->defines, false, &words, &nwords);
		if (sf->compile.flags)
			split_words(sf->compile.flags, false, &words, &nwords);
		keep_cpp_flags(words, nwords, outdir, &args, &nargs);
		for (i = 0; i < nextra; i++)
			*(char **)array_push(&args, &nargs, sizeof(char *)) = xstrdup(extra[i]);
		*(char **)array_push(&args, &nargs, sizeof(char *)) =
			xstrdup("-I" PPH_INCLUDE_DIR);
		c->found = cparse_function(parser, sf->path, sf->tool, args, nargs, impl->name,
					   c->types, c->ntypes, &c->fn, c->resolved, &c->why);
		free_words(words, nwords);
		free_words(args, nargs);
	}
}

static void *parse_thread(void *arg)
{
	struct check_run *run = arg;
	struct cparser *parser = cparser_new();
	size_t i;

	while ((i = __atomic_fetch_add(&run->next, 1, __ATOMIC_RELAXED)) < run->n)
		parse_impl(parser, &run->checks[i], run->outdir, run->extra, run->nextra);
	cparser_free(parser);
	return NULL;
}

/*
 * Diagnostics for one implementation, as a sequential check would give them.
 * A reason for not checking is given once: a tree whose sources all include
 * one header that stops them (pcre2.h's #error without its definition) has
 * as many implementations.
 */
struct reasons {
	struct reason {
		char *why;
		size_t more; /* implementations it stopped after the first */
	} *v;
	size_t n;
	struct strmap index; /* why -> its place in v, plus one */
};

static void report_impl(struct impl_check *c, struct reasons *given)
{
	struct impl *impl = c->impl;
	size_t i;

	for (i = 0; i < c->tried; i++)
		diag_verbose(2, "checking the prototype of %s in %s", impl->name,
			     impl->sources[i].path);
	if (c->found < 0) {
		uintptr_t place = (uintptr_t)strmap_get(&given->index, c->why);

		if (place) {
			given->v[place - 1].more++;
		} else {
			struct reason *r = array_push(&given->v, &given->n, sizeof(*r));

			diag_warning(&impl->sources[c->tried - 1].loc,
				     "cannot check the prototype of '%s': %s", impl->name, c->why);
			r->why = c->why;
			r->more = 0;
			strmap_put(&given->index, r->why, (void *)(uintptr_t)given->n);
			c->why = NULL; /* the key now */
		}
	} else if (c->found) {
		/* diagnostics name the source as the descriptor does */
		free(c->fn.file);
		c->fn.file = xstrdup(impl->sources[c->tried - 1].path);
		check_signature(impl, &c->fn, c->resolved, c->types);
		/* the backend calls it as that source declares it: a C++
		 * function from C++, an extern "C" one as such */
		impl_set_backend_source(impl, c->tried - 1);
		impl->extern_c = impl->backend_tool != TOOL_CC && !c->fn.cxx_linkage;
		cfunc_free(&c->fn);
	} else {
		diag_error(&impl->loc, "function '%s' not found in the sources of implementation '%s'",
			   impl->name, impl->name);
	}
	free(c->why);
	for (i = 0; i < c->ntypes; i++) {
		cparam_free(&c->resolved[i]);
		free(c->types[i]);
	}
	free(c->resolved);
	free(c->types);
}

/*
 * Parsing is most of compose's time in a large repository, even with the
 * unit reused, so it runs on every core; the
 * diagnostics come afterwards, in the model's order.
 */
unsigned check_prototypes(const struct model *m, const char *outdir, char *const *args,
			  size_t nargs)
{
	unsigned errors = diag_error_count();
	struct check_run run = { NULL, 0, 0, outdir, args, nargs };
	struct reasons given = { NULL, 0, { NULL, 0, 0 } };
	pthread_t threads[PPH_CHECK_THREADS_MAX];
	pthread_attr_t attr;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i, j, nthreads;
	const char *why;

	for (i = 0; i < m->nifaces; i++)
		for (j = 0; j < m->ifaces[i]->nchosen; j++)
			((struct impl_check *)array_push(&run.checks, &run.n,
							 sizeof(struct impl_check)))
				->impl = m->ifaces[i]->chosen[j];
	if (!run.n)
		return 0;
	if (cparse_load(&why) != 0) {
		diag_warning(NULL, "implementation prototypes not checked: %s", why);
		free(run.checks);
		return 0;
	}
	nthreads = ncpu < 1 ? 1 : ncpu > PPH_CHECK_THREADS_MAX ? PPH_CHECK_THREADS_MAX :
								 (size_t)ncpu;
	if (nthreads > run.n)
		nthreads = run.n;
	/*
	 * libclang parses on a thread of its own with an 8 MiB stack, made and
	 * unmapped for every source (a large share of the time); our threads
	 * have such stacks already.
	 */
	setenv("LIBCLANG_NOTHREADS", "1", 0);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PPH_CHECK_STACK);
	for (i = 1; i < nthreads; i++)
		if (pthread_create(&threads[i], &attr, parse_thread, &run) != 0)
			break;
	pthread_attr_destroy(&attr);
	nthreads = i;
	parse_thread(&run);
	for (i = 1; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < run.n; i++)
		report_impl(&run.checks[i], &given);
	for (i = 0; i < given.n; i++) {
		if (given.v[i].more)
			diag_note(NULL, "the prototypes of %zu more implementation%s cannot be checked for the same reason (%s)",
				  given.v[i].more, given.v[i].more == 1 ? "" : "s", given.v[i].why);
		free(given.v[i].why);
	}
	free(given.v);
	strmap_free(&given.index);
	free(run.checks);
	return diag_error_count() - errors;
}
#endif
