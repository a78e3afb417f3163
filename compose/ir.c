#include <stdlib.h>
#include <string.h>

#include "constraint.h"
#include "ir.h"

const char *platform_name(enum platform p)
{
	static const char *const names[] = { "CPU", "OPENMP", "CUDA", "OPENCL" };

	return names[p];
}

const char *access_name(enum access a)
{
	return a == ACCESS_READ		? "read" :
	       a == ACCESS_WRITE	? "write" :
	       a == ACCESS_REDUCTION	? "reduction" :
					  "readwrite";
}

long generic_dispatch_param(const struct iface *generic)
{
	size_t i;

	for (i = 0; i < generic->nparams; i++)
		if (strstr(generic->params[i].type, generic->template_type))
			return (long)i;
	return -1;
}

struct iface *model_find_iface(const struct model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nifaces; i++)
		if (strcmp(m->ifaces[i]->name, name) == 0)
			return m->ifaces[i];
	return NULL;
}

void impl_set_backend(struct impl *impl)
{
	size_t i;

	impl->backend_tool = TOOL_CC;
	impl->backend_compiler = NULL;
	for (i = 0; i < impl->nsources; i++)
		if (!impl->sources[i].kernel) {
			impl_set_backend_source(impl, i);
			return;
		}
}

void impl_set_backend_source(struct impl *impl, size_t i)
{
	impl->backend_tool = impl->sources[i].tool;
	impl->backend_compiler = &impl->sources[i].compile;
}

static void free_compiler(struct compiler *c)
{
	free(c->name);
	free(c->flags);
	free(c->output);
}

void model_free_impl(struct impl *impl)
{
	size_t i;

	if (!impl)
		return;
	for (i = 0; i < impl->nsources; i++) {
		free(impl->sources[i].name);
		free(impl->sources[i].path);
		free_compiler(&impl->sources[i].compile);
		free(impl->sources[i].kernel);
	}
	free_compiler(&impl->link);
	free(impl->cl_kernel_var);
	free(impl->cl_queue_var);
	free(impl->cl_program_var);
	for (i = 0; i < impl->nrequires; i++) {
		free(impl->requires[i].name);
		free(impl->requires[i].xml_file);
		free(impl->requires[i].template_args);
		free(impl->requires[i].partition);
	}
	for (i = 0; i < impl->nconstraints; i++) {
		free(impl->constraints[i].name);
		free(impl->constraints[i].text);
		cexpr_free(impl->constraints[i].expr);
	}
	free(impl->constraints);
	free(impl->sources);
	free(impl->requires);
	free(impl->name);
	free(impl->dir);
	free(impl->provides);
	free(impl->excluded);
	free(impl->defines);
	free(impl);
}

static void free_iface(struct iface *ifc)
{
	size_t i;

	for (i = 0; i < ifc->nparams; i++) {
		free(ifc->params[i].name);
		free(ifc->params[i].type);
		free(ifc->params[i].elem_type);
		free(ifc->params[i].num_elements);
		free(ifc->params[i].dims[0]);
		free(ifc->params[i].dims[1]);
		free(ifc->params[i].dims[2]);
		cexpr_free(ifc->params[i].dim_exprs[0]);
		cexpr_free(ifc->params[i].dim_exprs[1]);
		cexpr_free(ifc->params[i].dim_exprs[2]);
		free(ifc->params[i].partition);
		free(ifc->params[i].reduction);
		free(ifc->params[i].reduction_identity);
	}
	for (i = 0; i < ifc->nimpls; i++)
		model_free_impl(ifc->impls[i]);
	free(ifc->params);
	free(ifc->impls);
	free(ifc->chosen);
	free(ifc->template_type);
	free(ifc->return_type);
	free(ifc->work_size);
	free(ifc->symbol);
	cexpr_free(ifc->work_size_expr);
	for (i = 0; i < ifc->nincludes; i++)
		free(ifc->includes[i]);
	free(ifc->includes);
	free(ifc->generic_name);
	free(ifc->type_arg);
	free(ifc->instances);
	free(ifc->name);
	free(ifc->path);
	free(ifc);
}

void model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nifaces; i++)
		free_iface(m->ifaces[i]);
	for (i = 0; i < m->ngenerics; i++)
		free_iface(m->generics[i]);
	free(m->generics);
	for (i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	for (i = 0; i < m->nfacts; i++)
		free(m->facts[i].name);
	free(m->facts);
	model_free_impl(m->main);
	free(m->ifaces);
	free(m->files);
	strmap_free(&m->file_index);
	free(m->main_path);
	memset(m, 0, sizeof(*m));
}
