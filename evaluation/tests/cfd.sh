#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" cfd cfd_flux_cpu cfd_flux_omp cfd_flux_ocl \
	cfd_time_step_cpu cfd_time_step_omp cfd_time_step_ocl \
	cfd_flux_cuda cfd_time_step_cuda
