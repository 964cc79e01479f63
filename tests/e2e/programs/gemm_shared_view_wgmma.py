# T.gemm operands that are column slices of shared tiles on sm_90a's wgmma path (issue 8): with
# `off` a multiple of the 64-element (128-byte) swizzle atom, each slice is whole panels of its
# tile and wgmma reads it in place (the descriptors' start address moves); with off = Dt = 32
# (256-byte rows, a valid wgmma tile) the slices start inside an atom or are narrower than one,
# so these gemms take mma.sync, which reads them in place too, and a note says why.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def gemm_views_wgmma(M=64, N=64, D=64, Dt=64, off=64, dtype="float16", threads=128):
    W = off + D + Dt

    @T.prim_func
    def main(
        Q: T.Tensor((M, W), dtype),
        K: T.Tensor((N, W), dtype),
        P: T.Tensor((M, N), dtype),
        S: T.Tensor((M, N), "float32"),
        O: T.Tensor((M, D), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            q = T.alloc_shared((M, W), dtype)
            k = T.alloc_shared((N, W), dtype)
            p = T.alloc_shared((M, N), dtype)
            acc_s = T.alloc_fragment((M, N), "float32")
            acc_o = T.alloc_fragment((M, D), "float32")
            T.copy(Q, q)
            T.copy(K, k)
            T.copy(P, p)
            T.clear(acc_s)
            T.gemm(q[:, off : off + D], k[:, off : off + D], acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
            T.gemm(q[:, off + D :], k[:, off + D :], acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
            T.gemm(p, k[:, off : off + D], acc_o, clear_accum=True, policy=T.GemmWarpPolicy.FullRow)
            T.copy(acc_s, S)
            T.copy(acc_o, O)

    return main


def ref_program(Q, K, P, off, D):
    Q = Q.float()
    K = K.float()
    S = Q[:, off : off + D] @ K[:, off : off + D].t() + Q[:, off + D :] @ K[:, off + D :].t()
    O = P.float() @ K[:, off : off + D]
    return S, O
