# Indented with tabs only (one tab per level), as some editors write Python: Python accepts it,
# and so must TileScope (the TabError rule only rejects indentation whose meaning depends on the
# tab width). The inner loop body's indentation is a tab and four spaces after the loop's tab:
# consistent, also accepted.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale_rows(M=64, N=32, block_M=16):
	@T.prim_func
	def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
		with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
			for i, j in T.Parallel(block_M, N):
			    B[bx * block_M + i, j] = A[bx * block_M + i, j] * 2.0 + 0.5

	return main


def ref_program(A):
	return A * 2.0 + 0.5
