/*
 * Per-thread state kept off thread-local storage, and given back when a
 * thread ends or the library is unloaded.
 *
 * The initial-exec TLS of PPH_TLS lives in the static TLS block, which
 * glibc sizes when the program starts: a library loaded later by dlopen
 * (a plugin, Python's ctypes) takes its block from a surplus of about
 * 1.7 KiB that every such library shares, and libpeppher's 4.4 KiB of
 * tables made dlopen fail ("cannot allocate memory in static TLS block").
 * The tables live here instead, one allocation per thread found through
 * one TLS pointer (232 bytes of TLS are left, read on every task).
 *
 * A thread's state is freed by the destructor of a pthread key when the
 * thread ends.  A key outlives the library that made it: after dlclose, a
 * thread that ended called a destructor no longer mapped.  So unloading
 * deletes the key, and frees what the threads still alive hold, as their
 * destructors would have (they can no longer call the library).
 */
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

PPH_TLS struct pph_thread *pph__thread;

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pph_thread *threads;
static pthread_key_t thread_key;
static int key_made; /* under threads_lock */

static void unlink_thread(struct pph_thread *th)
{
	if (th->prev)
		th->prev->next = th->next;
	else
		threads = th->next;
	if (th->next)
		th->next->prev = th->prev;
}

static void thread_exit(void *p)
{
	struct pph_thread *th = p;

	pph__task_cache_thread_exit();
	pph__dmda_scratch_free(th);
	pthread_mutex_lock(&threads_lock);
	unlink_thread(th);
	pthread_mutex_unlock(&threads_lock);
	free(th);
	pph__thread = NULL;
}

struct pph_thread *pph__thread_make(void)
{
	struct pph_thread *th = calloc(1, sizeof(*th));

	if (!th)
		return NULL;
	pthread_mutex_lock(&threads_lock);
	if (!key_made && pthread_key_create(&thread_key, thread_exit) == 0)
		key_made = 1;
	if (!key_made || pthread_setspecific(thread_key, th) != 0) {
		pthread_mutex_unlock(&threads_lock);
		free(th);
		return NULL;
	}
	th->self = &pph__thread;
	th->next = threads;
	if (threads)
		threads->prev = th;
	threads = th;
	pthread_mutex_unlock(&threads_lock);
	return pph__thread = th;
}

/* Held, the lock says that a thread is in here, or was when this process
 * was forked from a threaded one: its threads' state is left alone. */
void pph__threads_unload(void)
{
	struct pph_thread *th, *next;

	if (pthread_mutex_trylock(&threads_lock) != 0)
		return;
	if (key_made)
		pthread_key_delete(thread_key);
	key_made = 0;
	for (th = threads, threads = NULL; th; th = next) {
		next = th->next;
		pph__task_cache_free_of(th);
		pph__dmda_scratch_free(th);
		*th->self = NULL;
		free(th);
	}
	pthread_mutex_unlock(&threads_lock);
}
