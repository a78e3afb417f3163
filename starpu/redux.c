/*
 * The reduction access mode (PPH_REDUX) over StarPU's STARPU_REDUX.
 * pph_data_set_reduction gives the handle StarPU's two reduction codelets:
 * init sets a worker's private copy to the operator's identity, redux
 * combines one copy into another.  StarPU 1.3 calls init's function
 * directly, with the copy's interface and nothing else (its _with_args
 * variant is 1.4), so the operator cannot travel with the call: each
 * operator the program uses gets a slot, and each slot its own pair of
 * functions that know it.  64 slots: a program has a few operators
 * (built-in ones, a few of its own), however many handles use them.
 *
 * A copy on an OpenCL device is set there: the identity made on the host
 * by the operator's init, written into the copy.  The combine is a CPU
 * codelet, so StarPU brings a device's copy home to combine it.  CUDA
 * workers take no part (their init would be the same, untried: no GPU).
 *
 * Differences from libpeppher, both StarPU's: copies are combined in the
 * order StarPU's reduction tree takes them, not in submission order, so a
 * floating-point sum may differ in its last bits from run to run; and a
 * handle has one operator at a time, the last set.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

#define SP_REDUX_SLOTS 64

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct pph_reduction *slot_op[SP_REDUX_SLOTS];
static struct starpu_codelet init_cl[SP_REDUX_SLOTS], redux_cl[SP_REDUX_SLOTS];

struct sp_shape sp__shape_of(void *buf)
{
	struct sp_shape s = { 1, 1, 1, 0, 0, 0, 0 };

	switch (*(enum starpu_data_interface_id *)buf) {
	case STARPU_VECTOR_INTERFACE_ID: {
		const struct starpu_vector_interface *v = buf;

		s.cols = s.ld = v->nx;
		s.es = v->elemsize;
		s.ptr = v->ptr, s.dev = v->dev_handle, s.offset = v->offset;
		break;
	}
	case STARPU_MATRIX_INTERFACE_ID: {
		const struct starpu_matrix_interface *m = buf;

		s.rows = m->ny, s.cols = m->nx, s.ld = m->ld;
		s.es = m->elemsize;
		s.ptr = m->ptr, s.dev = m->dev_handle, s.offset = m->offset;
		break;
	}
	default: { /* a variable: one element of its whole size */
		const struct starpu_variable_interface *v = buf;

		s.es = v->elemsize;
		s.ptr = s.dev = v->ptr;
		break;
	}
	}
	return s;
}

static void init_with(const struct pph_reduction *op, void *buffers[])
{
	struct sp_shape s = sp__shape_of(buffers[0]);
	char *p = (char *)s.ptr;
	size_t r, c;

	for (r = 0; r < s.rows; r++)
		for (c = 0; c < s.cols; c++)
			op->init(p + (r * s.ld + c) * s.es);
}

#ifdef SP_USE_OPENCL
static void init_opencl_with(const struct pph_reduction *op, void *buffers[])
{
	struct sp_shape s = sp__shape_of(buffers[0]);
	size_t k, row = s.cols * s.es;
	size_t origin[3] = { s.offset, 0, 0 }, zero[3] = { 0, 0, 0 }, region[3] = { row, s.rows, 1 };
	char *identity = malloc(s.rows * row + 1);
	cl_command_queue q;
	cl_int err;

	if (!identity) {
		fprintf(stderr, "peppher: no memory to set a reduction copy on an OpenCL device\n");
		abort(); /* StarPU's init cannot fail; the contribution would be garbage */
	}
	for (k = 0; k < s.rows * s.cols; k++)
		op->init(identity + k * s.es);
	starpu_opencl_get_current_queue(&q);
	err = s.rows && s.cols ?
		      clEnqueueWriteBufferRect(q, (cl_mem)s.dev, CL_TRUE, origin, zero, region,
					       s.ld * s.es, 0, row, 0, identity, 0, NULL, NULL) :
		      CL_SUCCESS;
	free(identity);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "peppher: a reduction copy on an OpenCL device could not be set "
			"(OpenCL error %d)\n", (int)err);
		abort();
	}
}
#define INIT_OPENCL(k)                                                                    \
	static void init_opencl_##k(void *buffers[], void *arg)                           \
	{                                                                                 \
		(void)arg;                                                                \
		init_opencl_with(slot_op[k], buffers);                                    \
	}
#else
#define INIT_OPENCL(k)
#endif

static void redux_with(const struct pph_reduction *op, void *buffers[])
{
	struct sp_shape into = sp__shape_of(buffers[0]), from = sp__shape_of(buffers[1]);
	size_t r, c;

	for (r = 0; r < into.rows; r++)
		for (c = 0; c < into.cols; c++)
			op->combine((char *)into.ptr + (r * into.ld + c) * into.es,
				    (const char *)from.ptr + (r * from.ld + c) * into.es);
}

/* The slots' functions, named by two octal digits: SLOTS8(3) makes slots
 * 030 to 037, that is 24 to 31. */
#define SLOT(k)                                                                           \
	static void init_##k(void *buffers[], void *arg)                                  \
	{                                                                                 \
		(void)arg;                                                                \
		init_with(slot_op[k], buffers);                                           \
	}                                                                                 \
	static void redux_##k(void *buffers[], void *arg)                                 \
	{                                                                                 \
		(void)arg;                                                                \
		redux_with(slot_op[k], buffers);                                          \
	}                                                                                 \
	INIT_OPENCL(k)
#define SLOTS8(a) SLOT(0##a##0) SLOT(0##a##1) SLOT(0##a##2) SLOT(0##a##3) \
	SLOT(0##a##4) SLOT(0##a##5) SLOT(0##a##6) SLOT(0##a##7)
SLOTS8(0) SLOTS8(1) SLOTS8(2) SLOTS8(3) SLOTS8(4) SLOTS8(5) SLOTS8(6) SLOTS8(7)

#define FNS8(f, a) f##0##a##0, f##0##a##1, f##0##a##2, f##0##a##3, \
	f##0##a##4, f##0##a##5, f##0##a##6, f##0##a##7
#define FNS(f) FNS8(f, 0), FNS8(f, 1), FNS8(f, 2), FNS8(f, 3), \
	FNS8(f, 4), FNS8(f, 5), FNS8(f, 6), FNS8(f, 7)
static void (*const init_fns[SP_REDUX_SLOTS])(void *[], void *) = { FNS(init_) };
static void (*const redux_fns[SP_REDUX_SLOTS])(void *[], void *) = { FNS(redux_) };
#ifdef SP_USE_OPENCL
static void (*const init_opencl_fns[SP_REDUX_SLOTS])(void *[], void *) = { FNS(init_opencl_) };
#endif

/* The slot of op, given one if it has none; -1 when all are taken. */
static int slot_of(const struct pph_reduction *op)
{
	int k;

	pthread_mutex_lock(&slots_lock);
	for (k = 0; k < SP_REDUX_SLOTS && slot_op[k] && slot_op[k] != op; k++)
		;
	if (k < SP_REDUX_SLOTS && !slot_op[k]) {
		init_cl[k].cpu_funcs[0] = init_fns[k];
#ifdef SP_USE_OPENCL
		init_cl[k].opencl_funcs[0] = init_opencl_fns[k];
#endif
		init_cl[k].nbuffers = 1;
		init_cl[k].modes[0] = STARPU_W;
		init_cl[k].name = "pph_redux_init";
		redux_cl[k].cpu_funcs[0] = redux_fns[k];
		redux_cl[k].nbuffers = 2;
		redux_cl[k].modes[0] = STARPU_RW;
		redux_cl[k].modes[1] = STARPU_R;
		redux_cl[k].name = "pph_redux_combine";
		slot_op[k] = op;
	}
	pthread_mutex_unlock(&slots_lock);
	return k < SP_REDUX_SLOTS ? k : -1;
}

int pph_data_set_reduction(pph_data_handle d, const struct pph_reduction *op)
{
	int k;

	if (!d || !op || !op->init || !op->combine || d->unregistered || !d->h)
		return -EINVAL;
	if ((k = sp__enter("pph_data_set_reduction", 0)) != 0)
		return k;
	if ((k = slot_of(op)) < 0) {
		fprintf(stderr, "peppher: pph_data_set_reduction: more than %d reduction operators: "
			"libpeppher-starpu has no room for another\n", SP_REDUX_SLOTS);
		sp__leave();
		return -ENOSPC;
	}
	starpu_data_set_reduction_methods(d->h, &redux_cl[k], &init_cl[k]);
	d->redux = op;
	sp__leave();
	return 0;
}
