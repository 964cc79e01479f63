# T.copy's prefer_instruction (TileLang's copy_op.py: "tma", "cp_async", "sync") and T.Tensor
# subscripts without a dtype (`T.Tensor[(M, N)]` is float32, as TileLang's BaseTensorProxy reads
# it). Two loads into shared tiles: on sm_90a the first ("tma") is one TMA load, the second
# ("sync") plain loads; C = A + 2 B.
import tilelang
import tilelang.language as T


@tilelang.jit
def staged_copy(M=1000, N=64, block_M=32, first="tma", second="sync"):
    @T.prim_func
    def main(A: T.Tensor[(M, N)], B: T.Tensor[(M, N)], C: T.Tensor[M, N]):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            a_shared = T.alloc_shared((block_M, N), "float32")
            b_shared = T.alloc_shared((block_M, N), "float32")
            T.copy(A[bx * block_M, 0], a_shared, prefer_instruction=first)
            T.copy(B[bx * block_M, 0], b_shared, prefer_instruction=second)
            for i, j in T.Parallel(block_M, N):
                a_shared[i, j] = a_shared[i, j] + b_shared[i, j] * 2.0
            T.copy(a_shared, C[bx * block_M, 0])

    return main


def ref_program(A, B):
    return A + B * 2.0
