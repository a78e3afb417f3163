/* A library header with parts beside it, as curl.h and tcl.h: it ends by
 * including the headers that declare the rest of its functions. */
#ifndef SIB_H
#define SIB_H
typedef struct {
	int base;
} sib_ctx;
int sib_version(void);
/* declares functions with sib_ctx, which it does not declare itself
 * (curl's easy.h, tcl's tclDecls.h): part of sib.h */
#include "sib_decls.h"
/* includes sib.h back (curl's multi.h): part of sib.h */
#include "sib_more.h"
/* a header of its own that parses alone (lapacke.h's "lapack.h"): its
 * functions are not sib.h's */
#include "sib_alone.h"
#endif
