#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diag.h"
#include "skipfiles.h"
#include "util.h"

static char *descriptor_name(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (strchr(name, '/')) {
		diag_error(NULL, "--disable-xml-files: '%s' is a path; give descriptor file names", name);
		return NULL;
	}
	if (!dot)
		return xasprintf("%s.xml", name);
	if (strcasecmp(dot, ".xml") != 0) {
		diag_error(NULL, "--disable-xml-files: '%s' is not a descriptor file name (NAME or NAME.xml)",
			   name);
		return NULL;
	}
	return xstrdup(name);
}

int skip_files_add(struct skip_files *s, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *trimmed = normalize_space(tok), *name;

		name = trimmed[0] ? descriptor_name(trimmed) : NULL;
		if (name)
			*(char **)array_push(&s->names, &s->n, sizeof(char *)) = name;
		else if (trimmed[0])
			rc = -1;
		free(trimmed);
	}
	free(copy);
	return rc;
}

bool skip_files_has(const struct skip_files *s, const char *path)
{
	const char *base = path_basename(path);
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (strcasecmp(s->names[i], base) == 0)
			return true;
	return false;
}

void skip_files_free(struct skip_files *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	s->names = NULL;
	s->n = 0;
}
