/* Compiled once per type: -DT=float -Dvmax_cpu=vmax_cpu_float, ... */
void vmax_cpu(const T *x, int n, T *result)
{
	T m = x[0];

	for (int i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	*result = m;
}
