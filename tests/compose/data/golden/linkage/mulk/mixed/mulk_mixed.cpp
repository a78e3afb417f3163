// A C++ variant with C++ linkage, in the second of its sources: the
// backend is C++, as this source is.  What it throws fails its call.
#include <stdexcept>

extern "C" float scale_one(float v, float k);

void mulk_mixed(int n, float *y, float k)
{
	if (k < 0)
		throw std::invalid_argument("mulk: k < 0");
	for (int i = 0; i < n; i++)
		y[i] = scale_one(y[i], k);
}
