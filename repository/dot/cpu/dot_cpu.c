/* Compiled once per type T: *result += x . y, summed in double.  result is a
 * reduction: an accumulator of this task's own, set to 0 (see dot.xml). */
void dot_cpu(int n, const T *x, const T *y, T *result)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += (double)x[i] * y[i];
	*result += (T)s;
}
