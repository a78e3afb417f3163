/* A header that needs another first (jpegint.h after jpeglib.h): its
 * own error is said. */
int needs_first(j_ptr p);
