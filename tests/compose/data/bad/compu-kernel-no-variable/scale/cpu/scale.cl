__kernel void s(__global float *x) {}
