#ifndef SIB_MORE_H
#define SIB_MORE_H
#include "sib.h"
int sib_twice(const sib_ctx *c);
#endif
