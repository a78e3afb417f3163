# Sourced by the evaluation's scripts: whether to compose (and so compile and
# run) the CUDA variants.  EVAL_CUDA=1 always (they compile without a GPU,
# and the runtime then has no CUDA worker), 0 never, and by default where
# they can run: a CUDA build of libpeppher and a device nvidia-smi sees.
eval_cuda() {
	case ${EVAL_CUDA:-auto} in
	1) return 0 ;;
	0) return 1 ;;
	esac
	[ -n "$(pkg-config --variable=cuda_libs peppher 2> /dev/null)" ] &&
		nvidia-smi -L > /dev/null 2>&1
}
