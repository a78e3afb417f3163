/* A header that needs a definition from its includer, as pcre2.h needs
 * PCRE2_CODE_UNIT_WIDTH. */
#ifndef NEEDS_WIDTH
#error NEEDS_WIDTH must be defined before including needs_define.h
#endif

int nd_width(int x);
int nd_height(int x);
