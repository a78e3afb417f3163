#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" hotspot hotspot_cpu hotspot_omp hotspot_ocl \
	hotspot_cuda
