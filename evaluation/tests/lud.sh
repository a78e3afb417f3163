#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" lud lud_panel_cpu lud_panel_omp lud_panel_ocl \
	lud_internal_cpu lud_internal_omp lud_internal_ocl \
	lud_panel_cuda lud_internal_cuda
