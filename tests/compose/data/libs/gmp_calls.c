/*
 * GMP's integer functions on numbers of a few thousand bits: built once as
 * a plain program (-DDIRECT) and once in the tree compose
 * --generate-comp-files made from gmp.h, where every call goes through
 * PEPPHER.  gmp.h declares each function under a name of its own that a
 * macro gives the name programs write ("#define mpz_mul __gmpz_mul"): the
 * interfaces take the written names and wrap the declared ones.  Both
 * print the same lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <gmp.h>

#ifdef DIRECT
#define PEPPHER_INITIALIZE() ((void)0)
#define PEPPHER_SHUTDOWN() ((void)0)
#else
#include "peppher.h"
#endif

/* n in base 16, then freed as GMP allocated it */
static void print(const char *what, mpz_srcptr n)
{
	char *s = mpz_get_str(NULL, 16, n);
	void (*release)(void *, size_t);

	printf("%s (%zu bits): %s\n", what, mpz_sizeinbase(n, 2), s);
	mp_get_memory_functions(NULL, NULL, &release);
	release(s, mpz_sizeinbase(n, 16) + 2);
}

int main(void)
{
	mpz_t fact, fib, a, b, g;
	unsigned long i;
	int status;

	PEPPHER_INITIALIZE();
	mpz_init_set_ui(fact, 1);
	mpz_inits(fib, a, b, g, NULL);
	for (i = 2; i <= 300; i++)
		mpz_mul_ui(fact, fact, i);
	print("300!", fact);
	mpz_fib_ui(fib, 2000);
	print("F(2000)", fib);
	mpz_mul(a, fact, fib);
	mpz_add_ui(a, a, 1);
	mpz_nextprime(b, a);
	mpz_sub(g, b, a);
	print("next prime after 300! F(2000) + 1, less it", g);
	status = mpz_probab_prime_p(b, 25) == 0;
	mpz_gcd(g, fact, fib);
	print("gcd(300!, F(2000))", g);
	mpz_powm_ui(g, fib, 65537, fact);
	print("F(2000)^65537 mod 300!", g);
	mpz_sqrt(g, fact);
	mpz_mul(a, g, g);
	printf("floor(sqrt(300!))^2 <= 300!: %s\n", mpz_cmp(a, fact) <= 0 ? "yes" : "no");
	status |= mpz_cmp(a, fact) > 0;
	mpz_clears(fact, fib, a, b, g, NULL);
	PEPPHER_SHUTDOWN();
	return status;
}
