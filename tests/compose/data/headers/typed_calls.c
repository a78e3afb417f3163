/* Calls every function typed.h declares; prints what they return. */
#include <stdio.h>
#include <typed.h>
#ifndef DIRECT
#include "peppher.h"
#endif

int main(void)
{
#ifndef DIRECT
	PEPPHER_INITIALIZE();
#endif
	int i;

	for (i = 1; i <= 3; i++)
		printf("%a %a %a %a\n", half(i * 0.7), twice(i * 0.7), (double)halff(i * 0.7f),
		       (double)twicef(i * 0.7f));
	printf("%d\n", typed_code(4));
	printf("%d calls\n", typed_count());
#ifndef DIRECT
	PEPPHER_SHUTDOWN();
#endif
	return 0;
}
