#include "filters.h"

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void blur(const float *in, float *out, int width, int height)
{
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++) {
			const float *up = in + clamp(y - 1, 0, height - 1) * width;
			const float *mid = in + y * width;
			const float *down = in + clamp(y + 1, 0, height - 1) * width;
			int l = clamp(x - 1, 0, width - 1), r = clamp(x + 1, 0, width - 1);
			/* weights are powers of two: every variant rounds alike */
			float s = up[l] + 2 * up[x] + up[r];

			s += 2 * mid[l] + 4 * mid[x] + 2 * mid[r];
			s += down[l] + 2 * down[x] + down[r];
			out[y * width + x] = s * 0.0625f;
		}
}

void sharpen(const float *in, float *out, int width, int height, float amount)
{
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++) {
			float c = in[y * width + x];
			float n = in[clamp(y - 1, 0, height - 1) * width + x] +
				  in[clamp(y + 1, 0, height - 1) * width + x] +
				  in[y * width + clamp(x - 1, 0, width - 1)] +
				  in[y * width + clamp(x + 1, 0, width - 1)];
			float v = c + amount * (4 * c - n);

			out[y * width + x] = v < 0 ? 0 : v > 1 ? 1 : v;
		}
}

void threshold(float *px, int n, float level)
{
	for (int i = 0; i < n; i++)
		px[i] = px[i] < level ? 0.0f : 1.0f;
}

double mean(const float *px, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += px[i];
	return n ? s / n : 0;
}
