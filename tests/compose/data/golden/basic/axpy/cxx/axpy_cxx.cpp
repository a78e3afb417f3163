void axpy_cxx(float *y, const float *x, int n, float alpha) { for (int i = 0; i < n; i++) y[i] += alpha * x[i]; }
