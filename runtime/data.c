/*
 * Data handles.  A handle has one replica per memory node; this slice has
 * host memory (node 0) only, where the registered memory lives.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

static struct pph_data *data_new(enum pph_layout layout)
{
	struct pph_data *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->layout = layout;
	d->replicas[0].state = PPH_MODIFIED; /* the only valid copy */
	pthread_mutex_init(&d->lock, NULL);
	return d;
}

int pph_vector_register(pph_data_handle *handle, void *ptr, size_t n,
			size_t elemsize)
{
	struct pph_data *d;

	if (!handle || !elemsize)
		return -EINVAL;
	d = data_new(PPH_LAYOUT_VECTOR);
	if (!d)
		return -ENOMEM;
	d->replicas[0].iface.vector.ptr = ptr;
	d->replicas[0].iface.vector.n = n;
	d->replicas[0].iface.vector.elemsize = elemsize;
	*handle = d;
	return 0;
}

int pph_matrix_register(pph_data_handle *handle, void *ptr, size_t rows,
			size_t cols, size_t ld, size_t elemsize)
{
	struct pph_data *d;

	if (!handle || !elemsize || ld < cols)
		return -EINVAL;
	d = data_new(PPH_LAYOUT_MATRIX);
	if (!d)
		return -ENOMEM;
	d->replicas[0].iface.matrix.ptr = ptr;
	d->replicas[0].iface.matrix.rows = rows;
	d->replicas[0].iface.matrix.cols = cols;
	d->replicas[0].iface.matrix.ld = ld;
	d->replicas[0].iface.matrix.elemsize = elemsize;
	*handle = d;
	return 0;
}

int pph_variable_register(pph_data_handle *handle, void *ptr, size_t size)
{
	struct pph_data *d;

	if (!handle || !size)
		return -EINVAL;
	d = data_new(PPH_LAYOUT_VARIABLE);
	if (!d)
		return -ENOMEM;
	d->replicas[0].iface.variable.ptr = ptr;
	d->replicas[0].iface.variable.size = size;
	*handle = d;
	return 0;
}

uint64_t pph__data_size(const struct pph_data *d)
{
	const union pph_iface *i = &d->replicas[0].iface;

	switch (d->layout) {
	case PPH_LAYOUT_VECTOR:
		return (uint64_t)i->vector.n * i->vector.elemsize;
	case PPH_LAYOUT_VARIABLE:
		return i->variable.size;
	case PPH_LAYOUT_MATRIX:
		return (uint64_t)i->matrix.rows * i->matrix.cols * i->matrix.elemsize;
	}
	return 0;
}

double pph__transfer_estimate(const struct pph_task *task, unsigned node)
{
	/* host memory only: the data is always where CPU workers run */
	(void)task;
	(void)node;
	return 0;
}

void pph_data_unregister(pph_data_handle handle)
{
	if (!handle)
		return;
	pph__deps_data_wait(handle);
	pthread_mutex_destroy(&handle->lock);
	free(handle);
}
