# PPH_CHECK_REQUIRED_DEPS: libxml2, hwloc and CUnit; each missing one names
# the Debian package that provides it.
AC_DEFUN([PPH_CHECK_REQUIRED_DEPS], [
  PKG_CHECK_MODULES([LIBXML2], [libxml-2.0], [],
    [AC_MSG_ERROR([libxml2 not found: install the Debian package libxml2-dev])])
  PKG_CHECK_MODULES([HWLOC], [hwloc], [],
    [AC_MSG_ERROR([hwloc not found: install the Debian package libhwloc-dev])])
  PKG_CHECK_MODULES([CUNIT], [cunit], [],
    [AC_MSG_ERROR([CUnit not found: install the Debian package libcunit1-dev])])
  AX_PTHREAD_SIMPLE
])

# AX_PTHREAD_SIMPLE: glibc's pthreads, with -pthread.
AC_DEFUN([AX_PTHREAD_SIMPLE], [
  PTHREAD_CFLAGS=-pthread
  PTHREAD_LIBS=-pthread
  AC_SUBST([PTHREAD_CFLAGS])
  AC_SUBST([PTHREAD_LIBS])
])

# PPH_CHECK_OPENMP: the flag generated Makefiles pass for OPENMP variants.
AC_DEFUN([PPH_CHECK_OPENMP], [
  AC_OPENMP
  AS_IF([test -n "$OPENMP_CFLAGS"], [pph_have_openmp=yes], [pph_have_openmp=no])
  AS_IF([test "x$pph_have_openmp" = xyes],
    [AC_DEFINE([PPH_HAVE_OPENMP], [1], [Define when OPENMP variants can be built])])
  AM_CONDITIONAL([PPH_HAVE_OPENMP], [test "x$pph_have_openmp" = xyes])
  # libgomp, named before libpeppher on a program's link line, is
  # initialised after it: libpeppher's constructor then chooses its wait
  # policy (runtime/openmp_env.c).  Other OpenMP runtimes: nothing.
  PPH_OPENMP_LIBS=
  AS_IF([test "x$OPENMP_CFLAGS" = x-fopenmp && test "x$GCC" = xyes],
    [PPH_OPENMP_LIBS="-Wl,--push-state,--no-as-needed -lgomp -Wl,--pop-state"])
  AC_SUBST([PPH_OPENMP_LIBS])
  AC_DEFINE_UNQUOTED([PPH_OPENMP_FLAGS], ["$OPENMP_CFLAGS"],
    [Compiler flag for OpenMP variants])
])

# PPH_WARNING_FLAGS: warnings are errors for our own code.
AC_DEFUN([PPH_WARNING_FLAGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--disable-werror], [do not turn warnings into errors])],
    [], [enable_werror=yes])
  PPH_WARN_CFLAGS="-Wall -Wextra"
  AS_IF([test "x$enable_werror" = xyes], [PPH_WARN_CFLAGS="$PPH_WARN_CFLAGS -Werror"])
  AC_SUBST([PPH_WARN_CFLAGS])
])

# PPH_LOCAL_BINDING: calls between libpeppher's own functions go straight to
# them, not through the PLT, and may be inlined (a fifth of submitting an
# empty task went to PLT stubs).  Its functions stay exported (the
# peppher-perfmodel tool and the tests use internal ones).  Where the
# compiler or linker lacks the flags, the library builds without them.
AC_DEFUN([PPH_LOCAL_BINDING], [
  PPH_LIB_CFLAGS=
  PPH_LIB_LDFLAGS=
  pph_save_CFLAGS=$CFLAGS
  pph_save_LDFLAGS=$LDFLAGS
  CFLAGS="$CFLAGS -fno-semantic-interposition -Werror"
  AC_MSG_CHECKING([whether $CC accepts -fno-semantic-interposition])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); PPH_LIB_CFLAGS=-fno-semantic-interposition],
    [AC_MSG_RESULT([no])])
  CFLAGS=$pph_save_CFLAGS
  LDFLAGS="$LDFLAGS -Wl,-Bsymbolic-functions"
  AC_MSG_CHECKING([whether the linker accepts -Bsymbolic-functions])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); PPH_LIB_LDFLAGS=-Wl,-Bsymbolic-functions],
    [AC_MSG_RESULT([no])])
  LDFLAGS=$pph_save_LDFLAGS
  AC_SUBST([PPH_LIB_CFLAGS])
  AC_SUBST([PPH_LIB_LDFLAGS])
])
