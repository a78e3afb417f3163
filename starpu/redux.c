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
 * Differences from libpeppher, both StarPU's: copies are combined in the
 * order StarPU's reduction tree takes them, not in submission order, so a
 * floating-point sum may differ in its last bits from run to run; and a
 * handle has one operator at a time, the last set.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "internal.h"

#define SP_REDUX_SLOTS 64

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct pph_reduction *slot_op[SP_REDUX_SLOTS];
static struct starpu_codelet init_cl[SP_REDUX_SLOTS], redux_cl[SP_REDUX_SLOTS];

/* The elements of a buffer: rows of cols elements of es bytes, ld
 * elements apart.  Our shapes map onto StarPU's as in data.c: a matrix of
 * rows x cols is StarPU's ny x nx. */
static char *shape(void *buf, size_t *rows, size_t *cols, size_t *ld, size_t *es)
{
	switch (*(enum starpu_data_interface_id *)buf) {
	case STARPU_VECTOR_INTERFACE_ID:
		*rows = 1;
		*cols = *ld = STARPU_VECTOR_GET_NX(buf);
		*es = STARPU_VECTOR_GET_ELEMSIZE(buf);
		return (char *)STARPU_VECTOR_GET_PTR(buf);
	case STARPU_MATRIX_INTERFACE_ID:
		*rows = STARPU_MATRIX_GET_NY(buf);
		*cols = STARPU_MATRIX_GET_NX(buf);
		*ld = STARPU_MATRIX_GET_LD(buf);
		*es = STARPU_MATRIX_GET_ELEMSIZE(buf);
		return (char *)STARPU_MATRIX_GET_PTR(buf);
	default: /* a variable: one element of its whole size */
		*rows = *cols = *ld = 1;
		*es = STARPU_VARIABLE_GET_ELEMSIZE(buf);
		return (char *)STARPU_VARIABLE_GET_PTR(buf);
	}
}

static void init_with(const struct pph_reduction *op, void *buffers[])
{
	size_t rows, cols, ld, es, r, c;
	char *p = shape(buffers[0], &rows, &cols, &ld, &es);

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			op->init(p + (r * ld + c) * es);
}

static void redux_with(const struct pph_reduction *op, void *buffers[])
{
	size_t rows, cols, ld, es, fld, r, c;
	char *into = shape(buffers[0], &rows, &cols, &ld, &es);
	const char *from = shape(buffers[1], &rows, &cols, &fld, &es);

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			op->combine(into + (r * ld + c) * es, from + (r * fld + c) * es);
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
	}
#define SLOTS8(a) SLOT(0##a##0) SLOT(0##a##1) SLOT(0##a##2) SLOT(0##a##3) \
	SLOT(0##a##4) SLOT(0##a##5) SLOT(0##a##6) SLOT(0##a##7)
SLOTS8(0) SLOTS8(1) SLOTS8(2) SLOTS8(3) SLOTS8(4) SLOTS8(5) SLOTS8(6) SLOTS8(7)

#define FNS8(f, a) f##0##a##0, f##0##a##1, f##0##a##2, f##0##a##3, \
	f##0##a##4, f##0##a##5, f##0##a##6, f##0##a##7
#define FNS(f) FNS8(f, 0), FNS8(f, 1), FNS8(f, 2), FNS8(f, 3), \
	FNS8(f, 4), FNS8(f, 5), FNS8(f, 6), FNS8(f, 7)
static void (*const init_fns[SP_REDUX_SLOTS])(void *[], void *) = { FNS(init_) };
static void (*const redux_fns[SP_REDUX_SLOTS])(void *[], void *) = { FNS(redux_) };

/* The slot of op, given one if it has none; -1 when all are taken. */
static int slot_of(const struct pph_reduction *op)
{
	int k;

	pthread_mutex_lock(&slots_lock);
	for (k = 0; k < SP_REDUX_SLOTS && slot_op[k] && slot_op[k] != op; k++)
		;
	if (k < SP_REDUX_SLOTS && !slot_op[k]) {
		init_cl[k].cpu_funcs[0] = init_fns[k];
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
	if (!starpu_is_initialized())
		return sp__not_running("pph_data_set_reduction");
	if ((k = slot_of(op)) < 0) {
		fprintf(stderr, "peppher: pph_data_set_reduction: more than %d reduction operators: "
			"libpeppher-starpu has no room for another\n", SP_REDUX_SLOTS);
		return -ENOSPC;
	}
	starpu_data_set_reduction_methods(d->h, &redux_cl[k], &init_cl[k]);
	d->redux = op;
	return 0;
}
