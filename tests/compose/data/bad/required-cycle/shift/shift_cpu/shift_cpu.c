void shift_cpu(void) {}
