# T.grid(M, N): TVM's nest of serial loops (TileLang's SIMT GEMM test accumulates per-thread tiles
# with `for i, j in T.grid(local_size_a, local_size_b)`). Each of 128 threads owns a 4 x 2 piece
# of a 32 x 32 output tile in registers, zeroed, accumulated over K and stored with T.grid nests.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def grid_loops(M=64, N=96, K=40, dtype=T.float32):
    block_M, block_N = 32, 32

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            acc = T.alloc_local((4, 2), T.float32)
            tx = T.get_thread_binding()
            row0 = by * block_M + (tx // 16) * 4
            col0 = bx * block_N + (tx % 16) * 2
            for i, j in T.grid(4, 2):
                acc[i, j] = 0.0
            for k in T.serial(K):
                for i, j in T.grid(4, 2):
                    if row0 + i < M and col0 + j < N:
                        acc[i, j] += T.cast(A[row0 + i, k], T.float32) * T.cast(B[k, col0 + j], T.float32)
            for i, j in T.grid(4, 2):
                if row0 + i < M and col0 + j < N:
                    C[row0 + i, col0 + j] = T.cast(acc[i, j], dtype)

    return main


def ref_program(A, B):
    return A @ B
