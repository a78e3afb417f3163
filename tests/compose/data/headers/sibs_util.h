#ifndef SIBS_UTIL_H
#define SIBS_UTIL_H
int sibs_util(int x);
#endif
