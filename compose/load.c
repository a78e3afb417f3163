#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

#include "diag.h"
#include "load.h"
#include "util.h"

#define PEPPHER_NS "http://www.peppher.eu/ComponentMetaData0.1"

extern const char compose_schema[]; /* schemas/peppher.xsd, built in */

/* An implementation found in an interface's folder that provides another
 * interface: fine if that one is declared too, else reported at the end. */
struct stray {
	struct loc loc; /* of its providedInterface */
	char *provides, *impl, *folder_of;
};

struct loader {
	struct model *m;
	char *const *roots;
	size_t nroots;
	xmlSchemaPtr schema;
	const struct skip_files *skip; /* --disable-xml-files */
	struct stray *strays;
	size_t nstrays;
};

static const char *intern_file(struct model *m, const char *path)
{
	char *known;

	/* the nodes of one document ask in a row: try the newest first */
	if (m->nfiles && strcmp(m->files[m->nfiles - 1], path) == 0)
		return m->files[m->nfiles - 1];
	if ((known = strmap_get(&m->file_index, path)))
		return known;
	known = xstrdup(path);
	*(char **)array_push(&m->files, &m->nfiles, sizeof(char *)) = known;
	strmap_put(&m->file_index, known, known);
	return known;
}

/* libxml2 reports parse and validation errors here, in our format. */
static void xml_error(void *data, xmlErrorPtr e)
{
	struct model *m = data;
	struct loc loc = { NULL, e->line };
	char *msg, *ns;

	/* said plainly ("Memory allocation failed : growing buffer"), and
	 * without allocating: memory is what failed */
	if (e->code == XML_ERR_NO_MEMORY) {
		if (e->file)
			diag_error(NULL, "out of memory reading '%s'", e->file);
		else
			diag_error(NULL, "out of memory reading a descriptor");
		return;
	}
	msg = normalize_space(e->message ? e->message : "invalid XML");

	/* schema messages spell names "{namespace}local": say "peppher:local" */
	while ((ns = strstr(msg, "{" PEPPHER_NS "}"))) {
		size_t skip = strlen("{" PEPPHER_NS "}");

		memcpy(ns, "peppher:", 8);
		memmove(ns + 8, ns + skip, strlen(ns + skip) + 1);
	}

	if (e->file)
		loc.file = intern_file(m, e->file);
	if (loc.line <= 0 && e->node)
		loc.line = (int)xmlGetLineNo((xmlNodePtr)e->node);
	if (e->level == XML_ERR_WARNING)
		diag_warning(&loc, "%s", msg);
	else
		diag_error(&loc, "%s", msg);
	free(msg);
}

static bool is_elem(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->ns &&
	       strcmp((const char *)n->ns->href, PEPPHER_NS) == 0 &&
	       strcmp((const char *)n->name, name) == 0;
}

static xmlNode *first_child(const xmlNode *n, const char *name)
{
	xmlNode *c;

	for (c = n ? n->children : NULL; c; c = c->next)
		if (is_elem(c, name))
			return c;
	return NULL;
}

static xmlNode *next_sibling(const xmlNode *n, const char *name)
{
	for (n = n->next; n; n = n->next)
		if (is_elem(n, name))
			return (xmlNode *)n;
	return NULL;
}

/* s without the white space around it, as a fresh string. */
static char *trimmed(const char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	len = strlen(s);
	while (len && strchr(" \t\n\r", s[len - 1]))
		len--;
	return xasprintf("%.*s", (int)len, s);
}

/* Attribute value as a fresh string, or NULL when absent.  ComPU's
 * templates write values with spaces around them (name=" NAME "). */
static char *attr(const xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *s;

	if (!v)
		return NULL;
	s = trimmed((const char *)v);
	xmlFree(v);
	return s;
}

/* The trimmed text of n's first child element called name, or NULL when
 * there is none or it holds nothing. */
static char *child_text(const xmlNode *n, const char *name)
{
	xmlNode *c = first_child(n, name);
	xmlChar *v = c ? xmlNodeGetContent(c) : NULL;
	char *s = NULL;

	if (v) {
		s = trimmed((const char *)v);
		if (!s[0]) {
			free(s);
			s = NULL;
		}
		xmlFree(v);
	}
	return s;
}

static bool attr_bool(const xmlNode *n, const char *name)
{
	char *v = attr(n, name);
	bool b = v && (strcasecmp(v, "true") == 0 || strcmp(v, "1") == 0);

	free(v);
	return b;
}

static struct loc node_loc(struct loader *l, const xmlNode *n)
{
	struct loc loc = { intern_file(l->m, (const char *)n->doc->URL),
			   (int)xmlGetLineNo((xmlNode *)n) };
	return loc;
}

/* The first error parsing the built-in schema, and whether any was a
 * lack of memory.  Kept without allocating: memory may be what failed. */
struct schema_errors {
	bool no_memory;
	int line;
	char first[256];
};

/* libxml2's unstructured messages ("Cannot create automata ..."): the
 * structured error, or the lack of one, says what failed */
static void schema_generic_error(void *data, const char *fmt, ...)
{
	(void)data;
	(void)fmt;
}

static void schema_error(void *data, xmlErrorPtr e)
{
	struct schema_errors *se = data;

	if (e->code == XML_ERR_NO_MEMORY)
		se->no_memory = true;
	else if (!se->first[0])
		snprintf(se->first, sizeof(se->first), "%s",
			 e->message ? e->message : "unknown error");
	if (!se->line)
		se->line = e->line;
}

/* The built-in schema, or NULL with se saying why.  One parsed with
 * errors is not used: it would refuse valid descriptors. */
static xmlSchemaPtr schema_parse(struct schema_errors *se)
{
	xmlSchemaParserCtxtPtr pc;
	xmlSchemaPtr schema;

	memset(se, 0, sizeof(*se));
	xmlSetStructuredErrorFunc(se, schema_error);
	xmlSetGenericErrorFunc(NULL, schema_generic_error);
	pc = xmlSchemaNewMemParserCtxt(compose_schema, (int)strlen(compose_schema));
	if (!pc)
		se->no_memory = true; /* it allocates, and reads nothing yet */
	schema = pc ? xmlSchemaParse(pc) : NULL;
	xmlSchemaFreeParserCtxt(pc);
	xmlSetGenericErrorFunc(NULL, NULL);
	if (schema && (se->no_memory || se->first[0])) {
		xmlSchemaFree(schema);
		schema = NULL;
	}
	return schema;
}

/*
 * The schema is compose's own text, which the same libxml2 parses the
 * same way every time, but for memory that runs out: libxml2 says so, or
 * the allocation it lost makes the schema look wrong ("The value '(null)'
 * is not valid", types that "do not resolve").  So a failure without word
 * of memory is tried again: the same error twice is the schema's (a
 * libxml2 that refuses it), anything else memory's.
 */
static xmlSchemaPtr schema_load(struct model *m)
{
	struct schema_errors se, again;
	xmlSchemaPtr schema = schema_parse(&se);

	if (!schema && !se.no_memory) {
		schema = schema_parse(&again);
		se.no_memory = again.no_memory || again.line != se.line ||
			       strcmp(again.first, se.first) != 0;
	}
	xmlSetStructuredErrorFunc(m, xml_error);
	if (schema)
		return schema;
	if (se.no_memory)
		diag_error(NULL, "out of memory reading the built-in descriptor schema");
	else
		diag_error(NULL, "the built-in descriptor schema is invalid: line %d: %s",
			   se.line, se.first);
	return NULL;
}

/*
 * A descriptor never needs a DOCTYPE; refusing it outright keeps entity
 * expansion bombs and external entities out, whatever libxml2's own limits.
 */
struct parse_state {
	struct model *m;
	int refused; /* later errors are consequences: stay quiet */
};

static void refuse_doctype(void *ctx, const xmlChar *name, const xmlChar *public_id,
			   const xmlChar *system_id)
{
	xmlParserCtxtPtr ctxt = ctx;
	struct parse_state *st = ctxt->_private;
	struct loc loc = { intern_file(st->m, ctxt->input->filename), ctxt->input->line };

	(void)name;
	(void)public_id;
	(void)system_id;
	diag_error(&loc, "DOCTYPE declarations (DTDs, entities) are not allowed in descriptors");
	st->refused = 1;
	xmlStopParser(ctxt);
}

static void parse_error(void *data, xmlErrorPtr e)
{
	struct parse_state *st = data;

	if (!st->refused)
		xml_error(st->m, e);
}

/* The contents of the regular file path in *text (malloc'ed) and *len:
 * 0, -1 if it is no regular file, or an errno. */
static int read_regular_file(const char *path, char **text, size_t *len)
{
	struct stat st;
	size_t size;
	ssize_t n = 0;
	/* O_NONBLOCK: opening a FIFO would wait for a writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc = 0;

	if (fd < 0)
		return errno;
	if (fstat(fd, &st) != 0)
		rc = errno;
	else if (!S_ISREG(st.st_mode))
		rc = -1;
	if (rc) {
		close(fd);
		return rc;
	}
	size = (size_t)st.st_size; /* what it holds now: a snapshot */
	*text = xrealloc(NULL, size + 1, 1);
	*len = 0;
	while (*len < size && (n = read(fd, *text + *len, size - *len)) > 0)
		*len += (size_t)n;
	if (n < 0) {
		rc = errno;
		free(*text);
	}
	close(fd);
	return rc;
}

/* Parse text, the contents of the file path (diagnostics name it). */
static xmlDoc *parse_text(struct model *m, const char *path, const char *text, size_t len)
{
	struct parse_state st = { m, 0 };
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	xmlDoc *doc;

	if (!ctxt)
		return NULL;
	ctxt->_private = &st;
	ctxt->sax->internalSubset = refuse_doctype;
	xmlSetStructuredErrorFunc(&st, parse_error);
	doc = xmlCtxtReadMemory(ctxt, text, (int)len, path, NULL,
				XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	xmlSetStructuredErrorFunc(m, xml_error);
	if (doc && (!ctxt->wellFormed || st.refused)) {
		xmlFreeDoc(doc);
		doc = NULL;
	}
	if (doc) { /* libxml2 keeps path URI-escaped ("a%20b"): keep the path itself */
		xmlFree((xmlChar *)doc->URL);
		doc->URL = xmlStrdup((const xmlChar *)path);
	}
	xmlFreeParserCtxt(ctxt);
	return doc;
}

/*
 * Text that is only white space goes before validation: descriptors as
 * ComPU writes them hold line breaks in elements the schema declares empty
 * (<peppher:targetPlatform name="CPU"> </peppher:targetPlatform>).
 */
static void drop_blank_text(xmlNode *n)
{
	xmlNode *c, *next;

	for (c = n ? n->children : NULL; c; c = next) {
		next = c->next;
		if (c->type == XML_TEXT_NODE && xmlIsBlankNode(c)) {
			xmlUnlinkNode(c);
			xmlFreeNode(c);
		} else if (c->type == XML_ELEMENT_NODE) {
			drop_blank_text(c);
		}
	}
}

/*
 * Parse and validate one descriptor.  External entities, DTDs and network
 * access stay off: a descriptor is data, never a way to read other files.
 * A descriptor that parses but is invalid is returned all the same (its
 * errors are counted, so nothing gets generated): the files it leads to
 * are read too, and their errors reported in the same run.
 */
static xmlDoc *read_descriptor(struct loader *l, const char *path,
			       const struct loc *from)
{
	unsigned errors = diag_error_count();
	xmlSchemaValidCtxtPtr vc;
	xmlDoc *doc;
	size_t len = 0;
	char *text = NULL;
	int rc;

	/* read here: libxml2's own reading stats a file three times, and
	 * repositories have thousands of descriptors */
	if ((rc = read_regular_file(path, &text, &len)) != 0) {
		diag_error(from, "cannot read descriptor '%s': %s", path,
			   rc == -1 ? "not a regular file" : strerror(rc));
		return NULL;
	}
	diag_verbose(2, "reading %s", path);
	intern_file(l->m, path);
	doc = parse_text(l->m, path, text, len);
	free(text);
	if (!doc) {
		if (diag_error_count() == errors)
			diag_error(from, "cannot parse descriptor '%s'", path);
		return NULL;
	}
	drop_blank_text(xmlDocGetRootElement(doc));
	vc = xmlSchemaNewValidCtxt(l->schema);
	xmlSchemaSetValidStructuredErrors(vc, xml_error, l->m);
	xmlSchemaValidateDoc(vc, doc);
	xmlSchemaFreeValidCtxt(vc);
	return doc;
}

/*
 * Without a compiler, the language (attribute, else extension) decides.
 * A compiler named nvcc compiles CUDA, one whose name ends in ++ C++, and
 * any other (gcc, cc, clang, icc) the source's language, C or C++: gcc
 * compiles a .cpp as C++, which then needs $(CXXFLAGS) and libstdc++ at
 * the link (it was compiled with $(CC) $(CFLAGS), and a program linked by
 * $(CC) missed operator delete).
 */
static enum toolchain toolchain_of(const char *compiler, const char *language,
				   const char *file)
{
	const char *ext = strrchr(file, '.');
	enum toolchain by_language = TOOL_CC;

	if (language && strcasecmp(language, "CUDA") == 0)
		by_language = TOOL_NVCC;
	else if (language && strcasecmp(language, "C++") == 0)
		by_language = TOOL_CXX;
	else if (ext && strcmp(ext, ".cu") == 0)
		by_language = TOOL_NVCC;
	else if (ext && (strcmp(ext, ".cpp") == 0 || strcmp(ext, ".cc") == 0 ||
			 strcmp(ext, ".cxx") == 0 || strcmp(ext, ".C") == 0))
		by_language = TOOL_CXX;
	if (compiler) {
		const char *base = path_basename(compiler);
		size_t len = strlen(base);

		if (strstr(base, "nvcc"))
			return TOOL_NVCC;
		if (len >= 2 && strcmp(base + len - 2, "++") == 0)
			return TOOL_CXX;
		return by_language == TOOL_CXX ? TOOL_CXX : TOOL_CC;
	}
	return by_language;
}

/* <peppher:compiler> holds <name>, <version>, <flags> and <output>. */
static void parse_compiler(struct loader *l, const xmlNode *n,
			   struct compiler *c)
{
	c->loc = node_loc(l, n);
	if (xmlHasProp(n, (const xmlChar *)"name") || xmlHasProp(n, (const xmlChar *)"flags") ||
	    xmlHasProp(n, (const xmlChar *)"output")) /* the schema error came first */
		diag_note(&c->loc, "a compiler's name, flags and output are child elements: <peppher:compiler><peppher:name>gcc</peppher:name><peppher:flags>-O2</peppher:flags></peppher:compiler>");
	c->name = child_text(n, "name");
	c->flags = child_text(n, "flags");
	c->output = child_text(n, "output");
}

/* ComPU's OpenCL variants name, on their host source, the globals through
 * which they receive the kernel and the queue. */
static void parse_opencl_names(struct impl *impl, const xmlNode *n)
{
	static const char *const attrs[] = { "cl_kernel", "cl_command_queue",
					     "starpu_opencl_program" };
	char **vars[] = { &impl->cl_kernel_var, &impl->cl_queue_var, &impl->cl_program_var };
	size_t i;

	for (i = 0; i < 3; i++) {
		char *v = attr(n, attrs[i]);

		if (v && !*vars[i])
			*vars[i] = v;
		else
			free(v);
	}
}

static void parse_compilers(struct loader *l, struct impl *impl,
			    struct source_file *sf, const xmlNode *comp)
{
	xmlNode *c;

	for (c = first_child(comp, "compiler"); c; c = next_sibling(c, "compiler")) {
		struct loc loc = node_loc(l, c);
		char *type = attr(c, "type");

		if (type && strcmp(type, "link") == 0) {
			if (impl->has_link)
				diag_error(&loc, "second link step (the first is at line %d)",
					   impl->link.loc.line);
			else
				parse_compiler(l, c, &impl->link);
			impl->has_link = true;
		} else if (!sf) {
			diag_error(&loc, "a source file without a name holds only the link step (<peppher:compiler type=\"link\">)");
		} else if (sf->compile.loc.file) {
			diag_error(&loc, "second compile step for '%s'", sf->name);
		} else {
			parse_compiler(l, c, &sf->compile);
		}
		free(type);
	}
}

static void parse_source(struct loader *l, struct impl *impl, const xmlNode *n)
{
	struct source_file *sf = NULL;
	char *name = attr(n, "name"), *language = attr(n, "language");
	xmlNode *comp;

	if (name && name[0]) {
		sf = array_push(&impl->sources, &impl->nsources, sizeof(*sf));
		sf->loc = node_loc(l, n);
		sf->name = name;
		sf->path = path_join(impl->dir, name);
		sf->kernel = attr(n, "kernel");
		name = NULL;
	}
	free(name);
	parse_opencl_names(impl, n);
	for (comp = first_child(n, "compilation"); comp;
	     comp = next_sibling(comp, "compilation")) {
		if (!language)
			language = child_text(comp, "language");
		parse_compilers(l, impl, sf, comp);
	}
	if (sf)
		sf->tool = toolchain_of(sf->compile.name, language, sf->name);
	free(language);
}

/* Platform names in any case: ComPU writes OpenCL, Cuda, OpenMP. */
static bool platform_of(const char *name, enum platform *p)
{
	static const char *const names[] = { "CPU", "OPENMP", "CUDA", "OPENCL" };
	int i;

	for (i = 0; i < 4; i++)
		if (strcasecmp(name, names[i]) == 0) {
			*p = (enum platform)i;
			return true;
		}
	return false;
}

static void parse_constraints(struct loader *l, struct impl *impl, const xmlNode *n)
{
	xmlNode *c;

	for (c = first_child(n, "constraint"); c; c = next_sibling(c, "constraint")) {
		struct constraint *k = array_push(&impl->constraints, &impl->nconstraints,
						  sizeof(*k));
		char *type = attr(c, "type");

		k->loc = node_loc(l, c);
		k->name = attr(c, "name");
		k->text = attr(c, "expr");
		k->dynamic = type && strcmp(type, "dynamic") == 0;
		free(type);
	}
}

static struct impl *parse_impl(struct loader *l, const xmlNode *n)
{
	struct impl *impl = xcalloc(1, sizeof(*impl));
	xmlNode *c;

	impl->loc = node_loc(l, n);
	impl->name = attr(n, "name");
	impl->dir = path_dirname((const char *)n->doc->URL);
	impl->disabled = attr_bool(n, "disable");
	impl->caller_thread = attr_bool(n, "callerThread");
	for (c = first_child(first_child(n, "sourceFiles"), "sourceFile"); c;
	     c = next_sibling(c, "sourceFile"))
		parse_source(l, impl, c);
	impl_set_backend(impl);
	c = first_child(first_child(n, "providedInterfaces"),
			"providedInterface");
	if (c) {
		impl->provides = attr(c, "name");
		impl->provides_loc = node_loc(l, c);
		if (next_sibling(c, "providedInterface")) {
			struct loc loc = node_loc(l, next_sibling(c, "providedInterface"));

			diag_error(&loc, "implementation '%s' provides more than one interface",
				   impl->name);
		}
	}
	for (c = first_child(first_child(n, "requiredInterfaces"),
			     "requiredInterface");
	     c; c = next_sibling(c, "requiredInterface")) {
		struct required *r = array_push(&impl->requires,
						&impl->nrequires, sizeof(*r));
		r->loc = node_loc(l, c);
		r->name = attr(c, "name");
		r->xml_file = attr(c, "xmlFile");
		r->template_args = attr(c, "templateArgs");
		r->partition = attr(c, "partition");
	}
	c = first_child(n, "targetPlatform");
	if (c) {
		char *p = attr(c, "name");

		if (p && !platform_of(p, &impl->platform)) {
			struct loc loc = node_loc(l, c);

			diag_error(&loc, "unknown target platform '%s' (expected CPU, OpenMP, CUDA or OpenCL, in any case)",
				   p);
		}
		free(p);
		/* ComPU's hardware constraints: static ones, on the machine */
		parse_constraints(l, impl, first_child(c, "hardwareConstraints"));
	}
	parse_constraints(l, impl, first_child(n, "constraints"));
	return impl;
}

static void parse_params(struct loader *l, struct iface *ifc, const xmlNode *n)
{
	xmlNode *c;

	for (c = first_child(first_child(n, "parameters"), "parameter"); c;
	     c = next_sibling(c, "parameter")) {
		struct param *p = array_push(&ifc->params, &ifc->nparams,
					     sizeof(*p));
		char *type = attr(c, "type"), *mode = attr(c, "accessMode");

		p->loc = node_loc(l, c);
		p->name = attr(c, "name");
		p->type = type ? normalize_type(type) : NULL;
		p->elem_type = attr(c, "elemType");
		p->num_elements = attr(c, "numElements");
		p->partition = attr(c, "partition");
		p->by_value = attr_bool(c, "byValue");
		/* an invalid descriptor is read too: its errors are counted */
		p->access = !mode ? ACCESS_READWRITE :
			    strcmp(mode, "read") == 0 ? ACCESS_READ :
			    strcmp(mode, "write") == 0 ? ACCESS_WRITE :
			    strcmp(mode, "reduction") == 0 ? ACCESS_REDUCTION :
							ACCESS_READWRITE;
		p->reduction = attr(c, "reduction");
		p->reduction_identity = attr(c, "reductionIdentity");
		p->buffer = -1;
		p->size_of = -1;
		free(type);
		free(mode);
	}
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.xml file under dir, recursively, sorted: output must not depend
 * on the order readdir happens to return.  A folder that cannot be read
 * is an error at loc (the interface's): skipped, its variants would be
 * missing from the program without a word. */
static void find_xml_files(const char *dir, const struct loc *loc, char ***files, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = *n;

	if (!d) {
		diag_error(loc, "cannot read folder '%s': %s", dir, strerror(errno));
		return;
	}
	for (errno = 0; (e = readdir(d)); errno = 0) {
		char *path;
		struct stat st;
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		path = path_join(dir, e->d_name);
		/* d_type saves a stat per entry where the file system gives it */
		if (e->d_type == DT_DIR ||
		    (e->d_type == DT_UNKNOWN && stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
			find_xml_files(path, loc, files, n);
			free(path);
		} else if (len > 4 && strcmp(e->d_name + len - 4, ".xml") == 0) {
			*(char **)array_push(files, n, sizeof(char *)) = path;
		} else {
			free(path);
		}
	}
	if (errno)
		diag_error(loc, "cannot read folder '%s': %s", dir, strerror(errno));
	closedir(d);
	if (*n > first) /* an empty folder: *files may still be NULL */
		qsort(*files + first, *n - first, sizeof(char *), compare_strings);
}

static struct iface *load_iface(struct loader *l, const char *path,
				const char *name, const struct loc *from);

static void load_requires(struct loader *l, struct impl *impl);

/* Read the implementations of ifc found under its implementation folder. */
static void load_impls(struct loader *l, struct iface *ifc, const char *dir)
{
	char **files = NULL;
	size_t nfiles = 0, i;

	find_xml_files(dir, &ifc->loc, &files, &nfiles);
	for (i = 0; i < nfiles; i++) {
		xmlDoc *doc;
		xmlNode *root, *c;

		if (skip_files_has(l->skip, files[i])) {
			diag_verbose(1, "%s: not read (--disable-xml-files)", files[i]);
			free(files[i]);
			continue;
		}
		doc = read_descriptor(l, files[i], &ifc->loc);
		root = doc ? xmlDocGetRootElement(doc) : NULL;

		for (c = first_child(root, "implementation"); c;
		     c = next_sibling(c, "implementation")) {
			struct impl *impl = parse_impl(l, c);

			if (!impl->provides) {
				diag_error(&impl->loc, "implementation '%s' provides no interface (add <peppher:providedInterfaces>)",
					   impl->name ? impl->name : "");
				model_free_impl(impl);
				continue;
			}
			if (strcmp(impl->provides, ifc->name)) {
				struct stray *st = array_push(&l->strays, &l->nstrays, sizeof(*st));

				diag_verbose(1, "%s: '%s' does not provide '%s'; ignored",
					     files[i], impl->name, ifc->name);
				st->loc = impl->provides_loc;
				st->provides = xstrdup(impl->provides);
				st->impl = xstrdup(impl->name ? impl->name : "");
				st->folder_of = xstrdup(ifc->name);
				model_free_impl(impl);
				continue;
			}
			impl->iface = ifc;
			*(struct impl **)array_push(&ifc->impls, &ifc->nimpls,
						    sizeof(impl)) = impl;
		}
		xmlFreeDoc(doc);
		free(files[i]);
	}
	free(files);
	for (i = 0; i < ifc->nimpls; i++)
		load_requires(l, ifc->impls[i]);
}

/* Is the folder sub (resolved) inside the folder tree of dir (resolved)? */
static bool is_below(const char *dir, const char *sub)
{
	char *rd = realpath(dir, NULL), *rs = realpath(sub, NULL);
	size_t n = rd ? strlen(rd) : 0;
	bool below = rd && rs && strncmp(rd, rs, n) == 0 &&
		     (rs[n] == '/' || rs[n] == '\0' || strcmp(rd, "/") == 0);

	free(rd);
	free(rs);
	return below;
}

static bool uses_bool(const struct iface *ifc)
{
	size_t i;

	if (ifc->return_type && type_has_word(ifc->return_type, "bool"))
		return true;
	for (i = 0; i < ifc->nparams; i++)
		if (ifc->params[i].type && type_has_word(ifc->params[i].type, "bool"))
			return true;
	return false;
}

static struct iface *parse_iface(struct loader *l, const xmlNode *n,
				 const char *path)
{
	struct iface *ifc = xcalloc(1, sizeof(*ifc));
	char *imp_path = attr(n, "impPath");
	char *dir = path_dirname(path);
	struct stat st;
	char *impl_dir;

	ifc->loc = node_loc(l, n);
	ifc->name = attr(n, "name");
	ifc->path = xstrdup(path);
	{
		char *kind = attr(n, "kind");

		if (kind && strcmp(kind, "generic") == 0) {
			ifc->template_type = attr(n, "templateTypes");
			if (!ifc->template_type || !is_c_identifier(ifc->template_type))
				diag_error(&ifc->loc, "generic interface '%s' needs templateTypes, one type parameter name",
					   ifc->name);
		}
		free(kind);
	}
	{
		char *ret = attr(n, "returnType"), *inc = attr(n, "include");

		if (ret && strcmp(ret, "void") != 0)
			ifc->return_type = normalize_result_type(ret);
		if (inc) {
			char *save = NULL, *tok;

			for (tok = strtok_r(inc, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				*(char **)array_push(&ifc->includes, &ifc->nincludes,
						     sizeof(char *)) = normalize_space(tok);
		}
		free(ret);
		free(inc);
	}
	{
		static const char *const attrs[] = { "useHistoryModels", "useRegressionModels",
						     "useNLRegressionModels" };
		unsigned k;

		for (k = 0; k < 3; k++) {
			if (!attr_bool(n, attrs[k]))
				continue;
			if (ifc->model)
				diag_error(&ifc->loc, "interface '%s' asks for more than one kind of performance model",
					   ifc->name);
			ifc->model = (enum model_kind)(MODEL_HISTORY + k);
		}
	}
	ifc->work_size = attr(n, "workSize");
	/* disableCPU also covers OpenMP variants: both run on the CPU cores */
	if (attr_bool(n, "disableCPU"))
		ifc->disabled_platforms |= 1u << PLATFORM_CPU | 1u << PLATFORM_OPENMP;
	if (attr_bool(n, "disableCUDA"))
		ifc->disabled_platforms |= 1u << PLATFORM_CUDA;
	if (attr_bool(n, "disableOpenCL"))
		ifc->disabled_platforms |= 1u << PLATFORM_OPENCL;
	ifc->wrap = attr_bool(n, "wrap");
	ifc->symbol = attr(n, "symbol");
	parse_params(l, ifc, n);
	if (uses_bool(ifc)) /* C's bool is a macro of <stdbool.h> */
		*(char **)array_push(&ifc->includes, &ifc->nincludes, sizeof(char *)) =
			xstrdup("<stdbool.h>");
	impl_dir = path_join(dir, imp_path ? imp_path : ifc->name);
	*(struct iface **)array_push(&l->m->ifaces, &l->m->nifaces,
				     sizeof(ifc)) = ifc;
	if (stat(impl_dir, &st) != 0 || !S_ISDIR(st.st_mode))
		diag_error(&ifc->loc, "implementation folder '%s' of interface '%s' not found",
			   impl_dir, ifc->name);
	else if (!is_below(dir, impl_dir)) /* impPath="/" read the whole file system */
		diag_error(&ifc->loc, "implementation folder '%s' of interface '%s' is outside the interface's folder '%s'",
			   impl_dir, ifc->name, dir);
	else
		load_impls(l, ifc, impl_dir);
	free(impl_dir);
	free(imp_path);
	free(dir);
	return ifc;
}

static struct iface *load_iface(struct loader *l, const char *path,
				const char *name, const struct loc *from)
{
	struct iface *ifc = model_find_iface(l->m, name);
	xmlDoc *doc;
	xmlNode *n;

	if (ifc)
		return ifc;
	doc = read_descriptor(l, path, from);
	if (!doc)
		return NULL;
	n = first_child(xmlDocGetRootElement(doc), "interface");
	if (!n) {
		struct loc loc = node_loc(l, xmlDocGetRootElement(doc));

		diag_error(&loc, "expected an interface descriptor for '%s'", name);
	} else {
		char *declared = attr(n, "name");

		if (!declared) {
			free(declared); /* no name: the schema error says so */
		} else if (strcmp(declared, name) != 0) {
			struct loc loc = node_loc(l, n);

			diag_error(&loc, "interface is named '%s' but was required as '%s'",
				   declared, name);
			diag_note(from, "required here");
		} else {
			ifc = parse_iface(l, n, path);
		}
		free(declared);
	}
	xmlFreeDoc(doc);
	return ifc;
}

/* Where an interface descriptor is when @xmlFile does not say. */
static char *find_in_roots(struct loader *l, const char *dir, const char *name)
{
	size_t i;

	for (i = 0; i <= l->nroots; i++) {
		const char *root = i == 0 ? dir : l->roots[i - 1];
		char *flat = xasprintf("%s/%s.xml", root, name);
		char *nested = xasprintf("%s/%s/%s.xml", root, name, name);
		struct stat st;

		if (stat(flat, &st) == 0) {
			free(nested);
			return flat;
		}
		free(flat);
		if (stat(nested, &st) == 0)
			return nested;
		free(nested);
	}
	return NULL;
}

static void load_requires(struct loader *l, struct impl *impl)
{
	size_t i;

	for (i = 0; i < impl->nrequires; i++) {
		struct required *r = &impl->requires[i];
		char *path;

		if (!r->name)
			continue; /* invalid: the schema error says so */
		if (r->xml_file)
			path = path_join(impl->dir, r->xml_file);
		else
			path = find_in_roots(l, impl->dir, r->name);
		if (!path) {
			if (!model_find_iface(l->m, r->name))
				diag_error(&r->loc, "interface '%s' not found in the repository",
					   r->name);
			r->iface = model_find_iface(l->m, r->name);
			continue;
		}
		r->iface = load_iface(l, path, r->name, &r->loc);
		free(path);
	}
}

/* Implementations that provide an interface no one declares: a misspelt
 * name would otherwise drop them without a word. */
static void report_strays(struct loader *l)
{
	size_t i, j;

	for (i = 0; i < l->nstrays; i++) {
		struct stray *st = &l->strays[i];
		const char *best = NULL;
		unsigned best_d = 0;

		if (!model_find_iface(l->m, st->provides)) {
			for (j = 0; j < l->m->nifaces; j++) {
				unsigned d = edit_distance(st->provides, l->m->ifaces[j]->name);

				if (!best || d < best_d) {
					best = l->m->ifaces[j]->name;
					best_d = d;
				}
			}
			if (best && best_d <= 2 + strlen(best) / 4)
				diag_error(&st->loc, "implementation '%s' provides '%s', which no descriptor declares; did you mean '%s'?",
					   st->impl, st->provides, best);
			else
				diag_error(&st->loc, "implementation '%s' provides '%s', which no descriptor declares (it is in the folder of '%s')",
					   st->impl, st->provides, st->folder_of);
		}
		free(st->provides);
		free(st->impl);
		free(st->folder_of);
	}
	free(l->strays);
	l->strays = NULL;
	l->nstrays = 0;
}

unsigned load_model(struct model *m, const char *main_path,
		    char *const *roots, size_t nroots, const struct skip_files *skip)
{
	struct loader l = { m, roots, nroots, NULL, skip, NULL, 0 };
	unsigned errors = diag_error_count();
	xmlDoc *doc;
	xmlNode *n;

	m->main_path = xstrdup(main_path);
	xmlSetStructuredErrorFunc(m, xml_error);
	l.schema = schema_load(m);
	if (!l.schema)
		goto out;
	doc = read_descriptor(&l, main_path, NULL);
	if (!doc)
		goto out;
	for (n = first_child(xmlDocGetRootElement(doc), "implementation"); n;
	     n = next_sibling(n, "implementation")) {
		char *name = attr(n, "name");

		if (name && strcmp(name, "main") == 0 && !m->main)
			m->main = parse_impl(&l, n);
		free(name);
	}
	if (!m->main) {
		struct loc loc = node_loc(&l, xmlDocGetRootElement(doc));

		diag_error(&loc, "no implementation named 'main' in the main descriptor");
	}
	xmlFreeDoc(doc);
	if (m->main)
		load_requires(&l, m->main);
	report_strays(&l);
out:
	xmlSchemaFree(l.schema);
	xmlSetStructuredErrorFunc(NULL, NULL);
	return diag_error_count() - errors;
}

unsigned load_platform(struct model *m, const char *path)
{
	struct loader l = { m, NULL, 0, NULL, NULL, NULL, 0 };
	unsigned errors = diag_error_count();
	xmlNode *root, *c;
	xmlDoc *doc;

	xmlSetStructuredErrorFunc(m, xml_error);
	l.schema = schema_load(m);
	doc = l.schema ? read_descriptor(&l, path, NULL) : NULL;
	if (doc && diag_error_count() != errors) { /* invalid: read no facts */
		xmlFreeDoc(doc);
		doc = NULL;
	}
	root = doc ? xmlDocGetRootElement(doc) : NULL;
	if (doc && !first_child(root, "platform")) {
		struct loc loc = node_loc(&l, root);

		diag_error(&loc, "'%s' is not a platform description (<peppher:platform>)", path);
	}
	c = doc ? first_child(root, "platform") : NULL;
	for (c = c ? c->children : NULL; c; c = c->next) {
		struct fact *f;
		char *name, *value;

		if (!is_elem(c, "fact") && !is_elem(c, "library"))
			continue;
		f = array_push(&m->facts, &m->nfacts, sizeof(*f));
		f->loc = node_loc(&l, c);
		name = attr(c, "name");
		value = attr(c, "value");
		if (is_elem(c, "library")) {
			f->name = xasprintf("has_lib_%s", name);
			f->value = 1;
		} else {
			f->name = xstrdup(name);
			f->value = strtod(value, NULL);
		}
		if (!is_c_identifier(f->name))
			diag_error(&f->loc, "fact '%s' is not a valid name", f->name);
		free(name);
		free(value);
	}
	if (doc)
		xmlFreeDoc(doc);
	if (l.schema)
		xmlSchemaFree(l.schema);
	return diag_error_count() - errors;
}
