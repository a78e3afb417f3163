# PPH_CHECK_STARPU_MPI: StarPU-MPI 1.3 and an MPI implementation (its C
# pkg-config package: mpi-c, ompi-c or mpich) and mpirun, for
# libpeppher-starpu-mpi and its tests; optional.  Needs StarPU (pph_have_starpu).
AC_DEFUN([PPH_CHECK_STARPU_MPI], [
  pph_have_starpu_mpi=no
  AS_IF([test "x$pph_have_starpu" = xyes], [
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
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
  AC_SUBST([MPIRUN])
  AM_CONDITIONAL([PPH_HAVE_STARPU_MPI], [test "x$pph_have_starpu_mpi" = xyes])
])
