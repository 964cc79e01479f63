# A GEMM whose row count M is a symbolic size (one compile serves every M) and whose result is
# scaled by a scalar kernel parameter: C = scale * (A @ B). M is bound from A's first dimension
# at launch; the grid's y extent is T.ceildiv(M, block_M); rows past M are predicated away.
import tilelang
import tilelang.language as T

accum_dtype = T.float32


@tilelang.jit
def dyn_gemm(N=64, K=96, block_M=32, block_N=32, block_K=32, dtype=T.float16):
    M = T.dynamic("M")

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), accum_dtype), scale: T.float32):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, C_local)
            for i, j in T.Parallel(block_M, block_N):
                C_local[i, j] = C_local[i, j] * scale
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main
