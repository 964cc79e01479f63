# T.gemm(..., mbar=...) names the mbarrier an sm_100 tcgen05 MMA arrives on; TileScope's gemm has
# no such arrival, so a kernel waiting on it would hang: an error at the argument (mbar=None, what
# the sm_90 examples pass, is accepted).
import tilelang
import tilelang.language as T


@tilelang.jit
def gemm_mbar(M=64, N=64, K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            done = T.alloc_barrier(arrive_count=128)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.clear(acc)
            T.gemm(A_s, B_s, acc, mbar=None)
            T.gemm(A_s, B_s, acc, mbar=done)  # expect-error(col 35): mbar= (the mbarrier an sm_100 tcgen05 MMA arrives on
            # expect-hint: remove mbar=
            T.copy(acc, C)
    return main
