# TMA eligibility sweep, gemm kernel (issue 9): C = A[:, off:] @ B[off:, :] with the K range
# starting `off` elements into A's rows and B's columns... of B's rows, `tail` long, in 64-wide
# K tiles through a T.Pipelined loop (the last tile partly out of bounds unless tail % 64 == 0).
# On sm_90a the operand copies are TMA loads exactly when both tensors' row pitches are multiples
# of 16 bytes (cuTensorMapEncodeTiled's globalStrides rule): A's pitch is (off + tail) elements,
# B's is N. With small-integer inputs (--input A=int:-4:4 --input B=int:-4:4) every sum is exact
# in float32, so the GPU result must equal the float64 reference bit for bit.
#   tilec run tests/e2e/programs/tma_sweep_gemm.py --param off=3 --param tail=77 --target cuda:sm_90a
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def tma_sweep_gemm(off=0, tail=64, dtype="float16", M=64, N=64, block_K=64, num_stages=2):
    K = off + tail

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, T.ceildiv(M, 64), threads=128) as (bx, by):
            A_shared = T.alloc_shared((64, block_K), dtype)
            B_shared = T.alloc_shared((block_K, N), dtype)
            C_local = T.alloc_fragment((64, N), "float32")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(tail, block_K), num_stages=num_stages):
                T.copy(A[by * 64, off + k * block_K], A_shared)
                T.copy(B[off + k * block_K, 0], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * 64, 0])

    return main


def ref_program(A, B, off):
    return A[:, off:].float() @ B[off:, :].float()
