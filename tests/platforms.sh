# Sourced by the test scripts: which platforms this build has, from
# "$top_builddir/config.h" (configure --disable-openmp, --disable-opencl,
# --without-cuda leave theirs out).
#   have_platform NAME        true when config.h defines PPH_HAVE_NAME
#   need_platforms WHY NAME... skip the test (exit 77) unless the build has
#                             every NAME, saying which one it lacks and WHY
#   no_gpu_cuda               prints --disable-cuda where no GPU is (nvidia-smi
#                             lists none): for builds whose CUDA variants could
#                             only be compiled here, which tests/repository and
#                             tests/starpu/repository.sh do (nvcc was most of
#                             the others' build time)
have_platform() {
	grep -q "^#define PPH_HAVE_$1 1" "${top_builddir:?}/config.h"
}

need_platforms() {
	_why=$1
	shift
	for _p in "$@"; do
		have_platform "$_p" || {
			echo "skipped: this build has no $_p ($_why)"
			exit 77
		}
	done
}

no_gpu_cuda() {
	nvidia-smi -L 2> /dev/null | grep -q "^GPU" || echo --disable-cuda
}
