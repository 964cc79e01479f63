# float4_e2m1fn (OCP FP4 E2M1) storage and conversion: float32 inputs scaled and rounded to fp4 in
# a register fragment, moved through a shared tile to a packed global fp4 tensor Q (two values per
# byte: threads write neighbouring nibbles of one byte), and read back from shared memory as
# float32 D. Both outputs hold round(X * scale) in fp4 (nearest, ties to even, saturating at 6).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def fp4_roundtrip(M=16, N=64, block_M=8, scale=1.0, threads=128):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Q: T.Tensor((M, N), T.float4_e2m1fn),
             D: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            q_local = T.alloc_fragment((block_M, N), "float4_e2m1fn")
            q_shared = T.alloc_shared((block_M, N), "float4_e2m1fn")
            for i, j in T.Parallel(block_M, N):
                q_local[i, j] = X[bx * block_M + i, j] * scale
            T.copy(q_local, q_shared)
            T.copy(q_shared, Q[bx * block_M, 0])
            for i, j in T.Parallel(block_M, N):
                D[bx * block_M + i, j] = q_shared[i, j]

    return main
