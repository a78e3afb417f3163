void args(float *x, int n) { (void)x; (void)n; }
