#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" spmv_ell spmv_ell_cpu spmv_ell_omp spmv_ell_ocl \
	spmv_ell_cuda
