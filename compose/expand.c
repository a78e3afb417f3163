#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "expand.h"
#include "util.h"

char *type_suffix(const char *type)
{
	char *s = normalize_type(type), *p, *out, *o;

	out = o = xcalloc(strlen(s) * 3 + 1, 1);
	for (p = s; *p; p++) {
		if (*p == '*')
			o += sprintf(o, "%sptr", o > out && o[-1] != '_' ? "_" : "");
		else if (isalnum((unsigned char)*p) || *p == '_')
			*o++ = *p;
		else if (o > out && o[-1] != '_')
			*o++ = '_';
	}
	free(s);
	return out;
}

/* text with the identifier from replaced by to, as a whole word */
static char *replace_word(const char *text, const char *from, const char *to)
{
	size_t n = strlen(from);
	struct strbuf out = { 0 };
	const char *p = text, *q;

	while ((q = strstr(p, from))) {
		int before = q > text && (isalnum((unsigned char)q[-1]) || q[-1] == '_');
		int after = isalnum((unsigned char)q[n]) || q[n] == '_';

		strbuf_append(&out, "%.*s%s", (int)(q - p), p, before || after ? from : to);
		p = q + n;
	}
	strbuf_append(&out, "%s", p);
	return strbuf_take(&out);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct impl *clone_impl(const struct impl *g, struct iface *inst,
			       const char *tparam, const char *type, const char *suffix)
{
	struct impl *c = xcalloc(1, sizeof(*c));
	size_t i;

	*c = *g;
	c->name = xasprintf("%s_%s", g->name, suffix);
	c->dir = xstrdup(g->dir);
	c->provides = xstrdup(inst->name);
	c->iface = inst;
	c->excluded = NULL;
	/* the source's function takes the instance's name by a macro */
	c->defines = xasprintf("'-D%s=%s' -D%s=%s", tparam, type, g->name, c->name);
	c->sources = xcalloc(g->nsources, sizeof(*c->sources));
	for (i = 0; i < g->nsources; i++) {
		struct source_file *d = &c->sources[i];
		const struct source_file *s = &g->sources[i];

		*d = *s;
		d->name = xstrdup(s->name);
		d->path = xstrdup(s->path);
		d->compile.name = dup_or_null(s->compile.name);
		d->compile.flags = dup_or_null(s->compile.flags);
		d->compile.output = dup_or_null(s->compile.output);
		d->kernel = dup_or_null(s->kernel);
	}
	impl_set_backend(c);
	c->link.name = dup_or_null(g->link.name);
	c->link.flags = dup_or_null(g->link.flags);
	c->link.output = dup_or_null(g->link.output);
	c->cl_kernel_var = dup_or_null(g->cl_kernel_var);
	c->cl_queue_var = dup_or_null(g->cl_queue_var);
	c->cl_program_var = dup_or_null(g->cl_program_var);
	c->constraints = xcalloc(g->nconstraints + 1, sizeof(*c->constraints));
	for (i = 0; i < g->nconstraints; i++) {
		c->constraints[i] = g->constraints[i];
		c->constraints[i].name = dup_or_null(g->constraints[i].name);
		c->constraints[i].text = xstrdup(g->constraints[i].text);
		c->constraints[i].expr = NULL;
	}
	c->requires = xcalloc(g->nrequires, sizeof(*c->requires));
	for (i = 0; i < g->nrequires; i++) {
		c->requires[i] = g->requires[i];
		c->requires[i].name = xstrdup(g->requires[i].name);
		c->requires[i].xml_file = dup_or_null(g->requires[i].xml_file);
		c->requires[i].template_args = dup_or_null(g->requires[i].template_args);
	}
	return c;
}

static struct iface *instantiate(const struct iface *g, const char *type)
{
	struct iface *inst = xcalloc(1, sizeof(*inst));
	char *suffix = type_suffix(type);
	size_t i;

	inst->loc = g->loc;
	inst->name = xasprintf("%s_%s", g->name, suffix);
	inst->path = xstrdup(g->path);
	inst->disabled_platforms = g->disabled_platforms;
	inst->model = g->model;
	inst->work_size = g->work_size ? xstrdup(g->work_size) : NULL;
	inst->return_type = g->return_type ?
		replace_word(g->return_type, g->template_type, type) : NULL;
	for (i = 0; i < g->nincludes; i++)
		*(char **)array_push(&inst->includes, &inst->nincludes, sizeof(char *)) =
			xstrdup(g->includes[i]);
	inst->generic_name = xstrdup(g->name);
	inst->type_arg = normalize_type(type);
	inst->params = xcalloc(g->nparams, sizeof(*inst->params));
	inst->nparams = g->nparams;
	for (i = 0; i < g->nparams; i++) {
		struct param *d = &inst->params[i];
		const struct param *s = &g->params[i];
		char *t = replace_word(s->type, g->template_type, inst->type_arg);

		*d = *s;
		d->name = xstrdup(s->name);
		d->type = normalize_type(t);
		d->elem_type = s->elem_type ?
			replace_word(s->elem_type, g->template_type, inst->type_arg) : NULL;
		d->num_elements = dup_or_null(s->num_elements);
		d->partition = dup_or_null(s->partition);
		d->reduction = dup_or_null(s->reduction);
		d->reduction_identity = dup_or_null(s->reduction_identity);
		free(t);
	}
	inst->impls = xcalloc(g->nimpls, sizeof(*inst->impls));
	inst->nimpls = g->nimpls;
	for (i = 0; i < g->nimpls; i++)
		inst->impls[i] = clone_impl(g->impls[i], inst, g->template_type,
					    inst->type_arg, suffix);
	free(suffix);
	return inst;
}

/*
 * The C type t names, in one spelling, for telling two template arguments
 * that would be one type apart: an instance is chosen by _Generic, where
 * two compatible types are an error.  The words of an integer type are put
 * in one order ("signed int", "int signed" and "int" are "int"; "long int"
 * is "long"); other types stay as written.  char, signed char and unsigned
 * char are three types.
 */
static char *type_key(const char *t)
{
	static const char *const words[] = { "const", "volatile", "signed", "unsigned",
					     "short", "long", "int", "char" };
	unsigned count[sizeof(words) / sizeof(words[0])] = { 0 };
	const char *star = strchr(t, '*');
	char *base = xasprintf("%.*s", star ? (int)(star - t) : (int)strlen(t), t), *w, *save = NULL;
	struct strbuf key = { 0 };
	bool other = false;
	size_t i;

	for (w = strtok_r(base, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		for (i = 0; i < sizeof(words) / sizeof(words[0]) && strcmp(w, words[i]); i++)
			;
		if (i == sizeof(words) / sizeof(words[0]))
			other = true;
		else
			count[i]++;
	}
	free(base);
	if (other)
		return xstrdup(t);
	for (i = 0; i < 2; i++) /* the qualifiers first, in one order */
		if (count[i])
			strbuf_join(&key, " ", "%s", words[i]);
	if (count[7]) /* char */
		strbuf_join(&key, " ", "%s", count[3] ? "unsigned char" :
					     count[2] ? "signed char" : "char");
	else
		strbuf_join(&key, " ", "%s%s", count[3] ? "unsigned " : "",
			    count[4] ? "short" : count[5] > 1 ? "long long" :
			    count[5] ? "long" : "int");
	if (star)
		strbuf_join(&key, " ", "%s", star);
	return strbuf_take(&key);
}

/* Add t (taken over), a type of r's templateArgs, to *types unless there. */
static void add_type(const struct required *r, const struct iface *g, char ***types,
		     size_t *ntypes, char *t)
{
	char *key;
	size_t i;

	if (!is_c_type(t, false)) {
		diag_error(&r->loc, "templateArgs of '%s': '%s' is not a C type", g->name, t);
		free(t);
		return;
	}
	key = type_key(t);
	for (i = 0; i < *ntypes; i++) {
		char *k = type_key((*types)[i]);
		int same = strcmp(k, key) == 0;

		free(k);
		if (!same)
			continue;
		if (strcmp((*types)[i], t) != 0)
			diag_error(&r->loc, "templateArgs of '%s': '%s' is the same C type as '%s'",
				   g->name, t, (*types)[i]);
		break;
	}
	free(key);
	if (i < *ntypes)
		free(t);
	else
		*(char **)array_push(types, ntypes, sizeof(char *)) = t;
}

/* Add the types of r's templateArgs to *types (once each). */
static void collect(const struct required *r, const struct iface *g,
		    char ***types, size_t *ntypes)
{
	char *copy, *item, *next;
	size_t named = 0;

	if (!r->template_args) {
		diag_error(&r->loc, "interface '%s' is generic: say which types in templateArgs (e.g. templateArgs=\"float,int\")",
			   g->name);
		return;
	}
	copy = xstrdup(r->template_args);
	for (item = copy; item; item = next) {
		char *t;

		if ((next = strchr(item, ',')))
			*next++ = '\0';
		t = normalize_type(item);
		if (!t[0]) { /* "float, int," */
			free(t);
			continue;
		}
		named++;
		add_type(r, g, types, ntypes, t);
	}
	free(copy);
	/* no instance would leave the generic's macro without a type */
	if (!named)
		diag_error(&r->loc, "templateArgs of '%s' names no type (e.g. templateArgs=\"float,int\")",
			   g->name);
}

static void collect_from(const struct impl *impl, const struct iface *g,
			 char ***types, size_t *ntypes)
{
	size_t i;

	for (i = 0; impl && i < impl->nrequires; i++)
		if (impl->requires[i].iface == g)
			collect(&impl->requires[i], g, types, ntypes);
}

static void expand_one(struct model *m, size_t at)
{
	struct iface *g = m->ifaces[at];
	char **types = NULL;
	size_t ntypes = 0, i, j;

	collect_from(m->main, g, &types, &ntypes);
	for (i = 0; i < m->nifaces; i++)
		for (j = 0; j < m->ifaces[i]->nimpls; j++)
			collect_from(m->ifaces[i]->impls[j], g, &types, &ntypes);
	/* peppher.h's one name for the instances is a _Generic on the first
	 * parameter whose type mentions T (C++: overloads): with none, every
	 * instance has the same parameter types there (a container whose
	 * elemType is T is 'pph_vector *' for all), which _Generic rejects
	 * ("two compatible types") in the application's compile */
	if (ntypes && generic_dispatch_param(g) < 0)
		diag_error(&g->loc,
			   "generic interface '%s': no parameter's type mentions '%s' (a container's elemType does not count), so its instances cannot share one name in peppher.h; give a parameter type T (T * for an array), or describe one interface per type",
			   g->name, g->template_type);
	/* the generic gives way to its instances */
	*(struct iface **)array_push(&m->generics, &m->ngenerics, sizeof(g)) = g;
	memmove(&m->ifaces[at], &m->ifaces[at + 1], (m->nifaces - at - 1) * sizeof(g));
	m->nifaces--;
	for (i = 0; i < ntypes; i++) {
		struct iface *inst = instantiate(g, types[i]);

		*(struct iface **)array_push(&g->instances, &g->ninstances, sizeof(inst)) = inst;
		*(struct iface **)array_push(&m->ifaces, &m->nifaces, sizeof(inst)) = inst;
		free(types[i]);
	}
	free(types);
}

unsigned expand_generics(struct model *m)
{
	unsigned errors = diag_error_count();
	size_t i = 0;

	while (i < m->nifaces) {
		if (m->ifaces[i]->template_type && !m->ifaces[i]->generic_name)
			expand_one(m, i); /* ifaces[i] is now the next one */
		else
			i++;
	}
	return diag_error_count() - errors;
}
