# Two independent accumulators in one kernel: acc1 = A @ B (fp16, could take wgmma in warpgroup
# order) and acc2 = A @ B + A2 @ B2 where the second gemm of acc2 is float32 (tf32: mma.sync only),
# so acc2 must keep the plain mma.sync grid. Does acc1 keep wgmma? (conflict=0 drops the tf32 gemm;
# own_tiles=1 gives acc2's fp16 gemm its own shared tiles, else both fp16 gemms read A_s and B_s)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4, 5])
def independent(M=256, N=128, K=64, block_M=128, threads=128, conflict=1, own_tiles=0):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), A2: T.Tensor((M, 16), "float32"),
             B2: T.Tensor((16, N), "float32"), C1: T.Tensor((M, N), "float32"), C2: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bm,):
            A_s = T.alloc_shared((block_M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            A2_s = T.alloc_shared((block_M, 16), "float32")
            B2_s = T.alloc_shared((16, N), "float32")
            acc1 = T.alloc_fragment((block_M, N), "float32")
            acc2 = T.alloc_fragment((block_M, N), "float32")
            m = T.alloc_fragment((block_M,), "float32")
            T.copy(A[bm * block_M, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.copy(A2[bm * block_M, 0], A2_s)
            T.copy(B2[0, 0], B2_s)
            T.clear(acc1)
            T.gemm(A_s, B_s, acc1, policy=T.GemmWarpPolicy.FullRow)
            T.reduce_max(acc1, m, dim=1)
            for i, j in T.Parallel(block_M, N):
                acc1[i, j] = acc1[i, j] - m[i]
            T.copy(acc1, C1[bm * block_M, 0])
            T.clear(acc2)
            if own_tiles:
                # acc2's fp16 gemm reads its own copies of the tiles (no shared operand with acc1's)
                A3_s = T.alloc_shared((block_M, K), "float16")
                B3_s = T.alloc_shared((K, N), "float16")
                T.copy(A[bm * block_M, 0], A3_s)
                T.copy(B[0, 0], B3_s)
                T.gemm(A3_s, B3_s, acc2, policy=T.GemmWarpPolicy.FullRow)
            else:
                T.gemm(A_s, B_s, acc2, policy=T.GemmWarpPolicy.FullRow)
            if conflict:
                T.gemm(A2_s, B2_s, acc2, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, N):
                acc2[i, j] = acc2[i, j] * 2.0
            T.copy(acc2, C2[bm * block_M, 0])

    return main


def ref_program(A, B, A2, B2, conflict=1, own_tiles=0):
    c1 = A.double() @ B.double()
    c1 = c1 - c1.amax(dim=1, keepdim=True)
    c2 = A.double() @ B.double()
    if conflict:
        c2 = c2 + A2.double() @ B2.double()
    return c1.float(), (2.0 * c2).float()
