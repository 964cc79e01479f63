# Register-A chain: S = A @ B (fp32 acc), P = cast(S * scale) into an fp16/bf16 fragment,
# O = P @ V (+ O when two_steps: the chain is repeated over a loop of V tiles).
#   pol1/pol2: policies of the two gemms; tv: V stored (N2, N1) and read with transpose_B
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3])
def gemm_rs(M=256, K=64, N1=128, N2=64, block_M=128, threads=128, pol1=1, pol2=1, dtype="float16",
            tv=0, steps=1, loop=1, num_stages=2, scale=0.125, rowred=0):
    pols = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol]
    v_shape = (N2, N1 * steps) if tv else (N1 * steps, N2)
    v_tile = (N2, N1) if tv else (N1, N2)

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N1 * steps), dtype), V: T.Tensor(v_shape, dtype),
             O: T.Tensor((M, N2), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bm,):
            A_s = T.alloc_shared((block_M, K), dtype)
            B_s = T.alloc_shared((K, N1), dtype)
            V_s = T.alloc_shared(v_tile, dtype)
            S = T.alloc_fragment((block_M, N1), "float32")
            P = T.alloc_fragment((block_M, N1), dtype)
            acc = T.alloc_fragment((block_M, N2), "float32")
            rs = T.alloc_fragment((block_M,), "float32")
            T.copy(A[bm * block_M, 0], A_s)
            T.clear(acc)
            if loop:
                for s in T.Pipelined(steps, num_stages=num_stages):
                    T.copy(B[0, s * N1], B_s)
                    if tv:
                        T.copy(V[0, s * N1], V_s)
                    else:
                        T.copy(V[s * N1, 0], V_s)
                    T.clear(S)
                    T.gemm(A_s, B_s, S, policy=pols[pol1])
                    if rowred:
                        T.reduce_absmax(S, rs, dim=1)
                        for i, j in T.Parallel(block_M, N1):
                            P[i, j] = S[i, j] / (rs[i] + 1.0)
                    else:
                        for i, j in T.Parallel(block_M, N1):
                            P[i, j] = S[i, j] * scale
                    T.gemm(P, V_s, acc, transpose_B=tv, policy=pols[pol2])
            else:
                T.copy(B[0, 0], B_s)
                if tv:
                    T.copy(V[0, 0], V_s)
                else:
                    T.copy(V[0, 0], V_s)
                T.clear(S)
                T.gemm(A_s, B_s, S, policy=pols[pol1])
                if rowred:
                    T.reduce_absmax(S, rs, dim=1)
                    for i, j in T.Parallel(block_M, N1):
                        P[i, j] = S[i, j] / (rs[i] + 1.0)
                else:
                    T.copy(S, P)
                T.gemm(P, V_s, acc, transpose_B=tv, policy=pols[pol2])
            T.copy(acc, O[bm * block_M, 0])

    return main


def ref_program(A, B, V, N1=128, steps=1, loop=1, tv=0, scale=0.125, rowred=0, dtype="float16"):
    a = A.double()
    v = V.double().T if tv else V.double()
    o = None
    for s in range(steps if loop else 1):
        S = a @ B.double()[:, s * N1:(s + 1) * N1]
        if rowred:
            P = S / (S.abs().amax(dim=1, keepdim=True) + 1.0)
        elif loop:
            P = S * scale
        else:
            P = S
        P = P.half().double() if dtype == "float16" else P.to(torch.bfloat16).double()
        t = P @ v[s * N1:(s + 1) * N1, :]
        o = t if o is None else o + t
    return o.float()
