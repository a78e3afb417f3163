#ifndef SIB_DECLS_H
#define SIB_DECLS_H
int sib_add(const sib_ctx *c, int x);
#endif
