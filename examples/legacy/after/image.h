/* Grey images of float pixels in [0, 1], row by row. */
#ifndef IMAGE_H
#define IMAGE_H

struct image {
	int width, height;
	float *px;
};

/* Returns 0, or -1 when out of memory. */
int image_init(struct image *im, int width, int height);
void image_free(struct image *im);
/* A test pattern: gradients, rings and noise from seed. */
void image_pattern(struct image *im, unsigned seed);
/* FNV-1a of the pixels' bytes: equal digests, equal images. */
unsigned long long image_digest(const struct image *im);

#endif
