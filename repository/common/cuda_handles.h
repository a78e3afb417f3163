/*
 * cuBLAS, cuSPARSE and cuSOLVER handles for the CUDA variants: one of each
 * per CUDA worker thread (each worker keeps its device current), created on
 * first use and bound to the worker's stream at every call.
 */
#ifndef REPO_CUDA_HANDLES_H
#define REPO_CUDA_HANDLES_H

#include <stdio.h>

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <peppher/cuda.h>

static inline cublasHandle_t repo_cublas(void)
{
	static thread_local cublasHandle_t h;

	if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
		return h = NULL;
	cublasSetStream(h, pph_cuda_stream());
	return h;
}

static inline cusparseHandle_t repo_cusparse(void)
{
	static thread_local cusparseHandle_t h;

	if (!h && cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS)
		return h = NULL;
	cusparseSetStream(h, pph_cuda_stream());
	return h;
}

static inline cusolverDnHandle_t repo_cusolver(void)
{
	static thread_local cusolverDnHandle_t h;

	if (!h && cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
		return h = NULL;
	cusolverDnSetStream(h, pph_cuda_stream());
	return h;
}

/* A library call failed: say so, and let another variant run the task. */
static inline void repo_cuda_failed(const char *who)
{
	fprintf(stderr, "%s: CUDA library call failed\n", who);
	pph_variant_failed();
}

#endif
