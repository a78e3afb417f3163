/* Written as glibc's poll.h and memory.h are: the header only includes
 * the one that declares the functions. */
#include <typed.h>
