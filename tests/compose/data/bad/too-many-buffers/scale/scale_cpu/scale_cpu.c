void scale_cpu(void) {}
