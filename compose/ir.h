/*
 * The composition IR: everything compose knows about an application, built
 * by load.c from the descriptors, checked by check.c, read by the emitters.
 * Every node keeps the file and line it came from, for diagnostics.
 */
#ifndef COMPOSE_IR_H
#define COMPOSE_IR_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct loc {
	const char *file; /* owned by the model's file list */
	int line;
};

enum access { ACCESS_READ = 1, ACCESS_WRITE = 2, ACCESS_READWRITE = 3, ACCESS_REDUCTION = 4 };

enum param_kind {
	PARAM_VALUE,	/* by value, packed into the task's argument block */
	PARAM_SIZE,	/* by value, rebuilt from a vector handle's size */
	PARAM_VECTOR,	/* pointer with numElements: a vector handle */
	PARAM_VARIABLE, /* pointer without numElements: one element */
	PARAM_MATRIX,	/* pointer with numElements="rows,cols": row major */
	/* smart containers (peppher/containers.h): implementations get elemType * */
	PARAM_CVECTOR,	/* pph_vector * */
	PARAM_CMATRIX,	/* pph_matrix * */
	PARAM_CSCALAR,	/* pph_scalar * */
};

/* Is the parameter a smart container? */
#define PARAM_IS_CONTAINER(p) ((p)->kind >= PARAM_CVECTOR)

struct param {
	struct loc loc;
	char *name;
	char *type;	    /* C type as written, whitespace normalized */
	char *elem_type;    /* pointee (or @elemType) for pointer kinds */
	char *num_elements; /* @numElements or NULL */
	enum access access;
	enum param_kind kind;
	int buffer;	/* handle index for pointer kinds, else -1 */
	int size_of;	/* PARAM_SIZE: index of the vector or matrix it sizes */
	int size_dim;	/* PARAM_SIZE of a matrix: 0 rows, 1 columns, 2 leading dimension */
	char *dims[3];	/* numElements: a vector's size, a matrix's rows, columns and
			   (or NULL) leading dimension (a size parameter's name, or an
			   expression) */
	struct cexpr *dim_exprs[3]; /* an expression's tree (classify.c), for the
				       entry wrapper to write as C or C++ */
	bool size_expr;	/* some dimension is an expression, or a parameter passed
			   as given (a signed count) */
	bool in_size_expr; /* a by-value parameter used in a size expression */
	char *partition; /* @partition: a block count, "auto", or NULL */
	bool by_value;	 /* @byValue: a pointer passed as itself, never registered */
	int parts;	 /* -1 whole, 0 one block per worker, n blocks */
	char *reduction; /* @reduction: "sum", "min", "max" or a function, or NULL */
	char *reduction_identity; /* @reductionIdentity: a function, or NULL */
};

/* How the runtime predicts run times: enum pph_model_kind, in order. */
enum model_kind { MODEL_DEFAULT, MODEL_HISTORY, MODEL_REGRESSION, MODEL_NL_REGRESSION };

enum platform { PLATFORM_CPU, PLATFORM_OPENMP, PLATFORM_CUDA, PLATFORM_OPENCL };

/* How a source file is compiled; which tool reads it. */
enum toolchain { TOOL_CC, TOOL_CXX, TOOL_NVCC };

struct compiler {
	struct loc loc;
	char *name;
	char *flags;
	char *output;
};

struct source_file {
	struct loc loc;
	char *name; /* as written */
	char *path; /* resolved against the descriptor's folder */
	enum toolchain tool;
	struct compiler compile;
	char *kernel; /* an OpenCL kernel file (.cl): the kernel's name, else NULL */
};

struct required {
	struct loc loc;
	char *name;
	char *xml_file; /* @xmlFile or NULL */
	char *template_args; /* @templateArgs: types for a generic interface */
	char *partition;     /* @partition (main descriptor): block count */
	struct iface *iface;
};

/* <peppher:constraint>: when the implementation may be used. */
struct constraint {
	struct loc loc;
	char *name;	    /* @name or NULL */
	char *text;	    /* @expr */
	bool dynamic;	    /* @type="dynamic": checked at each call */
	struct cexpr *expr; /* parsed by check.c */
};

struct impl {
	struct loc loc;
	char *name;
	char *dir; /* folder of the descriptor */
	enum platform platform;
	bool disabled; /* disable="true" in its descriptor */
	/* callerThread="true": a CPU variant run on the calling thread only
	 * (PPH_IMPL_CALLER_THREAD): its library keeps state per thread */
	bool caller_thread;
	struct source_file *sources; /* kernel files (.cl) included */
	size_t nsources;
	/* how its backend wrapper is compiled: like its first source that is
	 * no kernel file (TOOL_CC and no compiler when there is none), or
	 * like the one the prototype check found the function in */
	enum toolchain backend_tool;
	const struct compiler *backend_compiler; /* in sources[], or NULL */
	bool extern_c; /* a C++ or CUDA source defines it extern "C" (checked) */
	bool has_link;
	struct compiler link; /* the main module's link step */
	/* OpenCL variants in ComPU's form: the globals through which the host
	 * source receives its kernel and queue (@cl_kernel, @cl_command_queue
	 * and @starpu_opencl_program of its sourceFile), or NULL */
	char *cl_kernel_var, *cl_queue_var, *cl_program_var;
	char *provides; /* the one provided interface */
	struct loc provides_loc;
	struct required *requires;
	size_t nrequires;
	struct iface *iface;
	char *excluded; /* why it takes no part in the build, or NULL */
	char *defines;	/* instance of a generic: -D flags for its sources */
	struct constraint *constraints;
	size_t nconstraints;
	bool dynamic; /* has dynamic constraints */
};

/* The linker's name of the function an interface with @wrap replaces. */
#define IFACE_SYMBOL(ifc) ((ifc)->symbol ? (ifc)->symbol : (ifc)->name)

struct iface {
	struct loc loc;
	char *name;
	char *path; /* the interface descriptor */
	struct param *params;
	size_t nparams;
	size_t nbuffers;
	bool has_args; /* any PARAM_VALUE */
	bool async;    /* every pointer is a container: the call returns at once */
	bool partitioned; /* some parameter has @partition: one call, sub-tasks */
	bool wrap;	  /* @wrap: the entry wrapper replaces a function of the same
			     name through -Wl,--wrap=NAME (that is __real_NAME then) */
	char *symbol;	  /* @symbol: the name that function is declared with, where
			     its header renames it (a macro); NULL: the name */
	unsigned disabled_platforms; /* bit per enum platform: @disableCPU... */
	enum model_kind model; /* @use*Models, else the command line's */
	char *work_size;       /* @workSize, as written */
	struct cexpr *work_size_expr; /* it parsed (classify.c), over the parameters */
	char *return_type; /* @returnType, NULL for void: the call waits for it */
	char **includes;   /* @include: headers for the parameters' types */
	size_t nincludes;
	char *template_type; /* generic: the type parameter (@templateTypes) */
	char *generic_name;  /* instance: the generic interface's name */
	char *type_arg;	     /* instance: the type it was made for */
	struct iface **instances; /* generic, once expanded */
	size_t ninstances;
	struct impl **impls;
	size_t nimpls;
	/* the variants that take part, in the order of the codelet's table
	 * (set by narrow_model(); the others have impl->excluded) */
	struct impl **chosen;
	size_t nchosen;
	int mark; /* scratch for graph walks */
};

/* A platform fact for static constraints ("num_cores" = 8). */
struct fact {
	struct loc loc; /* in a platform description, or none when detected */
	char *name;
	double value;
};

struct model {
	char *main_path;
	struct impl *main;
	struct iface **ifaces; /* bottom-up after order_interfaces() */
	size_t nifaces;
	struct iface **generics; /* expanded generic interfaces, for freeing */
	size_t ngenerics;
	struct fact *facts; /* detected, then from --platform: the last wins */
	size_t nfacts;
	char **files; /* every path read; struct loc points here */
	size_t nfiles;
	struct strmap file_index; /* the same, by path */
};

/* Names of enum values as they appear in descriptors. */
const char *platform_name(enum platform p);
const char *access_name(enum access a);

struct iface *model_find_iface(const struct model *m, const char *name);
/* The parameter a generic interface's one name in peppher.h dispatches on:
 * the first whose type mentions its type parameter, or -1 where none does. */
long generic_dispatch_param(const struct iface *generic);
void model_free(struct model *m);
void model_free_impl(struct impl *impl);
/* Set impl's backend_tool and backend_compiler from its sources (again
 * after they move). */
void impl_set_backend(struct impl *impl);
/* The same, from the source that defines the function (sources[i]). */
void impl_set_backend_source(struct impl *impl, size_t i);

#endif
