#include <cstddef>

/* C++: its backend passes the size_t size as it is (a cast to its own
 * type warns under -Wuseless-cast) */
extern "C" void ucopy_cxx(float *y, const volatile float *x, std::size_t n)
{
	for (std::size_t i = 0; i < n; i++)
		y[i] = x[i];
}
