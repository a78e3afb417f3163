/*
 * The numerics of the CFD solver (compressible Euler equations, finite
 * volumes, Rusanov fluxes, Jameson's multi-stage Runge-Kutta), per element,
 * written once: CFD_ELEM(QUAL, GLOBAL, SQRT) expands to the functions with
 * the qualifier of the platform (static inline, __device__), its pointer
 * address space (OpenCL's __global) and its float square root, and
 * CFD_ELEM_SOURCE(...) to the same text as a string for an OpenCL program.
 *
 * Data of nel elements, structure of arrays: variable v of element i at
 * vars[v * nel + i] (density, momentum x, y, z, energy density); face f's
 * neighbour nbs[f * nel + i] (-1: wall, -2: far field) and outward normal,
 * scaled by the face's area, normals[(3 * f + d) * nel + i].
 */
#ifndef CFD_ELEM_H
#define CFD_ELEM_H

#define CFD_NVAR 5
#define CFD_NNB 4
#define CFD_RK 3

#define CFD_STR_(...) #__VA_ARGS__
#define CFD_ELEM_SOURCE(...) CFD_STR_(__VA_ARGS__)

#define CFD_ELEM(QUAL, GLOBAL, SQRT)                                                        \
	/* far field: density 1.4, pressure 1, Mach 1.2 along x */                         \
	QUAL float cfd_ff(int v)                                                            \
	{                                                                                   \
		return v == 0 ? 1.4f : v == 1 ? 1.68f : v == 4 ? 3.508f : 0.0f;             \
	}                                                                                   \
	QUAL float cfd_pressure(const float *u)                                             \
	{                                                                                   \
		return 0.4f * (u[4] - 0.5f * (u[1] * u[1] + u[2] * u[2] + u[3] * u[3]) / u[0]); \
	}                                                                                   \
	/* |velocity| + speed of sound: the fastest wave */                                 \
	QUAL float cfd_wave(const float *u)                                                 \
	{                                                                                   \
		float v2 = (u[1] * u[1] + u[2] * u[2] + u[3] * u[3]) / (u[0] * u[0]);       \
		return SQRT(v2) + SQRT(1.4f * cfd_pressure(u) / u[0]);                      \
	}                                                                                   \
	/* the Euler flux of state u through normal n, into f */                            \
	QUAL void cfd_euler_flux(const float *u, const float *n, float *f)                 \
	{                                                                                   \
		float p = cfd_pressure(u), un = (u[1] * n[0] + u[2] * n[1] + u[3] * n[2]) / u[0]; \
		f[0] = u[0] * un;                                                           \
		f[1] = u[1] * un + p * n[0];                                                \
		f[2] = u[2] * un + p * n[1];                                                \
		f[3] = u[3] * un + p * n[2];                                                \
		f[4] = (u[4] + p) * un;                                                     \
	}                                                                                   \
	QUAL void cfd_load(GLOBAL const float *vars, int i, int nel, float *u)              \
	{                                                                                   \
		int v;                                                                      \
		for (v = 0; v < 5; v++)                                                     \
			u[v] = vars[v * nel + i];                                           \
	}                                                                                   \
	QUAL void cfd_step_factor_elem(GLOBAL const float *vars, GLOBAL const float *areas, \
				       GLOBAL float *sf, int i, int nel)                    \
	{                                                                                   \
		float u[5];                                                                 \
		cfd_load(vars, i, nel, u);                                                  \
		sf[i] = 0.4f / (SQRT(areas[i]) * cfd_wave(u));                              \
	}                                                                                   \
	/* the net inflow of each variable through the element's faces */                   \
	QUAL void cfd_flux_elem(GLOBAL const float *vars, GLOBAL const int *nbs,             \
				GLOBAL const float *normals, GLOBAL float *fluxes, int i, int nel) \
	{                                                                                   \
		float u[5], w[5], n[3], fu[5], fw[5], r[5] = { 0, 0, 0, 0, 0 };             \
		int f, v, d;                                                                \
		cfd_load(vars, i, nel, u);                                                  \
		for (f = 0; f < 4; f++) {                                                   \
			int nb = nbs[f * nel + i];                                          \
			for (d = 0; d < 3; d++)                                             \
				n[d] = normals[(3 * f + d) * nel + i];                      \
			if (nb == -1) {                                                     \
				float p = cfd_pressure(u);                                  \
				for (d = 0; d < 3; d++)                                     \
					r[1 + d] -= p * n[d];                               \
				continue;                                                   \
			}                                                                   \
			for (v = 0; v < 5; v++)                                             \
				w[v] = nb >= 0 ? vars[v * nel + nb] : cfd_ff(v);            \
			cfd_euler_flux(u, n, fu);                                           \
			cfd_euler_flux(w, n, fw);                                           \
			float a = 0.5f * SQRT(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) *    \
				  (cfd_wave(u) > cfd_wave(w) ? cfd_wave(u) : cfd_wave(w));  \
			for (v = 0; v < 5; v++)                                             \
				r[v] += -0.5f * (fu[v] + fw[v]) + a * (w[v] - u[v]);        \
		}                                                                           \
		for (v = 0; v < 5; v++)                                                     \
			fluxes[v * nel + i] = r[v];                                         \
	}                                                                                   \
	/* stage j of CFD_RK: from the step's start old, with the stage's fluxes */         \
	QUAL void cfd_time_step_elem(GLOBAL const float *old, GLOBAL float *vars,          \
				     GLOBAL const float *sf, GLOBAL const float *fluxes, int j, \
				     int i, int nel)                                        \
	{                                                                                   \
		float factor = sf[i] / (float)(3 + 1 - j);                                  \
		int v;                                                                      \
		for (v = 0; v < 5; v++)                                                     \
			vars[v * nel + i] = old[v * nel + i] + factor * fluxes[v * nel + i]; \
	}

#endif
