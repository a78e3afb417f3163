/* The calls generated entry wrappers make (<peppher/wrappers.h>). */
#include <errno.h>
#include <string.h>

#include <peppher/wrappers.h>

#include "internal.h"
#include "perfmodel.h"

static int call(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		const pph_data_handle *handles, const enum pph_access *modes,
		const void *arg, size_t arg_size, int sync)
{
	struct pph_task *task;
	unsigned i;
	int rc;

	if (!cl || (nbuffers && (!handles || !modes)) || (arg_size && !arg))
		return -EINVAL;
	if (nbuffers > PPH_MAX_BUFFERS)
		return -E2BIG;
	if (!pph__rt.initialized)
		return pph__not_running(cl->name ? cl->name : "?");
	pph__here_left(__builtin_frame_address(0));
	task = pph_task_create(cl);
	rc = task ? 0 : -ENOMEM;
	if (task)
		task->by_call = 1;

	/* a mask that allows none of a codelet's variants, or a codelet
	 * without variants */
	if (rc == 0 && pph_task_set_impl_mask(task, impl_mask) != 0 &&
	    (rc = pph__codelet_check(cl)) == 0)
		rc = -ENODEV;
	for (i = 0; rc == 0 && i < nbuffers; i++)
		rc = pph_task_add_buffer(task, handles[i], modes[i]);
	if (rc == 0)
		rc = pph_task_set_arg(task, arg, arg_size);
	if (rc == 0 && !sync)
		pph_task_set_detached(task, 1);
	/* a synchronous call's wait fails when no variant could run it */
	if (rc == 0)
		rc = sync ? pph__task_submit_and_wait(task) : pph_task_submit(task);
	if (sync || rc != 0)
		pph_task_destroy(task);
	return rc;
}

int pph_call_sync(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		  const pph_data_handle *handles, const enum pph_access *modes,
		  const void *arg, size_t arg_size)
{
	return call(cl, impl_mask, nbuffers, handles, modes, arg, arg_size, 1);
}

int pph_call_async(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
		   const pph_data_handle *handles, const enum pph_access *modes,
		   const void *arg, size_t arg_size)
{
	return call(cl, impl_mask, nbuffers, handles, modes, arg, arg_size, 0);
}

/* The common number of parts of the partitioned buffers, or -EINVAL. */
static int part_count(unsigned nbuffers, const int *parts)
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
	if (n == 0) /* the runtime chooses: one block per worker */
		n = (int)pph__rt.nworkers;
	return n;
}

/* Length of a partitioned buffer along its split: elements or rows. */
static size_t split_length(const struct pph_data *d)
{
	return d->layout == PPH_LAYOUT_VECTOR ? d->host.iface.vector.n : d->host.iface.matrix.rows;
}

/* A handle shaped as d's block of len (elements or rows), over no memory:
 * for footprints only. */
static int shape_register(const struct pph_data *d, size_t len, pph_data_handle *h)
{
	const union pph_iface *p = &d->host.iface;

	return d->layout == PPH_LAYOUT_VECTOR ?
		       pph_vector_register(h, NULL, len, p->vector.elemsize) :
		       pph_matrix_register(h, NULL, len, p->matrix.cols, p->matrix.cols,
					   p->matrix.elemsize);
}

/* The memory node of the first worker of arch (the host's for the CPU). */
static unsigned arch_node(enum pph_arch arch)
{
	unsigned w;

	for (w = 0; w < pph__rt.nworkers; w++)
		if (pph__rt.workers[w].arch == arch)
			return pph__rt.workers[w].node;
	return 0;
}

/* The variants of cl in impl_mask that run on workers of arch: the mask of
 * the blocks given to that kind of worker. */
static unsigned arch_mask(const struct pph_codelet *cl, unsigned impl_mask, enum pph_arch arch)
{
	unsigned i, m = 0;

	for (i = 0; i < cl->nimpls && i < 32; i++)
		if ((impl_mask >> i & 1u) && cl->impls[i].arch == arch &&
		    !(pph__impl_disabled_mask(cl) >> i & 1u))
			m |= 1u << i;
	return m;
}

/*
 * Predicted microseconds of a block of len on a worker of arch at memory
 * node: the best variant's, from the history of that block shape or the
 * regression over the sizes seen, plus on a device the copies of the block
 * in and of what it writes home (unpartitioning gathers the blocks home);
 * negative while some variant of arch still needs calibration there (then
 * blocks stay equal, and dmda explores it).  A whole buffer every block
 * reads is counted with each block: a device gets one block or few.
 */
static double block_time(const struct pph_codelet *cl, unsigned mask, unsigned node,
			 unsigned nbuffers, const pph_data_handle *handles,
			 const enum pph_access *modes, const int *parts, size_t len)
{
	pph_data_handle shape[PPH_MAX_BUFFERS] = { NULL };
	struct pph_task *t = pph_task_create(cl);
	double size, best = -1;
	uint32_t fp;
	unsigned i;
	int rc = t ? 0 : -ENOMEM;

	for (i = 0; rc == 0 && i < nbuffers; i++)
		if (parts[i] >= 0 && (rc = shape_register(handles[i], len, &shape[i])) == 0) {
			pph_data_set_host_reads(shape[i], 1);
			rc = pph_task_add_buffer(t, shape[i], modes[i]);
		} else if (rc == 0) {
			rc = pph_task_add_buffer(t, handles[i], modes[i]);
		}
	if (rc == 0) {
		fp = pph__task_footprint(t, &size);
		for (i = 0; i < cl->nimpls && i < 32; i++) {
			double us;

			if (!(mask >> i & 1u))
				continue;
			us = pph__perfmodel_predict(cl, i, cl->impls[i].arch, 1, fp, size);
			if (us < 0) {
				best = -1;
				break;
			}
			if (best < 0 || us < best)
				best = us;
		}
		if (best >= 0)
			best += pph__transfer_estimate(t, node, 0);
	}
	pph_task_destroy(t);
	for (i = 0; i < nbuffers; i++)
		pph_data_unregister(shape[i]);
	return rc == 0 ? best : -1;
}

/*
 * Hybrid splitting: the n blocks of a call shared among the kinds of
 * workers, each kind getting blocks in proportion to its workers and rows
 * in proportion to its workers times its predicted throughput (rows per
 * microsecond of an equal block, its copies to and from a device included,
 * from the models: they follow what the models learn).  Fills sizes[k] and masks[k] (the variants block k may
 * run: those of its kind) and returns 1; 0 when blocks stay equal (one
 * kind of worker, or a kind not calibrated yet).
 */
static int hybrid_split(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			const pph_data_handle *handles, const enum pph_access *modes,
			const int *parts, unsigned n, size_t total, size_t *sizes, unsigned *masks)
{
	static const enum pph_arch kinds[] = { PPH_ARCH_CPU, PPH_ARCH_OPENCL, PPH_ARCH_CUDA };
	double weight[3] = { 0 }, sum = 0;
	unsigned mask[3], nblocks[3] = { 0 }, nkinds = 0, a, k = 0, given = 0, i;
	size_t equal = total / n, given_rows = 0;

	for (a = 0; a < 3; a++) {
		unsigned workers = pph__rt.arch_workers[kinds[a]];
		double us;

		mask[a] = workers ? arch_mask(cl, impl_mask, kinds[a]) : 0;
		if (!mask[a])
			continue;
		us = block_time(cl, mask[a], arch_node(kinds[a]), nbuffers, handles, modes, parts,
				equal);
		if (us <= 0)
			return 0;
		weight[a] = workers * (double)equal / us;
		sum += weight[a];
		nkinds++;
	}
	if (nkinds < 2 || n < nkinds)
		return 0;
	/* blocks per kind: in proportion to its workers, at least one */
	for (a = 0; a < 3; a++)
		if (mask[a]) {
			nblocks[a] = 1 + (n - nkinds) * pph__rt.arch_workers[kinds[a]] /
					     (pph__rt.nworkers ? pph__rt.nworkers : 1);
			given += nblocks[a];
		}
	for (a = 0; given < n; a = (a + 1) % 3)
		if (mask[a]) {
			nblocks[a]++;
			given++;
		}
	for (a = 0; a < 3; a++) {
		size_t rows = (size_t)((double)total * weight[a] / sum);

		for (i = 0; i < nblocks[a]; i++, k++) {
			size_t len = rows / nblocks[a] + (i < rows % nblocks[a]);

			sizes[k] = len ? len : 1;
			masks[k] = mask[a];
		}
	}
	/* rounding: the difference goes to (or comes from) the largest blocks,
	 * every block keeping at least one row */
	for (k = 0; k < n; k++)
		given_rows += sizes[k];
	while (given_rows != total) {
		unsigned big = 0;

		for (k = 1; k < n; k++)
			big = sizes[k] > sizes[big] ? k : big;
		if (given_rows < total) {
			sizes[big] += total - given_rows;
			given_rows = total;
		} else if (sizes[big] > 1) {
			size_t cut = given_rows - total < sizes[big] - 1 ? given_rows - total : sizes[big] - 1;

			sizes[big] -= cut;
			given_rows -= cut;
		} else {
			return 0;
		}
	}
	return 1;
}

/* Reductions run on CPU variants only (redux.c): such a call is not split
 * among kinds of workers. */
static int has_reduction(unsigned nbuffers, const enum pph_access *modes)
{
	unsigned i;

	for (i = 0; i < nbuffers; i++)
		if (modes[i] == PPH_REDUX)
			return 1;
	return 0;
}

int pph_call_partitioned(const struct pph_codelet *cl, unsigned impl_mask, unsigned nbuffers,
			 const pph_data_handle *handles, const enum pph_access *modes,
			 const int *parts, const void *arg, size_t arg_size)
{
	pph_data_handle blocks[PPH_MAX_BUFFERS][PPH_MAX_WORKERS];
	pph_data_handle sub[PPH_MAX_BUFFERS];
	size_t sizes[PPH_MAX_WORKERS], total = 0;
	unsigned masks[PPH_MAX_WORKERS];
	int n, rc = 0, k, hybrid = 0;
	unsigned i, done = 0;

	if (!cl || !parts || (nbuffers && (!handles || !modes)) || (arg_size && !arg))
		return -EINVAL;
	if (nbuffers > PPH_MAX_BUFFERS)
		return -E2BIG;
	if ((n = part_count(nbuffers, parts)) < 0)
		return -EINVAL;
	if (n <= 1)
		return pph_call_sync(cl, impl_mask, nbuffers, handles, modes, arg, arg_size);
	if (n > PPH_MAX_WORKERS)
		n = PPH_MAX_WORKERS;
	/* blocks of sizes by throughput need every partitioned buffer to
	 * have the same length along the split */
	for (i = 0; i < nbuffers; i++)
		if (parts[i] >= 0 && handles[i]) {
			if (total && split_length(handles[i]) != total)
				break;
			total = split_length(handles[i]);
		}
	if (i == nbuffers && total >= (size_t)n && pph__rt.initialized &&
	    !has_reduction(nbuffers, modes))
		hybrid = hybrid_split(cl, impl_mask, nbuffers, handles, modes, parts, (unsigned)n,
				      total, sizes, masks);
	for (i = 0; rc == 0 && i < nbuffers; i++, done = i)
		if (parts[i] >= 0)
			rc = hybrid ? pph_data_partition_sizes(handles[i], (unsigned)n, sizes,
							       blocks[i]) :
				      pph_data_partition(handles[i], (unsigned)n, blocks[i]);
	for (k = 0; rc == 0 && k < n; k++) {
		for (i = 0; i < nbuffers; i++)
			sub[i] = parts[i] >= 0 ? blocks[i][k] : handles[i];
		rc = pph_call_async(cl, hybrid ? masks[k] : impl_mask, nbuffers, sub, modes, arg,
				    arg_size);
	}
	for (i = 0; i < done; i++) /* waits for the sub-tasks */
		if (parts[i] >= 0)
			pph_data_unpartition(handles[i], (unsigned)n, blocks[i]);
	return rc;
}

void pph_call_failed(const struct pph_codelet *cl, int rc)
{
	const char *name = cl && cl->name ? cl->name : "?";

	/* -ENODEV says "No such device": say what is wrong instead */
	if (rc == -ENODEV && !pph__rt.initialized)
		pph__not_running(name);
	else if (rc == -ENODEV)
		fprintf(stderr, "peppher: %s: call failed: no worker can run any variant the call allows\n",
			name);
	else
		fprintf(stderr, "peppher: %s: call failed: %s\n", name, strerror(-rc));
}
