# Two fragment-path wgmma gemms of a T.Pipelined body with statements between them
# (compiler/transforms/InjectPipeline.cpp pairIndependentWgmmas): the first, P @ W2 with P in
# registers (wgmma rs), may stay in flight (wait_group 1) while the statements between run and
# the second is issued, if those statements touch neither its accumulator nor its register A
# and write no shared tile it reads (the MHA backward's dK += dS Q after dS is stored for dQ).
# P is stored to the shared P_s before the first gemm, so that gemm needs no proxy fence
# (dropRepeatedWgmmaFences tracks which tiles were written) and the second one does.
#   mode 0: nothing between: paired across the second gemm's proxy fence and block barrier
#   mode 1: P is scaled in place between (writes the rs A registers): not paired
#   mode 2: acc2 is read between (the first gemm's accumulator): not paired
#   mode 3: P is read between (PTX: the A registers may not be accessed before the wait): not paired
#   mode 4: W2_s (the first gemm's B) is rewritten, unchanged, through a view between: not paired
#           (the thread interpreter poisons bytes rewritten through another name: run it at T_tiles=1)
#   mode 5: the second gemm accumulates into a view of acc2 (Out2 += P^T X, Out3 = 0): not paired
# Per block of M rows, over T row tiles t: P_t = half(X_t W1); acc2 += P_t W2 (rs);
# acc3 += P_t^T X_t (ss, transpose_A). Out2 = acc2, Out3 = acc3 in modes 0-4 (what they write
# between is dead).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def pair_between(T_tiles=3, M=64, N=64, K=64, threads=128, mode=0, dtype="float16"):
    @T.prim_func
    def main(
        X: T.Tensor((T_tiles * M, K), dtype),
        W1: T.Tensor((K, N), dtype),
        W2: T.Tensor((N, N), dtype),
        Out2: T.Tensor((M, N), "float32"),
        Out3: T.Tensor((N, K), "float32"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            X_s = T.alloc_shared((M, K), dtype)
            W1_s = T.alloc_shared((K, N), dtype)
            W2_s = T.alloc_shared((N, N), dtype)
            P_s = T.alloc_shared((M, N), dtype)
            s1 = T.alloc_fragment((M, N), "float32")
            P = T.alloc_fragment((M, N), dtype)
            acc2 = T.alloc_fragment((M, N), "float32")
            acc3 = T.alloc_fragment((N, K), "float32")
            T.copy(W1, W1_s)
            T.copy(W2, W2_s)
            T.clear(acc2)
            T.clear(acc3)
            for t in T.Pipelined(T_tiles, num_stages=2):
                T.copy(X[t * M, 0], X_s)
                T.clear(s1)
                T.gemm(X_s, W1_s, s1, policy=T.GemmWarpPolicy.FullRow)
                T.copy(s1, P)
                T.copy(P, P_s)
                T.gemm(P, W2_s, acc2, policy=T.GemmWarpPolicy.FullRow)
                if mode == 1:  # P is not read again this iteration
                    for i, j in T.Parallel(M, N):
                        P[i, j] = P[i, j] * T.cast(2.0, dtype)
                if mode == 2:  # s1 is dead here
                    for i, j in T.Parallel(M, N):
                        s1[i, j] = acc2[i, j]
                if mode == 3:
                    for i, j in T.Parallel(M, N):
                        s1[i, j] = T.cast(P[i, j], "float32")
                if mode == 4:
                    W2_flat = T.reshape(W2_s, (N * N,))
                    for i in T.Parallel(N * N):
                        W2_flat[i] = W2_flat[i]
                if mode == 5:
                    acc2_v = T.view(acc2, (N, K))
                    T.gemm(P_s, X_s, acc2_v, transpose_A=True, policy=T.GemmWarpPolicy.FullRow)
                else:
                    T.gemm(P_s, X_s, acc3, transpose_A=True, policy=T.GemmWarpPolicy.FullRow)
            T.copy(acc2, Out2)
            T.copy(acc3, Out3)

    return main


def ref_program(X, W1, W2, T_tiles=3, M=64, mode=0):
    out2 = 0
    out3 = 0
    for t in range(T_tiles):
        x = X[t * M:(t + 1) * M].double()
        p = (x @ W1.double()).half().double()
        out2 = out2 + p @ W2.double()
        if mode == 5:
            out2 = out2 + p.t() @ x
        else:
            out3 = out3 + p.t() @ x
    if mode == 5:
        out3 = out2 * 0
    return out2.float(), out3.float()
