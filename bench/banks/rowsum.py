# Row sums of a (M, N) matrix: each block reduces block_M rows with T.reduce_sum, whose
# cross-warp step goes through shared memory (the reduction scratch of lower-tile-ops). Used by
# bench/h200_banks.sh as the reduction case of the predicted-vs-measured bank table.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def rowsum(M=4096, N=1024, block_M=4, dtype="float32", threads=256):

    @T.prim_func
    def main(
            A: T.Tensor((M, N), dtype),
            S: T.Tensor((M,), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            A_frag = T.alloc_fragment((block_M, N), dtype)
            S_frag = T.alloc_fragment((block_M,), dtype)
            T.copy(A[bx * block_M, 0], A_frag)
            T.reduce_sum(A_frag, S_frag, dim=1)
            T.copy(S_frag, S[bx * block_M])

    return main


def ref_program(A):
    return A.sum(dim=1)


flops = M * N
bytes = (M * N + M) * 4
