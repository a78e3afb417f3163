#ifndef SIBS_CORE_H
#define SIBS_CORE_H
sibs_int sibs_core(sibs_int x);
#endif
