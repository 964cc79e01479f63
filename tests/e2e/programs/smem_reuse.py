# Two phases, each staging a 64 x 512 float32 tile (128 KiB) in shared memory: together 256 KiB,
# more than sm_90a's 227 KiB per block, so the kernel fits only because plan-smem lets the
# second phase's tile S2 reuse the bytes of the first phase's S1 (disjoint live ranges). The
# phase-1 result crosses over in a fragment, so a bad overlap shows up in C.
import tilelang
import tilelang.language as T


def smem_reuse(M=128, N=512, W=64, bm=64):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"),
             C: T.Tensor((M, W), "float32")):
        with T.Kernel(M // bm, threads=128) as (bx,):
            S1 = T.alloc_shared((bm, N), "float32")
            S2 = T.alloc_shared((bm, N), "float32")
            F = T.alloc_fragment((bm, W), "float32")
            T.copy(A[bx * bm, 0], S1)
            for i, j in T.Parallel(bm, W):
                F[i, j] = S1[i, j] * 2.0 + S1[i, j + N - W]
            T.copy(B[bx * bm, 0], S2)
            for i, j in T.Parallel(bm, W):
                F[i, j] = F[i, j] + S2[i, j] + S2[i, j + N - W]
            T.copy(F, C[bx * bm, 0])
    return main


def ref_program(A, B):
    W = 64
    return A[:, :W] * 2.0 + A[:, -W:] + B[:, :W] + B[:, -W:]
