/* Names that the code compose generates would take otherwise. */
#ifndef CLASH_H
#define CLASH_H

/* the entry wrapper's codelet: renamed */
int cl_sum(const int *v, int n, int cl_sum_codelet);
/* a macro of peppher.h: renamed */
int cl_neg(int PEPPHER_INITIALIZE);
/* a const result, stored in a variable */
const int cl_twice(int x);
/* cl_inc's CPU variant would be cl_inc_cpu: cl_inc is left out */
int cl_inc(int x);
int cl_inc_cpu(int x);
/* struct cl_t_args is a tag: no clash */
int cl_t(int x);
int cl_t_args(int x);

#endif
