/*
 * --disable-xml-files (ComPU's -disableXMLFiles): implementation descriptor
 * files compose does not read, by file name.
 */
#ifndef COMPOSE_SKIPFILES_H
#define COMPOSE_SKIPFILES_H

#include <stdbool.h>
#include <stddef.h>

struct skip_files {
	char **names; /* file names, each ending in .xml */
	size_t n;
};

/*
 * Add the comma-separated file names in list; a name without extension
 * gets ".xml".  A path, or a name with another extension, is reported.
 * Returns 0, or -1 when something was reported.
 */
int skip_files_add(struct skip_files *s, const char *list);

/* Is the file at path one of them?  File names compare in any case, as
 * ComPU compared them.  s may be NULL (nothing is skipped). */
bool skip_files_has(const struct skip_files *s, const char *path);

void skip_files_free(struct skip_files *s);

#endif
