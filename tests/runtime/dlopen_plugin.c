/*
 * A plugin of components for test_dlopen, linked with -lpeppher and loaded
 * and unloaded by the test as an application loads a plugin (or Python
 * ctypes a library).  Its calls make every kind of state the runtime keeps
 * per thread: cached tasks, the dmda scheduler's tables, variants run at
 * submission, the wakes a split call holds back.
 */
#include <stddef.h>

#include <peppher/runtime.h>
#include <peppher/wrappers.h>

int plugin_init(void);
void plugin_shutdown(void);
int plugin_calls(int *x, unsigned n, unsigned calls);

/* x[i] += 1 */
static void k_inc(void *buffers[], void *arg)
{
	int *x = PPH_VECTOR_PTR(buffers[0]);
	size_t i, n = PPH_VECTOR_N(buffers[0]);

	(void)arg;
	for (i = 0; i < n; i++)
		x[i] += 1;
}

static const struct pph_impl inc_impls[] = { { PPH_ARCH_CPU, k_inc, "dlopen_inc_cpu", 0 } };
static const struct pph_codelet inc_cl = { "dlopen_inc", 1, inc_impls, PPH_MODEL_DEFAULT };

int plugin_init(void)
{
	return pph_init();
}

void plugin_shutdown(void)
{
	pph_shutdown();
}

/* calls times x[i] += 1 on x[0..n), a sync call, an async one and a split
 * one in turn (each split call into two blocks); 0 or the first error */
int plugin_calls(int *x, unsigned n, unsigned calls)
{
	static const enum pph_access rw = PPH_RW;
	static const int two = 2;
	pph_data_handle h;
	unsigned c;
	int rc;

	if ((rc = pph_vector_register(&h, x, n, sizeof(*x))) != 0)
		return rc;
	for (c = 0; c < calls && rc == 0; c++)
		switch (c % 3) {
		case 0:
			rc = pph_call_sync(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0);
			break;
		case 1:
			rc = pph_call_async(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, NULL, 0);
			break;
		default:
			rc = pph_call_partitioned(&inc_cl, PPH_ALL_IMPLS, 1, &h, &rw, &two, NULL, 0);
		}
	pph_data_unregister(h); /* waits for the async calls */
	return rc;
}
