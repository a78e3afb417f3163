#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" ode ode_rhs_cpu ode_rhs_omp ode_rhs_ocl \
	ode_stage_cpu ode_stage_omp ode_stage_ocl \
	ode_rhs_cuda ode_stage_cuda
