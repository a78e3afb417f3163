/* One HotSpot step, row after row. */
#define AMB 80.0f

void hotspot_cpu(const float *temp, const float *power, float *result, int rows, int cols,
		 float sdc, float rx1, float ry1, float rz1)
{
	int i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++) {
			float x = temp[i * cols + j];
			float north = temp[(i > 0 ? i - 1 : i) * cols + j];
			float south = temp[(i < rows - 1 ? i + 1 : i) * cols + j];
			float west = temp[i * cols + (j > 0 ? j - 1 : j)];
			float east = temp[i * cols + (j < cols - 1 ? j + 1 : j)];

			result[i * cols + j] = x + sdc * (power[i * cols + j] +
					(north + south - 2.0f * x) * ry1 +
					(east + west - 2.0f * x) * rx1 + (AMB - x) * rz1);
		}
}
