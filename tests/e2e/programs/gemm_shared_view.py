# T.gemm operands that are sub-regions of shared tiles, read in place (issue 8: DeepSeek MLA
# decode's KV_shared[stage, :, :dim // 2], V3.2 sparse MLA's Q_shared[:, :D] / Q_shared[:, D:]
# and its backward's transposed P against Q_shared[:, :D]): column slices at offset `off` and
# off + D of a 2-D tile (A) and of one stage of a 3-D tile (B, transposed and not), a register
# A operand against a slice (gemm_rs), and a transposed A against a slice. With `off` not a
# multiple of 8 elements (16 bytes) the slices cannot be read in place and are copied.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4, 5])
def gemm_views(M=64, N=64, D=64, Dt=64, off=64, dtype="float16", threads=128):
    W = off + D + Dt

    @T.prim_func
    def main(
        Q: T.Tensor((M, W), dtype),
        KV: T.Tensor((2, N, W), dtype),
        P: T.Tensor((M, N), dtype),
        S: T.Tensor((M, N), "float32"),
        O1: T.Tensor((M, D), "float32"),
        O2: T.Tensor((N, D), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            q = T.alloc_shared((M, W), dtype)
            kv = T.alloc_shared((2, N, W), dtype)
            p = T.alloc_shared((M, N), dtype)
            pf = T.alloc_fragment((M, N), dtype)
            acc_s = T.alloc_fragment((M, N), "float32")
            acc_o1 = T.alloc_fragment((M, D), "float32")
            acc_o2 = T.alloc_fragment((N, D), "float32")
            T.copy(Q, q)
            T.copy(KV, kv)
            T.copy(P, p)
            T.copy(p, pf)
            T.clear(acc_s)
            T.gemm(q[:, off : off + D], kv[1, :, off : off + D], acc_s, transpose_B=True)
            T.gemm(q[:, off + D :], kv[1, :, off + D :], acc_s, transpose_B=True)
            T.clear(acc_o1)
            T.gemm(pf, kv[0, :, off : off + D], acc_o1, policy=T.GemmWarpPolicy.FullRow)
            T.gemm(p, q[:, off : off + D], acc_o2, transpose_A=True, clear_accum=True)
            T.copy(acc_s, S)
            T.copy(acc_o1, O1)
            T.copy(acc_o2, O2)

    return main


def ref_program(Q, KV, P, off, D):
    Q = Q.float()
    KV = KV.float()
    P = P.float()
    S = Q[:, off : off + D] @ KV[1, :, off : off + D].t() + Q[:, off + D :] @ KV[1, :, off + D :].t()
    O1 = P @ KV[0, :, off : off + D]
    O2 = P.t() @ Q[:, off : off + D]
    return S, O1, O2
