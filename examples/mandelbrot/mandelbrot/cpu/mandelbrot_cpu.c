/* One block of rows on a CPU core. */
void mandelbrot_cpu(int *img, const float *ci, int h, int w, float x0, float dx, int maxit)
{
	for (int r = 0; r < h; r++)
		for (int c = 0; c < w; c++) {
			float cr = x0 + c * dx, zr = 0, zi = 0;
			int it = 0;

			while (it < maxit && zr * zr + zi * zi <= 4.0f) {
				float t = zr * zr - zi * zi + cr;

				zi = 2.0f * zr * zi + ci[r];
				zr = t;
				it++;
			}
			img[r * w + c] = it;
		}
}
