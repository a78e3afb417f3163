/*
 * Unit tests of compose's modules: one suite per source file covered.
 * Run from the build tree by make check (top_srcdir in the environment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "check.h"
#include "classify.h"
#include "constraint.h"
#include "narrow.h"
#include "order.h"
#include "diag.h"
#include "load.h"
#include "util.h"

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
	/* a signed size is passed as given, a negative one counting as none;
	 * an unsigned one is rebuilt from the data's handle */
	CU_ASSERT_EQUAL(axpy->params[2].kind, PARAM_VALUE);
	CU_ASSERT_STRING_EQUAL(axpy->params[0].dims[0], "(n > 0 ? (size_t)n : 0)");
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
	CU_add_test(s, "identifiers", test_identifiers);
	CU_add_test(s, "types", test_types);
	CU_add_test(s, "paths", test_paths);
	s = CU_add_suite("diag", NULL, NULL);
	CU_add_test(s, "format", test_diag_format);
	s = CU_add_suite("load+check", NULL, NULL);
	CU_add_test(s, "malformed XML", test_load_malformed);
	CU_add_test(s, "missing file", test_load_missing);
	CU_add_test(s, "load and check", test_load_and_check);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() != 0 || CU_get_error() != CUE_SUCCESS;
	CU_cleanup_registry();
	return failed;
}
