/* The application's main: legacy.h's functions are PEPPHER components now. */
#include "../legacy.h"
#include "peppher.h"

int main(void)
{
	PEPPHER_INITIALIZE();
	/* TODO: the application; each call of a component runs on the best variant */
	PEPPHER_SHUTDOWN();
	return 0;
}
