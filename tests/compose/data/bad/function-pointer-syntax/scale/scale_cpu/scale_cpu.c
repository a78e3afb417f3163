void scale_cpu(float *x, int n, int (f)(int)) { (void)x; (void)n; (void)f; }
