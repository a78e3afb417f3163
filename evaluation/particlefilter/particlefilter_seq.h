/* The particle filter's video generator and sequential reference (not a component). */
#ifndef PARTICLEFILTER_SEQ_H
#define PARTICLEFILTER_SEQ_H

#define PF_DIM 128
#define PF_FRAMES 10

/* frames of PF_DIM x PF_DIM pixels: a disk moving by (1, -2) a frame on a
 * noisy background; for each frame, 2 n Gaussian samples to move the
 * particles, and the offset u1 of its systematic resampling */
void pf_generate(int *video, double *noise, double *u1, int n);
/* the estimated position in every frame (est[2 f], est[2 f + 1]) */
void pf_reference(const int *video, const double *noise, const double *u1, int n, double *est);

#endif
