/* A header that uses size_t and FILE and leaves <stdio.h> to the file
 * that includes it, as jpeglib.h does. */
size_t nstd_put(FILE *out, const char *text);
