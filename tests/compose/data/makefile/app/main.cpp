// C++ (std::vector: libstdc++'s operator new and delete) in a source whose
// descriptor names gcc as its compiler.
#include <cstdio>
#include <vector>

#include "peppher.h"

int main()
{
	std::vector<float> x(1000);
	std::vector<int> counts(2);
	int bad = 0;

	for (int i = 0; i < (int)x.size(); i++)
		x[i] = (float)i;
	PEPPHER_INITIALIZE();
	scale(x.data(), (int)x.size(), 2.0f);
	team(counts.data(), (int)counts.size());
	PEPPHER_SHUTDOWN();
	for (int i = 0; i < (int)x.size(); i++)
		bad += x[i] != 2.0f * (float)i;
	std::printf("scale: %s\n", bad ? "WRONG" : "correct");
	std::printf("team: %d OpenMP threads in a team of %d\n", counts[0], counts[1]);
	return bad != 0;
}
