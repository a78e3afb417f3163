/* A program of <pcre2posix.h> calls, which it declares as pcre2_regcomp...
 * and renames with macros after; the header has no include guard. */
#include <stdio.h>
#include <pcre2posix.h>
#ifndef DIRECT
#include "peppher.h"
#endif
int main(void)
{
#ifndef DIRECT
	PEPPHER_INITIALIZE();
#endif
	regex_t re;
	regmatch_t m[2];
	int rc = regcomp(&re, "b(c+)d", REG_EXTENDED);
	printf("comp %d\n", rc);
	rc = regexec(&re, "abcccde", 2, m, 0);
	printf("exec %d %d-%d %d-%d\n", rc, (int)m[0].rm_so, (int)m[0].rm_eo, (int)m[1].rm_so, (int)m[1].rm_eo);
	regfree(&re);
#ifndef DIRECT
	PEPPHER_SHUTDOWN();
#endif
	return 0;
}
