#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" spmv spmv_cpu spmv_omp spmv_ocl \
	spmv_cusparse
