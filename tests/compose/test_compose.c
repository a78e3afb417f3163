/*
 * Unit tests of compose's modules: one suite per source file covered.
 * Run from the build tree by make check (top_srcdir in the environment).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <CUnit/Basic.h>

#include "check.h"
#include "classify.h"
#include "constraint.h"
#include "narrow.h"
#include "order.h"
#include "diag.h"
#include "emit.h"
#include "load.h"
#include "util.h"

/*
 * Memory that runs out: this program's malloc, calloc and realloc fail
 * once, at the allocation fail_at counted from when it was set (-1:
 * never).  libxml2's and the C library's calls reach them too: they are
 * not libcompose's own functions.  Whether the one that failed was
 * libxml2's is kept: libxml2 2.9's schema parser may then crash itself.
 */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static long fail_at = -1, nallocs;
static bool failed_in_libxml2;

static bool alloc_fails(void *caller)
{
	Dl_info info;

	if (fail_at < 0 || nallocs++ != fail_at)
		return false;
	failed_in_libxml2 = dladdr(caller, &info) && info.dli_fname &&
			    strstr(info.dli_fname, "libxml2");
	errno = ENOMEM;
	return true;
}

void *malloc(size_t size)
{
	return alloc_fails(__builtin_return_address(0)) ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return alloc_fails(__builtin_return_address(0)) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	return alloc_fails(__builtin_return_address(0)) ? NULL : __libc_realloc(p, size);
}

/* A crash after libxml2's own allocation failed is its bug: exit 5.  So
 * is a hang (SIGALRM): the heap it corrupted held a stream's lock. */
static void on_crash(int sig)
{
	if (failed_in_libxml2)
		_exit(5);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Run fn(arg) in a child whose allocation n fails, for n = 0, 1, ... until
 * one runs through without reaching it, and after each call check(arg,
 * n, status) with the child's wait status (out of memory may abort it:
 * compose's x* allocators do).  A child that crashed or hung after
 * libxml2's allocation failed is not checked (noted once).  Returns how
 * many runs failed an allocation.
 */
static long each_failed_allocation(void (*fn)(void *), bool (*check)(void *, long, int),
				   void *arg)
{
	long n, libxml2_crashed = 0;

	for (n = 0;; n++) {
		pid_t pid = fork();
		int status;

		CU_ASSERT_FATAL(pid >= 0);
		if (pid == 0) {
			struct rlimit none = { 0, 0 };
			int null = open("/dev/null", O_WRONLY);

			setrlimit(RLIMIT_CORE, &none); /* an abort writes no core */
			/* "compose: fatal: out of memory", glibc's "malloc():
			 * corrupted ..." after libxml2's */
			if (null >= 0)
				dup2(null, STDERR_FILENO);
			signal(SIGSEGV, on_crash);
			signal(SIGBUS, on_crash);
			signal(SIGALRM, on_crash);
			alarm(10);
			fail_at = n;
			nallocs = 0;
			fn(arg);
			fail_at = -1;
			_exit(nallocs > n ? 0 : 3); /* 3: n was never reached */
		}
		CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
			return n;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 5) {
			if (!libxml2_crashed++)
				fprintf(stderr, "\nnote: allocation %ld: libxml2 crashed or hung after its own allocation failed; not checked\n",
					n);
			continue;
		}
		if (!check(arg, n, status))
			return n;
	}
}

static char *data_path(const char *rel)
{
	const char *top = getenv("top_srcdir");

	return xasprintf("%s/tests/compose/data/%s", top ? top : "..", rel);
}

/* ---- util.c ---- */

static void test_normalize(void)
{
	char *s = normalize_space("  const   float \t*  ");
	char *t = normalize_type("const  float*");
	char *u = normalize_type("char**");

	CU_ASSERT_STRING_EQUAL(s, "const float *");
	CU_ASSERT_STRING_EQUAL(t, "const float *");
	CU_ASSERT_STRING_EQUAL(u, "char **");
	free(s);
	free(t);
	free(u);
}

/* a result's own qualifiers go (the entry wrapper stores it), not those
 * of what a pointer result points to */
static void test_result_type(void)
{
	char *a = normalize_result_type("const  int"), *b = normalize_result_type("volatile unsigned const long");
	char *c = normalize_result_type("const char *const"), *d = normalize_result_type("int (*)(const int)");

	CU_ASSERT_STRING_EQUAL(a, "int");
	CU_ASSERT_STRING_EQUAL(b, "unsigned long");
	CU_ASSERT_STRING_EQUAL(c, "const char *");
	CU_ASSERT_STRING_EQUAL(d, "int (*)(const int)");
	free(a);
	free(b);
	free(c);
	free(d);
}

/* ---- constraint.c ---- */

static double no_value(void *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	return 0;
}

static bool no_integral(void *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	return false;
}

/* text's value, *fault why it has none */
static double eval_text(const char *text, const char **fault)
{
	struct loc loc = { "t.xml", 1 };
	struct cexpr *e = cexpr_parse(text, &loc);
	double v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	cexpr_type(e, no_integral, NULL);
	v = cexpr_eval(e, no_value, NULL, fault);
	cexpr_free(e);
	return v;
}

/* integer division truncates as C's, also beyond long long (which was
 * undefined, and false); a division by zero is a fault, not NaN (true) */
static void test_constraint_eval(void)
{
	const char *fault;

	CU_ASSERT_EQUAL(eval_text("-7 / 2", &fault), -3);
	CU_ASSERT_PTR_NULL(fault);
	CU_ASSERT_EQUAL(eval_text("9223372036854775807 * 4 / 3 > 0", &fault), 1);
	CU_ASSERT_PTR_NULL(fault);
	eval_text("1 + 7 / 0", &fault);
	CU_ASSERT_STRING_EQUAL(fault, "a division by zero");
	eval_text("7 % 0 == 0", &fault);
	CU_ASSERT_STRING_EQUAL(fault, "a division by zero");
	eval_text("1e308 * 10 - 1e308 * 10", &fault);
	CU_ASSERT_PTR_NOT_NULL(fault);
}

static char *name_as_is(void *ctx, const char *name)
{
	(void)ctx;
	return xstrdup(name);
}

/* C++ gets C++'s casts (a C cast warns under -Wold-style-cast) */
static void test_constraint_cxx(void)
{
	struct loc loc = { "t.xml", 1 };
	struct cexpr *e = cexpr_parse("7 / 2", &loc);
	char *c, *cxx;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	cexpr_type(e, no_integral, NULL);
	c = cexpr_to_c(e, name_as_is, NULL, false);
	cxx = cexpr_to_c(e, name_as_is, NULL, true);
	CU_ASSERT_PTR_NOT_NULL(strstr(c, "(double)(long long)(7.0 / 2.0)"));
	CU_ASSERT_PTR_NULL(strstr(cxx, "(double)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(cxx, "static_cast<double>(static_cast<long long>(7.0 / 2.0))"));
	free(cxx);
	free(c);
	cexpr_free(e);
}

static void test_identifiers(void)
{
	CU_ASSERT_TRUE(is_c_identifier("vector_scale2"));
	CU_ASSERT_TRUE(is_c_identifier("_x"));
	CU_ASSERT_FALSE(is_c_identifier("2x"));
	CU_ASSERT_FALSE(is_c_identifier("vector-scale"));
	CU_ASSERT_FALSE(is_c_identifier(""));
	CU_ASSERT_TRUE(is_c_keyword("float"));
	CU_ASSERT_TRUE(is_c_keyword("class"));
	CU_ASSERT_FALSE(is_c_keyword("floats"));
}

static void test_types(void)
{
	CU_ASSERT_TRUE(is_c_type("const float *", false));
	CU_ASSERT_FALSE(is_c_type("int (*)(int)", false));
	CU_ASSERT_TRUE(is_c_type("int (*)(const void *, const void *)", true));
	CU_ASSERT_TRUE(is_c_type("int (*)()", true));
	CU_ASSERT_TRUE(is_c_type("int (*)(const char *, ...)", true));
	/* fftw's threads callback: a function pointer taking one */
	CU_ASSERT_TRUE(is_c_type("void ( *)(void *( *)(char *), char *, size_t, int, void *)", true));
	CU_ASSERT_FALSE(is_c_type("int (f)(int)", true));
	CU_ASSERT_FALSE(is_c_type("int (*)(int", true));
	CU_ASSERT_FALSE(is_c_type("int (*)(int))", true));
	CU_ASSERT_FALSE(is_c_type("int (*)(..., int)", true));
	CU_ASSERT_FALSE(is_c_type("int (*)(int) x", true));
}

static void test_paths(void)
{
	char *d = path_dirname("a/b/c.xml"), *e = path_dirname("c.xml");
	char *j = path_join("a/b", "c.xml"), *k = path_join("a", "/abs");
	char *r;

	CU_ASSERT_STRING_EQUAL(d, "a/b");
	CU_ASSERT_STRING_EQUAL(e, ".");
	CU_ASSERT_STRING_EQUAL(j, "a/b/c.xml");
	CU_ASSERT_STRING_EQUAL(k, "/abs");
	CU_ASSERT_STRING_EQUAL(path_basename("a/b/c.xml"), "c.xml");
	r = path_relative("/usr/lib", "/usr/include/stdio.h"); /* base already real */
	CU_ASSERT_STRING_EQUAL(r, "../include/stdio.h");
	free(r);
	r = path_relative("/usr", "/usr/include");
	CU_ASSERT_STRING_EQUAL(r, "include");
	free(r);
	free(d);
	free(e);
	free(j);
	free(k);
}

/* ---- diag.c ---- */

static void test_diag_format(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct loc loc = { "x.xml", 7 };

	diag_reset(fp);
	diag_error(&loc, "bad %s", "thing");
	diag_warning(&loc, "odd");
	diag_note(NULL, "about the run");
	fflush(fp);
	CU_ASSERT_STRING_EQUAL(buf, "x.xml:7: error: bad thing\n"
				    "x.xml:7: warning: odd\n"
				    "compose: note: about the run\n");
	CU_ASSERT_EQUAL(diag_error_count(), 1);
	fclose(fp);
	free(buf);
	diag_reset(NULL);
}

/* ---- load.c and check.c ---- */

static char *captured;
static size_t captured_len;
static FILE *capture_fp;

static void capture_begin(void)
{
	capture_fp = open_memstream(&captured, &captured_len);
	diag_reset(capture_fp);
}

static void capture_end(void)
{
	fclose(capture_fp);
	diag_reset(NULL);
}

static void test_load_malformed(void)
{
	const char *path = "test_compose_malformed.xml";
	FILE *fp = fopen(path, "w");
	struct model m = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs("<?xml version=\"1.0\"?>\n"
	      "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
	      "  <peppher:implementation name=\"main\">\n"
	      "  </peppher:implementation\n"
	      "</peppher:component>\n", fp);
	fclose(fp);
	capture_begin();
	CU_ASSERT_NOT_EQUAL(load_model(&m, path, NULL, 0, NULL), 0);
	capture_end();
	CU_ASSERT_PTR_NOT_NULL(strstr(captured, "test_compose_malformed.xml:5: error: "));
	free(captured);
	model_free(&m);
	unlink(path);
}

static void test_load_missing(void)
{
	struct model m = { 0 };

	capture_begin();
	CU_ASSERT_EQUAL(load_model(&m, "no-such-main.xml", NULL, 0, NULL), 1);
	capture_end();
	CU_ASSERT_STRING_EQUAL(captured, "compose: error: cannot read descriptor "
					 "'no-such-main.xml': No such file or directory\n");
	free(captured);
	model_free(&m);
}

/* Memory that runs out while the built-in schema is read is said to, not
 * taken for a schema that is invalid; nor are libxml2's messages that
 * follow from it passed on ("does not resolve to a type definition").
 * (Where libxml2 2.9 loses part of the schema without a word, validation
 * says "Internal error": that is not checked.) */
static const char *oom_log = "test_compose_oom.log";

static void load_tiny(void *path)
{
	static char buf[4096]; /* a stream that needs no allocation */
	long at = fail_at;
	struct model m = { 0 };
	FILE *fp;

	fail_at = -1; /* not while the log is opened */
	fp = fopen(oom_log, "w");
	if (!fp)
		_exit(4);
	setvbuf(fp, buf, _IOFBF, sizeof(buf));
	diag_reset(fp);
	fail_at = at;
	load_model(&m, path, NULL, 0, NULL);
	fclose(fp);
}

static bool check_oom_message(void *path, long n, int status)
{
	char log[4096] = "";
	FILE *fp = fopen(oom_log, "r");
	size_t len = fp ? fread(log, 1, sizeof(log) - 1, fp) : 0;

	(void)path;
	if (fp)
		fclose(fp);
	log[len] = '\0';
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)
		return true; /* compose: fatal: out of memory */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strstr(log, "schema is invalid") ||
	    strstr(log, "in_memory_buffer")) {
		fprintf(stderr, "\nallocation %ld failed: status %#x, said:\n%s", n, status, log);
		CU_FAIL("out of memory said as something else");
		return false;
	}
	return true;
}

static void test_load_out_of_memory(void)
{
	const char *path = "test_compose_tiny.xml";
	FILE *fp = fopen(path, "w");
	long runs;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs("<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
	      "<peppher:implementation name=\"main\"/></peppher:component>\n", fp);
	fclose(fp);
	fflush(NULL); /* the children's exit flushes nothing twice */
	runs = each_failed_allocation(load_tiny, check_oom_message, (void *)path);
	CU_ASSERT(runs > 100);
	unlink(path);
	unlink(oom_log);
}

static void test_load_and_check(void)
{
	char *main_path = data_path("golden/basic/main.xml");
	struct model m = { 0 };
	const struct iface *axpy, *norm;
	struct narrowing nw = { 1u << PLATFORM_CPU | 1u << PLATFORM_OPENMP, 0, NULL, 0, MODEL_DEFAULT };
	/* norm's one variant is OpenMP's: a build without OpenMP has none */
	bool openmp = narrow_build_platforms() & 1u << PLATFORM_OPENMP;

	capture_begin();
	CU_ASSERT_EQUAL(load_model(&m, main_path, NULL, 0, NULL), 0);
	CU_ASSERT_EQUAL(check_model(&m), 0);
	CU_ASSERT_EQUAL(classify_model(&m), 0);
	CU_ASSERT_EQUAL(narrow_model(&m, &nw), openmp ? 0 : 1);
	CU_ASSERT_EQUAL(order_model(&m), 0);
	capture_end();
	if (!openmp) {
		CU_ASSERT_PTR_NOT_NULL(strstr(captured, "note: skipping 'norm_omp': this build has no OPENMP"));
		CU_ASSERT_PTR_NOT_NULL(strstr(captured, "error: interface 'norm' has no enabled implementation"));
	}
	/* the CUDA variant is skipped with a note, not an error */
	CU_ASSERT_PTR_NOT_NULL(strstr(captured, narrow_build_platforms() & 1u << PLATFORM_CUDA ?
						"note: skipping 'axpy_cuda': CUDA is not among --platforms" :
						"note: skipping 'axpy_cuda': this build has no CUDA"));
	free(captured);
	CU_ASSERT_EQUAL_FATAL(m.nifaces, 2);
	axpy = m.ifaces[0];
	norm = m.ifaces[1];
	/* bottom-up: norm's implementation requires axpy */
	CU_ASSERT_STRING_EQUAL(axpy->name, "axpy");
	CU_ASSERT_STRING_EQUAL(norm->name, "norm");
	CU_ASSERT_EQUAL(axpy->nimpls, 3);
	CU_ASSERT_EQUAL(axpy->nbuffers, 2);
	CU_ASSERT_EQUAL(axpy->params[0].kind, PARAM_VECTOR);
	CU_ASSERT_EQUAL(axpy->params[1].kind, PARAM_VECTOR);
	CU_ASSERT_STRING_EQUAL(axpy->params[1].elem_type, "const float");
	/* a signed size is passed as given, a negative one counting as none
	 * (the entry wrapper's); an unsigned one is rebuilt from the data's
	 * handle */
	CU_ASSERT_EQUAL(axpy->params[2].kind, PARAM_VALUE);
	CU_ASSERT_STRING_EQUAL(axpy->params[0].dims[0], "n");
	CU_ASSERT_TRUE(axpy->params[0].size_expr);
	CU_ASSERT_EQUAL(axpy->params[3].kind, PARAM_VALUE);
	CU_ASSERT_TRUE(axpy->has_args);
	CU_ASSERT_EQUAL(norm->params[1].kind, PARAM_SIZE);
	CU_ASSERT_EQUAL(norm->params[1].size_of, 0);
	CU_ASSERT_EQUAL(norm->params[2].kind, PARAM_VARIABLE);
	CU_ASSERT_EQUAL(norm->params[2].access, ACCESS_WRITE);
	CU_ASSERT_FALSE(norm->has_args);
	CU_ASSERT_EQUAL(norm->impls[0]->platform, PLATFORM_OPENMP);
	CU_ASSERT_EQUAL(norm->params[0].loc.line, 5);
	model_free(&m);
	free(main_path);
}

/* ---- emit.c ---- */

/*
 * gen_commit() when memory runs out: before the first rename the output
 * folder keeps what it held (a folder it made is removed), and from the
 * first rename to the last nothing allocates, so that nothing can stop
 * them half way.  It wrote each of names holding version 1, then commits
 * version 2, an allocation failing; each file must hold the same version,
 * and no temporary file may be left.
 */
static const char *const commit_names[] = { "a.c", "b.c", "c.c", "d.c" };
#define NCOMMIT (sizeof(commit_names) / sizeof(commit_names[0]))

struct commit_case {
	const char *dir;
	bool made; /* dir does not exist before the commit */
};

/* Commit the files holding version into dir, allocation fail of the
 * commit failing (-1: none). */
static int commit_version(const char *dir, int version, long fail)
{
	struct model m = { 0 };
	struct gen g;
	struct out o;
	size_t i;
	int rc;

	m.main_path = "main.xml";
	gen_begin(&g, &m, dir, ".c");
	for (i = 0; i < NCOMMIT; i++) {
		gen_open(&g, &o, commit_names[i], "/*");
		out_line(&o, "int version_%d;", version);
		gen_close(&g, &o, commit_names[i]);
	}
	fail_at = fail; /* counted from the commit on */
	nallocs = 0;
	rc = gen_commit(&g, 0);
	fail_at = -1;
	return rc;
}

static void commit_v2(void *arg)
{
	const struct commit_case *c = arg;
	long at = fail_at;

	fail_at = -1; /* not while the files are made in memory */
	diag_reset(fopen("/dev/null", "w"));
	commit_version(c->dir, 2, at);
}

/* The version every file in dir holds (0: dir is missing), -1 for a mix
 * or a stray file. */
static int commit_state(const char *dir)
{
	char path[PATH_MAX], text[256], *dot;
	struct stat st;
	int version = 0;
	size_t i, len;
	FILE *fp;

	if (stat(dir, &st) != 0)
		return 0;
	snprintf(path, sizeof(path), "ls -A '%s' | grep -q '^\\.'", dir);
	if (system(path) == 0)
		return -1; /* a temporary file */
	for (i = 0; i < NCOMMIT; i++) {
		int v;

		snprintf(path, sizeof(path), "%s/%s", dir, commit_names[i]);
		fp = fopen(path, "r");
		len = fp ? fread(text, 1, sizeof(text) - 1, fp) : 0;
		if (fp)
			fclose(fp);
		text[len] = '\0';
		dot = strstr(text, "int version_");
		v = dot ? atoi(dot + strlen("int version_")) : -1;
		if (i && v != version)
			return -1;
		version = v;
	}
	return version;
}

static bool check_commit(void *arg, long n, int status)
{
	const struct commit_case *c = arg;
	int state = commit_state(c->dir);
	char cmd[PATH_MAX];

	(void)status;
	if (state < 0 || (state == 0 && !c->made) || (state == 1 && c->made)) {
		snprintf(cmd, sizeof(cmd), "ls -lA '%s' >&2; head -n 2 '%s'/* >&2", c->dir, c->dir);
		fprintf(stderr, "\nallocation %ld of the commit failed (status %#x):\n", n, status);
		if (system(cmd) != 0)
			fprintf(stderr, "(no %s)\n", c->dir);
		CU_FAIL("an allocation that failed left the output folder neither old nor new");
		return false;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", c->dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
	if (!c->made)
		CU_ASSERT_FATAL(commit_version(c->dir, 1, -1) == 0);
	return true;
}

static void test_commit_out_of_memory(void)
{
	struct commit_case over = { "test_compose_commit", false };
	struct commit_case made = { "test_compose_commit/new/out", true };
	long runs;

	CU_ASSERT_FATAL(system("rm -rf test_compose_commit") == 0);
	fflush(NULL);
	CU_ASSERT_FATAL(commit_version(over.dir, 1, -1) == 0);
	CU_ASSERT_EQUAL(commit_state(over.dir), 1);
	runs = each_failed_allocation(commit_v2, check_commit, &over);
	CU_ASSERT(runs > (long)(2 * NCOMMIT));
	CU_ASSERT_FATAL(commit_version(over.dir, 1, -1) == 0);
	runs = each_failed_allocation(commit_v2, check_commit, &made);
	CU_ASSERT(runs > (long)(2 * NCOMMIT));
	CU_ASSERT(system("rm -rf test_compose_commit") == 0);
}

int main(void)
{
	CU_pSuite s;
	int failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("util", NULL, NULL);
	CU_add_test(s, "normalize", test_normalize);
	CU_add_test(s, "result type", test_result_type);
	CU_add_test(s, "constraint values", test_constraint_eval);
	CU_add_test(s, "constraint as C++", test_constraint_cxx);
	CU_add_test(s, "identifiers", test_identifiers);
	CU_add_test(s, "types", test_types);
	CU_add_test(s, "paths", test_paths);
	s = CU_add_suite("diag", NULL, NULL);
	CU_add_test(s, "format", test_diag_format);
	s = CU_add_suite("load+check", NULL, NULL);
	CU_add_test(s, "malformed XML", test_load_malformed);
	CU_add_test(s, "missing file", test_load_missing);
	CU_add_test(s, "load and check", test_load_and_check);
	CU_add_test(s, "out of memory loading", test_load_out_of_memory);
	s = CU_add_suite("emit", NULL, NULL);
	CU_add_test(s, "out of memory committing", test_commit_out_of_memory);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() != 0 || CU_get_error() != CUE_SUCCESS;
	CU_cleanup_registry();
	return failed;
}
