# Golden: a small pipelined GEMM (2 stages, 64x64x32 tiles, 4 warps): the mma accumulator and
# swizzled operand layouts, the cp.async schedule, gemm_ss lowering, barriers and smem offsets.
# golden: infer-layouts plan-pipelines inject-pipeline lower-tile-ops plan-smem lower-to-threads
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=128, N=128, K=128, block_M=64, block_N=64, block_K=32, dtype="float16", num_stages=2, threads=128):

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main
