/*
 * libpeppher chooses libgomp's wait policy: in a program that links libgomp
 * before libpeppher (as the Makefiles compose writes do, and as this test
 * is linked), libgomp waits passively (a spin count of 0, as
 * OMP_DISPLAY_ENV=verbose shows it) unless the environment set
 * OMP_WAIT_POLICY or GOMP_SPINCOUNT.  The program runs itself as a child in
 * each environment and reads what libgomp prints.
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <peppher/runtime.h>

struct env_case {
	const char *env;     /* the child's settings */
	const char *libgomp; /* a line libgomp must show */
};

/* libgomp shows its default, spinning before it sleeps, as 'PASSIVE' too:
 * the spin count (300000 by default) tells them apart */
static const struct env_case cases[] = {
	{ "", "GOMP_SPINCOUNT = '0'" },
	/* set, even empty, is the user's choice: libgomp's default */
	{ "OMP_WAIT_POLICY=", "GOMP_SPINCOUNT = '300000'" },
	{ "OMP_WAIT_POLICY=active", "OMP_WAIT_POLICY = 'ACTIVE'" },
	{ "GOMP_SPINCOUNT=1000", "GOMP_SPINCOUNT = '1000'" },
};

static int child(void)
{
	int threads = 0;

#pragma omp parallel num_threads(2)
#pragma omp single
	threads = omp_get_num_threads();
	/* libpeppher is linked for its constructor */
	printf("threads=%d, %d CPU workers\n", threads, pph_openmp_threads());
	return threads != 2;
}

static int run_case(const char *self, const struct env_case *c)
{
	char cmd[4096], line[512];
	int saw = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd,
		 "env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT OMP_DISPLAY_ENV=verbose %s '%s' child 2>&1",
		 c->env, self);
	if (!(p = popen(cmd, "r"))) {
		perror("popen");
		return 1;
	}
	while (fgets(line, sizeof line, p)) {
		saw |= strstr(line, c->libgomp) != NULL;
	}
	if (pclose(p) != 0 || !saw) {
		fprintf(stderr, "FAIL: env '%s': expected libgomp to show %s\n", c->env, c->libgomp);
		return 1;
	}
	printf("ok: env '%s': libgomp shows %s\n", c->env, c->libgomp);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned i;
	int failed = 0;

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child();
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		failed |= run_case(argv[0], &cases[i]);
	return failed;
}
