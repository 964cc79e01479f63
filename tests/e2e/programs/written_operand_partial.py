# A T.Pipelined loop whose body writes a wgmma operand tile S_s with ordinary stores before the
# gemm that reads it, per tile k: C1 = A_k @ B_k, S_s = C1 / 2 (float16), acc += S_s @ W.
# Two schedules give such a tile two copies, iteration k writing copy k % 2: the cp.async
# in-flight schedule (num_stages >= 3, on by default) and the fragment-path TMA schedule with
# TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1. That is right only when every iteration writes the
# whole tile: an element iteration k leaves alone must keep iteration k - 1's value, but copy
# k % 2 holds iteration k - 2's (or nothing). Both decline these modes:
# mode 1: the whole write under `if k % 2 == 0` (odd k reuse the previous S)
# mode 2: elements written under a condition, (i + k) % 2 == 0 (all of them at k == 0)
# mode 3: the upper half of the rows written after the first iteration
# mode 0 writes the whole tile every iteration and keeps both schedules; so does mode 4, which
# writes it transposed (S_s[j, i] = C1[i, j] / 2 in a T.Parallel over (i, j)).
#   Out = sum_k S_k @ W  with S_k as above
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3])
def written_operand_partial(T_tiles=5, num_stages=3, threads=128, mode=0):
    M, N, K = 64, 64, 64

    @T.prim_func
    def main(
        A: T.Tensor((T_tiles * M, K), "float16"),
        B: T.Tensor((T_tiles * K, N), "float16"),
        W: T.Tensor((N, N), "float16"),
        Out: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            W_s = T.alloc_shared((N, N), "float16")
            S_s = T.alloc_shared((M, N), "float16")
            c1 = T.alloc_fragment((M, N), "float32")
            acc = T.alloc_fragment((M, N), "float32")
            T.copy(W, W_s)
            T.clear(acc)
            for k in T.Pipelined(T_tiles, num_stages=num_stages):
                T.copy(A[k * M, 0], A_s)
                T.copy(B[k * K, 0], B_s)
                T.clear(c1)
                T.gemm(A_s, B_s, c1)
                if mode == 1:
                    if k % 2 == 0:
                        for i, j in T.Parallel(M, N):
                            S_s[i, j] = T.cast(c1[i, j] * 0.5, "float16")
                elif mode == 2:
                    for i, j in T.Parallel(M, N):
                        if (i + k) % 2 == 0 or k == 0:
                            S_s[i, j] = T.cast(c1[i, j] * 0.5, "float16")
                elif mode == 3:
                    for i, j in T.Parallel(M, N):
                        if i < M // 2 or k == 0:
                            S_s[i, j] = T.cast(c1[i, j] * 0.5, "float16")
                elif mode == 4:
                    for i, j in T.Parallel(M, N):
                        S_s[j, i] = T.cast(c1[i, j] * 0.5, "float16")
                else:
                    for i, j in T.Parallel(M, N):
                        S_s[i, j] = T.cast(c1[i, j] * 0.5, "float16")
                T.gemm(S_s, W_s, acc)
            T.copy(acc, Out)

    return main


def ref_program(A, B, W, T_tiles=5, num_stages=3, threads=128, mode=0):
    import torch

    M = K = 64
    out = torch.zeros(M, W.shape[1], dtype=torch.float64)
    S = torch.zeros(M, W.shape[1], dtype=torch.float64)
    for k in range(T_tiles):
        new = (A[k * M : (k + 1) * M].double() @ B[k * K : (k + 1) * K].double() * 0.5).half().double()
        if mode == 4:
            new = new.t()
        for i in range(M):
            if mode == 0 or mode == 4 or k == 0 or (mode == 1 and k % 2 == 0) or (mode == 2 and (i + k) % 2 == 0) or (mode == 3 and i < M // 2):
                S[i] = new[i]
        out += S @ W.double()
    return out.float()
