/* main.c compiled as C++ (g++ -std=c++11), as the original PEPPHER tool did. */
#include <cstdio>
#include <vector>

#include "peppher.h"

int main()
{
	const int n = 10000;
	std::vector<float> a(n), b(n), c(n);
	int bad = 0;

	for (int i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i;
	}
	PEPPHER_INITIALIZE();
	for (int k = 0; k < 8; k++)
		vadd(a.data(), b.data(), c.data(), n);
	PEPPHER_SHUTDOWN();
	for (int i = 0; i < n; i++)
		bad += c[i] != 3.0f * (float)i;
	std::printf("vadd: %s\n", bad ? "WRONG" : "correct");
	return bad != 0;
}
