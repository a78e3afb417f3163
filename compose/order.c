/*
 * Ordering: interfaces bottom-up, each after every interface its variants
 * require, so that generated code never refers forward; cycles are errors.
 */
#include <stdlib.h>

#include "diag.h"
#include "order.h"
#include "util.h"

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
		struct strbuf cycle = { 0 };

		strbuf_append(&cycle, "%s", ifc->name);
		for (i = depth; path[i - 1] != ifc; i--)
			;
		for (; i < depth; i++)
			strbuf_join(&cycle, " -> ", "%s", path[i]->name);
		diag_error(&ifc->loc, "required interfaces form a cycle: %s -> %s",
			   cycle.s, ifc->name);
		free(cycle.s);
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

unsigned order_model(struct model *m)
{
	unsigned errors = diag_error_count();
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
	return diag_error_count() - errors;
}
