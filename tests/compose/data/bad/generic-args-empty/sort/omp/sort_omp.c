/* Odd-even transposition sort with an OpenMP loop per phase. */
void sort_omp(T *v, int n)
{
	for (int phase = 0; phase < n; phase++) {
#pragma omp parallel for
		for (int i = phase % 2; i < n - 1; i += 2)
			if (v[i + 1] < v[i]) {
				T t = v[i];

				v[i] = v[i + 1];
				v[i + 1] = t;
			}
	}
}
