# The communication of the tiled Cholesky (examples/cholesky) on
# libpeppher-starpu-mpi, counted tile by tile: bytes each rank sends during
# the factorization (up to pph_task_wait_all), for nt x nt tiles of b x b
# doubles over a P x Q grid of ranks.  doc/distributed.md derives it.
#
#   awk -v nt=NT -v b=B -v P=P -v Q=Q -f cholesky_comm.awk
#
# prints one line: the bytes each rank sends, rank 0 first.
#
# The example's tile (i, j), i >= j, is its view's tile (j, i) (the matrix
# is column-major), owned by rank (j mod P) * Q + (i mod Q).  A tile is sent
# only in its final value (potrf's for a diagonal tile, trsm's below it):
# the other tasks that write it run on its owner, and StarPU-MPI's cache
# sends a value to each rank once.  Diagonal (k, k) goes to the owners of
# the trsm tiles (i, k), i > k; tile (i, k) to the owners of syrk's (i, i)
# and of the gemm tiles (i, j), k < j < i, and (i', i), i' > i.
function owner(i, j) { return (j % P) * Q + (i % Q) }
function send(from,   r) {
	delete need[from]
	for (r in need)
		sent[from]++
	delete need
}
BEGIN {
	if (nt < 1 || b < 1 || P < 1 || Q < 1) {
		print "usage: awk -v nt=NT -v b=B -v P=P -v Q=Q -f cholesky_comm.awk" > "/dev/stderr"
		exit 1
	}
	for (k = 0; k < nt; k++) {
		for (i = k + 1; i < nt; i++)
			need[owner(i, k)] = 1
		send(owner(k, k))
		for (i = k + 1; i < nt; i++) {
			need[owner(i, i)] = 1
			for (j = k + 1; j < i; j++)
				need[owner(i, j)] = 1
			for (i2 = i + 1; i2 < nt; i2++)
				need[owner(i2, i)] = 1
			send(owner(i, k))
		}
	}
	for (r = 0; r < P * Q; r++)
		printf "%s%.0f", r ? " " : "", (sent[r] + 0) * b * b * 8
	print ""
}
