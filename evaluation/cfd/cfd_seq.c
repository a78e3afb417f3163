/* CFD's mesh generator and sequential reference. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfd_seq.h"

CFD_ELEM(static inline, , sqrtf)

void cfd_generate(struct cfd_mesh *m, float *vars, int n)
{
	const float h = 1.0f / (float)n;
	static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
	int nel = n * n, x, y, f, v;

	m->nel = nel;
	m->areas = malloc((size_t)nel * sizeof(float));
	m->normals = calloc((size_t)3 * CFD_NNB * nel, sizeof(float));
	m->nbs = malloc((size_t)CFD_NNB * nel * sizeof(int));
	for (y = 0; y < n; y++)
		for (x = 0; x < n; x++) {
			int i = y * n + x;
			float px = (x + 0.5f) * h - 0.3f, py = (y + 0.5f) * h - 0.5f;
			float rho = 1.4f * (1.0f + 0.3f * expf(-(px * px + py * py) / 0.01f));

			m->areas[i] = h * h;
			for (f = 0; f < CFD_NNB; f++) {
				int nx = x + dx[f], ny = y + dy[f];

				m->nbs[f * nel + i] = nx < 0 || nx >= n ? -2 : ny < 0 || ny >= n ? -1 : ny * n + nx;
				m->normals[(3 * f + 0) * nel + i] = (float)dx[f] * h;
				m->normals[(3 * f + 1) * nel + i] = (float)dy[f] * h;
			}
			for (v = 0; v < CFD_NVAR; v++)
				vars[v * nel + i] = cfd_ff(v);
			vars[i] = rho;
			vars[nel + i] = rho * 1.2f;
			vars[4 * nel + i] = 1.0f / 0.4f + 0.5f * rho * 1.44f;
		}
}

void cfd_reference(const struct cfd_mesh *m, float *vars, int iters)
{
	size_t size = (size_t)CFD_NVAR * m->nel * sizeof(float);
	float *old = malloc(size), *fluxes = malloc(size), *sf = malloc((size_t)m->nel * sizeof(float));
	int it, j, i;

	for (it = 0; it < iters; it++) {
		memcpy(old, vars, size);
		for (i = 0; i < m->nel; i++)
			cfd_step_factor_elem(vars, m->areas, sf, i, m->nel);
		for (j = 0; j < CFD_RK; j++) {
			for (i = 0; i < m->nel; i++)
				cfd_flux_elem(vars, m->nbs, m->normals, fluxes, i, m->nel);
			for (i = 0; i < m->nel; i++)
				cfd_time_step_elem(old, vars, sf, fluxes, j, i, m->nel);
		}
	}
	free(old);
	free(fluxes);
	free(sf);
}
