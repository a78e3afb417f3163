/* SGEMM's input generator and sequential reference (not a component). */
#ifndef SGEMM_SEQ_H
#define SGEMM_SEQ_H

/* an n x n matrix of values in [-1/2, 1/2), the same for a seed everywhere */
void sgemm_generate(float *m, int n, unsigned seed);
/* C = alpha A B + beta C for n x n row-major matrices, summed in double */
void sgemm_reference(int n, float alpha, const float *A, const float *B, float beta, float *C);

#endif
