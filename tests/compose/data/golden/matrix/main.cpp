#include <cmath>
#include <cstdio>
#include <vector>

#include "peppher.h"

int main()
{
	const int m = 3, n = 4, k = 5;
	std::vector<double> A(m * k), B(k * n), C(m * n);

	for (int i = 0; i < m * k; i++)
		A[i] = i * 0.5;
	for (int i = 0; i < k * n; i++)
		B[i] = 1.0 / (i + 1);
	PEPPHER_INITIALIZE();
	matmul(C.data(), A.data(), B.data(), m, n, k);
	PEPPHER_SHUTDOWN();
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;

			for (int l = 0; l < k; l++)
				s += A[i * k + l] * B[l * n + j];
			if (std::fabs(s - C[i * n + j]) > 1e-12) {
				std::printf("matmul: wrong C[%d][%d]\n", i, j);
				return 1;
			}
		}
	std::printf("matmul: correct\n");
	return 0;
}
