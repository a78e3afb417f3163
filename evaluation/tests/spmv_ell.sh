#!/bin/sh
# The split calls run the CPU kind's single-thread variant and the
# devices' (a fork-join variant's team would hold other blocks' workers);
# the whole calls of main-device.xml run every variant, OpenMP's too.
sh "$top_srcdir/evaluation/check.sh" spmv_ell spmv_ell_cpu spmv_ell_ocl spmv_ell_cuda || exit 1
MAIN_XML=main-device.xml exec sh "$top_srcdir/evaluation/check.sh" spmv_ell spmv_ell_cpu \
	spmv_ell_omp spmv_ell_ocl spmv_ell_cuda
