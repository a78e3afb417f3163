#include <math.h>
#include <stdlib.h>

#include "image.h"

int image_init(struct image *im, int width, int height)
{
	im->width = width;
	im->height = height;
	im->px = calloc((size_t)width * (size_t)height, sizeof(*im->px));
	return im->px ? 0 : -1;
}

void image_free(struct image *im)
{
	free(im->px);
	im->px = NULL;
}

void image_pattern(struct image *im, unsigned seed)
{
	for (int y = 0; y < im->height; y++)
		for (int x = 0; x < im->width; x++) {
			float dx = (float)x - im->width / 2.0f, dy = (float)y - im->height / 2.0f;
			float ring = 0.5f + 0.5f * sinf(sqrtf(dx * dx + dy * dy) / 6.0f);

			seed = seed * 1664525u + 1013904223u;
			im->px[y * im->width + x] = 0.4f * ring + 0.4f * (float)x / (float)im->width +
						    0.2f * (float)(seed >> 8) / (float)(1u << 24);
		}
}

unsigned long long image_digest(const struct image *im)
{
	const unsigned char *b = (const unsigned char *)im->px;
	size_t n = (size_t)im->width * (size_t)im->height * sizeof(*im->px);
	unsigned long long h = 14695981039346656037ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}
