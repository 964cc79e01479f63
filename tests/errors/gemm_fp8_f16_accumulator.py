import tilelang.language as T


# fp8 T.gemm needs a float32 accumulator on this target (the sm_80 path widens to f16 and accumulates in f32).
@T.prim_func
def main(A: T.Tensor((64, 64), "float8_e4m3"), B: T.Tensor((64, 64), "float8_e4m3"), C: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as (bx,):
        A_shared = T.alloc_shared((64, 64), "float8_e4m3")
        B_shared = T.alloc_shared((64, 64), "float8_e4m3")
        C_local = T.alloc_fragment((64, 64), "float16")
        T.copy(A, A_shared)
        T.copy(B, B_shared)
        T.gemm(A_shared, B_shared, C_local)  # expect-error: no mma.sync for float8_e4m3 operands with a float16 accumulator
        T.copy(C_local, C)
