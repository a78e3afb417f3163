/* HotSpot's input generator and sequential reference (not a component). */
#ifndef HOTSPOT_SEQ_H
#define HOTSPOT_SEQ_H

#define HOTSPOT_AMB 80.0f /* ambient temperature, degrees C */

struct hotspot_coef {
	float sdc, rx1, ry1, rz1;
};

/* the chip's initial temperatures and power map, n x n */
void hotspot_generate(float *temp, float *power, int n);
/* step/C, 1/Rx, 1/Ry, 1/Rz from the chip's dimensions (as HotSpot derives them) */
struct hotspot_coef hotspot_coefficients(int n);
/* iters steps in place, sequentially */
void hotspot_reference(float *temp, const float *power, int n, int iters);

#endif
