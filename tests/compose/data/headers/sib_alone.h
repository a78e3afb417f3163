#ifndef SIB_ALONE_H
#define SIB_ALONE_H
int sib_alone_square(int x);
#endif
