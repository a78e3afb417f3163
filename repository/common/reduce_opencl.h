/*
 * Reductions on an OpenCL device, for the OpenCL variants of dot and nrm2
 * (the including file is compiled once per type T): the sum of x_i * y_i,
 * or the norm of x, combined into the result, a REDUCE_RESULT (T unless
 * the including file says otherwise): added (dot), or by hypot (nrm2).
 * The variants keep the partial-result contract of a reduction that way.
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

/* what the terms are, and how their sum goes into the result */
enum reduce_kind {
	REDUCE_DOT,  /* sum of x_i * y_i, added */
	REDUCE_NORM, /* sqrt of the sum of x_i^2, scaled, combined by hypot */
};

/*
 * A norm is summed as LAPACK's dnrm2 does, as a pair (scale, ssq) with
 * sum x_i^2 = scale^2 * ssq: scale the largest |x_i| seen, so that no
 * square overflows or underflows (double's 1e200, float's 1e30).  Pairs
 * combine by rescaling to the larger scale.
 */
static const char reduce_source[] =
	"#ifdef cl_khr_fp64\n"
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"#endif\n"
	"#define T " REDUCE_STR(T) "\n"
	"#define R " REDUCE_STR(REDUCE_RESULT) "\n"
	"__kernel void reduce_dot(__global const T *x, __global const T *y, int n, int partials,\n"
	"		  __global T *out, __global T *unused, __local T *part, __local T *unused2)\n"
	"{\n"
	"	int lid = get_local_id(0), size = get_local_size(0);\n"
	"	T s = 0;\n"
	"	for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
	"		s += partials ? x[i] : x[i] * y[i];\n"
	"	part[lid] = s;\n"
	"	for (int h = size / 2; h > 0; h /= 2) {\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"		if (lid < h)\n"
	"			part[lid] += part[lid + h];\n"
	"	}\n"
	"	if (lid == 0)\n"
	"		out[get_group_id(0)] = part[0];\n"
	"}\n"
	"void ssq_add(T *scale, T *ssq, T s, T q)\n"
	"{\n"
	"	if (isnan(s) || isnan(q)) {\n"
	"		*ssq = s + q; /* a NaN stays a NaN (fmax would drop it) */\n"
	"		return;\n"
	"	}\n"
	"	T m = fmax(*scale, s);\n"
	"	if (m == 0)\n"
	"		return;\n"
	"	if (isinf(m)) { /* the norm is +inf, not Inf / Inf = NaN */\n"
	"		*scale = m;\n"
	"		*ssq = isnan(*ssq) ? *ssq : 1;\n"
	"		return;\n"
	"	}\n"
	"	*ssq = *ssq * (*scale / m) * (*scale / m) + q * (s / m) * (s / m);\n"
	"	*scale = m;\n"
	"}\n"
	"__kernel void reduce_norm(__global const T *x, __global const T *q, int n, int partials,\n"
	"		   __global T *out_scale, __global T *out_ssq, __local T *ls, __local T *lq)\n"
	"{\n"
	"	int lid = get_local_id(0), size = get_local_size(0);\n"
	"	T scale = 0, ssq = 0;\n"
	"	for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
	"		ssq_add(&scale, &ssq, partials ? x[i] : fabs(x[i]), partials ? q[i] : 1);\n"
	"	ls[lid] = scale;\n"
	"	lq[lid] = ssq;\n"
	"	for (int h = size / 2; h > 0; h /= 2) {\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"		if (lid < h) {\n"
	"			T s = ls[lid], t = lq[lid];\n"
	"			ssq_add(&s, &t, ls[lid + h], lq[lid + h]);\n"
	"			ls[lid] = s;\n"
	"			lq[lid] = t;\n"
	"		}\n"
	"	}\n"
	"	if (lid == 0) {\n"
	"		out_scale[get_group_id(0)] = ls[0];\n"
	"		out_ssq[get_group_id(0)] = lq[0];\n"
	"	}\n"
	"}\n"
	"__kernel void accumulate(__global R *out, __global const T *v, __global const T *q,\n"
	"			 int norm)\n"
	"{\n"
	"	out[0] = norm ? hypot(out[0], (R)v[0] * sqrt((R)q[0])) : out[0] + (R)v[0];\n"
	"}\n";

static cl_int reduce_launch(cl_kernel kern, cl_mem x, cl_mem y, int n, int partials,
			    cl_mem out, cl_mem out2, size_t groups, size_t local)
{
	size_t global = groups * local;
	cl_int err = 0;

	err |= clSetKernelArg(kern, 0, sizeof(x), &x);
	err |= clSetKernelArg(kern, 1, sizeof(y), &y);
	err |= clSetKernelArg(kern, 2, sizeof(n), &n);
	err |= clSetKernelArg(kern, 3, sizeof(partials), &partials);
	err |= clSetKernelArg(kern, 4, sizeof(out), &out);
	err |= clSetKernelArg(kern, 5, sizeof(out2), &out2);
	err |= clSetKernelArg(kern, 6, local * sizeof(T), NULL);
	err |= clSetKernelArg(kern, 7, local * sizeof(T), NULL);
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

/* result (R) += the sum, or hypot of it and the norm scale * sqrt(ssq). */
static cl_int reduce_accumulate(cl_kernel acc, cl_mem result, cl_mem sum, cl_mem ssq,
				enum reduce_kind kind)
{
	size_t one = 1;
	int norm = kind == REDUCE_NORM;
	cl_int err = 0;

	err |= clSetKernelArg(acc, 0, sizeof(result), &result);
	err |= clSetKernelArg(acc, 1, sizeof(sum), &sum);
	err |= clSetKernelArg(acc, 2, sizeof(ssq), &ssq);
	err |= clSetKernelArg(acc, 3, sizeof(norm), &norm);
	if (err != CL_SUCCESS)
		return err;
	return clEnqueueNDRangeKernel(pph_opencl_queue(), acc, 1, NULL, &one, &one, 0, NULL, NULL);
}

static cl_mem reduce_buffer(size_t elems, cl_int *err)
{
	return *err == CL_SUCCESS ? clCreateBuffer(pph_opencl_context(), CL_MEM_READ_WRITE,
						   elems * sizeof(T), NULL, err) :
				    NULL;
}

/* *result += x . y (REDUCE_DOT), or *result = hypot(*result, ||x||)
 * (REDUCE_NORM); x, y and result cl_mem.  Two launches of the kind's
 * kernel: at most REDUCE_GROUPS work-groups each reduce a strided share of
 * the terms (a tree in local memory), one work-group their partials; a
 * third combines that into the result. */
static void reduce_opencl(const char *who, cl_mem x, cl_mem y, int n, enum reduce_kind kind,
			  cl_mem result)
{
	const char *name = kind == REDUCE_NORM ? "reduce_norm" : "reduce_dot";
	cl_kernel kern = pph_opencl_kernel_source(reduce_source, name);
	cl_kernel acc = pph_opencl_kernel_source(reduce_source, "accumulate");
	size_t local, groups;
	/* a partial per group (a pair for a norm), and the whole */
	cl_mem part = NULL, part2 = NULL, sum = NULL, sum2 = NULL;
	cl_int err = CL_SUCCESS;

	if (n <= 0) /* no terms: the result stays as it is */
		return;
	if (!kern || !acc) {
		pph_variant_failed(); /* reported; another variant runs the task */
		return;
	}
	local = reduce_local_size(kern);
	groups = ((size_t)n + local - 1) / local;
	if (groups > REDUCE_GROUPS)
		groups = REDUCE_GROUPS;
	if (groups < 1)
		groups = 1;
	sum = reduce_buffer(1, &err);
	sum2 = reduce_buffer(1, &err); /* the norm's ssq; unused by dot */
	if (groups > 1) {
		part = reduce_buffer(groups, &err);
		part2 = reduce_buffer(groups, &err);
	}
	if (err == CL_SUCCESS && groups == 1)
		err = reduce_launch(kern, x, y, n, 0, sum, sum2, 1, local);
	else if (err == CL_SUCCESS) {
		err = reduce_launch(kern, x, y, n, 0, part, part2, groups, local);
		if (err == CL_SUCCESS)
			err = reduce_launch(kern, part, part2, (int)groups, 1, sum, sum2, 1, local);
	}
	if (err == CL_SUCCESS)
		err = reduce_accumulate(acc, result, sum, sum2, kind);
	/* freed once the kernels are done */
	if (sum)
		clReleaseMemObject(sum);
	if (sum2)
		clReleaseMemObject(sum2);
	if (part)
		clReleaseMemObject(part);
	if (part2)
		clReleaseMemObject(part2);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "%s: kernel launch failed (%d)\n", who, (int)err);
		pph_variant_failed();
	}
}
