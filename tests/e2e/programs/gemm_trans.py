# T.gemm with transposed operands (transpose_A / transpose_B), otherwise the samples/gemm.py
# pipeline: exercises the ldmatrix(.trans) operand paths of gemm_ss and their swizzled shared
# tiles stored [K][M] / [N][K]. LoweredInterpTest runs every combination on the thread-level
# interpreter against a float64 product. The dtype parameters select the mma atom
# (GemmDtypesE2ETest, bench/gemm_dtypes_check.sh): dtype=float16 accum_dtype=float16
# out_dtype=float16 (m16n8k16 .f16 accumulator), dtype=float8_e4m3|float8_e5m2 out_dtype=float32
# (m16n8k32 fp8, widened to f16 on sm_80), dtype=int8 accum_dtype=int32 out_dtype=int32
# (m16n8k32 .s8, exact), dtype=float32 out_dtype=float32 (tf32 m16n8k8: check with --rtol 2e-3).
#   tilec run tests/e2e/programs/gemm_trans.py --param transpose_a=True --interp=lowered
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm_trans(M=128, N=128, K=64, block_M=128, block_N=128, block_K=32, transpose_a=False, transpose_b=True,
               dtype="float16", accum_dtype="float", out_dtype="float16", num_stages=3, threads=128, k_pack=1):
    a_shape = (K, M) if transpose_a else (M, K)
    b_shape = (N, K) if transpose_b else (K, N)
    a_tile = (block_K, block_M) if transpose_a else (block_M, block_K)
    b_tile = (block_N, block_K) if transpose_b else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(a_shape, dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared(a_tile, dtype)
            B_shared = T.alloc_shared(b_tile, dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                if transpose_a:
                    T.copy(A[k * block_K, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                if transpose_b:
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_A=transpose_a, transpose_B=transpose_b,
                       k_pack=k_pack)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


# ref_program sees the factory's flags (bound parameter values).
def ref_program(A, B):
    a = A.T if transpose_a else A
    b = B.T if transpose_b else B
    return a.double() @ b.double()  # fp8/int8 values are exact in float64


flops = 2 * M * N * K
bytes = (M * K + K * N + M * N) * 2
