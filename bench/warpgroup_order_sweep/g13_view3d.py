# A T.reshape view of a gemm accumulator and 3-D T.Parallel nests (DeepSeek V3.2's lightning
# indexer, deepseek_mhc's backward): the view shares the accumulator's registers (its layout is
# the accumulator's seen through the new shape), a 3-D nest scales it through 2-D and 1-D
# fragments read at other indices, a reduction over its last dim gives (N, Q) logits stored
# transposed and, through an (N, 1) fragment indexed [n, 0] in 1-D nests, its first column; a
# rank-3 block fragment is reduced over its middle dim.
import torch
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 6, 7])
def indexer(N=64, Q=4, H=16, D=32, Tt=8, S=4, threads=128):
    @T.prim_func
    def main(
        Kt: T.Tensor((N, D), "float16"),
        Qt: T.Tensor((Q * H, D), "float16"),
        W: T.Tensor((Q, H), "float32"),
        Ks: T.Tensor((N,), "float32"),
        Out: T.Tensor((Q, N), "float32"),
        R: T.Tensor((Tt, S, S), "float32"),
        Y: T.Tensor((Tt, S), "float32"),
        L1: T.Tensor((N,), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            k_shared = T.alloc_shared((N, D), "float16")
            q_shared = T.alloc_shared((Q * H, D), "float16")
            s = T.alloc_fragment((N, Q * H), "float32")
            s_reshaped = T.reshape(s, (N, Q, H))
            w = T.alloc_fragment((Q, H), "float32")
            ks = T.alloc_fragment((N,), "float32")
            logits = T.alloc_fragment((N, Q), "float32")
            lg = T.alloc_fragment((N, 1), "float32")
            r = T.alloc_fragment((Tt, S, S), "float32")
            x = T.alloc_fragment((Tt, S), "float32")
            y = T.alloc_fragment((Tt, S), "float32")
            T.copy(Kt, k_shared)
            T.copy(Qt, q_shared)
            T.copy(W, w)
            T.copy(Ks, ks)
            T.gemm(k_shared, q_shared, s, transpose_B=True, clear_accum=True, policy=T.GemmWarpPolicy.FullCol)
            for n, q, h in T.Parallel(N, Q, H):
                s_reshaped[n, q, h] = T.max(s_reshaped[n, q, h], 0) * w[q, h] * ks[n]
            T.reduce_sum(s_reshaped, logits, dim=-1, clear=True)
            for q, n in T.Parallel(Q, N):
                Out[q, n] = logits[n, q]
            for n in T.Parallel(N):
                lg[n, 0] = logits[n, 0] + ks[n]
            for n in T.Parallel(N):
                L1[n] = lg[n, 0]
            T.copy(R, r)
            for t, i in T.Parallel(Tt, S):
                x[t, i] = R[t, i, 0] + 1.0
            for t, i, j in T.Parallel(Tt, S, S):
                r[t, i, j] = r[t, i, j] * x[t, j]
            T.reduce_sum(r, y, dim=-2)
            T.copy(y, Y)

    return main


def ref_program(Kt, Qt, W, Ks, R, N, Q, H, Tt, S):
    s = Kt.float() @ Qt.float().t()
    s = s.reshape(N, Q, H).clamp(min=0) * W.reshape(1, Q, H) * Ks.reshape(N, 1, 1)
    out = s.sum(dim=-1).t()
    x = R[:, :, 0] + 1.0
    y = (R * x.unsqueeze(1)).sum(dim=-2)
    return out, y, out[0, :] + Ks
