# T.gemm operands that are column slices of shared tiles inside a T.Pipelined loop (issue 8): on
# sm_90a the loop's tile is loaded by TMA and wgmma reads both 64-column halves of q and of the
# staged k in place (each half is one 128-byte swizzle panel); on sm_80 mma.sync reads them in place.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def pipe_views(M=64, N=64, D=64, Dt=64, KT=4, dtype="float16", threads=128, stages=2):
    W = D + Dt

    @T.prim_func
    def main(
        Q: T.Tensor((M, W), dtype),
        K: T.Tensor((KT * N, W), dtype),
        S: T.Tensor((M, KT * N), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            q = T.alloc_shared((M, W), dtype)
            k = T.alloc_shared((N, W), dtype)
            acc_s = T.alloc_fragment((M, N), "float32")
            T.copy(Q, q)
            for t in T.Pipelined(KT, num_stages=stages):
                T.copy(K[t * N : (t + 1) * N, :], k)
                T.clear(acc_s)
                T.gemm(q[:, :D], k[:, :D], acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.gemm(q[:, D:], k[:, D:], acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(acc_s, S[:, t * N : (t + 1) * N])

    return main


def ref_program(Q, K):
    return Q.float() @ K.float().t()
