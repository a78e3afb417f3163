# Sourced by the test scripts: which platforms this build has, from
# "$top_builddir/config.h" (configure --disable-openmp, --disable-opencl,
# --without-cuda leave theirs out).
#   have_platform NAME        true when config.h defines PPH_HAVE_NAME
#   need_platforms WHY NAME... skip the test (exit 77) unless the build has
#                             every NAME, saying which one it lacks and WHY
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
