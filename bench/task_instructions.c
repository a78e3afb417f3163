/*
 * Instructions per task, for scripts/count-instructions: run under
 * callgrind, the inclusive cost of measured() (N tasks made, given their
 * buffer, detached and submitted as bench/task_overhead does, with one
 * CPU worker under eager) divided by N, after a warm-up of 20,000 tasks.
 * Usage: task_instructions empty|chain|readers N [NCPU]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <peppher/runtime.h>

#define MAX_TASKS 200000
static long values[MAX_TASKS];
static pph_data_handle h[MAX_TASKS];

static void pph_kernel(void *buffers[], void *arg)
{
	(void)arg;
	if (buffers[0] && PPH_VARIABLE_PTR(buffers[0]))
		(*(long *)PPH_VARIABLE_PTR(buffers[0]))++;
}
static void pph_empty(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
}

static const struct pph_impl impls[] = { { PPH_ARCH_CPU, pph_kernel, "k", 0 } };
static const struct pph_codelet cl = { "overhead", 1, impls, PPH_MODEL_DEFAULT };
static const struct pph_impl eimpls[] = { { PPH_ARCH_CPU, pph_empty, "e", 0 } };
static const struct pph_codelet ecl = { "overhead_empty", 1, eimpls, PPH_MODEL_DEFAULT };

static int sc;

static void submit(unsigned first, unsigned n)
{
	unsigned i;
	for (i = first; i < first + n; i++) {
		struct pph_task *task = pph_task_create(sc == 0 ? &ecl : &cl);
		if (sc == 1)
			pph_task_add_buffer(task, h[0], PPH_RW);
		else if (sc == 2)
			pph_task_add_buffer(task, h[i], PPH_R);
		pph_task_set_detached(task, 1);
		if (pph_task_submit(task) != 0)
			exit(1);
	}
}

static __attribute__((noinline)) void measured(unsigned first, unsigned n)
{
	submit(first, n);
	__asm__ volatile("");
}

int main(int argc, char **argv)
{
	unsigned warm = 20000, n, i;

	if (argc < 3 || (n = (unsigned)atoi(argv[2])) == 0 || warm + n > MAX_TASKS)
		return 2;
	sc = !strcmp(argv[1], "empty") ? 0 : !strcmp(argv[1], "chain") ? 1 : 2;
	setenv("PEPPHER_NCPU", argc > 3 ? argv[3] : "1", 1);
	setenv("PEPPHER_SCHED", "eager", 0);
	setenv("PEPPHER_NOPENCL", "0", 1);
	setenv("PEPPHER_NCUDA", "0", 1);
	if (pph_init() != 0)
		return 1;
	for (i = 0; i < warm + n; i++)
		pph_variable_register(&h[i], &values[i], sizeof(long));
	submit(0, warm);
	pph_task_wait_all();
	measured(warm, n);
	pph_task_wait_all();
	pph_shutdown();
	return 0;
}
