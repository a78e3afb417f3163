/*
 * The CUDA driver: one memory node and one worker per CUDA device
 * (PEPPHER_NCUDA limits the count; 0 turns CUDA off).  When the CUDA
 * runtime finds no usable device (no GPU, no driver), there are simply no
 * CUDA workers.
 *
 * Copies run on a stream of their own, so that a prefetch or a copy to the
 * host overlaps the kernels running on the worker's stream: the worker's
 * stream waits for a copy to the device through an event before the
 * variant's kernels start.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <peppher/cuda.h>

#include "internal.h"

struct cuda_device {
	int id;
	cudaStream_t stream;	   /* the variants' kernels */
	cudaStream_t copy_stream;  /* transfers both ways */
	cudaEvent_t copied;	   /* the last copy to the device */
};

static struct cuda_device devices[PPH_MAX_NODES];
static unsigned ndevices;
static PPH_TLS struct cuda_device *current;

static int check(cudaError_t err, const char *what)
{
	if (err == cudaSuccess)
		return 0;
	fprintf(stderr, "peppher: CUDA: %s failed: %s\n", what, cudaGetErrorString(err));
	return err == cudaErrorMemoryAllocation ? -ENOMEM : -EIO;
}

static struct cuda_device *dev_of(unsigned node)
{
	return pph__rt.nodes[node].driver;
}

static int cu_alloc(unsigned node, size_t bytes, void **buf)
{
	cudaSetDevice(dev_of(node)->id);
	return check(cudaMalloc(buf, bytes ? bytes : 1), "cudaMalloc");
}

static void cu_free(unsigned node, void *buf)
{
	cudaSetDevice(dev_of(node)->id);
	cudaFree(buf);
}

static int copy(unsigned node, enum pph_layout layout, const union pph_iface *host,
		const union pph_iface *dev, int to_device)
{
	struct cuda_device *d = dev_of(node);
	enum cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
	size_t bytes;
	cudaError_t err;

	cudaSetDevice(d->id);
	if (layout == PPH_LAYOUT_MATRIX) {
		const struct pph_matrix_iface *m = &host->matrix;
		size_t width = m->cols * m->elemsize;

		if (!m->rows || !m->cols)
			return 0;
		err = to_device ?
			cudaMemcpy2DAsync(dev->matrix.ptr, width, m->ptr, m->ld * m->elemsize,
					  width, m->rows, kind, d->copy_stream) :
			cudaMemcpy2DAsync(m->ptr, m->ld * m->elemsize, dev->matrix.ptr, width,
					  width, m->rows, kind, d->copy_stream);
	} else {
		bytes = layout == PPH_LAYOUT_VARIABLE ? host->variable.size :
							host->vector.n * host->vector.elemsize;
		if (!bytes)
			return 0;
		err = to_device ?
			cudaMemcpyAsync(dev->vector.ptr, host->vector.ptr, bytes, kind,
					d->copy_stream) :
			cudaMemcpyAsync(host->vector.ptr, dev->vector.ptr, bytes, kind,
					d->copy_stream);
	}
	/* a copy to the device comes before the variant's kernels: on the
	 * worker's stream through the event, and on the legacy default stream
	 * because both streams are blocking ones; the host wants a copy to it
	 * now */
	if (err == cudaSuccess && to_device &&
	    (err = cudaEventRecord(d->copied, d->copy_stream)) == cudaSuccess)
		err = cudaStreamWaitEvent(d->stream, d->copied, 0);
	if (err == cudaSuccess && !to_device)
		err = cudaStreamSynchronize(d->copy_stream);
	return check(err, to_device ? "copy to device" : "copy to host");
}

static int cu_to_device(unsigned node, enum pph_layout layout,
			const union pph_iface *host, union pph_iface *dev)
{
	return copy(node, layout, host, dev, 1);
}

static int cu_to_host(unsigned node, enum pph_layout layout,
		      const union pph_iface *dev, union pph_iface *host)
{
	return copy(node, layout, host, dev, 0);
}

/* A launch with a bad configuration is reported by cudaGetLastError, a
 * fault while it ran by the synchronisations: either fails the variant,
 * whose task then runs elsewhere with the data as it was. */
static int cu_sync(unsigned node)
{
	int rc;

	cudaSetDevice(dev_of(node)->id);
	rc = check(cudaGetLastError(), "a CUDA variant's launch");
	if (check(cudaStreamSynchronize(dev_of(node)->stream), "a CUDA variant's stream"))
		rc = -EIO;
	if (check(cudaDeviceSynchronize(), "a CUDA variant"))
		rc = -EIO;
	return rc;
}

static void cu_wait_copies(unsigned node)
{
	cudaSetDevice(dev_of(node)->id);
	(void)cudaEventSynchronize(dev_of(node)->copied);
}

static const struct pph_node_ops cuda_ops = {
	cu_alloc, cu_free, cu_to_device, cu_to_host, cu_sync, cu_wait_copies,
};

/* How many devices to open: max (PEPPHER_NCUDA or the program's pph_conf,
 * read by pph_init), -1 for all. */
static unsigned max_devices(int max)
{
	return max >= 0 ? (unsigned)max : PPH_MAX_NODES;
}

/*
 * How a CUDA worker waits for its device (PEPPHER_CUDA_WAIT, read by
 * pph_init): cudaDeviceScheduleSpin, Yield or BlockingSync; else CUDA's
 * own choice, which spins while there are fewer contexts than cores.  A
 * spinning driver thread takes a core that a CPU worker is bound to, for
 * as long as its kernels and copies run; blocking costs a wake-up at each
 * wait instead.  Returns the flag, or -1 to leave CUDA's.
 */
static int wait_flag(void)
{
	switch (pph__rt.cuda_wait) {
	case PPH_CUDA_WAIT_SPIN:
		return cudaDeviceScheduleSpin;
	case PPH_CUDA_WAIT_YIELD:
		return cudaDeviceScheduleYield;
	case PPH_CUDA_WAIT_BLOCK:
		return cudaDeviceScheduleBlockingSync;
	default:
		return -1;
	}
}

static void destroy_streams(struct cuda_device *d)
{
	cudaStreamDestroy(d->copy_stream);
	cudaStreamDestroy(d->stream);
}

unsigned pph__cuda_start(int conf_max)
{
	unsigned max = max_devices(conf_max);
	int n = 0, i, flag = wait_flag();

	ndevices = 0;
	/* no GPU or no driver: an error here just means no CUDA workers */
	if (!max || cudaGetDeviceCount(&n) != cudaSuccess)
		return 0;
	for (i = 0; i < n && ndevices < max && pph__rt.nnodes < PPH_MAX_NODES; i++) {
		struct cuda_device *d = &devices[ndevices];

		d->id = i;
		if (cudaSetDevice(i) != cudaSuccess)
			continue;
		/* before the streams create the device's context */
		if (flag >= 0)
			(void)check(cudaSetDeviceFlags((unsigned)flag), "cudaSetDeviceFlags");
		if (check(cudaStreamCreate(&d->stream), "cudaStreamCreate"))
			continue;
		if (check(cudaStreamCreate(&d->copy_stream), "cudaStreamCreate")) {
			cudaStreamDestroy(d->stream);
			continue;
		}
		if (check(cudaEventCreateWithFlags(&d->copied, cudaEventDisableTiming),
			  "cudaEventCreate")) {
			destroy_streams(d);
			continue;
		}
		if (pph__node_add(PPH_ARCH_CUDA, &cuda_ops, d) < 0) {
			cudaEventDestroy(d->copied);
			destroy_streams(d);
			break;
		}
		ndevices++;
	}
	return ndevices;
}

void pph__cuda_stop(void)
{
	unsigned i;

	for (i = 0; i < ndevices; i++) {
		cudaSetDevice(devices[i].id);
		cudaEventDestroy(devices[i].copied);
		destroy_streams(&devices[i]);
	}
	ndevices = 0;
}

void pph__cuda_bind_thread(void *driver)
{
	current = driver;
	if (current)
		cudaSetDevice(current->id);
}

cudaStream_t pph_cuda_stream(void)
{
	return current ? current->stream : 0;
}

void *pph__host_alloc(size_t bytes, int *pinned)
{
	void *p = NULL;

	*pinned = 0;
	if (!bytes)
		bytes = 1;
	if (ndevices && cudaHostAlloc(&p, bytes, cudaHostAllocPortable) == cudaSuccess) {
		*pinned = 1;
		memset(p, 0, bytes);
		return p;
	}
	return calloc(1, bytes);
}

void pph__host_free(void *p, int pinned)
{
	if (pinned)
		cudaFreeHost(p);
	else
		free(p);
}
