/*
 * libpeppher-starpu on one process: StarPU alone.  The steps a distributed
 * run adds (starpu/mpi.c, libpeppher-starpu-mpi) have nothing to do here.
 */
#include "internal.h"
#include "../runtime/launcher.h"

const char sp__library[] = "libpeppher-starpu";

int sp__engine_start(struct starpu_conf *conf)
{
	pph__say_not_distributed(0);
	sp__memory_defaults();
	return sp__starpu_init(conf, 0);
}

void sp__engine_wait_all(void)
{
	starpu_task_wait_for_all();
}

void sp__tasks_wait_all(void)
{
	starpu_task_wait_for_all();
}

void sp__engine_stop(void)
{
	pph__say_not_distributed(1);
	starpu_shutdown();
}

unsigned sp__workers_per_rank(void)
{
	return starpu_worker_get_count();
}

unsigned sp__ranks_sharing(const struct pph_data *d)
{
	(void)d;
	return 1;
}

void sp__registered(struct pph_data *d)
{
	(void)d;
}

void sp__partitioned(struct pph_data *parent, unsigned nr, unsigned nc)
{
	(void)parent;
	(void)nr;
	(void)nc;
}

void sp__gather_everywhere(struct pph_data *d)
{
	(void)d;
}

int sp__may_discard(struct pph_data *d)
{
	(void)d;
	return 1;
}

void sp__children_everywhere(struct pph_data *parent)
{
	(void)parent;
}

void sp__unpartitioned(struct pph_data *parent)
{
	(void)parent;
}

void sp__host_written(struct pph_data *d)
{
	(void)d;
}

int sp__task_submit(struct pph_task *p)
{
	return starpu_task_submit(p->t);
}

void sp__dist_stats_print(FILE *fp)
{
	(void)fp;
}

void sp__variant_failure(const struct pph_codelet *cl, int idx, const char *how)
{
	(void)cl;
	(void)idx;
	(void)how;
}

int sp__not_runnable_here(const struct pph_task *p, int rc)
{
	(void)p;
	return rc;
}

void sp__thread_left(void)
{
}

int sp__split_async(void)
{
	return 1;
}
