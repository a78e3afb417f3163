#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" bfs bfs_cpu bfs_omp bfs_ocl \
	bfs_cuda
