/*
 * Sums on an OpenCL device, for the OpenCL variants of dot and nrm2 (the
 * including file is compiled once per type T).  Two launches of one kernel:
 * at most REDUCE_GROUPS work-groups each sum a strided share of the terms
 * into a partial sum (a tree in local memory), then one work-group sums the
 * partials, taking the square root for nrm2, into a scratch element; a third
 * launch combines it into the result, a REDUCE_RESULT (T unless the
 * including file says otherwise): added (dot), or hypot (nrm2).  The
 * variants keep the partial-result contract of a reduction that way.
 */
#include <stdio.h>

#include <peppher/opencl.h>

#define REDUCE_STR_(x) #x
#define REDUCE_STR(x) REDUCE_STR_(x)
#define REDUCE_GROUPS 64
#define REDUCE_LOCAL 256
#ifndef REDUCE_RESULT
#define REDUCE_RESULT T
#endif

enum reduce_terms { TERMS_XY, TERMS_XX, TERMS_X };
/* how the sum goes into the result */
enum reduce_accumulate { ACC_ADD, ACC_HYPOT };

static const char reduce_source[] =
	"#ifdef cl_khr_fp64\n"
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"#endif\n"
	"#define T " REDUCE_STR(T) "\n"
	"#define R " REDUCE_STR(REDUCE_RESULT) "\n"
	"__kernel void reduce(__global const T *x, __global const T *y, int n, int terms,\n"
	"		     int root, __global T *out, __local T *part)\n"
	"{\n"
	"	int lid = get_local_id(0), size = get_local_size(0);\n"
	"	T s = 0;\n"
	"	for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
	"		s += terms == 0 ? x[i] * y[i] : terms == 1 ? x[i] * x[i] : x[i];\n"
	"	part[lid] = s;\n"
	"	for (int h = size / 2; h > 0; h /= 2) {\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"		if (lid < h)\n"
	"			part[lid] += part[lid + h];\n"
	"	}\n"
	"	if (lid == 0)\n"
	"		out[get_group_id(0)] = root ? sqrt(part[0]) : part[0];\n"
	"}\n"
	"__kernel void accumulate(__global R *out, __global const T *v, int hyp)\n"
	"{\n"
	"	out[0] = hyp ? hypot(out[0], (R)v[0]) : out[0] + (R)v[0];\n"
	"}\n";

static cl_int reduce_launch(cl_kernel kern, cl_mem x, cl_mem y, int n, int terms, int root,
			    cl_mem out, size_t groups, size_t local)
{
	size_t global = groups * local;
	cl_int err = 0;

	err |= clSetKernelArg(kern, 0, sizeof(x), &x);
	err |= clSetKernelArg(kern, 1, sizeof(y), &y);
	err |= clSetKernelArg(kern, 2, sizeof(n), &n);
	err |= clSetKernelArg(kern, 3, sizeof(terms), &terms);
	err |= clSetKernelArg(kern, 4, sizeof(root), &root);
	err |= clSetKernelArg(kern, 5, sizeof(out), &out);
	err |= clSetKernelArg(kern, 6, local * sizeof(T), NULL);
	if (err != CL_SUCCESS)
		return err;
	return clEnqueueNDRangeKernel(pph_opencl_queue(), kern, 1, NULL, &global, &local, 0, NULL,
				      NULL);
}

/* The local size: a power of two the kernel can run with, at most REDUCE_LOCAL. */
static size_t reduce_local_size(cl_kernel kern)
{
	size_t max = 1, local = REDUCE_LOCAL;

	clGetKernelWorkGroupInfo(kern, pph_opencl_device(), CL_KERNEL_WORK_GROUP_SIZE,
				 sizeof(max), &max, NULL);
	while (local > max && local > 1)
		local /= 2;
	return local;
}

/* result (R) += the scratch element (T), or hypot of both. */
static cl_int reduce_accumulate(cl_kernel acc, cl_mem result, cl_mem scratch, enum reduce_accumulate how)
{
	size_t one = 1;
	int hyp = how == ACC_HYPOT;
	cl_int err = 0;

	err |= clSetKernelArg(acc, 0, sizeof(result), &result);
	err |= clSetKernelArg(acc, 1, sizeof(scratch), &scratch);
	err |= clSetKernelArg(acc, 2, sizeof(hyp), &hyp);
	if (err != CL_SUCCESS)
		return err;
	return clEnqueueNDRangeKernel(pph_opencl_queue(), acc, 1, NULL, &one, &one, 0, NULL, NULL);
}

/* *result += the sum of the terms (ACC_ADD), or *result = hypot(*result,
 * sqrt of the sum) (ACC_HYPOT); x, y and result cl_mem. */
static void reduce_opencl(const char *who, cl_mem x, cl_mem y, int n, enum reduce_terms terms,
			  enum reduce_accumulate how, cl_mem result)
{
	cl_kernel kern = pph_opencl_kernel_source(reduce_source, "reduce");
	cl_kernel acc = pph_opencl_kernel_source(reduce_source, "accumulate");
	int root = how == ACC_HYPOT;
	size_t local, groups;
	cl_mem partial = NULL, sum = NULL;
	cl_int err;

	if (!kern || !acc) {
		pph_variant_failed(); /* reported; another variant runs the task */
		return;
	}
	local = reduce_local_size(kern);
	groups = ((size_t)n + local - 1) / local;
	if (groups > REDUCE_GROUPS)
		groups = REDUCE_GROUPS;
	sum = clCreateBuffer(pph_opencl_context(), CL_MEM_READ_WRITE, sizeof(T), NULL, &err);
	if (err == CL_SUCCESS && groups > 1)
		partial = clCreateBuffer(pph_opencl_context(), CL_MEM_READ_WRITE, groups * sizeof(T),
					 NULL, &err);
	if (err == CL_SUCCESS && groups <= 1)
		err = reduce_launch(kern, x, y, n, terms, root, sum, 1, local);
	else if (err == CL_SUCCESS) {
		err = reduce_launch(kern, x, y, n, terms, 0, partial, groups, local);
		if (err == CL_SUCCESS)
			err = reduce_launch(kern, partial, partial, (int)groups, TERMS_X, root, sum,
					    1, local);
	}
	if (err == CL_SUCCESS)
		err = reduce_accumulate(acc, result, sum, how);
	if (sum)
		clReleaseMemObject(sum); /* freed once the kernels are done */
	if (partial)
		clReleaseMemObject(partial);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "%s: kernel launch failed (%d)\n", who, (int)err);
		pph_variant_failed();
	}
}
