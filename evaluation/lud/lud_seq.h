/* LUD's input generator and sequential reference (not a component). */
#ifndef LUD_SEQ_H
#define LUD_SEQ_H

/* an n x n diagonally dominant matrix: LU without pivoting is stable */
void lud_generate(float *A, int n);
/* L (unit diagonal, not stored) and U in place, unblocked */
void lud_reference(float *A, int n);

#endif
