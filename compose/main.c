/* compose: the PEPPHER composition tool's command line. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/parser.h>

#include "config.h"
#include "check.h"
#include "classify.h"
#ifdef PPH_HAVE_LIBCLANG
#include "cparse.h"
#endif
#include "diag.h"
#include "emit.h"
#include "expand.h"
#include "load.h"
#include "narrow.h"
#include "order.h"
#include "platform.h"
#include "protocheck.h"
#include "skeleton.h"
#include "skipfiles.h"
#include "util.h"

struct options {
	const char *main_path;
	const char *outdir;
	const char *graph; /* --graph=FILE.dot */
	const char *platform; /* --platform=NAME|FILE */
	char **roots;
	size_t nroots;
	struct narrowing nw;
	int dry_run;
	int no_check_sources;
	struct skeleton_request skel; /* --generate-comp-files */
	struct skip_files skip; /* --disable-xml-files */
	const char *entry_ext; /* --wrapper-ext: ".c", or C++ ".cpp", ".cc", ".cxx" */
	const char *runtime_pc; /* --runtime: the runtime's pkg-config package */
	char **words; /* argv words made from ComPU's spellings */
	size_t nwords;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: compose [OPTION]... MAIN.xml\n"
		"Compose a PEPPHER application: read the main descriptor, the interfaces it\n"
		"requires and their implementations, and generate entry and backend wrappers,\n"
		"peppher.h and a Makefile.\n"
		"\n"
		"  -o, --output=DIR        write the generated files into DIR (default: .)\n"
		"  -R, --repository=DIR    also look for interfaces in DIR (repeatable)\n"
		"      --platforms=LIST    platforms to compose for, comma-separated among\n"
		"                          CPU,OPENMP,CUDA,OPENCL (default: what this build has)\n"
		"      --disable-impls=LIST  leave out these implementations (comma-separated)\n"
		"      --disable-xml-files=LIST  do not read these implementation descriptor\n"
		"                          files (file names; .xml added where missing)\n"
		"      --disable-cpu       leave out CPU and OpenMP implementations\n"
		"      --disable-cuda      leave out CUDA implementations\n"
		"      --disable-opencl    leave out OpenCL implementations\n"
		"      --platform=NAME|FILE  facts for static constraints from a platform\n"
		"                          description (NAME: platforms/NAME.xml in the\n"
		"                          repositories), over those detected here\n"
		"      --use-history-models       predict run times from the history per\n"
		"                          data size only (sizes never run are calibrated)\n"
		"      --use-regression-models    ... from a*n^b fitted to the history\n"
		"      --use-nl-regression-models ... from a*n^b+c fitted to the history\n"
		"                          (default: history where measured, a*n^b+c elsewhere;\n"
		"                          an interface's use*Models attribute wins)\n"
		"      --graph=FILE.dot    write the composition as a Graphviz graph\n"
		"      --wrapper-ext=EXT   entry wrappers' extension: c (default), or cpp, cc,\n"
		"                          cxx to compile them as C++\n"
		"      --runtime=NAME      the runtime the Makefile links: peppher (default,\n"
		"                          libpeppher), starpu (libpeppher-starpu, over\n"
		"                          StarPU 1.3) or starpu-mpi (libpeppher-starpu-mpi:\n"
		"                          distributed runs under mpirun, over StarPU-MPI);\n"
		"                          the generated C is the same\n"
		"      --no-check-sources  do not check implementation prototypes against\n"
		"                          their interfaces\n"
		"  -n, --dry-run           list the files that would be written, write nothing\n"
		"  -v, --verbose[=N]       say what is written; 2: read; 3: platform facts\n"
		"\n"
		"Utility mode, from C headers instead of a main descriptor:\n"
		"      --generate-comp-files=A.h,B.h  write an interface descriptor for every\n"
		"                          function the headers declare, implementation\n"
		"                          descriptors and stubs for each platform, and a\n"
		"                          main.xml with a main.c (into -o DIR); each CPU\n"
		"                          variant calls the original function, reached\n"
		"                          through -Wl,--wrap (name its library with -l)\n"
		"      --empty-stubs       CPU variants with empty bodies to fill in instead\n"
		"      --force             write over files compose did not write (a Makefile\n"
		"                          of your own, existing skeletons in utility mode)\n"
		"  -I DIR, -D NAME[=VAL]   passed to the C parser (utility mode and\n"
		"                          prototype checks); utility mode writes them into\n"
		"                          the generated sources' compiler flags\n"
		"  -L DIR, -l NAME         utility mode: the library the headers belong to,\n"
		"                          written into main.xml's link step\n"
		"  -std=STD                utility mode: the headers' C standard (c2x...), for\n"
		"                          the C parser and the generated C sources' flags;\n"
		"                          without it, gnu11, or gnu2x where only that parses\n"
		"\n"
		"  -h, --help              show this help and exit\n"
		"  -V, --version           show the version and exit\n"
		"\n"
		"ComPU's spellings are accepted too, in any case: -generateCompFiles=LIST,\n"
		"-disableXMLFiles=LIST, -disableImpls=LIST, -wrapperFilesExt=EXT,\n"
		"-useHistoryModels, -useRegressionModels, -useNLRegressionModels,\n"
		"-disableCPU, -disableCUDA, -disableOpenCL and -v=N.\n"
		"Interfaces are also looked up in $PEPPHER_REPOSITORY (colon-separated) and in\n"
		"%s.\n", PPH_REPOSITORY_DIR);
}

/* libclang is opened only to parse: -v tries it here. */
static void print_version(bool try_libclang)
{
	printf("compose (PEPPHER-C) %s\n", PACKAGE_VERSION);
#ifdef PPH_HAVE_LIBCLANG
	const char *why;

	printf("C parser: libclang (%s, opened when parsing: --generate-comp-files, prototype checks)\n",
	       cparse_library());
	if (try_libclang && cparse_load(&why) == 0)
		printf("libclang: loads\n");
	else if (try_libclang)
		printf("libclang: cannot be loaded: %s\n", why);
#else
	(void)try_libclang;
	printf("C parser: none (built without libclang)\n");
#endif
}

static void split_list(const char *list, char ***items, size_t *n);

/* "CPU, OpenCL": names in any case, blanks around them dropped (as
 * descriptors' values are trimmed). */
static int parse_platforms(const char *list, unsigned *mask)
{
	static const char *const names[] = { "CPU", "OPENMP", "CUDA", "OPENCL" };
	char **items = NULL;
	size_t nitems = 0, i, k;
	int rc = 0;

	*mask = 0;
	split_list(list, &items, &nitems);
	for (k = 0; k < nitems; k++) {
		for (i = 0; i < 4 && strcasecmp(items[k], names[i]) != 0; i++)
			;
		if (i == 4) {
			diag_error(NULL, "unknown platform '%s' in --platforms", items[k]);
			rc = -1;
		} else {
			*mask |= 1u << i;
		}
		free(items[k]);
	}
	free(items);
	return rc;
}

static void add_root(struct options *opt, const char *dir)
{
	*(char **)array_push(&opt->roots, &opt->nroots, sizeof(char *)) = xstrdup(dir);
}

static void add_env_roots(struct options *opt)
{
	const char *env = getenv("PEPPHER_REPOSITORY");
	char *copy, *save = NULL, *tok;

	if (env) {
		copy = xstrdup(env);
		for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
			add_root(opt, tok);
		free(copy);
	}
	add_root(opt, PPH_REPOSITORY_DIR);
}

static void split_list(const char *list, char ***items, size_t *n)
{
	char *copy = xstrdup(list), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		*(char **)array_push(items, n, sizeof(char *)) = normalize_space(tok);
	free(copy);
}

/* ComPU's options, single-dash and in any case, and their GNU names. */
static const struct compu_option {
	const char *name; /* as ComPU's --help spells it */
	const char *gnu;
	const char *value; /* what =VALUE holds, or NULL: none */
} compu_options[] = {
	{ "generateCompFiles", "generate-comp-files", "LIST" },
	{ "disableXMLFiles", "disable-xml-files", "LIST" },
	{ "disableImpls", "disable-impls", "LIST" },
	{ "wrapperFilesExt", "wrapper-ext", "EXT" },
	{ "useHistoryModels", "use-history-models", NULL },
	{ "useRegressionModels", "use-regression-models", NULL },
	{ "useNLRegressionModels", "use-nl-regression-models", NULL },
	{ "disableCPU", "disable-cpu", NULL },
	{ "disableCUDA", "disable-cuda", NULL },
	{ "disableOpenCL", "disable-opencl", NULL },
	{ "v", "verbose", "N" },
};
#define NCOMPU (sizeof(compu_options) / sizeof(compu_options[0]))

/* Words that start only ComPU's options, never a -D or -I. */
static bool looks_like_compu(const char *name, size_t len)
{
	static const char *const starts[] = { "disable", "use", "generate", "wrapper" };
	size_t i;

	for (i = 0; i < 4; i++)
		if (len >= strlen(starts[i]) && strncasecmp(name, starts[i], strlen(starts[i])) == 0)
			return true;
	return false;
}

static void unknown_compu(const char *arg)
{
	struct strbuf known = { 0 };
	size_t i;

	for (i = 0; i < NCOMPU; i++)
		strbuf_append(&known, "%s-%s%s%s", i ? ", " : "", compu_options[i].name,
			      compu_options[i].value ? "=" : "",
			      compu_options[i].value ? compu_options[i].value : "");
	diag_error(NULL, "unknown option '%s'; the PEPPHER spellings (in any case) are %s",
		   arg, known.s);
	free(known.s);
}

/*
 * arg as a GNU long option when it is one of ComPU's (*gnu, the caller
 * frees); 0 when it is none, -1 when it is a mistake (reported).  Only
 * "-v" itself is ours: "-v=N" is ComPU's.
 */
static int compu_spelling(const char *arg, char **gnu)
{
	const char *name = arg + 1, *eq;
	size_t len, i;

	*gnu = NULL;
	if (arg[0] != '-' || !arg[1] || arg[1] == '-') {
		if (strcasecmp(arg, "--help") == 0)
			*gnu = xstrdup("--help");
		return *gnu ? 1 : 0;
	}
	eq = strchr(name, '=');
	len = eq ? (size_t)(eq - name) : strlen(name);
	/* the compilers' -std=STD, single-dash too (else -s -t -d) */
	if (len == 3 && strncmp(name, "std", 3) == 0) {
		if (!eq) {
			diag_error(NULL, "option '%s' needs a value: -std=STD", arg);
			return -1;
		}
		*gnu = xasprintf("--std%s", eq);
		return 1;
	}
	for (i = 0; i < NCOMPU; i++)
		if (strlen(compu_options[i].name) == len &&
		    strncasecmp(compu_options[i].name, name, len) == 0)
			break;
	if (i == NCOMPU) {
		if (!looks_like_compu(name, len))
			return 0;
		unknown_compu(arg);
		return -1;
	}
	if (compu_options[i].value && !eq) {
		if (len == 1)
			return 0; /* -v, -V: ours */
		diag_error(NULL, "option '%s' needs a value: -%s=%s", arg, compu_options[i].name,
			   compu_options[i].value);
		return -1;
	}
	if (!compu_options[i].value && eq) {
		diag_error(NULL, "option '%s' takes no value", arg);
		return -1;
	}
	*gnu = xasprintf("--%s%s", compu_options[i].gnu, eq ? eq : "");
	return 1;
}

/* Does arg, one of our options, take the next word as its value? */
static bool takes_next(const char *arg, const struct option *longopts)
{
	size_t len;

	if (arg[0] != '-')
		return false;
	if (arg[1] != '-')
		return arg[1] && strchr("oRID", arg[1]) && !arg[2];
	if (strchr(arg, '='))
		return false;
	len = strlen(arg + 2);
	for (; len && longopts->name; longopts++) /* getopt takes unique abbreviations */
		if (strncmp(longopts->name, arg + 2, len) == 0 &&
		    longopts->has_arg == required_argument)
			return true;
	return false;
}

/*
 * ComPU's spellings become GNU long options before getopt sees them, or
 * else "-DISABLECUDA" would be "-D ISABLECUDA".  Values of options (the
 * word after "-o", "--output", ...) and what follows "--" are left alone.
 * The new words live as long as the run (*owned).  Returns 0 or -1.
 */
static int translate_compu(int argc, char **argv, const struct option *longopts,
			   char ***owned, size_t *nowned)
{
	int i, rc = 0;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		char *gnu;
		int r = compu_spelling(argv[i], &gnu);

		if (r < 0) {
			rc = -1;
		} else if (r > 0) {
			argv[i] = gnu;
			*(char **)array_push(owned, nowned, sizeof(char *)) = gnu;
		} else if (takes_next(argv[i], longopts)) {
			i++;
		}
	}
	return rc;
}

/* --wrapper-ext: entry wrappers in C (.c) or C++ (.cpp, .cc, .cxx). */
static int parse_wrapper_ext(const char *value, const char **ext)
{
	static const char *const known[] = { ".c", ".cpp", ".cc", ".cxx" };
	char *v = normalize_space(value), *e = v[0] == '.' ? xstrdup(v) : xasprintf(".%s", v);
	size_t i;
	int rc = -1;

	for (i = 0; i < 4 && strcmp(e, known[i]) != 0; i++)
		;
	if (i < 4) {
		*ext = known[i];
		rc = 0;
	} else if (strcmp(e, ".h") == 0 || strcmp(e, ".hpp") == 0 || strcmp(e, ".hh") == 0) {
		diag_error(NULL, "wrapper extension '%s': entry wrappers are compiled on their own (NAME_entry.c), not included as headers as ComPU's were; use .c (the default), or .cpp, .cc or .cxx to compile them as C++",
			   e);
	} else {
		diag_error(NULL, "wrapper extension '%s': expected .c, .cpp, .cc or .cxx", e);
	}
	free(e);
	free(v);
	return rc;
}

/* -std: the C standard utility mode reads the headers with ("c2x",
 * "gnu17", "iso9899:1999"), written into compiler flags: a C one, of
 * letters, digits and ':'. */
static int parse_std(const char *value, const char **std)
{
	const char *c;

	for (c = value; *c && (isalnum((unsigned char)*c) || *c == ':'); c++)
		;
	if (*c == '+' || (strncmp(value, "c", 1) != 0 && strncmp(value, "gnu", 3) != 0 &&
			  strncmp(value, "iso9899:", 8) != 0)) {
		diag_error(NULL, "-std=%s: utility mode reads C headers: give a C standard (c11, gnu17, c2x...)",
			   value);
		return -1;
	}
	if (*c || !value[0]) {
		diag_error(NULL, "-std=%s: expected a standard's name (c11, gnu17, c2x...)", value);
		return -1;
	}
	*std = value;
	return 0;
}

/* --runtime: the pkg-config package the generated Makefile links. */
static int parse_runtime(const char *value, const char **pc)
{
	if (strcmp(value, "peppher") == 0 || strcmp(value, "libpeppher") == 0) {
		*pc = "peppher";
		return 0;
	}
	if (strcmp(value, "starpu") == 0) {
		*pc = "peppher-starpu";
		return 0;
	}
	if (strcmp(value, "starpu-mpi") == 0) {
		/* its package adds MPI's flags: the Makefile is otherwise the same */
		*pc = "peppher-starpu-mpi";
		return 0;
	}
	diag_error(NULL, "--runtime=%s: expected peppher, starpu or starpu-mpi", value);
	return -1;
}

/* Returns -1 on bad usage, 1 when done (help, version), 0 to go on. */
static int parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repository", required_argument, NULL, 'R' },
		{ "platforms", required_argument, NULL, 'P' },
		{ "disable-impls", required_argument, NULL, 'X' },
		{ "disable-xml-files", required_argument, NULL, 'S' },
		{ "wrapper-ext", required_argument, NULL, 'E' },
		{ "disable-cpu", no_argument, NULL, 'C' },
		{ "disable-cuda", no_argument, NULL, 'U' },
		{ "disable-opencl", no_argument, NULL, 'O' },
		{ "graph", required_argument, NULL, 'G' },
		{ "platform", required_argument, NULL, 'T' },
		{ "use-history-models", no_argument, NULL, 'Y' },
		{ "use-regression-models", no_argument, NULL, 'Z' },
		{ "use-nl-regression-models", no_argument, NULL, 'W' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "no-check-sources", no_argument, NULL, 'K' },
		{ "runtime", required_argument, NULL, 'r' },
		{ "generate-comp-files", required_argument, NULL, 'H' },
		{ "force", no_argument, NULL, 'F' },
		{ "empty-stubs", no_argument, NULL, 'M' },
		{ "std", required_argument, NULL, 's' },
		{ "verbose", optional_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, verbosity = 0;
	bool show_version = false;

	if (translate_compu(argc, argv, longopts, &opt->words, &opt->nwords) != 0)
		return -1;
	opt->outdir = ".";
	opt->entry_ext = ".c";
	opt->nw.build_platforms = narrow_build_platforms();
	while ((c = getopt_long(argc, argv, "o:R:I:D:L:l:nvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': opt->outdir = optarg; break;
		case 'R': add_root(opt, optarg); break;
		case 'P':
			if (parse_platforms(optarg, &opt->nw.build_platforms) != 0)
				return -1;
			break;
		case 'X':
			split_list(optarg, &opt->nw.disabled_impls, &opt->nw.ndisabled_impls);
			break;
		case 'S':
			if (skip_files_add(&opt->skip, optarg) != 0)
				return -1;
			break;
		case 'E':
			if (parse_wrapper_ext(optarg, &opt->entry_ext) != 0)
				return -1;
			break;
		case 'C':
			opt->nw.disabled_platforms |= 1u << PLATFORM_CPU | 1u << PLATFORM_OPENMP;
			break;
		case 'U': opt->nw.disabled_platforms |= 1u << PLATFORM_CUDA; break;
		case 'O': opt->nw.disabled_platforms |= 1u << PLATFORM_OPENCL; break;
		case 'G': opt->graph = optarg; break;
		case 'T': opt->platform = optarg; break;
		case 'Y':
		case 'Z':
		case 'W': {
			enum model_kind kind = c == 'Y' ? MODEL_HISTORY :
					       c == 'Z' ? MODEL_REGRESSION : MODEL_NL_REGRESSION;

			/* two kinds: which was meant? (ComPU stops too) */
			if (opt->nw.model != MODEL_DEFAULT && opt->nw.model != kind) {
				diag_error(NULL, "--use-history-models, --use-regression-models and --use-nl-regression-models: give one");
				return -1;
			}
			opt->nw.model = kind;
			break;
		}
		case 'n': opt->dry_run = 1; break;
		case 'K': opt->no_check_sources = 1; break;
		case 'r':
			if (parse_runtime(optarg, &opt->runtime_pc) != 0)
				return -1;
			break;
		case 'H':
			split_list(optarg, &opt->skel.headers, &opt->skel.nheaders);
			break;
		case 'F': opt->skel.force = true; break;
		case 'M': opt->skel.empty = true; break;
		case 's':
			if (parse_std(optarg, &opt->skel.std) != 0)
				return -1;
			break;
		case 'I':
		case 'D':
			*(char **)array_push(&opt->skel.clang_args, &opt->skel.nargs,
					     sizeof(char *)) = xasprintf("-%c%s", c, optarg);
			break;
		case 'L':
		case 'l':
			*(char **)array_push(&opt->skel.link_args, &opt->skel.nlink,
					     sizeof(char *)) = xasprintf("-%c%s", c, optarg);
			break;
		case 'v':
			if (!optarg)
				verbosity++;
			else if (optarg[0] >= '0' && optarg[0] <= '3' && !optarg[1])
				verbosity = optarg[0] - '0';
			else {
				diag_error(NULL, "--verbose=%s: expected 0 to 3", optarg);
				return -1;
			}
			break;
		case 'h': usage(stdout); return 1;
		case 'V': show_version = true; break;
		default: usage(stderr); return -1;
		}
	}
	diag_set_verbosity(verbosity);
	if (show_version) {
		print_version(verbosity > 0);
		return 1;
	}
	if (opt->skel.nlink && !opt->skel.nheaders) {
		diag_error(NULL, "-L and -l name the library of the headers --generate-comp-files reads: a main descriptor's link step has its own flags (or make LDLIBS=...)");
		return -1;
	}
	if (opt->skel.std && !opt->skel.nheaders) {
		/* a global one would be wrong for the C++ and CUDA sources */
		diag_error(NULL, "-std names the C standard of the headers --generate-comp-files reads: the prototype checks parse each source with the -std of its descriptor's compiler flags");
		return -1;
	}
	if (opt->skel.nheaders) {
		if (optind != argc) {
			diag_error(NULL, "--generate-comp-files takes no main descriptor");
			return -1;
		}
		opt->skel.outdir = opt->outdir;
		opt->skel.dry_run = opt->dry_run;
		return 0;
	}
	if (optind != argc - 1) {
		diag_error(NULL, "expected one main descriptor (see compose --help)");
		return -1;
	}
	opt->main_path = argv[optind];
	add_env_roots(opt);
	return 0;
}

static void log_facts(const struct model *m)
{
	size_t i;

	for (i = 0; i < m->nfacts; i++)
		diag_verbose(3, "platform fact %s = %g", m->facts[i].name, m->facts[i].value);
}

/* The facts static constraints are evaluated against. */
static int load_facts(struct model *m, const struct options *opt)
{
	char *path = NULL;
	struct stat st;
	size_t i;
	int rc;

	platform_detect(m, opt->nw.build_platforms);
	if (!opt->platform) {
		log_facts(m);
		return 0;
	}
	if (strchr(opt->platform, '/') || strstr(opt->platform, ".xml"))
		path = xstrdup(opt->platform);
	for (i = 0; !path && i < opt->nroots; i++) {
		char *p = xasprintf("%s/platforms/%s.xml", opt->roots[i], opt->platform);

		if (stat(p, &st) == 0)
			path = p;
		else
			free(p);
	}
	if (!path) {
		diag_error(NULL, "no platform description '%s' in the repositories (platforms/%s.xml)",
			   opt->platform, opt->platform);
		return -1;
	}
	diag_verbose(1, "reading platform description %s", path);
	rc = load_platform(m, path) ? -1 : 0;
	free(path);
	log_facts(m);
	return rc;
}

/* The stages between loading and emitting: each reports its own errors,
 * and all of them run, so that one run reports every error. */
static unsigned analyse(struct model *m, const struct narrowing *nw)
{
	unsigned errors = check_model(m);

	errors += classify_model(m);
	errors += narrow_model(m, nw);
	return errors + order_model(m);
}

/* Generate the files, and the graph if asked: all of them or none (a
 * rename that fails half way puts back those renamed before it).
 * *written: how many were written. */
static int generate(const struct model *m, const struct options *opt, size_t *written)
{
	struct gen g;
	char *graph_tmp = NULL;
	size_t i, j;
	int rc;

	/* --force (utility mode's option) also lets these replace files
	 * compose did not write */
	if (opt->graph && !opt->dry_run &&
	    !(graph_tmp = emit_graph_stage(m, opt->graph, opt->skel.force)))
		return -1;
	if (gen_begin(&g, m, opt->outdir, opt->entry_ext) != 0) {
		file_discard(graph_tmp);
		return -1;
	}
	g.graph.staged = graph_tmp;
	g.graph.to = opt->graph;
	g.force = opt->skel.force;
	g.runtime_pc = opt->runtime_pc;
	emit_header(&g);
	for (i = 0; i < m->nifaces; i++) {
		const struct iface *ifc = m->ifaces[i];

		emit_backend_header(&g, ifc);
		emit_entry(&g, ifc);
		for (j = 0; j < ifc->nchosen; j++)
			emit_backend(&g, ifc->chosen[j]);
	}
	emit_makefile(&g);
	/* the graph where a generated file goes would replace it */
	if (opt->graph && gen_is_output(&g, opt->graph)) {
		diag_error(NULL, "--graph=%s: compose writes that file itself", opt->graph);
		g.errors++;
	}
	rc = gen_commit(&g, opt->dry_run);
	*written = g.written + (g.graph.renamed > 0);
	return rc;
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	struct model m = { 0 };
	size_t i, written = 0;
	int rc;

	LIBXML_TEST_VERSION
	/*
	 * A reader of stderr that goes away (compose -v | head) or a file
	 * size limit (ulimit -f) would end compose by a signal it does not
	 * catch, half way through writing or renaming: ignored, they make
	 * the write fail (EPIPE, EFBIG), and a failed write of a generated
	 * file is an error like any other, which leaves the output folder
	 * as it was.  A lost diagnostic is not worth failing the run for.
	 */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	rc = parse_args(argc, argv, &opt);
	if (rc == 0 && opt.skel.nheaders) {
		rc = generate_skeletons(&opt.skel);
	} else if (rc == 0 && load_model(&m, opt.main_path, opt.roots, opt.nroots, &opt.skip) == 0 &&
	    expand_generics(&m) == 0 && load_facts(&m, &opt) == 0 &&
	    analyse(&m, &opt.nw) == 0 &&
	    (opt.no_check_sources || check_prototypes(&m, opt.outdir, opt.skel.clang_args, opt.skel.nargs) == 0)) {
		rc = generate(&m, &opt, &written);
	}
	else if (rc == 0)
		rc = -1;
	if (diag_error_count() && written)
		fprintf(stderr, "compose: %u error%s, %zu file%s written all the same\n",
			diag_error_count(), diag_error_count() == 1 ? "" : "s", written,
			written == 1 ? "" : "s");
	else if (diag_error_count())
		fprintf(stderr, "compose: %u error%s, nothing written\n",
			diag_error_count(), diag_error_count() == 1 ? "" : "s");
	model_free(&m);
	for (i = 0; i < opt.nroots; i++)
		free(opt.roots[i]);
	free(opt.roots);
	for (i = 0; i < opt.nw.ndisabled_impls; i++)
		free(opt.nw.disabled_impls[i]);
	free(opt.nw.disabled_impls);
	for (i = 0; i < opt.skel.nheaders; i++)
		free(opt.skel.headers[i]);
	free(opt.skel.headers);
	for (i = 0; i < opt.skel.nargs; i++)
		free(opt.skel.clang_args[i]);
	free(opt.skel.clang_args);
	for (i = 0; i < opt.skel.nlink; i++)
		free(opt.skel.link_args[i]);
	free(opt.skel.link_args);
	skip_files_free(&opt.skip);
	for (i = 0; i < opt.nwords; i++)
		free(opt.words[i]);
	free(opt.words);
	xmlCleanupParser();
	/* what went to stdout (a dry run's list, --help) is the result:
	 * a reader gone or a full disk fails the run, said */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "compose: error: cannot write to standard output: %s\n",
			errno ? strerror(errno) : "write error");
		rc = -1;
	}
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
