# T.gemm operands that are column slices of one shared tile (DeepSeek V3.2 sparse MLA:
# T.gemm(Q_shared[:, :D], KV_shared, ...) and T.gemm(Q_shared[:, D:], K_tail_shared, ...)): each
# slice is read in place (the gemm gets the tile's row length and the slice's first column).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3])
def gemm_slices(M=64, N=64, D=64, Dt=32, threads=128):
    @T.prim_func
    def main(
        Q: T.Tensor((M, D + Dt), "float16"),
        KV: T.Tensor((N, D), "float16"),
        Kt: T.Tensor((N, Dt), "float16"),
        S: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            q = T.alloc_shared((M, D + Dt), "float16")
            kv = T.alloc_shared((N, D), "float16")
            kt = T.alloc_shared((N, Dt), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            T.copy(Q[0:M, :D], q[:, :D])
            T.copy(Q[0:M, D:], q[:, D:])
            T.copy(KV, kv)
            T.copy(Kt, kt)
            T.clear(acc)
            T.gemm(q[:, :D], kv, acc, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
            T.gemm(q[:, D:], kt, acc, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
            T.copy(acc, S)

    return main


def ref_program(Q, KV, Kt, D):
    Q = Q.float()
    return Q[:, :D] @ KV.float().t() + Q[:, D:] @ Kt.float().t()
