/* The arguments of pph_call_partitioned (split_args.h). */
#include <errno.h>

#include "split_args.h"

int pph__split_parts(unsigned nbuffers, const int *parts)
{
	int n = -1;
	unsigned i;

	for (i = 0; i < nbuffers; i++) {
		if (parts[i] < 0)
			continue;
		if (n >= 0 && parts[i] != n)
			return -EINVAL;
		n = parts[i];
	}
	return n;
}

int pph__split_shared(unsigned nbuffers, const pph_data_handle *handles, const int *parts,
		      unsigned *first)
{
	unsigned i, j;

	for (i = 0; i < nbuffers; i++) {
		first[i] = i;
		for (j = 0; j < i && (!handles[i] || handles[j] != handles[i]); j++)
			;
		if (j == i)
			continue;
		if ((parts[i] >= 0) != (parts[j] >= 0))
			return 0;
		first[i] = first[j];
	}
	return 1;
}
