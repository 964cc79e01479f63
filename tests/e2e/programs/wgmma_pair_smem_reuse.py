# A wgmma left in flight by pairIndependentWgmmas (compiler/transforms/InjectPipeline.cpp) against
# plan-smem's byte reuse within an iteration (SmemLiveness.cpp): A_s is read only by the first
# gemm, B_s is first written between the two gemms, and both are overwritten whole every
# iteration (iteration-smem). With `pad` large enough that the block only fits when B_s takes
# A_s's bytes, the plan used to put them at one offset while the first gemm (wait_group 1) was
# still reading A_s: B_s's stores raced with the wgmma's reads (the interpreters run a wgmma at
# its issue and could not see it). A_s now stays live up to the wait that retires it.
# Out2 = sum_t (2 X_t) W2, Out3 = sum_t half(X_t * bias_t) W3.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4, 7])
def pair_reuse(T_tiles=3, M=128, N=128, K=128, threads=256, pad=160, dtype="float16"):
    @T.prim_func
    def main(
        X: T.Tensor((T_tiles * M, K), dtype),
        W2: T.Tensor((K, N), dtype),
        W3: T.Tensor((K, N), dtype),
        Out2: T.Tensor((M, N), "float32"),
        Out3: T.Tensor((M, N), "float32"),
        Bias: T.Tensor((T_tiles * M,), "float32"),
        Pad: T.Tensor((M, pad), dtype),
        PadOut: T.Tensor((M, pad), dtype),
    ):
        with T.Kernel(1, threads=threads) as bx:
            X_s = T.alloc_shared((M, K), dtype)
            W2_s = T.alloc_shared((K, N), dtype)
            W3_s = T.alloc_shared((K, N), dtype)
            A_s = T.alloc_shared((M, K), dtype)
            B_s = T.alloc_shared((M, K), dtype)
            b_s = T.alloc_shared((M,), "float32")  # a 1-D copy: the loop keeps the cp.async schedule
            F = T.alloc_fragment((M, K), dtype)
            acc2 = T.alloc_fragment((M, N), "float32")
            acc3 = T.alloc_fragment((M, N), "float32")
            T.copy(W2, W2_s)
            T.copy(W3, W3_s)
            Pad_s = T.alloc_shared((M, pad), dtype)  # live across the loop: only shared-byte pressure
            T.copy(Pad, Pad_s)
            T.clear(acc2)
            T.clear(acc3)
            for t in T.Pipelined(T_tiles, num_stages=2):
                T.copy(X[t * M, 0], X_s)
                T.copy(Bias[t * M], b_s)
                T.copy(X_s, F)
                for i, j in T.Parallel(M, K):
                    A_s[i, j] = F[i, j] * T.cast(2.0, dtype)
                T.gemm(A_s, W2_s, acc2, policy=T.GemmWarpPolicy.FullRow)
                for i, j in T.Parallel(M, K):
                    B_s[i, j] = F[i, j] * T.cast(b_s[i], dtype)
                T.gemm(B_s, W3_s, acc3, policy=T.GemmWarpPolicy.FullRow)
            T.copy(acc2, Out2)
            T.copy(acc3, Out3)
            T.copy(Pad_s, PadOut)

    return main


def ref_program(X, W2, W3, Bias, Pad, T_tiles=3, M=128):
    out2 = 0
    out3 = 0
    for t in range(T_tiles):
        x = X[t * M:(t + 1) * M].double()
        b = Bias[t * M:(t + 1) * M].half().double()[:, None]
        out2 = out2 + (2 * x) @ W2.double()
        out3 = out3 + (x * b).half().double() @ W3.double()
    return out2.float(), out3.float(), Pad
