# T.clear(C) right before T.gemm(A, B, C) inside a loop (how TileLang's attention and backward
# kernels start each score tile): simplify folds the pair into one gemm with clear_accum, and on
# sm_90a the wgmma's first k-step ignores C's registers (scale-d = 0) instead of zeroing them.
# S is cleared and recomputed in every iteration and summed into Acc, so a clear that was lost
# (S accumulating across iterations) or a stale register would show in the output. P is cleared
# with a statement between the clear and its gemm: not folded.
import tilelang
import tilelang.language as T


@tilelang.jit
def scores_sum(M=64, N=64, K=64, tiles=3, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((tiles * N, K), dtype), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((M, K), dtype)
            B_s = T.alloc_shared((N, K), dtype)
            S = T.alloc_fragment((M, N), "float32")
            P = T.alloc_fragment((M, N), "float32")
            Acc = T.alloc_fragment((M, N), "float32")
            T.copy(A, A_s)
            T.clear(Acc)
            for t in T.serial(tiles):
                T.copy(B[t * N:(t + 1) * N, :], B_s)
                T.clear(S)
                T.gemm(A_s, B_s, S, transpose_B=True)
                T.clear(P)
                for i, j in T.Parallel(M, N):
                    Acc[i, j] += S[i, j]
                T.gemm(A_s, B_s, P, transpose_B=True)
                for i, j in T.Parallel(M, N):
                    Acc[i, j] += P[i, j] * 0.5
            T.copy(Acc, Out)

    return main


def ref_program(A, B):
    tiles = B.shape[0] // A.shape[0]
    return sum(1.5 * (A @ B[t * 64:(t + 1) * 64, :].T) for t in range(tiles))
