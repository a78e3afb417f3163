#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <clang-c/Index.h>

#include "config.h"
#include "cparse.h"
#include "diag.h"
#include "names.h"
#include "util.h"

/*
 * libclang is opened when compose first parses, not linked: loading it
 * (and LLVM) costs more than a whole compose run without prototype checks,
 * and most runs (--version, --help, --no-check-sources, a failed load)
 * parse nothing.  Its functions are called through this table.
 */
#define LIBCLANG_FUNCTIONS(X) \
	X(Cursor_getArgument) \
	X(Cursor_getMangling) \
	X(Cursor_getNumArguments) \
	X(Cursor_getStorageClass) \
	X(Cursor_isFunctionInlined) \
	X(Cursor_getTranslationUnit) \
	X(Type_getNamedType) \
	X(Type_getSizeOf) \
	X(Type_visitFields) \
	X(getArrayElementType) \
	X(getArraySize) \
	X(File_isEqual) \
	X(createIndex) \
	X(defaultReparseOptions) \
	X(defaultSaveOptions) \
	X(disposeDiagnostic) \
	X(disposeIndex) \
	X(disposeString) \
	X(disposeTranslationUnit) \
	X(formatDiagnostic) \
	X(getCString) \
	X(getCanonicalType) \
	X(getCursorExtent) \
	X(getCursorLocation) \
	X(getCursorResultType) \
	X(getCursorSpelling) \
	X(getCursorType) \
	X(getDiagnostic) \
	X(getDiagnosticLocation) \
	X(getDiagnosticSeverity) \
	X(getDiagnosticSpelling) \
	X(getExpansionLocation) \
	X(getFile) \
	X(getFileContents) \
	X(getFileName) \
	X(getInclusions) \
	X(getNumDiagnostics) \
	X(getPointeeType) \
	X(getRangeStart) \
	X(getTranslationUnitCursor) \
	X(getTypeDeclaration) \
	X(getTypeSpelling) \
	X(getTypedefDeclUnderlyingType) \
	X(isConstQualifiedType) \
	X(isCursorDefinition) \
	X(isFunctionTypeVariadic) \
	X(parseTranslationUnit2) \
	X(reparseTranslationUnit) \
	X(saveTranslationUnit) \
	X(visitChildren)

static struct {
#define X(name) __typeof__(clang_##name) *name;
	LIBCLANG_FUNCTIONS(X)
#undef X
	void *handle;
	char *error; /* why it cannot be loaded */
} clang;

static pthread_once_t clang_once = PTHREAD_ONCE_INIT;

static void load_libclang(void)
{
	void *sym;

	clang.handle = dlopen(PPH_LIBCLANG_SONAME, RTLD_LAZY | RTLD_LOCAL);
	if (!clang.handle) {
		clang.error = xstrdup(dlerror());
		return;
	}
#define X(name)                                                                        \
	if (!clang.error) {                                                            \
		sym = dlsym(clang.handle, "clang_" #name);                             \
		if (sym)                                                               \
			memcpy(&clang.name, &sym, sizeof(sym));                        \
		else                                                                   \
			clang.error = xasprintf("%s has no clang_%s", PPH_LIBCLANG_SONAME, \
						#name);                                \
	}
	LIBCLANG_FUNCTIONS(X)
#undef X
}

const char *cparse_library(void)
{
	return PPH_LIBCLANG_SONAME;
}

int cparse_load(const char **why)
{
	pthread_once(&clang_once, load_libclang);
	*why = clang.error;
	return clang.error ? -1 : 0;
}

/* libclang strings, copied into ours. */
static char *take(CXString s)
{
	char *copy = xstrdup(clang.getCString(s) ? clang.getCString(s) : "");

	clang.disposeString(s);
	return copy;
}

/* Where loc was written; a macro's expansion counts as where it was used. */
static void location(CXSourceLocation loc, char **file, int *line)
{
	CXFile f;
	unsigned l, col, off;

	clang.getExpansionLocation(loc, &f, &l, &col, &off);
	*line = (int)l;
	if (file)
		*file = f ? take(clang.getFileName(f)) : xstrdup("");
}

/* Is spelling written with typeof: GNU's __typeof__ and __typeof, C23's
 * typeof and typeof_unqual (and their underscored forms)? */
static bool mentions_typeof(const char *spelling)
{
	static const char *const words[] = { "typeof", "__typeof", "__typeof__", "typeof_unqual",
					     "__typeof_unqual", "__typeof_unqual__" };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (type_has_word(spelling, words[i]))
			return true;
	return false;
}

/*
 * t as written, for a descriptor's type or a declaration: a type written
 * with typeof is the type it names, which is clang's canonical type (its
 * typedefs resolved too).  libclang spells "__typeof__(int)" as
 * "typeof(int)", which is no C type: utility mode wrote it into
 * descriptors that compose then refused.
 */
static char *type_spelling(CXType t)
{
	char *s = take(clang.getTypeSpelling(t));

	if (!mentions_typeof(s))
		return s;
	free(s);
	return take(clang.getTypeSpelling(clang.getCanonicalType(t)));
}

static bool ends_with_word(const char *s, size_t len, const char *word)
{
	size_t w = strlen(word);

	return len >= w && memcmp(s + len - w, word, w) == 0 &&
	       (len == w || s[len - w - 1] == ' ' || s[len - w - 1] == '*');
}

/*
 * A parameter of a pointer typedef qualified restrict (hwloc.h's
 * "hwloc_topology_t __hwloc_restrict topology") is spelled "restrict
 * hwloc_topology_t": the qualifier of the parameter itself, which a
 * prototype ignores, and which descriptors take after a '*' only.  s less
 * it, in place.
 */
static char *drop_leading_restrict(char *s)
{
	static const char *const quals[] = { "restrict ", "__restrict ", "__restrict__ " };
	bool again = true;
	size_t i, q;

	while (again) {
		again = false;
		for (i = 0; i < 3; i++) {
			q = strlen(quals[i]);
			if (strncmp(s, quals[i], q) == 0) {
				memmove(s, s + q, strlen(s + q) + 1);
				again = true;
			}
		}
	}
	return s;
}

/* Spelling of t less its top-level qualifiers: "const int" -> "int",
 * "float *restrict" -> "float *". */
static char *unqualified(CXType t)
{
	static const char *const quals[] = { "const", "volatile", "restrict", "__restrict" };
	char *s = take(clang.getTypeSpelling(t));
	size_t len = strlen(s), i;
	bool again = true;

	if (t.kind == CXType_Pointer || t.kind == CXType_BlockPointer) {
		while (again) {
			again = false;
			for (i = 0; i < 4; i++)
				if (ends_with_word(s, len, quals[i])) {
					len -= strlen(quals[i]);
					while (len && s[len - 1] == ' ')
						len--;
					again = true;
				}
		}
		s[len] = '\0';
		return s;
	}
	while (again) {
		again = false;
		for (i = 0; i < 3; i++) {
			size_t q = strlen(quals[i]);

			if (strncmp(s, quals[i], q) == 0 && s[q] == ' ') {
				memmove(s, s + q + 1, strlen(s + q + 1) + 1);
				again = true;
			}
		}
	}
	return s;
}

static bool is_integer(enum CXTypeKind k)
{
	return (k >= CXType_UShort && k <= CXType_ULongLong) ||
	       (k >= CXType_Short && k <= CXType_LongLong);
}

/* Is the data of type t const: t itself, or an array's elements (a const
 * array typedef, openssl's "const DES_cblock", is an array of const
 * elements, and the array type carries no qualifier)? */
static bool is_const_data(CXType t)
{
	CXType elem;

	while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray) {
		if (clang.isConstQualifiedType(t))
			return true;
		elem = clang.getCanonicalType(clang.getArrayElementType(t));
		if (elem.kind == CXType_Invalid)
			break;
		t = elem;
	}
	return clang.isConstQualifiedType(t) != 0;
}

static bool is_array(enum CXTypeKind k)
{
	return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
	       k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* Shape, plain spelling and pointee of type t. */
static void describe(CXType t, struct cparam *p)
{
	CXType canon = clang.getCanonicalType(t);

	p->plain = unqualified(canon);
	p->integer = is_integer(canon.kind);
	p->shape = CSHAPE_VALUE;
	if (canon.kind != CXType_Pointer)
		return;
	{
		CXType pointee = clang.getCanonicalType(clang.getPointeeType(canon));

		p->pointee = unqualified(pointee);
		p->pointee_const = is_const_data(pointee);
		p->pointee_array = t.kind == CXType_Pointer && is_array(clang.getPointeeType(t).kind);
		if (pointee.kind == CXType_FunctionProto || pointee.kind == CXType_FunctionNoProto)
			p->shape = CSHAPE_FUNCPTR;
		else if (pointee.kind == CXType_Void)
			p->shape = CSHAPE_VOIDPTR;
		else if (pointee.kind == CXType_Pointer)
			p->shape = CSHAPE_PTRPTR;
		else
			p->shape = CSHAPE_POINTER;
	}
}

static bool holds_pointer(CXType t);

static enum CXVisitorResult find_pointer_field(CXCursor field, CXClientData data)
{
	if (holds_pointer(clang.getCursorType(field))) {
		*(bool *)data = true;
		return CXVisit_Break;
	}
	return CXVisit_Continue;
}

/* Is t a pointer, or does it hold one: in a member, a nested struct or
 * union (libyaml's yaml_event_t keeps its pointers in a union of structs),
 * or an array's elements? */
static bool holds_pointer(CXType t)
{
	bool pointers = false;

	t = clang.getCanonicalType(t);
	while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		t = clang.getCanonicalType(clang.getArrayElementType(t));
	if (t.kind == CXType_Pointer || t.kind == CXType_BlockPointer)
		return true;
	if (t.kind == CXType_Record)
		clang.Type_visitFields(t, find_pointer_field, &pointers);
	return pointers;
}

/* A struct or union of which only the address means something: incomplete,
 * or holding pointers that the runtime would not follow. */
static bool is_handle(CXType pointee)
{
	if (pointee.kind != CXType_Record)
		return false;
	if (clang.Type_getSizeOf(pointee) < 0)
		return true;
	return holds_pointer(pointee);
}

static bool ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/*
 * The keyword clang writes before a tag that has no name of its own, only
 * a typedef's ("enum " for X11's "typedef enum { ... } XrmBinding,
 * *XrmBindingList", which it spells "enum XrmBinding *"): no such tag
 * exists in C, so the keyword must go.  NULL where t reaches no such tag.
 */
static const char *unnamed_tag_keyword(CXType t)
{
	CXType c = clang.getCanonicalType(t);
	CXCursor decl;
	CXFile file;
	unsigned line, col, off;
	size_t size;
	const char *text, *s, *kw = NULL;

	while (c.kind == CXType_Pointer)
		c = clang.getCanonicalType(clang.getPointeeType(c));
	if (c.kind == CXType_Enum)
		kw = "enum";
	else if (c.kind == CXType_Record)
		kw = "struct"; /* or union: read below */
	else
		return NULL;
	decl = clang.getTypeDeclaration(c);
	clang.getExpansionLocation(clang.getRangeStart(clang.getCursorExtent(decl)), &file, &line,
				   &col, &off);
	if (!file || !(text = clang.getFileContents(clang.Cursor_getTranslationUnit(decl), file, &size)) ||
	    off >= size)
		return NULL;
	s = text + off;
	if (strncmp(s, "union", 5) == 0)
		kw = "union";
	if (strncmp(s, kw, strlen(kw)) != 0)
		return NULL;
	for (s += strlen(kw); s < text + size && (*s == ' ' || *s == '\t' || *s == '\n'); s++)
		;
	if (s >= text + size || *s != '{')
		return NULL;
	return strcmp(kw, "enum") == 0 ? "enum " : strcmp(kw, "union") == 0 ? "union " : "struct ";
}

/* spelling less the first kw ("enum ") that starts a word */
static void drop_keyword(char *spelling, const char *kw)
{
	char *at;

	for (at = strstr(spelling, kw); at; at = strstr(at + 1, kw))
		if (at == spelling || !ident_char(at[-1])) {
			memmove(at, at + strlen(kw), strlen(at + strlen(kw)) + 1);
			return;
		}
}

/* t with the '*' of a pointer typedef shown ("z_stream *" for z_streamp),
 * or NULL when t is no typedef of a pointer. */
static char *pointer_shown(CXType t)
{
	bool typedefs = false;

	for (;;) {
		if (t.kind == CXType_Elaborated) {
			t = clang.Type_getNamedType(t);
		} else if (t.kind == CXType_Typedef) {
			t = clang.getTypedefDeclUnderlyingType(clang.getTypeDeclaration(t));
			typedefs = true;
		} else {
			break;
		}
	}
	if (!typedefs || t.kind != CXType_Pointer)
		return NULL;
	{
		char *shown = type_spelling(t);
		const char *kw = unnamed_tag_keyword(t);

		if (kw)
			drop_keyword(shown, kw);
		return shown;
	}
}

/* What header mode needs to know of a parameter's type beyond describe(). */
static void describe_more(CXType t, struct cparam *p)
{
	CXType canon = clang.getCanonicalType(t), pointee;

	if (canon.kind != CXType_Pointer)
		return;
	pointee = clang.getCanonicalType(clang.getPointeeType(canon));
	p->spelled = pointer_shown(t);
	p->pointee_integer = is_integer(pointee.kind);
	p->pointee_char = pointee.kind == CXType_Char_S || pointee.kind == CXType_Char_U;
	p->handle = is_handle(pointee);
	p->handle_out = pointee.kind == CXType_Pointer &&
			is_handle(clang.getCanonicalType(clang.getPointeeType(pointee)));
}

/* "T *" for an element spelled "T", "T (*)[3]" for "T[3]", "T (*)(int)"
 * for a function spelled "T (int)": what the parameter decays to. */
static char *pointer_to(const char *spelling)
{
	const char *cut = strpbrk(spelling, "[(");
	size_t n = cut ? (size_t)(cut - spelling) : strlen(spelling);

	while (n && spelling[n - 1] == ' ')
		n--;
	return cut ? xasprintf("%.*s (*)%s", (int)n, spelling, cut) : xasprintf("%s *", spelling);
}

/* What the first "[...]" of spelling holds ("m" of "double [m]"), or NULL
 * where it holds nothing. */
static char *first_dimension(const char *spelling)
{
	const char *open = strchr(spelling, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close || close == open + 1)
		return NULL;
	return xasprintf("%.*s", (int)(close - open - 1), open + 1);
}

/*
 * The spelling of elem, an element of an array whose own type is const
 * where konst is: a const array typedef ("const uuid_t uu", libuuid's
 * uuid_compare) is an array of const elements, but libclang keeps the
 * const on the array type, and its element type has none ("unsigned
 * char": the parameter was "unsigned char *", readwrite).
 */
static char *element_spelling(CXType elem, bool konst)
{
	char *s = type_spelling(elem), *q;

	if (!konst || is_const_data(elem))
		return s;
	/* const applies to a pointer element itself ("char *const") */
	if (clang.getCanonicalType(elem).kind == CXType_Pointer)
		q = xasprintf("%s const", s);
	else
		q = xasprintf("const %s", s);
	free(s);
	return q;
}

/*
 * A parameter declared as rows of a one-dimensional array ("double
 * a[n][m]", "const double a[][3]"): its data is a row-major matrix of the
 * row's elements, which a pointer to them ("double *") describes.  Not
 * deeper arrays.  konst: the array of rows is const (a const typedef of
 * it, whose rows then are).  Returns false for other parameters.
 */
static bool describe_rows(CXType t, CXType row, bool konst, struct cparam *p)
{
	CXType crow = clang.getCanonicalType(row), elem, celem;
	char *s;

	konst = konst || clang.isConstQualifiedType(row);

	if (crow.kind != CXType_ConstantArray && crow.kind != CXType_VariableArray)
		return false;
	elem = clang.getArrayElementType(row);
	celem = clang.getCanonicalType(elem);
	if (is_array(celem.kind) || celem.kind == CXType_Record || celem.kind == CXType_Pointer)
		return false;
	s = type_spelling(row);
	p->cols = first_dimension(s);
	free(s);
	if (!p->cols)
		return false;
	/* the rows as declared: written ("a[n][m]"), or by a typedef ("const
	 * odd_mat m", typedef double odd_mat[2][3]), whose spelling has none */
	s = type_spelling(is_array(t.kind) ? t : clang.getCanonicalType(t));
	p->rows = is_array(clang.getCanonicalType(t).kind) ? first_dimension(s) : NULL;
	free(s);
	s = element_spelling(elem, konst);
	p->flat = xasprintf("%s *", s);
	free(s);
	/* pointee stays the row ("double [3]"): prototype checks compare it */
	p->pointee_const = konst || is_const_data(crow);
	p->pointee_array = true;
	p->pointee_integer = is_integer(celem.kind);
	p->pointee_char = false;
	p->shape = CSHAPE_POINTER;
	return true;
}

/*
 * A parameter declared as an array ("char out[29]", png.h) or a function
 * is a pointer, as C adjusts it; libclang gives the type as written,
 * which no descriptor takes.  Returns false for other parameters.
 */
static bool describe_decayed(CXType t, struct cparam *p)
{
	CXType canon = clang.getCanonicalType(t), elem, celem;
	bool konst;
	char *s;

	if (canon.kind == CXType_FunctionProto || canon.kind == CXType_FunctionNoProto) {
		s = type_spelling(t);
		p->type = pointer_to(s);
		free(s);
		s = type_spelling(canon);
		p->plain = pointer_to(s);
		p->pointee = s;
		p->shape = CSHAPE_FUNCPTR;
		return true;
	}
	if (!is_array(canon.kind))
		return false;
	/* the element as written where the array is ("png_byte"), else as
	 * its typedef names it (jmp_buf: "struct __jmp_buf_tag") */
	elem = is_array(t.kind) ? clang.getArrayElementType(t) : clang.getArrayElementType(canon);
	celem = clang.getCanonicalType(elem);
	konst = clang.isConstQualifiedType(canon) != 0;
	s = element_spelling(elem, konst);
	p->type = pointer_to(s);
	free(s);
	p->pointee = unqualified(celem);
	p->plain = pointer_to(p->pointee);
	p->pointee_const = konst || is_const_data(celem);
	if (describe_rows(t, elem, konst, p))
		return true;
	p->shape = celem.kind == CXType_Pointer ? CSHAPE_PTRPTR : CSHAPE_POINTER;
	p->pointee_array = is_array(elem.kind);
	p->pointee_integer = is_integer(celem.kind);
	p->pointee_char = celem.kind == CXType_Char_S || celem.kind == CXType_Char_U;
	p->handle = is_handle(celem);
	if (canon.kind == CXType_ConstantArray)
		p->array_len = clang.getArraySize(canon);
	return true;
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The identifier at off in the text of file, or NULL. */
static char *identifier_at(CXTranslationUnit tu, CXFile file, unsigned off)
{
	size_t size, n = 0;
	const char *text = clang.getFileContents(tu, file, &size);

	if (!text || off >= size || (text[off] >= '0' && text[off] <= '9'))
		return NULL;
	while (off + n < size && ident_char(text[off + n]))
		n++;
	return n ? xasprintf("%.*s", (int)n, text + off) : NULL;
}

/* Does the line s (up to end) define written as an object-like macro
 * ("#define written body", not "#define written(...)")? */
static bool line_defines(const char *s, const char *end, const char *written)
{
	size_t w = strlen(written);

	s = skip_blank(s);
	if (s >= end || *s++ != '#')
		return false;
	s = skip_blank(s);
	if (end - s < 7 || strncmp(s, "define", 6) != 0 || (s[6] != ' ' && s[6] != '\t'))
		return false;
	s = skip_blank(s + 6);
	return (size_t)(end - s) > w && strncmp(s, written, w) == 0 &&
	       (s[w] == ' ' || s[w] == '\t');
}

/* Does file define written as an object-like macro? */
static bool file_defines(CXTranslationUnit tu, CXFile file, const char *written)
{
	size_t size;
	const char *text = clang.getFileContents(tu, file, &size), *line, *end;

	for (line = text; line && line < text + size; line = end + 1) {
		end = memchr(line, '\n', (size_t)(text + size - line));
		if (!end)
			end = text + size;
		if (line_defines(line, end, written))
			return true;
	}
	return false;
}

/* Is the identifier at off in file followed by "(" (a declarator's
 * parameters)? */
static bool called_at(CXTranslationUnit tu, CXFile file, unsigned off)
{
	size_t size;
	const char *text = clang.getFileContents(tu, file, &size), *s;

	if (!text || off >= size)
		return false;
	for (s = text + off; s < text + size && ident_char(*s); s++)
		;
	while (s < text + size && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	return s < text + size && *s == '(';
}

/*
 * The name a function is declared with where the header renames it with
 * a macro of the name its users write: GMP's "#define mpz_add __gmpz_add"
 * (or "#define mpn_add __MPN(add)") before "void mpz_add (mpz_ptr, ...)"
 * declares __gmpz_add, which programs call as mpz_add.  NULL where the
 * name is written as declared, or comes from a function-like macro
 * (libpng's PNG_EXPORT(1, ..., png_read_info, ...)), or from a macro that
 * writes the whole declaration (no "(" after it), or from a macro defined
 * in another file (zlib's Z_PREFIX names, in zconf.h: the interface then
 * takes the declared name).  libclang 14 gives a macro's expansion as the
 * spelling location too, so the macro is looked up in the header's text.
 */
static char *renamed_from(CXCursor c, const char *name)
{
	CXTranslationUnit tu = clang.Cursor_getTranslationUnit(c);
	CXFile used;
	unsigned line, col, off;
	char *written;

	clang.getExpansionLocation(clang.getCursorLocation(c), &used, &line, &col, &off);
	if (!used || !(written = identifier_at(tu, used, off)))
		return NULL;
	if (strcmp(written, name) == 0 || !called_at(tu, used, off) ||
	    !file_defines(tu, used, written)) {
		free(written);
		return NULL;
	}
	return written;
}

static enum CXChildVisitResult find_asm_label(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (c.kind != CXCursor_AsmLabelAttr)
		return CXChildVisit_Continue;
	*(char **)data = take(clang.getCursorSpelling(c));
	return CXChildVisit_Break;
}

/*
 * The linker's name of a function declared with an asm label, or NULL:
 * glibc's "__REDIRECT_NTH (strerror_r, (...), __xpg_strerror_r)" declares
 * strerror_r, which programs call by that name and the linker knows as
 * __xpg_strerror_r (GNU's strerror_r, returning char *, is another
 * function); so are the 64-bit file functions under _FILE_OFFSET_BITS=64.
 */
static char *asm_label(CXCursor c)
{
	char *label = NULL;

	clang.visitChildren(c, find_asm_label, &label);
	if (label && !*label) {
		free(label);
		label = NULL;
	}
	return label;
}

/* extern "C" { ... }, which libclang 14 gives as an unexposed declaration */
static bool is_linkage_spec(CXCursor c)
{
	return c.kind == CXCursor_LinkageSpec || c.kind == CXCursor_UnexposedDecl;
}

static void read_function(CXCursor c, struct cfunc *fn)
{
	int i, n = clang.Cursor_getNumArguments(c);

	memset(fn, 0, sizeof(*fn));
	fn->name = take(clang.getCursorSpelling(c));
	if ((fn->symbol = asm_label(c))) {
		if (strcmp(fn->symbol, fn->name) == 0) {
			free(fn->symbol);
			fn->symbol = NULL;
		}
	} else if ((fn->symbol = renamed_from(c, fn->name))) { /* users write the macro's name */
		char *symbol = fn->name;

		fn->name = fn->symbol;
		fn->symbol = symbol;
	}
	location(clang.getCursorLocation(c), &fn->file, &fn->line);
	fn->result = type_spelling(clang.getCursorResultType(c));
	fn->result_plain = unqualified(clang.getCanonicalType(clang.getCursorResultType(c)));
	fn->variadic = clang.isFunctionTypeVariadic(clang.getCursorType(c)) != 0;
	fn->no_prototype = clang.getCursorType(c).kind == CXType_FunctionNoProto;
	for (i = 0; i < n; i++) {
		CXCursor a = clang.Cursor_getArgument(c, (unsigned)i);
		struct cparam *p = array_push(&fn->params, &fn->nparams, sizeof(*p));

		memset(p, 0, sizeof(*p));
		p->name = take(clang.getCursorSpelling(a));
		location(clang.getCursorLocation(a), NULL, &p->line);
		if (!describe_decayed(clang.getCursorType(a), p)) {
			/* less a pointer's own qualifiers ("void *restrict",
			 * glibc's): a prototype ignores them */
			char *spelled = type_spelling(clang.getCursorType(a));

			CXType canon = clang.getCanonicalType(clang.getCursorType(a));

			p->type = normalize_type(drop_leading_restrict(spelled));
			free(spelled);
			describe(clang.getCursorType(a), p);
			describe_more(clang.getCursorType(a), p);
			/* "double (*a)[3]", written as the pointer it is */
			if (canon.kind == CXType_Pointer)
				describe_rows(canon, clang.getPointeeType(canon), false, p);
		}
		/* a callback taking a va_list (libtiff's TIFFErrorHandler) is
		 * a function pointer like any other, passed by value */
		if (p->shape != CSHAPE_FUNCPTR)
			fn->va_list |= strstr(p->type, "va_list") || strstr(p->plain, "__va_list");
	}
}

/* The translation unit's errors, reported when report is set; returns how
 * many there were. */
static unsigned errors_of(CXTranslationUnit tu, bool report)
{
	unsigned i, n = clang.getNumDiagnostics(tu), errors = 0;

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang.getDiagnostic(tu, i);

		if (clang.getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			errors++;
			if (report) {
				struct loc loc;
				char *file, *msg;

				location(clang.getDiagnosticLocation(d), &file, &loc.line);
				msg = take(clang.getDiagnosticSpelling(d));
				loc.file = file[0] ? file : NULL;
				diag_error(&loc, "%s", msg);
				free(msg);
				free(file);
			}
		}
		clang.disposeDiagnostic(d);
	}
	return errors;
}

static CXTranslationUnit parse(CXIndex index, const char *path, const char **args, int nargs,
			       struct CXUnsavedFile *unsaved, unsigned nunsaved)
{
	CXTranslationUnit tu = NULL;
	unsigned options = CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing;

	if (clang.parseTranslationUnit2(index, path, args, nargs, unsaved, nunsaved, options,
					&tu) != CXError_Success)
		return NULL;
	return tu;
}

struct header_walk {
	char **own;	/* the files whose functions count (real paths): the header
			 * and its parts (own_headers, private_parts) */
	size_t nown;
	struct cfunc *funcs;
	size_t n;
	size_t nstatic; /* static functions there: left out */
};

static bool has_path(char *const *paths, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(paths[i], path) == 0)
			return true;
	return false;
}

/* Was c written in the walk's files, directly or through a macro expanded
 * there? */
static bool expanded_in(CXCursor c, const struct header_walk *w)
{
	CXFile file;
	unsigned line, col, off;
	char *name, *real;
	bool in;

	clang.getExpansionLocation(clang.getCursorLocation(c), &file, &line, &col, &off);
	if (!file)
		return false;
	name = take(clang.getFileName(file));
	real = realpath(name, NULL);
	in = real && has_path(w->own, w->nown, real);
	free(real);
	free(name);
	return in;
}

static enum CXChildVisitResult visit_header(CXCursor c, CXCursor parent, void *data)
{
	struct header_walk *w = data;
	char *name;
	size_t i;

	(void)parent;
	if (is_linkage_spec(c))
		return CXChildVisit_Recurse; /* extern "C" { ... } */
	if (c.kind != CXCursor_FunctionDecl || !expanded_in(c, w))
		return CXChildVisit_Continue;
	if (clang.Cursor_getStorageClass(c) == CX_SC_Static) {
		w->nstatic++; /* bodies are skipped: not told from a declaration */
		return CXChildVisit_Continue;
	}
	name = take(clang.getCursorSpelling(c));
	for (i = 0; i < w->n && strcmp(cfunc_symbol(&w->funcs[i]), name) != 0; i++)
		;
	free(name);
	if (i == w->n) /* the first declaration of each function */
		read_function(c, array_push(&w->funcs, &w->n, sizeof(struct cfunc)));
	/* gmp.h's extern inline definitions (clang_isCursorDefinition is
	 * false for them, their bodies skipped) */
	if (clang.Cursor_isFunctionInlined(c))
		w->funcs[i].defined_here = true;
	return CXChildVisit_Continue;
}

/*
 * Does the walk's header use a struct it never declared, inside a
 * parameter list ("void f(struct foo *)" alone: clang warns that the
 * declaration will not be visible outside)?  Then each function declares
 * a type of its own, the generated code's declarations conflict with the
 * header's, and the tree does not build: libevent's buffer_compat.h needs
 * event2/buffer.h first.  Reports each as an error; returns how many.
 */
static unsigned types_declared_too_late(CXTranslationUnit tu, const struct header_walk *w)
{
	unsigned i, n = clang.getNumDiagnostics(tu), found = 0;

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang.getDiagnostic(tu, i);
		char *msg = take(clang.getDiagnosticSpelling(d)), *file, *real;
		struct loc loc;

		location(clang.getDiagnosticLocation(d), &file, &loc.line);
		real = file[0] ? realpath(file, NULL) : NULL;
		if (real && has_path(w->own, w->nown, real) &&
		    strstr(msg, "will not be visible outside of this function")) {
			loc.file = file;
			diag_error(&loc, "%s: the header needs one that declares it first (include that one before it, or generate from a header that does)",
				   msg);
			found++;
		}
		free(real);
		free(file);
		free(msg);
		clang.disposeDiagnostic(d);
	}
	return found;
}

/* clang's arguments: the language first, then the caller's. */
static const char **make_args(const char *const *lang, char *const *args, size_t nargs,
			      int *n)
{
	/* room for the language, and a prelude's -include pairs */
	const char **all = xcalloc(nargs + 32, sizeof(char *));
	int k = 0;
	size_t i;

	for (i = 0; lang[i]; i++)
		all[k++] = lang[i];
	for (i = 0; i < nargs; i++)
		all[k++] = args[i];
	*n = k;
	return all;
}

static char *read_text(const char *path)
{
	struct strbuf text = { 0 };
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	strbuf_append(&text, "%s", "");
	if (!f)
		return text.s;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_append(&text, "%.*s", (int)n, buf);
	fclose(f);
	return text.s;
}

/*
 * An umbrella header's own headers: lzma.h and z3.h declare no function
 * themselves, but include "lzma/base.h", "z3_api.h", ..., which refuse to
 * be included directly.  The files it includes with quotes, found beside
 * the file that includes them, and those they include so: real paths.
 * Lines in comments or #if'd out may add files never parsed, whose
 * functions are then not found either.
 */
/* The name an include line ("#  include <a/b.h>") names: its start, its
 * length in *len and its opening '<' or '"' in *quote; NULL for any other
 * line. */
static const char *included_name(const char *line, size_t *len, char *quote)
{
	const char *s = skip_blank(line), *end;

	if (*s++ != '#')
		return NULL;
	s = skip_blank(s);
	if (strncmp(s, "include", 7) != 0)
		return NULL;
	s = skip_blank(s + 7);
	if (*s != '<' && *s != '"')
		return NULL;
	*quote = *s;
	end = s + 1 + strcspn(s + 1, *s == '<' ? ">\n" : "\"\n");
	if (*end == '\n' || !*end || end == s + 1)
		return NULL;
	*len = (size_t)(end - s - 1);
	return s + 1;
}

static void free_paths(char **paths, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/* The folders args searches for included files (-I, -iquote, -isystem,
 * -idirafter, each with its folder in the same word or the next). */
static char **search_folders(char *const *args, size_t nargs, size_t *n)
{
	static const char *const opts[] = { "-I", "-iquote", "-isystem", "-idirafter" };
	char **dirs = NULL;
	size_t i, k;

	*n = 0;
	for (i = 0; i < nargs; i++)
		for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
			size_t len = strlen(opts[k]);
			const char *dir = NULL;

			if (strncmp(args[i], opts[k], len) != 0)
				continue;
			if (args[i][len])
				dir = args[i] + len;
			else if (i + 1 < nargs)
				dir = args[++i];
			if (dir)
				*(char **)array_push(&dirs, n, sizeof(char *)) = xstrdup(dir);
			break;
		}
	return dirs;
}

/*
 * Why clang would never finish reading the file at path: an include line
 * of it, or of a file it includes, names what is not a regular file
 * (/dev/zero, /dev/stdin, a FIFO: clang reads it for ever, and keeps all
 * it read).  Names are found as the preprocessor finds them: an absolute
 * one as it is, a quoted one beside its includer first, then in the
 * folders of args; the system's folders are trusted.  NULL if none, else
 * what is wrong, in the file *where (its real path) at line *line_of
 * (caller frees both).
 */
static char *special_include(const char *path, char *const *args, size_t nargs, char **where,
			     int *line_of)
{
	char **seen = NULL, **dirs, *why = NULL, *real = realpath(path, NULL);
	size_t nseen = 0, ndirs, i, d;

	if (!real)
		return NULL;
	dirs = search_folders(args, nargs, &ndirs);
	*(char **)array_push(&seen, &nseen, sizeof(char *)) = real;
	for (i = 0; i < nseen && !why; i++) {
		char *text = read_text(seen[i]), *line, *dir = xstrdup(seen[i]);
		int lineno = 1;

		*strrchr(dir, '/') = '\0';
		for (line = text; line && !why;
		     line = (line = strchr(line, '\n')) ? line + 1 : NULL, lineno++) {
			const char *s;
			char *file = NULL, quote;
			struct stat st;
			size_t len;

			if (!(s = included_name(line, &len, &quote)))
				continue;
			for (d = 0; d <= ndirs && !file; d++) {
				if (*s == '/')
					file = xasprintf("%.*s", (int)len, s);
				else if (d == 0 && quote == '"')
					file = xasprintf("%s/%.*s", dir, (int)len, s);
				else if (d > 0)
					file = xasprintf("%s/%.*s", dirs[d - 1], (int)len, s);
				if (file && stat(file, &st) != 0) {
					free(file);
					file = NULL;
				}
				if (*s == '/')
					break;
			}
			if (!file)
				continue;
			if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
				why = xasprintf("its #include names %s, which is not a regular file (a device or a pipe: it would be read for ever)",
						file);
				*where = xstrdup(seen[i]);
				*line_of = lineno;
			} else if (S_ISREG(st.st_mode)) {
				char *found = realpath(file, NULL);

				if (found && !has_path(seen, nseen, found))
					*(char **)array_push(&seen, &nseen, sizeof(char *)) = found;
				else
					free(found);
			}
			free(file);
		}
		free(dir);
		free(text);
	}
	free_paths(seen, nseen);
	free_paths(dirs, ndirs);
	return why;
}

static char **own_headers(const char *path, size_t *n)
{
	char **own = NULL, *real = realpath(path, NULL);
	size_t i;

	*n = 0;
	if (!real)
		return NULL;
	*(char **)array_push(&own, n, sizeof(char *)) = real;
	for (i = 0; i < *n; i++) {
		char *text = read_text(own[i]), *line, *dir = xstrdup(own[i]);
		const char *s;

		*strrchr(dir, '/') = '\0';
		for (line = text; line; line = (line = strchr(line, '\n')) ? line + 1 : NULL) {
			size_t len;
			char *file, *found, quote;

			if (!(s = included_name(line, &len, &quote)) || quote != '"')
				continue;
			file = xasprintf("%s/%.*s", dir, (int)len, s);
			found = realpath(file, NULL);
			free(file);
			if (found && !has_path(own, *n, found))
				*(char **)array_push(&own, n, sizeof(char *)) = found;
			else
				free(found);
		}
		free(dir);
		free(text);
	}
	return own;
}

/* Is the header at path private to the headers that include it: does it
 * refuse to be included on its own (glibc's bits/mathcalls.h: "# error
 * "Never include <bits/mathcalls.h> directly; include <math.h> instead."",
 * lzma's "Never include this file directly"), or is it in a folder named
 * bits, glibc's for such headers (bits/getopt_core.h says so in a comment
 * only)? */
static bool is_private_part(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *text, *line;
	bool refuses = false;

	if (slash && slash - path >= 5 && strncmp(slash - 5, "/bits", 5) == 0)
		return true;
	text = read_text(path);

	for (line = text; line && !refuses; line = (line = strchr(line, '\n')) ? line + 1 : NULL) {
		const char *s = skip_blank(line);
		size_t i, len;
		char *lower;

		if (*s++ != '#')
			continue;
		s = skip_blank(s);
		if (strncmp(s, "error", 5) != 0)
			continue;
		len = strcspn(s, "\n");
		lower = xasprintf("%.*s", (int)len, s);
		for (i = 0; i < len; i++)
			if (lower[i] >= 'A' && lower[i] <= 'Z')
				lower[i] = (char)(lower[i] - 'A' + 'a');
		refuses = strstr(lower, "directly") || strstr(lower, "never include");
		free(lower);
	}
	free(text);
	return refuses;
}

struct inclusion {
	char *file, *from; /* real paths: the file included, and the file including it */
};

struct inclusions {
	struct inclusion *v;
	size_t n;
};

static void note_inclusion(CXFile included, CXSourceLocation *stack, unsigned depth,
			   CXClientData data)
{
	struct inclusions *all = data;
	struct inclusion inc;
	CXFile from;
	unsigned line, col, off;
	char *name;

	if (!depth) /* the header itself */
		return;
	clang.getExpansionLocation(stack[0], &from, &line, &col, &off);
	if (!from)
		return;
	name = take(clang.getFileName(included));
	inc.file = realpath(name, NULL);
	free(name);
	name = take(clang.getFileName(from));
	inc.from = realpath(name, NULL);
	free(name);
	if (inc.file && inc.from)
		*(struct inclusion *)array_push(&all->v, &all->n, sizeof(inc)) = inc;
	else {
		free(inc.file);
		free(inc.from);
	}
}

/*
 * Add to own the private parts of its files: the headers they include
 * that refuse to be included on their own, and their parts in turn.
 * glibc's math.h declares none of its functions itself: each is written
 * once in <bits/mathcalls.h>, which math.h includes once per floating
 * type.  Such a part's functions can only be had through its includer,
 * so they are the includer's.
 */
static void add_private_parts(const struct inclusions *all, char ***own, size_t *nown)
{
	bool grew = true;
	size_t i;

	while (grew) {
		grew = false;
		for (i = 0; i < all->n; i++)
			if (has_path(*own, *nown, all->v[i].from) &&
			    !has_path(*own, *nown, all->v[i].file) &&
			    is_private_part(all->v[i].file)) {
				*(char **)array_push(own, nown, sizeof(char *)) =
					xstrdup(all->v[i].file);
				grew = true;
			}
	}
}

static void free_inclusions(struct inclusions *all)
{
	size_t i;

	for (i = 0; i < all->n; i++) {
		free(all->v[i].file);
		free(all->v[i].from);
	}
	free(all->v);
}

/* How many functions each file declares that would have interfaces:
 * files[i] declares counts[i]. */
struct declared_by_file {
	char **files;
	size_t n;
	unsigned *counts;
};

static enum CXChildVisitResult count_declared(CXCursor c, CXCursor parent, void *data)
{
	struct declared_by_file *d = data;
	CXFile file;
	unsigned line, col, off;
	char *name, *real;
	size_t i;

	(void)parent;
	if (is_linkage_spec(c))
		return CXChildVisit_Recurse;
	if (c.kind != CXCursor_FunctionDecl || clang.Cursor_getStorageClass(c) == CX_SC_Static)
		return CXChildVisit_Continue;
	/* those that would have interfaces: not glibc's __sin */
	name = take(clang.getCursorSpelling(c));
	if (names_problem(name)) {
		free(name);
		return CXChildVisit_Continue;
	}
	free(name);
	clang.getExpansionLocation(clang.getCursorLocation(c), &file, &line, &col, &off);
	if (!file)
		return CXChildVisit_Continue;
	name = take(clang.getFileName(file));
	real = realpath(name, NULL);
	free(name);
	if (!real)
		return CXChildVisit_Continue;
	for (i = 0; i < d->n && strcmp(d->files[i], real) != 0; i++)
		;
	if (i == d->n) {
		d->counts = xrealloc(d->counts, d->n + 1, sizeof(unsigned));
		d->counts[d->n] = 0;
		*(char **)array_push(&d->files, &d->n, sizeof(char *)) = real;
	} else {
		free(real);
	}
	d->counts[i]++;
	return CXChildVisit_Continue;
}

/* The file of all that an include directive's name ("gsl/gsl_vector_double.h")
 * names: the one it ends with; NULL where none does. */
static const char *included_as(const struct inclusions *all, const char *name, size_t len)
{
	size_t i, flen;

	for (i = 0; i < all->n; i++) {
		flen = strlen(all->v[i].file);
		if (flen > len && all->v[i].file[flen - len - 1] == '/' &&
		    strncmp(all->v[i].file + flen - len, name, len) == 0)
			return all->v[i].file;
	}
	return NULL;
}

/*
 * The headers the header at path (real: its real path) includes itself,
 * in its order: those its include lines name, and those clang saw it
 * include.  Clang records each file at its first include only, and
 * gsl_vector.h includes gsl_vector_double.h after gsl_vector_complex_double.h
 * has.
 */
static char **own_includes(const char *path, const char *real, const struct inclusions *all,
			   size_t *n)
{
	char *text = read_text(path), **files = NULL;
	const char *line, *file;
	size_t i;

	*n = 0;
	for (line = text; line; line = (line = strchr(line, '\n')) ? line + 1 : NULL) {
		const char *s;
		size_t len;
		char quote;

		if (!(s = included_name(line, &len, &quote)))
			continue;
		file = included_as(all, s, len);
		if (file && !has_path(files, *n, file))
			*(char **)array_push(&files, n, sizeof(char *)) = xstrdup(file);
	}
	free(text);
	for (i = 0; i < all->n; i++)
		if (strcmp(all->v[i].from, real) == 0 && !has_path(files, *n, all->v[i].file))
			*(char **)array_push(&files, n, sizeof(char *)) = xstrdup(all->v[i].file);
	return files;
}

/*
 * The header at path (real: its real path) declares no function: say so,
 * and which of the headers it includes do (poll.h only includes
 * <sys/poll.h>, libevent's event.h only <event2/...> headers), to
 * generate from.
 */
static void declares_none(CXTranslationUnit tu, const char *path, const char *real,
			  const struct inclusions *all)
{
	struct declared_by_file d = { NULL, 0, NULL };
	struct loc loc = { path, 0 };
	size_t i, j, nown;
	char **own = own_includes(path, real, all, &nown);

	diag_warning(&loc, "declares no function");
	clang.visitChildren(clang.getTranslationUnitCursor(tu), count_declared, &d);
	for (i = 0; i < nown; i++) {
		char **parts = NULL;
		size_t nparts = 0, k;
		unsigned count = 0;

		/* the functions it declares with its private parts */
		*(char **)array_push(&parts, &nparts, sizeof(char *)) = xstrdup(own[i]);
		add_private_parts(all, &parts, &nparts);
		for (k = 0; k < nparts; k++)
			for (j = 0; j < d.n; j++)
				if (strcmp(d.files[j], parts[k]) == 0)
					count += d.counts[j];
		if (count)
			diag_note(&loc, "it includes %s, which declares %u function%s: generate from that header",
				  own[i], count, count == 1 ? "" : "s");
		free_paths(parts, nparts);
	}
	free_paths(own, nown);
	free_paths(d.files, d.n);
	free(d.counts);
}

/* Does the header that did not parse as C parse as C++ (ncurses' cursesw.h,
 * gmpxx.h)?  Then clang's first C error says less than that. */
static bool parses_as_cxx(CXIndex index, const char *path, char *const *args, size_t nargs)
{
	static const char *const cxx[] = { "-x", "c++", "-std=gnu++17", NULL };
	int nall;
	const char **all = make_args(cxx, args, nargs, &nall);
	CXTranslationUnit tu = parse(index, path, all, nall, NULL, 0);
	bool ok = tu && !errors_of(tu, false);

	if (tu)
		clang.disposeTranslationUnit(tu);
	free(all);
	return ok;
}

/*
 * What a header may leave to the file that includes it, tried in turn when
 * it does not parse alone: jpeglib.h uses FILE and size_t; gawkapi.h also
 * struct stat, memset and NULL, and says so.
 */
static const char *const preludes[][8] = {
	{ "stdio.h", NULL },
	{ "stdio.h", "stddef.h", "string.h", "stdint.h", "stdbool.h", "sys/types.h", "sys/stat.h",
	  NULL },
};

/* NULL if path is a file compose can read, else why not (libclang says
 * only that it could not parse it). */
static const char *unreadable(const char *path)
{
	struct stat st;
	FILE *fp;

	if (stat(path, &st) != 0)
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "a directory";
	if (!S_ISREG(st.st_mode)) /* /dev/zero would be read for ever */
		return "not a regular file";
	if (!(fp = fopen(path, "r")))
		return strerror(errno);
	fclose(fp);
	return NULL;
}

/* path parsed as the C of all (-x c -std=...): alone, or where it has
 * errors alone, after the first prelude with which it has none (*prelude
 * set to it, else NULL); NULL if clang could not parse it at all. */
static CXTranslationUnit parse_c(CXIndex index, const char *path, const char **all, int nall,
				 const char *const **prelude)
{
	CXTranslationUnit tu = parse(index, path, all, nall, NULL, 0);
	size_t p;

	*prelude = NULL;
	for (p = 0; tu && errors_of(tu, false) && p < sizeof(preludes) / sizeof(preludes[0]); p++) {
		CXTranslationUnit with;
		int k = nall, i;

		for (i = 0; preludes[p][i]; i++) {
			all[k++] = "-include";
			all[k++] = preludes[p][i];
		}
		with = parse(index, path, all, k, NULL, 0);
		if (with && !errors_of(with, false)) {
			clang.disposeTranslationUnit(tu);
			tu = with;
			*prelude = preludes[p];
		} else if (with) {
			clang.disposeTranslationUnit(with);
		}
	}
	return tu;
}

/*
 * A header that is C2x (C23's [[nodiscard]] attributes, which clang 14
 * reads in C2x mode only) parsed as gnu11 has errors, and then parsed as
 * C++: "a C++ header", which it is not.  Parsed as gnu2x where gnu11 fails
 * (*std_read), unless the standard was given.
 */
static CXTranslationUnit parse_c2x(CXIndex index, const char *path, char *const *args,
				   size_t nargs, CXTranslationUnit tu, const char *const **prelude,
				   const char **std_read)
{
	static const char *const c2x[] = { "-x", "c", "-std=gnu2x", NULL };
	const char *const *c2x_prelude;
	int nall;
	const char **all = make_args(c2x, args, nargs, &nall);
	CXTranslationUnit as_c2x = parse_c(index, path, all, nall, &c2x_prelude);

	if (as_c2x && !errors_of(as_c2x, false)) {
		if (tu)
			clang.disposeTranslationUnit(tu);
		tu = as_c2x;
		*prelude = c2x_prelude;
		*std_read = "gnu2x";
	} else if (as_c2x) {
		clang.disposeTranslationUnit(as_c2x);
	}
	free(all);
	return tu;
}

/* Does the header at path include one named as the file at other is (its
 * last name, with quotes or brackets)? */
static bool includes_named(const char *path, const char *other)
{
	const char *base = strrchr(other, '/') ? strrchr(other, '/') + 1 : other;
	size_t blen = strlen(base), len;
	char *text = read_text(path), *line, quote;
	bool found = false;

	for (line = text; line && !found; line = (line = strchr(line, '\n')) ? line + 1 : NULL) {
		const char *name = included_name(line, &len, &quote);

		found = name && len >= blen && memcmp(name + len - blen, base, blen) == 0 &&
			(len == blen || name[len - blen - 1] == '/');
	}
	free(text);
	return found;
}

static bool same_folder(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	return sa && sb && sa - a == sb - b && memcmp(a, b, (size_t)(sa - a)) == 0;
}

/*
 * A header's parts beside it: curl.h ends by including "easy.h",
 * "multi.h", ..., which declare curl_easy_perform and the rest of its API
 * (easy.h uses curl.h's types without including it, multi.h includes
 * curl.h back), and tcl.h includes "tclDecls.h", its 633 functions; both
 * were left out.  A header that one of own includes from its own folder
 * is one of own where it includes that file back, or does not parse on
 * its own (read as the header was: args, with its prelude); one that
 * parses alone and does not (lapacke.h's "lapack.h", gsl_linalg.h's
 * <gsl/gsl_matrix.h>) is a header of its own, to generate from.
 */
static void add_sibling_parts(CXIndex index, const char *const *args, int nargs,
			      const char *const *prelude, const struct inclusions *all,
			      char ***own, size_t *nown)
{
	const char **alone = xcalloc((size_t)nargs + 32, sizeof(char *));
	char **checked = NULL; /* parsed alone, without errors */
	size_t nchecked = 0, i;
	bool grew = true;
	int n = 0, k;

	for (k = 0; k < nargs; k++)
		alone[n++] = args[k];
	for (k = 0; prelude && prelude[k]; k++) {
		alone[n++] = "-include";
		alone[n++] = prelude[k];
	}
	while (grew) {
		grew = false;
		for (i = 0; i < all->n; i++) {
			const char *file = all->v[i].file, *from = all->v[i].from;
			bool part;

			if (!has_path(*own, *nown, from) || has_path(*own, *nown, file) ||
			    !same_folder(file, from))
				continue;
			part = includes_named(file, from);
			if (!part && !has_path(checked, nchecked, file)) {
				CXTranslationUnit tu = parse(index, file, alone, n, NULL, 0);

				part = !tu || errors_of(tu, false);
				if (tu)
					clang.disposeTranslationUnit(tu);
				if (!part)
					*(char **)array_push(&checked, &nchecked, sizeof(char *)) =
						xstrdup(file);
			}
			if (part) {
				*(char **)array_push(own, nown, sizeof(char *)) = xstrdup(file);
				grew = true;
			}
		}
	}
	free_paths(checked, nchecked);
	free(alone);
}

int cparse_header(const char *path, char *const *args, size_t nargs, const char *std,
		  struct cfunc **funcs, size_t *nfuncs, const char *const **prelude,
		  const char **std_read)
{
	const char *lang[] = { "-x", "c", NULL, NULL };
	struct header_walk w = { NULL, 0, NULL, 0, 0 };
	CXIndex index;
	CXTranslationUnit tu;
	const char **all, *why;
	char *std_option = xasprintf("-std=%s", std ? std : "gnu11"), *special, *where;
	int nall, rc = 0, line;

	*funcs = NULL;
	*nfuncs = 0;
	*prelude = NULL;
	*std_read = NULL;
	lang[2] = std_option;
	if ((why = unreadable(path))) {
		struct loc loc = { path, 0 };

		diag_error(&loc, "cannot read this header: %s", why);
		free(std_option);
		return -1;
	}
	if ((special = special_include(path, args, nargs, &where, &line))) {
		struct loc loc = { where, line };

		diag_error(&loc, "%s", special);
		free(special);
		free(where);
		free(std_option);
		return -1;
	}
	if (cparse_load(&why) != 0) {
		diag_error(NULL, "cannot parse C headers: %s", why);
		free(std_option);
		return -1;
	}
	index = clang.createIndex(0, 0);
	all = make_args(lang, args, nargs, &nall);
	tu = parse_c(index, path, all, nall, prelude);
	if (!std && (!tu || errors_of(tu, false)))
		tu = parse_c2x(index, path, args, nargs, tu, prelude, std_read);

	if (!tu || (errors_of(tu, false) && parses_as_cxx(index, path, args, nargs))) {
		struct loc loc = { path, 0 };

		diag_error(&loc, tu ? "a C++ header (it parses as C++, not as C): utility mode reads C headers" :
				      "cannot parse this header");
		rc = -1;
	} else if (errors_of(tu, true)) {
		rc = -1;
	} else {
		char *real = realpath(path, NULL);
		struct inclusions included = { NULL, 0 };

		if (!real)
			real = xstrdup(path);
		clang.getInclusions(tu, note_inclusion, &included);
		*(char **)array_push(&w.own, &w.nown, sizeof(char *)) = xstrdup(real);
		add_private_parts(&included, &w.own, &w.nown);
		clang.visitChildren(clang.getTranslationUnitCursor(tu), visit_header, &w);
		if (w.n) { /* a header of functions (else an umbrella, below): its parts beside it */
			size_t had = w.nown, k;

			if (*std_read) /* as the header was read */
				all[2] = "-std=gnu2x";
			add_sibling_parts(index, all, nall, *prelude, &included, &w.own, &w.nown);
			add_private_parts(&included, &w.own, &w.nown);
			if (w.nown > had) { /* walked again, in the order of declaration */
				for (k = 0; k < w.n; k++)
					cfunc_free(&w.funcs[k]);
				free(w.funcs);
				w.funcs = NULL;
				w.n = w.nstatic = 0;
				clang.visitChildren(clang.getTranslationUnitCursor(tu), visit_header, &w);
			}
		}
		if (w.n && types_declared_too_late(tu, &w))
			rc = -1;
		free_paths(w.own, w.nown);
		if (!w.n) { /* an umbrella header */
			w.own = own_headers(path, &w.nown);
			add_private_parts(&included, &w.own, &w.nown);
			clang.visitChildren(clang.getTranslationUnitCursor(tu), visit_header, &w);
			if (w.n && types_declared_too_late(tu, &w))
				rc = -1;
			free_paths(w.own, w.nown);
		}
		if (!w.n)
			declares_none(tu, path, real, &included);
		if (w.nstatic) {
			struct loc loc = { path, 0 };

			diag_note(&loc, "%zu static function%s left out: each file that includes the header compiles its own copy, which no wrapper can reach",
				  w.nstatic, w.nstatic == 1 ? "" : "s");
		}
		free_inclusions(&included);
		free(real);
	}
	if (tu)
		clang.disposeTranslationUnit(tu);
	clang.disposeIndex(index);
	free(all);
	free(std_option);
	*funcs = w.funcs;
	*nfuncs = w.n;
	return rc;
}

struct source_walk {
	const char *fname;
	const char *file; /* realpath of the source */
	CXCursor found;
	bool have, have_definition;
	struct cparam *resolved;
	size_t ntypes;
};

static bool in_file(CXCursor c, const char *real)
{
	char *file, *r;
	int line;
	bool same;

	location(clang.getCursorLocation(c), &file, &line);
	r = realpath(file, NULL);
	same = r && strcmp(r, real) == 0;
	free(r);
	free(file);
	return same;
}

static enum CXChildVisitResult visit_source(CXCursor c, CXCursor parent, void *data)
{
	struct source_walk *w = data;
	char *name;

	(void)parent;
	if (is_linkage_spec(c))
		return CXChildVisit_Recurse;
	name = take(clang.getCursorSpelling(c));
	if (c.kind == CXCursor_TypedefDecl && strncmp(name, "pph_iface_type_", 15) == 0) {
		size_t i = strtoul(name + 15, NULL, 10);

		if (i < w->ntypes)
			describe(clang.getTypedefDeclUnderlyingType(c), &w->resolved[i]);
	} else if (c.kind == CXCursor_FunctionDecl && strcmp(name, w->fname) == 0 &&
		   !w->have_definition && in_file(c, w->file)) {
		w->found = c;
		w->have = true;
		w->have_definition = clang.isCursorDefinition(c) != 0;
	}
	free(name);
	return CXChildVisit_Continue;
}

/* Did clang report an error in file between lines first and last? */
static char *error_between(CXTranslationUnit tu, const char *real, int first, int last)
{
	unsigned i, n = clang.getNumDiagnostics(tu);
	char *why = NULL;

	for (i = 0; i < n && !why; i++) {
		CXDiagnostic d = clang.getDiagnostic(tu, i);
		char *file, *r;
		int line;

		location(clang.getDiagnosticLocation(d), &file, &line);
		r = realpath(file, NULL);
		if (clang.getDiagnosticSeverity(d) >= CXDiagnostic_Error && r &&
		    strcmp(r, real) == 0 && line >= first && line <= last)
			why = take(clang.formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation));
		free(r);
		free(file);
		clang.disposeDiagnostic(d);
	}
	return why;
}

/* An error as "FILE:LINE: error: MESSAGE", the file by its real path: a
 * header included by different relative paths reads the same from each
 * source (clang writes the path as included). */
static char *error_text(CXDiagnostic d)
{
	char *file, *real, *msg = take(clang.getDiagnosticSpelling(d)), *text;
	int line;

	location(clang.getDiagnosticLocation(d), &file, &line);
	real = file[0] ? realpath(file, NULL) : NULL;
	text = file[0] ? xasprintf("%s:%d: error: %s", real ? real : file, line, msg) :
			 xasprintf("error: %s", msg);
	free(real);
	free(file);
	free(msg);
	return text;
}

/* Is line (1-based) of file an #error directive? */
static bool is_error_directive(const char *file, int line)
{
	char *text = read_text(file), *s = text;
	bool yes = false;

	while (s && --line > 0)
		s = (s = strchr(s, '\n')) ? s + 1 : NULL;
	if (s && *(s = (char *)skip_blank(s)) == '#') {
		s = (char *)skip_blank(s + 1);
		yes = strncmp(s, "error", 5) == 0 && (s[5] == ' ' || s[5] == '\t' || s[5] == '\n' || !s[5]);
	}
	free(text);
	return yes;
}

/* The first error an #error directive raised: the header says the source
 * will not compile as it is (pcre2.h without PCRE2_CODE_UNIT_WIDTH), though
 * clang goes on and may find the function; NULL if none. */
static char *error_directive(CXTranslationUnit tu)
{
	unsigned i, n = clang.getNumDiagnostics(tu);
	char *why = NULL;

	for (i = 0; i < n && !why; i++) {
		CXDiagnostic d = clang.getDiagnostic(tu, i);

		if (clang.getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			char *file;
			int line;

			location(clang.getDiagnosticLocation(d), &file, &line);
			if (file[0] && is_error_directive(file, line))
				why = error_text(d);
			free(file);
		}
		clang.disposeDiagnostic(d);
	}
	return why;
}

static const char *const *source_language(enum toolchain tool)
{
	static const char *const c[] = { "-x", "c", "-std=gnu11", NULL };
	static const char *const cxx[] = { "-x", "c++", NULL };
	/* host-side view of a .cu file: enough for prototypes */
	static const char *const cuda[] = {
		"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
		"-Wno-unknown-cuda-version",
		"-D__global__=__attribute__((global))", "-D__device__=__attribute__((device))",
		"-D__host__=__attribute__((host))", "-D__shared__=__attribute__((shared))",
		NULL,
	};

	return tool == TOOL_CXX ? cxx : tool == TOOL_NVCC ? cuda : c;
}

/*
 * System headers a source includes first are most of the cost of parsing
 * it (doc/design-notes.md has figures), and sources compiled with the same
 * flags mostly include the same ones.  So the second time a parser meets a
 * set of leading system includes with the same flags, it precompiles them
 * into a header (PCH) that later parses load instead: their include
 * guards then skip the headers the source includes again.
 */
struct pch {
	char *key;  /* parser_key() and the include lines */
	char *path; /* the precompiled header, once made */
	bool failed;
};

struct cparser {
	CXIndex index;
	CXTranslationUnit tu; /* the last unit parsed, or NULL */
	char *key;	      /* the tool and flags it was parsed with */
	bool reparsed;	      /* tu is the previous unit, reparsed */
	struct pch *pchs;
	size_t npchs;
};

struct cparser *cparser_new(void)
{
	struct cparser *p = xcalloc(1, sizeof(*p));

	/* visits skip what a precompiled header declares: no time spent on it */
	p->index = clang.createIndex(1, 0);
	return p;
}

void cparser_free(struct cparser *p)
{
	size_t i;

	if (!p)
		return;
	if (p->tu)
		clang.disposeTranslationUnit(p->tu);
	clang.disposeIndex(p->index);
	for (i = 0; i < p->npchs; i++) {
		if (p->pchs[i].path)
			unlink(p->pchs[i].path);
		free(p->pchs[i].path);
		free(p->pchs[i].key);
	}
	free(p->pchs);
	free(p->key);
	free(p);
}

static char *parser_key(enum toolchain tool, const char **all, int nall)
{
	struct strbuf key = { 0 };
	int i;

	strbuf_append(&key, "%d", (int)tool);
	for (i = 0; i < nall; i++)
		strbuf_append(&key, "\n%s", all[i]);
	return key.s;
}

/*
 * The "#include <...>" lines that start the source text, before anything
 * else but blank lines and comments, as "#include <a.h>\n...".  Anything
 * unusual ends them: what follows might change what the headers mean.
 */
static char *leading_system_includes(const char *text)
{
	struct strbuf lines = { 0 };
	const char *s = text;

	strbuf_append(&lines, "%s", "");
	for (;;) {
		const char *name, *end;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (s[0] == '/' && s[1] == '*') {
			end = strstr(s + 2, "*/");
			if (!end)
				break;
			s = end + 2;
			continue;
		}
		if (s[0] == '/' && s[1] == '/') {
			s += strcspn(s, "\n");
			continue;
		}
		if (*s != '#')
			break;
		s = skip_blank(s + 1);
		if (strncmp(s, "include", 7) != 0)
			break;
		name = skip_blank(s + 7);
		if (*name != '<' || !(end = strpbrk(name, ">\n")) || *end != '>')
			break;
		s = skip_blank(end + 1);
		if (*s && *s != '\n' && *s != '\r' && !(s[0] == '/' && (s[1] == '/' || s[1] == '*')))
			break;
		strbuf_append(&lines, "#include %.*s\n", (int)(end + 1 - name), name);
	}
	return lines.s;
}

/* Precompile includes (the header language first, then flags); NULL on failure. */
static char *make_pch(CXIndex index, const char **hargs, int nargs, const char *includes)
{
	struct CXUnsavedFile header = { "pph-prototype-includes.h", includes, strlen(includes) };
	const char *tmp = getenv("TMPDIR");
	char *path = xasprintf("%s/pph-prototype-XXXXXX.pch", tmp && *tmp ? tmp : "/tmp");
	CXTranslationUnit tu = NULL;
	int fd = mkstemps(path, 4);

	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	/* not with an error (an #error, a header not found): a unit that
	 * used it would not report it, and might read the types it lacks as
	 * int; each source is parsed in full instead, and says why */
	if (clang.parseTranslationUnit2(index, header.Filename, hargs, nargs, &header, 1,
					CXTranslationUnit_Incomplete |
						CXTranslationUnit_ForSerialization,
					&tu) != CXError_Success ||
	    errors_of(tu, false) ||
	    clang.saveTranslationUnit(tu, path, clang.defaultSaveOptions(tu)) !=
		    CXSaveError_None) {
		unlink(path);
		free(path);
		path = NULL;
	}
	if (tu)
		clang.disposeTranslationUnit(tu);
	return path;
}

/*
 * The precompiled header for includes compiled by tool with flags, made
 * the second time they are asked for; NULL for none (yet).
 */
static struct pch *parser_pch(struct cparser *p, enum toolchain tool, char *const *args,
			      size_t nargs, const char *includes)
{
	static const char *const c[] = { "-x", "c-header", "-std=gnu11", NULL };
	static const char *const cxx[] = { "-x", "c++-header", NULL };
	const char **hargs;
	int nhargs;
	char *flags, *key;
	struct pch *pch;
	size_t i;

	if (!includes[0] || tool == TOOL_NVCC)
		return NULL;
	hargs = make_args(tool == TOOL_CXX ? cxx : c, args, nargs, &nhargs);
	flags = parser_key(tool, hargs, nhargs);
	key = xasprintf("%s\n%s", flags, includes);
	free(flags);
	for (i = 0; i < p->npchs && strcmp(p->pchs[i].key, key) != 0; i++)
		;
	if (i == p->npchs) { /* the first time: remember it */
		pch = array_push(&p->pchs, &p->npchs, sizeof(*pch));
		pch->key = key;
		free(hargs);
		return NULL;
	}
	free(key);
	pch = &p->pchs[i];
	if (!pch->path && !pch->failed) {
		pch->path = make_pch(p->index, hargs, nhargs, includes);
		pch->failed = !pch->path;
	}
	free(hargs);
	return pch->path ? pch : NULL;
}

/* Forget the last unit: the next is parsed afresh. */
static void parser_drop_unit(struct cparser *p)
{
	if (p->tu)
		clang.disposeTranslationUnit(p->tu);
	p->tu = NULL;
	free(p->key);
	p->key = NULL;
}

/*
 * The unit for unsaved (the parser's main file) compiled with all: the
 * last unit reparsed when its tool and flags are the same, which skips
 * clang's driver (toolchain and header search discovery, about half the
 * cost of checking a small source), else a fresh parse.
 */
static CXTranslationUnit parser_unit(struct cparser *p, enum toolchain tool, const char **all,
				     int nall, struct CXUnsavedFile *unsaved)
{
	char *key = parser_key(tool, all, nall);

	p->reparsed = p->tu && strcmp(key, p->key) == 0 &&
		      clang.reparseTranslationUnit(p->tu, 1, unsaved,
						   clang.defaultReparseOptions(p->tu)) == 0;
	if (p->reparsed) {
		free(key);
		return p->tu;
	}
	parser_drop_unit(p); /* other flags, or a failed reparse, which leaves it unusable */
	p->key = key;
	p->tu = parse(p->index, unsaved->Filename, all, nall, unsaved, 1);
	return p->tu;
}

/* Did the unit stop with a fatal error (a precompiled header that did not
 * load; too many errors, after which clang reports none)?  Then its first
 * error says why (a header not found, which KeepGoing makes an error);
 * else NULL. */
static char *fatal_error(CXTranslationUnit tu)
{
	unsigned i, n = clang.getNumDiagnostics(tu);
	char *first = NULL;
	bool fatal = false;

	for (i = 0; i < n && !fatal; i++) {
		CXDiagnostic d = clang.getDiagnostic(tu, i);
		enum CXDiagnosticSeverity s = clang.getDiagnosticSeverity(d);

		if (s >= CXDiagnostic_Error && !first)
			first = error_text(d);
		fatal = s == CXDiagnostic_Fatal;
		clang.disposeDiagnostic(d);
	}
	if (!fatal) {
		free(first);
		first = NULL;
	}
	return first;
}

/* Why the unit cannot be read as its source will compile: a fatal error,
 * or an #error directive; NULL when neither. */
static char *unit_stopped(CXTranslationUnit tu)
{
	char *why = fatal_error(tu);

	return why ? why : error_directive(tu);
}

int cparse_function(struct cparser *p, const char *path, enum toolchain tool,
		    char *const *args, size_t nargs, const char *fname, char *const *types,
		    size_t ntypes, struct cfunc *fn, struct cparam *resolved, char **why)
{
	struct source_walk w = { fname, NULL, { 0 }, false, false, resolved, ntypes };
	struct strbuf text = { 0 };
	struct CXUnsavedFile unsaved;
	CXTranslationUnit tu;
	struct pch *pch;
	const char **all;
	char *source, *includes, *special, *where;
	int nall, rc = 1, line;
	size_t i;

	*why = NULL;
	memset(resolved, 0, ntypes * sizeof(*resolved));
	w.file = realpath(path, NULL);
	if (!w.file) {
		*why = xasprintf("'%s' not found", path);
		return -1;
	}
	if ((special = special_include(w.file, args, nargs, &where, &line))) {
		*why = xasprintf("%s:%d: %s", where, line, special);
		free(special);
		free(where);
		free((char *)w.file);
		return -1;
	}
	/* the interface's types, resolved where the implementation sees them;
	 * clang takes no escape in a header name: a path with a '"' (a folder
	 * a"b) goes between <>, where it ends only at '>' */
	if (strchr(w.file, '"'))
		strbuf_append(&text, "#include <%s>\n", w.file);
	else
		strbuf_append(&text, "#include \"%s\"\n", w.file);
	for (i = 0; i < ntypes; i++) {
		/* a declaration, not __typeof__(type): a function pointer's
		 * attribute ("void (*)(void) __attribute__((noreturn))") is
		 * no part of a type name */
		char *name = xasprintf("pph_iface_type_%zu", i), *decl = c_decl(types[i], name);

		strbuf_append(&text, "typedef %s;\n", decl);
		free(decl);
		free(name);
	}
	/* a main file that exists only in memory: the source comes in by its full path */
	unsaved.Filename = tool == TOOL_CC ? "pph-prototype-check.c" :
			   tool == TOOL_CXX ? "pph-prototype-check.cpp" : "pph-prototype-check.cu";
	unsaved.Contents = text.s;
	unsaved.Length = text.len;
	all = make_args(source_language(tool), args, nargs, &nall);
	source = read_text(w.file);
	includes = leading_system_includes(source);
	pch = parser_pch(p, tool, args, nargs, includes);
	if (pch) { /* made in this run: no need to check that its headers are unchanged */
		all[nall++] = "-include-pch";
		all[nall++] = pch->path;
		all[nall++] = "-Xclang";
		all[nall++] = "-fno-validate-pch";
	}
	tu = parser_unit(p, tool, all, nall, &unsaved);
	if (pch && tu && (*why = fatal_error(tu))) { /* parse without it */
		free(*why);
		pch->failed = true;
		nall -= 4;
		tu = parser_unit(p, tool, all, nall, &unsaved);
	}
	if (tu && p->reparsed && (*why = unit_stopped(tu))) {
		/* a reparsed unit does not repeat what stopped it (a header not
		 * found), only "too many errors": parsed afresh, it says */
		free(*why);
		parser_drop_unit(p);
		tu = parser_unit(p, tool, all, nall, &unsaved);
	}
	if (!tu) {
		*why = xasprintf("libclang cannot parse '%s'", path);
		rc = -1;
	} else if ((*why = unit_stopped(tu))) {
		/* clang says nothing after a fatal error (a header not found):
		 * the types it did not see would read as int */
		rc = -1;
	} else {
		clang.visitChildren(clang.getTranslationUnitCursor(tu), visit_source, &w);
		if (!w.have) {
			rc = 0;
		} else {
			CXSourceRange ext = clang.getCursorExtent(w.found);
			int first, last;

			location(clang.getRangeStart(ext), NULL, &first);
			read_function(w.found, fn);
			if (tool != TOOL_CC) { /* C linkage keeps the plain name */
				char *mangled = take(clang.Cursor_getMangling(w.found));

				fn->cxx_linkage = strcmp(mangled, fname) != 0;
				free(mangled);
			}
			last = fn->nparams ? fn->params[fn->nparams - 1].line : fn->line;
			*why = error_between(tu, w.file, first, last);
			if (*why) {
				cfunc_free(fn);
				rc = -1;
			}
		}
	}
	free(all);
	free(includes);
	free(source);
	free(text.s);
	free((char *)w.file);
	return rc;
}

void cparam_free(struct cparam *p)
{
	free(p->name);
	free(p->type);
	free(p->plain);
	free(p->pointee);
	free(p->spelled);
	free(p->flat);
	free(p->rows);
	free(p->cols);
	memset(p, 0, sizeof(*p));
}

void cfunc_free(struct cfunc *fn)
{
	size_t i;

	for (i = 0; i < fn->nparams; i++)
		cparam_free(&fn->params[i]);
	free(fn->params);
	free(fn->name);
	free(fn->symbol);
	free(fn->file);
	free(fn->result);
	free(fn->result_plain);
	memset(fn, 0, sizeof(*fn));
}
