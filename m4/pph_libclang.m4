# PPH_CHECK_LIBCLANG: libclang for compose's header parsing (skeleton mode)
# and prototype checks; optional (--without-libclang).  compose opens it
# with dlopen when it first parses: LIBCLANG_LIBS links only what dlopen
# needs, with libclang's folder as run path, and PPH_LIBCLANG_SONAME names
# the library as the linker would have recorded it.
AC_DEFUN([PPH_CHECK_LIBCLANG], [
  AC_ARG_WITH([libclang],
    [AS_HELP_STRING([--with-libclang@<:@=LLVM-CONFIG@:>@],
      [parse C headers and sources with libclang (default: check)])],
    [], [with_libclang=check])
  pph_have_libclang=no
  AS_IF([test "x$with_libclang" != xno], [
    AS_CASE([$with_libclang], [yes|check], [pph_llvm_config=llvm-config],
      [pph_llvm_config=$with_libclang])
    AS_IF([$pph_llvm_config --version >/dev/null 2>&1], [
      pph_llvm_libdir=`$pph_llvm_config --libdir`
      LIBCLANG_CFLAGS="-I`$pph_llvm_config --includedir`"
      LIBCLANG_LIBS="-L$pph_llvm_libdir -Wl,-rpath,$pph_llvm_libdir -lclang"
      pph_save_CPPFLAGS=$CPPFLAGS; pph_save_LIBS=$LIBS
      CPPFLAGS="$CPPFLAGS $LIBCLANG_CFLAGS"; LIBS="$LIBCLANG_LIBS $LIBS"
      AC_CHECK_HEADER([clang-c/Index.h],
        [AC_MSG_CHECKING([for clang_parseTranslationUnit2 in -lclang])
         AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <clang-c/Index.h>]],
             [[return clang_parseTranslationUnit2(0, 0, 0, 0, 0, 0, 0, 0) != 0;]])],
           [pph_have_libclang=yes])
         AC_MSG_RESULT([$pph_have_libclang])])
      CPPFLAGS=$pph_save_CPPFLAGS; LIBS=$pph_save_LIBS
      AS_IF([test "x$pph_have_libclang" = xyes], [
        AC_MSG_CHECKING([for the soname of libclang])
        pph_libclang_so=$pph_llvm_libdir/libclang.so
        pph_libclang_soname=`(${OBJDUMP:-objdump} -p "$pph_libclang_so" ||
          readelf -d "$pph_libclang_so") 2>/dev/null |
          awk '/SONAME/ { print $NF; exit }' | tr -d '@<:@@:>@'`
        AS_IF([test -z "$pph_libclang_soname"],
          [pph_libclang_soname=`readlink -f "$pph_libclang_so"`])
        AC_MSG_RESULT([$pph_libclang_soname])
        AC_DEFINE_UNQUOTED([PPH_LIBCLANG_SONAME], ["$pph_libclang_soname"],
          [libclang as compose opens it])
        AC_SEARCH_LIBS([dlopen], [dl], [], [pph_have_libclang=no])
        LIBCLANG_LIBS="-Wl,-rpath,$pph_llvm_libdir"
        AS_IF([test "x$ac_cv_search_dlopen" != "xnone required"],
          [LIBCLANG_LIBS="$LIBCLANG_LIBS $ac_cv_search_dlopen"])
        LIBS=$pph_save_LIBS
      ])
    ])
    AS_IF([test "x$pph_have_libclang" = xno && test "x$with_libclang" != xcheck],
      [AC_MSG_ERROR([libclang not found: install the Debian package libclang-dev])])
  ])
  AS_IF([test "x$pph_have_libclang" = xyes],
    [AC_DEFINE([PPH_HAVE_LIBCLANG], [1], [Define when compose can parse C with libclang])],
    [LIBCLANG_CFLAGS= LIBCLANG_LIBS=])
  AC_SUBST([LIBCLANG_CFLAGS])
  AC_SUBST([LIBCLANG_LIBS])
  AM_CONDITIONAL([PPH_HAVE_LIBCLANG], [test "x$pph_have_libclang" = xyes])
])
