/* Compiled once per type: -DT=float -Dsort_insertion=sort_insertion_float, ... */
void sort_insertion(T *v, int n)
{
	for (int i = 1; i < n; i++) {
		T x = v[i];
		int j = i;

		for (; j > 0 && x < v[j - 1]; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}
