/*
 * filters: a test pattern, blurred and sharpened over and over, then
 * thresholded; prints the images' digests and the share of white pixels.
 * Usage: filters [PASSES]
 */
#include <stdio.h>
#include <stdlib.h>

#include "filters.h"
#include "image.h"
#include "peppher.h"

int main(int argc, char **argv)
{
	int passes = argc > 1 ? atoi(argv[1]) : 20, i;
	struct image a, b;

	PEPPHER_INITIALIZE();
	if (image_init(&a, 640, 480) != 0 || image_init(&b, 640, 480) != 0) {
		fprintf(stderr, "filters: out of memory\n");
		return 1;
	}
	image_pattern(&a, 42);
	for (i = 0; i < passes; i++) {
		blur(a.px, b.px, a.width, a.height);
		sharpen(b.px, a.px, a.width, a.height, 0.25f);
	}
	printf("after %d passes: %016llx\n", passes, image_digest(&a));
	threshold(a.px, a.width * a.height, 0.5f);
	printf("thresholded: %016llx, %.6f white\n", image_digest(&a),
	       mean(a.px, a.width * a.height));
	image_free(&b);
	image_free(&a);
	PEPPHER_SHUTDOWN();
	return 0;
}
