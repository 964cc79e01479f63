# Chain through shared memory: S = Q K^T (accumulator, read by a row max so it stays in registers),
# P_s = cast(S - rowmax) written to a shared tile (the warpgroup-order fragment stored into a
# wgmma operand tile), O = P_s @ V (wgmma reading both operands from shared), in a loop over KV
# tiles; the row max m also goes to global through T.copy of the 1-D fragment.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def p_shared(M=256, S_len=256, D=64, block_M=128, block_N=64, threads=128, policy=1, num_stages=2,
             dtype="float16"):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]

    @T.prim_func
    def main(Q: T.Tensor((M, D), dtype), K: T.Tensor((S_len, D), dtype), V: T.Tensor((S_len, D), dtype),
             O: T.Tensor((M, D), "float32"), MX: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bm,):
            Q_s = T.alloc_shared((block_M, D), dtype)
            K_s = T.alloc_shared((block_N, D), dtype)
            V_s = T.alloc_shared((block_N, D), dtype)
            P_s = T.alloc_shared((block_M, block_N), dtype)
            S = T.alloc_fragment((block_M, block_N), "float32")
            acc_o = T.alloc_fragment((block_M, D), "float32")
            m = T.alloc_fragment((block_M,), "float32")
            T.copy(Q[bm * block_M, 0], Q_s)
            T.clear(acc_o)
            for kt in T.Pipelined(T.ceildiv(S_len, block_N), num_stages=num_stages):
                T.copy(K[kt * block_N, 0], K_s)
                T.copy(V[kt * block_N, 0], V_s)
                T.clear(S)
                T.gemm(Q_s, K_s, S, transpose_B=True, policy=pol)
                T.reduce_max(S, m, dim=1)
                for i, j in T.Parallel(block_M, block_N):
                    S[i, j] = (S[i, j] - m[i]) * 0.125
                T.copy(S, P_s)
                T.gemm(P_s, V_s, acc_o, policy=pol)
            T.copy(acc_o, O[bm * block_M, 0])
            T.copy(m, MX[bm * block_M])

    return main


def ref_program(Q, K, V, block_N=64, dtype="float16"):
    q = Q.double()
    k = K.double()
    v = V.double()
    o = None
    m = None
    for t in range(K.shape[0] // block_N):
        s = q @ k[t * block_N:(t + 1) * block_N, :].T
        m = s.amax(dim=1, keepdim=True)
        p = (s - m) * 0.125
        p = p.half().double() if dtype == "float16" else p.to(torch.bfloat16).double()
        x = p @ v[t * block_N:(t + 1) * block_N, :]
        o = x if o is None else o + x
    return o.float(), m.reshape(-1).float()
