/*
 * The particle filter's per-particle steps, written once:
 * PF_PARTICLE(QUAL, GLOBAL) expands to them with the platform's function
 * qualifier and pointer address space; PF_SOURCE(...) to the same text as a
 * string for an OpenCL program.  The object is a disk of radius PF_R, of
 * intensity 228 on a background of 100.
 */
#ifndef PF_COMMON_H
#define PF_COMMON_H

#define PF_R 5
#define PF_STR_(...) #__VA_ARGS__
#define PF_SOURCE(...) PF_STR_(__VA_ARGS__)

#define PF_PARTICLE(QUAL, GLOBAL)                                                          \
	QUAL int pf_clamp(int v, int dim)                                                  \
	{                                                                                  \
		return v < 0 ? 0 : v >= dim ? dim - 1 : v;                                 \
	}                                                                                  \
	/* move particle i, then weigh it by the frame's likelihood under the disk */     \
	QUAL void pf_particle(GLOBAL const int *frame, GLOBAL double *x, GLOBAL double *y,  \
			      GLOBAL const double *noise, GLOBAL double *w, int dim, int n,  \
			      int i)                                                       \
	{                                                                                  \
		double lik = 0.0;                                                          \
		int dx, dy, count = 0, cx, cy;                                             \
		x[i] += 1.0 + 5.0 * noise[i];                                              \
		y[i] += -2.0 + 2.0 * noise[n + i];                                         \
		cx = (int)floor(x[i] + 0.5);                                               \
		cy = (int)floor(y[i] + 0.5);                                               \
		for (dy = -PF_R; dy <= PF_R; dy++)                                         \
			for (dx = -PF_R; dx <= PF_R; dx++)                                 \
				if (dx * dx + dy * dy <= PF_R * PF_R) {                    \
					double v = (double)frame[pf_clamp(cy + dy, dim) * dim + \
								 pf_clamp(cx + dx, dim)];  \
					lik += ((v - 100.0) * (v - 100.0) -                 \
						(v - 228.0) * (v - 228.0)) / 50.0;          \
					count++;                                            \
				}                                                          \
		w[i] *= exp(lik / count);                                                  \
	}                                                                                  \
	/* the first index whose cumulative weight reaches u */                            \
	QUAL int pf_find(GLOBAL const double *cdf, int n, double u)                        \
	{                                                                                  \
		int lo = 0, hi = n - 1;                                                    \
		while (lo < hi) {                                                          \
			int mid = (lo + hi) / 2;                                           \
			if (cdf[mid] >= u)                                                 \
				hi = mid;                                                  \
			else                                                               \
				lo = mid + 1;                                              \
		}                                                                          \
		return lo;                                                                 \
	}

#endif
