#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" nw nw_cpu nw_omp nw_ocl \
	nw_cuda
