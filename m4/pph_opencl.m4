# PPH_CHECK_OPENCL: the OpenCL ICD loader, optional (--disable-opencl).
AC_DEFUN([PPH_CHECK_OPENCL], [
  AC_ARG_ENABLE([opencl],
    [AS_HELP_STRING([--disable-opencl], [build without OpenCL support])],
    [], [enable_opencl=check])
  pph_have_opencl=no
  AS_IF([test "x$enable_opencl" != xno], [
    AC_CHECK_HEADER([CL/cl.h],
      [AC_CHECK_LIB([OpenCL], [clGetPlatformIDs],
        [pph_have_opencl=yes; OPENCL_LIBS=-lOpenCL])])
    AS_IF([test "x$pph_have_opencl" = xno && test "x$enable_opencl" = xyes],
      [AC_MSG_ERROR([OpenCL not found: install the Debian packages ocl-icd-opencl-dev and pocl-opencl-icd])])
  ])
  AS_IF([test "x$pph_have_opencl" = xyes],
    [AC_DEFINE([PPH_HAVE_OPENCL], [1], [Define when OpenCL variants can be built])])
  AC_SUBST([OPENCL_LIBS])
  AM_CONDITIONAL([PPH_HAVE_OPENCL], [test "x$pph_have_opencl" = xyes])
])
