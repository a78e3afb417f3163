void scale_cpu(float *arr, int size, float factor)
{
	for (int i = 0; i < size; i++)
		arr[i] *= factor;
}
