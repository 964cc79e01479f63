# A pipelined loop that reuses a gemm operand's bytes as scratch after the gemm: per tile t,
# acc += A_t @ B_t, then C_t is copied into `scratch` (a float32 view of B_s) and summed into
# `total`. The copy into the view writes B_s's bytes, so it must stay after the gemm that reads
# B_s, and B_s's own copy cannot be issued ahead either (B_s is written by another statement):
# only A_s's copy may be a pipeline producer. (Keyed by buffer, plan-pipelines hoisted the copy
# into the view before the gemm: the gemm read C's bytes.)
#   Out = sum_t A_t @ B_t,  Total = sum_t C_t
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def pipelined_view_copy(T_tiles=3, num_stages=2, threads=128):
    M, N, K = 64, 64, 64

    @T.prim_func
    def main(
        A: T.Tensor((T_tiles * M, K), "float16"),
        B: T.Tensor((T_tiles * K, N), "float16"),
        C: T.Tensor((T_tiles * K // 2, N), "float32"),
        Out: T.Tensor((M, N), "float32"),
        Total: T.Tensor((K // 2, N), "float32"),
    ):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            total = T.alloc_fragment((K // 2, N), "float32")
            acc = T.alloc_fragment((M, N), "float32")
            T.clear(acc)
            T.clear(total)
            for t in T.Pipelined(T_tiles, num_stages=num_stages):
                T.copy(A[t * M, 0], A_s)
                T.copy(B[t * K, 0], B_s)
                T.gemm(A_s, B_s, acc)
                scratch = T.view(B_s, shape=[K // 2, N], dtype="float32")
                T.copy(C[t * (K // 2), 0], scratch)
                for i, j in T.Parallel(K // 2, N):
                    total[i, j] += scratch[i, j]
            T.copy(acc, Out)
            T.copy(total, Total)

    return main


def ref_program(A, B, C, T_tiles=3, num_stages=2, threads=128):
    M = K = 64
    acc = sum(A[t * M : (t + 1) * M].double() @ B[t * K : (t + 1) * K].double() for t in range(T_tiles))
    total = sum(C[t * (K // 2) : (t + 1) * (K // 2)].double() for t in range(T_tiles))
    return acc.float(), total.float()
