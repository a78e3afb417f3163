/* "Quotes", a backslash \ and ??= trigraphs survive the trip into the program. */
#define SCALE(x, f) \
	((x) * (f))

__kernel void vscale(__global float *x, int n, float factor)
{
	int i = get_global_id(0);

	if (i < n)
		x[i] = SCALE(x[i], factor);
}
