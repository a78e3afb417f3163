/* The blocks of one anti-diagonal, one after the other, each row by row. */
#define B 16

void nw_cpu(int *score, const int *ref, int dim, int diag, int penalty)
{
	int nb = (dim - 1) / B, bi;
	int first = diag < nb ? 0 : diag - nb + 1, last = diag < nb ? diag : nb - 1;

	for (bi = first; bi <= last; bi++) {
		int bj = diag - bi, i, j;

		for (i = bi * B + 1; i <= bi * B + B; i++)
			for (j = bj * B + 1; j <= bj * B + B; j++) {
				int m = score[(i - 1) * dim + j - 1] + ref[i * dim + j];
				int up = score[(i - 1) * dim + j] - penalty;
				int left = score[i * dim + j - 1] - penalty;

				m = up > m ? up : m;
				score[i * dim + j] = left > m ? left : m;
			}
	}
}
