/* Compiled once per type T: *result += x . y, summed in double by the team.
 * result is a reduction: an accumulator of this task's own (see dot.xml). */
/* clang does not vectorize the double instance of this loop (its
 * vectorizer declines a double sum's reduction here) and says so as a
 * warning, which -Werror made an error; simd is a hint the result does
 * not depend on. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

void dot_omp(int n, const T *x, const T *y, T *result)
{
	double s = 0;

#pragma omp parallel for simd reduction(+ : s) schedule(static)
	for (int i = 0; i < n; i++)
		s += (double)x[i] * y[i];
	*result += (T)s;
}
