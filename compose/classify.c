/*
 * Classification: the kind of every parameter (by value, size, vector,
 * matrix, one element, container), which by-value parameters size which
 * buffers, and how calls are partitioned.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <peppher/runtime.h> /* PPH_MAX_BUFFERS */

#include "classify.h"
#include "constraint.h"
#include "diag.h"
#include "names.h"
#include "util.h"

static bool is_pointer(const char *type)
{
	size_t len = strlen(type);

	return len && type[len - 1] == '*';
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

struct param *classify_find_param(struct iface *ifc, const char *name)
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
	struct param *size = classify_find_param(ifc, name);

	if (!size) {
		diag_error(&p->loc, "numElements of '%s' names '%s', which is not a parameter of '%s'",
			   p->name, name, ifc->name);
	} else if (size == p || size->buffer >= 0 || size->by_value) {
		diag_error(&p->loc, "numElements of '%s' names '%s', which is not a by-value size parameter",
			   p->name, name);
	} else if (size->kind != PARAM_SIZE) {
		/* the first pointer it sizes gives its value inside the backend */
		size->kind = PARAM_SIZE;
		size->size_of = (int)(p - ifc->params);
		size->size_dim = dim;
	}
}

struct size_expr {
	struct iface *ifc;
	struct param *p;
};

/* A name in a size expression: a by-value parameter, which stays one. */
static int check_expr_name(void *ctx, const char *name)
{
	struct size_expr *x = ctx;
	struct param *size = classify_find_param(x->ifc, name);

	if (!size)
		diag_error(&x->p->loc, "numElements of '%s' names '%s', which is not a parameter of '%s'",
			   x->p->name, name, x->ifc->name);
	else if (size->buffer >= 0 || size->by_value || is_pointer(size->type))
		diag_error(&x->p->loc, "numElements of '%s' names '%s', which is not a by-value size parameter",
			   x->p->name, name);
	else
		size->in_size_expr = true;
	return 0;
}

bool classify_integral_name(void *ctx, const char *name)
{
	const struct param *p = classify_find_param(ctx, name);

	if (!p || !p->type)
		return true; /* a fact or a resource: a count */
	return !strchr(p->type, '*') && !type_has_word(p->type, "float") &&
	       !type_has_word(p->type, "double");
}

/*
 * Is the size parameter named name, of rows or elements (dim 0 or 1) of
 * the pointer p, signed (or of a type that may be): then it is passed to the variants as given, as a
 * size expression's parameters are, and a negative value counts as no
 * element.  A library may give a negative count a meaning (libyaml's -1,
 * "up to the NUL"); rebuilt from the data's size, its variant would get 0,
 * and an unsigned conversion would register 2^64 - 1 elements.  Not for a
 * matrix's leading dimension (a device variant gets its packed copy's) nor
 * in a partitioned call (each block's variant gets its block's size).
 */
static bool signed_count(struct iface *ifc, const struct param *p, const char *name, int dim)
{
	const struct param *size = classify_find_param(ifc, name);
	char *type;
	size_t i;
	bool ok;

	if (dim == 2 || PARAM_IS_CONTAINER(p) || !size || size == p || size->buffer >= 0 ||
	    size->by_value || !size->type)
		return false;
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].partition)
			return false;
	type = normalize_type(size->type);
	ok = !type_is_unsigned_integer(type);
	free(type);
	return ok;
}

/*
 * Dimension dim of p, text: a size parameter's name, which the backend
 * rebuilds from p's handle, or an expression of the constraint language
 * over by-value parameters ("1+(n-1)*incx"), which are then passed by
 * value.  p->dims[dim] becomes the name or the expression, and
 * p->dim_exprs[dim] the expression's tree: the entry wrapper writes it in
 * its language (C or C++).
 */
static void check_dimension(struct iface *ifc, struct param *p, const char *text, int dim)
{
	char *t = normalize_space(text), *what;
	struct size_expr x = { ifc, p };
	struct cexpr *e;

	if (is_c_identifier(t) && classify_find_param(ifc, t) && !classify_find_param(ifc, t)->by_value &&
	    classify_find_param(ifc, t)->buffer < 0 && !classify_integral_name(ifc, t)) {
		/* a double's value was truncated into a count: a typo for the
		 * size beside it registered 0 elements, and a device variant
		 * ran past them */
		diag_error(&p->loc, "numElements of '%s' names '%s', a '%s': a size is an integer",
			   p->name, t, classify_find_param(ifc, t)->type);
		free(t);
		return;
	}
	if (is_c_identifier(t) && signed_count(ifc, p, t, dim)) {
		/* the entry wrapper counts a negative value as none */
		classify_find_param(ifc, t)->in_size_expr = true;
		p->dims[dim] = t;
		p->size_expr = true;
		return;
	}
	if (is_c_identifier(t)) {
		bind_size(ifc, p, t, dim);
		p->dims[dim] = t;
		return;
	}
	what = xasprintf("numElements of '%s'", p->name);
	e = cexpr_parse_as(t, &p->loc, what);
	if (e) {
		cexpr_type(e, classify_integral_name, ifc);
		cexpr_names(e, check_expr_name, &x);
		p->dims[dim] = t;
		p->dim_exprs[dim] = e;
		p->size_expr = true;
		t = NULL;
	}
	free(what);
	free(t);
}

static void check_num_elements(struct iface *ifc, struct param *p)
{
	char *comma = strchr(p->num_elements, ','), *rows, *cols, *ld;

	if (!comma || p->kind == PARAM_CVECTOR) {
		if (comma)
			diag_error(&p->loc, "vector container '%s' has one size, not \"%s\"",
				   p->name, p->num_elements);
		else
			check_dimension(ifc, p, p->num_elements, 0);
		return;
	}
	if (p->kind == PARAM_VECTOR)
		p->kind = PARAM_MATRIX;
	ld = strchr(comma + 1, ','); /* rows,cols,ld: a tile of a larger matrix */
	if (ld && strchr(ld + 1, ',')) {
		diag_error(&p->loc, "numElements of '%s' is \"%s\": give one size (vector), rows,cols or rows,cols,ld (matrix)",
			   p->name, p->num_elements);
		return;
	}
	rows = xasprintf("%.*s", (int)(comma - p->num_elements), p->num_elements);
	cols = ld ? xasprintf("%.*s", (int)(ld - comma - 1), comma + 1) : xstrdup(comma + 1);
	check_dimension(ifc, p, rows, 0);
	check_dimension(ifc, p, cols, 1);
	if (ld)
		check_dimension(ifc, p, ld + 1, 2);
	free(cols);
	free(rows);
}

/* A size used in an expression is passed by value: the backend cannot
 * rebuild it from a handle. */
static void sizes_by_value(struct iface *ifc)
{
	size_t i;

	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].in_size_expr && ifc->params[i].kind == PARAM_SIZE) {
			ifc->params[i].kind = PARAM_VALUE;
			ifc->params[i].size_of = -1;
		}
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

/* Are p's sizes, if any, rebuilt from handles (no expression)? */
static bool sizes_from_handle(struct iface *ifc, const struct param *p)
{
	int d;

	if (p->size_expr)
		return false;
	for (d = 0; d < 3; d++) {
		const struct param *size = p->dims[d] ? classify_find_param(ifc, p->dims[d]) : NULL;

		if (size && size->kind != PARAM_SIZE)
			return false;
	}
	return true;
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
	if (!sizes_from_handle(ifc, p)) {
		diag_error(&p->loc, "'%s' is partitioned: its numElements must name size parameters, and no numElements expression may use them (a sub-task's sizes come from its block)",
			   p->name);
		return;
	}
	p->parts = parse_parts(p->partition);
	if (p->parts < 0)
		diag_error(&p->loc, "partition of '%s' is \"%s\": give a block count from 1 to 256, \"auto\", or \"*\" (none); not ComPU's block size",
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

/* The runtime's built-in reduction operators: their element types, as C
 * (enum pph_elem_type in order), and names. */
static const char *const reduction_types[] = {
	"char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
	"long", "unsigned long", "long long", "unsigned long long", "float", "double",
};

int reduction_builtin(const char *op)
{
	return strcmp(op, "sum") == 0 ? 0 : strcmp(op, "min") == 0 ? 1 : strcmp(op, "max") == 0 ? 2 : -1;
}

int reduction_type(const char *elem_type)
{
	size_t i;

	if (strcmp(elem_type, "unsigned") == 0)
		return 6;
	for (i = 0; i < sizeof(reduction_types) / sizeof(reduction_types[0]); i++)
		if (strcmp(elem_type, reduction_types[i]) == 0)
			return (int)i;
	return -1;
}

/* accessMode="reduction" and its operator (by-value ones are reported
 * with the other modes a by-value parameter cannot have). */
/* A reduction's function (what: its attribute), declared at file scope in
 * the entry wrapper: a valid name that is not the interface's, nor one of
 * its parameters'. */
static void check_reduction_function(const struct iface *ifc, const struct param *p,
				     const char *what, const char *name)
{
	const char *why = names_function_problem(name);
	size_t i;

	for (i = 0; !why && i < ifc->nparams; i++)
		if (strcmp(name, ifc->params[i].name) == 0)
			why = " is a parameter's name";
	if (!why && strcmp(name, ifc->name) == 0)
		why = " is the interface's name";
	if (why)
		diag_error(&p->loc, "parameter '%s': %s function '%s'%s", p->name, what, name, why);
}

static void check_reduction(const struct iface *ifc, const struct param *p)
{
	if (p->access != ACCESS_REDUCTION) {
		if (p->reduction || p->reduction_identity)
			diag_error(&p->loc, "parameter '%s' has a reduction operator, but its accessMode is '%s', not 'reduction'",
				   p->name, access_name(p->access));
		return;
	}
	if (p->kind == PARAM_VALUE)
		return;
	if (!p->reduction) {
		diag_error(&p->loc, "parameter '%s' is a reduction without an operator: give reduction=\"sum\", \"min\", \"max\" or a function's name",
			   p->name);
	} else if (reduction_builtin(p->reduction) >= 0) {
		if (!p->elem_type || reduction_type(p->elem_type) < 0)
			diag_error(&p->loc, "parameter '%s': reduction \"%s\" is built in for integer, float and double elements, not '%s': give a function",
				   p->name, p->reduction, p->elem_type ? p->elem_type : "?");
		if (p->reduction_identity)
			diag_error(&p->loc, "parameter '%s': reduction \"%s\" has its own identity: leave out reductionIdentity",
				   p->name, p->reduction);
	} else if (!is_c_identifier(p->reduction)) {
		diag_error(&p->loc, "parameter '%s': unknown reduction \"%s\": give \"sum\", \"min\", \"max\" or a function's name",
			   p->name, p->reduction);
	} else if (!p->reduction_identity || !is_c_identifier(p->reduction_identity)) {
		diag_error(&p->loc, "parameter '%s': reduction function '%s' needs reductionIdentity, the function that sets an element to its identity",
			   p->name, p->reduction);
	} else {
		/* declared beside the entry wrapper, at file scope */
		check_reduction_function(ifc, p, "reduction", p->reduction);
		check_reduction_function(ifc, p, "reductionIdentity", p->reduction_identity);
	}
	if (p->partition)
		diag_error(&p->loc, "parameter '%s' is a reduction: it cannot be partitioned (each block contributes to the whole)",
			   p->name);
}

/* Is name one a count of elements goes by ("n", "len", "count"...)? */
static bool count_name(const char *name)
{
	static const char *const names[] = { "n", "len", "length", "size", "count", "num",
					     "nelem", "nelems", "nelements", "nitems", "nmemb" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i]) == 0)
			return true;
	return false;
}

/* Does type point to numbers ("const double *"), not to a handle or a
 * pointer ("Z3_sort const *", "EVP_PKEY **"), which a skeleton makes one
 * element with a word of its own? */
static bool points_to_numbers(const char *type)
{
	static const char *const words[] = { "const", "volatile", "unsigned", "signed",
					     "char", "short", "int", "long", "float", "double",
					     "size_t", "ssize_t", "int8_t", "int16_t", "int32_t",
					     "int64_t", "uint8_t", "uint16_t", "uint32_t",
					     "uint64_t", "_Bool", "bool" };
	const char *star = strchr(type, '*'), *w = type;
	size_t len, i;

	if (!star || strchr(star + 1, '*'))
		return false;
	while (w < star) {
		while (w < star && (*w == ' ' || *w == '\t'))
			w++;
		for (len = 0; w + len < star && w[len] != ' ' && w[len] != '\t'; len++)
			;
		if (!len)
			break;
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i]) == len && strncmp(w, words[i], len) == 0)
				break;
		if (i == sizeof(words) / sizeof(words[0]))
			return false;
		w += len;
	}
	return true;
}

/*
 * A pointer without numElements is one element: beside a count that sizes
 * nothing ("void fill(int *out, int n)"), its numElements was likely
 * forgotten, and the call would register one element, which a device
 * variant gets alone and a CPU variant reads past unseen.  Numbers only,
 * and a warning: one result beside an unrelated count is what some
 * interfaces mean.
 */
static void warn_forgotten_size(const struct iface *ifc)
{
	const struct param *one = NULL, *count = NULL;
	size_t i;

	if (diag_error_count())
		return; /* a size named in a numElements in error is not marked */
	for (i = 0; i < ifc->nparams; i++) {
		const struct param *p = &ifc->params[i];

		if (!one && p->kind == PARAM_VARIABLE && p->buffer >= 0 && points_to_numbers(p->type))
			one = p;
		if (!count && p->kind == PARAM_VALUE && !p->in_size_expr && p->type &&
		    !is_pointer(p->type) && classify_integral_name((void *)ifc, p->name) &&
		    count_name(p->name))
			count = p;
	}
	if (one && count)
		diag_warning(&one->loc, "'%s' has no numElements, so a call registers one element of it, and '%s' sizes nothing: if '%s' holds '%s' elements, give it numElements=\"%s\"",
			     one->name, count->name, one->name, count->name, count->name);
}

/*
 * What each parameter is for the runtime: a by-value argument, a size, or
 * a buffer (vector, matrix, one element, container), and the sizes and
 * block counts that go with it.
 */
static void classify_params(struct iface *ifc)
{
	size_t i;

	/* ComPU's "*": not partitioned; its "?" (a size to tune): the
	 * runtime's choice */
	for (i = 0; i < ifc->nparams; i++) {
		struct param *p = &ifc->params[i];

		if (p->partition && strcmp(p->partition, "*") == 0) {
			free(p->partition);
			p->partition = NULL;
		} else if (p->partition && strcmp(p->partition, "?") == 0) {
			free(p->partition);
			p->partition = xstrdup("auto");
		}
	}
	for (i = 0; i < ifc->nparams; i++) {
		struct param *p = &ifc->params[i];

		if (!p->type || !p->type[0])
			continue; /* reported by check_model() */
		if (is_pointer(p->type) && !p->by_value) {
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
		if (ifc->params[i].type && ifc->params[i].type[0])
			check_reduction(ifc, &ifc->params[i]);
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].num_elements && ifc->params[i].buffer >= 0 &&
		    ifc->params[i].kind != PARAM_CSCALAR)
			check_num_elements(ifc, &ifc->params[i]);
	sizes_by_value(ifc);
	warn_forgotten_size(ifc);
	for (i = 0; i < ifc->nparams; i++)
		check_partition(ifc, &ifc->params[i]);
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].buffer == PPH_MAX_BUFFERS) /* the first one too many */
			diag_error(&ifc->params[i].loc, "'%s' is the %dth pointer or container parameter of '%s': a call takes at most %d (the runtime's PPH_MAX_BUFFERS); pass the others in fewer arrays or a struct",
				   ifc->params[i].name, PPH_MAX_BUFFERS + 1, ifc->name, PPH_MAX_BUFFERS);
	ifc->async = ifc->nbuffers > 0;
	for (i = 0; i < ifc->nparams; i++)
		if ((ifc->params[i].buffer >= 0 && !PARAM_IS_CONTAINER(&ifc->params[i])) ||
		    ifc->params[i].by_value)
			ifc->async = false; /* host data the runtime does not track */
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].kind == PARAM_VALUE)
			ifc->has_args = true;
	if (ifc->return_type) {
		/* the value comes back through a pointer in the argument block */
		if (ifc->partitioned)
			diag_error(&ifc->loc, "'%s' returns a value, so its calls cannot be partitioned",
				   ifc->name);
		ifc->has_args = true;
		ifc->async = false;
	}
}

/* A name in workSize: a by-value parameter, whose value the entry wrapper
 * has. */
static int check_work_name(void *ctx, const char *name)
{
	struct iface *ifc = ctx;
	struct param *p = classify_find_param(ifc, name);

	if (!p)
		diag_error(&ifc->loc, "workSize of '%s' names '%s', which is not a parameter of '%s'",
			   ifc->name, name, ifc->name);
	else if (p->buffer >= 0 || p->by_value || (p->type && is_pointer(p->type)))
		diag_error(&ifc->loc, "workSize of '%s' names '%s', which is not a by-value parameter",
			   ifc->name, name);
	return 0;
}

/* @workSize: an expression of the constraint language over by-value
 * parameters; the entry wrapper passes its value to pph_call_work. */
static void check_work_size(struct iface *ifc)
{
	char *t, *what;
	struct cexpr *e;

	if (!ifc->work_size)
		return;
	if (ifc->partitioned) {
		/* every block would be modelled as the whole call */
		diag_error(&ifc->loc, "workSize of '%s': its calls are partitioned, and each block's work is its data",
			   ifc->name);
		return;
	}
	t = normalize_space(ifc->work_size);
	what = xasprintf("workSize of '%s'", ifc->name);
	e = cexpr_parse_as(t, &ifc->loc, what);
	if (e) {
		unsigned before = diag_error_count();

		cexpr_type(e, classify_integral_name, ifc);
		cexpr_names(e, check_work_name, ifc);
		if (diag_error_count() == before)
			ifc->work_size_expr = e;
		else
			cexpr_free(e);
	}
	free(what);
	free(t);
}

unsigned classify_model(struct model *m)
{
	unsigned errors = diag_error_count();
	size_t i;

	for (i = 0; i < m->nifaces; i++)
		classify_params(m->ifaces[i]);
	for (i = 0; m->main && i < m->main->nrequires; i++)
		if (m->main->requires[i].partition && m->main->requires[i].iface)
			apply_main_partition(&m->main->requires[i], m->main->requires[i].iface);
	for (i = 0; i < m->nifaces; i++)
		check_work_size(m->ifaces[i]);
	return diag_error_count() - errors;
}
