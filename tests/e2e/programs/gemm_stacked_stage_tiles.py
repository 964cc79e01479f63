# T.gemm over one tile of a stack of shared tiles (a hand-written double buffer, the form of the
# corpus' MLA/sparse-MLA decode kernels: KV_shared[stage, :, : dim // 2]) on sm_90a's wgmma
# fragment path. The B tiles are loaded by hand with T.ptx_cp_async, 8 halves (16 bytes) per
# thread starting at column 8 * (tx % (N / 8)) + off: with off = 0 each copy is one 16-byte chunk of a
# row, which the wgmma swizzle keeps whole, so the stack takes the wgmma layout; off = 4 starts
# copies mid-chunk (the first 4 columns are then never loaded: compiled only) and the gemm
# stays on mma.sync with a note. The gemm has no policy (one
# warpgroup: wgmma's partition is the only one) and reads the stage's first `cols` columns.
#   C = sum over k of A[:, k-block] @ B[k-block rows, :cols]      (fp32 accumulation)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def gemm_stacked(M=64, N=128, K=256, cols=64, off=0, dtype="float16"):
    BK = 64

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, cols), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            tx = T.get_thread_binding()
            A_s = T.alloc_shared((M, BK), dtype)
            B_s = T.alloc_shared((2, BK, N), dtype)
            acc = T.alloc_fragment((M, cols), "float32")
            T.clear(acc)
            for kb in T.serial(K // BK):
                stage = kb % 2
                T.copy(A[0:M, kb * BK:(kb + 1) * BK], A_s)
                for r in T.serial(BK * N // 8 // 128):
                    row = r * (128 * 8 // N) + tx // (N // 8)
                    col = (tx % (N // 8)) * 8 + off
                    if col + 8 <= N:
                        T.ptx_cp_async(T.access_ptr(B_s[stage, row, col], "w", 8),
                                       T.access_ptr(B[kb * BK + row, col], "r", 8), 8)
                T.ptx_commit_group()
                T.ptx_wait_group(0)
                T.sync_threads()
                T.gemm(A_s, B_s[stage, :, :cols], acc)
                T.sync_threads()
            T.copy(acc, C)

    return main


def ref_program(A, B, cols):
    return A @ B[:, :cols]
