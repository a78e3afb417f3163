/*
 * libxml2's XPath functions on a small document: built once as a plain
 * program (-DDIRECT) and once in the tree compose --generate-comp-files
 * made from libxml/xpath.h, read with -I /usr/include/libxml2 as libxml2's
 * headers need, where every call of an xpath.h function goes through
 * PEPPHER.  Both print the same lines.
 */
#include <stdio.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#ifdef DIRECT
#define PEPPHER_INITIALIZE() ((void)0)
#define PEPPHER_SHUTDOWN() ((void)0)
#else
#include "peppher.h"
#endif

static const char doc_text[] =
	"<library>"
	"<book year='1968' pages='310'><title>A</title><author>Dijkstra</author></book>"
	"<book year='1978' pages='272'><title>The C Programming Language</title><author>Kernighan</author><author>Ritchie</author></book>"
	"<book year='1994' pages='395'><title>Design Patterns</title><author>Gamma</author></book>"
	"</library>";

int main(void)
{
	static const char *const queries[] = {
		"count(//book)", "sum(//book/@pages)", "//book[@year > 1970]/title",
		"string(//book[author='Ritchie']/title)", "count(//author) div count(//book)",
	};
	xmlDocPtr doc;
	xmlXPathContextPtr ctx;
	size_t i;

	PEPPHER_INITIALIZE();
	doc = xmlReadMemory(doc_text, (int)strlen(doc_text), "library.xml", NULL, 0);
	ctx = xmlXPathNewContext(doc);
	for (i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		xmlXPathObjectPtr r = xmlXPathEvalExpression((const xmlChar *)queries[i], ctx);
		xmlChar *s = xmlXPathCastToString(r);

		printf("%s: type %d, %g, \"%s\"", queries[i], r->type, xmlXPathCastToNumber(r),
		       (const char *)s);
		if (r->type == XPATH_NODESET)
			printf(", %d nodes", xmlXPathNodeSetGetLength(r->nodesetval));
		printf("\n");
		xmlFree(s);
		xmlXPathFreeObject(r);
	}
	xmlXPathFreeContext(ctx);
	xmlFreeDoc(doc);
	PEPPHER_SHUTDOWN();
	return 0;
}
