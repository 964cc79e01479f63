# A row statistic of one accumulator rescales another accumulator whose gemm can only take
# mma.sync (float32 operands: tf32) -- the row fragment is shared between a wgmma accumulator
# (warpgroup order) and an mma.sync one (plain order). mode=1 instead accumulates the tf32 gemm
# into the SAME accumulator (the WarpgroupOrder e2e test's tf32_tail), mode=2 uses an fp16 gemm
# for acc2 too (both can take wgmma).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4])
def mixed_rows(M=256, N=128, N2=64, K=64, block_M=128, threads=128, policy=1, mode=0, dtype="float16"):
    pol = [T.GemmWarpPolicy.Square, T.GemmWarpPolicy.FullRow, T.GemmWarpPolicy.FullCol][policy]
    d2 = "float32" if mode != 2 else dtype

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), A2: T.Tensor((M, 16), d2),
             B2: T.Tensor((16, N2), d2), C: T.Tensor((M, N2), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bm,):
            A_s = T.alloc_shared((block_M, K), dtype)
            B_s = T.alloc_shared((K, N), dtype)
            A2_s = T.alloc_shared((block_M, 16), d2)
            B2_s = T.alloc_shared((16, N2), d2)
            acc = T.alloc_fragment((block_M, N), "float32")
            acc2 = T.alloc_fragment((block_M, N2), "float32")
            m = T.alloc_fragment((block_M,), "float32")
            T.copy(A[bm * block_M, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.copy(A2[bm * block_M, 0], A2_s)
            T.copy(B2[0, 0], B2_s)
            T.clear(acc)
            T.gemm(A_s, B_s, acc, policy=pol)
            T.reduce_max(acc, m, dim=1)
            T.clear(acc2)
            T.gemm(A2_s, B2_s, acc2, policy=pol)
            for i, j in T.Parallel(block_M, N2):
                acc2[i, j] = acc2[i, j] * m[i]
            T.copy(acc2, C[bm * block_M, 0])

    return main


def ref_program(A, B, A2, B2):
    m = (A.double() @ B.double()).amax(dim=1, keepdim=True)
    return ((A2.double() @ B2.double()) * m).float()
