# PPH_CHECK_CUDA: nvcc and libcudart, optional.  --with-cuda=DIR names the
# toolkit; --without-cuda turns it off.  Defines PPH_HAVE_CUDA, NVCC,
# CUDA_CFLAGS, CUDA_LIBS and the AM_CONDITIONAL PPH_HAVE_CUDA.
AC_DEFUN([PPH_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda=DIR], [CUDA toolkit folder (default: from nvcc on PATH, or /usr/local/cuda)])],
    [], [with_cuda=check])
  pph_have_cuda=no
  pph_cuda_summary=
  AS_IF([test "x$with_cuda" != xno], [
    AS_IF([test "x$with_cuda" = xyes || test "x$with_cuda" = xcheck], [
      AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])
      dnl The toolkit folder is where nvcc itself says it lives: the nvcc on
      dnl PATH may be a wrapper script elsewhere (e.g. /usr/local/bin/nvcc).
      AS_IF([test -n "$NVCC"], [
        pph_cuda_dir=`"$NVCC" --dryrun -E -x cu /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | sed 1q`
        AS_IF([test -z "$pph_cuda_dir" || test ! -d "$pph_cuda_dir/lib64"],
          [pph_cuda_dir=`dirname "$NVCC"`; pph_cuda_dir=`dirname "$pph_cuda_dir"`])
        pph_cuda_dir=`cd "$pph_cuda_dir" 2>/dev/null && pwd -P || echo "$pph_cuda_dir"`
      ])
    ], [
      pph_cuda_dir=$with_cuda
      AC_PATH_PROG([NVCC], [nvcc], [], [$with_cuda/bin])
    ])
    AS_IF([test -n "$NVCC"], [
      pph_save_LIBS=$LIBS
      LIBS="-L$pph_cuda_dir/lib64 $LIBS"
      AC_CHECK_LIB([cudart], [cudaGetDeviceCount], [pph_have_cuda=yes])
      LIBS=$pph_save_LIBS
    ])
    AS_IF([test "x$pph_have_cuda" = xno && test "x$with_cuda" != xcheck],
      [AC_MSG_ERROR([--with-cuda given but nvcc or libcudart was not found])])
  ])
  AS_IF([test "x$pph_have_cuda" = xyes], [
    CUDA_CFLAGS="-I$pph_cuda_dir/include"
    CUDA_LIBS="-L$pph_cuda_dir/lib64 -Wl,-rpath,$pph_cuda_dir/lib64 -lcudart"
    pph_cuda_summary="($NVCC)"
    AC_DEFINE([PPH_HAVE_CUDA], [1], [Define when CUDA variants can be built])
  ], [NVCC=])
  AC_DEFINE_UNQUOTED([PPH_NVCC], ["$NVCC"], [nvcc used for CUDA variants])
  AC_DEFINE_UNQUOTED([PPH_CUDA_LIBS], ["$CUDA_LIBS"], [Link flags for CUDA variants])
  AC_SUBST([NVCC])
  AC_SUBST([CUDA_CFLAGS])
  AC_SUBST([CUDA_LIBS])
  AM_CONDITIONAL([PPH_HAVE_CUDA], [test "x$pph_have_cuda" = xyes])
])
