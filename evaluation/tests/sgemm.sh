#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" sgemm sgemm_blocked sgemm_omp sgemm_ocl \
	sgemm_cublas
