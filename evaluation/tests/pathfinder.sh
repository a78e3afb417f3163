#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" pathfinder pathfinder_cpu pathfinder_omp pathfinder_ocl \
	pathfinder_cuda
