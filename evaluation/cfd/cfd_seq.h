/* CFD's mesh generator and sequential reference (not a component). */
#ifndef CFD_SEQ_H
#define CFD_SEQ_H

#include "cfd_elem.h"

struct cfd_mesh {
	int nel;
	float *areas, *normals; /* nel, 3 * CFD_NNB * nel */
	int *nbs;               /* CFD_NNB * nel */
};

/* a channel of n x n elements stored as an unstructured mesh: far field
 * upstream and downstream, walls above and below; the flow starts at the
 * far-field state with a bump of density (vars: CFD_NVAR * nel) */
void cfd_generate(struct cfd_mesh *m, float *vars, int n);
/* iters time steps of CFD_RK stages in place, sequentially */
void cfd_reference(const struct cfd_mesh *m, float *vars, int iters);

#endif
