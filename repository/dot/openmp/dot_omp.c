/* Compiled once per type T: *result += x . y, summed in double by the team.
 * result is a reduction: an accumulator of this task's own (see dot.xml). */
void dot_omp(int n, const T *x, const T *y, T *result)
{
	double s = 0;

#pragma omp parallel for simd reduction(+ : s) schedule(static)
	for (int i = 0; i < n; i++)
		s += (double)x[i] * y[i];
	*result += (T)s;
}
