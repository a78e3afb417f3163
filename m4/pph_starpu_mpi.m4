# PPH_CHECK_STARPU_MPI: StarPU-MPI 1.3 and an MPI implementation (its C
# pkg-config package: mpi-c, ompi-c or mpich) and mpirun, for
# libpeppher-starpu-mpi and its tests; optional (--without-mpi).  Needs
# StarPU (pph_have_starpu).
AC_DEFUN([PPH_CHECK_STARPU_MPI], [
  AC_ARG_WITH([mpi],
    [AS_HELP_STRING([--without-mpi], [build no libpeppher-starpu-mpi (default: when StarPU-MPI and MPI are installed)])],
    [], [with_mpi=check])
  pph_have_starpu_mpi=no
  AS_IF([test "x$pph_have_starpu" = xyes && test "x$with_mpi" != xno], [
    PKG_CHECK_MODULES([STARPU_MPI], [starpumpi-1.3], [pph_have_starpu_mpi=yes], [:])
  ])
  AS_IF([test "x$pph_have_starpu_mpi" = xyes], [
    pph_have_starpu_mpi=no
    for pph_mpi_pc in mpi-c ompi-c mpich; do
      PKG_CHECK_EXISTS([$pph_mpi_pc], [pph_have_starpu_mpi=yes; break])
    done
  ])
  AS_IF([test "x$pph_have_starpu_mpi" = xyes], [
    MPI_CFLAGS=`$PKG_CONFIG --cflags $pph_mpi_pc`
    MPI_LIBS=`$PKG_CONFIG --libs $pph_mpi_pc`
    AC_PATH_PROG([MPIRUN], [mpirun])
  ])
  AS_IF([test "x$with_mpi" = xyes && test "x$pph_have_starpu_mpi" = xno],
    [AC_MSG_ERROR([--with-mpi given but StarPU-MPI or MPI was not found: install libstarpu-dev, openmpi-bin and libopenmpi-dev])])
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
  AC_SUBST([MPIRUN])
  AM_CONDITIONAL([PPH_HAVE_STARPU_MPI], [test "x$pph_have_starpu_mpi" = xyes])
])
