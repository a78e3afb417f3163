#!/bin/sh
exec sh "$top_srcdir/evaluation/check.sh" particlefilter pf_likelihood_cpu pf_likelihood_omp \
	pf_likelihood_ocl pf_resample_cpu pf_resample_omp pf_resample_ocl \
	pf_likelihood_cuda pf_resample_cuda
