/* PathFinder rows row0+1 .. row0+height, one after the other. */
#include <stdlib.h>
#include <string.h>

void pathfinder_cpu(const int *wall, const int *src, int *dst, int rows, int cols, int row0,
		    int height)
{
	int *prev = malloc((size_t)cols * sizeof(*prev));
	int r, j;

	(void)rows;
	memcpy(dst, src, (size_t)cols * sizeof(*dst));
	for (r = row0 + 1; r <= row0 + height; r++) {
		memcpy(prev, dst, (size_t)cols * sizeof(*prev));
		for (j = 0; j < cols; j++) {
			int best = prev[j];

			if (j > 0 && prev[j - 1] < best)
				best = prev[j - 1];
			if (j < cols - 1 && prev[j + 1] < best)
				best = prev[j + 1];
			dst[j] = wall[(long)r * cols + j] + best;
		}
	}
	free(prev);
}
