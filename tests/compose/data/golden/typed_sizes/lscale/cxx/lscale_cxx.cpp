/* C++: its backend converts the handle's size_t to long long with C++'s
 * cast (a C cast warns under -Wold-style-cast) */
extern "C" void lscale_cxx(float *v, long long n, double alpha)
{
	for (long long i = 0; i < n; i++)
		v[i] = static_cast<float>(v[i] * alpha);
}
