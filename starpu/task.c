/*
 * Codelets and tasks over StarPU.  Each pph_codelet becomes one
 * starpu_codelet whose implementations, per kind of worker, are one
 * trampoline: it learns which implementation StarPU chose
 * (starpu_task_get_implementation), turns StarPU's data interfaces into
 * ours, and runs our variant.  can_execute applies a call's variant mask
 * and the variants disabled by pph_variant_failed().
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../runtime/failures.h"

#ifdef SP_USE_OPENCL
#include <peppher/opencl.h>
#endif

static pthread_mutex_t codelets_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sp_codelet *codelets;

static __thread int variant_failed;
/* pph_call_priority(): the priority of the tasks this thread makes next */
static __thread int call_priority;

void pph_variant_failed(void)
{
	variant_failed = 1;
}

/* The variant running on this thread (run_variants), for pph_variant_error. */
static __thread struct pph_task *running_task;
static __thread int running_impl, variant_errored;

void pph_variant_error(const char *why)
{
	const struct pph_codelet *cl = running_task ? &running_task->w->snapshot : NULL;

	if (!cl) {
		fprintf(stderr, "peppher: pph_variant_error called outside a variant: %s\n",
			why ? why : "");
		return;
	}
	fprintf(stderr, "peppher: %s: variant %s failed: %s; the call fails, its data as the variant left it\n",
		cl->name, cl->impls[running_impl].name ? cl->impls[running_impl].name : "?",
		why ? why : "no reason given");
	variant_errored = 1;
}

const char *sp__running_variant(void)
{
	return running_task ? running_task->w->snapshot.impls[running_impl].name : NULL;
}

static enum sp_kind kind_of_arch(enum pph_arch arch)
{
	return arch == PPH_ARCH_OPENCL ? SP_OPENCL : arch == PPH_ARCH_CUDA ? SP_CUDA : SP_CPU;
}

static enum sp_kind kind_of_worker(unsigned workerid)
{
	enum starpu_worker_archtype t = starpu_worker_get_type((int)workerid);

	return t == STARPU_OPENCL_WORKER ? SP_OPENCL : t == STARPU_CUDA_WORKER ? SP_CUDA : SP_CPU;
}

static int allowed(const struct pph_task *p, int idx)
{
	if (idx < 0 || (p->forced >= 0 && idx != p->forced))
		return 0;
	if (p->host_only && kind_of_arch(p->w->snapshot.impls[idx].arch) != SP_CPU)
		return 0;
	if (p->no_room >> kind_of_arch(p->w->snapshot.impls[idx].arch) & 1u)
		return 0;
	/* reduction copies are set on CPU and OpenCL workers only (redux.c) */
	if (p->redux && kind_of_arch(p->w->snapshot.impls[idx].arch) == SP_CUDA)
		return 0;
	if (idx >= 32)
		return 1;
	return (p->mask >> idx & 1u) && !(__atomic_load_n(&p->w->disabled, __ATOMIC_RELAXED) >> idx & 1u);
}

/* Is some variant of p still allowed to run it? */
static int any_allowed(const struct pph_task *p)
{
	unsigned i;

	for (i = 0; i < p->w->snapshot.nimpls; i++)
		if (allowed(p, (int)i))
			return 1;
	return 0;
}

/*
 * A task whose every variant was disabled since its submission (a call
 * waiting on one whose kernel failed to build) can still be executed by
 * any worker with an implementation slot: StarPU's dmda aborts on a ready
 * task no worker can execute, and run fails it (-EIO), its data as it
 * was.
 */
static int can_execute(unsigned workerid, struct starpu_task *t, unsigned nimpl)
{
	const struct pph_task *p = t->cl_arg;
	int idx;

	if (nimpl >= STARPU_MAXIMPLEMENTATIONS)
		return 0;
	idx = p->w->map[kind_of_worker(workerid)][nimpl];
	return allowed(p, idx) || (idx >= 0 && !any_allowed(p));
}

/* Our interface for buffer i, as StarPU describes it on the worker's
 * node; on OpenCL, a view at an offset or with a leading dimension is
 * copied to a packed buffer first (our OpenCL variants get a bare cl_mem). */
union iface {
	struct pph_vector_iface v;
	struct pph_matrix_iface m;
	struct pph_variable_iface s;
};

struct packed {
	void *mem; /* cl_mem, or NULL */
	size_t bytes;
};

#ifdef SP_USE_OPENCL
static cl_mem pack(uintptr_t dev, size_t offset, size_t row_bytes, size_t rows, size_t ld_bytes,
		   int to_device)
{
	cl_command_queue q = pph_opencl_queue();
	size_t origin[3] = { offset, 0, 0 }, zero[3] = { 0, 0, 0 }, region[3] = { row_bytes, rows, 1 };
	cl_int err;
	cl_mem m = clCreateBuffer(pph_opencl_context(), CL_MEM_READ_WRITE, row_bytes * rows, NULL, &err);

	if (!m)
		return NULL;
	if (to_device)
		clEnqueueCopyBufferRect(q, (cl_mem)dev, m, origin, zero, region, ld_bytes, 0, row_bytes,
					0, 0, NULL, NULL);
	return m;
}

static void unpack(cl_mem m, uintptr_t dev, size_t offset, size_t row_bytes, size_t rows,
		   size_t ld_bytes, int to_home)
{
	cl_command_queue q = pph_opencl_queue();
	size_t origin[3] = { offset, 0, 0 }, zero[3] = { 0, 0, 0 }, region[3] = { row_bytes, rows, 1 };

	if (to_home)
		clEnqueueCopyBufferRect(q, m, (cl_mem)dev, zero, origin, region, row_bytes, 0, ld_bytes,
					0, 0, NULL, NULL);
	clFinish(q);
	clReleaseMemObject(m);
}
#endif

static void convert(void *buf, enum starpu_data_access_mode mode, enum sp_kind kind, union iface *out,
		    struct packed *pk)
{
	enum starpu_data_interface_id id = *(enum starpu_data_interface_id *)buf;

	(void)mode;
	pk->mem = NULL;
	if (id == STARPU_VECTOR_INTERFACE_ID) {
		const struct starpu_vector_interface *v = buf;

		/* OpenCL: a cl_mem (and an offset); CPU and CUDA: ptr */
		out->v = (struct pph_vector_iface){ kind == SP_OPENCL ? (void *)v->dev_handle : (void *)v->ptr,
						    v->nx, v->elemsize };
#ifdef SP_USE_OPENCL
		if (kind == SP_OPENCL && v->offset) {
			pk->bytes = v->nx * v->elemsize;
			out->v.ptr = pk->mem = pack(v->dev_handle, v->offset, pk->bytes, 1, pk->bytes,
						    mode & (STARPU_R | STARPU_REDUX));
		}
#endif
	} else if (id == STARPU_MATRIX_INTERFACE_ID) {
		const struct starpu_matrix_interface *m = buf;

		out->m = (struct pph_matrix_iface){ kind == SP_OPENCL ? (void *)m->dev_handle : (void *)m->ptr,
						    m->ny, m->nx, m->ld, m->elemsize };
#ifdef SP_USE_OPENCL
		if (kind == SP_OPENCL && (m->offset || m->ld != m->nx)) {
			out->m.ptr = pk->mem = pack(m->dev_handle, m->offset, m->nx * m->elemsize, m->ny,
						    m->ld * m->elemsize, mode & (STARPU_R | STARPU_REDUX));
			out->m.ld = m->nx;
		}
#endif
	} else {
		const struct starpu_variable_interface *s = buf;

		/* StarPU 1.3 allocates a variable's copy on a device into ptr
		 * alone: dev_handle is what was registered, a host pointer */
		out->s = (struct pph_variable_iface){ (void *)s->ptr, s->elemsize };
	}
}

/* What a variant gets for host data: its pointer, and its shape. */
static void host_iface(const struct pph_data *d, union iface *out)
{
	if (d->layout == SP_VECTOR)
		out->v = (struct pph_vector_iface){ d->host, d->n, d->elemsize };
	else if (d->layout == SP_MATRIX)
		out->m = (struct pph_matrix_iface){ d->host, d->rows, d->cols, d->ld, d->elemsize };
	else
		out->s = (struct pph_variable_iface){ d->host, d->elemsize };
}

/*
 * What a variant gets for empty data (data.c): its shape, with the
 * caller's pointer on the CPU, StarPU's cl_mem of the spare element on
 * OpenCL (valid as a kernel argument; a matrix packed, ld = cols, as on
 * OpenCL always).
 */
static void empty_iface(const struct pph_data *d, void *buf, enum sp_kind kind, union iface *out,
			struct packed *pk)
{
	const struct starpu_vector_interface *v = buf;
	const struct starpu_matrix_interface *m = buf;
	int vector = *(enum starpu_data_interface_id *)buf == STARPU_VECTOR_INTERFACE_ID;
	void *dev = (void *)(vector ? v->dev_handle : m->dev_handle);

	pk->mem = NULL;
	host_iface(d, out);
	if (kind != SP_OPENCL)
		return;
	if (d->layout == SP_VECTOR) {
		out->v.ptr = dev;
	} else {
		out->m.ptr = dev;
		out->m.ld = d->cols;
	}
}

static void release_packed(void *buf, enum starpu_data_access_mode mode, struct packed *pk)
{
#ifdef SP_USE_OPENCL
	enum starpu_data_interface_id id = *(enum starpu_data_interface_id *)buf;

	if (!pk->mem)
		return;
	if (id == STARPU_VECTOR_INTERFACE_ID) {
		const struct starpu_vector_interface *v = buf;

		unpack(pk->mem, v->dev_handle, v->offset, pk->bytes, 1, pk->bytes,
		       mode & (STARPU_W | STARPU_REDUX));
	} else {
		const struct starpu_matrix_interface *m = buf;

		unpack(pk->mem, m->dev_handle, m->offset, m->nx * m->elemsize, m->ny,
		       m->ld * m->elemsize, mode & (STARPU_W | STARPU_REDUX));
	}
#else
	(void)buf;
	(void)mode;
	(void)pk;
#endif
}

/* The next variant of kind that p may run after idx failed, or -1. */
static int next_variant(const struct pph_task *p, enum sp_kind kind)
{
	unsigned i;

	for (i = 0; i < p->w->snapshot.nimpls; i++)
		if (kind_of_arch(p->w->snapshot.impls[i].arch) == kind && allowed(p, (int)i))
			return (int)i;
	return -1;
}

/* Run p's variant idx of kind on bufs, and the next ones of its kind while
 * they fail (pph_variant_failed); returns the one that ran, or -1. */
static int run_variants(struct pph_task *p, enum sp_kind kind, int idx, void **bufs)
{
	const struct pph_codelet *cl = &p->w->snapshot;
	/* a call inside a variant: the caller's */
	int outer = variant_failed, outer_impl = running_impl;
	struct pph_task *outer_task = running_task;
	struct pph_fpenv_saved fp;

	while (idx >= 0) {
		variant_failed = 0;
		variant_errored = 0;
		running_task = p;
		running_impl = idx;
		if (kind == SP_CPU) /* not a device's host code (fpenv.h) */
			pph_fpenv_enter(&p->fpenv, &fp);
		errno = p->errno_value;
		cl->impls[idx].fn(bufs, p->arg);
		p->errno_value = errno;
		if (kind == SP_CPU)
			pph_fpenv_leave(&p->fpenv, &fp);
		running_task = outer_task;
		running_impl = outer_impl;
#ifdef SP_USE_OPENCL
		if (kind == SP_OPENCL)
			clFinish(pph_opencl_queue());
#endif
		if (variant_errored) { /* said: the call fails, no other variant runs */
			variant_errored = 0;
			sp__variant_failure(cl, idx, "pph_variant_error");
			p->rc = -ECANCELED;
			break;
		}
		if (!variant_failed)
			break;
		sp__variant_failure(cl, idx, "pph_variant_failed");
		/* its data is untouched: another variant of this kind may run */
		fprintf(stderr, "peppher: %s/%s failed: disabled for the rest of the run\n", cl->name,
			cl->impls[idx].name);
		__atomic_or_fetch(&p->w->disabled, 1u << (idx & 31), __ATOMIC_RELAXED);
		idx = next_variant(p, kind);
	}
	variant_failed = outer;
	return idx;
}

#ifdef SP_USE_OPENCL
/* Buffer b of a task on an OpenCL worker, to (to_host) or from the
 * packed host memory at host. */
static cl_int host_copy(void *b, char *host, int to_host)
{
	struct sp_shape s = sp__shape_of(b);
	size_t row = s.cols * s.es;
	size_t origin[3] = { s.offset, 0, 0 }, zero[3] = { 0, 0, 0 }, region[3] = { row, s.rows, 1 };
	cl_command_queue q = pph_opencl_queue();

	if (!s.rows || !s.cols)
		return CL_SUCCESS;
	return to_host ? clEnqueueReadBufferRect(q, (cl_mem)s.dev, CL_TRUE, origin, zero, region,
						 s.ld * s.es, 0, row, 0, host, 0, NULL, NULL) :
			 clEnqueueWriteBufferRect(q, (cl_mem)s.dev, CL_TRUE, origin, zero, region,
						  s.ld * s.es, 0, row, 0, host, 0, NULL, NULL);
}

/*
 * The task's OpenCL variants all failed (a kernel that does not build):
 * StarPU placed it on this device and it cannot move, so a CPU variant
 * runs here, on this worker's thread, on host copies of its buffers, and
 * what it writes is copied back.  Without it the task failed alone, and an
 * asynchronous call (a split call's device block) left its data short.
 * bufs and ifaces: the variant's buffers, made host ones here.  Returns
 * the CPU variant that ran, or -1.
 */
static int run_on_host_copies(struct pph_task *p, void *buffers[], union iface *ifaces,
			      void **bufs)
{
	char *copies[PPH_MAX_BUFFERS] = { NULL };
	int idx = next_variant(p, SP_CPU), ok = idx >= 0;
	unsigned i;

	for (i = 0; ok && i < p->nslots; i++) {
		void *b = p->slot[i] >= 0 ? buffers[p->slot[i]] : NULL;
		struct sp_shape s;

		if (!b)
			continue; /* host data: given as it is already */
		s = sp__shape_of(b);
		copies[i] = malloc(s.rows * s.cols * s.es + 1);
		ok = copies[i] && (!(p->modes[p->slot[i]] & (STARPU_R | STARPU_REDUX)) ||
				   host_copy(b, copies[i], 1) == CL_SUCCESS);
		if (*(enum starpu_data_interface_id *)b == STARPU_VECTOR_INTERFACE_ID)
			ifaces[i].v = (struct pph_vector_iface){ copies[i], s.cols, s.es };
		else if (*(enum starpu_data_interface_id *)b == STARPU_MATRIX_INTERFACE_ID)
			ifaces[i].m = (struct pph_matrix_iface){ copies[i], s.rows, s.cols, s.cols,
								 s.es };
		else
			ifaces[i].s = (struct pph_variable_iface){ copies[i], s.es };
		if (p->empty[p->slot[i]]) { /* its shape, on the copy of the spare element */
			host_iface(p->empty[p->slot[i]], &ifaces[i]);
			ifaces[i].v.ptr = copies[i]; /* ptr leads both */
			if (p->empty[p->slot[i]]->layout == SP_MATRIX)
				ifaces[i].m.ld = ifaces[i].m.cols;
		}
		bufs[i] = &ifaces[i];
	}
	if (ok) {
		fprintf(stderr, "peppher: %s: runs %s on host copies of its data\n",
			p->w->snapshot.name, p->w->snapshot.impls[idx].name);
		idx = run_variants(p, SP_CPU, idx, bufs);
	}
	for (i = 0; i < p->nslots; i++) {
		if (ok && idx >= 0 && copies[i] &&
		    (p->modes[p->slot[i]] & (STARPU_W | STARPU_REDUX)))
			ok = host_copy(buffers[p->slot[i]], copies[i], 0) == CL_SUCCESS;
		free(copies[i]);
	}
	return ok ? idx : -1;
}
#endif

int sp__waits_in_variant(const char *what)
{
	if (!starpu_task_get_current())
		return 0;
	fprintf(stderr, "peppher: %s inside a variant: libpeppher-starpu cannot wait there "
			"(StarPU's workers must not)\n",
		what);
	return 1;
}

int sp__task_run_here(struct pph_task *p)
{
	union iface ifaces[PPH_MAX_BUFFERS];
	void *bufs[PPH_MAX_BUFFERS];
	unsigned i;

	if (p->nbuffers) {
		fprintf(stderr, "peppher: %s: called inside a variant with data registered outside "
				"it: libpeppher-starpu cannot wait there\n",
			p->w->snapshot.name);
		return -EDEADLK;
	}
	for (i = 0; i < p->nslots; i++) {
		host_iface(p->host_data[i], &ifaces[i]);
		bufs[i] = &ifaces[i];
	}
	p->impl_ran = run_variants(p, SP_CPU, next_variant(p, SP_CPU), bufs);
	p->worker_ran = starpu_worker_get_id();
	if (p->impl_ran < 0) {
		fprintf(stderr, "peppher: %s: no CPU variant to run inside a variant\n",
			p->w->snapshot.name);
		return -EIO;
	}
	return p->rc; /* -ECANCELED: pph_variant_error */
}

/* A distinct handle of p's buffers, acquired once in the modes its
 * buffers use it in together (StarPU's acquire for writing after one for
 * reading by the same thread would wait for itself). */
static enum starpu_data_access_mode acquire_mode(const struct pph_task *p, unsigned i, int *first)
{
	enum starpu_data_access_mode mode = 0;
	unsigned j;

	*first = 1;
	for (j = 0; j < p->nbuffers; j++) {
		if (p->handles[j] != p->handles[i])
			continue;
		if (j < i)
			*first = 0;
		/* a contribution adds to the data itself, as it would to an
		 * accumulator set to the identity */
		mode |= p->modes[j] == STARPU_R ? STARPU_R : STARPU_RW;
	}
	return mode == STARPU_R ? STARPU_R : STARPU_RW;
}

int sp__task_run_for_caller(struct pph_task *p)
{
	union iface ifaces[PPH_MAX_BUFFERS];
	void *bufs[PPH_MAX_BUFFERS];
	unsigned i, n;
	int rc = 0, first, idx;

	/* StarPU's tasks before it on its data first, its data home: the
	 * first n buffers' handles acquired */
	for (n = 0; n < p->nbuffers; n++) {
		enum starpu_data_access_mode mode = acquire_mode(p, n, &first);

		if (first && starpu_data_acquire(p->handles[n], mode) != 0) {
			rc = -EIO;
			break;
		}
	}
	if (rc == 0) {
		for (i = 0; i < p->nslots; i++) {
			host_iface(p->slot[i] < 0 ? p->host_data[i] : p->data[p->slot[i]], &ifaces[i]);
			bufs[i] = &ifaces[i];
		}
		p->impl_ran = idx = run_variants(p, SP_CPU, next_variant(p, SP_CPU), bufs);
		p->worker_ran = -1;
		if (idx < 0) {
			fprintf(stderr, "peppher: %s: no variant left to run the call\n",
				p->w->snapshot.name);
			rc = -EIO;
		} else {
			__atomic_add_fetch(&p->w->runs[(size_t)SP_CALLER_ROW * p->w->snapshot.nimpls + idx],
					   1, __ATOMIC_RELAXED);
			rc = p->rc; /* -ECANCELED: pph_variant_error */
		}
	}
	for (i = 0; i < n; i++)
		if (acquire_mode(p, i, &first) && first)
			starpu_data_release(p->handles[i]);
	return rc;
}

/*
 * The variants of a call of cl that run on its caller's thread
 * (PPH_IMPL_CALLER_THREAD) where no StarPU worker can run another that
 * it allows (none of their kind, or disabled), else 0.  Not in a
 * distributed run: each rank's calls are the owner's to run.
 */
unsigned sp__for_caller(const struct pph_codelet *cl, unsigned impl_mask)
{
	static const enum starpu_worker_archtype types[SP_NKINDS] = {
		[SP_CPU] = STARPU_CPU_WORKER, [SP_CUDA] = STARPU_CUDA_WORKER,
		[SP_OPENCL] = STARPU_OPENCL_WORKER
	};
	const struct sp_codelet *w;
	unsigned mine = pph__caller_variants(cl) & impl_mask, disabled, i;

	if (!mine || pph_mpi_size() > 1)
		return 0;
	w = sp__codelet_get(cl);
	disabled = w ? __atomic_load_n(&w->disabled, __ATOMIC_RELAXED) : 0;
	for (i = 0; i < cl->nimpls && i < 32; i++)
		if ((impl_mask & ~mine & ~disabled) >> i & 1u &&
		    starpu_worker_get_count_by_type(types[kind_of_arch(cl->impls[i].arch)]) > 0)
			return 0;
	return mine;
}

static void run(void *buffers[], void *cl_arg, enum sp_kind kind)
{
	struct pph_task *p = cl_arg;
	struct starpu_task *t = starpu_task_get_current();
	const struct pph_codelet *cl = &p->w->snapshot;
	union iface ifaces[PPH_MAX_BUFFERS];
	struct packed packed[PPH_MAX_BUFFERS];
	void *bufs[PPH_MAX_BUFFERS];
	int idx = p->w->map[kind][starpu_task_get_implementation(t)], worker = starpu_worker_get_id();
	unsigned i;

#ifdef SP_USE_OPENCL
	if (kind == SP_OPENCL)
		sp__opencl_set_current(starpu_worker_get_devid(worker));
#endif
	for (i = 0; i < p->nslots; i++) {
		if (p->slot[i] < 0)
			host_iface(p->host_data[i], &ifaces[i]);
		else if (p->empty[p->slot[i]])
			empty_iface(p->empty[p->slot[i]], buffers[p->slot[i]], kind, &ifaces[i],
				    &packed[p->slot[i]]);
		else
			convert(buffers[p->slot[i]], p->modes[p->slot[i]], kind, &ifaces[i],
				&packed[p->slot[i]]);
		bufs[i] = &ifaces[i];
	}
	if (!allowed(p, idx)) /* disabled since placed (can_execute) */
		idx = next_variant(p, kind);
	idx = run_variants(p, kind, idx, bufs);
	for (i = 0; i < p->nbuffers; i++)
		release_packed(buffers[i], p->modes[i], &packed[i]);
#ifdef SP_USE_OPENCL
	if (idx < 0 && kind == SP_OPENCL)
		idx = run_on_host_copies(p, buffers, ifaces, bufs);
	sp__opencl_set_current(-1);
#endif
	p->impl_ran = idx;
	p->worker_ran = worker;
	if (idx < 0) {
		fprintf(stderr, "peppher: %s: no variant left to run the task\n", cl->name);
		p->rc = -EIO;
	} else if (worker >= 0 && worker < STARPU_NMAXWORKERS) {
		__atomic_add_fetch(&p->w->runs[(size_t)worker * cl->nimpls + idx], 1, __ATOMIC_RELAXED);
	}
	/* nobody waits for a detached call's error: counted (pph_failed_calls)
	 * here, before StarPU releases its data, so that a host read of what
	 * it wrote sees it; StarPU's callback (detached_done) runs after that
	 * release, and a read could return before it counted */
	if (p->rc && p->detached)
		sp__count_failed_call();
	if (p->callback)
		p->callback(p->callback_data);
}

static void run_cpu(void *buffers[], void *cl_arg)
{
	run(buffers, cl_arg, SP_CPU);
}

static void run_opencl(void *buffers[], void *cl_arg)
{
	run(buffers, cl_arg, SP_OPENCL);
}

static void run_cuda(void *buffers[], void *cl_arg)
{
	run(buffers, cl_arg, SP_CUDA);
}

static enum starpu_perfmodel_type model_type(enum pph_model_kind kind)
{
	switch (kind) {
	case PPH_MODEL_HISTORY: return STARPU_HISTORY_BASED;
	case PPH_MODEL_REGRESSION: return STARPU_REGRESSION_BASED;
	case PPH_MODEL_NL_REGRESSION: return STARPU_NL_REGRESSION_BASED;
	/* libpeppher's default is history where measured, a fit elsewhere;
	 * StarPU 1.3 has no such kind: its NL_REGRESSION_BASED predicts
	 * from the fit wherever a size is within the measured range, history
	 * or not (a fit of three sizes, 2.2 ms flat, outvoted a history of
	 * 128 us, and the variant 2.5 times slower ran for good).  Its
	 * history is exact where measured, and sizes never run are
	 * calibrated */
	default: return STARPU_HISTORY_BASED;
	}
}

/* FNV-1a over s and its terminating NUL (names apart: "ab","c" is not
 * "a","bc"). */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	} while (*s++);
	return h;
}

/*
 * The symbol of cl's StarPU model: peppher.NAME.HASH, HASH 8 hex digits of
 * a hash of its variants' architectures and names, in their order.  StarPU
 * keeps a history per implementation slot (the n-th CPU function, the n-th
 * OpenCL one), which the order of the variants gives, not per variant:
 * named after the interface alone, a model given another list of variants
 * (one renamed, added, removed or disabled, or a composition forced onto
 * one platform with --platforms, sharing PEPPHER_HOME) gave each variant
 * the history of the one that had its slot before, never corrected since
 * StarPU stops updating a calibrated entry.  srt_zins, O(n^2), renamed from
 * srt_ins, ran at 89-122 ms a call on srt_omp's history of 4.8 ms.  Each
 * list of variants has its model now: a new list calibrates afresh.
 */
static char *model_symbol(const struct pph_codelet *cl)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned i;
	char *symbol;

	for (i = 0; i < cl->nimpls; i++)
		h = fnv1a(fnv1a(h, pph_arch_name(cl->impls[i].arch)),
			  cl->impls[i].name ? cl->impls[i].name : "");
	if (asprintf(&symbol, "peppher.%s.%08x", cl->name, (unsigned)(h ^ (h >> 32))) < 0)
		return NULL;
	return symbol;
}

static struct sp_codelet *codelet_new(const struct pph_codelet *cl)
{
	struct sp_codelet *w = calloc(1, sizeof(*w));
	unsigned n[SP_NKINDS] = { 0 }, i, k, j;

	/* a row per worker, and one for the calling threads (SP_CALLER_ROW) */
	if (!w || !(w->runs = calloc((size_t)(SP_CALLER_ROW + 1) * cl->nimpls, sizeof(*w->runs))) ||
	    !(w->symbol = model_symbol(cl))) {
		if (w)
			free(w->runs);
		free(w);
		return NULL;
	}
	w->pcl = cl;
	w->snapshot = *cl;
	for (k = 0; k < SP_NKINDS; k++)
		for (j = 0; j < STARPU_MAXIMPLEMENTATIONS; j++)
			w->map[k][j] = -1;
	for (i = 0; i < cl->nimpls; i++) {
		k = kind_of_arch(cl->impls[i].arch);
		if (n[k] == STARPU_MAXIMPLEMENTATIONS) {
			fprintf(stderr, "peppher: %s/%s left out: StarPU takes %d variants per kind of worker\n",
				cl->name, cl->impls[i].name, STARPU_MAXIMPLEMENTATIONS);
			continue;
		}
		w->map[k][n[k]] = (int)i;
		if (k == SP_CPU)
			w->cl.cpu_funcs[n[k]] = run_cpu;
		else if (k == SP_OPENCL)
			w->cl.opencl_funcs[n[k]] = run_opencl;
		else
			w->cl.cuda_funcs[n[k]] = run_cuda;
		n[k]++;
	}
	w->cl.where = (n[SP_CPU] ? STARPU_CPU : 0) | (n[SP_OPENCL] ? STARPU_OPENCL : 0) |
		      (n[SP_CUDA] ? STARPU_CUDA : 0);
	w->cl.can_execute = can_execute;
	w->cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
	w->cl.name = cl->name;
	w->model.type = model_type(cl->model);
	w->model.symbol = w->symbol;
	w->cl.model = &w->model;
	return w;
}

static int same(const struct pph_codelet *a, const struct pph_codelet *b)
{
	return a->name == b->name && a->nimpls == b->nimpls && a->impls == b->impls &&
	       a->model == b->model;
}

/* A codelet at an address reused with other contents gets a new
 * sp_codelet; the old one stays until pph_shutdown (tasks may use it). */
struct sp_codelet *sp__codelet_get(const struct pph_codelet *cl)
{
	struct sp_codelet *w;

	pthread_mutex_lock(&codelets_lock);
	for (w = codelets; w && !(w->pcl == cl && same(&w->snapshot, cl)); w = w->next)
		;
	if (!w && (w = codelet_new(cl))) {
		w->next = codelets;
		codelets = w;
	}
	pthread_mutex_unlock(&codelets_lock);
	return w;
}

void sp__codelets_free(void)
{
	struct sp_codelet *w, *next;

	pthread_mutex_lock(&codelets_lock);
	for (w = codelets; w; w = next) {
		next = w->next;
		free(w->runs);
		free(w->symbol);
		free(w);
	}
	codelets = NULL;
	pthread_mutex_unlock(&codelets_lock);
}

unsigned long sp__tasks_ran(void)
{
	unsigned long n = 0;
	size_t i, count;
	const struct sp_codelet *w;

	pthread_mutex_lock(&codelets_lock);
	for (w = codelets; w; w = w->next)
		for (i = 0, count = (size_t)STARPU_NMAXWORKERS * w->snapshot.nimpls; i < count; i++)
			n += __atomic_load_n(&w->runs[i], __ATOMIC_RELAXED);
	pthread_mutex_unlock(&codelets_lock);
	return n;
}

void sp__stats_print(FILE *fp)
{
	unsigned worker, nworkers = starpu_worker_get_count(), i;
	const struct sp_codelet *w;
	char name[64];

	pthread_mutex_lock(&codelets_lock);
	for (worker = 0; worker <= nworkers; worker++) {
		/* the last row: the calls run on their callers' threads */
		size_t row = worker < nworkers ? worker : SP_CALLER_ROW;
		int any = 0;

		if (worker < nworkers) {
			starpu_worker_get_name((int)worker, name, sizeof(name));
			fprintf(fp, "worker %u (%s)\n", worker, name);
		}
		for (w = codelets; w; w = w->next)
			for (i = 0; i < w->snapshot.nimpls; i++)
				if (w->runs[row * w->snapshot.nimpls + i]) {
					if (worker == nworkers && !any++)
						fprintf(fp, "the calling threads\n");
					fprintf(fp, "    %s/%s: %lu tasks\n", w->snapshot.name,
						w->snapshot.impls[i].name,
						w->runs[row * w->snapshot.nimpls + i]);
				}
	}
	pthread_mutex_unlock(&codelets_lock);
}


struct pph_task *pph_task_create(const struct pph_codelet *cl)
{
	struct pph_task *p;

	if (!cl || !(p = calloc(1, sizeof(*p))))
		return NULL;
	p->mask = PPH_ALL_IMPLS;
	p->forced = -1;
	p->impl_ran = p->worker_ran = -1;
	/* pph_shutdown frees the codelets: none got as it stops StarPU
	 * (the task is refused at its submission) */
	if (pph__codelet_check(cl) == 0 && sp__enter(NULL, 0) == 0) {
		p->w = sp__codelet_get(cl);
		sp__leave();
	}
	p->t = starpu_task_create();
	if (!p->t) {
		free(p);
		return NULL;
	}
	p->t->destroy = 0;
	p->t->detach = 0;
	p->t->cl_arg = p;
	p->t->priority = call_priority;
	return p;
}

static enum starpu_data_access_mode starpu_mode(enum pph_access mode)
{
	return mode == PPH_R ? STARPU_R :
	       mode == PPH_W ? STARPU_W :
	       mode == PPH_REDUX ? STARPU_REDUX : STARPU_RW;
}

int pph_task_add_buffer(struct pph_task *task, pph_data_handle handle, enum pph_access mode)
{
	if (!task || !handle || !(mode == PPH_R || mode == PPH_W || mode == PPH_RW || mode == PPH_REDUX) ||
	    handle->unregistered)
		return -EINVAL;
	if (task->submitted)
		return -EBUSY;
	if (task->nslots == PPH_MAX_BUFFERS)
		return -E2BIG;
	/* a partitioned handle, or a contribution without an operator, is
	 * refused by pph_task_submit, as libpeppher does: refused here, the
	 * task went on without the buffer, and a program that checks only
	 * the submission (as runtime.h says it may) ran its variant on
	 * fewer buffers than it takes (SIGSEGV) */
	if (mode == PPH_REDUX)
		task->redux = 1;
	if (!handle->h) { /* host data: no StarPU buffer (data.c), no device */
		task->host_only = 1;
		task->host_redux |= mode == PPH_REDUX;
		task->slot[task->nslots] = -1;
		task->host_data[task->nslots++] = handle;
		return 0;
	}
	task->slot[task->nslots++] = (int)task->nbuffers;
	task->empty[task->nbuffers] = handle->spare ? handle : NULL;
	task->data[task->nbuffers] = handle;
	task->pmodes[task->nbuffers] = mode;
	task->handles[task->nbuffers] = handle->h;
	task->modes[task->nbuffers++] = starpu_mode(mode);
	return 0;
}

/*
 * Whether the task's handles may be used now, as libpeppher's submission
 * asks: not partitioned (its blocks hold the data: -EBUSY, said), and a
 * contribution (PPH_REDUX) with an operator and no other use of its
 * handle in the task (-EINVAL).  Host data has neither blocks nor
 * operators: a contribution to it is refused.
 */
static int buffers_usable(const struct pph_task *task)
{
	unsigned i, j;

	for (i = 0; i < task->nbuffers; i++)
		if (task->data[i]->nchildren) {
			fprintf(stderr, "peppher: pph_task_submit: handle %p is partitioned: pph_data_unpartition() it first\n",
				(const void *)task->data[i]);
			return -EBUSY;
		}
	for (i = 0; i < task->nbuffers; i++) {
		if (task->pmodes[i] != PPH_REDUX)
			continue;
		if (!task->data[i]->redux)
			return -EINVAL;
		for (j = 0; j < task->nbuffers; j++)
			if (j != i && task->handles[j] == task->handles[i])
				return -EINVAL;
	}
	return task->host_redux ? -EINVAL : 0;
}

int pph_task_set_arg(struct pph_task *task, const void *arg, size_t size)
{
	void *copy = NULL;

	if (!task || (size && !arg))
		return -EINVAL;
	if (task->submitted)
		return -EBUSY;
	if (size && !(copy = malloc(size)))
		return -ENOMEM;
	if (size)
		memcpy(copy, arg, size);
	free(task->arg);
	task->arg = copy;
	task->arg_size = size;
	return 0;
}

int pph_task_force_impl(struct pph_task *task, int index)
{
	if (!task || (task->w && index >= (int)task->w->snapshot.nimpls))
		return -EINVAL;
	task->forced = index < 0 ? -1 : index;
	return 0;
}

int pph_task_set_impl_mask(struct pph_task *task, unsigned mask)
{
	unsigned i, n;

	if (!task || !task->w)
		return -EINVAL;
	n = task->w->snapshot.nimpls;
	for (i = 0; i < n && i < 32 && !(mask >> i & 1u); i++)
		;
	if (i == n || i == 32) /* none allowed (variants past the 32nd always are) */
		if (n <= 32)
			return -EINVAL;
	task->mask = mask;
	return 0;
}

/* StarPU 1.3 keys its models on the data's sizes: the work is kept for
 * the caller only (doc/starpu.md) */
static __thread double call_work;

double pph_call_work(double work)
{
	double before = call_work;

	call_work = work > 0 && isfinite(work) ? work : 0;
	return before;
}

/* StarPU loads a model at its codelet's first task: nothing to do early */
void pph_codelet_declare(const struct pph_codelet *cl)
{
	(void)cl;
}

int pph_call_priority(int priority)
{
	int before = call_priority;

	call_priority = priority;
	return before;
}

void pph_task_set_priority(struct pph_task *task, int priority)
{
	if (task && task->t)
		task->t->priority = priority;
}

void pph_task_set_callback(struct pph_task *task, void (*fn)(void *), void *data)
{
	if (!task)
		return;
	task->callback = fn;
	task->callback_data = data;
}

void pph_task_set_detached(struct pph_task *task, int detached)
{
	if (task && !task->submitted)
		task->detached = detached != 0;
}

static void task_free(struct pph_task *p)
{
	if (p->t)
		starpu_task_destroy(p->t);
	free(p->arg);
	free(p);
}

/* StarPU's callback of a detached task: it has run (a failure was counted
 * by run()), free ours.  StarPU destroys its task itself (destroy = 1), so
 * only ours goes. */
static void detached_done(void *arg)
{
	struct pph_task *p = arg;

	free(p->arg);
	free(p);
}

/* Whether some worker can run a variant the task allows. */
/* STARPU_LIMIT_{OPENCL,CUDA}_MEM in bytes, 0: none (StarPU's own
 * variables, in MiB) */
static size_t kind_limit(enum sp_kind k)
{
	const char *v = getenv(k == SP_OPENCL ? "STARPU_LIMIT_OPENCL_MEM" : "STARPU_LIMIT_CUDA_MEM");
	char *end;
	unsigned long long mib;

	if (k == SP_CPU || !v || !*v)
		return 0;
	mib = strtoull(v, &end, 10);
	return *end || mib > (SIZE_MAX >> 20) ? 0 : (size_t)mib << 20;
}

/*
 * The kinds of device whose memory limit p's data exceed: StarPU waits
 * for room there for good (the program hung, saying nothing), where
 * libpeppher fails the call.  Such a task runs elsewhere, or fails saying
 * why.
 */
static unsigned kinds_without_room(const struct pph_task *p)
{
	unsigned long long bytes = 0;
	unsigned i, k, none = 0;

	for (i = 0; i < p->nbuffers; i++)
		bytes += starpu_data_get_size(p->handles[i]);
	for (k = SP_OPENCL; k < SP_NKINDS; k++) {
		size_t limit = kind_limit((enum sp_kind)k);

		if (limit && bytes > limit)
			none |= 1u << k;
	}
	return none;
}

int sp__runnable_with(const struct pph_task *p, const unsigned count[SP_NKINDS])
{
	unsigned i;

	for (i = 0; i < p->w->snapshot.nimpls; i++) {
		enum sp_kind k = kind_of_arch(p->w->snapshot.impls[i].arch);
		unsigned j;

		for (j = 0; j < STARPU_MAXIMPLEMENTATIONS && p->w->map[k][j] != (int)i; j++)
			;
		if (count[k] && j < STARPU_MAXIMPLEMENTATIONS && allowed(p, (int)i))
			return 1;
	}
	return 0;
}

static int runnable(const struct pph_task *p)
{
	const unsigned count[SP_NKINDS] = { starpu_cpu_worker_get_count(),
					    starpu_opencl_worker_get_count(),
					    starpu_cuda_worker_get_count() };

	return sp__runnable_with(p, count);
}

static int task_submit(struct pph_task *task);

/* A variant for the caller's thread runs for a synchronous call only
 * (sp__for_caller): a task submitted is without them, or refused
 * (-ENODEV) where it has no other. */
static int leave_caller_variants(struct pph_task *task)
{
	const struct pph_codelet *cl = &task->w->snapshot;
	unsigned mine = pph__caller_variants(cl);

	if (!mine || pph_mpi_size() > 1)
		return 0;
	task->mask &= ~mine;
	if (cl->nimpls <= 32 && !(task->mask & pph__all_variants(cl))) {
		fprintf(stderr, "peppher: %s: its variants run on the thread of a synchronous call only (PPH_IMPL_CALLER_THREAD): a task submitted otherwise is refused\n",
			cl->name ? cl->name : "?");
		return -ENODEV;
	}
	return 0;
}

int pph_task_submit(struct pph_task *task)
{
	int rc;

	if (!task)
		return -EINVAL;
	if (task->submitted)
		return -EBUSY;
	/* refused once pph_shutdown stops StarPU; one under way is waited for */
	if ((rc = sp__enter("pph_task_submit", 0)) != 0)
		return rc;
	pph_fpenv_get(&task->fpenv); /* the environment its variant runs in */
	rc = task_submit(task);
	sp__leave();
	return rc;
}

static int task_submit(struct pph_task *task)
{
	struct starpu_task *t;
	unsigned i;
	int rc, detached;

	if (!task->w)
		return -EINVAL;
	if ((rc = leave_caller_variants(task)) != 0)
		return rc;
	if ((rc = buffers_usable(task)) != 0)
		return rc;
	task->no_room = kinds_without_room(task);
	if (!runnable(task)) {
		if (!task->no_room)
			return sp__not_runnable_here(task, -ENODEV);
		task->no_room = 0;
		if (!runnable(task))
			return sp__not_runnable_here(task, -ENODEV);
		fprintf(stderr, "peppher: %s: its data do not fit in the device memory STARPU_LIMIT_OPENCL_MEM or STARPU_LIMIT_CUDA_MEM leaves, and no other worker can run it\n",
			task->w->snapshot.name ? task->w->snapshot.name : "?");
		return sp__not_runnable_here(task, -ENOMEM);
	}
	t = task->t;
	t->cl = &task->w->cl;
	t->nbuffers = (int)task->nbuffers;
	if (task->nbuffers > STARPU_NMAXBUFS) {
		t->dyn_handles = malloc(task->nbuffers * sizeof(*t->dyn_handles));
		t->dyn_modes = malloc(task->nbuffers * sizeof(*t->dyn_modes));
		if (!t->dyn_handles || !t->dyn_modes)
			return -ENOMEM;
	}
	for (i = 0; i < task->nbuffers; i++) {
		STARPU_TASK_SET_HANDLE(t, task->handles[i], i);
		STARPU_TASK_SET_MODE(t, task->modes[i], i);
	}
	detached = task->detached;
	if (detached) {
		t->detach = 1;
		t->destroy = 1;
		t->callback_func = detached_done;
		t->callback_arg = task;
	}
	rc = sp__task_submit(task);
	if (rc < 0)
		return rc;
	/* a detached task StarPU has may have run, and detached_done freed
	 * it, already: it is not touched again (a write to it here corrupted
	 * the heap of the rank, one run in a few hundred) */
	if (detached) {
		if (rc == 1) /* it runs on another rank: nothing will free it */
			detached_done(task);
		return 0;
	}
	task->submitted = 1;
	return 0;
}

int pph_task_wait(struct pph_task *task)
{
	if (!task || task->detached || !task->submitted)
		return -EINVAL;
	if (sp__waits_in_variant("pph_task_wait"))
		return -EDEADLK;
	if (task->submitted == 1 && task->t) { /* no task here: it ran on another rank */
		int rc = 0;

		/* else StarPU stopped: pph_shutdown waited for the task */
		if (sp__enter(NULL, 1) == 0) {
			rc = starpu_task_wait(task->t);
			sp__leave();
		}
		task->submitted = 2;
		if (rc != 0)
			return rc;
	}
	return task->rc;
}

void pph_task_wait_all(void)
{
	if (sp__enter(NULL, 1) != 0)
		return;
	if (!sp__waits_in_variant("pph_task_wait_all"))
		sp__tasks_wait_all();
	sp__leave();
}

int pph_task_impl_ran(const struct pph_task *task)
{
	return task ? task->impl_ran : -1;
}

int pph_task_worker_ran(const struct pph_task *task)
{
	return task ? task->worker_ran : -1;
}

void pph_task_destroy(struct pph_task *task)
{
	if (!task)
		return;
	if (task->submitted == 1 && !task->detached && pph_task_wait(task) == -EDEADLK)
		return; /* inside a variant, and StarPU may still run it: left, not freed */
	task_free(task);
}

int pph_openmp_threads(void)
{
	/* a task runs on one CPU worker (StarPU's parallel tasks need its
	 * parallel schedulers, which PEPPHER_SCHED does not offer) */
	if (starpu_task_get_current())
		return starpu_combined_worker_get_size();
	return (int)pph_worker_count_arch(PPH_ARCH_CPU);
}
