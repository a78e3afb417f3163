/*
 * The application's Makefile: every source is compiled with its descriptor's
 * compiler and flags, the program is linked with the main descriptor's link
 * step, and the runtime is found with pkg-config.  make's conventions hold:
 * CC, CXX, NVCC, CFLAGS, CXXFLAGS, NVCCFLAGS, CPPFLAGS, LDFLAGS and LDLIBS
 * (and LIBS) given to make take effect, and `make install` copies the
 * program to $(DESTDIR)$(bindir), bindir being $(prefix)/bin.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "emit.h"
#include "libsyms.h"
#include "util.h"

struct tool {
	const char *command; /* make variable or literal compiler */
	const char *flags;   /* user flags variable */
};

static struct tool tool_for(enum toolchain t, const char *compiler)
{
	static const struct tool tools[] = {
		[TOOL_CC] = { "$(CC)", "$(CFLAGS)" },
		[TOOL_CXX] = { "$(CXX)", "$(CXXFLAGS)" },
		[TOOL_NVCC] = { "$(NVCC)", "$(NVCCFLAGS)" },
	};
	static const char *const defaults[] = { "gcc", "cc", "g++", "c++", "nvcc" };
	struct tool tool = tools[t];
	size_t i;
	int known = !compiler;

	for (i = 0; !known && i < sizeof(defaults) / sizeof(defaults[0]); i++)
		known = strcmp(compiler, defaults[i]) == 0;
	/* a compiler the descriptor names explicitly (icc, clang) is used as is */
	if (!known)
		tool.command = compiler;
	return tool;
}

struct objs {
	struct strbuf list;
	struct strbuf generated; /* files make generates: kernels as C */
	bool openmp, cuda, opencl, cxx;
	bool nvcc;  /* some source is compiled by nvcc */
	bool wraps; /* some interface replaces a function (--wrap) */
};

static void add_obj(struct objs *objs, const char *obj)
{
	strbuf_append(&objs->list, " \\\n\t%s", obj);
}

/* Characters a path keeps as they are in both a rule and a recipe. */
static bool is_plain_path(const char *path)
{
	for (; *path; path++)
		if (!isalnum((unsigned char)*path) && !strchr("_-+.,/@%~", *path))
			return false;
	return true;
}

/*
 * path as a target or prerequisite: blanks, '#' and wildcards escaped,
 * '$' doubled.  NULL where make cannot spell it: control characters, and
 * '\', ':', ';', '=', '|', which no escape keeps from ending the name, the
 * rule, or making it a variable assignment.
 */
static char *make_word(const char *path)
{
	struct strbuf b = { NULL, 0, 0 };
	const char *s;

	for (s = path; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f || strchr("\\:;=|", *s)) {
			free(b.s);
			return NULL;
		}
		if (*s == '$')
			strbuf_append(&b, "$$");
		else
			strbuf_append(&b, "%s%c", strchr(" #*?[", *s) ? "\\" : "", *s);
	}
	return b.s ? b.s : xstrdup("");
}

/* path, which make_word() could spell, as one shell word in a recipe:
 * quoted unless plain, '$' doubled for make; "./" before a name that a
 * command would take for an option ("-v") or gcc for a file of them
 * ("@opts"): a source in the output folder itself. */
static char *recipe_word(const char *path)
{
	struct strbuf b = { NULL, 0, 0 };
	const char *s;

	if (path[0] == '-' || path[0] == '@') {
		char *dotted = xasprintf("./%s", path), *word = recipe_word(dotted);

		free(dotted);
		return word;
	}
	if (is_plain_path(path))
		return xstrdup(path);
	strbuf_append(&b, "'");
	for (s = path; *s; s++) {
		if (*s == '\'')
			strbuf_append(&b, "'\\''");
		else if (*s == '$')
			strbuf_append(&b, "$$");
		else
			strbuf_append(&b, "%c", *s);
	}
	strbuf_append(&b, "'");
	return b.s;
}

static void emit_compile(struct out *o, const char *obj, const char *src,
			 const char *deps, enum toolchain t,
			 const struct compiler *c, bool openmp, const char *defines)
{
	struct tool tool = tool_for(t, c ? c->name : NULL);
	const char *flags = c && c->flags ? c->flags : "";
	char *rule_src = make_word(src), *cmd_src = recipe_word(src);
	/* nvcc passes the options it does not know to the host compiler
	 * (NVCC_FORWARD): $(CPPFLAGS) is the C compiler's, Debian's holds
	 * -Wdate-time, and nvcc stopped at it */
	char *forward = t != TOOL_NVCC ? xstrdup("") :
		strcmp(tool.command, "$(NVCC)") == 0 ? xstrdup(" $(NVCC_FORWARD)") :
		xasprintf(" $(call nvcc_forward,%s)", tool.command);

	out_line(o, "%s: %s%s%s", obj, rule_src, deps[0] ? " " : "", deps);
	out_line(o, "\t%s%s %s%s%s%s$(CPPFLAGS) %s $(PEPPHER_CFLAGS) -I.%s $(DEPFLAGS) -c %s -o $@",
		 tool.command, forward, flags, flags[0] ? " " : "", defines ? defines : "",
		 defines ? " " : "", tool.flags, openmp ? " $(OPENMP_FLAGS)" : "", cmd_src);
	out_blank(o);
	free(forward);
	free(rule_src);
	free(cmd_src);
}

/*
 * An OpenCL kernel file travels inside the program: make turns it into a C
 * string (rebuilt when the .cl changes), so the program finds its kernel
 * wherever it runs from.  The escapes keep backslashes, quotes and
 * trigraphs as they were.
 */
static void emit_kernel_rules(struct out *o, const struct impl *impl, const char *src,
			      struct objs *objs)
{
	char *c_file = kernel_c_file_name(impl), *symbol = kernel_symbol(impl);
	char *obj = xasprintf("%s__kernel.o", impl->name);
	char *rule_src = make_word(src), *cmd_src = recipe_word(src);

	out_line(o, "%s: %s", c_file, rule_src);
	out_line(o, "\t{ echo 'const char %s[] = \"\"'; \\", symbol);
	out_line(o, "\t  sed -e 's/\\\\/\\\\\\\\/g' -e 's/\"/\\\\\"/g' -e 's/?/\\\\?/g' \\");
	out_line(o, "\t      -e 's/^/\"/' -e 's/$$/\\\\n\"/' %s; echo ';'; } > $@-t && mv $@-t $@", cmd_src);
	out_blank(o);
	free(rule_src);
	free(cmd_src);
	add_obj(objs, obj);
	emit_compile(o, obj, c_file, "", TOOL_CC, NULL, false, NULL);
	strbuf_append(&objs->generated, " %s", c_file);
	free(obj);
	free(symbol);
	free(c_file);
}

static void emit_impl_rules(struct gen *g, struct out *o, const struct impl *impl,
			    struct objs *objs, const char *deps)
{
	bool openmp = impl->platform == PLATFORM_OPENMP;
	size_t i;

	if (impl->iface) {
		char *backend = backend_file_name(impl);
		char *header = backend_header_name(impl->iface);
		char *obj = xasprintf("%s_backend.o", impl->name);

		char *bdeps = deps[0] ? xasprintf("%s %s", header, deps) : xstrdup(header);

		add_obj(objs, obj);
		emit_compile(o, obj, backend, bdeps, impl->backend_tool, impl->backend_compiler,
			     openmp, NULL);
		free(bdeps);
		objs->cxx |= impl->backend_tool != TOOL_CC;
		objs->nvcc |= impl->backend_tool == TOOL_NVCC;
		free(obj);
		free(header);
		free(backend);
	}
	for (i = 0; i < impl->nsources; i++) {
		const struct source_file *sf = &impl->sources[i];
		char *src = gen_path(g, sf->path), *spelt = make_word(src);

		if (!spelt) {
			char *p = printable(src);

			diag_error(&sf->loc, "the path '%s' cannot be written in a Makefile (no control characters, \\ : ; = |)",
				   p);
			free(p);
			g->errors++;
		} else if (sf->kernel) {
			emit_kernel_rules(o, impl, src, objs);
		} else {
			char *obj = object_file_name(impl, sf);
			/* the application's calls of wrapped functions */
			const char *defines = impl == g->m->main && objs->wraps && sf->tool != TOOL_NVCC ?
						      "$(NO_BUILTIN_FLAGS)" : impl->defines;

			add_obj(objs, obj);
			emit_compile(o, obj, src, deps, sf->tool, &sf->compile, openmp, defines);
			objs->cxx |= sf->tool != TOOL_CC;
			objs->nvcc |= sf->tool == TOOL_NVCC;
			free(obj);
		}
		free(spelt);
		free(src);
	}
	objs->openmp |= openmp;
	objs->cuda |= impl->platform == PLATFORM_CUDA;
	objs->opencl |= impl->platform == PLATFORM_OPENCL;
}

/*
 * The application's sources are compiled with -fno-builtin-NAME for each
 * function an interface replaces: gcc otherwise evaluates or expands calls
 * of the functions it knows (sqrt, fabs and floor inline, sin and cos of
 * one value as one sincos call, constant arguments folded), which never
 * reach the --wrap.  Measured with math.h's tree at -O2: 7 of 12 functions
 * a program called ran as components without, all 12 with.  gcc and clang
 * take the option for any name, a builtin's or not.
 */
static void emit_no_builtin(struct out *o, const struct model *m)
{
	struct strbuf b = { 0 };
	size_t i;

	for (i = 0; i < m->nifaces; i++)
		if (m->ifaces[i]->wrap)
			strbuf_append(&b, " \\\n\t-fno-builtin-%s", IFACE_SYMBOL(m->ifaces[i]));
	out_line(o, "NO_BUILTIN_FLAGS =%s", b.s);
	free(b.s);
}

/*
 * Link-time optimization resolves a wrapped function that the program's
 * own sources define inside the optimized program, before --wrap sees the
 * call: every call, the application's too, then runs the original and
 * says nothing (doc/legacy.md).  compose cannot tell whether a wrapped
 * function comes from those sources or from a library (which -flto
 * leaves wrapped), so make says it wherever -flto is given.
 */
static void emit_lto_warning(struct out *o)
{
	out_line(o, "ifneq ($(filter -flto%%,$(CFLAGS) $(CXXFLAGS) $(LDFLAGS)),)");
	out_line(o, "$(warning -flto: a wrapped function that this program's own sources define is not wrapped: its calls run the original, not the component; compile the files that define it without -flto (a library's functions stay wrapped))");
	out_line(o, "endif");
}

/*
 * The runtime's flags come from pkg-config when a recipe first needs them,
 * once (VAR = $(eval VAR := ...)$(VAR)): `make clean`, and `make install`
 * of a program already built, need none, and ran pkg-config for nothing
 * (under sudo, which resets PKG_CONFIG_PATH, install stopped: "pkg-config
 * finds no peppher").  A missing package is said before anything
 * compiles: else it shows as undefined pph_ symbols.
 */
static void emit_variables(struct out *o, const struct model *m, const struct objs *objs,
			   const char *program, const char *pc, const struct tool *linker,
			   bool link_nvcc)
{
	out_line(o, "ifeq ($(origin CC),default)");
	out_line(o, "CC = gcc");
	out_line(o, "endif");
	out_line(o, "ifeq ($(origin CXX),default)");
	out_line(o, "CXX = g++");
	out_line(o, "endif");
	out_line(o, "PKG_CONFIG ?= pkg-config");
	out_line(o, "# pkg-config runs when a rule first needs what it says, once");
	out_line(o, "pkg_found = $(eval pkg_found := $$(shell $(PKG_CONFIG) --exists %s && echo yes))$(pkg_found)",
		 pc);
	out_line(o, "pkg = $(if $(pkg_found),$(shell $(PKG_CONFIG) $1 %s),$(error pkg-config finds no %s: put the folder of %s.pc (PREFIX/lib/pkgconfig) on PKG_CONFIG_PATH))",
		 pc, pc, pc);
	out_line(o, "PEPPHER_CFLAGS = $(eval PEPPHER_CFLAGS := $$(call pkg,--cflags))$(PEPPHER_CFLAGS)");
	/* the rpath lets the program find libpeppher wherever it was installed */
	out_line(o, "PEPPHER_LIBS = $(eval PEPPHER_LIBS := $$(call pkg,--libs) -Wl,-rpath,$$(call pkg,--variable=libdir))$(PEPPHER_LIBS)");
	if (objs->openmp) {
		out_line(o, "OPENMP_FLAGS = $(eval OPENMP_FLAGS := $$(call pkg,--variable=openmp_flags))$(OPENMP_FLAGS)");
		if (!link_nvcc) {
			/* the runtime of the compiler that links (gcc's libgomp,
			 * clang's libomp: CC=clang loaded both, and libpeppher
			 * sized and pinned libgomp's teams while the variants ran
			 * on libomp's), named before libpeppher: libgomp reads
			 * the wait policy libpeppher sets from its constructor,
			 * which then runs after libpeppher's
			 * (runtime/openmp_env.c; libomp reads it later) */
			out_line(o, "# the OpenMP runtime that the linker's $(OPENMP_FLAGS) links (-lgomp, -lomp),");
			out_line(o, "# named before libpeppher (runtime/openmp_env.c)");
			out_line(o, "openmp_runtime = %s %s $(LDFLAGS) $(OPENMP_FLAGS) -\\#\\#\\# -x none /dev/null -o /dev/null 2>&1 | \\",
				 linker->command, linker->flags);
			out_line(o, "\ttr -s '\" ' '\\n\\n' | grep -x -m 1 -e -lgomp -e -lomp -e -liomp5");
			out_line(o, "OPENMP_RUNTIME = $(eval OPENMP_RUNTIME := $$(shell $$(openmp_runtime)))$(OPENMP_RUNTIME)");
			out_line(o, "OPENMP_LIBS = -Wl,--push-state,--no-as-needed $(OPENMP_RUNTIME) -Wl,--pop-state");
		}
	}
	if (objs->cuda || objs->nvcc)
		out_line(o, "NVCC ?= $(eval NVCC := $$(call pkg,--variable=nvcc))$(NVCC)");
	if (objs->nvcc) {
		/* CUDA 10.2 and later: an older nvcc gets them as before */
		out_line(o, "# nvcc hands the host compiler the options it does not know ($(CPPFLAGS)'s -Wdate-time)");
		out_line(o, "nvcc_forward = $(shell $1 -forward-unknown-to-host-compiler --dryrun -x cu -c /dev/null -o /dev/null \\");
		out_line(o, "\t> /dev/null 2>&1 && echo -forward-unknown-to-host-compiler)");
		out_line(o, "NVCC_FORWARD = $(eval NVCC_FORWARD := $$(call nvcc_forward,$$(NVCC)))$(NVCC_FORWARD)");
	}
	if (objs->cuda)
		out_line(o, "CUDA_LIBS = $(eval CUDA_LIBS := $$(call pkg,--variable=cuda_libs))$(CUDA_LIBS)");
	if (objs->opencl)
		out_line(o, "OPENCL_LIBS = $(eval OPENCL_LIBS := $$(call pkg,--variable=opencl_libs))$(OPENCL_LIBS)");
	if (objs->wraps) {
		emit_no_builtin(o, m);
		emit_lto_warning(o);
	}
	out_blank(o);
	out_line(o, "prefix ?= /usr/local");
	out_line(o, "exec_prefix ?= $(prefix)");
	out_line(o, "bindir ?= $(exec_prefix)/bin");
	out_line(o, "INSTALL ?= install");
	/* the headers each source includes (the application's own too: a
	 * struct changed there rebuilt nothing), in OBJ.d, read at the end */
	out_line(o, "DEPFLAGS ?= -MMD -MP");
	out_blank(o);
	out_line(o, "PROGRAM = %s", program);
	out_line(o, "OBJS =%s", objs->list.s ? objs->list.s : "");
	out_blank(o);
	out_line(o, ".PHONY: all clean install");
	out_blank(o);
	out_line(o, "all: $(PROGRAM)");
	out_blank(o);
}

/*
 * unit's compile rules (the main module's, or an interface's objects):
 * into the Makefile, and into unit.flags, on which its objects depend.
 * compose leaves an unchanged file as it was, so that make rebuilds a
 * unit's objects when their rules changed (other flags, another runtime)
 * and no others: not when the link flags or another unit changed (2,500
 * LAPACKE interfaces were compiled again when some were removed).
 */
static void add_unit_rules(struct gen *g, struct out *rules, const char *unit, const char *text,
			   size_t len, const char *runtime_pc, const char *wrapped)
{
	char *name = xasprintf("%s.flags", unit);
	struct out o;

	fwrite(text, 1, len, rules->fp);
	if (gen_open(g, &o, name, "#") == 0) {
		out_line(&o, "# The compile rules of %s's objects, which depend on this file.", unit);
		out_line(&o, "# runtime: %s", runtime_pc);
		if (wrapped) /* NO_BUILTIN_FLAGS */
			out_line(&o, "# compiled with -fno-builtin- for:%s", wrapped);
		fwrite(text, 1, len, o.fp);
		gen_close(g, &o, name);
	}
	free(name);
}

/* The main module's link flags, those the chosen variants add (their
 * libraries), each variant's once, then --wrap for the interfaces that
 * replace a function of the same name, or of @symbol (the linker option as
 * tool passes it). */
static char *link_flags(const struct model *m, enum toolchain tool)
{
	struct strbuf b = { 0 };
	struct strmap seen = { 0 };
	size_t i, j;

	if (m->main->link.flags)
		strbuf_join(&b, " ", "%s", m->main->link.flags);
	for (i = 0; i < m->nifaces; i++)
		if (m->ifaces[i]->wrap)
			strbuf_join(&b, " ", "%s--wrap=%s",
				    tool == TOOL_NVCC ? "-Xlinker " : "-Wl,", IFACE_SYMBOL(m->ifaces[i]));
	for (i = 0; i < m->nifaces; i++)
		for (j = 0; j < m->ifaces[i]->nchosen; j++) {
			const struct impl *impl = m->ifaces[i]->chosen[j];
			const char *flags = impl->has_link ? impl->link.flags : NULL;

			if (!flags || !flags[0] || strmap_get(&seen, flags))
				continue;
			strmap_put(&seen, flags, (void *)flags);
			strbuf_join(&b, " ", "%s", flags);
		}
	strmap_free(&seen);
	return strbuf_take(&b);
}

/* Is path a file right in one of dirs? */
static bool in_dirs(const char *path, char *const *dirs, size_t ndirs)
{
	const char *slash = strrchr(path, '/');
	size_t i;

	for (i = 0; i < ndirs; i++)
		if (slash && (size_t)(slash - path) == strlen(dirs[i]) &&
		    !strncmp(path, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

/*
 * The libraries of the application's own that flags link (-lNAME, -l NAME,
 * -l:FILE), those the linker finds in the flags' absolute -L folders:
 * " $(wildcard PATH)" each, the program's prerequisites, so that a library
 * rebuilt (a static one above all, whose code the program holds) relinks
 * it.  The system's are left to the package manager (and a Makefile the
 * same on every machine).  GNU make's own -lNAME prerequisite cannot serve:
 * its search skips Debian's multiarch folder.  $(wildcard): a library gone
 * since is the linker's error to give, not make's "no rule".  A path make
 * would read as a pattern is left out.
 */
static char *library_prerequisites(const char *flags)
{
	struct strbuf b = { 0 };
	char *copy = xstrdup(flags), *save = NULL, *word, *path, *prerequisite;
	char **dirs = NULL;
	size_t ndirs = 0;

	for (word = strtok_r(copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		const char *arg = word + 2; /* -LDIR, -lNAME; or the next word */

		if ((!strcmp(word, "-L") || !strcmp(word, "-l")) && !(arg = strtok_r(NULL, " \t", &save)))
			break;
		if (!strncmp(word, "-L", 2) && arg[0] == '/') {
			dirs = xrealloc(dirs, ++ndirs, sizeof(*dirs));
			dirs[ndirs - 1] = (char *)arg;
		}
		if (strncmp(word, "-l", 2) || !arg[0] || !(path = library_find(arg, dirs, ndirs)))
			continue;
		prerequisite = xasprintf(" $(wildcard %s)", path);
		if (in_dirs(path, dirs, ndirs) && is_plain_path(path) && !(b.s && strstr(b.s, prerequisite)))
			strbuf_append(&b, "%s", prerequisite);
		free(prerequisite);
		free(path);
	}
	free(dirs);
	free(copy);
	return b.s ? strbuf_take(&b) : xstrdup("");
}

/* The link step's toolchain, from the linker's name. */
static enum toolchain link_toolchain(const struct compiler *link)
{
	return strstr(link->name, "nvcc") ? TOOL_NVCC : strstr(link->name, "++") ? TOOL_CXX : TOOL_CC;
}

/*
 * The linker gets its compiler flags, $(CFLAGS) (or $(CXXFLAGS),
 * $(NVCCFLAGS)), as the GNU Coding Standards and automake have it:
 * CFLAGS=-fsanitize=address or -flto compiled objects that did not link.
 */
static void emit_link(struct out *o, const struct model *m, const struct objs *objs)
{
	const struct compiler *link = &m->main->link;
	enum toolchain t = link_toolchain(link);
	struct tool tool = tool_for(t, link->name);
	char *flags = link_flags(m, t), *libraries = library_prerequisites(flags);

	/* descriptor link flags go after the objects: they are mostly -l options */
	/* relinked when the Makefile changed: the link flags are in it */
	out_line(o, "$(PROGRAM): $(OBJS) Makefile%s", libraries);
	free(libraries);
	out_line(o, "\t%s %s $(LDFLAGS) -o $@ $(OBJS)%s%s%s%s $(PEPPHER_LIBS)%s%s%s $(LDLIBS) $(LIBS)",
		 tool.command, tool.flags, flags[0] ? " " : "", flags,
		 objs->openmp ? " $(OPENMP_FLAGS)" : "",
		 /* nvcc takes no -Wl options */
		 objs->openmp && t != TOOL_NVCC ? " $(OPENMP_LIBS)" : "",
		 objs->cuda ? " $(CUDA_LIBS)" : "",
		 objs->opencl ? " $(OPENCL_LIBS)" : "",
		 /* a C compiler, $(CC) or one named (clang), links no libstdc++ */
		 objs->cxx && t == TOOL_CC ? " -lstdc++" : "");
	free(flags);
	out_blank(o);
	out_line(o, "install: $(PROGRAM)");
	out_line(o, "\t$(INSTALL) -d $(DESTDIR)$(bindir)");
	out_line(o, "\t$(INSTALL) -m 755 $(PROGRAM) $(DESTDIR)$(bindir)/$(PROGRAM)");
	out_blank(o);
	out_line(o, "clean:");
	out_line(o, "\trm -f $(PROGRAM) $(OBJS) $(OBJS:.o=.d)%s",
		 objs->generated.s ? objs->generated.s : "");
	out_blank(o);
	out_line(o, "-include $(OBJS:.o=.d)");
}

/*
 * The preprocessor options of the main module's sources (-I, -D, ...), as
 * written, for the entry wrappers: they are the application's code, and
 * include the headers the application does (pcre2.h only compiles with the
 * -DPCRE2_CODE_UNIT_WIDTH its includer gives).  NULL if none.
 */
static char *app_cpp_flags(const struct model *m)
{
	struct strbuf b = { 0 };
	struct strmap seen = { 0 }; /* keys: the options in kept */
	char **kept = NULL;
	size_t nkept = 0, i, j;

	for (i = 0; i < m->main->nsources; i++) {
		const struct source_file *sf = &m->main->sources[i];
		char **raw = NULL, **plain = NULL;
		size_t nraw = 0, nplain = 0;
		bool joined;

		if (sf->kernel || !sf->compile.flags)
			continue;
		split_words(sf->compile.flags, true, &raw, &nraw);
		split_words(sf->compile.flags, false, &plain, &nplain);
		for (j = 0; j < nraw; j++) {
			char *option;

			if (!is_cpp_option(plain[j], &joined))
				continue;
			option = joined || j + 1 == nraw ? xstrdup(raw[j]) :
							   xasprintf("%s %s", raw[j], raw[j + 1]);
			j += !joined && j + 1 < nraw;
			if (strmap_get(&seen, option)) {
				free(option);
				continue;
			}
			strmap_put(&seen, option, option);
			strbuf_join(&b, " ", "%s", option);
			*(char **)array_push(&kept, &nkept, sizeof(char *)) = option;
		}
		free_words(raw, nraw);
		free_words(plain, nplain);
	}
	strmap_free(&seen);
	free_words(kept, nkept);
	return b.s;
}

void emit_makefile(struct gen *g)
{
	const struct model *m = g->m;
	const struct compiler *link = &m->main->link;
	struct objs objs = { { NULL, 0, 0 }, { NULL, 0, 0 }, false, false, false, false, false, false };
	char *rules_text = NULL, *app_flags, *unit_text = NULL;
	size_t rules_len = 0, unit_len = 0;
	const char *runtime_pc = g->runtime_pc ? g->runtime_pc : "peppher";
	struct out unit;
	FILE *rules_fp = open_memstream(&rules_text, &rules_len);
	struct out rules = { rules_fp, 0, NULL }, o;
	size_t i, j;

	if (!rules_fp || gen_open(g, &o, "Makefile", "#") != 0) {
		if (rules_fp)
			fclose(rules_fp);
		free(rules_text);
		g->errors += !rules_fp;
		return;
	}
	for (i = 0; i < m->nifaces; i++)
		objs.wraps |= m->ifaces[i]->wrap;
	/* rules first, into memory, since they decide the variables */
	if (out_open_memory(&unit, &unit_text, &unit_len) != 0)
		g->errors++;
	else {
		struct strbuf wrapped = { 0 };

		for (i = 0; i < m->nifaces; i++)
			if (m->ifaces[i]->wrap)
				strbuf_append(&wrapped, " %s", IFACE_SYMBOL(m->ifaces[i]));
		emit_impl_rules(g, &unit, m->main, &objs, "peppher.h main.flags");
		out_close(&unit);
		add_unit_rules(g, &rules, "main", unit_text, unit_len, runtime_pc,
			       wrapped.s ? wrapped.s : "");
		free(wrapped.s);
		free(unit_text);
	}
	app_flags = app_cpp_flags(m);
	for (i = 0; i < m->nifaces; i++) {
		const struct iface *ifc = m->ifaces[i];
		char *entry = entry_file_name(g, ifc), *header = backend_header_name(ifc);
		enum toolchain entry_tool = strcmp(g->entry_ext, ".c") == 0 ? TOOL_CC : TOOL_CXX;
		char *obj = xasprintf("%s_entry.o", ifc->name);
		char *flags_file = xasprintf("%s.flags", ifc->name);
		char *deps = xasprintf("peppher.h %s %s", header, flags_file);

		if (out_open_memory(&unit, &unit_text, &unit_len) != 0) {
			g->errors++;
		} else {
			add_obj(&objs, obj);
			emit_compile(&unit, obj, entry, deps, entry_tool, NULL, false, app_flags);
			objs.cxx |= entry_tool == TOOL_CXX;
			for (j = 0; j < ifc->nchosen; j++)
				emit_impl_rules(g, &unit, ifc->chosen[j], &objs, flags_file);
			out_close(&unit);
			add_unit_rules(g, &rules, ifc->name, unit_text, unit_len, runtime_pc, NULL);
			free(unit_text);
		}
		free(deps);
		free(flags_file);
		free(obj);
		free(header);
		free(entry);
	}
	free(app_flags);
	{
		struct tool linker = tool_for(link_toolchain(link), link->name);

		emit_variables(&o, m, &objs, link->output, runtime_pc, &linker,
			       link_toolchain(link) == TOOL_NVCC);
	}
	fclose(rules_fp);
	fwrite(rules_text, 1, rules_len, o.fp);
	free(rules_text);
	emit_link(&o, m, &objs);
	gen_close(g, &o, "Makefile");
	free(objs.list.s);
	free(objs.generated.s);
}
