/* Part of typed.h: how many calls the library took. */
extern int typed_count(void);
