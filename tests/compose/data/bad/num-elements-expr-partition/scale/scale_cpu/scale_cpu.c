void scale_cpu(float *x, int n, int inc, const int *k) { (void)x; (void)n; (void)inc; (void)k; }
