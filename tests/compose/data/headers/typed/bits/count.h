/* Part of typed.h: how many calls the library took. */
extern int typed_count(void);
/* As glibc's strerror_r: programs call typed_code, which the linker knows
 * as typed_code_v2 (an asm label); the library's typed_code is another
 * function, kept for old programs. */
extern int typed_code(int n) __asm__("typed_code_v2");
