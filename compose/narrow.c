/*
 * Narrowing: which variants take part in the build.  A variant is left out
 * when its descriptor, its interface, the command line or this build's
 * platforms say so, or when a static constraint is false on this platform;
 * dynamic constraints are checked here and evaluated at each call.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "classify.h"
#include "constraint.h"
#include "diag.h"
#include "narrow.h"
#include "platform.h"
#include "util.h"

unsigned narrow_build_platforms(void)
{
	unsigned p = 1u << PLATFORM_CPU;

#ifdef PPH_HAVE_OPENMP
	p |= 1u << PLATFORM_OPENMP;
#endif

#ifdef PPH_HAVE_CUDA
	p |= 1u << PLATFORM_CUDA;
#endif
#ifdef PPH_HAVE_OPENCL
	p |= 1u << PLATFORM_OPENCL;
#endif
	return p;
}

/* The runtime's resources a dynamic constraint may use. */
static const char *const resources[] = {
	"num_cpus", "num_gpus", "num_cuda_devices", "num_opencl_devices", "num_workers",
	"true", "false",
};

bool narrow_is_resource(const char *name)
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
	const struct param *p = classify_find_param((struct iface *)nc->ifc, name);

	if (p && (p->kind == PARAM_VALUE || p->kind == PARAM_SIZE) && !strchr(p->type, '('))
		return 0;
	if (p)
		diag_error(&nc->k->loc, "constraint \"%s\": '%s' is not a by-value number (constraints can use by-value parameters)",
			   nc->k->text, name);
	else if (!narrow_is_resource(name))
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
	if (classify_find_param((struct iface *)nc->ifc, name))
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
		strbuf_join(b, ", ", "%s = %g", name, v);
	}
	return 0;
}

/* The value of static constraint k; one that has none ("num_cores / 0",
 * which was NaN, so true) is an error at its line (and true: no second
 * error for a variant left out) */
static double static_value(const struct constraint *k, const struct model *m)
{
	const char *fault;
	double v = cexpr_eval(k->expr, fact_value, (void *)m, &fault);

	if (!fault)
		return v;
	diag_error(&k->loc, "static constraint \"%s\" has no value here: %s", k->text, fault);
	return 1;
}

/* Parse impl's constraints, check their names; returns why a static one
 * excludes impl on this platform (a fresh string), or NULL, and *where
 * that constraint is. */
static char *check_constraints(const struct model *m, const struct iface *ifc, struct impl *impl,
			       const struct loc **where)
{
	char *why = NULL;
	size_t i;

	for (i = 0; i < impl->nconstraints; i++) {
		struct constraint *k = &impl->constraints[i];
		struct name_check nc = { m, ifc, k };

		k->expr = cexpr_parse(k->text, &k->loc);
		if (!k->expr)
			continue;
		cexpr_type(k->expr, classify_integral_name, (void *)ifc);
		if (k->dynamic) {
			cexpr_names(k->expr, check_dynamic_name, &nc);
			impl->dynamic = true;
		} else if (cexpr_names(k->expr, check_static_name, &nc) == 0 && !why &&
			   static_value(k, m) == 0) {
			struct strbuf facts = { 0 };
			void *ctx[2] = { &facts, (void *)m };

			cexpr_names(k->expr, list_fact, ctx);
			why = xasprintf("static constraint \"%s\" is false here (%s)", k->text,
					facts.s ? facts.s : "no facts");
			*where = &k->loc;
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
		if (strcasecmp(nw->disabled_impls[i], impl->name) == 0) /* as ComPU, any case */
			return xstrdup("disabled by --disable-impls");
	if (ifc->disabled_platforms & 1u << impl->platform)
		return xasprintf("%s disabled by interface '%s'", p, ifc->name);
	if (nw->disabled_platforms & 1u << impl->platform)
		return xasprintf("%s disabled on the command line", p);
	if (!(narrow_build_platforms() & 1u << impl->platform))
		return xasprintf("this build has no %s", p);
	if (!(nw->build_platforms & 1u << impl->platform))
		return xasprintf("%s is not among --platforms", p);
	return NULL;
}

/* A device variant cannot use a byValue pointer: it points to host memory.
 * Returns that parameter, or NULL. */
static const struct param *host_pointer(const struct iface *ifc, const struct impl *impl)
{
	size_t i;

	if (impl->platform != PLATFORM_CUDA && impl->platform != PLATFORM_OPENCL)
		return NULL;
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].by_value && strchr(ifc->params[i].type, '*'))
			return &ifc->params[i];
	return NULL;
}

/* Decide which variants of ifc take part; note why each other one does not.
 * Their order is kept: it is the order of the codelet's variants. */
static void narrow_iface(const struct model *m, struct iface *ifc, const struct narrowing *nw)
{
	size_t i;

	if (ifc->model == MODEL_DEFAULT)
		ifc->model = nw->model;
	for (i = 0; i < ifc->nimpls; i++) {
		struct impl *impl = ifc->impls[i];
		const struct loc *where = &impl->loc; /* of the note */
		char *why = check_constraints(m, ifc, impl, &where);

		impl->excluded = exclusion(ifc, impl, nw);
		if (why && !impl->excluded) {
			impl->excluded = why;
		} else {
			free(why);
			where = &impl->loc;
		}
		if (!impl->excluded && host_pointer(ifc, impl))
			diag_error(&impl->loc, "'%s' (%s) cannot take parameter '%s' of '%s': it is byValue, a host pointer its device cannot use",
				   impl->name, platform_name(impl->platform),
				   host_pointer(ifc, impl)->name, ifc->name);
		if (!impl->excluded && impl->dynamic && ifc->nchosen >= 32)
			diag_error(&impl->loc, "'%s' has dynamic constraints but comes after the 32nd variant of '%s'",
				   impl->name, ifc->name);
		if (impl->excluded && impl->disabled) /* the user's own choice: noted below */
			diag_verbose(1, "%s:%d: skipping '%s': %s", impl->loc.file, impl->loc.line,
				     impl->name, impl->excluded);
		else if (impl->excluded) /* at the constraint that excludes it */
			diag_note(where, "skipping '%s': %s", impl->name, impl->excluded);
		else
			*(struct impl **)array_push(&ifc->chosen, &ifc->nchosen,
						    sizeof(impl)) = impl;
	}
	for (i = 0; !ifc->nchosen && i < ifc->nimpls; i++)
		if (ifc->impls[i]->disabled)
			diag_note(&ifc->impls[i]->loc, "skipping '%s': %s", ifc->impls[i]->name,
				  ifc->impls[i]->excluded);
	if (!ifc->nchosen)
		diag_error(&ifc->loc, "interface '%s' has no enabled implementation%s",
			   ifc->name, ifc->nimpls ? " (see the notes above)" : "");
}

/* A --disable-impls name that no implementation has: a typo would
 * otherwise leave the variant in without a word. */
static void warn_unmatched_disables(const struct model *m, const struct narrowing *nw)
{
	size_t d, i, j;

	for (d = 0; d < nw->ndisabled_impls; d++) {
		int found = 0;

		for (i = 0; i < m->nifaces && !found; i++)
			for (j = 0; j < m->ifaces[i]->nimpls && !found; j++)
				found = strcasecmp(m->ifaces[i]->impls[j]->name, nw->disabled_impls[d]) == 0;
		if (!found)
			diag_warning(NULL, "--disable-impls: no implementation is named '%s'",
				     nw->disabled_impls[d]);
	}
}

unsigned narrow_model(struct model *m, const struct narrowing *nw)
{
	unsigned errors = diag_error_count();
	size_t i;

	for (i = 0; i < m->nifaces; i++)
		narrow_iface(m, m->ifaces[i], nw);
	warn_unmatched_disables(m, nw);
	return diag_error_count() - errors;
}
