#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "config.h"
#include "diag.h"
#include "emit.h"
#include "skeleton.h"
#include "util.h"

#ifndef PPH_HAVE_LIBCLANG
int generate_skeletons(const struct skeleton_request *r)
{
	(void)r;
	diag_error(NULL, "--generate-comp-files needs libclang: rebuild compose with the Debian package libclang-dev installed");
	return -1;
}
#else
#include "cparse.h"

/* One file to write. */
struct file {
	char *path; /* under outdir */
	struct strbuf text;
};

struct skeleton {
	const struct skeleton_request *r;
	char *outdir_abs;
	struct file *files;
	size_t nfiles;
	char **names; /* functions done, against duplicates across headers */
	size_t nnames;
	bool *variadic; /* per name: left out of main.xml */
};

/* A parameter as the interface will declare it. */
struct sparam {
	const struct cparam *c;
	char *name;
	const char *access;
	char *num_elements;
	char *elem_type;
	char *note; /* XML comment: a guess or a placeholder to fill */
};

/* A new file at path (taken) under outdir. */
static struct strbuf *new_file(struct skeleton *s, char *path)
{
	struct file *f = array_push(&s->files, &s->nfiles, sizeof(*f));

	memset(f, 0, sizeof(*f));
	f->path = path;
	strbuf_append(&f->text, "%s", "");
	return &f->text;
}

static char *xml_escape(const char *s)
{
	struct strbuf b = { 0 };

	strbuf_append(&b, "%s", "");
	for (; *s; s++)
		switch (*s) {
		case '&': strbuf_append(&b, "&amp;"); break;
		case '<': strbuf_append(&b, "&lt;"); break;
		case '>': strbuf_append(&b, "&gt;"); break;
		case '"': strbuf_append(&b, "&quot;"); break;
		default: strbuf_append(&b, "%c", *s);
		}
	return b.s;
}

/* ---- guessing sizes ------------------------------------------------------ */

static bool is_size_name(const char *n)
{
	static const char *const exact[] = {
		"n", "N", "size", "len", "length", "count", "num", "nelem", "nelems",
		"nitems", "nmemb", "cnt", "num_elements", "nb", "sz",
	};
	static const char *const suffixes[] = { "_size", "_len", "_length", "_count", "Size",
						"Len", "Count", "size", "len" };
	size_t i, len = strlen(n);

	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(n, exact[i]) == 0)
			return true;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && strcmp(n + len - sl, suffixes[i]) == 0)
			return true;
	}
	return false;
}

/* Is size named for ptr ("x_len", "nx", "xsize", "len_x")? */
static bool sizes_by_name(const char *size, const char *ptr)
{
	static const char *const forms[] = { "%s_len", "%s_size", "%s_count", "%slen", "%ssize",
					     "n%s", "n_%s", "len_%s", "size_%s", "%s_n" };
	size_t i;
	bool match = false;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]) && !match; i++) {
		char *want = xasprintf(forms[i], ptr);

		match = strcmp(want, size) == 0;
		free(want);
	}
	return match;
}

static bool looks_like_matrix(const char *name)
{
	return (name[0] >= 'A' && name[0] <= 'Z' && !name[1]) || strstr(name, "mat") ||
	       strstr(name, "Mat") || strstr(name, "MAT");
}

static int find_size(const struct sparam *ps, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE &&
		    strcmp(ps[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* rows,cols for the matrix-like pointer at index k, or NULL. */
static char *guess_matrix(const struct sparam *ps, size_t n, size_t k)
{
	static const char *const pairs[][2] = {
		{ "nrows", "ncols" }, { "rows", "cols" }, { "nr", "nc" },
		{ "m", "n" }, { "M", "N" }, { "height", "width" },
	};
	size_t i;

	if (!looks_like_matrix(ps[k].name) && find_size(ps, n, "nrows") < 0 &&
	    find_size(ps, n, "rows") < 0)
		return NULL;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		int r = find_size(ps, n, pairs[i][0]), c = find_size(ps, n, pairs[i][1]);

		/* m and n only count after the pointer, or for a matrix-like name */
		if (r >= 0 && c >= 0 && (i < 3 || looks_like_matrix(ps[k].name) ||
					 (r > (int)k && c > (int)k)))
			return xasprintf("%s,%s", pairs[i][0], pairs[i][1]);
	}
	return NULL;
}

/* The size parameter of the pointer at index k: named for it, else the
 * nearest size-like name after it, else before it. */
static int guess_vector(const struct sparam *ps, size_t n, size_t k, const char **why)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE &&
		    sizes_by_name(ps[i].name, ps[k].name)) {
			*why = "named after it";
			return (int)i;
		}
	*why = "the nearest size-like name";
	for (i = k + 1; i < n; i++)
		if (ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE && is_size_name(ps[i].name))
			return (int)i;
	for (i = k; i-- > 0;)
		if (ps[i].c->integer && ps[i].c->shape == CSHAPE_VALUE && is_size_name(ps[i].name))
			return (int)i;
	return -1;
}

static void warn_at(const struct cfunc *fn, int line, const char *fmt, const char *a,
		    const char *b)
{
	struct loc loc = { fn->file, line };

	diag_warning(&loc, fmt, a, b);
}

static void plan_pointer(const struct cfunc *fn, struct sparam *ps, size_t n, size_t k)
{
	struct sparam *p = &ps[k];
	const char *why;
	int s;

	p->access = p->c->pointee_const ? "read" : "readwrite";
	switch (p->c->shape) {
	case CSHAPE_PTRPTR:
		warn_at(fn, p->c->line, "parameter '%s' of '%s' is a pointer to pointers: passed as one pointer value; describe the data it reaches by hand",
			p->name, fn->name);
		p->note = xstrdup("FIXME: a pointer to pointers; the runtime moves only the pointer value");
		return;
	case CSHAPE_VOIDPTR:
		warn_at(fn, p->c->line, "parameter '%s' of '%s' points to void: give its element type in elemType",
			p->name, fn->name);
		p->elem_type = xstrdup("unsigned char");
		p->note = xstrdup("FIXME: points to void; elemType is a placeholder, and numElements counts elemType elements");
		break;
	default:
		break;
	}
	p->num_elements = guess_matrix(ps, n, k);
	if (p->num_elements) {
		char *note = xasprintf("guess: '%s' is a row-major matrix of %s elements%s%s",
				       p->name, p->num_elements, p->note ? "; " : "",
				       p->note ? p->note : "");

		free(p->note);
		p->note = note;
		return;
	}
	s = guess_vector(ps, n, k, &why);
	if (s >= 0) {
		char *note = xasprintf("guess: '%s' holds '%s' elements (%s)%s%s", p->name,
				       ps[s].name, why, p->note ? "; " : "",
				       p->note ? p->note : "");

		p->num_elements = xstrdup(ps[s].name);
		free(p->note);
		p->note = note;
	} else if (!p->note) {
		p->note = xasprintf("guess: '%s' points to one element (no size parameter found)",
				    p->name);
	}
}

static struct sparam *plan_params(const struct cfunc *fn)
{
	struct sparam *ps = xcalloc(fn->nparams + 1, sizeof(*ps));
	size_t i;

	for (i = 0; i < fn->nparams; i++) {
		ps[i].c = &fn->params[i];
		ps[i].name = fn->params[i].name[0] ? xstrdup(fn->params[i].name) :
						    xasprintf("arg%zu", i + 1);
		ps[i].access = "read";
		if (!fn->params[i].name[0])
			ps[i].note = xstrdup("the header names no parameter here: named by position");
	}
	for (i = 0; i < fn->nparams; i++) {
		if (ps[i].c->shape == CSHAPE_FUNCPTR) {
			warn_at(fn, ps[i].c->line, "parameter '%s' of '%s' is a function pointer: passed by value, so only CPU variants can call it",
				ps[i].name, fn->name);
			free(ps[i].note);
			ps[i].note = xstrdup("FIXME: a function pointer, passed by value: only meaningful on the CPU");
		} else if (ps[i].c->shape != CSHAPE_VALUE) {
			plan_pointer(fn, ps, fn->nparams, i);
		}
	}
	return ps;
}

static void free_params(struct sparam *ps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(ps[i].name);
		free(ps[i].num_elements);
		free(ps[i].elem_type);
		free(ps[i].note);
	}
	free(ps);
}

/* ---- writing descriptors and stubs -------------------------------------- */

static const char *stamp_fmt = "Generated by compose %s from %s:%d";

struct platform_stub {
	const char *suffix, *platform, *ext, *language, *compiler, *flags;
};

static const struct platform_stub stubs[] = {
	{ "cpu", "CPU", "c", "C", "gcc", "-O2" },
	{ "openmp", "OPENMP", "c", "C", "gcc", "-O2 -fopenmp" },
	{ "cuda", "CUDA", "cu", "CUDA", "nvcc", "-O2" },
	{ "opencl", "OPENCL", "c", "C", "gcc", "-O2" },
};

static char *absolute(const char *dir)
{
	char *real = realpath(dir, NULL), *cwd;

	if (real || dir[0] == '/')
		return real ? real : xstrdup(dir);
	cwd = getcwd(NULL, 0);
	real = xasprintf("%s/%s", cwd ? cwd : ".", dir);
	free(cwd);
	return real;
}

/* How stubs and descriptors refer to the header. */
struct header_ref {
	const char *path;
	bool system;	/* under a system include folder */
	char *name;	/* system: as in #include <name> */
};

static void header_ref(struct header_ref *h, const char *path)
{
	static const char *const roots[] = { "/usr/local/include/", "/usr/include/" };
	/* the path as given first: cblas.h may be a link to cblas-netlib.h */
	char *cwd = getcwd(NULL, 0);
	char *given = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", cwd ? cwd : ".", path);
	char *real = realpath(path, NULL);
	const char *tries[2] = { given, real };
	size_t i, t;

	h->path = path;
	h->system = false;
	h->name = NULL;
	for (t = 0; t < 2 && !h->system; t++)
		for (i = 0; tries[t] && i < 2 && !h->system; i++) {
			size_t len = strlen(roots[i]);

			if (strncmp(tries[t], roots[i], len) == 0) {
				const char *rest = tries[t] + len, *slash = strchr(rest, '/');

				/* /usr/include/x86_64-linux-gnu/cblas.h is <cblas.h> */
				if (slash && strstr(rest, "-linux-") &&
				    strstr(rest, "-linux-") < slash)
					rest = slash + 1;
				h->system = true;
				h->name = xstrdup(rest);
			}
		}
	free(given);
	free(real);
	free(cwd);
}

/* The #include line for the header, from a file in folder from_dir
 * (relative to outdir). */
static char *include_line(const struct skeleton *s, const struct header_ref *h,
			  const char *from_dir)
{
	char *base, *rel, *line;

	if (h->system)
		return xasprintf("#include <%s>", h->name);
	base = from_dir[0] ? xasprintf("%s/%s", s->outdir_abs, from_dir) :
			     xstrdup(s->outdir_abs);
	rel = path_relative(base, h->path);
	line = xasprintf("#include \"%s\"", rel);
	free(rel);
	free(base);
	return line;
}

static char *param_decl(const struct sparam *p)
{
	return c_decl(p->c->type, p->name);
}

static char *signature(const struct cfunc *fn, const struct sparam *ps, const char *fname)
{
	struct strbuf b = { 0 };
	char *head = c_decl(fn->result, fname);
	size_t i;

	strbuf_append(&b, "%s(", head);
	free(head);
	for (i = 0; i < fn->nparams; i++) {
		char *d = param_decl(&ps[i]);

		strbuf_append(&b, "%s%s", i ? ", " : "", d);
		free(d);
	}
	strbuf_append(&b, "%s)", fn->nparams ? "" : "void");
	return b.s;
}

static void write_interface(struct skeleton *s, const struct cfunc *fn,
			    const struct sparam *ps, const struct header_ref *h)
{
	struct strbuf *b = new_file(s, xasprintf("%s.xml", fn->name));
	char *inc = h->system ? xstrdup(h->name) : path_relative(s->outdir_abs, h->path);
	char *inc_x = xml_escape(inc);
	size_t i;

	strbuf_append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- ");
	strbuf_append(b, stamp_fmt, PACKAGE_VERSION, path_basename(fn->file), fn->line);
	strbuf_append(b, ": check every guess and FIXME below. -->\n");
	strbuf_append(b, "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n");
	strbuf_append(b, "  <peppher:interface name=\"%s\" include=\"%s\"", fn->name, inc_x);
	if (strcmp(fn->result, "void") != 0) {
		char *r = xml_escape(fn->result);

		strbuf_append(b, " returnType=\"%s\"", r);
		free(r);
	}
	strbuf_append(b, ">\n");
	if (fn->variadic)
		strbuf_append(b, "    <!-- FIXME: '%s' is variadic; the interface takes its fixed parameters only -->\n",
			      fn->name);
	strbuf_append(b, "    <peppher:parameters>\n");
	for (i = 0; i < fn->nparams; i++) {
		const struct sparam *p = &ps[i];
		char *type = xml_escape(p->c->type);

		if (p->note)
			strbuf_append(b, "      <!-- %s -->\n", p->note);
		strbuf_append(b, "      <peppher:parameter name=\"%s\" type=\"%s\" accessMode=\"%s\"",
			      p->name, type, p->access);
		if (p->num_elements)
			strbuf_append(b, " numElements=\"%s\"", p->num_elements);
		if (p->elem_type)
			strbuf_append(b, " elemType=\"%s\"", p->elem_type);
		strbuf_append(b, "/>\n");
		free(type);
	}
	strbuf_append(b, "    </peppher:parameters>\n  </peppher:interface>\n</peppher:component>\n");
	free(inc_x);
	free(inc);
}

static void write_impl_descriptor(struct skeleton *s, const struct cfunc *fn,
				  const struct platform_stub *st)
{
	char *dir = xasprintf("%s/%s", fn->name, st->suffix);
	struct strbuf *b = new_file(s, xasprintf("%s/%s_%s.xml", dir, fn->name, st->suffix));
	strbuf_append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- ");
	strbuf_append(b, stamp_fmt, PACKAGE_VERSION, path_basename(fn->file), fn->line);
	strbuf_append(b, " -->\n<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n");
	strbuf_append(b, "  <peppher:implementation name=\"%s_%s\">\n", fn->name, st->suffix);
	strbuf_append(b, "    <peppher:sourceFiles>\n");
	strbuf_append(b, "      <peppher:sourceFile name=\"%s_%s.%s\" language=\"%s\">\n", fn->name,
		      st->suffix, st->ext, st->language);
	strbuf_append(b, "        <peppher:compilation>\n");
	strbuf_append(b, "          <peppher:compiler>\n");
	strbuf_append(b, "            <peppher:name>%s</peppher:name>\n", st->compiler);
	strbuf_append(b, "            <peppher:flags>%s</peppher:flags>\n", st->flags);
	strbuf_append(b, "          </peppher:compiler>\n");
	strbuf_append(b, "        </peppher:compilation>\n      </peppher:sourceFile>\n");
	strbuf_append(b, "    </peppher:sourceFiles>\n    <peppher:providedInterfaces>\n");
	strbuf_append(b, "      <peppher:providedInterface name=\"%s\"/>\n", fn->name);
	strbuf_append(b, "    </peppher:providedInterfaces>\n");
	strbuf_append(b, "    <peppher:targetPlatform name=\"%s\"/>\n", st->platform);
	strbuf_append(b, "  </peppher:implementation>\n</peppher:component>\n");
	free(dir);
}

/* The loop bound of a stub: the first pointer's size, or 1. */
static const char *extent(const struct sparam *ps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ps[i].num_elements && !strchr(ps[i].num_elements, ','))
			return ps[i].num_elements;
	return NULL;
}

static void stub_head(struct strbuf *b, const struct cfunc *fn, const char *what,
		      const char *include)
{
	strbuf_append(b, "/*\n * %s: %s\n * ", fn->name, what);
	strbuf_append(b, stamp_fmt, PACKAGE_VERSION, path_basename(fn->file), fn->line);
	strbuf_append(b, " as a skeleton: fill in the body.\n */\n");
	if (strcmp(fn->result, "void") != 0)
		strbuf_append(b, "#include <string.h>\n\n");
	strbuf_append(b, "%s\n\n", include);
}

static void stub_unused(struct strbuf *b, const struct cfunc *fn, const struct sparam *ps)
{
	size_t i;

	for (i = 0; i < fn->nparams; i++)
		strbuf_append(b, "\t(void)%s;\n", ps[i].name);
}

static void stub_return(struct strbuf *b, const struct cfunc *fn)
{
	char *decl;

	if (strcmp(fn->result, "void") == 0)
		return;
	decl = c_decl(fn->result, "result");
	strbuf_append(b, "\t%s;\n\n\tmemset(&result, 0, sizeof(result)); /* TODO: the value */\n\treturn result;\n",
		      decl);
	free(decl);
}

static void write_cpu_stub(struct skeleton *s, const struct cfunc *fn, const struct sparam *ps,
			   const struct header_ref *h, bool openmp)
{
	const char *suffix = openmp ? "openmp" : "cpu";
	char *dir = xasprintf("%s/%s", fn->name, suffix);
	char *inc = include_line(s, h, dir), *fname = xasprintf("%s_%s", fn->name, suffix);
	char *sig = signature(fn, ps, fname);
	struct strbuf *b = new_file(s, xasprintf("%s/%s.c", dir, fname));
	const char *n = extent(ps, fn->nparams);

	stub_head(b, fn, openmp ? "the OpenMP variant (runs on a team of CPU cores)" :
				  "the sequential CPU variant", inc);
	strbuf_append(b, "%s\n{\n", sig);
	stub_unused(b, fn, ps);
	if (openmp && n)
		strbuf_append(b, "\n#pragma omp parallel for\n\tfor (long i = 0; i < (long)%s; i++) {\n\t\t/* TODO: element i */\n\t}\n",
			      n);
	else
		strbuf_append(b, "\t/* TODO: the computation */\n");
	stub_return(b, fn);
	strbuf_append(b, "}\n");
	free(sig);
	free(fname);
	free(inc);
	free(dir);
}

static void write_cuda_stub(struct skeleton *s, const struct cfunc *fn, const struct sparam *ps,
			    const struct header_ref *h)
{
	char *dir = xasprintf("%s/cuda", fn->name);
	char *inc = include_line(s, h, dir), *fname = xasprintf("%s_cuda", fn->name);
	char *kname = xasprintf("%s_kernel", fn->name);
	char *sig = signature(fn, ps, fname);
	struct strbuf *b = new_file(s, xasprintf("%s/%s.cu", dir, fname));
	const char *n = extent(ps, fn->nparams);
	size_t i;

	stub_head(b, fn, "the CUDA variant; pointers are device memory on the task's GPU", inc);
	strbuf_append(b, "__global__ static void %s(", kname);
	for (i = 0; i < fn->nparams; i++) {
		char *d = param_decl(&ps[i]);

		strbuf_append(b, "%s%s", i ? ", " : "", d);
		free(d);
	}
	strbuf_append(b, "%s)\n{\n\tlong i = (long)blockIdx.x * blockDim.x + threadIdx.x;\n\n", fn->nparams ? "" : "void");
	stub_unused(b, fn, ps);
	if (n)
		strbuf_append(b, "\tif (i < (long)%s) {\n\t\t/* TODO: element i */\n\t}\n", n);
	else
		strbuf_append(b, "\t(void)i; /* TODO: the computation */\n");
	strbuf_append(b, "}\n\n%s\n{\n\tconst long pph_threads = 256, pph_n = %s%s%s;\n\n", sig,
		      n ? "(long)" : "", n ? n : "1", "");
	strbuf_append(b, "\tif (pph_n > 0)\n\t\t%s<<<(unsigned)((pph_n + pph_threads - 1) / pph_threads), (unsigned)pph_threads>>>(",
		      kname);
	for (i = 0; i < fn->nparams; i++)
		strbuf_append(b, "%s%s", i ? ", " : "", ps[i].name);
	strbuf_append(b, ");\n");
	stub_return(b, fn);
	strbuf_append(b, "}\n");
	free(sig);
	free(kname);
	free(fname);
	free(inc);
	free(dir);
}

/* The OpenCL C spelling of a host scalar type, or NULL. */
static const char *cl_scalar(const char *plain)
{
	static const char *const map[][2] = {
		{ "char", "char" }, { "signed char", "char" }, { "unsigned char", "uchar" },
		{ "short", "short" }, { "unsigned short", "ushort" }, { "int", "int" },
		{ "unsigned int", "uint" }, { "long", "long" }, { "unsigned long", "ulong" },
		{ "long long", "long" }, { "unsigned long long", "ulong" },
		{ "float", "float" }, { "double", "double" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(plain, map[i][0]) == 0)
			return map[i][1];
	return strncmp(plain, "enum ", 5) == 0 ? "int" : NULL;
}

/* Which parameters reach the OpenCL kernel: data pointers and scalars. */
static bool cl_passes(const struct sparam *p)
{
	if (p->c->shape == CSHAPE_POINTER || p->c->shape == CSHAPE_VOIDPTR)
		return true;
	return p->c->shape == CSHAPE_VALUE && cl_scalar(p->c->plain);
}

static void write_opencl_stub(struct skeleton *s, const struct cfunc *fn,
			      const struct sparam *ps, const struct header_ref *h)
{
	char *dir = xasprintf("%s/opencl", fn->name);
	char *inc = include_line(s, h, dir), *fname = xasprintf("%s_opencl", fn->name);
	char *sig = signature(fn, ps, fname), *clpath = xasprintf("%s/%s.cl", dir, fname);
	struct strbuf *b = new_file(s, xasprintf("%s/%s.c", dir, fname));
	struct strbuf *k;
	const char *n = extent(ps, fn->nparams);
	size_t i;
	int arg = 0;

	stub_head(b, fn, "the OpenCL variant; each pointer is the cl_mem of its data on the worker's device (see peppher/opencl.h)",
		  inc);
	strbuf_append(b, "#include <peppher/opencl.h>\n\n");
	strbuf_append(b, "%s\n{\n", sig);
	strbuf_append(b, "\t/* the kernel file, relative to where the program runs */\n");
	strbuf_append(b, "\tcl_kernel pph_k = pph_opencl_kernel(\"%s\", \"%s\");\n", clpath, fn->name);
	strbuf_append(b, "\tsize_t pph_global = %s%s;\n\n", n ? "(size_t)" : "", n ? n : "1");
	stub_unused(b, fn, ps);
	strbuf_append(b, "\tif (!pph_k || pph_global == 0)\n\t\tgoto out;\n");
	for (i = 0; i < fn->nparams; i++) {
		const struct sparam *p = &ps[i];

		if (!cl_passes(p))
			continue;
		if (p->c->shape == CSHAPE_VALUE)
			strbuf_append(b, "\t{\n\t\tcl_%s pph_v = (cl_%s)%s;\n\n\t\tclSetKernelArg(pph_k, %d, sizeof(pph_v), &pph_v);\n\t}\n",
				      cl_scalar(p->c->plain), cl_scalar(p->c->plain), p->name, arg++);
		else
			strbuf_append(b, "\t{\n\t\tcl_mem pph_m = (cl_mem)(void *)%s;\n\n\t\tclSetKernelArg(pph_k, %d, sizeof(pph_m), &pph_m);\n\t}\n",
				      p->name, arg++);
	}
	strbuf_append(b, "\tif (clEnqueueNDRangeKernel(pph_opencl_queue(), pph_k, 1, NULL, &pph_global, NULL, 0, NULL, NULL) != CL_SUCCESS)\n");
	strbuf_append(b, "\t\tfprintf(stderr, \"%s: kernel launch failed\\n\");\nout:;\n", fname);
	stub_return(b, fn);
	strbuf_append(b, "}\n");

	k = new_file(s, xasprintf("%s/%s.cl", dir, fname)); /* b moves: done with it */
	strbuf_append(k, "/* %s: the OpenCL kernel of %s_opencl (skeleton: fill in). */\n", fn->name,
		      fn->name);
	strbuf_append(k, "__kernel void %s(", fn->name);
	arg = 0;
	for (i = 0; i < fn->nparams; i++) {
		const struct sparam *p = &ps[i];
		const char *t;

		if (!cl_passes(p))
			continue;
		if (p->c->shape == CSHAPE_VALUE) {
			strbuf_append(k, "%s%s %s", arg++ ? ", " : "", cl_scalar(p->c->plain), p->name);
		} else {
			t = cl_scalar(p->c->pointee);
			strbuf_append(k, "%s__global %s%s *%s", arg++ ? ", " : "",
				      p->c->pointee_const ? "const " : "", t ? t : "uchar", p->name);
		}
	}
	strbuf_append(k, "%s)\n{\n\tsize_t i = get_global_id(0);\n\n\t(void)i; /* TODO: element i */\n}\n",
		      arg ? "" : "void");
	free(clpath);
	free(sig);
	free(fname);
	free(inc);
	free(dir);
}

static void skeleton_function(struct skeleton *s, const struct cfunc *fn,
			      const struct header_ref *h)
{
	struct sparam *ps;
	size_t i;

	for (i = 0; i < s->nnames; i++)
		if (strcmp(s->names[i], fn->name) == 0) {
			warn_at(fn, fn->line, "'%s' already declared in an earlier header: skipped%s",
				fn->name, "");
			return;
		}
	s->variadic = xrealloc(s->variadic, s->nnames + 1, sizeof(bool));
	s->variadic[s->nnames] = fn->variadic;
	*(char **)array_push(&s->names, &s->nnames, sizeof(char *)) = xstrdup(fn->name);
	if (fn->variadic)
		warn_at(fn, fn->line, "'%s' is variadic: its interface takes the fixed parameters only, and main.xml leaves it out%s",
			fn->name, "");
	ps = plan_params(fn);
	write_interface(s, fn, ps, h);
	for (i = 0; i < sizeof(stubs) / sizeof(stubs[0]); i++)
		write_impl_descriptor(s, fn, &stubs[i]);
	write_cpu_stub(s, fn, ps, h, false);
	write_cpu_stub(s, fn, ps, h, true);
	write_cuda_stub(s, fn, ps, h);
	write_opencl_stub(s, fn, ps, h);
	free_params(ps, fn->nparams);
}

static void write_main(struct skeleton *s)
{
	struct strbuf *b = new_file(s, xstrdup("main.xml"));
	char *stem = xstrdup(path_basename(s->r->headers[0])), *dot = strrchr(stem, '.');
	size_t i;

	if (dot)
		*dot = '\0';
	strbuf_append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Generated by compose %s from %s. -->\n",
		      PACKAGE_VERSION, path_basename(s->r->headers[0]));
	strbuf_append(b, "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n");
	strbuf_append(b, "  <peppher:implementation name=\"main\">\n    <peppher:sourceFiles>\n");
	/* the link step on a source file of its own, as ComPU writes it */
	strbuf_append(b, "      <peppher:sourceFile>\n        <peppher:compilation>\n");
	strbuf_append(b, "          <peppher:compiler type=\"link\">\n");
	strbuf_append(b, "            <peppher:name>gcc</peppher:name>\n");
	strbuf_append(b, "            <peppher:output>%s_app</peppher:output>\n", stem);
	strbuf_append(b, "          </peppher:compiler>\n");
	strbuf_append(b, "        </peppher:compilation>\n      </peppher:sourceFile>\n");
	strbuf_append(b, "      <peppher:sourceFile name=\"main.c\" language=\"C\">\n        <peppher:compilation>\n");
	strbuf_append(b, "          <peppher:compiler>\n");
	strbuf_append(b, "            <peppher:name>gcc</peppher:name>\n");
	strbuf_append(b, "            <peppher:flags>-O2</peppher:flags>\n");
	strbuf_append(b, "          </peppher:compiler>\n");
	strbuf_append(b, "        </peppher:compilation>\n      </peppher:sourceFile>\n    </peppher:sourceFiles>\n");
	strbuf_append(b, "    <peppher:requiredInterfaces>\n");
	for (i = 0; i < s->nnames; i++)
		if (s->variadic[i]) /* its entry wrapper would conflict with the header */
			strbuf_append(b, "      <!-- FIXME: '%s' is variadic; its interface has the fixed parameters only and conflicts with the header\n      <peppher:requiredInterface name=\"%s\" xmlFile=\"%s.xml\"/> -->\n",
				      s->names[i], s->names[i], s->names[i]);
		else
			strbuf_append(b, "      <peppher:requiredInterface name=\"%s\" xmlFile=\"%s.xml\"/>\n",
				      s->names[i], s->names[i]);
	strbuf_append(b, "    </peppher:requiredInterfaces>\n  </peppher:implementation>\n</peppher:component>\n");
	free(stem);

	b = new_file(s, xstrdup("main.c"));
	strbuf_append(b, "/* The application's main: %s's functions are PEPPHER components now. */\n",
		      path_basename(s->r->headers[0]));
	strbuf_append(b, "#include \"peppher.h\"\n\nint main(void)\n{\n\tPEPPHER_INITIALIZE();\n");
	strbuf_append(b, "\t/* TODO: the application; each call of a component runs on the best variant */\n");
	strbuf_append(b, "\tPEPPHER_SHUTDOWN();\n\treturn 0;\n}\n");
}

/* ---- committing ----------------------------------------------------------- */

static int make_dirs(const char *path)
{
	char *copy = xstrdup(path), *p;
	int rc = 0;

	for (p = copy + 1; *p && rc == 0; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(copy, 0777) != 0 && errno != EEXIST)
				rc = -1;
			*p = '/';
		}
	free(copy);
	return rc;
}

static int write_file(const char *path, const struct strbuf *text)
{
	int rc = make_dirs(path);

	if (rc == 0)
		rc = file_write_atomic(path, text->s ? text->s : "", text->len);
	if (rc != 0)
		diag_error(NULL, "cannot write '%s': %s", path, strerror(errno));
	return rc;
}

static int commit(struct skeleton *s)
{
	struct stat st;
	size_t i;
	int rc = 0;

	if (!s->r->force)
		for (i = 0; i < s->nfiles; i++) {
			char *path = path_join(s->r->outdir, s->files[i].path);

			if (stat(path, &st) == 0) {
				diag_error(NULL, "'%s' exists: not overwritten (use --force)", path);
				rc = -1;
			}
			free(path);
		}
	for (i = 0; rc == 0 && i < s->nfiles; i++) {
		char *path = path_join(s->r->outdir, s->files[i].path);

		if (s->r->dry_run)
			printf("%s\n", path);
		else if (write_file(path, &s->files[i].text) == 0)
			printf("wrote %s\n", path);
		else
			rc = -1;
		free(path);
	}
	return rc;
}

int generate_skeletons(const struct skeleton_request *r)
{
	struct skeleton s = { r, absolute(r->outdir), NULL, 0, NULL, 0, NULL };
	size_t i, j, nfuncs;
	int rc = 0;

	for (i = 0; i < r->nheaders; i++) {
		struct cfunc *funcs;
		struct header_ref h;

		if (cparse_header(r->headers[i], r->clang_args, r->nargs, &funcs, &nfuncs) != 0) {
			rc = -1;
		} else if (!nfuncs) {
			struct loc loc = { r->headers[i], 0 };

			diag_warning(&loc, "declares no function");
		}
		header_ref(&h, r->headers[i]);
		for (j = 0; rc == 0 && j < nfuncs; j++)
			skeleton_function(&s, &funcs[j], &h);
		for (j = 0; j < nfuncs; j++)
			cfunc_free(&funcs[j]);
		free(funcs);
		free(h.name);
	}
	if (rc == 0 && !s.nnames) {
		diag_error(NULL, "no function declared in the headers: nothing to generate");
		rc = -1;
	}
	if (rc == 0) {
		write_main(&s);
		rc = commit(&s);
	}
	for (i = 0; i < s.nfiles; i++) {
		free(s.files[i].path);
		free(s.files[i].text.s);
	}
	free(s.files);
	for (i = 0; i < s.nnames; i++)
		free(s.names[i]);
	free(s.names);
	free(s.variadic);
	free(s.outdir_abs);
	return rc;
}
#endif
