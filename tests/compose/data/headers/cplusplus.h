/* A C++ header (ncurses' cursesw.h, gmpxx.h are): utility mode reads C. */
namespace mix {
int twice(int x);
}
