/* Needleman-Wunsch's input generator and sequential reference. */
#include <string.h>

#include "../common/eval.h"
#include "nw_seq.h"

#define ALPHABET 24

void nw_generate(int *score, int *ref, int n)
{
	struct eval_rng r = { 5 };
	int sim[ALPHABET][ALPHABET], a[1 << 16], b[1 << 16];
	int dim = n + 1, i, j;

	/* a substitution table in BLOSUM's spirit: matches score 4..11, others -4..3 */
	for (i = 0; i < ALPHABET; i++)
		for (j = 0; j <= i; j++)
			sim[i][j] = sim[j][i] = i == j ? 4 + (int)(eval_rand(&r) % 8)
						       : (int)(eval_rand(&r) % 8) - 4;
	for (i = 1; i <= n; i++) {
		a[i] = (int)(eval_rand(&r) % ALPHABET);
		b[i] = (int)(eval_rand(&r) % ALPHABET);
	}
	memset(score, 0, (size_t)dim * dim * sizeof(int));
	memset(ref, 0, (size_t)dim * dim * sizeof(int));
	for (i = 1; i <= n; i++)
		for (j = 1; j <= n; j++)
			ref[i * dim + j] = sim[a[i]][b[j]];
	for (i = 0; i <= n; i++) {
		score[i * dim] = -i * NW_PENALTY;
		score[i] = -i * NW_PENALTY;
	}
}

void nw_reference(int *score, const int *ref, int n)
{
	int dim = n + 1, i, j;

	for (i = 1; i <= n; i++)
		for (j = 1; j <= n; j++) {
			int m = score[(i - 1) * dim + j - 1] + ref[i * dim + j];
			int up = score[(i - 1) * dim + j] - NW_PENALTY;
			int left = score[i * dim + j - 1] - NW_PENALTY;

			m = up > m ? up : m;
			score[i * dim + j] = left > m ? left : m;
		}
}
