/* Filters over grey images of width x height float pixels, row by row. */
#ifndef FILTERS_H
#define FILTERS_H

/* out = in smoothed by the 3 x 3 binomial kernel (edges repeated) */
void blur(const float *in, float *out, int width, int height);
/* out = in with its edges sharpened by amount, clamped to [0, 1] */
void sharpen(const float *in, float *out, int width, int height, float amount);
/* each of the n pixels becomes 0 or 1: below level or not */
void threshold(float *px, int n, float level);
/* the mean of the n pixels */
double mean(const float *px, int n);

#endif
